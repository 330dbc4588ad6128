"""Pilots and special equipment, one scenario each (sections 13 and 14; Amelia Skyfoot, Karishma
Khana, the Finely Tuned Engine, the National Flag and Universal Spare Parts are in test_rules.py):
the Catapult Launcher, the Two-Seater, the guns, the re-rolls, the Flying Manual, the pilots' cards,
the extra dice (markers and charges), the weather, explosions, cad symbols, victory points, the
hold, the hand; then gaining altitude, plain failures in the air and the boost cards in a test."""
from __future__ import annotations

import copy
import functools

import pytest

from rulewright.interpreter.testing import logs, mover, offers, positions, refresh, texts

from .helpers import arrival_points, assert_dice, attempt, boosts_played, dashboard, deliverable, dice_added, \
    first_to_land_points, game, kit_positions, kit_with_damage, listed_items, maybe, mover_ship, others, ready, \
    rescued, rolled, ship, shows, total_damage, trick_positions, tried, until, weather
from .real_positions import catastrophic, comben_first_landings, failures, landings


FIELDS, TOWN, WATER = 2, 3, 4


def quiet(st):
    for place in range(2, 12):
        weather(st, place, "Fine")


def faces(lines):
    """The faces of the first roll in the log lines."""
    line = next(x for x in lines if " rolls " in x and " dice for " in x)
    return listed_items(line.split(": ")[1])


def rerolled(lines):
    return [x for x in lines if x.startswith("re-rolled: ")]


CATAPULT = "take off with the Catapult Launcher"


@functools.lru_cache(maxsize=None)
def catapult_launches():
    """The Catapult Launcher used wherever it is offered in three seeded quick-start races (3 players,
    seeds 1, 5 and 6: those of seeds 0-7 where a machine holding it still has its charge on the ground,
    found once), two positions a race: (the machine before, the state after the launch)."""
    out = []
    for pos in positions(game(3), offers("^%s$" % CATAPULT), seeds=(1, 5, 6), each=2):
        st = pos.state.clone()
        before = copy.deepcopy(mover_ship(st))
        st.apply(CATAPULT)
        out.append((before, st))
    return out


def test_the_catapult_launcher_takes_off_and_flies_one_tile_without_a_test():
    """14: "Once in the game when performing a takeoff action automatically take off from and fly
    through one terrain tile on to the next terrain tile." Launched: on the next tile in the lowest
    band, no test taken, the phase spent, the charge gone and the launcher not offered again."""
    for s, st in catapult_launches():
        after = ship(st, s["owner"])
        assert (after["at"], after["alt"]) == (s["at"] + 1, 1) and attempt(st) is None
        assert after["tested"] == s["tested"] and after["phases"] == s["phases"] - 1
        assert after["charges"]["Catapult Launcher"] == 0 and CATAPULT not in texts(st)


def test_the_two_seater_takes_a_second_pilot_and_swaps_on_the_ground():
    st = ready(3)
    p = mover(st)
    dashboard(st, p, "Biplane", pilot="Hamish McTarn", equipment=["Drop of Courage"], at=6)
    st.vars["equipment_row"] = ["Two-Seater"] + [e for e in st.vars["equipment_row"] if e != "Two-Seater"][:5]
    st.vars["pilot_row"] = ["Jan Van der Vall", "Jing Li", "Elinah Mwangi"]
    refresh(st)
    st.apply("swap equipment at the middle airfield")
    st.apply("give up Drop of Courage")
    st.apply("take Two-Seater")
    # "neither Jan Van Der Vall nor Jing Li can fly in a two seater"
    assert texts(st) == ["take Elinah Mwangi as second pilot"]
    st.apply("take Elinah Mwangi as second pilot")
    s = ship(st, p)
    assert s["pilot_2"] == "Elinah Mwangi" and len(st.vars["pilot_row"]) == 6
    st.apply("change pilots")
    assert (s["pilot"], s["pilot_2"]) == ("Elinah Mwangi", "Hamish McTarn")


def test_a_two_seater_is_not_offered_to_the_courier():
    st = ready(3)
    p = mover(st)
    dashboard(st, p, "Biplane", pilot="Jing Li", equipment=["Drop of Courage"], at=6)
    st.vars["equipment_row"] = ["Two-Seater"] + [e for e in st.vars["equipment_row"] if e != "Two-Seater"][:5]
    refresh(st)
    st.apply("swap equipment at the middle airfield")
    st.apply("give up Drop of Courage")
    assert "take Two-Seater" not in texts(st)


def still_testing(s, st):
    """The test under way is still the one of machine ``s`` (it fell short again)."""
    return attempt(st) is not None and st.vars["testing"] == s["id"]


