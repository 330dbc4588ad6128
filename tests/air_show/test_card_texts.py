"""Every air show card's `says` text against what its rule does (issue 39): each card is turned over
as the master card in shows where each of its outcomes happens, and its text must name that outcome.

The mechanical stress falls on "The oldest plane (the plane with the lowest year) of the period on the
left. The oldest plane of the period on the right (if shown). The oldest plane in the show." (phase 9):
a show with a plane of the left period, one with the right period's planes only, and one with neither.
The weather and stress totals logged, less the cards played on the groups, are the master's own
values, which its text states."""
from __future__ import annotations

import re

import pytest

from rulewright.interpreter.testing import logs, mover, play, texts

from .helpers import at_step, drive, game
from .test_rules import SHOW_CARDS, after_auction, damage, hangar_offered, prepare, rewards, set_fleet, show_time

PERIODS = ["A1", "A2", "A3", "A4", "A5", "A6"]
RED_3 = ["AS04", "AS22", "AS27", "AS29", "AS36"]     # red spanner 3: four groups push the stress to 7+


def _columns():
    return game(4).compiled.columns


COLS = _columns()


def _by_age(period):
    """The planes of a period, oldest first (name order within a year)."""
    return sorted((c for c, pd in COLS["period"].items() if pd == period), key=lambda c: (COLS["year"][c], c))


def _signed(kind, value, plus):
    return value if kind == plus else -value


def _scenarios():
    """(master, outcome, fleet, plane hit): a show for each outcome the master's rule can have."""
    out = []
    for m in SHOW_CARDS:
        left, right = COLS["left"][m], COLS["right"][m]
        others = [p for p in PERIODS if p not in (left, right)]
        # the two oldest of the period, and the youngest plane of three other periods
        out.append((m, "left", _by_age(left)[:2] + [_by_age(p)[-1] for p in others[:3]], _by_age(left)[0]))
        if right:
            out.append((m, "right", _by_age(right)[:2] + [_by_age(p)[-1] for p in others[:3]], _by_age(right)[0]))
        fleet = [_by_age(p)[0] for p in others[:4]]
        out.append((m, "show", fleet, min(fleet, key=lambda c: COLS["year"][c])))
    return out


@pytest.mark.parametrize("master, outcome, fleet, hit", _scenarios(),
                         ids=lambda v: v if isinstance(v, str) and not v.startswith(("A", "[")) else None)
def test_the_master_cards_text_names_where_the_stress_strikes(master, outcome, fleet, hit):
    text = COLS["says"][master]
    left, right = COLS["left"][master], COLS["right"][master]
    groups = sorted({COLS["period"][c] for c in fleet})
    cards = dict(zip(groups, [c for c in RED_3 if c != master]))
    hand = list(cards.values()) + [c for c in SHOW_CARDS if c not in cards.values() and c != master][:5 - len(cards)]
    st, p = show_time(fleet, hand, master)
    prepare(st, p, fleet, cards)
    lines = logs(st)
    # the plane struck: the rule's outcome
    assert damage(st, p)[hit] > 0 and sum(damage(st, p).values()) == damage(st, p)[hit], lines
    # the text names it
    if outcome == "left":
        assert f"stress strikes the oldest {left} plane" in text
    elif outcome == "right":
        assert f"else the oldest {right}," in text
    else:
        assert "else the oldest in the show" in text
    if right is None:
        assert "(else" not in text and not re.search(r"else the oldest A\d", text)
    # the master's weather and stress are what the text says
    (line,) = [x for x in lines if x.startswith(f"player {p}: weather ")]
    weather, stress = map(int, re.match(r"player \d: weather (-?\d+), mechanical stress (-?\d+)", line).groups())
    played = list(cards.values())
    own_w = weather - sum(_signed(COLS["weather"][c], COLS["weather_value"][c], "bad") for c in played)
    own_s = stress - sum(_signed(COLS["spanner"][c], COLS["spanner_value"][c], "red") for c in played)
    assert text.startswith(f"Weather {own_w:+d}, stress {own_s:+d};"), (text, own_w, own_s)


