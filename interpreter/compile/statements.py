"""Compile a block of statements to a flat tuple of instructions with jumps.

Pass one lowers statements to a list of typed instructions (``Exec``, ``Jump``, ``JumpUnless``,
``ForNext``, ``Call``, ``Return``, ``End``, ``CheckEnd``, ``Choose``, ``ChooseEach``) and ``Label``s,
each instruction with the span it came from; pass two lays them out and asks each instruction to
``materialize`` itself into a closure ``op(state, env) -> next pc``, with every jump target already a
number and everything the closure needs bound to its own locals. Each instruction can also write
itself as generated Python (``source``): codegen.add_stretches joins the instructions that follow one
another into one generated function (a straight-line stretch), which is what the machine runs.
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Optional

import attrs

from rulewright.dsl import ast
from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.compile.expressions import get_index, is_const, player_index, set_index
from rulewright.interpreter.compile import codegen
from rulewright.interpreter.engine import events
from rulewright.interpreter.engine.machine import (ENDED, RETURN, RETURNED, STOP, SWITCH, Frame, Option, Pending, Proc, run_call)
from rulewright.interpreter.engine.faults import RULE_FAULTS, located
from rulewright.interpreter.engine.values import shown
from rulewright.interpreter.engine import limits
from rulewright.interpreter.engine.values import copy_value, to_text
from rulewright.interpreter.present.views import public_text

# Rules never nest procedure calls this deep unless one calls itself without end.
MAX_CALL_DEPTH = 500


@attrs.define(slots=True, eq=False)
class Label:
    """A place a jump goes to. Not an instruction: it takes no pc, it names the next one's."""
    pc: int = -1


@attrs.define(slots=True, eq=False)
class ChoiceSpec:
    """What a decision offers: ``var`` bound to each item of ``source`` that passes ``where``, shown
    as ``text``; ``by`` who decides (else ``me``); an ``optional`` decline; ``secret``/``shown`` what
    the others see. A ``choose_each`` adds the ``players`` who decide at once, the name
    ``player_var`` that holds each of them, and the hidden local ``results`` the choices land in."""
    var: str
    source: Callable
    where: Optional[Callable] = None
    by: Optional[Callable] = None
    text: Optional[Callable] = None
    optional: Optional[Callable] = None
    secret: bool = False
    shown: Optional[Callable] = None
    players: Optional[Callable] = None
    player_var: str = ""
    results: str = ""
    automatic: bool = False  # one legal option: taken without asking
    window: bool = False     # a reaction window: who is asked is hidden, and only responses run the block
    # the loop of options_for as one generated function (st, env) -> options, before 'optional' and the
    # masks (codegen.options_source); None: options_for runs the closures above
    gather: Optional[Callable] = None


@attrs.define(slots=True, eq=False)
class Instruction:
    """One instruction: where it came from (``span``: file, line, column) and, to point an error's
    caret at the expression at fault, the statement or expression it runs (``node``)."""
    span: ast.Span
    node: Any = attrs.field(default=None, kw_only=True)

    def materialize(self, pc: int, game) -> Callable:
        raise NotImplementedError

    def source(self, pc: int, gen) -> Optional[list]:
        """The instruction as lines of generated Python (codegen.add_stretches), ending in a ``return`` of
        the next pc unless it ``falls_through``; None: the stretch calls the materialized instruction.
        ``gen.expr(fn)`` gives an expression's Python (or None), ``gen.constant(x)`` a name for ``x``."""
        return None

    # whether the instruction always goes on to the next one (its source then ends without a return)
    falls_through = False


@attrs.define(slots=True, eq=False)
class Exec(Instruction):
    """Run ``fn(state, env)``, then the next instruction. ``src``: the same as lines of generated Python
    (using ``st`` and ``env``), for the straight-line stretches of codegen.py; None: the stretch calls ``fn``."""
    fn: Callable
    src: Optional[list] = attrs.field(default=None, kw_only=True)
    falls_through = True

    def materialize(self, pc, game):
        fn, nxt = self.fn, pc + 1

        def op(st, env):
            fn(st, env)
            return nxt
        return op

    def source(self, pc, gen):
        return self.src


@attrs.define(slots=True, eq=False)
class Jump(Instruction):
    target: Label

    def materialize(self, pc, game):
        target = self.target.pc
        return lambda st, env: target

    def source(self, pc, gen):
        return [f"return {self.target.pc}"]


@attrs.define(slots=True, eq=False)
class JumpUnless(Instruction):
    """Go on if ``cond`` holds, else jump to ``target``."""
    cond: Callable
    target: Label

    def materialize(self, pc, game):
        cond, target, nxt = self.cond, self.target.pc, pc + 1
        return lambda st, env: nxt if cond(st, env) else target

    def source(self, pc, gen):
        cond = gen.expr(self.cond)
        return None if cond is None else [f"return {pc + 1} if {cond} else {self.target.pc}"]


@attrs.define(slots=True, eq=False)
class ForNext(Instruction):
    """The head of a loop over the list in the hidden local ``items``: bind ``var`` to the next item
    and go on, or jump to ``end`` when there is none."""
    items: str
    index: str
    var: str
    end: Label

    def materialize(self, pc, game):
        items, index, var, end, nxt = self.items, self.index, self.var, self.end.pc, pc + 1

        def op(st, env):
            i = env[index]
            xs = env[items]
            if i < len(xs):
                env[var] = xs[i]
                env[index] = i + 1
                return nxt
            return end
        return op

    def source(self, pc, gen):
        items, index = ascii(self.items), ascii(self.index)
        return [f"i = env[{index}]", f"xs = env[{items}]", "if i < len(xs):", f"    env[{ascii(self.var)}] = xs[i]",
                f"    env[{index}] = i + 1", f"    return {pc + 1}", f"return {self.end.pc}"]


