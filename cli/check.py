"""check: a rules file checked as its designer would, with one verdict.

First `validate` (cli/validate.py); then every allowed player count and option value (the starts
interpreter/play/sweep.py chooses: all of them, or a pairwise cover), and for each, seeded games played
by random and greedy agents with the rules' invariants checked after every move
(interpreter/play/invariants.py ``watched_playout``), and a few random games measured for coverage
(interpreter/play/coverage.py). The verdict: broken invariants (each with its shortest moves, replayable
with `rulewright play --check --moves`), games that never end (the step limit), stalls (a decision with
nothing to choose), other run-time errors, each with its players and options; what no game reached
(statements, table rows, what a variant adds: reported, not a failure, since random play may miss a
rare rule); the first seat's win rate with its 95 % interval beside a fair share.

Game i of each configuration and agent uses seed + i, so the verdict depends on the seed and the sizes
only, never on the number of workers.
"""
from __future__ import annotations

import contextlib
import functools
import os
import shlex
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable, Optional

from rulewright.cli.coverage import replay_command, shown_path
from rulewright.cli.simulate import wilson

GAMES = 6           # random games per configuration
GREEDY_GAMES = 1    # greedy games per configuration (a greedy move weighs every legal move: slower)
COVERAGE_GAMES = 2  # random games per configuration measured for coverage
MAX_DECISIONS = 20_000  # a game still running after this many decisions is played on by FINISH agents
# ... a greedy game after this share of them: a greedy decision weighs every legal move, some 60 random
# decisions' work in a long game, and greedy players that have not ended a game by then play on as slowly
GREEDY_SHARE = 4
FINISH = "rush"  # the agents that play on a game left unfinished (agents.py: toward the rules' end)
MOVES_SHOWN = 40    # a breach's moves printed in the verdict (all of them in --json and --out)
LINES_SHOWN = 20    # statement lines never run, printed per file

_games: dict = {}  # in a worker: the games compiled so far, by (rules, players, options)


# ----------------------------------------------------------------------------- the work
def _game(ref: str, players: int, options: tuple):
    import rulewright
    key = (ref, players, options)
    game = _games.get(key)
    if game is None:
        game = _games[key] = rulewright.load(ref, players=players, options=dict(options))
    return game


def _init_worker(bounds: dict) -> None:
    from rulewright.interpreter.engine import limits
    limits.set_limits(**bounds)  # the limits of the command line, in every worker


def own_decisions(agent: str, max_decisions: int) -> int:
    """The decisions ``agent`` makes in a game before the FINISH agents play it on."""
    return max(1, max_decisions // GREEDY_SHARE) if agent == "greedy" else max_decisions


def _playouts(ref: str, players: int, options: tuple, agent: str, seeds: list, max_decisions: int,
              finish: Optional[str]) -> list:
    from rulewright.interpreter.play.invariants import watched_playout
    game = _game(ref, players, options)
    return [watched_playout(game, s, own_decisions(agent, max_decisions), agent, finish, max_decisions)
            for s in seeds]


def _coverage(ref: str, players: int, options: tuple, seeds: list, max_decisions: int) -> dict:
    from rulewright.dsl.errors import RulesError
    from rulewright.interpreter.api import load_rules
    from rulewright.interpreter.play.coverage import measure
    try:
        return measure(load_rules(ref), players, dict(options), seeds, max_decisions).to_dict()
    except RulesError:  # the playouts of this configuration report it, with its seed
        return {}


class Task:
    """One piece of the run: a configuration's games by one agent, or its coverage games."""

    def __init__(self, players: int, options: dict, agent: Optional[str], seeds: list):
        self.players, self.options, self.agent, self.seeds = players, options, agent, seeds

    def args(self, ref: str, max_decisions: int, finish: Optional[str]) -> tuple:
        options = tuple(sorted(self.options.items(), key=lambda kv: kv[0]))
        if self.agent is None:
            return _coverage, (ref, self.players, options, self.seeds, max_decisions)
        return _playouts, (ref, self.players, options, self.agent, self.seeds, max_decisions, finish)


def plan(configurations: list, seed: int, games: int, greedy: int, coverage: int) -> list:
    """The tasks of a run: per configuration, its random games, its greedy games and its coverage games,
    in chunks of a few games (a smooth progress bar, work spread over the workers)."""
    tasks = []
    for players, options in configurations:
        for agent, n in (("random", games), ("greedy", greedy), (None, coverage)):
            seeds = [seed + i for i in range(n)]
            size = 2 if agent != "random" else 3
            tasks += [Task(players, options, agent, seeds[i:i + size]) for i in range(0, n, size)]
    return tasks


def run(tasks: list, ref: str, workers: int, max_decisions: int, advance: Callable[[int], None],
        live=None, finish: Optional[str] = FINISH) -> list:
    """Each task's result, in the tasks' order: in this process (one worker) or in a pool of processes."""
    from rulewright.interpreter.engine import limits
    live = live if live is not None else contextlib.nullcontext()
    if workers <= 1:
        results = []
        with live:
            for t in tasks:
                fn, args = t.args(ref, max_decisions, finish)
                results.append(fn(*args))
                advance(len(t.seeds))
        return results
    done: dict = {}
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(limits.current(),)) as pool:
        # the longest tasks first, so that none runs alone at the end of the run: the greedy games, then
        # the most players (a game's length grows with them)
        order = sorted(range(len(tasks)), key=lambda i: (tasks[i].agent != "greedy", -tasks[i].players))
        futures = {pool.submit(*_flat(tasks[i].args(ref, max_decisions, finish))): i for i in order}
        with live:
            for future in as_completed(futures):
                i = futures[future]
                done[i] = future.result()
                advance(len(tasks[i].seeds))
    return [done[i] for i in range(len(tasks))]


