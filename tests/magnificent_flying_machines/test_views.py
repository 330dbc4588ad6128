"""What each player may see: other hands only as a count, face-down weather tiles as '?', and no
event, log or move text that names a card in someone else's hand before it is played."""
from __future__ import annotations

import json
import random

from .helpers import game, ready


def test_other_hands_and_face_down_weather_are_hidden_in_views():
    st = game(4).new_state(seed=3)
    for p in range(1, 5):
        view = st.view(p)["vars"]
        for q in range(1, 5):
            if q == p:
                assert view["hand"][q - 1] == st.vars["hand"][q - 1]
            else:
                assert view["hand"][q - 1] == {"hidden": 3}
        for w, real in zip(view["weather_at"][1:], st.vars["weather_at"][1:]):
            assert w["sky"] == (real["sky"] if real["up"] else "?")
        assert view["deck"] == {"hidden": len(st.vars["deck"])}


def test_a_weather_tile_shows_once_a_machine_enters_the_tile_before_it():
    st = game(3).new_state(seed=2)
    rng = random.Random(2)
    while not any(s["at"] >= 2 for s in st.vars["ships"]):
        st.apply(rng.choice(st.legal_moves()))
    far = max(s["at"] for s in st.vars["ships"])
    view = st.view(1)["vars"]["weather_at"]
    assert view[far]["up"] and view[far]["sky"] != "?"           # the tile after the leader's


def test_events_name_no_card_held_by_another_player():
    """A card is named in a player's events only once it is played (out of the hand), or if it is in
    their own hand. Cards come in copies: a name counts as secret only while no copy is in sight."""
    st = game(4).new_state(seed=7)
    rng = random.Random(7)
    for p in range(1, 5):
        st.drain_events(p)
    for _ in range(1500):
        if st.is_over():
            break
        st.apply(rng.choice(st.legal_moves()))
        for p in range(1, 5):
            seen = set(st.vars["hand"][p - 1]) | set(st.vars["discard"])
            held = {c for q in range(1, 5) if q != p for c in st.vars["hand"][q - 1]}
            for e in st.drain_events(p):
                if e["event"] == "move" and e.get("move", "").startswith("play "):
                    continue        # a card its holder is playing: it goes face up as it is played
                text = json.dumps(e)
                for c in held - seen:
                    assert c not in text, (p, c, e)


def test_reaction_windows_ask_by_what_is_public():
    """A player with a card in hand is asked whatever the card (being asked must not tell the others
    whether it carries a cad symbol); one with no card and no cad charge is not asked."""
    st = ready(3)
    bob = st.to_move()[0]
    paul = bob % 3 + 1
    st.vars["hand"][paul - 1] = ["Field Repairs (landing)"]       # no cad symbol, no dirty trick
    st.ask_again()
    st.apply("take off")
    assert st.to_move() == [paul]
    assert [m.text for m in st.legal_moves()] == ["let the test go ahead"]
    st.apply("let the test go ahead")
    assert st.to_move() == [bob]                                  # the third player, empty-handed, is skipped
