"""Events, where they come from, and who may see them.

Every event the rules make (a move, a log line, a reveal, the end) is one small dict. The state keeps
them all, as the referee sees them; ``seen_by`` gives one player's copy of an event: a secret move
shows its masked text ("shown") to everyone but its chooser, and a log line written ``to`` some
players reaches only them.

The referee's copy of a move, a log line and a reveal names the rule that made it, as
``"file:line"`` (``rule``): the statement of the log or the reveal, the decision of the move (its
``choose``). A player's copy never does: the line that wrote a log can tell which branch of the rules
ran, a secret.

    {"event": "move", "player": 2, "move": "keep red 5", "shown": "keeps a card",
     "rule": "cards.rules:40"}                                                      the referee's copy
    {"event": "move", "player": 2, "move": "keeps a card", "secret": true}         player 1's copy
    {"event": "log", "text": "you draw blue 2", "to": [2], "rule": "cards.rules:12"}  the referee's
    {"event": "log", "text": "you draw blue 2", "to": [2]}                        player 2's (only)
    {"event": "reveal", "text": "green 3", "rule": "cards.rules:55"}              the referee's
    {"event": "reveal", "text": "green 3"}                                         everyone's
"""
from __future__ import annotations

import os
from typing import Optional

# What the other players see of a secret decision when the rules do not word it with 'shown'.
DEFAULT_SHOWN = "makes a secret choice"


def move(player: int, text: str, shown: Optional[str] = None, rule: Optional[str] = None) -> dict:
    if shown is None:
        event = {"event": "move", "player": player, "move": text}
    else:
        event = {"event": "move", "player": player, "move": text, "shown": shown}
    if rule is not None:
        event["rule"] = rule
    return event


def log(text: str, to: Optional[list] = None, rule: Optional[str] = None) -> dict:
    event = {"event": "log", "text": text}
    if to is not None:
        event["to"] = to
    if rule is not None:
        event["rule"] = rule
    return event


def reveal(text: str, player: Optional[int] = None, rule: Optional[str] = None) -> dict:
    if player is None:
        event = {"event": "reveal", "text": text}
    else:
        event = {"event": "reveal", "player": player, "text": text}
    if rule is not None:
        event["rule"] = rule
    return event


GAME_OVER = {"event": "game over"}


def letters(event: dict) -> int:
    """The letters of an event's text (a log line's or a reveal's text, a move's own text), as the
    history's bound counts them (bounds.py); the makers of events pass the same count to State.emit."""
    return len(event.get("text") or event.get("move") or "")

_places: dict = {}  # (file, line) -> "name:line": a move asks for its decision's place every time


def place(span) -> str:
    """The rule at ``span`` as an event names it: the file's name (never the folder: a save or a stream
    says nothing of the machine's paths) and the line."""
    key = (span.file, span.line)
    found = _places.get(key)
    if found is None:
        if len(_places) > 100_000:  # a server that loads rules files for ever
            _places.clear()
        found = _places[key] = f"{os.path.basename(span.file)}:{span.line}"
    return found


def decision_rule(st) -> str:
    """The rule of the decision ``st`` waits for: its frame stopped just after the ``choose``."""
    frame = st.frames[-1]
    return st.game.procs[frame.proc].places[frame.pc - 1]  # asked at every move: worked out when compiled


def without_rule(event: dict) -> dict:
    """The event as the rules' meaning makes it, whatever line its rule stands on."""
    if "rule" not in event:
        return event
    event = dict(event)
    del event["rule"]
    return event


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
    seen = dict(event)
    seen.pop("rule", None)  # which line wrote it can tell which branch ran
    return seen
