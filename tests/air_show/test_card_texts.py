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

from rulewright.interpreter.testing import logs

from .helpers import drive, game
from .test_rules import SHOW_CARDS, damage, prepare, show_time

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
