"""Air Show, rule by rule: each test puts the game where the rule applies (fleets, money, hands, the
auction's cards, the top of the air show deck), plays the real decisions by their move texts, and
checks what the rulebook's phases say must happen.

The cards' values and the weather and stress tables are designed by the rules file (the rulebook's
text has none); the few a test needs are written out here, next to the test."""
from __future__ import annotations

import pytest

from rulewright.interpreter.testing import assert_invariants, logs, mover, play, texts

from .helpers import at_step, drive, face_down, game, plane, ready

SHOW_CARDS = [f"AS{i:02d}" for i in range(1, 41)]


# ---------------------------------------------------------------- helpers
def order(st):
    """The seats from the first player on, as the phases go round."""
    n = st.game.player_count
    fp = st.vars["first_player"]
    return [(fp - 1 + k) % n + 1 for k in range(n)]


def set_fleet(st, p, *planes):
    """Player ``p``'s planes: names, or (name, damage) pairs."""
    st.vars["fleet"][p - 1] = [plane(c, p) if isinstance(c, str) else plane(c[0], p, c[1]) for c in planes]


def damage(st, p):
    return {a["card"]: a["damage"] for a in st.vars["fleet"][p - 1]}


def auction(st, planes, event="Spare Parts"):
    """The auction's cards replaced by ``planes`` (undamaged) and ``event``; the bid asked again."""
    v = st.vars
    for c in planes:
        if c in v["planes_deck"]:
            v["planes_deck"].remove(c)
    v["display"] = [{"card": c, "owner": None, "damage": 0, "entered": False, "unveiled": True} for c in planes]
    v["lots"] = [{"plane_card": c, "event_card": None, "bids": []} for c in planes]
    v["lots"].append({"plane_card": None, "event_card": event, "bids": []})
    st.ask_again()


def bid(st, value, lot):
    """The player to move places a token of ``value`` below ``lot`` (a plane, or 'the event X')."""
    play(st, f"bid on {lot}", f"bid {value} on {lot}")


def bids(st, rounds):
    """Three rounds of bids, each a list of (value, lot) in turn order from the first player."""
    for r in rounds:
        for value, lot in r:
            bid(st, value, lot)


def deal(st, hands, master=None):
    """Every air show card in one place: ``hands`` ({player: cards}) given, the other players' hands
    filled to five, ``master`` on top of the draw pile (the next card drawn), the discards empty."""
    v = st.vars
    used = [c for h in hands.values() for c in h] + ([master] if master else [])
    rest = [c for c in SHOW_CARDS if c not in used]
    for p in range(1, st.game.player_count + 1):
        if p in hands:
            v["hand"][p - 1] = list(hands[p])
        else:
            v["hand"][p - 1], rest = rest[:5], rest[5:]
    v["show_deck"] = rest + ([master] if master else [])
    v["show_discard"] = []


def placed(st, card):
    """How many copies of a plane card are in the decks, the display and the fleets."""
    v = st.vars
    cards = v["planes_deck"] + [x["card"] for x in v["display"]] + [x["card"] for f in v["fleet"] for x in f]
    return cards.count(card)


def after_auction(players=4, seed=1):
    """Past the first auction (everyone bids on the event): the first player's development token is
    asked; nobody holds an event."""
    st = at_step(ready(players, seed), "buy development token")
    st.vars["held_events"] = [[] for _ in range(players)]
    logs(st)
    return st


# ---------------------------------------------------------------- 1. determine first player
def test_the_first_turn_keeps_the_random_starting_player():
    st = game(4).new_state(seed=1)
    start = st.vars["first_player"]
    # at the setup's last choice of a grey plane, one player is left with no plane at all
    drive(st, lambda s: sum(len(f) for f in s.vars["fleet"]) == 7)
    fewest = start % 4 + 1
    st.vars["fleet"][fewest - 1] = []
    drive(st, lambda s: s.step == "auction bidding")
    assert st.vars["first_player"] == start and mover(st) == start      # the first turn skips it
    assert not any(line.endswith("is the first player") for line in logs(st))
    drive(st, lambda s: s.step == "auction bidding" and s.vars["round_number"] == 2)
    assert st.vars["first_player"] == fewest and mover(st) == fewest
    assert f"player {fewest} is the first player" in logs(st)


