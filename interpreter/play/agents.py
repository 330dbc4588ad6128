"""Agents: players without a person. Each picks one of its player's legal moves; any rules file, any seat.

    from rulewright.interpreter.play.agents import agents_for
    seats = agents_for("mcts:iterations=400,random", players=2, seed=7)
    move = seats[0].choose(state, 1)

An agent is any object with ``choose(state, player) -> Move`` (one of ``state.legal_moves(player)``); it
must not change ``state``. ``AGENTS`` maps the names a spec may use to their classes; a plug-in adds its
own class there. What each agent does, and the spec syntax, are in docs/agents.md.
"""
from __future__ import annotations

import marshal
import math
import random
import time
from typing import Callable, NamedTuple, Optional

from rulewright.dsl.errors import OptionError, RulesError, suggest
from rulewright.interpreter.check.symbols import PROGRESS
from rulewright.interpreter.engine import limits, machine
from rulewright.interpreter.engine.faults import RULE_FAULTS
from rulewright.interpreter.play.determinize import Dealer
from rulewright.interpreter.engine.builtin_names import ME


class AgentSpecError(OptionError):
    """An agent spec that names an unknown agent or parameter, a bad value, or the wrong number of seats."""


# ---------------------------------------------------------------------------------------------- evaluation
def returns01(state) -> dict:
    """The finished game's result for each player on [0, 1]: 1 a win, 0 a loss, 0.5 a draw."""
    outcome = state.outcome()
    return {p: (r + 1) / 2 for p, r in outcome.returns().items()}


def evaluation(by: Optional[str] = None) -> Callable:
    """``f(state) -> {player: value in [0, 1]}``: the result when the game is over, else an estimate.

    The estimate is the rules' own ranking of the position as they would score it if the game ended now
    (``scored_now``: many games add up the score only in ``scoring:``), by 'rank by', else the score:
    each player gets the share of the others they are ahead of, half for a tie, nudged by the margin on
    the first key. ``by`` names a player variable to use instead, bigger is better ('-name': smaller is
    better)."""
    def value(state) -> dict:
        if state.is_over():
            return returns01(state)
        g = state.game
        if by is not None:
            name, ascending = (by[1:], True) if by.startswith("-") else (by, False)
            keys = ((name, ascending),)
        else:
            keys = g.rank_keys or ((("score", False),) if "score" in g.player_vars else ())
        players = range(1, g.player_count + 1)
        if not keys or g.player_count < 2:
            return {p: 0.5 for p in players}
        return _ranked(scored_now(state), keys, players)
    return value


SCORING_DECISIONS = 200  # a scoring block that asks for decisions gets at most these, each its first option


def scored_now(state):
    """The state as the rules' ``scoring:`` block would leave it if the game ended now: a copy, scored (a
    decision the block asks for takes its first option); ``state`` itself when there is no scoring
    block, or when scoring now fails (the rules may not expect to end at every moment)."""
    if state.is_over() or "scoring" not in state.game.procs:
        return state
    trial = state.clone()
    try:
        trial.begin_scoring()
        machine.run(trial)
        for _ in range(SCORING_DECISIONS):
            if trial.is_over():
                return trial
            p = trial.to_move()[0]
            trial.apply(trial.legal_moves(p)[0], player=p, atomic=False)
    except RulesError:
        pass
    return trial if trial.is_over() else state


def _ranked(state, keys, players) -> dict:
    def key(p):  # bigger is better, key by key
        out = []
        for name, ascending in keys:
            v = state._vars[name][p - 1]
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                v = 0
            out.append(-v if ascending else v)
        return out
    ks = {p: key(p) for p in players}
    n = len(ks) - 1
    firsts = [k[0] for k in ks.values()]
    spread = 1 + max(abs(f) for f in firsts)
    out = {}
    for p, k in ks.items():
        ahead = sum(1.0 if k > o else 0.5 if k == o else 0.0 for q, o in ks.items() if q != p) / n
        margin = (k[0] - (sum(firsts) - k[0]) / n) / spread  # on [-2, 2]
        out[p] = 0.8 * ahead + 0.2 * (0.5 + 0.25 * math.tanh(margin) * 2)
    return out


