"""The typed run-time errors (interpreter/engine/errors.py): each raised by the operation that failed,
carrying its operands' kinds in the language's words, its message, hint and focus; an operation the
generated code writes inline is found again where it failed (failed_operation.py) and gives the same
typed error its checked function raises."""
from __future__ import annotations

import random
import types

import pytest

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import Game
from rulewright.interpreter.boards.graph import GraphBoard
from rulewright.interpreter.boards.grid import GridBoard
from rulewright.interpreter.engine import errors, failed_operation, operations
from rulewright.interpreter.engine.builtins import BUILTINS, quantified
from rulewright.interpreter.engine.kinds import kind_of


def raised(fn, *args) -> errors.OperationError:
    with pytest.raises(errors.OperationError) as info:
        fn(*args)
    return info.value


# ----------------------------------------------------------------------------- each operation raises its own
def test_arithmetic_on_kinds_it_does_not_take():
    err = raised(operations.add, 1, "points")
    assert type(err) is errors.CannotCombine and err.op == "+" and err.kinds == ("a number", "text")
    assert (err.message, err.focus) == ("cannot add a number and text", "op:+")
    assert raised(operations.subtract, [1], [1]).message == "cannot subtract a list from a list"
    none = raised(operations.multiply, None, 2)
    assert none.kinds == ("none", "a number") and none.hint.startswith("the value is none here")
    assert raised(operations.multiply, "x", "y").message == "cannot multiply text or a list by text"
    assert raised(operations.divide, "x", 2).focus == "op:/"
    assert raised(operations.remainder, "x%d", 3).message == "cannot take the remainder of text"
    assert raised(operations.negate, None).message == "cannot negate none"


def test_division_by_zero_is_its_own_error():
    err = raised(operations.divide, 4, 0)
    assert type(err) is errors.DivisionByZero and err.kinds == ("a number", "a number") and err.focus == "divide"
    assert type(raised(operations.remainder, 4, 0)) is errors.DivisionByZero


def test_an_order_between_kinds_that_have_none():
    err = raised(operations.COMPARE["<"], "x", 3)
    assert type(err) is errors.CannotCompare and err.kinds == ("text", "a number") and err.focus == "order"
    assert raised(operations.COMPARE[">="], 3, None).hint.startswith("the value is none here")
    assert operations.COMPARE["<"](1, 2) is True and operations.COMPARE["=="](1, "1") is False


def test_looking_in_a_value_that_holds_nothing_and_keys_that_cannot_be():
    err = raised(operations.within, 3, 5)
    assert type(err) is errors.CannotLookIn and err.kinds == ("a number", "a number") and err.focus == "in"
    key = raised(operations.within, [1], {})
    assert type(key) is errors.NotAKey and key.kinds == ("a list",) and key.focus == "key"
    assert type(raised(operations.get_index, {}, [1])) is errors.NotAKey
    assert type(raised(operations.set_index, {}, {"a": 1}, 3)) is errors.NotAKey
    assert type(raised(operations.keys_of_map, [1, [2]])) is errors.NotAKey


def test_items_past_the_end_at_zero_and_of_what_has_none():
    past = raised(operations.get_index, [1, 2, 3], 5)
    assert type(past) is errors.PastTheEnd and past.kinds == ("a list", "a number")
    assert past.message == "there is no item 5 in a list of 3 items" and past.focus == "index"
    assert raised(operations.get_index, "abc", 7).message == "there is no letter 7 in 'abc', of 3 letters"
    assert type(raised(operations.set_index, [1], 4, 0)) is errors.PastTheEnd
    zero = raised(operations.get_index, [1], 0)
    assert type(zero) is errors.BadPosition and zero.message == "there is no item 0: lists count from 1"
    assert raised(operations.get_index, [1], "a").message == "a list position must be a number, not 'a'"
    none = raised(operations.get_index, None, 1)
    assert type(none) is errors.NoItems and none.kinds == ("none",) and none.focus == "items"
    assert type(raised(operations.set_index, "abc", 1, "z")) is errors.CannotChangeItem


def test_missing_entries_and_fields():
    entry = raised(operations.field, {"rank": 7}, "suit")
    assert type(entry) is errors.MissingEntry and entry.focus == "field:suit"
    assert entry.message == "no entry 'suit' in the map '7'"
    assert raised(operations.entry, {}, "B2").message == "no entry 'B2' in the map"
    field = raised(operations.field, 5, "rank")
    assert type(field) is errors.NoField and field.kinds == ("a number",)
    assert field.message == "5 has no field 'rank': it is a number, not a record"


def test_going_through_a_value_that_is_not_a_list_and_a_player_that_is_not_one():
    err = raised(operations.items_of, 5)
    assert type(err) is errors.NotAList and err.kinds == ("a number",)
    assert raised(operations.items_of, None).hint.startswith("the value is none here")
    player = raised(operations.player_index, 7, 2)
    assert type(player) is errors.NotAPlayer and player.message == "7 is not a player of this game (1 to 2)"


# ----------------------------------------------------------------------------- builtins and boards say it themselves
def test_a_builtin_names_itself_where_it_fails():
    err = raised(BUILTINS["len"].fn, 5)
    assert type(err) is errors.WrongArgument and err.function == "len" and err.focus == "call:len"
    assert err.message == "len() needs a list, a map or text, not a number"
    assert raised(BUILTINS["sum"].fn, None, 3).message == "sum() needs a list"
    assert raised(BUILTINS["range"].fn, None, "a").message == "range() needs a number"
    roll = raised(BUILTINS["roll"].fn, types.SimpleNamespace(rng=random.Random(1)), 0)
    assert roll.message == "roll() needs a die of 1 side or more" and roll.focus == "call:roll"
    order = raised(BUILTINS["sorted"].fn, None, [1, "a"])
    assert type(order) is errors.CannotCompare and order.kinds == ("text", "a number")
    assert type(raised(quantified, "max", [1, "a"], [1, "a"])) is errors.CannotCompare
    total = raised(quantified, "sum", [1, "a"], [1, "a"])
    assert type(total) is errors.CannotCombine and total.kinds == ("a number", "text")