# Three A6 planes, two aerobatic; a master of sunny weather and a green spanner: they fly, nothing breaks.
A6_FLEET = ["Pitts Special", "Hawker Hunter", "Beechcraft Bonanza"]


@pytest.mark.parametrize("reward", ["prestige", "purchase flags"])
@pytest.mark.parametrize("card", SHOW_CARDS)
def test_a_cards_text_names_what_its_group_earns(card, reward):
    """Phase 11: "the air show card, if one was played, in that period" adds its P (or EX) value once,
    and "For each card that a player played showing a aerobatic value then they will receive a flag
    for each aerobatic plane flying in that period"."""
    text = COLS["says"][card]
    master = "AS03" if card != "AS03" else "AS18"
    st, p = show_time(A6_FLEET, [card] + [c for c in SHOW_CARDS if c not in (card, master)][:4], master)
    prepare(st, p, A6_FLEET, {"A6": card})
    v = st.vars
    before = v["prestige"][p - 1] if reward == "prestige" else v["money"][p - 1]
    st.apply(f"take {reward} for A6")
    after = v["prestige"][p - 1] if reward == "prestige" else v["money"][p - 1]
    planes = sum(COLS["p_value" if reward == "prestige" else "ex_value"][c] for c in A6_FLEET)
    aerobatic = sum(COLS["aerobatic"][c] for c in A6_FLEET)            # two of the three
    p_more, k_more = map(int, re.search(r"its group earns (\d+) more prestige or (\d+)K", text).groups())
    named = p_more if reward == "prestige" else k_more
    bonus = after - before - planes - named
    if ", plus 1 per aerobatic plane flying." in text:
        assert bonus == aerobatic
    else:
        assert bonus == 0


def _breakdowns(text):
    m = re.search(r"at auction, (no|\d+) breakdowns?\.$", text)
    return 0 if m.group(1) == "no" else int(m.group(1))


@pytest.mark.parametrize("batch", [SHOW_CARDS[i:i + 4] for i in range(0, 40, 4)], ids=lambda b: b[0])
def test_a_cards_text_names_the_breakdowns_it_gives_at_auction(batch):
    """Phase 2: "For each plane card drawn from the deck draw one air show card. Assign the number of
    indicated breakdown markers ... to the plane". The first game's auction draws the air show deck's
    cards after the four hands of five: the batch is put there, one card for each plane."""
    st = game(4).new_state(seed=1)
    rest = [c for c in SHOW_CARDS if c not in batch]
    st.vars["show_deck"] = rest[:16] + list(reversed(batch)) + rest[16:]      # drawn from the end
    drive(st, lambda s: s.step == "auction bidding")
    lines = [x.split() for x in logs(st) if x.startswith("air show card ")]
    assert [x[3] for x in lines] == batch
    for c, a in zip(batch, st.vars["display"]):
        assert a["damage"] == _breakdowns(COLS["says"][c]), c


# ---------------------------------------------------------------- plane cards
PLANES = list(game(4).compiled.tables["plane"])
PLANE_TEXT = re.compile(r"(A\d) plane of (\d{4}), (\d+)K\. Flying, it earns (\d+) prestige or (\d+)K; "
                        r"grounded at weather (\d+) or worse(; aerobatic)?\.$")


def _plane_text(name):
    m = PLANE_TEXT.match(COLS["says"][name])
    assert m, name
    period, year, price, p, k, grounded, aerobatic = m.groups()
    return dict(period=period, year=int(year), price=int(price), p=int(p), k=int(k), grounded=int(grounded),
                aerobatic=bool(aerobatic))


