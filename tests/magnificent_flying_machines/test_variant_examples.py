"""The Magnificent Flying Machines variant shipped as an example in docs/variants/ (mfm-parachute.rules),
checked by the state it changes with the game's scenario helpers (the other examples:
tests/test_variant_examples.py)."""
from __future__ import annotations

from pathlib import Path

from rulewright.interpreter.api import load
from rulewright.interpreter.testing import mover, refresh

from .helpers import dashboard, maybe, ship, until, weather

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "variants"


def test_mfm_the_parachute_ignores_one_catastrophic_failure_a_race():
    game = load(str(EXAMPLES / "mfm-parachute.rules"), players=3)
    st = game.new_state(seed=1)
    assert "Parachute" in st.vars["equipment_deck"] + st.vars["equipment_row"]   # a card for sale like the others
    for hand in st.vars["hand"]:
        hand.clear()
    p = mover(st)
    for place in range(2, 12):
        weather(st, place, "Fine")
    # on the mountain (three takeoff symbols needed), nothing to rescue a take-off with
    dashboard(st, p, "Biplane", pilot="Hamish McTarn", equipment=["Parachute"], at=5, fuel=0, luck=0)
    refresh(st)

    def failed_with_an_explosion(state, lines):
        roll = next(x for x in lines if " rolls " in x)
        return "Explosion" in roll and "fails the take-off test" in " ".join(lines)

    # the first catastrophic failure of the race is ignored: no damage, the charge spent
    first = until(st, ["take off", maybe("accept the failure")], failed_with_an_explosion)
    s = ship(first, p)
    assert (s["gauge"], s["alt"], s["charges"]["Parachute"]) == (0, 0, 0)
    assert any("Parachute" in x for x in first.lines) and not any("catastrophically" in x for x in first.lines)
    # the second is not: the take-off catastrophe's damage marker goes on the fuel gauge
    second = until(first.state, ["take off", maybe("accept the failure")], failed_with_an_explosion)
    s = ship(second, p)
    assert (s["gauge"], s["charges"]["Parachute"]) == (1, 0)
    assert any("catastrophically" in x for x in second.lines)