@attrs.define(slots=True, eq=False)
class Call(Instruction):
    """Push a frame of procedure ``proc`` with ``args`` bound to ``params`` (and ``me`` carried
    over); its return value goes into the caller's local ``target``, if any."""
    proc: str
    params: tuple
    args: list
    target: Optional[str] = None
    # a procedure that never decides (plain_procedures): run as a Python call, no frame pushed
    plain: bool = attrs.field(default=False, kw_only=True)

    @property
    def falls_through(self) -> bool:
        return self.plain

    def materialize(self, pc, game):
        proc, params, args, target, nxt = self.proc, self.params, self.args, self.target, pc + 1
        if self.plain:
            def call(st, env):
                inner = {p: a(st, env) for p, a in zip(params, args)}
                if "me" not in inner and "me" in env:
                    inner["me"] = env["me"]
                v = run_call(st, proc, inner)
                if v is ENDED:
                    return SWITCH
                if target is not None:
                    env[target] = v
                return nxt
            return call

        def op(st, env):
            inner = {p: a(st, env) for p, a in zip(params, args)}
            if "me" not in inner and "me" in env:
                inner["me"] = env["me"]
            if target is not None:
                inner["$return_to"] = target
            if len(st.frames) >= MAX_CALL_DEPTH:  # fail fast, before the step budget fills memory with frames
                _too_deep()
            st.frames[-1].pc = nxt
            st.frames.append(Frame(proc, 0, inner))
            return SWITCH
        return op

    def source(self, pc, gen):
        args = [gen.expr(a) for a in self.args]
        if any(a is None for a in args):
            return None
        lines = ["inner = {" + ", ".join(f"{ascii(p)}: {a}" for p, a in zip(self.params, args)) + "}"]
        if "me" not in self.params:
            lines += ["if 'me' in env:", "    inner['me'] = env['me']"]
        if self.plain:
            lines += [f"v = {gen.constant(run_call)}(st, {ascii(self.proc)}, inner)",
                      f"if v is {gen.constant(ENDED)}:", f"    return {SWITCH}"]
            return lines + ([f"env[{ascii(self.target)}] = v"] if self.target is not None else [])
        if self.target is not None:
            lines.append(f"inner['$return_to'] = {ascii(self.target)}")
        return lines + [f"if len(st.frames) >= {MAX_CALL_DEPTH}:", f"    {gen.constant(_too_deep)}()",
                        f"st.frames[-1].pc = {pc + 1}",
                        f"st.frames.append({gen.constant(Frame)}({ascii(self.proc)}, 0, inner))",
                        f"return {SWITCH}"]


def _too_deep():
    raise RulesRuntimeError(f"procedures called {MAX_CALL_DEPTH} deep (one that calls itself forever?)",
                            "a procedure that calls itself needs a case that does not (an 'if' around the call), "
                            "and each call must come closer to it")


@attrs.define(slots=True, eq=False)
class Return(Instruction):
    """Pop the frame; the value (a copy, as 'let' and '=' store) goes where the caller asked."""
    value: Optional[Callable] = None
    plain: bool = attrs.field(default=False, kw_only=True)  # of a procedure run as a Python call

    def materialize(self, pc, game):
        value = self.value
        if self.plain:
            def give(st, env):
                env[RETURNED] = copy_value(value(st, env)) if value is not None else None
                return RETURN
            return give

        def op(st, env):
            v = value(st, env) if value is not None else None
            st.frames.pop()
            target = env.get("$return_to")
            if target is not None and st.frames:
                st.frames[-1].locals[target] = copy_value(v)
            return SWITCH
        return op

    def source(self, pc, gen):
        value = gen.expr(self.value) if self.value is not None else "None"
        if value is None:
            return None
        if self.plain:
            return [f"v = {value}", f"env[{ascii(RETURNED)}] = v if type(v) in _SCALAR_TYPES else _copy_value(v)",
                    f"return {RETURN}"]
        return [f"v = {value}", "st.frames.pop()", "target = env.get('$return_to')",
                "if target is not None and st.frames:",
                "    st.frames[-1].locals[target] = v if type(v) in _SCALAR_TYPES else _copy_value(v)",
                f"return {SWITCH}"]


@attrs.define(slots=True, eq=False)
class End(Instruction):
    """'end game': drop every running rule and score."""

    def materialize(self, pc, game):
        def op(st, env):
            st.begin_scoring()
            return SWITCH
        return op


@attrs.define(slots=True, eq=False)
class CheckEnd(Instruction):
    """Test the 'end when ... after turn' (or round) conditions; end the game if one holds. A
    condition that fails points at itself, in the rule 'end when'."""
    timing: str
    falls_through: bool = attrs.field(default=False, init=False)  # no condition to test (materialize)

    def source(self, pc, gen):
        return [] if self.falls_through else None  # nothing to test: nothing to run

    def materialize(self, pc, game):
        conditions = game.end_conditions[self.timing]
        self.falls_through = not conditions
        # the declarations in the order the compiler compiled them
        decls = [d for d in game.symbols.end_conditions if d.timing == self.timing]
        nxt = pc + 1

        def op(st, env):
            i = 0
            try:
                for cond in conditions:
                    if cond(st, {}):
                        st.begin_scoring()
                        return SWITCH
                    i += 1
            except RULE_FAULTS + (RulesRuntimeError,) as exc:
                if isinstance(exc, RulesRuntimeError) and exc.diagnostic is not None:
                    raise
                d = decls[i] if i < len(decls) else None
                if d is None:
                    raise
                raise located(st, exc, d.cond.span, "end when", d.cond) from None
            return nxt
        return op


