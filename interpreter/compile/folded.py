"""What the compiler knows of an expression before it runs: its value (options and the player count are
fixed when a game is compiled), or that its source is cheap enough to write twice."""
from __future__ import annotations

import re


class Const:
    """An expression whose value is known while compiling (options and the player count are fixed)."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def is_simple(code: str) -> bool:
    """Source cheap enough, and free of effects, to be written twice rather than kept in a temporary."""
    return code.isidentifier() or (code[:1].isdigit() and code.isdigit()) or code in ("None", "True", "False")


_LOCAL_READ = re.compile(r"env\['[A-Za-z_$][\w$]*'\]")


def cannot_fail(code: str) -> bool:
    """Source that gives a value and does nothing else, never failing: a simple one, or the read of a
    procedure's local certainly set (``env['name']``: codegen reads any other through _missing)."""
    return is_simple(code) or _LOCAL_READ.fullmatch(code) is not None
