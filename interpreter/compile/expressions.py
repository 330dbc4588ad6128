"""Compile expressions to Python functions ``f(state, env) -> value``.

The functions are made from generated source (codegen.py): names are resolved once (local, game
variable, option, enum member, table), options are folded to constants, and nothing from the rules
text is ever run as Python. The operations they call at run time are the engine's (operations.py).
"""
from __future__ import annotations

from typing import Any

import attrs

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.compile import codegen
from rulewright.interpreter.engine import compare, limits, operations
from rulewright.interpreter.engine.builtins import quantified
from rulewright.interpreter.engine.operations import get_index, player_index, set_index
from rulewright.interpreter.engine.values import SCALARS, copy_value, public_text, to_text
from rulewright.interpreter.engine.builtin_names import ME


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
        if ME in params:
            return lambda st, env: fn(st, *[env[p] for p in params])
        return lambda st, env: fn(st, env.get(ME, codegen.UNSET), *[env[p] for p in params])


def _helpers(game) -> dict:
    """The names the generated source may use besides its own: the engine's operations, the limits,
    and the compiled game (for what depends on it: board functions, columns)."""
    count = game.player_count

    def column(values, item, name):
        try:
            return values[item]
        except (KeyError, TypeError):
            if type(item) is dict and name in item:  # a table's row: table[key].column
                return item[name]
            raise game.no_column(item, name) from None

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
            return game.flatness.note(dict(row))  # a record made (compare.Flatness)
        return get_index(keys, k)

    def no_board(name):
        raise RulesRuntimeError(f"'{name}' needs a board that has it, and this game's board does not")

    ops = operations
    return {
        "_add": ops.add, "_sub": ops.subtract, "_mul": ops.multiply, "_div": ops.divide, "_mod": ops.remainder,
        "_neg": ops.negate, "_COMPARED": compare.COUNTED, "_within": compare.within, "_to_text": to_text,
        "_ONE_STEP_TYPES": compare.ONE_STEP_TYPES, "_eq": compare.equal, "_ne": compare.not_equal, "_lt": compare.less, "_le": compare.less_or_equal,
        "_gt": compare.greater, "_ge": compare.greater_or_equal, "_same_value": compare.same_value,
        "_public_text": public_text, "_text_made": ops.text_made, "_missing": ops.missing, "_UNSET": codegen.UNSET,
        "_no_arm": ops.no_arm, "_values_equal": ops.values_equal, "_player_index": player_index, "_column": column,
        "_field": ops.field, "_player_or_field": player_or_field, "_game": game, "_table_row": table_row,
        "_get_index": get_index, "_set_index": set_index, "_no_board": no_board, "_limits": limits,
        "_CALL": limits.CALL, "_exhausted": limits.exhausted, "_spend": limits.spend, "_size": limits.size,
        "_quantified": quantified, "_copy_value": copy_value,
        "_SCALAR_TYPES": SCALARS, "_FOLD_ERRORS": _FOLD_ERRORS,
        "_FLAT": game.flatness, "_made": game.flatness.note, "_set_in": game.flatness.note_value,
    }
