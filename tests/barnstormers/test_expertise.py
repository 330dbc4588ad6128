"""Expertise Bonus cards used at real positions (issue 39, item 2): seeded two-player Extreme games are
played by random legal moves, and wherever a player may use an Expertise Bonus card, each card they
may use is used on a copy and the state after it is compared with what the card says (Appendix C),
worked out here from the state before it:

- "Unless otherwise stated, Expertise Bonus cards may be used once then returned, face up, to the
  bottom of the deck" (Flying Aces: "Keep this card on display");
- +1 Action, +2 Actions: one or two more actions this turn; Play 2 / Play All Skill and Tactic Cards:
  two, or every, card of the hand may be played this turn; +1 S&T Card: one more card in hand now;
- Reset Headings: two planes in the air show turned to new headings, none moved; Reset and Move
  Planes: the same, each then flown one space on its new heading; Recall Planes: two planes in the
  air show back to their owners' hangars; Reserve a Trick Stunt: a stunt from the Judges' Panel kept
  by the player, its slot refilled from its deck; Discard 2 Trick Stunts: two stunts off the panel,
  their slots refilled."""
from __future__ import annotations

import functools
from collections import Counter

from rulewright.interpreter.testing import offers, positions

from .helpers import EXPERTISE, game
from .test_flights import COMPASS, Show

SEEDS = (0, 2, 5)      # between them every card below is used (a search over seeds 0-7)
ALL_PLAYS = len(game(2).compiled.tables["tactic"])     # "every card": no hand holds more than the deck


@functools.lru_cache(maxsize=None)
def _chances():
    """(a position where a player may use an Expertise card, the state once they chose to, the card
    names offered) in seeded games; the same positions for every test here."""
    found = []
    for at in positions(game(2, level="extreme"), offers(r"^use "), seeds=SEEDS, each=40):
        st = at.state.clone()
        if "use an Expertise Bonus card" in [m.text for m in st.legal_moves()]:
            st.apply("use an Expertise Bonus card")
        names = tuple(m.text[4:] for m in st.legal_moves() if m.text.startswith("use "))
        found.append((at, st, names))
    return found


def _uses():
    """(position, player, the state before the card is used, the card, the state just after)."""
    for at, st, names in _chances():
        for name in names:
            after = st.clone()
            after.apply(f"use {name}")
            yield at, st.to_move()[0], st, name, after


def _planes(st):
    return {x: dict(plane) for x, plane in st.vars["air"].items() if plane is not None}


def test_a_used_card_goes_face_up_under_its_deck_and_flying_aces_stays_on_display():
    seen = set()
    for at, p, st, name, after in _uses():
        before, now = st.vars, after.vars
        level = EXPERTISE[name][0]
        assert Counter(now["bonuses"][p - 1]) == Counter(before["bonuses"][p - 1]) - Counter([name]), (at, name)
        if name == "Flying Aces":
            assert now["displayed"][p - 1] == before["displayed"][p - 1] + [name]
            assert now["expertise_used"] == before["expertise_used"]
        else:
            assert now["expertise_used"][level - 1] == before["expertise_used"][level - 1] + [name], (at, name)
        seen.add(name)
    assert seen >= {"+1 Action", "+2 Actions", "+1 S&T Card", "Play 2 Skill and Tactic Cards",
                    "Play All Skill and Tactic Cards", "Flying Aces", "Reset Headings", "Reset and Move Planes",
                    "Recall Planes", "Reserve a Trick Stunt", "Discard 2 Trick Stunts"}, seen


def test_the_cards_that_give_actions_cards_and_plays():
    """+1 Action, +2 Actions, Play 2 and Play All Skill and Tactic Cards, +1 S&T Card."""
    seen = set()
    for at, p, st, name, after in _uses():
        before, now = st.vars, after.vars
        if name in ("+1 Action", "+2 Actions"):
            assert now["actions_left"] == before["actions_left"] + (1 if name == "+1 Action" else 2), at
        elif name == "Play 2 Skill and Tactic Cards":
            assert now["card_plays"] == max(before["card_plays"], 2), at
        elif name == "Play All Skill and Tactic Cards":
            assert now["card_plays"] == ALL_PLAYS, at
        elif name == "+1 S&T Card":
            freak = len(now["tactics_discard"]) > len(before["tactics_discard"]) or not after.to_move() == [p]
            if freak:
                continue                                 # a Freak card drawn plays out first
            drawn = Counter(now["hand"][p - 1]) - Counter(before["hand"][p - 1])
            assert sum(drawn.values()) == 1 and len(now["hand"][p - 1]) == len(before["hand"][p - 1]) + 1, at
        else:
            continue
        seen.add(name)
    assert seen == {"+1 Action", "+2 Actions", "Play 2 Skill and Tactic Cards", "Play All Skill and Tactic Cards",
                    "+1 S&T Card"}, seen


