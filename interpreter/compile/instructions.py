"""The instructions a procedure is lowered to (statements.py), each written once: as lines of generated
Python (``lines``), which stretches.py joins into the functions the machine runs.

An instruction's lines use ``st`` (the state) and ``env`` (the frame's locals), call a small run-time
helper (runtime.py) where a step has no inline form, and leave by an ``Out`` (the next pc), or fall
through to the next instruction (``falls_through``). The expressions in them are generated sources
(``expressions.Code``), made when the statement was lowered, with the locals certain to be set there
read without their check (statements.ProcCompiler.known).
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import attrs

from rulewright.dsl import ast
from rulewright.interpreter.engine import runtime
from rulewright.interpreter.engine import events
from rulewright.interpreter.engine.machine import ENDED, RETURN, RETURNED, STOP, SWITCH, Frame, Option, Pending, run_call
from rulewright.interpreter.engine.builtin_names import ME
from rulewright.interpreter.engine.values import SCALARS

# Rules never nest procedure calls this deep unless one calls itself without end.
MAX_CALL_DEPTH = runtime.MAX_CALL_DEPTH


@attrs.define(slots=True, eq=False)
class Label:
    """A place a jump goes to. Not an instruction: it takes no pc, it names the next one's. ``known``:
    the locals certainly set on each way lowered so far that jumps here (statements.ProcCompiler)."""
    pc: int = -1
    known: list = attrs.field(factory=list)


@attrs.define(slots=True, frozen=True)
class Out:
    """A way out of an instruction's lines: go to instruction ``pc`` (or SWITCH, STOP, RETURN)."""
    pc: int
    indent: str = ""


@attrs.define(slots=True, eq=False)
class ChoiceSpec:
    """What a decision offers: ``var`` bound to each item of ``source`` that passes ``where``, shown as
    ``text`` (AST nodes: the generated loop ``gather`` holds them); ``by`` who decides (else ``me``);
    an ``optional`` decline; ``secret``/``shown`` what the others see (generated sources). A
    ``choose_each`` adds the ``players`` who decide at once, the name ``player_var`` that holds each of
    them, and the hidden local ``results`` the choices land in."""
    var: str
    gather: str  # the name of the generated function (st, env) -> options (stretches.options_function)
    source: Any = None
    where: Any = None
    text: Any = None
    by: Any = None
    optional: Any = None
    secret: bool = False
    shown: Any = None
    players: Any = None
    player_var: str = ""
    results: str = ""
    automatic: bool = False  # one legal option: taken without asking
    window: bool = False     # a reaction window: who is asked is hidden, and only responses run the block

    def options_lines(self, w, indent: str) -> list:
        """Lines leaving the decision's options in ``opts``: the generated loop, then the decline, then
        what the others see of each (a secret decision)."""
        var = ascii(self.var)
        lines = [f"opts = {self.gather}(st, env)"]
        if self.optional is not None:
            lines.append(f"opts.append({w.constant(Option)}({self.optional.source}, None))")
        if self.secret or self.shown is not None:
            lines.append("for _o in opts:")
            if self.shown is None:
                lines.append(f"    _o.shown = {ascii(events.DEFAULT_SHOWN)}")
            else:
                lines += [f"    env[{var}] = _o.value", f"    _o.shown = {self.shown.source}"]
        return [indent + line for line in lines]


@attrs.frozen
class Prompt:
    """A decision's prompt, compiled in the decision's scope (statements.ProcCompiler) into
    ``CompiledGame.prompts``; no part of its instruction (present/prompts.py evaluates it when asked)."""
    text: Callable   # f(state, env) -> the prompt's text
    node: Any        # its template: where an error points
    player_var: str = ""  # 'each p in ... choose': the local that names the player deciding


