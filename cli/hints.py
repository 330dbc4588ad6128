""":hint at the prompt: an agent weighs the seated player's moves and says which it would play, and why.

The agent searches the game as that player sees it: ismcts and greedy play their simulations in copies
where what the player cannot see is dealt again (interpreter/play/determinize.py), so a hint tells nothing of
another player's hand, the deck or the dice to come. mcts, which searches the real state, is refused.
The agent's randomness is its own, drawn afresh for each hint: never the game's seed."""
from __future__ import annotations

import random
from typing import Optional

# (the engine and its agents load when a hint is asked: the command line starts without them)
DEFAULT_HINT = "ismcts:iterations=200,seconds=5"
# the agents that weigh moves on what the player may see only
HINT_AGENTS = ("ismcts", "greedy")
SHOWN = 5  # the moves listed, best first


def check_hint_spec(spec: str) -> None:
    """A usage error (AgentSpecError) unless ``spec`` names one agent that can give a hint."""
    from rulewright.interpreter.play.agents import AgentSpecError, parse_spec
    parsed = parse_spec(spec)
    if len(parsed) != 1 or parsed[0][0] not in HINT_AGENTS:
        raise AgentSpecError(f"a hint comes from one agent that searches only what the player may see "
                             f"({' or '.join(HINT_AGENTS)}, with parameters), not {spec!r}")


def hint_lines(state, player: int, spec: str = DEFAULT_HINT, seed: Optional[int] = None) -> list[str]:
    """The hint for ``player``, who is to move: the move the agent would play, then the best moves with
    the agent's reasons (its simulations through each and their mean result for the player). A
    function of what the player may see and of ``seed`` (drawn afresh when None)."""
    from rulewright.interpreter.play.agents import AGENTS, parse_spec
    check_hint_spec(spec)
    moves = state.legal_moves(player)
    if len(moves) == 1:
        return [f"hint: 1. {moves[0].text} is your only move"]
    name, params = parse_spec(spec)[0]
    agent = AGENTS[name](random.SystemRandom().randrange(2**63) if seed is None else seed, **params)
    weighed = agent.weigh(state, player, moves)
    number = {m.text: i for i, m in enumerate(moves, 1)}
    best = weighed[0].move
    searched = sum(w.visits or 0 for w in weighed)
    how = (f"{searched} simulations of the game as you see it" if name != "greedy"
           else "each move tried once, in the game as you see it")
    lines = [f"hint ({name}, {how}): play {number[best.text]}. {best.text}",
             "  result: 1 a win, 0 a loss, between them how the rules rank you when the simulation stops"]
    width = max(len(w.move.text) for w in weighed[:SHOWN])
    for w in weighed[:SHOWN]:
        if w.value is None:
            why = "not tried"
        elif w.value < 0:
            why = "its rules fail"
        else:
            why = (f"{w.visits:>5} simulations, " if w.visits is not None else "") + f"result {w.value:.2f}"
        lines.append(f"  {number[w.move.text]:>3}. {w.move.text:<{width}}   {why}")
    if len(weighed) > SHOWN:
        lines.append(f"  ... and {len(weighed) - SHOWN} more moves")
    return lines
