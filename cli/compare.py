"""compare: play two rules files (a game and its variant, or one game with other options) with the same
agents and the same seeds, and report their balance side by side (interpreter/play/balance.py makes
the figures, report.py shows them)."""
from __future__ import annotations

import os
from typing import List, Optional

import typer

from rulewright.cli.errors import REFUSED, user_errors
from rulewright.cli.options import parse_options
from rulewright.cli.output import err, json_line, stderr_console, stdout_console


@user_errors
def compare(
    variant_a: str = typer.Argument(..., metavar="VARIANT_A", help="Shipped game name or rules file."),
    variant_b: str = typer.Argument(..., metavar="VARIANT_B", help="Shipped game name or rules file."),
    games: int = typer.Option(..., "--games", "-n", min=1, help="How many games each variant plays."),
    agents: str = typer.Option("random", "--agents", "-a", metavar="AGENT[,AGENT...]",
                               help="The agent of every seat, or one per seat in seat order, e.g. "
                                    "'mcts:iterations=50,random' (see docs/agents.md)."),
    players: Optional[int] = typer.Option(None, "--players", "-p", min=1,
                                          help="Number of players (default: the fewest VARIANT_A allows)."),
    option: Optional[List[str]] = typer.Option(None, "--option", "-o", metavar="NAME=VALUE",
                                               help="Set an option of both variants; repeatable."),
    option_a: Optional[List[str]] = typer.Option(None, "--option-a", metavar="NAME=VALUE",
                                                 help="Set an option of VARIANT_A only; repeatable."),
    option_b: Optional[List[str]] = typer.Option(None, "--option-b", metavar="NAME=VALUE",
                                                 help="Set an option of VARIANT_B only; repeatable."),
    seed: Optional[int] = typer.Option(None, "--seed", "-s",
                                       help="Game i of each variant uses seed+i (default: a random seed, reported)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1, help="Worker processes (default: one per CPU)."),
    max_decisions: int = typer.Option(100_000, "--max-decisions", min=1,
                                      help="Stop a game after this many decisions (counted as unfinished)."),
    report_dir: Optional[str] = typer.Option(None, "--report", metavar="DIR",
                                             help="Write report.json, fires.csv and plots (PNG and SVG) here."),
    top: int = typer.Option(15, "--top", min=1, help="Rows of each 'fires' table (the largest changes first)."),
    as_json: bool = typer.Option(False, "--json", help="Print the two reports and their differences as JSON."),
):
    """Play two variants with the same agents and seeds; report their balance side by side.

    Win rate per seat and of the first player (95% Wilson intervals, with the p-value of the change),
    draws, game length, scores, and how often each rule fires and each table key (a row of a table) is
    named. Both variants are played by the same number of players."""
    import rulewright  # the engine loads only when a command plays (start-up stays short)
    from rulewright.cli import report
    from rulewright.cli.session import rules_ref
    from rulewright.interpreter.play import balance
    from rulewright.interpreter.api import fresh_seed
    shared = parse_options(option)
    games_ = []
    for name, own in ((variant_a, option_a), (variant_b, option_b)):
        count = players if players is not None else (games_[0].player_count if games_ else None)
        games_.append(rulewright.load(name, players=count, options={**shared, **parse_options(own)}))
    try:
        balance.check_agents(agents, games_[0].player_count)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--agents'") from None
    seed = fresh_seed() if seed is None else seed
    seeds = [seed + i for i in range(games)]
    workers = min(workers or os.cpu_count() or 1, games)
    reports = []
    for name, game in zip((variant_a, variant_b), games_):
        results = _run(game, rules_ref(name), seeds, workers, max_decisions, agents, quiet=as_json)
        failed = [r for r in results if "error" in r]
        if failed:
            err(f"{name}: error in the game with seed {failed[0]['seed']}: {failed[0]['error']}")
            raise typer.Exit(REFUSED)
        reports.append(balance.analyze(game, results, seed, agents))
    written = report.write_report(report_dir, reports, top) if report_dir else []
    if as_json:
        json_line({"reports": [{k: v for k, v in r.items() if k != "samples"} for r in reports],
                   "differences": balance.differences(*reports), "files": written})
        return
    console = stdout_console()
    for table in report.tables(reports, top):
        console.print(table)
    if written:
        console.print(f"wrote {', '.join(written)} to {report_dir}")


def _run(game, ref: str, seeds: list[int], workers: int, max_decisions: int, agents: str, quiet: bool):
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rulewright.cli import report
    console = stderr_console()
    progress = Progress(TextColumn(game.name), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=console, disable=quiet or not console.is_terminal, transient=True)
    task = progress.add_task("games", total=len(seeds))
    return report.run_recorded(game, ref, seeds, workers, max_decisions, agents,
                               lambda n: progress.advance(task, n), live=progress)
