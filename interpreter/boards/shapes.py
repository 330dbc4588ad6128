"""Shapes laid on a grid: every placement of a small pattern of cells, turned and mirrored.

A shape is either a picture, rows separated by "/" from the top row down with "." for a gap
("x.x/.x." is a V of three), or a list of [row, column] offsets (rows counted upwards, like the
board). Placements never wrap around an edge. They are worked out once per board and shape.
"""
from __future__ import annotations

from rulewright.dsl.errors import RulesRuntimeError

SYMMETRIES = ("fixed", "rotations", "all")


def shape_cells(shape) -> frozenset:
    """The shape's cells as (row, column) offsets, rows counted upwards."""
    if isinstance(shape, str):
        cells = {(-i, j) for i, line in enumerate(shape.split("/"))
                 for j, ch in enumerate(line) if ch not in ". "}
    elif isinstance(shape, list):
        cells = set()
        for cell in shape:
            if not (isinstance(cell, list) and len(cell) == 2 and all(type(v) is int for v in cell)):
                raise RulesRuntimeError(f"a shape's cell is a [row, column] pair, not {cell!r}")
            cells.add((cell[0], cell[1]))
    else:
        raise RulesRuntimeError("a shape is a picture such as \"x.x/.x.\" or a list of [row, column] pairs")
    if not cells:
        raise RulesRuntimeError(f"the shape {shape!r} has no cells")
    return _normal(cells)


def _normal(cells) -> frozenset:
    low_r = min(r for r, _ in cells)
    low_c = min(c for _, c in cells)
    return frozenset((r - low_r, c - low_c) for r, c in cells)


def orientations(cells: frozenset, symmetry: str) -> list:
    """The distinct ways to turn (quarter turns) and mirror a shape, as the symmetry allows."""
    if symmetry not in SYMMETRIES:
        raise RulesRuntimeError(f"a shape's symmetry is one of {', '.join(SYMMETRIES)}, not {symmetry!r}")
    mirrors = (False, True) if symmetry == "all" else (False,)
    turns = 4 if symmetry != "fixed" else 1
    out: list = []
    for mirror in mirrors:
        current = {(r, -c) for r, c in cells} if mirror else set(cells)
        for _ in range(turns):
            shape = _normal(current)
            if shape not in out:
                out.append(shape)
            current = {(c, -r) for r, c in current}  # a quarter turn counter-clockwise
    return out


def _key(shape):
    return shape if isinstance(shape, str) else repr(shape)


def placements(board, shape, symmetry: str = "all") -> list:
    """Every placement on the board: a list of spaces in the board's order, each set of spaces once."""
    cache = board.__dict__.setdefault("_shape_cache", {})
    key = (_key(shape), symmetry)
    found = cache.get(key)
    if found is None:
        found = _lay(board, shape_cells(shape), symmetry)
        cache[key] = found
    return found[0]


def _lay(board, cells, symmetry):
    if not hasattr(board, "coords"):
        raise RulesRuntimeError("shapes are laid on a grid board, not on a graph")
    order = board.__dict__.setdefault("_shape_order", {s: i for i, s in enumerate(board.spaces)})
    seen: set = set()
    out: list = []
    for shape in orientations(cells, symmetry):
        for r0 in range(board.rows):
            for c0 in range(board.cols):
                spaces = [board.space(r0 + r + 1, c0 + c + 1) for r, c in shape]
                if None in spaces:
                    continue
                spaces.sort(key=order.__getitem__)
                if tuple(spaces) not in seen:
                    seen.add(tuple(spaces))
                    out.append(spaces)
    out.sort(key=lambda p: [order[s] for s in p])
    by_first: dict = {}
    for p in out:
        by_first.setdefault(p[0], []).append(p)
    return out, by_first, len(cells)


def placement_list(board, shape, symmetry: str = "all") -> list:
    return [list(p) for p in placements(board, shape, symmetry)]


def matches(board, shape, spaces, symmetry: str = "all") -> list:
    """The placements whose every space is in ``spaces`` (where a player's pieces stand, say)."""
    found = board.__dict__.get("_shape_cache", {}).get((_key(shape), symmetry))
    if found is None:
        placements(board, shape, symmetry)
        found = board.__dict__["_shape_cache"][(_key(shape), symmetry)]
    _, by_first, size = found
    if type(spaces) is list and len(spaces) < size:  # fewer spaces than the shape has cells: none fits
        return []
    order = board.__dict__["_shape_order"]
    held = order.keys() & spaces  # the spaces of the board among them
    # each placement is tested in C (filter); the few found are put in the board's order afterwards
    fits, get = held.issuperset, by_first.get
    out = []
    for s in held:
        ps = get(s)
        if ps is not None:
            for p in filter(fits, ps):
                out.append(p[:])
    if len(out) > 1:
        out.sort(key=lambda p: [order[s] for s in p])
    return out




def missing(board, shape, spaces, symmetry: str = "all"):
    """The fewest cells of any placement that are not among ``spaces``: 0 when the shape lies wholly on
    them, so a measure of how near pieces are to forming it; None when the shape fits nowhere."""
    key = (_key(shape), symmetry)
    found = board.__dict__.setdefault("_shape_masks", {}).get(key)
    if found is None:  # each space -> the placements holding it, as the bits of a number (bit i: placement i)
        laid = placements(board, shape, symmetry)
        masks: dict = {}
        for i, p in enumerate(laid):
            for s in p:
                masks[s] = masks.get(s, 0) | 1 << i
        found = board.__dict__["_shape_masks"][key] = (masks, len(laid[0]) if laid else 0, (1 << len(laid)) - 1)
    masks, size, every = found
    if not size:
        return None
    # each placement's count of cells among the spaces, in binary: counts[k] holds bit k of every count
    counts: list = []
    for s in dict.fromkeys(x for x in spaces if type(x) is str):
        carry = masks.get(s, 0)
        k = 0
        while carry:
            if k == len(counts):
                counts.append(0)
            counts[k], carry = counts[k] ^ carry, counts[k] & carry
            k += 1
    best, held = 0, every  # the largest count, bit by bit from the top, among the placements that have it
    for k in range(len(counts) - 1, -1, -1):
        if held & counts[k]:
            held &= counts[k]
            best |= 1 << k
    return size - best
