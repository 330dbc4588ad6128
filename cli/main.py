"""The `rulewright` command line. Every command is generic: it knows rules files, never a game.

Start-up matters (`--help` in well under a second): only typer and the error handling load here; each
command imports the engine when it runs."""
from __future__ import annotations

import functools
import gc
import os
import sys
from collections import deque
from typing import List, Optional

import typer

from rulewright.cli import compare, manual
from rulewright.cli.errors import OK, REFUSED, describe, read_json, user_errors, write_json
from rulewright.cli.hints import DEFAULT_HINT
from rulewright.cli.options import AGENTS, JSON, OPTION, PLAYERS, SEED, Opening, opens_a_game, parse_options
from rulewright.cli.output import err, json_line, out
from rulewright.interpreter.engine import limits

HELP = """Play, check and measure games written in the rulewright rules language.

GAME is the name of a shipped game (see `rulewright list`) or the path of a .rules file.

Exit codes: 0 ok; 1 an error in the rules, a refused move, a bad option or player count, an
unreadable or corrupt file; 2 a usage error on the command line; 130 interrupted (Ctrl-C)."""


def _plain_arguments() -> None:
    """Typer prints an argument as '{GAME}' in the usage line and 'GAME <str>' in the help: the metavar
    alone says it (the type label of PATH... would read '<list[str]>')."""
    from typer.core import TyperArgument
    TyperArgument.display_type_rich = lambda self, ctx: None
    TyperArgument._usage_display_name = lambda self: (
        self.display_name_raw if self.required else f"[{self.display_name_raw}]")


_plain_arguments()
app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False,
                  pretty_exceptions_enable=False, rich_markup_mode=None,
                  context_settings={"help_option_names": ["-h", "--help"]})

def _seed_line(session) -> str:
    seed = session.state.seed
    told = "no seed (a save made before games kept one)" if seed is None else f"seed {seed} (--seed {seed} plays it again)"
    return f"{session.game.name}, {session.game.player_count} players, {told}"


@app.command()
@user_errors
def validate(paths: List[str] = typer.Argument(..., metavar="PATH...", help="Rules files or shipped game names.")):
    """Parse and check rules files, and compile them for their player counts and options."""
    from rulewright.cli.validate import validate as check_one, warnings
    # parsing and generating every variant make some million objects, few of them garbage: collect
    # less often (a tenth of validate's time went to collections at Python's default of 700)
    gc.set_threshold(20_000, 20, 100)
    failed = False
    for path in paths:
        problems = check_one(path)
        for w in warnings(path):  # shown, but a file with only warnings is valid
            out(w)
        if problems:
            failed = True
            for p in problems:
                out(p)
        else:
            out(f"ok: {path}")
    raise typer.Exit(REFUSED if failed else OK)


