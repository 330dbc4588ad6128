"""What a text from outside may hold, checked once where it enters, and what each output format cannot
hold (the writers escape for their format: cli/output.py, interpreter/present/svg.py).

A lone surrogate (U+D800..U+DFFF alone, as the escape "\\ud800" makes it) is no character: no UTF-8
output can encode it, so a text holding one would crash the first writer it reaches. A rules file's
escapes (dsl/parser.py), a protocol request (cli/serve.py) and a save or log read as JSON (cli/errors.py)
are refused when they hold one. A file read as UTF-8 cannot hold one: only an escape makes it."""
from __future__ import annotations

import re
from typing import Optional

LONE_SURROGATE = re.compile("[\ud800-\udfff]")
# JSON makes a surrogate only from an escape: without one in the source, no text of the data holds one
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
# XML 1.0 allows no C0 control but tab, newline and return, escaped or not, nor U+FFFE and U+FFFF
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def lone_surrogate(text: str) -> Optional[int]:
    """Where the first lone surrogate of ``text`` stands, or None."""
    found = LONE_SURROGATE.search(text)
    return found.start() if found else None


def json_lone_surrogate(source: str, data) -> Optional[str]:
    """The first text (a key or a value) of ``data``, read as JSON from ``source``, that holds a lone
    surrogate; None when there is none. Looks through the data only when the source
    holds a surrogate escape, so a plain save or request costs one scan of its text."""
    if not _SURROGATE_ESCAPE.search(source):
        return None
    return holds_lone_surrogate(data)


def holds_lone_surrogate(data) -> Optional[str]:
    """The first text (a key or a value) of the JSON-like ``data`` that holds a lone surrogate, or None."""
    stack = [data]
    while stack:  # by hand, not recursion: JSON may nest deeper than Python's stack
        item = stack.pop()
        if isinstance(item, str):
            if LONE_SURROGATE.search(item):
                return item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, lone surrogates and control characters escaped, cut at ``limit``."""
    return repr(text if len(text) <= limit else text[:limit] + "...")  # repr escapes both


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 forbids (even escaped) replaced by U+FFFD."""
    return NOT_XML.sub("\ufffd", text)
