"""simulate: random agents play many games in worker processes; game i uses seed+i for both the
game and its agent, so the summary depends on the seed only, never on the number of workers."""
from __future__ import annotations

import contextlib
import math
import statistics
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable, Optional

import rulewright
from rulewright.dsl.errors import RulesError
from rulewright.cli.agents import agents_for, playout
from rulewright.interpreter.limits import current, set_limits

_game = None  # the game a worker process plays, compiled once per process


def _init_worker(ref: str, players: int, options: dict, bounds: dict) -> None:
    global _game
    set_limits(**bounds)  # the limits of the command line, in every worker
    _game = rulewright.load(ref, players=players, options=options)


def play_one(game, seed: int, max_decisions: int, agents: str = "random") -> dict:
    try:
        state = game.new_state(seed=seed)
        decisions = playout(state, agents_for(agents, game.player_count, seed), max_decisions)
    except RulesError as exc:  # sent back as text: not every RulesError survives pickling
        return {"seed": seed, "error": str(exc)}
    outcome = state.outcome().to_dict() if state.is_over() else None
    return {"seed": seed, "decisions": decisions, "outcome": outcome}


def _run_chunk(seeds: list[int], max_decisions: int, play=play_one) -> list[dict]:
    return [play(_game, s, max_decisions) for s in seeds]


def run_games(game, ref: str, seeds: list[int], workers: int, max_decisions: int,
              advance: Optional[Callable[[int], None]] = None, live=None, play=play_one) -> list[dict]:
    """Every seed's result, in seed order. One worker plays in this process. ``live`` (a progress
    display) is entered only once the workers exist: forking while its thread runs is unsafe.
    ``play(game, seed, max_decisions)`` plays one game (a picklable function: report.play_recorded)."""
    advance = advance or (lambda n: None)
    live = live if live is not None else contextlib.nullcontext()
    if workers <= 1:
        results = []
        with live:
            for s in seeds:
                results.append(play(game, s, max_decisions))
                advance(1)
        return results
    size = max(1, math.ceil(len(seeds) / (workers * 8)))  # small chunks: a smooth progress bar
    chunks = [seeds[i:i + size] for i in range(0, len(seeds), size)]
    by_seed = {}
    with ProcessPoolExecutor(workers, initializer=_init_worker,
                             initargs=(ref, game.player_count, dict(game.options), current())) as pool:
        futures = {pool.submit(_run_chunk, chunk, max_decisions, play): len(chunk) for chunk in chunks}
        with live:
            for future in as_completed(futures):
                for r in future.result():
                    by_seed[r["seed"]] = r
                advance(futures[future])
    return [by_seed[s] for s in seeds]


def _spread(values: list) -> Optional[dict]:
    if not values:
        return None
    return {"mean": round(statistics.fmean(values), 3), "min": min(values), "max": max(values)}


def summarize(game, results: list[dict], seed: int) -> dict:
    players = list(range(1, game.player_count + 1))
    finished = [r for r in results if r.get("outcome") is not None]
    wins = {p: 0 for p in players}
    draws = 0
    for r in finished:
        if r["outcome"]["draw"]:
            draws += 1
        else:
            for p in r["outcome"]["winners"]:
                wins[p] += 1
    scores = {p: [r["outcome"]["scores"][str(p)] for r in finished if str(p) in r["outcome"]["scores"]]
              for p in players}
    n = len(results)
    return {
        "game": game.name, "players": game.player_count, "options": dict(game.options),
        "games": n, "seed": seed, "finished": len(finished), "unfinished": n - len(finished),
        "draws": draws,
        "wins": {str(p): wins[p] for p in players},
        "win_rate": {str(p): round(wins[p] / n, 4) if n else 0.0 for p in players},
        "length": _spread([r["decisions"] for r in results if "decisions" in r]),
        "scores": {str(p): _spread(v) for p, v in scores.items() if v},
    }


def format_summary(s: dict) -> list[str]:
    opts = "".join(f", {k}={v}" for k, v in s["options"].items())
    lines = [f"{s['game']}: {s['games']} games, {s['players']} players{opts}, seed {s['seed']}",
             f"finished {s['finished']}, unfinished {s['unfinished']}, draws {s['draws']}"
             f" ({100 * s['draws'] / s['games']:.1f}%)" if s["games"] else "no games"]
    if s["length"]:
        L = s["length"]
        lines.append(f"length (decisions): mean {L['mean']}, min {L['min']}, max {L['max']}")
    lines.append("seat  wins  win rate" + ("  score mean   min   max" if s["scores"] else ""))
    for p, w in s["wins"].items():
        row = f"{p:>4}  {w:>4}  {100 * s['win_rate'][p]:>7.1f}%"
        sc = s["scores"].get(p)
        if sc:
            row += f"  {sc['mean']:>10}  {sc['min']:>4}  {sc['max']:>4}"
        lines.append(row)
    return lines
