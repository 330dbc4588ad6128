"""The pending decision's options, gathered once into a LegalTable: a state fills its own anew at each
decision, and a table a clone shares stays as it was for both."""
from __future__ import annotations

import random

import rulewright


def _texts(st, player=None) -> list:
    return [m.text for m in st.legal_moves(player)]


def test_a_state_fills_its_own_table_anew_at_each_decision():
    game = rulewright.load("connect-four")
    st = game.new_state(seed=1)
    first = st.legal_moves()
    table = st._legal
    st.apply(first[3])
    again = game.new_state(seed=1)
    again.apply(first[3].text)
    assert _texts(st) == _texts(again) and st._legal is table  # the same object, filled anew
    assert table.pending is st.pending and [m.player for m in st.legal_moves()] == again.to_move() * 7


def test_a_table_shared_with_a_clone_stays_right_for_both():
    """A clone takes the original's table with its data; whichever moves on, the other's options and
    moves stay those of its own decision, and both play on as two independent games would."""
    game = rulewright.load("connect-four")
    rng = random.Random(7)
    for _ in range(5):
        st = game.new_state(seed=rng.randrange(100))
        for _ in range(rng.randrange(8)):
            st.apply(rng.choice(st.legal_moves()))
        before = _texts(st)
        twin = st.clone()
        ours, theirs = random.Random(1), random.Random(2)
        twin.apply(theirs.choice(twin.legal_moves()))
        assert _texts(st) == before  # the original, taken back: its own decision's moves
        st.apply(ours.choice(st.legal_moves()))
        alone = game.new_state(seed=st.seed)  # the clone's game, played again with nothing shared
        for e in twin.event_history():
            if e["event"] == "move":
                alone.apply(e["move"], player=e["player"])
        assert _texts(twin) == _texts(alone) and twin.to_move() == alone.to_move()
        assert st._legal is not twin._legal
