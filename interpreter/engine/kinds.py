"""The kinds of values the language has, as the checker names them."""
from __future__ import annotations

NUMBER, TEXT, BOOL, LIST, MAP, RECORD, NONE, UNKNOWN = "number", "text", "yes/no", "list", "map", "record", "none", None
# A player is a number (their seat); named apart so that a message can say "a player".
PLAYER = NUMBER


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
    return {NUMBER: "a number", TEXT: "text", BOOL: "a yes/no value", LIST: "a list", MAP: "a map",
            RECORD: "a record", NONE: "none"}.get(kind, str(kind))
