"""The grid board kind: ``board b: grid ROWS by COLS [headings h1 h2 ...] [wrap columns] [wrap rows]``;
ROWS and COLS are numbers or options of numbers.

A space is its row letter (A at the bottom) followed by its column number ("E5"). Headings are listed
counter-clockwise from the direction of increasing column; 4 or 8 of them. Every step and wrap is
precomputed, so a step on the board is a dict lookup.
"""
from __future__ import annotations

import string

from rulewright.dsl import ast
from rulewright.dsl.errors import RulesRuntimeError, suggest
from rulewright.interpreter.boards import shapes
from rulewright.interpreter.boards.base import Board, board_function
from rulewright.interpreter.engine.builtins import FRESH, OTHER, SPACE, SPACE_LIST
from rulewright.interpreter.engine.kinds import BOOL, LIST, NUMBER, TEXT

# Unit vectors (d_row, d_col) for headings listed counter-clockwise from "increasing column".
_VECTORS_4 = [(0, 1), (1, 0), (0, -1), (-1, 0)]
_VECTORS_8 = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
DEFAULT_HEADINGS = ("right", "up", "left", "down")
_WRAPS = ("columns", "rows")


def grid_space_name(row: int, col: int) -> str:
    """Row 0 is 'A' (the bottom row); columns count from 1."""
    return f"{string.ascii_uppercase[row]}{col + 1}"


def _read(spec: ast.BoardSpec, report=None):
    """(rows, cols, headings, wraps) from the words; mistakes go to ``report`` when given."""
    def bad(span, message, hint=""):
        if report is not None:
            report(span, message, hint)

    words = list(spec.words)
    values = [w.value if isinstance(w, ast.Literal) else w.id for w in words]
    for i in (0, 2):  # a size may name an option of numbers: grid rows by columns
        if i < len(values) and isinstance(words[i], ast.Name) and words[i].id in spec.options:
            values[i] = spec.options[words[i].id]
            if type(values[i]) is not int:
                bad(words[i].span, f"option '{words[i].id}' is {values[i]!r} here, not a number of "
                    f"{'rows' if i == 0 else 'columns'}", "a grid's size is a number, or an option whose values are numbers")
                return 1, 1, DEFAULT_HEADINGS, ()
    if len(values) < 3 or type(values[0]) is not int or values[1] != "by" or type(values[2]) is not int:
        named = next((w for i, w in enumerate(words[:3]) if i != 1 and isinstance(w, ast.Name)), None)
        if named is not None and len(values) >= 3 and values[1] == "by":
            bad(named.span, f"'{named.id}' is not a number, nor an option",
                f"write a number, or declare the option: option {named.id}: 8 | 10")
        else:
            bad(spec.span, "a grid is declared as 'grid ROWS by COLUMNS'", "for example: board b: grid 8 by 8")
        return 1, 1, DEFAULT_HEADINGS, ()
    rows, cols = values[0], values[2]
    headings: tuple = DEFAULT_HEADINGS
    wraps: list = []
    i = 3
    while i < len(values):
        word, span = values[i], words[i].span
        if word == "headings":
            j = i + 1
            while j < len(values) and values[j] not in ("wrap", "headings") and type(values[j]) is str:
                j += 1
            headings = tuple(values[i + 1:j])
            i = j
        elif word == "wrap" and i + 1 < len(values):
            if values[i + 1] not in _WRAPS:
                bad(words[i + 1].span, f"a grid wraps 'columns' or 'rows', not '{values[i + 1]}'",
                    suggest(str(values[i + 1]), _WRAPS))
            wraps.append(values[i + 1])
            i += 2
        else:
            bad(span, f"a grid does not understand '{word}'", suggest(str(word), ("headings", "wrap"))
                or "after 'grid R by C' come 'headings ...' and 'wrap columns' or 'wrap rows'")
            i += 1
    return rows, cols, headings, tuple(wraps)


