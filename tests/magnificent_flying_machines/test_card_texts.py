"""Every trick and boost card's text against what its rule does (issue 39 item 3): each card is played
by real moves where each outcome its rule can have happens, and its text must name that outcome. The
card texts are designed (the rulebook prints none; see the game's page); what the rulebook says of
them: "Each card has text which describes what the card does." A boost in your turn, a dirty trick in
your turn or in the window before another machine's test, an answer to a cad symbol or a dirty trick,
and a boost in a test of your own that falls short."""
from __future__ import annotations

import re

import pytest

from rulewright.interpreter.testing import mover, refresh

from .helpers import assert_dice, boosts_played, dashboard, dice_added, game, is_cad_answer, others, own_card_plays, \
    pinch_the_first_kind, ready, rolled, ship, trick_at_each_target, until
from .real_positions import honoured_cads, scrutiny_windows
from .test_cards import FIELDS, MOUNTAIN, WATER, clear_skies_plays, quiet, second_wind_rerolls
from .test_cover import immunity_answers, war_answers_to_cads, war_answers_to_tricks, without_cad_symbols


COLS = game(3).compiled.columns
SAYS = COLS["says"]
TRICKS_AND_BOOSTS = list(game(3).compiled.tables["card"])
NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4}


def text_of(title):
    """The text of a card title (every copy, whatever its symbol, reads alike)."""
    (text,) = {SAYS[c] for c in TRICKS_AND_BOOSTS if COLS["title"][c] == title}
    return text


def card_of(title):
    return next(c for c in TRICKS_AND_BOOSTS if COLS["title"][c] == title)


def table():
    """Player p's turn at the start, fine weather everywhere; the two other players q1, q2."""
    st = ready(3)
    p = mover(st)
    quiet(st)
    q1, q2 = others(st, p)
    dashboard(st, p, "Biplane", pilot="Hamish McTarn", at=2, fuel=2)
    return st, p, q1, q2


def hands(st, **held):
    """Each player's hand: p1=[...], p2=[...], p3=[...]."""
    for key, cards in held.items():
        st.vars["hand"][int(key[1:]) - 1] = list(cards)
    refresh(st)


# ---------------------------------------------------------------- boosts in your own turn
def test_field_repairs_text_names_which_damage_marker_goes():
    """Played in one's own turn at real positions of seeded races (helpers.own_card_plays): offered
    only with a damage marker to take; the gauge's first, else the scoring area's."""
    text = text_of("Field Repairs")
    assert text == ("Boost, in your turn: take one damage marker off your machine, from the fuel gauge first, "
                    "else from the scoring area.")
    taken = set()
    for b, a in own_card_plays("Field Repairs", lambda s: s["gauge"] + s["scored_damage"] > 0):
        where = "gauge" if b["gauge"] > 0 else "scoring area"
        assert (b["gauge"] - a["gauge"], b["scored_damage"] - a["scored_damage"]) == \
            ((1, 0) if where == "gauge" else (0, 1))
        taken.add(where)
    assert taken == {"gauge", "scoring area"}


def test_spare_fuel_cans_text_names_the_fuel_and_the_room():
    """Played in one's own turn at real positions of seeded races: the fuel cubes its text names, as
    far as the gauge has room (four spaces less its damage markers); not offered to a full gauge."""
    text = text_of("Spare Fuel Can")
    added = NUMBERS[re.search(r"add (\w+) fuel cubes to your gauge, as far as it has room", text).group(1)]
    got = set()
    for b, a in own_card_plays("Spare Fuel Can", lambda s: s["gauge"] + s["fuel"] < 4):
        assert a["fuel"] == min(b["fuel"] + added, 4 - b["gauge"])
        got.add(a["fuel"] - b["fuel"])
    assert added in got


