"""What the rules ask a decider: a decision's ``prompt`` (``choose c in me.hand prompt "keep {n} of
your {len(me.hand)} cards"``, ``choose by p prompt "...":``, ``each p in ps secretly choose ... prompt
"..."``).

A prompt is no part of the machine (a decision's instructions and its ``Pending`` know nothing of it,
so playing costs nothing more): it is compiled once per game into ``CompiledGame.prompts`` (a ``compile.instructions.Prompt``), keyed by
the decision's place (file, line), and evaluated only when someone looks (a view, the play screen, an
explanation), in a copy of the deciding frame's locals. The information-flow check lets it show the
decider's own secrets and public values only (rule 7): it is told to the decider alone."""
from __future__ import annotations

from typing import Optional

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine import limits
from rulewright.interpreter.engine.faults import RULE_FAULTS, located
from rulewright.interpreter.engine.values import to_text


# ----------------------------------------------------------------------------- the decision's place
def decision_place(st):
    """The span of the pending decision's ``choose`` (its file and line), or None."""
    pend = st.pending
    if pend is None or not st.frames:
        return None
    frame = st.frames[-1]
    proc = st.game.procs.get(frame.proc)
    pc = frame.pc - 1  # the frame waits at the instruction after its choose
    if proc is None or not 0 <= pc < len(proc.spans):
        return None
    span = proc.spans[pc]
    return span if span.line == pend.line else None


def prompt(st, player: int) -> Optional[str]:
    """What the rules ask ``player``, one of the players the pending decision waits for (None when
    its ``choose`` has no prompt). The holes are the decider's to see, and no one else's."""
    pend = st.pending
    if not st.game.prompts or pend is None or player not in pend.options:
        return None
    span = decision_place(st)
    compiled = st.game.prompts.get((span.file, span.line)) if span is not None else None
    if compiled is None:
        return None
    env = dict(st.frames[-1].locals)  # a copy: looking changes nothing
    if compiled.player_var:
        env[compiled.player_var] = player
    limits.fresh(st)  # bounded like a view
    try:
        value = compiled.text(st, env)
    except RulesRuntimeError as exc:
        if exc.diagnostic is not None:
            raise
        raise _located(st, exc, compiled) from None
    except RULE_FAULTS as exc:
        raise _located(st, exc, compiled) from None
    return value if type(value) is str else to_text(value)


def _located(st, exc, compiled: Prompt) -> RulesRuntimeError:
    """The prompt's error, pointing into it, in the rule that asks."""
    return located(st, exc, compiled.node.span, st.frames[-1].proc, compiled.node)