def run_on_ray(tasks: list, game_rules, ref: str, max_decisions: int, address: Optional[str],
               advance: Callable[[int], None], live=None, workers: int = 1, finish: Optional[str] = FINISH) -> list:
    """The playouts as Ray tasks (simulate's way: cli/simulate.py), the coverage games in this machine's
    processes."""
    from rulewright.interpreter.api import Game
    from rulewright.cli.simulate import run_games_on_ray
    from rulewright.interpreter.play.invariants import watched_playout
    results: list = [None] * len(tasks)
    groups: dict = {}
    for i, t in enumerate(tasks):
        if t.agent is not None:
            groups.setdefault((t.players, tuple(sorted(t.options.items())), t.agent), []).append(i)
    live = live if live is not None else contextlib.nullcontext()
    with live:
        for (players, options, agent), indexes in groups.items():
            game = Game(game_rules, players, dict(options))
            seeds = [s for i in indexes for s in tasks[i].seeds]
            play = functools.partial(watched_playout, agents=agent, finish=finish, finish_decisions=max_decisions)
            by_seed = {r["seed"]: r for r in run_games_on_ray(game, seeds, own_decisions(agent, max_decisions),
                                                              address, advance, play=play)}
            for i in indexes:
                results[i] = [by_seed[s] for s in tasks[i].seeds]
    rest = [i for i, t in enumerate(tasks) if t.agent is None]
    for i, r in zip(rest, run([tasks[i] for i in rest], ref, workers, max_decisions, advance)):
        results[i] = r
    return results


def _flat(fn_args: tuple) -> tuple:
    fn, args = fn_args
    return (fn, *args)


# ----------------------------------------------------------------------------- the verdict
def verdict(name: str, path: str, problems: list, tasks: list, results: list, seed: int, max_decisions: int,
            invariants: int, finish: Optional[str] = FINISH) -> dict:
    """The report of a run, as a dict (what --json prints): ``ok`` is false on any failure. A game its
    agents left unfinished and the ``finish`` agents ended is long, not endless, and not counted for the
    first seat."""
    broken: dict = {}   # invariant -> the breach with the fewest moves, and in how many games
    endless, long, stalled, errors = [], [], {}, {}
    played = finished = 0
    first_share = fair = 0.0
    coverage = []
    for task, result in zip(tasks, results):
        where = {"players": task.players, "options": task.options}
        if task.agent is None:
            if result:
                coverage.append(result)
            continue
        for r in result:
            played += 1
            game = {**where, "agent": task.agent, "seed": r["seed"]}
            if "breach" in r:
                b = r["breach"]
                known = broken.get(b["invariant"])
                if known is None or len(b["moves"]) < len(known["moves"]):
                    broken[b["invariant"]] = {**b, **game, "games": known["games"] if known else 0}
                broken[b["invariant"]]["games"] += 1
            elif "stalled" in r or "error" in r:
                bucket = stalled if "stalled" in r else errors
                text = r.get("stalled") or r["error"]
                bucket.setdefault(text, {"error": text, **game, "games": 0})["games"] += 1
            elif r["outcome"] is None:
                endless.append({**game, **_played(r)})
            elif "finished_by" in r:  # it ends, by agents that play toward the end: not a fair game of seats
                long.append({**game, **_played(r)})
            else:
                finished += 1
                fair += 1 / task.players
                outcome = r["outcome"]
                if not outcome["draw"] and 1 in outcome["winners"]:
                    first_share += 1 / len(outcome["winners"])
    report = {
        "game": name, "file": path, "seed": seed, "max_decisions": max_decisions,
        "greedy_decisions": own_decisions("greedy", max_decisions), "finish": finish,
        "validate": problems,
        "configurations": _configurations(tasks),
        "games": played, "invariants": invariants,
        "broken": list(broken.values()), "endless": endless, "long": long,
        "stalled": list(stalled.values()), "errors": list(errors.values()),
        "unreached": _unreached(coverage),
        "first_seat": {"finished": finished, "win_rate": round(first_share / finished, 4) if finished else 0.0,
                       "ci95": wilson(first_share, finished), "fair": round(fair / finished, 4) if finished else 0.0},
    }
    report["ok"] = not (problems or broken or endless or stalled or errors)
    return report


