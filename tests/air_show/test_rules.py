"""Air Show, rule by rule: each test puts the game where the rule applies (fleets, money, hands, the
auction's cards, the top of the air show deck), plays the real decisions by their move texts, and
checks what the rulebook's phases say must happen.

The cards' values and the weather and stress tables are designed by the rules file (the rulebook's
text has none); the few a test needs are written out here, next to the test."""
from __future__ import annotations

import pytest

from .helpers import at_step, drive, game, logs, mover, pick, plane, ready, texts

SHOW_CARDS = [f"AS{i:02d}" for i in range(1, 41)]


# ---------------------------------------------------------------- helpers
def order(st):
    """The seats from the first player on, as the phases go round."""
    n = st.game.player_count
    fp = st.vars["first_player"]
    return [(fp - 1 + k) % n + 1 for k in range(n)]


def play(st, *moves):
    for m in moves:
        st.apply(m)


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
LOTS = ["Wright Flyer", "Curtiss Pusher", "Bleriot XI", "Sopwith Tabloid"]   # 6K, 4K, 5K, 5K


def test_ties_go_to_the_first_bidder_and_the_winner_pays_k_plus_the_bid():
    st = ready(4)
    a, b, c, d = order(st)
    auction(st, LOTS, "Spare Parts")
    ev = "the event Spare Parts"
    bids(st, [
        [(0, "Wright Flyer"), (3, "Wright Flyer"), (2, ev), (1, ev)],
        [(3, "Wright Flyer"), (0, "Bleriot XI"), (0, "Bleriot XI"), (0, "Bleriot XI")],
        [(1, "Curtiss Pusher"), (1, "Sopwith Tabloid"), (1, "Sopwith Tabloid"), (1, "Curtiss Pusher")],
    ])
    assert st.step == "buy development token"
    lines = logs(st)
    assert f"below Wright Flyer: {a}:0 {b}:3 {a}:3" in lines
    # Wright Flyer: a and b both bid 3, a bid on it first; 6K + 3
    assert f"player {a} buys Wright Flyer for 9K" in lines
    assert f"player {a} buys Curtiss Pusher for 5K" in lines           # 1 each: a bid first
    assert f"player {b} buys Bleriot XI for 5K" in lines               # 0 each: b bid first
    assert f"player {b} buys Sopwith Tabloid for 6K" in lines          # 1 each: b bid first
    assert f"player {c} buys the event Spare Parts for 2K" in lines    # the bid only
    money = st.vars["money"]
    assert [money[a - 1], money[b - 1], money[c - 1], money[d - 1]] == [40 - 14, 40 - 11, 38, 40]
    fleet = {p: [x["card"] for x in st.vars["fleet"][p - 1]] for p in (a, b)}
    assert fleet[a][-2:] == ["Wright Flyer", "Curtiss Pusher"]
    assert fleet[b][-2:] == ["Bleriot XI", "Sopwith Tabloid"]
    assert st.vars["held_events"][c - 1] == ["Spare Parts"]
    assert st.vars["display"] == [] and st.vars["lots"] == []


def test_the_highest_total_wins_over_an_earlier_bid():
    st = ready(4)
    a, b, c, d = order(st)
    auction(st, LOTS, "Spare Parts")
    ev = "the event Spare Parts"
    bids(st, [
        [(2, "Wright Flyer"), (1, "Wright Flyer"), (0, ev), (0, ev)],
        [(0, ev), (1, "Wright Flyer"), (1, ev), (1, ev)],
        [(1, ev), (3, "Wright Flyer"), (1, ev), (1, ev)],
    ])
    lines = logs(st)
    assert f"player {b} buys Wright Flyer for {6 + 5}K" in lines
    assert f"player {c} buys the event Spare Parts for 2K" in lines   # c: 0+1+1, first of c and d
    assert st.vars["money"][b - 1] == 29 and st.vars["money"][a - 1] == 40


def test_a_player_short_of_flags_sells_undamaged_planes_at_their_k_value():
    st = ready(4)
    a, b, c, d = order(st)
    set_fleet(st, a, "Fokker Eindecker", ("Sopwith Camel", 1), "Ford Trimotor")   # 6K, 8K damaged, 10K
    st.vars["money"][a - 1] = 5
    auction(st, LOTS, "Spare Parts")
    before = {c: placed(st, c) for c in ("Fokker Eindecker", "Ford Trimotor")}
    ev = "the event Spare Parts"
    bids(st, [[(3, "Wright Flyer"), (0, ev), (0, ev), (0, ev)],
              [(0, "Curtiss Pusher"), (1, ev), (1, ev), (1, ev)],
              [(1, "Bleriot XI"), (1, ev), (1, ev), (1, ev)]])
    # Wright Flyer costs 6K + 3 = 9K: a has 5K and must sell; the damaged Camel is not offered
    assert st.step == "auction resolution" and mover(st) == a
    assert texts(st) == ["sell Fokker Eindecker for 6K", "sell Ford Trimotor for 10K"]
    play(st, "sell Fokker Eindecker for 6K")
    assert st.vars["money"][a - 1] == 5 + 6 - 9
    # Curtiss Pusher, 4K + 0: 2K left, another sale; then the Bleriot, 5K + 1
    assert texts(st) == ["sell Ford Trimotor for 10K", "sell Wright Flyer for 6K"]
    play(st, "sell Ford Trimotor for 10K")
    assert st.step == "buy development token"          # 8K left pays the Bleriot's 6K: no sale
    assert st.vars["money"][a - 1] == 2 + 10 - 4 - 6
    lines = logs(st)
    assert f"player {a} sells Fokker Eindecker to the bank for 6K" in lines
    assert f"player {a} buys Wright Flyer for 9K" in lines
    assert [x["card"] for x in st.vars["fleet"][a - 1]] == ["Sopwith Camel", "Wright Flyer", "Curtiss Pusher", "Bleriot XI"]
    # the sold planes go back in the box
    assert placed(st, "Fokker Eindecker") == before["Fokker Eindecker"] - 1
    assert placed(st, "Ford Trimotor") == before["Ford Trimotor"] - 1


