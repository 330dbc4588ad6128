"""Agent strength: an agent against random seats, over many games, each seat taken in turn.

    python benchmarks/agents.py [GAME ...] [--agent SPEC] [--games N] [--players N]

For each game: the agent plays seat 1 in game 0, seat 2 in game 1, ..., the other seats random; prints
its wins, draws, losses, the win rate, and the one-sided binomial p-value of doing at least that well if
its chance of winning were a random seat's (1/players). Long runs: the suite's tests (tests/test_agents.py)
play a few games only.
"""
from __future__ import annotations

import argparse
import math
import time

import rulewright
from rulewright.interpreter.agents import RandomAgent, agents_for, playout

AVIATION = ["biplane", "planes", "barnstormers", "air-show", "magnificent-flying-machines"]


def p_value(wins: int, games: int, p: float) -> float:
    """P(X >= wins) for X ~ Binomial(games, p)."""
    return sum(math.comb(games, k) * p ** k * (1 - p) ** (games - k) for k in range(wins, games + 1))


def strength(name: str, spec: str, games: int, players: int, max_decisions: int = 50_000) -> dict:
    game = rulewright.load(name, players=players)
    wins = draws = unfinished = 0
    start = time.perf_counter()
    for i in range(games):
        seat = i % players + 1
        seats = [RandomAgent(1000 + i * players + s) for s in range(players)]
        seats[seat - 1] = agents_for(spec, 1, i)[0]
        state = game.new_state(seed=i)
        playout(state, seats, max_decisions)
        if not state.is_over():
            unfinished += 1
            continue
        outcome = state.outcome()
        if outcome.draw:
            draws += 1
        elif seat in outcome.winners:
            wins += 1
    seconds = time.perf_counter() - start
    return {"game": name, "agent": spec, "players": players, "games": games, "wins": wins, "draws": draws,
            "unfinished": unfinished, "losses": games - wins - draws - unfinished,
            "win_rate": round(wins / games, 3), "p_value": p_value(wins, games, 1 / players),
            "seconds_per_game": round(seconds / games, 2)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games_", nargs="*", metavar="GAME", default=AVIATION)
    ap.add_argument("--agent", default="mcts:iterations=16,depth=8")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--players", type=int, default=2)
    args = ap.parse_args(argv)
    for name in args.games_:
        r = strength(name, args.agent, args.games, args.players)
        print(f"{r['game']}: {r['agent']} vs random, {r['players']} players: {r['wins']} wins, {r['draws']} draws, "
              f"{r['losses']} losses, {r['unfinished']} unfinished of {r['games']} (win rate {r['win_rate']}, "
              f"p = {r['p_value']:.4f}), {r['seconds_per_game']} s a game", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
