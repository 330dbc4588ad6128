"""What each player may see: other hands only as a count, face-down weather tiles as '?', and no
event, log or move text that names a card in someone else's hand before it is played."""
from __future__ import annotations

import json
import random

from .helpers import dashboard, game, others, ready


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


def test_a_reaction_window_asks_only_players_with_an_answer():
    """A card with no cad symbol that is no dirty trick against the tester is no answer: nobody is
    asked and the test is rolled at once."""
    st = ready(3)
    bob = st.to_move()[0]
    paul = bob % 3 + 1
    dashboard(st, bob, "Biplane", at=2)
    st.vars["hand"][paul - 1] = ["Field Repairs (landing)"]       # no cad symbol, no dirty trick
    st.ask_again()
    st.drain_events()
    st.apply("take off")
    assert any(" rolls " in e.get("text", "") for e in st.drain_events())
    assert bob in st.to_move() and not st.pending.window


def _window(seed=1):
    """Player ``paul`` holds a cad symbol and is asked before ``bob``'s take-off test; ``kim`` holds a
    card that answers nothing (the same hand size as paul's) and is not asked."""
    st = ready(3, seed=seed)
    bob = st.to_move()[0]
    paul, kim = others(st, bob)
    dashboard(st, bob, "Biplane", at=2)
    st.vars["hand"][paul - 1] = ["Sabotage (cad)"]
    st.vars["hand"][kim - 1] = ["Field Repairs (landing)"]
    st.ask_again()
    st.apply("take off")
    return st, bob, paul, kim


def test_nobody_else_can_tell_who_is_asked_in_a_window():
    st, bob, paul, kim = _window()
    assert st.to_move() == [paul] and st.pending.window
    assert st.view(paul)["to_move"] == [paul]
    assert st.view(paul)["legal_moves"] == ["discard Sabotage (cad) for its cad symbol",
                                            "play Sabotage (cad) against the tester", "let the test go ahead"]
    # the same window with kim asked instead: bob's and the third player's pictures do not change
    twin, *_ = _window()
    twin.vars["hand"][paul - 1], twin.vars["hand"][kim - 1] = ["Field Repairs (landing)"], ["Sabotage (cad)"]
    twin.ask_again()
    assert twin.to_move() == [kim]
    for a in (st, twin):
        v = a.view(bob)
        assert v["to_move"] == [] and v["window"] == "open" and "legal_moves" not in v
        assert "a window for responses is open" in a.render(bob)
    assert st.view(bob) == twin.view(bob) and st.render(bob) == twin.render(bob)
    assert st.drain_events(bob) == twin.drain_events(bob)
    # kim, not asked, is told only that a window is open
    v = st.view(kim)
    assert v["to_move"] == [] and v["window"] == "open" and "legal_moves" not in v
    assert "to move" not in st.render(kim)
    # the pass and the answer reach their player alone; what the answer does is public
    for p in (bob, paul, kim):
        st.drain_events(p)
    st.apply("let the test go ahead", player=paul)
    for p in (bob, kim):
        events = st.drain_events(p)
        assert not any(e["event"] == "move" and e["player"] == paul for e in events)
        assert not any("Sabotage" in json.dumps(e) for e in events)
    assert [e["move"] for e in st.drain_events(paul) if e["event"] == "move"] == ["let the test go ahead"]


def test_an_answer_in_a_window_shows_only_in_what_it_does():
    st, bob, paul, kim = _window()
    for p in (bob, paul, kim):
        st.drain_events(p)
    st.apply("discard Sabotage (cad) for its cad symbol", player=paul)
    seen = st.drain_events(kim)
    assert not any(e["event"] == "move" and e["player"] == paul for e in seen)
    assert any(e["event"] == "reveal" and "player %d plays a cad symbol (Sabotage (cad))" % paul in e["text"] for e in seen)
    assert "Sabotage (cad)" in st.vars["discard"]


def test_a_window_survives_a_save_and_load():
    st, bob, paul, kim = _window()
    back = game(3).load_state(json.loads(json.dumps(st.to_json())), verify=False)   # a position set by hand
    assert back.pending.window and back.to_move() == [paul]
    assert back.view(kim) == st.view(kim) and back.view(paul) == st.view(paul)
    for a in (st, back):
        a.apply("discard Sabotage (cad) for its cad symbol", player=paul)
    assert back.to_json() == st.to_json()
    assert any(" rolls 4 dice" in e.get("text", "") for e in back.drain_events())     # 5 takeoff dice, one cad