class GridBoard(Board):
    kind = "grid"

    def __init__(self, name: str, rows: int, cols: int, headings: tuple = DEFAULT_HEADINGS,
                 wrap_cols: bool = False, wrap_rows: bool = False):
        self.name, self.rows, self.cols, self.headings = name, rows, cols, tuple(headings)
        self.wrap_cols, self.wrap_rows = wrap_cols, wrap_rows
        self.spaces: list = []
        self.coords: dict = {}
        self._step: dict = {}
        self._wraps: dict = {}
        self._lines: dict = {}
        vectors = _VECTORS_4 if len(self.headings) == 4 else _VECTORS_8
        self.vectors = dict(zip(self.headings, vectors))
        for r in range(rows):
            for c in range(cols):
                space = grid_space_name(r, c)
                self.spaces.append(space)
                self.coords[space] = (r, c)
        for space, (r, c) in self.coords.items():
            for heading, (dr, dc) in self.vectors.items():
                nr, nc = r + dr, c + dc
                wrapped = False
                if wrap_cols and not 0 <= nc < cols:
                    nc %= cols
                    wrapped = True
                if wrap_rows and not 0 <= nr < rows:
                    nr %= rows
                    wrapped = True
                inside = 0 <= nr < rows and 0 <= nc < cols
                self._step[space, heading] = grid_space_name(nr, nc) if inside else None
                self._wraps[space, heading] = wrapped and inside

    # ------------------------------------------------------------------ the protocol
    @classmethod
    def check(cls, spec, report):
        rows, cols, headings, _wraps = _read(spec, report)
        if not (1 <= rows <= 26 and 1 <= cols <= 99):
            # an option's value at fault is shown at the option's name
            size = spec.words[0 if not 1 <= rows <= 26 else 2]
            span = size.span if isinstance(size, ast.Name) else spec.span
            report(span, f"a grid of {rows} by {cols} cannot be drawn",
                   "a grid has 1 to 26 rows (named A to Z) and 1 to 99 columns")
        if len(headings) not in (4, 8) or len(set(headings)) != len(headings):
            report(spec.span, f"a grid has 4 or 8 different headings, not {len(headings)}",
                   "list them counter-clockwise, starting with the direction of increasing column")
        if spec.edges:
            report(spec.edges[0][2], "a grid has no indented lines under it", "only a graph lists its spaces")

    @classmethod
    def names(cls, spec):
        return _read(spec)[2]

    @classmethod
    def build(cls, name, spec):
        rows, cols, headings, wraps = _read(spec)
        return cls(name, rows, cols, headings, "columns" in wraps, "rows" in wraps)

    def layout(self, texts: dict, paths=()) -> list:
        """The rows top down under the column numbers; with ``paths``, a line between two rows draws
        the paths between them, and a path between two spaces of a row is drawn in the gap between them
        (path_marks)."""
        width = max(2, max(len(t) for t in texts.values()))
        marks = path_marks(self.coords, paths)
        lines = [[("   " + " ".join(str(c).rjust(width) for c in range(1, self.cols + 1)), None)]]
        for r in range(self.rows - 1, -1, -1):
            line = [(f"{string.ascii_uppercase[r]}  ", None)]
            for c in range(self.cols):
                space = grid_space_name(r, c)
                text = texts[space]
                gap = marks.get(("row", r, c - 1), " ") if c else ""
                line += [(gap + " " * (width - len(text)), None), (text, space)]
            lines.append(line)
            if marks and r:  # the paths between this row and the one below
                between = [" "] * (3 + self.cols * (width + 1))
                for c in range(self.cols):
                    between[3 + c * (width + 1) + width - 1] = marks.get(("column", r - 1, c), " ")
                    between[3 + c * (width + 1) + width] = marks.get(("corner", r - 1, c), " ")
                lines.append([("".join(between).rstrip(), None)])
        return lines

    def places(self) -> dict:
        return {s: (c, self.rows - 1 - r) for s, (r, c) in self.coords.items()}


    def margins(self) -> list:
        top = [(str(c + 1), c, -0.75) for c in range(self.cols)]
        left = [(string.ascii_uppercase[r], -0.75, self.rows - 1 - r) for r in range(self.rows)]
        return top + left

    # ------------------------------------------------------------------ what the rules call
    def inline_source(self, method: str, args: list, constant, call):
        """Generated source doing what ``method`` does with the sources ``args``, without calling it
        (codegen.py; ``constant(x)`` names x there, ``call(fn, *args)`` writes a call), or None."""
        if method == "step" and len(args) == 2:
            return call(f"{constant(self._step)}.get", f"({args[0]}, {args[1]})")
        if method == "wraps" and len(args) == 2:
            return call(f"{constant(self._wraps)}.get", f"({args[0]}, {args[1]})", "False")
        return None

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
        try:
            return self.coords[space][0] + 1
        except KeyError:
            raise self.not_a_space(space) from None

    def col(self, space) -> int:
        try:
            return self.coords[space][1] + 1
        except KeyError:
            raise self.not_a_space(space) from None

    def space(self, row: int, col: int):
        if 1 <= row <= self.rows and 1 <= col <= self.cols:
            return grid_space_name(row - 1, col - 1)
        return None

    def all_spaces(self) -> list:
        return list(self.spaces)

    def neighbours(self, space) -> list:
        try:
            return [s for h in self.headings if (s := self._step[space, h]) is not None]
        except KeyError:
            raise self.not_a_space(space) from None

    def spaces_hint(self) -> str:
        return f"a space of this grid is a row letter and a column number, from {self.spaces[0]} to {self.spaces[-1]}"

    def lines(self, length: int, through=None) -> list:
        """Every straight run of ``length`` spaces (rows, columns and, with 8 headings, diagonals),
        or only those through one space; computed once per board."""
        return [list(run) for run in self.lines_shared(length, through)]  # copies: a rule may change them

    def lines_shared(self, length: int, through=None) -> list:
        """lines(), the board's own lists: for a caller that only reads them (count, any, all)."""
        key = (length, through)
        if key not in self._lines:
            every = self._all_lines(length)
            self._lines[key] = every if through is None else [run for run in every if through in run]
        return self._lines[key]

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

    def shape_placements(self, shape, symmetry="all"):
        return shapes.placement_list(self, shape, symmetry)

    def shape_matches(self, shape, xs, symmetry="all"):
        return shapes.matches(self, shape, xs, symmetry)

    def shape_missing(self, shape, xs, symmetry="all"):
        return shapes.missing(self, shape, xs, symmetry)

    functions = {
        "step": board_function("step", 2, 2, None, "the next space along a heading, or none", ((TEXT,), (TEXT,)),
                               gives_back=FRESH, spaces=SPACE),
        "wraps": board_function("wraps", 2, 2, BOOL, "whether that step crosses a wrapping edge", gives_back=FRESH),
        "rotate": board_function("rotate", 2, 2, TEXT, "turn k headings counter-clockwise", ((TEXT,), (NUMBER,)),
                                 gives_back=FRESH),
        "row": board_function("row", 1, 1, NUMBER, "the row of a space, 1 at the bottom", gives_back=FRESH),
        "col": board_function("col", 1, 1, NUMBER, "the column of a space, 1 at the left", gives_back=FRESH),
        "space": board_function("space", 2, 2, None, "the space at a row and column, or none",
                                ((NUMBER,), (NUMBER,)), gives_back=FRESH, spaces=SPACE),
        "spaces": board_function("all_spaces", 0, 0, LIST, "every space of the board", gives_back=FRESH,
                                 spaces=SPACE_LIST),
        "neighbours": board_function("neighbours", 1, 1, LIST, "the spaces one step away", gives_back=FRESH,
                                     spaces=SPACE_LIST),
        "lines": board_function("lines", 1, 2, LIST, "every straight run of k spaces (through space s, if given)",
                                ((NUMBER,), (TEXT,)), gives_back=FRESH),
        "shape_placements": board_function("shape_placements", 1, 2, LIST,
                                           "every way to lay a shape on the grid (symmetry: fixed, rotations, all)",
                                           gives_back=OTHER),
        "shape_matches": board_function("shape_matches", 2, 3, LIST,
                                        "the placements of a shape whose every space is in the list xs",
                                        gives_back=OTHER),
        "shape_missing": board_function("shape_missing", 2, 3, None,
                                        "the fewest spaces of a placement of a shape not in the list xs, or none",
                                        gives_back=OTHER),
    }