@pytest.mark.parametrize("planes, previous, first", [
    ((3, 2, 3, 2), 4, 2),      # 2 and 4 tied: to the right of 4 come 3, then 2
    ((2, 3, 3, 2), 4, 1),      # 1 and 4 tied: 3, 2, then 1, before 4 itself
    ((2, 3, 3, 2), 2, 1),      # to the right of 2: 1
    ((3, 3, 3, 2), 4, 4),      # the previous first player, alone with the fewest planes
    ((2, 2, 2, 2), 1, 4),      # all tied: the player to the right of 1 is 4
    ((2, 3, 1, 2), 4, 3),      # no tie: the fewest planes
])
def test_first_player_has_the_fewest_planes_ties_to_the_right(planes, previous, first):
    st = ready(4)
    fillers = ["Wright Flyer", "Bleriot XI", "Curtiss Pusher"]
    for p, n in enumerate(planes, start=1):
        set_fleet(st, p, *fillers[:n])
    st.vars["first_player"] = previous
    drive(st, lambda s: s.step == "auction bidding" and s.vars["round_number"] == 2)
    assert st.vars["first_player"] == first
    assert mover(st) == first


# ---------------------------------------------------------------- 2-3. auction
def test_planes_go_up_with_the_breakdown_markers_of_a_drawn_card_and_keep_them():
    st = game(4).new_state(seed=1)
    drive(st, lambda s: s.step == "auction bidding")
    lines = logs(st)
    v = st.vars
    assert len(v["display"]) == 4 and len(v["lots"]) == 5 and v["lots"][-1]["event_card"] is not None
    # one air show card drawn for each plane: its breakdown markers go on the plane, the card to the discards
    markers = [line.split() for line in lines if line.startswith("air show card ")]
    assert len(markers) == 4
    for a, m in zip(v["display"], markers):
        assert " ".join(m[5:-3]) == a["card"] and int(m[-3]) == a["damage"]
    assert v["show_discard"] == [m[3] for m in markers]
    assert len(v["show_deck"]) == 40 - 4 * 5 - 4
    a, b, c, d = order(st)
    v["display"][0]["damage"] = 2
    st.ask_again()
    first = v["display"][0]["card"]
    ev = "the event " + v["lots"][-1]["event_card"]
    bids(st, [[(3, first), (0, ev), (0, ev), (0, ev)]] + [[(1, ev)] * 4] * 2)
    assert v["fleet"][a - 1][-1] == {"card": first, "owner": a, "damage": 2, "entered": False, "unveiled": True}


# ---------------------------------------------------------------- 4. development tokens
def test_one_token_of_each_type_and_its_price():
    st = after_auction()
    p = mover(st)
    v = st.vars
    v["developments"][p - 1] = ["Workshop", "Press Office"]
    v["money"][p - 1], v["prestige"][p - 1] = 100, 20
    st.ask_again()
    assert texts(st) == ["build Museum for 12K and 4P", "build Stands for 15K", "build Maintenance Crew for 10K",
                         "build Control Tower for 8K and 3P", "build Air Show Staff for 5P", "build nothing"]
    play(st, "build Museum for 12K and 4P")
    assert v["money"][p - 1] == 88 and v["prestige"][p - 1] == 16
    assert v["developments"][p - 1] == ["Workshop", "Press Office", "Museum"]
    assert v["stock"]["Museum"] == 1
    assert f"player {p} builds Museum (3 on the airfield)" in logs(st)


@pytest.mark.parametrize("money, prestige, offered", [
    (40, 0, ["build Stands for 15K", "build Workshop for 8K", "build Maintenance Crew for 10K"]),
    (7, 5, ["build Air Show Staff for 5P"]),
    (8, 2, ["build Workshop for 8K"]),
    (8, 3, ["build Workshop for 8K", "build Control Tower for 8K and 3P"]),
    (0, 6, ["build Press Office for 6P", "build Air Show Staff for 5P"]),
])
def test_a_token_is_offered_only_when_its_flags_are_there(money, prestige, offered):
    st = after_auction()
    p = mover(st)
    st.vars["money"][p - 1], st.vars["prestige"][p - 1] = money, prestige
    st.ask_again()
    assert texts(st) == offered + ["build nothing"]


