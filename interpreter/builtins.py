"""The functions every rules file can call. None of them knows a game.

Each entry says how many arguments it takes and what it needs besides them: nothing ("pure"),
the compiled game ("game": boards, players), or the running state ("state": the seeded generator).
"""
from __future__ import annotations

from typing import Any, Callable

import attrs

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter import shapes


@attrs.frozen
class Builtin:
    fn: Callable
    min_args: int
    max_args: int
    needs: str = "pure"  # pure | game | state
    doc: str = ""


def _board(game):
    if game.board is None:
        raise RulesRuntimeError("this game has no board")
    return game.board


def _first(xs):
    return xs[0] if xs else None


def _last(xs):
    return xs[-1] if xs else None


def _distinct(xs):
    return list(dict.fromkeys(xs))


def _range(a, b=None):
    return list(range(a, b + 1)) if b is not None else list(range(1, a + 1))


def _min(*xs):
    xs = xs[0] if len(xs) == 1 else xs
    return min(xs) if xs else None


def _max(*xs):
    xs = xs[0] if len(xs) == 1 else xs
    return max(xs) if xs else None


def _random(st, xs):
    if not xs:
        raise RulesRuntimeError("random() of an empty list")
    return xs[st.rng.randrange(len(xs))]


def _shuffled(st, xs):
    xs = list(xs)
    st.rng.shuffle(xs)
    return xs


def _roll(st, sides):
    return st.rng.randint(1, sides)


def _next_player(game, p, k=1):
    return (p - 1 + k) % game.player_count + 1


def _turn_order(st):
    first = st.vars.get("first_player", 1)
    n = st.game.player_count
    return [(first - 1 + i) % n + 1 for i in range(n)]


def _without(xs, x):
    out = list(xs)
    if x in out:
        out.remove(x)
    return out


def _text(x):
    from rulewright.interpreter.values import to_text
    return to_text(x)


BUILTINS: dict[str, Builtin] = {
    "len": Builtin(len, 1, 1, doc="number of items in a list"),
    "abs": Builtin(abs, 1, 1),
    "min": Builtin(_min, 1, 9, doc="smallest of a list or of the arguments"),
    "max": Builtin(_max, 1, 9),
    "sum": Builtin(sum, 1, 1),
    "range": Builtin(_range, 1, 2, doc="range(n) = 1..n, range(a, b) = a..b"),
    "sorted": Builtin(sorted, 1, 1),
    "reversed": Builtin(lambda xs: list(reversed(xs)), 1, 1),
    "first": Builtin(_first, 1, 1),
    "last": Builtin(_last, 1, 1),
    "distinct": Builtin(_distinct, 1, 1),
    "without": Builtin(_without, 2, 2, doc="a copy of the list without one occurrence of x"),
    "text": Builtin(_text, 1, 1),
    # hidden information: the value itself, which the rulebook makes public (read by the flow check)
    "revealed": Builtin(lambda x: x, 1, 1, doc="the value, declared public because the rulebook shows it"),
    # boards
    "step": Builtin(lambda g, s, h: _board(g).step(s, h), 2, 2, "game", "the next space along a heading, or none"),
    "wraps": Builtin(lambda g, s, h: _board(g).wraps(s, h), 2, 2, "game", "whether that step crosses a wrapping edge"),
    "rotate": Builtin(lambda g, h, k: _board(g).rotate(h, k), 2, 2, "game", "turn k headings counter-clockwise"),
    "row": Builtin(lambda g, s: _board(g).row(s), 1, 1, "game"),
    "col": Builtin(lambda g, s: _board(g).col(s), 1, 1, "game"),
    "space": Builtin(lambda g, r, c: _board(g).space(r, c), 2, 2, "game"),
    "spaces": Builtin(lambda g: list(_board(g).spaces), 0, 0, "game"),
    "neighbours": Builtin(lambda g, s: _board(g).neighbours(s), 1, 1, "game"),
    "next": Builtin(lambda g, s: _board(g).next(s), 1, 1, "game", "the spaces the arrows from s lead to"),
    "previous": Builtin(lambda g, s: _board(g).previous(s), 1, 1, "game"),
    "lines": Builtin(lambda g, k, s=None: _board(g).lines(k, s), 1, 2, "game",
                     "every straight run of k spaces (through space s, if given)"),
    "shape_placements": Builtin(lambda g, shape, sym="all": shapes.placement_list(_board(g), shape, sym), 1, 2,
                                "game", "every way to lay a shape on the grid (symmetry: fixed, rotations, all)"),
    "shape_matches": Builtin(lambda g, shape, xs, sym="all": shapes.matches(_board(g), shape, xs, sym), 2, 3,
                             "game", "the placements of a shape whose every space is in the list xs"),
    "next_player": Builtin(_next_player, 1, 2, "game", "the player k seats clockwise"),
    # state
    "turn_order": Builtin(_turn_order, 0, 0, "state", "every player once, from first_player clockwise"),
    "random": Builtin(_random, 1, 1, "state", "one item of a list, from the seeded generator"),
    "shuffled": Builtin(_shuffled, 1, 1, "state"),
    "roll": Builtin(_roll, 1, 1, "state", "a die of n sides"),
}

# Functions that bind a name over a list: count(x in xs where c), sum(x in xs: e)...
QUANTIFIERS = {"count", "sum", "all", "any", "min", "max", "first", "lowest", "highest", "sorted"}


def quantify(func: str, items: list, env: dict, var: str, where, body, st) -> Any:
    """Evaluate a quantifier; ``where`` and ``body`` are compiled closures or None."""
    if where is not None:
        kept = []
        for x in items:
            env[var] = x
            if where(st, env):
                kept.append(x)
        items = kept
    if func == "count":
        return len(items)
    if func == "first":
        return items[0] if items else None
    values = items
    if body is not None:
        values = []
        for x in items:
            env[var] = x
            values.append(body(st, env))
    if func == "all":
        return all(values)
    if func == "any":
        return any(values)
    if func == "sum":
        return sum(values)
    if func == "min":
        return min(values) if values else None
    if func == "max":
        return max(values) if values else None
    if func == "sorted":  # stable: items with equal keys keep their order
        order = sorted(range(len(items)), key=values.__getitem__)
        return [items[i] for i in order]
    if func in ("lowest", "highest"):
        if not values:
            return []
        best = min(values) if func == "lowest" else max(values)
        return [x for x, v in zip(items, values) if v == best]
    raise RulesRuntimeError(f"unknown quantifier {func}")