def flying_jacket_plays():
    """The Flying Jacket at every test that fell short in seeded races (helpers.short_positions) of a
    machine holding it with a charge left: offered exactly when a die shows an explosion; played, the
    other dice stay, as many are rolled again as showed explosions, a charge is spent. Returns how
    many times it was played."""
    played = 0
    move = "re-roll the explosions with the Flying Jacket"
    for shown, s, test, st, _ in rescued(move, lambda s: "Flying Jacket" in s["equipment"]
                                         and s["charges"]["Flying Jacket"] > 0):
        assert shown == ("Explosion" in test["faces"])
        if st is not None:
            played += 1
            assert ship(st, s["owner"])["charges"]["Flying Jacket"] == s["charges"]["Flying Jacket"] - 1
            if still_testing(s, st):
                kept = [f for f in test["faces"] if f != "Explosion"]
                faces = attempt(st)["faces"]
                assert faces[:len(kept)] == kept and len(faces) == len(test["faces"])
    return played


def test_the_flying_jacket_re_rolls_the_explosions_only():
    assert flying_jacket_plays() > 0


def test_the_lucky_locket_re_rolls_the_explosions_and_as_many_blank_dice_as_the_player_chooses():
    """Lucky Locket: "Three times during the game may re-roll any or all dice in a single test." The
    player chooses how many of the blank dice to roll again (was: every one, always): the explosion
    is rolled again in any case (it can only get better), a die showing a flying symbol never."""
    st = ready(3)
    p = mover(st)
    quiet(st)
    dashboard(st, p, "Triplane", equipment=["Lucky Locket"], at=TOWN, alt=1, fuel=0)
    refresh(st)
    short = until(st, ["fly on"], lambda s, lines: rolled(lines)[0][1] == 1 and faces(lines).count("Explosion") == 1)
    short.apply("re-roll the dice with the Lucky Locket")
    # one explosion, three blank dice: one to four dice rolled again
    assert texts(short) == ["re-roll 1 die", "re-roll 2 dice", "re-roll 3 dice", "re-roll 4 dice"]
    short.apply("re-roll 2 dice")
    again = rerolled(logs(short))
    assert len(listed_items(again[0].split(": ")[1])) == 2
    assert ship(short, p)["charges"]["Lucky Locket"] == 2


@pytest.mark.parametrize("explosions, offered", [(0, ["re-roll 1 die", "re-roll 2 dice"]), (2, [])])
def test_adriana_belhinda_re_rolls_up_to_two_dice_once(explosions, offered):
    """Adriana Belhinda: "Once per phase may re-roll up to two dice." One or two blank dice, as the
    player chooses (was: always two); two explosions are both rolled again, without asking."""
    st = ready(3)
    p = mover(st)
    quiet(st)
    dashboard(st, p, "Triplane", pilot="Adriana Belhinda", at=TOWN, alt=1, fuel=0)
    refresh(st)
    move = "re-roll up to two dice (Adriana Belhinda)"
    short = until(st, ["fly on"], lambda s, lines: rolled(lines)[0][1] == 0
                  and faces(lines).count("Explosion") == explosions)
    short.apply(move)
    assert [t for t in texts(short) if t.startswith("re-roll ") and "(" not in t] == offered
    if offered:
        short.apply(offered[-1])
    lines = logs(short)
    assert len(listed_items(rerolled(lines)[0].split(": ")[1])) == 2
    if "passes" not in " ".join(lines):
        assert move not in texts(short)
    assert ship(short, p)["adriana_used"] == short.vars["action_phase"]  # used in this phase only ("Once per phase")


def test_adriana_belhinda_re_rolls_again_in_the_damage_repair_kits_extra_phase():
    """"Once per phase": the Damage Repair Kit's "extra phase to perform a repair and scavenge action"
    (then, on an airfield, a take-off test "in the same phase") is a phase of its own, so her re-roll
    used in the phase before is offered again in it."""
    adriana = "re-roll up to two dice (Adriana Belhinda)"
    st = ready(3)
    p = mover(st)
    quiet(st)
    dashboard(st, p, "Helicopter", pilot="Adriana Belhinda", equipment=["Damage Repair Kit"], at=1, alt=0, fuel=2)
    refresh(st)

    def failed(s, lines):
        return bool(rolled(lines)) and rolled(lines)[-1][1] < rolled(lines)[-1][2] and "accept the failure" in texts(s)

    first = until(st, ["take off"], lambda s, lines: failed(s, lines) and adriana in texts(s))
    used = until(first, [adriana, maybe("re-roll 1 die")],
                 lambda s, lines: "accept the failure" in texts(s) and not any("passes" in x for x in lines))
    assert adriana not in texts(used)                       # once in the phase
    phase = used.vars["action_phase"]
    used.apply("accept the failure")
    used.apply("use the Damage Repair Kit")
    assert used.vars["action_phase"] == phase + 1           # the Kit's extra phase
    while any(t.startswith("take ") for t in texts(used)):
        used.apply("take nothing more" if "take nothing more" in texts(used) else texts(used)[0])
    extra = until(used, ["go on to a take-off test"], failed)
    assert adriana in texts(extra)