@attrs.define(slots=True, eq=False)
class Choose(Instruction):
    """Work out the options of ``spec``, store a Pending decision and stop."""
    spec: ChoiceSpec

    def materialize(self, pc, game):
        spec, nxt, line = self.spec, pc + 1, self.span.line
        var, by = spec.var, spec.by

        automatic = spec.automatic
        count = game.player_count

        def op(st, env):
            opts = options_for(spec, st, env)
            env.pop(var, None)
            if not opts:
                _no_choice(var)
            if automatic and len(opts) == 1:  # nothing to choose: taken without asking, no move
                env[var] = opts[0].value
                return nxt
            player = by(st, env) if by is not None else env["me"]
            if type(player) is not int or not 0 < player <= count:
                _not_a_player(player, count)
            st.frames[-1].pc = nxt
            st.pending = Pending(var, {player: opts}, line=line)
            return STOP
        return op

    def source(self, pc, gen):
        """The same as generated lines: the options gathered by the generated loop (``spec.gather``)
        when nothing is added to them, else by options_for."""
        spec, var = self.spec, ascii(self.spec.var)
        by = gen.expr(spec.by) if spec.by is not None else "env['me']"
        if by is None:
            return None
        if spec.gather is not None and spec.optional is None and not spec.secret and spec.shown is None:
            gather = f"{gen.constant(spec.gather)}(st, env)"
        else:
            gather = f"{gen.constant(options_for)}({gen.constant(spec)}, st, env)"
        lines = [f"opts = {gather}", f"env.pop({var}, None)", "if not opts:", f"    {gen.constant(_no_choice)}({var})"]
        if spec.automatic:
            lines += ["if len(opts) == 1:", f"    env[{var}] = opts[0].value", f"    return {pc + 1}"]
        count = gen.player_count
        return lines + [f"player = {by}", f"if type(player) is not int or not 0 < player <= {count}:",
                        f"    {gen.constant(_not_a_player)}(player, {count})",
                        f"st.frames[-1].pc = {pc + 1}",
                        f"st.pending = {gen.constant(Pending)}({var}, {{player: opts}}, line={self.span.line})",
                        f"return {STOP}"]


def _no_choice(var: str):
    raise RulesRuntimeError(f"no legal choice for '{var}'", _NO_CHOICE_HINT)


def _not_a_player(p, count: int):
    """'choose ... by p' names a player of the game: else the decision could never be made (or saved)."""
    raise RulesRuntimeError(f"{shown(p)} is not a player of this game (1 to {count}), so it cannot decide",
                            "'by' names a player: a number from 1 to player_count")


@attrs.define(slots=True, eq=False)
class ChooseEach(Instruction):
    """Every player of ``spec.players`` decides at once, in secret; the pairs [player, value] land
    in the hidden local ``spec.results`` when all have chosen."""
    spec: ChoiceSpec

    def materialize(self, pc, game):
        spec, nxt, line = self.spec, pc + 1, self.span.line
        var, players, player_var, results = spec.var, spec.players, spec.player_var, spec.results

        automatic = spec.automatic
        count = game.player_count

        def op(st, env):
            options, taken = {}, {}
            for p in players(st, env):
                env[player_var] = p
                opts = options_for(spec, st, env)
                if not opts:
                    raise RulesRuntimeError(f"no legal choice for '{var}' for player {p}", _NO_CHOICE_HINT)
                options[p] = opts
                if automatic and len(opts) == 1:  # this player has nothing to choose
                    taken[p] = opts[0].value
            st.frames[-1].pc = nxt
            if len(taken) == len(options):
                env[results] = [[p, taken[p]] for p in options]
                return nxt
            for p in options:
                if type(p) is not int or not 0 < p <= count:
                    _not_a_player(p, count)
            st.pending = Pending(var, options, chosen=taken, simultaneous=True, line=line, results=results,
                                 texts=dict.fromkeys(taken), window=spec.window)
            return STOP
        return op


_NO_CHOICE_HINT = ("every option was left out by 'where' (or the list is empty): check before choosing "
                   "('if any(x in xs: ...)'), or add 'optional \"pass\"'")


