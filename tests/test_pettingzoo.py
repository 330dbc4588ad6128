"""The PettingZoo adapter (interpreter/play/pettingzoo_adapter.py): PettingZoo's api_test on every shipped game,
its play test a whole game to the game's own end; the action mask, hidden information."""
from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test  # noqa: E402

from rulewright.dsl.errors import OptionError  # noqa: E402
from rulewright.interpreter.api import shipped_games  # noqa: E402
from rulewright.interpreter.play.pettingzoo_adapter import env  # noqa: E402


@pytest.mark.parametrize("name", list(shipped_games()))
def test_pettingzoo_api_test_passes(name):
    """Untruncated: the environment's bound is the longest random game measured, four times over, and
    api_test's cycles (a cycle visits every agent once) reach past it, so its play test (random legal
    actions) plays the whole game; each time a game ends, it ended by its rules."""
    e = env(name, samples=1)
    # api_test resets without a seed and samples actions from the spaces: both seeded here, so every run
    # plays the same games (a random game's length has a long tail that the bound may not reach)
    for i, space in enumerate(e.action_spaces.values()):
        space.seed(i)
    reset = e.reset
    e.reset = lambda seed=None, options=None: reset(seed=7 if seed is None else seed, options=options)
    ends = []  # (decisions, ended by the rules) each time the environment reports the end
    step = e.step

    def step_and_note_the_end(action):
        step(action)
        if all(e.terminations.values()) or all(e.truncations.values()):
            ends.append((e.decisions, e.state.is_over()))
    e.step = step_and_note_the_end
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on observation shapes, not failures
        api_test(e, num_cycles=e.max_decisions)
    assert ends and all(by_rules for _, by_rules in ends), ends
    assert max(d for d, _ in ends) > 1  # the play test's game, not only the one-step checks


def _view(obs) -> dict:
    return json.loads(bytes(obs["observation"]).rstrip(b"\0").decode())


def test_the_mask_marks_the_legal_moves_and_a_whole_game_ends_with_rewards():
    e = env("tic-tac-toe")
    e.reset(seed=3)
    obs, *_ = e.last()
    assert obs["action_mask"].sum() == 9 and e.infos["player_1"]["moves"][0] == "A1"
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == len(info["moves"])
        e.step(int(rng.choice(legal)))
    assert e.agents == [] and e.state.is_over()  # every agent stepped out once the game ended


def test_rewards_are_the_outcome():
    e = env("tic-tac-toe")
    e.reset(seed=1)
    for move in ["A1", "B1", "A2", "B2", "A3"]:
        e.step(e.infos[e.agent_selection]["moves"].index(move))
    assert all(e.terminations.values())
    assert e.rewards == {"player_1": 1.0, "player_2": -1.0}


def test_an_observation_shows_only_what_the_player_sees():
    e = env("air-show", players=2)  # it declares an 'observe:' section, as numbers
    e.reset(seed=5)
    # with 'observe:' the observation is the rules' numbers for the player: its own hand, not the other's
    assert e.observation_space("player_1")["observation"].dtype == np.float32
    for agent, p in zip(e.possible_agents, (1, 2)):
        assert list(e.observe(agent)["observation"]) == pytest.approx(e.state.observation_tensor(p))
    e = env("planes", players=2)  # without 'observe:': the player's view as JSON, others' secrets masked
    e.reset(seed=5)
    hands = [_view(e.observe(a))["vars"]["hand"] for a in e.possible_agents]
    assert hands[0][1] == {"hidden": len(e.state.vars["hand"][1])} and isinstance(hands[0][0], list)
    assert hands[1][0] == {"hidden": len(e.state.vars["hand"][0])} and isinstance(hands[1][1], list)


def test_an_illegal_action_is_refused_and_changes_nothing():
    e = env("tic-tac-toe")
    e.reset(seed=1)
    before, seen = e.state.view(None), list(e.observe("player_1")["observation"])
    with pytest.raises(OptionError, match="not legal"):
        e.step(12)
    assert e.state.view(None) == before and list(e.observe("player_1")["observation"]) == seen
    assert e.agent_selection == "player_1"




def test_a_reaction_window_visits_every_player_so_nobody_learns_who_is_asked(windows_file):
    path = windows_file
    e = env(str(path), samples=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(e, num_cycles=100)
    windows = 0
    for seed in range(6):
        e.reset(seed=seed)
        while not any(e.terminations.values()):
            pend = e.state.pending
            if pend is not None and pend.window and e.window == e.possible_agents:
                windows += 1
                asked = {f"player_{p}" for p in e.state.to_move()}
                visited = []
                for _ in e.possible_agents:  # the next window may open at once: one round of visits
                    if any(e.terminations.values()):
                        break
                    agent = e.agent_selection
                    visited.append(agent)
                    moves = e.infos[agent]["moves"]
                    assert (moves == ["wait"]) == (agent not in asked)
                    e.step(0)
                if not any(e.terminations.values()):
                    assert visited == e.possible_agents  # every seat, in order, asked or not
            else:
                e.step(0)
    assert windows > 0