def test_a_player_who_cannot_pay_even_by_selling_forfeits_to_the_next_highest_bidder():
    st = ready(4)
    a, b, c, d = order(st)
    set_fleet(st, a, "Fokker Eindecker", ("Sopwith Camel", 2))      # 6K to sell, the Camel is damaged
    st.vars["money"][a - 1] = 2
    auction(st, LOTS, "Spare Parts")
    ev = "the event Spare Parts"
    bids(st, [[(3, "Wright Flyer"), (1, "Wright Flyer"), (2, "Wright Flyer"), (0, ev)],
              [(0, ev), (0, ev), (0, ev), (1, ev)],
              [(1, ev), (1, ev), (1, ev), (1, ev)]])
    lines = logs(st)
    # a needs 9K and can raise 2K + 6K: nothing is sold, the purchase is forfeit; c (2) beats b (1)
    assert f"player {a} cannot pay 9K for Wright Flyer and forfeits it" in lines
    assert f"player {c} buys Wright Flyer for 8K" in lines
    assert not any("sells" in line for line in lines)
    assert st.vars["money"][a - 1] == 2 and len(st.vars["fleet"][a - 1]) == 2
    assert st.vars["fleet"][c - 1][-1]["card"] == "Wright Flyer"
    assert st.vars["money"][c - 1] == 32


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
    st = after_auction()
    p = mover(st)
    set_fleet(st, p, *PLANES[:planes])
    st.vars["developments"][p - 1] = ["Hangar"] * hangars
    st.ask_again()
    assert ("build Hangar for 10K" in texts(st)) == offered


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


def test_over_capacity_a_player_sells_or_buys_a_hangar_until_the_planes_fit():
    st = after_auction()
    p = mover(st)
    set_fleet(st, p, *PLANES[:9])
    st.vars["money"][p - 1] = 20
    st.ask_again()
    play(st, "build nothing")
    assert to_hangar_check(st) == p
    assert texts(st) == ["buy a hangar", "sell a plane"]
    play(st, "sell a plane")
    assert texts(st) == [f"sell {c} for {k}K" for c, k in zip(PLANES[:9], [6, 4, 5, 4, 6, 5, 7, 7, 8])]
    play(st, "sell Albatros D.V for 7K")
    assert st.vars["money"][p - 1] == 27 and len(st.vars["fleet"][p - 1]) == 8
    assert texts(st) == ["buy a hangar", "sell a plane"]          # still one plane too many
    play(st, "buy a hangar")
    assert st.vars["developments"][p - 1] == ["Hangar"] and st.vars["money"][p - 1] == 17
    assert st.step != "check hangar space" or mover(st) != p      # 8 planes fit in two hangars
    lines = logs(st)
    assert f"player {p} sells Albatros D.V to the bank for 7K" in lines
    assert f"player {p} builds Hangar (1 on the airfield)" in lines


def test_a_player_who_cannot_afford_a_hangar_sells_planes():
    st = after_auction()
    p = mover(st)
    set_fleet(st, p, *PLANES[:9])
    st.vars["money"][p - 1] = 9
    st.ask_again()
    play(st, "build nothing")
    assert to_hangar_check(st) == p
    assert texts(st) == ["sell a plane"]
    play(st, "sell a plane", "sell Wright Flyer for 6K")
    assert texts(st) == ["buy a hangar", "sell a plane"]          # 15K now: the hangar is affordable
    play(st, "sell a plane", "sell Bleriot XI for 5K")
    assert len(st.vars["fleet"][p - 1]) == 7 and st.vars["developments"][p - 1] == []


def test_a_hangar_bought_as_sixth_token_covers_the_printed_hangar():
    st = after_auction()
    p = mover(st)
    v = st.vars
    set_fleet(st, p, *PLANES[:8])
    v["developments"][p - 1] = ["Workshop", "Stands", "Museum", "Press Office"]
    v["money"][p - 1], v["prestige"][p - 1] = 50, 10
    st.ask_again()
    assert "build Hangar for 10K" in texts(st)
    play(st, "build Control Tower for 8K and 3P")
    assert to_hangar_check(st) == p
    assert texts(st) == ["buy a hangar", "sell a plane"]
    play(st, "buy a hangar")
    assert len(v["developments"][p - 1]) == 6 and v["money"][p - 1] == 32
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
    assert f"player {p} plays Spare Parts (1 repairs)" in logs(st)
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