def test_a_builtin_names_the_argument_of_the_wrong_kind():
    """The first argument that is of no kind the function takes is the one named (the first argument's
    words when it is the one, as before)."""
    assert raised(BUILTINS["range"].fn, None, 1, "a").message == "range() needs a number as its second argument"
    two = types.SimpleNamespace(player_count=2)
    assert raised(BUILTINS["next_player"].fn, two, "a", 1).message == "next_player() needs a number"
    assert raised(BUILTINS["next_player"].fn, two, 1, [2]).message == "next_player() needs a number as its second argument"


def test_a_limit_reached_inside_a_builtin_points_at_its_call():
    with pytest.raises(RulesRuntimeError) as info:
        BUILTINS["range"].fn(None, 10 ** 9)  # (a counting builtin takes the budget first)
    assert "is too long" in info.value.message and info.value.focus == "call:range"


def test_a_board_kind_says_a_value_is_not_one_of_its_spaces():
    grid = GridBoard("b", 3, 3)
    err = raised(grid.row, "Z9")
    assert type(err) is errors.NotASpace and err.kinds == ("text",)
    assert err.message == "'Z9' is not a space of the board"
    assert err.hint == "a space of this grid is a row letter and a column number, from A1 to C3"
    assert type(raised(grid.neighbours, None)) is errors.NotASpace
    graph = GraphBoard("b", {"a": ["b"], "b": ["a"]})
    assert raised(graph.previous, "zz").hint == "the board's spaces are a, b"


def test_the_kinds_of_values_are_named_in_one_place():
    assert [kind_of(v) for v in (1, "a", True, [1], {}, None)] == [
        "a number", "text", "a yes/no value", "a list", "a record or map", "none"]


# ----------------------------------------------------------------------------- an inline operation, found again
def failure_of(body: str) -> RulesRuntimeError:
    rules = parse('game "T"\nplayers 2\nturn:\n    ' + body + "\n    end game\n", "x.rules")
    with pytest.raises(RulesRuntimeError) as info:
        Game(rules, players=2).new_state(1)
    return info.value


@pytest.mark.parametrize("body, typed", [
    ('let a = "x"\n    if a < 3:\n        pass', errors.CannotCompare("x", 3)),
    ('let a = "x"\n    let b = -a', errors.CannotNegate("x")),
    ("let a = 5\n    if 3 in a:\n        pass", errors.CannotLookIn(3, 5)),
    ("let a = none\n    for x in a:\n        pass", errors.NotAList(None)),
    ("let k = [1]\n    let m = {k: 3}", errors.NotAKey([1])),
    ("let a = 5\n    let b = len(a)", errors.WrongArgument(
        "len", "len() needs a list, a map or text, not a number",
        "len counts the items of a list or map, or the letters of text")),
])
def test_an_inline_operation_that_fails_says_what_its_checked_function_says(body, typed):
    err = failure_of(body)
    assert (err.message, err.hint) == (typed.message, typed.hint)


def test_the_operands_are_read_back_without_changing_the_game():
    # an operand that is not a plain name is worked out again: the random generator is put back as it was
    source = "def f(st):\n    return st.rng.random() < 'a'\n"
    code = compile(source, "<rules>", "exec")
    # the operation as the generator notes it (codegen.Module.operation)
    compared = ((failed_operation.COMPARE, "<"), ("st.rng.random()", "'a'"))
    failed_operation.remember(code, source, {"st.rng.random() < 'a'": compared})
    ns: dict = {}
    exec(code, ns)
    st = types.SimpleNamespace(rng=random.Random(7))
    with pytest.raises(TypeError) as info:
        ns["f"](st)
    after = st.rng.getstate()
    typed = failed_operation.typed_error(info.value)
    assert type(typed) is errors.CannotCompare and typed.kinds == ("a number", "text")
    assert st.rng.getstate() == after


def test_only_generated_code_is_remembered():
    code = compile("def f(a, b):\n    return a < b\n", "<rules>", "exec")
    compared = {"a < b": ((failed_operation.COMPARE, "<"), ("a", "b"))}
    failed_operation.remember(code, "def f(a, b):\n    return a < b\n", compared)
    ns: dict = {}
    exec(code, ns)
    with pytest.raises(TypeError) as info:
        ns["f"]("x", 3)
    typed = failed_operation.typed_error(info.value)
    assert type(typed) is errors.CannotCompare and typed.kinds == ("text", "a number")
    try:
        len(5)
    except TypeError as exc:  # not from generated code: nothing to find again
        assert failed_operation.typed_error(exc) is None


def test_no_source_is_parsed_back():
    """A failure is explained from what generation noted (codegen.Module.operation), never by parsing the
    generated source again (issue 41)."""
    import pathlib
    import re
    root = pathlib.Path(failed_operation.__file__).resolve().parents[1]  # interpreter/
    found = [str(p.relative_to(root)) for p in root.rglob("*.py")
             if re.search(r"^\s*import ast\b|^\s*from ast import|\bast\.parse\(", p.read_text(), re.M)]
    assert found == []
