"""One timed measurement of the rulewright on sys.path (this checkout, or another engine's), printed as
JSON: the child process compare.py starts, alternately for the old and the new engine.

    python benchmarks/measure_one.py MODE GAME PLAYERS SECONDS SEED

MODE: playout (legal_moves + apply, whole random games), search (clone + legal_moves + apply, a random
walk that goes on from the clone), actions (clone + legal_actions + apply_action; engines without the
integer path print null), fill (GAME is a board size N: an N by N board filled one space a decision,
every empty space an option; prints the cost per option). Time is this thread's CPU time.
"""
from __future__ import annotations

import json
import random
import sys
import time

import rulewright

FILL = """game "Fill"
players 2
board grid: grid {n} by {n}
var marks = {{}}
turn:
    choose cell in grid where marks[cell] == none
    marks[cell] = me
    if len(marks) == {cells}:
        end game
"""


def _walk(game, seconds: float, seed: int, step) -> dict:
    rng = random.Random(seed)
    st = game.new_state(seed=rng.randrange(1 << 30))
    n = 0
    start = time.thread_time()
    deadline = start + seconds
    while True:
        for _ in range(64):
            st = step(st, rng)
            n += 1
            if st.is_over():
                st = game.new_state(seed=rng.randrange(1 << 30))
        if time.thread_time() >= deadline:
            break
    return {"per_s": n / (time.thread_time() - start)}


def _search(st, rng):
    c = st.clone()
    moves = c.legal_moves()
    c.apply(moves[rng.randrange(len(moves))])
    return c


def _actions(st, rng):
    c = st.clone()
    actions = c.legal_actions()
    c.apply_action(actions[rng.randrange(len(actions))])
    return c


def _playout(game, seconds: float, seed: int) -> dict:
    rng = random.Random(seed)
    games = decisions = 0
    start = time.thread_time()
    deadline = start + seconds
    while True:
        st = game.new_state(seed=rng.randrange(1 << 30))
        while not st.is_over() and decisions < 50_000_000:
            moves = st.legal_moves()
            st.apply(moves[rng.randrange(len(moves))])
            decisions += 1
        games += 1
        if time.thread_time() >= deadline:
            break
    elapsed = time.thread_time() - start
    return {"per_s": decisions / elapsed, "games_per_s": games / elapsed}


def _fill(n: int, seconds: float, seed: int) -> dict:
    from rulewright.dsl.parser import parse
    from rulewright.interpreter.api import Game
    game = Game(parse(FILL.format(n=n, cells=n * n), "fill.rules"), 2)
    rng = random.Random(seed)
    options = decisions = 0
    start = time.thread_time()
    deadline = start + seconds
    while time.thread_time() < deadline:
        st = game.new_state(seed=1)
        while not st.is_over():
            moves = st.legal_moves()
            options += len(moves)
            st.apply(moves[rng.randrange(len(moves))])
            decisions += 1
    elapsed = time.thread_time() - start
    return {"per_s": decisions / elapsed, "us_per_option": elapsed / options * 1e6}


def main(argv) -> int:
    mode, name, players, seconds, seed = argv[0], argv[1], argv[2], float(argv[3]), int(argv[4])
    if mode == "fill":
        _fill(int(name), min(0.3, seconds), seed)  # warm up
        print(json.dumps(_fill(int(name), seconds, seed)))
        return 0
    game = rulewright.load(name, players=int(players) if players != "-" else None)
    if mode == "playout":
        _playout(game, min(0.3, seconds), seed)
        out = _playout(game, seconds, seed)
    elif mode == "actions" and not hasattr(game.new_state(seed=0), "legal_actions"):
        out = None
    else:
        step = _search if mode == "search" else _actions
        _walk(game, min(0.3, seconds), seed, step)
        out = _walk(game, seconds, seed, step)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
