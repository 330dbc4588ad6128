"""A compiled game set up: its starting values computed, the machine run to the first decision.

The facade's ``Game.new_state``, saves (a game played again from its seed) and explicit chance (the setup
run again for each draw) all start a game here, from the compiled game alone."""
from __future__ import annotations

import random

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine import bounds, limits
from rulewright.interpreter.engine.faults import RULE_FAULTS, located
from rulewright.interpreter.engine.generator import Generator
from rulewright.interpreter.engine.machine import Frame, run
from rulewright.interpreter.engine.state import State
from rulewright.interpreter.engine.values import copy_value
from rulewright.interpreter.engine.builtin_names import ME


def start_state(compiled, seed: int, rng: Generator, state_class: type = State) -> State:
    """A game of the compiled rules set up with this generator, up to its first decision."""
    st = state_class(vars={}, frames=[Frame("__main__", 0, {})], rng=rng, game=compiled, seed=seed)
    limits.fresh(st)  # the starting values are bounded like a move (limits.py)
    for name, per_player, init in compiled.initial:
        try:
            if per_player:
                st._vars[name] = [copy_value(init(st, {ME: p}), st) for p in range(1, compiled.player_count + 1)]
            else:
                st._vars[name] = copy_value(init(st, {}), st)  # 'var start = deck' copies, as '=' does
        except RULE_FAULTS + (RulesRuntimeError,) as exc:  # a starting value that cannot be computed
            decl = compiled.var_decls[name]
            raise located(st, exc, decl.span, f"var {name}", decl.value) from None
    bounds.started(st)  # what the starting values may hold, for the state's bound
    run(st)
    return st


def seeded_state(compiled, seed: int, state_class: type = State) -> State:
    """A game of the compiled rules with the seeded generator (random.Random's numbers)."""
    return start_state(compiled, seed, Generator(seed), state_class)


def fresh_seed() -> int:
    """A seed for a game nobody seeded, drawn from the system: kept with the game, it plays it again."""
    return random.SystemRandom().randrange(2**31)
