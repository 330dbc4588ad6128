"""The kinds of values the language has, and their names in messages: the one place that names them.

The checker speaks of kinds (``NUMBER``, ``LIST``...; ``article`` names one in a sentence); the engine,
of the kind of a value it holds (``kind_of``): at run time a record is a dict, as a map is, so a value
cannot tell which of the two it is.
"""
from __future__ import annotations

NUMBER, TEXT, BOOL, LIST, MAP, RECORD, NONE, UNKNOWN = "number", "text", "yes/no", "list", "map", "record", "none", None
# A player is a number (their seat); named apart so that a message can say "a player".
PLAYER = NUMBER

_ARTICLES = {NUMBER: "a number", TEXT: "text", BOOL: "a yes/no value", LIST: "a list", MAP: "a map",
             RECORD: "a record", NONE: "none"}
# the kind of a run-time value by its Python type (a dict is a record or a map; a tuple, a board's pair)
_OF_TYPE = {int: _ARTICLES[NUMBER], float: _ARTICLES[NUMBER], bool: _ARTICLES[BOOL], str: _ARTICLES[TEXT],
            list: _ARTICLES[LIST], tuple: _ARTICLES[LIST], dict: f"{_ARTICLES[RECORD]} or {MAP}",
            type(None): _ARTICLES[NONE]}


def literal_kind(value):
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return NUMBER
    if isinstance(value, str):
        return TEXT
    if value is None:
        return NONE
    if isinstance(value, list):
        return LIST
    if isinstance(value, dict):
        return MAP
    return UNKNOWN


def article(kind) -> str:
    """A kind in a sentence: "a number", "text", "a yes/no value"..."""
    return _ARTICLES.get(kind, str(kind))


def kind_of(value) -> str:
    """The kind of a run-time value in a sentence, with its article ("a record or map" for a dict)."""
    return _OF_TYPE.get(type(value), "a value")
