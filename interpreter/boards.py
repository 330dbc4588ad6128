"""Board geometry: square grids (4 or 8 headings, optional wrap) and directed graphs.

Spaces are strings so saves and move texts stay readable: a grid space is its row letter (A at the
bottom) followed by its column number ("E5"); a graph space is the name the rules give it.
Everything here is precomputed once per game so a step on the board is a dict lookup.
"""
from __future__ import annotations

import string

import attrs

from rulewright.dsl.errors import RulesRuntimeError

# Unit vectors (d_row, d_col) for headings listed counter-clockwise from "increasing column".
_VECTORS_4 = [(0, 1), (1, 0), (0, -1), (-1, 0)]
_VECTORS_8 = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]


def grid_space_name(row: int, col: int) -> str:
    """Row 0 is 'A' (the bottom row); columns count from 1."""
    return f"{string.ascii_uppercase[row]}{col + 1}"


@attrs.define(slots=False)
class GridBoard:
    name: str
    rows: int
    cols: int
    headings: tuple
    wrap_cols: bool = False
    wrap_rows: bool = False
    spaces: list = attrs.field(factory=list)
    coords: dict = attrs.field(factory=dict)
    _step: dict = attrs.field(factory=dict)
    _wraps: dict = attrs.field(factory=dict)
    _lines: dict = attrs.field(factory=dict)

    def __attrs_post_init__(self):
        vectors = _VECTORS_4 if len(self.headings) == 4 else _VECTORS_8
        self.vectors = dict(zip(self.headings, vectors))
        for r in range(self.rows):
            for c in range(self.cols):
                name = grid_space_name(r, c)
                self.spaces.append(name)
                self.coords[name] = (r, c)
        for name, (r, c) in self.coords.items():
            for heading, (dr, dc) in self.vectors.items():
                nr, nc = r + dr, c + dc
                wrapped = False
                if self.wrap_cols and not 0 <= nc < self.cols:
                    nc %= self.cols
                    wrapped = True
                if self.wrap_rows and not 0 <= nr < self.rows:
                    nr %= self.rows
                    wrapped = True
                inside = 0 <= nr < self.rows and 0 <= nc < self.cols
                self._step[name, heading] = grid_space_name(nr, nc) if inside else None
                self._wraps[name, heading] = wrapped and inside

    def step(self, space, heading):
        return self._step.get((space, heading))

    def wraps(self, space, heading) -> bool:
        return self._wraps.get((space, heading), False)

    def rotate(self, heading, turns: int):
        """Turn by ``turns`` steps counter-clockwise (negative: clockwise)."""
        if heading not in self.vectors:
            raise RulesRuntimeError(f"{heading!r} is not a heading of this board ({', '.join(self.headings)})")
        i = self.headings.index(heading)
        return self.headings[(i + turns) % len(self.headings)]

    def row(self, space) -> int:
        return self.coords[space][0] + 1

    def col(self, space) -> int:
        return self.coords[space][1] + 1

    def space(self, row: int, col: int):
        if 1 <= row <= self.rows and 1 <= col <= self.cols:
            return grid_space_name(row - 1, col - 1)
        return None

    def neighbours(self, space) -> list:
        return [s for h in self.headings if (s := self._step[space, h]) is not None]

    def lines(self, length: int, through=None) -> list:
        """Every straight run of ``length`` spaces (rows, columns and, with 8 headings, diagonals),
        or only those through one space; computed once per board."""
        key = (length, through)
        if key not in self._lines:
            every = self._all_lines(length)
            self._lines[key] = every if through is None else [run for run in every if through in run]
        return [list(run) for run in self._lines[key]]  # copies: a rule may change what it gets

    def _all_lines(self, length: int) -> list:
        half = self.headings[: len(self.headings) // 2]
        out = []
        for start in self.spaces:
            for heading in half:
                run = [start]
                s = start
                for _ in range(length - 1):
                    s = self._step[s, heading] if not self._wraps[s, heading] else None
                    if s is None:
                        break
                    run.append(s)
                if len(run) == length:
                    out.append(run)
        return out


@attrs.define(slots=False)
class GraphBoard:
    name: str
    successors: dict  # space -> list of spaces the arrows lead to
    spaces: list = attrs.field(factory=list)

    def __attrs_post_init__(self):
        seen = dict.fromkeys(self.successors)
        for targets in self.successors.values():
            for t in targets:
                seen.setdefault(t, None)
        self.spaces = list(seen)
        for s in self.spaces:
            self.successors.setdefault(s, [])
        self.predecessors = {s: [] for s in self.spaces}
        for s, targets in self.successors.items():
            for t in targets:
                self.predecessors[t].append(s)

    def next(self, space) -> list:
        return list(self.successors[space])

    def previous(self, space) -> list:
        return list(self.predecessors[space])

    def neighbours(self, space) -> list:
        return self.next(space)
