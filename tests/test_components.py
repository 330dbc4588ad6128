"""Constructs that make a rules file read like its components: records with defaults and construction by
field name, tagged values, long expressions over several lines, sorting highest first, and declarations
(a grid's size) taken from options. Each is parsed, checked (a mistake reported at its file:line:col) and
run; the code it compiles to is the code of the plain form it stands for."""
from __future__ import annotations

import re

import pytest

from rulewright.dsl import ast
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import Game
from rulewright.interpreter.testing import errors_of, game_from_text, logged

HEAD = 'game "T"\nplayers 2\n'


def game(text: str, players: int = 2, **options) -> Game:
    return game_from_text(HEAD.replace("players 2", f"players 2..{max(players, 2)}") + text, players, options,
                          filename="t.rules")


def errors(text: str) -> list:
    """(line, column, message, hint) of each error the checker reports on the rules after the head."""
    return errors_of(HEAD + text, "t.rules")


def source_of(g: Game) -> str:
    """The generated Python, with its numbered temporaries and constants named alike."""
    return re.sub(r"\b_(t|c)\d+\b", r"_\1", g.compiled.exprs.module.source())


# ----------------------------------------------------------------------------- records
SHIP = "record ship(owner, model, fuel = 4, parts = [])\nvar ships = []\n"


def test_a_record_field_may_have_a_default():
    rules = parse(HEAD + SHIP + "turn:\n    end game\n", "t.rules")
    record = next(d for d in rules.decls if isinstance(d, ast.RecordDecl))
    assert record.fields == ("owner", "model", "fuel", "parts")
    assert record.defaults == (("fuel", ast.Literal(4)), ("parts", ast.ListLit(())))


def test_a_named_argument_knows_where_its_name_is():
    rules = parse(HEAD + SHIP + "var s = ship(1,\n             model: 2)\nturn:\n    end game\n", "t.rules")
    call = next(d for d in rules.decls if isinstance(d, ast.VarDecl) and d.name == "s").value
    assert call.args == (ast.Literal(1),) and call.kwargs == (("model", ast.Literal(2)),)
    assert [(s.line, s.column) for s in call.names_at] == [(6, 14)]


def test_records_made_by_name_in_order_and_with_defaults():
    g = game(SHIP + "turn:\n"
             "    add ship(owner: me, model: \"biplane\") to ships\n"
             "    add ship(me, \"glider\", fuel: 2) to ships\n"
             "    add ship(model: \"kite\", parts: [\"wing\"], owner: 2) to ships\n"
             "    add \"rudder\" to ships[1].parts\n"
             "    log \"{ships[1]}; {ships[2]}; {ships[3]}\"\n    end game\n")
    st = g.new_state(1)
    assert st.vars["ships"] == [
        {"owner": 1, "model": "biplane", "fuel": 4, "parts": ["rudder"]},
        {"owner": 1, "model": "glider", "fuel": 2, "parts": []},  # a default list is the record's own
        {"owner": 2, "model": "kite", "fuel": 4, "parts": ["wing"]}]
    assert logged(st) == ["1 biplane 4 rudder; 1 glider 2 ; 2 kite 4 wing"]


def test_a_default_may_use_options_and_enum_members():
    g = game("option tank: 4 | 6\nenum side: yellow, orange\n"
             "record plane(owner, fuel = tank, side = yellow, gauge = [k in range(tank): 0])\n"
             "turn:\n    log \"{plane(me)}\"\n    end game\n", tank=6)
    assert logged(g.new_state(1)) == ["1 6 yellow 0 0 0 0 0 0"]


def test_a_named_construction_compiles_to_the_positional_code():
    named = game(SHIP + "turn:\n    add ship(parts: [], model: \"m\", owner: me) to ships\n    end game\n")
    plain = game(SHIP + "turn:\n    add ship(me, \"m\", 4, []) to ships\n    end game\n")
    assert source_of(named) == source_of(plain)


