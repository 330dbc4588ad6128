"""Rows of the coverage table (docs/games/barnstormers.md) that no other test reached: every one of
the 48 Trick Stunt cards claimed once its formation is flown in."""
from __future__ import annotations

from rulewright.interpreter.testing import mover, play, refresh, texts

from .helpers import check_invariants, clear, fleet, put, ready, set_hand, set_panel
from .test_rules import QUIET_PANEL


def cells(shape):
    """The spaces of a stunt's shape (rows from the top) laid with its bottom-left corner on A1."""
    rows = shape.split("/")
    return [f"{chr(ord('A') + len(rows) - 1 - r)}{c + 1}"
            for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "x"]


STEPS = {"N": (1, 0), "NE": (1, 1), "E": (0, 1), "SE": (-1, 1), "S": (-1, 0), "SW": (-1, -1), "W": (0, -1),
         "NW": (1, -1)}


def _step(x, heading, k, size):
    dr, dc = STEPS[heading]
    r, c = ord(x[0]) - ord("A") + k * dr, int(x[1:]) + k * dc
    return f"{chr(ord('A') + r)}{c}" if 0 <= r < size and 1 <= c <= size else None


def fly_into(st, p, shape, size):
    """The formation's planes placed but one, which the player's two actions fly in from two spaces
    away (a plane may fly into a space only where the rules let it: nothing is put on the last)."""
    for last in reversed(shape):
        for heading in STEPS:
            mid, start = _step(last, heading, -1, size), _step(last, heading, -2, size)
            if mid and start and mid not in shape and start not in shape:
                for x in shape:
                    if x != last:
                        put(st, x, p, "N")
                put(st, start, p, heading)
                refresh(st)
                play(st, "move a plane", f"move {start} {heading}", "move a plane", f"move {mid} {heading}")
                assert set(fleet(st, p)) == set(shape)
                return
    raise AssertionError(f"no way into {shape}")


def test_every_trick_stunt_is_claimed_once_its_formation_is_flown():
    """"When you perform (create) one of the six available Judges' Trick Stunts, you may claim the
    Trick Stunt card": each card on the panel, its formation completed by the turn's two moves, is
    claimed: the card goes from the panel to the player, the Stunt tracker moves up one, the slot
    is refilled."""
    base = ready(4)
    p = mover(base)
    clear(base)
    for q in range(1, 5):
        set_hand(base, q, [])
    compiled = base.game
    for name in compiled.tables["stunt"]:
        st = base.clone()
        shape = cells(compiled.columns["shape"][name])
        set_panel(st, [name] + [c for c in QUIET_PANEL if c != name][:5])
        assert st.vars["claimed"][p - 1] == [] and st.vars["stunts"][p - 1] == 0
        fly_into(st, p, shape, 7)
        play(st, "claim a Trick Stunt")
        claim = f"claim {name} ({compiled.columns['value'][name]} CP)"
        assert claim in texts(st), (name, texts(st))
        play(st, claim)
        assert st.vars["claimed"][p - 1] == [name], name
        assert st.vars["stunts"][p - 1] == 1, name
        assert name not in st.vars["panel"] and len(st.vars["panel"]) == 6, name
        check_invariants(st)

