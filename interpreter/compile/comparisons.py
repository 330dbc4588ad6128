"""The source of a comparison (``==``, ``<``, ``in``...): Python's own operator inline where it is surely
one step, else a test of the operand as it runs, and the counted function of engine/compare.py when the
test fails (two lists, two maps, two long texts: Python would go through every item, uncounted)."""
from __future__ import annotations

import contextlib

from rulewright.dsl import ast
from rulewright.interpreter.compile.folded import Const, is_simple
from rulewright.interpreter.engine import compare, limits
from rulewright.interpreter.engine.builtins import without_one_step
from rulewright.interpreter.engine.failed_operation import COMPARE
from rulewright.interpreter.compile.local_kinds import one_step_locals
from rulewright.interpreter.compile.param_kinds import (SCALAR_NODES, SCALAR_OPS, flat_list, one_step_params, scalar,
                                                    scalar_quantifier, unbound_constants)


def one_step(node, c) -> bool:
    """Whether comparing the operand ``node`` (generated as ``c``) with any value is surely one step
    (engine/compare.py): a constant number, yes/no, none, short text or short list of those, or an
    expression that gives a number or yes/no."""
    if isinstance(c, Const):
        v = c.value
        return compare.one_step(v) or (type(v) is list and len(v) <= limits.SHORT and compare.flat(v))
    if isinstance(node, SCALAR_NODES) or (isinstance(node, ast.BinOp) and node.op in SCALAR_OPS):
        return True
    return isinstance(node, ast.Quantifier) and scalar_quantifier(node)


def scalar_test(x: str) -> str:
    """Source testing that the name ``x`` holds a value compared with anything in one step (a number,
    yes/no, none or a short text: compare.one_step), a text first, by identity."""
    return f"type({x}) is str and len({x}) <= {limits.SHORT} or type({x}) in _ONE_STEP_TYPES"


# each comparison as codegen.Module.operation notes it: which one failed, worked out again by operations.COMPARE
COMPARED_BY = {op: (COMPARE, op) for op in ("==", "!=", "<", "<=", ">", ">=", "in")}

