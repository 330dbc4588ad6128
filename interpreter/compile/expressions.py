"""Compile expressions to Python functions ``f(state, env) -> value``, and the helpers they call.

The functions are made from generated source (codegen.py): names are resolved once (local, game
variable, option, enum member, table), options are folded to constants, and nothing from the rules
text is ever run as Python.
"""
from __future__ import annotations

import operator
from typing import Any

import attrs

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.compile import codegen
from rulewright.interpreter.engine import limits
from rulewright.interpreter.engine.builtins import quantified
from rulewright.interpreter.engine.values import kind_of, shown
from rulewright.interpreter.engine.values import SCALARS, copy_value, to_text
from rulewright.interpreter.present.views import public_text


def const(value):
    """A closure that returns a constant; lists are copied (deeply: [[], []] too) so a rule cannot
    change the constant."""
    if isinstance(value, list) and any(isinstance(v, (list, dict)) for v in value):
        def f(st, env, _v=value):
            return copy_value(_v)
    elif isinstance(value, list):
        def f(st, env, _v=value):
            return list(_v)
    else:
        def f(st, env, _v=value):
            return _v
    f.const = value
    return f


_NOT_CONSTANT = object()


@attrs.frozen
class Code:
    """An expression as generated Python (``source``), for an instruction to write out; ``value`` its
    value when it is known while compiling (folded), else _NOT_CONSTANT."""
    source: str
    value: Any = _NOT_CONSTANT

    @property
    def is_const(self) -> bool:
        return self.value is not _NOT_CONSTANT

    def read_only(self, module) -> str:
        """Source to go through the list this gives, only reading it: a constant flat list is gone
        through as it is (its namespace name), not copied first."""
        v = self.value
        if type(v) is list and not any(type(x) is list or type(x) is dict for x in v):
            return module.constant(v)
        return self.source


# A constant that cannot be computed (1 + [2], len(3)) is left to fail when it runs, where the
# machine names the rule's file:line; a branch that an option turns off then never fails at all.
_FOLD_ERRORS = (RulesRuntimeError, ValueError, TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError)


def _add(a, b):
    """a + b, within the limits (a number's digits; a list's or a text's length, checked before joining)."""
    if type(a) is int and type(b) is int:
        r = a + b
        if -limits.BIG < r < limits.BIG:
            return r
        raise limits.too_large(r)
    if (type(a) is list or type(a) is str) and type(b) is type(a) and len(a) + len(b) > 32:
        limits.check_items(len(a) + len(b), "a list" if type(a) is list else "a text")
    return a + b


def _sub(a, b):
    return limits.number(a - b)


def _mul(a, b):
    """a * b: a number's digits checked before multiplying, a repeated text or list's length too."""
    ta, tb = type(a), type(b)
    if ta is int and tb is int:
        if a.bit_length() + b.bit_length() > 4 * limits.DIGITS:  # surely too large: not even computed
            raise limits.too_large(a)
        return limits.number(a * b)
    if (ta is str or ta is list) and tb is int:
        limits.check_items(len(a) * max(b, 0), "a text" if ta is str else "a list")
    elif (tb is str or tb is list) and ta is int:
        limits.check_items(len(b) * max(a, 0), "a text" if tb is str else "a list")
    return a * b


_BINOPS = {"+": _add, "-": _sub, "*": _mul}


_DIVIDE_HINT = "check the number you divide by first ('if n != 0:')"


def _div(a, b):
    if b == 0:
        raise RulesRuntimeError("division by zero", _DIVIDE_HINT, focus="divide")
    return a // b


def _mod(a, b):
    if b == 0:
        raise RulesRuntimeError("division by zero", _DIVIDE_HINT, focus="divide")
    if type(a) is str:  # Python would format the text ("%d" % 5)
        raise RulesRuntimeError("cannot take the remainder of text", "'%' works on numbers only", focus="op:%")
    return a % b


_BINOPS.update({"/": _div, "%": _mod})
_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
            ">": operator.gt, ">=": operator.ge,
            "in": lambda a, b: _within(a, b), "not in": lambda a, b: not _within(a, b)}


