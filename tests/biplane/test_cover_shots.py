"""Shots, crashes, respawns and the tree over the turns of real seeded games (2-4 players, both boards):
at each position reached, a turn is played by real moves and the planes, shots, scores and deck after
it are compared with the rulebook's account worked out in sky.py."""
from __future__ import annotations

import functools
import re
from collections import Counter

from rulewright.interpreter.testing import offers, positions

from .helpers import game
from .sky import Sky, Unknown
from .test_cover import play_the_next_turn

CONFIGS = ((2, {}), (3, {"mode": "free_for_all"}), (4, {"mode": "free_for_all"}), (2, {"board": "tree"}),
           (4, {"mode": "two_on_two", "board": "tree"}))


def speed(players):
    """4.4.2 "move each Shot token 3 spaces"; 6.0 "When playing with 3 or 4 players ... 2 spaces"."""
    return 3 if players == 2 else 2


def next_to_fly(st):
    """A ``where``: a player is to program the card that ends the turn, and the next player's card is
    programmed (its turn comes next, with the shots moving first)."""
    if st.step != "ending moving" or len(st.to_move()) != 1:
        return False
    nxt = st.to_move()[0] % st.game.player_count
    return st.vars["programmed"][nxt] is not None and st.vars["at"][nxt] is not None


# Seed 4 of the tree's games draws A7 (2 players) and A3 moved onto a plane on A9 (4 players) for a
# respawn: found by a search over seeds 0-7 when this test was written.
TREE_SEEDS = (0, 1, 4)


@functools.lru_cache(maxsize=None)
def turns(players, options):
    """Real positions before a turn, shots in the air (the agent prefers to shoot)."""
    seeds = TREE_SEEDS if ("board", "tree") in options else range(2)
    return list(positions(game(players, **dict(options)), next_to_fly, seeds=seeds, prefer="^shoot ", each=60))


def the_account(v, players, tree, flyer):
    """What the rulebook says the flyer's turn does (declining every shot), from the state before it."""
    sky = Sky(v, tree)
    sky.between_turns(speed(players))
    card = v["programmed"][flyer]
    if card.startswith("Repeat "):
        sky.draw()                                # 4.1.5: a card drawn into the Temporary Hand
        card = v["shown"][flyer]
    sky.fly(flyer, card)
    return sky


def test_a_turn_moves_the_shots_flies_the_card_and_respawns_as_the_rulebook_says():
    """4.4.2 MOVING SHOTS BETWEEN TURNS, 4.4.3 SHOTS AND EDGES, 4.4.2 SHOT DOWN, 4.3 CRASHING, 4.2 the
    ground, 4.5 RESPAWNING and 7.2 THE TREE, over every turn of real games (2-4 players, both boards):
    the shots move their 3 (or 2) spaces one token at a time in the order fired, turn orange on a wrap,
    leave at an orange wrap, the top, the bottom and the tree; a plane met by a shot, flying into one,
    into another plane, the ground or the tree scores 1 and respawns on the first card from the top of
    the deck whose space is free (A2-A6 moved six columns right by the tree), facing up for an Up card."""
    seen = set()
    for players, options in CONFIGS:
        for found in turns(players, tuple(sorted(options.items()))):
            st, v = found.state.clone(), found.state.vars
            flyer = st.to_move()[0] % players
            try:
                sky = the_account(v, players, options.get("board") == "tree", flyer)
            except Unknown:
                continue
            play_the_next_turn(st)
            if st.is_over():
                continue
            after = st.vars
            assert (after["at"], after["heading"]) == (sky.at, sky.heading), found
            assert (after["score"], after["shots"]) == (sky.score, sky.shots), found
            assert after["deck"] == sky.deck, found          # respawns draw from the top
            seen |= sky.seen | ({f"shots moved with {players} players"} if v["shots"] else set())
    wanted = {"shot leaves the board going up", "shot leaves the board going down", "yellow shot turns orange",
              "orange shot removed on a wrap", "shot down", "flies into a shot", "ground", "ceiling", "mid-air crash",
              "crashes into the tree", "tree removes a shot", "respawn facing up", "respawn facing right",
              "respawn draws again: a plane", "respawn draws again: a shot", "respawn draws again: no label",
              "respawn draws again: the tree", "respawn moved by the tree", "respawn draws again: a plane (moved by "
              "the tree)", "a plane enters A7 without the tree", "a shot enters A7 without the tree",
              "shots share a space", "shots moved with 2 players", "shots moved with 3 players",
              "shots moved with 4 players"}
    assert wanted <= seen, wanted - seen


