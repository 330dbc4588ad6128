"""What the secrecy check knows at one point of a block: the labels of values (``Val``), the locals and
the condition a statement runs under (``Point``), what a procedure or block does (``Analysis``,
``Summary``) and where a store goes (``Place``). A label is a frozenset of tags, the empty set public
(the tags are described in secrecy/__init__.py)."""
from __future__ import annotations

from typing import Optional

import attrs

PUBLIC: frozenset = frozenset()
NO_ROOTS: frozenset = frozenset()


@attrs.frozen
class Val:
    """What the check knows of a local: its label, the label of its length, the game variables it is
    part of (a write through it changes them), the key of the player it names, and the announced
    choice it holds (rule 5)."""
    label: frozenset = PUBLIC
    length: frozenset = PUBLIC
    roots: frozenset = NO_ROOTS
    key: Optional[str] = None
    mark: Optional[str] = None

    def join(self, other: "Val") -> "Val":
        if self == other:
            return self
        key = self.key if self.key == other.key or other.key is None else \
            other.key if self.key is None else f"{self.key} or {other.key}"  # either player: neither's key
        return Val(self.label | other.label, self.length | other.length, self.roots | other.roots, key,
                   self.mark or other.mark)


class Point:
    """What the check knows at one point of a block: the locals, the label of the condition the
    statement runs under (pc), the variables revealed, and the face-up facts ((local, field) known true)."""
    __slots__ = ("env", "pc", "revealed", "face_up", "near", "quiet")

    def __init__(self, env=None, pc=PUBLIC, revealed=frozenset(), face_up=frozenset()):
        self.env: dict = env if env is not None else {}
        self.pc = pc
        self.revealed = revealed
        self.face_up = face_up
        self.near = PUBLIC    # the secrets the enclosing conditions read themselves (named first)
        self.quiet = None     # the pc already reported in this region: one report per secret condition

    def copy(self) -> "Point":
        st = Point(dict(self.env), self.pc, self.revealed, self.face_up)
        st.near, st.quiet = self.near, self.quiet
        return st

    def under(self, pc: frozenset, near: frozenset) -> "Point":
        """A copy for a block run under one more condition."""
        st = self.copy()
        st.pc = self.pc | pc
        st.near = self.near | near
        return st

    def bound(self, name: str, val: Val) -> "Point":
        st = self.copy()
        st.env[name] = val
        return st


def join_points(base: Point, states: list) -> Point:
    """The point after branches: each local joined over the branches that have it."""
    if not states:
        return base
    env: dict = {}
    for s in states:
        for name, val in s.env.items():
            env[name] = env[name].join(val) if name in env else val
    face_up = states[0].face_up
    for s in states[1:]:
        face_up = face_up & s.face_up
    out = Point(env, base.pc, base.revealed, face_up)
    out.near, out.quiet = base.near, base.quiet
    return out


class Analysis:
    """One analysis of a procedure or a block: what it returns and what it does that others see."""

    def __init__(self, name: str):
        self.name = name
        self.ret: Optional[Val] = None
        self.deciders: list = []      # the players it may ask, in order
        self.effect: Optional[str] = None

    def asks(self, who: str):
        if who not in self.deciders:
            self.deciders.append(who)

    def does(self, what: str):
        if self.effect is None:
            self.effect = what


@attrs.frozen
class Summary:
    ret: Val
    deciders: tuple
    effect: Optional[str]
    # (rule, message, hint, argument index, ((procedure, file, line), ...)): what only the arguments'
    # secrets make it report, and where (through the procedures it passes them to)
    leaks: tuple = ()


@attrs.frozen
class Place:
    """Where a store goes: the game variables it changes, the label of which entry (path), the local
    it changes, and whether it lands in a face-down field."""
    roots: frozenset = NO_ROOTS
    path: frozenset = PUBLIC
    local: Optional[str] = None
    face_down: bool = False