def _played(result: dict) -> dict:
    """How long a game went: its decisions, and those of the agents that played it on, if any."""
    return {k: result[k] for k in ("decisions", "finished_by", "played_on") if k in result}


def shorten(report: dict, ref: str) -> None:
    """Each broken invariant's moves made as short as they go (in this process: one breach an invariant)."""
    from rulewright.interpreter.play.invariants import shorter
    for i, b in enumerate(report["broken"]):
        report["broken"][i] = shorter(_game(ref, b["players"], tuple(sorted(b["options"].items()))), b)


def _configurations(tasks: list) -> list:
    seen: list = []
    for t in tasks:
        c = {"players": t.players, "options": t.options}
        if c not in seen:
            seen.append(c)
    return seen


def _unreached(reports: list) -> dict:
    """What no coverage game of any configuration reached: statements, table rows, a variant's additions."""
    if not reports:
        return {"statements": [], "rows": [], "added": []}
    missing: dict = {}  # file -> the lines no configuration's games ran
    for r in reports:
        for f in r["statements"]["files"]:
            lines = set(f["missing"])
            missing[f["file"]] = lines if f["file"] not in missing else missing[f["file"]] & lines
    statements = [{"file": file, "lines": sorted(lines)} for file, lines in missing.items() if lines]
    rows: dict = {}
    for r in reports:
        for t in r["rows"]:
            rows[t["table"]] = set(t["unused"]) if t["table"] not in rows else rows[t["table"]] & set(t["unused"])
    order = {t["table"]: t["unused"] for t in reports[0]["rows"]}
    unused = [{"table": name, "unused": [k for k in order.get(name, sorted(keys, key=str)) if k in keys]}
              for name, keys in rows.items() if keys]
    added: dict = {}
    for r in reports:
        for a in r["added"]:
            key = (a["kind"], a["of"], str(a["value"]))
            reached = not a["status"].startswith("never")
            added[key] = {**a, "reached": added.get(key, {}).get("reached", False) or reached}
    return {"statements": statements, "rows": unused,
            "added": [{k: a[k] for k in ("file", "line", "kind", "of", "value")} for a in added.values()
                      if not a["reached"]]}


# ----------------------------------------------------------------------------- printing
def breach_lines(b: dict, ref: str, players: int, options: dict, games: int, moves_file: str = "") -> list:
    """A broken invariant as the verdict prints it: where, why, in which game, and its moves."""
    opts = "".join(f", {k}={v}" for k, v in options.items())
    count = "1 game" if games == 1 else f"{games} games"
    lines = [f"  {shown_path(b['file'])}:{b['line']}: invariant \"{b['invariant']}\" broken in {count}: {b['why']}",
             f"    shortest: {len(b['moves'])} moves from seed {b['seed']}, {players} players{opts}"]
    replay = f"    replay: {replay_command(ref, players, options, b['seed'], auto='')} --check --moves"
    if moves_file:
        return lines + [f"{replay} {shlex.quote(moves_file)}"]
    lines.append(f"{replay} FILE, FILE holding:")
    shown = b["moves"][:MOVES_SHOWN]
    lines += [f"      {p}: {text}" for p, text in shown]
    if len(b["moves"]) > len(shown):
        lines.append(f"      ... {len(b['moves']) - len(shown)} more (--out DIR writes them all)")
    return lines


