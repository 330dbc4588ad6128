"""Elinah Mwangi, The Superb Mechanic: "May always repair one damage marker when taking off." Her
player's choice, on the runway of a seeded standard race (real moves) with 0, 1 and 2 damage markers
on the machine's fuel gauge."""
from __future__ import annotations

import functools

from rulewright.interpreter.testing import mover, positions, texts

from .helpers import game, ship, until

REPAIR, KEEP = "repair a damage marker (Elinah Mwangi)", "keep the damage marker on the fuel gauge"


def elinah_may_take_off(st):
    """The machine to move is flown by Elinah Mwangi, on the ground and may take off."""
    if len(st.to_move()) != 1 or "take off" not in texts(st):
        return False
    s = ship(st, mover(st))
    return s["pilot"] == "Elinah Mwangi" and s["alt"] == 0 and not s["finished"]


@functools.lru_cache(maxsize=None)
def elinah_on_the_runway():
    """Positions of a seeded standard race (3 players, seed 7, real moves) where Elinah Mwangi's
    machine may take off: the first with 0, 1 and 2 damage markers on its gauge (2 grounds it)."""
    found = {}
    for pos in positions(game(3, race="standard"), elinah_may_take_off, seeds=[7], each=10 ** 6):
        found.setdefault(ship(pos.state, mover(pos.state))["gauge"], pos)
        if len(found) == 3:
            return found
    raise AssertionError("seed 7 no longer takes Elinah Mwangi to the runway with 0, 1 and 2 markers")


def elinah_takes_off(markers, answer=None):
    """From the runway position with ``markers`` on the gauge: "take off" (and ``answer``), the dice
    chosen so that the take-off test itself adds no damage. Returns (machine before, machine after)."""
    st = elinah_on_the_runway()[markers].state
    before = dict(ship(st, mover(st)))
    moves = ["take off"] + ([answer] if answer else [])
    after = until(st, moves, lambda s, lines: total(ship(s, before["owner"])) == total(before))
    return before, ship(after, before["owner"]), after


def total(s):
    return s["gauge"] + s["scored_damage"]


def test_elinah_mwangi_may_repair_a_damage_marker_on_taking_off():
    """Elinah Mwangi: "May always repair one damage marker when taking off": the player's choice,
    asked with one marker on the gauge; each answer by the markers it moves (or not)."""
    st = elinah_on_the_runway()[1].state.clone()
    st.apply("take off")
    assert sorted(texts(st)) == sorted([REPAIR, KEEP])
    before, s, _ = elinah_takes_off(1, REPAIR)
    assert (s["gauge"], s["scored_damage"]) == (0, before["scored_damage"] + 1)
    before, s, _ = elinah_takes_off(1, KEEP)
    assert (s["gauge"], s["scored_damage"]) == (1, before["scored_damage"])


def test_elinah_mwangi_is_not_asked_without_a_marker_on_the_gauge():
    before, s, after = elinah_takes_off(0)
    assert before["gauge"] == 0 and REPAIR not in texts(after)
    assert (s["gauge"], s["scored_damage"]) == (0, before["scored_damage"])


def test_elinah_mwangi_takes_off_grounded_repairing_a_damage_marker():
    """Grounded by two markers, she leaves the ground only by repairing one: taking off is that choice."""
    before, s, after = elinah_takes_off(2)
    assert before["gauge"] == 2 and REPAIR not in texts(after) and KEEP not in texts(after)
    assert (s["gauge"], s["scored_damage"]) == (1, before["scored_damage"] + 1)
