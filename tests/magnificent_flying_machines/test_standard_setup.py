"""The standard set-up's special equipment (6.9), played with real moves: every machine ends with
exactly its slots' worth of cards and the picking stops there; a Two-Seater's second pilot stays on
the machine; the equipment picked is the machine's own, so the middle airfield offers the swap."""
from __future__ import annotations

import pytest

from rulewright.interpreter.testing import logs, mover, refresh, texts

from .helpers import game, maybe, set_up, ship, until, weather

EQUIPMENT_CARDS = 24


def _picks(st, made):
    """The special equipment picked in the set-up, as (player, card), in order."""
    names = set(st.game.tables["equipment"])
    return [(p, m[len("take "):]) for p, m in made if m.startswith("take ") and m[len("take "):] in names]


@pytest.mark.parametrize("players, race, seed", [(3, "standard", 1), (4, "long", 2), (5, "random", 3),
                                                 (6, "standard", 4), (2, "standard", 5)])
def test_every_machine_ends_with_exactly_its_slots_of_equipment(players, race, seed):
    """6.9: "each player then takes one of the face up cards and places it into a spare special
    equipment slot in their flying machine dashboard and replaces it with a card from the top of the
    draw deck. ... If any players still have an empty special equipment slot then this continues for
    one more round with those players each selecting a final piece of equipment." (12.2, two players:
    "the player can choose to place it into an empty special equipment slot on either of the two
    flying machines".)"""
    st = game(players, race=race).new_state(seed=seed)
    picks = _picks(st, set_up(st))
    slots = st.game.columns["slots"]
    ships = st.vars["ships"]
    for s in ships:
        assert len(s["equipment"]) == slots[s["model"]], s
        for e in s["equipment"]:
            assert s["charges"][e] == st.game.columns["charges"][e]
        assert (s["pilot_2"] is not None) == ("Two-Seater" in s["equipment"])
    # the picking stopped when the slots were full: one pick a slot, not the 24 cards
    assert len(picks) == sum(slots[s["model"]] for s in ships) < EQUIPMENT_CARDS
    for p in range(1, players + 1):
        mine = [e for s in ships if s["owner"] == p for e in s["equipment"]]
        assert sorted(e for q, e in picks if q == p) == sorted(mine)
    # every card is somewhere, once: the row (refilled to six), the deck, the machines
    placed = [e for s in ships for e in s["equipment"]]
    v = st.vars
    assert len(v["equipment_row"]) == 6
    assert len(placed) + len(v["equipment_row"]) + len(v["equipment_deck"]) == EQUIPMENT_CARDS
    assert not set(placed) & set(v["equipment_row"] + v["equipment_deck"])
    # one card a player a round: nobody takes a third card before every machine has two
    if players > 2:
        owner_slots = {s["owner"]: slots[s["model"]] for s in ships}
        first_two_rounds = picks[:2 * players]
        assert sorted(q for q, _ in first_two_rounds) == sorted(list(range(1, players + 1)) * 2)
        assert sorted(q for q, _ in picks[2 * players:]) == sorted(q for q, n in owner_slots.items() if n == 3)


def test_a_two_seater_picked_in_the_set_up_keeps_its_second_pilot():
    """Two-Seater: "Choose an additional pilot from the top 6 cards of the pilot deck. Can swap between
    pilots freely whenever on the ground. ... NB neither Jan Van Der Vall (the Chauffeur) nor Jing Li
    (the Courier) can fly in a two seater." Player 1 takes the Two-Seater in the first round."""
    st = game(3, race="standard").new_state(seed=1)
    while "take Two-Seater" not in texts(st):
        st.apply(texts(st)[0])
    (picker,) = st.to_move()
    st.apply("take Two-Seater")
    row = list(st.vars["pilot_row"])
    offered = texts(st)
    assert "Jing Li" in row and "take Jing Li as second pilot" not in offered
    assert offered == ["take %s as second pilot" % x for x in row if x not in ("Jing Li", "Jan Van der Vall")]
    second = offered[0][len("take "):-len(" as second pilot")]
    st.apply(offered[0])
    set_up(st)
    s = ship(st, picker)
    assert "Two-Seater" in s["equipment"] and s["pilot_2"] == second
    assert second not in st.vars["pilot_row"] and len(st.vars["pilot_row"]) == 6
    assert second in s["charges"]
    # on the ground in its turn, the pilots swap
    while mover(st) != picker or st.vars["ships"][st.vars["current"] - 1]["owner"] != picker:
        st.apply("end the turn" if "end the turn" in texts(st) else texts(st)[0])
    first = s["pilot"]
    assert "change pilots" in texts(st)
    st.apply("change pilots")
    assert (ship(st, picker)["pilot"], ship(st, picker)["pilot_2"]) == (second, first)


