"""docs/games/barnstormers.md lists the designed stunts, requests and formations: check them against
the rules file so the documentation cannot drift from the game."""
from __future__ import annotations

import re
from pathlib import Path

from rulewright.interpreter.present.render import render_board

from .helpers import game
from .test_rules import ADVANCED, FORMATIONS

DOC = Path(__file__).resolve().parents[2] / "docs" / "games" / "barnstormers.md"
TEXT = DOC.read_text(encoding="utf-8")


def test_the_documented_stunts_are_the_table():
    rows = re.findall(r"^\| (green|yellow|red) \| ([^|]+?) \| (\d) \| (\w+) \| (\d) \| `([x./]+)` \|$", TEXT, re.M)
    assert len(rows) == 48
    cols = game(2).compiled.columns
    for tier, name, value, family, planes, shape in rows:
        assert (cols["tier"][name], cols["value"][name], cols["family"][name], cols["shape"][name]) == \
            (tier, int(value), family, shape)
        assert shape.count("x") == int(planes)


def test_the_documented_requests_are_the_table():
    rows = re.findall(r"^\| ([A-Z][^|]+?) \| [a-z][^|]+ \| (\d) \|$", TEXT, re.M)
    cols = game(2).compiled.columns
    assert {name: int(bonus) for name, bonus in rows} == {r: cols["bonus"][r] for r in game(2).compiled.tables["request"]}


def test_the_documented_formations_are_the_setup():
    doc = dict(re.findall(r"^\| ([^|]+?) \| ((?:[A-G]\d [NESW]{1,2}, ){3}[A-G]\d [NESW]{1,2})", TEXT, re.M))
    def planes(text):
        return dict(p.split() for p in text.split(", "))
    assert planes(doc["standard 7x7 (Fig. 1)"]) == FORMATIONS[4][1]
    assert planes(doc["advanced 7x7"]) == ADVANCED[4][1]
    assert planes(doc["5x5, two players (Fig. 5)"]) == FORMATIONS[2][1]
    assert planes(doc["5x5 advanced"]) == ADVANCED[2][1]
    assert planes(doc["three players, seat 3 (Fig. 6)"]) == FORMATIONS[3][3]
    assert planes(doc["three players, seat 3, advanced"]) == ADVANCED[3][3]


def test_the_documented_board_is_the_rendered_start():
    block = TEXT[TEXT.index("```text") + 8:]
    block = block[:block.index("```")].rstrip("\n")
    assert render_board(game(4).new_state(seed=1)) == block


def test_every_assumption_cites_the_rulebook():
    part = TEXT[TEXT.index("## Assumptions"):TEXT.index("## Notes")]
    items = re.split(r"\n(?=\d+\. )", part)[1:]
    assert len(items) >= 60
    assert [int(i.split(".")[0]) for i in items] == list(range(1, len(items) + 1))
    for item in items:
        assert re.search(r" -\s", item) and ('"' in item or "does not say" in item), item[:80]
