"""What a rival may learn in Air Show: where and in what order bidding tokens lie, never their values
before the auction is resolved; that a player is preparing a show, never which planes or cards
until every show is turned over. Each test changes only what the viewer cannot see and asks for the
same view, board and information state (a leak would make them differ)."""
from __future__ import annotations

import json
import random
import re

import pytest

from rulewright.interpreter.testing import mover

from .helpers import at_step, drive, face_down, game


def _twin(st):
    return game(len(st.vars["money"])).load_state(json.loads(json.dumps(st.to_json())))


def _seen(st, viewer):
    return json.dumps(st.view(viewer), sort_keys=True), st.render(viewer), st.information_state(viewer)


def test_a_bid_value_stays_with_its_owner_until_the_resolution():
    st = at_step(game(3).new_state(seed=6), "auction bidding", round_number=2)
    drive(st, lambda s: sum(len(lot["bids"]) for lot in s.vars["lots"]) >= 5)
    viewer = mover(st)
    rivals = [b for lot in st.vars["lots"] for b in lot["bids"] if b["owner"] != viewer]
    assert rivals and not any(b["turned"] for b in rivals)
    twin = _twin(st)
    for lot in twin.vars["lots"]:
        for b in lot["bids"]:
            if b["owner"] != viewer:
                b["value"] = 3 if b["value"] != 3 else 0
    for p in range(1, 4):
        if p != viewer:  # the tokens a rival still holds are theirs to know
            twin.vars["tokens"][p - 1] = list(reversed(twin.vars["tokens"][p - 1]))
    assert _seen(twin, viewer) == _seen(st, viewer)
    assert _seen(twin, None) != _seen(st, None)       # the referee sees the values
    # the rivals' token moves reached the viewer masked: where, not how much
    for e in st.event_history(viewer):
        if e["event"] == "move" and e["player"] != viewer:
            assert not re.match(r"bid \d", e["move"]), e


def test_the_values_are_public_once_turned_over():
    st = at_step(game(3).new_state(seed=6), "buy development token", round_number=2)
    below = [e["text"] for e in st.event_history(1) if e["event"] == "log" and e["text"].startswith("below ")]
    assert below and all(re.search(r"\d:\d", line) for line in below)


def test_a_show_stays_secret_until_every_show_is_turned_over():
    st = at_step(game(3).new_state(seed=8), "air show preparation", round_number=2)
    first = mover(st)
    drive(st, lambda s: mover(s) != first, prefer=("show ", "play "))
    viewer = mover(st)
    planned = st.vars["fleet"][first - 1]
    assert any(a["entered"] for a in planned) and not any(a["unveiled"] for a in planned)
    twin = _twin(st)
    for a in twin.vars["fleet"][first - 1]:
        a["entered"] = not a["entered"]
    for g in twin.vars["groups"][first - 1]:
        g["placed"] = None
    twin.vars["hand"][first - 1] = list(reversed(twin.vars["hand"][first - 1]))
    assert _seen(twin, viewer) == _seen(st, viewer)
    assert _seen(twin, first) != _seen(st, first)      # the planner sees their own plan
    masked = [e["move"] for e in st.event_history(viewer) if e["event"] == "move" and e["player"] == first]
    assert masked and set(masked[-3:]) == {"makes a secret choice"}


@pytest.mark.parametrize("players", [3, 4])
def test_no_show_is_face_down_at_any_reward_choice(players):
    """"All players then turn over the air show cards they have played onto their plane groups",
    then the shows are resolved and rewarded: at every choice of prestige or purchase flags in
    random games, every rival of the chooser sees every show face up (a rival's view, not the
    rules' state). Before the fix a later player's show was still face down at an earlier
    player's choice."""
    checks = 0
    for seed in range(4):
        st = game(players).new_state(seed=seed)
        rng = random.Random(seed)
        while not st.is_over():
            moves = st.legal_moves()
            if moves[0].text.startswith("take prestige for "):
                chooser = moves[0].player
                for viewer in range(1, players + 1):
                    if viewer != chooser:
                        assert face_down(st.view(viewer)) == set(), (seed, st.vars["round_number"])
                        checks += 1
            st.apply(rng.choice(moves))
    assert checks >= 100
