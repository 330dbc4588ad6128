"""The Move Phase, rule by rule: pick up every cube, one per space along the arrows, stop any time
after one space, gates only for the last single cube of the plane's colour, full planes closed,
the boarding track, neutral planes' "draw 2", the Zephyr centre's two arrows, and blockages.

Flying Cloud: from the centre C one arrow to P4 P1 P2 S1 S2 S3, the other to S4 S5 S6 S7 S8 S9; both
ways lead on to P3, and P3 back to C. Gates beside the spaces in front of them: S1-G1, S5-G2, S4-G3,
S8-G4, and the grey neutral gates S6-N1, P1-N2. Player 1 is red (G1), player 2 yellow (G2)."""
from __future__ import annotations

import pytest

from rulewright.dsl.errors import IllegalMoveError

from rulewright.interpreter.testing import refresh, texts

from .helpers import fill, play, set_board, set_hand, spec, start


def ready(layout, players=2, hand=(), **options):
    """Player 1 at the Action Phase with this board and hand, and 'no action' played."""
    st = start(players, **options)
    set_board(st, layout)
    set_hand(st, 1, list(hand))
    refresh(st)
    st.apply("no action")
    return st


# ------------------------------------------------------------------ boarding (picking up, dropping, the
# gates, the arrows and the blockages over real moves: test_cover_moves.py)
def test_a_player_may_board_another_players_cube_which_scores_for_its_owner():
    st = ready({"S4": "YR"})
    play(st, "move S4", "drop red", "to G2")
    assert st.vars["boarded"]["yellow"] == 1 and st.vars["track"] == 1


def test_boarding_a_neutral_plane_draws_two_cards_at_once():
    st = ready({"S7": "GR"}, players=2, hand=["Draw 1"])
    deck = len(st.vars["deck"])
    play(st, "move S7", "drop red", "to G4")
    assert st.vars["boarded"]["green"] == 1
    assert len(st.vars["hand"][0]) == 3 and len(st.vars["deck"]) == deck - 2


# ------------------------------------------------------------------ grey neutral gates
def test_a_grey_cube_boards_a_grey_plane_and_the_active_player_draws_two():
    """"If the cube does not belong to a player at the table, especially if it is a grey neutral cube,
    the active player immediately draws two cards" and "Each time a cube boards a plane, the boarding
    token must be moved forward one space"."""
    st = ready({"S5": "RN", "S1": "Y"}, hand=["Draw 1"])
    deck = len(st.vars["deck"])
    play(st, "move S5", "drop red")
    assert texts(st) == ["to S7", "to N1"]            # the last cube is grey, beside a grey gate
    lines = play(st, "to N1")
    assert "player 1 boards a grey cube on the grey plane at N1 (boarding track 1)" in lines
    assert "player 1 draws 2 cards for boarding a neutral plane" in lines
    assert st.vars["load"]["N1"] == 1 and st.vars["boarded"]["grey"] == 1 and st.vars["track"] == 1
    assert len(st.vars["hand"][0]) == 3 and len(st.vars["deck"]) == deck - 2
    assert spec(st, "S6") == "R" and st.vars["cubes"]["N1"] == []
    assert "N1  plane grey 1/5 draw 2" in st.render(1)


def test_a_full_grey_plane_is_closed_and_the_other_stays_open():
    """The rulebook: "If a neutral plane is filled with five cubes, it may no longer be boarded during the game."
    """
    st = ready({"S5": "RN", "P4": "RN"})
    st.vars["load"]["N1"] = 5
    st.vars["boarded"]["grey"] = 5
    st.vars["track"] = 5
    refresh(st)
    lines = play(st, "move S5", "drop red")           # the grey goes on alone: N1 is never offered
    assert spec(st, "S6") == "R" and spec(st, "S7") == "N" and st.vars["load"]["N1"] == 5
    assert not any("boards" in l for l in lines)
    assert "N1  plane grey 5/5 draw 2 full" in st.render(1)
    st = ready({"P4": "RN"})
    st.vars["load"]["N1"] = 5
    refresh(st)
    play(st, "move P4", "drop red")
    assert texts(st) == ["to P2", "to N2"]


def test_a_full_plane_is_closed():
    st = ready({"P2": "RN"})
    fill(st, "red", 5)
    st.vars["track"] = 5
    play(st, "move P2", "drop grey")
    assert spec(st, "S2") == "R"        # G1 was never offered