def test_an_empty_stack_is_not_offered():
    st = after_auction()
    p = mover(st)
    st.vars["money"][p - 1], st.vars["prestige"][p - 1] = 100, 20
    st.vars["stock"]["Stands"] = 0
    st.ask_again()
    assert "build Stands for 15K" not in texts(st) and "build Workshop for 8K" in texts(st)


PLANES = ["Wright Flyer", "Voisin-Farman I", "Bleriot XI", "Curtiss Pusher", "Deperdussin Monocoque",
          "Sopwith Tabloid", "Bristol F.2 Fighter", "Albatros D.V", "S.E.5a", "Avro 504K", "Fokker D.VII",
          "Lockheed Vega", "Waco 10", "Dewoitine D.27", "Supermarine S.6", "Bucker Jungmann"]


@pytest.mark.parametrize("planes, hangars, offered", [
    (7, 0, False), (8, 0, True), (14, 1, False), (15, 1, True)])
def test_the_hangar_is_offered_only_when_the_planes_need_it(planes, hangars, offered):
    assert hangar_offered(planes, hangars) == offered


def hangar_offered(planes: int, hangars: int) -> bool:
    """Whether a player with this many planes and Hangar tokens is offered one more (phase 5)."""
    st = after_auction()
    p = mover(st)
    set_fleet(st, p, *PLANES[:planes])
    st.vars["developments"][p - 1] = ["Hangar"] * hangars
    st.ask_again()
    return "build Hangar for 10K" in texts(st)


def test_the_fifth_token_ends_the_game_at_the_end_of_the_turn():
    st = after_auction()
    p = mover(st)
    v = st.vars
    v["developments"][p - 1] = ["Workshop", "Stands", "Museum", "Press Office"]
    v["money"][p - 1], v["prestige"][p - 1] = 50, 10
    set_fleet(st, p, "Wright Flyer", "Sopwith Pup", "Ford Trimotor")
    st.ask_again()
    four = st.clone()
    play(four, "build nothing")
    at_step(four, "auction bidding", round_number=2)            # four tokens: the game goes on
    play(st, "build Control Tower for 8K and 3P")
    assert f"player {p} builds Control Tower (5 on the airfield)" in logs(st)
    steps = set()
    drive(st, lambda s: steps.add(s.step) or s.is_over())
    # the rest of the turn is played (the planes are still asked for the show), then the game ends
    assert "air show preparation" in steps and v["round_number"] == 1
    out = st.outcome()
    assert out is not None
    lines = logs(st)
    for q in range(1, 5):
        assert any(line.startswith(f"player {q} scores {v['score'][q - 1]}:") for line in lines)
        assert out.scores[q] == v["score"][q - 1]
    # the scoring booklet, as the rules file designs it: prestige, the tokens' points, a point for each
    # A1-A2 plane with the Museum and for each undamaged plane, one a 10K
    # A1-A2 plane with the Museum (Wright Flyer, Sopwith Pup) and for each undamaged plane (all three)
    assert v["score"][p - 1] == v["prestige"][p - 1] + (4 + 3 + 2 + 2 + 2) + 2 + 3 + v["money"][p - 1] // 10
    assert out.winners == [p]


# ---------------------------------------------------------------- 5. hangar space
def to_hangar_check(st):
    drive(st, lambda s: s.step == "check hangar space")
    return mover(st)


