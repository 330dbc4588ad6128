"""Python source generated from a checked rules file, compiled once and run as plain Python functions.

The way Jinja compiles templates: each expression of the rules becomes the text of a Python expression,
each ``def`` a Python function with positional arguments, each quantifier a loop in a function of its
own. The source is compiled (``compile``/``exec``) into one namespace per compiled game.

Nothing from the rules text is ever spliced into the source as code: every name the rules use is
mangled to a generated identifier (``_v3``, ``_d0``...) or looked up by a key written with ``ascii()``
(a Python string literal for any text), every text literal is written with ``ascii()`` too, small whole
numbers with ``repr()`` of an ``int``, and every other value (lists, big numbers, tables) is a constant
of the namespace named by a counter (``_c7``). The generated source is therefore made only of this
module's own words, whatever the rules file says (tests/test_codegen.py tries to break out).
"""
from __future__ import annotations

import contextlib
import itertools
from typing import Any

from rulewright.dsl import ast
from rulewright.dsl.errors import RulesRuntimeError
from rulewright.dsl.visitor import Visitor
from rulewright.interpreter.check.expression_checks import WAS
from rulewright.interpreter.compile.comparisons import Comparisons, one_step
from rulewright.interpreter.compile.folded import Const, cannot_fail, is_simple
from rulewright.interpreter.engine import failed_operation, limits
from rulewright.interpreter.engine.failed_operation import ARITHMETIC, CALL, ITEMS, KEYS, NEGATE
from rulewright.interpreter.engine.builtins import BUILTINS, QUANTIFIERS
from rulewright.interpreter.engine.builtin_names import ME

# A code object per distinct source text, for the whole process: a second game of the same rules (or
# the same expression in another game) compiles nothing. Bounded: cleared when it grows past this.
_CODE_CACHE: dict = {}
_CODE_CACHE_MAX = 20_000

UNSET = object()  # 'me' has no value where a def was called from

WAS_STATE = "$was"  # the local holding, for an invariant's was(x), the state before the move

# a match on texts with this many arms or more finds its arm in a dict (ExprSource._looked_up)
_MATCH_LOOKED_UP = 4


class Module:
    """The generated source of one compiled game and the namespace it runs in."""

    def __init__(self, helpers: dict):
        self.ns: dict = dict(helpers)
        self.ns["__builtins__"] = {"len": len, "type": type, "list": list, "dict": dict, "str": str,
                                   "int": int, "bool": bool, "all": all, "any": any, "min": min, "max": max,
                                   "sorted": sorted, "range": range, "zip": zip}
        self.units: list = []  # the source of every function, in the order made (compile --emit)
        self._consts: dict = {}  # id(value) -> name, for values given more than once (a table's column)
        self._copies: dict = {}  # the source of a copy literal wrote ('_c7[:]') -> the constant copied
        self._counter = itertools.count()
        self._counters: dict = {}  # a part of the rules (a def, a procedure) -> the counter of its names
        self._part, self._parts = 0, 1
        # each operation written inline, by its source -> (what it does, its operands' sources), as it is
        # written: where one fails, failed_operation finds it here (the way Jinja's debug_info is kept)
        self.operations: dict = {}

    def operation(self, operation: tuple, text: str, *operands: str) -> str:
        """``text``, the source of an operation Python runs inline (one of failed_operation's), noted
        with its operands' sources."""
        self.operations[text] = (operation, operands)
        return text

    def call(self, fn: str, *args: str) -> str:
        """Source calling ``fn`` with ``args``, noted."""
        return self.operation((CALL,), f"{fn}({', '.join(args)})", fn, *args)

    def fresh(self, prefix: str) -> str:
        return f"{prefix}{next(self._counter) * self._parts + self._part}"

    def number_parts(self, parts: int):
        """Give each of ``parts`` parts of the rules (see names_of) names of its own; before any name."""
        self._parts = parts

    @contextlib.contextmanager
    def names_of(self, part: int):
        """Names made inside are part ``part``'s (1 <= part < parts): the n-th is n * parts + part, so
        they never meet another part's, and a def or procedure made the same way in two games (another
        option value, another player count: `validate` compiles each) gets the same source there,
        whatever came before it: its code is compiled once (_CODE_CACHE)."""
        assert 0 < part < self._parts, "a part's names would meet another's"
        saved = self._counter, self._part
        self._counter, self._part = self._counters.setdefault(part, itertools.count()), part
        try:
            yield
        finally:
            self._counter, self._part = saved

    def constant(self, value) -> str:
        """The name of a namespace constant holding ``value``."""
        key = id(value)
        name = self._consts.get(key)
        if name is None or self.ns.get(name) is not value:
            name = self.fresh("_c")
            self._consts[key] = name
            self.ns[name] = value
        return name

    def literal(self, value) -> str:
        """Source for a constant value: small numbers, yes/no, none and texts written out (escaped),
        anything else a namespace constant. Lists are copied each time (a rule may change its copy)."""
        t = type(value)
        if value is None or t is bool:
            return repr(value)
        if t is int and -10 ** 15 < value < 10 ** 15:
            return repr(int(value))
        if t is str and len(value) <= 200:
            return ascii(value)
        if t is list:
            name = self.constant(value)
            if any(type(v) is list or type(v) is dict for v in value):
                return f"_copy_value({name}, st)"
            # a flat one: a long one copied is counted as work (limits.py); a loop that only reads it
            # goes through the constant itself (read_only): its items are never changed
            source = f"_copy_value({name}, st)" if len(value) > limits.SHORT else f"{name}[:]"
            self._copies[source] = name
            return source
        if t is dict:
            return f"_copy_value({self.constant(value)}, st)"
        return self.constant(value)

    def read_only(self, source: str) -> str:
        """Source to go through the list ``source`` gives, only reading it: a constant flat list (a copy
        ``literal`` wrote) is gone through as it is, not copied first."""
        return self._copies.get(source, source)

    # False: the game is generated to find its errors and never played (`validate`'s variants): a
    # function is compiled only if generation itself calls it (Python's compile() is most of the time)
    played = True

    def define(self, source: str, name: str):
        """Compile ``source`` (which defines the function ``name``) into the namespace; give the function."""
        if not self.played:
            self.units.append(source)

            def compiled_when_called(*args):
                return self._compile(source, name)(*args)
            return compiled_when_called
        self.units.append(source)
        return self._compile(source, name)

    def _compile(self, source: str, name: str):
        code = _CODE_CACHE.get(source)
        if code is None:
            if len(_CODE_CACHE) >= _CODE_CACHE_MAX:
                _CODE_CACHE.clear()
            code = _CODE_CACHE[source] = compile(source, "<rules>", "exec")
            failed_operation.remember(code, source, self.operations)  # a failed inline operation is found there
        exec(code, self.ns)
        return self.ns[name]

    def source(self) -> str:
        return "\n\n".join(self.units) + "\n"


