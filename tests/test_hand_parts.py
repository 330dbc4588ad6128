"""A hand held in parts ('player var X = [] secret in HAND', docs/language.md, "Variables"): the others see
how many cards the parts hold together, never each part's count, so which part a card face down left
(or a card drawn went to) stays its owner's, through every channel: the view, the text screen, the
picture, the information state, the copies a hint searches (determinize), and the checker's account of
what is public."""
from __future__ import annotations

import random

import pytest

from rulewright.dsl.errors import RulesError
from rulewright.interpreter.play.determinize import Dealer
from rulewright.interpreter.present.screen import build
from rulewright.interpreter.present.svg import render_svg
from rulewright.interpreter.testing import shipped

PARTS = '''
game "Two hands"
players 2
table card(name, points):
    "A", 1
    "B", 2
    "C", 3
    "D", 4
    "E", 5
var deck = [] hidden
player var kept = [] secret in hand
player var drawn = [] secret in hand
player var score = 0
display:
    players "Score" = score, "Hand" = hand as hand
    own "Kept" = kept, "Drawn" = drawn
setup:
    deck = shuffled(card)
    for p in players:
        draw c from deck
        add c to p.kept
turn:
    if len(deck) > 0:
        draw d from deck
        add d to me.drawn
    choose c in me.kept + me.drawn by me secretly as "play {c}" shown "plays a card"
    if c in me.kept:
        remove c from me.kept
    else:
        remove c from me.drawn
    reveal c as "player {me} plays {c}"
    me.score += c.points
    if revealed(len(me.kept) + len(me.drawn) == 0):
        end game
'''


def _split_otherwise(st):
    """A copy of ``st`` in which player 1 holds the same cards, all in the first part."""
    other = st.clone()
    other.vars["kept"][0] = other.vars["kept"][0] + other.vars["drawn"][0]
    other.vars["drawn"][0] = []
    return other


def _seen_by(st, player: int) -> tuple:
    return (st.view(player), st.render(player), render_svg(st, player), st.information_state(player))


def _copies(st, player: int, seeds=range(5)) -> list:
    dealer = Dealer(st, player)
    return [dealer.sample(random.Random(seed)).vars for seed in seeds]


@pytest.fixture
def parted(make_game):
    st = make_game(PARTS).new_state(seed=3)
    st.apply(st.legal_moves()[0])  # player 1 draws into 'drawn' and plays one card
    st.apply(st.legal_moves()[0])  # player 2 likewise; player 1 has drawn again
    assert st.vars["drawn"][0] and st.vars["kept"][0] is not None
    return st


def test_the_others_see_the_parts_counted_together_and_the_owner_each_part(parted):
    st = parted
    mine = st.view(1)["vars"]
    theirs = st.view(2)["vars"]
    held = st.vars["kept"][0] + st.vars["drawn"][0]
    assert mine["kept"][0] == st.vars["kept"][0] and mine["drawn"][0] == st.vars["drawn"][0]
    assert mine["hand"][0] == held
    assert theirs["kept"][0] == "?" and theirs["drawn"][0] == "?"
    assert theirs["hand"][0] == {"hidden": len(held)}
    assert build(st, 2).counts(1) == (("Hand", f"{len(held)} card{'s' if len(held) != 1 else ''}"),)


def test_which_part_holds_a_card_reaches_no_other_player(parted):
    st, other = parted, _split_otherwise(parted)
    assert st.vars["drawn"][0] != other.vars["drawn"][0]  # the two states differ in the parts only
    assert _seen_by(st, 2) == _seen_by(other, 2)
    # a hint's copies: dealt from what player 2 sees, so the same from the same seeds
    assert _copies(st, 2) == _copies(other, 2)
    # the owner tells them apart
    assert st.view(1) != other.view(1)


def test_a_copy_splits_the_hand_again_keeping_its_count(parted):
    st = parted
    total = len(st.vars["kept"][0]) + len(st.vars["drawn"][0])
    splits = set()
    for world in _copies(st, 2, range(40)):
        assert len(world["kept"][0]) + len(world["drawn"][0]) == total
        assert world["kept"][1] == st.vars["kept"][1]  # player 2's own parts as they are
        splits.add(len(world["drawn"][0]))
    assert len(splits) > 1  # not the real split every time


@pytest.mark.parametrize("told", ["len(me.kept) == 0", "len(kept[me]) == 0"])  # a part read either way
def test_the_checker_holds_a_parts_length_secret(make_game, told):
    with pytest.raises(RulesError) as caught:
        make_game(PARTS.replace("if revealed(len(me.kept) + len(me.drawn) == 0):", f"if {told}:"))
    assert "depends on the secret 'kept'" in str(caught.value)


@pytest.mark.parametrize("edit, message", [
    (("player var drawn = [] secret in hand", "var drawn = [] secret in hand"),
     "only a 'player var' is a part of a player's hand"),
    (("player var score = 0", "player var score = 0\nvar hand = 1"),
     "'hand' names a hand ('secret in hand') and something else too"),
    (("player var score = 0", "player var score = 0\nenum grip: hand, foot"),  # a bare word in display:
     "'hand' names a hand ('secret in hand') and something else too (a member of enum 'grip')"),
    (("secret in hand", "secret in len"), "'len' names a hand ('secret in len') and something else too"),
    (("player var drawn = [] secret in hand", "player var drawn = none secret in hand"),
     "'drawn' is a part of the hand 'hand': it starts as a list"),
    (('display:\n', 'display:\n    table "All" = hand\n'),
     "'hand' is a player's hand: it belongs on an 'own' or a 'players' line"),
    (('"Hand" = hand as hand', '"Hand" = hand as hand, "Kept" = kept as hand'),  # a rival's is '?': one card
     "'kept' is a part of the hand 'hand': the others see it only as '?', so a 'players' line does not draw it"),
])
def test_a_misused_hand_is_told_where_it_stands(make_game, edit, message):
    with pytest.raises(RulesError) as caught:
        make_game(PARTS.replace(*edit))
    assert message in str(caught.value)


def test_biplane_hides_which_hand_a_face_down_card_left():
    """'Each player plays one "Maneuver" card from their hand, face down': a rival counts the cards of
    the Permanent and Temporary Hands together."""
    st = shipped("biplane").new_state(5)
    rng = random.Random(5)
    while not (st.vars["temp"][0] and not st.is_over()):
        st.apply(rng.choice(st.legal_moves()))
    other = st.clone()
    other.vars["perm"][0] = other.vars["perm"][0] + other.vars["temp"][0]
    other.vars["temp"][0] = []
    for rival in range(2, st.game.player_count + 1):
        assert _seen_by(st, rival) == _seen_by(other, rival)
        assert _copies(st, rival, range(3)) == _copies(other, rival, range(3))