# ---------------------------------------------------------------------------------------------- the agents
def settle_chance(state, rng: random.Random) -> None:
    """In a state with explicit chance (chance.py), draw each waiting chance outcome by its probability,
    as the seeded generator would: a search's copies then go on to the next decision."""
    is_chance = getattr(state, "is_chance", None)
    while is_chance is not None and is_chance():
        outcomes = state.chance_outcomes()
        state.apply_chance(rng.choices(outcomes, weights=[o.probability for o in outcomes])[0])


class Repetitions:
    """The moves an agent made lately, by position, so it does not go round in circles: rules may allow a
    move that leads back to where the player was (a swap that can be undone by the same swap), and a search that
    prefers that position to the others makes it forever, where a random player soon does something else.
    A position is the variables and the step; 'lately' is the last ``WINDOW`` decisions of the game."""
    WINDOW = 200

    def __init__(self):
        self.made: dict = {}  # (position, move text) -> moves_made when made

    @staticmethod
    def position(state) -> bytes:
        try:
            return marshal.dumps((state._vars, state.step))
        except ValueError:  # a value marshal does not know: no position, no repetition seen
            return b""

    def made_lately(self, state, position: bytes, text: str) -> bool:
        at = self.made.get((position, text))
        return position != b"" and at is not None and 0 <= state.moves_made - at <= self.WINDOW

    def note(self, state, position: bytes, text: str) -> None:
        if len(self.made) > 20 * self.WINDOW:  # now and then: forget what is out of the window
            now = state.moves_made
            self.made = {k: at for k, at in self.made.items() if 0 <= now - at <= self.WINDOW}
        self.made[(position, text)] = state.moves_made


def avoid_circles(state, ranked: list, repetitions: Repetitions, rng: random.Random):
    """The first of ``ranked`` (the moves, best first) not made lately in this very position; when every
    one was, a random one (as a random player breaks the circle)."""
    position = repetitions.position(state)
    for move in ranked:
        if not repetitions.made_lately(state, position, move.text):
            break
    else:
        move = rng.choice(ranked)
    repetitions.note(state, position, move.text)
    return move


class Weighed(NamedTuple):
    """A legal move as a searching agent weighed it (``weigh(state, player)``): the hint at the prompt."""
    move: object                 # the Move
    visits: Optional[int]        # simulations that began with it (None: a one-ply agent tried it once)
    value: Optional[float]       # the mover's mean result on [0, 1] (None: never tried); -1 its rules failed


class RandomAgent:
    """A uniformly random legal move, from its own generator (the game's chance stays the game's)."""

    def __init__(self, seed: Optional[int] = None):
        self.rng = random.Random(seed)

    def choose(self, state, player: int):
        return self.rng.choice(state.legal_moves(player))


class FirstAgent:
    """Always the first legal move: fully predictable, handy for smoke tests of a new rules file."""

    def __init__(self, seed: Optional[int] = None):
        pass

    def choose(self, state, player: int):
        return state.legal_moves(player)[0]


class WeighingAgent:
    """An agent that weighs every legal move (its ``weigh``: best first) and plays the best one that does
    not go round in a circle; a forced move is played without weighing. Has ``rng`` and ``repetitions``."""

    def choose(self, state, player: int):
        moves = state.legal_moves(player)
        if len(moves) == 1:  # a forced move: nothing to weigh
            return moves[0]
        ranked = [w.move for w in self.weigh(state, player, moves)]
        return avoid_circles(state, ranked, self.repetitions, self.rng)


