"""Moves that explain themselves (issue 31 item 2): each card's text (the `says` column of `table card`)
is shown with every move that plays the card, and every decision of a game says what it asks."""
from __future__ import annotations

import random

from rulewright.interpreter.testing import random_playout, refresh, texts

from .helpers import CARDS, game, set_hand, start


def test_every_card_says_its_action_and_its_goal_each_in_one_sentence():
    says = game(2).compiled.columns["says"]
    assert set(says) == set(CARDS)
    for name in CARDS:
        action, goal = says[name].split(" Goal: ")
        assert action.startswith("Action: ") and action.count(".") == 1 and goal.count(".") == 1, says[name]
    assert len(set(says.values())) == len(CARDS)  # no two cards read alike


def test_an_action_and_a_goal_move_show_the_card_text():
    st = start(2)
    set_hand(st, 1, ["To Gift Shop", "Draw 1"])
    refresh(st)
    told = st.explain("action To Gift Shop", 1)
    assert told.prompt == "play 1 of your 2 cards as an action, or none"
    assert told.cards == (("To Gift Shop", "Action: move 1 of your party cubes to a Gift Shop you pick. "
                           "Goal: a Gift Shop holding at least 1 of your cubes."),)
    # another player is told the card text of this public move, never the prompt
    move = next(m for m in st.legal_moves() if m.text == "action To Gift Shop")
    seen = st.explain(move, 2)
    assert seen.cards == told.cards and seen.prompt is None


def test_every_decision_of_a_played_game_has_a_prompt_with_its_holes_filled():
    st = start(3, seed=4)
    asked = set()

    def check(state):
        if state.is_over():
            return
        for player in {m.player for m in state.legal_moves()}:
            text = state.prompt(player)
            assert text and "{" not in text, (player, texts(state))
            asked.add(text)

    check(st)
    random_playout(st, random.Random(4), check)
    for start_of in ("play 1 of your", "pick up the active cubes", "score 1 card whose goal"):
        assert any(text.startswith(start_of) for text in asked), start_of
    assert any(" cubes on " in text and "drop 1 and go on" in text for text in asked)
