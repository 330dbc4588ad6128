"""Run-time errors as the engine said them before issue 32 (found by comparing the engine before and after
it on broken rules files): the typed errors keep the words they had where they first said vaguer or wrong
ones, and explaining a failure changes nothing, an explicit chance queue included."""
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


def test_explaining_a_failure_draws_nothing_from_an_explicit_chance_queue():
    # the comparison's operands are worked out again to name their kinds: the roll among them must not
    # take an outcome from the queue (nor ask for one: a chance node the rules never make)
    rules = parse('game "T"\nplayers 2\nvar a = none\nturn:\n    log "{roll(6) < a}"\n    end game\n', "x.rules")
    st = Game(rules, players=2).new_state(1, chance="explicit")
    assert st.is_chance() and len(st.chance_outcomes()) == 6
    with pytest.raises(RulesRuntimeError) as info:
        st.apply_chance(st.chance_outcomes()[0])
    assert info.value.message == "cannot compare a number with none"