def test_official_scrutinys_text_names_the_cad_symbols_it_stops_and_not_the_dirty_tricks():
    """Played before real tests of seeded races (real_positions.scrutiny_windows): the window asks what it would
    have asked without the card, less every cad symbol; dirty tricks are still offered."""
    text = text_of("Official Scrutiny")
    assert text == ("Boost, in your turn: no cad symbols may be played against your machine's tests for the "
                    "rest of the turn.")
    windows = scrutiny_windows()
    assert all(watched == without_cad_symbols(plain) for plain, watched, _ in windows)
    assert any(is_cad_answer(t) for plain, _, _ in windows for answers in plain.values() for t in answers)
    assert any(t.endswith(" against the tester") for _, watched, _ in windows for answers in watched.values()
               for t in answers)


# ---------------------------------------------------------------- answers to a cad symbol
@pytest.mark.parametrize("offered", [1, 2], ids=["one cad symbol", "two cad symbols"])
def test_an_honourable_pilots_text_names_the_cad_symbol_cancelled_and_the_next_one(offered):
    """ "Only one cad symbol may be applied to any single test": the first one offered, clockwise. An
    Honourable Pilot cancels it; it was not applied, so a second one offered is (game page). At real
    reaction windows of seeded races (real_positions.honoured_cads): the dice lose nothing for the cancelled
    cad symbol, one for the next."""
    text = text_of("An Honourable Pilot")
    assert text == ("Boost, when a cad symbol is played against your test: cancel it; a cad symbol another "
                    "player offered may then be applied instead.")
    assert all(with_cads == without - (offered - 1) for with_cads, without in honoured_cads(offered))


def test_this_means_wars_text_names_the_cad_symbol_standing_and_the_damage():
    """Answered at real positions of seeded races (test_cover: war_answers_to_cads, war_answers_to_tricks):
    the cad symbol or dirty trick stands, the machine of the player who played it takes one damage."""
    text = text_of("This Means War")
    assert text == ("Boost, when a cad symbol or a dirty trick is played against you: it stands, and the "
                    "machine of the player who played it takes one damage.")
    assert war_answers_to_cads() > 0 and war_answers_to_tricks() > 0


def test_immunitys_text_names_the_dirty_trick_cancelled():
    """Answered at real positions of seeded races (test_cover.immunity_answers): the machine is as it was."""
    assert text_of("Immunity") == "Boost, when a dirty trick is played against your machine: cancel it."
    assert immunity_answers() > 0


# ---------------------------------------------------------------- dirty tricks
# The machines a dirty trick may be played against, as its text names them.
TARGETS = {
    "in the air past the starting airfield": lambda s: s["alt"] > 0 and s["at"] > 1,
    "carrying a passenger": lambda s: len(s["pax"]) > 0,
    "still racing": lambda s: not s["finished"],
    "with fuel": lambda s: s["fuel"] > 0,
    "with spare parts": lambda s: len(s["parts"]) > 0,
    "above the lowest band": lambda s: s["alt"] > 1,
}
DIRTY = ["Swap the Maps", "Grumpy Passenger", "Sabotage", "Siphoned Fuel", "Pinched Parts", "Crosswind"]


def target_of(title):
    m = re.match(r"Dirty trick against a machine (.+?): ", text_of(title))
    return m.group(1)


@pytest.mark.parametrize("title", DIRTY)
def test_a_dirty_tricks_text_names_the_machines_it_may_be_played_against(title):
    """Played in one's own turn at real positions of seeded races (helpers.trick_at_each_target): the
    machines offered as targets are exactly the other machines its text names, at positions where
    another machine is not one of them."""
    hit = TARGETS[target_of(title)]
    trick_at_each_target(title, then=pinch_the_first_kind if title == "Pinched Parts" else None, hit=hit, mixed=True)


