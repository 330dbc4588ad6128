"""`rulewright validate` starts every allowed player count and every option value (interpreter/play/sweep.py):
an option that fails while the game is set up fails validate, with the options that were picked."""
from __future__ import annotations

import itertools

import pytest

from rulewright.cli.validate import validate
from rulewright.dsl.errors import OptionError
from rulewright.interpreter.api import Game, load_rules, option_values, player_range
from rulewright.interpreter.play import sweep
from rulewright.interpreter.shipped import shipped_games


def _file(tmp_path, text: str) -> str:
    path = tmp_path / "sweep.rules"
    path.write_text(text, encoding="utf-8")
    return str(path)


HEAD = """game "Sweep"
players 2..4
option start: low | high
option extra: no | yes
var hand = []
var score = 0
"""
TAIL = """turn:
    choose n in [1, 2] as "take {n}"
    score += n
    end game
"""


def test_a_value_that_fails_at_setup_with_some_player_count_fails_validate(tmp_path):
    # only 3 players with extra=yes reach the empty hand: neither the fewest nor the most players
    path = _file(tmp_path, HEAD + "setup:\n    if extra == yes and player_count == 3:\n        score = hand[0]\n" + TAIL)
    problems = validate(path)
    assert len(problems) == 1, problems
    assert "with 3 players" in problems[0] and "extra=yes" in problems[0]
    assert f"{path}:9:17: error:" in problems[0]


def test_a_value_only_a_requirement_lets_start_is_started(tmp_path):
    # mode=c is allowed with 4 players only, and fails at setup there
    path = _file(tmp_path, HEAD + "option mode: a | b | c\n"
                 'require mode != c or player_count == 4 else "c is for four"\n'
                 "setup:\n    if mode == c:\n        score = hand[0]\n" + TAIL)
    problems = validate(path)
    assert len(problems) == 1 and "with 4 players" in problems[0] and "mode=c" in problems[0], problems
    assert "c is for four" not in problems[0]  # a configuration the rules refuse is not started


def test_an_error_of_one_late_combination_is_found(tmp_path):
    # 'grid' is missing only with 3 players and size=big
    path = _file(tmp_path, 'game "Late"\nplayers 2..3\noption size: small | big\n'
                 "board grid when size == small or player_count == 2: grid 3 by 3\n"
                 "procedure pick():\n    choose s in grid\n"
                 "turn:\n    pick()\n    end game\n")
    problems = validate(path)
    assert len(problems) == 1, problems
    assert "with 3 players, size=big" in problems[0] and "'grid'" in problems[0]


@pytest.mark.parametrize("name", ["biplane", "planes", "barnstormers", "magnificent-flying-machines", "air-show"])
def test_every_count_and_value_of_a_shipped_game_is_started_and_allowed(name):
    rules = load_rules(name)
    plan = sweep.starts(rules)
    low, high = player_range(rules)
    assert {p for p, _ in plan} == set(range(low, high + 1))
    for option, values in option_values(rules).items():
        started = {o.get(option, values[0]) for _, o in plan}
        assert started == set(values), option
    assert plan[0] == (low, {})  # the defaults first
    requirements = sweep._Requirements(rules, list(option_values(rules)))
    for players, options in plan:
        assert requirements(players, {**{k: v[0] for k, v in option_values(rules).items()}, **options})


def test_the_requirements_are_worked_out_as_the_compiler_does():
    rules = load_rules("barnstormers")
    values = option_values(rules)
    requirements = sweep._Requirements(rules, list(values))
    for players, level, mystery, draft in itertools.product((2, 4), values["level"], ("off", "on"), ("off", "on")):
        options = {"level": level, "mystery": mystery, "draft": draft}
        try:
            Game(rules, players, options)
            compiled = True
        except OptionError:
            compiled = False
        assert requirements(players, {**{k: v[0] for k, v in values.items()}, **options}) == compiled


def test_a_large_product_is_covered_pairwise():
    rules = load_rules("barnstormers")  # 3 player counts, 384 sets of options, a few refused
    plan = sweep.starts(rules)
    assert len(plan) < 40
    values = option_values(rules)
    full = [(p, {**{k: v[0] for k, v in values.items()}, **o}) for p, o in plan]
    names = list(values)
    for a, b in itertools.combinations(names, 2):
        for x, y in itertools.product(values[a], values[b]):
            if (a, x) == ("draft", "on") or (b, y) == ("draft", "on"):
                continue  # draft=on goes with one level and one 'mystery' only
            if {a: x, b: y} == {"specialist": "on", "mystery": "on"}:
                continue  # refused together
            assert any(o[a] == x and o[b] == y for _, o in full), (a, x, b, y)


def test_a_wide_player_range_starts_a_few_counts():
    assert sweep.player_counts(2, 6) == [2, 3, 4, 5, 6]
    counts = sweep.player_counts(1, 1000)
    assert len(counts) == sweep.MAX_COUNTS and counts[0] == 1 and counts[-1] == 1000


def test_every_shipped_game_validates():
    for name, path in shipped_games().items():
        assert validate(str(path)) == [], name


def test_defaults_a_require_refuses_fail_validate(tmp_path):
    """A 'require' may rule out some options, never the defaults: validate starts them and says so."""
    path = _file(tmp_path, 'game "Hard only"\nplayers 2..3\noption level: easy | hard\n'
                           'require level == hard else "only hard"\nturn:\n    choose c in [1]\n    end game\n')
    problems = validate(path)
    assert problems and "with 2 players: error: only hard" in problems[0] and "never the defaults" in problems[0]


def test_values_no_start_reached_are_named(tmp_path):
    """The bounded search for an allowed game holding each value: what it did not start is said."""
    from rulewright.cli.validate import warnings
    values = " | ".join(map(str, range(1, 9)))
    path = _file(tmp_path, 'game "Many"\nplayers 2..3\n' + "".join(f"option {n}: {values}\n" for n in "abcde")
                 + 'require a + b + c + d + e > 37 - player_count else "too little"\n'
                   'turn:\n    choose c in [1]\n    end game\n')
    said = "\n".join(warnings(path))
    assert "no game was started with a = " in said and "no game was started with 3 players" in said
