"""Any rules file as a PettingZoo AEC environment.

    from rulewright.interpreter.play.pettingzoo_adapter import env
    e = env("my-game.rules", players=2)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are "player_1" ... "player_N". The action space is ``Discrete(max_actions)``: action i is the i-th
of the player's legal moves, ``obs["action_mask"]`` marks the legal ones (``info["moves"]`` gives their
texts). The observation is what the rules' ``observe:`` section gives the player, as float32 numbers,
where the rules declare one; otherwise what the player sees (rulewright's view of that player, JSON,
hidden values masked) as UTF-8 bytes, zero-padded to ``observation_size``. Rewards come at the end: +1 a win, -1 a loss,
0 a draw (``utility="score"``: the final scores). Chance is the game's seed, given to ``reset(seed=...)``.
At a reaction window every player is visited in seat order, those not asked with the one action
'wait', so the agent selection does not tell who was asked. The sizes are measured on random games
(openspiel_adapter.measure) unless given; see docs/adapters.md.
"""
from __future__ import annotations

import json
from typing import Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from rulewright.dsl.errors import OptionError
from rulewright.interpreter import api
from rulewright.interpreter.present.observation import declares_observation, observation_layout
from rulewright.interpreter.play.openspiel_adapter import measure


WAIT = "wait"  # the one action of a player visited at a reaction window they are not asked in


def _view_bytes(state, player: int) -> bytes:
    return json.dumps(state.view(player), sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode()


class RulewrightEnv(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "rulewright_v0", "is_parallelizable": False}

    def __init__(self, rules: str, players: Optional[int] = None, options: Optional[dict] = None,
                 max_actions: int = 0, observation_size: int = 0, max_decisions: int = 0,
                 utility: str = "outcome", samples: int = 2, render_mode: Optional[str] = None):
        super().__init__()
        if utility not in ("outcome", "score"):
            raise OptionError(f"utility must be 'outcome' or 'score', not {utility!r}")
        if render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = api.load(rules, players=players, options=options)
        n = self.game.player_count
        seen = measure(self.game, max(1, samples), max_decisions or 100_000)
        self.max_actions = max_actions or 2 * seen["actions"]
        self.max_decisions = max_decisions or 4 * seen["length"] + 100
        start = self.game.new_state(seed=0)
        # the rules' 'observe:' section, where they declare one: the observation as numbers
        self.layout = observation_layout(start) if declares_observation(self.game) else ()
        if self.layout:
            observation_size = sum(size for _label, size in self.layout)
            observation = spaces.Box(-np.inf, np.inf, (observation_size,), np.float32)
        else:
            if not observation_size:  # the longest view of a start position, with room for the game to grow
                observation_size = 4 * max(len(_view_bytes(start, p)) for p in range(1, n + 1)) + 1024
            observation = spaces.Box(0, 255, (observation_size,), np.uint8)
        self.observation_size = observation_size
        self.utility = utility
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(1, n + 1)]
        self.action_spaces = {a: spaces.Discrete(self.max_actions) for a in self.possible_agents}
        self.observation_spaces = {a: spaces.Dict({
            "observation": observation,
            "action_mask": spaces.Box(0, 1, (self.max_actions,), np.int8)}) for a in self.possible_agents}
        self.state = None
        self.window: list = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @staticmethod
    def _player(agent: str) -> int:
        return int(agent.rsplit("_", 1)[1])

    def _moves(self, agent: str) -> list:
        st = self.state
        player = self._player(agent)
        if st.is_over() or player not in st.to_move():
            return [WAIT] if self.window and self.window[0] == agent else []
        return st.legal_moves(player)[:self.max_actions]

    def observe(self, agent):
        if self.layout:
            obs = np.array(self.state.observation_tensor(self._player(agent)), np.float32)
        else:
            raw = _view_bytes(self.state, self._player(agent))[:self.observation_size]
            obs = np.zeros(self.observation_size, np.uint8)
            obs[:len(raw)] = np.frombuffer(raw, np.uint8)
        mask = np.zeros(self.max_actions, np.int8)
        mask[:len(self._moves(agent))] = 1  # a player visited at a window they are not asked in: 0, wait
        return {"observation": obs, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None):
        self.state = self.game.new_state(seed=seed)
        self.decisions = 0
        self.window: list = []  # agents still to visit at a reaction window (see _select)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        """The next agent to act. At a reaction window nobody may learn who is asked, so every player is
        visited in seat order, and one who is not asked has the single action 0, 'wait'."""
        st = self.state
        pend = st.pending
        if not self.window and pend is not None and pend.window and not st.is_over():
            self.window = list(self.possible_agents)
        waiting = st.to_move()
        if self.window:
            self.agent_selection = self.window[0]
        elif waiting:
            self.agent_selection = f"player_{waiting[0]}"
        for a in self.agents:
            self.infos[a] = {"moves": [m if m == WAIT else m.text for m in self._moves(a)]}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        moves = self._moves(agent)
        if action is None or not 0 <= int(action) < len(moves):
            raise OptionError(f"action {action!r} is not legal for {agent}: the mask allows 0 to {len(moves) - 1}")
        self._cumulative_rewards[agent] = 0.0
        if self.window:
            self.window.pop(0)
        if moves[int(action)] != WAIT:
            self.state.apply(moves[int(action)], player=self._player(agent))
        self.decisions += 1
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state.is_over():
            outcome = self.state.outcome()
            values = outcome.scores if self.utility == "score" else outcome.returns()
            self.window = []
            for a in self.agents:
                self.rewards[a] = float(values.get(self._player(a), 0))
                self.terminations[a] = True
        elif self.decisions >= self.max_decisions:
            self.window = []
            for a in self.agents:
                self.truncations[a] = True
        self._select()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return self.state.render(None)
        return None

    def close(self):
        pass


def env(rules: str, **kwargs) -> RulewrightEnv:
    """The AEC environment of a rules file (a shipped game's name or a path)."""
    return RulewrightEnv(rules, **kwargs)
