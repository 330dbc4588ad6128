"""Which games `rulewright validate` starts: every allowed player count and every option value at least
once, so an option that fails while the game is set up fails `validate`, not the first player to pick it.

The starts are *configurations* (a player count and a value for each option) that the rules'
``require`` lines allow. When there are few (``ALL_UP_TO``), every one is started; otherwise a pairwise
cover: every two values of two different options (the player count counted as an option) that some
allowed configuration holds together are started together at least once, chosen greedily (each next
start the allowed configuration that holds the most pairs not yet started; the defaults first). A game
with more configurations than ``MAX_ENUMERATED`` starts each value once instead (the defaults with one
option changed, or the nearest allowed configuration that has it).

The ``require`` lines are worked out here for each configuration (they name only options and the
player count: checker._only_options); one this evaluator does not know is left to the compiler (a
compile of nothing but the constants, a few milliseconds).
"""
from __future__ import annotations

import functools
import itertools
import operator

from rulewright.dsl import ast
from rulewright.dsl.errors import OptionError, RulesError
from rulewright.interpreter.api import Game, option_values, player_range
from rulewright.interpreter.check.symbols import symbols
from rulewright.interpreter.compile.compiler import CompiledGame
from rulewright.interpreter.engine.builtin_names import PLAYER_COUNT

ALL_UP_TO = 24           # allowed configurations started all when no more than this
MAX_ENUMERATED = 20_000  # configurations enumerated for the pairwise cover
MAX_COUNTS = 12          # player counts started: all of them, or this many spread from the fewest to the most


def player_counts(low: int, high: int) -> list[int]:
    """Every allowed player count, or MAX_COUNTS of them from the fewest to the most (a game of 1..1000)."""
    if high - low < MAX_COUNTS:
        return list(range(low, high + 1))
    step = (high - low) / (MAX_COUNTS - 1)
    return sorted({low + round(i * step) for i in range(MAX_COUNTS)})


def starts(rules: ast.RulesFile) -> list[tuple[int, dict]]:
    """(players, the options that differ from their defaults) for each game to start, the defaults first."""
    low, high = player_range(rules)
    values = option_values(rules)
    names = list(values)
    params = [player_counts(low, high)] + [values[n] for n in names]
    allows = _Requirements(rules, names)

    def config(pick: tuple) -> tuple:  # indices -> (players, {option: value})
        return params[0][pick[0]], {n: params[i + 1][v] for i, (n, v) in enumerate(zip(names, pick[1:]))}

    def allowed(pick: tuple) -> bool:
        return allows(*config(pick))

    size = 1
    for p in params:
        size *= len(p)
    if size <= MAX_ENUMERATED:
        picks = [p for p in itertools.product(*(range(len(p)) for p in params)) if allowed(p)]
        chosen = picks if len(picks) <= ALL_UP_TO else _pairwise(picks, len(params))
    else:
        chosen = _each_value(params, allowed)
    defaults = (0,) * len(params)
    if defaults not in chosen:  # a 'require' may rule out some options, never the defaults: started, to say so
        chosen = [defaults] + chosen
    out = []
    for pick in chosen:
        players, options = config(pick)
        out.append((players, {n: v for n, v in options.items() if v != values[n][0]}))
    return out


def _pairwise(picks: list, n: int) -> list:
    """A few of the allowed ``picks`` (tuples of value indices) holding every pair any of them holds."""
    def pairs(p):
        return {(i, p[i], j, p[j]) for i in range(n) for j in range(i + 1, n)}
    left = set().union(*(pairs(p) for p in picks))
    defaults = next((p for p in picks if not any(p[1:])), picks[0])  # the fewest players, default options
    chosen = [defaults]
    left -= pairs(defaults)
    while left:
        best = max(picks, key=lambda p: len(pairs(p) & left))  # the first of the best: deterministic
        chosen.append(best)
        left -= pairs(best)
    return chosen


def _each_value(params: list, allowed) -> list:
    """Each value of each parameter in one allowed pick at least: the defaults with it, or failing that
    the first allowed pick holding it among those changing the fewest other parameters (a bounded search)."""
    defaults = (0,) * len(params)
    chosen = [defaults] if allowed(defaults) else []
    for i, p in enumerate(params):
        for v in range(len(p)):
            if not any(c[i] == v for c in chosen):
                found = next((c for c in itertools.islice(_near(params, i, v), MAX_ENUMERATED // 10)
                              if allowed(c)), None)
                if found is not None:
                    chosen.append(found)
    return chosen


def _near(params: list, i: int, v: int):
    """The picks with value ``v`` for parameter ``i``, the fewest other parameters off their defaults first."""
    others = [k for k in range(len(params)) if k != i]
    for changed in range(len(others) + 1):
        for where in itertools.combinations(others, changed):
            for vals in itertools.product(*(range(1, len(params[k])) for k in where)):
                pick = [0] * len(params)
                pick[i] = v
                for k, x in zip(where, vals):
                    pick[k] = x
                yield tuple(pick)


_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}


def allows(rules: ast.RulesFile):
    """Whether the rules' ``require`` lines allow a game: ``allows(rules)(players, {option: value})``, the
    options not named at their defaults; worked out from the lines, compiling only what they cannot say."""
    values = option_values(rules)
    requirements = _Requirements(rules, list(values))
    return lambda players, options: requirements(players, {n: v[0] for n, v in values.items()} | options)


class _Unknown(Exception):
    """A requirement this evaluator cannot work out: the compiler will."""


class _Requirements:
    """Whether the rules' ``require`` lines allow a player count and options."""

    def __init__(self, rules, names: list):
        self.rules = rules
        self.conds = [d.cond for d in symbols(rules).requires]
        self.options = set(names)

    def __call__(self, players: int, options: dict) -> bool:
        try:
            return all(self._value(c, players, options) is True for c in self.conds)
        except _Unknown:
            return self._compiled(players, tuple(sorted(options.items(), key=lambda kv: kv[0])))

    def _value(self, e, players, options):
        if isinstance(e, ast.Literal):
            return e.value
        if isinstance(e, ast.Name):
            if e.id == PLAYER_COUNT:
                return players
            if e.id in self.options:
                return options[e.id]
            return e.id  # an option's value, a bare word
        if isinstance(e, ast.BoolOp):
            left = self._value(e.left, players, options)
            if type(left) is not bool:
                raise _Unknown
            if left == (e.op == "or"):
                return left
            right = self._value(e.right, players, options)
            if type(right) is not bool:
                raise _Unknown
            return right
        if isinstance(e, ast.Not):
            inner = self._value(e.operand, players, options)
            if type(inner) is not bool:
                raise _Unknown
            return not inner
        if isinstance(e, ast.Compare) and e.op in _COMPARE:
            a, b = self._value(e.left, players, options), self._value(e.right, players, options)
            if e.op in ("==", "!="):
                return _COMPARE[e.op](a, b)
            if type(a) is int and type(b) is int:
                return _COMPARE[e.op](a, b)
        if isinstance(e, ast.Compare) and e.op in ("in", "notin") and isinstance(e.right, ast.ListLit):
            a = self._value(e.left, players, options)
            found = any(a == self._value(x, players, options) for x in e.right.items)
            return found if e.op == "in" else not found
        raise _Unknown

    @functools.lru_cache(maxsize=None)
    def _compiled(self, players: int, options: tuple) -> bool:
        try:
            Game(self.rules, players, dict(options), compiler=functools.partial(CompiledGame, only=frozenset(),
                                                                                 played=False))
        except OptionError:
            return False
        except RulesError:
            return True  # not refused by a requirement: starting it will report the error
        return True
