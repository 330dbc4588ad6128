"""Helpers for tests of rules: a game compiled from a rules text, a shipped game compiled once per
process, the texts of the legal moves, the log lines, moves applied by text, random playouts to the end,
positions reached by seeded random games (a test's position found by real moves, not set by hand),
and the checks every game's tests make (a save round-trips, one seed gives one game).

A rules author's tests use them (``from rulewright.interpreter.testing import shipped, play``), and so
do the project's own (tests/conftest.py builds its fixtures on them). They live in the package, not in
tests/: the repository's root is the package (it has an ``__init__.py``), so tests/ cannot be a package
of its own, and a module beside the tests would be importable only through ``sys.path``.
"""
from __future__ import annotations

import functools
import json
import random
import re
import textwrap
from typing import Optional

from rulewright.dsl.errors import RulesCompileError
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import Game, load
from rulewright.interpreter.language import check
from rulewright.interpreter.play.invariants import Watch


# ----------------------------------------------------------------------------- games
def snippet(source: str) -> str:
    """A rules text written indented inside a test, as a rules file reads it (from its first line)."""
    return textwrap.dedent(source).lstrip("\n")


def game_from_text(text: str, players: Optional[int] = None, options: Optional[dict] = None,
                   filename: str = "test.rules", strict: bool = False) -> Game:
    """A Game compiled from a rules text (read as the file ``filename``). A checker error raises
    RulesCompileError; with ``strict``, so does a warning."""
    rules = parse(text, filename)
    found = [d for d in check(rules) if strict or d.severity == "error"]
    if found:
        raise RulesCompileError(found)
    return Game(rules, players, options)


def errors_of(text: str, filename: str = "test.rules") -> list:
    """(line, column, message, hint) of each error the checker reports on a rules text."""
    return [(d.line, d.column, d.message, d.hint) for d in check(parse(text, filename)) if d.severity == "error"]


def line_of(text: str, part: str) -> int:
    """The line of the first ``part`` in a rules text, counted as a rules file reads it (from its first
    non-blank line, as ``snippet`` makes it)."""
    text = text.lstrip("\n")
    return text[:text.index(part)].count("\n") + 1


@functools.lru_cache(maxsize=None)
def _shipped(name: str, players: Optional[int], options: tuple) -> Game:
    return load(name, players=players, options=dict(options))


def shipped(name: str, players: Optional[int] = None, **options) -> Game:
    """A shipped game for this player count and these options, compiled once per process (a game's
    tests ask for each configuration many times; a Game is never changed by playing it)."""
    return _shipped(name, players, tuple(sorted(options.items())))


def played(name: str, moves: int = 12, seed: int = 3):
    """A shipped game a few random moves in (derandomized: the same moves every run)."""
    st = load(name).new_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if st.is_over():
            break
        st.apply(rng.choice(st.legal_moves()))
    return st


# ----------------------------------------------------------------------------- moves and logs
def texts(st, player=None) -> list:
    """The texts of the legal moves (of ``player``, or of everyone to move)."""
    return [m.text for m in st.legal_moves(player)]


def play(st, *moves) -> None:
    """Apply these moves (texts or Moves) in turn."""
    for m in moves:
        st.apply(m)


def mover(st) -> int:
    """The one player who must decide now."""
    (p,) = st.to_move()
    return p


def refresh(st) -> None:
    """Ask the pending decision again, so that its options follow what the test has just set."""
    assert st.pending is not None and not st.pending.chosen, "refresh before anyone has chosen"
    st.ask_again()


def logs(st) -> list:
    """The log lines since the last call (the events are drained)."""
    return [e["text"] for e in st.drain_events() if e["event"] in ("log", "reveal")]


def logged(st) -> list:
    """Every log line since the game began, as a spectator sees them (nothing is drained)."""
    return [e["text"] for e in st.event_history(0) if e["event"] == "log"]


# ----------------------------------------------------------------------------- whole games
def random_playout(st, rng: random.Random, check=None, limit=40_000, invariants: bool = True) -> list:
    """Random legal moves to the end, ``check(st)`` after each; returns the moves as (player, text).
    A game still running after ``limit`` moves fails the test instead of hanging it. With ``invariants``
    (the default) the rules' own invariants are checked too, after every move: a broken one fails the
    test with its name, its line and the moves made."""
    made = []
    watch = Watch(st.game) if invariants else None
    if watch:
        assert_invariants(st, watch, made)
    while not st.is_over():
        assert len(made) < limit, "the game did not end"
        move = rng.choice(st.legal_moves())
        made.append((move.player, move.text))
        if watch:
            watch.before(st)
        st.apply(move)
        if watch:
            assert_invariants(st, watch, made)
        if check is not None:
            check(st)
    return made


class Position:
    """A position a seeded random game reached: ``state`` (a clone, free to play on), the game's ``seed``
    and the ``moves`` that reached it, as (player, text)."""

    def __init__(self, state, seed: int, moves: list):
        self.state, self.seed, self.moves = state, seed, moves

    def __repr__(self):
        return f"<Position: seed {self.seed}, after {len(self.moves)} moves>"


