"""Runtime values are plain JSON data: int, str, bool, None, list and dict (records).

Spaces, enum members and table items are strings, players are ints from 1, so a state saves as
JSON without any conversion and a move's text reads like the rulebook.
"""
from __future__ import annotations

from rulewright.interpreter.engine import limits


def to_text(value) -> str:
    """The canonical text of a value, used for move texts and ``{holes}`` in strings."""
    if value is None:
        return "none"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, list):
        limits.spend(len(value))  # a list holding the same list twice, nested deep, is a long text
        return " ".join(to_text(v) for v in value)
    if isinstance(value, dict):
        limits.spend(len(value))
        return " ".join(to_text(v) for v in value.values())
    return str(value)


def short_text(value, most: int = 40) -> str:
    """The text of a value, cut after about ``most`` letters; costs no work (for messages)."""
    if not isinstance(value, (list, dict)):
        return to_text(value)
    out, size, todo = [], 0, [value]
    while todo and size <= most:
        v = todo.pop()
        if isinstance(v, (list, dict)):
            todo.extend(reversed(list(v.values() if isinstance(v, dict) else v)[:most]))
            continue
        out.append(to_text(v)[:most])
        size += len(out[-1]) + 1
    return " ".join(out) + (" ..." if todo else "")


# the kinds of value nothing changes in place: a copy of one is the value itself (shared, not copied)
SCALARS = frozenset((int, str, bool, float, type(None)))


def copy_value(value):
    """A deep copy of JSON-like data, fast for the flat lists that dominate game state; counted as work
    (copying a list that holds the same list twice, nested, doubles with each level)."""
    if isinstance(value, list):
        for v in value:
            if type(v) is list or type(v) is dict:
                limits.spend(len(value))
                return [copy_value(v) for v in value]
        if len(value) > 32:  # a short flat list costs little: the steps bound how often (limits.py)
            limits.spend(len(value))
        return value[:]
    if isinstance(value, dict):
        work = limits.work
        work.left -= len(value)
        if work.left < 0:
            limits.exhausted()
        return {k: v if type(v) in SCALARS else copy_value(v) for k, v in value.items()}
    return value

def shown(value, named: bool = True) -> str:
    """A value in a message, as the rules would print it: numbers, yes/no and none as they are,
    text quoted, a list or a record named as one (unless not ``named``), long texts cut short."""
    t = type(value)
    if value is None or t is bool or t is int:
        return to_text(value)
    if t is str and not value:
        return "empty text"
    if t is list and not value:
        return "an empty list"
    if t is dict and not value:
        return "an empty map"
    text = short_text(value)
    if len(text) > 40:
        text = text[:37] + "..."
    if t is list and named:
        return f"the list '{text}'"
    if t is dict and named:
        return f"the map or record '{text}'"
    return f"'{text}'"


def kind_of(value) -> str:
    """The kind of a value, as the language names it, with its article."""
    return _KIND_WORDS.get(type(value).__name__, "a value")


# Python's type names, as the language names its kinds (interpreter/check/types.py): a record is a map
# with declared fields, so a Python error that names a dict cannot tell which of the two it was.
_KIND_WORDS = {"int": "a number", "float": "a number", "bool": "a yes/no value", "str": "text",
               "list": "a list", "tuple": "a list", "dict": "a record or map", "NoneType": "none",
               "GridBoard": "a grid board", "GraphBoard": "a board of arrows"}
