"""The OpenSpiel adapter (interpreter/play/openspiel_adapter.py): every shipped game as a pyspiel game.

OpenSpiel's own random-simulation test and its MCTS bot run on every shipped game. Every shipped game is
played to its own end at least once: by pyspiel.random_sim_test where a whole game takes seconds, by the same
checks written in Python for the long ones (random_simulation below: pyspiel's test copies and prints the
whole state at every action, some 20 s for one PLANES game; whole games of it: benchmarks/adapters.py).
CFR solves Kuhn poker, written as a rules file, to its known value."""
from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import cfr, expected_game_score, mcts  # noqa: E402

import rulewright.openspiel as openspiel  # noqa: E402 (as "from rulewright import openspiel" does)
from rulewright.dsl.errors import OptionError  # noqa: E402
from rulewright.interpreter.api import shipped_games  # noqa: E402

GAMES = list(shipped_games())  # the games and their variants
SHORT = 40  # actions, chance included, before a long game is cut


# OpenSpiel's own test plays these whole within a few seconds each; the others are played whole by
# random_simulation, and by pyspiel's test for their first SHORT actions
WHOLE_BY_PYSPIEL = {"kuhn-poker", "tic-tac-toe", "connect-four", "biplane", "air-show", "barnstormers"}
ROLLOUTS = {"kuhn-poker", "tic-tac-toe", "connect-four", "biplane"}  # a random game to the end costs little


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_simulations_pass(name):
    game = openspiel.load(name, samples=1, max_game_length=SHORT)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("name", sorted(WHOLE_BY_PYSPIEL))
def test_openspiel_random_simulation_of_a_whole_game(name):
    game = openspiel.load(name, samples=1)  # the bounds measured: the longest game seen, four times over
    states = []
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False, state_checker_fn=states.append)
    assert states[-1].is_terminal() and states[-1].rulewright_state.is_over()  # the game's end, not a cut


def random_simulation(game, seed: int):
    """The checks of OpenSpiel's RandomSimulation (open_spiel/tests/basic_tests.cc) in Python, on one whole
    game through the adapter: legal actions sorted, in range, empty for those not to move and matching the
    mask; chance outcomes a distribution; a clone equal to the state and, given the same action, equal
    after it; strings for every player; the length within max_game_length; returns within the utility
    bounds. The clone and string checks run at the first 10 actions and at every power of two, as
    OpenSpiel's own serialization and undo checks do; the legal-action checks at every action."""
    rng = np.random.RandomState(seed)
    n, distinct = game.num_players(), game.num_distinct_actions()
    assert game.min_utility() < game.max_utility()
    simultaneous = game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        thorough = steps < 10 or steps & (steps - 1) == 0
        if thorough:
            copy = state.clone()
            assert str(copy) == str(state) and copy.history() == state.history()
            for p in range(n):
                state.information_state_string(p)
                state.observation_string(p)
        player = state.current_player()
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            assert all(0 < q <= 1 for q in probs) and sum(probs) == pytest.approx(1)
            assert sorted(actions) == state.legal_actions()
            joint = int(rng.choice(actions, p=probs))
        elif player == pyspiel.PlayerId.SIMULTANEOUS:
            joint = [int(rng.choice(state.legal_actions(p))) for p in range(n)]
        else:
            legal = state.legal_actions()
            assert legal and legal == sorted(set(legal)) and 0 <= legal[0] and legal[-1] < distinct
            mask = state.legal_actions_mask(player)
            assert len(mask) == distinct and sum(mask) == len(legal) and all(mask[a] for a in legal)
            if not simultaneous:
                assert all(state.legal_actions(q) == [] for q in range(n) if q != player)
            joint = int(rng.choice(legal))
        apply = state.apply_actions if isinstance(joint, list) else state.apply_action
        if thorough:
            copy = state.clone()
            (copy.apply_actions if isinstance(joint, list) else copy.apply_action)(joint)
        apply(joint)
        if thorough:
            assert str(copy) == str(state) and copy.history() == state.history()
        steps += 1
    assert len(state.history()) <= game.max_game_length()
    assert state.rulewright_state.is_over()  # the game's own end, not the adapter's cut
    returns = state.returns()
    assert all(game.min_utility() <= r <= game.max_utility() for r in returns)
    return steps


