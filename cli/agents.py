"""Agents for the command line: the spec of `play --auto`, `simulate --agents` and `bench --agents`.
The agents themselves live in interpreter/play/agents.py (importable without the CLI); see docs/agents.md."""
from __future__ import annotations

from typing import Optional

import typer

from rulewright.interpreter.play.agents import (AGENTS, AgentSpecError, FirstAgent, RandomAgent, Seated,  # noqa: F401
                                           agents_for, parse_spec, playout)


def check_spec(spec: str, option: str, check=parse_spec) -> None:
    """A bad spec is a usage error, reported before any file is read (``check`` raises AgentSpecError)."""
    try:
        check(spec)
    except AgentSpecError as exc:
        raise typer.BadParameter(str(exc), param_hint=f"'{option}'") from None


def seated(spec: str, players: int, seed: Optional[int], option: str = "--agents") -> Seated:
    """The spec's agents as one agent for `play`'s seats; a spec for the wrong number of seats is a usage
    error."""
    try:
        return Seated(agents_for(spec, players, seed))
    except AgentSpecError as exc:
        raise typer.BadParameter(str(exc), param_hint=f"'{option}'") from None


def make_agent(name: str, seed: Optional[int]):
    """One named agent, every parameter at its default (kept for callers of the first CLI)."""
    check_spec(name, "--auto")
    return agents_for(name, 1, seed)[0]