def _choose(st, prefix, some=2):
    """Up to ``some`` of the legal moves starting with ``prefix``, each on a copy: (text, state after)."""
    for move in [m for m in st.legal_moves() if m.text.startswith(prefix)][:some]:
        after = st.clone()
        after.apply(move)
        yield move.text, after


def test_reset_headings_and_reset_and_move_planes_turn_two_planes_then_fly_them():
    """Reset Headings turns two planes (anyone's) to new headings of the player's choice, in place;
    Reset and Move Planes flies each one space on its new heading, pushing on as in a chain."""
    seen = set()
    for at, p, _st, name, after in _uses():
        if name not in ("Reset Headings", "Reset and Move Planes"):
            continue
        state, turned = after, 0
        while turned < 2 and any(m.text.startswith("reset ") for m in state.legal_moves()):
            text, picked = next(_choose(state, "reset ", 1))
            x = text.split()[1]
            faces = [m.text for m in picked.legal_moves()]
            assert sorted(faces) == sorted(f"face {h}" for h in COMPASS if h != picked.vars["air"][x]["heading"])
            text, faced = next(_choose(picked, "face ", 1))
            show = Show(picked)
            if name == "Reset Headings":
                show.turn(x, text.split()[1])
            else:
                show.fly(x, text.split()[1])
            assert _planes(faced) == show.air, (at, name, x, text)
            state, turned = faced, turned + 1
        assert turned == min(2, len(_planes(after)))
        seen.add(name)
    assert seen == {"Reset Headings", "Reset and Move Planes"}, seen


def test_recall_planes_sends_two_planes_home():
    seen = 0
    for at, _p, _st, name, after in _uses():
        if name != "Recall Planes":
            continue
        state, recalled = after, 0
        while recalled < 2 and any(m.text.startswith("recall ") for m in state.legal_moves()):
            text, home = next(_choose(state, "recall ", 1))
            x = text.split()[1]
            plane = state.vars["air"][x]
            assert _planes(home) == {y: q for y, q in _planes(state).items() if y != x}, at
            assert home.vars["hangar"][plane["owner"] - 1] == state.vars["hangar"][plane["owner"] - 1] + [plane["id"]]
            state, recalled = home, recalled + 1
        assert recalled == min(2, len(_planes(after)))
        seen += 1
    assert seen


def test_reserve_and_discard_take_stunts_off_the_panel_and_refill_their_slots():
    """Reserve a Trick Stunt: the stunt chosen leaves the panel for the player's reserve, and the top
    card of its deck takes its slot; Discard 2 Trick Stunts: two leave the panel, their decks refill."""
    seen = set()
    tier = game(2).compiled.columns["tier"]
    for at, p, _st, name, after in _uses():
        if name not in ("Reserve a Trick Stunt", "Discard 2 Trick Stunts"):
            continue
        prefix = "reserve " if name.startswith("Reserve") else "discard "
        state, gone = after, []
        for _ in range(1 if prefix == "reserve " else 2):
            if state.vars["panel"]:
                text, state = next(_choose(state, prefix, 1))
                gone.append(text[len(prefix):])
        v, now = after.vars, state.vars
        if prefix == "reserve ":
            assert now["reserved"][p - 1] == v["reserved"][p - 1] + gone
        decks = {t: v[f"{t}_deck"] for t in ("green", "yellow", "red")}
        refills = Counter(tier[c] for c in gone)
        new = Counter(now["panel"]) - (Counter(v["panel"]) - Counter(gone))
        expected = Counter(c for t, k in refills.items() for c in decks[t][-k:] if k)
        assert new == expected, (at, name, gone)
        seen.add(name)
    assert seen == {"Reserve a Trick Stunt", "Discard 2 Trick Stunts"}, seen
