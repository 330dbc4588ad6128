"""The instruction machine that runs compiled rules.

Each procedure of a rules file is compiled to a flat tuple of instructions with jumps, written as
generated functions that run a whole straight-line stretch at once, or one instruction alone
(compile/stretches.py; the steps are still counted one per instruction). One stepping loop
(``stepped``) runs a frame's procedure, and a procedure run as a Python call (``run_call``). The machine's whole position is data: a stack of frames ``(procedure, pc, locals)``. A
decision stops the machine with a pending choice in the state; applying a move writes the chosen
value into the frame and runs on. Because nothing lives on the Python stack between decisions, a
state with a pending choice clones, saves and loads like any other.

When a rule fails, the machine hands the error to faults.py, which locates it at the failing
instruction and says it in the language's words.
"""
from __future__ import annotations

from typing import Any

import attrs

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine import limits
from rulewright.interpreter.engine import bounds
from rulewright.interpreter.engine.faults import LOCATED, at_fault, fail_at

SWITCH = -1  # the frame stack changed: reload the top frame
STOP = -2    # a decision is pending, or the game is over
RETURN = -3  # a procedure run by run_call returned: its value is its local RETURNED
RETURNED = "$returned"
ENDED = object()  # what run_call gives when 'end game' ran inside the procedure




@attrs.define(slots=True)
class Frame:
    proc: str
    pc: int
    locals: dict


@attrs.define(slots=True)
class Option:
    text: str
    value: Any
    shown: Any = None  # what the other players see of this move (a secret decision), else None


@attrs.define(slots=True)
class Pending:
    """A decision the machine waits for: one player, or several at once (secret, simultaneous)."""
    var: str
    options: dict  # player -> list[Option]
    chosen: dict = attrs.field(factory=dict)  # player -> value, for simultaneous decisions
    simultaneous: bool = False
    line: int = 0
    results: str = ""  # the local that receives the simultaneous choices
    texts: dict = attrs.field(factory=dict)  # player -> [text, shown] of the move chosen, told when all have chosen
    window: bool = False  # a reaction window: who is asked, and what each answered, is told to them alone

    def waiting(self) -> list:
        return [p for p in self.options if p not in self.chosen]


@attrs.define(slots=True)
class Proc:
    name: str
    params: tuple
    code: Any      # op(state, env) -> next pc: each instruction alone (stretches.Alone, made when first run)
    spans: tuple   # ast.Span of each instruction: where its error points
    file: str
    # the typed instructions the code was made from (statements.Exec, Call...): their AST nodes let
    # an error point at the expression at fault; read only when something fails
    instructions: tuple = ()
    # the straight-line stretches (codegen.add_stretches): fast[pc] runs costs[pc] instructions at once
    fast: tuple = ()
    costs: tuple = ()
    lines_of: dict = attrs.field(factory=dict)
    # the rule each instruction's events name for the referee (events.place of its span), worked out once
    places: tuple = ()

    @property
    def lines(self) -> tuple:
        """The line of each instruction (the spans, shortened)."""
        return tuple(span.line for span in self.spans)


# A stretch (codegen.add_stretches) is charged the most instructions any of its paths runs; a path that
# runs fewer returns its pc plus, shifted by this, the steps it did not run (a negative pc, STOP or
# SWITCH, minus them): pcs stay below 1 << REFUND_SHIFT.
REFUND_SHIFT = 20
_PC_MOST = (1 << REFUND_SHIFT) - 1
_NEGATIVE_MOST = -_PC_MOST


def with_refund(pc: int, unused: int) -> int:
    """``pc`` (an instruction's own answer, known only when it runs) with ``unused`` steps given back."""
    return pc + (unused << REFUND_SHIFT) if pc >= 0 else pc - (unused << REFUND_SHIFT)


def run(st) -> None:
    """Run until a decision is pending or the game is over."""
    procs = st.game.procs
    st._work_left = work = limits.WORK  # this run's budget (limits.fresh, inline): its work, and the steps
    st._steps_left = steps = limits.STEPS  # procedures run by run_call may take, counted apart from this loop's
    # a rules file that runs this many instructions without a decision loops forever
    budget = steps
    frames = st.frames
    while frames:
        frame = frames[-1]
        pc, budget = stepped(st, procs[frame.proc], frame.locals, frame.pc, budget, frame)
        if pc == STOP:
            if st.pending is not None:  # a decision: what the run left in the state is bounded (bounds.py)
                grown = st._held_most + bounds.GROWTH * (2 * steps + work - budget - st._steps_left - st._work_left)
                if grown > limits.STATE:
                    grown = bounds.counted(st)
                st._held_most = grown
            return
    st.finish()


def stepped(st, proc, env: dict, pc: int, budget: int, frame=None) -> tuple:
    """Run ``proc`` from ``pc`` with its locals ``env`` until it leaves (a negative pc: SWITCH, STOP,
    RETURN), within ``budget`` steps: (that pc, the steps left). ``frame``: the frame it runs in (its pc
    kept where an endless loop stopped), None for a procedure run as a Python call."""
    fast, costs = proc.fast, proc.costs
    try:
        while pc >= 0:
            budget -= costs[pc]
            if budget >= 0:  # a whole stretch of instructions within the steps left
                pc = fast[pc](st, env)
                if pc > _PC_MOST:  # it left early, at a branch: the steps it did not run come back
                    budget += pc >> REFUND_SHIFT
                    pc &= _PC_MOST
                continue
            budget += costs[pc] - 1  # near the end of the budget: one instruction at a time
            if budget < 0:
                if frame is not None:
                    frame.pc = pc
                _endless()
            pc = proc.code[pc](st, env)
        if pc < _NEGATIVE_MOST:  # left on a path that ran fewer steps than it was charged
            budget += (-pc) >> REFUND_SHIFT
            pc = -((-pc) & _PC_MOST)
    except LOCATED as exc:
        raise at_fault(st, exc, proc, pc, frame) from None
    except MemoryError:  # the limits keep a game far from this; the machine's own memory may be small
        raise fail_at(st, RulesRuntimeError(
            "the rules need more memory than there is",
            "check for lists that grow without end, or lower the limits (rulewright --max-items)"),
            proc, pc) from None
    return pc, budget


def _endless():
    raise RulesRuntimeError(
        f"the rules ran {limits.STEPS:,} steps without asking for a decision",
        "this is an endless loop: check that the loop's condition can become false, or "
        "that it reaches a 'choose' (or 'break') on every turn through it")


def run_call(st, name: str, env: dict):
    """Run the procedure ``name``, one that never decides (statements.plain_procedures), with its
    locals ``env``, to its end, as a Python call: no frame, since nothing of it lives on past the
    move. Gives its value, or ENDED when 'end game' ran in it (the frames are then the scoring's)."""
    pc, st._steps_left = stepped(st, st.game.procs[name], env, 0, st._steps_left)
    return env[RETURNED] if pc == RETURN else ENDED