@pytest.mark.parametrize("play_it", [True, False])
def test_an_event_held_to_the_end_may_still_repair_before_the_final_scoring(play_it):
    """Phase 3: "The bought event card can be played immediately or saved to be played later at any
    time." Final scoring (designed) gives a point for each undamaged plane, so the last moment a
    repair counts is after the last turn, before the scoring: a player holding an event and a damaged
    plane is asked then. Here the fifth token ends the game; the player kept the event through the
    repairs phase and plays it (or not) at the end."""
    st = after_auction()
    p = mover(st)
    v = st.vars
    v["developments"][p - 1] = ["Workshop", "Stands", "Press Office", "Control Tower"]
    set_fleet(st, p, "Wright Flyer", ("Sopwith Pup", 1))
    v["held_events"][p - 1] = ["Mechanics' Overtime"]
    v["money"][p - 1], v["prestige"][p - 1] = 50, 10
    st.ask_again()
    play(st, "build Museum for 12K and 4P")
    drive(st, lambda s: s.step == "end of turn" and s.to_move() == [p])
    assert texts(st) == ["play an event", "stop repairing"] and damage(st, p)["Sopwith Pup"] == 1
    if play_it:
        play(st, "play an event", "play Mechanics' Overtime", "repair a plane", "repair Sopwith Pup")
    else:
        play(st, "stop repairing")
    assert st.is_over()
    assert damage(st, p)["Sopwith Pup"] == (0 if play_it else 1)
    assert v["held_events"][p - 1] == ([] if play_it else ["Mechanics' Overtime"])
    museum = 2                                                  # the Wright Flyer (A1) and the Pup (A2)
    undamaged = 2 if play_it else 1
    assert v["score"][p - 1] == v["prestige"][p - 1] + (2 + 3 + 2 + 2 + 4) + museum + undamaged + v["money"][p - 1] // 10


def test_a_hangar_bought_as_sixth_token_covers_the_printed_hangar():
    st = after_auction()
    p = mover(st)
    v = st.vars
    set_fleet(st, p, *PLANES[:8])
    v["developments"][p - 1] = ["Workshop", "Stands", "Museum", "Press Office"]
    for built in v["developments"][p - 1]:
        v["stock"][built] -= 1                                   # taken from their stacks
    v["money"][p - 1], v["prestige"][p - 1] = 50, 10
    st.ask_again()
    assert "build Hangar for 10K" in texts(st)
    play(st, "build Control Tower for 8K and 3P")
    assert to_hangar_check(st) == p
    assert texts(st) == ["buy a hangar", "sell a plane"]
    play(st, "buy a hangar")
    assert len(v["developments"][p - 1]) == 6 and v["money"][p - 1] == 32
    assert_invariants(st)                     # the sixth token is a Hangar: the airfield's invariant holds
    assert f"player {p}'s hangar covers the printed hangar space" in logs(st)
    assert len(v["fleet"][p - 1]) == 8                            # two hangars: the eight planes fit
    drive(st, lambda s: s.is_over())
    assert v["round_number"] == 1


def test_a_fifth_hangar_token_covers_nothing():
    st = after_auction()
    p = mover(st)
    v = st.vars
    set_fleet(st, p, *PLANES[:8])
    v["developments"][p - 1] = ["Workshop", "Stands", "Museum"]
    v["money"][p - 1] = 50
    st.ask_again()
    play(st, "build nothing")
    assert to_hangar_check(st) == p
    play(st, "buy a hangar")
    assert not any("covers" in line for line in logs(st))


# ---------------------------------------------------------------- 6. repairs
def test_repairs_from_tokens_and_events_are_spread_as_the_player_likes():
    st = after_auction()
    p = mover(st)
    v = st.vars
    set_fleet(st, p, ("Sopwith Camel", 2), ("Sopwith Pup", 2), "Fokker Eindecker")
    v["developments"][p - 1] = ["Workshop", "Maintenance Crew"]        # 1 + 2 green spanners
    at_step(st, "repairs")
    v["held_events"][p - 1] = ["Spare Parts"]
    st.ask_again()
    assert mover(st) == p
    assert texts(st) == ["repair a plane", "play an event", "stop repairing"]
    play(st, "repair a plane")
    assert texts(st) == ["repair Sopwith Camel", "repair Sopwith Pup"]     # damaged planes only
    play(st, "repair Sopwith Camel", "repair a plane", "repair Sopwith Camel")
    play(st, "repair a plane")
    assert texts(st) == ["repair Sopwith Pup"]
    play(st, "repair Sopwith Pup")
    assert damage(st, p) == {"Sopwith Camel": 0, "Sopwith Pup": 1, "Fokker Eindecker": 0}
    assert texts(st) == ["play an event", "stop repairing"]             # the three spanners are used
    play(st, "play an event")
    assert texts(st) == ["play Spare Parts"]
    play(st, "play Spare Parts", "repair a plane", "repair Sopwith Pup")
    assert damage(st, p) == {"Sopwith Camel": 0, "Sopwith Pup": 0, "Fokker Eindecker": 0}
    assert v["held_events"][p - 1] == [] and "Spare Parts" in v["event_discard"]
    assert f"player {p} plays Spare Parts (1 repair)" in logs(st)
    assert st.step != "repairs" or mover(st) != p


