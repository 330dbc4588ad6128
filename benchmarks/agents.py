"""Agent strength: an agent against random seats, over many games, each seat taken in turn.

    python benchmarks/agents.py [GAME ...] [--agent SPEC] [--games N] [--players N] [--jobs N]

For each game: the agent plays seat 1 in game 0, seat 2 in game 1, ..., the other seats random; prints
its wins, draws, losses, the win rate, and the one-sided binomial p-value of doing at least that well if
its chance of winning were a random seat's (1/players), and the seconds a game took (``--jobs``: games
played side by side in that many processes; each game's result depends only on its number). Long runs: the
suite's tests (tests/test_agents.py) play a few games only.
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time

import rulewright
from rulewright.interpreter.play.agents import RandomAgent, agents_for, playout

DEFAULT_AGENT = "ismcts:iterations=32,depth=2"  # every aviation game hides something (Biplane: depth=8, docs/agents.md)
AVIATION = ["biplane", "planes", "barnstormers", "air-show", "magnificent-flying-machines"]


def p_value(wins: int, games: int, p: float) -> float:
    """P(X >= wins) for X ~ Binomial(games, p)."""
    return sum(math.comb(games, k) * p ** k * (1 - p) ** (games - k) for k in range(wins, games + 1))


def one_game(name: str, spec: str, players: int, i: int, max_decisions: int = 50_000) -> tuple:
    """Game ``i``: the agent in seat i % players + 1, random seats elsewhere; (result, seconds) where the
    result is 'win', 'draw', 'loss' or 'unfinished'."""
    start = time.perf_counter()
    game = rulewright.load(name, players=players)
    seat = i % players + 1
    seats = [RandomAgent(1000 + i * players + s) for s in range(players)]
    seats[seat - 1] = agents_for(spec, 1, i)[0]
    state = game.new_state(seed=i)
    playout(state, seats, max_decisions)
    if not state.is_over():
        result = "unfinished"
    else:
        outcome = state.outcome()
        result = "draw" if outcome.draw else "win" if seat in outcome.winners else "loss"
    return result, time.perf_counter() - start


def _one_game(args: tuple) -> tuple:
    return one_game(*args)


def strength(name: str, spec: str, games: int, players: int, jobs: int = 1) -> dict:
    start = time.perf_counter()
    args = [(name, spec, players, i) for i in range(games)]
    results = []
    with multiprocessing.Pool(jobs) as pool:
        for i, (result, seconds) in enumerate(pool.imap(_one_game, args, chunksize=1)):
            results.append((result, seconds))
            print(f"  {name} game {i}: {result}, {seconds:.1f} s", file=sys.stderr, flush=True)
    counts = {k: sum(r == k for r, _ in results) for k in ("win", "draw", "loss", "unfinished")}
    wins = counts["win"]
    return {"game": name, "agent": spec, "players": players, "games": games, "wins": wins,
            "draws": counts["draw"], "losses": counts["loss"], "unfinished": counts["unfinished"],
            "win_rate": round(wins / games, 3), "p_value": p_value(wins, games, 1 / players),
            "seconds_per_game": round(sum(s for _, s in results) / games, 2),
            "wall_seconds": round(time.perf_counter() - start, 1)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games_", nargs="*", metavar="GAME", default=AVIATION)
    ap.add_argument("--agent", default=DEFAULT_AGENT)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    for name in args.games_:
        r = strength(name, args.agent, args.games, args.players, args.jobs)
        print(f"{r['game']}: {r['agent']} vs random, {r['players']} players: {r['wins']} wins, {r['draws']} draws, "
              f"{r['losses']} losses, {r['unfinished']} unfinished of {r['games']} (win rate {r['win_rate']}, "
              f"p = {r['p_value']:.2g}), {r['seconds_per_game']} s a game, {r['wall_seconds']} s in all", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
