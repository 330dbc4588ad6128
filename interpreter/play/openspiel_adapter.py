"""Any rules file as an OpenSpiel game, through OpenSpiel's Python game API (``pyspiel.register_game``).

    from rulewright import openspiel
    game = openspiel.load("kuhn-poker", utility="score")     # a pyspiel.Game
    # or, once this module is imported: pyspiel.load_game("rulewright", {"rules": "kuhn-poker"})

Players are 0-based, as in OpenSpiel (rulewright's player 1 is OpenSpiel's 0). An action is a position in
the player's legal moves, so ``num_distinct_actions`` is the most legal moves a decision offers; chance
acts by the explicit chance mode (chance.py), an outcome's action being the draw's value. OpenSpiel wants
these bounds, and the longest game, before a game is played: they are measured on a few random games with
fixed seeds (``samples``), then doubled, and can be given instead (``max_actions``, ...). A decision that
offers more moves than ``max_actions`` offers only the first ones; a game that reaches
``max_game_length`` actions ends there, a draw (both said in docs/adapters.md).
"""
from __future__ import annotations

import json
import random
from typing import Optional

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts as _mcts

from rulewright.dsl.errors import OptionError, RulesError
from rulewright.interpreter import api
from rulewright.interpreter.present.observation import declares_observation, observation_layout

SHORT_NAME = "rulewright"
WAIT = "wait"  # the one action of a player who has nothing to decide at a simultaneous node

_PARAMETERS = {"rules": "tic-tac-toe", "players": 0, "options": "", "chance": "explicit", "simultaneous": True,
               "utility": "outcome", "samples": 4, "max_actions": 0, "max_chance_outcomes": 0,
               "max_game_length": 0}


def _joint(state) -> bool:
    """A decision everyone takes at once: several players choosing secretly, or a reaction window (every
    player acts there, so nobody learns who was asked)."""
    pend = state.pending
    return pend is not None and pend.simultaneous and (pend.window or len(pend.waiting()) > 1)


# ------------------------------------------------------------------------------------------- measuring
class _Measuring(api.Generator):
    """A seeded generator that notes the largest draw the rules make (a shuffle of n draws one of n)."""
    largest = 0

    def _randbelow(self, n):
        if n > self.largest:
            self.largest = n
        return super()._randbelow(n)


def measure(game: api.Game, samples: int, longest: int = 100_000) -> dict:
    """Bounds seen in ``samples`` random games with fixed seeds: the most legal moves of a decision, the
    largest draw, the longest game (decisions plus draws), final scores, whether decisions were
    simultaneous. A game is played for at most ``longest`` decisions (the adapter cuts it there)."""
    seen = {"actions": 1, "chance": 0, "length": 1, "simultaneous": False, "scores": []}
    for seed in range(samples):
        rng = _Measuring(seed)
        state = game.start_state(seed, rng)
        agent = random.Random(seed)
        made = 0
        while not state.is_over() and made < longest:
            waiting = state.to_move()
            if _joint(state):
                seen["simultaneous"] = True
            for p in waiting:
                seen["actions"] = max(seen["actions"], len(state.legal_moves(p)))
            p = waiting[0]
            state.apply(agent.choice(state.legal_moves(p)), player=p, atomic=False)
            made += 1
        seen["chance"] = max(seen["chance"], rng.largest)
        draws = rng.largest and made  # each decision draws at most a few times, in practice
        seen["length"] = max(seen["length"], made + draws)
        if state.is_over():
            seen["scores"].append(state.outcome().scores)
    return seen


# ------------------------------------------------------------------------------------------- the game
def _options(text: str) -> dict:
    """'name=value;name=value' (OpenSpiel's parameters are numbers and texts) as a mapping; the Game
    checks each name and value against the rules' options."""
    try:
        return api.given_options(filter(None, (p.strip() for p in text.split(";"))))
    except OptionError as exc:
        raise OptionError(f"options are 'name=value' separated by ';': {exc}") from None