def flying_manual_plays():
    """The Flying Manual at every test that fell short in seeded races of a machine holding it with a
    charge left: offered exactly while a terrain symbol of the test is still counted (never for the
    weather's); played, the test needs one symbol fewer, its weather's as before, a charge is spent.
    Returns how many times it was played and refused."""
    seen = {True: 0, False: 0}
    move = "ignore a terrain symbol with the Flying Manual"
    for shown, s, test, st, _ in rescued(move, lambda s: "Flying Manual" in s["equipment"]
                                         and s["charges"]["Flying Manual"] > 0):
        assert shown == (test["manual_left"] > 0)
        seen[shown] += 1
        if st is not None:
            assert ship(st, s["owner"])["charges"]["Flying Manual"] == s["charges"]["Flying Manual"] - 1
            if still_testing(s, st):
                after = attempt(st)
                assert (after["need"], after["manual_left"], after["weather_left"]) == \
                    (test["need"] - 1, test["manual_left"] - 1, test["weather_left"])
    return seen


def test_the_flying_manual_ignores_terrain_symbols_not_weather():
    assert all(flying_manual_plays().values())


def test_sheila_dawsons_card_is_restocked_on_taking_off_and_used_in_a_test():
    st = ready(3)
    p = mover(st)
    quiet(st)
    dashboard(st, p, "Biplane", pilot="Sheila Dawson", at=FIELDS, fuel=2)
    supply = st.vars["parts_supply"]["takeoff"]
    refresh(st)
    move = "use the spare part on Sheila Dawson's card"
    short = until(st, ["take off", "restock Sheila Dawson's card with a takeoff spare part"],
                  lambda s, lines: rolled(lines)[0][1] == 1 and move in texts(s))
    assert ship(short, p)["sheila_part"] == "takeoff" and short.vars["parts_supply"]["takeoff"] == supply - 1
    short.apply(move)
    assert "takes off" in " ".join(logs(short))
    assert ship(short, p)["sheila_part"] is None and short.vars["parts_supply"]["takeoff"] == supply


def test_sheila_dawsons_card_is_restocked_on_a_catapult_take_off():
    """Sheila Dawson: "Has a space for 1 additional spare part which is automatically restocked with
    the player's choice of spare part at the start of every takeoff phase." Catapult Launcher: "Once
    in the game when performing a takeoff action automatically take off from and fly through one
    terrain tile on to the next terrain tile." A catapult launch is a take-off action, so its phase is
    a take-off phase: the card is restocked before the launch, as on the runway."""
    st = ready(3)
    p = mover(st)
    quiet(st)
    dashboard(st, p, "Biplane", pilot="Sheila Dawson", equipment=["Catapult Launcher"], at=FIELDS, fuel=2)
    supply = st.vars["parts_supply"]["flying"]
    refresh(st)
    st.apply("take off with the Catapult Launcher")
    assert texts(st) == ["restock Sheila Dawson's card with a takeoff spare part",
                         "restock Sheila Dawson's card with a flying spare part",
                         "restock Sheila Dawson's card with a landing spare part", "leave it empty"]
    st.apply("restock Sheila Dawson's card with a flying spare part")
    s = ship(st, p)
    assert s["sheila_part"] == "flying" and st.vars["parts_supply"]["flying"] == supply - 1
    assert (s["at"], s["alt"]) == (TOWN, 1) and "launched by its catapult" in " ".join(logs(st))
    # a full card is not restocked again
    s.update(at=FIELDS, alt=0, charges={**s["charges"], "Catapult Launcher": 1})
    refresh(st)
    st.apply("take off with the Catapult Launcher")
    assert s["sheila_part"] == "flying" and st.vars["parts_supply"]["flying"] == supply - 1
    assert (s["at"], s["alt"]) == (TOWN, 1)


def test_elinah_mwangi_repairs_a_damage_marker_on_a_catapult_take_off_too():
    """Elinah Mwangi: "May always repair one damage marker when taking off"; the catapult "when
    performing a takeoff action automatically take[s] off": grounded by two markers, she may still be
    launched, repairing one first (as on the runway)."""
    st = ready(3)
    p = mover(st)
    quiet(st)
    dashboard(st, p, "Biplane", pilot="Elinah Mwangi", equipment=["Catapult Launcher"], at=FIELDS, fuel=2, gauge=2)
    refresh(st)
    st.apply("take off with the Catapult Launcher")
    s = ship(st, p)
    assert (s["gauge"], s["scored_damage"], s["at"], s["alt"]) == (1, 1, TOWN, 1)
    assert "Elinah Mwangi repairs a damage marker on taking off" in logs(st)


def test_elinah_mwangi_rolls_one_more_landing_die():
    # "Rolls one extra dice for landing tests." Every test her machine fell short in (helpers.DICE_RACES)
    assert_dice(flown_by("Elinah Mwangi"))


def test_vladimir_orkovski_gives_four_spare_part_symbols_in_a_game():
    st = ready(3)
    p = mover(st)
    quiet(st)
    dashboard(st, p, "Triplane", pilot="Vladimir Orkovski", at=TOWN, alt=1, fuel=0)
    ship(st, p)["charges"]["Vladimir Orkovski"] = 1
    refresh(st)
    move = "use Vladimir Orkovski's spare part"
    short = until(st, ["fly on"], lambda s, lines: rolled(lines)[0][1] == 2)
    short.apply(move)
    assert "passes" in " ".join(logs(short))
    assert ship(short, p)["charges"]["Vladimir Orkovski"] == 0
    assert st.game.columns["charges"]["Vladimir Orkovski"] == 4


