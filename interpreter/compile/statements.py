"""Lower a block of statements to a flat tuple of instructions with jumps (instructions.py).

Pass one (``ProcCompiler``'s statement methods) emits typed instructions and ``Label``s, each
instruction with the span it came from and its expressions as generated sources; pass two (``finish``)
gives each label its pc and asks stretches.py for the functions the machine runs.

While lowering, ``known`` follows the procedure's locals certainly set at the place being lowered (on
every way there: a label's is what all the jumps to it so far agree on), so an expression there reads
them without the check that they have a value. Only jumps forward count: a loop's head is lowered
before its body, and a jump back to it comes with more set, never less (a local, once set, stays set:
the hidden ones a loop or a call drops are never read by an expression).
"""
from __future__ import annotations

import itertools
from typing import Optional

import attrs

from rulewright.dsl import ast
from rulewright.dsl.errors import RulesRuntimeError
from rulewright.dsl.visitor import Visitor
from rulewright.interpreter.compile import codegen
from rulewright.interpreter.engine import runtime
from rulewright.interpreter.compile.comparisons import scalar_test
from rulewright.interpreter.compile.param_kinds import scalar
from rulewright.interpreter.compile.expressions import Code
from rulewright.interpreter.compile.instructions import (Call, CheckEnd, ChoiceSpec, Choose, ChooseEach, End, Exec,
                                                         ForNext, Instruction, Jump, JumpUnless, Label, Prompt, Return)
from rulewright.interpreter.compile.stretches import Writer, add_stretches, options_function
from rulewright.interpreter.engine import compare, events, limits, operations
from rulewright.interpreter.engine.builtins import QUANTIFIERS, called
from rulewright.interpreter.engine.failed_operation import ENTRY
from rulewright.interpreter.engine.machine import Option, Proc
from rulewright.interpreter.engine.builtin_names import ME

__all__ = ["Call", "CheckEnd", "Choose", "ChooseEach", "End", "Exec", "ForNext", "Jump", "JumpUnless", "Label",
           "Return", "ProcCompiler", "plain_procedures"]