class Comparisons:
    """ExprSource's comparisons (a mixin: ``self.game``, ``self.gen``, ``self.temp``... are ExprSource's).

    Two facts known while compiling spare the tests as it runs: a loop's variable over a constant list of
    numbers and short texts (a board's spaces, a table's keys) is one step to compare (``_one_step_names``);
    and in a loop's function the names it takes from outside (and the game variables it reads once, before
    the loop) hold the same value at every pass, since no expression changes anything: each such name is
    tested once, before the loop (``tests_hoisted``), where it was tested at every item."""

    _COMPARE_OPS = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
    _COUNTED_COMPARE = {"==": "_eq", "!=": "_ne", "<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge"}

    # the Python locals known to hold a value compared in one step (loop variables, by their fresh names),
    # and among them those known to hold a player's number (over 'players': codegen reads their entries)
    _one_step_names: frozenset = frozenset()
    _player_names: frozenset = frozenset()
    # in a loop's function: the names that keep their value through it, and the tests of them made so far
    # ({(name, what is tested): the local holding the answer}); None elsewhere
    _fixed_names: frozenset = frozenset()
    _fixed_tests = None

    def items_source(self, node, scope, v: str) -> str:
        """The source of a loop's list ``node``, whose items the loop variable ``v`` takes: ``v`` is noted
        as one step when the list is a constant of numbers, yes/no and short texts or surely gives such
        items (param_kinds.flat_list), and as a player when they are all players' numbers."""
        c = self.top(node, scope)
        if isinstance(c, Const) and type(c.value) is list and compare.flat(c.value):
            self._one_step_names = self._one_step_names | {v}
            count = self.game.player_count
            if c.value and all(type(x) is int and 0 < x <= count for x in c.value):
                self._player_names = self._player_names | {v}
        elif flat_list(self.game, node, set(), self._constants()):  # (a board's spaces, worked out as it runs)
            self._one_step_names = self._one_step_names | {v}
        return self.as_code(c)

    @contextlib.contextmanager
    def tests_hoisted(self, names):
        """Generate a loop's function that takes ``names`` from outside: gives the lines testing them once,
        before the loop (filled as the body is generated). ``names`` None: a function with no loop."""
        saved = self._fixed_names, self._fixed_tests
        self._fixed_names, self._fixed_tests = frozenset(names or ()), None if names is None else {}
        lines: list = []
        try:
            yield lines
            lines += [f"{flag} = {test}" for (_name, test), flag in (self._fixed_tests or {}).items()]
        finally:
            self._fixed_names, self._fixed_tests = saved

    def _fixed(self, x: str, test: str):
        """The local holding ``test`` (a test of ``x``), worked out before the loop, when ``x`` keeps its
        value through the loop: a game variable the loop read before it, or a name it takes; else None."""
        tests = self._fixed_tests
        if tests is None or not (x in self._fixed_names or x in (self._hoist or {}).values()):
            return None
        flag = tests.get((x, test))
        if flag is None:
            flag = tests[(x, test)] = self.m.fresh("_k")
        return flag

    def visit_Compare(self, node, scope):
        a, b = self.gen(node.left, scope), self.gen(node.right, scope)
        if isinstance(a, Const) and isinstance(b, Const):
            fn = self.m.ns["_COMPARED"][node.op]
            return self.fold(f"_COMPARED[{ascii(node.op)}]", fn, a.value, b.value, counts=True)
        ca, cb = self.as_code(a), self.as_code(b)
        # Python's own comparison inline where it is one step (engine/compare.py): an operand known to be
        # a number, yes/no, none or a short text, or found so as it runs; two lists, maps or long texts
        # are compared by a function that counts the items it goes through
        if node.op in ("in", "not in"):
            if (isinstance(b, Const) and type(b.value) in (list, str) and len(b.value) <= limits.SHORT
                    and (type(b.value) is str or compare.flat(b.value))):
                # a short constant list of numbers or texts: each item one step
                inside = f"({self.m.operation(COMPARED_BY['in'], f'{ca} in {cb}', ca, cb)})"
            else:
                x, first = self._kept(ca)
                short = f"(type({cb}) is not list and type({cb}) is not str or len({cb}) <= {limits.SHORT})"
                flag = self._fixed(cb, short)
                if flag is not None:  # a list that stays the same through the loop: looked at once
                    y, guard, is_list = cb, flag, f"type({cb}) is list"
                else:
                    y, t = self.temp(), self.temp()
                    guard = f"((({t} := type({y} := {cb})) is not list and {t} is not str) or len({y}) <= {limits.SHORT})"
                    is_list = f"{t} is list"
                if not self._one_step(node.left, a):
                    guard += f" and {self._is_one_step(x, record_in=(is_list, y))}"
                within = self.m.operation(COMPARED_BY["in"], f"{x} in {y}", x, y)
                inside = f"({within} if {first}{guard} else _within({x}, {y}, st))"
            return inside if node.op == "in" else f"(not {inside})"
        if node.op in ("==", "!=") and (ca == "None" or cb == "None"):  # only none equals none: no __eq__ to call
            return f"({ca} {'is' if node.op == '==' else 'is not'} {cb})"
        op = self._COMPARE_OPS[node.op]
        if self._one_step(node.left, a) or self._one_step(node.right, b):
            return f"({self.m.operation(COMPARED_BY[op], f'{ca} {op} {cb}', ca, cb)})"
        # the left operand alone decides: a number, yes/no, none or short text compares with anything in
        # one step (a short text and a long one differ in length), so only a list, a map or a long text
        # on the left goes to the counted function, which evaluates nothing more than Python would
        x, first = self._kept(ca, always=True)
        equality = node.op in ("==", "!=")
        tested = (f"({self.m.operation(COMPARED_BY[op], f'{x} {op} {cb}', x, cb)} if "
                  f"{self._is_one_step(x, first, record=equality)} else "
                  f"{self._COUNTED_COMPARE[node.op]}({x}, {cb}, st))")
        flag = self._fixed(cb, scalar_test(cb)) if is_simple(cb) else None
        if flag is None:
            return tested
        # the right operand stays the same through the loop: when it is one step, so is the comparison
        return f"({self.m.operation(COMPARED_BY[op], f'{ca} {op} {cb}', ca, cb)} if {flag} else {tested})"

    def _is_one_step(self, x: str, first: str = "", record: bool = False, record_in: tuple = ()) -> str:
        """Source testing, as it runs, that comparing ``x`` (named by ``first``, if given) with any value
        is one step: its type looked up once. With ``record``, a short record of the game's while they are
        all flat (compare.Flatness) passes too, for '==' (a short flat record costs no work there); with
        ``record_in`` (a test that the short list is a list, and its name), for 'in', while its items times its
        fields are few (as ``compare.within`` counts)."""
        t = self.temp()
        # a text or a number first, by identity (a set's lookup costs more than the two tests), then a
        # record (an item looked for among its like), then the set: yes/no, none and fractions
        test = f"({t} := type({first or x})) is str and len({x}) <= {limits.SHORT} or {t} is int"
        if record:
            test += f" or {t} is dict and _FLAT.ok and len({x}) <= {limits.SHORT}"
        elif record_in:
            is_list, items = record_in
            test += (f" or {t} is dict and {is_list} and _FLAT.ok "
                     f"and len({x}) * len({items}) <= {limits.SHORT}")
        test += f" or {t} in _ONE_STEP_TYPES"
        flag = self._fixed(x, scalar_test(x)) if first in ("", x) else None
        return f"({test})" if flag is None else f"({flag} or {test})"

    def builtin_inline(self, name: str, nodes, args, codes) -> str:
        """The source of a builtin's call whose arguments make a leaner one certain, else '': ``min`` or
        ``max`` of two or more arguments that surely give numbers or yes/no (constants, or
        ``param_kinds.scalar``), Python's own (each comparison one step, nothing can fail: builtins._extreme's
        tests are for lists, texts and none); ``without(xs, x)`` of an ``x`` compared in one step, with no
        test of it (builtins.without_one_step)."""
        if name == "without" and len(nodes) == 2 and self._one_step(nodes[1], args[1]):
            return self.m.call(self.m.constant(without_one_step), "st", *codes)
        if name not in ("min", "max") or len(nodes) < 2:
            return ""
        for node, a in zip(nodes, args):
            if not (type(a.value) in (int, bool, float) if isinstance(a, Const) else self._scalar(node, set())):
                return ""
        return self.m.call(self.m.constant(min if name == "min" else max), *codes)

    def _kept(self, code: str, always: bool = False) -> tuple:
        """(a name for the value of ``code``, the source that gives it that name, run first in a test; with
        ``always``, the source that gives the value itself, named)."""
        if is_simple(code):
            return code, (code if always else "")
        t = self.temp()
        return t, (f"({t} := {code})" if always else f"({t} := {code}) is {t} and ")

    def _one_step(self, node, c) -> bool:
        """``one_step``, a loop variable over a constant list of such values, and a call of a builtin or a
        def that surely gives a number or yes/no."""
        return one_step(node, c) or (type(c) is str and c in self._one_step_names) or self._scalar(node, set())

    def record_made(self, values: list, given: dict, defaults: dict) -> str:
        """The source making a record of ``values`` ((field, source) pairs; each field's expression in
        ``given`` or ``defaults``), told to compare.Flatness as it is made: the fields not surely one step
        to compare are tested inline (a number or a short text passes), and only a record that fails goes
        to Flatness.note (a call for every record made was a tenth of the counted comparisons' cost)."""
        pairs, tests = [], []
        for k, v in values:
            if k in given or k in defaults:
                node = given.get(k, defaults.get(k))
                if not (self._one_step_field(node) or v in self._one_step_names):
                    if not is_simple(v):
                        t = self.temp()
                        v, t = f"({t} := {v})", t
                    else:
                        t = v
                    tests.append(f"({scalar_test(t)})")
            pairs.append(f"{ascii(k)}: {v}")
        made = "{" + ", ".join(pairs) + "}"
        if not tests:
            return made
        d = self.temp()
        return f"({d} if ({d} := {made}) is {d} and (not _FLAT.ok or {' and '.join(tests)}) else _made({d}))"

    def _one_step_field(self, node) -> bool:
        """Whether a record's field given by ``node`` (None: not given) surely compares in one step."""
        if node is None:
            return True
        if isinstance(node, ast.Literal):
            return compare.one_step(node.value)
        return self._scalar(node, set())

    def _scalar(self, node, seen: set) -> bool:
        """Whether ``node`` surely gives a number or yes/no (param_kinds.scalar)."""
        return scalar(self.game, node, seen)

    def _constants(self) -> dict:
        """param_kinds.unbound_constants, worked out once."""
        known = self.__dict__.get("_unbound")
        if known is None:
            known = self._unbound = unbound_constants(self.game)
        return known

    @contextlib.contextmanager
    def locals_known(self, proc: str):
        """Generate an expression of procedure ``proc``: its locals that surely hold a value compared in
        one step (local_kinds.py), read as ``env[name]``, compare with no test as they run."""
        saved = self._one_step_names
        self._one_step_names = saved | self.one_step_locals(proc)
        try:
            yield
        finally:
            self._one_step_names = saved

    def one_step_locals(self, proc: str) -> frozenset:
        """The sources reading the locals of procedure ``proc`` that surely hold a value compared in one
        step (local_kinds.py), as ``env[name]``."""
        kinds = self.__dict__.get("_local_kinds")
        if kinds is None:
            kinds = self._local_kinds = {name: frozenset(f"env[{ascii(n)}]" for n in names)
                                         for name, names in one_step_locals(self.game).items()}
        return kinds.get(proc, frozenset())

    @contextlib.contextmanager
    def params_known(self, name: str, names):
        """Generate the body of def ``name`` whose parameters are the Python names ``names``: those every
        call gives a value compared in one step (param_kinds.py) compare with no test as they run."""
        known = self.__dict__.get("_params_known")
        if known is None:
            known = self._params_known = one_step_params(self.game)
        saved = self._one_step_names
        self._one_step_names = saved | {n for i, n in enumerate(names) if (name, i) in known}
        try:
            yield
        finally:
            self._one_step_names = saved
