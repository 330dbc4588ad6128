"""Events and who may see them.

Every event the rules make (a move, a log line, a reveal, the end) is one small dict. The state keeps
them all, as the referee sees them; ``seen_by`` gives one player's copy of an event: a secret move
shows its masked text ("shown") to everyone but its chooser, and a log line written ``to`` some
players reaches only them.

    {"event": "move", "player": 2, "move": "keep red 5", "shown": "keeps a card"}   the referee's copy
    {"event": "move", "player": 2, "move": "keeps a card", "secret": true}         player 1's copy
    {"event": "log", "text": "you draw blue 2", "to": [2]}                        player 2 only
    {"event": "reveal", "text": "green 3"}                                         everyone
"""
from __future__ import annotations

from typing import Optional

# What the other players see of a secret decision when the rules do not word it with 'shown'.
DEFAULT_SHOWN = "makes a secret choice"


def move(player: int, text: str, shown: Optional[str] = None) -> dict:
    if shown is None:
        return {"event": "move", "player": player, "move": text}
    return {"event": "move", "player": player, "move": text, "shown": shown}


def log(text: str, to: Optional[list] = None) -> dict:
    if to is None:
        return {"event": "log", "text": text}
    return {"event": "log", "text": text, "to": to}


def reveal(text: str, player: Optional[int] = None) -> dict:
    if player is None:
        return {"event": "reveal", "text": text}
    return {"event": "reveal", "player": player, "text": text}


GAME_OVER = {"event": "game over"}


def seen_by(event: dict, player: Optional[int]) -> Optional[dict]:
    """The event as ``player`` sees it (None: the referee, who sees everything), or None if hidden."""
    if player is None:
        return dict(event)
    to = event.get("to")
    if to is not None and player not in to:
        return None
    if "shown" in event:
        if event["player"] == player:
            return {"event": "move", "player": player, "move": event["move"], "secret": True}
        return {"event": "move", "player": event["player"], "move": event["shown"], "secret": True}
    return dict(event)