RECORD_MISTAKES = {
    "unknown field": ("var s = ship(owner: 1, modle: 2)\n",
                      (5, 24, "record 'ship' has no field 'modle'", "did you mean 'model'?")),
    "field twice": ("var s = ship(owner: 1, model: 2,\n             owner: 3)\n",
                    (6, 14, "record 'ship': field 'owner' is given twice", "keep one")),
    "missing field": ("var s = ship(fuel: 1)\n",
                      (5, 9, "record 'ship' needs fields 'owner', 'model'",
                       "give them by name, ship(owner: ..., model: ...), or a default in 'record ship(...)'")),
    "too many in order": ("var s = ship(1, 2, 3, [], 5)\n",
                          (5, 27, "record 'ship' has 4 fields (owner, model, fuel, parts), but 5 are given in "
                                  "order", "")),
    "default uses me": ("record badge(owner = me)\nvar b = badge()\n",
                        (5, 22, "'me' (the player whose turn it is) has no value here",
                         "'me' exists in 'turn:', in procedures and in per-player variables")),
}


@pytest.mark.parametrize("text, expected", RECORD_MISTAKES.values(), ids=RECORD_MISTAKES.keys())
def test_a_record_mistake_is_reported_where_it_is_written(text, expected):
    assert errors(SHIP + text + "turn:\n    end game\n") == [expected]


def test_a_positional_argument_after_a_named_one_is_a_syntax_error():
    from rulewright.dsl.errors import RulesSyntaxError
    with pytest.raises(RulesSyntaxError) as err:
        parse(HEAD + SHIP + "var s = ship(owner: 1, 2)\nturn:\n    end game\n", "t.rules")
    d = err.value.diagnostic
    assert (d.line, d.column, d.message) == (5, 24, "unexpected '2'")
    assert d.hint == "after a field given by name, give the rest by name too: piece(owner: p, heading: n)"


# ----------------------------------------------------------------------------- highest first
def test_sorted_takes_a_direction_after_its_value():
    from rulewright.dsl.parser import parse_expr
    down = parse_expr("sorted(p in players: p.score descending)")
    up = parse_expr("sorted(p in players: p.score ascending)")
    plain = parse_expr("sorted(p in players: p.score)")
    assert down.binder.descending and not up.binder.descending and up == plain


def test_sorted_descending_puts_the_highest_first_and_keeps_ties_in_order():
    g = game("player var bid = 0\nsetup:\n    for p in players:\n        p.bid = [5, 7, 5, 2][p]\n"
             "turn:\n    log \"{sorted(p in players: p.bid descending)} / {sorted(p in players: p.bid)}\"\n"
             "    log \"{sorted(x in [\\\"b\\\", \\\"c\\\", \\\"a\\\"]: x descending)}\"\n    end game\n",
             players=4)
    st = g.new_state(1)
    assert logged(st) == ["2 1 3 4 / 4 1 3 2", "c b a"]


@pytest.mark.parametrize("text, column", [("count(x in [1, 2]: x descending)", 28),
                                          ("[x in [1, 2]: x descending]", 23)])
def test_descending_outside_sorted_is_reported_at_the_value(text, column):
    assert errors(f"var v = {text}\nturn:\n    end game\n") == [
        (3, column, "only 'sorted(x in list: value descending)' puts items in an order",
         "highest(x in list: value) gives the items with the largest value; sorted(...) all of them, "
         "highest first")]


# ----------------------------------------------------------------------------- long lines
def test_a_long_construction_condition_and_text_span_lines():
    g = game(SHIP + "turn:\n"
             "    add ship(owner: me,\n"
             "             model: \"biplane\",\n"
             "             fuel: 2) to ships\n"
             "    let total = sum(s in ships\n"
             "                    where s.owner == me:\n"
             "                    s.fuel)\n"
             "    if (total > 1\n"
             "            and len(ships) == 1):\n"
             "        log \"player {me} flies a {ships[1].model} \" \\\n"
             "            \"with {total} fuel\"\n"
             "    choose x in [1, 2] \\\n"
             "        as \"take \" \\\n"
             "           \"{x}\" optional \"take \" \"none\"\n"
             "    end game\n")
    st = g.new_state(1)
    assert logged(st) == ["player 1 flies a biplane with 2 fuel"]
    assert [m.text for m in st.legal_moves()] == ["take 1", "take 2", "take none"]


