"""Each game's page keeps a table, "Rule and card coverage", from a rulebook section or a card to the
tests that check it by the state it changes (issue 39). So that the table cannot rot: every row
names at least one test, every test it names exists (``path::function``, the path from the
repository's root), and every card of the game's card tables has a row ("Card: NAME ...")."""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from rulewright.interpreter.testing import shipped

ROOT = Path(__file__).resolve().parent.parent
SECTION = "## Rule and card coverage"
TEST = re.compile(r"`(tests/[\w/]+\.py)::(\w+)(?:\[[^\]`]*\])?`")


def _biplane_family(cols, name):
    """The rulebook's 2.0 lists the cards by family ("6 Straight 1, labeled A1-A6"): the name
    without its respawn label. The labels have a row of their own."""
    label = cols["label"][name]
    return name if label is None else name.replace(f" {label}", "").removesuffix(" Up")


def _titled(tables: tuple, family=lambda cols, name: name):
    """Rows "Card: NAME" (or "Card: NAME (...)"), one for each card of ``tables`` as ``family`` names it."""
    def expected(compiled):
        return {f"Card: {family(compiled.columns, c)}" for t in tables for c in compiled.tables[t]}
    return expected, lambda first: first.startswith("Card: ")


def _kinds(tables: dict):
    """Rows "KIND: NAME" for each card of a table named by its column (``{table: (kind, column)}``), or one
    row "every TABLE" for a table whose test runs over every card (kind None)."""
    def expected(compiled):
        out = set()
        for table, (kind, column) in tables.items():
            if kind is None:
                out.add(f"every {table}")
            else:
                out |= {f"{kind}: {compiled.columns[column][key]}" for key in compiled.tables[table]}
        return out
    prefixes = tuple(f"{kind}: " for kind, _ in tables.values() if kind is not None)
    return expected, lambda first: first.startswith(prefixes) or first.startswith("every ")


# game: (its page, players, (the rows its cards expect, which first cells are a card's))
GAMES = {
    "biplane": ("docs/games/biplane.md", 2, _titled(("card",), _biplane_family)),
    "planes": ("docs/games/planes.md", 2, _titled(("card",))),
    "barnstormers": ("docs/games/barnstormers.md", 2, _titled(("stunt", "tactic", "expertise", "request"))),
    "magnificent-flying-machines": ("docs/games/magnificent-flying-machines.md", 4, _kinds({
        "pilot": ("pilot", "name"), "equipment": ("equipment", "name"), "card": ("card", "title"),
        "weather_card": ("weather", "name")})),
    "air-show": ("docs/games/air-show.md", 4, _kinds({
        "plane": (None, "name"), "show_card": (None, "card_name"), "event": ("event", "event_name"),
        "development": ("token", "token")})),
}


def rows(page: str) -> list:
    """(first cell, last cell) of each body row of the page's coverage table."""
    text = (ROOT / page).read_text()
    assert SECTION in text, f"{page} has no section {SECTION!r}"
    body = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    table = [line for line in body.splitlines() if line.startswith("|")]
    assert len(table) > 2, f"{page}: the coverage table is empty"
    out = []
    for line in table[2:]:                      # past the header and its rule
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        out.append((cells[0], cells[-1]))
    return out


@functools.lru_cache(maxsize=None)
def functions(path: str) -> frozenset:
    tree = ast.parse((ROOT / path).read_text())
    return frozenset(n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))


@pytest.mark.parametrize("name", list(GAMES))
def test_every_row_names_tests_that_exist(name):
    page = GAMES[name][0]
    missing = []
    for what, cell in rows(page):
        named = TEST.findall(cell)
        assert named, f"{page}: the row {what!r} names no test"
        rest = TEST.sub("", cell).strip(" ,")
        assert not rest, f"{page}: the row {what!r} has more than tests in its test cell: {rest!r}"
        for path, func in named:
            if not (ROOT / path).is_file() or func not in functions(path):
                missing.append(f"{what}: {path}::{func}")
    assert not missing, f"{page} names tests that do not exist: {missing}"


@pytest.mark.parametrize("name", list(GAMES))
def test_every_card_has_a_row(name):
    page, players, (expected, is_card) = GAMES[name]
    cards = expected(shipped(name, players).compiled)
    rowed = {re.split(r" \(", what, maxsplit=1)[0] for what, _ in rows(page) if is_card(what)}
    assert not cards - rowed, f"{page}: cards without a row: {sorted(cards - rowed)}"
    assert not rowed - cards, f"{page}: rows for cards the game does not have: {sorted(rowed - cards)}"
