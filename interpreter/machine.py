"""The instruction machine that runs compiled rules.

Each procedure of a rules file is compiled to a flat tuple of instructions (Python closures) with
jumps. The machine's whole position is data: a stack of frames ``(procedure, pc, locals)``. A
decision stops the machine with a pending choice in the state; applying a move writes the chosen
value into the frame and runs on. Because nothing lives on the Python stack between decisions, a
state with a pending choice clones, saves and loads like any other.
"""
from __future__ import annotations

from typing import Any

import attrs

from rulewright.dsl.errors import RulesError, RulesRuntimeError

SWITCH = -1  # the frame stack changed: reload the top frame
STOP = -2    # a decision is pending, or the game is over

# A rules file that runs this many instructions without a decision is looping forever.
STEP_BUDGET = 2_000_000


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

    def waiting(self) -> list:
        return [p for p in self.options if p not in self.chosen]


@attrs.define(slots=True)
class Proc:
    name: str
    params: tuple
    code: tuple
    lines: tuple
    file: str


def run(st) -> None:
    """Run until a decision is pending or the game is over."""
    procs = st.game.procs
    budget = STEP_BUDGET
    frames = st.frames
    while frames:
        frame = frames[-1]
        proc = procs[frame.proc]
        code = proc.code
        env = frame.locals
        pc = frame.pc
        try:
            while pc >= 0:
                budget -= 1
                if budget < 0:
                    frame.pc = pc
                    raise RulesRuntimeError(  # _located below prefixes file:line and the rule
                        f"the rules ran {STEP_BUDGET:,} steps without asking for a decision (an endless loop?)")
                pc = code[pc](st, env)
        except RulesError as exc:
            if isinstance(exc, RulesRuntimeError) and not getattr(exc, "located", False):
                exc = _located(exc, proc, pc)
            raise exc from None
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError,
                RecursionError) as exc:
            raise _located(RulesRuntimeError(_describe(exc)), proc, pc) from None
        if pc == STOP:
            return
    st.finish()


def _located(exc: RulesRuntimeError, proc: Proc, pc: int) -> RulesRuntimeError:
    line = proc.lines[pc] if 0 <= pc < len(proc.lines) else 0
    out = RulesRuntimeError(f"{proc.file}:{line}: in '{proc.name}': {exc}")
    out.located = True
    return out


def _describe(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"no such entry: {exc.args[0]!r}"
    if isinstance(exc, IndexError):
        return "index out of range"
    return str(exc)
