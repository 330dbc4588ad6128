"""What every board kind is: the protocol the checker, the compiler and the renderer rely on.

A board kind is one class (one module: grid.py, graph.py) registered in registry.py.
It reads its own declaration (the words after ``board NAME: KIND`` and the indented lines under it),
reports what is wrong with it, names the constants it declares (a grid's headings), lends the rules
the functions it supports (``step`` on a grid, ``next`` on a graph), and draws itself.

Spaces are strings so saves and move texts stay readable.
"""
from __future__ import annotations

from typing import Callable, ClassVar

import attrs

from rulewright.dsl import ast
from rulewright.interpreter.engine.builtins import Builtin
from rulewright.interpreter.engine.errors import NotASpace

# report(span, message, hint=""): how a board kind tells the checker what is wrong with a declaration
Report = Callable[..., None]


class Board:
    """The protocol: a board kind subclasses this and fills in every part."""

    kind: ClassVar[str] = ""                        # the word after 'board NAME:'
    functions: ClassVar[dict[str, Builtin]] = {}    # rule functions it supports; fn(board, *args)
    name: str
    spaces: list                                    # every space, in a fixed order

    @classmethod
    def check(cls, spec: ast.BoardSpec, report: Report) -> None:
        """Report every mistake in a declaration of this kind (before anything is built)."""
        raise NotImplementedError

    @classmethod
    def names(cls, spec: ast.BoardSpec) -> tuple:
        """The constants the declaration introduces, each equal to its own name (a grid's headings)."""
        return ()

    @classmethod
    def build(cls, name: str, spec: ast.BoardSpec) -> "Board":
        """The board a checked declaration describes."""
        raise NotImplementedError

    def layout(self, texts: dict, paths=()) -> list:
        """The board as lines of text, given what each space shows: each line a list of (piece,
        space), space None for the board's own parts (headings, names, arrows, the lines of ``paths``
        where the kind draws them), so a screen can colour what a space shows."""
        raise NotImplementedError

    def places(self) -> dict:
        """Where each space sits in a picture (svg.py), in units of one space: space -> (x, y), y down."""
        raise NotImplementedError

    def arrows(self) -> list:
        """The (from, to) pairs a picture draws as arrows (none on a grid)."""
        return []

    def margins(self) -> list:
        """Text drawn around the spaces, such as a grid's column numbers: (text, x, y) in the same units."""
        return []

    def draw(self, texts: dict) -> str:
        """The board as text, given what each space shows."""
        return "\n".join("".join(piece for piece, _space in line).rstrip() for line in self.layout(texts))

    def not_a_space(self, value) -> NotASpace:
        """The error a function of this board raises when given ``value``, which is not one of its spaces."""
        return NotASpace(value, self.spaces_hint())

    def spaces_hint(self) -> str:
        """What the spaces of this board are, for a hint."""
        names = ", ".join(self.spaces[:8]) + (", ..." if len(self.spaces) > 8 else "")
        return f"the board's spaces are {names}"


def board_function(method: str, min_args: int, max_args: int, result, doc: str = "", args=None, *,
                   gives_back: str, spaces: str = "") -> Builtin:
    """A rule function that calls the board's method of the same job (``gives_back``, ``spaces``: as
    Builtin's)."""
    return Builtin(lambda board, *a: getattr(board, method)(*a), min_args, max_args, "board", doc, result, args or (),
                   method=method, gives_back=gives_back, spaces=spaces)


def with_options(spec: ast.BoardSpec, options: dict) -> ast.BoardSpec:
    """The declaration as a game with these option values reads it (a kind may let a word name an option)."""
    return attrs.evolve(spec, options=dict(options))


def option_variants(spec: ast.BoardSpec, option_values: dict):
    """(spec, what differs) for every value each option a word names may take, the others at their
    first value: the declarations a checker checks ('' for the first, every option at its default)."""
    defaults = {name: values[0] for name, values in option_values.items()}
    yield with_options(spec, defaults), ""
    named = dict.fromkeys(w.id for w in spec.words if isinstance(w, ast.Name) and w.id in option_values)
    for name in named:
        for value in option_values[name][1:]:
            yield with_options(spec, {**defaults, name: value}), f" (when option '{name}' is {value})"


def words_text(spec: ast.BoardSpec) -> str:
    return " ".join(str(w.value if isinstance(w, ast.Literal) else w.id) for w in spec.words)


@attrs.frozen
class Word:
    """One word of a declaration, for kinds that read them in order."""
    value: object
    span: ast.Span
