"""Every pilot's, equipment card's, dashboard's and cargo token's text against what its rule does (issue
39 item 3), beyond the extra dice test_card_texts.py rolls: each is played by real moves where its
outcomes happen (points scored, what the hold carries, re-rolls, charges, guns, the ground, deliveries
and the end), and the number or clause its text names must be the one the state shows."""
from __future__ import annotations

import re

import pytest

from rulewright.interpreter.testing import logs, mover, refresh, texts

from .helpers import KIT, attempt, dashboard, game, kit_positions, kit_with_damage, listed_items, mover_ship, \
    next_turn, race, rescued, rolled, ship, until, weather
from .real_positions import comben_first_landings, karishma_passengers
from .test_card_texts import COLS, DICE_TEXTS, NUMBERS, SAYS, _rolled_in_each_test, extra_dice, hands, table
from .test_cards import BOARD, CATAPULT, FIELDS, MOUNTAIN, ONE_MORE, TOWN, WATER, _hold, _landed_on, \
    catapult_launches, failures_accepted, faces, flying_jacket_plays, flying_manual_plays, hamish_deliveries, \
    one_more_die, rerolled, trick_points, two_seater_take_off_dice
from .test_guns import rifle_fired, shotgun_fired


# ---------------------------------------------------------------- pilots and equipment: the rest of their texts
# Each test below reads the number or the clause of one text and finds it in the state the rule leaves.
FINAL = 11


def says(name, pattern):
    """The groups of ``pattern`` in ``name``'s text (the test fails if the text does not say it)."""
    m = re.search(pattern, SAYS[name])
    assert m, (name, pattern, SAYS[name])
    return m.groups()


def _vp_more(pilot, pattern):
    return NUMBERS[says(pilot, pattern)[0]]


def test_captain_matthew_combens_text_names_the_points_for_first_to_land():
    more = _vp_more("Captain Matthew Comben", r"Scores (\w+) victory points? more whenever the machine is first "
                                              r"to land on a tile")
    assert all(more_scored == more for _, _, more_scored in comben_first_landings())   # a seeded race


def test_hamish_mctarns_text_names_the_points_for_each_cargo_delivered():
    more = _vp_more("Hamish McTarn", r"Scores (\w+) victory points? more for every cargo token delivered")
    found = hamish_deliveries()                               # his deliveries in seeded races
    assert found and all(extra == more * len(cargo) for cargo, extra in found)


def test_karishma_khanas_text_names_the_points_for_each_passenger_delivered():
    more = _vp_more("Karishma Khana", r"Scores (\w+) victory points? more for every passenger delivered")
    assert all(more_scored == more * len(pax) for _, pax, more_scored in karishma_passengers())   # a seeded race


def test_kauri_paratas_text_names_the_points_for_each_trick_manoeuvre():
    more = _vp_more("Kauri Parata", r"Scores (\w+) victory points? more for every trick manoeuvre passed")
    points = trick_points()                               # passed tricks of real races, by Kauri or not
    assert len(points[True]) == len(points[False]) == 1 and min(points[True]) - min(points[False]) == more


def test_the_national_flags_text_names_the_points_at_the_final_airfield():
    (points,) = says("National Flag", r"Scores (\d+) victory points when the machine reaches the final airfield")
    flag = _landed_on(FINAL, "Jing Li", equipment=["National Flag"])
    plain = _landed_on(FINAL, "Jing Li")
    assert flag["finished"] and flag["vp"] - plain["vp"] == int(points)
    assert _landed_on(TOWN, "Jing Li", equipment=["National Flag"])["vp"] == _landed_on(TOWN, "Jing Li")["vp"]


# -- the hold
def test_jan_van_der_valls_and_the_passenger_seats_texts_name_the_seat():
    says("Jan Van der Vall", r"Gives the machine (one) more passenger seat")
    says("Passenger Seat", r"Seats (one) passenger without taking internal storage space")
    st, p = _hold(pax=1)
    assert BOARD not in texts(st)                         # five spare parts: no two internal slots free
    for pilot, equipment in (("Jan Van der Vall", []), ("Hamish McTarn", ["Passenger Seat"])):
        st, p = _hold(pilot, equipment, pax=1)
        st.apply(BOARD)
        st.apply("take a passenger on board")
        assert ship(st, p)["pax"] == [TOWN] and len(ship(st, p)["parts"]) == 5


