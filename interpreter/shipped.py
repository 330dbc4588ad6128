"""The games shipped with rulewright: a module of its own, so `rulewright list` finds them without
loading the engine."""
from __future__ import annotations

from pathlib import Path

from rulewright.dsl.errors import OptionError, suggest

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"


def shipped_games() -> dict[str, Path]:
    """Every game shipped with rulewright, by name (the file name without '.rules')."""
    games_dir = _games_dir()
    return {p.stem: p for p in sorted(games_dir.rglob("*.rules"))}


def shipped_game(name: str, games: dict[str, Path], note: str = "") -> Path:
    """The file of the game ``name`` among ``games`` (shipped_games()); an unknown name is refused with the
    nearest names and the list (``note``: what else the caller would take, after the list)."""
    if name in games:
        return games[name]
    hint = suggest(name, games)
    raise OptionError(f"unknown game {name!r}" + (f"; {hint}" if hint else "")
                      + f" (shipped games: {', '.join(games)}{note})")


def _games_dir() -> Path:
    try:
        from importlib.resources import files
        return Path(str(files("rulewright.games")))
    except (ImportError, ModuleNotFoundError, TypeError):
        return GAMES_DIR
