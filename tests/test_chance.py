"""Explicit chance (interpreter/chance.py): a draw is a chance node listing its outcomes; a test sets a deal."""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

import rulewright
from rulewright.dsl.errors import IllegalMoveError, RulesError
from rulewright.interpreter.chance import ChanceState
from rulewright.interpreter.state import State


PAIRS = """
game "Pairs"
players 2
var deck = [] hidden
player var hand = none secret
setup:
    deck = shuffled(["a", "a", "b"])
    for p in players:
        draw c from deck
        p.hand = c
turn:
    choose x in ["done"] as "{x}"
    end game
"""


def kuhn():
    return rulewright.load("kuhn-poker")


def deal(state, *cards):
    for c in cards:
        state.apply_chance(c)


def test_the_deal_is_a_chance_node_of_three_equally_likely_cards():
    st = kuhn().new_state(chance="explicit")
    assert st.is_chance() and st.to_move() == [] and st.legal_moves() == []
    outcomes = st.chance_outcomes()
    assert [o.text for o in outcomes] == ["J", "Q", "K"]
    assert [o.probability for o in outcomes] == [Fraction(1, 3)] * 3
    st.apply_chance("K")
    assert [o.text for o in st.chance_outcomes()] == ["J", "Q"]  # the King is dealt already
    assert all(o.probability == Fraction(1, 2) for o in st.chance_outcomes())


def test_a_test_sets_the_deal_and_plays_it():
    st = kuhn().new_state(chance="explicit")
    deal(st, "K", "J")  # the shuffle's last card goes to player 1, the one before to player 2
    assert not st.is_chance()
    assert st.view(1)["vars"]["hand"] == ["K", "?"]
    assert st.view(2)["vars"]["hand"] == ["?", "J"]
    st.apply("bet")
    st.apply("call")
    assert st.outcome().scores == {1: 2, 2: -2}


def test_expectations_over_every_deal_are_exact():
    """Both players always pass: each deal is a showdown for one chip, so player 1 expects 0, exactly."""
    game = kuhn()
    expected = Fraction(0)
    deals = 0

    def walk(st, prob):
        nonlocal expected, deals
        if st.is_chance():
            for o in st.chance_outcomes():
                child = st.clone()
                child.apply_chance(o)
                walk(child, prob * o.probability)
            return
        while not st.is_over():
            st.apply("pass")
        deals += 1
        expected += prob * st.outcome().scores[1]
    walk(game.new_state(chance="explicit"), Fraction(1))
    assert deals == 6 and expected == 0


def test_a_roll_in_a_move_is_a_chance_node_and_the_move_waits_for_it(make_game, dice_rules):
    st = make_game(dice_rules).new_state(chance="explicit")
    assert not st.is_chance()
    st.apply("roll")
    assert st.is_chance()
    assert st.vars["score"] == [0, 0]  # the move is not done yet: the state is the one before it
    assert [(o.text, o.probability) for o in st.chance_outcomes()] == [(str(k), Fraction(1, 6)) for k in range(1, 7)]
    st.apply_chance("5")
    assert not st.is_chance() and st.vars["score"] == [5, 0] and st.to_move() == [2]


def test_equal_items_of_a_shuffle_are_one_outcome(make_game):
    st = make_game(PAIRS).new_state(chance="explicit")
    assert {o.text: o.probability for o in st.chance_outcomes()} == {"a": Fraction(2, 3), "b": Fraction(1, 3)}
    st.apply_chance("b")
    assert [o.text for o in st.chance_outcomes()] == ["a"]  # two a's left: one outcome, certain
    st.apply_chance("a")
    assert st.vars["hand"] == ["b", "a"]