class Scope:
    """What names mean inside one generated function: Python locals (def parameters, quantifier and
    'let ... in' variables, each a mangled name) and the procedure's locals (read from ``env``)."""

    def __init__(self, env_locals: set, py: dict, in_def: bool, known=frozenset()):
        self.env_locals = env_locals  # names held in the frame's locals dict
        self.py = py                  # rules name -> generated Python local
        self.in_def = in_def          # 'me' is the def's argument, maybe UNSET
        # the locals certainly set where the expression runs (statements.ProcCompiler.known): read
        # without the check that they have a value
        self.known = known

    def bind(self, name: str, pyname: str) -> "Scope":
        return Scope(self.env_locals, {**self.py, name: pyname}, self.in_def, self.known)


# the field of a member with data that holds the member's name ('is' is a word of the language, so no
# record of the rules has a field of that name)
TAG_FIELD = "is"

# where a record field's default is worked out: no locals (the checker lets a default read constants only)
_CONSTANT_SCOPE = Scope(set(), {}, False)


class ExprSource(Comparisons, Visitor):
    """Turns expressions into Python source, resolving names against one compiled game."""

    def __init__(self, game, module: Module):
        self.game = game
        self.m = module
        self._def_names = None
        self.fold_errors = module.ns["_FOLD_ERRORS"]
        self.fold_budget = limits.Budget()  # what the constants folded in this game may do (limits.py)

    @property
    def def_names(self) -> dict:
        """Each def's Python name, by its place among the defs (the game knows them once it has read
        its declarations)."""
        if self._def_names is None:
            self._def_names = {name: f"_d{i}" for i, name in enumerate(self.game.defs)}
        return self._def_names

    # ------------------------------------------------------------------ entry points
    def gen(self, node, scope: Scope):
        """Source of the expression, or a Const."""
        avail = self._avail
        if avail is None or not (type(node) in _SHAREABLE or type(node) is ast.Call and node.func.id in self.game.defs):
            return self.visit(node, scope)
        key = _shape(node, scope)
        t = avail.get(key)
        if t is not None:
            return t
        c = self.visit(node, scope)
        if isinstance(c, Const) or is_simple(c):
            return c
        t = avail[key] = self.temp()
        return f"({t} := {c})"

    def code(self, node, scope: Scope) -> str:
        c = self.gen(node, scope)
        return self.m.literal(c.value) if isinstance(c, Const) else c

    def as_code(self, c) -> str:
        return self.m.literal(c.value) if isinstance(c, Const) else c

    def temp(self) -> str:
        return self.m.fresh("_t")

    def fold(self, fn_name: str, fn, *args, counts: bool = False):
        """A constant if ``fn`` can compute it now, else the call left to fail when it runs. ``counts``:
        ``fn`` takes a budget after the arguments (folded: the compiling's; when it runs: the state)."""
        try:
            return Const(fn(*args, self.fold_budget) if counts else fn(*args))
        except self.fold_errors:
            return f"{fn_name}({', '.join([self.m.literal(a) for a in args] + (['st'] if counts else []))})"

    # ------------------------------------------------------------------ atoms
    def visit_Literal(self, node, scope):
        return Const(node.value)

    def visit_Template(self, node, scope):
        # ("text", piece) for the template's own text, ("value", Const or source) for each {expression}
        parts = [("text", p) if isinstance(p, str) else ("value", self.gen(p, scope)) for p in node.parts]
        to_text = self.m.ns["_to_text"]
        if all(kind == "text" or isinstance(p, Const) for kind, p in parts):
            return Const("".join(p if kind == "text" else to_text(p.value) for kind, p in parts))
        pieces = [ascii(p) if kind == "text" else self.text_of(self.as_code(p)) for kind, p in parts]
        joined = pieces[0] if len(pieces) == 1 else f"''.join(({', '.join(pieces)},))"
        t = self.temp()  # a long text is counted as work (_text_made); a short one costs no call
        return f"({t} if len({t} := {joined}) <= {limits.SHORT} else _text_made({t}, st))"

    def text_of(self, code: str) -> str:
        """Source for the text of a value in a template: to_text's own answer for a text or a number
        written inline, anything else through it (or through public_text, where fields can be hidden)."""
        if self.game.field_visibility:
            return f"_public_text(st.game, {code})"
        t = self.temp()
        return f"({t} if type({t} := {code}) is str else str({t}) if type({t}) is int else _to_text({t}, st))"

    def visit_ListLit(self, node, scope):
        items = [self.gen(i, scope) for i in node.items]
        if all(isinstance(i, Const) for i in items):
            return Const([i.value for i in items])
        return "[" + ", ".join(self.as_code(i) for i in items) + "]"

    def visit_MapLit(self, node, scope):
        pairs = [(self.code(k, scope), self.code(v, scope)) for k, v in node.items]
        made = self.m.operation((KEYS,), "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}", *(k for k, _v in pairs))
        return f"_made({made})"  # (compare.Flatness)

    def visit_Name(self, node, scope):
        name, g = node.id, self.game
        py = scope.py.get(name)
        if py is not None:
            if name == ME and scope.in_def:
                return f"({py} if {py} is not _UNSET else _missing({ascii(name)}))"
            return py
        if name in scope.env_locals or name == ME:
            key = ascii(name)
            if name in scope.known:
                return f"env[{key}]"
            return f"(env[{key}] if {key} in env else _missing({key}))"
        if name in g.var_decls:
            return self.state_var(name)
        if name in g.constants:
            return Const(g.constants[name])
        raise RulesRuntimeError(f"unknown name '{name}'")  # the checker reports this first

    # Inside a loop's function (_loop_function): the game variables it reads, each taken into a local
    # once, before the loop (no expression changes the state, so it is the same on every pass):
    # {its name, written: the local}.
    _hoist = None

    @contextlib.contextmanager
    def hoisting(self, hoist: bool = True):
        """Generate a loop's function (or, ``hoist`` false, a function of its own): gives the dict of
        the game variables read in it, to be taken before the loop (``hoisted_lines``)."""
        saved, self._hoist = self._hoist, {} if hoist else None
        try:
            yield self._hoist
        finally:
            self._hoist = saved

    def state_var(self, name: str) -> str:
        """Source reading the game variable ``name``."""
        key = ascii(name)
        if self._hoist is None:
            return f"st._vars[{key}]"
        h = self._hoist.get(key)
        if h is None:
            h = self._hoist[key] = self.m.fresh("_h")
        return h

    # ------------------------------------------------------------------ operators
    _BINOP_NAMES = {"+": "_add", "-": "_sub", "*": "_mul", "/": "_div", "%": "_mod"}

    def visit_BinOp(self, node, scope):
        a, b = self.gen(node.left, scope), self.gen(node.right, scope)
        name = self._BINOP_NAMES[node.op]
        if isinstance(a, Const) and isinstance(b, Const):
            return self.fold(name, self.m.ns[name], a.value, b.value, counts=name in _COUNTING)
        if node.op in ("+", "-") and (isinstance(a, Const) or isinstance(b, Const)):
            return self._with_constant(node.op, name, a, b)
        if node.op in ("+", "-"):  # two numbers within the limits inline; anything else through the helper
            x, y, r = self.temp(), self.temp(), self.temp()
            # (+: two texts or two lists joined inline too, while within the SHORT items _add joins uncounted)
            joined = (f"{x} + {y} if type({x}) is type({y}) and (type({x}) is str or type({x}) is list) "
                      f"and len({x}) + len({y}) <= {limits.SHORT} else " if node.op == "+" else "")
            inline = self.m.operation((ARITHMETIC, node.op), f"{x} {node.op} {y}", x, y)
            return (f"({r} if type({x} := {self.as_code(a)}) is type({y} := {self.as_code(b)}) is int "
                    f"and -_limits.BIG < ({r} := {inline}) < _limits.BIG else {joined}{_operation(name, x, y)})")
        return _operation(name, self.as_code(a), self.as_code(b))

    def _with_constant(self, op: str, name: str, a, b) -> str:
        """``a op b`` (+ or -), one of them a constant: the case its kind makes likely written inline (a
        number within the limits; a short text joined), anything else through the helper, as _add and
        _sub would do it."""
        const, other = (a, b) if isinstance(a, Const) else (b, a)
        c, x, y = self.as_code(const), self.temp(), self.temp()
        first, second = (c, x) if const is a else (x, c)
        if type(const.value) is int and -10 ** 15 < const.value < 10 ** 15:
            inline = self.m.operation((ARITHMETIC, op), f"{first} {op} {second}", first, second)
            return (f"({y} if type({x} := {other}) is int and -_limits.BIG < ({y} := {inline}) < _limits.BIG "
                    f"else {_operation(name, first, second)})")
        if op == "+" and type(const.value) is str and len(const.value) <= limits.SHORT:
            # a text and another: joined as it is while the two stay within the SHORT letters _add joins uncounted
            return (f"({first} + {second} if type({x} := {other}) is str and len({x}) <= {limits.SHORT - len(const.value)} "
                    f"else {_operation(name, first, second)})")
        return _operation(name, self.as_code(a), self.as_code(b))

    def visit_BoolOp(self, node, scope):
        a, b = self.gen(node.left, scope), self.branch(node.right, scope)
        if node.op == "and":
            if isinstance(a, Const):
                return b if a.value else Const(a.value)
            return f"({a} and {self.as_code(b)})"
        if isinstance(a, Const):
            return Const(a.value) if a.value else b
        return f"({a} or {self.as_code(b)})"

    def visit_Not(self, node, scope):
        a = self.gen(node.operand, scope)
        if isinstance(a, Const):
            return Const(not a.value)
        return f"(not {a})"

    def visit_Neg(self, node, scope):
        a = self.gen(node.operand, scope)
        if isinstance(a, Const):
            return self.fold("_neg", self.m.ns["_neg"], a.value)
        return f"({self.m.operation((NEGATE,), f'-{a}', a)})"

    def visit_Cond(self, node, scope):
        t = self.gen(node.test, scope)
        if isinstance(t, Const):
            return self.gen(node.then if t.value else node.orelse, scope)
        return f"({self.as_code(self.branch(node.then, scope))} if {t} else {self.as_code(self.branch(node.orelse, scope))})"

    def visit_Match(self, node, scope):
        # only the first arm's condition (with no subject: the subject runs first) is certain to run:
        # every other part is a branch
        arms = [([self.gen(p, scope) if i == 0 and node.subject is None else self.branch(p, scope)
                  for p in patterns], self.as_code(self.branch(v, scope)))
                for i, (patterns, v) in enumerate(node.arms)]
        if node.subject is None:  # match { if c: v, ... }: the first condition that holds
            out = self.as_code(self.branch(node.orelse, scope)) if node.orelse is not None else "_no_arm(None, None)"
            for ps, value in reversed(arms):
                out = f"({value} if {self.as_code(ps[0])} else {out})"
            return out
        subject, x = self.code(node.subject, scope), self.temp()
        if any(isinstance(p, ast.Name) and p.id in self.game.tags for ps, _v in node.arms for p in ps):
            # an arm for a member with data: the arms are the members, and the subject is matched by its own
            t = self.temp()
            subject = f"({t}.get({ascii(TAG_FIELD)}, {t}) if type({t} := {subject}) is dict else {t})"
        out = self.as_code(self.branch(node.orelse, scope)) if node.orelse is not None else f"_no_arm(None, None, {x})"
        if all(isinstance(p, Const) and type(p.value) is str for ps, _v in arms for p in ps):
            if len(arms) >= _MATCH_LOOKED_UP:
                return f"(({x} := {subject}), {self._looked_up(arms, x, out)})[1]"
            for ps, value in reversed(arms):  # the first arm wins (the checker reports the second)
                test = " or ".join(f"{x} == {self.as_code(p)}" for p in ps)
                out = f"({value} if type({x}) is str and ({test}) else {out})"
        else:
            for ps, value in reversed(arms):
                test = " or ".join(f"_values_equal({self.as_code(p)}, {x})" if one_step(None, p)
                                   else f"_same_value({self.as_code(p)}, {x}, st)" for p in ps)
                out = f"({value} if ({test}) else {out})"
        return f"(({x} := {subject}), {out})[1]"

    def _looked_up(self, arms: list, x: str, orelse: str) -> str:
        """Source choosing among arms whose patterns are all texts by the place of ``x`` among them, found
        in one dict (the first arm with the text wins), then halving: a few comparisons of small
        numbers, not one test of ``x`` an arm."""
        first: dict = {}
        for k, (ps, _value) in enumerate(arms):
            for p in ps:
                first.setdefault(p.value, k)
        n, i = len(arms), self.temp()

        def halves(lo: int, hi: int) -> str:  # the arms from lo to hi - 1, by i
            if hi - lo == 1:
                return arms[lo][1]
            mid = (lo + hi) // 2
            return f"({halves(lo, mid)} if {i} < {mid} else {halves(mid, hi)})"
        place = f"({self.m.constant(first)}.get({x}, {n}) if type({x}) is str else {n})"
        return f"({halves(0, n)} if ({i} := {place}) < {n} else {orelse})"

    def visit_LetIn(self, node, scope):
        value, v = self.code(node.value, scope), self.m.fresh("_v")
        body = self.code(node.body, scope.bind(node.name, v))
        return f"(({v} := {value}), {body})[1]"

    # ------------------------------------------------------------------ access
    def visit_Attr(self, node, scope):
        obj = self.code(node.obj, scope)
        name = node.name
        key = ascii(name)
        g = self.game
        kinds = g.field_kinds(name)
        t, count = self.temp(), g.player_count
        if "player" in kinds and obj in self._player_names:  # a loop's variable over players: its entry
            return f"{self.state_var(name)}[{obj} - 1]"
        # a player's entry: players are 1 to count (anything else is an error _player_index words)
        entry = f"({t} - 1 if type({t} := {obj}) is int and 0 < {t} <= {count} else _player_index({t}, {count}))"
        if kinds == {"player"}:
            return f"{self.state_var(name)}[{entry}]"
        if kinds == {"column"}:
            column = self.m.constant(g.columns[name])
            return f"({column}[{t}] if type({t} := {obj}) is str and {t} in {column} else _column({column}, {t}, {key}))"
        if kinds == {"field"}:
            return f"({t}[{key}] if type({t} := {obj}) is dict and {key} in {t} else _field({t}, {key}))"
        if kinds == {"player", "field"}:  # both a player variable and a record field: the value decides
            return (f"({t}[{key}] if type({t} := {obj}) is dict else st._vars[{key}][{t} - 1] "
                    f"if type({t}) is int and 0 < {t} <= {count} else _player_or_field(st, {t}, {key}))")
        # several kinds: the value decides, in get_field's order (a record, a player, a table's item),
        # the usual cases inline
        cases = [f"{t}[{key}] if type({t} := {obj}) is dict"]
        if "player" in kinds:
            cases.append(f"st._vars[{key}][{t} - 1] if type({t}) is int and 0 < {t} <= {count}")
        if "column" in kinds:
            column = self.m.constant(g.columns[name])
            cases.append(f"{column}[{t}] if type({t}) is str and {t} in {column}")
        return "(" + " else ".join(cases) + f" else _game.get_field(st, {t}, {key}))"

    def visit_Index(self, node, scope):
        g = self.game
        if isinstance(node.obj, ast.Name) and node.obj.id in g.rows and node.obj.id not in scope.env_locals \
                and node.obj.id not in scope.py:
            keys = self.code(node.obj, scope)
            rows = self.m.constant(g.rows[node.obj.id])
            return f"_table_row({rows}, {ascii(node.obj.id)}, {keys}, {self.code(node.index, scope)})"
        obj, idx = self.code(node.obj, scope), self.code(node.index, scope)
        if obj != self.m.read_only(obj) and is_simple(idx) and not idx.isdigit():
            # an item of a constant list of numbers, texts...: read from the list itself (no copy, no test
            # of its kind)
            obj = self.m.read_only(obj)
            return (f"({obj}[{idx} - 1] if type({idx}) is int and 0 < {idx} <= {len(self.m.ns[obj])} "
                    f"else _get_index({obj}, {idx}))")
        t = self.temp()
        # a map's entry, or a list's item counted from 1, read inline; anything else (a position out of
        # range, text, a wrong kind) through get_index, which says what is wrong
        if idx.isdigit() and 0 < int(idx) < 10 ** 6:  # a fixed position (of a list, most often): its length is the test
            return (f"({t}[{int(idx) - 1}] if type({t} := {obj}) is list and len({t}) >= {idx} else {t}.get({idx}) "
                    f"if type({t}) is dict else _get_index({t}, {idx}))")
        if is_simple(idx):
            entry = self.m.call(f"{t}.get", idx)
            return (f"({entry} if type({t} := {obj}) is dict else {t}[{idx} - 1] if type({t}) is list "
                    f"and type({idx}) is int and 0 < {idx} <= len({t}) else _get_index({t}, {idx}))")
        i = self.temp()  # the object first, then the index, each evaluated once
        entry = self.m.call(f"{t}.get", i)
        return (f"({entry} if ({t} := {obj}) is {t} and ({i} := {idx}) is {i} and type({t}) is dict "
                f"else {t}[{i} - 1] if type({t}) is list and type({i}) is int and 0 < {i} <= len({t}) "
                f"else _get_index({t}, {i}))")

    def copied(self, code: str) -> str:
        """Source for a copy of the value (values.copy_value): a number, a text, yes/no or none is its
        own copy, with no call. One name for the value, ``_cp``: a copy is never nested in another."""
        return f"(_cp if type(_cp := {code}) in _SCALAR_TYPES else _copy_value(_cp, st))"

    # set while generating the list a count/any/all goes through, which it only reads: a board function
    # with a ``NAME_shared`` twin (a list it keeps, not a copy) may give that (read by _Call at once)
    _read_only = False

    def visit_Call(self, node, scope):
        name = node.func.id
        g = self.game
        shared, self._read_only = self._read_only, False
        if name in g.records:
            # a dict of every field in the record's order, however the fields were given: by name and
            # by default they cost what positional ones do
            given = dict(zip(g.records[name], node.args))
            given.update(node.kwargs)
            defaults = g.record_defaults[name]
            values = [(k, self.code(given[k], scope) if k in given else self.code(defaults[k], _CONSTANT_SCOPE))
                      for k in g.records[name] if k in given or k in defaults]
            if name in g.tags:  # a member with data: its name first, so its text reads "discard red 1"
                values.insert(0, (TAG_FIELD, ascii(name)))
            return self.record_made(values, given, defaults)
        if name in g.defs:
            return self._call_def(name, [self.code(a, scope) for a in node.args], scope)
        if name == WAS:
            return self._was(node.args[0], scope)
        if name == "tag" and len(node.args) == 1:  # 'x is discard': the member x is, with no call
            t = self.temp()
            return f"({t}.get({ascii(TAG_FIELD)}, {t}) if type({t} := {self.code(node.args[0], scope)}) is dict else {t})"
        args = [self.gen(a, scope) for a in node.args]
        builtin = BUILTINS.get(name)
        target, target_name = g, "_game"
        if builtin is None:  # a function of the board's kind (the checker saw that the board has it)
            target, target_name = g.board, "_game.board"
            builtin = target.functions.get(name) if target is not None else None
            if builtin is None:
                return f"_no_board({ascii(name)})"
        fn = self.m.constant(builtin.inline or builtin.fn)  # (when it fails, faults.py asks builtin.fn why)
        consts, codes = all(isinstance(a, Const) for a in args), [self.as_code(a) for a in args]
        if not consts and (own := self.builtin_inline(name, node.args, args, codes)):  # a leaner call
            return own
        method = _board_method(builtin, target) if builtin.needs == "board" and not consts else None
        if method is not None:  # the board's own method, bound once: two calls fewer
            twin = getattr(target, method.__name__ + "_shared", None) if shared else None
            if twin is not None:
                return self.m.call(self.m.constant(twin), *codes)
            inline = getattr(target, "inline_source", None)
            source = inline(method.__name__, codes, self.m.constant, self.m.call) if inline is not None else None
            return source or self.m.call(self.m.constant(method), *codes)  # or its lookup, no call
        if builtin.needs == "state":
            return self.m.call(fn, "st", *codes)
        # what fn takes before the arguments: the run's budget (folded: the compiling's), then what it needs
        budget = ["st"] if builtin.counts else []
        needs = [target_name] if builtin.needs in ("game", "board") else []
        if consts:
            try:
                return Const(builtin.fn(*[self.fold_budget] * len(budget), *[target] * len(needs),
                                        *[a.value for a in args]))
            except self.fold_errors:
                pass  # left to fail when it runs, where the machine names the rule's line
        return self.m.call(fn, *budget, *needs, *codes)

    def _was(self, node, scope):
        """was(x) in an invariant: x worked out on the state before the move, which the watch hands the
        invariant as ``env[WAS_STATE]`` (play/invariants.py). Its game variables are read there, never
        from the locals a loop took of the state now, and nothing computed outside is reused in it."""
        saved, self._avail = self._avail, None
        try:
            with self.hoisting(False):
                c = self.gen(node, scope)
        finally:
            self._avail = saved
        return c if isinstance(c, Const) else f"(lambda st: {c})(env[{ascii(WAS_STATE)}])"

    def _call_def(self, name, args, scope):
        params = self.game.defs[name].params
        if self._inlined(name):
            return self._inline_def(name, args)
        if ME in params:
            call = f"{self.def_names[name]}({', '.join(['st'] + args)})"
        else:
            me = scope.py.get(ME)
            if me is None:
                me = f"env.get({ascii(ME)}, _UNSET)"
            call = f"{self.def_names[name]}({', '.join(['st', me] + args)})"
        return call

    # ------------------------------------------------------------------ common subexpressions
    # No expression changes the state, so an item, a field or a def call written twice in one
    # expression, the second evaluated only after the first (``A if f(x) > 0 else f(x)``, ``at[x] !=
    # none and at[x].side == p``), is computed once (gen). ``_avail`` holds those computed so far on
    # every path to the place being generated (_shape -> temporary); None: not inside an expression.
    _avail = None

    def branch(self, node, scope):
        """The code of ``node``, a part evaluated only on some paths: what it computes is not available
        after it."""
        saved = self._avail
        if saved is not None:
            self._avail = dict(saved)
        try:
            return self.gen(node, scope)
        finally:
            self._avail = saved

    def top(self, node, scope, code: bool = False):
        """The source of ``node`` as a Python expression of its own (a function's body, a loop's
        condition...): nothing computed outside it is available in it."""
        saved, self._avail = self._avail, {}
        try:
            return self.code(node, scope) if code else self.gen(node, scope)
        finally:
            self._avail = saved

    # ------------------------------------------------------------------ small defs, inlined
    _INLINE_MOST = 600  # characters of a def's body at most (with the tests of its comparisons), written out where called

    def _inlined(self, name) -> bool:
        """Whether calls of def ``name`` are written out as its body: a short def that calls no def
        (so no call budget to count), has no loop of its own, and does not read 'me'."""
        cache = self.__dict__.setdefault("_inline_cache", {})
        if name not in cache:
            d = self.game.defs[name]
            nodes = list(ast.walk(d.body))
            ok = not self._calls_defs(name) and not any(
                isinstance(n, (ast.Quantifier, ast.ListComp)) or (isinstance(n, ast.Name) and n.id == ME)
                for n in nodes) and ME not in d.params
            if ok:
                cache[name] = None  # a def that mentions itself (impossible here: it calls no def)
                names = [f"_a{i}" for i in range(len(d.params))]  # (measured as written outside a loop)
                with self.hoisting(False), self.tests_hoisted(None), self.params_known(name, names):
                    body = self.top(d.body, Scope(set(), dict(zip(d.params, names)), False), True)
                ok = len(body) <= self._INLINE_MOST
            cache[name] = ok
        return cache[name]

    def _inline_def(self, name, args):
        """A call of def ``name`` written out: each argument bound once to a temporary, then the body."""
        d = self.game.defs[name]
        names, binds = [], []
        for a in args:
            if is_simple(a):
                names.append(a)
            else:
                t = self.temp()
                binds.append(f"({t} := {a}) is {t}")
                names.append(t)
        saved, self._avail = self._avail, None  # the body is another scope: nothing of the caller's
        try:
            with self.params_known(name, names):
                body = self.gen(d.body, Scope(set(), dict(zip(d.params, names)), False))
        finally:
            self._avail = saved
        if not binds or (isinstance(body, Const) and all(cannot_fail(a) for a in args)):
            return body  # (a constant: the arguments, which cannot fail, need not run)
        return f"({' and '.join(binds + [self.as_code(body)])})"

    def def_source(self, name: str) -> str:
        """A def as a Python function: ``_dN(st, me, arg...)`` (no ``me`` when it is a parameter)."""
        d = self.game.defs[name]
        py = {p: f"_a{i}" for i, p in enumerate(d.params)}
        head = ["st"] + ([] if ME in d.params else [ME]) + [py[p] for p in d.params]
        if ME not in d.params:
            py[ME] = ME
        with self.hoisting(False), self.tests_hoisted(None), self.params_known(name, [py[p] for p in d.params]):
            body = self.top(d.body, Scope(set(), py, in_def=ME not in d.params), True)  # (a function of its own)
        lines = [f"def {self.def_names[name]}({', '.join(head)}):"]
        if self._calls_defs(name):  # counted: defs calling defs can multiply the calls (f(n-1) + f(n-1))
            lines += ["    st._work_left -= _CALL", "    if st._work_left < 0:", "        _exhausted(st)"]
        lines.append(f"    return {body}")
        return "\n".join(lines)

    def _calls_defs(self, name) -> bool:
        defs = self.game.defs
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in defs
                   for n in ast.walk(defs[name].body))

    # ------------------------------------------------------------------ loops
    def _loop_function(self, scope: Scope, var: str, build, hoist: bool = True) -> str:
        """A function of its own for a loop over a list: it takes ``st``, ``env`` and every Python local
        in scope; ``build(inner_scope, v)`` gives its body's lines (``v`` the item's Python name).
        ``hoist``: the loop goes through the whole list, so the game variables it reads are taken once,
        before it (state_var); a loop that stops at its first or second item would only pay for that. The
        tests of the names it compares are made before it in any case (Comparisons.tests_hoisted): measured,
        that gains more in the loops that go through their lists than it costs in those that stop early."""
        fname, v = self.m.fresh("_q"), self.m.fresh("_v")
        captured = sorted(set(scope.py.values()))
        inner = scope.bind(var, v)
        lines = [f"def {fname}({', '.join(['st', 'env'] + captured)}):"]
        with self.hoisting(hoist) as hoisted, self.tests_hoisted(captured) as tests:
            body = build(inner, v)
        lines += ["    " + line for line in hoisted_lines(hoisted) + tests + body]
        self.m.define("\n".join(lines), fname)
        env = "env" if not scope.in_def else "None"
        return f"{fname}({', '.join(['st', env] + captured)})"

    def visit_Quantifier(self, node, scope):
        b, func = node.binder, node.func
        facts = QUANTIFIERS[func]

        def build(inner, v):
            # (a scalar one keeps nothing of the list: a board may give the list it keeps)
            self._read_only = facts.only_reads and facts.scalar and isinstance(b.source, ast.Call)
            try:
                source = self.items_source(b.source, scope, v)
            finally:
                self._read_only = False
            where = self.top(b.where, inner, True) if b.where is not None else None
            body = self.top(b.body, inner, True) if b.body is not None else None
            if facts.only_reads:
                source = self.m.read_only(source)
            counted = self._count_items(source)
            if func == "first" and body is None and where is not None:  # the first that passes, no more
                return [f"items = {source}", *counted, self._each(v),
                        f"    if {where}:", f"        return {v}", "return None"]
            if func == "count" and body is None and where is not None:
                return [f"items = {source}", *counted, "n = 0", self._each(v),
                        f"    if {where}:", "        n += 1", "return n"]
            if func == "any" and where is None and body is not None:
                return [f"items = {source}", *counted, self._each(v),
                        f"    if {body}:", "        return True", "return False"]
            if func == "all" and where is None and body is not None:
                return [f"items = {source}", *counted, self._each(v),
                        f"    if not {body}:", "        return False", "return True"]
            # the work counted first, then the where, then every body value (builtins.quantified ends it)
            each = 2 if where is not None and body is not None else 1
            lines = [f"items = list({source})", f"st._work_left -= len(items) * {each}", "if st._work_left < 0:",
                     "    _exhausted(st)"]
            if where is not None:
                lines += ["kept = []", self._each(v), f"    if {where}:", f"        kept.append({v})",
                          "items = kept"]
            if body is not None and facts.reads_values:
                lines += ["values = []", self._each(v), f"    values.append({body})"]
            else:
                lines += ["values = items"]
            lines.append(f"return _quantified({ascii(func + ' descending' if b.descending else func)}, items, values, st)")
            return lines
        return self._loop_function(scope, b.var, build, hoist=not facts.stops_early)

    def _count_items(self, source: str) -> list:  # (a constant list's length is known: the players, spaces)
        value = self.m.ns.get(source) if source.isidentifier() else None
        return [f"st._work_left -= {len(value)}", *_COUNT_ITEMS[1:]] if type(value) is list else _COUNT_ITEMS

    def _each(self, v: str) -> str:
        """The line of a loop going through ``items`` (noted: ``items`` may be no list)."""
        return self.m.operation((ITEMS,), f"for {v} in items:", "items")

    def visit_ListComp(self, node, scope):
        b = node.binder

        def build(inner, v):
            source = self.m.read_only(self.items_source(b.source, scope, v))
            item = self.top(b.body, inner, True) if b.body is not None else v
            lines = ["out = []", f"items = {source}", *self._count_items(source), self._each(v)]
            if b.where is not None:
                lines += [f"    if {self.top(b.where, inner, True)}:", f"        out.append({item})"]
            else:
                lines += [f"    out.append({item})"]
            return lines + ["return out"]
        return self._loop_function(scope, b.var, build)


