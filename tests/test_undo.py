"""State.undo(): a move taken back leaves the state exactly as before it (python-chess's pop)."""
from __future__ import annotations

import random

import pytest

import rulewright
from rulewright.dsl.errors import IllegalMoveError
from rulewright.interpreter.api import shipped_games


def snapshot(st) -> tuple:
    """Everything a game is: its save (variables, rules, events, reveals), the generator, the moves offered."""
    return (st.to_json(), st.rng.getstate(), [(m.player, m.text, m.index) for m in st.legal_moves()],
            st.history_len)


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_apply_then_undo_is_the_original_for_random_moves(name):
    game = rulewright.load(name)
    st = game.new_state(seed=11)
    rng = random.Random(name)
    for _ in range(120):
        if st.is_over():
            break
        before = snapshot(st)
        move = rng.choice(st.legal_moves())
        st.apply(move)
        after = snapshot(st)
        st.undo()
        assert snapshot(st) == before
        st.apply(move)  # played again, the move gives the same state: the generator went back too
        assert snapshot(st) == after


def test_undo_all_the_way_back_to_the_start():
    game = rulewright.load("biplane")
    st = game.new_state(seed=3)
    start = snapshot(st)
    rng = random.Random(3)
    played = 0
    while not st.is_over() and played < 60:
        st.apply(rng.choice(st.legal_moves()))
        played += 1
    for _ in range(played):
        st.undo()
    assert snapshot(st) == start
    with pytest.raises(IllegalMoveError, match="no move to undo"):
        st.undo()
    assert snapshot(st) == start  # a refused undo changes nothing


def test_undo_takes_back_one_secret_choice_of_a_simultaneous_decision():
    game = rulewright.load("biplane", players=2)
    st = game.new_state(seed=5)
    rng = random.Random(5)
    for _ in range(200):
        if len(st.to_move()) >= 2:
            break
        st.apply(rng.choice(st.legal_moves()))
    assert len(st.to_move()) >= 2, "no simultaneous decision reached"
    before = snapshot(st)
    first = st.to_move()[0]
    st.apply(st.legal_moves(first)[0], player=first)
    assert first not in st.to_move()
    st.undo()
    assert snapshot(st) == before
