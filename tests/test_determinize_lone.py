"""Determinization deals again a card alone of its deck among what the player cannot see (the last card
of a pile), from the copies of its table the player sees nowhere: kept, its real value would steer a
search, and a hint would tell it."""
from __future__ import annotations

import random

import rulewright
from rulewright.interpreter.play.determinize import Dealer

RULES = '''game "Last card"
players 2
table card(name):
    "a"
    "b"
    "c"
var pile = [] hidden
player var score = 0
setup:
    pile = ["c"]
turn:
    choose x in ["wait"] as "{x}"
    end game
'''


def test_the_last_card_of_a_pile_is_drawn_from_the_cards_not_in_view(tmp_path):
    path = tmp_path / "last.rules"
    path.write_text(RULES)
    state = rulewright.load(str(path), players=2).new_state(seed=1)
    dealer = Dealer(state, 1)
    seen = {dealer.sample(random.Random(i)).vars["pile"][0] for i in range(60)}
    assert seen == {"a", "b", "c"}  # all three could be there, as far as player 1 can tell
    assert state.vars["pile"] == ["c"]  # the real state is untouched