# A loop counts each item it goes through, inline, on the run's budget: loops nested in one expression
# multiply (30 items seven deep is 20 billion), and a short list's loop inside another is no cheaper. (A
# map's keys or a text's letters count too, should the checker not have seen that it is no list.)
_COUNT_ITEMS = ["st._work_left -= len(items) if type(items) is list else _size(items)",
                "if st._work_left < 0:", "    _exhausted(st)"]

_COUNTING = ("_add", "_mul")  # the operations that make a list or a text, counted as work (limits.py)


def _operation(name: str, a: str, b: str) -> str:
    """A call of an operation's function (operations.py); those that make a list or a text count it on
    the run's budget, the state."""
    return f"{name}({a}, {b}, st)" if name in _COUNTING else f"{name}({a}, {b})"


_SHAREABLE = (ast.Index, ast.Attr)  # and calls of defs


def _shape(node, scope: Scope) -> tuple:
    """What makes two expressions the same computation: the same tree (nodes compare by value, spans
    aside), each name bound to the same thing, each literal of the same type (1 == true in Python)."""
    meaning = tuple((n.id, scope.py.get(n.id)) if isinstance(n, ast.Name) else type(n.value)
                    for n in ast.walk(node) if isinstance(n, (ast.Name, ast.Literal)))
    return node, meaning


def _board_method(builtin, board):
    """The bound method of ``board`` a board function calls (the one it names: boards.base.board_function),
    or None."""
    bound = getattr(board, builtin.method, None) if builtin.method else None
    return bound if callable(bound) else None


def expression_function(module: Module, body: str) -> Any:
    """A compiled expression with the engine's interface ``f(state, env)``."""
    name = module.fresh("_e")
    return module.define(f"def {name}(st, env):\n    return {body}", name)


def hoisted_lines(hoisted) -> list:
    """The lines that take the game variables a loop reads (ExprSource.hoisting) before it."""
    return [f"{h} = st._vars[{key}]" for key, h in (hoisted or {}).items()]
