"""The result of a game that is over: scores, the ranking ('rank by', score by default), winners, teams."""
from __future__ import annotations

import functools
from typing import Optional

import attrs

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine import faults, limits


@attrs.frozen
class Outcome:
    """The result: scores by player, ranking (groups of tied players, best first), winners, teams."""
    scores: dict
    ranking: list
    winners: list
    teams: Optional[list] = None

    @property
    def draw(self) -> bool:
        everyone = sorted(p for group in self.ranking for p in group)
        return not self.winners or (len(self.winners) > 1 and sorted(self.winners) == everyone)

    def returns(self) -> dict:
        """+1 for a winner, -1 for a loser, 0 for everyone in a draw (as OpenSpiel reports)."""
        players = [p for group in self.ranking for p in group]
        if self.draw:
            return {p: 0 for p in players}
        return {p: (1 if p in self.winners else -1) for p in players}

    def to_dict(self) -> dict:
        return {"scores": {str(k): v for k, v in self.scores.items()}, "ranking": self.ranking,
                "winners": self.winners, "teams": self.teams, "draw": self.draw}


def outcome_of(st) -> Outcome:
    """The outcome of ``st``, a game that is over (State.outcome)."""
    limits.fresh(st)  # what the rules compute for it ('teams', 'rank by') is bounded like a move
    g = st.game
    players = list(range(1, g.player_count + 1))
    scores = {p: st._vars["score"][p - 1] for p in players} if "score" in g.player_vars else {}
    keys = g.rank_keys or ((("score", False),) if scores else ())

    def key(p):
        return tuple(st._vars[name][p - 1] for name, _asc in keys)

    def better_first(a, b):  # key by key, each in its own direction (text too, so no negation)
        for x, y, (_name, asc) in zip(key(a), key(b), keys):
            if x != y:
                return (-1 if x < y else 1) * (1 if asc else -1)
        return 0
    try:  # 'rank by' values or a 'teams' expression the rules got wrong: a rules error, not a crash
        for name, _asc in keys:
            for p in players:
                if st._vars[name][p - 1] is None:
                    raise RulesRuntimeError(f"player {p} has no '{name}' to rank by",
                                            f"give '{name}' a starting value")
        order = sorted(players, key=functools.cmp_to_key(better_first))
        teams = g.teams(st, {}) if g.teams is not None else None
    except faults.RULE_FAULTS + (RulesRuntimeError,) as exc:
        decl = g.symbols.rank or g.symbols.teams or g.symbols.vars.get("score")  # what the outcome works out
        span = decl.span if decl is not None else g.symbols.rules.decls[0].span
        raise faults.located(st, exc, span, "the outcome", decl) from None
    # A game with nothing to rank by (no score, no 'rank by') ends by naming its winners: they rank
    # first, everyone else after them (a ranking by keys stands as the keys give it, teams included)
    declared = st.winners if not keys else None
    if declared is not None:
        order.sort(key=lambda p: p not in declared)

    def place(p):
        return (declared is not None and p in declared, key(p))
    ranking: list = []
    for p in order:
        if ranking and place(ranking[-1][0]) == place(p):
            ranking[-1].append(p)
        else:
            ranking.append([p])
    winners = st.winners if st.winners is not None else (ranking[0] if ranking else [])
    return Outcome(scores, ranking, list(winners), teams or None)
