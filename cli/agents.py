"""Agents that play a seat without a person: each picks one of the legal moves of its player."""
from __future__ import annotations

import random
from typing import Optional

import typer


class RandomAgent:
    """A uniformly random legal move, from its own generator (so the game's own chance stays the game's)."""

    def __init__(self, seed: Optional[int] = None):
        self.rng = random.Random(seed)

    def choose(self, state, player: int):
        return self.rng.choice(state.legal_moves(player))


class FirstAgent:
    """Always the first legal move: fully predictable, handy for smoke tests of a new rules file."""

    def __init__(self, seed: Optional[int] = None):
        pass

    def choose(self, state, player: int):
        return state.legal_moves(player)[0]


AGENTS = {"random": RandomAgent, "first": FirstAgent}


def make_agent(name: str, seed: Optional[int]):
    if name not in AGENTS:
        raise typer.BadParameter(f"unknown agent {name!r} (agents: {', '.join(AGENTS)})", param_hint="'--auto'")
    return AGENTS[name](seed)


def playout(state, agent, max_decisions: int) -> int:
    """Let the agent play every seat until the game ends or max_decisions; returns the decisions made."""
    made = 0
    while not state.is_over() and made < max_decisions:
        player = state.to_move()[0]
        # not atomic: a game whose rules fail is reported and thrown away, so no snapshot is needed
        state.apply(agent.choose(state, player), player=player, atomic=False)
        made += 1
        state.drain_events()  # nobody reads them; a long playout should not hoard them
    return made
