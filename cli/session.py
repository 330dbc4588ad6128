"""Opening a game for a command: the rules by shipped name or path, a fresh state or a loaded save."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Optional

import attrs

import rulewright
from rulewright.dsl.errors import SaveError
from rulewright.interpreter.api import Game, State, fresh_seed, shipped_games
from rulewright.cli.errors import read_json


@attrs.define
class Session:
    ref: str                     # how to find the rules again: a shipped name or an absolute path
    game: Game
    state: State
    seed: int
    start: Optional[dict] = None  # the save this session resumed from, if any


def rules_ref(name_or_path: str) -> str:
    """A shipped game keeps its name; a file is remembered by its absolute path (logs outlive cwd)."""
    if name_or_path in shipped_games() and not Path(name_or_path).exists():
        return name_or_path
    return str(Path(name_or_path).resolve())


def open_session(name_or_path: str, players: Optional[int], options: dict, seed: Optional[int],
                 load: Optional[str] = None, verify: bool = True) -> Session:
    seed = fresh_seed() if seed is None else seed
    if load is None:
        game = rulewright.load(name_or_path, players=players, options=options)
        return Session(rules_ref(name_or_path), game, game.new_state(seed=seed), seed)
    data = read_json(load, "save file")
    if not isinstance(data, dict):
        raise SaveError(f"{load}: not a rulewright save file")
    # A save knows its player count and options; the command line may repeat them but not change them.
    if players is None and isinstance(data.get("players"), int):
        players = data["players"]
    if not options and isinstance(data.get("options"), dict):
        options = data["options"]
    game = rulewright.load(name_or_path, players=players, options=options)
    try:
        state = game.load_state(copy.deepcopy(data), verify=verify)
    except SaveError as exc:
        raise SaveError(f"{load}: {exc}") from None
    # The restored state may share lists with `data`; the log needs the save as it was.
    return Session(rules_ref(name_or_path), game, state, seed, start=copy.deepcopy(data))
