"""What one player may see.

Visibility is declared twice over: on variables (a ``hidden`` one shows its size, a ``secret``
``player var`` shows its value to its owner only) and on record fields, item by item (a field
``hidden`` or ``secret to owner``, face up once its ``unless`` field is true). A ``reveal`` turns a
variable, or one player's entry, face up for good. The choices others made in a simultaneous decision
stay hidden until everyone has chosen, and legal moves are shown only to the players who decide.
"""
from __future__ import annotations

import json
from typing import Optional

from rulewright.interpreter.engine.values import UNSEEN, copy_value, face_down
from rulewright.interpreter.present.prompts import prompt
from rulewright.interpreter.engine.builtin_names import ROUND_NUMBER


def masked(value):
    """The public trace of a face-down value: a list shows how many items it holds (a list of lists,
    such as one deck per level, shows each one's size); anything else shows as '?'."""
    if isinstance(value, list):
        if value and all(type(v) is list for v in value):
            return [masked(v) for v in value]
        return {"hidden": len(value)}
    return UNSEEN


def revealed_now(st) -> set:
    """(variable, player or 0) turned face up by 'reveal' and unchanged since."""
    out = set()
    for name, p, value in st.revealed:
        now = st._vars.get(name)
        if p and isinstance(now, list) and len(now) >= p:
            now = now[p - 1]
        if now == value:
            out.add((name, p))
    return out


def visible_vars(st, player: Optional[int]) -> dict:
    """Every variable as ``player`` sees it, and each hand ('secret in HAND') as one more entry: its
    parts' cards together for its owner, how many they are for the others. A part of another player's
    hand shows as '?': which part a card left, or came to, stays its owner's."""
    g = st.game
    revealed = revealed_now(st)
    items_masked = bool(g.field_visibility) and player is not None
    # face_down is itself a deep copy: where fields are masked it copies what is shown, once
    seen = (lambda v: face_down(g, v, player)) if items_masked else copy_value
    out = {}
    for name, value in st._vars.items():
        visibility = g.visibility.get(name, "public")
        if player is None or visibility == "public" or (name, 0) in revealed:
            shown = seen(value)
        elif name in g.player_vars:
            shown = [seen(v) if (visibility == "secret" and p == player) or (name, p) in revealed
                     else UNSEEN if name in g.hand_of else masked(v) for p, v in enumerate(value, 1)]
        else:
            shown = masked(value)
        out[name] = shown
    for hand, parts in g.hands.items():
        if parts[0] not in st._vars:  # a game not set up yet (before its first chance outcome): no hands
            continue
        held = [[c for part in parts for c in st._vars[part][p - 1]] for p in range(1, g.player_count + 1)]
        out[hand] = [seen(h) if player is None or p == player else {"hidden": len(h)}
                     for p, h in enumerate(held, 1)]
    return out


# What a player not asked in an open window is told (who is asked is told to that player alone)
WINDOW_NOTE = "a window for responses is open: you are not asked (who is, is theirs to know)"


def seen_to_move(st, player: Optional[int] = None) -> list:
    """Who is to move, as ``player`` may know it (None: the referee, everyone asked). In a reaction window
    each player learns only whether they themselves are asked: [player] or []. Every reply to a seat
    (serve --as, the web table) says who is to move by this rule, and by no other."""
    pend = st.pending
    if pend is not None and pend.window and player is not None:
        return [player] if player in pend.waiting() else []
    return st.to_move()


def view(st, player: Optional[int] = None) -> dict:
    """The state as ``player`` sees it (everything when player is None)."""
    g = st.game
    data = {
        "game": g.name,
        "players": g.player_count,
        "options": dict(g.options),
        "status": st.status,
        "round": st._vars.get(ROUND_NUMBER),
        "step": st.step,
        "to_move": seen_to_move(st, player),
        "vars": visible_vars(st, player),
    }
    pend = st.pending
    if pend is not None:
        if pend.window and player is not None:  # to_move says only whether the player is asked
            data["window"] = "open"
        elif pend.simultaneous:
            data["chosen"] = sorted(pend.chosen) if player is not None else {str(p): v for p, v in pend.chosen.items()}
            if player in pend.chosen:
                data["my_choice"] = pend.texts[player][0]  # a player knows what they chose
        if player is None or player in pend.waiting():
            data["legal_moves"] = [m.text for m in st.legal_moves(player)]
            asked = pend.waiting() if player is None else [player]
            if st.game.prompts and len(asked) == 1:  # what the rules ask the decider, told to them alone
                text = prompt(st, asked[0])
                if text is not None:
                    data["prompt"] = text
    if st.is_over():
        data["outcome"] = st.outcome().to_dict()
    return data


def information_state(st, player: Optional[int] = None) -> str:
    """What ``player`` has seen since the game began (every event as they saw it) and sees now."""
    seen = {"player": player, "events": st.event_history(player), "view": view(st, player)}
    return json.dumps(seen, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
