"""Rows of the coverage table (docs/games/planes.md) that no other test reached: one action a
turn, and a scored goal that keeps its points once its condition has left the board."""
from __future__ import annotations

from rulewright.interpreter.testing import refresh, texts

from .helpers import play, set_board, set_hand, spec, stack_deck
from .test_cards import action_ready, goal_ready


def test_only_one_action_is_played_in_the_action_phase():
    """"Note that you can only play one action during the Action Phase." After Draw 1 the hand
    still holds two cards, and the player is asked for a move, not for another action."""
    st = action_ready({"P1": "R"}, ["Draw 1", "Move Twice"])
    stack_deck(st, ["Gather"])
    assert texts(st) == ["action Draw 1", "action Move Twice", "no action"]
    play(st, "action Draw 1")
    assert sorted(st.vars["hand"][0]) == ["Gather", "Move Twice"]
    assert st.vars["in_play"][0] == ["Draw 1"]
    assert texts(st) == ["move P1"]


def test_a_scored_goal_counts_at_the_end_though_its_condition_is_gone():
    """"Once a player scores a goal, it will award VP at the end of the game even if its condition
    is no longer present on the board." Red scores a single red cube; yellow moves onto it, and
    the game ends with red's goal worth its point."""
    st = goal_ready({"S6": "R", "S5": "Y", "S9": "Y"}, ["Choose One"])
    play(st, "goal Single Own Cube")
    assert st.vars["goals"][0] == ["Choose One"] and st.to_move() == [2]
    st.vars["track"] = 12                       # the end is triggered: this round is the last
    set_hand(st, 2, [])
    refresh(st)
    play(st, "no action", "move S5", "to S6")
    assert spec(st, "S6") == "RY"               # no space holds a single red cube any more
    assert not any(spec(st, s) == "R" for s in st.vars["floor"])
    if not st.is_over():
        play(st, "no goal")
    assert st.is_over()
    assert st.outcome().scores[1] == 1 and st.vars["goal_points"][0] == 1
