"""What a player sees of Magnificent Flying Machines mid-race (snapshots): the other hands and the
face-down weather tiles as '?' or a count; during a reaction window, the asked player sees their
answers, the others only that a window is open."""
from __future__ import annotations

import random

from .helpers import game


def _mid_window(players=3, seed=4, moves=250):
    """A quick-start race after ``moves`` random moves, then on to the next reaction window."""
    st = game(players).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        st.apply(rng.choice(st.legal_moves()))
    while not st.pending.window:
        st.apply(rng.choice(st.legal_moves()))
    return st


def test_mid_race_as_a_player_not_asked_in_the_window(snapshot):
    st = _mid_window()
    tester = st.vars["ships"][st.vars["current"] - 1]["owner"]
    (asked,) = st.to_move()
    (bystander,) = [q for q in (1, 2, 3) if q not in (asked, tester)]
    text = st.render(bystander)
    assert "a window for responses is open" in text and "to move" not in text
    assert '"sky": "?"' in text and '{"hidden": ' in text
    assert text == snapshot
    # the tester's board reads the same but for their own hand
    assert "a window for responses is open" in st.render(tester)


def test_mid_race_as_the_player_asked_in_the_window(snapshot):
    st = _mid_window()
    (asked,) = st.to_move()
    text = st.render(asked)
    assert "to move: player %d" % asked in text
    assert text == snapshot


def test_mid_race_in_a_turn_four_players(snapshot):
    st = game(4).new_state(seed=9)
    rng = random.Random(9)
    for _ in range(400):
        st.apply(rng.choice(st.legal_moves()))
    while st.pending.window or len(st.to_move()) != 1:
        st.apply(rng.choice(st.legal_moves()))
    (p,) = st.to_move()
    text = st.render(p)
    assert text == snapshot
