"""The test kit's positions: a test reaches the position it needs by seeded random games (real moves),
and the moves it reports replay to the same state."""
from __future__ import annotations

import pytest

from rulewright.interpreter.testing import ends, game_from_text, offers, positions, reach, snippet, sweep

COUNT = snippet("""
    game "Count"
    players 2
    var total = 0
    turn:
        choose a in [1, 2] as "add {a}"
        total += a
    end when total >= 12 after turn
""")

def test_positions_yield_real_positions_whose_moves_replay_to_them():
    game = game_from_text(COUNT)
    found = list(positions(game, lambda st: st.vars["total"] >= 5, seeds=range(3), each=2))
    assert len(found) == 6 and {f.seed for f in found} == {0, 1, 2}
    for f in found:
        assert f.state.vars["total"] >= 5
        again = game.new_state(seed=f.seed)
        for _player, text in f.moves:
            again.apply(text)
        assert again.to_json() == f.state.to_json()


def test_prefer_steers_the_agent_and_reach_fails_when_no_game_gets_there():
    game = game_from_text(COUNT)
    steered = reach(game, lambda st: st.vars["total"] >= 6, prefer="add 2")
    assert [text for _p, text in steered.moves] == ["add 2"] * 3
    with pytest.raises(AssertionError, match="no seeded game"):
        reach(game, lambda st: st.vars["total"] > 100, seeds=range(2))


def test_offers_holds_where_a_legal_move_matches():
    game = game_from_text(COUNT)
    st = reach(game, offers(r"^add 2$")).state
    assert "add 2" in [m.text for m in st.legal_moves()]
    assert not offers("remove")(st)


def test_ends_yields_the_final_position_of_each_seeded_game():
    game = game_from_text(COUNT)
    found = list(ends(game, seeds=range(3)))
    assert [f.seed for f in found] == [0, 1, 2]
    for f in found:
        assert f.state.is_over() and f.state.vars["total"] >= 12
        again = game.new_state(seed=f.seed)
        for _player, text in f.moves:
            again.apply(text)
        assert again.is_over() and again.to_json() == f.state.to_json()


def test_sweep_answers_several_questions_of_one_game_as_positions_would():
    game = game_from_text(COUNT)
    asked = {"five": lambda st: st.vars["total"] >= 5, "two offered": offers(r"^add 2$"),
             "over": lambda st: st.is_over()}
    found = sweep(game, 1, asked, each={"five": 2})
    assert set(found) == set(asked) and len(found["five"]) == 2 and len(found["over"]) == 1
    for name, where in asked.items():
        alone = list(positions(game, where, seeds=[1], each=len(found[name])))
        assert [(f.seed, f.moves) for f in found[name]] == [(f.seed, f.moves) for f in alone], name
        assert all(f.state.to_json() == a.state.to_json() for f, a in zip(found[name], alone))
    first = sweep(game, 1, {"five": asked["five"]}, each={"five": 1})["five"]
    assert [f.moves for f in first] == [found["five"][0].moves]
