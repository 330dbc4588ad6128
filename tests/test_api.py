"""The Python API contract of architecture.md, on a small game written here."""
import pytest

import rulewright
from rulewright import IllegalMoveError

RULES = '''game "Pick"
players 2
var pool = [1, 2, 3]
player var score = 0
turn:
    choose n in pool as "take {n}"
    remove n from pool
    me.score += n
    if len(pool) == 0:
        end game
'''


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "pick.rules"
    path.write_text(RULES)
    return rulewright.load(str(path))


def test_the_loop_of_the_contract_plays_to_an_outcome(game):
    state = game.new_state(seed=7)
    while not state.is_over():
        assert state.to_move() == [state.legal_moves()[0].player]
        state.apply(state.legal_moves()[0])
    out = state.outcome()
    assert out.scores == {1: 4, 2: 2} and out.winners == [1] and out.ranking == [[1], [2]]


def test_ask_again_offers_the_options_of_a_position_set_by_hand(game):
    state = game.new_state(seed=1)
    assert [m.text for m in state.legal_moves()] == ["take 1", "take 2", "take 3"]
    state.vars["pool"] = [5, 9]
    assert [m.text for m in state.legal_moves()] == ["take 1", "take 2", "take 3"]  # asked before the change
    state.ask_again()
    assert [m.text for m in state.legal_moves()] == ["take 5", "take 9"]
    state.apply("take 9")
    assert state.vars["score"] == [9, 0] and state.vars["pool"] == [5]


def test_ask_again_needs_a_pending_decision(game):
    state = game.new_state(seed=1)
    for _ in range(3):
        state.apply(state.legal_moves()[0])
    assert state.is_over()
    with pytest.raises(IllegalMoveError, match="no decision is pending"):
        state.ask_again()