@pytest.mark.parametrize("title, phrase, applies, changed", [
    ("Swap the Maps", "it is sent back to the tile before", None, lambda b, a: a["at"] == b["at"] - 1),
    ("Grumpy Passenger", "one passenger leaves it, scoring nothing", None,
     lambda b, a: len(a["pax"]) == len(b["pax"]) - 1 and a["vp"] == b["vp"]),
    ("Sabotage", "it takes one damage", None,
     lambda b, a: a["gauge"] + a["scored_damage"] >= b["gauge"] + b["scored_damage"] + 1),
    ("Siphoned Fuel", "it loses two fuel cubes", lambda b: b["fuel"] >= 2, lambda b, a: a["fuel"] == b["fuel"] - 2),
    ("Siphoned Fuel", "or all it has if fewer", lambda b: b["fuel"] < 2, lambda b, a: a["fuel"] == 0),
    ("Pinched Parts", "you choose one of them and return it to the supply", None,
     lambda b, a: len(a["parts"]) == len(b["parts"]) - 1),
    ("Crosswind", "it drops to the lowest band", None, lambda b, a: a["alt"] == 1),
])
def test_a_dirty_tricks_text_names_what_it_does_to_the_machine(title, phrase, applies, changed):
    """Played in one's own turn at every target of real positions of seeded races, each outcome its
    text names (the target lets it stand)."""
    assert phrase in text_of(title)
    plays = [(b, a) for _, b, a, _ in trick_at_each_target(title, then=pinch_the_first_kind
                                                          if title == "Pinched Parts" else None)
             if applies is None or applies(b)]
    assert plays and all(changed(b, a) for b, a in plays)


# ---------------------------------------------------------------- boosts in a test that falls short
# Played in real tests that fall short (helpers.boost_positions: seeded races, real moves).
def test_full_throttles_text_names_the_dice_added():
    added = NUMBERS[re.search(r"in one of your tests: roll (\w+) more dice", text_of("Full Throttle")).group(1)]
    assert dice_added("Full Throttle") == {added}


def test_second_winds_text_names_the_dice_rolled_again():
    assert "roll again every die that shows no symbol the test needs" in text_of("Second Wind")
    assert second_wind_rerolls() > 0


def test_nerves_of_steels_text_names_the_test_passed_whatever_the_dice():
    assert "the test is passed, whatever the dice show" in text_of("Nerves of Steel")
    plays = [(before, after) for before, after, st in boosts_played("Nerves of Steel")]
    assert plays and all(after is None and before["got"] < before["need"] for before, after in plays)


def test_clear_skies_text_names_the_weather_symbols_taken_away():
    assert "the weather tile's symbols no longer count towards what the test needs" in text_of("Clear Skies")
    assert clear_skies_plays() == {True, False}       # not offered where the weather adds nothing


# ---------------------------------------------------------------- dice: dashboards, pilots, equipment
KINDS = {"take-off": "takeoff", "flying": "flying", "landing": "landing"}


def extra_dice(text):
    """kind -> extra dice, from every "one extra die in ... tests" phrase of a text; and whether only on water."""
    out = {}
    for n, kinds in re.findall(r"(one|two) extra dic?e in (?:every )?([a-z, -]+?) tests?\b", text):
        for kind in re.split(r", | and ", kinds):
            out[KINDS[kind]] = NUMBERS[n]
    return out, " tests on water tiles" in text


def _rolled_in_each_test(model="Biplane", pilot="Hamish McTarn", equipment=(), at=FIELDS):
    """kind -> (dice rolled, symbols needed) in a take-off from ``at``, a flying test and a landing over it."""
    st, p, q1, q2 = table()
    dashboard(st, p, model, pilot=pilot, equipment=list(equipment), at=at, fuel=2)
    refresh(st)
    out = {"takeoff": rolled(until(st, ["take off"], lambda s, lines: True).lines)[0]}
    ship(st, p)["alt"] = 1
    refresh(st)
    out["flying"] = rolled(until(st, ["fly on"], lambda s, lines: True).lines)[0]
    out["landing"] = rolled(until(st, ["land"], lambda s, lines: True).lines)[0]
    return {k: (n, need) for k, (n, got, need) in out.items()}