class _Shared:
    """What every state of one game reads: never copied when a state is."""

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __deepcopy__(self, memo):
        return self


class _Box:
    """A rulewright state inside an OpenSpiel state: OpenSpiel clones by deepcopy, the box by clone()."""

    def __init__(self, state):
        self.state = state

    def __deepcopy__(self, memo):
        return _Box(self.state.clone())


def _game_type(**kw) -> pyspiel.GameType:
    G = pyspiel.GameType
    return G(short_name=SHORT_NAME, long_name=kw.get("long_name", "rulewright rules file"),
             dynamics=kw.get("dynamics", G.Dynamics.SEQUENTIAL),
             chance_mode=kw.get("chance_mode", G.ChanceMode.EXPLICIT_STOCHASTIC),
             information=kw.get("information", G.Information.IMPERFECT_INFORMATION),
             utility=kw.get("utility", G.Utility.GENERAL_SUM), reward_model=G.RewardModel.TERMINAL,
             max_num_players=kw.get("max_players", 10), min_num_players=kw.get("min_players", 1),
             provides_information_state_string=True, provides_information_state_tensor=False,
             provides_observation_string=True, provides_observation_tensor=kw.get("tensor", False),
             parameter_specification=_PARAMETERS)


class RulewrightGame(pyspiel.Game):
    """A rules file, a player count and options, as a pyspiel game (parameters: see ``load``)."""

    def __init__(self, params=None):
        p = dict(_PARAMETERS)
        p.update(params or {})
        if p["chance"] not in ("explicit", "seeded"):
            raise OptionError(f"chance must be 'explicit' or 'seeded', not {p['chance']!r}")
        if p["utility"] not in ("outcome", "score"):
            raise OptionError(f"utility must be 'outcome' or 'score', not {p['utility']!r}")
        game = api.load(p["rules"], players=p["players"] or None, options=_options(p["options"]))
        n = game.player_count
        seen = measure(game, max(1, p["samples"]), p["max_game_length"] or 100_000)
        # the rules' 'observe:' section: the observation tensor, entry by entry (observation.py)
        layout = observation_layout(game.new_state(seed=0)) if declares_observation(game) else ()
        hidden = (any(v != "public" for v in game.compiled.visibility.values()) or bool(game.compiled.field_visibility)
                  or seen["simultaneous"])
        simultaneous = bool(p["simultaneous"]) and seen["simultaneous"]
        G = pyspiel.GameType
        if p["utility"] == "score":
            finals = [v for s in seen["scores"] for v in s.values()] or [0]
            low, high = min(finals), max(finals)
            spread = max(1, high - low)
            low, high = low - spread, high + spread
            zero_sum = all(sum(s.values()) == 0 for s in seen["scores"])
        else:
            low, high, zero_sum = -1.0, 1.0, n == 2
        draws = seen["chance"] > 0
        chance_mode = (G.ChanceMode.DETERMINISTIC if not draws else
                       G.ChanceMode.EXPLICIT_STOCHASTIC if p["chance"] == "explicit" else G.ChanceMode.SAMPLED_STOCHASTIC)
        game_type = _game_type(
            long_name=f"{game.name} (rulewright)",
            dynamics=G.Dynamics.SIMULTANEOUS if simultaneous else G.Dynamics.SEQUENTIAL,
            chance_mode=chance_mode,
            information=G.Information.IMPERFECT_INFORMATION if hidden else G.Information.PERFECT_INFORMATION,
            utility=G.Utility.ZERO_SUM if zero_sum else G.Utility.GENERAL_SUM,
            min_players=n, max_players=n, tensor=bool(layout))
        shared = _Shared(
            game=game, players=n, chance=p["chance"] if draws else "seeded", simultaneous=simultaneous,
            utility=p["utility"], initial=None, layout=layout,
            max_actions=p["max_actions"] or 2 * seen["actions"],
            max_chance=p["max_chance_outcomes"] or max(1, 2 * seen["chance"]),
            max_length=p["max_game_length"] or 4 * seen["length"] + 100)
        info = pyspiel.GameInfo(
            num_distinct_actions=shared.max_actions, max_chance_outcomes=shared.max_chance if draws else 0,
            num_players=n, min_utility=float(low), max_utility=float(high),
            utility_sum=0.0 if zero_sum else None, max_game_length=shared.max_length)
        super().__init__(game_type, info, p)
        self.shared = shared

    def new_initial_state(self, seed: Optional[int] = 0):
        return RulewrightState(self, seed)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return RulewrightObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params,
                                  self.shared.layout)