def test_refused_chance_and_moves_change_nothing(make_game, dice_rules):
    st = make_game(dice_rules).new_state(chance="explicit")
    st.apply("roll")
    before = (st.view(None), [o.text for o in st.chance_outcomes()])
    with pytest.raises(IllegalMoveError, match="chance acts now"):
        st.apply("stop")
    with pytest.raises(IllegalMoveError, match="not an outcome"):
        st.apply_chance("7")
    with pytest.raises(IllegalMoveError, match="not an outcome"):
        st.apply_chance(6)
    assert (st.view(None), [o.text for o in st.chance_outcomes()]) == before
    st.apply_chance(0)
    with pytest.raises(IllegalMoveError, match="no chance outcome"):
        st.apply_chance(0)


def test_a_clone_at_a_chance_node_goes_its_own_way():
    st = kuhn().new_state(chance="explicit")
    st.apply_chance("Q")
    other = st.clone()
    st.apply_chance("J")
    other.apply_chance("K")
    assert st.view(None)["vars"]["hand"][1] == "J" and other.view(None)["vars"]["hand"][1] == "K"


def test_the_seeded_mode_is_the_default_and_unchanged():
    game = rulewright.load("biplane", players=2)
    a, b = game.new_state(seed=5), game.new_state(seed=5, chance="seeded")
    assert type(a) is State and type(b) is State
    assert a.view(None) == b.view(None)
    assert type(game.new_state(chance="explicit")) is ChanceState


def test_every_shipped_game_deals_through_chance_nodes():
    """Whatever the rules shuffle, draw or roll at the start, chance outcomes set it, and the game goes on."""
    for name in ["biplane", "planes", "barnstormers", "air-show", "magnificent-flying-machines"]:
        st = rulewright.load(name, players=2).new_state(chance="explicit")
        nodes = 0
        while st.is_chance():
            outcomes = st.chance_outcomes()
            assert sum(o.probability for o in outcomes) == 1
            st.apply_chance(outcomes[nodes % len(outcomes)])
            nodes += 1
        assert nodes > 0 and st.to_move(), name
        mover = st.to_move()[0]
        st.apply(st.legal_moves(mover)[0], player=mover)


def test_bad_modes_and_saves_are_refused():
    game = kuhn()
    with pytest.raises(RulesError, match="chance must be one of"):
        game.new_state(chance="dice")
    st = game.new_state(chance="explicit")
    deal(st, "J", "Q")
    with pytest.raises(RulesError, match="cannot be saved"):
        st.to_json()


def test_all_six_deals_give_each_hand_pair_once():
    seen = set()
    for first, second in itertools.permutations(["J", "Q", "K"], 2):
        st = kuhn().new_state(chance="explicit")
        deal(st, first, second)
        seen.add(tuple(st.view(None)["vars"]["hand"]))
    assert len(seen) == 6


def test_undo_goes_back_past_moves_that_drew(make_game, dice_rules):
    """Every move can be taken back, those whose draws were chosen too, and the move that waits at a
    chance node is taken back first (the state is already the one before it)."""
    st = make_game(dice_rules).new_state(seed=1, chance="explicit")
    seen = []
    for move in ["stop", "roll", "stop"]:
        seen.append((st.to_move(), [m.text for m in st.legal_moves()], list(st._vars["score"])))
        st.apply(move)
        if st.is_chance():
            st.apply_chance(4)  # a roll of 5
    assert st._vars["score"] == [0, 5] and st.undoable == 3
    st.apply("roll")
    assert st.is_chance() and st.undoable == 4
    st.undo()  # the roll waiting for its draw
    assert not st.is_chance() and st._vars["score"] == [0, 5]
    for before in reversed(seen):
        st.undo()
        assert (st.to_move(), [m.text for m in st.legal_moves()], list(st._vars["score"])) == before
    with pytest.raises(IllegalMoveError, match="no move to undo"):
        st.undo()


def test_apply_action_waits_for_chance_as_apply_does(make_game, dice_rules):
    st = make_game(dice_rules).new_state(seed=1, chance="explicit")
    st.apply_action(1)  # "roll": its draw is a chance node, not an exception
    assert st.is_chance() and len(st.chance_outcomes()) == 6
    st.apply_chance(5)
    assert st._vars["score"] == [6, 0] and not st.is_chance()
