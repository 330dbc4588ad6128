"""The rules' invariants, checked as a game is played: after its set-up and after every move.

Nothing here runs in plain play: a ``Watch`` is made by the tools that play a game for its author
(`rulewright check`, `coverage`, `simulate --check`, `play --check`, the test kit's playouts). Each
invariant was compiled once with its game (``CompiledGame.invariants``, compile/invariants.py); what its
``was(x)`` reads is taken just before each move (``Watch.before``).

A broken invariant is a ``Breach``: the invariant's name and line, why (false, or an error working it
out), the seed and the moves from the start that break it. ``shrink`` makes that list as short as it
can: the game stops at the first move after which the invariant fails, then moves are dropped (long
stretches first, then one at a time) while the game, replayed from the same seed with the moves' texts,
still breaks the same invariant. The moves then replay with `rulewright play --seed S --moves FILE`.
"""
from __future__ import annotations

from typing import Optional

import attrs

from rulewright.dsl.errors import IllegalMoveError, RulesError, RulesRuntimeError
from rulewright.interpreter.compile.codegen import WAS_STATE
from rulewright.interpreter.engine import limits
from rulewright.interpreter.engine.faults import RULE_FAULTS, located
from rulewright.interpreter.engine.values import copy_value, shown

SHRINK_MOVES = 60_000  # moves replayed at most to shorten one breach (a few seconds)


@attrs.frozen
class Breach:
    """An invariant the game broke: ``moves``, (player, text) from the start, break it (seeded ``seed``)."""
    name: str
    file: str
    line: int
    why: str
    seed: int
    moves: tuple

    def to_dict(self) -> dict:
        return {"invariant": self.name, "file": self.file, "line": self.line, "why": self.why, "seed": self.seed,
                "moves": [[p, text] for p, text in self.moves]}


class Watch:
    """The invariants of one game, checked on its state: call ``before(st)`` just before each move and
    ``broken(st)`` after it (and once at the start)."""

    def __init__(self, compiled):
        """``compiled``: the CompiledGame (``game.compiled``, ``state.game``)."""
        self.invariants = compiled.invariants  # compile/invariants.py
        self.env: dict = {}  # the values of was(x) taken before the move, and the state before it
        self.taken = False

    def __bool__(self) -> bool:
        return bool(self.invariants)

    def before(self, st) -> None:
        """Take what the invariants' was(x) read, just before a move."""
        invariants = self.invariants
        if not invariants.earlier and not invariants.clones:
            return
        limits.fresh(st)
        env = self.env = {local: copy_value(fn(st, {}), st) for local, fn in invariants.earlier}
        if invariants.clones:
            env[WAS_STATE] = st.clone()
        self.taken = True

    def broken(self, st) -> Optional[tuple]:
        """(the invariant, why) for the first invariant that does not hold now, else None."""
        if not self.taken:  # at the start: was(x) is x
            self.before(st)
        limits.fresh(st)  # an invariant runs the rules' expressions: bounded like a move
        env = self.env
        earlier = env.get(WAS_STATE)
        if earlier is not None:
            limits.fresh(earlier)
        for decl, test in self.invariants:
            try:
                holds = test(st, env)
            except RULE_FAULTS + (RulesRuntimeError,) as exc:
                error = located(st, exc, decl.span, f'invariant "{decl.name}"', decl.cond)
                return decl, f"it cannot be worked out: {error.diagnostic.render() if error.diagnostic else error}"
            if holds is not True:
                return decl, "it is false" if holds is False else f"it gives {shown(holds)}, not yes or no"
        return None


def replay(game, seed: int, moves) -> tuple:
    """The game of ``seed`` with these (player, text) moves, each checked: (the state, the breach found
    as (decl, why), or None, and the moves made when it was found). A move that is not legal any more
    ends the replay (None found)."""
    st = game.new_state(seed=seed)
    watch = Watch(game.compiled)
    found = watch.broken(st)
    made = 0
    while found is None and made < len(moves) and not st.is_over():
        player, text = moves[made]
        watch.before(st)
        try:
            st.apply(text, player=player, atomic=False)
        except IllegalMoveError:
            return st, None, made
        made += 1
        found = watch.broken(st)
    return st, found, made