@attrs.define(slots=True, eq=False)
class Instruction:
    """One instruction: where it came from (``span``: file, line, column) and, to point an error's
    caret at the expression at fault, the statement or expression it runs (``node``)."""
    span: ast.Span
    node: Any = attrs.field(default=None, kw_only=True)

    # whether the instruction always goes on to the next one (its lines then end without an Out)
    falls_through = False

    def lines(self, pc: int, w) -> list:
        """The instruction as generated Python: lines (str) and ways out (Out). ``w``: the writer
        (stretches.Writer), ``w.constant(x)`` a namespace name for ``x``."""
        raise NotImplementedError


@attrs.define(slots=True, eq=False)
class Exec(Instruction):
    """Lines that run, then the next instruction."""
    code: list
    falls_through = True

    def lines(self, pc, w):
        return self.code


@attrs.define(slots=True, eq=False)
class Jump(Instruction):
    target: Label

    def lines(self, pc, w):
        return [Out(self.target.pc)]


@attrs.define(slots=True, eq=False)
class JumpUnless(Instruction):
    """Go on if ``cond`` (a generated source) holds, else jump to ``target``."""
    cond: Any
    target: Label

    def lines(self, pc, w):
        return [f"if not ({self.cond.source}):", Out(self.target.pc, "    "), Out(pc + 1)]


@attrs.define(slots=True, eq=False)
class ForNext(Instruction):
    """The head of a loop over the list in the hidden local ``items``: bind ``var`` to the next item
    and go on, or jump to ``end`` when there is none."""
    items: str
    index: str
    var: str
    end: Label

    def lines(self, pc, w):
        items, index = ascii(self.items), ascii(self.index)
        return [f"i = env[{index}]", f"xs = env[{items}]", "if i >= len(xs):", Out(self.end.pc, "    "),
                f"env[{ascii(self.var)}] = xs[i]", f"env[{index}] = i + 1", Out(pc + 1)]


@attrs.define(slots=True, eq=False)
class Call(Instruction):
    """Push a frame of procedure ``proc`` with ``args`` (generated sources) bound to ``params`` (and
    ``me`` carried over); its return value goes into the caller's local ``target``, if any."""
    proc: str
    params: tuple
    args: list
    target: Optional[str] = None
    # a procedure that never decides (statements.plain_procedures): run as a Python call, no frame pushed
    plain: bool = attrs.field(default=False, kw_only=True)

    @property
    def falls_through(self) -> bool:
        return self.plain

    def lines(self, pc, w):
        lines = ["inner = {" + ", ".join(f"{ascii(p)}: {a.source}" for p, a in zip(self.params, self.args)) + "}"]
        if ME not in self.params:
            lines += [f"if {ascii(ME)} in env:", f"    inner[{ascii(ME)}] = env[{ascii(ME)}]"]
        if self.plain:
            lines += [f"v = {w.constant(run_call)}(st, {ascii(self.proc)}, inner)",
                      f"if v is {w.constant(ENDED)}:", Out(SWITCH, "    ")]
            return lines + ([f"env[{ascii(self.target)}] = v"] if self.target is not None else [])
        if self.target is not None:
            lines.append(f"inner['$return_to'] = {ascii(self.target)}")
        return lines + [f"if len(st.frames) >= {MAX_CALL_DEPTH}:", f"    {w.constant(runtime.too_deep)}()",
                        f"st.frames[-1].pc = {pc + 1}",
                        f"st.frames.append({w.constant(Frame)}({ascii(self.proc)}, 0, inner))", Out(SWITCH)]


@attrs.define(slots=True, eq=False)
class Return(Instruction):
    """Pop the frame; the value (a generated source, or None; a copy, as 'let' and '=' store) goes
    where the caller asked."""
    value: Any = None
    plain: bool = attrs.field(default=False, kw_only=True)  # of a procedure run as a Python call

    def lines(self, pc, w):
        value = self.value.source if self.value is not None else "None"
        if self.plain:
            if self.value is None or (self.value.is_const and type(self.value.value) in SCALARS):  # nothing to copy
                return [f"env[{ascii(RETURNED)}] = {value}", Out(RETURN)]
            return [f"v = {value}", f"env[{ascii(RETURNED)}] = v if type(v) in _SCALAR_TYPES else _copy_value(v, st)",
                    Out(RETURN)]
        return [f"v = {value}", "st.frames.pop()", "target = env.get('$return_to')",
                "if target is not None and st.frames:",
                "    st.frames[-1].locals[target] = v if type(v) in _SCALAR_TYPES else _copy_value(v, st)", Out(SWITCH)]


