"""The "Rule and card coverage" tables of docs/games/<game>.md (issue 39, item 2) cannot rot: every
row names a test that exists (`module::function` under tests/<game folder>/, or `pending: fidelity`
for a rule being mended elsewhere), and every card of the game's card tables in its rules file has
a row ("<kind>: <card>", or "every <table>" for a test run over the whole table)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from rulewright.interpreter.testing import shipped

ROOT = Path(__file__).resolve().parent.parent
SECTION = "## Rule and card coverage"
PENDING = "pending: fidelity"

# game: (tests folder, {table of the rules file: the kind its rows name, or None for its titles})
GAMES = {
    "magnificent-flying-machines": ("magnificent_flying_machines", {
        "pilot": ("pilot", "name"), "equipment": ("equipment", "name"), "card": ("card", "title"),
        "weather_card": ("weather", "name")}),
    "air-show": ("air_show", {
        "plane": (None, "name"), "show_card": (None, "card_name"), "event": ("event", "event_name"),
        "development": ("token", "token")}),
}


def rows(game):
    """(first cell, test cell) of each row of the game's table."""
    text = (ROOT / "docs" / "games" / f"{game}.md").read_text()
    assert SECTION in text, f"{game}.md has no section {SECTION!r}"
    body = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    out = []
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("rulebook",) and not set(cells[0]) <= set("-"):
            out.append((cells[0], cells[2]))
    assert out, f"{game}.md's coverage table is empty"
    return out


def defined_tests(folder):
    """{module file name: the test functions it defines}."""
    found = {}
    for path in (ROOT / "tests" / folder).glob("test_*.py"):
        tree = ast.parse(path.read_text())
        found[path.name] = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}
    return found


@pytest.mark.parametrize("game", list(GAMES))
def test_every_row_names_tests_that_exist(game):
    folder, _ = GAMES[game]
    tests = defined_tests(folder)
    for first, cell in rows(game):
        assert cell, f"{game}: the row {first!r} names no test"
        named = re.findall(r"`([^`]+)`", cell)
        rest = re.sub(r"`[^`]+`", "", cell).replace(PENDING, "").strip(" ,")
        assert named or PENDING in cell, f"{game}: the row {first!r} names no test: {cell!r}"
        assert not rest, f"{game}: the row {first!r} has more than tests in its test cell: {rest!r}"
        for ref in named:
            module, _, function = ref.partition("::")
            assert module in tests, f"{game}: the row {first!r} names {module}, not a test module of tests/{folder}"
            assert function in tests[module], f"{game}: the row {first!r} names {ref}, which is not defined"


@pytest.mark.parametrize("game", list(GAMES))
def test_every_card_has_a_row(game):
    _, tables = GAMES[game]
    firsts = {first for first, _ in rows(game)}
    g = shipped(game, 4).new_state(seed=1).game
    for table, (kind, column) in tables.items():
        if kind is None:
            assert f"every {table}" in firsts, f"{game}: no row for every card of the table {table}"
            continue
        names = {str(g.columns[column][key]) for key in g.tables[table]}
        missing = sorted(n for n in names if f"{kind}: {n}" not in firsts)
        assert not missing, f"{game}: no row for the {kind} cards {missing}"