@app.command()
@user_errors
@opens_a_game
def play(
    opening: Opening,
    auto: Optional[str] = typer.Option(None, "--auto", "-a", metavar="AGENT",
                                       help="Let agents play every seat not played at the prompt: one agent "
                                            "for every seat or one per seat, e.g. 'mcts:iterations=400,random' "
                                            "(random, first, greedy, mcts, ismcts; see docs/agents.md)."),
    human: Optional[List[int]] = typer.Option(None, "--human", metavar="P",
                                              help="Play seat P at the prompt even with --auto or --moves; repeatable."),
    as_json: bool = typer.Option(False, "--json", help="One JSON object per event, then the outcome."),
    with_legal: bool = typer.Option(False, "--legal", help="With --json: after each move, its last event "
                                                          "carries to_move and the legal moves the viewer may see."),
    as_player: Optional[int] = typer.Option(None, "--as", metavar="PLAYER",
                                            help="Show only what this player may see: the events, the board, "
                                                 "the prompt (other seats need --auto or --moves)."),
    save: Optional[str] = typer.Option(None, "--save", metavar="FILE",
                                       help="Write the final state here (also when play stops early, a "
                                            "move is refused or the rules fail: then it is the state before "
                                            "that move)."),
    log: Optional[str] = typer.Option(None, "--log", metavar="FILE", help="Write a log that `replay` can check."),
    hint_agent: str = typer.Option(DEFAULT_HINT, "--hint-agent", metavar="SPEC",
                                   help="The agent that answers :hint at the prompt (ismcts or greedy, "
                                        "with parameters: they search the game as the player sees it)."),
    check: bool = typer.Option(False, "--check", help="Check the rules' invariants at the start and after every "
                                                      "move; the first broken one stops play (exit 1)."),
):
    """Play a game: at a prompt, from a move script, or by agents.

    Without --moves or --auto every seat is played at the prompt (end of input stops, exit 0).
    A refused script move prints the legal ones and exits 1; the state stays as before it."""
    from rulewright.dsl.errors import RulesRuntimeError
    from rulewright.cli import logs
    from rulewright.cli.agents import check_spec, seated
    from rulewright.cli.hints import check_hint_spec
    from rulewright.cli.play import SPECTATOR, Reporter, Result, Seats, drive, finish
    from rulewright.cli.script import read_script
    from rulewright.interpreter.play.invariants import Watch
    moves = opening.moves
    if auto:
        check_spec(auto, "--auto")  # a usage error before any file is read
    check_spec(hint_agent, "--hint-agent", check_hint_spec)
    if with_legal and not as_json:
        raise typer.BadParameter("goes with --json", param_hint="'--legal'")
    script = read_script(moves) if moves else []
    session = opening.session()
    # Seeded with the session's seed (chosen at random if --seed is absent), the one the log records.
    agent = seated(auto, session.game.player_count, session.seed, "--auto") if auto else None
    seats_all = frozenset(range(1, session.game.player_count + 1))
    bad = [p for p in human or [] if p not in seats_all]
    if bad:
        raise typer.BadParameter(f"no seat {bad[0]} in a {len(seats_all)}-player game", param_hint="'--human'")
    if as_player is not None and as_player not in seats_all:
        raise typer.BadParameter(f"no player {as_player} in a {len(seats_all)}-player game", param_hint="'--as'")
    if as_player is not None and any(p != as_player for p in human or []):
        raise typer.BadParameter("with --as P only seat P may be played at the prompt", param_hint="'--human'")
    if as_player is not None:
        humans = frozenset([as_player]) if not moves and not auto or human else frozenset()
    else:
        humans = frozenset(human) if human else (seats_all if not moves and not auto else frozenset())
    seats = Seats(deque(script), agent, (seats_all - humans) if agent else frozenset(), humans,
                  hint_agent=hint_agent)
    # --as P sees P's stream; one person at the prompt theirs; several at one screen the table's;
    # scripts and agents alone the referee's.
    if as_player is not None:
        viewer = as_player
    elif humans:
        viewer = next(iter(humans)) if len(humans) == 1 else SPECTATOR
    else:
        viewer = None
    reporter = Reporter(as_json, viewer=viewer, with_legal=with_legal, seed=session.state.seed)
    reporter.header()
    if not as_json:
        err(_seed_line(session))
    state = session.state
    try:
        result = drive(state, seats, reporter, Watch(session.game.compiled) if check else None)
    except KeyboardInterrupt:
        result = Result("interrupted", "interrupted (Ctrl-C)")
    except RulesRuntimeError as exc:  # the move was undone: the state is the one before it, and is saved
        result = Result("failed", describe(exc))
    reporter.flush(state, force=True)
    # Save and log before reporting, so a refused move still leaves a resumable game behind.
    if save:
        write_json(save, state.to_json())
    if log:
        write_json(log, logs.make_log(session, reporter.moves))
    finish(state, result, as_json, viewer)
    if result.status == "interrupted":
        raise typer.Exit(130)
    raise typer.Exit(REFUSED if result.status in ("refused", "failed", "broken") else OK)