class ProcCompiler:
    """Lowers one procedure; ``game`` is the CompiledGame whose names it resolves against."""

    def __init__(self, game, name: str, params: tuple, file: str):
        self.game = game
        self.name = name
        self.params = tuple(params)
        self.file = file
        self.ir: list = []  # Instructions and Labels, in order
        self.scope: set = set(params) | {"me"}
        self.loops: list[Label] = []
        # Counted per procedure, not per process: a saved frame's hidden locals must get the same
        # names when the rules are compiled again (another process, or a second Game of the same rules).
        self._ids = itertools.count()

    # ------------------------------------------------------------------ helpers
    def expr(self, node):
        return self.game.exprs.compile(node, self.scope)

    def emit(self, ins: Instruction) -> None:
        self.ir.append(ins)

    def exec(self, s, fn, node=None, src=None) -> None:
        """An Exec for statement ``s`` (its caret may narrow to a part of ``node``, by default ``s``);
        ``src``: the same as generated Python lines, when there is such a version."""
        self.ir.append(Exec(s.span, fn, node=s if node is None else node, src=src))

    def source(self, fn) -> Optional[str]:
        """The generated Python of a compiled expression (codegen.py), or None."""
        if is_const(fn):
            return self.game.exprs.module.literal(fn.const)
        return getattr(fn, "source", None)

    def constant(self, value) -> str:
        """A name in the generated code's namespace for ``value`` (a closure the code calls)."""
        return self.game.exprs.module.constant(value)

    def label(self, lab: Label):
        self.ir.append(lab)

    def hidden(self, what: str) -> str:
        return f"${what}{next(self._ids)}"

    def block(self, stmts):
        for s in stmts:
            getattr(self, "_" + type(s).__name__)(s)

    def hoist(self, node, s):
        """Run the procedures called inside ``node`` first (inner calls first, left to right), each into a
        hidden local, and give back the expression with each call read from its local. The checker
        lets a procedure stand only where its value is always needed, so running it first is exact."""
        if node is None or not _calls_procedure(node, self.game.procs_ast,
                                                self.game.rules.derived.setdefault("calls a procedure", {})):
            return node
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.game.procs_ast:
            call = attrs.evolve(node, args=tuple(self.hoist(a, s) for a in node.args))
            local = self.hidden("value")
            self._call(call, s, target=ast.Name(local, span=node.span))
            return ast.Name(local, span=node.span)
        return attrs.evolve(node, **{a.name: self._hoist_part(getattr(node, a.name), s)
                                     for a in attrs.fields(type(node)) if a.name != "span"})

    def _hoist_part(self, value, s):
        if isinstance(value, tuple):
            return tuple(self._hoist_part(v, s) for v in value)
        return self.hoist(value, s) if hasattr(value, "__attrs_attrs__") else value

    # ------------------------------------------------------------------ simple statements
    def _Let(self, s):
        # the value is compiled before the name is a local: 'let n = [n]' reads the constant n
        if isinstance(s.value, ast.Call) and s.value.func.id in self.game.procs_ast:
            return self._call(s.value, s, target=ast.Name(s.name))
        value, name = self.expr(self.hoist(s.value, s)), s.name
        self.scope.add(name)
        code = self.source(value)
        if _fresh(s.value):
            def f(st, env):
                env[name] = value(st, env)
            src = [f"env[{ascii(name)}] = {code}"]
        else:  # a copy, as '=' and 'add' store: changing the local never changes what it was taken from
            def f(st, env):
                env[name] = copy_value(value(st, env))
            src = [f"env[{ascii(name)}] = {self.copied(code)}"] if code is not None else None
        self.exec(s, f, src=src if code is not None else None)

    def _assigner(self, target, combine=None, fresh=False):
        """A function (st, env, value) that stores a copy of ``value`` into the place ``target`` names
        (``fresh``: the value is certainly nobody else's, a local takes it as it is)."""
        if isinstance(target, ast.Name):
            name = target.id
            if name in self.scope or name not in self.game.var_decls:
                self.scope.add(name)
                if fresh and not combine:
                    def store(st, env, v):
                        env[name] = v
                    return store

                def store(st, env, v):
                    env[name] = copy_value(combine(env[name], v) if combine else v)
                return store

            def store(st, env, v):
                st._vars[name] = copy_value(combine(st._vars[name], v) if combine else v)
            return store
        if isinstance(target, ast.Attr):
            obj = self.expr(target.obj)
            name = target.name
            kinds = self.game.field_kinds(name)
            count = self.game.player_count
            if kinds == {"player"}:
                def store(st, env, v):
                    values = st._vars[name]
                    i = player_index(obj(st, env), count)
                    values[i] = copy_value(combine(values[i], v) if combine else v)
                store.parts = (obj,)  # for _store_source
                return store

            player_too = "player" in kinds

            def store_at(st, o, v):  # the object already worked out
                if type(o) is dict:
                    o[name] = copy_value(combine(o[name], v) if combine else v)
                elif player_too and type(o) is int:  # the name is both a player variable and a field
                    values, i = st._vars[name], player_index(o, count)
                    values[i] = copy_value(combine(values[i], v) if combine else v)
                else:
                    raise RulesRuntimeError(f"cannot set the field '{name}' of {shown(o)}",
                                            "only a record (or a map) has fields to set", focus=f"field:{name}")

            def store(st, env, v):
                store_at(st, obj(st, env), v)
            store.parts, store.at = (obj,), store_at  # for _store_source
            return store
        if isinstance(target, ast.Index):
            obj, idx = self.expr(target.obj), self.expr(target.index)

            def store(st, env, v):
                o, i = obj(st, env), idx(st, env)
                set_index(o, i, copy_value(combine(get_index(o, i), v) if combine else v))
            store.parts = (obj, idx)  # for _store_source
            return store
        raise RulesRuntimeError("cannot assign to this")

    def _Assign(self, s):
        if isinstance(s.value, ast.Call) and s.value.func.id in self.game.procs_ast:
            return self._call(s.value, s, target=s.target)
        value, store = self.expr(self.hoist(s.value, s)), self._assigner(s.target, fresh=_fresh(s.value))
        self.exec(s, lambda st, env: store(st, env, value(st, env)),
                  src=self._store_source(s.target, store, value, fresh=_fresh(s.value)))

    def _AugAssign(self, s):
        combine = (lambda a, b: a + b) if s.op == "+" else (lambda a, b: a - b)
        value, store = self.expr(self.hoist(s.value, s)), self._assigner(s.target, combine)
        self.exec(s, lambda st, env: store(st, env, value(st, env)),
                  src=self._store_source(s.target, store, value, op=s.op))

    def _store_source(self, target, store, value, op=None, fresh=False) -> Optional[list]:
        """What ``store`` (made by _assigner) does with ``value``, as generated lines: a name's store written
        out, any other place's through ``store``; ``op``: '+' or '-' combines with the old value."""
        code = self.source(value)
        if code is None:
            return None
        parts = [self.source(p) for p in getattr(store, "parts", ())]
        if not isinstance(target, ast.Name) and (not parts or None in parts):
            return [f"{self.constant(store)}(st, env, {code})"]
        if isinstance(target, ast.Attr) and hasattr(store, "at"):  # a record's field inline, else store.at
            key = ascii(target.name)
            new = f"_obj[{key}] {op} _new" if op else "_new"
            return [f"_new = {code}", f"_obj = {parts[0]}", "if type(_obj) is dict:",
                    f"    _obj[{key}] = {self.copied(new)}", "else:", f"    {self.constant(store.at)}(st, _obj, _new)"]
        if isinstance(target, ast.Attr):  # a player variable's entry (_assigner's first case for a field)
            count = self.game.player_count
            lines = [f"_new = {code}", f"_vals = st._vars[{ascii(target.name)}]", f"_obj = {parts[0]}",
                     f"_key = _obj - 1 if type(_obj) is int and 0 < _obj <= {count} else _player_index(_obj, {count})"]
            return lines + [f"_vals[_key] = {self.copied('_vals[_key] ' + op + ' _new' if op else '_new')}"]
        if isinstance(target, ast.Index):  # a map's entry set inline, anything else through set_index
            lines = [f"_new = {code}", f"_obj = {parts[0]}", f"_key = {parts[1]}"]
            if op is not None:
                return lines + ["if type(_obj) is dict:", f"    _obj[_key] = {self.copied('_obj.get(_key) ' + op + ' _new')}",
                                "else:", f"    _set_index(_obj, _key, {self.copied('_get_index(_obj, _key) ' + op + ' _new')})"]
            return lines + ["if type(_obj) is dict:", f"    _obj[_key] = {self.copied('_new')}",
                            "else:", f"    _set_index(_obj, _key, {self.copied('_new')})"]
        key = ascii(target.id)
        # as _assigner decided (it made the name a local when it is one)
        place = f"env[{key}]" if target.id in self.scope or target.id not in self.game.var_decls else f"st._vars[{key}]"
        if op is not None:  # the value first, then the old one (as store(st, env, value) does)
            return [f"_t = {code}", f"{place} = {self.copied(place + ' ' + op + ' _t')}"]
        if fresh and place.startswith("env"):
            return [f"{place} = {code}"]
        return [f"{place} = {self.copied(code)}"]

    def copied(self, code: str) -> str:
        """Generated source for a copy of the value of ``code`` (values.copy_value)."""
        return self.game.exprs.source.copied(code)

    def _CallStmt(self, s):
        name = s.call.func.id
        if name in self.game.procs_ast:
            return self._call(attrs.evolve(s.call, args=tuple(self.hoist(a, s) for a in s.call.args)), s)
        fn = self.expr(self.hoist(s.call, s))
        code = self.source(fn)
        self.exec(s, lambda st, env: fn(st, env) and None, src=[code] if code is not None else None)

    def _call(self, call, s, target=None):
        """A call of a procedure in statement ``s``; its value goes to ``target``, if any."""
        proc, span = call.func.id, s.span
        params = self.game.procs_ast[proc].params
        args = [self.expr(a) for a in call.args]
        if target is None:
            return self.emit(Call(span, proc, params, args, node=call))
        if isinstance(target, ast.Name) and (target.id in self.scope or target.id not in self.game.var_decls):
            self.scope.add(target.id)  # a local receives the value directly
            return self.emit(Call(span, proc, params, args, target.id, node=call))
        # a game variable, a field or an item: the value lands in a hidden local, then is stored there
        returned, store = self.hidden("returned"), self._assigner(target)
        self.emit(Call(span, proc, params, args, returned, node=call))
        self.exec(s, lambda st, env: store(st, env, env.pop(returned)), node=target)

    def _Pass(self, s):
        pass

    def _EndGame(self, s):
        self.emit(End(s.span, node=s))

    def _Win(self, s):
        players = self.expr(self.hoist(s.players, s))

        count = self.game.player_count

        def f(st, env):
            v = players(st, env)
            winners = v if isinstance(v, list) else [v]
            for p in winners:  # 'win "me"' would otherwise name a winner nobody is
                player_index(p, count)
            st.winners = sorted(winners)
        self.exec(s, f)

    def _Log(self, s):
        msg = self.expr(s.message)
        if s.to is None:
            def f(st, env):
                st.emit(events.log(msg(st, env)))
        else:
            to = self.expr(s.to)
            count = self.game.player_count

            def f(st, env):
                readers = to(st, env)
                readers = sorted(readers) if type(readers) is list else [readers]
                for p in readers:
                    player_index(p, count)  # a player, or a rules error
                st.emit(events.log(msg(st, env), readers))
        self.exec(s, f)

    def _Reveal(self, s):
        what = s.what
        text = self.expr(s.text) if s.text is not None else None
        if isinstance(what, ast.Name) and what.id in self.game.var_decls and what.id not in self.scope:
            name = what.id
            player_var = name in self.game.player_vars

            def f(st, env):
                value = st._vars[name]
                _turn_up(st, name, 0, value)
                told = "  ".join(f"{p}: {to_text(v)}" for p, v in enumerate(value, 1)) if player_var else to_text(value)
                st.emit(events.reveal(text(st, env) if text else f"{name}: {told}", env.get("me")))
        elif isinstance(what, ast.Attr) and what.name in self.game.player_vars:
            owner, name, count = self.expr(what.obj), what.name, self.game.player_count

            def f(st, env):
                p = owner(st, env)
                value = st._vars[name][player_index(p, count)]
                _turn_up(st, name, p, value)
                st.emit(events.reveal(text(st, env) if text else f"player {p}'s {name}: {to_text(value)}", p))
        else:
            value = self.expr(what)

            def f(st, env):
                v = value(st, env)
                st.emit(events.reveal(text(st, env) if text else to_text(v), env.get("me")))
        self.exec(s, f)

    def _list_expr(self, node, what: str, maps_too: bool = False):
        """The list (or map) ``node`` gives; anything else is an error saying ``what`` needed it."""
        fn = self.expr(node)

        def f(st, env):
            v = fn(st, env)
            if type(v) is not list and not (maps_too and type(v) is dict):
                _not_a_list(v, what, maps_too)
            return v
        f.expr = fn  # for generated source (_Add, _Remove)
        return f

    def _Add(self, s):
        item, target, bottom = self.expr(self.hoist(s.item, s)), self._list_expr(s.target, "'add'"), s.bottom

        def f(st, env):
            v = copy_value(item(st, env))
            if bottom:
                target(st, env).insert(0, v)
            else:
                target(st, env).append(v)
        code, xs = self.source(item), self.source(target.expr)
        src = None
        if code is not None and xs is not None:  # the same, written out
            src = [f"_new = {self.copied(code)}", f"_obj = {xs}", "if type(_obj) is not list:",
                   f"    {self.constant(_not_a_list)}(_obj, \"'add'\", False)",
                   "_obj.insert(0, _new)" if bottom else "_obj.append(_new)"]
        self.exec(s, f, src=src)

    def _Remove(self, s):
        item, source = self.expr(s.item), self._list_expr(s.source, "'remove'", maps_too=True)

        def f(st, env):
            _removed(item(st, env), source(st, env))
        code, xs = self.source(item), self.source(source.expr)
        src = None
        if code is not None and xs is not None:  # the same, written out
            src = [f"_new = {code}", f"_obj = {xs}", "if type(_obj) is not list and type(_obj) is not dict:",
                   f"    {self.constant(_not_a_list)}(_obj, \"'remove'\", True)",
                   f"{self.constant(_removed)}(_new, _obj)"]
        self.exec(s, f, src=src)

    def _MoveItem(self, s):
        item, source, target, bottom = (self.expr(s.item), self._list_expr(s.source, "'move'"),
                                        self._list_expr(s.target, "'move'"), s.bottom)

        def f(st, env):
            x, xs = item(st, env), source(st, env)
            try:
                i = xs.index(x)
            except ValueError:
                raise RulesRuntimeError(f"{shown(x)} is not in the list to move it from",
                                        "'move' takes an item that is in the first list: check first "
                                        "('if x in xs:')") from None
            # what moves is the item the list held (x is only equal to it: 'move keep from h to keep' names
            # the variable 'keep', whose own list must not go into itself)
            moved = xs.pop(i)
            into = target(st, env)
            if type(moved) is list or type(moved) is dict:
                if _holds(moved, into):
                    xs.insert(i, moved)  # as before the move
                    raise RulesRuntimeError("'move' would put this list inside itself",
                                            "a list cannot hold itself: add a copy (add x to ys), or move "
                                            "it into another list")
            if bottom:
                into.insert(0, moved)
            else:
                into.append(moved)
        self.exec(s, f)

    def _Shuffle(self, s):
        target = self._list_expr(s.target, "'shuffle'")
        self.exec(s, lambda st, env: st.rng.shuffle(target(st, env)))

    def _Draw(self, s):
        source, name = self._list_expr(s.source, "'draw'"), s.name
        self.scope.add(name)

        def f(st, env):
            xs = source(st, env)
            if not xs:
                raise RulesRuntimeError("cannot draw from an empty list",
                                        "check first ('if len(deck) > 0:'), or refill the list before drawing")
            env[name] = xs.pop()
        self.exec(s, f)

    def _Return(self, s):
        self.emit(Return(s.span, self.expr(self.hoist(s.value, s)) if s.value is not None else None, node=s))

    def _Break(self, s):
        self.emit(Jump(s.span, self.loops[-1]))

    def _Fail(self, s):
        msg = self.expr(s.message)

        def f(st, env):
            raise RulesRuntimeError(msg(st, env), "the rules' own 'fail' stopped the game: what it guards "
                                                  "against has happened")
        self.exec(s, f)

    def _TakeTurn(self, s):
        self.emit(Call(s.span, "turn", ("me",), [self.expr(self.hoist(s.player, s))], node=s))
        self.emit(CheckEnd(s.span, "turn"))

    # ------------------------------------------------------------------ control flow
    def _If(self, s):
        end = Label()
        for cond, body in s.branches:
            c = self.expr(self.hoist(cond, s))  # an elif's procedures run only when it is reached
            if is_const(c):
                if c.const:
                    self.block(body)
                    self._declare_skipped(s, body)
                    self.label(end)
                    return
                continue
            nxt = Label()
            self.emit(JumpUnless(cond.span, c, nxt, node=cond))
            self.block(body)
            self.emit(Jump(cond.span, end))
            self.label(nxt)
        self.block(s.orelse)
        self._declare_skipped(s, s.orelse)
        self.label(end)

    def _declare_skipped(self, s, taken):
        """Names a branch folded away by options would have made local stay local names: the checker
        saw them in every branch, so later statements may use them (they just never get a value)."""
        skipped: set = set()
        for cond, body in s.branches:
            if body is not taken:
                skipped |= _bound_names(body)
        if s.orelse is not taken:
            skipped |= _bound_names(s.orelse)
        self.scope |= {n for n in skipped if n not in self.game.var_decls}  # game variables stay game's

    def _loop_over(self, var, source, body, span, node=None):
        """for var in source: body  (the list is taken once, when the loop starts; ``var`` is bound to
        each item itself, not a copy: changing a field of it changes the item in the list)."""
        self.scope.add(var)
        items, index = self.hidden("items"), self.hidden("i")
        top, end = Label(), Label()

        def start(st, env):
            env[items] = list(source(st, env))
            env[index] = 0
        code = self.source(source)
        src = [f"env[{ascii(items)}] = list({code})", f"env[{ascii(index)}] = 0"] if code is not None else None
        self.emit(Exec(span, start, node=node, src=src))
        self.label(top)
        self.emit(ForNext(span, items, index, var, end))
        self.loops.append(end)
        body()
        self.loops.pop()
        self.emit(Jump(span, top))
        self.label(end)
        self.emit(Exec(span, _forget(items, index), src=[f"env.pop({ascii(n)}, None)" for n in (items, index)]))

    def _For(self, s):
        self._loop_over(s.var, self.expr(self.hoist(s.source, s)), lambda: self.block(s.body), s.span, s.source)

    def _While(self, s):
        top, end = Label(), Label()
        self.label(top)  # the condition's procedures run again before each pass
        self.emit(JumpUnless(s.span, self.expr(self.hoist(s.cond, s)), end, node=s.cond))
        self.loops.append(end)
        self.block(s.body)
        self.loops.pop()
        self.emit(Jump(s.span, top))
        self.label(end)

    def _Repeat(self, s):
        count = self.expr(self.hoist(s.count, s))
        counter = self.hidden("n")
        self._loop_over(counter, lambda st, env: limits.counted(count(st, env)), lambda: self.block(s.body), s.span,
                        s.count)

    def _Step(self, s):
        label = s.label
        if self.name not in self.game.symbols.procs:
            def f(st, env):
                st.step = label
            self.exec(s, f, src=[f"st.step = {ascii(label)}"])
            self.block(s.body)
            return
        # a procedure's step gives the caller's step back at its end: a procedure called from the turn's
        # step "move" shows its own steps while they run, then "move" again
        saved = self.hidden("step")

        def enter(st, env):
            env[saved] = st.step
            st.step = label

        def leave(st, env):
            st.step = env[saved]
        self.exec(s, enter, src=[f"env[{ascii(saved)}] = st.step", f"st.step = {ascii(label)}"])
        self.block(s.body)
        self.exec(s, leave, src=[f"st.step = env[{ascii(saved)}]"])

    # ------------------------------------------------------------------ decisions
    def _choice_spec(self, c: ast.Choose, secret: bool = False, **more) -> ChoiceSpec:
        self.scope.add(c.var)
        spec = ChoiceSpec(
            var=c.var,
            source=self.expr(c.source),
            where=self.expr(c.where) if c.where is not None else None,
            by=self.expr(c.by) if c.by is not None else None,
            text=self.expr(c.text) if c.text is not None else None,
            optional=self.expr(c.optional) if c.optional is not None else None,
            secret=c.secret or secret,
            shown=self.expr(c.shown) if c.shown is not None else None,
            automatic=c.automatic,
            **more)
        spec.gather = self._gather(c, spec)
        return spec

    def _gather(self, c: ast.Choose, spec: ChoiceSpec):
        """options_for's loop over the items as one generated function, the item a Python local in the
        'where' and the text (in ``env`` too where something may read it there)."""
        source = self.source(spec.source)
        if source is None:
            return None
        exprs = self.game.exprs
        scope = codegen.Scope(set(self.scope), {c.var: "x"}, in_def=False)
        with exprs.source.hoisting() as hoisted:
            where = exprs.source.top(c.where, scope, True) if c.where is not None else None
            text = exprs.source.top(c.text, scope, True) if c.text is not None else None
        # Choose drops the variable right after the loop, unless an 'optional' text or a mask runs first
        # (or, choosing at once, the frame keeps it)
        leaves = spec.optional is not None or spec.secret or spec.shown is not None or spec.players is not None
        return codegen.options_function(exprs.module, source, ascii(c.var), where, text,
                                        self.game.field_visibility, self.constant(Option),
                                        self.constant(_numbered), leaves_var=leaves, hoisted=hoisted)

    def _prompt(self, s, prompt, player_var: str = "") -> None:
        """A decision's prompt goes into the game's table (by the decision's place), not into its
        instruction: explain.py evaluates it, in the deciding frame, only when someone looks."""
        if prompt is not None:
            from rulewright.interpreter.present.prompts import Prompt
            self.game.prompts[(s.span.file, s.span.line)] = Prompt(self.expr(prompt), prompt, player_var)

    def _Choose(self, s):
        s = attrs.evolve(s, source=self.hoist(s.source, s))
        self._prompt(s, s.prompt)
        self.emit(Choose(s.span, self._choice_spec(s), node=s))

    def _ChooseBlock(self, s):
        self._prompt(s, s.prompt)
        var = self.hidden("alt")
        labels = [a.label for a in s.alternatives]
        guards = [self.expr(a.guard) if a.guard is not None else None for a in s.alternatives]
        pairs = list(zip(labels, guards))

        def source(st, env):
            return [lab for lab, g in pairs if g is None or g(st, env)]
        spec = ChoiceSpec(var=var, source=source, by=self.expr(s.by) if s.by is not None else None,
                          secret=s.secret)
        # the same list as generated source (a label is never none): each guard evaluated in order
        codes = [(ascii(lab), self.source(g) if g is not None else "True") for lab, g in pairs]
        if all(type(lab) is str for lab in labels) and all(c is not None for _, c in codes):
            listed = "".join(f"({lab} if {c} else None), " for lab, c in codes)
            spec.gather = codegen.options_function(
                self.game.exprs.module, f"({listed})", ascii(var), "(x is not None)", None,
                self.game.field_visibility, self.constant(Option), self.constant(_numbered), leaves_var=s.secret)
        self.emit(Choose(s.span, spec, node=s))
        end = Label()
        for alt in s.alternatives:
            nxt = Label()
            lab = alt.label
            chosen = (lambda lab: lambda st, env: env[var] == lab)(lab)
            if type(lab) is str:  # written out in the stretches (codegen.add_stretches)
                chosen.source = f"env[{ascii(var)}] == {ascii(lab)}"
            self.emit(JumpUnless(alt.span, chosen, nxt))
            self.block(alt.body)
            self.emit(Jump(alt.span, end))
            self.label(nxt)
        self.label(end)

    def _ChooseEach(self, s):
        players = self.expr(self.hoist(s.players, s))  # read before the player's name is bound
        self.scope.add(s.player_var)
        self._prompt(s, s.choice.prompt, s.player_var)
        results = self.hidden("each")
        spec = self._choice_spec(s.choice, secret=True, players=players, player_var=s.player_var, results=results,
                                 window=s.window)
        self.emit(ChooseEach(s.span, spec, node=s))
        pair = self.hidden("pair")
        pvar, var = s.player_var, s.choice.var

        def body():
            def unpack(st, env):
                env[pvar], env[var] = env[pair]
            self.emit(Exec(s.span, unpack))
            self.block(s.body)

        def answers(st, env):  # a window's block runs for the players who responded, in list order
            return [pr for pr in env[results] if pr[1] is not None]
        self._loop_over(pair, answers if s.window else (lambda st, env: env[results]), body, s.span)

    # ------------------------------------------------------------------ layout
    def finish(self) -> Proc:
        last = next((ins for ins in reversed(self.ir) if isinstance(ins, Instruction)), None)
        self.emit(Return(last.span if last is not None else ast.Span(self.file, 0, 0)))
        plain = self.game.plain_procs
        pcs = []
        for ins in self.ir:
            if isinstance(ins, Label):
                ins.pc = len(pcs)
            else:
                if isinstance(ins, Call):
                    ins.plain = ins.proc in plain
                elif isinstance(ins, Return):
                    ins.plain = self.name in plain
                pcs.append(ins)
        code = tuple(ins.materialize(i, self.game) for i, ins in enumerate(pcs))
        proc = Proc(self.name, self.params, code, tuple(ins.span for ins in pcs), self.file, tuple(pcs))
        codegen.add_stretches(proc, self.game.exprs.module, codegen.Sources(self.source, self.constant, self.game.player_count))
        return proc