class ProcCompiler(Visitor):
    """Lowers one procedure; ``game`` is the CompiledGame whose names it resolves against."""

    def __init__(self, game, name: str, params: tuple, file: str):
        self.game = game
        self.name = name
        self.params = tuple(params)
        self.file = file
        self.ir: list = []  # Instructions and Labels, in order
        self.scope: set = set(params) | {ME}
        self.loops: list[Label] = []
        # the locals certainly set here (None: no way leads here); a procedure starts with its parameters
        # (Call binds each one)
        self.known: Optional[set] = set(params)
        # Counted per procedure, not per process: a saved frame's hidden locals must get the same
        # names when the rules are compiled again (another process, or a second Game of the same rules).
        self._ids = itertools.count()

    # ------------------------------------------------------------------ helpers
    def expr(self, node) -> Code:
        """The generated source of an expression that runs here."""
        with self.game.exprs.source.locals_known(self.name):
            return self.game.exprs.code(node, self.scope, frozenset(self.known or ()))

    def raw(self, source: str) -> Code:
        """Generated source written by the compiler itself (not from the rules)."""
        return Code(source)

    def emit(self, ins: Instruction, sets=()) -> None:
        """Append ``ins``; ``sets``: the locals it certainly sets when it goes on to the next one."""
        self.ir.append(ins)
        if self.known is None:
            return
        if isinstance(ins, (Jump, JumpUnless)):
            ins.target.known.append(set(self.known))
        elif isinstance(ins, ForNext):
            ins.end.known.append(set(self.known))
        if isinstance(ins, (Jump, Return, End)):
            self.known = None
        else:
            self.known |= set(sets)

    def exec(self, s, lines: list, node=None, sets=()) -> None:
        """An Exec of ``lines`` for statement ``s`` (its caret may narrow to a part of ``node``, by default
        ``s``)."""
        self.emit(Exec(s.span, lines, node=s if node is None else node), sets)

    def constant(self, value) -> str:
        """A name in the generated code's namespace for ``value`` (a helper the code calls)."""
        return self.game.exprs.module.constant(value)

    def label(self, lab: Label):
        self.ir.append(lab)
        ways = lab.known + ([self.known] if self.known is not None else [])
        self.known = set.intersection(*ways) if ways else None

    def hidden(self, what: str) -> str:
        return f"${what}{next(self._ids)}"

    def block(self, stmts):
        for s in stmts:
            self.visit(s)

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

    def entry_set(self) -> str:
        """The place ``_obj[_key]`` a map's entry is stored at, noted (a key that cannot be one fails there)."""
        return self.game.exprs.module.operation((ENTRY,), "_obj[_key]", "_obj", "_key")

    def copied(self, code: str) -> str:
        """Generated source for a copy of the value of ``code`` (values.copy_value)."""
        return self.game.exprs.source.copied(code)

    def fresh(self, node) -> bool:
        """Whether the value of ``node`` needs no copy to be stored (_fresh)."""
        board = self.game.board
        return _fresh(node, board.functions if board is not None else None)

    def _is_local(self, name: str) -> bool:
        """Whether assigning ``name`` sets a local (making it one), rather than a game variable."""
        return name in self.scope or name not in self.game.var_decls

    # ------------------------------------------------------------------ simple statements
    def visit_Let(self, s):
        # the value is compiled before the name is a local: 'let n = [n]' reads the constant n
        if isinstance(s.value, ast.Call) and s.value.func.id in self.game.procs_ast:
            return self._call(s.value, s, target=ast.Name(s.name))
        value, name = self.expr(self.hoist(s.value, s)), s.name
        self.scope.add(name)
        # a copy, as '=' and 'add' store, unless certainly new: changing the local never changes what it
        # was taken from
        code = value.source if self.fresh(s.value) else self.copied(value.source)
        self.exec(s, [f"env[{ascii(name)}] = {code}"], sets={name})

    def _one_step(self, node, value: Code) -> bool:
        """Whether the value of ``node`` (compiled to ``value``) is surely compared in one step: a constant
        number, yes/no, none or short text, a number worked out (param_kinds.scalar), or a local known to
        hold one (local_kinds.py: read as ``env[name]``, as ExprSource.locals_known notes it)."""
        return ((value.is_const and compare.one_step(value.value)) or scalar(self.game, node, set())
                or (isinstance(node, ast.Name) and value.source in self.game.exprs.source.one_step_locals(self.name)))

    def _store(self, target, value: str, op=None, fresh=False, one_step=False) -> tuple:
        """(lines storing a copy of ``value`` into the place ``target`` names, the local it sets if any);
        ``op`` '+' or '-' combines with the old value; ``fresh``: the value is certainly nobody else's, a
        local takes it as it is; ``one_step``: what is stored is surely a number, yes/no, none or a short
        text (compare.Flatness need not be told). The value is worked out first, then the place."""
        if isinstance(target, ast.Name):
            key = ascii(target.id)
            local = self._is_local(target.id)
            if local:
                self.scope.add(target.id)
            place = f"env[{key}]" if local else f"st._vars[{key}]"
            if op is not None:  # the value first, then the old one
                return [f"_t = {value}", f"{place} = {self.copied(place + ' ' + op + ' _t')}"], ()
            return [f"{place} = {value if fresh and local else self.copied(value)}"], {target.id} if local else ()
        if isinstance(target, ast.Attr):
            obj, name = self.expr(target.obj).source, target.name
            kinds, count = self.game.field_kinds(name), self.game.player_count
            if kinds == {"player"}:  # a player variable's entry
                lines = [f"_new = {value}", f"_vals = st._vars[{ascii(name)}]", f"_obj = {obj}",
                         f"_key = _obj - 1 if type(_obj) is int and 0 < _obj <= {count} else _player_index(_obj, {count})"]
                return lines + [f"_vals[_key] = {self.copied('_vals[_key] ' + op + ' _new' if op else '_new')}"], ()
            # a record's field inline, anything else (a map, a player's entry of the same name) by the helper
            key = ascii(name)
            new = f"_obj[{key}] {op} _new" if op else "_new"
            return [f"_new = {value}", f"_obj = {obj}", "if type(_obj) is dict:",
                    f"    _obj[{key}] = {self.copied(new)}", *_noted(f"_obj[{key}]" if op else "_new", one_step), "else:",
                    f"    {self.constant(runtime.field_set)}(st, _obj, {key}, _new, {op!r}, {'player' in kinds}, {count})"], ()
        if isinstance(target, ast.Index):  # a map's entry set inline, anything else through set_index
            lines = [f"_new = {value}", f"_obj = {self.expr(target.obj).source}", f"_key = {self.expr(target.index).source}"]
            if op is not None:
                old = self.game.exprs.module.call("_obj.get", "_key")
                new = self.copied(old + " " + op + " _new")
                return lines + ["if type(_obj) is dict:", f"    {self.entry_set()} = {new}",
                                *_noted("_obj[_key]", one_step), "else:", f"    _set_index(_obj, _key, {self.copied('_get_index(_obj, _key) ' + op + ' _new')})"], ()
            return lines + ["if type(_obj) is dict:", f"    {self.entry_set()} = {self.copied('_new')}",
                            *_noted("_new", one_step), "else:", f"    _set_index(_obj, _key, {self.copied('_new')})"], ()
        raise RulesRuntimeError("cannot assign to this")

    def visit_Assign(self, s):
        if isinstance(s.value, ast.Call) and s.value.func.id in self.game.procs_ast:
            return self._call(s.value, s, target=s.target)
        value = self.expr(self.hoist(s.value, s))
        lines, sets = self._store(s.target, value.source, fresh=self.fresh(s.value), one_step=self._one_step(s.value, value))
        self.exec(s, lines, sets=sets)

    def visit_AugAssign(self, s):
        value = self.expr(self.hoist(s.value, s))
        # what '-=' stores is a number (or an error), and so is what '+=' stores when it adds a number
        one_step = s.op == "-" or scalar(self.game, s.value, set())
        lines, sets = self._store(s.target, value.source, op=s.op, one_step=one_step)
        self.exec(s, lines, sets=sets)

    def visit_CallStmt(self, s):
        name = s.call.func.id
        if name in self.game.procs_ast:
            return self._call(attrs.evolve(s.call, args=tuple(self.hoist(a, s) for a in s.call.args)), s)
        self.exec(s, [self.expr(self.hoist(s.call, s)).source])

    def _call(self, call, s, target=None):
        """A call of a procedure in statement ``s``; its value goes to ``target``, if any."""
        proc, span = call.func.id, s.span
        params = self.game.procs_ast[proc].params
        args = [self.expr(a) for a in call.args]
        if target is None:
            return self.emit(Call(span, proc, params, args, node=call))
        if isinstance(target, ast.Name) and self._is_local(target.id):
            self.scope.add(target.id)  # a local receives the value directly
            return self.emit(Call(span, proc, params, args, target.id, node=call), sets={target.id})
        # a game variable, a field or an item: the value lands in a hidden local, then is stored there
        returned = self.hidden("returned")
        self.emit(Call(span, proc, params, args, returned, node=call))
        lines, sets = self._store(target, f"env.pop({ascii(returned)})")
        self.exec(s, lines, node=target, sets=sets)

    def visit_Pass(self, s):
        pass

    def visit_EndGame(self, s):
        self.emit(End(s.span, node=s))

    def visit_Win(self, s):
        players = self.expr(self.hoist(s.players, s))
        self.exec(s, [f"{self.constant(runtime.won)}(st, {players.source}, {self.game.player_count})"])

    def visit_Log(self, s):
        rule = ascii(events.place(s.span))  # the referee's copy says which rule
        first, msg, values = self._told(s.message)
        log = self.constant(events.log)
        told = f"_text = {msg}"  # (its letters passed to emit)
        if s.to is None:
            return self.exec(s, [*first, told, f"st.emit({self._noted(f'{log}(_text, None, {rule})', values)}, "
                                                 "len(_text))"])
        to = self.expr(s.to)  # the readers first (each a player, or a rules error), then the text
        self.exec(s, [f"_r = {self.constant(runtime.readers)}({to.source}, {self.game.player_count})", *first,
                      told, f"st.emit({self._noted(f'{log}(_text, _r, {rule})', values)}, len(_text))"])

    def visit_Reveal(self, s):
        what = s.what
        first, text, _values = self._told(s.text) if s.text is not None else ([], None, None)
        reveal, turn_up = self.constant(events.reveal), self.constant(runtime.turn_up)
        rule = ascii(events.place(s.span))
        if isinstance(what, ast.Name) and what.id in self.game.var_decls and what.id not in self.scope:
            name = ascii(what.id)
            told = text or f"{self.constant(runtime.told)}({name}, _v, {what.id in self.game.player_vars})"
            lines = [f"_v = st._vars[{name}]", f"{turn_up}(st, {name}, 0, _v)", *first]
            event = f"{reveal}(_text, env.get({ascii(ME)}), {rule})"
        elif isinstance(what, ast.Attr) and what.name in self.game.player_vars:
            owner, name, count = self.expr(what.obj), ascii(what.name), self.game.player_count
            told = text or f"{self.constant(runtime.entry_told)}(_p, {name}, _v)"
            lines = [f"_p = {owner.source}", f"_v = st._vars[{name}][_player_index(_p, {count})]",
                     f"{turn_up}(st, {name}, _p, _v)", *first]
            event = f"{reveal}(_text, _p, {rule})"
        else:
            value = self.expr(what)
            lines = [f"_v = {value.source}", *first]
            told = text or "_to_text(_v, st)"
            event = f"{reveal}(_text, env.get({ascii(ME)}), {rule})"
        self.exec(s, [*lines, f"_text = {told}", f"st.emit({self._noted(event, '[_v]')}, len(_text))"])

    def _told(self, text) -> tuple:
        """(lines, source, values) for the text of a log or a reveal. Where the game notes what events
        name (``CompiledGame.notes_values``), a template's holes are computed first, each once, and
        ``values`` is the source of their list; else no lines and no values (None)."""
        if not self.game.notes_values:
            return [], self.expr(text).source, None
        if not isinstance(text, ast.Template):  # a text computed whole: the value it names is itself
            return [f"_n0 = {self.expr(text).source}"], "_n0", "[_n0]"
        holes = [p for p in text.parts if not isinstance(p, str)]
        names = [f"_n{i}" for i in range(len(holes))]
        lines = [f"{n} = {self.expr(h).source}" for n, h in zip(names, holes)]
        bound = iter(names)
        held = ast.Template(tuple(p if isinstance(p, str) else ast.Name(f"${next(bound)}", span=p.span)
                                  for p in text.parts), span=text.span)
        msg = self.game.exprs.code(held, self.scope, frozenset(self.known or ()), {f"${n}": n for n in names})
        return lines, msg.source, f"[{', '.join(names)}]"

    def _noted(self, event: str, values: str) -> str:
        """The source of ``event``, carrying ``values`` beside its text where the game notes them."""
        return f"{self.constant(runtime.noted)}({event}, {values})" if self.game.notes_values else event

    def _list_lines(self, node, into: str, what: str, maps_too: bool = False, gone_through: bool = False) -> list:
        """Lines leaving the list (or map) ``node`` gives in ``into``; anything else is an error saying
        ``what`` needed it. ``gone_through``: the statement goes through the list (shuffles it, looks
        for an item, inserts at its bottom), so a long one is counted as work (limits.py)."""
        test = f"type({into}) is not list" + (f" and type({into}) is not dict" if maps_too else "")
        lines = [f"{into} = {self.expr(node).source}", f"if {test}:",
                 f"    {self.constant(runtime.not_a_list)}({into}, {ascii(what)}, {maps_too})"]
        if gone_through:
            lines += [f"if type({into}) is list and len({into}) > {limits.SHORT}:", f"    _spend(st, len({into}))"]
        return lines

    def visit_Add(self, s):
        item = self.expr(self.hoist(s.item, s))
        self.exec(s, [f"_new = {self.copied(item.source)}",
                      *self._list_lines(s.target, "_obj", "'add'", gone_through=s.bottom),
                      "_obj.insert(0, _new)" if s.bottom else "_obj.append(_new)"])

    def visit_Remove(self, s):
        item = self.expr(s.item)
        # an item compared in one step, in a list that holds it: Python's own remove (a short list, or
        # one counted above), else the helper that counts the comparisons, forgets a map's key or fails
        test = "" if self._one_step(s.item, item) else f" and ({scalar_test('_new')})"
        self.exec(s, [f"_new = {item.source}", *self._list_lines(s.source, "_obj", "'remove'", maps_too=True, gone_through=True),
                      f"if type(_obj) is list{test} and _new in _obj:", "    _obj.remove(_new)",
                      "else:", f"    {self.constant(runtime.removed)}(_new, _obj, st)"])

    def visit_MoveItem(self, s):
        item = self.expr(s.item)
        # the list it goes into is worked out once the item is out of the first
        self.exec(s, [f"_x = {item.source}", *self._list_lines(s.source, "_xs", "'move'", gone_through=True),
                      f"if ({scalar_test('_x')}) and _x in _xs:", "    _i = _xs.index(_x)", "    _moved = _xs.pop(_i)",
                      f"else:", f"    _i, _moved = {self.constant(runtime.taken_out)}(_x, _xs, st)",
                      *self._list_lines(s.target, "_into", "'move'", gone_through=s.bottom),
                      f"{self.constant(runtime.put_in)}(st, _xs, _i, _moved, _into, {s.bottom!r})"])

    def visit_Shuffle(self, s):
        self.exec(s, [*self._list_lines(s.target, "_xs", "'shuffle'", gone_through=True), "st.rng.shuffle(_xs)"])

    def visit_Draw(self, s):
        lines = self._list_lines(s.source, "_xs", "'draw'")
        self.scope.add(s.name)
        self.exec(s, [*lines, "if not _xs:", f"    {self.constant(runtime.empty_draw)}()",
                      f"env[{ascii(s.name)}] = _xs.pop()"], sets={s.name})

    def visit_Return(self, s):
        self.emit(Return(s.span, self.expr(self.hoist(s.value, s)) if s.value is not None else None, node=s))

    def visit_Break(self, s):
        self.emit(Jump(s.span, self.loops[-1]))

    def visit_Fail(self, s):
        self.exec(s, [f"{self.constant(runtime.failed)}({self.expr(s.message).source})"])

    def visit_TakeTurn(self, s):
        self.emit(Call(s.span, "turn", (ME,), [self.expr(self.hoist(s.player, s))], node=s))
        self.emit(CheckEnd(s.span, "turn"))

    # ------------------------------------------------------------------ control flow
    def visit_If(self, s):
        end = Label()
        for cond, body in s.branches:
            c = self.expr(self.hoist(cond, s))  # an elif's procedures run only when it is reached
            if c.is_const:
                if c.value:
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

    def loop_over(self, var, source: Code, body, span, node=None):
        """for var in source: body  (the list is taken once, when the loop starts; ``var`` is bound to
        each item itself, not a copy: changing a field of it changes the item in the list)."""
        self.scope.add(var)
        items, index = self.hidden("items"), self.hidden("i")
        top, end = Label(), Label()
        taken = self.game.exprs.module.call("list", source.source)
        self.emit(Exec(span, [f"env[{ascii(items)}] = {taken}", f"env[{ascii(index)}] = 0"], node=node))
        self.label(top)
        self.emit(ForNext(span, items, index, var, end), sets={var})
        self.loops.append(end)
        body()
        self.loops.pop()
        self.emit(Jump(span, top))
        self.label(end)
        self.emit(Exec(span, [f"env.pop({ascii(n)}, None)" for n in (items, index)]))

    def visit_For(self, s):
        self.loop_over(s.var, self.expr(self.hoist(s.source, s)), lambda: self.block(s.body), s.span, s.source)

    def visit_While(self, s):
        top, end = Label(), Label()
        self.label(top)  # the condition's procedures run again before each pass
        self.emit(JumpUnless(s.span, self.expr(self.hoist(s.cond, s)), end, node=s.cond))
        self.loops.append(end)
        self.block(s.body)
        self.loops.pop()
        self.emit(Jump(s.span, top))
        self.label(end)

    def visit_Repeat(self, s):
        count = self.expr(self.hoist(s.count, s))
        self.loop_over(self.hidden("n"), self.raw(f"{self.constant(operations.counted)}({count.source})"), lambda: self.block(s.body),
                       s.span, s.count)

    def visit_Step(self, s):
        label = ascii(s.label)
        if self.name not in self.game.symbols.procs:
            self.exec(s, [f"st.step = {label}"])
            self.block(s.body)
            return
        # a procedure's step gives the caller's step back at its end: a procedure called from the turn's
        # step "move" shows its own steps while they run, then "move" again
        saved = ascii(self.hidden("step"))
        self.exec(s, [f"env[{saved}] = st.step", f"st.step = {label}"])
        self.block(s.body)
        self.exec(s, [f"st.step = env[{saved}]"])

    # ------------------------------------------------------------------ decisions
    def _choice_spec(self, c: ast.Choose, secret: bool = False, **more) -> ChoiceSpec:
        self.scope.add(c.var)
        source = self.expr(c.source)
        spec = ChoiceSpec(
            var=c.var, gather="", source=c.source, where=c.where, text=c.text,
            by=self.expr(c.by) if c.by is not None else None,
            optional=self.expr(c.optional) if c.optional is not None else None,
            secret=c.secret or secret,
            shown=self.expr(c.shown) if c.shown is not None else None,
            automatic=c.automatic, **more)
        spec.gather = self._gather(c, spec, source)
        return spec

    def _gather(self, c: ast.Choose, spec: ChoiceSpec, source: Code) -> str:
        """The loop over the items as one generated function, the item a Python local in the 'where' and
        the text (in ``env`` too where something may read it there)."""
        exprs = self.game.exprs
        scope = codegen.Scope(set(self.scope), {c.var: "x"}, in_def=False, known=frozenset(self.known or ()))
        with exprs.source.hoisting() as hoisted, exprs.source.tests_hoisted(()) as tests:
            where = exprs.source.top(c.where, scope, True) if c.where is not None else None
            text = exprs.source.top(c.text, scope, True) if c.text is not None else None
        # Choose drops the variable right after the loop, unless an 'optional' text or a mask runs first
        # (or, choosing at once, the frame keeps it)
        leaves = spec.optional is not None or spec.secret or spec.shown is not None or spec.players is not None
        return options_function(exprs.module, source, ascii(c.var), where, text, self.game.field_visibility,
                                self.constant(Option), self.constant(runtime.numbered), leaves_var=leaves,
                                hoisted=hoisted, tests=tests, text_reads_item_only=c.text is not None and
                                _reads_only(c.text, c.var, self.game))

    def _prompt(self, s, prompt, player_var: str = "") -> None:
        """A decision's prompt goes into the game's table (by the decision's place), not into its
        instruction: explain.py evaluates it, in the deciding frame, only when someone looks."""
        if prompt is not None:
            self.game.prompts[(s.span.file, s.span.line)] = Prompt(self.game.exprs.compile(prompt, self.scope),
                                                                   prompt, player_var)

    def visit_Choose(self, s):
        s = attrs.evolve(s, source=self.hoist(s.source, s))
        self._prompt(s, s.prompt)
        self.emit(Choose(s.span, self._choice_spec(s), node=s), sets={s.var})

    def visit_ChooseBlock(self, s):
        self._prompt(s, s.prompt)
        var = self.hidden("alt")
        # the labels whose guards hold, each guard evaluated in order (a label is never none)
        guards = [(ascii(a.label), self.expr(a.guard).source if a.guard is not None else "True")
                  for a in s.alternatives]
        listed = self.raw("(" + "".join(f"({lab} if {g} else None), " for lab, g in guards) + ")")
        gather = options_function(self.game.exprs.module, listed, ascii(var), "(x is not None)", None,
                                  self.game.field_visibility, self.constant(Option), self.constant(runtime.numbered),
                                  leaves_var=s.secret)
        spec = ChoiceSpec(var=var, gather=gather, by=self.expr(s.by) if s.by is not None else None, secret=s.secret)
        self.emit(Choose(s.span, spec, node=s), sets={var})
        end = Label()
        for alt in s.alternatives:
            nxt = Label()
            self.emit(JumpUnless(alt.span, self.raw(f"env[{ascii(var)}] == {ascii(alt.label)}"), nxt))
            self.block(alt.body)
            self.emit(Jump(alt.span, end))
            self.label(nxt)
        self.label(end)

    def visit_ChooseEach(self, s):
        players = self.expr(self.hoist(s.players, s))  # read before the player's name is bound
        self.scope.add(s.player_var)
        self._prompt(s, s.choice.prompt, s.player_var)
        results = self.hidden("each")
        spec = self._choice_spec(s.choice, secret=True, players=players, player_var=s.player_var, results=results,
                                 window=s.window)
        self.emit(ChooseEach(s.span, spec, node=s), sets={results})
        pair = self.hidden("pair")
        pvar, var = s.player_var, s.choice.var

        def body():
            self.emit(Exec(s.span, [f"env[{ascii(pvar)}], env[{ascii(var)}] = env[{ascii(pair)}]"], node=s),
                      sets={pvar, var})
            self.block(s.body)
        # a window's block runs for the players who responded, in list order
        answers = (f"[pr for pr in env[{ascii(results)}] if pr[1] is not None]" if s.window
                   else f"env[{ascii(results)}]")
        self.loop_over(pair, self.raw(answers), body, s.span)

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
        proc = Proc(self.name, self.params, (), tuple(ins.span for ins in pcs), self.file, tuple(pcs),
                    places=tuple(events.place(ins.span) for ins in pcs))
        add_stretches(proc, Writer(self.game.exprs.module, self.game))
        return proc