def test_texts_in_a_row_are_one_text_and_each_keeps_its_place():
    from rulewright.dsl.parser import parse
    rules = parse(HEAD + 'turn:\n    log "a {1} " \\\n        "b" "{2}"\n    end game\n', "t.rules")
    log = rules.decls[2].body[0]
    assert log.message == ast.Template(("a ", ast.Literal(1), " b", ast.Literal(2)))
    assert (log.message.parts[3].span.line, log.message.parts[3].span.column) == (5, 15)
    assert errors('player var score = 0\nturn:\n    log "a {me} " \\\n        "b {scor}"\n    end game\n') == [
        (6, 13, "unknown name 'scor'", "did you mean 'score'?")]


def test_a_text_continued_without_a_backslash_gets_a_hint():
    from rulewright.dsl.errors import RulesSyntaxError
    with pytest.raises(RulesSyntaxError) as err:
        parse(HEAD + 'turn:\n    log "a"\n        "b"\n    end game\n', "t.rules")
    d = err.value.diagnostic
    assert (d.line, d.column, d.hint) == (5, 9, "to go on with a text on the next line, end this line with '\\'")


# ----------------------------------------------------------------------------- members with data
ANSWERS = "enum answer: discard(card), pass_on, bid(amount = 1, marks = [])\nvar answers = []\n"


def test_an_enum_member_may_carry_data():
    rules = parse(HEAD + ANSWERS + "turn:\n    end game\n", "t.rules")
    enum = rules.decls[2]
    assert enum.members == ("discard", "pass_on", "bid")
    assert [(t.name, t.fields, t.defaults) for t in enum.tagged] == [
        ("discard", ("card",), ()), ("bid", ("amount", "marks"), (("amount", ast.Literal(1)), ("marks", ast.ListLit(()))))]


def test_is_asks_which_member_a_value_is():
    from rulewright.dsl.parser import parse_expr
    assert parse_expr("a is discard") == ast.Compare("==", ast.Call(ast.Name("tag"), (ast.Name("a"),), ()),
                                                      ast.Name("discard"))
    assert parse_expr("a is not bid").op == "!="


TAGGED_TURN = ("turn:\n"
               "    add discard(\"red 1\") to answers\n"
               "    add pass_on to answers\n"
               "    add bid(amount: 3) to answers\n"
               "    add bid() to answers\n"
               "    for a in answers:\n"
               "        if a is discard:\n"
               "            log \"discard {a.card}\"\n"
               "        elif a is not bid:\n"
               "            log \"{a}, not a bid\"\n"
               "        else:\n"
               "            log \"bid {a.amount}\"\n"
               "    let points = [a in answers: match a { discard: 1, pass_on: 2, bid: 10 * a.amount }]\n"
               "    log \"{points} {[a in answers: tag(a)]} {bid(2) == bid(2)} {bid(2) == bid(3)}\"\n"
               "    choose a in answers as \"answer {a}\"\n"
               "    end game\n")


def test_members_with_data_are_made_tested_matched_and_read():
    g = game(ANSWERS + TAGGED_TURN)
    st = g.new_state(1)
    assert logged(st) == ["discard red 1", "pass_on, not a bid", "bid 3", "bid 1",
                        "1 2 30 10 discard pass_on bid bid yes no"]
    # plain JSON data: a record whose field 'is' names the member, so saves and clones keep it
    assert st.vars["answers"] == [{"is": "discard", "card": "red 1"}, "pass_on",
                                  {"is": "bid", "amount": 3, "marks": []}, {"is": "bid", "amount": 1, "marks": []}]
    assert [m.text for m in st.legal_moves()][:2] == ["answer discard red 1", "answer pass_on"]
    again = g.load_state(st.to_json())
    assert again.vars["answers"] == st.vars["answers"]


