"""The Move Phase over real seeded games: at every move reached (both airports, 2-4 players, with and
without the action cards that change a move), the move is made by real decisions, and each set of
options offered and the airport after it are compared with the rulebook's account (airport.py)."""
from __future__ import annotations

import functools
import random

from rulewright.interpreter.testing import positions

from .airport import Airport
from .helpers import game

CONFIGS = ((2, "flying_cloud"), (3, "flying_cloud"), (4, "flying_cloud"), (2, "zephyr"), (3, "zephyr"),
           (4, "zephyr"))
# The agent steered to the cards that change a move, so each is played often.
MOVE_CARDS = "^action (Skip 1 Space|Ignore Neutrals|Move Backwards|Only Your Party|Move Twice|Choose One)$" \
             "|^ignore blockages$"


def at_a_move(st):
    return st.step == "move" and all(m.text.startswith("move ") for m in st.legal_moves())


# Seed 3 (3 players on Flying Cloud, the move cards preferred) moves a single cube against the arrows
# onto its gate early: found by a search over seeds 0-3 when the test was written.
BACKWARDS_ONTO_A_GATE = 3


@functools.lru_cache(maxsize=None)
def moves(players, airport, prefer):
    extra = (BACKWARDS_ONTO_A_GATE,) if prefer and (players, airport) == (3, "flying_cloud") else ()
    return list(positions(game(players, airport=airport), at_a_move, seeds=(0, 1) + extra, prefer=prefer,
                          each=25))


def ignoring_blockages(found):
    """Choose One played this turn with "ignore blockages" chosen (the player's own pick)."""
    turn = []
    for player, text in reversed(found.moves):
        turn.append(text)
        if text.startswith("action ") or text == "no action":
            break
    return "ignore blockages" in turn


def test_every_move_follows_the_arrows_drops_one_cube_a_space_and_boards_by_the_rules():
    """Move Phase ("pick up all the cubes ... move them along the arrows, dropping one cube in each
    space ... you may stop and drop all remaining cubes"), the gates ("Only the last single cube ...
    of the same color as the plane"), Boarding a Plane (the token one space on the track), Blockages
    ("seven or more party cubes ... a cone"; "No cubes may move past it"; lifted below seven), the
    Rule Clarifications (a full plane is closed; a move may start on a blocked space; the player picks
    an arrow) and the move cards (Skip 1 Space, Ignore Neutrals, Move Backwards, Only Your Party, Move
    Twice, Choose One's ignore blockages), over every move of real games on both airports."""
    seen = set()
    for players, airport in CONFIGS:
        for prefer in (None, MOVE_CARDS):
            for found in moves(players, airport, prefer):
                st = found.state.clone()
                rng = random.Random(found.seed * 1000 + len(found.moves))
                airport_now = Airport(st, ignoring_blockages(found))
                seen |= airport_now.move(st, rng)
                seen |= {rule for rule in ("backwards", "own_only", "no_neutrals", "skip", "ignore_blockages")
                         if getattr(airport_now, rule)}
                if at_a_move(st) and "Move Twice" in st.vars["in_play"][st.to_move()[0] - 1]:
                    seen |= Airport(st).move(st, rng) | {"a second move"}
    assert {"boards against the arrows", "stop with all", "one cube left, put down", "at a gate", "boards", "boards a neutral plane",
            "the player picks an arrow", "a blockage forms", "a blockage lifts", "stopped by a blockage",
            "a space skipped", "cubes left behind", "a second move", "backwards", "own_only", "no_neutrals",
            "skip", "ignore_blockages"} <= seen, seen