def test_a_planes_text_names_the_columns_its_rules_read():
    """The period (the groups, the weather), the year (the stress strikes the oldest), the price (the
    auction: "K value + bid"; a sale), the P and EX values (phase 11), the period's grounding weather
    (phase 9) and the aerobatic symbol: each plane's text states each of them."""
    for name in PLANES:
        named = _plane_text(name)
        assert named == dict(period=COLS["period"][name], year=COLS["year"][name], price=COLS["price"][name],
                             p=COLS["p_value"][name], k=COLS["ex_value"][name],
                             grounded=COLS["grounded_from"][COLS["period"][name]],
                             aerobatic=COLS["aerobatic"][name]), name


CALM = "AS03"           # sunny 3, green 3: nothing grounded or broken
AEROBATIC = "AS05"      # sunny 2, green 2; 1 prestige or 1K, plus 1 per aerobatic plane flying


@pytest.mark.parametrize("name", PLANES)
def test_a_planes_text_names_what_it_earns_flying(name):
    """Alone in a show: the prestige its text names; under an aerobatic card, the K it names, the card's,
    and a flag more if (and only if) the text says aerobatic."""
    named = _plane_text(name)
    gains = {}
    for reward, cards in (("prestige", {}), ("purchase flags", {named["period"]: AEROBATIC})):
        st, p = show_time([name], [AEROBATIC, "AS09", "AS11", "AS15", "AS16"], CALM)
        v = st.vars
        before = (v["prestige"][p - 1], v["money"][p - 1])
        prepare(st, p, [name], cards)
        assert rewards(st, p, {named["period"]: reward}) == [named["period"]]
        gains[reward] = (v["prestige"][p - 1] - before[0], v["money"][p - 1] - before[1])
    assert gains["prestige"] == (named["p"], 0)
    k_more = int(re.search(r"or (\d+)K", COLS["says"][AEROBATIC]).group(1))
    assert gains["purchase flags"] == (0, named["k"] + k_more + named["aerobatic"])


GREEN = [c for c in SHOW_CARDS if COLS["spanner"][c] == "green"]     # a stress total of at most 0


def _cards_for_weather(target, groups):
    """(master, cards for the groups) of green spanners whose weather totals ``target``, the fewest
    cards first: found by a search in card order (the first fit, so the same every run)."""
    def fit(size, rest, left):
        if size == 0:
            return [] if left == 0 else None
        for i, c in enumerate(rest):
            found = fit(size - 1, rest[i + 1:], left - _weather(c))
            if found is not None:
                return [c] + found
        return None

    for size in range(groups + 1):
        for master in GREEN:
            found = fit(size, [c for c in GREEN if c != master], target - _weather(master))
            if found is not None:
                return master, found
    raise AssertionError(f"no green cards make weather {target}")


def _weather(card):
    return _signed(COLS["weather"][card], COLS["weather_value"][card], "bad")


@pytest.mark.parametrize("period", PERIODS)
@pytest.mark.parametrize("worse", [False, True], ids=["just below", "at the weather named"])
def test_a_planes_text_names_the_weather_that_grounds_it(period, worse):
    """Phase 9: the oldest plane of each period in the show, the cards on the groups and the master
    totalling the weather the period's planes' texts name ("grounded at weather N or worse"), or one
    less: the period flies below it and stays on the ground at it."""
    (grounded,) = {_plane_text(n)["grounded"] for n in PLANES if COLS["period"][n] == period}
    target = grounded if worse else grounded - 1
    fleet = [_by_age(pd)[0] for pd in PERIODS]
    master, cards = _cards_for_weather(target, 5)                  # a hand holds five
    assert _weather(master) + sum(map(_weather, cards)) == target
    st, p = show_time(fleet, cards + [c for c in SHOW_CARDS if c not in cards and c != master][:5 - len(cards)],
                      master)
    prepare(st, p, fleet, dict(zip(PERIODS, cards)))
    assert f"player {p}: weather {target}," in " ".join(logs(st))
    assert sum(damage(st, p).values()) == 0
    assert (period in rewards(st, p)) == (not worse)


# ---------------------------------------------------------------- event cards
EVENTS = list(game(4).compiled.tables["event"])