def format_verdict(report: dict, ref: str, moves_files: Optional[dict] = None) -> list:
    """The verdict on one screen."""
    moves_files = moves_files or {}
    configurations = report["configurations"]
    counts = sorted({c["players"] for c in configurations})
    lines = [f"Check of {report['game']} ({shown_path(report['file'])})",
             "validate: " + ("ok" if not report["validate"] else f"{len(report['validate'])} problem(s)")]
    lines += [f"  {line}" for p in report["validate"] for line in p.splitlines()]
    if not configurations:  # the rules do not load: validate said why
        return lines + ["no game played: the rules do not load", "verdict: FAILED"]
    lines.append(f"{len(configurations)} configuration(s) ({_count_range(counts)} players, every option value), "
                 f"{report['games']} games, seed {report['seed']}")

    def section(title: str, items: list, show) -> None:
        lines.append(f"{title}: " + ("none" if not items else f"{len(items)}"))
        for item in items:
            lines.extend(show(item))

    def where(x: dict) -> str:
        opts = "".join(f", {k}={v}" for k, v in x["options"].items())
        return f"{x['players']} players{opts}, {x['agent']} agents, seed {x['seed']}"

    if not report["invariants"]:
        lines.append("invariants: none declared")
    else:
        section(f"invariants broken (of {report['invariants']})", report["broken"],
                lambda b: breach_lines(b, ref, b["players"], b["options"], b["games"],
                                       moves_files.get(b["invariant"], "")))
    finisher = f", and {report['max_decisions']} more by {report['finish']} agents" if report["finish"] else ""
    section(f"endless games (still running after {_own_decisions(report, report['endless'])}{finisher})",
            report["endless"],
            lambda e: [f"  {where(e)}: {replay_command(ref, e['players'], e['options'], e['seed'], e['agent'])}"])
    if report["long"]:
        lines.append(f"long games (not a failure): {len(report['long'])} still running after "
                     f"{_own_decisions(report, report['long'])}, ended by {report['finish']} agents playing on")
        lines += [f"  {where(x)}: ended after {x['played_on']} more decisions" for x in report["long"][:LINES_SHOWN]]
        if len(report["long"]) > LINES_SHOWN:
            lines.append(f"  ... {len(report['long']) - LINES_SHOWN} more (--json lists them all)")
    section("stalls (a decision with nothing to choose)", report["stalled"],
            lambda s: [f"  {where(s)} ({s['games']} game(s)):", *[f"    {x}" for x in s["error"].splitlines()]])
    section("run-time errors", report["errors"],
            lambda s: [f"  {where(s)} ({s['games']} game(s)):", *[f"    {x}" for x in s["error"].splitlines()]])
    un = report["unreached"]
    lines.append("not reached in the coverage games (not a failure):" if any(un.values()) else
                 "not reached in the coverage games: nothing")
    for f in un["statements"]:
        shown = ", ".join(map(str, f["lines"][:LINES_SHOWN])) + (", ..." if len(f["lines"]) > LINES_SHOWN else "")
        lines.append(f"  {shown_path(f['file'])}: {len(f['lines'])} statement(s), lines {shown}")
    for t in un["rows"]:
        lines.append(f"  table {t['table']}: {', '.join(str(k) for k in t['unused'])}")
    for a in un["added"]:
        lines.append(f"  {shown_path(a['file'])}:{a['line']}: {a['kind']} {a['of']}: {a['value']} (added, never reached)")
    fs = report["first_seat"]
    if fs["finished"]:
        lo, hi = fs["ci95"]
        lines.append(f"first seat: wins {_pct(fs['win_rate'])} (95% CI {_pct(lo)}-{_pct(hi)}) of "
                     f"{fs['finished']} finished games; a fair share is {_pct(fs['fair'])}")
    lines.append("verdict: " + ("ok" if report["ok"] else "FAILED"))
    return lines


def _own_decisions(report: dict, games: list) -> str:
    """The decisions the agents of ``games`` make before the finish agents play them on, as the verdict
    says it: greedy agents' own budget named when one of the games is theirs."""
    greedy = report["greedy_decisions"]
    named = greedy != report["max_decisions"] and any(g["agent"] == "greedy" for g in games)
    return f"{report['max_decisions']} decisions" + (f" ({greedy} of greedy agents)" if named else "")


def _count_range(counts: list) -> str:
    return str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def write_moves(out_dir: str, report: dict) -> dict:
    """Each breach's moves in a file of DIR, as `play --moves` reads them: {invariant: path}."""
    from pathlib import Path
    from rulewright.interpreter.play.invariants import moves_script
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    written = {}
    for i, b in enumerate(report["broken"], start=1):
        path = folder / f"broken-{i}.moves"
        path.write_text(moves_script(b["moves"]), encoding="utf-8")
        written[b["invariant"]] = str(path)
    return written


def default_workers() -> int:
    return os.cpu_count() or 1
