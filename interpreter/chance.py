"""Explicit chance: ``game.new_state(chance="explicit")`` gives a state in which chance is a player.

Every draw the rules make (``shuffle``, ``shuffled``, ``random``, ``roll``) goes through the state's
generator, and a move is atomic (``State.apply`` puts the state back when anything escapes the rules).
Here the generator is a ``ChanceGenerator`` that hands out outcomes from a queue; when the queue is empty
it raises ``NeedDraw``, the move is undone, and the state becomes a *chance node*: ``is_chance()`` is true,
``chance_outcomes()`` lists the draw's outcomes with their probabilities, and ``apply_chance(o)`` runs the
move again from the state before it, with the outcomes chosen so far queued, until it needs no further
draw (then the move is done) or needs another (a new chance node). The setup is a move like any other.

A draw of one of n is a node of n equally likely outcomes, except that a shuffle's outcomes that would
put equal items in the same place are one outcome (their probabilities added), so two copies of a card
are one branch. Outcomes are labelled by what they give: the item that comes to that place of the
shuffle, the number rolled, the item picked. Running a move again for each draw costs the move's time
once per draw it makes (a setup that shuffles 60 cards runs 60 times): exact, not fast; the seeded mode
(the default) is unchanged.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Callable, Optional, Union

import attrs

from rulewright.dsl.errors import IllegalMoveError, RulesError, RulesRuntimeError
from rulewright.interpreter.engine.generator import Generator
from rulewright.interpreter.engine.start import start_state
from rulewright.interpreter.engine.values import to_text
from rulewright.interpreter.state import State

MODES = ("seeded", "explicit")


class NeedDraw(BaseException):
    """A draw with no outcome queued. A BaseException: no rule's error handling may take it for a fault."""

    def __init__(self, outcomes: list):
        super().__init__("a chance outcome is needed")
        self.outcomes = outcomes  # [(raw value, label, weight)]


@attrs.frozen
class ChanceOutcome:
    """One outcome of a chance node: ``index`` is the draw's value (what ``apply_chance`` takes)."""
    index: int
    text: str
    probability: Fraction

    def __str__(self) -> str:
        return self.text


class ChanceGenerator(Generator):
    """Draws come from ``queue``, in order; an empty queue raises NeedDraw with the draw's outcomes."""

    def __init__(self, queue=()):
        super().__init__(0)  # never drawn from: a state for getstate() to copy
        self.queue = list(queue)

    def seed(self, *args, **kwargs):  # nothing to seed (an agent reseeds its copies): every draw is chosen
        if not hasattr(self, "queue"):  # random.Random.__init__ seeds
            super().seed(*args, **kwargs)

    def _draw(self, n: int, outcomes: Callable[[], list]) -> int:
        if self.queue:
            value = self.queue.pop(0)
            if not 0 <= value < n:  # a stale outcome: the move drew differently this time
                raise RulesRuntimeError(f"chance outcome {value} is not one of {n}")
            return value
        raise NeedDraw(outcomes())

    def _randbelow(self, n: int) -> int:  # randrange (the rules' random(list)) and randint reduce to this
        return self._draw(n, lambda: [(j, f"item {j + 1} of {n}", 1) for j in range(n)])

    def randint(self, a: int, b: int) -> int:  # roll(sides)
        return a + self._draw(b - a + 1, lambda: [(j, str(a + j), 1) for j in range(b - a + 1)])

    def shuffle(self, x: list) -> None:
        """random.Random.shuffle's order of draws, each labelled by the item it puts in place."""
        for i in reversed(range(1, len(x))):
            j = self._draw(i + 1, lambda: _merged(x, i + 1))
            x[i], x[j] = x[j], x[i]

    def random(self):
        raise RulesRuntimeError("a draw of a fraction cannot be listed as chance outcomes")

    def getrandbits(self, k):
        raise RulesRuntimeError("a draw of raw bits cannot be listed as chance outcomes")


def _merged(x: list, n: int) -> list:
    """The outcomes of putting one of x[:n] last: equal items are one outcome, weighted by their count."""
    out: list = []
    for j in range(n):
        for k, (first, _label, weight) in enumerate(out):
            if x[first] == x[j]:
                out[k] = (first, _label, weight + 1)
                break
        else:
            out.append((j, to_text(x[j]), 1))
    return out


@attrs.frozen
class ChanceNode:
    """A move (or the setup) waiting for a draw: ``redo(outcomes)`` runs it again with these outcomes."""
    redo: Callable
    drawn: tuple
    outcomes: tuple  # (raw value, label, weight)
    move: bool = False  # a move waits for the draws (else the setup does)