# Expressions whose value is certainly new, or a number, text or yes/no: 'let' need not copy them.
_FRESH_CALLS = {"len", "abs", "text", "roll", "row", "col", "wraps", "next_player", "space", "step", "rotate",
                "range", "spaces", "neighbours", "next", "previous", "lines"}
_SCALAR_QUANTIFIERS = {"count", "sum", "all", "any"}


def _fresh(node) -> bool:
    if isinstance(node, (ast.Literal, ast.Template, ast.Compare, ast.Not, ast.Neg)):
        return True
    if isinstance(node, ast.BinOp):
        return node.op in ("-", "/", "%")
    if isinstance(node, ast.Quantifier):
        return node.func in _SCALAR_QUANTIFIERS
    if isinstance(node, ast.ListLit):
        return all(_fresh(i) for i in node.items)
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FRESH_CALLS


def plain_procedures(irs: dict) -> frozenset:
    """The procedures (name -> lowered instructions) that never decide: no 'choose' in them, and every
    procedure they call one of these too, none calling itself again (MAX_CALL_DEPTH stays the frames'
    bound). They run as Python calls (machine.run_call), with no frame, and so faster: they never stop
    for a decision, so nothing of them lives between two moves."""
    calls = {name: {ins.proc for ins in ir if isinstance(ins, Call)} for name, ir in irs.items()}
    plain = {name for name, ir in irs.items() if not any(isinstance(ins, (Choose, ChooseEach)) for ins in ir)}
    changed = True
    while changed:  # a procedure calling one that may decide may decide
        changed = False
        for name in list(plain):
            if not calls[name] <= plain:
                plain.discard(name)
                changed = True
    # what is left calls only plain procedures: any cycle among them is a recursion, run with frames
    state: dict = {}

    def visit(name) -> bool:  # False: ``name`` reaches a cycle
        if state.get(name) == "open":
            return False
        if name in state:
            return state[name]
        state[name] = "open"
        ok = all([visit(callee) for callee in calls[name]])
        state[name] = ok
        return ok
    return frozenset(name for name in plain if visit(name))


