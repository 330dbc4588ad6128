"""A variant that adds a card with 'add to table card:' (issue 29 item 7). A card's action and goal are
data in its row (the kind of action, how many cards it draws, the place it sends cubes to; the goal's
pattern), so a card of a kind the base knows plays as the row says; a new kind of action or goal falls to
no rule of the base, and validate names the variant's line and each line of the base that lacks it."""
from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

import rulewright
from rulewright.cli.main import app
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import _apply_extends
from rulewright.interpreter.check.checker import check

from rulewright.interpreter.testing import refresh, texts

from .helpers import play, set_board, set_hand, spec

BASE = Path(__file__).resolve().parents[2] / "games" / "planes.rules"

# a second Move Twice card, whose goal is the 4 Cubes 4 Colours pattern under another name
KNOWN_KINDS = '''extends "planes"
game "PLANES: Fly Twice"
add to table card:
    "Fly Twice", move_twice, 0, none, four_of_four, "Four Colours", 2, \
        "Action: make two moves this turn. Goal: a space with exactly 4 cubes in 4 colours." * 4
'''

# a card of a kind of action and a pattern of goal that the base has no rule for
NEW_KINDS = '''extends "planes"
game "PLANES: Take Off"
add to enum action: take_off
add to enum pattern: five_alone
add to table card:
    "Take Off", take_off, 0, none, five_alone, "Five Alone", 3, "Action and goal of a kind the base lacks." * 4
'''


def _variant(tmp_path, text) -> Path:
    path = tmp_path / "variant.rules"
    path.write_text(text)
    return path


def _base_line(start: str) -> int:
    """The line of the base rules file that starts with this text (found, so the test follows edits)."""
    lines = BASE.read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.strip().startswith(start))


def test_a_card_of_known_kinds_is_valid_and_acts_and_scores_as_its_row_says(tmp_path):
    path = _variant(tmp_path, KNOWN_KINDS)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0 and "warning" not in result.output, result.output
    st = rulewright.load(str(path), players=2).new_state(seed=1)
    st.drain_events()
    # the action: two Move Phases, as Move Twice
    set_board(st, {"S5": "RN", "S9": "R"})
    set_hand(st, 1, ["Fly Twice"])
    refresh(st)
    play(st, "action Fly Twice", "move S5", "drop red", "to S7")
    assert texts(st) == ["move S9", "move S6"]         # a second move, not the Goal Phase
    play(st, "move S9")
    assert (spec(st, "S6"), spec(st, "S7"), spec(st, "P3")) == ("R", "N", "R")
    # the goal: 4 cubes of 4 colours on one space, worth the row's 2 VP
    set_board(st, {"S6": "RYBN", "S9": "R"})
    set_hand(st, 1, ["Fly Twice", "Gather"])
    refresh(st)
    assert texts(st) == ["goal Four Colours", "no goal"]
    assert "player 1 scores the goal Four Colours (2 VP)" in play(st, "goal Four Colours")


def test_a_new_kind_of_action_or_goal_is_named_by_validate_at_each_line_of_the_base_that_lacks_it(tmp_path):
    path = _variant(tmp_path, NEW_KINDS)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    found = re.findall(r"variant\.rules:(\d+):\d+: error: '(\w+)', added here, falls to this match, which has no "
                       r"arm for it: the game would stop with an error when it comes at \S*planes\.rules:(\d+):",
                       result.output)
    assert sorted(found) == sorted([
        ("3", "take_off", str(_base_line("def rules_of(c)"))),
        ("3", "take_off", str(_base_line("def playable(c)"))),
        ("4", "five_alone", str(_base_line("def pattern_at(g, s, m)"))),
    ])
    # validate shows warnings once the errors are gone; its check already has one for the Action Phase's
    # chain, which would do nothing for the new kind
    chain = _base_line("if c.action == take_cards:")
    merged = _apply_extends(parse(path.read_text(), str(path)), path)
    warnings = [(d.line, d.message) for d in check(merged) if d.severity == "warning"]
    assert [(line, re.sub(r"at \S*planes", "at planes", message)) for line, message in warnings] == [
        (3, "'take_off', added here, falls to this if/elif chain, which does nothing for it at "
            f"planes.rules:{chain}:5")]
