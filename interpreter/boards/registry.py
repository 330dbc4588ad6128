"""The registry of board kinds. A new kind is one module (see base.py) and one line here, or a call
to ``register`` from outside (tests/test_board_kind.py adds a ring)."""
from __future__ import annotations

from rulewright.interpreter.boards.base import Board
from rulewright.interpreter.boards.graph import GraphBoard
from rulewright.interpreter.boards.grid import GridBoard

KINDS: dict[str, type[Board]] = {}


def register(kind: type[Board]) -> type[Board]:
    """Make a board kind available to every rules file under its ``kind`` word."""
    for name, spec in kind.functions.items():
        for other in KINDS.values():
            same = other.functions.get(name)
            if same is not None and (same.min_args, same.max_args) != (spec.min_args, spec.max_args):
                raise ValueError(f"board function '{name}' takes other arguments on a {other.kind}")
    KINDS[kind.kind] = kind
    return kind


def board_functions() -> dict[str, list]:
    """Every board function name -> the kinds that support it."""
    out: dict = {}
    for kind in KINDS.values():
        for name in kind.functions:
            out.setdefault(name, []).append(kind.kind)
    return out


def function_spec(name: str):
    """The spec of a board function (its arity and kinds agree across kinds), or None."""
    for kind in KINDS.values():
        if name in kind.functions:
            return kind.functions[name]
    return None


register(GridBoard)
register(GraphBoard)