def _calls_procedure(node, procs, memo: dict) -> bool:
    """Whether an expression calls one of the rules' procedures anywhere inside (``memo``: kept with the
    rules, by node, for every game compiled from them; the node is kept too, so its id stays its own)."""
    known = memo.get(id(node))
    if known is None or known[0] is not node:  # (a memo that travelled with the rules holds other ids)
        known = memo[id(node)] = (node, any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                                            and n.func.id in procs for n in ast.walk(node)))
    return known[1]


def _bound_names(stmts) -> set:
    """Every local a block of statements can bind, nested blocks included."""
    names: set = set()
    for s in stmts:
        if isinstance(s, (ast.Let, ast.Draw)):
            names.add(s.name)
        elif isinstance(s, (ast.For, ast.Choose)):
            names.add(s.var)
        elif isinstance(s, ast.ChooseEach):
            names |= {s.player_var, s.choice.var}
        elif isinstance(s, ast.Assign) and isinstance(s.target, ast.Name):
            names.add(s.target.id)
        for part in ("body", "orelse"):
            if isinstance(getattr(s, part, None), tuple):
                names |= _bound_names(getattr(s, part))
        for branch in getattr(s, "branches", ()):
            names |= _bound_names(branch[1])
        for alt in getattr(s, "alternatives", ()):
            names |= _bound_names(alt.body)
    return names