@app.command()
@user_errors
@opens_a_game
def show(
    opening: Opening,
    as_player: Optional[int] = typer.Option(None, "--as", metavar="PLAYER",
                                            help="Show only what this player may see."),
    referee: bool = typer.Option(False, "--referee",
                                 help="Show everything, every secret included (without it and --as: only "
                                      "what everyone may see)."),
    with_vars: bool = typer.Option(False, "--vars", help="Also list every variable (the rules' own names)."),
    as_json: bool = JSON,
    svg: Optional[str] = typer.Option(None, "--svg", metavar="FILE", help="Also draw the table as a picture (SVG)."),
    png: Optional[str] = typer.Option(None, "--png", metavar="FILE",
                                      help="Also draw it as a PNG (needs rsvg-convert or chromium)."),
):
    """Show the table (board, players, zones) as text, or (with --json) the player's view."""
    from rulewright.cli.play import SPECTATOR, Reporter, Seats, drive
    from rulewright.cli.script import read_script
    session = opening.session()
    err(_seed_line(session))
    state = session.state
    if as_player is not None and not 1 <= as_player <= session.game.player_count:
        raise typer.BadParameter(f"no player {as_player} in a {session.game.player_count}-player game",
                                 param_hint="'--as'")
    if referee and as_player is not None:
        raise typer.BadParameter("--as shows one player's view, --referee everything: give one of them",
                                 param_hint="'--referee'")
    # who looks: a player, the referee on request, else the table (what every player may see)
    viewer = None if referee else (as_player if as_player is not None else SPECTATOR)
    if opening.moves:
        result = drive(state, Seats(deque(read_script(opening.moves))), Reporter(as_json=False, quiet=True))
        if result.status == "refused":
            err(result.message)
            raise typer.Exit(REFUSED)
    if svg or png:
        from rulewright.cli import pictures
        from rulewright.interpreter.present.svg import render_svg
        picture = render_svg(state, viewer)
        if svg:
            pictures.write_svg(svg, picture)
        if png:
            pictures.write_png(png, picture)
    if as_json:
        json_line(state.view(viewer))
    else:
        from rulewright.cli.screen import print_screen
        print_screen(sys.stdout, state, viewer, with_vars=with_vars)


@app.command()
@user_errors
def simulate(
    game: str = typer.Argument(..., metavar="GAME", help="Shipped game name or rules file."),
    games: int = typer.Option(..., "--games", "-n", min=1, help="How many games to play."),
    players: Optional[int] = PLAYERS,
    option: Optional[List[str]] = OPTION,
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Game i uses seed+i (default: a random seed, reported)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1, help="Worker processes (default: one per CPU)."),
    max_decisions: int = typer.Option(100_000, "--max-decisions", min=1,
                                      help="Stop a game after this many decisions (counted as unfinished)."),
    agents: str = AGENTS,
    as_json: bool = JSON,
    report_dir: Optional[str] = typer.Option(None, "--report", metavar="DIR",
                                             help="Also write a balance report (JSON, CSV, PNG and SVG plots) here."),
    ray: Optional[str] = typer.Option(None, "--ray", metavar="[ADDRESS]",
                                      help="Play the games as Ray tasks: on the cluster at ADDRESS "
                                           "(auto, HOST:6379, ray://HOST:10001), or on a new local one "
                                           "when none is given."),
    check: bool = typer.Option(False, "--check", help="Check the rules' invariants after every move: a broken "
                                                      "one is reported with its shortest moves (exit 1)."),
):
    """Agents (random ones unless --agents says) play many games in parallel: win rate per seat, game
    length, scores, draws."""
    import rulewright
    from rulewright.interpreter.api import fresh_seed
    from rulewright.cli.agents import check_spec, seated
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rulewright.cli.output import stderr_console
    from rulewright.cli.simulate import format_summary, play_one, run_games, summarize
    from rulewright.cli.report import write_report
    from rulewright.interpreter.play.balance import analyze, play_recorded
    from rulewright.interpreter.play.invariants import watched_playout
    from rulewright.cli.session import rules_ref
    check_spec(agents, "--agents")
    g = rulewright.load(game, players=players, options=parse_options(option))
    seated(agents, g.player_count, 0)  # one agent per seat, or one for all
    seed = fresh_seed() if seed is None else seed
    workers = min(workers or os.cpu_count() or 1, games)
    seeds = [seed + i for i in range(games)]
    console = stderr_console()
    progress = Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=console, disable=as_json or not console.is_terminal, transient=True)
    task = progress.add_task("games", total=games)
    # --report: their events tallied
    if check and report_dir:
        raise typer.BadParameter("--check plays the games watched, --report recorded: give one of them",
                                 param_hint="'--check'")
    play = (functools.partial(play_recorded, agents=None if agents == "random" else agents) if report_dir
            else functools.partial(watched_playout, agents=agents) if check
            else functools.partial(play_one, agents=agents))
    if ray is not None:  # the same seeds, the same results, on Ray
        from rulewright.cli.simulate import run_games_on_ray
        results = run_games_on_ray(g, seeds, max_decisions, ray_address(ray),
                                   lambda n: progress.advance(task, n), live=progress, play=play)
    else:
        results = run_games(g, rules_ref(game), seeds, workers, max_decisions,
                            lambda n: progress.advance(task, n), live=progress, play=play)
    failed = [r for r in results if "error" in r or "stalled" in r]
    if failed:
        err(f"error in the game with seed {failed[0]['seed']}: {failed[0].get('error') or failed[0]['stalled']}")
        raise typer.Exit(REFUSED)
    broken = [r["breach"] for r in results if "breach" in r]
    if broken:
        from rulewright.cli.check import breach_lines
        from rulewright.interpreter.play.invariants import shorter
        first = shorter(g, min(broken, key=lambda b: len(b["moves"])))
        for line in breach_lines(first, rules_ref(game), g.player_count, parse_options(option), len(broken)):
            err(line)
        raise typer.Exit(REFUSED)
    summary = summarize(g, results, seed)
    if report_dir:
        written = write_report(report_dir, [analyze(g, results, seed, None if agents == "random" else agents)])
        err(f"wrote {', '.join(written)} to {report_dir}")
    if as_json:
        json_line(summary)
    else:
        for line in format_summary(summary):
            out(line)


