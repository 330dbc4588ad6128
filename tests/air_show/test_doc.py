"""docs/games/air-show.md lists the designed cards, tokens and tables: check them against the rules
file so the documentation cannot drift from the game."""
from __future__ import annotations

import re
from pathlib import Path

from .helpers import game

TEXT = (Path(__file__).resolve().parents[2] / "docs" / "games" / "air-show.md").read_text(encoding="utf-8")


def _cols():
    return game(4).compiled.columns


def test_the_documented_planes_are_the_deck():
    rows = re.findall(r"^\| ([^|]+?) \| (A\d) \| (grey|white) \| (\d{4}) \| (\d+) \| (\d+) \| (\d+) \| (yes|no) \|$",
                      TEXT, re.M)
    cols = _cols()
    assert len(rows) == len(game(4).compiled.tables["plane"]) == 54
    for name, period, back, year, price, p, ex, aerobatic in rows:
        assert (cols["period"][name], cols["grey"][name], cols["year"][name], cols["price"][name],
                cols["p_value"][name], cols["ex_value"][name], cols["aerobatic"][name]) == \
            (period, back == "grey", int(year), int(price), int(p), int(ex), aerobatic == "yes")
    assert {r[1] for r in rows if r[2] == "grey"} == {"A2", "A3", "A4"}


def test_the_documented_air_show_cards_are_the_deck():
    rows = re.findall(r"^\| (AS\d\d) \| (sunny|bad) (\d) \| (red|green) (\d) \| (\d) \| (\d) \| (\d) \| (yes|no) \| "
                      r"(A\d)(?:, (A\d))? \|$", TEXT, re.M)
    cols = _cols()
    assert len(rows) == 40
    for card, weather, wv, spanner, sv, breakdown, ex, p, aerobatic, left, right in rows:
        assert (cols["weather"][card], cols["weather_value"][card], cols["spanner"][card],
                cols["spanner_value"][card], cols["breakdown"][card], cols["ex_value"][card], cols["p_value"][card],
                cols["aerobatic"][card], cols["left"][card], cols["right"][card]) == \
            (weather, int(wv), spanner, int(sv), int(breakdown), int(ex), int(p), aerobatic == "yes", left, right or None)


def test_the_documented_tokens_and_tables_are_the_rules():
    cols = _cols()
    tokens = re.findall(r"^\| ([A-Z][a-z]+(?: [A-Z][a-z]+)*) \| (blue|yellow|grey) \| ([^|]+) \| (\d) \| (\d) \|$", TEXT, re.M)
    assert len(tokens) == 8
    for name, colour, price, spanners, points in tokens:
        k = int(m.group(1)) if (m := re.search(r"(\d+)K", price)) else 0
        p = int(m.group(1)) if (m := re.search(r"(\d+)P", price)) else 0
        assert (cols["colour"][name], cols["cost_k"][name], cols["cost_p"][name], cols["spanners"][name],
                cols["points"][name]) == (colour, k, p, int(spanners), int(points))
    grounded = re.search(r"^\| grounded from \| (.+) \|$", TEXT, re.M).group(1).split(" | ")
    assert [int(x) for x in grounded] == [cols["grounded_from"][f"A{i}"] for i in range(1, 7)]
    for i in range(1, 7):
        row = re.search(rf"^\| A{i} \| (\d) \| (\d) \| (\d) \| (\d) \|$", TEXT, re.M).groups()
        assert [int(x) for x in row] == [cols[c][f"A{i}"] for c in ("at_1", "at_3", "at_5", "at_7")]
    for stack, name in (("yellow", "yellow (each)"), ("blue", "blue (each)"), ("grey", "Hangar")):
        row = re.search(rf"^\| {re.escape(name)} \| (\d) \| (\d) \| (\d) \| (\d) \|$", TEXT, re.M).groups()
        assert [int(x) for x in row] == [cols[f"for_{n}"][stack] for n in (2, 3, 4, 5)]
