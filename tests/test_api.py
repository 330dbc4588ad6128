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


def test_rank_by_text_descending_orders_the_players(tmp_path):
    path = tmp_path / "names.rules"
    path.write_text('''game "Names"
players 3
player var name = "b" if me == 1 else ("c" if me == 2 else "a")
rank by name descending
turn:
    end game
''')
    state = rulewright.load(str(path), players=3).new_state(seed=1)
    assert state.outcome().ranking == [[2], [1], [3]]


def test_assigning_me_is_a_rules_error(tmp_path):
    path = tmp_path / "me.rules"
    path.write_text('game "Me"\nplayers 2\nturn:\n    me = 2\n    end game\n')
    with pytest.raises(rulewright.RulesCompileError, match="'me' is the player whose turn it is"):
        rulewright.load(str(path))


def test_rotating_an_unknown_heading_names_the_headings(tmp_path):
    path = tmp_path / "turn.rules"
    path.write_text('game "Turn"\nplayers 2\nboard b: grid 2 by 2\nvar h = "north"\nturn:\n'
                    '    h = rotate(h, 1)\n    end game\n')
    with pytest.raises(rulewright.RulesRuntimeError, match="'north' is not a heading of this board"):
        rulewright.load(str(path)).new_state(seed=1)


def test_events_nobody_drains_are_bounded(game):
    from rulewright.interpreter.state import MAX_UNDRAINED_EVENTS
    state = game.new_state(seed=1)
    state.events.extend({"event": "log", "text": str(i)} for i in range(MAX_UNDRAINED_EVENTS + 5))
    state.apply(state.legal_moves()[0])
    assert len(state.events) <= MAX_UNDRAINED_EVENTS // 2 + 1
    assert state.events[-1]["event"] == "move"  # the newest are kept
