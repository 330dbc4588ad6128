"""Tic-tac-toe and Connect Four played move for move against OpenSpiel's implementations.

The same moves go to both engines; at every step the legal moves (mapped to our texts), the player
to move, whether the game is over and the final returns must agree. Move-tree counts to a fixed
depth compare the whole game tree near the root, including every early win in tic-tac-toe.
"""
from __future__ import annotations

import random

import pytest

import rulewright

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("open_spiel.python.games.tic_tac_toe")  # registers python_tic_tac_toe


# OpenSpiel tic-tac-toe action a is the cell (row a // 3, column a % 3), row 0 at the top. Our
# spaces put row A at the bottom: the map flips the board, which sends lines to lines.
def ttt_text(action: int) -> str:
    return f"{chr(ord('A') + action // 3)}{action % 3 + 1}"


# OpenSpiel connect_four action c drops a disc in column c (from 0); ours are numbered from 1.
def c4_text(action: int) -> str:
    return str(action + 1)


CASES = {
    "tic_tac_toe": ("tic-tac-toe", ttt_text),
    "python_tic_tac_toe": ("tic-tac-toe", ttt_text),
    "connect_four": ("connect-four", c4_text),
}


@pytest.fixture(scope="module")
def games():
    return {name: (rulewright.load(ours), pyspiel.load_game(name), to_text)
            for name, (ours, to_text) in CASES.items()}


def assert_same_position(ours, theirs, to_text, where):
    assert ours.is_over() == theirs.is_terminal(), where
    if theirs.is_terminal():
        returns = ours.outcome().returns()
        assert [returns[1], returns[2]] == list(theirs.returns()), where
        assert ours.legal_moves() == [], where
        return
    assert ours.to_move() == [theirs.current_player() + 1], where
    mine = sorted(m.text for m in ours.legal_moves())
    assert mine == sorted(to_text(a) for a in theirs.legal_actions()), where


def play_along(ours_game, their_game, to_text, seed):
    """One random game (random over OpenSpiel's actions), checked after every move."""
    rng = random.Random(seed)
    ours, theirs = ours_game.new_state(seed=seed), their_game.new_initial_state()
    history = []
    assert_same_position(ours, theirs, to_text, (seed, history))
    while not theirs.is_terminal():
        action = rng.choice(theirs.legal_actions())
        history.append(action)
        ours.apply(to_text(action))
        theirs.apply_action(action)
        assert_same_position(ours, theirs, to_text, (seed, history))
    return theirs.returns(), len(history)


@pytest.mark.parametrize("name", list(CASES))
def test_random_games_agree(games, name):
    ours_game, their_game, to_text = games[name]
    results = [play_along(ours_game, their_game, to_text, seed) for seed in range(200)]
    # the sample must cover wins for each side and draws, or it proves little
    kinds = {tuple(r) for r, _ in results}
    assert {(1.0, -1.0), (-1.0, 1.0)} <= kinds
    if name != "connect_four":  # random connect four rarely fills the frame; see the draw test
        assert (0.0, 0.0) in kinds


def test_connect_four_draw_agrees(games):
    """A full frame with no four in a row: found by random play in OpenSpiel, replayed in ours."""
    ours_game, their_game, to_text = games["connect_four"]
    rng = random.Random(2024)
    for _ in range(20_000):  # fast in C++; deterministic for this seed (the first draw is game 286)
        theirs, history = their_game.new_initial_state(), []
        while not theirs.is_terminal():
            history.append(rng.choice(theirs.legal_actions()))
            theirs.apply_action(history[-1])
        if list(theirs.returns()) == [0.0, 0.0]:
            break
    else:
        pytest.fail("no drawn game in 20,000 random games")
    assert len(history) == 42
    ours = ours_game.new_state()
    for action in history:
        ours.apply(to_text(action))
    assert ours.is_over() and ours.outcome().draw and ours.outcome().returns() == {1: 0, 2: 0}


