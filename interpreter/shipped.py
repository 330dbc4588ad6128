"""The games shipped with rulewright: a module of its own, so `rulewright list` finds them without
loading the engine."""
from __future__ import annotations

from pathlib import Path

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"


def shipped_games() -> dict[str, Path]:
    """Every game shipped with rulewright, by name (the file name without '.rules')."""
    games_dir = _games_dir()
    return {p.stem: p for p in sorted(games_dir.rglob("*.rules"))}


def _games_dir() -> Path:
    try:
        from importlib.resources import files
        return Path(str(files("rulewright.games")))
    except (ImportError, ModuleNotFoundError, TypeError):
        return GAMES_DIR
