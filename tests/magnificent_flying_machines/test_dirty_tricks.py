"""Dirty tricks, played with real moves: in one's own turn ("play a card") each of Sabotage, Grumpy
Passenger, Siphoned Fuel and Pinched Parts changes the target machine itself, as its text says; and
a machine that a Sabotage in the reaction window leaves with two damage markers on its fuel gauge is
forced down at once, without its flying test.

The trick and boost cards' texts are not in the rulebook (designed, see the game's page); what it
says of them: "Dirty trick cards (dark-coloured frame) will impede other players." and "Players can
play dirty trick cards at any time.\""""
from __future__ import annotations

import pytest

from rulewright.interpreter.testing import logs, mover, refresh, texts

from .helpers import attempt, dashboard, maybe, next_turn, others, pinch_the_first_kind, ready, rolled, ship, \
    trick_at_each_target, until, weather


def _play(st, p, card, target):
    """Player ``p`` plays ``card`` from the hand in their own turn against player ``target``'s machine."""
    st.vars["hand"][p - 1] = [card]
    refresh(st)
    st.apply("play a card")
    st.apply("play %s" % card)
    st.apply("play %s against the %s of player %d" % (card, ship(st, target)["model"], target))
    return logs(st)


def _all_parts(st):
    """Every spare part token: the supply, the machines' holds, Sheila Dawson's card."""
    v = st.vars
    return (sum(v["parts_supply"].values()) + sum(len(s["parts"]) for s in v["ships"])
            + sum(1 for s in v["ships"] if s["sheila_part"]))


@pytest.fixture
def table():
    st = ready(3)
    p = mover(st)
    q = others(st, p)[0]
    dashboard(st, p, "Monoplane", at=2)
    target = dashboard(st, q, "Biplane", at=3, alt=1, fuel=3, pax=[2, 3],
                       parts=["flying", "landing", "landing"], inside={"takeoff": 0, "flying": 1, "landing": 2})
    return st, p, q, target


def test_sabotage_in_ones_own_turn_puts_a_damage_marker_on_the_targets_gauge():
    """Sabotage (designed: "one damage"); 8.4.2: "If a flying machine is damaged one or two damage
    markers are placed on the fuel gauge of the flying machine dashboard from right to left (full to
    empty) to indicate this. Any fuel cubes in the spaces the marker now occupies must be discarded."
    Played at every machine still racing, at real positions (quick start, 3 players, seeds 0-2); a
    machine in the air that it leaves with two markers is forced down at once (its landing test)."""
    for _, before, after, trial in trick_at_each_target("Sabotage"):
        if before["gauge"] < 2:
            assert after["gauge"] == before["gauge"] + 1
            forced = before["alt"] > 0 and after["gauge"] == 2
            if forced:                                    # landed, or taking its landing test now
                test = attempt(trial)
                assert after["alt"] == 0 or (test["k"] == "landing" and trial.vars["testing"] == after["id"])
            else:
                assert after["scored_damage"] == before["scored_damage"] and after["alt"] == before["alt"]
                assert after["fuel"] == min(before["fuel"], 4 - after["gauge"])
        else:                                             # a full gauge: the marker goes to the scoring area
            assert (after["gauge"], after["scored_damage"]) == (2, before["scored_damage"] + 1)


def test_grumpy_passenger_in_ones_own_turn_takes_a_passenger_off_the_target():
    """10.3.1: "another player may use the dirty trick card, Grumpy Passenger to force a passenger to
    disembark earlier. Should that occur the player scores no points for that passenger." Played at
    every machine carrying a passenger, at real positions (quick start, 3 players, seeds 0-2)."""
    for _, before, after, _ in trick_at_each_target("Grumpy Passenger"):
        assert len(after["pax"]) == len(before["pax"]) - 1 and after["vp"] == before["vp"]


