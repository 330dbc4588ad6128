"""Steps 2) Score and 3) Replace at real positions (issue 39, item 2): seeded games are played by random
legal moves, and wherever a player may claim a Trick Stunt (or replace cards), each choice offered is
made on a copy and the state after it is compared with the rulebook's account, worked out here from
the state before it:

- "you may claim a Trick Stunt from the Judges' Panel": the card is the player's, "To replace a Trick
  Stunt, take the top one from its respective deck, flipping it to fill the empty panel slot", and
  only one a turn;
- "Move your pilot up one point on the Stunt tracker (Fig. 4)", and "When you reach an Expertise Level
  Up point on the Stunt Tracker ... you may take the top Expertise Bonus card of the Level indicated
  ... You may choose to take a card from a lower level instead" (Fig. 4, designed: docs/games/
  barnstormers.md, "The Stunt Tracker's Expertise level-up points");
- Advanced 2) and 3): a specialist or mystery stunt in hand is claimed instead of one of the panel's,
  the panel left as it was."""
from __future__ import annotations

import functools
import random
from collections import Counter

from rulewright.interpreter.testing import offers, positions

from .helpers import game

# reaching this many stunts: a card of this level (or a lower one), written out from the docs page
LEVEL_UPS = {2: 1, 5: 2, 7: 1, 8: 3, 10: 2, 11: 3}
TIER = game(4).compiled.columns["tier"]


@functools.lru_cache(maxsize=None)
def _claims(players, options, pattern, seeds, each):
    """(position, player, the state with the claim asked, the claim's text, the state after it), for
    every claim offered at the positions found; shared by the tests."""
    found = []
    for at in positions(game(players, **dict(options)), offers(pattern), seeds=seeds, each=each):
        st = at.state
        st.apply(pattern.strip("^$"))
        for move in st.legal_moves():
            after = st.clone()
            after.apply(move)
            found.append((at, st.to_move()[0], st, move.text, after))
    return found


# four-player National games: claims from the panel and reserved ones, level-up points up to 8
PANEL_CLAIMS = (4, (("level", "national"),), "^claim a Trick Stunt$", (3,), 60)   # seed 3: 5 and 8 stunts reached
# secret stunts claimed: three-player National with specialists (seed 2: a claim after 8 moves, found by
# a search over seeds 0-11), four-player Local mystery games
SECRET_CLAIMS = [(3, (("level", "national"), ("specialist", "on")), "^claim a secret stunt$", (2,), 2),
                 (4, (("mystery", "on"),), "^claim a secret stunt$", (1,), 3)]


def _after(st, text):
    """A copy of ``st`` with the move ``text`` made."""
    after = st.clone()
    after.apply(text)
    return after


def _name(text):
    """The stunt a claim's text names: "claim [reserved |secret ]NAME (N CP)"."""
    name = text.split(" ", 1)[1].rsplit(" (", 1)[0]
    return name.split(" ", 1)[1] if name.startswith(("reserved ", "secret ")) else name


def _pilot_moved_up(before, after, p, name):
    assert after.vars["claimed"][p - 1] == before.vars["claimed"][p - 1] + [name]
    assert after.vars["stunts"][p - 1] == before.vars["stunts"][p - 1] + 1


def test_a_claim_is_the_players_its_slot_refilled_from_the_top_of_its_deck_one_a_turn():
    seen = set()
    for at, p, st, text, after in _claims(*PANEL_CLAIMS):
        name = _name(text)
        _pilot_moved_up(st, after, p, name)
        v, now = st.vars, after.vars
        if text.startswith("claim reserved "):
            assert now["reserved"][p - 1] == [c for c in v["reserved"][p - 1] if c != name]
            assert now["panel"] == v["panel"]
            seen.add("reserved")
        else:
            deck = v[f"{TIER[name]}_deck"]
            refill = Counter(deck[-1:])                     # the top card, if the deck has one
            assert Counter(now["panel"]) == Counter(v["panel"]) - Counter([name]) + refill, (at, text)
            seen.add("refilled" if deck else "slot left empty")
        if after.to_move() == [p] and after.step == st.step:
            assert "claim a Trick Stunt" not in [m.text for m in after.legal_moves()]   # one a turn
    assert seen >= {"refilled"}, seen


