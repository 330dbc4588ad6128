"""Every card's `says` text against what its rule does (issue 39): each of the 64 cards is played where
each of its outcomes happens, and its text must name that outcome.

- A Straight card flies its spaces; "If a Biplane is facing upward in row G and is supposed to move 1
  more space "Straight," the plane instead turns to face straight down and ends its movement." and
  "If plane is facing downward in row A and is supposed to move 1 more space "Straight," it crashes
  into the ground." (4.2)
- A loop follows its curve; where none leads away (the biplane respawned after programming it, or the
  second quarter of a 180 at the edge) it flies that quarter straight (assumption 5), and it may be
  programmed there only when nothing else can be flown (assumption 6).
- A Repeat flies the maneuver left out again and draws a card: "The player's "Temporary Hand" at this
  point may not exceed the number of "Repeat" cards the player has" (4.1.5).
- A Shoot card places a Shot "one space straight in front of the Biplane, and then (if it has not
  already hit a Biplane) moves it one more space forward", and one "played from a player's Permanent
  Hand" comes "back to his Permanent Hand at the end of his turn" (4.4.1).
- Every card names its respawn space (4.5), and where the tree moves it: "Any Biplane that draws A7 to
  respawn draws again. Any Biplane that respawns in A2-A6 at the space 6 Columns to the right." (7.2)"""
from __future__ import annotations

import re

import pytest

from .helpers import ALL_CARDS, act, place, program_all, quiet, ready, set_hand, shot, stack_deck, texts
from .test_rules import next_turn_of, programming, solo

CARDS = sorted(ALL_CARDS)
SAYS = ready().game.columns["says"]
STRAIGHTS = [c for c in CARDS if c.startswith("Straight")]
LOOPS = [c for c in CARDS if "CW" in c]
REPEATS = [c for c in CARDS if c.startswith("Repeat")]
SHOOTS = [c for c in CARDS if c.startswith("Shoot")]
RESPAWN = "Repeat B4 Up"        # drawn for a crash in these scenarios: B4, facing up


def _other_straight(card):
    return "Straight 1 A1" if card != "Straight 1 A1" else "Straight 1 A2"


def _at(st, player=1):
    return st.vars["at"][player - 1], st.vars["heading"][player - 1]


@pytest.fixture(scope="module")
def base():
    return ready()


# ---------------------------------------------------------------- Straight cards
@pytest.mark.parametrize("card", STRAIGHTS)
def test_a_straight_cards_text_names_its_spaces_the_ceiling_and_the_ground(base, card):
    text = SAYS[card]
    n = int(re.match(r"Fly (\d) spaces? straight ahead;", text).group(1))
    hand = (card, _other_straight(card))
    # straight ahead: n spaces, the heading kept
    st = base.clone()
    solo(st, "C2", "right", hand)
    program_all(st, {1: card})
    assert programming(st) and _at(st) == (f"C{2 + n}", "right")
    # the ceiling, met on the last space: turned down, the move over
    assert "at the ceiling turn to face down and stop" in text
    st = base.clone()
    solo(st, "GFE"[n - 1] + "5", "up", hand)
    program_all(st, {1: card})
    assert programming(st) and _at(st) == ("G5", "down") and st.vars["score"] == [0, 0]
    # the ground, met on the last space: a crash, scored, and a respawn
    assert "into the ground crash" in text
    st = base.clone()
    solo(st, "ABC"[n - 1] + "5", "down", hand)
    stack_deck(st, [RESPAWN])
    program_all(st, {1: card})
    assert programming(st) and st.vars["score"] == [1, 0] and _at(st) == ("B4", "up")


# ---------------------------------------------------------------- Loops
def _turned(heading, clockwise, quarters):
    order = ["right", "up", "left", "down"]            # counter-clockwise
    return order[(order.index(heading) + (-quarters if clockwise else quarters)) % 4]