def test_unused_repairs_are_lost():
    st = after_auction()
    p = mover(st)
    v = st.vars
    set_fleet(st, p, ("Sopwith Camel", 1))
    v["developments"][p - 1] = ["Workshop"]
    at_step(st, "repairs")
    v["held_events"][p - 1] = ["Factory Overhaul"]
    st.ask_again()
    play(st, "play an event", "play Factory Overhaul", "repair a plane", "repair Sopwith Camel")
    # 1 + 3 repairs, one used: nothing is left to repair, the other three are lost
    assert damage(st, p) == {"Sopwith Camel": 0} and st.step != "repairs"
    at_step(st, "buy development token", round_number=2)
    v["held_events"] = [[] for _ in range(4)]
    set_fleet(st, p, ("Sopwith Camel", 3))
    st.ask_again()
    at_step(st, "repairs")
    assert mover(st) == p
    play(st, "repair a plane", "repair Sopwith Camel")
    # the Workshop's one repair this turn, and no more
    assert st.step != "repairs" and damage(st, p) == {"Sopwith Camel": 2}


def test_stopping_early_keeps_nothing_for_later():
    st = after_auction()
    p = mover(st)
    v = st.vars
    set_fleet(st, p, ("Sopwith Camel", 2), ("Sopwith Pup", 3))
    v["developments"][p - 1] = ["Maintenance Crew"]
    at_step(st, "repairs")
    play(st, "repair a plane", "repair Sopwith Pup", "stop repairing")
    assert damage(st, p) == {"Sopwith Camel": 2, "Sopwith Pup": 2}
    at_step(st, "repairs", round_number=2)
    v["held_events"][p - 1] = []
    st.ask_again()
    play(st, "repair a plane", "repair Sopwith Camel", "repair a plane", "repair Sopwith Camel")
    assert damage(st, p) == {"Sopwith Camel": 0, "Sopwith Pup": 2}
    assert st.step != "repairs" or mover(st) != p                 # two spanners, the third not kept


# ---------------------------------------------------------------- 7. air show cards
def test_hands_are_filled_to_five_or_seven_and_the_staff_swap_three():
    st = after_auction()
    a, b, c, d = order(st)
    v = st.vars
    v["developments"][b - 1] = ["Control Tower"]
    v["developments"][c - 1] = ["Air Show Staff"]
    deal(st, {a: ["AS01", "AS02"], b: ["AS03", "AS04", "AS05"], c: ["AS06", "AS07", "AS08", "AS09", "AS10"]})
    deck = list(v["show_deck"])
    top = deck[::-1]                                   # the draw pile's top is its last card
    st.ask_again()
    at_step(st, "air show cards")
    assert mover(st) == c
    assert v["hand"][a - 1] == ["AS01", "AS02"] + top[:3]
    assert v["hand"][b - 1] == ["AS03", "AS04", "AS05"] + top[3:7]
    assert texts(st) == ["swap three air show cards", "keep the hand"]
    play(st, "swap three air show cards")
    assert texts(st) == ["discard AS06", "discard AS07", "discard AS08", "discard AS09", "discard AS10"]
    play(st, "discard AS07", "discard AS06", "discard AS10")
    assert v["show_discard"] == ["AS07", "AS06", "AS10"]          # face up
    assert v["hand"][c - 1] == ["AS08", "AS09"] + top[7:10]
    assert len(v["hand"][d - 1]) == 5
    lines = logs(st)
    assert f"player {c} discards AS07" in lines and f"player {c} discards AS10" in lines
    assert st.step == "air show preparation"


# ---------------------------------------------------------------- 8. preparation and performance
def show_time(fleet, hand, master, seed=1):
    """The first player alone with planes (``fleet``), holding ``hand``, ``master`` on top of the air
    show deck; the game at that player's first decision of the preparation."""
    st = after_auction(seed=seed)
    p = st.vars["first_player"]
    for q in range(1, 5):
        st.vars["fleet"][q - 1] = []
    set_fleet(st, p, *fleet)
    deal(st, {p: hand}, master)
    st.ask_again()
    at_step(st, "air show preparation")
    assert mover(st) == p
    logs(st)
    return st, p