class RulewrightState(pyspiel.State):
    """One game in progress. ``rulewright_state`` is the rulewright State (1-based players)."""

    def __init__(self, game: RulewrightGame, seed: Optional[int] = 0):
        super().__init__(game)
        self.shared = game.shared
        g = self.shared
        if g.chance == "explicit":  # every game starts alike: set up once (OpenSpiel starts many), copied
            if g.initial is None:
                g.initial = g.game.new_state(chance="explicit")
            self.box = _Box(g.initial.clone())
        else:
            self.box = _Box(g.game.new_state(seed=seed))
        self.actions = 0  # actions so far, chance included: the game ends, a draw, at max_length

    @property
    def rulewright_state(self):
        return self.box.state

    def _cut(self) -> bool:
        return self.actions >= self.shared.max_length

    def current_player(self):
        st = self.box.state
        if st.is_over() or self._cut():
            return pyspiel.PlayerId.TERMINAL
        if self.shared.chance == "explicit" and st.is_chance():
            return pyspiel.PlayerId.CHANCE
        if self.shared.simultaneous and _joint(st):
            return pyspiel.PlayerId.SIMULTANEOUS
        return st.to_move()[0] - 1

    def _moves(self, player: int) -> list:
        return self.box.state.legal_moves(player + 1)[:self.shared.max_actions]

    def _legal_actions(self, player):
        if self.current_player() == pyspiel.PlayerId.SIMULTANEOUS and player + 1 not in self.box.state.to_move():
            return [0]
        return list(range(len(self._moves(player))))

    def chance_outcomes(self):
        outcomes = self.box.state.chance_outcomes()
        if any(o.index >= self.shared.max_chance for o in outcomes):
            raise RulesError(f"a draw of {len(outcomes)} outcomes is more than max_chance_outcomes "
                             f"({self.shared.max_chance}): load the game with a larger one")
        return [(o.index, float(o.probability)) for o in outcomes]

    def _apply_action(self, action):
        st = self.box.state
        if self.shared.chance == "explicit" and st.is_chance():
            st.apply_chance(int(action))
        else:
            player = self.current_player()
            st.apply(self._moves(player)[action], player=player + 1)
        self.actions += 1

    def _apply_actions(self, actions):
        st = self.box.state
        moves = [(p, self._moves(p)[actions[p]]) for p in (q - 1 for q in st.to_move())]
        for p, move in moves:
            st.apply(move, player=p + 1)
        self.actions += 1

    def _action_to_string(self, player, action):
        st = self.box.state
        if player == pyspiel.PlayerId.CHANCE:
            for o in st.chance_outcomes():
                if o.index == action:
                    return o.text
            return f"outcome {action}"
        if player + 1 not in st.to_move():
            return WAIT if action == 0 else f"action {action}"
        moves = self._moves(player)
        return moves[action].text if 0 <= action < len(moves) else f"action {action}"

    def is_terminal(self):
        return self.box.state.is_over() or self._cut()

    def returns(self):
        st = self.box.state
        n = self.shared.players
        if not st.is_over():
            return [0.0] * n
        outcome = st.outcome()
        if self.shared.utility == "score":
            return [float(outcome.scores.get(p, 0)) for p in range(1, n + 1)]
        r = outcome.returns()
        return [float(r.get(p, 0)) for p in range(1, n + 1)]

    def __str__(self):
        st = self.box.state
        return json.dumps(st.view(None), sort_keys=True, ensure_ascii=False) if st._vars else "(not set up yet)"