# A quarter circle round a corner of four spaces, by the space it bends at: its corner's glyph.
_ARCS = {(0, 0): "╰", (0, 1): "╯", (1, 0): "╭", (1, 1): "╮"}  # (bend's row - corner's, column - corner's)


def path_marks(coords: dict, paths) -> dict:
    """The text grid's marks for ``paths`` (lists of spaces): ('row', r, c) the gap right of space (r, c),
    ('column', r, c) the gap above it, ('corner', r, c) the gap up and right of it -> a glyph. A line
    joins two neighbours ('─', '│', '╱', '╲'); a quarter circle from a space to a diagonal neighbour,
    bending at a space beside both, is its corner ('╭╮╰╯'), and two round the same gap are the diagonal
    they both join; a gap both diagonals cross is '╳'. A path round a wrapped edge is left out."""
    found: dict = {}
    for path in paths:
        at = [coords[s] for s in path]
        if any(abs(r1 - r2) > 1 or abs(c1 - c2) > 1 for (r1, c1), (r2, c2) in zip(at, at[1:])):
            continue
        (r1, c1), (r2, c2) = at[0], at[-1]
        if len(at) == 3 and abs(r1 - r2) == abs(c1 - c2) == 1 and at[1] in ((r1, c2), (r2, c1)):
            corner = (min(r1, r2), min(c1, c2))
            rising = (r2 - r1) * (c2 - c1) > 0
            found.setdefault(("corner", *corner), set()).add((rising, _ARCS[(at[1][0] - corner[0], at[1][1] - corner[1])]))
            continue
        for (a, b), (p, q) in zip(at, at[1:]):
            if a == p:
                found.setdefault(("row", a, min(b, q)), set()).add((None, "─"))
            elif b == q:
                found.setdefault(("column", min(a, p), b), set()).add((None, "│"))
            else:
                rising = (p - a) * (q - b) > 0
                found.setdefault(("corner", min(a, p), min(b, q)), set()).add((rising, "╱" if rising else "╲"))
    marks = {}
    for place, drawn in found.items():
        diagonals = {rising for rising, _glyph in drawn}
        if len(drawn) == 1:
            marks[place] = next(iter(drawn))[1]
        elif len(diagonals) == 1 and None not in diagonals:
            marks[place] = "╱" if diagonals.pop() else "╲"
        else:
            marks[place] = "╳" if place[0] == "corner" else next(iter(drawn))[1]
    return marks