def _turn_up(st, name: str, player: int, value) -> None:
    """A variable (player 0: all of it) or one player's entry is face up, as it is now: views show it
    until it changes (then it is face down again)."""
    st.revealed[:] = [r for r in st.revealed if r[:2] != [name, player]]
    st.revealed.append([name, player, copy_value(value)])


def _not_a_list(v, what: str, maps_too: bool):
    raise RulesRuntimeError(
        f"{what} needs a list{' or a map' if maps_too else ''}, but this is {shown(v)}",
        "the value is none here: check it first ('if x != none:')" if v is None
        else "name the list itself (a variable, a field or an item that holds a list)")


def _holds(value, place) -> bool:
    """Whether ``place`` is the list or map ``value``, or one inside it (counted as work)."""
    pending = [value]
    while pending:
        v = pending.pop()
        if v is place:
            return True
        inside = v if type(v) is list else v.values()
        limits.spend(len(inside))
        pending.extend(w for w in inside if type(w) is list or type(w) is dict)
    return False


def _removed(x, xs) -> None:
    """'remove x from xs': xs is a list or a map."""
    try:
        if type(xs) is dict:  # from a map: forget the key
            del xs[x]
        else:
            xs.remove(x)
    except ValueError:
        raise RulesRuntimeError(f"{shown(x)} is not in the list to remove",
                                "'remove' takes away an item that is there: check first "
                                "('if x in xs:')") from None
    except KeyError:
        raise RulesRuntimeError(f"no entry {shown(x)} in the map to remove",
                                "a map forgets only a key it has: check first ('if k in m:')") from None
    except TypeError:  # a list or a record as a map's key
        raise RulesRuntimeError(f"{shown(x)} cannot be a key of a map",
                                "map keys are numbers, text or yes/no values") from None