def test_sir_archibald_smythe_plays_a_cad_symbol_once_a_turn():
    st = ready(3)
    bob = mover(st)
    archie, kim = others(st, bob)
    quiet(st)
    dashboard(st, bob, "Triplane", at=TOWN, alt=1, fuel=2)
    dashboard(st, archie, "Biplane", pilot="Sir Archibald Smythe", at=TOWN, alt=1, cad_ready=True)
    refresh(st)
    st.apply("fly on")
    assert st.to_move() == [archie]
    assert texts(st) == ["use Sir Archibald's cad symbol", "let the test go ahead"]
    st.apply("use Sir Archibald's cad symbol")
    lines = logs(st)
    assert "Sir Archibald Smythe plays a cad symbol" in " ".join(lines) and rolled(lines)[0][0] == 4
    assert not ship(st, archie)["cad_ready"]
    if "fly on again" in texts(st):                    # the next test: no cad symbol left, nobody asked
        st.apply("fly on again")
        assert not st.pending.window or archie not in st.to_move()


# ---------------------------------------------------------------- the ability markers (extra dice)
MOUNTAIN = 5


# Each checked on every test its machine fell short in, in seeded races (helpers.DICE_RACES, real
# moves): the dice rolled (the test under way) against the page's dashboards and cards, less the dice
# lost to earlier tests this turn and to a cad symbol (helpers.dice_expected).
def flown_by(pilot):
    return lambda r: r["machine"]["pilot"] == pilot


def fitted_with(equipment):
    return lambda r: equipment in r["machine"]["equipment"]


def test_the_biplane_with_hamish_mctarn_rolls_its_dashboard_dice():
    assert_dice(lambda r: r["machine"]["model"] == "Biplane")
    assert_dice(flown_by("Hamish McTarn"))


def test_condesa_isabella_sanchez_rolls_two_more_takeoff_dice_and_one_more_landing_die():
    # "Rolls 2 extra dice for takeoff and one extra dice for landing tests."
    assert_dice(flown_by("Condesa Isabella Sanchez"))


def test_oberst_andre_schneider_rolls_one_more_takeoff_die_and_two_more_landing_dice():
    # "Rolls one extra dice for takeoff and 2 extra dice for landing tests."
    assert_dice(flown_by("Oberst Andre Schneider"))


def test_sikosi_akimoto_rolls_one_more_die_for_every_test():
    # "Rolls one extra dice for takeoff, flying and landing tests."
    assert_dice(flown_by("Sikosi Akimoto"))


def test_the_new_wing_design_rolls_one_more_flying_die():
    # "Enables one extra dice to be rolled for flying tests."
    assert_dice(fitted_with("New Wing Design"))


def test_superior_tyres_roll_one_more_landing_die():
    # "Enables one extra dice to be rolled for landing tests."
    assert_dice(fitted_with("Superior Tyres"))


def test_floats_roll_two_more_takeoff_and_landing_dice_on_water_only():
    # "Enables 2 extra dice to be rolled for takeoff and landing tests on water terrain tiles."
    assert_dice(lambda r: "Floats" in r["machine"]["equipment"] and r["terrain"] == "Water", ("takeoff", "landing"))
    assert_dice(lambda r: "Floats" in r["machine"]["equipment"] and r["terrain"] != "Water")


# ---------------------------------------------------------------- the weather
@pytest.mark.parametrize("pilot, equipment", [("Janu Rajan", []), ("Hamish McTarn", ["Goggles"])])
def test_janu_rajan_and_the_goggles_ignore_one_symbol_of_each_type_of_the_weather(pilot, equipment):
    # Janu Rajan: "Ignores one symbol of each type on every weather tile."
    # Goggles: "Enables one symbol of each type on every weather tile to be ignored."
    st = ready(3)
    p = mover(st)
    quiet(st)
    weather(st, TOWN, "Thunderstorm")                  # +2 of each symbol
    dashboard(st, p, "Biplane", pilot=pilot, equipment=equipment, at=TOWN, fuel=2)
    refresh(st)
    assert rolled(until(st, ["take off"], lambda s, lines: True).lines)[0][2] == 2 + 2 - 1
    ship(st, p)["alt"] = 1
    refresh(st)
    assert rolled(until(st, ["fly on"], lambda s, lines: True).lines)[0][2] == 3 + 2 - 1
    assert rolled(until(st, ["land"], lambda s, lines: True).lines)[0][2] == 2 + 2 - 1


# ---------------------------------------------------------------- one more die, rolled in a failing test
ONE_MORE = {
    # "Three times during the game may roll an additional dice when attempting a test."
    "Drop of Courage": ("takeoff", "flying", "landing"),
    # "Three times during the game enables one extra dice to be rolled during a flying test."
    "Aerodynamic Tail": ("flying",),
    # "Three times during the game enables one extra dice to be rolled during a takeoff test."
    "High Quality Engine Oil": ("takeoff",),
    # "Three times during the game enables one extra dice to be rolled during a landing test."
    "Improved Landing Gear": ("landing",),
}