DICE_TEXTS = [("pilot", name) for name in COLS["ability"] if name in COLS["nation"] and extra_dice(SAYS[name])[0]] \
    + [("equipment", name) for name in COLS["ability"] if name not in COLS["nation"] and extra_dice(SAYS[name])[0]]


def dice_named():
    """The dice tables as the texts name them: each dashboard's dice (and the Seaplane's on water), each
    pilot's and equipment's extra dice (the Floats' on water)."""
    dashboards, extra, on_water = {}, {}, {}
    for model in COLS["seats"]:
        m = re.match(r"Rolls (\d) dice for take-off, (\d) for flying and (\d) for landing tests", SAYS[model])
        if m:
            dashboards[model] = tuple(map(int, m.groups()))
        else:
            each, on_water[model] = map(int, re.match(r"Rolls (\d) dice for each kind of test, (\d) more for "
                                                      r"take-off and landing on water", SAYS[model]).groups())
            dashboards[model] = (each,) * 3
    for _, name in DICE_TEXTS:
        more, water_only = extra_dice(SAYS[name])
        if water_only:
            (on_water[name],) = set(more.values())
        else:
            extra[name] = tuple(more.get(k, 0) for k in ("takeoff", "flying", "landing"))
    return dict(dashboards=dashboards, extra=extra, on_water=on_water)


@pytest.mark.parametrize("kind, name", DICE_TEXTS, ids=[n for _, n in DICE_TEXTS])
def test_a_pilots_or_equipments_text_names_the_extra_dice_it_rolls(kind, name):
    """Every test a machine with this pilot at the controls or this card fell short in, in seeded races
    (helpers.DICE_RACES, real moves): the dice rolled are those the texts name."""
    more, water_only = extra_dice(SAYS[name])
    holds = (lambda r: r["machine"]["pilot"] == name) if kind == "pilot" else \
        (lambda r: name in r["machine"]["equipment"])
    if water_only:
        assert_dice(lambda r: holds(r) and r["terrain"] == "Water", more, **dice_named())
    assert_dice(holds, () if water_only else more, **dice_named())


def test_every_dashboards_text_names_its_dice():
    for model in COLS["seats"]:
        text = SAYS[model]
        m = re.match(r"Rolls (\d) dice for take-off, (\d) for flying and (\d) for landing tests", text)
        if m:
            named = dict(zip(("takeoff", "flying", "landing"), map(int, m.groups())))
        else:
            each, more = map(int, re.match(r"Rolls (\d) dice for each kind of test, (\d) more for take-off and "
                                           r"landing on water", text).groups())
            named = dict.fromkeys(("takeoff", "flying", "landing"), each)
            water = _rolled_in_each_test(model, at=WATER)
            assert {k: n for k, (n, need) in water.items()} == {**named, "takeoff": each + more,
                                                                "landing": each + more}
        rolled_here = _rolled_in_each_test(model, at=MOUNTAIN)
        assert {k: n for k, (n, need) in rolled_here.items()} == named, model
        if "no terrain asks it for more than 2 take-off or landing symbols" in text:
            assert (rolled_here["takeoff"][1], rolled_here["landing"][1]) == (2, 2)        # a mountain asks 3
        else:
            assert (rolled_here["takeoff"][1], rolled_here["landing"][1]) == (3, 3)


def test_every_trick_and_boost_card_and_every_charge_count_is_checked_here():
    tested = {"Field Repairs", "Spare Fuel Can", "Official Scrutiny", "An Honourable Pilot", "This Means War",
              "Immunity", "Full Throttle", "Second Wind", "Nerves of Steel", "Clear Skies"} | set(DIRTY)
    assert tested == {COLS["title"][c] for c in TRICKS_AND_BOOSTS}
    # "Once / Three times / Four times in the race": the charges the card starts with
    times = {"Once": 1, "Three times": 3, "Four times": 4}
    for name, text in SAYS.items():
        m = re.match(r"(Once|Three times|Four times) in the race", text)
        if m and name in COLS["charges"]:
            assert COLS["charges"][name] == times[m.group(1)], name