def test_jing_lis_text_names_the_external_space_for_cargo_only():
    says("Jing Li", r"Gives the machine (one) more external storage space, for cargo only")
    st, p = _hold(pilot="Hamish McTarn", parts=6, cargo=["2-point Cargo"])
    assert BOARD not in texts(st)
    st, p = _hold(pilot="Jing Li", parts=6, cargo=["2-point Cargo"])
    ship(st, p)["fuel"] = 4
    st.apply("repair and scavenge")                       # not for a seventh spare part
    assert ship(st, p)["parts"] == ["flying"] * 6
    st.apply(BOARD)
    st.apply("take 2-point Cargo on board")
    assert ship(st, p)["cargo"] == ["2-point Cargo"]


def test_extra_cargo_capacitys_text_names_an_internal_and_an_external_space():
    says("Extra Cargo Capacity", r"Gives (one) more internal and one more external storage space")
    cargo = ["2-point Cargo", "1-point Cargo"]
    st, p = _hold(parts=6, cargo=cargo)
    assert BOARD not in texts(st)
    st, p = _hold(equipment=["Extra Cargo Capacity"], parts=6, cargo=cargo)
    for _ in range(2):
        st.apply(BOARD)
        st.apply(texts(st)[0])
    assert sorted(ship(st, p)["cargo"]) == sorted(cargo)


def _second_pilots(pilot, row):
    """The Two-Seater taken at the middle airfield by ``pilot``'s machine, ``row`` for hire: the
    second pilots offered (None when the Two-Seater is not offered)."""
    st, p, q1, q2 = table()
    dashboard(st, p, "Biplane", pilot=pilot, equipment=["Drop of Courage"], at=6)
    st.vars["equipment_row"] = ["Two-Seater"] + [e for e in st.vars["equipment_row"] if e != "Two-Seater"][:5]
    st.vars["pilot_row"] = list(row)
    refresh(st)
    st.apply("swap equipment at the middle airfield")
    st.apply("give up Drop of Courage")
    if "take Two-Seater" not in texts(st):
        return None, st, p
    st.apply("take Two-Seater")
    return texts(st), st, p


def test_the_two_seaters_jan_van_der_valls_and_jing_lis_texts_name_who_may_fly_it():
    says("Two-Seater", r"Takes a second pilot from those for hire \(not (Jan Van der Vall) or Jing Li\)")
    for pilot in ("Jan Van der Vall", "Jing Li"):
        assert SAYS[pilot].endswith("cannot fly a Two-Seater.")
        assert _second_pilots(pilot, ["Elinah Mwangi"])[0] is None
    offered, st, p = _second_pilots("Hamish McTarn", ["Jan Van der Vall", "Jing Li", "Elinah Mwangi"])
    assert offered == ["take Elinah Mwangi as second pilot"]
    st.apply("take Elinah Mwangi as second pilot")
    st.apply("change pilots")                             # "on the ground the two may change places"
    s = ship(st, p)
    assert (s["pilot"], s["pilot_2"]) == ("Elinah Mwangi", "Hamish McTarn")


def test_the_two_seaters_text_names_the_pilot_at_the_controls_as_the_one_that_counts():
    assert "only the one at the controls counts" in SAYS["Two-Seater"]
    extra = extra_dice(SAYS["Condesa Isabella Sanchez"])[0]["takeoff"]
    assert two_seater_take_off_dice("Hamish McTarn", "Condesa Isabella Sanchez") == (5, 5 + extra)


def test_marco_florentinas_text_names_the_hand_and_the_cards_drawn():
    held, drawn = (NUMBERS[x] for x in says("Marco Florentina", r"holds up to (\w+) trick and boost cards and draws "
                                                                r"(\w+) at the end of each turn"))
    for pilot, kept, more in (("Hamish McTarn", 3, 1), ("Marco Florentina", held, drawn)):
        st, p, q1, q2 = table()
        dashboard(st, p, "Biplane", pilot=pilot, at=FIELDS)
        deck = st.vars["deck"]
        hands(st, **{f"p{p}": [c for c in deck if c.startswith("Second Wind")][:held]})
        for c in st.vars["hand"][p - 1]:
            deck.remove(c)
        size = len(deck)
        st.apply("end the turn")
        assert len(deck) == size - more
        while st.to_move() == [p] and texts(st)[0].startswith("discard "):
            st.apply(texts(st)[0])
        assert len(st.vars["hand"][p - 1]) == kept


