"""Rows of the coverage table (docs/games/biplane.md) that no rule test reached: every card's
respawn label, and each Straight card flown by its own number of spaces."""
from __future__ import annotations

import pytest

from .helpers import ALL_CARDS, assert_full_deck, place, program_all, quiet, ready, set_hand, stack_deck
from .test_rules import programming


def crashing():
    """Player 1 about to fly into the ground from A5; player 2 parked where no label points."""
    st = ready()
    quiet(st)
    place(st, 1, "A5", "down")
    set_hand(st, 1, perm=("Straight 1 A1", "Straight 2 A7"))
    place(st, 2, "F9", "right")
    return st


def test_every_card_respawns_a_plane_where_its_label_says():
    """4.5: "Draw the next card from the deck, and place it on the indicated space ... facing to the
    right, unless the card says "Up"". Every one of the 64 cards, drawn for a respawn; an
    unlabelled Shoot card indicates no space, so the next card is drawn."""
    base = crashing()
    for card in sorted(ALL_CARDS):
        st = base.clone()
        words = card.split()
        up = words[-1] == "Up"
        label = words[-2] if up else (None if card == "Shoot" else words[-1])
        drawn = [card] if label else [card, "Straight 2 C3"]
        stack_deck(st, drawn)
        assert st.vars["at"][0] == "A5" and st.vars["score"] == [0, 0]
        program_all(st, {})                       # either straight flies into the ground
        assert programming(st), card
        where = (label or "C3", "up" if up else "right")
        assert (st.vars["at"][0], st.vars["heading"][0]) == where, card
        assert st.vars["score"] == [1, 0], card
        assert st.vars["discard"][-len(drawn):] == drawn, card
        assert_full_deck(st, card)


@pytest.mark.parametrize("card, end", [("Straight 1 A1", "C6"), ("Straight 2 C1", "C7"), ("Straight 3 C7", "C8")])
def test_each_straight_card_flies_its_number_of_spaces(card, end):
    """4.1.1: "moving a number of spaces, 1 at a time, indicated by the "Straight" maneuver card
    (i.e., 1, 2 or 3)"."""
    st = ready()
    quiet(st)
    place(st, 1, "C5", "right")
    set_hand(st, 1, perm=(card, "Straight 1 A2" if card != "Straight 1 A2" else "Straight 1 A3"))
    program_all(st, {1: card})
    assert programming(st)
    assert (st.vars["at"][0], st.vars["heading"][0]) == (end, "right")