def _repairs_named(text):
    m = re.match(r"Play at any time, then discard it: remove (\d+) breakdown levels?(, shared among your "
                 r"planes as you like| from one of your planes)\.$", text)
    return int(m.group(1)), m.group(2).startswith(", shared")


@pytest.mark.parametrize("event", sorted(set(COLS["event_name"].values())))
def test_an_events_text_names_the_repairs_it_gives_and_where(event):
    """6: an event played in the repairs phase, with two planes of three breakdown levels and no
    spanner: it is discarded, and the repairs its text names are made, spread over both planes when
    the text says they are shared."""
    (text,) = {COLS["says"][e] for e in EVENTS if COLS["event_name"][e] == event}
    named, shared = _repairs_named(text)
    st = after_auction()
    p = mover(st)
    v = st.vars
    set_fleet(st, p, ("Sopwith Camel", 3), ("Sopwith Pup", 3))
    at_step(st, "repairs")
    v["held_events"][p - 1] = [event]
    st.ask_again()
    play(st, "play an event", f"play {event}")
    assert v["held_events"][p - 1] == [] and event in v["event_discard"]
    for i in range(3):
        if "repair a plane" not in texts(st, p):
            break
        play(st, "repair a plane", "repair Sopwith Camel" if i % 2 == 0 else "repair Sopwith Pup")
    left = damage(st, p)
    assert sum(left.values()) == 6 - named
    assert (max(left.values()) < 3) == shared          # both planes repaired only when shared


# ---------------------------------------------------------------- development tokens
TOKENS = list(game(4).compiled.tables["development"])


def _points_named(token):
    return int(re.match(r"Worth (\d+) points?[;,]", COLS["says"][token]).group(1))


@pytest.mark.parametrize("held, built", [
    (["Workshop", "Stands", "Press Office", "Control Tower"], "Museum for 12K and 4P"),
    (["Air Show Staff", "Hangar", "Stands", "Press Office"], "Maintenance Crew for 10K")])
def test_every_tokens_text_names_the_points_it_is_worth_and_the_museums_planes(held, built):
    """The scoring booklet (designed): a token's points, and with the Museum a point for each A1 and A2
    plane owned. The player holds four tokens and builds a fifth: the game ends after the turn, and the
    score counts each token's named points."""
    st = after_auction()
    p = mover(st)
    v = st.vars
    v["developments"][p - 1] = list(held)
    set_fleet(st, p, "Wright Flyer", "Sopwith Pup", "Fokker Eindecker", "Hawker Fury")
    v["money"][p - 1], v["prestige"][p - 1] = 50, 10
    st.ask_again()
    play(st, f"build {built}")
    drive(st, lambda s: s.is_over())
    assert "Museum" not in held and "1 more point for each A1 and A2 plane you own" in COLS["says"]["Museum"]
    museum = sum(1 for a in v["fleet"][p - 1] if COLS["period"][a["card"]] in ("A1", "A2")) \
        if "Museum" in v["developments"][p - 1] else 0
    undamaged = sum(1 for a in v["fleet"][p - 1] if a["damage"] == 0)
    named = sum(_points_named(t) for t in v["developments"][p - 1])
    assert sorted(v["developments"][p - 1]) == sorted(held + [built.split(" for ")[0]])
    assert v["score"][p - 1] == v["prestige"][p - 1] + named + museum + undamaged + v["money"][p - 1] // 10


@pytest.mark.parametrize("token", ["Workshop", "Maintenance Crew"])
def test_a_spanner_tokens_text_names_the_repairs_it_gives(token):
    named = NUMBERS_SPANNER[re.search(r"gives? (\d) repairs? in each repairs phase", COLS["says"][token]).group(1)]
    st = after_auction()
    p = mover(st)
    v = st.vars
    set_fleet(st, p, ("Sopwith Camel", 3))
    v["developments"][p - 1] = [token]
    at_step(st, "repairs")
    v["held_events"][p - 1] = []
    st.ask_again()
    made = 0
    while st.to_move() == [p] and "repair a plane" in texts(st):
        play(st, "repair a plane", "repair Sopwith Camel")
        made += 1
    assert made == named and damage(st, p) == {"Sopwith Camel": 3 - named}