# -- the weather and the terrain
def _needed_in_a_thunderstorm(pilot="Hamish McTarn", equipment=()):
    """kind -> symbols a take-off from Town 3, a flying test and a landing over it need in a
    thunderstorm (two weather symbols of each kind)."""
    st, p, q1, q2 = table()
    weather(st, TOWN, "Thunderstorm")
    dashboard(st, p, "Biplane", pilot=pilot, equipment=list(equipment), at=TOWN, fuel=2)
    refresh(st)
    need = {"takeoff": rolled(until(st, ["take off"], lambda s, lines: True).lines)[0][2]}
    ship(st, p)["alt"] = 1
    refresh(st)
    need["flying"] = rolled(until(st, ["fly on"], lambda s, lines: True).lines)[0][2]
    need["landing"] = rolled(until(st, ["land"], lambda s, lines: True).lines)[0][2]
    return need


@pytest.mark.parametrize("name", ["Janu Rajan", "Goggles"])
def test_janu_rajans_and_the_goggles_texts_name_the_weather_symbols_disregarded(name):
    (n,) = says(name, r"Disregards (one) symbol of each kind on every weather tile")
    fine = {k: need for k, (_, need) in _rolled_in_each_test(at=TOWN).items()}
    assert _needed_in_a_thunderstorm() == {k: need + 2 for k, need in fine.items()}
    card = {"pilot": name} if name in COLS["nation"] else {"equipment": [name]}
    assert _needed_in_a_thunderstorm(**card) == {k: need + 2 - NUMBERS[n] for k, need in fine.items()}
# -- failures, explosions and re-rolls
def catastrophes(holds):
    """(kind, explosions, catastrophic) of the failed take-off and flying tests of seeded races whose tester
    and test ``holds`` (test_cards.failures_accepted checks each against the actions table)."""
    return {(test["k"], test["faces"].count("Explosion"), crash) for _, _, test, crash in failures_accepted(holds)}


def test_pierre_duponts_text_names_the_flying_test_only():
    (kind,) = says("Pierre DuPont", r"A catastrophic failure of a (flying) test counts as a plain failure")
    seen = catastrophes(lambda s, test: s["pilot"] == "Pierre DuPont")
    assert {crash for k, booms, crash in seen if booms > 0 and k == kind} == {False}
    assert {crash for k, booms, crash in seen if booms > 0 and k != kind} == {True}   # take-off tests


def test_st_christophers_text_names_any_test():
    says("St Christopher", r"A catastrophic failure of (any) test counts as a plain failure")
    seen = catastrophes(lambda s, test: "St Christopher" in s["equipment"])
    assert {k for k, booms, _ in seen if booms > 0} == {"takeoff", "flying"}
    assert not any(crash for _, _, crash in seen)


def test_armour_platings_text_names_the_one_explosion_disregarded():
    (n,) = says("Armour Plating", r"(One) explosion symbol of every failed test is disregarded when judging whether "
                                  r"the failure is catastrophic")
    seen = {(booms, crash) for _, booms, crash in catastrophes(lambda s, test: "Armour Plating" in s["equipment"])}
    assert {(NUMBERS[n.lower()], False), (NUMBERS[n.lower()] + 1, True)} <= seen


def _short_in_the_air(name, wanted, pilot="Hamish McTarn"):
    """A Triplane over Town 3 with ``name`` (a pilot or an equipment) fails a flying test so that
    ``wanted(faces, got)`` holds."""
    st, p, q1, q2 = table()
    card = {"pilot": name} if name in COLS["nation"] else {"pilot": pilot, "equipment": [name]}
    dashboard(st, p, "Triplane", at=TOWN, alt=1, fuel=0, **card)
    refresh(st)
    return p, until(st, ["fly on"], lambda s, lines: wanted(faces(lines), rolled(lines)[0][1]))