@attrs.define(eq=False)
class ChanceState(State):
    """A State whose draws are chance nodes (see the module's docstring)."""
    node: Optional[ChanceNode] = None
    CHECKPOINT_EVERY = 1  # a move that needs a draw is taken back at once: no replay for that

    # --------------------------------------------------------------- chance
    def is_chance(self) -> bool:
        return self.node is not None

    def chance_outcomes(self) -> list[ChanceOutcome]:
        """The outcomes of the draw waiting now, with their probabilities (they add up to 1)."""
        if self.node is None:
            return []
        total = sum(w for _v, _t, w in self.node.outcomes)
        return [ChanceOutcome(v, t, Fraction(w, total)) for v, t, w in self.node.outcomes]

    def apply_chance(self, outcome: Union[int, str, ChanceOutcome]) -> None:
        """Choose the draw's outcome: a ChanceOutcome, its index, or its text."""
        if self.node is None:
            raise IllegalMoveError("no chance outcome is waiting")
        value = self._outcome_value(outcome)
        drawn = self.node.drawn + (value,)
        try:
            done = self.node.redo(list(drawn))
        except NeedDraw as more:
            self.node = ChanceNode(self.node.redo, drawn, tuple(more.outcomes), self.node.move)
            return
        self._become(done)

    def _outcome_value(self, outcome) -> int:
        outcomes = self.node.outcomes
        if isinstance(outcome, ChanceOutcome):
            outcome = outcome.index
        if type(outcome) is int:
            if any(v == outcome for v, _t, _w in outcomes):
                return outcome
        elif isinstance(outcome, str):
            found = [v for v, t, _w in outcomes if t == outcome]
            if found:
                return found[0]
        shown = ", ".join(f"{v}: {t!r}" for v, t, _w in outcomes[:20])
        raise IllegalMoveError(f"{outcome!r} is not an outcome of this draw; outcomes: {shown}"
                               + (" ..." if len(outcomes) > 20 else ""))

    def _become(self, other: State) -> None:
        """Take the state a move's replay reached once its draws were chosen. The replay ran on a copy
        of this state, so its log (the one move, after a checkpoint of this state) goes after ours:
        undo() can go on back past it."""
        mine = self.undo_log
        after_move = self.node is not None and self.node.move  # else the setup's draws: nothing before
        for f in attrs.fields(State):
            setattr(self, f.name, getattr(other, f.name))
        if after_move and mine.checkpoints:
            self.undo_log.follows(mine)
        self._legal = None
        self.rng = ChanceGenerator()
        self.node = None

    # --------------------------------------------------------------- the State API, chance aware
    def to_move(self) -> list[int]:
        return [] if self.node is not None else super().to_move()

    def legal_moves(self, player=None):
        return [] if self.node is not None else super().legal_moves(player)

    def apply(self, move, player=None, atomic: bool = True) -> None:
        if self.node is not None:
            raise IllegalMoveError("chance acts now: choose one of chance_outcomes() with apply_chance()")
        try:
            State.apply(self, move, player, atomic=True)  # atomic: a move that needs a draw is undone
        except NeedDraw as need:
            base = self.clone()  # the state before the move, which each outcome replays it from
            self.node = ChanceNode(_replay(base, move, player), (), tuple(need.outcomes), move=True)

    def apply_action(self, action: int, player=None, atomic: bool = True) -> None:
        if self.node is not None:
            raise IllegalMoveError("chance acts now: choose one of chance_outcomes() with apply_chance()")
        if type(action) is not int:
            return State.apply_action(self, action, player)  # refused, as State refuses it
        self.apply(action, player)  # a move number is the same move in apply() (from 1)

    @property
    def undoable(self) -> int:
        """State.undoable, and a move that waits for its draws."""
        return State.undoable.fget(self) + (self.node is not None and self.node.move)

    def undo(self) -> None:
        """At a move's chance node, take back the move that waits for its draws (the state is already
        the one before it); otherwise as State.undo()."""
        if self.node is not None and self.node.move:
            self.node = None
            return
        State.undo(self)

    def clone(self) -> "ChanceState":
        node = self.node  # read first: State.clone hands this state's data to the copy
        out = State.clone(self)  # a ChanceState (a clone is of its state's class)
        out._legal = None
        out.rng = ChanceGenerator()
        out.node = node  # immutable, and its replay starts from a copy of its own
        return out

    def to_json(self) -> dict:
        raise RulesError("a game with explicit chance cannot be saved: a save replays the game's seed")


def _replay(base: ChanceState, move, player) -> Callable:
    def redo(drawn: list) -> State:
        world = base.clone()
        world.rng = ChanceGenerator(drawn)
        State.apply(world, move, player, atomic=True)
        return world
    return redo


def start(compiled, seed: Optional[int], mode: str) -> State:
    """``game.new_state(seed, chance=mode)`` for a mode other than the default, of the compiled game."""
    if mode not in MODES:
        raise RulesError(f"chance must be one of {', '.join(MODES)}, not {mode!r}")
    seed = 0 if seed is None else seed  # nothing is drawn from it; kept for the record

    def redo(drawn: list) -> State:
        return start_state(compiled, seed, ChanceGenerator(drawn), ChanceState)

    try:
        return redo([])
    except NeedDraw as need:
        # Nothing is set up before the first draw's outcome: the node's state is an empty table.
        state = ChanceState(vars={}, frames=[], rng=ChanceGenerator(), game=compiled, seed=seed)
        state.node = ChanceNode(redo, (), tuple(need.outcomes))
        return state
