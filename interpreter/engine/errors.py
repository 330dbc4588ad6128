"""The typed run-time errors: each raised at the operation that failed, in the language's words.

Each class is one way an operation can fail (two values it cannot combine, an item past the end of a
list, a missing map entry, a builtin given the wrong kind of value...). It is made from the operands
themselves, so it carries their kinds as the language names them (``kinds``, from kinds.py), and it
writes its message, its hint and its ``focus``: the kind of expression at fault, where faults.py puts the
caret. Nothing here reads a Python exception's text.
"""
from __future__ import annotations

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine.kinds import MAP, RECORD, UNKNOWN, article, kind_of, literal_kind
from rulewright.interpreter.engine.values import shown

NONE_HINT = "the value is none here: check it first ('if x != none:')"
KINDS_HINT = "the kinds of value are number, text, yes/no, list, map, record and none"
# the focus of "no alternative of this 'choose:' can be taken": a variant's errata that took alternatives
# out of the choice are named (faults.located)
NO_ALTERNATIVE = "alternatives"
COUNT_HINT = "lists count from 1: xs[1] is the first item, xs[len(xs)] or xs[-1] the last"
ORDER_HINT = ("'<', '<=', '>', '>=' (and sorted, min, max, lowest, highest) compare numbers with numbers "
              "and text with text; none, yes/no, lists and records have no order")


class OperationError(RulesRuntimeError):
    """A rules operation given values it cannot work with; ``kinds``: the kinds of those values."""

    def __init__(self, message: str, hint: str, focus: str, *values):
        super().__init__(message, hint, focus=focus)
        self.kinds = tuple(kind_of(v) for v in values)


# ----------------------------------------------------------------------------- operators
_VERBS = {"+": "add {a} and {b}", "-": "subtract {b} from {a}", "*": "multiply {a} by {b}",
          "/": "divide {a} by {b}", "%": "take the remainder of {a} divided by {b}"}
_OPERATOR_HINTS = {
    "+": "'+' adds two numbers, or joins two texts or two lists; to put a value into text, write "
         "\"{x}\" or text(x)",
    "-": "'-' works on numbers only", "*": "'*' multiplies a number by a number (or repeats text or a list)",
    "/": "'/' works on numbers only", "%": "'%' works on numbers only",
}


class CannotCombine(OperationError):
    """``a op b`` (op one of + - * / %) for two values of kinds the operator does not take."""

    def __init__(self, op: str, a, b):
        self.op = op
        ka, kb = kind_of(a), kind_of(b)
        if op == "*" and (type(a) is str or type(a) is list or type(b) is str or type(b) is list):
            other = kind_of(b if type(a) is str or type(a) is list else a)  # repeating: by a count only
            super().__init__(f"cannot multiply text or a list by {other}",
                             "'*' repeats text or a list a number of times; otherwise it multiplies numbers",
                             "op:*", a, b)
        elif op == "%" and type(a) is str:  # Python would format the text ("%d" % 5)
            super().__init__("cannot take the remainder of text", "'%' works on numbers only", "op:%", a, b)
        else:
            hint = NONE_HINT if "none" in (ka, kb) else _OPERATOR_HINTS[op]
            super().__init__(f"cannot {_VERBS[op].format(a=ka, b=kb)}", hint, f"op:{op}", a, b)


class CannotNegate(OperationError):
    """``-a`` for a value that is not a number."""

    def __init__(self, a):
        super().__init__(f"cannot negate {kind_of(a)}", "'-' works on numbers only", "op:neg", a)


class DivisionByZero(OperationError):
    def __init__(self, a, b):
        super().__init__("division by zero", "check the number you divide by first ('if n != 0:')", "divide", a, b)


class CannotCompare(OperationError):
    """An order (``<``, sorted, min...) between two values that have none between them."""

    def __init__(self, a, b):
        ka, kb = kind_of(a), kind_of(b)
        super().__init__(f"cannot compare {ka} with {kb}", NONE_HINT if "none" in (ka, kb) else ORDER_HINT,
                         "order", a, b)


class CannotLookIn(OperationError):
    """``x in c`` where ``c`` holds no items (or is text and ``x`` is not)."""

    def __init__(self, x, container):
        if type(container) is str:
            super().__init__(f"cannot look for {kind_of(x)} in text", "'in' looks for text in text", "in",
                             x, container)
            return
        kind = kind_of(container)
        super().__init__(f"cannot look for an item in {kind}",
                         NONE_HINT if container is None else "'in' looks in a list, among a map's keys, or in text",
                         "in", x, container)


class NotAList(OperationError):
    """Going through a value ('for', a quantifier) that is not a list."""

    def __init__(self, value):
        kind = kind_of(value)
        super().__init__(f"{kind} is not a list to go through",
                         NONE_HINT if value is None else "'for', quantifiers (count, sum, any...) and functions "
                         "of lists need a list", "", value)


class NotACount(OperationError):
    """``repeat n times`` where ``n`` is not a number."""

    def __init__(self, n):
        super().__init__(f"a count must be a number, not {kind_of(n)}", "check the values on this line", "", n)