def test_the_flying_jackets_text_names_the_explosions_rolled_again():
    assert "rolls again the dice of a test that show explosions." in SAYS["Flying Jacket"]
    assert flying_jacket_plays() > 0                      # at real tests that fell short (test_cards.py)


def test_the_lucky_lockets_text_names_the_explosions_and_the_dice_chosen():
    assert "rolls again the dice of a test that show explosions, and as many as you choose of its other dice that " \
           "show no symbol it needs" in SAYS["Lucky Locket"]
    p, short = _short_in_the_air("Lucky Locket", lambda f, got: got == 1 and f.count("Explosion") == 1)
    short.apply("re-roll the dice with the Lucky Locket")
    # one explosion (always) and three blank dice (as many as chosen)
    assert texts(short) == ["re-roll 1 die", "re-roll 2 dice", "re-roll 3 dice", "re-roll 4 dice"]
    short.apply("re-roll 3 dice")
    (again,) = rerolled(logs(short))
    assert len(listed_items(again.split(": ")[1])) == 3 and ship(short, p)["charges"]["Lucky Locket"] == 2


@pytest.mark.parametrize("explosions", [0, 2])
def test_adriana_belhindas_text_names_the_dice_and_the_explosions_first(explosions):
    (n,) = says("Adriana Belhinda", r"Once in each action phase, may roll again up to (\w+) dice of a test that show "
                                    r"no symbol it needs, explosions first")
    move = "re-roll up to two dice (Adriana Belhinda)"
    p, short = _short_in_the_air("Adriana Belhinda", lambda f, got: got == 0 and f.count("Explosion") == explosions)
    short.apply(move)
    offered = [t for t in texts(short) if t.startswith("re-roll ") and "(" not in t]
    if explosions >= NUMBERS[n]:                         # explosions first: nothing left to choose
        assert offered == []
    else:
        assert offered == ["re-roll 1 die"] + [f"re-roll {k} dice" for k in range(2, NUMBERS[n] + 1)]
        short.apply(offered[-1])
    (again,) = rerolled(logs(short))
    assert len(listed_items(again.split(": ")[1])) == NUMBERS[n]
    assert ship(short, p)["adriana_used"] == short.vars["action_phase"] and move not in texts(short)


# -- spare part symbols and terrain symbols
@pytest.mark.parametrize("name, move", [("Vladimir Orkovski", "use Vladimir Orkovski's spare part"),
                                        ("Universal Spare Parts", "use Universal Spare Parts")])
def test_a_texts_spare_part_symbol_of_any_kind_rescues_a_test_short_by_one(name, move):
    """At every test that fell short in seeded races (helpers.short_positions, real moves) for a machine
    with this pilot at the controls or this card, a charge left: offered whatever the test's kind;
    played, one symbol more (or the test passed) and a charge spent."""
    assert "stands in for one spare part symbol of any kind." in SAYS[name]
    kinds = set()
    for shown, s, test, st, _ in rescued(move, lambda s: name in [s["pilot"], *s["equipment"]]
                                         and s["charges"].get(name, 0) > 0):
        assert shown
        kinds.add(test["k"])
        assert ship(st, s["owner"])["charges"][name] == s["charges"][name] - 1
        if attempt(st) is not None and st.vars["testing"] == s["id"]:
            assert attempt(st)["got"] == test["got"] + 1
    assert len(kinds) > 1


def test_sheila_dawsons_text_names_the_part_refilled_on_take_off_when_empty():
    assert "Keeps one extra spare part on the pilot card, refilled with a part of the player's choice on each " \
           "take-off when empty" in SAYS["Sheila Dawson"]
    st, p, q1, q2 = table()
    dashboard(st, p, "Biplane", pilot="Sheila Dawson", equipment=["Catapult Launcher"], at=FIELDS, fuel=2)
    refresh(st)
    st.apply("take off with the Catapult Launcher")
    assert texts(st) == [f"restock Sheila Dawson's card with a {k} spare part" for k in ("takeoff", "flying", "landing")] \
        + ["leave it empty"]                            # the player's choice
    st.apply("restock Sheila Dawson's card with a landing spare part")
    s = ship(st, p)
    assert s["sheila_part"] == "landing"
    s.update(at=FIELDS, alt=0, charges={**s["charges"], "Catapult Launcher": 1})
    refresh(st)
    st.apply("take off with the Catapult Launcher")      # not empty: not refilled
    assert s["sheila_part"] == "landing" and not any(t.startswith("restock") for t in texts(st))


