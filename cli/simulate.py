"""simulate: random agents play many games in worker processes; game i uses seed+i for both the
game and its agent, so the summary depends on the seed only, never on the number of workers."""
from __future__ import annotations

import contextlib
import math
import statistics
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable, Optional

import rulewright
from rulewright.dsl.errors import OptionError, RulesError
from rulewright.cli.agents import RandomAgent, playout
from rulewright.interpreter.limits import current, set_limits

_game = None  # the game a worker process plays, compiled once per process


def _init_worker(ref: str, players: int, options: dict, bounds: dict) -> None:
    global _game
    set_limits(**bounds)  # the limits of the command line, in every worker
    _game = rulewright.load(ref, players=players, options=options)


def play_one(game, seed: int, max_decisions: int) -> dict:
    try:
        state = game.new_state(seed=seed)
        decisions = playout(state, RandomAgent(seed), max_decisions)
    except RulesError as exc:  # sent back as text: not every RulesError survives pickling
        return {"seed": seed, "error": str(exc)}
    outcome = state.outcome().to_dict() if state.is_over() else None
    return {"seed": seed, "decisions": decisions, "outcome": outcome}


def _run_chunk(seeds: list[int], max_decisions: int) -> list[dict]:
    return [play_one(_game, s, max_decisions) for s in seeds]


def run_games(game, ref: str, seeds: list[int], workers: int, max_decisions: int,
              advance: Optional[Callable[[int], None]] = None, live=None) -> list[dict]:
    """Every seed's result, in seed order. One worker plays in this process. ``live`` (a progress
    display) is entered only once the workers exist: forking while its thread runs is unsafe."""
    advance = advance or (lambda n: None)
    live = live if live is not None else contextlib.nullcontext()
    if workers <= 1:
        results = []
        with live:
            for s in seeds:
                results.append(play_one(game, s, max_decisions))
                advance(1)
        return results
    size = max(1, math.ceil(len(seeds) / (workers * 8)))  # small chunks: a smooth progress bar
    chunks = [seeds[i:i + size] for i in range(0, len(seeds), size)]
    by_seed = {}
    with ProcessPoolExecutor(workers, initializer=_init_worker,
                             initargs=(ref, game.player_count, dict(game.options), current())) as pool:
        futures = {pool.submit(_run_chunk, chunk, max_decisions): len(chunk) for chunk in chunks}
        with live:
            for future in as_completed(futures):
                for r in future.result():
                    by_seed[r["seed"]] = r
                advance(futures[future])
    return [by_seed[s] for s in seeds]


# --------------------------------------------------------------------------- Ray
# The same games as tasks on a Ray cluster: each task plays a chunk of seeds with play_one, so the
# results are the ones --workers gives. The rules travel as their checked tree (the file and any base
# it extends, merged), so a node needs rulewright installed but not the rules file.

RAY_MISSING = "simulate --ray needs Ray: pip install 'rulewright[ray]'"

_ray_games: dict = {}  # in a Ray worker process: the games compiled so far, by the driver's key


def _ray_chunk(key: str, rules, players: int, options: dict, bounds: dict, seeds: list[int],
               max_decisions: int) -> list[dict]:
    from rulewright.interpreter.api import Game
    set_limits(**bounds)
    game = _ray_games.get(key)
    if game is None:
        if len(_ray_games) >= 8:  # a long-lived worker that served many simulations
            _ray_games.clear()
        game = _ray_games[key] = Game(rules, players, options)
    return [play_one(game, s, max_decisions) for s in seeds]


def _check_reachable(address: Optional[str]) -> None:
    """A HOST:PORT address must answer at once: Ray itself would retry for minutes."""
    import socket
    if address is None or address == "auto":
        return
    host, sep, port = address.split("://", 1)[-1].rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise OptionError(f"--ray takes auto, HOST:PORT or ray://HOST:PORT, not {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except (OSError, ValueError, OverflowError) as exc:
        raise OptionError(f"cannot reach a Ray cluster at {address}: {exc.strerror or exc}") from None


def run_games_on_ray(game, seeds: list[int], max_decisions: int, address: Optional[str] = None,
                     advance: Optional[Callable[[int], None]] = None, live=None) -> list[dict]:
    """Every seed's result, in seed order, played as Ray tasks: on the cluster at ``address`` ('auto',
    'ray://head:10001', ...), or on a local one started for the run (and stopped after it) when None.
    A Ray already started in this process (ray.init) is used as it is."""
    try:
        import ray
    except ImportError:
        raise OptionError(RAY_MISSING) from None
    import hashlib
    import pickle
    advance = advance or (lambda n: None)
    live = live if live is not None else contextlib.nullcontext()
    started = not ray.is_initialized()
    if started:
        _check_reachable(address)
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False,
                     logging_level="ERROR", configure_logging=False)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            raise OptionError(f"cannot reach a Ray cluster at {address or 'a new local one'}: {exc}") from None
    try:
        key = hashlib.sha256(pickle.dumps((game.rules, game.player_count, game.options))).hexdigest()
        rules = ray.put(game.rules)
        task = ray.remote(_ray_chunk)
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        size = max(1, math.ceil(len(seeds) / (cpus * 8)))
        chunks = [seeds[i:i + size] for i in range(0, len(seeds), size)]
        pending = {task.remote(key, rules, game.player_count, dict(game.options), current(), chunk,
                               max_decisions): len(chunk) for chunk in chunks}
        by_seed = {}
        with live:
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    for r in ray.get(ref):
                        by_seed[r["seed"]] = r
                    advance(pending.pop(ref))
        return [by_seed[s] for s in seeds]
    finally:
        if started:
            ray.shutdown()


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