def one_more_die(card):
    """The charge ``card`` at every test that fell short in seeded races (helpers.short_positions) of a
    machine holding it with a charge left: the kinds of test it was offered in; where played, one more
    die joins the dice on the table and a charge is spent."""
    offered = set()
    move = "roll one more die with the %s" % card
    for shown, s, test, st, _ in rescued(move, lambda s: card in s["equipment"] and s["charges"][card] > 0):
        offered.add((test["k"], shown))
        if st is not None:
            assert ship(st, s["owner"])["charges"][card] == s["charges"][card] - 1
            after = attempt(st)
            if after is not None:                         # still short: the die is on the table
                assert len(after["faces"]) == len(test["faces"]) + 1 and after["faces"][:-1] == test["faces"]
    return {k for k, shown in offered if shown}, {k for k, shown in offered if not shown}


@pytest.mark.parametrize("card", list(ONE_MORE))
def test_a_charge_rolls_one_more_die_in_a_failing_test_of_its_kind(card):
    offered, refused = one_more_die(card)
    assert offered == set(ONE_MORE[card]) and not offered & refused


# ---------------------------------------------------------------- explosions
def failures_accepted(holds=lambda s, test: True):
    """The take-off and flying tests of real_positions.failures (real moves) whose tester and test ``holds``, each
    checked against the actions table: a failure leaves the machine where it was, on the ground or in the
    air, with its points; a catastrophic one (real_positions.catastrophic: explosions, the Armour Plating, St
    Christopher, Pierre DuPont) adds one damage marker on the ground, and in the air forces the machine
    down on its tile (with the marker and what its landing brings). Returns (tester, what, test,
    catastrophic) of each."""
    out = []
    for s, what, test, now, after in failures():
        if test["k"] == "landing" or not holds(s, test):
            continue
        crash = catastrophic(s, test["k"], test["faces"])
        if crash and s["alt"] > 0:                      # forced down: its landing may score or hurt more
            assert (after["alt"], after["at"]) == (0, s["at"]), (s, test)
            assert total_damage(after) >= total_damage(s) + 1, (s, test)
        else:
            assert (now["at"], now["alt"], now["vp"]) == (s["at"], s["alt"], s["vp"]), (s, test)
            assert total_damage(now) == total_damage(s) + crash, (s, test)
        out.append((s, what, test, crash))
    return out


def explosions(test):
    return test["faces"].count("Explosion")


def test_a_take_off_failing_with_an_explosion_is_a_catastrophe():
    """3.3 and 8.3: a failed take-off test with an explosion is a catastrophic failure: one damage marker,
    the machine stays on the ground; without one, a plain failure. At every take-off test that failed in
    seeded races."""
    seen = {crash for _, _, test, crash in failures_accepted(lambda s, test: test["k"] == "takeoff")}
    assert seen == {True, False}


def test_armour_plating_ignores_one_explosion_of_a_failed_test():
    """"Enables one explosion symbol to be ignored from every failed test": its tests that failed in seeded
    races, one explosion a plain failure, two a catastrophe."""
    seen = {(explosions(test), crash) for _, _, test, crash in failures_accepted(
        lambda s, test: "Armour Plating" in s["equipment"])}
    assert {(1, False), (2, True)} <= seen


def test_st_christopher_reduces_any_catastrophic_failure_to_a_failure():
    """"Reduces any catastrophic failure of any test to a failure": its take-off and flying tests that
    failed with explosions in seeded races are plain failures."""
    seen = {test["k"] for _, _, test, crash in failures_accepted(lambda s, test: "St Christopher" in s["equipment"]
                                                                  and explosions(test) > 0)}
    assert seen == {"takeoff", "flying"}


def test_pierre_dupont_reduces_a_catastrophic_flying_test_to_a_failure_only():
    """"On a flying test reduces any catastrophic failure to just a failure": his failed tests with an
    explosion in seeded races, flying tests plain failures, take-off tests catastrophes."""
    seen = {(test["k"], crash) for _, _, test, crash in failures_accepted(
        lambda s, test: s["pilot"] == "Pierre DuPont" and explosions(test) > 0)}
    assert seen == {("flying", False), ("takeoff", True)}


# ---------------------------------------------------------------- cad symbols
def test_the_box_of_tricks_plays_a_cad_symbol_three_times():
    # "Three times during the game may play a cad symbol."
    st = ready(3)
    bob = mover(st)
    paul, kim = others(st, bob)
    quiet(st)
    dashboard(st, bob, "Triplane", at=TOWN, alt=1, fuel=2)
    dashboard(st, paul, "Helicopter", equipment=["Box of Tricks"], at=FIELDS)
    ship(st, paul)["charges"]["Box of Tricks"] = 1
    refresh(st)
    st.apply("fly on")
    assert st.to_move() == [paul]                         # kim holds nothing to answer with
    assert texts(st) == ["use a Box of Tricks charge", "let the test go ahead"]
    st.apply("use a Box of Tricks charge")
    lines = logs(st)
    assert "player %d uses the Box of Tricks" % paul in " ".join(lines) and rolled(lines)[0][0] == 5 - 1
    assert ship(st, paul)["charges"]["Box of Tricks"] == 0
    if "fly on again" in texts(st):                       # the box is empty: nobody is asked
        st.apply("fly on again")
        assert not st.pending.window