# ----------------------------------------------------------------------------- items and entries
class NotAKey(OperationError):
    """A list, map or record used as a map's key."""

    def __init__(self, key):
        super().__init__(f"{kind_of(key)} cannot be a key of a map",
                         "map keys are numbers, text or yes/no values, not lists, maps or records", "key", key)


class NoItems(OperationError):
    """An item or a field read from a value that has none (a number, none)."""

    def __init__(self, value):
        super().__init__(f"{kind_of(value)} has no items or fields to read",
                         NONE_HINT if value is None else "only lists, maps and records have items (xs[1]) and "
                         "fields (r.name)", "items", value)


class CannotChangeItem(OperationError):
    """``xs[i] = v`` where ``xs`` is neither a list nor a map."""

    def __init__(self, value):
        super().__init__(f"cannot change an item of {shown(value)}", "only lists and maps have items to change",
                         "index", value)


class BadPosition(OperationError):
    """A list position that is 0 or not a number."""

    def __init__(self, items, i):
        if i == 0 and type(i) is int:
            super().__init__("there is no item 0: lists count from 1", COUNT_HINT, "index", items, i)
        else:
            super().__init__(f"a list position must be a number, not {shown(i)}",
                             "lists count from 1; only a map takes other keys", "index", items, i)


class PastTheEnd(OperationError):
    """'item 5 of a list of 3', in the words of the kind of value indexed (a list's items, a text's letters)."""

    def __init__(self, items, i):
        n = len(items)
        if type(items) is str:
            super().__init__(f"there is no letter {i} in {shown(items)}, of {n} letter{'s' * (n != 1)}",
                             "text counts from 1 too: t[1] is the first letter, t[-1] the last", "index", items, i)
        else:
            where = "an empty list" if n == 0 else f"a list of {n} item{'s' * (n != 1)}"
            super().__init__(f"there is no item {i} in {where}", COUNT_HINT, "index", items, i)


class MissingEntry(OperationError):
    """An entry a map does not have: read as a field (``m.name``: ``mapping`` given) or by its key."""

    def __init__(self, key, mapping=None):
        if mapping is not None:  # a record always has all its fields (the checker sees to it): a map
            super().__init__(f"no entry {shown(key)} in the map {shown(mapping, named=False)}",
                             f"a map has only the keys set in it: read m[\"{key}\"] to get none for a "
                             "missing key, or set it first", f"field:{key}", key)
        else:
            super().__init__(f"no entry {shown(key)} in the map",
                             "a map has only the keys set in it: m[key] gives none for a missing key",
                             f"field:{key}" if type(key) is str else "index", key)


class NoField(OperationError):
    """A field read from a value that is not a record (nor a map)."""

    def __init__(self, value, name: str):
        super().__init__(f"{shown(value)} has no field '{name}': it is {kind_of(value)}, not a record",
                         NONE_HINT if value is None else "only a record has fields", f"field:{name}", value)


class NotAPlayer(OperationError):
    """A player's entry read for a value that is not a player of this game."""

    def __init__(self, p, count: int):
        super().__init__(f"{shown(p)} is not a player of this game (1 to {count})",
                         "the value is none here: check it first ('if p != none:')" if p is None
                         else "a player is a number from 1 to player_count", "", p)


# ----------------------------------------------------------------------------- functions and boards
class WrongArgument(OperationError):
    """A builtin (or a board's function) given arguments it cannot work with, said by the function
    itself: ``name`` is known where it is raised."""

    def __init__(self, name: str, message: str, hint: str, *values):
        self.function = name
        super().__init__(message, hint, f"call:{name}", *values)

    @classmethod
    def of(cls, name: str, expected: tuple, doc: str, wrong_kind: bool, *values) -> "WrongArgument":
        """The words every function shares, from ``expected`` (the kinds each argument may be, kinds.py):
        when ``wrong_kind``, what the first argument of a kind it may not be must be (the first argument
        when none is found), else that its values do not suit it; its ``doc`` as the hint."""
        at = next((i for i, (v, kinds) in enumerate(zip(values, expected)) if not _fits(v, kinds)), 0)
        kinds = expected[at] if at < len(expected) else ()
        which = f" as its {_ORDINALS.get(at + 1, f'argument {at + 1}')} argument" if at else ""
        message = (f"{name}() needs {' or '.join(article(k) for k in kinds)}{which}" if kinds and wrong_kind
                   else f"{name}() cannot work with the values it was given")
        return cls(name, message, (f"{name}: {doc}; " if doc else "") + "check the kinds and values of its arguments",
                   *values)


_ORDINALS = {2: "second", 3: "third", 4: "fourth"}


def _fits(value, kinds: tuple) -> bool:
    """Whether ``value`` may be an argument of one of ``kinds`` (a dict is a map or a record; a kind the
    spec leaves open fits anything)."""
    kind = literal_kind(value)
    if kind is UNKNOWN or not kinds or UNKNOWN in kinds:
        return True
    return kind in kinds or (kind == MAP and RECORD in kinds)


class NotASpace(OperationError):
    """A board's function given a value that is not one of its spaces; the board says what its spaces are."""

    def __init__(self, value, hint: str):
        super().__init__(f"{shown(value)} is not a space of the board", hint, "", value)
