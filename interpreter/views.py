"""What one player may see: hidden variables show a count, secret ones only to their owner, and
the choices others made in a simultaneous decision stay hidden until everyone has chosen."""
from __future__ import annotations

from typing import Optional

from rulewright.interpreter.values import copy_value


def masked(value):
    """The public trace of a hidden value: a list shows how many items it holds."""
    if isinstance(value, list):
        return {"hidden": len(value)}
    return "?"


def visible_vars(st, player: Optional[int]) -> dict:
    g = st.game
    out = {}
    for name, value in st.vars.items():
        visibility = g.visibility.get(name, "public")
        if player is None or visibility == "public":
            out[name] = copy_value(value)
        elif visibility == "secret" and name in g.player_vars:
            out[name] = [copy_value(v) if p == player else masked(v) for p, v in enumerate(value, 1)]
        elif name in g.player_vars:
            out[name] = [masked(v) for v in value]
        else:
            out[name] = masked(value)
    return out


def view(st, player: Optional[int] = None) -> dict:
    """The state as ``player`` sees it (everything when player is None)."""
    g = st.game
    data = {
        "game": g.name,
        "players": g.player_count,
        "options": dict(g.options),
        "status": st.status,
        "round": st.vars.get("round_number"),
        "step": st.step,
        "to_move": st.to_move(),
        "vars": visible_vars(st, player),
    }
    pend = st.pending
    if pend is not None:
        if pend.simultaneous:
            data["chosen"] = sorted(pend.chosen) if player is not None else {str(p): v for p, v in pend.chosen.items()}
        if player is None or player in pend.waiting():
            data["legal_moves"] = [m.text for m in st.legal_moves(player)]
    if st.is_over():
        data["outcome"] = st.outcome().to_dict()
    return data
