"""The grammar, loaded once: the Lark LALR parser of dsl/rules.lark with its Indenter, the words it
reserves, and how it counts lines. The parser (dsl/parser.py), the messages of its errors
(dsl/syntax_errors.py) and the editor server (cli/lsp.py) read the grammar here.
"""
from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

from lark import Lark
from lark.indenter import Indenter

GRAMMAR = Path(__file__).with_name("rules.lark")


class RulesIndenter(Indenter):
    """Indentation as _INDENT and _DEDENT tokens; a newline inside brackets is no end of line."""
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@functools.cache
def lark() -> Lark:
    """The parser, with two start symbols: "start" (a rules file) and "expr" (the text of a {hole})."""
    # Building the parser tables takes longer than parsing a game: Lark keeps them in a file (it checks
    # the grammar, its options and its own version before it reads one back)
    text = GRAMMAR.read_text()
    return Lark(text, parser="lalr", postlex=RulesIndenter(),
                start=["start", "expr"], propagate_positions=True, maybe_placeholders=False,
                cache=_lark_cache_file(text))


def _lark_cache_file(grammar: str):
    """A file of its own for each grammar: two versions of rulewright on one machine (an upgrade while
    another runs, two checkouts) never write one file, which a reader could find half one and half the
    other's (Lark writes it in place)."""
    from rulewright.dsl import cache
    where = cache.folder()
    if where is None:
        return False
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return str(where / f"grammar-{hashlib.sha256(grammar.encode()).hexdigest()[:16]}.lark-cache")


def source_lines(text: str) -> list[str]:
    """The lines as Lark counts them: only '\\n' ends a line (a lone '\\r' or form feed does not)."""
    return [line.rstrip("\r") for line in text.split("\n")]


def keyword_of(terminal: str) -> str:
    """The word a terminal stands for, or '' when it is not a plain word ('choose', 'if', 'var')."""
    pattern = lark()._terminals_dict[terminal].pattern if terminal in lark()._terminals_dict else None
    if pattern is not None and pattern.type == "str" and re.fullmatch(r"[a-z]+", pattern.value):
        return pattern.value
    return ""


@functools.cache
def keywords() -> frozenset:
    """Every word the grammar reserves ('choose', 'if', 'var', 'secretly'...): no rules file may use one
    as a name. Read from the grammar's terminals, so a new keyword is here as soon as it is in
    dsl/rules.lark. The editor server completes and describes these words."""
    return frozenset(w for w in map(keyword_of, lark()._terminals_dict) if w)
