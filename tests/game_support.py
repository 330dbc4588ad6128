"""Helpers every game's test folder shares: legal move texts, log lines, random playouts."""
from __future__ import annotations

import json
import random


def texts(st, player=None) -> list:
    return [m.text for m in st.legal_moves(player)]


def logs(st) -> list:
    """The log lines since the last call (the events are drained)."""
    return [e["text"] for e in st.drain_events() if e["event"] in ("log", "reveal")]


def random_playout(st, rng: random.Random, check=None, limit=40_000) -> list:
    """Random legal moves to the end, ``check(st)`` after each; returns the moves as (player, text).
    A game still running after ``limit`` moves fails the test instead of hanging it."""
    played = []
    while not st.is_over():
        assert len(played) < limit, "the game did not end"
        move = rng.choice(st.legal_moves())
        played.append((move.player, move.text))
        st.apply(move)
        if check is not None:
            check(st)
    return played


def played(name: str, moves: int = 12, seed: int = 3):
    """A shipped game a few random moves in (derandomized: the same moves every run)."""
    import rulewright
    st = rulewright.load(name).new_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if st.is_over():
            break
        st.apply(rng.choice(st.legal_moves()))
    return st


def mover(st) -> int:
    """The one player who must decide now."""
    (p,) = st.to_move()
    return p


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


def every(n: int, check):
    """``check(st)`` on every ``n``-th call: a playout's invariants, checked often but not at each move."""
    count = [0]

    def checker(st):
        count[0] += 1
        if count[0] % n == 0:
            check(st)
    return checker


def assert_same_seed_same_game(game, seed: int, agent_seed: int) -> None:
    """Two games with one seed, played by two random agents with one seed, end in the same state."""
    a, b = game.new_state(seed=seed), game.new_state(seed=seed)
    random_playout(a, random.Random(agent_seed))
    random_playout(b, random.Random(agent_seed))
    assert a.to_json() == b.to_json()


# The guide's reaction-window game (docs/language.md, 'Reaction windows'): the adapters' window tests.
WINDOWS = '''
game "Windows"
players 3
player var hand = [] secret
player var score = 0
var deck = [] hidden

setup:
    deck = shuffled(["cad", "cad", "dud", "dud", "dud", "dud"])
    for p in players:
        repeat 2 times:
            draw c from deck
            add c to p.hand

turn:
    let need = 2
    each q in [k in players where k != me] may choose c in q.hand where c == "cad" as "play a cad against player {me}":
        reveal c as "player {q} plays a cad against player {me}"
        remove c from q.hand
        need += 1
    if roll(6) >= need:
        me.score += 1
end when round_number == 3 after round
'''
