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
from rulewright.cli.agents import agents_for, playout
from rulewright.interpreter.engine import limits

_game = None  # the game a worker process plays, compiled once per process


def _init_worker(ref: str, players: int, options: dict, bounds: dict) -> None:
    global _game
    limits.set_limits(**bounds)  # the limits of the command line, in every worker
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
                             initargs=(ref, game.player_count, dict(game.options), limits.current())) as pool:
        futures = {pool.submit(_run_chunk, chunk, max_decisions, play): len(chunk) for chunk in chunks}
        with live:
            for future in as_completed(futures):
                for r in future.result():
                    by_seed[r["seed"]] = r
                advance(futures[future])
    return [by_seed[s] for s in seeds]


# --------------------------------------------------------------------------- Ray
# The same games as tasks on a Ray cluster: each task plays a chunk of seeds with play_one (or run_games's other ``play``), so the
# results are the ones --workers gives. The rules travel as their checked tree (the file and any base
# it extends, merged), so a node needs rulewright installed but not the rules file.

RAY_MISSING = "simulate --ray needs Ray: pip install 'rulewright[ray]'"

_ray_games: dict = {}  # in a Ray worker process: the games compiled so far, by the driver's key


def _ray_chunk(key: str, rules, players: int, options: dict, bounds: dict, seeds: list[int],
               max_decisions: int, play=play_one) -> list[dict]:
    from rulewright.interpreter.api import Game
    limits.set_limits(**bounds)
    game = _ray_games.get(key)
    if game is None:
        if len(_ray_games) >= 8:  # a long-lived worker that served many simulations
            _ray_games.clear()
        game = _ray_games[key] = Game(rules, players, options)
    return [play(game, s, max_decisions) for s in seeds]


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
                     advance: Optional[Callable[[int], None]] = None, live=None, play=play_one) -> list[dict]:
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
        pending = {task.remote(key, rules, game.player_count, dict(game.options), limits.current(), chunk,
                               max_decisions, play): len(chunk) for chunk in chunks}
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


# ----------------------------------------------------------------------------- statistics and output
Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval


def _spread(values: list) -> Optional[dict]:
    """Mean (with its 95 % confidence interval), min and max of a sample."""
    if not values:
        return None
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return {"mean": round(mean, 2), "ci95": [round(mean - half, 2), round(mean + half, 2)],
            "min": min(values), "max": max(values)}


def wilson(successes: float, n: int) -> list:
    """The Wilson score interval (95 %) of a proportion: sound near 0 and 1, unlike mean +- 2 sd."""
    if n == 0:
        return [0.0, 0.0]
    p = successes / n
    centre = (p + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / (1 + Z95 ** 2 / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def summarize(game, results: list[dict], seed: int) -> dict:
    """Wins are counted honestly: a game several players win together (not a draw, which everyone
    shares) is a shared win; each of its k winners gets 1/k of it, so the win rates and the draw
    rate add up to the finished games' share."""
    players = list(range(1, game.player_count + 1))
    finished = [r for r in results if r.get("outcome") is not None]
    wins = {p: 0 for p in players}          # games won, alone or shared
    shared = {p: 0 for p in players}        # of which shared with others
    share = {p: 0.0 for p in players}       # each win divided among its winners
    draws = 0
    for r in finished:
        if r["outcome"]["draw"]:
            draws += 1
            continue
        winners = r["outcome"]["winners"]
        for p in winners:
            wins[p] += 1
            share[p] += 1 / len(winners)
            if len(winners) > 1:
                shared[p] += 1
    scores = {p: [r["outcome"]["scores"][str(p)] for r in finished if str(p) in r["outcome"]["scores"]]
              for p in players}
    n = len(results)
    return {
        "game": game.name, "players": game.player_count, "options": dict(game.options),
        "games": n, "seed": seed, "finished": len(finished), "unfinished": n - len(finished),
        "draws": draws, "draw_rate": round(draws / n, 4) if n else 0.0,
        "wins": {str(p): wins[p] for p in players},
        "shared_wins": {str(p): shared[p] for p in players},
        "win_rate": {str(p): round(share[p] / n, 4) if n else 0.0 for p in players},
        "win_rate_ci95": {str(p): wilson(share[p], n) for p in players},
        "length": _spread([r["decisions"] for r in results if "decisions" in r]),
        "scores": {str(p): _spread(v) for p, v in scores.items() if v},
    }


def _percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def format_summary(s: dict) -> list[str]:
    """The summary as text lines: a heading, then a table per seat (rich, plain characters)."""
    from io import StringIO
    from rich import box
    from rich.console import Console
    from rich.table import Table
    opts = "".join(f", {k}={v}" for k, v in s["options"].items())
    n = s["games"]
    lines = [f"{s['game']}: {n} games, {s['players']} players{opts}, seed {s['seed']}",
             f"finished {s['finished']}, unfinished {s['unfinished']}, draws {s['draws']} ({_percent(s['draw_rate'])})"]
    if s["length"]:
        L = s["length"]
        lines.append(f"length (decisions): mean {L['mean']:.1f} (95% CI {L['ci95'][0]:.1f}-{L['ci95'][1]:.1f}), "
                     f"min {L['min']}, max {L['max']}")
    any_shared = any(s["shared_wins"].values())
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for heading in ["seat", "wins"] + (["shared"] if any_shared else []) + ["win rate", "95% CI"]:
        table.add_column(heading, justify="right")
    if s["scores"]:
        for heading in ("score mean", "95% CI", "min", "max"):
            table.add_column(heading, justify="right")
    for p, w in s["wins"].items():
        lo, hi = s["win_rate_ci95"][p]
        row = [p, str(w)] + ([str(s["shared_wins"][p])] if any_shared else [])
        row += [_percent(s["win_rate"][p]), f"{_percent(lo)}-{_percent(hi)}"]
        if s["scores"]:
            sc = s["scores"].get(p)
            row += ([f"{sc['mean']:.2f}", f"{sc['ci95'][0]:.2f}-{sc['ci95'][1]:.2f}", str(sc["min"]), str(sc["max"])]
                    if sc else ["", "", "", ""])
        table.add_row(*row)
    buffer = StringIO()
    Console(file=buffer, width=200, color_system=None, highlight=False).print(table)
    lines += [line.rstrip() for line in buffer.getvalue().splitlines()]
    if any_shared:
        lines.append("a shared win counts in 'wins' for each of its winners; the win rate gives each 1/k of it, "
                     "so the win rates and the draw rate add up to the finished games")
    return lines