def test_the_flying_manuals_text_names_the_terrain_symbols_not_the_weather():
    assert "disregards one terrain symbol a test needs." in SAYS["Flying Manual"]
    assert all(flying_manual_plays().values())          # at real tests that fell short (test_cards.py)


# -- one more die
@pytest.mark.parametrize("card", list(ONE_MORE))
def test_a_charges_text_names_the_tests_it_rolls_one_more_die_in(card):
    (kind,) = says(card, r"Three times in the race, rolls one more die during (a take-off|a flying|a landing|any) test")
    named = {"a take-off": ("takeoff",), "a flying": ("flying",), "a landing": ("landing",),
             "any": ("takeoff", "flying", "landing")}[kind]
    assert named == ONE_MORE[card]
    offered, refused = one_more_die(card)                 # at real tests that fell short (test_cards.py)
    assert offered == set(named) and not offered & refused


# -- cad symbols and guns
def test_sir_archibald_smythes_text_names_one_cad_symbol_ready_again_each_turn():
    says("Sir Archibald Smythe", r"Has (one) cad symbol to play against another machine's test, ready again at "
                                 r"the start of each of the machine's turns")
    st, bob, archie, kim = table()
    dashboard(st, bob, "Triplane", at=TOWN, alt=1, fuel=2)
    dashboard(st, archie, "Biplane", pilot="Sir Archibald Smythe", at=TOWN, alt=1, cad_ready=True)
    refresh(st)
    st.apply("fly on")
    st.apply("use Sir Archibald's cad symbol")
    assert rolled(logs(st))[0][0] == 5 - 1 and not ship(st, archie)["cad_ready"]
    while mover(st) != archie:                           # the tester's turn ends quietly, then the next
        quick = [t for t in ("accept the failure", "end the phase") if t in texts(st)]
        if quick:
            st.apply(quick[0])
        else:
            next_turn(st)
    assert ship(st, archie)["cad_ready"]


def test_the_box_of_trickss_text_names_a_cad_symbol_three_times():
    says("Box of Tricks", r"Three times in the race, (plays a cad symbol) against another machine's test")
    st, bob, paul, kim = table()
    dashboard(st, bob, "Triplane", at=TOWN, alt=1, fuel=2)
    dashboard(st, paul, "Helicopter", equipment=["Box of Tricks"], at=FIELDS)
    refresh(st)
    st.apply("fly on")
    st.apply("use a Box of Tricks charge")
    assert rolled(logs(st))[0][0] == 5 - 1 and ship(st, paul)["charges"]["Box of Tricks"] == 2


def test_the_mounted_rifles_text_names_any_altitude_once_a_turn_and_the_damage():
    """Fired in a seeded race (test_cards.rifle_fired: one damage, once a turn), at machines in the air
    over the tile in its own band and in others."""
    assert "once a turn at most, in the air: deals one damage to another machine in the air over the same tile, " \
           "at any altitude." in SAYS["Mounted Rifle"]
    assert len(rifle_fired()) > 1


def test_the_shotguns_text_names_the_same_altitude_two_dice_and_an_explosion():
    """Fired in a seeded race (test_cards.shotgun_fired: two dice, one damage on an explosion), at machines
    in its own band only."""
    assert "roll two dice at another machine over the same tile at the same altitude; an explosion deals it one " \
           "damage." in SAYS["Shotgun"]
    hits, left_out = shotgun_fired()
    assert set(hits) == {True, False} and left_out


# -- the ground
def test_the_catapult_launchers_text_names_the_next_tile_and_the_lowest_band():
    assert "Once in the race, instead of a take-off test: the machine leaves the ground and flies on to the next " \
           "tile, in the lowest band." == SAYS["Catapult Launcher"]
    for s, st in catapult_launches():                         # seeded races, real moves
        after = ship(st, s["owner"])
        assert (after["at"], after["alt"]) == (s["at"] + 1, 1) and after["tested"] == s["tested"]   # no test
        assert after["charges"]["Catapult Launcher"] == 0 and CATAPULT not in texts(st)          # once