@pytest.mark.parametrize("card", LOOPS)
def test_a_loops_text_names_its_curve_and_the_straight_fallback(base, card):
    text = SAYS[card]
    clockwise = " clockwise" in text
    quarters = 1 if text.startswith("Loop a quarter circle") else 2
    assert text.startswith(("Loop a quarter circle", "Loop half a circle"))
    assert ("counter-clockwise" in text) == ("CCW" in card)
    hand = (card, "Straight 1 A1")
    # the curve from E5 facing right: a quarter ends a row up or down and a column on, turned 90
    st = base.clone()
    solo(st, "E5", "right", hand)
    program_all(st, {1: card})
    assert programming(st)
    ends = {(1, False): "F6", (1, True): "D6", (2, False): "G5", (2, True): "C5"}
    assert _at(st) == (ends[quarters, clockwise], _turned("right", clockwise, quarters))
    # programmed where a curve leads away, then shot down by a Shot moving between turns (E2 -> E5)
    # and respawned on A2, where none does: the quarter is flown one space straight
    assert "with no curved path leaving, fly" in text and "1 space straight" in text
    st = base.clone()
    solo(st, "E5", "right", hand)
    place(st, 2, "G10", "right")                      # player 2 off row A, out of the way
    st.vars["shots"] = [shot(1, "E2", "right")]
    stack_deck(st, ["Straight 1 A2"])
    program_all(st, {1: card})
    assert programming(st) and st.vars["score"] == [1, 0]
    if quarters == 1:
        assert _at(st) == ("A3", "right")
    else:
        # flown "a quarter at a time": from A3 a curve leads away again, up (counter-clockwise) to B4;
        # clockwise it would go into the ground, so none leads away and that quarter is straight too
        assert "a quarter at a time" in text
        assert _at(st) == (("A4", "right") if clockwise else ("B4", "up"))
    # where no curve leads away it is offered only when nothing else can be flown
    assert "program it there only if nothing else flies" in text
    # (after a Straight 1 from E5 the plane is on E6, where no curve leads away)
    st = base.clone()
    solo(st, "E5", "right", (card, "Straight 1 A1", "Straight 2 A7"))
    program_all(st, {1: "Straight 1 A1"})
    assert _at(st) == ("E6", "right") and texts(st) == ["program Straight 2 A7"]
    st = base.clone()
    solo(st, "E5", "right", hand)
    program_all(st, {1: "Straight 1 A1"})
    assert texts(st) == [f"program {card}"]                          # nothing else: the loop


@pytest.mark.parametrize("card", [c for c in LOOPS if c.startswith("180")])
def test_a_half_loops_second_quarter_at_the_edge_flies_straight(base, card):
    """The first quarter ends on the top or bottom row turned up or down: no curve leads on, so the
    second quarter is one space straight, into the ceiling or the ground."""
    clockwise = " clockwise" in SAYS[card]
    assert "fly that quarter 1 space straight" in SAYS[card]
    st = base.clone()
    solo(st, "B6" if clockwise else "F6", "right", (card, "Straight 1 A1"))
    stack_deck(st, [RESPAWN])
    program_all(st, {1: card})
    assert programming(st)
    if clockwise:     # B6 -> A7 facing down, then straight down into the ground
        assert st.vars["score"] == [1, 0] and _at(st) == ("B4", "up")
    else:             # F6 -> G7 facing up, then straight up into the ceiling: turned down
        assert st.vars["score"] == [0, 0] and _at(st) == ("G7", "down")