def _within(a, b) -> bool:
    if type(b) is list and len(b) > 32:  # looking through a long list item by item
        limits.spend(len(b))
    return a in b


_COMPARE["in"] = _within


_COUNT_HINT = "lists count from 1: xs[1] is the first item, xs[len(xs)] or xs[-1] the last"


def get_index(obj, i):
    """Lists count from 1 like a rulebook (negative counts from the end); dicts give none if absent."""
    if type(obj) is dict:
        return obj.get(i)
    if type(i) is not int or i == 0:
        raise _bad_position(obj, i)
    try:
        return obj[i - 1] if i > 0 else obj[i]
    except IndexError:
        raise _past_the_end(obj, i) from None


def set_index(obj, i, value):
    if type(obj) is dict:
        obj[i] = value
        return
    if type(obj) is not list:
        raise RulesRuntimeError(f"cannot change an item of {shown(obj)}",
                                "only lists and maps have items to change", focus="index")
    if type(i) is not int or i == 0:
        raise _bad_position(obj, i)
    try:
        obj[i - 1 if i > 0 else i] = value
    except IndexError:
        raise _past_the_end(obj, i) from None


def _bad_position(obj, i) -> RulesRuntimeError:
    if i == 0 and type(i) is int:
        return RulesRuntimeError("there is no item 0: lists count from 1", _COUNT_HINT, focus="index")
    return RulesRuntimeError(f"a list position must be a number, not {shown(i)}",
                             "lists count from 1; only a map takes other keys", focus="index")


def _past_the_end(obj, i) -> RulesRuntimeError:
    """'item 5 of a list of 3', in the words of the kind of value indexed."""
    if type(obj) is str:
        n = len(obj)
        return RulesRuntimeError(f"there is no letter {i} in {shown(obj)}, of {n} letter{'s' * (n != 1)}",
                                 "text counts from 1 too: t[1] is the first letter, t[-1] the last", focus="index")
    n = len(obj)
    where = "an empty list" if n == 0 else f"a list of {n} item{'s' * (n != 1)}"
    return RulesRuntimeError(f"there is no item {i} in {where}", _COUNT_HINT, focus="index")


_NO_SUBJECT = object()


def _no_arm(st, env, x=_NO_SUBJECT):
    if x is _NO_SUBJECT:
        raise RulesRuntimeError("no condition of this 'match' holds; add 'else: ...'")
    raise RulesRuntimeError(f"no arm of this 'match' fits {to_text(x)}; add 'else: ...' for the other values")


def values_equal(a, b) -> bool:
    """Equality as the rules mean it: true is not 1."""
    return a == b and (type(a) is bool) == (type(b) is bool)


def _text_made(text: str) -> str:
    """A text a template made: "{s}{s}" in a loop doubles it each time."""
    if len(text) > 1000:
        limits.check_items(len(text), "a text")
    return text


class ExprCompiler:
    """Compiles the expressions of one compiled game (its declarations, options and player count) to
    Python functions ``f(state, env)``, through generated source (codegen.py)."""

    def __init__(self, game):
        self.game = game
        self.module = codegen.Module(_helpers(game))
        self.source = codegen.ExprSource(game, self.module)

    def compile(self, node, scope: set):
        """``f(state, env) -> value`` for the expression ``node``; ``scope`` names the procedure's locals."""
        code = self.source.top(node, codegen.Scope(set(scope), {}, in_def=False))
        if isinstance(code, codegen.Const):
            return const(code.value)
        return codegen.expression_function(self.module, code)

    def code(self, node, scope: set, known=frozenset(), py=None) -> Code:
        """The expression ``node`` as generated source, for an instruction (instructions.py); ``scope``
        names the procedure's locals, ``known`` those certainly set where it runs, ``py`` names bound to
        Python locals of the generated function."""
        code = self.source.top(node, codegen.Scope(set(scope), dict(py or {}), in_def=False, known=known))
        if isinstance(code, codegen.Const):
            return Code(self.module.literal(code.value), code.value)
        return Code(code)

    def compile_def(self, name: str):
        """The def ``name`` as a Python function of positional arguments; given back with the engine's
        interface ``f(state, env)`` (the def's parameters read from ``env``)."""
        fname = self.source.def_names[name]
        fn = self.module.define(self.source.def_source(name), fname)
        params = self.game.defs[name].params
        if "me" in params:
            return lambda st, env: fn(st, *[env[p] for p in params])
        return lambda st, env: fn(st, env.get("me", codegen.UNSET), *[env[p] for p in params])


