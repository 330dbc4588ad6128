"""Comparing values as Python compares them, with the work counted on the run's budget (limits.py).

Python's ``==``, ``<`` and ``in`` on lists and maps go through every item, and into the lists inside:
a list holding the same list twice, forty levels deep, is a trillion items to compare, and two
million-item lists compared in a loop are a million items a pass, none of it seen by the steps. So
the generated code compares inline only where that is one step: one operand a number, yes/no, none or
a short text (known while compiling, or tested as it runs: codegen.py); anything else comes here,
which gives Python's answer and counts the items it goes through, the letters of long texts too.

``weigh`` counts the items of a value gone through whole (printed, drawn, observed).
"""
from __future__ import annotations

import operator

from rulewright.interpreter.engine import limits
from rulewright.interpreter.engine.errors import CannotCompare, CannotLookIn, NotAKey

# compared with anything in one step
_ONE_STEP = ONE_STEP_TYPES = frozenset((int, bool, type(None), float))  # (a float: a division's result)
_STR = frozenset((str,))


def one_step(x) -> bool:
    """Whether comparing ``x`` with any value is one step (a number, yes/no, none or a short text)."""
    t = type(x)
    return t in _ONE_STEP or (t is str and len(x) <= limits.SHORT)


_ONE_STEP_OR_STR = _ONE_STEP | _STR


def _flat(items) -> bool:
    """Whether comparing each of ``items`` with anything is one step: numbers, yes/no, none and short
    texts, mixed as a record's fields are (the kinds looked at in C)."""
    kinds = set(map(type, items))
    if kinds <= _ONE_STEP:
        return True
    # the longest text among them, in C: a number, yes/no or none printed is short, unless it has over
    # SHORT digits (then the slow way answers, as right)
    return kinds <= _ONE_STEP_OR_STR and max(map(len, map(str, items))) <= limits.SHORT


class Flatness:
    """Whether every record and map a compiled game has made so far holds only values compared in one
    step (numbers, yes/no, none, short texts). While it does, the generated code compares a short record
    as Python does, inline: looking at its fields as it runs costs as much as the comparison (a token
    looked for in a short list of tokens). Every place that makes a record or a map, or sets an entry,
    tells this (``note``, ``note_value``); once false, it stays false for the game: only speed depends on it, never
    an answer or the work counted (a short flat record costs no work either way: ``equal``, ``within``)."""

    __slots__ = ("ok",)

    def __init__(self, ok: bool = True):
        self.ok = ok

    def note(self, d: dict) -> dict:
        """``d``, a record or map just made: its values looked at."""
        if self.ok and not _flat(d.values()):
            self.ok = False
        return d

    def note_value(self, v) -> None:
        """``v``, a value just set in a record or a map."""
        if self.ok and not one_step(v):
            self.ok = False


def equal(a, b, budget) -> bool:
    """``a == b`` as Python answers it, each item gone through (and each letter of a long text) counted
    on ``budget``; two short lists or records of numbers and short texts cost nothing (one step each)."""
    t = type(a)
    if t is not type(b) or a is b:  # a number and a list, a list and a map...: one step
        return a == b
    if t is list or t is dict:
        n = len(a)
        if n != len(b):
            return False
        if n <= limits.SHORT and _flat(a.values() if t is dict else a):
            return a == b
        if budget is not None:
            budget._work_left -= n
            if budget._work_left < 0:
                limits.exhausted(budget)
        if t is dict:
            if _flat(a.values()) or (n > limits.SHORT and _flat(b.values())):  # (a record of numbers, texts)
                return a == b
            for k, x in a.items():
                if k not in b:
                    return False
                y = b[k]
                if x is not y and not _same(x, y, budget):
                    return False
            return True
        if _flat(a) or (n > limits.SHORT and _flat(b)):  # each pair one step: Python's own loop
            return a == b
        for x, y in zip(a, b):
            if x is not y and not _same(x, y, budget):
                return False
        return True
    if t is str and len(a) > limits.SHORT and len(a) == len(b):
        limits.spend(budget, len(a))
    return a == b


def _same(x, y, budget) -> bool:
    """Two items ``x == y`` (not the same object): a list, a map or a text through ``equal``."""
    t = type(x)
    if t is list or t is dict or t is str:
        return equal(x, y, budget)
    return x == y


def not_equal(a, b, budget) -> bool:
    return not equal(a, b, budget)