NUMBERS_SPANNER = {"1": 1, "2": 2}


def _show_with(developments):
    """Two A2 planes flying under a calm master with ``developments`` built: (prestige, money) gained."""
    fleet = ["Fokker Eindecker", "Sopwith Pup"]
    st, p = show_time(fleet, ["AS09", "AS11", "AS15", "AS16", "AS17"], CALM)
    v = st.vars
    v["developments"][p - 1] = list(developments)
    before = (v["prestige"][p - 1], v["money"][p - 1])
    prepare(st, p, fleet)
    assert rewards(st, p) == ["A2"]
    return v["prestige"][p - 1] - before[0], v["money"][p - 1] - before[1]


def test_the_stands_and_press_offices_texts_name_what_they_add_after_a_show():
    base = _show_with([])
    stands_k = int(re.search(r"take (\d+)K at the gate", COLS["says"]["Stands"]).group(1))
    press_p = int(re.search(r"(\d+) prestige more for each period group you score", COLS["says"]["Press Office"])
                  .group(1))
    assert _show_with(["Stands"]) == (base[0], base[1] + stands_k)
    assert _show_with(["Press Office"]) == (base[0] + press_p * 1, base[1])      # one group scored


def test_the_control_tower_and_staffs_texts_name_the_hand_and_the_swap():
    tower = int(re.search(r"fills up to (\d+) instead of 5", COLS["says"]["Control Tower"]).group(1))
    swap = int(re.search(r"discard (\d+) air show cards and draw \1 new ones", COLS["says"]["Air Show Staff"])
               .group(1))
    st = after_auction()
    order_ = [(st.vars["first_player"] - 1 + k) % 4 + 1 for k in range(4)]
    a, b = order_[0], order_[1]
    v = st.vars
    v["developments"][a - 1] = ["Control Tower"]
    v["developments"][b - 1] = ["Air Show Staff"]
    v["hand"] = [[] for _ in range(4)]
    v["show_deck"] = list(SHOW_CARDS)
    st.ask_again()
    at_step(st, "air show cards")
    assert mover(st) == b and len(v["hand"][a - 1]) == tower and len(v["hand"][b - 1]) == 5
    hand = list(v["hand"][b - 1])
    play(st, "swap three air show cards", *[f"discard {c}" for c in hand[:swap]])
    assert v["show_discard"][-swap:] == hand[:swap] and v["hand"][b - 1][:5 - swap] == hand[swap:]
    assert len(v["hand"][b - 1]) == 5


@pytest.mark.parametrize("hangars", [0, 1])
def test_the_hangars_text_names_the_planes_it_houses_and_when_it_is_bought(hangars):
    """5: the printed hangar space and each Hangar token's room (the text's number): offered only when
    the planes outnumber it."""
    room = 7 + hangars * int(re.search(r"houses (\d+) more planes", COLS["says"]["Hangar"]).group(1))
    assert "Buy it only when your planes outnumber your hangar space." in COLS["says"]["Hangar"]
    assert not hangar_offered(room, hangars) and hangar_offered(room + 1, hangars)


def test_every_plane_event_token_and_air_show_card_with_a_text_is_checked_here():
    """A card with a `says` text that no test above reads fails here: the tables each test covers."""
    covered = set(SHOW_CARDS) | set(PLANES) | set(EVENTS) | set(TOKENS)
    with_text = {name for name, text in COLS["says"].items() if text}
    assert with_text <= covered, sorted(with_text - covered)
    assert {COLS["event_name"][e] for e in EVENTS} == {"Spare Parts", "Mechanics' Overtime", "Factory Overhaul"}
    tested_tokens = {"Museum", "Workshop", "Maintenance Crew", "Stands", "Press Office", "Control Tower",
                     "Air Show Staff", "Hangar"}
    assert set(TOKENS) == tested_tokens
