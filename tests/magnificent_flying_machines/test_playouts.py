"""Random games to a scored end for 2-6 players and every option, many seeds: the end comes by the
rulebook's turn counts, scores add up from the machines, and a save round-trips mid-test and
mid-reaction."""
from __future__ import annotations

import json
import random

import pytest

from rulewright.interpreter.testing import assert_same_seed_same_game, random_playout

from .helpers import game

CONFIGS = {f"{n}p-quick": (n, {}) for n in (2, 3, 4, 5, 6)}
CONFIGS.update({
    "3p-standard": (3, {"race": "standard"}),
    "5p-standard": (5, {"race": "standard"}),
    "4p-long": (4, {"race": "long"}),
    "6p-long": (6, {"race": "long"}),
    "3p-random": (3, {"race": "random"}),
    "2p-standard": (2, {"race": "standard"}),
    "4p-pairs": (4, {"team_play": "pairs"}),
    "6p-pairs": (6, {"team_play": "pairs", "race": "standard"}),
    "6p-threes": (6, {"team_play": "threes"}),
    "4p-less-dirty": (4, {"confrontation": "less_dirty"}),
    "5p-less-dirty-long": (5, {"confrontation": "less_dirty", "race": "long"}),
})
SEEDS = (1, 2)


def check_end(st):
    v = st.vars
    out = st.outcome()
    ships = v["ships"]
    machines = len(ships)
    assert v["game_ended"]
    finished = [s for s in ships if s["finished"]]
    # the end came by the turn counts of section 9 (or every machine landed)
    assert len(finished) >= machines - (2 if machines >= 5 else 1) or st.game.player_count == 2
    if st.game.player_count == 2:
        assert any(all(s["finished"] for s in ships if s["owner"] == p) for p in (1, 2))
    for p in range(1, len(v["hand"]) + 1):
        mine = [s for s in ships if s["owner"] == p]
        points = sum(s["vp"] - s["gauge"] - s["scored_damage"]
                     - sum(1 for c in s["cargo"] if c in ("Mountain Cargo", "Water Cargo", "Town Cargo", "Fields Cargo"))
                     for s in mine)
        assert v["score"][p - 1] == points + v["seat_points"][p - 1]
        assert v["damage"][p - 1] == sum(s["gauge"] + s["scored_damage"] for s in mine)
    keys = {p: (-v["score"][p - 1], v["damage"][p - 1], -v["order"][p - 1]) for p in range(1, len(v["hand"]) + 1)}
    flat = [p for group in out.ranking for p in group]
    assert [keys[p] for p in flat] == sorted(keys.values())
    return out


@pytest.mark.parametrize("name", list(CONFIGS))
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playout_to_a_scored_end(name, seed):
    players, options = CONFIGS[name]
    st = game(players, **options).new_state(seed=seed)

    def watch(s):
        for t in s.vars["ships"]:
            assert 0 <= t["gauge"] <= 2 and 0 <= t["fuel"] <= 4 - t["gauge"]
            assert 1 <= t["at"] <= len(s.vars["course"]) and 0 <= t["alt"] <= 3
        assert all(n >= 0 for n in s.vars["parts_supply"].values())
    random_playout(st, random.Random(seed), check=watch)
    out = check_end(st)
    if options.get("team_play"):
        assert out.teams is not None and any(set(out.winners) == set(t) for t in out.teams)


def test_the_end_comes_after_the_last_machines_take_one_more_turn():
    """3-4 players: once the penultimate machine lands, the last one takes exactly one more turn
    (the machines already on the final airfield take theirs in between) and the game ends with it."""
    st = game(4).new_state(seed=5)
    rng = random.Random(5)
    after = None
    while not st.is_over():
        before, was = st.vars["ending"], st.vars["current"]
        st.apply(rng.choice(st.legal_moves()))
        if not before and st.vars["ending"]:
            remaining = list(st.vars["last_turns"])
            assert len(remaining) == 1
            after = [st.vars["current"]]
            # landed in the last machine's own turn: that turn is not its one more turn (landed at
            # the end of another's turn, the next turn has begun with this move and is the one more)
            mid_turn = st.vars["current"] == was
        elif after is not None and st.vars["current"] != after[-1]:
            after.append(st.vars["current"])
    assert after is not None and after[-1] == remaining[0]
    assert after.count(remaining[0]) == 1 + (after[0] == remaining[0] and mid_turn)


def test_a_save_round_trips_mid_test_and_mid_reaction():
    g = game(4)
    st = g.new_state(seed=11)
    rng = random.Random(11)
    seen = set()
    while len(seen) < 2 and not st.is_over():
        st.apply(rng.choice(st.legal_moves()))
        texts = [m.text for m in st.legal_moves()]
        kind = ("reaction" if "let the test go ahead" in texts else
                "rescue" if "accept the failure" in texts else None)
        if kind and kind not in seen:
            seen.add(kind)
            twin = g.load_state(json.loads(json.dumps(st.to_json())))
            assert [m.text for m in twin.legal_moves()] == texts
            a, b = st.clone(), twin
            r1, r2 = random.Random(3), random.Random(3)
            for _ in range(200):
                if a.is_over():
                    break
                m = r1.choice(a.legal_moves())
                assert m.text == r2.choice(b.legal_moves()).text
                # by text and player: in a reaction window several players may make the same move
                a.apply(m.text, player=m.player)
                b.apply(m.text, player=m.player)
            assert a.to_json() == b.to_json()
    assert seen == {"reaction", "rescue"}


def test_same_seed_same_game():
    assert_same_seed_same_game(game(5, race="standard"), 4, 8)