def _helpers(game) -> dict:
    """The names the generated source may use besides its own: this module's functions, the limits,
    and the compiled game (for what depends on it: board functions, columns)."""
    count = game.player_count

    def missing(name):
        raise _no_value(name)

    def column(values, item, name):
        try:
            return values[item]
        except (KeyError, TypeError):
            if type(item) is dict and name in item:  # a table's row: table[key].column
                return item[name]
            raise game.no_column(item, name) from None

    def field(o, name):
        try:
            return o[name]
        except (KeyError, TypeError, IndexError):
            raise _no_field(o, name) from None

    def player_or_field(st, o, name):  # both a player variable and a record field: the value decides
        if type(o) is dict:
            return o[name]
        if type(o) is int:
            return st._vars[name][player_index(o, count)]
        return game.get_field(st, o, name)

    def table_row(rows, table, keys, k):
        """table[key] is the key's row, as a record of its columns; table[n] the n-th key, as for a list."""
        if type(k) is str:
            row = rows.get(k)
            if row is None:
                raise RulesRuntimeError(f"table '{table}' has no row {k!r}")
            return dict(row)
        return get_index(keys, k)

    def no_board(name):
        raise RulesRuntimeError(f"'{name}' needs a board that has it, and this game's board does not")

    return {
        "_add": _add, "_sub": _sub, "_mul": _mul, "_div": _div, "_mod": _mod, "_neg": operator.neg,
        "_COMPARE": _COMPARE, "_within": _within, "_to_text": to_text, "_public_text": public_text,
        "_text_made": _text_made, "_missing": missing, "_UNSET": codegen.UNSET, "_no_arm": _no_arm,
        "_values_equal": values_equal, "_player_index": player_index, "_column": column, "_field": field,
        "_player_or_field": player_or_field, "_game": game, "_table_row": table_row,
        "_get_index": get_index, "_set_index": set_index, "_no_board": no_board, "_work": limits.work, "_limits": limits,
        "_CALL": limits.CALL, "_exhausted": limits.exhausted, "_spend": limits.spend,
        "_quantified": quantified, "_copy_value": copy_value,
        "_SCALAR_TYPES": SCALARS, "_FOLD_ERRORS": _FOLD_ERRORS,
    }


def player_index(p, count: int) -> int:
    """The list position of player ``p``'s value; anything but a player of this game is an error."""
    if type(p) is not int or not 0 < p <= count:
        raise RulesRuntimeError(f"{shown(p)} is not a player of this game (1 to {count})",
                                "the value is none here: check it first ('if p != none:')" if p is None
                                else "a player is a number from 1 to player_count")
    return p - 1


def _no_value(name: str) -> RulesRuntimeError:
    return RulesRuntimeError(f"'{name}' has no value here",
                             f"give '{name}' a value on every way that leads to this line (a 'let' before "
                             "the 'if', for instance)")


def _no_field(o, name: str) -> RulesRuntimeError:
    if type(o) is dict:  # a record always has all its fields (the checker sees to it): a map
        return RulesRuntimeError(f"no entry '{name}' in the map {shown(o, named=False)}",
                                 f"a map has only the keys set in it: read m[\"{name}\"] to get none for a "
                                 "missing key, or set it first", focus=f"field:{name}")
    return RulesRuntimeError(f"{shown(o)} has no field '{name}': it is {kind_of(o)}, not a record",
                             "the value is none here: check it first ('if x != none:')" if o is None
                             else "only a record has fields", focus=f"field:{name}")
