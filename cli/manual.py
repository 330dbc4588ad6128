"""manual: a game's manual, written from its rules file, as DIR/<game>.md and DIR/<game>.html with its
pictures beside them (DIR/<game>-start.svg and -mid.svg, and PNGs with --png). The words come from the
rules (interpreter/present/manual.py), what play shows from seeded games (interpreter/play/showcase.py);
this module reads the files, plays the games through simulate's worker pool and writes the results."""
from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import List, Optional

import typer

from rulewright.cli.errors import REFUSED, user_errors
from rulewright.cli.options import parse_options
from rulewright.cli.output import err, out


@user_errors
def manual(
    game: str = typer.Argument(..., metavar="GAME", help="Shipped game name or rules file."),
    out_dir: str = typer.Option(..., "--out", metavar="DIR", help="Write the manual and its pictures here."),
    games: int = typer.Option(20, "--games", "-n", min=0, max=100_000,
                              help="Games of self-play for the notes (0: none; a variant plays as many of its base)."),
    players: Optional[int] = typer.Option(None, "--players", "-p", min=1, metavar="N",
                                          help="Number of players (default: the fewest the rules allow)."),
    option: Optional[List[str]] = typer.Option(None, "--option", "-o", metavar="NAME=VALUE",
                                               help="Set one of the rules' options; repeatable."),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed of the pictured game; game i of self-play uses seed+i."),
    agents: str = typer.Option("random", "--agents", "-A", metavar="SPEC",
                               help="Who plays the seeded games (see docs/agents.md)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", min=1,
                                          help="Worker processes for self-play (default: one per CPU)."),
    max_decisions: int = typer.Option(100_000, "--max-decisions", min=1,
                                      help="Stop a game after this many decisions (counted as unfinished)."),
    png: bool = typer.Option(False, "--png", help="Also draw the pictures as PNG (needs rsvg-convert or chromium)."),
):
    """Write a game's manual from its rules: what the game is, options, components, set-up, the round and
    the turn with every decision, the end and scoring, pictures, an example turn and notes from self-play.

    For a variant, its first section says what it changes and how that plays against its base."""
    from rulewright.interpreter.api import Game, find_rules, load_rules
    from rulewright.interpreter.play import balance, showcase
    from rulewright.interpreter.present.document import to_html, to_markdown
    from rulewright.interpreter.present.manual import Manual
    from rulewright.cli.session import rules_ref
    path = find_rules(game)
    rules = load_rules(game)
    own, base, base_path = _variant_parts(path)
    given = parse_options(option)
    g = Game(rules, players, given)
    spec = None if agents == "random" else agents
    try:
        balance.check_agents(spec, g.player_count)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--agents'") from None
    folder = Path(out_dir)
    folder.mkdir(parents=True, exist_ok=True)
    stem = path.stem
    shown = {"players": g.player_count, "options": dict(g.options), "seed": seed, "notes": None, "effect": None}
    length = None
    if games:
        seeds = [seed + i for i in range(games)]
        play = functools.partial(balance.play_recorded, agents=spec, by_seat=True)
        count = min(workers or os.cpu_count() or 1, games)
        results = _played(g, rules_ref(game), seeds, count, max_decisions, play)
        length = results[0]["decisions"]  # the pictured game is the first of them
        shown["notes"] = showcase.notes(g, results, seed, spec)
        if base is not None:
            # the base at its own defaults: a variant that changes a default is measured by that change
            base_game = Game(base, g.player_count, _fitting(base, given))
            base_results = _played(base_game, str(base_path), seeds, count, max_decisions, play)
            shown["effect"] = showcase.effect(showcase.notes(base_game, base_results, seed, spec), shown["notes"])
    at = showcase.positions(g, seed, spec, max_decisions, length)
    shown["pictures"] = {"start": f"{stem}-start.svg", "mid": f"{stem}-mid.svg"}
    shown["positions"] = {k: v for k, v in at.items() if k not in ("start", "mid")}
    written = _pictures(folder, shown["pictures"], at, png)
    blocks = Manual(rules, own, base, shown, _assumptions_page(path, base_path)).blocks()
    for suffix, text in ((".md", to_markdown(blocks)), (".html", to_html(blocks, g.name))):
        (folder / f"{stem}{suffix}").write_text(text, encoding="utf-8")
        written.append(f"{stem}{suffix}")
    out(f"wrote {', '.join(sorted(written))} to {folder}")


def _variant_parts(path: Path):
    """A variant's own file as parsed, the base it extends (merged and checked) and the base's path;
    (None, None, None) for rules that extend nothing."""
    from rulewright.dsl import ast
    from rulewright.dsl.parser import parse
    from rulewright.interpreter.api import load_rules
    from rulewright.interpreter.api import read_rules, shipped_games
    from rulewright.interpreter.language import base_file
    text = read_rules(path)
    if not re.search(r"(?m)^extends\b", text):  # no variant: not parsed again (a long file takes seconds)
        return None, None, None
    own = parse(text, str(path.resolve()))  # named as in the merged rules, whose comments it shows
    extends = next((d for d in own.decls if isinstance(d, ast.Extends)), None)
    if extends is None:
        return None, None, None
    base_path = base_file(extends.base, path, shipped_games())
    return own, load_rules(str(base_path)), base_path


def _fitting(base, options: dict) -> dict:
    """The options given that the base has too, with a value it allows (others at the base's default)."""
    from rulewright.interpreter.api import option_values
    allowed = option_values(base)
    return {k: v for k, v in options.items() if k in allowed and str(v) in map(str, allowed[k])}


def _played(game, ref: str, seeds: list, workers: int, max_decisions: int, play) -> list:
    from rulewright.cli.simulate import run_games
    results = run_games(game, ref, seeds, workers, max_decisions, play=play)
    failed = [r for r in results if "error" in r]
    if failed:
        err(f"error in the game with seed {failed[0]['seed']}: {failed[0]['error']}")
        raise typer.Exit(REFUSED)
    return results


def _pictures(folder: Path, names: dict, at: dict, png: bool) -> list:
    from rulewright.cli import pictures
    from rulewright.interpreter.play.showcase import SPECTATOR  # what every player sees
    from rulewright.interpreter.present.svg import render_svg
    written = []
    for key, name in names.items():
        picture = render_svg(at[key], SPECTATOR)
        pictures.write_svg(str(folder / name), picture)
        written.append(name)
        if png:
            pictures.write_png(str(folder / Path(name).with_suffix(".png")), picture)
            written.append(str(Path(name).with_suffix(".png")))
    return written


def _assumptions_page(path: Path, base_path: Optional[Path]) -> Optional[str]:
    """Where a shipped game's page declares its assumptions (docs/games/<game>.md beside the games'
    folder; a variant's are its base's), or None."""
    for rules_path in (path, base_path):
        if rules_path is None:
            continue
        page = Path(rules_path).resolve().parent.parent / "docs" / "games" / f"{Path(rules_path).stem}.md"
        if page.is_file():
            return f"docs/games/{page.name}"
    return None
