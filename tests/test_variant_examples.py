"""The variants shipped as examples in docs/variants/: each an overlay of at most 30 lines with nothing
copied from its base, checked by the state it changes (issue: variants that need nothing copied)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulewright.interpreter.api import load, shipped_games

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "variants"


def _code_lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if line.strip() and not line.strip().startswith("#")]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.rules")), ids=lambda p: p.stem)
def test_an_example_variant_is_a_small_overlay_that_copies_nothing(path):
    assert len(path.read_text().splitlines()) <= 30
    base_name = next(line.split('"')[1] for line in _code_lines(path) if line.startswith("extends"))
    base = _code_lines(shipped_games()[base_name])
    base_pairs = set(zip(base, base[1:]))
    mine = _code_lines(path)
    # a line such as 'for p in players:' is an idiom; two lines in a row as in the base are a copy
    assert [pair for pair in zip(mine, mine[1:]) if pair in base_pairs] == []


def _after_setup(game, seed):
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    while state.vars["round_number"] == 1 and state.vars["at"] == [None] * game.player_count:
        state.apply(rng.choice(state.legal_moves()))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_biplane_every_plane_starts_with_one_extra_shoot_card(players):
    game = load(str(EXAMPLES / "biplane-extra-shoot.rules"), players=players)
    state = _after_setup(game, seed=players)
    for p in range(1, players + 1):
        hand = state.vars["owned"][p - 1]
        assert hand.count("Spare Shoot") == 1
        assert len(hand) == 5  # the four kept, and the spare
    assert "Spare Shoot" not in state.vars["deck"] + state.vars["discard"]


@pytest.mark.parametrize("players, seed", [(2, 8), (3, 8), (4, 3)])
def test_barnstormers_a_fifth_level_of_five_stunts_and_a_lead_pilot_who_changes_every_round(players, seed):
    game = load(str(EXAMPLES / "barnstormers-fifth-level.rules"), players=players, options={"level": "county"})
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    lead_pilot = {1: state.vars["first_player"]}          # round -> its Lead Pilot
    tracker = {1: list(state.vars["stunts"])}             # round -> the Stunt Tracker as it began
    first_mover = {1: state.to_move()[0]}                 # round -> who flies first
    while not state.is_over():
        state.apply(rng.choice(state.legal_moves()))
        r = state.vars["round_number"]
        if r not in lead_pilot and not state.is_over():
            lead_pilot[r] = state.vars["first_player"]
            tracker[r] = list(state.vars["stunts"])
            first_mover[r] = state.to_move()[0]
    last = max(lead_pilot)
    assert last > players                                  # every pilot led at least once
    # the token passes to the left every round, and the round's leader flies first
    assert all(lead_pilot[r] == (lead_pilot[1] + r - 2) % players + 1 for r in lead_pilot)
    assert first_mover == lead_pilot
    # five stunts end the show, with the round: four did not (a round began with a pilot on four), and
    # the last round began with nobody on five yet
    assert not state.vars["deck_ran_out"]
    assert max(state.vars["stunts"]) == 5 and max(tracker[last]) == 4
    assert all(max(stunts) < 5 for stunts in tracker.values())
