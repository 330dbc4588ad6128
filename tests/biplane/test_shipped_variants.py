"""Biplane's shipped variants (games/biplane-*.rules) with Biplane's scenario helpers: their cards stay
accounted for, and each changes what it says, checked against the base game in the same seed and position
(what every variant must do: tests/test_shipped_variants.py)."""
from __future__ import annotations

import random

import pytest

import rulewright
from rulewright.interpreter.api import load_rules, player_range
from rulewright.interpreter.testing import random_playout

from .helpers import cards_everywhere, place, program_all, quiet, shot, stack_deck

PLAYOUT_SEEDS = range(4)  # as tests/test_shipped_variants.py's playouts
LOW, HIGH = player_range(load_rules("biplane"))


@pytest.mark.parametrize("players", range(LOW, HIGH + 1))
def test_more_ammo_random_playouts_keep_the_four_new_cards(players):
    """The playouts of tests/test_shipped_variants.py (which checks their scored end), the cards counted."""
    game = rulewright.load("biplane-more-ammo", players=players)
    for seed in PLAYOUT_SEEDS:
        st = game.new_state(seed=seed)
        random_playout(st, random.Random(seed), limit=20_000)
        assert sum(cards_everywhere(st).values()) == 68      # the four new cards stay accounted for


def _ready(name, players=2, seed=1):
    """Past the secret set-up discards: everyone is to program a first card (see tests/biplane)."""
    st = rulewright.load(name, players=players).new_state(seed=seed)
    while not all(m.text.startswith("program ") for m in st.legal_moves()):
        st.apply(st.legal_moves()[0])
    st.drain_events()
    return st


@pytest.mark.parametrize("players,base_end,variant_end", [(2, "E6", "E7"), (3, "E5", "E6")])
def test_fast_shots_fly_one_space_more_between_turns(players, base_end, variant_end):
    ends = []
    for name in ("biplane", "biplane-fast-shots"):
        st = _ready(name, players)
        quiet(st)
        st.vars["shots"] = [shot(1, "E3", "right")]
        program_all(st, {})
        ends.append([x["at"] for x in st.vars["shots"]])
    assert ends == [[base_end], [variant_end]]


def test_more_ammo_adds_four_shoot_cards_a_respawn_can_draw():
    base, variant = _ready("biplane"), _ready("biplane-more-ammo")
    assert sum(cards_everywhere(base).values()) == 64
    found = cards_everywhere(variant)
    assert sum(found.values()) == 68
    assert all(found[c] == 1 for c in ("Shoot D3", "Shoot D5", "Shoot D9", "Shoot D11"))
    # player 1 dives into the ground and respawns on the top card: a new Shoot card, facing right
    quiet(variant)
    place(variant, 1, "A5", "down")
    stack_deck(variant, ["Shoot D5"])
    program_all(variant, {1: "Straight 1 A1"})
    lines = [e["text"] for e in variant.drain_events() if e["event"] == "log"]
    assert "player 1 respawns at D5 facing right (Shoot D5)" in lines
    assert variant.vars["at"][0] == "D5" and variant.vars["heading"][0] == "right"
    assert sum(cards_everywhere(variant).values()) == 68
