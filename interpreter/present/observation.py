"""What a player observes, as numbers: the rules' ``observe:`` section worked out for one player.

An observation tensor for learning agents (OpenSpiel's ``observation_tensor``, a PettingZoo ``Box``
space). Each entry is a number, a truth value or a list of them (lists may nest), flattened in order.
The secrecy check (rule 11) sees to it that an entry reads only what every player
sees and the observing player's own secrets, so an entry is worked out over the state itself, with
``me`` the observing player. Its size is part of the game's interface: an entry that gives another
number of values than it gave before is an error of the rules, located at the entry.
"""
from __future__ import annotations

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine import limits
from rulewright.interpreter.engine.compare import weigh
from rulewright.interpreter.engine.faults import RULE_FAULTS, located
from rulewright.interpreter.engine.values import shown
from rulewright.interpreter.engine.builtin_names import ME


def declares_observation(game) -> bool:
    """Whether the rules have an ``observe:`` section (``game``: a Game or its CompiledGame)."""
    return bool(getattr(game, "compiled", game).observe)


def observation_layout(st) -> tuple:
    """The entries of the observation tensor: ``(label, how many values)`` in order."""
    return tuple(zip((e.label for e, _fn in st.game.observe), _sizes(st)))


def observation_tensor(st, player: int) -> list:
    """Player ``player``'s observation: every entry's values, flattened, as floats."""
    if not st.game.observe:
        raise RulesRuntimeError("these rules observe nothing as numbers: they have no 'observe:' section",
                                "add one (docs/language.md, 'Observations as numbers')")
    if type(player) is not int or not 1 <= player <= st.game.player_count:
        raise ValueError(f"no player {player!r} in a {st.game.player_count}-player game")
    limits.fresh(st)  # the entries run the rules' expressions: bounded like a move
    out: list = []
    sizes = []
    for entry, fn in st.game.observe:
        try:
            value = fn(st, {ME: player})
            weigh(value, st)  # flattened whole: its items counted (a list holding one list twice...)
        except RULE_FAULTS + (RulesRuntimeError,) as exc:
            raise located(st, exc, entry.span, "observe", entry.expr) from None
        start = len(out)
        _flatten(value, out, st, entry)
        sizes.append(len(out) - start)
    _same_sizes(st, sizes)
    return out


def _flatten(value, out: list, st, entry) -> None:
    t = type(value)
    if t is bool:
        out.append(1.0 if value else 0.0)
    elif t is int or t is float:
        out.append(float(value))
    elif t is list:
        for v in value:
            _flatten(v, out, st, entry)
    else:
        exc = RulesRuntimeError(f"the observation '{entry.label}' is numbers, not {shown(value)}",
                                "give a number, a truth value or a list of them "
                                "(for a text or an enum value: 1 if x == red else 0)")
        raise located(st, exc, entry.span, "observe") from None


def _sizes(st) -> list:
    """The number of values of each entry, as the first observation worked out gave them."""
    known = st.game.observe_sizes
    if not known:
        observation_tensor(st, 1)
    return list(st.game.observe_sizes)


def _same_sizes(st, sizes: list) -> None:
    known = st.game.observe_sizes
    if not known:
        known.extend(sizes)
        return
    for (entry, _fn), before, now in zip(st.game.observe, known, sizes):
        if before != now:
            exc = RulesRuntimeError(f"the observation '{entry.label}' gives {now} values here and gave {before} "
                                    "before: an observation keeps its size all game",
                                    "pad a list to its longest (a hand of up to 5 cards: a count per kind "
                                    "of card, or 5 slots with 0 for an empty one)")
            raise located(st, exc, entry.span, "observe") from None