def prepare(st, p, shown, cards=None):
    """Show the planes in ``shown`` (keep the others) and put ``cards`` ({period: card}) on the groups."""
    cards = cards or {}
    while st.step == "air show preparation" and st.to_move() == [p]:
        t = texts(st)
        if t[0].startswith(("show ", "keep ")):
            card = t[0].split(" ", 1)[1]
            play(st, f"show {card}" if card in shown else f"keep {card}")
        else:
            period = t[-1].rsplit(" ", 1)[1]
            play(st, f"play {cards[period]} on {period}" if period in cards else f"no card on {period}")


def rewards(st, p, choose=None):
    """Take the rewards period by period (prestige unless ``choose`` says otherwise); the periods
    offered, in order."""
    choose = choose or {}
    offered = []
    while not st.is_over() and st.step == "air show results" and st.to_move() == [p] \
            and texts(st)[0].startswith("take "):
        period = texts(st)[0].rsplit(" ", 1)[1]
        offered.append(period)
        play(st, f"take {choose.get(period, 'prestige')} for {period}")
    return offered


def test_only_undamaged_planes_are_offered_and_one_card_a_group():
    fleet = ["Wright Flyer", ("Sopwith Pup", 1), "Fokker Eindecker", ("Ford Trimotor", 2), "Hawker Fury"]
    st, p = show_time(fleet, ["AS01", "AS02", "AS03", "AS04", "AS05"], "AS15")
    assert texts(st) == ["show Wright Flyer", "keep Wright Flyer"]
    play(st, "show Wright Flyer")
    assert texts(st) == ["show Fokker Eindecker", "keep Fokker Eindecker"]      # the damaged Pup is not asked
    play(st, "show Fokker Eindecker")
    assert texts(st) == ["show Hawker Fury", "keep Hawker Fury"]
    play(st, "keep Hawker Fury")
    assert texts(st) == [f"play AS0{i} on A1" for i in range(1, 6)] + ["no card on A1"]
    play(st, "play AS01 on A1")
    assert texts(st) == [f"play AS0{i} on A2" for i in range(2, 6)] + ["no card on A2"]   # AS01 is on A1
    play(st, "play AS03 on A2")
    # A3 has only a damaged plane: no group; A4's plane stays home: no card on it
    assert texts(st) == ["no card on A4"]
    play(st, "no card on A4")
    assert st.step != "air show preparation"
    assert st.vars["hand"][p - 1] == ["AS02", "AS04", "AS05"]
    assert [a["entered"] for a in st.vars["fleet"][p - 1]] == [True, False, True, False, False]


SIX = ["Wright Flyer", "Sopwith Pup", "Ford Trimotor", "Hawker Fury", "Piper J-3 Cub", "Pitts Special"]
FILL = ["AS09", "AS11", "AS15", "AS16", "AS17"]      # cards left in hand


@pytest.mark.parametrize("cards, master, weather, stress, flying", [
    # bad 2 + bad 3 - sunny 2, master bad 2: A1 (from 1), A2 (from 3), A3 (from 5) stay on the ground
    ({"A1": "AS02", "A2": "AS06", "A3": "AS13"}, "AS28", 5, 0, ["A4", "A5", "A6"]),
    # the same cards, master sunny 3: everything flies
    ({"A1": "AS02", "A2": "AS06", "A3": "AS13"}, "AS03", 0, -2, ["A1", "A2", "A3", "A4", "A5", "A6"]),
    # no card, master bad 3: A1 and A2 are grounded
    ({}, "AS36", 3, 3, ["A3", "A4", "A5", "A6"]),
    # master sunny 2 against bad 1: weather -1
    ({"A6": "AS14"}, "AS05", -1, -1, ["A1", "A2", "A3", "A4", "A5", "A6"]),
    # bad 3 + bad 3 + master bad 2: 8, A4 grounded (from 7), A5 flies (from 9)
    ({"A4": "AS06", "A5": "AS24"}, "AS26", 8, 3, ["A5", "A6"]),
])
def test_the_weather_total_and_the_periods_it_grounds(cards, master, weather, stress, flying):
    hand = list(cards.values()) + FILL[:5 - len(cards)]
    st, p = show_time(SIX, hand, master)
    prepare(st, p, SIX, cards)
    assert st.vars["master"] == master
    lines = logs(st)
    assert f"player {p} turns over the master card {master}" in lines
    assert f"player {p}: weather {weather}, mechanical stress {stress}" in lines
    assert rewards(st, p) == flying


