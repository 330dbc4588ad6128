"""A small document, written as Markdown and as one HTML page: headings, paragraphs, nested lists,
tables and pictures, made of inline pieces (plain text, code, the rules' own words, links).

The manual (manual.py) builds one from a rules file. Every name and text in it comes from a rules file,
which anyone may write: it is escaped here, once for each format, and nowhere else. The HTML page is
self-contained apart from its pictures (its style is inline, it runs no script, and its policy forbids
any), so a rules file cannot make the page load or run anything.
"""
from __future__ import annotations

import html
import re
from typing import Union

import attrs

from rulewright.dsl.texts import xml_safe


# ----------------------------------------------------------------------------------------- inline pieces
@attrs.frozen
class Code:
    """A name or an expression of the rules, shown as code."""
    text: str


@attrs.frozen
class Words:
    """The rules' own words (a prompt, a choice's text, a label), shown in quotation marks."""
    text: str


@attrs.frozen
class Strong:
    text: str


@attrs.frozen
class Link:
    """A link to a heading of the document (its anchor)."""
    text: str
    anchor: str


Inline = Union[str, Code, Words, Strong, Link]


# ----------------------------------------------------------------------------------------- blocks
@attrs.frozen
class Heading:
    level: int
    text: str
    anchor: str = ""


@attrs.frozen
class Para:
    line: tuple  # Inline pieces
    note: bool = False  # the rules' comments: set apart from what the manual says itself


@attrs.frozen
class Item:
    line: tuple
    children: tuple = ()  # blocks under the item (a nested list, a table)


@attrs.frozen
class Items:
    items: tuple  # Item


@attrs.frozen
class Table:
    head: tuple  # texts
    rows: tuple  # tuples of cells, each a tuple of Inline pieces


@attrs.frozen
class Source:
    """Lines of the rules, as written."""
    text: str


@attrs.frozen
class Picture:
    file: str     # beside the document
    caption: str


def line(*pieces) -> tuple:
    """Inline pieces, the empty ones left out."""
    return tuple(p for p in pieces if p)


def flat(text) -> str:
    """One line of text: a rules text may hold newlines and characters no page may."""
    return re.sub(r"\s+", " ", xml_safe(str(text)))


# ----------------------------------------------------------------------------------------- Markdown
_MD_SPECIAL = re.compile(r"([\\`*_\[\]|#])")
_MD_LINE_START = re.compile(r"^([-+*](\s|$)|>|=+\s*$|\d+[.)](\s|$))")


def _md_text(text: str) -> str:
    return _MD_SPECIAL.sub(r"\\\1", flat(text)).replace("<", "&lt;").replace(">", "&gt;")