def test_the_middle_airfield_offers_to_swap_the_equipment_picked_in_the_set_up():
    """10.1: "When landing on the middle airfield a player may replace one or more equipment cards with
    any one of the six face up equipment cards by the side of the racecourse. ... Replace equipment
    cards chosen with cards from the draw deck." 6.9: "Leave the row of six face up special equipment
    cards and the draw deck available as players will have the opportunity to change special
    equipment when landing on the middle airfield"."""
    st = game(3, race="standard").new_state(seed=1)
    set_up(st)
    p = mover(st)
    s = ship(st, p)
    picked = list(s["equipment"])
    assert picked
    for q in range(3):                           # nobody reacts to the landing test
        st.vars["deck"].extend(st.vars["hand"][q])
        st.vars["hand"][q] = []
    middle = st.vars["course"].index("Middle Airfield") + 1
    for place in range(2, len(st.vars["course"]) + 1):
        weather(st, place, "Fine")
    s.update(at=middle, alt=1, gauge=0)
    refresh(st)
    assert "swap equipment at the middle airfield" not in texts(st)        # in the air
    landed = until(st, ["land", maybe("accept the failure")], lambda t, lines: "lands safely" in " ".join(lines))
    assert "swap equipment at the middle airfield" in texts(landed)
    old, fresh = picked[0], landed.vars["equipment_row"][0]
    deck_top = len(landed.vars["equipment_deck"])
    landed.apply("swap equipment at the middle airfield")
    landed.apply("give up %s" % old)
    landed.apply("take %s" % fresh)
    s = ship(landed, p)
    assert old not in s["equipment"] and fresh in s["equipment"] and len(s["equipment"]) == len(picked)
    assert old in landed.vars["equipment_discard"]
    assert len(landed.vars["equipment_row"]) == 6 and len(landed.vars["equipment_deck"]) == deck_top - 1
    assert any("swaps %s for %s" % (old, fresh) in line for line in logs(landed))


def _to_loading(st):
    """Plays the set-up's first legal moves up to the first machine's loading up (6.11)."""
    while "load nothing more" not in texts(st):
        (p,) = st.to_move()
        st.apply(texts(st, p)[0], player=p)
    return st


def test_loading_up_the_player_chooses_what_to_take_within_capacity():
    """6.11: "For each flying machine give out one passenger together with two takeoff, two flying and
    two landing spare parts. Shuffle the three water and three mountain special cargo tokens set aside
    previously and deal one for each flying machine. Return any surplus special cargo tokens to the
    box. The player chooses as many of these as they wish provided they have capacity in their flying
    machines to store them." (Was: the passenger, then the parts in a fixed order until the hold was
    full, the cargo asked about only if room was left.)"""
    st = _to_loading(game(4, race="standard").new_state(seed=0))
    v = st.vars
    supply, passengers = dict(v["parts_supply"]), v["passengers_left"]
    first = ship(st, 1)
    # the Biplane: 4 internal and 2 external slots, and a Passenger Seat
    assert (first["model"], "Passenger Seat" in first["equipment"]) == ("Biplane", True)
    assert mover(st) == 1 and (first["pax"], first["parts"], first["cargo"]) == ([], [], [])
    assert "the Biplane of player 1 is offered Mountain Cargo" in logs(st)
    assert texts(st) == ["take the passenger on board", "take a takeoff spare part", "take a flying spare part",
                         "take a landing spare part", "take the special cargo on board", "load nothing more"]
    # the cargo first, then both landing parts, skipping the takeoff parts
    st.apply("take the special cargo on board")
    st.apply("take a landing spare part")
    st.apply("take a landing spare part")
    assert "take a landing spare part" not in texts(st)          # two of each kind are given out
    st.apply("take the passenger on board")
    # 3 of the 6 slots hold parts and cargo (the passenger sits in the seat): 3 more fit
    assert texts(st) == ["take a takeoff spare part", "take a flying spare part", "load nothing more"]
    st.apply("take a flying spare part")
    st.apply("load nothing more")
    first = ship(st, 1)
    assert (first["pax"], sorted(first["parts"]), first["cargo"]) == ([1], ["flying", "landing", "landing"],
                                                                      ["Mountain Cargo"])
    assert v["passengers_left"] == passengers - 1
    assert v["parts_supply"] == {**supply, "flying": supply["flying"] - 1, "landing": supply["landing"] - 2}
    # the next machine declines everything: its cargo goes back to the box, its hold stays empty
    assert mover(st) == 2
    st.apply("load nothing more")
    second = ship(st, 2)
    assert (second["pax"], second["parts"], second["cargo"]) == ([], [], [])
    assert v["cargo_box"] == ["Water Cargo"]
    # the third takes what is offered first until nothing more fits: it is not asked again then,
    # though not all 8 items (passenger, 6 parts, cargo) went on board
    assert mover(st) == 3
    while mover(st) == 3 and "load nothing more" in texts(st):
        st.apply(texts(st)[0])
    assert mover(st) == 4
    third = ship(st, 3)
    assert 0 < len(third["pax"]) + len(third["parts"]) + len(third["cargo"]) < 8
