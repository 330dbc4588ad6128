"""The command line's parameters that several commands share, each declared once: the Typer options, the
--option K=V pairs (option_pairs.given_options reads them; values stay strings: the Game checks them against
the rules' options), and the parameters of a command that opens a game (``opens_a_game``)."""
from __future__ import annotations

import functools
import inspect
from typing import List, Optional

import attrs
import typer

from rulewright.dsl.errors import OptionError

PLAYERS = typer.Option(None, "--players", "-p", min=1, metavar="N",
                       help="Number of players (default: the fewest the rules allow).")
OPTION = typer.Option(None, "--option", "-o", metavar="NAME=VALUE", help="Set one of the rules' options; repeatable.")
SEED = typer.Option(None, "--seed", "-s", metavar="N",
                    help="Seed for the game's randomness (and the agents'); default: one drawn at random, printed.")
JSON = typer.Option(False, "--json", help="Print JSON instead of text.")
AGENTS = typer.Option("random", "--agents", "-A", metavar="SPEC",
                      help="Who plays: one agent for every seat or one per seat, with parameters, "
                           "e.g. 'mcts:iterations=400,random' (see docs/agents.md).")
UNVERIFIED = typer.Option(False, "--unverified", help="Load a save even if its seed and moves do not give it (edited by hand).")
FORCE = typer.Option(False, "--force", help="Load a save whose moves diverge on rules edited since: the game as it "
                                            "stands before the first move the new rules refuse.")
GAME_OR_SAVE = typer.Argument(None, metavar="GAME", help="Shipped game name or rules file (with --load: "
                                                         "optional, the save names its rules).")
MOVES = typer.Option(None, "--moves", "-m", metavar="FILE|-",
                     help="Apply these moves first: one per line, by text or number; 'P: move' names the player.")
LOAD = typer.Option(None, "--load", metavar="FILE", help="Open a game saved with play --save.")


def parse_options(pairs: list[str] | None) -> dict[str, str]:
    from rulewright.interpreter.api import given_options  # (the engine loads on first use, not at start)
    try:
        return given_options(pairs or [])
    except OptionError as exc:
        raise typer.BadParameter(str(exc), param_hint="'--option'") from None


@attrs.frozen
class Opening:
    """What a command that opens a game was given (``opens_a_game``): the game or a save, and how to start it."""
    game: Optional[str]
    players: Optional[int]
    options: dict  # the --option pairs, read
    seed: Optional[int]
    moves: Optional[str]  # a script of moves to apply first
    load: Optional[str]
    unverified: bool
    force: bool

    def session(self):
        """The game opened (cli/session.py), a note on a save of rules edited since told on stderr."""
        from rulewright.cli.output import err
        from rulewright.cli.session import open_session
        session = open_session(self.game, self.players, self.options, self.seed, self.load,
                               verify=not self.unverified, force=self.force)
        if session.note:
            err(f"note: {session.note}")
        return session


# The parameters of a command that opens a game, in the order --help lists them: (name, type, default).
_OPENING = (("game", Optional[str], GAME_OR_SAVE), ("players", Optional[int], PLAYERS),
            ("option", Optional[List[str]], OPTION), ("seed", Optional[int], SEED),
            ("moves", Optional[str], MOVES), ("load", Optional[str], LOAD),
            ("unverified", bool, UNVERIFIED), ("force", bool, FORCE))


def opens_a_game(command):
    """A command that opens a game takes the parameters of _OPENING before its own and gets them as its
    first argument, an ``Opening``: a game or a save is named, and the options are read, before it runs."""
    own = [p for p in inspect.signature(command).parameters.values()][1:]
    shared = [inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default, annotation=kind)
              for name, kind, default in _OPENING]

    @functools.wraps(command)
    def opened(**given):
        opening = {name: given.pop(name) for name, _kind, _default in _OPENING}
        if opening["game"] is None and opening["load"] is None:
            raise typer.BadParameter("missing: name a game (see `rulewright list`) or give a save with --load FILE",
                                     param_hint="'GAME'")
        opening["options"] = parse_options(opening.pop("option"))
        return command(Opening(**opening), **given)

    opened.__signature__ = inspect.Signature(shared + own)
    return opened