def test_the_damage_repair_kits_text_names_the_ground_the_extra_phase_the_damage_and_the_scavenge():
    """Each clause of the Kit's text by what real play does: offered exactly on the ground and not on
    the final airfield (every position of a seeded game where a machine holding it chooses an
    action), then used: an extra action phase (the phases left stay), every damage marker gone and the
    repair and scavenge action taken."""
    says("Damage Repair Kit", r"^Once in the race, on the ground but not on the final airfield: discard it for an "
                              r"extra action phase, in which the machine throws away every damage marker \(they "
                              r"cost no points\) and repairs and scavenges\.$")
    where = set()
    for pos in kit_positions(4, 0):
        s = mover_ship(pos.state)
        on_the_ground = s["alt"] == 0 and not s["finished"]
        assert (KIT in texts(pos.state)) == on_the_ground, pos
        where.add("ground" if on_the_ground else "final airfield" if s["finished"] else "air")
    assert where == {"ground", "air", "final airfield"}
    st = kit_with_damage().state.clone()
    before = dict(mover_ship(st))
    st.apply(KIT)
    s = mover_ship(st)
    assert (s["gauge"], s["scored_damage"], s["phases"]) == (0, 0, before["phases"])   # "they cost no points"
    assert "Damage Repair Kit" not in s["equipment"] and "Damage Repair Kit" in st.vars["equipment_discard"]
    assert texts(st)[-1] == "take nothing more"           # the repair and scavenge action


def test_elinah_mwangis_text_names_the_damage_marker_moved_on_taking_off():
    says("Elinah Mwangi", r"on taking off, may move (one) damage marker from the fuel gauge to the scoring area")
    st, p, q1, q2 = table()
    dashboard(st, p, "Biplane", pilot="Elinah Mwangi", at=FIELDS, fuel=2, gauge=2)
    refresh(st)
    s = ship(until(st, ["take off"], lambda s, lines: True), p)
    assert (s["gauge"], s["scored_damage"]) == (1, 1)


def _machine_hold_text(model):
    """(internal, external, passenger seats, equipment slots) as a dashboard's text names them."""
    m = re.search(r"; (\d) internal and (\d) external storage spaces?, (a passenger seat, )?(\d) equipment slots\.$",
                  SAYS[model])
    assert m, model
    return int(m.group(1)), int(m.group(2)), 1 if m.group(3) else 0, int(m.group(4))


def _on_town(model, parts):
    """``model`` flown by Hamish McTarn on Town 3 (a passenger waiting, no cargo), ``parts`` flying spare parts."""
    st, p, q1, q2 = table()
    dashboard(st, p, model, pilot="Hamish McTarn", at=TOWN, fuel=4, parts=["flying"] * parts)
    st.vars["tile_pax"][TOWN - 1] = 1
    st.vars["tile_cargo"][TOWN - 1] = []
    refresh(st)
    return st, p


@pytest.mark.parametrize("model", list(COLS["seats"]))
def test_every_dashboards_text_names_its_storage_spaces_and_passenger_seat(model):
    """3.2, 10.2: spare parts fill the internal and the external spaces; a passenger takes two internal
    spaces, or none in a passenger seat. The equipment slots the text names are the column the set-up
    and the middle airfield read."""
    internal, external, seats, slots = _machine_hold_text(model)
    assert (internal, external, seats, slots) == (COLS["internal"][model], COLS["external"][model],
                                                  COLS["seats"][model], COLS["slots"][model])
    for parts, room in ((internal + external - 1, True), (internal + external, False)):
        st, p = _on_town(model, parts)
        st.apply("repair and scavenge")
        assert any(t.endswith(" spare part") and t.startswith("take a") for t in texts(st)) == room, parts
    st, p = _on_town(model, internal + external - 1)   # one space free: a seated passenger only
    assert (BOARD in texts(st)) == bool(seats)


# ---------------------------------------------------------------- cargo
CARGO = sorted({COLS["name"][c] for c in game(3).compiled.tables["cargo"]})
TERRAIN_TILES = {"fields": FIELDS, "town": TOWN, "water": WATER, "mountain": MOUNTAIN, "final airfield": FINAL}