@pytest.mark.parametrize("fleet, cards, master, stress, level", [
    (["Wright Flyer"], {}, "AS32", 1, 1),                           # master red 1
    (["Wright Flyer"], {"A1": "AS22"}, "AS28", 2, 1),               # red 3, master green 1
    (["Wright Flyer"], {"A1": "AS22"}, "AS26", 4, 1),
    (["Wright Flyer"], {"A1": "AS22"}, "AS01", 5, 2),
    (["Wright Flyer", "Sopwith Pup"], {"A1": "AS22", "A2": "AS34"}, "AS01", 7, 3),
    (["Wright Flyer"], {"A1": "AS22"}, "AS18", 0, 0),               # master green 3
    (["Wright Flyer"], {"A1": "AS33"}, "AS32", -2, 0),              # green 3, master red 1
    (["Sopwith Pup"], {}, "AS07", 1, 0),                            # an A2 plane at 1
    (["Sopwith Pup"], {"A2": "AS22"}, "AS07", 4, 1),
    (["Pitts Special"], {"A6": "AS22"}, "AS36", 6, 0),              # an A6 plane only breaks from 7
    (["Pitts Special"], {"A6": "AS04"}, "AS36", 6, 0),
    (["Pitts Special", "Piper J-3 Cub"], {"A6": "AS04", "A5": "AS22"}, "AS14", 7, 1),
])
def test_the_breakdown_level_of_the_stress_table(fleet, cards, master, stress, level):
    hand = list(cards.values()) + FILL[:5 - len(cards)]
    st, p = show_time(fleet, hand, master)
    prepare(st, p, fleet, cards)
    lines = logs(st)
    assert any(line.startswith(f"player {p}: weather ") and line.endswith(f"mechanical stress {stress}")
               for line in lines)
    assert sum(damage(st, p).values()) == level
    assert any("breakdown level" in line for line in lines) == (level > 0)


def breakdown_with_an_event():
    # master AS39: sunny 2, red 1, left A2; AS22 on A2: bad 1, red 3. Weather -1, stress 4: the
    # Eindecker (A2) takes 1 level. The damaged Camel stays home.
    fleet = ["Wright Flyer", "Fokker Eindecker", ("Sopwith Camel", 1)]
    st, p = show_time(fleet, ["AS22"] + FILL[:4], "AS39")
    st.vars["held_events"][p - 1] = ["Mechanics' Overtime"]
    prepare(st, p, ["Wright Flyer", "Fokker Eindecker"], {"A2": "AS22"})
    assert f"player {p}'s Fokker Eindecker takes 1 breakdown level" in logs(st)
    assert texts(st) == ["play an event", "stop repairing"]
    return st, p


def test_an_event_played_at_the_breakdown_repairs_the_plane_and_it_flies():
    st, p = breakdown_with_an_event()
    prestige = st.vars["prestige"][p - 1]
    play(st, "play an event", "play Mechanics' Overtime", "repair a plane")
    assert texts(st) == ["repair Fokker Eindecker"]                  # the stressed plane only
    play(st, "repair Fokker Eindecker")
    assert damage(st, p) == {"Wright Flyer": 0, "Fokker Eindecker": 0, "Sopwith Camel": 1}
    assert "Mechanics' Overtime" in st.vars["event_discard"] and st.vars["held_events"][p - 1] == []
    assert rewards(st, p) == ["A1", "A2"]
    assert st.vars["prestige"][p - 1] == prestige + 5 + (4 + 3)       # Wright Flyer; Eindecker + AS22


def test_a_plane_left_damaged_does_not_fly():
    st, p = breakdown_with_an_event()
    play(st, "stop repairing")
    assert rewards(st, p) == ["A1"]
    assert st.vars["held_events"][p - 1] == ["Mechanics' Overtime"]
    assert damage(st, p)["Fokker Eindecker"] == 1