@pytest.mark.parametrize("columns, winner", [
    ([1, 2, 1, 2, 1, 2, 1], 1),                    # up a column
    ([1, 4, 2, 4, 1, 4, 2, 4], 2),                 # up column 4 (the second player)
    ([1, 2, 1, 3, 7, 4, 7, 5], 2),                 # across, off the edge columns
    ([1, 2, 2, 3, 3, 4, 3, 4, 4, 7, 4], 1),        # diagonal rising to the right
    ([7, 6, 6, 5, 5, 4, 5, 4, 4, 1, 4], 1),        # diagonal rising to the left
    ([1, 1, 2, 2, 3, 3, 4], 1),                    # across the bottom
])
def test_connect_four_lines(games, columns, winner):
    ours_game, their_game, _ = games["connect_four"]
    ours, theirs = ours_game.new_state(), their_game.new_initial_state()
    for i, column in enumerate(columns):
        assert not ours.is_over() and not theirs.is_terminal(), f"over before move {i + 1}"
        ours.apply(str(column))
        theirs.apply_action(column - 1)
    assert ours.is_over() and theirs.is_terminal()
    assert ours.outcome().winners == [winner]
    assert theirs.returns()[winner - 1] == 1.0


def tree_counts(state, depth, children, over):
    """(nodes, terminal positions) per ply, down to ``depth`` plies."""
    nodes = [0] * (depth + 1)
    ends = [0] * (depth + 1)
    todo = [(state, 0)]
    while todo:
        s, d = todo.pop()
        nodes[d] += 1
        if over(s):
            ends[d] += 1
        elif d < depth:
            todo.extend((c, d + 1) for c in children(s))
    return nodes, ends


def our_children(state):
    out = []
    for move in state.legal_moves():
        child = state.clone()
        child.apply(move.text)
        out.append(child)
    return out


def their_children(state):
    return [state.child(a) for a in state.legal_actions()]


@pytest.mark.parametrize("name, depth", [("tic_tac_toe", 6), ("python_tic_tac_toe", 5), ("connect_four", 4)])
def test_move_tree_counts_agree(games, name, depth):
    ours_game, their_game, _ = games[name]
    mine = tree_counts(ours_game.new_state(), depth, our_children, lambda s: s.is_over())
    theirs = tree_counts(their_game.new_initial_state(), depth, their_children, lambda s: s.is_terminal())
    assert mine == theirs
    if name == "tic_tac_toe":  # 9*8*7*6*5 games of five moves, 1440 of them already won
        assert mine[0][5] == 15120 and mine[1][5] == 1440


# Connect Four's frame and winning line are options named as OpenSpiel's parameters: at sizes other
# than the default, the two still agree move for move, and observe the same numbers.
@pytest.mark.parametrize("params", [{"rows": 5, "columns": 4, "x_in_row": 3},
                                    {"rows": 4, "columns": 9, "x_in_row": 4},
                                    {"rows": 7, "columns": 5, "x_in_row": 5}])
def test_connect_four_agrees_at_other_sizes(params):
    ours_game = rulewright.load("connect-four", options=params)
    their_game = pyspiel.load_game("connect_four", params)
    outcomes = set()
    for seed in range(40):
        returns, length = play_along(ours_game, their_game, c4_text, seed)
        outcomes.add(tuple(returns))
        assert length <= params["rows"] * params["columns"]
    assert {(1.0, -1.0), (-1.0, 1.0)} <= outcomes
    rng = random.Random(7)
    ours, theirs = ours_game.new_state(seed=7), their_game.new_initial_state()
    while True:
        for p in (1, 2):
            assert ours.observation_tensor(p) == list(theirs.observation_tensor(p - 1))
        if theirs.is_terminal():
            break
        action = rng.choice(theirs.legal_actions())
        ours.apply(c4_text(action))
        theirs.apply_action(action)
