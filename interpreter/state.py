"""The State the API hands out: the engine's runtime State (engine/state.py), with the methods that show
it and save it.

The engine's State only runs a game (moves, undo, clones, events); it knows nothing of views or saves
and works without this module. Each method here is a one-line call of the function that does the work,
a function of the state in present/ (views, observation, explain, prompts, render) or saves.py, so a
caller holding an engine State may call those functions directly (python-chess's ``chess.svg.board``)."""
from __future__ import annotations

from typing import Optional

from rulewright.interpreter import saves
from rulewright.interpreter.engine import limits
from rulewright.interpreter.engine.state import State as EngineState
from rulewright.interpreter.present import explain, observation, prompts, render, views


class State(EngineState):
    """A game in progress, as ``Game.new_state`` and ``Game.load_state`` give it."""
    __slots__ = ()  # the engine's layout: a clone's lending swaps classes (snapshots.lend)

    def view(self, player: Optional[int] = None) -> dict:
        """What ``player`` may see now (None: the referee, who sees everything)."""
        limits.fresh(self)  # the display and the views are bounded like a move
        return views.view(self, player)

    def information_state(self, player: Optional[int] = None) -> str:
        """Everything ``player`` has seen so far, the events included, as one text (OpenSpiel's
        information state string): equal for any two states the player cannot tell apart."""
        limits.fresh(self)
        return views.information_state(self, player)

    def observation_tensor(self, player: int) -> list:
        """What ``player`` observes as numbers, from the rules' ``observe:`` section (an observation
        tensor for learning agents; interpreter/present/observation.py)."""
        return observation.observation_tensor(self, player)

    def explain(self, move, player: Optional[int] = None) -> explain.Explanation:
        """Which rule offers ``move`` (file:line), what the decider is asked, the rules text of what it
        plays: an ``explain.Explanation`` holding only what ``player`` may see (None: the referee). A
        number or text is one of ``player``'s own moves, as ``apply`` reads it."""
        return explain.explain(self, move, player)

    def prompt(self, player: int) -> Optional[str]:
        """What the rules ask ``player`` now (a decision's ``prompt``), or None."""
        return prompts.prompt(self, player)

    def render(self, player: Optional[int] = None) -> str:
        limits.fresh(self)
        return render.render(self, player)

    def to_json(self) -> dict:
        """The state as a save (interpreter/saves.py): JSON data, stamped with its rules."""
        return saves.save(self)
