"""Run-time errors the typed errors (issue 32) first said in vaguer or wrong words than before: each keeps
the words it had (found by comparing the engine before and after issue 32 on broken rules files)."""
from __future__ import annotations

import pytest

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import Game


def failure_of(setup: str, body: str) -> RulesRuntimeError:
    rules = parse('game "T"\nplayers 2\nboard grid: grid 3 by 3 headings e n w s\nvar a = none\n'
                  f"setup:\n    a = {setup}\nturn:\n    {body}\n    end game\n", "x.rules")
    with pytest.raises(RulesRuntimeError) as info:
        Game(rules, players=2).new_state(1)
    return info.value


@pytest.mark.parametrize("value, kind", [("none", "none"), ("[1]", "a list"), ('"x"', "text"),
                                         ('{"k": 1}', "a record or map")])
def test_a_repeat_count_that_is_not_a_number_is_named(value, kind):
    err = failure_of(value, "repeat a times:\n        pass")
    assert err.message == f"a count must be a number, not {kind}"
    assert err.diagnostic.line == 8


@pytest.mark.parametrize("call", ["step(a, e)", 'step("A1", a)', "wraps(a, e)"])
def test_a_board_step_given_a_map_names_the_map_not_the_pair_it_was_looked_up_by(call):
    err = failure_of('{"k": 1}', f"let r = {call}\n    log \"{{r}}\"")
    assert err.message == "a record or map cannot be a key of a map"
