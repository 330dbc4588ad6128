"""The variants shipped in games/ (a few lines laid over a seed game with 'extends'): each one validates
clean, plays to its end at random for every player count its base allows, and really changes what its
opening comment says it changes, checked against the base game in the same seed and position."""
from __future__ import annotations

import random
from collections import Counter

import pytest

import rulewright
from rulewright.interpreter.api import load_rules, player_range, shipped_games
from rulewright.interpreter.check.checker import check

from rulewright.interpreter.testing import random_playout

VARIANTS = {
    "biplane-fast-shots": "biplane",
    "biplane-more-ammo": "biplane",
    "planes-short-track": "planes",
    "planes-refill": "planes",
    "planes-own-layout": "planes",
    "barnstormers-short-show": "barnstormers",
    "barnstormers-extra-stunts": "barnstormers",
}
SEEDS = range(3)
PLAYOUT_SEEDS = range(4)


def test_every_variant_in_games_is_listed_here():
    shipped = shipped_games()
    assert set(VARIANTS) == {name for name, path in shipped.items() if "extends" in path.read_text()}
    for name, base in VARIANTS.items():
        assert shipped[name].parent.name == "games"          # package data ships games/*.rules only
        text = shipped[name].read_text(encoding="utf-8")
        assert text.startswith("# ") and f'extends "{base}"' in text


@pytest.mark.parametrize("name", list(VARIANTS))
def test_the_variant_validates_clean_and_keeps_its_base_player_counts(name):
    rules = load_rules(name)
    assert [d.render() for d in check(rules)] == []
    assert player_range(rules) == player_range(load_rules(VARIANTS[name]))


def _playouts():
    for name, base in VARIANTS.items():
        low, high = player_range(load_rules(base))
        for players in range(low, high + 1):
            yield pytest.param(name, players, id=f"{name}-{players}p")


@pytest.mark.parametrize("name,players", list(_playouts()))
def test_random_playouts_reach_a_scored_end(name, players):
    game = rulewright.load(name, players=players)
    for seed in PLAYOUT_SEEDS:
        st = game.new_state(seed=seed)
        random_playout(st, random.Random(seed), limit=20_000)
        out = st.outcome()
        assert sorted(p for group in out.ranking for p in group) == list(range(1, players + 1))
        assert set(out.winners) <= set(range(1, players + 1))


def _same_moves(base: str, moves, players: int, seed: int):
    """The base game in the same seed, given the moves a variant's game was played with."""
    st = rulewright.load(base, players=players).new_state(seed=seed)
    for player, text in moves:
        st.apply(text, player=player)
    return st


# ---------------------------------------------------------------- Biplane: tests/biplane/test_shipped_variants.py
# (with Biplane's scenario helpers; it also counts the cards at the end of more-ammo's random playouts)


# ---------------------------------------------------------------- PLANES
def test_short_track_ends_when_the_boarding_track_reaches_8():
    assert rulewright.load("planes-short-track").options["last_space"] == 8
    assert rulewright.load("planes").options["last_space"] == 12
    shorter = 0
    for seed in SEEDS:
        st = rulewright.load("planes-short-track", players=3).new_state(seed=seed)
        moves = random_playout(st, random.Random(seed))
        assert st.vars["track"] >= 8
        base = _same_moves("planes", moves, 3, seed)
        assert base.vars == st.vars or not base.is_over()   # the same game, up to the variant's end
        shorter += not base.is_over()
    assert shorter >= 1


def test_refill_draws_back_up_to_three_cards_after_the_goal_phase():
    hands = {}
    for name in ("planes", "planes-refill"):
        st = rulewright.load(name, players=2).new_state(seed=8)
        # player 1's first turn: To Gift Shop as the action (it draws nothing), then a goal (Gift Shop):
        # one card of three left
        while st.to_move() == [1]:
            st.apply(next(m for m in st.legal_moves() if not m.text.startswith("action Draw")))
        assert st.vars["goals"][0] == ["To Gift Shop"] and "To Gift Shop" in st.vars["discard"]
        hands[name] = len(st.vars["hand"][0])
    assert hands == {"planes": 1, "planes-refill": 3}



@pytest.mark.parametrize("airport", ["flying_cloud", "zephyr"])
def test_own_layout_plays_the_players_points_of_interest(airport):
    """interest=custom is whatever layout the players bring: this variant replaces the layout tables,
    keeps everything else (cubes, gates, cards), and its layout keeps the four major gates equal
    (fast food in front of each) and the order of scarcity."""
    assert rulewright.load("planes-own-layout").options["interest"] == "custom"
    own = rulewright.load("planes-own-layout", players=3, options={"airport": airport}).new_state(seed=1)
    base = rulewright.load("planes", players=3, options={"airport": airport, "interest": "custom"}).new_state(seed=1)
    poi = own.vars["poi"]
    assert set(poi) == set(base.vars["poi"]) and poi != base.vars["poi"]
    assert {k: v for k, v in own.vars.items() if k != "poi"} == {k: v for k, v in base.vars.items() if k != "poi"}
    board = own.game.board
    assert {poi[board.previous(g)[0]] for g in ("G1", "G2", "G3", "G4")} == {"fast_food"}
    n = Counter(poi.values())
    assert min(n["restroom"], n["fast_food"]) > max(n["gift_shop"], n["help_desk"])
    assert min(n["gift_shop"], n["help_desk"]) > n["fine_dining"] >= 1 and sum(n.values()) == 14


# ---------------------------------------------------------------- Barnstormers
def test_short_show_ends_at_three_stunts_at_the_local_level():
    ended_sooner = 0
    for seed in SEEDS:
        st = rulewright.load("barnstormers-short-show", players=3).new_state(seed=seed)
        moves = random_playout(st, random.Random(seed))
        assert max(st.vars["stunts"]) == 3 or st.vars["deck_ran_out"]
        base = _same_moves("barnstormers", moves, 3, seed)
        ended_sooner += not base.is_over()
        assert base.vars["stunts"] == st.vars["stunts"]
    assert ended_sooner == len(SEEDS)


def test_extra_stunts_deal_three_more_trick_stunts():
    def stunts(name):
        v = rulewright.load(name, players=4).new_state(seed=2).vars
        return Counter(v["panel"] + v["green_deck"] + v["yellow_deck"] + v["red_deck"])
    base, variant = stunts("barnstormers"), stunts("barnstormers-extra-stunts")
    assert sum(base.values()) == 48 and sum(variant.values()) == 51
    assert variant - base == Counter(["Far Pair", "Ladder", "Wide Cross"])
    cols = rulewright.load("barnstormers-extra-stunts", players=4).compiled.columns
    assert [cols["tier"][s] for s in ("Far Pair", "Ladder", "Wide Cross")] == ["green", "yellow", "red"]
