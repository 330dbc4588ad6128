"""Helpers every game's test folder shares: legal move texts, log lines, random playouts."""
from __future__ import annotations

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