class GreedyAgent(WeighingAgent):
    """One ply: tries each legal move on a copy and keeps the one the evaluation likes best for its player
    (ties at random). The copy is dealt again as ISMCTS's are (determinize.py): what the player cannot see
    and the game's future draws are unknown to it, so it never peeks at a hand, a deck or the dice. One
    deal a decision, every move tried on a copy of it: the moves are compared in the same world (their
    values differ by the move, not by the deal), and dealing once costs a fraction of dealing per move."""

    def __init__(self, seed: Optional[int] = None, by: Optional[str] = None):
        self.rng = random.Random(seed)
        self.value = evaluation(by)
        self.repetitions = Repetitions()

    def weigh(self, state, player: int, moves: Optional[list] = None) -> list:
        """Every legal move with the evaluation of the position it leads to, best first (Weighed)."""
        moves = moves or state.legal_moves(player)
        world = Dealer(state, player).sample(self.rng)
        values = {}
        for move in moves:
            trial = world.clone()
            try:
                trial.apply(move, player=player, atomic=False)
                settle_chance(trial, self.rng)
                v = self.value(trial)[player]
            except RulesError:  # a move whose rules fail is the worst move
                v = -1.0
            values[move.text] = (v, self.rng.random())  # ties at random
        ranked = sorted(moves, key=lambda m: values[m.text], reverse=True)
        return [Weighed(m, None, values[m.text][0]) for m in ranked]


def progress_of(game) -> Optional[Callable]:
    """``f(state, player) -> number`` from the rules' ``def progress(p)``, or None when they have none."""
    body = game.def_bodies.get(PROGRESS)
    if body is None:
        return None
    param = game.defs[PROGRESS].params[0]

    def measure(state, player: int):
        limits.fresh(state)  # the rules' expressions, bounded like a move
        return body(state, {param: player, ME: player})
    return measure


class RushAgent:
    """Plays toward the end of the game: one ply, as greedy, on the rules' own measure of how near the end
    its player is (``def progress(p)``), else on the evaluation greedy uses; a move that ends the game
    first, ties at random. What the player cannot see is dealt again once a decision (determinize.py).
    Made for `rulewright check`: games whose random players take hundreds of thousands of decisions."""

    def __init__(self, seed: Optional[int] = None):
        self.rng = random.Random(seed)
        self.evaluation = evaluation()
        self.repetitions = Repetitions()

    def choose(self, state, player: int):
        moves = state.legal_moves(player)
        if len(moves) == 1:
            return moves[0]
        measure = progress_of(state.game) or (lambda st, p: self.evaluation(st)[p])
        world = Dealer(state, player).sample(self.rng)
        values = {}
        for move in moves:
            trial = world.clone()
            try:
                trial.apply(move, player=player, atomic=False)
                settle_chance(trial, self.rng)
            except RulesError:  # a move whose rules fail is the worst move
                values[move.text] = (-1, 0, self.rng.random())
                continue
            values[move.text] = (1, 0, 0) if trial.is_over() else (0, _number(measure, trial, player),
                                                                    self.rng.random())
        ranked = sorted(moves, key=lambda m: values[m.text], reverse=True)
        return avoid_circles(state, ranked, self.repetitions, self.rng)


def _number(measure, state, player: int) -> float:
    """The measure of ``state`` for ``player``; 0 when it is no number or cannot be worked out."""
    try:
        v = measure(state, player)
    except RULE_FAULTS + (RulesError,):
        return 0
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else 0


class _Node:
    __slots__ = ("visits", "value", "avail", "children")

    def __init__(self):
        self.visits = 0
        self.value = 0.0  # summed over visits, for the player who chose the move leading here
        self.avail = 0  # times this move was legal when its parent was visited (ISMCTS)
        self.children: dict = {}  # (player, move text) -> _Node


