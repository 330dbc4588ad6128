"""The adapters on whole games: OpenSpiel's own random-simulation test and PettingZoo's api_test, untruncated.

    python benchmarks/adapters.py [GAME ...] [--sims N]

For each game (default: every shipped game): ``pyspiel.random_sim_test`` on N whole games through the
OpenSpiel adapter (the bounds measured, so no game is cut: each is checked to have ended by its rules), then
``pettingzoo.test.api_test`` with cycles past the environment's bound; prints the seconds each took. The
suite runs OpenSpiel's test whole on the short games only (a PLANES game of it takes over a minute: it
prints and clones the whole state at every action) and the same checks in Python on the long ones.
"""
from __future__ import annotations

import argparse
import time
import warnings

import pyspiel
from pettingzoo.test import api_test

from rulewright import openspiel
from rulewright.interpreter.api import shipped_games
from rulewright.interpreter.play.pettingzoo_adapter import env


def openspiel_whole(name: str, sims: int) -> float:
    start = time.perf_counter()
    game = openspiel.load(name, samples=1)
    ends = []

    def note(state):
        if state.is_terminal():
            ends.append(state.rulewright_state.is_over())
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False, state_checker_fn=note)
    if len(ends) < sims or not all(ends):
        raise AssertionError(f"{name}: a simulation was cut before the game's end")
    return time.perf_counter() - start


def pettingzoo_whole(name: str) -> float:
    start = time.perf_counter()
    e = env(name, samples=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(e, num_cycles=e.max_decisions)
    return time.perf_counter() - start


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", metavar="GAME", default=list(shipped_games()))
    ap.add_argument("--sims", type=int, default=1)
    args = ap.parse_args(argv)
    for name in args.games:
        os_seconds = openspiel_whole(name, args.sims)
        pz_seconds = pettingzoo_whole(name)
        print(f"{name}: OpenSpiel random_sim_test, {args.sims} whole game(s): {os_seconds:.1f} s; "
              f"PettingZoo api_test, whole: {pz_seconds:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