# ---------------------------------------------------------------- victory points
def _landed_on(tile, pilot, **fields):
    st = ready(3)
    p = mover(st)
    quiet(st)
    s = dashboard(st, p, "Monoplane", pilot=pilot, at=tile, alt=1, fuel=2)
    s.update(fields)
    refresh(st)
    landed = until(st, ["land"], lambda s2, lines: "lands safely" in " ".join(lines))
    return ship(landed, p)


def test_captain_matthew_comben_scores_one_more_for_first_to_land():
    """"Gains one extra victory point each time he claims first to land points": his safe landings of a
    seeded race (real_positions.comben_first_landings, real moves) score one point more than another pilot's."""
    assert all(first > 0 and more == 1 for first, _, more in comben_first_landings())


def hamish_deliveries():
    """Hamish McTarn's safe landings of real_positions.landings (real moves) that deliver cargo: (the cargo delivered,
    the points scored beyond what another pilot would score there: first to land and the arrival's)."""
    out = []
    for s, faces, st, after in landings():
        special, _, general = deliverable(st, s)
        if s["pilot"] == "Hamish McTarn" and faces is None and special + general:
            anyone = dict(s, pilot="another pilot")
            more = ship(after, s["owner"])["vp"] - s["vp"] - first_to_land_points(st, s) - arrival_points(st, anyone)
            out.append((special + general, more))
    return out


def test_hamish_mctarn_scores_one_more_for_each_piece_of_cargo_delivered():
    """"Gains one extra victory point for each piece of cargo delivered": each delivery of his in seeded
    races scores one point more for each cargo token than another pilot's would."""
    found = hamish_deliveries()
    assert found and all(more == len(cargo) for cargo, more in found)


def trick_points():
    """The points a passed trick manoeuvre scored, by whether Kauri Parata flew it: each position of
    trick_positions, the dice found by seed, where the test passed at once (nothing left to rescue)."""
    points = {True: set(), False: set()}
    for pos in trick_positions():
        for before, st in tried(pos, "perform a trick manoeuvre"):
            after = ship(st, before["owner"])
            if attempt(st) is None and after["tricks"] == before["tricks"] + 1:     # passed
                points[before["pilot"] == "Kauri Parata"].add(after["vp"] - before["vp"])
    return points


def test_kauri_parata_scores_one_more_for_a_trick_manoeuvre():
    """8.3: a trick manoeuvre passed scores 2 points; Kauri Parata "Gains one extra victory point for
    each successful manoeuvre". Real positions of three seeded races (the Biplane is his)."""
    assert trick_points() == {True: {3}, False: {2}}


# ---------------------------------------------------------------- the hold
def _hold(pilot="Hamish McTarn", equipment=(), parts=5, cargo=(), pax=0):
    """A biplane (4 internal, 2 external slots) on Town 3 with ``parts`` flying spare parts, and
    the tile offering ``cargo`` and ``pax`` passengers."""
    st = ready(3)
    p = mover(st)
    dashboard(st, p, "Biplane", pilot=pilot, equipment=list(equipment), at=TOWN, fuel=2, parts=["flying"] * parts)
    st.vars["tile_cargo"][TOWN - 1] = list(cargo)
    st.vars["tile_pax"][TOWN - 1] = pax
    refresh(st)
    return st, p


BOARD = "take cargo or a passenger on board"


@pytest.mark.parametrize("pilot, equipment", [("Jan Van der Vall", []), ("Hamish McTarn", ["Passenger Seat"])])
def test_a_passenger_seat_carries_a_passenger_without_internal_space(pilot, equipment):
    # Jan Van der Vall: "Has an additional passenger seat."
    # Passenger Seat: "Can carry one passenger without using any internal storage space."
    st, p = _hold(pax=1)
    assert BOARD not in texts(st)                         # 5 parts: no two free internal slots
    st, p = _hold(pilot, equipment, pax=1)
    st.apply(BOARD)
    st.apply("take a passenger on board")
    assert ship(st, p)["pax"] == [TOWN] and len(ship(st, p)["parts"]) == 5


def test_jing_li_has_one_more_external_slot_for_cargo_only():
    # "Has 1 extra external storage space for cargo only."
    st, p = _hold(pilot="Jing Li", parts=6, cargo=["2-point Cargo"])
    ship(st, p)["fuel"] = 4
    st.apply("repair and scavenge")                       # no room for a seventh spare part
    assert ship(st, p)["parts"] == ["flying"] * 6
    st.apply(BOARD)
    st.apply("take 2-point Cargo on board")
    assert ship(st, p)["cargo"] == ["2-point Cargo"]