class MCTSAgent(WeighingAgent):
    """UCT: ``iterations`` simulations from copies of the state, each down the tree by UCB1 then random
    moves for at most ``depth`` decisions, scored by the evaluation (the result, if the game ended).

    Perfect information: the copies see everything the referee sees, hidden values included (use
    ``ismcts`` in a game with hidden information). Chance is sampled afresh in every simulation (each copy's
    generator is reseeded), so the tree's children are moves and a node averages over the draws."""

    def __init__(self, seed: Optional[int] = None, iterations: int = 200, depth: int = 100,
                 c: float = 1.0, by: Optional[str] = None, seconds: Optional[float] = None):
        self.rng = random.Random(seed)
        self.iterations, self.depth, self.c, self.seconds = iterations, depth, c, seconds
        self.value = evaluation(by)
        self.repetitions = Repetitions()

    def sampler(self, state, player) -> Callable:
        """``f() -> state`` for the start of each simulation: a copy with its generator reseeded."""
        def sample():
            world = state.clone()
            world.rng.seed(self.rng.getrandbits(64))
            return world
        return sample

    def weigh(self, state, player: int, moves: Optional[list] = None) -> list:
        """Every legal move with the simulations through it and their mean result, best first (Weighed)."""
        moves = moves or state.legal_moves(player)
        root = _Node()
        sample = self.sampler(state, player)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        for _ in range(self.iterations):
            self._simulate(root, sample(), player)
            if deadline is not None and time.perf_counter() > deadline:
                break
        by_text = {m.text: m for m in moves}
        # the most visited, then the best valued; ties at random (a fixed order, such as the move text's,
        # would play the same kind of move whenever the search learns nothing, a bias random seats exploit)
        stats = {t: (n.visits, n.value / max(n.visits, 1), self.rng.random())
                 for (p, t), n in root.children.items() if p == player and t in by_text}
        ranked = sorted(moves, key=lambda m: stats.get(m.text, (-1, 0.0, 0.0)), reverse=True)
        return [Weighed(m, *stats.get(m.text, (0, None, None))[:2]) for m in ranked]

    def _simulate(self, root: _Node, world, root_player: int) -> None:
        path = [(root, None)]
        node = root
        rng = self.rng
        try:
            while not world.is_over():  # selection and expansion
                mover = root_player if node is root else world.to_move()[0]
                legal = world.legal_moves(mover)
                untried = []
                for m in legal:
                    child = node.children.get((mover, m.text))
                    if child is None:
                        untried.append(m)
                    else:
                        child.avail += 1
                if untried:
                    move = rng.choice(untried)
                    child = node.children[(mover, move.text)] = _Node()
                    child.avail = 1
                    path.append((child, mover))
                    world.apply(move, player=mover, atomic=False)
                    settle_chance(world, rng)
                    break
                best, move = -1.0, None
                for m in legal:
                    c = node.children[(mover, m.text)]
                    # ties at random: the jitter is far below any difference a visit can make
                    ucb = (c.value / c.visits + self.c * math.sqrt(math.log(max(c.avail, 1)) / c.visits)
                           + 1e-9 * rng.random())
                    if ucb > best:
                        best, move = ucb, m
                node = node.children[(mover, move.text)]
                path.append((node, mover))
                world.apply(move, player=mover, atomic=False)
                settle_chance(world, rng)
            for _ in range(self.depth):  # the rollout
                if world.is_over():
                    break
                mover = world.to_move()[0]
                world.apply(rng.choice(world.legal_moves(mover)), player=mover, atomic=False)
                settle_chance(world, rng)
            reward = self.value(world)
        except RulesError:  # the rules failed on this line of play: nobody learns anything from it
            reward = None
        for n, mover in path:
            n.visits += 1
            if mover is not None:
                n.value += 0.5 if reward is None else reward[mover]


class ISMCTSAgent(MCTSAgent):
    """Information-set MCTS (single observer): like ``mcts``, but every simulation starts from a
    determinization, a state the player cannot tell from the real one as far as its view goes: what the
    player cannot see is dealt again at random (determinize.py), and the generator is reseeded. One tree
    over all of them; a move's statistics count only the simulations in which it was legal."""

    def sampler(self, state, player) -> Callable:
        dealer = Dealer(state, player)  # what the player cannot see, found once for every simulation
        return lambda: dealer.sample(self.rng)


AGENTS: dict = {"random": RandomAgent, "first": FirstAgent, "greedy": GreedyAgent, "rush": RushAgent,
                "mcts": MCTSAgent, "ismcts": ISMCTSAgent}