class RulewrightObserver:
    """Strings from rulewright's views: with perfect recall, the player's information state (everything
    they saw happen); without, what they see now. The tensor is what the rules' ``observe:`` section
    gives the player now (``dict``: a view of it per entry), for the player's own observation only:
    the rules declare no information state tensor and no tensor of what the referee or the table sees."""

    def __init__(self, iig_obs_type, params, layout=()):
        if params:
            raise ValueError(f"observation parameters are not supported, not {params}")
        self.iig = iig_obs_type
        own = (not iig_obs_type.perfect_recall
               and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER)
        layout = layout if own else ()
        self.tensor = np.zeros(sum(n for _label, n in layout), np.float32)
        self.dict = {}
        start = 0
        for label, n in layout:
            self.dict[label] = self.tensor[start:start + n]
            start += n

    def set_from(self, state, player):
        if self.tensor.size:
            st = state.box.state
            # before the first chance outcome sets the game up there is nothing to observe yet
            self.tensor[:] = st.observation_tensor(player + 1) if st._vars else 0

    def _viewer(self, player):
        kind = self.iig.private_info
        if kind == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return None  # the referee
        if kind == pyspiel.PrivateInfoType.NONE:
            return 0  # nobody's private view: what is public
        return player + 1

    def string_from(self, state, player):
        st = state.box.state
        viewer = self._viewer(player)
        if self.iig.perfect_recall:
            return st.information_state(viewer)
        return json.dumps(st.view(viewer), sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class RankingEvaluator(_mcts.Evaluator):
    """For OpenSpiel's MCTS bot (``mcts.MCTSBot(game, c, simulations, RankingEvaluator())``): a leaf is
    scored by the rules' own ranking as their scoring would leave it now (agents.evaluation, on the
    outcome's scale: +1 first, -1 last), not by a random rollout to the end, which costs a whole game of
    thousands of actions in the long games. Priors are uniform; ``by`` as agents.evaluation's."""

    def __init__(self, by: Optional[str] = None):
        from rulewright.interpreter.play.agents import evaluation  # agents import this module's neighbours
        self.value = evaluation(by)

    def evaluate(self, state):
        value = self.value(state.rulewright_state)
        return np.array([2 * value[p] - 1 for p in range(1, len(value) + 1)])

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1 / len(legal)) for a in legal]


pyspiel.register_game(_game_type(), RulewrightGame)


def load(rules: str, players: Optional[int] = None, options=None, **params) -> pyspiel.Game:
    """A rules file (a shipped game's name or a path) as a pyspiel game. ``options``: a mapping
    ({"board": "tree"}) or OpenSpiel's text ("board=tree;skill=1"). ``params``: ``chance``
    ('explicit', the default: chance nodes; 'seeded': OpenSpiel samples nothing, the game's seed does),
    ``simultaneous`` (True: simultaneous nodes where the rules have secret decisions together; False: one
    player after the other, each choice hidden from the others), ``utility`` ('outcome': +1 a win, -1 a
    loss, 0 a draw; 'score': the final scores), ``samples`` (random games measured for the bounds),
    ``max_actions``, ``max_chance_outcomes``, ``max_game_length`` (0: measured)."""
    unknown = set(params) - set(_PARAMETERS)
    if unknown:
        raise OptionError(f"unknown parameter {sorted(unknown)[0]!r} (parameters: {', '.join(_PARAMETERS)})")
    if isinstance(options, dict):
        options = ";".join(f"{k}={v}" for k, v in options.items())
    elif options is not None and not isinstance(options, str):
        raise OptionError(f"options are a mapping of names to values or a text 'name=value;name=value', "
                          f"not {options!r}")
    spec = {"rules": str(rules), "players": players or 0, "options": options or ""}
    spec.update(params)
    return RulewrightGame(spec)
