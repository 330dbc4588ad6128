"""Every card of the deck, once as an action and once as a goal, on Flying Cloud with the printed
points of interest: fast food P4 P1 P2 S9, restroom S1 S8 S5 S4, gift shop S2 S6, help desk C S7,
fine dining S3, blank P3 (the airport: tests/planes/test_moves.py). Two players: 1 is red, 2 is yellow; blue and green are neutral."""
from __future__ import annotations

import pytest

from rulewright.interpreter.testing import reach, refresh, texts

from .helpers import CARDS, game, play, set_board, set_hand, spec, stack_deck, start


def action_ready(layout, hand, players=2, seed=1):
    """Player 1's Action Phase with this board and hand."""
    st = start(players, seed=seed)
    set_board(st, layout)
    set_hand(st, 1, hand)
    refresh(st)
    return st


def goal_ready(layout, hand, players=2):
    """Player 1's Goal Phase (after a move far from the test's spaces) with this board and hand."""
    st = start(players)
    set_board(st, {"S9": "R"})
    st.apply("no action")
    st.apply("move S9")
    set_board(st, layout)
    set_hand(st, 1, hand)
    refresh(st)
    return st


def test_the_deck_is_the_rulebooks_fifteen_cards_four_times():
    g = game(2)
    assert sorted(set(g.compiled.tables["card"])) == sorted(CARDS)
    assert len(g.compiled.tables["card"]) == 60
    cols = g.compiled.columns
    for name, (goal, vp) in CARDS.items():
        assert (cols["goal_name"][name], cols["vp"][name]) == (goal, vp)


# ------------------------------------------------------------------ actions
def test_an_action_card_is_discarded_at_the_end_of_the_turn_and_cannot_be_a_goal():
    st = action_ready({"P3": "R"}, ["Draw 1"])
    stack_deck(st, ["Draw 1"])
    play(st, "action Draw 1")
    assert st.vars["in_play"][0] == ["Draw 1"] and st.vars["hand"][0] == ["Draw 1"]
    play(st, "move P3")
    # the blank space P3 is empty now; only the card just drawn can score it
    play(st, "goal Blank Space")
    assert st.vars["goals"][0] == ["Draw 1"] and st.vars["discard"] == ["Draw 1"]
    assert st.vars["in_play"][0] == []


def test_choose_one_extra_goal_scores_now_and_the_goal_phase_may_score_another():
    st = action_ready({"S2": "R", "S5": "R", "S9": "R"}, ["Choose One", "To Gift Shop", "To Restroom"])
    play(st, "action Choose One")
    assert texts(st) == ["ignore blockages", "extra goal"]
    play(st, "extra goal")
    assert texts(st) == ["goal Gift Shop", "goal Restroom"]
    play(st, "goal Gift Shop")
    assert st.vars["goals"][0] == ["To Gift Shop"]
    play(st, "move S9")                  # red at the restroom S5 still: the Goal Phase scores it
    assert texts(st) == ["goal Restroom", "no goal"]
    play(st, "goal Restroom")
    assert st.vars["goals"][0] == ["To Gift Shop", "To Restroom"]


def test_a_skip_still_owed_with_the_last_cube_is_made_by_itself():
    st = action_ready({"S2": "RN"}, ["Skip 1 Space"])
    lines = play(st, "action Skip 1 Space", "move S2", "drop grey")
    # the red cube alone reaches P3: it must skip it and ends at C
    assert "player 1 skips P3" in lines
    assert (spec(st, "S3"), spec(st, "P3"), spec(st, "C")) == ("N", "", "R")


def test_skip_then_board():
    st = action_ready({"P2": "R"}, ["Skip 1 Space"])
    play(st, "action Skip 1 Space", "move P2")
    # S1 is skipped with the single red cube, which then picks S2 or the gate G1
    assert texts(st) == ["to S2", "to G1"]
    play(st, "to G1")
    assert st.vars["boarded"]["red"] == 1 and spec(st, "S1") == ""


def test_an_action_that_cannot_be_carried_out_cannot_be_played():
    st = action_ready({"S5": "R"}, ["To Fine Dining", "To Gift Shop", "Draw 1"])
    st.vars["poi"]["S3"] = "blank"           # no fine dining left on the board
    refresh(st)
    assert texts(st) == ["action To Gift Shop", "action Draw 1", "no action"]


def last_gather(st):
    """A ``where``: an Action Phase whose mover holds Gather alone, with the whole party on one space."""
    if st.step != "action" or not any(m.text == "no action" for m in st.legal_moves()):
        return False
    (p,), v = st.to_move(), st.vars
    return v["hand"][p - 1] == ["Gather"] and len([s for s in v["floor"] if v["colour"][p - 1] in v["cubes"][s]]) == 1