def _md_code(text: str) -> str:
    text = flat(text)
    ticks = "`" * (max((len(t) for t in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def _md_inline(pieces, in_table: bool = False) -> str:
    """Inline pieces as Markdown; what would start a block at a line's start (a list's dash, a quote's
    sign, a number and a dot) is escaped there, and a pipe in a table's cell."""
    text = "".join(_MD_PIECES[type(p)](p) if not isinstance(p, str) else _md_text(p) for p in pieces)
    if in_table:
        return text.replace("\\|", "|").replace("|", "\\|")
    return "\\" + text if _MD_LINE_START.match(text) else text


_MD_PIECES = {Code: lambda p: _md_code(p.text), Words: lambda p: f"“{_md_text(p.text)}”",
              Strong: lambda p: f"**{_md_text(p.text)}**", Link: lambda p: f"[{_md_text(p.text)}](#{_md_url(p.anchor)})"}


def _md_block(block, indent: str = "") -> list:
    if isinstance(block, Heading):
        anchor = f'<a id="{html.escape(block.anchor, quote=True)}"></a>\n' if block.anchor else ""
        return [f"{anchor}{'#' * block.level} {_md_text(block.text)}", ""]
    if isinstance(block, Para):
        text = _md_inline(block.line)
        return [f"{indent}{'> ' if block.note else ''}{text}", ""]
    if isinstance(block, Items):
        out = []
        for item in block.items:
            out.append(f"{indent}- {_md_inline(item.line)}")
            for child in item.children:
                out += [x for x in _md_block(child, indent + "  ") if x]
        return out + [""]
    if isinstance(block, Table):
        out = [indent + "| " + " | ".join(_md_text(h) or " " for h in block.head) + " |",
               indent + "|" + "---|" * len(block.head)]
        for row in block.rows:
            out.append(indent + "| " + " | ".join(_md_inline(cell, in_table=True) or " " for cell in row) + " |")
        return out + [""]
    if isinstance(block, Picture):
        return [f"{indent}![{_md_text(block.caption)}]({_md_url(block.file)})", ""]
    if isinstance(block, Source):
        text = xml_safe(block.text)
        fence = "`" * max(3, max((len(t) for t in re.findall(r"`+", text)), default=0) + 1)
        return [f"{indent}{fence}text"] + [f"{indent}{x}" for x in text.split("\n")] + [f"{indent}{fence}", ""]
    raise TypeError(f"not a block: {block!r}")


def _md_url(file: str) -> str:
    return re.sub(r"[^A-Za-z0-9._~/-]", lambda m: "%%%02X" % ord(m.group(0)), file)


def to_markdown(blocks) -> str:
    out = []
    for b in blocks:
        out += _md_block(b)
    return "\n".join(out).rstrip() + "\n"


# ----------------------------------------------------------------------------------------- HTML
_STYLE = """
body { font-family: Georgia, 'DejaVu Serif', serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       line-height: 1.45; color: #212121; }
h1, h2, h3, h4 { font-family: 'DejaVu Sans', Arial, sans-serif; line-height: 1.2; }
h2 { border-bottom: 1px solid #bdbdbd; padding-bottom: .2rem; margin-top: 2.2rem; }
code { font-family: 'DejaVu Sans Mono', monospace; font-size: .85em; background: #f5f5f5; padding: 0 .2em;
       overflow-wrap: anywhere; }
.note { color: #5d4037; border-left: 3px solid #d7ccc8; padding-left: .7rem; font-style: italic; }
.words { color: #1a237e; }
table { border-collapse: collapse; margin: .6rem 0 1rem; font-size: .9em; }
th, td { border: 1px solid #e0e0e0; padding: .25rem .5rem; vertical-align: top; text-align: left; }
th { background: #eeeeee; font-family: 'DejaVu Sans', Arial, sans-serif; }
pre { background: #f5f5f5; padding: .4rem .6rem; overflow-x: auto; font-size: .8em; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; border: 1px solid #e0e0e0; }
figcaption { font-size: .9em; color: #616161; }
li { margin: .2rem 0; }
"""
# no script, no frame, no fetch: only the style above and the pictures beside the page
_POLICY = "default-src 'none'; img-src * data:; style-src 'unsafe-inline'"


def _h(text) -> str:
    return html.escape(flat(text), quote=True)


def _html_inline(pieces) -> str:
    return "".join(_HTML_PIECES[type(p)](p) if not isinstance(p, str) else _h(p) for p in pieces)


_HTML_PIECES = {Code: lambda p: f"<code>{_h(p.text)}</code>",
                Words: lambda p: f'“<span class="words">{_h(p.text)}</span>”',
                Strong: lambda p: f"<strong>{_h(p.text)}</strong>",
                Link: lambda p: f'<a href="#{_h(p.anchor)}">{_h(p.text)}</a>'}


def _html_block(block) -> str:
    if isinstance(block, Heading):
        anchor = f' id="{_h(block.anchor)}"' if block.anchor else ""
        return f"<h{block.level}{anchor}>{_h(block.text)}</h{block.level}>"
    if isinstance(block, Para):
        kind = ' class="note"' if block.note else ""
        return f"<p{kind}>{_html_inline(block.line)}</p>"
    if isinstance(block, Items):
        items = "".join(f"<li>{_html_inline(i.line)}{''.join(_html_block(c) for c in i.children)}</li>"
                        for i in block.items)
        return f"<ul>{items}</ul>"
    if isinstance(block, Table):
        head = "".join(f"<th>{_h(h)}</th>" for h in block.head)
        rows = "".join("<tr>" + "".join(f"<td>{_html_inline(c)}</td>" for c in row) + "</tr>" for row in block.rows)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
    if isinstance(block, Source):
        return f"<pre><code>{html.escape(xml_safe(block.text))}</code></pre>"
    if isinstance(block, Picture):
        return (f'<figure><img src="{_h(_md_url(block.file))}" alt="{_h(block.caption)}">'
                f"<figcaption>{_h(block.caption)}</figcaption></figure>")
    raise TypeError(f"not a block: {block!r}")


def to_html(blocks, title: str) -> str:
    body = "\n".join(_html_block(b) for b in blocks)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{_POLICY}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{_h(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n")
