"""What a player sees of Air Show mid-auction and mid-preparation (snapshots): the rivals' bid values,
hands and plans show as '?' or a count."""
from __future__ import annotations

from rulewright.interpreter.testing import mover

from .helpers import at_step, drive, game


def test_mid_auction_as_the_bidder(snapshot):
    st = at_step(game(3).new_state(seed=8), "auction bidding", round_number=2)
    drive(st, lambda s: sum(len(lot["bids"]) for lot in s.vars["lots"]) >= 4)
    text = st.render(mover(st))
    assert '"value": "?"' in text and '"value": 0' in text
    assert text == snapshot


def test_mid_preparation_as_the_next_planner(snapshot):
    st = at_step(game(3).new_state(seed=8), "air show preparation", round_number=2)
    first = mover(st)
    drive(st, lambda s: mover(s) != first, prefer=("show ", "play "))
    text = st.render(mover(st))
    assert '"entered": "?"' in text and '"placed": "?"' in text
    assert text == snapshot
