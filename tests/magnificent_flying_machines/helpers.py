"""Scenario helpers for Magnificent Flying Machines: a quick-start game past its setup, a machine's
dashboard set by hand, and dice found by trying seeds of the game's generator (a test names the
outcome it needs, the helper finds a roll that gives it and plays the real moves)."""
from __future__ import annotations

from functools import lru_cache

import rulewright
from game_support import logs, random_playout, texts  # noqa: F401  (shared by every game's tests)

GAME = "magnificent-flying-machines"
COURSE = ["Starting Airfield", "Fields 2", "Town 3", "Water 4", "Mountain 5", "Middle Airfield",
          "Fields 7", "Town 8", "Water 9", "Mountain 10", "Final Airfield"]


@lru_cache(maxsize=None)
def _game(players, options):
    return rulewright.load(GAME, players=players, options=dict(options))


def game(players=4, **options):
    return _game(players, tuple(sorted(options.items())))


def ready(players=3, seed=1, **options):
    """A quick-start game whose first machine is about to choose its first action; every hand empty."""
    st = game(players, **options).new_state(seed=seed)
    for p in range(players):
        st.vars["hand"][p] = []
    refresh(st)
    st.drain_events()
    return st


def mover(st):
    (p,) = st.to_move()
    return p


def refresh(st):
    st.ask_again()


def ship(st, p):
    """The machine of player ``p`` (one machine each)."""
    return next(s for s in st.vars["ships"] if s["owner"] == p)


def dashboard(st, p, model, pilot="Hamish McTarn", equipment=(), at=1, alt=0, **fields):
    """Player ``p``'s machine set by hand: its model, pilot, equipment (charges full), place."""
    s = ship(st, p)
    charges = {pilot: st.game.columns["charges"][pilot]}
    for e in equipment:
        charges[e] = st.game.columns["charges"][e]
    s.update(model=model, pilot=pilot, equipment=list(equipment), charges=charges, at=at, alt=alt,
             parts=[], cargo=[], pax=[], **fields)
    return s


def weather(st, place, sky):
    st.vars["weather_at"][place - 1] = {"sky": sky, "up": True}


def others(st, p):
    n = st.game.player_count
    return [(p - 1 + k) % n + 1 for k in range(1, n)]


def until(st, moves, wanted, tries=3000):
    """The state after ``moves`` (texts, or callables of the state giving a text) for the first seed
    of the dice that makes ``wanted(state, log lines)`` true."""
    for seed in range(tries):
        trial = st.clone()
        trial.rng.seed(seed)
        trial.drain_events()
        for m in moves:
            trial.apply(m(trial) if callable(m) else m)
        lines = logs(trial)
        if wanted(trial, lines):
            trial.lines = lines
            return trial
    raise AssertionError("no roll gives the outcome wanted")


def rolled(lines):
    """(dice, symbols got, symbols needed) of each test in the log lines."""
    out = []
    for line in lines:
        if " rolls " in line and " dice for " in line:
            n = int(line.split(" rolls ")[1].split()[0])
            got, need = line.rsplit(": ", 1)[1].split(" of ")
            out.append((n, int(got), int(need.split()[0])))
    return out