@functools.lru_cache(maxsize=None)
def shooting(players, options):
    """Real positions where a Shoot card is offered, over two seeds."""
    return list(positions(game(players, **dict(options)), offers("^shoot "), seeds=range(2), prefer="^shoot ",
                          each=40))


def test_a_shoot_card_places_a_shot_one_ahead_moves_it_one_and_goes_where_the_rulebook_says():
    """4.4.1 SHOOTING: "After moving each space, the player may play a Shoot card. ... the player places
    a Shot token one space straight in front of the Biplane, and then ... moves it one more space
    forward. Discard a Shoot card played from a player's Temporary Hand. Return a Shoot card played
    from a player's Permanent Hand back to his Permanent Hand at the end of his turn." Every Shoot card
    offered in real games (2-4 players, both boards), fired: the new token's space and side (or the
    plane it shoots down), the card in the discards or out until the turn ends, not offered again this
    turn."""
    seen = set()
    for players, options in CONFIGS:
        for found in shooting(players, tuple(sorted(options.items()))):
            (p,) = found.state.to_move()
            for move in found.state.legal_moves():
                if move.text.startswith("shoot "):
                    seen |= _fire(found, p - 1, move.text, players, options.get("board") == "tree")
    assert {"temporary", "permanent", "flies on", "turn over", "shot down", "yellow shot turns orange",
            "shot leaves the board going up"} <= seen, seen


def _fire(found, i, text, players, tree):
    """Fire one Shoot card at a real position and check the state at the player's next decision (its
    next space flown, or its next card to program)."""
    st, v = found.state.clone(), found.state.vars
    card = re.match(r"shoot (.*?)( from the temporary hand)?$", text)
    name, temporary = card.group(1), bool(card.group(2))
    sky = Sky(v, tree)
    try:
        sky.fire(i, v["shots_fired"] + 1)
    except Unknown:
        return set()
    st.apply(text)
    after = st.vars
    if st.is_over() or st.to_move() != [i + 1] or after["score"][i] != sky.score[i]:
        return set()                              # the game ended, or the plane crashed on: other rules
    assert (after["shots"], after["score"], after["deck"]) == (sky.shots, sky.score, sky.deck), (found, text)
    others = [j for j in range(players) if j != i]
    assert [after["at"][j] for j in others] == [sky.at[j] for j in others], (found, text)
    ending = all(m.text.startswith("program ") for m in st.legal_moves())
    if temporary:
        held = Counter(v["perm"][i] + v["temp"][i] + v["fired"][i])
        assert held - Counter(after["perm"][i] + after["temp"][i] + after["fired"][i]) == Counter([name])
        assert name in after["discard"][len(v["discard"]):], (found, text)
    elif ending:                                  # the turn's flight is over: the cards fired are back
        assert after["fired"][i] == [] and Counter(after["perm"][i]) == Counter(v["perm"][i] + v["fired"][i])
    else:                                         # out for the rest of the turn, not offered again
        assert after["fired"][i] == v["fired"][i] + [name], (found, text)
        assert Counter(v["perm"][i]) - Counter(after["perm"][i]) == Counter([name]), (found, text)
        if name not in after["perm"][i]:
            assert f"shoot {name}" not in [m.text for m in st.legal_moves()], (found, text)
    return sky.seen | {"temporary" if temporary else "permanent", "turn over" if ending else "flies on"}
