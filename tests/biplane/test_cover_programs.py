"""3.0 and 4.1.3: the cards a player may program, at every programming of real seeded games (the first
programs of the setup among them), against the rulebook's account worked out in the test."""
from __future__ import annotations

import functools

from rulewright.interpreter.testing import positions

from .helpers import game
from .test_cover import quarter

CONFIGS = ((2, {}), (3, {"mode": "two_on_one"}), (4, {"mode": "free_for_all"}), (2, {"skill": 1}))


def flyable(card, at, heading):
    """4.1.2 "You may only play these maneuvers when on a space with a curved path leading away": a loop
    from here, for this heading; a Straight anywhere."""
    if card.startswith(("90 ", "180 ")):
        return quarter(at, heading, -1 if " CW " in card else 1) is not None
    return card.startswith("Straight ")


def rulebook_programs(v, i, first):
    """The cards the rulebook lets player ``i`` (0-based) program now, and whether none could be flown
    from here (then every maneuver and Repeat is offered). 3.0 "each player plays one
    Maneuver card from their Permanent Hand" (no Repeat: there is nothing to repeat; never a Shoot);
    4.1.3 "the player then plays a new card, to indicate his next turn's maneuver" from his hands, a
    Repeat repeating the maneuver shown; loops only where a curved path leads away, unless nothing
    else could be played (assumption 6 of the docs page)."""
    at, heading, shown = v["at"][i], v["heading"][i], v["shown"][i]
    hand = v["perm"][i] if first else v["perm"][i] + v["temp"][i] + ([v["left_repeat"][i]] if v["left_repeat"][i] else [])
    maneuvers = [c for c in hand if not c.startswith(("Repeat ", "Shoot"))]
    repeats = [] if first or shown is None else [c for c in hand if c.startswith("Repeat ")]
    now = [c for c in maneuvers if flyable(c, at, heading)] + \
        [c for c in repeats if flyable(shown, at, heading)]
    return set(now or maneuvers + repeats), not now


def programming(st):
    return st.step in ("ending moving", "first programs") and \
        any(m.text.startswith("program ") for m in st.legal_moves())


@functools.lru_cache(maxsize=None)
def programmings(players, options):
    return list(positions(game(players, **dict(options)), programming, seeds=range(2), each=25))


def test_every_programming_offers_the_cards_the_rulebook_allows():
    """3.0 the first programs (a Maneuver card of the Permanent Hand; a Repeat is no first program and
    a Shoot never is), 4.1.3 ENDING MOVING from the new space, 4.1.2 loops only where a curved path
    leads away, 4.1.5 a Repeat of the maneuver shown: at every programming of real games (2-4 players,
    skill 1 among them), for each player asked, the cards offered are the rulebook's."""
    seen = set()
    for players, options in CONFIGS:
        for found in programmings(players, tuple(sorted(options.items()))):
            st, v = found.state, found.state.vars
            first = st.step == "first programs"
            for p in st.to_move():
                offered = {m.text[8:] for m in st.legal_moves(p)}
                allowed, fallback = rulebook_programs(v, p - 1, first)
                assert offered == allowed, (found, p, offered, allowed)
                hand = set(v["perm"][p - 1] + v["temp"][p - 1])
                seen |= {"first" if first else "later"} | ({"nothing flyable: every maneuver"} if fallback else set())
                seen |= {"a loop refused" for c in hand - offered if c.startswith(("90 ", "180 "))}
                seen |= {"a Repeat offered" for c in offered if c.startswith("Repeat ")}
                seen |= {"a Repeat refused" for c in hand - offered if c.startswith("Repeat ")}
                seen |= {"a Shoot in hand" for c in hand if c.startswith("Shoot")}
    assert {"nothing flyable: every maneuver", "first", "later", "a loop refused", "a Repeat offered", "a Repeat refused", "a Shoot in hand"} <= seen, seen
