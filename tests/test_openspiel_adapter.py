"""The OpenSpiel adapter (interpreter/openspiel_adapter.py): every shipped game as a pyspiel game.

OpenSpiel's own random-simulation test and its MCTS bot run on every shipped game; the long games are cut
at a few dozen actions here (a cut game is a draw), whole games are in benchmarks. CFR solves Kuhn poker,
written as a rules file, to its known value."""
from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import cfr, expected_game_score, mcts  # noqa: E402

from rulewright import openspiel  # noqa: E402
from rulewright.dsl.errors import OptionError  # noqa: E402
from rulewright.interpreter.api import shipped_games  # noqa: E402

from game_support import WINDOWS  # noqa: E402

GAMES = list(shipped_games())
SHORT = 40  # actions, chance included, before a long game is cut


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulations_pass(name):
    game = openspiel.load(name, samples=1, max_game_length=SHORT)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_mcts_bot_plays(name):
    game = openspiel.load(name, samples=1, max_game_length=SHORT, simultaneous=False)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, 1.4, 4, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 3:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions == 3 or state.is_terminal()


def test_cfr_solves_kuhn_poker_to_minus_one_eighteenth():
    game = openspiel.load("kuhn-poker", utility="score")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    solver = cfr.CFRPlusSolver(game)
    for _ in range(60):
        solver.evaluate_and_update_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [solver.average_policy()] * 2)
    assert value[0] == pytest.approx(-1 / 18, abs=2e-3)
    assert value[1] == pytest.approx(1 / 18, abs=2e-3)


def test_kinds_of_game_are_reported():
    ttt = openspiel.load("tic-tac-toe")
    t = ttt.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert ttt.num_players() == 2 and ttt.num_distinct_actions() >= 9
    biplane = openspiel.load("biplane", samples=1, max_game_length=SHORT)
    assert biplane.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS  # secret programming
    assert biplane.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    loaded = pyspiel.load_game("rulewright", {"rules": "connect-four"})  # the registered name works too
    assert loaded.num_distinct_actions() >= 7


def test_chance_nodes_information_states_and_observations_hide_the_other_card():
    game = openspiel.load("kuhn-poker")
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in state.chance_outcomes()] == ["J", "Q", "K"]
    state.apply_action(2)  # K: the shuffle's last card, player 1's (OpenSpiel's player 0)
    state.apply_action(0)  # J
    assert state.current_player() == 0
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == ["pass", "bet"]
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    assert '"K","?"' in mine and '"?","J"' in theirs and "K" not in theirs.replace("Kuhn", "")
    assert '"?","J"' in state.observation_string(1)
    # two deals player 2 cannot tell apart give player 2 the same information state
    other = game.new_initial_state()
    other.apply_action(1)
    other.apply_action(0)
    assert other.information_state_string(1) == theirs and other.information_state_string(0) != mine


def test_simultaneous_nodes_take_every_waiting_players_action():
    game = openspiel.load("biplane", samples=1, max_game_length=400)
    state = game.new_initial_state()
    rng = np.random.RandomState(1)
    while state.current_player() != pyspiel.PlayerId.SIMULTANEOUS:
        assert not state.is_terminal()
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    joint = [int(rng.choice(state.legal_actions(p))) for p in range(game.num_players())]
    before = len(state.history())
    state.apply_actions(joint)
    assert len(state.history()) == before + game.num_players()


def test_bad_parameters_are_refused():
    with pytest.raises(OptionError, match="unknown parameter 'chanse'"):
        openspiel.load("kuhn-poker", chanse="explicit")
    with pytest.raises(OptionError, match="utility must be"):
        openspiel.load("kuhn-poker", utility="money")


def test_at_a_reaction_window_every_player_acts(tmp_path):
    """Nobody may learn who is asked: the window is a simultaneous node, those not asked 'wait'."""

    path = tmp_path / "windows.rules"
    path.write_text(WINDOWS, encoding="utf-8")
    game = openspiel.load(str(path), samples=2)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    windows = 0
    for seed in range(4):
        state = game.new_initial_state()
        rng = np.random.RandomState(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(actions, p=probs)))
            elif state.current_player() == pyspiel.PlayerId.SIMULTANEOUS:
                windows += 1
                asked = [p - 1 for p in state.rulewright_state.to_move()]
                for p in range(3):
                    waits = [state.action_to_string(p, a) for a in state.legal_actions(p)] == ["wait"]
                    assert waits == (p not in asked)
                state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in range(3)])
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
    assert windows > 0