@pytest.mark.parametrize("name", ["planes", "magnificent-flying-machines"])
def test_a_random_simulation_plays_a_long_game_to_its_end(name):
    """The games, not their variants (variants.py: the same rules with a few changes; pyspiel's test
    plays each variant's first SHORT actions above)."""
    game = openspiel.load(name, samples=1)
    assert random_simulation(game, seed=1) > 1000  # thousands of actions, chance included


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_mcts_bot_plays(name):
    """Untruncated: random rollouts to the end where a game takes a second or less, else leaves scored
    by the rules' ranking (openspiel.RankingEvaluator)."""
    game = openspiel.load(name, samples=1, simultaneous=False)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng) if name in ROLLOUTS else openspiel.RankingEvaluator()
    bot = mcts.MCTSBot(game, 1.4, 4, evaluator, random_state=rng)
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


def test_at_a_reaction_window_every_player_acts(windows_file):
    """Nobody may learn who is asked: the window is a simultaneous node, those not asked 'wait'."""

    path = windows_file
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


@pytest.mark.parametrize("name", ["kuhn-poker", "tic-tac-toe", "biplane"])
def test_the_observation_tensor_is_the_rules_observe_section(name):
    game = openspiel.load(name, players=2)
    assert game.get_type().provides_observation_tensor
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        ours = state.rulewright_state
        for p in range(2):
            assert state.observation_tensor(p) == pytest.approx(ours.observation_tensor(p + 1))
            assert len(state.observation_tensor(p)) == game.observation_tensor_size()
        player = state.current_player()
        if player == pyspiel.PlayerId.SIMULTANEOUS:
            state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in range(2)])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_kuhn_poker_observes_as_openspiels_own_after_the_deal():
    ours, theirs = openspiel.load("kuhn-poker").new_initial_state(), pyspiel.load_game("kuhn_poker").new_initial_state()
    while ours.is_chance_node():
        ours.apply_action(ours.legal_actions()[-1])
    rank = {"J": 0, "Q": 1, "K": 2}
    for card in ours.rulewright_state.view(None)["vars"]["hand"]:
        theirs.apply_action(rank[card])
    for action in (0, 1, 1):  # pass, bet, call
        for p in range(2):
            assert ours.observation_tensor(p) == theirs.observation_tensor(p)
        ours.apply_action(ours.legal_actions()[action])  # ours: the moves in the rules' order, pass/fold first
        theirs.apply_action(action)
    assert ours.is_terminal() and theirs.is_terminal()


def test_a_game_without_observe_has_no_tensor():
    assert not openspiel.load("planes", max_game_length=SHORT).get_type().provides_observation_tensor


def test_the_adapters_import_by_either_statement():
    """`import rulewright.openspiel` as well as `from rulewright import openspiel`: one module, run once."""
    import subprocess
    import sys
    code = ("import rulewright.openspiel, rulewright.pettingzoo\n"
            "from rulewright import openspiel, pettingzoo\n"
            "from rulewright.interpreter.play import openspiel_adapter, pettingzoo_adapter\n"
            "assert rulewright.openspiel is openspiel is openspiel_adapter\n"
            "assert rulewright.pettingzoo is pettingzoo is pettingzoo_adapter\n"
            "print(openspiel.load('tic-tac-toe').num_players())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout, done.stderr) == (0, "2\n", "")


def test_options_as_text_or_mapping_and_a_wrong_one_named():
    import pyspiel
    by_text = openspiel.load("biplane", players=3, options="board=tree;skill=1", samples=1)
    by_dict = openspiel.load("biplane", players=3, options={"board": "tree", "skill": 1}, samples=1)
    by_name = pyspiel.load_game("rulewright", {"rules": "biplane", "players": 3, "options": "board=tree;skill=1",
                                               "samples": 1})
    for game in (by_text, by_dict, by_name):
        assert game.shared.game.options == {"mode": "free_for_all", "board": "tree", "skill": 1}
    with pytest.raises(OptionError, match=r"unknown option 'cards' \(options: none\)"):
        openspiel.load("tic-tac-toe", options="cards=4")
    with pytest.raises(OptionError, match=r"option 'board' cannot be 'moon'.*allowed: standard \| tree"):
        openspiel.load("biplane", options="board=moon")
    with pytest.raises(OptionError, match="options are 'name=value' separated by ';': 'tree' is not of the form NAME=VALUE"):
        openspiel.load("biplane", options="tree")
    with pytest.raises(OptionError, match="a mapping of names to values or a text"):
        openspiel.load("biplane", options=["board=tree"])
