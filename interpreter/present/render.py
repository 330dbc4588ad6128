"""Text rendering of a state: the board drawn from the rules' ``display`` expression, then every
variable the viewer may see. Generic: the rules decide what a space shows."""
from __future__ import annotations

import json

import attrs
from typing import Optional

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine.faults import RULE_FAULTS, located
from rulewright.interpreter.present.views import WINDOW_NOTE, view, visible_vars
from rulewright.interpreter.engine.builtin_names import ROUND_NUMBER


def _space_texts(st, player=None) -> dict:
    g = st.game
    if g.board is None or g.display is None:
        return {}
    name, fn = g.display
    if g.field_visibility and player is not None:
        # the display reads public variables only (the checker sees to it), but their records may hold
        # face-down fields: draw them as this player sees them
        st = attrs.evolve(st, vars=visible_vars(st, player))
    try:
        return {s: str(fn(st, {name: s}) or ".") for s in g.board.spaces}
    except RULE_FAULTS + (RulesRuntimeError,) as exc:
        # a rules mistake in 'display' (it runs outside the machine, which would locate it)
        display = g.symbols.display
        raise located(st, exc, display.span, "display", display.expr) from None


def render_board(st, player=None) -> str:
    g = st.game
    texts = _space_texts(st, player)
    if not texts:
        return ""
    return g.board.draw(texts)


def _short(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def render(st, player: Optional[int] = None) -> str:
    data = view(st, player)
    g = st.game
    title = f"{data['game']} - {data['players']} players"
    if data["options"]:
        title += " (" + ", ".join(f"{k}={v}" for k, v in data["options"].items()) + ")"
    lines = [title, f"round {data['round']}" + (f", {data['step']}" if data["step"] else "")]
    board = render_board(st, player)
    if board:
        lines += ["", board]
    lines.append("")
    for name, value in data["vars"].items():
        if name in (ROUND_NUMBER,):
            continue
        if name in g.player_vars:
            shown = "  ".join(f"{p}: {_short(v)}" for p, v in enumerate(value, 1))
            lines.append(f"{name}: {shown}")
        else:
            lines.append(f"{name}: {_short(value)}")
    if st.is_over():
        out = data["outcome"]
        lines += ["", f"game over - winners: {', '.join(map(str, out['winners'])) or 'none (draw)'}"]
    elif data.get("window") and not data["to_move"]:
        lines += ["", WINDOW_NOTE]
    elif data["to_move"]:
        lines += ["", "to move: " + ", ".join(f"player {p}" for p in data["to_move"])]
    return "\n".join(lines)