# The parameters each agent takes from a spec, with their types.
PARAMETERS: dict = {
    "random": {}, "first": {}, "rush": {},
    "greedy": {"by": str},
    "mcts": {"iterations": int, "depth": int, "c": float, "by": str, "seconds": float},
    "ismcts": {"iterations": int, "depth": int, "c": float, "by": str, "seconds": float},
}


# ---------------------------------------------------------------------------------------------- specs
def parse_spec(spec: str) -> list[tuple[str, dict]]:
    """``"mcts:iterations=400,depth=50,random"`` -> ``[("mcts", {...}), ("random", {})]``: a comma
    separates parts; a part with '=' is a parameter of the agent before it, any other part starts an
    agent, its first parameter after a ':'."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError(f"an agent spec names one agent per seat (agents: {', '.join(AGENTS)}), "
                             f"not {spec!r}")
    out: list = []
    for part in spec.split(","):
        part = part.strip()
        head, sep, param = part.partition(":")
        if "=" in head and not sep:  # a parameter of the agent before
            if not out:
                raise AgentSpecError(f"agent spec {spec!r}: {part!r} comes before any agent")
            _add_param(out[-1], part)
            continue
        name = head.strip()
        if name not in AGENTS:
            hint = suggest(name, AGENTS)
            raise AgentSpecError(f"unknown agent {name!r}" + (f"; {hint}" if hint else "")
                                 + f" (agents: {', '.join(AGENTS)})")
        out.append((name, {}))
        if sep:
            _add_param(out[-1], param)
    return out


def _add_param(agent: tuple, text: str) -> None:
    name, params = agent
    key, sep, raw = text.partition("=")
    key, raw = key.strip(), raw.strip()
    allowed = PARAMETERS.get(name, {})
    if not sep or key not in allowed:
        known = ", ".join(allowed) or "none"
        raise AgentSpecError(f"agent {name!r} has no parameter {key!r} (parameters: {known})")
    kind = allowed[key]
    try:
        value = kind(raw)
    except ValueError:
        raise AgentSpecError(f"{name}: {key} must be a {'whole number' if kind is int else 'number'}, "
                             f"not {raw!r}") from None
    if kind in (int, float) and not (value > 0 and math.isfinite(value)) and not (key == "depth" and value == 0):
        raise AgentSpecError(f"{name}: {key} must be more than 0, not {raw!r}")
    if kind is str and not value:
        raise AgentSpecError(f"{name}: {key} needs a value")
    params[key] = value


def agents_for(spec: str, players: int, seed: Optional[int]) -> list:
    """One agent per seat (index 0 plays player 1). A spec naming one agent gives that one agent, seeded
    with ``seed``, for every seat; a spec naming one per seat seeds seat i's agent with seed + i - 1."""
    parsed = parse_spec(spec)
    if len(parsed) == 1:
        name, params = parsed[0]
        return [AGENTS[name](seed, **params)] * players
    if len(parsed) != players:
        raise AgentSpecError(f"agent spec {spec!r} names {len(parsed)} agents for {players} seats "
                             "(name one for every seat, or one for all)")
    return [AGENTS[name](None if seed is None else seed + i, **params) for i, (name, params) in enumerate(parsed)]


class Seated:
    """Agents, one per seat, as one agent: each decision goes to the agent of the player who decides."""

    def __init__(self, agents: list):
        self.agents = list(agents)

    def choose(self, state, player: int):
        return self.agents[player - 1].choose(state, player)


def playout(state, agent, max_decisions: int) -> int:
    """Let ``agent`` (one agent for every seat, or a list, one per seat) play until the game ends or
    ``max_decisions``; returns the decisions made."""
    if isinstance(agent, (list, tuple)):
        agent = Seated(agent)
    made = 0
    while not state.is_over() and made < max_decisions:
        player = state.to_move()[0]
        chooser = agent
        # not atomic: a game whose rules fail is reported and thrown away, so no snapshot is needed
        state.apply(chooser.choose(state, player), player=player, atomic=False)
        made += 1
        state.drain_events()  # nobody reads them; a long playout should not hoard them
    return made