# ------------------------------------------------------------------ blockages made during a move
def test_a_blockage_made_during_the_move_does_not_stop_it():
    st = ready({"P2": "RRN", "S1": "YYYYYY"})
    play(st, "move P2", "drop red")
    assert st.vars["cones"] == ["S1"]
    play(st, "drop red")
    assert spec(st, "S3") == "N"


def test_a_blockage_made_during_the_move_stops_the_cubes_when_they_come_round_to_it():
    """It is behind them only until they reach it again: "they may continue moving beyond the
    blockage, because the blockage occurred behind them" and "no party cubes may move past that
    space"."""
    st = ready({"P2": "RRNNNNNNNN", "S1": "YYYYYY"})
    play(st, "move P2", "drop red")                     # S1: seven party cubes, a cone
    assert st.vars["cones"] == ["S1"]
    assert "drop grey" in texts(st)                     # the cone is behind them: they go on
    play(st, "drop grey", "drop grey", "drop grey", "drop grey")   # S2 S3 P3 C: one grey cube each
    play(st, "to P4", "drop grey", "drop grey", "drop grey")       # P4 P1 P2
    # round the loop, back at S1 with two cubes: the cone is in front of them now, so they stay
    assert spec(st, "S1") == "RRYYYYYYN" and st.step == "goal"
    assert spec(st, "S2") == "N" and st.vars["cones"] == ["S1"]


def test_a_blockage_made_during_the_move_stops_the_cubes_on_the_zephyr_loop_too():
    st = ready({"C": "RRNNNNNNNN", "S1": "YYYYYY"}, airport="zephyr")
    play(st, "move C", "to S1", "drop red")             # S1: a cone, made by this move
    for _ in range(7):                                  # P1 S2 S3 P2 S4 S9 C
        play(st, "drop grey")
    assert texts(st) == ["to S1", "to S5"]
    play(st, "to S1")                                   # into the cone it made: the two cubes stay
    assert spec(st, "S1") == "RRYYYYYYN" and st.step == "goal"


def test_a_blockage_blocks_from_the_start_of_the_next_move_only():
    """Yellow's first move of Move Twice makes a blockage; the second move cannot pass it."""
    st = start(2)
    set_board(st, {"S1": "RRRR", "S2": "YYY", "S3": "R"})
    set_hand(st, 1, ["Move Twice"])
    refresh(st)
    play(st, "action Move Twice", "move S1", "stop")
    assert st.vars["cones"] == ["S2"]
    play(st, "move S3")
    assert spec(st, "P3") == "R"
    st2 = start(2)
    set_board(st2, {"S1": "RRRR", "S2": "YYY", "P2": "RNN"})
    set_hand(st2, 1, ["Move Twice"])
    refresh(st2)
    play(st2, "action Move Twice", "move S1", "stop", "move P2", "drop grey")
    # red and grey reach S2, blocked since this move began: both stay there
    assert spec(st2, "S2") == "RRRRRYYYN" and spec(st2, "S3") == ""


def test_a_space_with_a_cone_cannot_be_skipped():
    st = start(2)
    set_board(st, {"P2": "RR", "S1": "YYYYYYY"})
    set_hand(st, 1, ["Skip 1 Space"])
    refresh(st)
    # the only move enters the blockage at once: no skip possible, so the card cannot be played
    assert "action Skip 1 Space" not in texts(st)


def test_a_player_without_cubes_in_the_airport_makes_no_move():
    st = start(2)
    set_board(st, {"S6": "Y"})
    st.vars["boarded"]["red"] = 5
    st.vars["track"] = 5
    set_hand(st, 1, ["Draw 1"])
    refresh(st)
    board = {s: list(c) for s, c in st.vars["cubes"].items()}
    lines = play(st, "no action")
    assert "player 1 has no cube that can move" in lines and texts(st)[-1] == "no goal"
    assert st.vars["cubes"] == board and st.vars["track"] == 5      # the Move Phase moved nothing
    assert st.vars["hand"][0] == ["Draw 1"] and st.to_move() == [1]


def test_a_refused_move_changes_nothing():
    st = ready({"P1": "RNN"})
    before = st.to_json()
    with pytest.raises(IllegalMoveError):
        st.apply("move S5")
    assert st.to_json() == before