TAG_MISTAKES = {
    "member misspelt": ("turn:\n    if first(answers) is discrad:\n        pass\n    end game\n",
                        (6, 26, "unknown name 'discrad'", "did you mean 'discard'?")),
    "data left out": ("var a = discard()\nturn:\n    end game\n",
                      (5, 9, "member 'discard' needs field 'card'",
                       "give it by name, discard(card: ...), or a default in 'enum answer: discard(...)'")),
    "unknown data": ("var a = bid(amont: 2)\nturn:\n    end game\n",
                     (5, 13, "member 'bid' has no field 'amont'", "did you mean 'amount'?")),
    "a record of the same name": ("record bid(x)\nturn:\n    end game\n",
                                  (3, 38, "'bid' is a member of enum 'answer' and a record",
                                   "give one of them another name")),
    "a field called is": ("record mark(is)\nturn:\n    end game\n",
                          (5, 1, "'mark' has a field called 'is', a word of the language",
                           "give the field another name")),
}


@pytest.mark.parametrize("text, expected", TAG_MISTAKES.values(), ids=TAG_MISTAKES.keys())
def test_a_mistake_with_members_with_data_is_reported_where_it_is_written(text, expected):
    assert errors(ANSWERS + text) == [expected]


# ----------------------------------------------------------------------------- sizes from options
SIZED = ("option rows: 3 | 5\noption columns: 4 | 2..6\n"
         "board b: grid rows by columns wrap columns\n"
         "turn:\n    log \"{len(b)} {last(b)} {step(space(1, columns), right)}\"\n    end game\n")


@pytest.mark.parametrize("options, expected", [({}, "12 C4 A1"), ({"rows": 5, "columns": 6}, "30 E6 A1"),
                                               ({"columns": 2}, "6 C2 A1")])
def test_a_grid_sized_by_options(options, expected):
    assert logged(game(SIZED, **options).new_state(1)) == [expected]


def test_a_grid_sized_by_options_compiles_to_the_code_of_its_numbers():
    sized = game(SIZED, rows=5, columns=6)
    fixed = game(SIZED.replace("grid rows by columns", "grid 5 by 6"), rows=5, columns=6)
    assert source_of(sized) == source_of(fixed)


BOARD_MISTAKES = {
    "a value too large": ("option rows: 3 | 30\nboard b: grid rows by 4\n",
                          (4, 15, "a grid of 30 by 4 cannot be drawn (when option 'rows' is 30)",
                           "a grid has 1 to 26 rows (named A to Z) and 1 to 99 columns")),
    "an option of names": ("option size: small | large\nboard b: grid 3 by size\n",
                           (4, 20, "option 'size' is 'small' here, not a number of columns",
                            "a grid's size is a number, or an option whose values are numbers")),
    "no such option": ("board b: grid rows by 4\n",
                       (3, 15, "'rows' is not a number, nor an option",
                        "write a number, or declare the option: option rows: 8 | 10")),
}


@pytest.mark.parametrize("text, expected", BOARD_MISTAKES.values(), ids=BOARD_MISTAKES.keys())
def test_a_board_sized_by_a_wrong_option_is_reported_at_the_option(text, expected):
    assert errors(text + "turn:\n    end game\n") == [expected]


COPIES = "option spares: 2 | 0..4\ntable card(name, value):\n    ace, 1\n    spare, 0 * spares\n"


def test_a_row_repeated_as_often_as_an_option_says():
    rules = parse(HEAD + COPIES + "turn:\n    end game\n", "t.rules")
    row = rules.decls[3].rows[1]
    assert row.copies == "spares" and (row.copies_at[0].line, row.copies_at[0].column) == (6, 16)
    turn = "turn:\n    log \"{card}\"\n    end game\n"
    assert [logged(game(COPIES + turn, **o).new_state(1)) for o in ({}, {"spares": 0}, {"spares": 3})] == [
        ["ace spare spare"], ["ace"], ["ace spare spare spare"]]


@pytest.mark.parametrize("option, expected", [
    ("option spars: 2 | 3\n", (6, 16, "'* spares': 'spares' is not an option", "did you mean 'spars'?")),
    ("option spares: 2 | many\n", (6, 16, "'* spares': option 'spares' may be 'many', which is not a number of "
                                          "copies", "a row is repeated 0 or more times: the option's values must be "
                                                    "whole numbers")),
])
def test_copies_from_a_wrong_option_are_reported_at_its_name(option, expected):
    assert errors(option + COPIES.split("\n", 1)[1] + "turn:\n    end game\n") == [expected]