def _cargo_text(name):
    """(points, where delivered, points lost still on board at the end or 0) as the text names them."""
    text = {SAYS[c] for c in game(3).compiled.tables["cargo"] if COLS["name"][c] == name}
    (text,) = text                                       # every token of a name reads alike
    m = re.match(r"(Special|General) cargo: (\d+) points? when delivered to (?:a (\w+) tile|the (final airfield))"
                 r"(?:; still on board at the end, it costs (\d+) points?)?\.$", text)
    assert m, text
    kind, points, terrain, final, cost = m.groups()
    assert (kind == "Special") == (cost is not None) == (terrain is not None)
    return int(points), terrain or final, int(cost or 0)


@pytest.mark.parametrize("name", CARGO)
def test_a_cargos_text_names_its_points_and_where_it_is_delivered(name):
    """Landing safely on a tile of each terrain and on the final airfield with the cargo on board:
    delivered, for the points the text names, only where it names."""
    points, where, cost = _cargo_text(name)
    for place, tile in TERRAIN_TILES.items():
        carried = _landed_on(tile, "Jing Li", cargo=[name])
        empty = _landed_on(tile, "Jing Li")
        if place == where:
            assert carried["cargo"] == [] and carried["vp"] - empty["vp"] == points, place
        else:
            assert carried["cargo"] == [name] and carried["vp"] == empty["vp"], place


@pytest.mark.parametrize("name", [n for n in CARGO if _cargo_text(n)[2]])
def test_a_special_cargos_text_names_what_it_costs_still_on_board_at_the_end(name):
    """The real final states of two seeded standard races (3 players, seeds 4 and 7), which end with
    every special cargo still on board somewhere: each player's score is the machines' points less
    their damage and the cost each cargo's text names."""
    on_board = 0
    for seed in (4, 7):
        st = race(3, seed, race="standard").state
        scores = {q: st.vars["seat_points"][q - 1] for q in range(1, 4)}
        for t in st.vars["ships"]:
            scores[t["owner"]] += t["vp"] - t["gauge"] - t["scored_damage"] - sum(_cargo_text(c)[2] for c in t["cargo"])
            on_board += t["cargo"].count(name)
        assert st.outcome().scores == scores, seed
    assert on_board > 0


# The pilots and equipment whose texts the tests above read beyond their extra dice (DICE_TEXTS).
TESTED = {
    "Captain Matthew Comben", "Hamish McTarn", "Karishma Khana", "Kauri Parata", "National Flag",
    "Jan Van der Vall", "Passenger Seat", "Jing Li", "Extra Cargo Capacity", "Two-Seater", "Marco Florentina",
    "Janu Rajan", "Goggles", "Pierre DuPont", "St Christopher", "Armour Plating", "Flying Jacket", "Lucky Locket",
    "Adriana Belhinda", "Vladimir Orkovski", "Universal Spare Parts", "Sheila Dawson", "Flying Manual",
    "Sir Archibald Smythe", "Box of Tricks", "Mounted Rifle", "Shotgun", "Catapult Launcher", "Damage Repair Kit",
    "Elinah Mwangi", *ONE_MORE,
}


def test_every_pilot_equipment_and_cargo_text_is_checked_here():
    """A pilot, an equipment card or a cargo token with a `says` text that no test here reads fails
    this test: its text is either all extra dice (DICE_TEXTS) or read by a test of TESTED."""
    compiled = game(3).compiled
    for name in list(compiled.tables["pilot"]) + list(compiled.tables["equipment"]):
        assert SAYS.get(name), name
        only_dice = name in {n for _, n in DICE_TEXTS} and re.fullmatch(
            r"Rolls (one|two) extra dic?e in [a-z, -]+ tests?( on water tiles)?( and (one|two) extra dic?e in "
            r"[a-z, -]+ tests?)?\.", SAYS[name])
        assert only_dice or name in TESTED, name
    assert set(CARGO) == {COLS["name"][c] for c in compiled.tables["cargo"] if SAYS.get(c)}
    assert set(TERRAIN_TILES) >= {_cargo_text(n)[1] for n in CARGO}