# ---------------------------------------------------------------- Repeat cards
@pytest.mark.parametrize("card", REPEATS)
def test_a_repeats_text_names_the_maneuver_flown_again_the_draw_and_the_limit(base, card):
    text = SAYS[card]
    assert text.startswith("Fly the maneuver left out again; draw a card into your Temporary Hand")
    assert "which holds one card per Repeat you have (discard down to it)" in text
    for maneuver, after_first, after_repeat in (("Straight 2 A7", ("E7", "right"), ("E9", "right")),
                                                ("90 CCW G1", ("F6", "up"), ("G5", "left"))):
        st = base.clone()
        solo(st, "E5", "right", (maneuver, "Straight 1 A1", card), temp=("Straight 3 C9",))
        program_all(st, {1: maneuver})
        assert _at(st) == after_first
        act(st, f"program {card}")
        stack_deck(st, ["90 CW E3"])
        act(st, texts(st)[0])                    # player 2 programs; player 1 reveals the Repeat
        # the card drawn makes two in a Temporary Hand that holds one (one Repeat): one is discarded
        assert st.vars["temp"][0] == ["Straight 3 C9", "90 CW E3"]
        assert texts(st) == ["discard Straight 3 C9", "discard 90 CW E3"]
        act(st, "discard Straight 3 C9")
        assert programming(st)
        assert st.vars["temp"][0] == ["90 CW E3"] and st.vars["discard"][-1] == "Straight 3 C9"
        assert _at(st) == after_repeat and st.vars["shown"][0] == maneuver


# ---------------------------------------------------------------- Shoot cards
@pytest.mark.parametrize("card", sorted(set(SHOOTS)))
def test_a_shoot_cards_text_names_the_shot_the_plane_it_meets_and_where_the_card_goes(base, card):
    text = SAYS[card]
    assert text.startswith("After a space flown, fire a Shot one space ahead; it moves on one more space")
    for victim_at in (None, "E7", "E8"):
        st = base.clone()
        solo(st, "E5", "right", (card, "Straight 1 A1", "Straight 2 A7"))
        if victim_at:
            place(st, 2, victim_at, "up")
        stack_deck(st, [RESPAWN])
        program_all(st, {1: "Straight 1 A1"})
        act(st, f"shoot {card}")
        if victim_at is None:                   # one ahead (E7), then one more
            assert st.vars["shots"] == [shot(1, "E8", "right")]
        else:                                   # placed on the plane or moved onto it: shot down
            assert "shooting down a plane it meets" in text
            assert st.vars["shots"] == [] and st.vars["score"] == [0, 1] and _at(st, 2) == ("B4", "up")
        assert programming(st) and card in st.vars["perm"][0]
    assert "From the Permanent Hand it comes back at the turn's end" in text
    # from the Temporary Hand it is discarded
    st = base.clone()
    solo(st, "E5", "right", ("Straight 1 A1", "Straight 2 A7"), temp=(card,))
    program_all(st, {1: "Straight 1 A1"})
    act(st, f"shoot {card} from the temporary hand")
    assert st.vars["temp"][0] == [] and st.vars["discard"][-1] == card


# ---------------------------------------------------------------- Respawn labels
def _crash_and_draw(st, card, then):
    """Player 1 flies into the ground from A5; ``card`` (then ``then``, if needed) is drawn."""
    quiet(st)
    place(st, 1, "A5", "down")
    set_hand(st, 1, perm=("Straight 1 A1", "Straight 2 A7"))
    place(st, 2, "F9", "right")
    stack_deck(st, [card, then])
    program_all(st, {})
    assert programming(st) and st.vars["score"] == [1, 0]
    return _at(st)


@pytest.fixture(scope="module")
def tree_base():
    return ready(board="tree")


@pytest.mark.parametrize("card", sorted(set(CARDS)))
def test_a_cards_text_names_where_a_respawn_puts_the_plane_with_and_without_the_tree(base, tree_base, card):
    """Each card drawn for a respawn on both boards: the text's space and facing, the tree's space, or
    "draw again" (the next card, a Straight 2 on row C, places the plane)."""
    m = re.search(r"Respawn: (\w+), (?:facing (\w+)|draw again)(?: \(with the tree: (\w+|draw again)\))?\.$",
                  SAYS[card])
    label, facing, tree = m.groups()
    then = "Straight 2 C2" if card != "Straight 2 C2" else "Straight 2 C3"
    drawn_next = (then[-2:], "right")
    standard = (label, facing) if label != "none" else drawn_next
    assert _crash_and_draw(base.clone(), card, then) == standard
    on_tree = {None: standard, "draw again": drawn_next}.get(tree, (tree, facing))
    assert _crash_and_draw(tree_base.clone(), card, then) == on_tree