# ---------------------------------------------------------------- cards in hand
def test_marco_florentina_draws_two_cards_and_keeps_four():
    # "Has a hand limit of 4 trick and boost cards and can draw 2 cards at the end of his turn."
    for pilot, kept in (("Hamish McTarn", 3), ("Marco Florentina", 4)):
        st = ready(3)
        p = mover(st)
        dashboard(st, p, "Biplane", pilot=pilot, at=FIELDS)
        deck = st.vars["deck"]
        st.vars["hand"][p - 1] = [c for c in deck if c.startswith("Second Wind")][:3]
        for c in st.vars["hand"][p - 1]:
            deck.remove(c)
        size = len(deck)
        refresh(st)
        st.apply("end the turn")
        assert len(deck) == size - (2 if pilot == "Marco Florentina" else 1)
        assert st.to_move() == [p] and texts(st)[0].startswith("discard ")
        while st.to_move() == [p] and texts(st)[0].startswith("discard "):
            st.apply(texts(st)[0])
        assert len(st.vars["hand"][p - 1]) == kept


# ---------------------------------------------------------------- repairs
def test_the_damage_repair_kit_repairs_everything_in_an_extra_phase():
    # "Once in the game when on the ground discard to gain an extra phase to perform a repair and
    # scavenge action. Remove all damage markers from the flying machine and discard them. These
    # damage markers are not counted as minus victory points at game end." (4 players, seed 0)
    st = kit_with_damage().state.clone()
    p = mover(st)
    before = dict(ship(st, p))
    assert before["gauge"] > 0 and before["scored_damage"] > 0 and before["phases"] > 0
    st.apply("use the Damage Repair Kit")
    s = ship(st, p)
    assert (s["gauge"], s["scored_damage"]) == (0, 0) and "Damage Repair Kit" not in s["equipment"]
    assert "Damage Repair Kit" in st.vars["equipment_discard"]
    assert texts(st)[-1] == "take nothing more"           # then repair and scavenge
    st.apply("take nothing more")
    s = ship(st, p)
    assert s["phases"] == before["phases"]                # the phase was an extra one
    assert "take off" in texts(st) and "use the Damage Repair Kit" not in texts(st)   # once in the game


def test_the_damage_repair_kit_needs_no_damage_only_the_ground():
    """Damage Repair Kit: "Once in the game when on the ground discard to gain an extra phase to
    perform a repair and scavenge action." Being damaged is not asked: an undamaged machine on the
    ground may spend it to scavenge in an extra phase. (Was refused without damage: quick start,
    3 players, seed 4, player 3's Helicopter.)"""
    st = game(3).new_state(seed=4)
    p = mover(st)
    s = ship(st, p)
    assert (p, s["model"], s["alt"], s["gauge"], s["scored_damage"]) == (3, "Helicopter", 0, 0, 0)
    assert "Damage Repair Kit" in s["equipment"] and s["phases"] == 2
    assert "use the Damage Repair Kit" in texts(st)
    parts = list(s["parts"])
    st.apply("use the Damage Repair Kit")
    s = ship(st, p)
    assert "Damage Repair Kit" not in s["equipment"] and "Damage Repair Kit" in st.vars["equipment_discard"]
    assert texts(st)[-1] == "take nothing more"           # the repair and scavenge action
    st.apply("take a landing spare part")
    s = ship(st, p)
    assert s["parts"] == parts + ["landing"]
    assert s["phases"] == 2                               # an extra phase: both action phases are left
    while st.to_move() == [p] and "end the phase" in texts(st):
        st.apply("end the phase")
    assert "use the Damage Repair Kit" not in texts(st)    # once in the game


def test_the_damage_repair_kit_is_not_offered_on_the_final_airfield():
    """Damage Repair Kit: "discard to gain an extra phase to perform a repair and scavenge action";
    section 11: "If a flying machine is stationery on the final airfield at the start of the player's
    turn, then the player may choose one of the following actions" (make good, speech, lesson,
    autographs), and "Players on the final airfield may continue to play trick and boost cards in the
    normal way and may also carry out final airfield actions". A finished machine takes no phase, so
    no repair and scavenge action, and the Kit gives it none: not in the turn it lands, nor after
    (4 players, seed 0: the Helicopter lands on the final airfield holding the Kit). (Was offered: 3
    players, seed 5, random play, the finished Helicopter threw away 10 damage markers.)"""
    finished = [pos for pos in kit_positions(4, 0) if mover_ship(pos.state)["finished"]]
    later = {"sign autographs" in texts(pos.state) for pos in finished}
    assert later == {False, True}                         # the turn it lands, and later turns
    for pos in finished:
        offered = texts(pos.state)
        assert "use the Damage Repair Kit" not in offered and "repair and scavenge" not in offered
        s = mover_ship(pos.state)
        assert "Damage Repair Kit" in s["equipment"] and s["gauge"] + s["scored_damage"] > 0


