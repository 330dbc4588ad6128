"""Random playouts, timed: the one measuring loop every benchmark here shares.

A "runner" plays one whole game with a uniformly random agent and returns how many decisions it
took. ``measure`` calls runners in turn for a few rounds (alternating them, so a slow spell of the
machine hurts every contender alike) and reports the best and the median rate of each. Another
process can only slow a run down, never speed it up, so the best run is the steadiest figure.

Time is this thread's CPU time (time.thread_time), not the wall clock: on a shared machine other
processes then slow a run down much less. Everything measured runs in this one process and thread.
"""
from __future__ import annotations

import random
import statistics
import time
from typing import Callable

Runner = Callable[[random.Random], int]  # plays one game, returns the number of decisions made


# A rules-faithful game can be endless (Biplane when nobody ever draws a card): such a playout stops here
# and counts as played, so one rare game cannot stall a benchmark.
MAX_DECISIONS = 50_000


def rulewright_runner(game, max_decisions: int = MAX_DECISIONS) -> Runner:
    """One random playout of a rulewright game: the public API only (legal_moves, apply)."""
    def play(rng: random.Random) -> int:
        state = game.new_state(seed=rng.randrange(1 << 30))
        n = 0
        while not state.is_over() and n < max_decisions:
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
            n += 1
        return n
    return play


def openspiel_runner(game) -> Runner:
    """One random playout of an OpenSpiel game (no chance nodes: the classic games have none)."""
    def play(rng: random.Random) -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            n += 1
        return n
    return play


def run_for(play: Runner, seconds: float, seed: int) -> tuple[int, int, float]:
    """Play games until ``seconds`` of CPU time have passed; return (games, decisions, elapsed seconds)."""
    rng = random.Random(seed)
    games = decisions = 0
    start = time.thread_time()
    deadline = start + seconds
    while True:
        decisions += play(rng)
        games += 1
        if games % 16 == 0 and time.thread_time() >= deadline:
            break
    return games, decisions, time.thread_time() - start


def measure(runners: dict[str, Runner], seconds: float = 2.0, rounds: int = 5, seed: int = 1) -> dict:
    """Best and median games/s (and decisions/s) of each runner over ``rounds`` alternating runs."""
    rates: dict = {name: [] for name in runners}
    for play in runners.values():
        run_for(play, min(0.2, seconds), seed)  # warm up caches before timing
    for r in range(rounds):
        for name, play in runners.items():
            games, decisions, elapsed = run_for(play, seconds, seed + r)
            rates[name].append((games / elapsed, decisions / elapsed))
    return {name: {"games_per_s": max(g for g, _ in rs),
                   "decisions_per_s": max(d for _, d in rs),
                   "median_games_per_s": statistics.median(g for g, _ in rs),
                   "runs": len(rs)}
            for name, rs in rates.items()}


def search_runner(game, steps: int = 200, integer: bool = False) -> Runner:
    """``steps`` steps of a random walk as a tree search makes them: clone the state, list its moves,
    apply one to the clone, go on from the clone (a new game when one ends). Returns ``steps``, so
    measure()'s decisions/s is states/s. ``integer``: legal_actions/apply_action instead of
    legal_moves/apply. Works for rulewright, the reference classes and OpenSpiel states alike."""
    openspiel = hasattr(game, "new_initial_state")

    def fresh(rng):
        return game.new_initial_state() if openspiel else game.new_state(seed=rng.randrange(1 << 30))

    def walk(rng: random.Random) -> int:
        st = fresh(rng)
        for _ in range(steps):
            c = st.clone()
            if integer or openspiel:
                actions = c.legal_actions()
                c.apply_action(actions[rng.randrange(len(actions))])
            else:
                moves = c.legal_moves()
                c.apply(moves[rng.randrange(len(moves))])
            st = c
            if (st.is_terminal() if openspiel else st.is_over()):
                st = fresh(rng)
        return steps
    return walk