def _walk(game, seed: int, prefer, limit: int):
    """The positions of one seeded random game (game seed = agent seed), the earliest first, with the moves
    that reached each; ``prefer`` steers the agent (see ``positions``)."""
    steer = re.compile(prefer) if prefer else None
    st, rng, made = game.new_state(seed=seed), random.Random(seed), []
    while len(made) < limit:
        yield st, made
        if st.is_over():
            return
        legal = st.legal_moves()
        wanted = [m for m in legal if steer.search(m.text)] if steer else []
        move = rng.choice(wanted or legal)
        made.append((move.player, move.text))
        st.apply(move)


def positions(game, where, seeds=range(20), prefer=None, limit: int = 40_000, each: int = 1):
    """Real positions of seeded random games (game seed = agent seed) where ``where(state)`` holds: a
    test reaches the position it needs by real moves instead of setting the state by hand. Yields up to
    ``each`` Positions a game, the earliest first; the game's final position is one of them (a test
    of the scoring asks for ``st.is_over()``). ``prefer``, a regular expression, steers the agent:
    when a legal move's text matches it, one of those is played (a rare position comes sooner)."""
    for seed in seeds:
        found = 0
        for st, made in _walk(game, seed, prefer, limit):
            if where(st):
                yield Position(st.clone(), seed, list(made))
                found += 1
                if found == each:
                    break


def sweep(game, seed: int, wheres: dict, each: Optional[dict] = None, prefer=None, limit: int = 40_000) -> dict:
    """One seeded random game played once for many questions: for each named ``where`` of ``wheres``, the
    Positions where it holds, the earliest first, as ``positions`` finds them in that game (up to
    ``each[name]`` of them when ``each`` names it; the game stops once every question is answered so,
    else it is played to its end). Tests that ask many questions of the same games keep one sweep of each
    (a cache) instead of playing a game again for every question."""
    each = each or {}
    found = {name: [] for name in wheres}
    for st, made in _walk(game, seed, prefer, limit):
        for name, where in wheres.items():
            if len(found[name]) < each.get(name, float("inf")) and where(st):
                found[name].append(Position(st.clone(), seed, list(made)))
        if all(len(found[name]) >= each.get(name, float("inf")) for name in wheres):
            break
    return found


def reach(game, where, seeds=range(40), prefer=None, limit: int = 40_000) -> Position:
    """The first position of ``positions`` (the same arguments); fails the test when no seed reaches one."""
    for found in positions(game, where, seeds, prefer, limit):
        return found
    raise AssertionError(f"no seeded game ({seeds}) reached the position wanted")


def ends(game, seeds=range(20), prefer=None, limit: int = 40_000):
    """The final positions of seeded random games (``positions`` where the game is over): a test of
    the scoring checks it on the end a real game reached, not on a final state made by hand."""
    return positions(game, lambda st: st.is_over(), seeds, prefer, limit)


def offers(pattern: str, player=None):
    """A ``where`` for ``positions``: a legal move (of ``player``, or of anyone to move) matches ``pattern``."""
    wanted = re.compile(pattern)
    return lambda st: any(wanted.search(m.text) for m in st.legal_moves(player))


KEPT_MOVES = 20  # the moves a broken invariant's message shows, the last ones


def assert_invariants(st, watch=None, made=()) -> None:
    """The rules' invariants hold on ``st`` (``watch``: a Watch that has seen the moves so far, for was(x))."""
    found = (watch if watch is not None else Watch(st.game)).broken(st)
    if found is not None:
        decl, why = found
        raise AssertionError(f'{decl.span.file}:{decl.span.line}: invariant "{decl.name}" is broken after '
                             f"{len(made)} moves: {why}; the last moves: {list(made)[-KEPT_MOVES:]}")


def every(n: int, check):
    """``check(st)`` on every ``n``-th call: a playout's invariants, checked often but not at each move."""
    count = [0]

    def checker(st):
        count[0] += 1
        if count[0] % n == 0:
            check(st)
    return checker


def assert_save_round_trips(game, st, rng: random.Random, moves: int = 300) -> None:
    """A save of ``st`` (through JSON text) loads into the same state, offers the same moves, and
    plays on move for move like the original for up to ``moves`` random moves."""
    twin = game.load_state(json.loads(json.dumps(st.to_json())))
    assert twin.to_json() == st.to_json()
    assert [m.text for m in twin.legal_moves()] == [m.text for m in st.legal_moves()]
    for _ in range(moves):
        if st.is_over():
            break
        move = rng.choice(st.legal_moves()).text
        st.apply(move)
        twin.apply(move)
    assert twin.to_json() == st.to_json()


def assert_same_seed_same_game(game, seed: int, agent_seed: int) -> None:
    """Two games with one seed, played by two random agents with one seed, end in the same state."""
    a, b = game.new_state(seed=seed), game.new_state(seed=seed)
    random_playout(a, random.Random(agent_seed))
    random_playout(b, random.Random(agent_seed))
    assert a.to_json() == b.to_json()