def shrink(game, seed: int, moves, name: str, budget: int = SHRINK_MOVES) -> tuple:
    """The shortest list of moves found that breaks the invariant ``name`` from ``seed`` (``moves`` do),
    replaying at most ``budget`` moves in all."""
    best = tuple(moves)
    spent = [0]

    def still_breaks(candidate) -> Optional[tuple]:
        spent[0] += len(candidate)
        try:
            _st, found, made = replay(game, seed, candidate)
        except RulesError:
            return None
        return tuple(candidate[:made]) if found is not None and found[0].name == name else None

    size = max(1, len(best) // 2)
    while size >= 1 and spent[0] < budget:
        start, dropped = 0, False
        while start < len(best) and spent[0] < budget:
            shorter = still_breaks(best[:start] + best[start + size:])
            if shorter is not None:
                best, dropped = shorter, True
            else:
                start += size
        if not dropped:
            size //= 2
    return best


def moves_script(moves) -> str:
    """(player, text) moves as `rulewright play --moves` reads them, one 'P: move' a line."""
    return "".join(f"{p}: {text}\n" for p, text in moves)


def breach_of(game, seed: int, moves, found: tuple) -> Breach:
    """The breach ``found`` (decl, why) after ``moves`` (not yet shortened: ``shorter``)."""
    decl, why = found
    return Breach(decl.name, decl.span.file, decl.span.line, why, seed, tuple(moves))


def shorter(game, breach: dict) -> dict:
    """A breach (``Breach.to_dict``) with its moves shortened (``shrink``): done for the one breach of each
    invariant a report shows, since a long game may take seconds to shorten."""
    moves = shrink(game, breach["seed"], [tuple(m) for m in breach["moves"]], breach["invariant"])
    return {**breach, "moves": [list(m) for m in moves]}


def watched_playout(game, seed: int, max_decisions: int, agents: str = "random",
                    finish: Optional[str] = None, finish_decisions: Optional[int] = None) -> dict:
    """One seeded game played by agents (``agents``, seeded with ``seed``, as simulate plays it), its
    invariants checked after every move. A result as simulate's (seed, decisions, outcome), with
    ``breach`` (Breach.to_dict: the moves up to the first failure; ``shorter`` shortens them), ``stalled``
    (a decision with nothing to choose: the error's text) or ``error`` (another run-time error); a game that
    did not end has no outcome. ``finish``: agents (a spec) that play on, for up to ``finish_decisions``
    more (default ``max_decisions``), a game the first leave unfinished, watched the same way: the result
    then says ``finished_by`` (the spec) and ``played_on`` (their decisions), whether they end it or not."""
    from rulewright.interpreter.engine.runtime import stalled
    from rulewright.interpreter.play.agents import Seated, agents_for
    made: list = []
    result: dict = {"seed": seed}
    try:
        st = game.new_state(seed=seed)
        watch = Watch(game.compiled)
        found = watch.broken(st)
        if found is None:
            found = _watched_moves(st, watch, Seated(agents_for(agents, game.player_count, seed)), made,
                                   max_decisions)
        if found is None and finish and not st.is_over():
            result.update(finished_by=finish, played_on=len(made))
            more = max_decisions if finish_decisions is None else finish_decisions
            found = _watched_moves(st, watch, Seated(agents_for(finish, game.player_count, seed)), made,
                                   len(made) + more)
            result["played_on"] = len(made) - result["played_on"]
    except RulesError as exc:  # sent back as text: not every RulesError survives pickling
        key = "stalled" if isinstance(exc, RulesRuntimeError) and stalled(exc) else "error"
        return {**result, "decisions": len(made), key: str(exc)}
    result.update(decisions=len(made), outcome=st.outcome().to_dict() if st.is_over() else None)
    if found is not None:
        result["breach"] = breach_of(game, seed, made, found).to_dict()
    return result


def _watched_moves(st, watch: Watch, agent, made: list, limit: int) -> Optional[tuple]:
    """``agent`` plays until the game ends, an invariant breaks (returned, as Watch.broken gives it) or
    ``made`` (the (player, text) moves, added to) holds ``limit`` moves."""
    found = None
    while found is None and not st.is_over() and len(made) < limit:
        player = st.to_move()[0]
        move = agent.choose(st, player)
        watch.before(st)
        st.apply(move, player=player, atomic=False)
        made.append((player, move.text))
        st.drain_events()  # nobody reads them; a long playout should not hoard them
        found = watch.broken(st)
    return found