def _forget(*names):
    def f(st, env):
        for n in names:
            env.pop(n, None)
    return f


def options_for(spec: ChoiceSpec, st, env) -> list:
    """The options of one decision, each with a text unique among them."""
    if spec.gather is not None:
        opts = spec.gather(st, env)
    else:
        opts = _gather(spec, st, env)
    if spec.optional is not None:
        opts.append(Option(spec.optional(st, env), None))
    if spec.secret or spec.shown is not None:
        _mask(opts, spec, st, env)
    return opts


def _gather(spec: ChoiceSpec, st, env) -> list:
    """Each item of the source that passes 'where', with its text (what spec.gather does, generated)."""
    var, where, text = spec.var, spec.where, spec.text
    opts: list = []
    seen: dict = {}
    for x in spec.source(st, env):
        env[var] = x
        if where is not None and not where(st, env):
            continue
        if text is not None:
            t = text(st, env)
        elif type(x) is str:
            t = x  # spaces and names are their own text
        else:
            t = public_text(st.game, x) if st.game.field_visibility else to_text(x)
        if t in seen:
            t = _numbered(seen, t, x)
            if t is None:
                continue
        seen[t] = x
        opts.append(Option(t, x))
    return opts


def _numbered(seen: dict, t: str, x):
    """A text already taken by another option: None for an identical copy of one table row (one move),
    else the text numbered ('#2', '#3'...)."""
    if seen[t] == x:
        return None
    n = 2
    while f"{t} #{n}" in seen:
        n += 1
    return f"{t} #{n}"


def _mask(opts: list, spec: ChoiceSpec, st, env) -> None:
    """A secret decision: each option carries what the other players see of it."""
    shown, var = spec.shown, spec.var
    for o in opts:
        if shown is None:
            o.shown = events.DEFAULT_SHOWN
        else:
            env[var] = o.value
            o.shown = shown(st, env)
