"""What the play screen shows one viewer, worked out from the rules' ``display:`` section.

Everything here comes from the viewer's view (views.py), never from the full state: an entry that
names a variable shows it as the viewer sees it (another player's secret as a count), and an entry
worked out from an expression reads only public variables (the checker sees to it) over the viewer's
copy of them. Generic: the rules decide what the screen shows; cli/screen.py draws it with colours and
svg.py as a picture.
"""
from __future__ import annotations

from typing import Optional

import attrs

from rulewright.dsl import ast
from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.machine import RULE_FAULTS, located
from rulewright.interpreter.views import view, visible_vars


@attrs.frozen
class Screen:
    title: str                 # the game, its players and options
    status: str                # the round and the step
    viewer: Optional[int]      # a player; 0 the table (nobody's secrets); None the referee (everything)
    board: object              # the Board, or None
    spaces: dict               # space -> what it shows
    legend: tuple              # (text on a space, what it means)
    colours: tuple             # (text a space's text starts with, colour)
    columns: tuple             # the labels of the players' rows
    players: tuple             # (player, (value text per column)) per player
    own: tuple                 # (label, value text): the viewer's own things
    table: tuple               # (label, value text): the public zones
    ranking: str               # who wins, e.g. "highest score wins; ties: highest money"
    to_move: tuple
    turn_note: str             # whose move it is, or the outcome
    vars: dict                 # every variable as the viewer sees it (shown on request: ':vars')

    def colour_of(self, text: str) -> Optional[str]:
        """The colour of a space's text: the first 'colours' entry it starts with."""
        for start, colour in self.colours:
            if text.startswith(start):
                return colour
        return None


def value_text(value) -> str:
    """A value as a person reads it: lists joined by commas, face-down things as counts."""
    t = type(value)
    if value is None:
        return "-"
    if t is bool:
        return "yes" if value else "no"
    if t is list:
        if not value:
            return "-"
        texts = [value_text(v) for v in value]
        return ("; " if any(", " in t for t in texts) else ", ").join(texts)
    if t is dict:
        if set(value) == {"hidden"} and type(value["hidden"]) is int:
            n = value["hidden"]
            return f"{n} face down" if n else "-"
        if not value:
            return "-"
        return "(" + ", ".join(f"{k} {value_text(v)}" for k, v in value.items()) + ")"
    return str(value)


def _ranking(g) -> str:
    keys = g.symbols.rank_keys
    if not keys:
        return ""
    words = [f"{'lowest' if asc else 'highest'} {name.replace('_', ' ')}" for name, asc in keys]
    return words[0] + " wins" + ("; ties: " + ", then ".join(words[1:]) if len(words) > 1 else "")


def _direction(g, expr) -> str:
    """' (low wins)' after a column that shows the first thing the players are ranked by."""
    keys = g.symbols.rank_keys
    if keys and isinstance(expr, ast.Name) and expr.id == keys[0][0]:
        return " (low wins)" if keys[0][1] else " (high wins)"
    return ""


def build(st, viewer: Optional[int] = None) -> Screen:
    """The screen ``viewer`` sees now (see Screen.viewer)."""
    g = st.game
    data = view(st, viewer)
    seen = data["vars"]
    # Expressions run over the viewer's copy of the variables, never the full state.
    shown_state = attrs.evolve(st, vars=visible_vars(st, viewer))

    def evaluate(entry, fn, env):
        try:
            return fn(shown_state, env)
        except RULE_FAULTS + (RulesRuntimeError,) as exc:
            raise located(st, exc, entry.span, "display", entry.expr) from None

    def entry_value(entry, fn, player=None):
        expr = entry.expr
        if isinstance(expr, ast.Name) and expr.id in seen:
            value = seen[expr.id]
            if expr.id in g.player_vars:
                value = value[player - 1] if player else None
            return value
        return evaluate(entry, fn, {"me": player} if player else {})

    legend, colours, columns, own, table = [], [], [], [], []
    column_entries = []
    for word, entries in g.screen:
        if word == "legend":
            legend += [(label, text) for label, _e, text in entries]
        elif word == "colours":
            colours += [(label, text) for label, _e, text in entries]
        elif word == "players":
            for label, entry, fn in entries:
                columns.append(label + _direction(g, entry.expr))
                column_entries.append((entry, fn))
        elif word == "own":
            if viewer:  # the table and the referee have no hand of their own
                own += [(label, value_text(entry_value(entry, fn, viewer))) for label, entry, fn in entries]
        elif word == "table":
            table += [(label, value_text(entry_value(entry, fn))) for label, entry, fn in entries]
    players = tuple((p, tuple(value_text(entry_value(e, fn, p)) for e, fn in column_entries))
                    for p in range(1, g.player_count + 1))

    spaces = {}
    if g.board is not None and g.display is not None:
        name, fn = g.display
        decl = g.symbols.display
        spaces = {s: str(evaluate(decl, fn, {name: s}) or ".") for s in g.board.spaces}

    title = f"{data['game']} - {data['players']} players"
    if data["options"]:
        title += " (" + ", ".join(f"{k}={v}" for k, v in data["options"].items()) + ")"
    status = f"round {data['round']}" + (f", {data['step']}" if data["step"] else "")
    if st.is_over():
        out = data["outcome"]
        note = "game over - " + (("winner" + ("s" if len(out["winners"]) > 1 else "") + ": "
                                   + ", ".join(f"player {p}" for p in out["winners"])) if out["winners"] else "a draw")
    elif data.get("window") and not data["to_move"]:
        note = "a window for responses is open"
    elif data["to_move"]:
        note = "to move: " + ", ".join(f"player {p}" for p in data["to_move"])
    else:
        note = ""
    hidden_names = {"round_number"}
    return Screen(title, status, viewer, g.board if spaces else None, spaces, tuple(legend), tuple(colours),
                  tuple(columns), players, tuple(own), tuple(table), _ranking(g), tuple(data["to_move"]), note,
                  {k: v for k, v in seen.items() if k not in hidden_names})
