"""Compile expressions to Python closures ``f(state, env) -> value``.

Names are resolved once here (local, game variable, option, enum member, table), options are
folded to constants, and nothing from the rules text is ever run as Python.
"""
from __future__ import annotations

import operator

from rulewright.dsl import ast
from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter import limits
from rulewright.interpreter.builtins import BUILTINS, quantify
from rulewright.interpreter.machine import kind_of, shown
from rulewright.interpreter.values import copy_value, to_text
from rulewright.interpreter.views import public_text


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


def is_const(f) -> bool:
    return hasattr(f, "const")


# A constant that cannot be computed (1 + [2], len(3)) is left to fail when it runs, where the
# machine names the rule's file:line; a branch that an option turns off then never fails at all.
_FOLD_ERRORS = (RulesRuntimeError, ValueError, TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError)


def fold(fn, *args):
    try:
        return const(fn(*args))
    except _FOLD_ERRORS:
        return lambda st, env: fn(*args)


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


def _compare_held_at(held, local, equal, v):
    """``board[space] == value`` (or !=) in one closure: the where-clause of most board games."""
    def f(st, env):
        o = st.vars[held]
        try:
            i = env[local]
        except KeyError:
            raise _no_value(local) from None
        x = o.get(i) if type(o) is dict else get_index(o, i)
        return x == v if equal else x != v
    return f


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
    """Resolves names against one compiled game (its declarations, options and player count)."""

    def __init__(self, game):
        self.game = game

    def compile(self, node, scope: set):
        method = getattr(self, "_" + type(node).__name__)
        return method(node, scope)

    # ------------------------------------------------------------------ atoms
    def _Literal(self, node, scope):
        return const(node.value)

    def _Template(self, node, scope):
        parts = [p if isinstance(p, str) else self.compile(p, scope) for p in node.parts]
        if all(isinstance(p, str) or is_const(p) for p in parts):
            return const("".join(p if isinstance(p, str) else to_text(p.const) for p in parts))
        if self.game.field_visibility:
            def f(st, env):  # a record printed whole keeps its face-down fields face down
                return _text_made("".join(p if isinstance(p, str) else public_text(st.game, p(st, env))
                                          for p in parts))
            return f

        def f(st, env):
            return _text_made("".join(p if isinstance(p, str) else to_text(p(st, env)) for p in parts))
        return f

    def _ListLit(self, node, scope):
        items = [self.compile(i, scope) for i in node.items]
        if all(is_const(i) for i in items):
            return const([i.const for i in items])

        def f(st, env):
            return [i(st, env) for i in items]
        return f

    def _MapLit(self, node, scope):
        items = [(self.compile(k, scope), self.compile(v, scope)) for k, v in node.items]

        def f(st, env):
            return {k(st, env): v(st, env) for k, v in items}
        return f

    def _Name(self, node, scope):
        name = node.id
        g = self.game
        if name in scope or name == "me":
            def f(st, env):
                try:
                    return env[name]
                except KeyError:
                    raise _no_value(name) from None
            f.local = name  # lets a parent read it inline (see _Index)
            return f
        if name in g.var_decls:
            def f(st, env):
                return st.vars[name]
            f.held = name
            return f
        if name in g.constants:
            return const(g.constants[name])
        raise RulesRuntimeError(f"unknown name '{name}'")  # the checker reports this first

    # ------------------------------------------------------------------ operators
    def _BinOp(self, node, scope):
        a, b = self.compile(node.left, scope), self.compile(node.right, scope)
        fn = _BINOPS[node.op]
        if is_const(a) and is_const(b):
            return fold(fn, a.const, b.const)

        def f(st, env):
            return fn(a(st, env), b(st, env))
        return f

    def _Compare(self, node, scope):
        a, b = self.compile(node.left, scope), self.compile(node.right, scope)
        fn = _COMPARE[node.op]
        if is_const(a) and is_const(b):
            return fold(fn, a.const, b.const)
        at = getattr(a, "held_at", None)
        if at is not None and node.op in ("==", "!=") and is_const(b):
            return _compare_held_at(*at, node.op == "==", b.const)
        if node.op == "==" and is_const(b):
            v = b.const
            return lambda st, env: a(st, env) == v
        if node.op == "==":  # the commonest tests, without the call through operator
            return lambda st, env: a(st, env) == b(st, env)
        if node.op == "!=":
            return lambda st, env: a(st, env) != b(st, env)
        return lambda st, env: fn(a(st, env), b(st, env))

    def _BoolOp(self, node, scope):
        a, b = self.compile(node.left, scope), self.compile(node.right, scope)
        if node.op == "and":
            if is_const(a):
                return b if a.const else const(a.const)
            return lambda st, env: a(st, env) and b(st, env)
        if is_const(a):
            return const(a.const) if a.const else b
        return lambda st, env: a(st, env) or b(st, env)

    def _Not(self, node, scope):
        a = self.compile(node.operand, scope)
        if is_const(a):
            return const(not a.const)
        return lambda st, env: not a(st, env)

    def _Neg(self, node, scope):
        a = self.compile(node.operand, scope)
        if is_const(a):
            return fold(operator.neg, a.const)
        return lambda st, env: -a(st, env)

    def _Cond(self, node, scope):
        t, a, b = (self.compile(n, scope) for n in (node.test, node.then, node.orelse))
        if is_const(t):
            return a if t.const else b
        return lambda st, env: a(st, env) if t(st, env) else b(st, env)

    def _Match(self, node, scope):
        arms = [([self.compile(p, scope) for p in patterns], self.compile(v, scope)) for patterns, v in node.arms]
        orelse = _no_arm
        if node.orelse is not None:
            other = self.compile(node.orelse, scope)

            def orelse(st, env, x=None):
                return other(st, env)
        if node.subject is None:  # match { if c: v, ... }: the first condition that holds
            tests = [(ps[0], v) for ps, v in arms]

            def f(st, env):
                for test, value in tests:
                    if test(st, env):
                        return value(st, env)
                return orelse(st, env)
            return f
        subject = self.compile(node.subject, scope)
        if all(is_const(p) and type(p.const) is str for ps, _v in arms for p in ps):
            table: dict = {}
            for ps, v in arms:
                for p in ps:
                    table.setdefault(p.const, v)  # the first arm wins (the checker reports the second)

            def f(st, env):
                x = subject(st, env)
                value = table.get(x) if type(x) is str else None
                return value(st, env) if value is not None else orelse(st, env, x)
            return f

        def f(st, env):
            x = subject(st, env)
            for ps, value in arms:
                for p in ps:
                    if values_equal(p(st, env), x):
                        return value(st, env)
            return orelse(st, env, x)
        return f

    def _LetIn(self, node, scope):
        value, name = self.compile(node.value, scope), node.name
        body = self.compile(node.body, scope | {name})

        def f(st, env):
            env[name] = value(st, env)
            return body(st, env)
        return _keeping(name, f)

    # ------------------------------------------------------------------ access
    def _Attr(self, node, scope):
        obj = self.compile(node.obj, scope)
        name = node.name
        kinds = self.game.field_kinds(name)
        count = self.game.player_count
        if kinds == {"player"}:
            def f(st, env):
                return st.vars[name][player_index(obj(st, env), count)]
            return f
        if kinds == {"column"}:
            column = self.game.columns[name]

            game = self.game

            def f(st, env):
                item = obj(st, env)
                try:
                    return column[item]
                except (KeyError, TypeError):
                    if type(item) is dict and name in item:  # a table's row: table[key].column
                        return item[name]
                    raise game.no_column(item, name) from None
            return f
        if kinds == {"field"}:
            def f(st, env):
                o = obj(st, env)
                try:
                    return o[name]
                except (KeyError, TypeError, IndexError):
                    raise _no_field(o, name) from None
            return f
        game = self.game
        if kinds == {"player", "field"}:  # both a player variable and a record field: the value decides
            def f(st, env):
                o = obj(st, env)
                if type(o) is dict:
                    return o[name]
                if type(o) is int:
                    return st.vars[name][player_index(o, count)]
                return game.get_field(st, o, name)
            return f

        def f(st, env):  # a name used by several kinds: decide by the value
            return game.get_field(st, obj(st, env), name)
        return f

    def _table_row(self, table, keys, idx):
        """table[key] is the key's row, as a record of its columns; table[n] the n-th key, as for a list."""
        rows = self.game.rows[table]

        def f(st, env):
            k = idx(st, env)
            if type(k) is str:
                row = rows.get(k)
                if row is None:
                    raise RulesRuntimeError(f"table '{table}' has no row {k!r}")
                return dict(row)
            return get_index(keys(st, env), k)
        return f

    def _Index(self, node, scope):
        obj, idx = self.compile(node.obj, scope), self.compile(node.index, scope)
        if isinstance(node.obj, ast.Name) and node.obj.id in self.game.rows and node.obj.id not in scope:
            return self._table_row(node.obj.id, obj, idx)
        held, local = getattr(obj, "held", None), getattr(idx, "local", None)
        if held is not None and local is not None:
            def f(st, env):  # board[space], the hottest expression of board games: no inner calls
                o = st.vars[held]
                try:
                    i = env[local]
                except KeyError:
                    raise _no_value(local) from None
                if type(o) is dict:
                    return o.get(i)
                return get_index(o, i)
            f.held_at = (held, local)  # lets a comparison read it inline (see _compare_held_at)
            return f
        if held is not None:
            def f(st, env):  # a game variable indexed: one call fewer
                o = st.vars[held]
                if type(o) is dict:
                    return o.get(idx(st, env))
                return get_index(o, idx(st, env))
            return f

        def f(st, env):
            o = obj(st, env)
            if type(o) is dict:  # boards kept as maps (space -> piece): the hot case
                return o.get(idx(st, env))
            return get_index(o, idx(st, env))
        return f

    def _Call(self, node, scope):
        name = node.func.id
        args = [self.compile(a, scope) for a in node.args]
        g = self.game
        if name in g.records:
            fields = g.records[name]
            kw = {k: self.compile(v, scope) for k, v in node.kwargs}
            pairs = list(zip(fields, args)) + [(k, kw[k]) for k in fields if k in kw]

            def f(st, env):
                return {k: v(st, env) for k, v in pairs}
            return f
        if name in g.defs:
            return self._call_def(name, args)
        builtin = BUILTINS.get(name)
        target = g
        if builtin is None:  # a function of the board's kind (the checker saw that the board has it)
            target = g.board
            builtin = target.functions.get(name) if target is not None else None
            if builtin is None:
                def no_board(st, env):
                    raise RulesRuntimeError(f"'{name}' needs a board that has it, and this game's board does not")
                return no_board
        fn = builtin.fn
        if builtin.needs in ("game", "board"):
            if all(is_const(a) for a in args):
                return fold(fn, target, *[a.const for a in args])
            if len(args) == 1:
                a0 = args[0]
                return lambda st, env: fn(target, a0(st, env))
            if len(args) == 2:
                a0, a1 = args
                return lambda st, env: fn(target, a0(st, env), a1(st, env))
            return lambda st, env: fn(target, *[a(st, env) for a in args])
        if builtin.needs == "state":
            return lambda st, env: fn(st, *[a(st, env) for a in args])
        if all(is_const(a) for a in args):
            return fold(fn, *[a.const for a in args])
        if len(args) == 1:
            a0 = args[0]
            return lambda st, env: fn(a0(st, env))
        return lambda st, env: fn(*[a(st, env) for a in args])

    def _call_def(self, name, args):
        g = self.game
        params = g.defs[name].params
        bodies = g.def_bodies  # filled before any rule runs; looked up per call so defs may recurse
        pass_me = "me" not in params
        if self._calls_defs(name):  # counted: defs calling defs can multiply the calls (f(n-1) + f(n-1))
            left, exhausted, call = limits.left, limits.exhausted, limits.CALL

            def f(st, env):
                left[0] -= call
                if left[0] < 0:
                    exhausted()
                inner = {p: a(st, env) for p, a in zip(params, args)}
                if pass_me and "me" in env:
                    inner["me"] = env["me"]
                return bodies[name](st, inner)
            return f
        # a def that calls no def costs a bounded time, called from something already counted
        if len(args) == 1:  # the common case, without a comprehension
            p0, a0 = params[0], args[0]

            def f(st, env):
                inner = {p0: a0(st, env)}
                if pass_me and "me" in env:
                    inner["me"] = env["me"]
                return bodies[name](st, inner)
            return f

        def f(st, env):
            inner = {p: a(st, env) for p, a in zip(params, args)}
            if pass_me and "me" in env:
                inner["me"] = env["me"]
            return bodies[name](st, inner)
        return f

    def _calls_defs(self, name) -> bool:
        """Whether the def's body calls a def (itself included)."""
        defs = self.game.defs
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in defs
                   for n in ast.walk(defs[name].body))

    def _Quantifier(self, node, scope):
        b = node.binder
        source = self.compile(b.source, scope)
        inner = scope | {b.var}
        where = self.compile(b.where, inner) if b.where is not None else None
        body = self.compile(b.body, inner) if b.body is not None else None
        func, var = node.func, b.var
        return _keeping(var, self._quantifier(func, var, source, where, body))

    @staticmethod
    def _quantifier(func, var, source, where, body):
        spend = limits.spend
        if func == "count" and body is None and where is not None:
            def f(st, env):
                n = 0
                items = source(st, env)
                if type(items) is list and len(items) > 32:  # short lists: bounded by the steps (limits.py)
                    spend(len(items))
                for x in items:
                    env[var] = x
                    if where(st, env):
                        n += 1
                return n
            return f
        if func == "any" and where is None and body is not None:
            def f(st, env):  # stops at the first item that passes
                items = source(st, env)
                if type(items) is list and len(items) > 32:  # short lists: bounded by the steps (limits.py)
                    spend(len(items))
                for x in items:
                    env[var] = x
                    if body(st, env):
                        return True
                return False
            return f
        if func == "all" and where is None and body is not None:
            def f(st, env):  # stops at the first item that fails
                items = source(st, env)
                if type(items) is list and len(items) > 32:  # short lists: bounded by the steps (limits.py)
                    spend(len(items))
                for x in items:
                    env[var] = x
                    if not body(st, env):
                        return False
                return True
            return f
        return lambda st, env: quantify(func, list(source(st, env)), env, var, where, body, st)

    def _ListComp(self, node, scope):
        b = node.binder
        source = self.compile(b.source, scope)
        inner = scope | {b.var}
        where = self.compile(b.where, inner) if b.where is not None else None
        body = self.compile(b.body, inner) if b.body is not None else None
        var = b.var

        def f(st, env):
            out = []
            items = source(st, env)
            if type(items) is list and len(items) > 32:  # the items a comprehension goes through
                limits.spend(len(items))
            for x in items:
                env[var] = x
                if where is None or where(st, env):
                    out.append(body(st, env) if body is not None else x)
            return out
        return _keeping(var, f)


_ABSENT = object()


def _keeping(var, f):
    """``f`` binds ``var`` item by item; afterwards a local of that name has its old value again."""
    def g(st, env):
        old = env.get(var, _ABSENT)
        try:
            return f(st, env)
        finally:
            if old is _ABSENT:
                env.pop(var, None)
            else:
                env[var] = old
    return g


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
