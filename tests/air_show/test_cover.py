"""Cards and rules the scenarios of test_rules.py leave out (issue 39, item 2; the table is "Rule and
card coverage" in docs/games/air-show.md): every plane card's and every air show card's values in
a real show, each event card's repairs, the Press Office, the Stands and the Museum, the discard
pile shuffled into a new draw pile. Each plays the real decisions and checks the state after."""
from __future__ import annotations

import pytest

from rulewright.interpreter.testing import ends, logs

from .helpers import game
from .test_rules import FILL, SHOW_CARDS, after_auction, prepare, rewards, show_time

# AS03: sunny 3, green 3 as the master: no plane is grounded (a weather total of at most 3 - 3 + 3)
# and none breaks (a stress total of at most 0)
CALM_MASTER = "AS03"
# AS05: sunny 2, green 2, aerobatic, 1 prestige or 1K
AEROBATIC_CARD = "AS05"


def _planes(st, period):
    col = st.game.columns
    return [n for n in col["year"] if col["period"][n] == period]


@pytest.mark.parametrize("reward", ["prestige", "purchase flags"])
@pytest.mark.parametrize("period", ["A1", "A2", "A3", "A4", "A5", "A6"])
def test_every_plane_card_flies_for_its_prestige_or_purchase_flags(period, reward):
    """11: "sum the P values of the planes and the air show card ... in that period" (or the EX
    values), and "a flag for each aerobatic plane flying in that period" under an aerobatic card. The
    period's planes (seven at most a show, the hangar's room) fly together."""
    probe = after_auction()
    planes = _planes(probe, period)
    for chunk in (planes[:7], planes[7:]):
        if not chunk:
            continue
        st, p = show_time(chunk, [AEROBATIC_CARD] + FILL[:4], CALM_MASTER)
        col, v = st.game.columns, st.vars
        before = (v["prestige"][p - 1], v["money"][p - 1])
        prepare(st, p, chunk, {period: AEROBATIC_CARD})
        assert all(a["damage"] == 0 for a in v["fleet"][p - 1])
        assert rewards(st, p, {period: reward}) == [period]
        value = "p_value" if reward == "prestige" else "ex_value"
        gain = sum(col[value][n] for n in chunk) + col[value][AEROBATIC_CARD] \
            + sum(1 for n in chunk if col["aerobatic"][n])
        after = (v["prestige"][p - 1], v["money"][p - 1])
        assert after == ((before[0] + gain, before[1]) if reward == "prestige" else (before[0], before[1] + gain))


@pytest.mark.parametrize("card", SHOW_CARDS)
def test_every_air_show_card_adds_its_weather_stress_and_rewards(card):
    """10: the played card's weather ("Add the values of the player's bad weather cards ... Subtract
    ... sunny") and spanner (red adds, green subtracts) join the master's; 11: its P or EX value once,
    and a flag for each aerobatic plane if it shows the aerobatic value. On an A6 group of two planes
    (one aerobatic) under a calm master, nothing is grounded or broken."""
    planes = ["Pitts Special", "Beechcraft Bonanza"]
    master = CALM_MASTER if card != CALM_MASTER else "AS18"
    st, p = show_time(planes, [card] + [c for c in FILL if c != card][:4], master)
    col, v = st.game.columns, st.vars
    prestige = v["prestige"][p - 1]
    prepare(st, p, planes, {"A6": card})
    sign = {"sunny": -1, "bad": 1, "red": 1, "green": -1}
    weather = sign[col["weather"][card]] * col["weather_value"][card] \
        + sign[col["weather"][master]] * col["weather_value"][master]
    stress = sign[col["spanner"][card]] * col["spanner_value"][card] \
        + sign[col["spanner"][master]] * col["spanner_value"][master]
    assert f"player {p}: weather {weather}, mechanical stress {stress}" in logs(st)
    assert all(a["damage"] == 0 for a in v["fleet"][p - 1])
    assert rewards(st, p) == ["A6"]
    flags = sum(1 for n in planes if col["aerobatic"][n]) if col["aerobatic"][card] else 0
    assert flags == (1 if col["aerobatic"][card] else 0)
    assert v["prestige"][p - 1] == prestige + sum(col["p_value"][n] for n in planes) + col["p_value"][card] + flags


# The development tokens' points in the scoring booklet (docs/games/air-show.md, "The development
# tokens"), written out here, not read from the rules file.
TOKEN_POINTS = {"Museum": 4, "Stands": 3, "Workshop": 2, "Press Office": 2, "Maintenance Crew": 2,
                "Control Tower": 2, "Air Show Staff": 2, "Hangar": 1}
PERIODS = ("A1", "A2", "A3", "A4", "A5", "A6")


def booklet(st, p):
    """Final scoring (designed, docs/games/air-show.md): the prestige flags, the tokens' points, with a
    Museum a point for each A1 and A2 plane, a point for each undamaged plane, one for each full 10K,
    and three for planes of all six periods."""
    v, period = st.vars, st.game.columns["period"]
    fleet = v["fleet"][p - 1]
    periods = [period[a["card"]] for a in fleet]
    museum = sum(x in ("A1", "A2") for x in periods) if "Museum" in v["developments"][p - 1] else 0
    return (v["prestige"][p - 1] + sum(TOKEN_POINTS[d] for d in v["developments"][p - 1]) + museum
            + sum(a["damage"] == 0 for a in fleet) + v["money"][p - 1] // 10
            + (3 if set(periods) >= set(PERIODS) else 0))


def test_the_museum_scores_a_point_for_each_a1_and_a2_plane():
    """The end of real seeded games (four players): each player's score is the scoring booklet's count,
    made here from the state; among them Museums owned with A1 or A2 planes (a point each) and without."""
    museums = set()
    for found in ends(game(4), seeds=range(10)):
        st, v = found.state, found.state.vars
        for q in range(1, 5):
            assert st.outcome().scores[q] == v["score"][q - 1] == booklet(st, q), (found, q)
            if "Museum" in v["developments"][q - 1]:
                old = [a for a in v["fleet"][q - 1] if st.game.columns["period"][a["card"]] in ("A1", "A2")]
                museums.add(bool(old))
    assert museums == {True, False}


def test_the_set_up_gives_two_grey_planes_five_cards_40k_and_the_stacks():
    """Set-Up: "Takes two of the plane cards ... from across the A2, A3, and A4 decks of grey-backed
    cards", "Is dealt five air show cards", "Receives 40K of purchase flags"; "in a four player game
    there should be three tokens in each of the yellow development token stacks"."""
    from .helpers import ready
    st = ready(4)
    v, col = st.vars, st.game.columns
    for q in range(1, 5):
        fleet = [a["card"] for a in v["fleet"][q - 1]]
        assert len(fleet) == 2 and all(col["grey"][c] and col["period"][c] in ("A2", "A3", "A4") for c in fleet)
        assert len(v["hand"][q - 1]) == 5 and v["money"][q - 1] == 40
    assert all(v["stock"][t] == 3 for t in ("Press Office", "Maintenance Crew", "Control Tower", "Air Show Staff"))
    assert not any(col["grey"][c] for c in v["planes_deck"])
