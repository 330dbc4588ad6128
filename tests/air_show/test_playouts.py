"""Random games of Air Show to a scored end for 2 to 5 players: nothing is lost or made up on the
way, the economy stays in bounds, and a save round-trips mid-auction and mid-preparation."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from rulewright.interpreter.testing import assert_same_seed_same_game, assert_save_round_trips, every, random_playout

from .helpers import at_step, drive, game, ready

SEEDS = range(8)
DECKS = {"show_card": 40, "event": 12}


def check_invariants(st):
    v = st.vars
    players = len(v["money"])
    # the 40 air show cards: a card placed on a group stays in its owner's hand until the reveal
    shows = Counter(v["show_deck"]) + Counter(v["show_discard"]) + Counter(c for h in v["hand"] for c in h)
    if v["master"] is not None:
        shows[v["master"]] += 1
    for i in range(players):
        for g in v["groups"][i]:
            if g["placed"] is not None and g["placed"] not in v["hand"][i]:
                shows[g["placed"]] += 1
    assert shows == Counter(st.game.tables["show_card"])
    events = Counter(v["event_deck"]) + Counter(v["event_discard"]) + Counter(e for h in v["held_events"] for e in h)
    if st.step != "auction resolution":  # while the lots are settled, a sold event is in both places
        events += Counter(lot["event_card"] for lot in v["lots"] if lot["event_card"] is not None)
        assert events == Counter(st.game.tables["event"])
    # a plane is in one place at most; the sold and unchosen ones are in the box
    planes = [a["card"] for f in v["fleet"] for a in f] + [a["card"] for a in v["display"]] + v["planes_deck"]
    planes += [c for deck in v["grey_decks"] for c in deck]
    assert len(planes) == len(set(planes)) and set(planes) <= set(st.game.tables["plane"])
    for i in range(players):
        assert v["money"][i] >= 0 and v["prestige"][i] >= 0
        built = v["developments"][i]
        assert len(built) <= 6
        assert len([d for d in built if d != "Hangar"]) == len({d for d in built if d != "Hangar"})
        assert all(a["owner"] == i + 1 and a["damage"] >= 0 for a in v["fleet"][i])
        assert not Counter(v["tokens"][i]) - Counter([0, 1, 1, 2, 3])   # the bidding tokens left in front
    for token, left in v["stock"].items():
        assert left >= 0
        assert left + sum(d.count(token) for d in v["developments"]) == _deployed(st, token, players)


def _deployed(st, token, players):
    colour = st.game.columns["colour"][token]
    return st.game.columns[f"for_{min(players, 5)}"][colour]


def _every(n):
    return every(n, check_invariants)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_to_a_scored_end(players, seed):
    st = game(players).new_state(seed=seed)
    random_playout(st, random.Random(seed), check=_every(40), limit=20_000)
    check_invariants(st)
    v = st.vars
    out = st.outcome()
    # the end: a fifth token, or (designed) no way left to one, or three quiet turns
    fifth = any(len(d) >= 5 for d in v["developments"])
    assert fifth or v["quiet_turns"] == 3 or all(
        len(d) + v["stock"]["Hangar"] + sum(1 for t, n in v["stock"].items() if t != "Hangar" and n > 0 and t not in d) < 5
        for d in v["developments"])
    # the scoring booklet, worked out again from the final state
    for i in range(players):
        fleet = v["fleet"][i]
        built = v["developments"][i]
        museum = sum(1 for a in fleet if st.game.columns["period"][a["card"]] in ("A1", "A2")) if "Museum" in built else 0
        variety = 3 if {st.game.columns["period"][a["card"]] for a in fleet} == set(st.game.tables["period"]) else 0
        points = sum(st.game.columns["points"][d] for d in built)
        undamaged = sum(1 for a in fleet if a["damage"] == 0)
        assert out.scores[i + 1] == v["prestige"][i] + points + museum + undamaged + v["money"][i] // 10 + variety
    keys = {p: (-out.scores[p], -v["money"][p - 1]) for p in out.scores}
    assert [keys[p] for group in out.ranking for p in group] == sorted(keys.values())


@pytest.mark.parametrize("moment", ["auction bidding", "air show preparation"])
def test_a_save_round_trips(moment):
    g = game(3)
    st = at_step(g.new_state(seed=4), moment, round_number=2)
    st.apply(st.legal_moves()[-1])
    assert_save_round_trips(g, st, random.Random(4))


def test_same_seed_same_game():
    assert_same_seed_same_game(game(4), 5, 9)


def test_a_game_nobody_can_move_on_ends_after_three_quiet_turns():
    """Nobody has a plane or a flag: every bid is forfeit, nothing is built or flown, and the designed
    end for a game that cannot move on comes after the third quiet turn."""
    st = ready(2, seed=2)
    for i in range(2):
        st.vars["fleet"][i] = []
        st.vars["money"][i] = 0
    quiet = ("bid on the event", "bid 3 on", "bid 2 on", "bid 1 on", "build nothing", "stop repairing")
    drive(st, lambda s: s.is_over(), prefer=quiet)
    assert st.vars["quiet_turns"] == 3 and st.vars["round_number"] == 3
    assert st.outcome().scores == {1: 0, 2: 0}