def test_siphoned_fuel_in_ones_own_turn_takes_two_fuel_cubes_or_what_there_is():
    """Siphoned Fuel (designed: "the machine loses two fuel cubes"); a gauge with one cube loses one.
    Played at every machine with fuel, at real positions (quick start, 3 players, seeds 0-2)."""
    lost = set()
    for _, before, after, _ in trick_at_each_target("Siphoned Fuel"):
        assert after["fuel"] == before["fuel"] - min(2, before["fuel"])
        lost.add(before["fuel"] - after["fuel"])
    assert lost == {1, 2}


def test_pinched_parts_in_ones_own_turn_return_the_targets_part_to_the_supply():
    """Pinched Parts (designed: "the machine loses a spare part of the trickster's choice"). The
    rulebook has no text for the card; the part goes back to the supply, not to the trickster:
    "Dirty trick cards ... will impede other players" (they take, they do not give), and the 45 spare
    parts tokens ("45 spare parts tokens of three types") are neither made nor lost. Played at every
    machine with a part, at real positions (quick start, 3 players, seeds 0-2)."""
    for st, before, after, trial in trick_at_each_target("Pinched Parts", then=pinch_the_first_kind):
        (kind,) = [k for k in ("takeoff", "flying", "landing") if after["parts"].count(k) != before["parts"].count(k)]
        assert after["parts"].count(kind) == before["parts"].count(kind) - 1
        assert trial.vars["parts_supply"] == {**st.vars["parts_supply"], kind: st.vars["parts_supply"][kind] + 1}
        trickster = mover(st)
        assert ship(trial, trickster)["parts"] == ship(st, trickster)["parts"]      # the trickster keeps nothing
        assert _all_parts(trial) == _all_parts(st)


@pytest.mark.parametrize("where, flying_inside", [("take one from inside", 0), ("take one from outside", 1)])
def test_pinched_parts_in_the_air_the_trickster_chooses_an_inside_or_an_outside_part(where, flying_inside):
    """Pinched Parts: "you choose one of them and return it to the supply"; 8.1: "spare parts held in
    external storage slots cannot be used when the flying machine is in the air". A monoplane takes
    off with two flying and two landing parts, one flying part and both landing parts inside (its
    owner's arrangement); the next player pinches a flying part and chooses which: the inside one
    leaves the machine no flying part it can use in the air, the outside one leaves it the inside one.
    (Was: the pinch only ever took an outside part; standard race, 4 players, seed 0.)"""
    st = ready(3)
    p = mover(st)
    q = others(st, p)[0]
    for place in range(2, 12):
        weather(st, place, "Fine")
    dashboard(st, p, "Monoplane", at=2, fuel=0, parts=["flying", "landing", "flying", "landing"])
    refresh(st)
    up = until(st, ["take off"], lambda s, lines: "passes" in " ".join(lines)).state
    up.apply("carry 1 flying spare part and 2 landing spare parts inside")
    assert ship(up, p)["inside"] == {"takeoff": 0, "flying": 1, "landing": 2} and ship(up, p)["alt"] == 1
    next_turn(up)
    assert mover(up) == q
    supply = dict(up.vars["parts_supply"])
    _play(up, q, "Pinched Parts (cad)", p)
    up.apply("pinch a flying spare part")
    assert texts(up) == ["take one from inside", "take one from outside"]
    up.apply(where)
    s = ship(up, p)
    assert sorted(s["parts"]) == ["flying", "landing", "landing"]
    assert s["inside"] == {"takeoff": 0, "flying": flying_inside, "landing": 2}
    assert up.vars["parts_supply"] == {**supply, "flying": supply["flying"] + 1}


def test_pinched_parts_in_the_air_takes_the_only_kind_of_part_from_where_it_is(table):
    """With every flying part inside, the part pinched is an inside one, without a question."""
    st, p, q, target = table
    _play(st, p, "Pinched Parts (cad)", q)
    st.apply("pinch a flying spare part")
    assert not any(t.startswith("take one from") for t in texts(st))
    s = ship(st, q)
    assert sorted(s["parts"]) == ["landing", "landing"]
    assert s["inside"] == {"takeoff": 0, "flying": 0, "landing": 2}


