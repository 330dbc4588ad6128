"""Every game page's "Hook points" names only what its game has: each def, procedure, step and named
alternative a variant can amend (issue 38, item 4), so the page cannot rot as the rules change."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulewright.dsl import ast
from rulewright.interpreter.api import load_rules

PAGES = Path(__file__).resolve().parent.parent / "docs" / "games"
GAMES = ["biplane", "planes", "barnstormers", "air-show", "magnificent-flying-machines"]
HOOK = re.compile(r'^\| (def|procedure|step|alternative) `"?([^`"(]+)[^`]*`(?: of (step|procedure) `"?([^`"(]+)[^`]*`)? \|')


def hooks(game: str) -> list:
    text = (PAGES / f"{game}.md").read_text(encoding="utf-8")
    section = text.split("\n## Hook points\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| hook")]
    found = [HOOK.match(line) for line in rows]
    assert all(found), [line for line, m in zip(rows, found) if not m]  # every row names its hook as the test reads it
    return [m.groups() for m in found]


def _steps(decls) -> dict:
    return {s.label: s for d in decls if isinstance(d, (ast.BlockDecl, ast.ProcDecl))
            for s in ast.statements(d.body) if isinstance(s, ast.Step)}


def _alternatives(node) -> set:
    return {a.label for n in ast.walk(node.body) if isinstance(n, ast.ChooseBlock) for a in n.alternatives}


@pytest.mark.parametrize("game", GAMES)
def test_every_hook_point_a_game_page_lists_is_in_the_game(game):
    decls = load_rules(game).decls
    defs = {d.name: d for d in decls if isinstance(d, ast.DefDecl)}
    procs = {d.name: d for d in decls if isinstance(d, ast.ProcDecl)}
    steps = _steps(decls)
    listed = hooks(game)
    assert len(listed) >= 10
    for kind, name, holder_kind, holder in listed:
        if kind == "def":
            assert name in defs, name
        elif kind == "procedure":
            assert name in procs, name
        elif kind == "step":
            assert name in steps, name
        else:
            place = steps.get(holder) if holder_kind == "step" else procs.get(holder)
            assert place is not None and name in _alternatives(place), (name, holder)
    # each kind a variant can amend is shown where the game has it
    assert {"def", "procedure", "step"} <= {kind for kind, *_ in listed}
