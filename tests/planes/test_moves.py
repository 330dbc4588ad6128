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


# ------------------------------------------------------------------ picking up and dropping
def test_a_move_starts_only_where_the_player_has_a_cube():
    st = ready({"P1": "RNN", "S4": "YY", "S6": "NN", "S9": "R"})
    assert texts(st) == ["move P1", "move S9"]


def test_every_cube_is_picked_up_and_one_is_dropped_per_space():
    st = ready({"S1": "RYBN", "S2": "N"})
    play(st, "move S1")
    assert spec(st, "S1") == ""
    # at S2 with four cubes: drop any colour and go on, or stop there with all four
    assert texts(st) == ["drop red", "drop yellow", "drop blue", "drop grey", "stop"]
    play(st, "drop blue", "drop red", "drop grey")
    assert (spec(st, "S2"), spec(st, "S3"), spec(st, "P3"), spec(st, "C")) == ("BN", "R", "N", "Y")
    assert texts(st) == ["no goal"]


def test_stopping_drops_every_cube_left_and_the_first_space_cannot_be_skipped_by_stopping():
    st = ready({"P1": "RRRRR"})
    play(st, "move P1")
    assert "stop" in texts(st)          # already one space along: P2
    play(st, "drop red", "stop")
    assert (spec(st, "P2"), spec(st, "S1")) == ("R", "RRRR")


def test_a_single_cube_moves_exactly_one_space():
    st = ready({"S6": "R"})
    play(st, "move S6")
    assert spec(st, "S7") == "R" and texts(st) == ["no goal"]


def test_a_space_where_nothing_else_can_be_done_asks_nothing():
    st = ready({"S1": "RR"})
    play(st, "move S1")
    assert texts(st) == ["drop red", "stop"]
    play(st, "drop red")                 # the last red goes on to S3 by itself
    assert (spec(st, "S2"), spec(st, "S3")) == ("R", "R")


# ------------------------------------------------------------------ gates and boarding
def test_a_gate_takes_only_the_last_single_cube_of_its_colour():
    st = ready({"P2": "RN"})
    play(st, "move P2")
    # at S1 with red and grey: G1 is red's gate, but two cubes cannot land on it
    assert texts(st) == ["drop red", "drop grey", "stop"]
    play(st, "drop grey")
    assert texts(st) == ["to S2", "to G1"]
    lines = play(st, "to G1")
    assert st.vars["boarded"]["red"] == 1 and st.vars["track"] == 1
    assert st.vars["cubes"]["G1"] == [] and any("boards a red cube" in l for l in lines)


def test_two_cubes_of_the_gates_colour_cannot_land_on_it_together():
    st = ready({"P2": "RRN"})
    play(st, "move P2", "drop grey")
    # two reds go on from S1: only to S2, never onto G1
    assert spec(st, "S1") == "N" and texts(st) == ["drop red", "stop"]
    play(st, "stop")
    assert spec(st, "S2") == "RR" and st.vars["track"] == 0


def test_a_cube_of_another_colour_cannot_land_on_a_gate():
    st = ready({"P2": "RN"})
    play(st, "move P2", "drop red")     # grey is the last cube: G1 is not a choice
    assert spec(st, "S2") == "N" and st.vars["track"] == 0


def test_no_cube_ever_moves_past_a_gate():
    st = ready({"P2": "NNR"})
    play(st, "move P2", "drop grey", "drop grey")
    # S1 then S2: the gate G1 beside S1 was never a way through
    assert (spec(st, "S1"), spec(st, "S2"), spec(st, "S3")) == ("N", "N", "R")


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


def test_only_a_single_grey_cube_boards_a_grey_plane():
    st = ready({"S5": "RN"})
    play(st, "move S5", "drop grey")                   # the last cube, red, beside N1: it goes on
    assert (spec(st, "S6"), spec(st, "S7"), st.vars["load"]["N1"]) == ("N", "R", 0)
    assert texts(st) == ["no goal"]                    # a red cube never boards a grey plane
    st = ready({"S4": "RNN"})
    play(st, "move S4", "drop grey")
    assert texts(st) == ["drop red", "drop grey", "stop"]    # two cubes at S6: no gate yet


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


def test_grey_cubes_never_board():
    st = ready({"S4": "RN", "S2": "N", "S9": "N"})
    play(st, "move S4", "drop red")
    assert st.vars["track"] == 0


# ------------------------------------------------------------------ the Zephyr centre
def test_the_zephyr_centre_lets_the_player_pick_an_arrow():
    st = ready({"S9": "RNN"}, airport="zephyr")
    play(st, "move S9")
    assert texts(st) == ["drop red", "drop grey", "stop"]
    play(st, "drop grey")
    assert texts(st) == ["to S1", "to S5"]
    play(st, "to S5", "drop grey")
    assert texts(st) == ["to P3", "to G1"]
    play(st, "to P3")
    assert (spec(st, "C"), spec(st, "S5"), spec(st, "P3")) == ("N", "N", "R")


def test_zephyr_centre_then_gate():
    # C -> S5 -> G1: red drops grey at C, grey at S5 and boards
    st = ready({"S9": "RNN"}, airport="zephyr")
    play(st, "move S9", "drop grey", "to S5", "drop grey", "to G1")
    assert st.vars["boarded"]["red"] == 1


# ------------------------------------------------------------------ blockages
def test_seven_party_cubes_make_a_blockage_and_grey_cubes_do_not_count():
    st = ready({"S2": "R", "S3": "YYYYYYNN"})
    assert st.vars["cones"] == []
    lines = play(st, "move S2")
    assert st.vars["cones"] == ["S3"] and "a blockage forms at S3" in lines


def test_nothing_moves_past_a_blockage_but_cubes_may_enter_it():
    st = ready({"P2": "RRR", "S1": "YYYYYYY"})
    play(st, "move P2")
    # at the blocked S1: no cube may go on, so all three stay
    assert spec(st, "S1") == "RRRYYYYYYY" and texts(st) == ["no goal"]


def test_grey_cubes_do_not_move_past_a_blockage_either():
    st = ready({"P2": "RNN", "S2": "YYYYYYY"})
    play(st, "move P2", "drop red")
    assert spec(st, "S2") == "YYYYYYYNN"


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


def test_a_blocked_space_can_be_the_source_and_the_cone_lifts():
    st = ready({"S1": "RYYYYYY", "S2": ""})
    assert st.vars["cones"] == ["S1"]
    play(st, "move S1", "stop")
    assert st.vars["cones"] == ["S2"]     # the whole group moved on and blocks S2 now


def test_a_cone_lifts_as_soon_as_fewer_than_seven_party_cubes_remain():
    st = start(2)
    set_board(st, {"S1": "RRRYYYY", "S5": "R"})
    set_hand(st, 1, ["To Fast Food"])
    refresh(st)
    assert st.vars["cones"] == ["S1"]
    lines = play(st, "action To Fast Food", "place at P2")
    assert st.vars["cones"] == [] and "the blockage at S1 is lifted" in lines


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