def test_reaching_a_level_up_point_takes_an_expertise_card_of_its_level_or_a_lower_one():
    seen = set()
    for at, p, st, _text, after in _claims(*PANEL_CLAIMS):
        v = st.vars                                      # the Expertise decks before the claim
        if after.vars["chain_cards"][p - 1] > v["chain_cards"][p - 1]:
            continue                                     # a chained manoeuvre's card came with it
        left = [lvl for lvl in (1, 2, 3) if v["expertise_deck"][lvl - 1] or v["expertise_used"][lvl - 1]]
        levels = [lvl for lvl in left if lvl <= LEVEL_UPS.get(after.vars["stunts"][p - 1], 0)]
        asked = [m.text for m in after.legal_moves() if m.text.startswith("take a level ")]
        if not levels:
            assert asked == [] and after.vars["bonuses"][p - 1] == v["bonuses"][p - 1], at
            seen.add("no card")
            continue
        if len(levels) == 1:                             # one level to take from: taken with the claim
            assert asked == []
            taken = {levels[0]: after}
        else:
            assert sorted(asked) == sorted(f"take a level {lvl} Expertise Bonus card" for lvl in levels)
            taken = {lvl: _after(after, f"take a level {lvl} Expertise Bonus card") for lvl in levels}
        for lvl, state in taken.items():
            gained = Counter(state.vars["bonuses"][p - 1]) - Counter(v["bonuses"][p - 1])
            deck = v["expertise_deck"][lvl - 1]
            # the top card of the level's deck, or of its used cards reshuffled when the deck is gone
            assert sum(gained.values()) == 1 and set(gained) <= set(deck[-1:] or v["expertise_used"][lvl - 1]), \
                (at, lvl)
            seen.add("the level's" if lvl == max(levels) else "a lower level's")
    assert seen == {"no card", "the level's", "a lower level's"}, seen


def test_a_specialist_or_mystery_stunt_in_hand_is_claimed_instead_of_the_panels():
    seen = set()
    for setting in SECRET_CLAIMS:
        for at, p, st, text, after in _claims(*setting):
            name = _name(text)
            _pilot_moved_up(st, after, p, name)
            assert Counter(after.vars["own_stunts"][p - 1]) == Counter(st.vars["own_stunts"][p - 1]) - Counter([name])
            assert after.vars["panel"] == st.vars["panel"]
            seen.add(setting[1][-1][0])
    assert seen == {"specialist", "mystery"}, seen


FREAKS = ("Freak Windstorm", "Freak Thunderstorm")


def test_replace_may_discard_one_then_draws_back_to_two():
    """3) Replace Skill and Tactic Cards, wherever the seeded games ask it: "Before you draw a card,
    you may discard one of your cards. Draw one or two replacement card(s) until you have two cards in
    hand": the card discarded face up, the top cards of the deck drawn. (A Freak card among them plays
    out when drawn, and a deck run out is reshuffled: those are tests of their own.)"""
    seen = set()
    for at in positions(game(4), offers("^keep your cards$"), seeds=(3,), each=25):
        st = at.state
        p, v = st.to_move()[0], st.vars
        hand, deck = v["hand"][p - 1], v["tactics"]
        assert sorted(m.text for m in st.legal_moves()) == sorted([f"discard {c}" for c in hand] + ["keep your cards"])
        for move in st.legal_moves():
            after = st.clone()
            after.apply(move)
            gone = [move.text[len("discard "):]] if move.text.startswith("discard ") else []
            kept = Counter(hand) - Counter(gone)
            need = max(0, 2 - sum(kept.values()))
            drawn = deck[len(deck) - need:] if need else []
            if len(deck) < need or any(c in FREAKS for c in drawn):
                continue
            a = after.vars
            assert Counter(a["hand"][p - 1]) == kept + Counter(drawn), (at, move.text)
            assert a["tactics"] == deck[:len(deck) - need] and a["tactics_discard"] == v["tactics_discard"] + gone
            seen.add(("discard" if gone else "keep", need))
    assert {kind for kind, _need in seen} == {"discard", "keep"} and {need for _kind, need in seen} >= {1, 2}, seen


def _turns(players, options, seeds):
    """(the state at a turn's first decision, the state at its first decision of 3) Replace) for each
    turn of seeded random games that reaches both."""
    for seed in seeds:
        st, rng, start = game(players, **dict(options)).new_state(seed=seed), random.Random(seed), None
        while not st.is_over():
            if st.step == "perform stunt" and (start is None or start.to_move() != st.to_move()):
                start = st.clone()
            elif st.step == "replace skill and tactic cards" and start is not None:
                yield start, st.clone()
                start = None
            st.apply(rng.choice(st.legal_moves()))


def test_a_chained_manoeuvre_of_six_planes_earns_a_level_one_expertise_card():
    """Chained Manoeuvres, in every turn of the games: "A chained manoeuvre involving any six or more
    planes ... can earn you a Level 1 Expertise Bonus card, which you claim during Step 2" (five with
    Flying Aces on display), once a turn; the turn's longest chain is the most planes one manoeuvre
    moved (counted by the flight tests against the rulebook's account of each push)."""
    seen = set()
    for start, replace in _turns(4, (), range(4)):
        p = start.to_move()[0]
        v, now = start.vars, replace.vars
        need = 5 if now["displayed"][p - 1] else 6
        earned = now["longest_chain"] >= need
        assert now["chain_cards"][p - 1] == v["chain_cards"][p - 1] + earned, (start.seed, now["longest_chain"])
        seen.add((now["longest_chain"] >= 6, earned))
    assert seen >= {(True, True), (False, False)}, seen