@pytest.mark.parametrize("action", ["fly on", "perform a trick manoeuvre"])
def test_a_sabotage_in_the_window_that_fills_the_gauge_forces_the_tester_down_at_once(action):
    """8.4.2: "If a flying machine ever has two damage markers on the fuel gauge then if flying it is
    immediately forced to land"; "Players can play dirty trick cards at any time." A Sabotage played
    in the window before a flying test gives the tester its second damage marker: the flying test is
    not taken, nothing goes on in the phase ("fly on again" is never offered), and the machine takes
    its forced landing test there and then."""
    st = ready(3)
    bob = mover(st)
    paul = others(st, bob)[0]
    for place in range(2, 12):
        weather(st, place, "Fine")
    dashboard(st, bob, "Triplane", at=3, alt=2, gauge=1, fuel=2)
    st.vars["hand"][paul - 1] = ["Sabotage (flying)"]
    refresh(st)
    down = until(st, [action, lambda t: "play Sabotage (flying) against the tester" if paul in t.to_move() else None,
                      maybe("accept the failure")],
                 lambda t, lines: "lands safely" in " ".join(lines))
    lines = down.lines
    assert "the Triplane of player %d is forced down" % bob in lines
    tests = [line for line in lines if " rolls " in line]
    assert len(tests) == 1 and "dice for forced landing" in tests[0]         # no flying test
    assert rolled(lines)[0][2] == 2                                             # a landing test over Town 3
    s = ship(down, bob)
    assert (s["at"], s["alt"], s["gauge"]) == (3, 0, 2) and s["tested"]["flying"] == 0 and s["vp"] == 2
    assert "fly on again" not in texts(down) and "perform another trick manoeuvre" not in texts(down)
    assert s["phases"] == 1


def test_this_means_war_that_fills_the_tricksters_gauge_forces_it_down_at_once():
    """This Means War (designed: "answer a cad symbol or dirty trick: its player's machine takes a
    damage") and 8.4.2: "If a flying machine ever has two damage markers on the fuel gauge then if
    flying it is immediately forced to land". Paul, in the air with one damage marker, plays Sabotage
    before Bob's flying test; Bob answers with This Means War: Paul's machine lands there and then,
    in Bob's turn, and Bob's test goes on (This Means War does not cancel the Sabotage)."""
    st = ready(3)
    bob = mover(st)
    paul = others(st, bob)[0]
    for place in range(2, 12):
        weather(st, place, "Fine")
    dashboard(st, bob, "Triplane", at=3, alt=1, fuel=2)
    dashboard(st, paul, "Biplane", at=4, alt=2, gauge=1, fuel=2)
    st.vars["hand"][bob - 1] = ["This Means War (landing)"]
    st.vars["hand"][paul - 1] = ["Sabotage (flying)"]
    refresh(st)
    st.apply("fly on")
    st.apply("play Sabotage (flying) against the tester", player=paul)
    assert texts(st) == ["answer with This Means War (landing)", "let Sabotage stand"]
    war = until(st, ["answer with This Means War (landing)", maybe("accept the failure"), maybe("accept the failure")],
                lambda t, lines: "the Biplane of player %d lands safely on Water 4" % paul in lines
                and "the Triplane of player %d passes the flying test over Town 3" % bob in lines)
    lines = war.lines
    down = lines.index("the Biplane of player %d is forced down" % paul)
    tests = [i for i, line in enumerate(lines) if " rolls " in line]
    assert "dice for forced landing" in lines[tests[0]] and tests[0] > down
    assert "dice for flying test over Town 3" in lines[tests[1]]            # Bob's test, after the landing
    p, b = ship(war, paul), ship(war, bob)
    assert (p["at"], p["alt"], p["gauge"], p["vp"]) == (4, 0, 2, 3)         # first to land on Water 4
    assert (b["gauge"], b["at"]) == (1, 4) and war.vars["current"] == b["id"]
