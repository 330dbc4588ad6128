"""The operations of the language, as the generated code runs them (codegen.py writes the common cases
inline and calls these for the rest).

Each one checks its limits (limits.py) and, when it cannot work with its operands, raises the typed
error of that failure (errors.py) right there, with the operands' kinds. An operation the generated
code writes inline (``a < b``, ``-a``, ``x in xs``) is one of these too: when the inline form fails,
faults.py runs it again through its function here, which says what is wrong.
"""
from __future__ import annotations

import operator

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine import limits
from rulewright.interpreter.engine.errors import (
    BadPosition, CannotChangeItem, CannotCombine, CannotCompare, CannotLookIn, CannotNegate, DivisionByZero,
    MissingEntry, NoField, NoItems, NotACount, NotAKey, NotAList, NotAPlayer, PastTheEnd)
from rulewright.interpreter.engine.values import short_text


# ----------------------------------------------------------------------------- arithmetic
def add(a, b, budget=None):
    """a + b, within the limits (a number's digits; a list's or a text's length, checked before joining,
    and counted as work on ``budget``: limits.py)."""
    if type(a) is int and type(b) is int:
        r = a + b
        if -limits.BIG < r < limits.BIG:
            return r
        raise limits.too_large(r)
    if (type(a) is list or type(a) is str) and type(b) is type(a) and len(a) + len(b) > limits.SHORT:
        limits.check_items(len(a) + len(b), "a list" if type(a) is list else "a text", budget)
    try:
        return a + b
    except TypeError:
        raise CannotCombine("+", a, b) from None


def subtract(a, b):
    try:
        return limits.number(a - b)
    except TypeError:
        raise CannotCombine("-", a, b) from None


def multiply(a, b, budget=None):
    """a * b: a number's digits checked before multiplying, a repeated text or list's length too (and
    counted as work on ``budget``)."""
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        if a.bit_length() + b.bit_length() > 4 * limits.DIGITS:  # surely too large: not even computed
            raise limits.too_large(a)
        return limits.number(a * b)
    if (ta is str or ta is list) and tb is int:
        limits.check_items(len(a) * max(b, 0), "a text" if ta is str else "a list", budget)
    elif (tb is str or tb is list) and ta is int:
        limits.check_items(len(b) * max(a, 0), "a text" if tb is str else "a list", budget)
    try:
        return a * b
    except TypeError:
        raise CannotCombine("*", a, b) from None


def divide(a, b):
    if b == 0:
        raise DivisionByZero(a, b)
    try:
        return a // b
    except TypeError:
        raise CannotCombine("/", a, b) from None


def remainder(a, b):
    if b == 0:
        raise DivisionByZero(a, b)
    if type(a) is str:  # Python would format the text ("%d" % 5)
        raise CannotCombine("%", a, b)
    try:
        return a % b
    except TypeError:
        raise CannotCombine("%", a, b) from None


def negate(a):
    try:
        return -a
    except TypeError:
        raise CannotNegate(a) from None


BINARY = {"+": add, "-": subtract, "*": multiply, "/": divide, "%": remainder}


# ----------------------------------------------------------------------------- comparisons
def _ordered(compare):
    def checked(a, b):
        try:
            return compare(a, b)
        except TypeError:
            raise CannotCompare(a, b) from None
    checked.__name__ = compare.__name__
    return checked


def within(a, b, budget=None) -> bool:
    """``a in b``: an item of a list, a key of a map, text in text; a long list counted as work on
    ``budget``."""
    if type(b) is list and len(b) > limits.SHORT:  # looking through a long list item by item
        limits.spend(budget, len(b))
    try:
        return a in b
    except TypeError:
        raise (NotAKey(a) if type(b) is dict else CannotLookIn(a, b)) from None


def not_within(a, b) -> bool:
    return not within(a, b)


COMPARE = {"==": operator.eq, "!=": operator.ne, "<": _ordered(operator.lt), "<=": _ordered(operator.le),
           ">": _ordered(operator.gt), ">=": _ordered(operator.ge), "in": within, "not in": not_within}


def values_equal(a, b) -> bool:
    """Equality as the rules mean it: true is not 1."""
    return a == b and (type(a) is bool) == (type(b) is bool)


