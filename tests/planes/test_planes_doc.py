"""docs/games/planes.md describes the airports, the points of interest and the cards in full: check
them against the rules file, so the documentation cannot drift from the game."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from .helpers import CARDS, GATES, game, start

DOC = Path(__file__).resolve().parents[2] / "docs" / "games" / "planes.md"
TEXT = DOC.read_text(encoding="utf-8")
AIRPORTS = {"Flying Cloud": "flying_cloud", "Zephyr": "zephyr"}


def _section(title: str) -> str:
    start = TEXT.index(f"**{title}**")
    return TEXT[start:TEXT.index("```", TEXT.index("```", start) + 3)]


@pytest.mark.parametrize("title", list(AIRPORTS))
def test_the_documented_arrows_and_gates_are_the_boards(title):
    board = game(2, airport=AIRPORTS[title]).compiled.board
    block = _section(title)
    arrows = set()
    for line in block.splitlines():
        if "->" in line:
            names = [n.strip() for n in line.split("->")]
            arrows |= set(zip(names, names[1:]))
        elif line.startswith("gates:"):
            for gate, front in re.findall(r"([GN]\d) beside (\w+)", line):
                arrows.add((front, gate))
    actual = {(s, t) for s in board.spaces for t in board.next(s)}
    assert arrows == actual


@pytest.mark.parametrize("title", list(AIRPORTS))
def test_the_documented_points_of_interest_are_the_layouts(title):
    rows = re.findall(rf"^\| ([A-Z]\w*)(?: \(G\d\))? \| ([a-z ]+) \| ([a-z ]+) \| ([a-z ]+) \|$",
                      TEXT[TEXT.index("\n", TEXT.index(f"| {title} | printed")):], re.M)[:14]
    assert len(rows) == 14
    for i, layout in enumerate(("printed", "covered", "custom"), start=1):
        poi = start(2, airport=AIRPORTS[title], interest=layout).vars["poi"]
        assert {r[0]: r[i].replace(" ", "_") for r in rows} == poi


def test_the_documented_cards_are_the_deck():
    rows = re.findall(r"^\| ([A-Z][\w ]+?) \| [^|]+ \| ([\w ]+?): [^|]+ \| (\d) \|$", TEXT, re.M)
    assert {name: (goal, int(vp)) for name, goal, vp in rows} == CARDS
    cols = game(2).compiled.columns
    assert all(cols["goal_name"][name] == goal for name, (goal, _vp) in CARDS.items())


def test_every_assumption_cites_the_rulebook():
    part = TEXT[TEXT.index("## Assumptions"):]
    items = re.split(r"\n(?=\d+\. )", part)[1:]
    assert len(items) >= 40
    for item in items:
        assert re.search(r" -\s", item) and '"' in item, item[:80]