def _fresh(node, board_functions) -> bool:
    """Whether ``node``'s value is certainly new, or a number, text or yes/no: 'let' need not copy it."""
    if isinstance(node, (ast.Literal, ast.Template, ast.Compare, ast.Not, ast.Neg)):
        return True
    if isinstance(node, ast.BinOp):
        return node.op in ("-", "/", "%")
    if isinstance(node, ast.Quantifier):
        entry = QUANTIFIERS.get(node.func)
        return entry is not None and entry.scalar
    if isinstance(node, ast.ListLit):
        return all(_fresh(i, board_functions) for i in node.items)
    entry = called(node, board_functions) if isinstance(node, ast.Call) else None
    return entry is not None and entry.fresh


def _noted(entry: str, one_step: bool = False) -> list:
    """Lines telling compare.Flatness of the value just set at ``entry`` (of a record or a map; or the
    value set, whose copy it holds), unless it is a number, yes/no, none or a short text (known while
    compiling: ``one_step``, no line; else looked at inline: a call for each space or table row set was a tenth
    of what the counted comparisons cost) or the game's records are no longer flat."""
    if one_step:
        return []
    first = [] if entry.isidentifier() else [f"    _set = {entry}"]  # (an entry read once)
    name = "_set" if first else entry
    return first + [f"    if _FLAT.ok and not ({scalar_test(name)}):", f"        _set_in({name})"]


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
    for s in ast.statements(stmts):
        if isinstance(s, (ast.Let, ast.Draw)):
            names.add(s.name)
        elif isinstance(s, (ast.For, ast.Choose)):
            names.add(s.var)
        elif isinstance(s, ast.ChooseEach):
            names |= {s.player_var, s.choice.var}
        elif isinstance(s, ast.Assign) and isinstance(s.target, ast.Name):
            names.add(s.target.id)
    return names