def _ordered(a, b, budget, op):
    """``op(a, b)`` (<, <=, >, >=) as Python answers it: lists in order up to their first two items that
    differ, compared in turn; the items gone through counted. A TypeError when they have no order."""
    if type(a) is list and type(b) is list:
        n = min(len(a), len(b))
        if n and not (_flat(a) or _flat(b)):
            limits.spend(budget, n)
            for x, y in zip(a, b):
                if x is not y and not equal(x, y, budget):
                    return _ordered(x, y, budget, op)
            return op(len(a), len(b))
        limits.spend(budget, n)
    elif type(a) is str and type(b) is str and min(len(a), len(b)) > limits.SHORT:
        limits.spend(budget, min(len(a), len(b)))
    return op(a, b)


def _order(op):
    def compare(a, b, budget):
        try:
            return _ordered(a, b, budget, op)
        except TypeError:
            raise CannotCompare(a, b) from None
    compare.__name__ = op.__name__
    return compare


less, less_or_equal, greater, greater_or_equal = (_order(op) for op in (operator.lt, operator.le, operator.gt, operator.ge))


def within(a, b, budget) -> bool:
    """``a in b``: an item of a list (each compared, counted as ``equal`` counts), a key of a map, text
    in text (a long text's letters counted)."""
    tb = type(b)
    if tb is list:
        n = len(b)
        if n > limits.SHORT:
            limits.spend(budget, n)
        ta = type(a)
        if ta in _ONE_STEP or (ta is str and len(a) <= limits.SHORT):
            return a in b
        if (ta is dict or ta is list) and _flat(a.values() if ta is dict else a):
            # a record or a list of numbers and texts (looked at first: it is the smaller): at most its
            # length compared with each item
            if len(a) * n > limits.SHORT:
                limits.spend(budget, len(a) * n)
            return a in b
        if _flat(b):
            return a in b
        return any(x is a or equal(a, x, budget) for x in b)
    if tb is str and type(a) is str and len(b) > limits.SHORT:
        limits.spend(budget, len(b))
    elif tb is dict and type(a) is str and len(a) > limits.SHORT:
        limits.spend(budget, len(a))  # the key found is compared letter by letter
    try:
        return a in b
    except TypeError:
        raise (NotAKey(a) if tb is dict else CannotLookIn(a, b)) from None


def not_within(a, b, budget) -> bool:
    return not within(a, b, budget)


# the comparisons by the rules' names: each takes the budget after its operands
COUNTED = {"==": equal, "!=": not_equal, "<": less, "<=": less_or_equal, ">": greater, ">=": greater_or_equal,
           "in": within, "not in": not_within}


def weigh(value, budget) -> None:
    """Count on ``budget`` every item of ``value`` (and of the lists and maps inside it, as often as they
    are held) and every letter of its long texts: the work of going through it whole, printing or
    drawing it. A list holding the same list twice, forty levels deep, runs out of work on the way."""
    t = type(value)
    if t is list or t is dict:
        items = value if t is list else value.values()
        limits.spend(budget, len(value))
        if not _flat(items):
            for v in items:
                if type(v) is not int:
                    weigh(v, budget)
    elif t is str and len(value) > limits.SHORT:
        limits.spend(budget, len(value))


def same_value(a, b, budget) -> bool:
    """A match's arm for ``b``: equal as the rules mean it (true is not 1), counted as ``equal``."""
    return (type(a) is bool) == (type(b) is bool) and equal(a, b, budget)


class _Key:
    """An item sorted by ``counted_key``: its comparisons counted."""
    __slots__ = ("value", "budget")

    def __init__(self, value, budget):
        self.value, self.budget = value, budget

    def __lt__(self, other):
        return _ordered(self.value, other.value, self.budget, operator.lt)


def counted_key(budget):
    """A key for sorted, min and max whose comparisons count their work on ``budget``."""
    return lambda value: _Key(value, budget)


# whether Python may order or compare ``items`` among themselves at one step a comparison (min, max,
# distinct ask it of every list: the function itself, not a call of it)
flat = _flat


def find(xs: list, x, budget) -> int:
    """The place of the first item of ``xs`` equal to ``x`` (Python's ``xs.index``), each comparison
    counted; -1 if none."""
    t = type(x)
    fast = t in _ONE_STEP or (t is str and len(x) <= limits.SHORT)  # (one_step, inline)
    if not fast and (t is dict or t is list) and _flat(x.values() if t is dict else x):
        # a record or a list of numbers and texts (an item with its fields, a table row), as within counts it: at
        # most its length compared with each item
        if len(x) * len(xs) > limits.SHORT:
            limits.spend(budget, len(x) * len(xs))
        fast = True
    if fast or _flat(xs):
        return xs.index(x) if x in xs else -1  # (no exception raised when it is not there: it costs more)
    for i, y in enumerate(xs):
        if y is x or equal(x, y, budget):
            return i
    return -1