def test_every_show_is_turned_over_before_any_is_resolved_or_rewarded():
    """Phase 10: "All players then turn over the air show cards they have played onto their plane
    groups." Then each player's weather and stress (an event may repair at once), and only then,
    phase 11, the rewards ("A new phase must not be started until the current phase is completed").
    The first player's repair and reward are decided with the second player's show face up."""
    st = after_auction()
    p, q, r, s = order(st)
    for seat in range(1, 5):
        st.vars["fleet"][seat - 1] = []
    # p: AS22 (bad 1, red 3) on A2 against the master AS39 (sunny 2, red 1, left A2): weather -1,
    # stress 4, the Eindecker takes a level. q: AS05 (sunny 2, green 2, aerobatic) on the Camel.
    set_fleet(st, p, "Wright Flyer", "Fokker Eindecker")
    set_fleet(st, q, "Sopwith Camel")
    deal(st, {p: ["AS22"] + FILL[:4], q: ["AS05", "AS01", "AS02", "AS03", "AS04"]}, "AS39")
    st.vars["held_events"][p - 1] = ["Mechanics' Overtime"]
    st.ask_again()
    at_step(st, "air show preparation")
    logs(st)
    prepare(st, p, ["Wright Flyer", "Fokker Eindecker"], {"A2": "AS22"})
    assert face_down(st.view(r)) == {p, q, s}            # every rival's show is face down
    prepare(st, q, ["Sopwith Camel"], {"A2": "AS05"})
    # p's repair decision, right after p's breakdown: q's show is already face up for everyone
    assert st.step == "resolve air show performance" and texts(st) == ["play an event", "stop repairing"]
    assert all(face_down(st.view(seat)) == set() for seat in (p, q, r))
    assert st.view(p)["vars"]["groups"][q - 1][1]["placed"] == "AS05"
    assert logs(st) == [f"player {p} turns over the master card AS39",
                        f"player {p} shows Wright Flyer and Fokker Eindecker with the card AS22",
                        f"player {q} shows Sopwith Camel with the card AS05",
                        f"player {p}: weather -1, mechanical stress 4",
                        f"player {p}'s Fokker Eindecker takes 1 breakdown level"]
    assert st.vars["hand"][q - 1] == ["AS01", "AS02", "AS03", "AS04"]    # q's card has left the hand
    play(st, "play an event", "play Mechanics' Overtime", "repair a plane", "repair Fokker Eindecker")
    # every show resolved (q: weather -4, stress -1) before p's first reward is asked
    assert st.step == "air show results" and mover(st) == p
    assert logs(st)[-1] == f"player {q}: weather -4, mechanical stress -1"
    assert rewards(st, p) == ["A1", "A2"]
    assert rewards(st, q, {"A2": "purchase flags"}) == ["A2"]
    # q: the Camel's EX 2, the card's 1, a flag for the aerobatic Camel under an aerobatic card
    assert f"player {q} takes 4K for A2" in logs(st)


RESULT_FLEET = ["Sopwith Pup", "Nieuport 17", "Fokker Eindecker", "Boeing P-12", "Ford Trimotor", "Hawker Fury"]


def results_show():
    # AS05 (aerobatic; EX 1, P 1) on A2, AS02 (not aerobatic; EX 2, P 2) on A3, nothing on A4;
    # master AS03, sunny 3 and green 3: everything flies, nothing breaks
    st, p = show_time(RESULT_FLEET, ["AS05", "AS02"] + FILL[:3], "AS03")
    prepare(st, p, RESULT_FLEET, {"A2": "AS05", "A3": "AS02"})
    return st, p


def test_played_cards_and_the_master_are_discarded_after_the_results():
    st, p = results_show()
    rewards(st, p)
    drive(st, lambda s: s.step == "auction bidding")
    assert {"AS05", "AS02", "AS03"} <= set(st.vars["show_discard"])
    assert st.vars["master"] is None
    assert not any(a["entered"] for a in st.vars["fleet"][p - 1])
    assert st.vars["tokens"][p - 1] == [0, 1, 1, 2, 3]