# what a decision's text may be made of to be worked out once, when the game is compiled
_ITEM_ONLY = (ast.Literal, ast.Template, ast.BinOp, ast.Compare, ast.BoolOp, ast.Not, ast.Neg, ast.Cond, ast.Index,
              ast.ListLit, ast.MapLit, ast.Match)


def _reads_only(node, var: str, game) -> bool:
    """Whether the expression ``node`` reads nothing but the local ``var`` and constants: no game
    variable, no other local, no def, no state (so its value for an item is the same in every game)."""
    if game.field_visibility:  # an item's text then depends on who looks
        return False
    called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
    for n in ast.walk(node):
        if id(n) in called or not hasattr(n, "__attrs_attrs__"):  # a called name, or a text of a template
            continue
        if isinstance(n, ast.Name):
            if n.id != var and n.id not in game.constants:
                return False
        elif isinstance(n, ast.Call):
            from rulewright.interpreter.engine.builtins import BUILTINS
            builtin = BUILTINS.get(n.func.id)
            if n.func.id not in game.records and (builtin is None or builtin.needs != "pure"):
                return False
        elif isinstance(n, ast.Attr):
            if game.field_kinds(n.name) not in ({"column"}, {"field"}):
                return False
        elif not isinstance(n, _ITEM_ONLY):
            return False
    return True