@app.command()
@user_errors
def coverage(
    game: str = typer.Argument(..., metavar="GAME", help="Shipped game name or rules file."),
    games: int = typer.Option(20, "--games", "-n", min=1, max=1_000_000, help="How many random games to play."),
    players: Optional[int] = PLAYERS,
    option: Optional[List[str]] = OPTION,
    seed: int = typer.Option(1, "--seed", "-s", help="Game i uses seed+i, its random agents too (default 1)."),
    max_moves: int = typer.Option(100_000, "--max-moves", min=1, help="Stop a game after this many moves."),
    as_json: bool = JSON,
):
    """Random games, and what they never did: statements never run, table rows never used, and moves that
    changed nothing but the log (a change lost on a copy, or a pass the rules do not call one)."""
    from rulewright.interpreter.api import load_rules
    from rulewright.interpreter.play.coverage import measure
    from rulewright.cli.coverage import format_report
    given = parse_options(option)
    report = measure(load_rules(game), players, given, range(seed, seed + games), max_moves)
    if as_json:
        json_line(report.to_dict())
    else:
        for line in format_report(report, game, given):
            out(line)


@app.command()
@user_errors
def check(
    game: str = typer.Argument(..., metavar="GAME", help="Shipped game name or rules file."),
    games: int = typer.Option(6, "--games", "-n", min=0, max=100_000,
                              help="Random games per configuration (player count and options)."),
    greedy: int = typer.Option(1, "--greedy", min=0, max=100_000, help="Greedy games per configuration."),
    coverage_games: int = typer.Option(2, "--coverage", min=0, max=100_000,
                                       help="Random games per configuration measured for what they never reach."),
    seed: int = typer.Option(1, "--seed", "-s", help="Game i of each configuration uses seed+i (default 1)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1, help="Worker processes (default: one per CPU)."),
    max_decisions: int = typer.Option(20_000, "--max-decisions", min=1,
                                      help="A game still running after this many decisions is played on by the "
                                           "--finish agents for as many more; still running then, it never ends "
                                           "(a failure)."),
    finish: str = typer.Option("rush", "--finish", metavar="AGENTS",
                               help="Agents that play on a game left unfinished (default rush: toward the rules' "
                                    "end); 'none': none, the game never ends."),
    out_dir: Optional[str] = typer.Option(None, "--out", metavar="DIR",
                                          help="Write each broken invariant's moves here, as play --moves reads them."),
    as_json: bool = JSON,
    ray: Optional[str] = typer.Option(None, "--ray", metavar="[ADDRESS]",
                                      help="Play the games as Ray tasks, as simulate --ray does."),
):
    """Check a game as its designer would: validate, then every player count and option value, seeded
    games by random and greedy agents with the invariants checked after every move: broken invariants
    (with the moves that break them), endless games, stalls, run-time errors, what no game reached, the
    first seat's win rate. Exit 1 on any failure."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rulewright.cli import check as checking
    from rulewright.cli.output import stderr_console
    from rulewright.cli.session import rules_ref
    from rulewright.cli.validate import validate as validate_one
    from rulewright.dsl.errors import RulesError
    from rulewright.interpreter.api import find_rules, game_name, load_rules
    from rulewright.interpreter.language import symbols
    from rulewright.interpreter.play.sweep import starts
    from rulewright.cli.agents import check_spec
    finisher = None if finish == "none" else finish
    if finisher is not None:
        check_spec(finisher, "--finish")  # a usage error before any file is read
    gc.set_threshold(20_000, 20, 100)  # as validate: few of the objects parsing makes are garbage
    problems = validate_one(game)
    try:
        rules = load_rules(game)
    except RulesError:  # validate said why
        rules = None
    path = str(find_rules(game))
    if rules is None:
        report = checking.verdict(game, path, problems, [], [], seed, max_decisions, 0, finisher)
    else:
        tasks = checking.plan(starts(rules), seed, games, greedy, coverage_games)
        total = sum(len(t.seeds) for t in tasks)
        console = stderr_console()
        progress = Progress(TextColumn("checking"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=console, disable=as_json or not console.is_terminal, transient=True)
        bar = progress.add_task("games", total=total)
        ref = rules_ref(game)
        workers = min(workers or checking.default_workers(), max(1, len(tasks)))
        advance = lambda n: progress.advance(bar, n)  # noqa: E731
        if ray is not None:
            results = checking.run_on_ray(tasks, rules, ref, max_decisions, ray_address(ray), advance, progress,
                                          workers, finisher)
        else:
            results = checking.run(tasks, ref, workers, max_decisions, advance, progress, finisher)
        report = checking.verdict(game_name(rules), path, problems, tasks, results, seed, max_decisions,
                                  len(symbols(rules).invariants), finisher)
        checking.shorten(report, ref)
    files = checking.write_moves(out_dir, report) if out_dir and report["broken"] else {}
    if as_json:
        json_line(report)
    else:
        for line in checking.format_verdict(report, rules_ref(game), files):
            out(line)
    raise typer.Exit(OK if report["ok"] else REFUSED)


@app.command()
@user_errors
def replay(log: str = typer.Argument(..., metavar="LOG", help="A log written by play --log."),
           rules: Optional[str] = typer.Option(None, "--rules", metavar="GAME",
                                               help="Replay on these rules (a shipped name or a file) instead "
                                                    "of the ones the log names.")):
    """Re-run a log and check that every move is still legal and the outcome is the same.

    The log's own rules are read only if they are a shipped game or a .rules file in the log's folder."""
    from rulewright.cli import logs
    data = logs.check_log(read_json(log, "rulewright log"), log)
    result = logs.replay(data, rules if rules is not None else logs.log_rules(data, log))
    if result.rules_changed:
        err("note: the rules changed since this log was written")
    if result.ok:
        out(result.message)
        raise typer.Exit(OK)
    out(result.message)
    raise typer.Exit(REFUSED)


@app.command()
@user_errors
def bench(
    game: str = typer.Argument(..., metavar="GAME", help="Shipped game name or rules file."),
    players: Optional[int] = PLAYERS,
    option: Optional[List[str]] = OPTION,
    seconds: float = typer.Option(3.0, "--seconds", "-t", min=0.0, max=86_400.0, help="How long to play (at most a day)."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the first playout."),
    agents: str = AGENTS,
    as_json: bool = JSON,
):
    """Playouts for a while (random agents unless --agents says): playouts and decisions per second (one
    process)."""
    import rulewright
    from rulewright.cli.agents import check_spec, seated
    from rulewright.cli.bench import bench as run_bench
    check_spec(agents, "--agents")
    g = rulewright.load(game, players=players, options=parse_options(option))
    seated(agents, g.player_count, 0)  # one agent per seat, or one for all
    report = run_bench(g, seconds, seed, agents)
    if as_json:
        json_line(report)
    else:
        out(f"{report['game']}, {report['players']} players: {report['playouts']} playouts, "
            f"{report['decisions']} decisions in {report['seconds']} s")
        out(f"{report['playouts_per_second']} playouts/s, {report['decisions_per_second']} decisions/s")


app.command()(compare.compare)
app.command()(manual.manual)


@app.command()
def lsp(stdio: bool = typer.Option(True, "--stdio", help="Speak over stdin and stdout (the only way; "
                                                          "accepted because editors pass it).")):
    """The editor server: diagnostics as you type, hover, go-to-definition, completion (LSP over stdio)."""
    try:
        import pygls  # noqa: F401  (the 'lsp' extra)
    except ImportError:
        err("error: the editor server needs pygls: pip install 'rulewright[lsp]'")
        raise typer.Exit(REFUSED) from None
    from rulewright.cli.lsp import serve
    serve()


@app.command("compile")
@user_errors
def compile_rules(
    game: str = typer.Argument(..., metavar="GAME", help="Shipped game name or rules file."),
    players: Optional[int] = PLAYERS,
    option: Optional[List[str]] = OPTION,
    emit: bool = typer.Option(False, "--emit", help="Print the Python source the rules compile to."),
):
    """Compile the rules for a player count and options; --emit prints the generated Python."""
    import rulewright
    from rulewright.cli.compile import generated_source, summary
    g = rulewright.load(game, players=players, options=parse_options(option))
    out(generated_source(g) if emit else summary(g))


@app.command("list")
@user_errors
def list_games(as_json: bool = JSON):
    """The shipped games, sorted, with their player counts and options."""
    from rulewright.cli import listing
    games = listing.describe_games()
    if as_json:
        json_line(games)
    else:
        for line in listing.format_games(games):
            out(line)


@app.command()
@user_errors
def serve(
    game: Optional[str] = typer.Argument(None, metavar="GAME", help="Start this game at once (shipped name or "
                                                                    "rules file); without it, send 'new' first."),
    players: Optional[int] = PLAYERS,
    option: Optional[List[str]] = OPTION,
    seed: Optional[int] = SEED,
    text: bool = typer.Option(False, "--text", help="Plain-text lines, GTP style, instead of JSON lines."),
    as_player: Optional[int] = typer.Option(None, "--as", metavar="PLAYER", min=1,
                                            help="Events, views and moves as this player may see them."),
):
    """An engine for programs: one process plays whole games, one request per line on stdin, one reply per
    line on stdout (commands: new, legal, apply, undo, view, render, events, outcome, save, load, quit, help).
    See docs/cli.md."""
    from rulewright.cli.serve import serve as run_server
    run_server(game, players, parse_options(option), seed, text, as_player)


@app.command()
@user_errors
def web(
    game: Optional[str] = typer.Argument(None, metavar="GAME", help="Shipped game name or rules file (not with "
                                                                    "--resume or --list)."),
    players: Optional[int] = PLAYERS,
    option: Optional[List[str]] = OPTION,
    seed: Optional[int] = typer.Option(None, "--seed", "-s", metavar="N",
                                       help="Seed for the game's randomness (never shown to a seat); "
                                            "default: one drawn at random, kept secret."),
    agents: Optional[str] = typer.Option(None, "--agents", "-A", metavar="SPEC",
                                         help="Who plays each seat: one per seat, 'human' for a person's, "
                                              "e.g. 'human,mcts:iterations=400' (default: people only)."),
    hint: str = typer.Option("ismcts:iterations=300,seconds=3", "--hint", metavar="AGENT",
                             help="The agent that suggests a move (one that searches only what the seat "
                                  "sees: ismcts, greedy, random, first)."),
    host: str = typer.Option("127.0.0.1", "--host", metavar="ADDRESS",
                             help="Address to listen on (0.0.0.0: every network of this machine)."),
    port: Optional[int] = typer.Option(None, "--port", min=0, max=65535, metavar="P",
                                       help="Port (0: a free one); default 8765, or a resumed table's own."),
    watch: bool = typer.Option(False, "--watch", help="Read the rules again when their file changes, and play "
                                                     "the moves so far on them."),
    db: Optional[str] = typer.Option(None, "--db", metavar="PATH",
                                     help="The SQLite file the tables are kept in (default: "
                                          "$XDG_DATA_HOME/rulewright/tables.sqlite)."),
    list_tables: bool = typer.Option(False, "--list", help="List the tables kept in the database, and exit."),
    resume: Optional[int] = typer.Option(None, "--resume", metavar="ID", min=1,
                                         help="Serve the kept table ID again, with the same seat links."),
):
    """A table in the browser: prints one link per seat; each seat sees only its own view, plays by clicks,
    and sees every move as it is made. See docs/cli.md."""
    from rulewright.cli.table import check_hint
    from rulewright.interpreter.play.agents import AgentSpecError
    try:
        check_hint(hint)
    except AgentSpecError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--hint'") from None
    from rulewright.cli.web import list_tables as show_tables, run_web
    chosen = [name for name, given in (("GAME", game is not None), ("--players", players is not None),
                                       ("--option", bool(option)), ("--seed", seed is not None),
                                       ("--agents", agents is not None)) if given]
    if list_tables or resume is not None:
        if list_tables and resume is not None:
            raise typer.BadParameter("--list and --resume go alone: list the tables, or resume one",
                                     param_hint="'--list'")
        if chosen:
            raise typer.BadParameter(f"a kept table has its game, players and seats already: {', '.join(chosen)} "
                                     "cannot be given with " + ("--list" if list_tables else "--resume"),
                                     param_hint="'--resume'")
        if list_tables:
            show_tables(db)
            return
    elif game is None:
        raise typer.BadParameter("name a game (a shipped game or a .rules file), or --resume ID "
                                 "(--list shows the kept tables)", param_hint="'GAME'")
    try:
        run_web(game, players, parse_options(option), seed, agents, hint, host, port, watch, db, resume)
    except AgentSpecError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--agents'") from None


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version
        try:
            out(f"rulewright {version('rulewright')}")
        except PackageNotFoundError:
            out("rulewright (not installed)")
        raise typer.Exit(OK)


@app.callback()
def limits_options(
    _show_version: bool = typer.Option(False, "--version", "-V", is_eager=True, callback=_version,
                                       help="Print the version and exit."),
    max_steps: Optional[int] = typer.Option(None, "--max-steps", min=1, metavar="N",
                                            help="Instructions the rules may run between two decisions "
                                                 f"(default {limits.DEFAULTS['steps']:,})."),
    max_work: Optional[int] = typer.Option(None, "--max-work", min=1, metavar="N",
                                           help="Items the rules' expressions may go through, make or copy "
                                                f"between two decisions; a def call counts {limits.CALL} (default "
                                                f"{limits.DEFAULTS['work']:,})."),
    max_items: Optional[int] = typer.Option(None, "--max-items", min=1, metavar="N",
                                            help="Items of one list or map, letters of one text "
                                                 f"(default {limits.DEFAULTS['items']:,})."),
    max_digits: Optional[int] = typer.Option(None, "--max-digits", min=1, max=4000, metavar="N",
                                             help=f"Digits of a number (default {limits.DEFAULTS['digits']})."),
    max_state: Optional[int] = typer.Option(None, "--max-state", min=1, metavar="N",
                                            help="Items the game's state holds at a decision: each number, "
                                                 f"letter of a text and list one (default {limits.DEFAULTS['state']:,})."),
    max_events: Optional[int] = typer.Option(None, "--max-events", min=1, metavar="N",
                                             help="Events a game keeps: moves, log lines, reveals (default "
                                                  f"{limits.DEFAULTS['events']:,})."),
    max_event_letters: Optional[int] = typer.Option(None, "--max-event-letters", min=1, metavar="N",
                                                    help="Letters of the texts of the events a game keeps "
                                                         f"(default {limits.DEFAULTS['event_letters']:,})."),
):
    """Limits on what any rules file may make the engine do; past one, the rules fail with a located error."""
    given = {"steps": max_steps, "work": max_work, "items": max_items, "digits": max_digits, "state": max_state,
             "events": max_events, "event_letters": max_event_letters}
    global _limits_changed
    # the defaults are in force from the start; setting them loads the engine, which `--help` and `list` skip
    if any(v is not None for v in given.values()) or _limits_changed:
        limits.set_limits(**{k: limits.DEFAULTS[k] if v is None else v for k, v in given.items()})
        _limits_changed = any(v is not None for v in given.values())


_limits_changed = False  # an earlier command of this process (a test's) changed the limits


# '--ray' takes an address or none: a bare '--ray' (last, or before another option) means a local cluster.
RAY_LOCAL = "local"


def ray_argv(argv: list) -> list:
    """``argv`` with a bare '--ray' given its value: the parser needs one."""
    out = list(argv)
    for i, a in enumerate(out):
        if a == "--":
            break
        if a == "--ray" and (i + 1 == len(out) or out[i + 1].startswith("-")):
            out[i] = f"--ray={RAY_LOCAL}"
    return out


def ray_address(value: str) -> Optional[str]:
    """None (a new local cluster) for 'local', else a Ray address; a word that is none is refused."""
    if value == RAY_LOCAL:
        return None
    if value != "auto" and ":" not in value:
        from rulewright.dsl.errors import OptionError
        raise OptionError(f"--ray takes a cluster's address (auto, HOST:PORT, ray://HOST:PORT) or nothing,"
                          f" not {value!r}; put the game before --ray")
    return value


def main() -> None:
    app(ray_argv(sys.argv[1:]))


if __name__ == "__main__":
    main()
