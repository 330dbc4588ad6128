"""Opening a game for a command: the rules by shipped name or path, a fresh state or a loaded save."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Optional

import attrs

import rulewright
from rulewright.dsl.errors import OptionError, SaveError
from rulewright.interpreter.api import SAVE_FORMAT, Game, State, fresh_seed, game_name, load_rules, shipped_games
from rulewright.cli.errors import read_json


@attrs.define
class Session:
    ref: str                     # how to find the rules again: a shipped name or an absolute path
    game: Game
    state: State
    seed: int
    start: Optional[dict] = None  # the save this session resumed from, if any
    note: Optional[str] = None    # what loading the save on edited rules did, for the user


def rules_ref(name_or_path: str) -> str:
    """A shipped game keeps its name; a file is remembered by its absolute path (logs outlive cwd)."""
    if name_or_path in shipped_games() and not Path(name_or_path).exists():
        return name_or_path
    return str(Path(name_or_path).resolve())


def open_session(name_or_path: Optional[str], players: Optional[int], options: dict, seed: Optional[int],
                 load: Optional[str] = None, verify: bool = True, force: bool = False) -> Session:
    """A new game of ``name_or_path``, or the save ``load`` (on the rules it names when no game is given).
    A save of rules edited since is played again on them (Game.load_save); ``force`` loads it where it diverges."""
    seed = fresh_seed() if seed is None else seed
    if load is None:
        if name_or_path is None:
            raise OptionError("name a game (a shipped game or a .rules file), or give a save with --load FILE")
        game = rulewright.load(name_or_path, players=players, options=options)
        return Session(rules_ref(name_or_path), game, game.new_state(seed=seed), seed)
    return resume(name_or_path, players, options, seed, read_json(load, "save file"), load, verify, force)


def resume(name_or_path: Optional[str], players: Optional[int], options: dict, seed: int, data, load: str,
           verify: bool = True, force: bool = False) -> Session:
    """The session of the save ``data``, read from the file ``load`` (named in messages; its folder is
    where the rules the save names may be)."""
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise SaveError(f"{load}: not a rulewright save file")
    if name_or_path is None:
        name_or_path = saved_rules(data, load)
    rules = load_rules(name_or_path)
    if data.get("game") != game_name(rules) and not force:  # before its options meet rules that lack them
        raise SaveError(f"{load}: this save belongs to other rules ('{data.get('game')}'), not to "
                        f"'{game_name(rules)}' (--force plays its moves on these rules anyway)")
    # A save knows its player count and options; the command line may repeat them but not change them.
    if players is None and isinstance(data.get("players"), int):
        players = data["players"]
    if not options and isinstance(data.get("options"), dict):
        options = data["options"]
    game = Game(rules, players, options)
    try:
        loaded = game.load_save(copy.deepcopy(data), verify=verify, force=force)
    except SaveError as exc:
        raise SaveError(f"{load}: {exc}") from None
    # The restored state may share lists with `data`; the log needs the save as it was.
    return Session(rules_ref(name_or_path), game, loaded.state, seed, start=copy.deepcopy(data), note=loaded.note)


def saved_rules(data: dict, save_path: str) -> str:
    """The rules a save names, sandboxed like a log's: a shipped game, or a .rules file in the save's folder."""
    from rulewright.cli.logs import sandboxed_rules
    source = data.get("source")
    if not isinstance(source, str):
        raise SaveError(f"{save_path}: the save does not name its rules (an older save): name the game too")
    return sandboxed_rules(source, save_path, "save", "name the game too")