def first_unordered(values, budget=None):
    """The error of ordering ``values`` (sorted, min, max...): the first two neighbours that have no
    order between them, the later one first as Python compares them; or, not a list, NotAList. Each
    comparison counted on ``budget`` (engine/compare.py)."""
    from rulewright.interpreter.engine.compare import less
    if type(values) is not list and type(values) is not tuple:
        return NotAList(values)
    for before, after in zip(values, values[1:]):
        try:
            less(after, before, budget)
        except CannotCompare:
            return CannotCompare(after, before)
    return CannotCompare(values[-1] if values else None, values[0] if values else None)


# ----------------------------------------------------------------------------- items and entries
def get_index(obj, i):
    """Lists count from 1 like a rulebook (negative counts from the end); dicts give none if absent."""
    if type(obj) is dict:
        try:
            return obj.get(i)
        except TypeError:
            raise NotAKey(i) from None
    if type(i) is not int or i == 0:
        raise BadPosition(obj, i)
    try:
        return obj[i - 1] if i > 0 else obj[i]
    except IndexError:
        raise PastTheEnd(obj, i) from None
    except TypeError:
        raise NoItems(obj) from None


def set_index(obj, i, value):
    if type(obj) is dict:
        try:
            obj[i] = value
        except TypeError:
            raise NotAKey(i) from None
        return
    if type(obj) is not list:
        raise CannotChangeItem(obj)
    if type(i) is not int or i == 0:
        raise BadPosition(obj, i)
    try:
        obj[i - 1 if i > 0 else i] = value
    except IndexError:
        raise PastTheEnd(obj, i) from None


def entry(obj, key):
    """``obj[key]`` read as Python reads it (a map's entry, a frame's local): what is wrong, if it fails."""
    try:
        return obj[key]
    except KeyError:
        raise MissingEntry(key) from None
    except TypeError:
        raise (NotAKey(key) if type(obj) is dict else NoItems(obj)) from None


def set_entry(obj, key, value):
    """``obj[key] = value`` as Python does it (a map's entry): what is wrong, if it fails."""
    if type(obj) is not dict and type(obj) is not list:
        raise CannotChangeItem(obj)
    try:
        obj[key] = value
    except TypeError:
        raise NotAKey(key) from None


def field(o, name):
    """A record's field (or a map's entry read as one)."""
    try:
        return o[name]
    except (KeyError, TypeError, IndexError):
        raise (MissingEntry(name, o) if type(o) is dict else NoField(o, name)) from None


def keys_of_map(keys) -> None:
    """Each key of a map being made can be one (a list, a map or a record cannot)."""
    for k in keys:
        try:
            hash(k)
        except TypeError:
            raise NotAKey(k) from None


def items_of(value):
    """The items a loop goes through: a list (a map's keys, a text's letters); anything else says so."""
    try:
        return iter(value)
    except TypeError:
        raise NotAList(value) from None


def player_index(p, count: int) -> int:
    """The list position of player ``p``'s value; anything but a player of this game is an error."""
    if type(p) is not int or not 0 < p <= count:
        raise NotAPlayer(p, count)
    return p - 1


# ----------------------------------------------------------------------------- the rest the code calls
def missing(name: str):
    """A local read where it has no value."""
    raise RulesRuntimeError(f"'{name}' has no value here",
                            f"give '{name}' a value on every way that leads to this line (a 'let' before "
                            "the 'if', for instance)")


NO_SUBJECT = object()


def no_arm(st, env, x=NO_SUBJECT):
    if x is NO_SUBJECT:
        raise RulesRuntimeError("no condition of this 'match' holds; add 'else: ...'")
    raise RulesRuntimeError(f"no arm of this 'match' fits {short_text(x)}; add 'else: ...' for the other values")


def text_made(text: str, budget=None) -> str:
    """A text a template made: "{s}{s}" in a loop doubles it each time (counted as work on ``budget``, as
    any text of more than limits.SHORT letters made: what a game keeps is bounded by what it made). Called
    for every move text of more than SHORT letters: limits.check_items inlined."""
    n = len(text)
    if n > limits.ITEMS:
        limits.check_items(n, "a text", budget)
    if budget is not None:
        budget._work_left -= n
        if budget._work_left < 0:
            limits.exhausted(budget)
    return text


def counted(n) -> range:
    """The passes of ``repeat n times``: at most limits.ITEMS (a longer loop could not finish within the
    steps); anything but a number is a NotACount."""
    if type(n) is int and n > limits.ITEMS:
        raise RulesRuntimeError(f"'repeat {n:,} times' is more than {limits.ITEMS:,} passes",
                                "no game repeats anything this often; check the count")
    try:
        return range(n)
    except TypeError:
        raise NotACount(n) from None
