"""Runtime values are plain JSON data: int, str, bool, None, list and dict (records).

Spaces, enum members and table items are strings, players are ints from 1, so a state saves as
JSON without any conversion and a move's text reads like the rulebook.
"""
from __future__ import annotations


def to_text(value) -> str:
    """The canonical text of a value, used for move texts and ``{holes}`` in strings."""
    if value is None:
        return "none"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, list):
        return " ".join(to_text(v) for v in value)
    if isinstance(value, dict):
        return " ".join(to_text(v) for v in value.values())
    return str(value)


def copy_value(value):
    """A deep copy of JSON-like data, fast for the flat lists that dominate game state."""
    if isinstance(value, list):
        for v in value:
            if type(v) is list or type(v) is dict:
                return [copy_value(v) for v in value]
        return value[:]
    if isinstance(value, dict):
        return {k: copy_value(v) for k, v in value.items()}
    return value