@attrs.define(slots=True, eq=False)
class End(Instruction):
    """'end game': drop every running rule and score."""

    def lines(self, pc, w):
        return ["st.begin_scoring()", Out(SWITCH)]


@attrs.define(slots=True, eq=False)
class CheckEnd(Instruction):
    """Test the 'end when ... after turn' (or round) conditions; end the game if one holds. A
    condition that fails points at itself, in the rule 'end when' (runtime.ended)."""
    timing: str
    falls_through = True

    def lines(self, pc, w):
        game = w.game
        conditions = game.end_conditions[self.timing]
        if not conditions:
            return []  # nothing to test: nothing to run
        # the declarations in the order the compiler compiled them
        decls = [d for d in game.symbols.end_conditions if d.timing == self.timing]
        return [f"if {w.constant(runtime.ended)}(st, {w.constant(conditions)}, {w.constant(decls)}):",
                "    st.begin_scoring()", Out(SWITCH, "    ")]


@attrs.define(slots=True, eq=False)
class Choose(Instruction):
    """Work out the options of ``spec``, store a Pending decision and stop."""
    spec: ChoiceSpec

    def lines(self, pc, w):
        spec, var = self.spec, ascii(self.spec.var)
        by = spec.by.source if spec.by is not None else f"env[{ascii(ME)}]"
        lines = spec.options_lines(w, "") + [f"env.pop({var}, None)", "if not opts:",
                                              f"    {w.constant(runtime.no_choice)}({var})"]
        if spec.automatic:  # nothing to choose: taken without asking, no move
            lines += ["if len(opts) == 1:", f"    env[{var}] = opts[0].value", Out(pc + 1, "    ")]
        count = w.player_count
        return lines + [f"player = {by}", f"if type(player) is not int or not 0 < player <= {count}:",
                        f"    {w.constant(runtime.not_a_player)}(player, {count})",
                        f"st.frames[-1].pc = {pc + 1}",
                        f"st.pending = {w.constant(Pending)}({var}, {{player: opts}}, line={self.span.line})",
                        Out(STOP)]


@attrs.define(slots=True, eq=False)
class ChooseEach(Instruction):
    """Every player of ``spec.players`` decides at once, in secret; the pairs [player, value] land
    in the hidden local ``spec.results`` when all have chosen."""
    spec: ChoiceSpec

    def lines(self, pc, w):
        spec, count = self.spec, w.player_count
        lines = ["options, taken = {}, {}", f"for p in {spec.players.source}:",
                 f"    env[{ascii(spec.player_var)}] = p", *spec.options_lines(w, "    "),
                 "    if not opts:", f"        {w.constant(runtime.no_choice_for)}({ascii(spec.var)}, p)",
                 "    options[p] = opts"]
        if spec.automatic:  # this player has nothing to choose
            lines += ["    if len(opts) == 1:", "        taken[p] = opts[0].value"]
        return lines + [f"st.frames[-1].pc = {pc + 1}", "if len(taken) == len(options):",
                        f"    env[{ascii(spec.results)}] = [[p, taken[p]] for p in options]", Out(pc + 1, "    "),
                        "for p in options:", f"    if type(p) is not int or not 0 < p <= {count}:",
                        f"        {w.constant(runtime.not_a_player)}(p, {count})",
                        f"st.pending = {w.constant(Pending)}({ascii(spec.var)}, options, chosen=taken, simultaneous=True, "
                        f"line={self.span.line}, results={ascii(spec.results)}, texts=dict.fromkeys(taken), "
                        f"window={spec.window!r})", Out(STOP)]