def test_gather_with_the_whole_party_on_one_space_is_played_and_empties_the_hand():
    """Action Phase: "If you choose, you may play one card from your hand as an action. Place the card
    face up in front of you and then carry out the instructions of the card." Gather: "Choose a space
    where you have at least 1 of your party cubes. Then collect all of your other party cubes and add
    them to that chosen space." With the party on one space alone, that space is chosen and no other
    cube is left to collect: the card is carried out. End of turn: "If you have no cards left in your
    hand, you may draw one card from the draw deck." (Was refused: a last Gather kept the hand full.)
    Two players, seed 17: found by a search over seeds 0-39 when the test was written."""
    st = reach(game(2), last_gather, seeds=[17]).state
    (p,), v = st.to_move(), st.vars
    me, board, top = v["colour"][p - 1], {s: list(c) for s, c in v["cubes"].items()}, v["deck"][-1]
    (home,) = [s for s in v["floor"] if me in v["cubes"][s]]
    play(st, "action Gather")
    # the only space with a cube of the party is chosen without asking; nothing moved
    assert v["in_play"][p - 1] == ["Gather"] and v["hand"][p - 1] == []
    assert v["cubes"] == board
    assert texts(st) == [f"move {home}"]
    while st.to_move() == [p] and not any(t.startswith("action ") for t in texts(st)):
        st.apply("no goal" if "no goal" in texts(st) else "stop" if "stop" in texts(st) else texts(st)[0])
    # the card is discarded, and the empty hand draws the card on top of the deck
    assert v["discard"][-1] == "Gather" and v["in_play"][p - 1] == []
    assert v["hand"][p - 1] == [top]


def test_a_card_that_moves_party_cubes_offers_only_the_places_where_one_arrives():
    # the whole party together at the fast food P1: the other three fast food restaurants are offered
    st = action_ready({"P1": "RRRRRY"}, ["To Fast Food"])
    play(st, "action To Fast Food")
    assert texts(st) == ["place at P4", "place at P2", "place at S9"]
    # with P1 the only fast food left, the card would move nothing: it is not offered; Gather, which
    # asks only for a space holding one of your cubes, is
    st = action_ready({"P1": "RRRRRY"}, ["To Fast Food", "Gather", "Draw 1"])
    for s in ("P4", "P2", "S9"):
        st.vars["poi"][s] = "blank"
    refresh(st)
    assert texts(st) == ["action Gather", "action Draw 1", "no action"]
    # one red cube elsewhere: both move it
    set_board(st, {"P1": "RRRRY", "S6": "R"})
    refresh(st)
    assert texts(st) == ["action To Fast Food", "action Gather", "action Draw 1", "no action"]


# ------------------------------------------------------------------ goals
# The three "exactly N" goals the rulebook does not follow with "Other cubes may also be present":
# N cubes of that kind and nothing else on the space.
ALONE = [
    ("Choose One", "R"),            # "Any space with exactly 1 cube of your color"
    ("Skip 1 Space", "N"),          # "Any space with exactly 1 neutral cube"
    ("Move Backwards", "NNGB"),     # "Any space with exactly 4 neutral cubes" (green and blue are neutral)
]


@pytest.mark.parametrize("card,exact", ALONE, ids=[a[0] for a in ALONE])
@pytest.mark.parametrize("extra", ["", "Y", "N", "R"])
def test_exactly_n_goals_want_no_other_cube_on_the_space(card, exact, extra):
    goal = CARDS[card][0]
    st = goal_ready({"S6": exact + extra, "S9": "YY"}, [card])
    holds = extra == ""
    assert texts(st) == ([f"goal {goal}", "no goal"] if holds else ["no goal"])


def test_goals_see_only_cubes_in_the_airport_and_planes_are_not_spaces():
    st = goal_ready({"S9": "RR", "P1": "N", "P3": "N"}, ["Choose One", "Draw 1"])
    st.vars["boarded"]["red"] = 1         # one red cube alone on the red plane
    refresh(st)
    # neither "exactly 1 red cube" (the plane) nor "an empty blank space" (the gates) holds
    assert texts(st) == ["no goal"]


def test_own_neutral_other_takes_an_unassigned_colour_as_the_other_colour():
    """"Unassigned party cubes are still considered to be a unique color for the purpose of scoring
    goals": red moves onto a grey and an unassigned green cube and scores Own Neutral Other."""
    st = start(3)
    set_board(st, {"P1": "R", "P2": "NG", "S9": "Y", "S6": "B"})
    set_hand(st, 1, ["Move Twice"])
    refresh(st)
    play(st, "no action", "move P1")
    assert spec(st, "P2") == "RGN"
    assert texts(st) == ["goal Own Neutral Other", "no goal"]
    play(st, "goal Own Neutral Other")
    assert st.vars["goals"][0] == ["Move Twice"]


def test_own_neutral_other_with_two_neutral_colours_still_wants_three_colours():
    st = goal_ready({"S6": "RGG", "S7": "RNNG"}, ["Move Twice"])
    assert texts(st) == ["no goal"]