# ---------------------------------------------------------------- the second pilot flies alone
def two_seater_take_off_dice(pilot, pilot_2):
    """A Biplane (five take-off dice) with a Two-Seater: the dice of a take-off with ``pilot`` at the
    controls, and after the two change places on the ground."""
    st = ready(3)
    p = mover(st)
    quiet(st)
    dashboard(st, p, "Biplane", pilot=pilot, equipment=["Two-Seater"], at=FIELDS, fuel=2, pilot_2=pilot_2)
    refresh(st)
    before = rolled(until(st, ["take off"], lambda s, lines: True).lines)[0][0]
    st.apply("change pilots")
    return before, rolled(until(st, ["take off"], lambda s, lines: True).lines)[0][0]


def test_only_the_active_pilot_of_a_two_seater_counts():
    # "Can swap between pilots freely whenever on the ground. Only the abilities of the active
    # pilot can be used."
    assert two_seater_take_off_dice("Hamish McTarn", "Condesa Isabella Sanchez") == (5, 5 + 2)


# ---------------------------------------------------------------- the other actions' outcomes
def test_gaining_altitude_needs_no_test_and_the_highest_band_ignores_the_weather():
    # "Gain altitude (no test required) Move flying machine to highest altitude band on terrain
    # tile. End of this phase." "a flying machine may ignore weather conditions when taking a
    # flying test at the highest altitude band."
    st = ready(3)
    p = mover(st)
    quiet(st)
    weather(st, TOWN, "Headwind")
    dashboard(st, p, "Triplane", at=TOWN, alt=1, fuel=2)
    refresh(st)
    assert rolled(until(st, ["fly on"], lambda s, lines: True).lines)[0][2] == 3 + 2
    st.apply("gain altitude")
    s = ship(st, p)
    assert (s["alt"], s["phases"]) == (3, 1) and not rolled(logs(st))
    assert rolled(until(st, ["fly on"], lambda s, lines: True).lines)[0][2] == 3


@pytest.mark.parametrize("action", ["flying test", "trick manoeuvre"])
def test_a_plain_failure_in_the_air_costs_nothing_but_the_phase(action):
    """"Fail to perform manoeuvre. Stay in air on same space. End of this phase." (no damage marker: that
    is the catastrophic failure's column). Every such test that failed in seeded races (failures_accepted)."""
    assert [crash for _, what, _, crash in failures_accepted() if what.startswith(action)].count(False) > 0


# ---------------------------------------------------------------- boost cards in a failing test
def test_full_throttle_rolls_two_more_dice():
    # designed: "Full Throttle ... in a test: roll two more dice": played in real tests that fall short
    # (boost_positions), the dice on the table stay and two more join them
    assert dice_added("Full Throttle") == {2}


def second_wind_in_hand(st):
    """A failing test whose player may play a boost card and holds a Second Wind."""
    return "play a boost card" in texts(st) and any(c.startswith("Second Wind") for c in st.vars["hand"][mover(st) - 1])


def second_wind_rerolls():
    """Second Wind played in real failing tests (quick start, 3 players, seeds 0, 2 and 3), each under a
    few seeds of the dice: the dice of the test under way showing the symbol it needs stay as they
    were, every other die is rolled again, the symbols are counted anew, and the card is discarded.
    Returns how many times a die rolled again came up different (some must)."""
    changed = 0
    for pos in positions(game(3), second_wind_in_hand, seeds=[0, 2, 3]):
        p, before = mover(pos.state), attempt(pos.state)
        kept = [f for f in before["faces"] if shows(f, before["k"])]
        for seed in range(6):
            st = pos.state.clone()
            st.rng.seed(seed)
            st.apply("play a boost card")
            card = next(t for t in texts(st) if t.startswith("play Second Wind"))[len("play "):]
            hand = list(st.vars["hand"][p - 1])
            st.apply("play " + card)
            assert sorted(st.vars["hand"][p - 1] + [card]) == sorted(hand) and card in st.vars["discard"]
            after = attempt(st)
            if after is None:                             # passed: the test is over
                continue
            assert after["faces"][:len(kept)] == kept and len(after["faces"]) == len(before["faces"])
            assert after["got"] == sum(shows(f, after["k"]) for f in after["faces"])
            changed += after["faces"][len(kept):] != [f for f in before["faces"] if not shows(f, before["k"])]
    return changed


def test_second_wind_re_rolls_the_dice_without_a_needed_symbol():
    # designed: "Second Wind ... in a test: re-roll the dice that show no needed symbol"
    assert second_wind_rerolls() > 0


def clear_skies_plays():
    """Clear Skies in real tests that fall short (boost_positions): offered exactly when the weather
    adds symbols to the test; played, the symbols the test needs lose the weather's. Returns whether it
    was seen offered and not offered."""
    offered = set()
    for before, after, st in boosts_played("Clear Skies"):
        offered.add(st is not None)
        assert (st is not None) == (before["weather_left"] > 0)
        if after is not None:
            assert (after["need"], after["weather_left"]) == (before["need"] - before["weather_left"], 0)
    return offered


def test_clear_skies_takes_the_weather_out_of_a_test():
    # designed: "Clear Skies ... in a test: ignore the weather tile's symbols"
    assert clear_skies_plays() == {True, False}
