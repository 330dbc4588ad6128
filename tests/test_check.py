"""The checker: each mistake it can see before a game runs gives one diagnostic at the right place,
with a useful hint; the rendered text of each is kept as a snapshot."""
from __future__ import annotations

import pytest

from rulewright.dsl.errors import RulesCompileError
from rulewright.interpreter.api import load

HEAD = 'game "T"\nplayers 2\n'


def only(diagnostics):
    """The one error among the diagnostics."""
    errors = [d for d in diagnostics if d.severity == "error"]
    assert len(errors) == 1, "\n".join(d.render() for d in errors)
    return errors[0]


# Each snippet holds exactly one mistake; the test below checks where it is reported and how.
MISTAKES = {
    "unknown_name": (HEAD + "player var score = 0\nturn:\n    me.score = scor\n    end game\n",
                     5, 16, "unknown name 'scor'", "did you mean 'score'?"),
    "unknown_field": (HEAD + "player var score = 0\nturn:\n    me.scor = 1\n    end game\n",
                      5, 8, "'scor' is not a player variable, a table column or a record field",
                      "did you mean 'score'?"),
    "unknown_function": (HEAD + "turn:\n    log \"{lenn([])}\"\n    end game\n",
                         4, 11, "unknown function 'lenn'", "did you mean 'len'?"),
    "builtin_arity": (HEAD + "turn:\n    log \"{len([], 2)}\"\n    end game\n",
                      4, 11, "'len' takes 1 argument(s), not 2", ""),
    "def_arity": (HEAD + "def twice(x) = x * 2\nturn:\n    log \"{twice(1, 2)}\"\n    end game\n",
                  5, 11, "'twice' takes 1 argument(s) (x), not 2", ""),
    "record_arity": (HEAD + "record pair(a, b)\nvar p = pair(1)\nturn:\n    end game\n",
                     4, 9, "record 'pair' needs field 'b'",
                     "give it by name, pair(b: ...), or a default in 'record pair(...)'"),
    "record_too_many_in_order": (HEAD + "record pair(a, b)\nvar p = pair(1, 2, 3)\nturn:\n    end game\n",
                                 4, 20, "record 'pair' has 2 fields (a, b), but 3 are given in order", ""),
    "record_unknown_field": (HEAD + "record ship(owner, model, fuel = 4)\nvar s = ship(owner: 1, modle: 2)\n"
                             "turn:\n    end game\n",
                             4, 24, "record 'ship' has no field 'modle'", "did you mean 'model'?"),
    "record_field_in_order_and_by_name": (HEAD + "record pair(a, b)\nvar p = pair(1, 2,\n"
                                          "             a: 3)\nturn:\n    end game\n",
                                          5, 14, "record 'pair': field 'a' is given twice",
                                          "value 1 in order gives it already; keep one"),
    "record_default_reads_a_variable": (HEAD + "var start = 4\nrecord ship(owner, fuel = start)\n"
                                        "var s = ship(1)\nturn:\n    end game\n",
                                        4, 27, "the default of field 'fuel' reads the variable 'start'",
                                        "a default is a constant (numbers, texts, lists, options, enum members); "
                                        "give the value where the record is made"),
    "record_default_rolls": (HEAD + "record ship(owner, luck = roll(6))\nvar s = ship(1)\nturn:\n    end game\n",
                             3, 27, "the default of field 'luck' calls 'roll', which may differ from one record "
                             "to the next", "a default is a constant; give the value where the record is made"),
    "procedure_arity": (HEAD + "procedure deal(n):\n    pass\nturn:\n    deal()\n    end game\n",
                        6, 5, "procedure 'deal' takes 1 argument(s) (n), not 0", ""),
    "procedure_in_expression": (HEAD + "procedure roll2():\n    return 2\nturn:\n    roll2()\n"
                                "    log \"{roll2() + 1}\"\n    end game\n",
                                7, 11, "procedure 'roll2' changes the game, so it cannot run inside this part of an "
                                "expression", "a procedure may stand in a statement's own value, condition or list, not "
                                "in a text or under 'and', 'or', 'if ... else', 'match', a quantifier: first "
                                "'let x = roll2(...)'"),
    "option_never_has_value": (HEAD + "option size: small | large\nturn:\n    if size == lage:\n        pass\n"
                               "    end game\n",
                               5, 16, "option 'size' is never 'lage'", "did you mean 'large'?"),
    "option_never_in_list": (HEAD + "option size: small | large\nturn:\n    if size in [small, huge]:\n"
                             "        pass\n    end game\n",
                             5, 24, "option 'size' is never 'huge'", "its values: small | large"),
    "me_in_setup": (HEAD + "var first = 0\nsetup:\n    first = me\nturn:\n    end game\n",
                    5, 13, "'me' (the player whose turn it is) has no value here",
                    "'me' exists in 'turn:', in procedures and in per-player variables"),
    "assign_to_table": (HEAD + "table cards(name):\n    ace\nturn:\n    cards = []\n    end game\n",
                        6, 5, "'cards' is fixed by the rules and cannot be changed", ""),
    "assign_to_option": (HEAD + "option size: small | large\nturn:\n    size = large\n    end game\n",
                         5, 5, "'size' is fixed by the rules and cannot be changed", ""),
    "assign_to_undeclared": (HEAD + "turn:\n    total = 1\n    end game\n",
                             4, 5, "'total' is not a variable",
                             "declare it with 'var total = ...' or make a local with 'let'"),
    "unreachable_after_end_game": (HEAD + "turn:\n    end game\n    log \"bye\"\n",
                                   5, 5, "this statement can never run: the one before it always leaves the block", ""),
    "procedure_never_called": (HEAD + "procedure tidy():\n    pass\nturn:\n    end game\n",
                               3, 1, "procedure 'tidy' is never called, so it can never run", ""),
    "missing_end_condition": (HEAD + "turn:\n    pass\n",
                              1, 1, "the game never ends: nothing says 'end game' and there is no 'end when'",
                              "add a line such as: end when round_number > 10 after round"),
    "missing_turn_block": (HEAD + "setup:\n    end game\n",
                           1, 1, "players take turns but there is no 'turn:' block",
                           "add 'turn:' with what a player does, or a 'round:' block without 'turn' statements"),
    "table_row_width": (HEAD + "table cards(name, value):\n    ace, 1\n    king\nturn:\n    end game\n",
                        5, 5, "this row of 'cards' has 1 values but the table has 2 columns (name, value)", ""),
    "declared_twice": (HEAD + "var deck = []\nvar deck = [1]\nturn:\n    end game\n",
                       4, 1, "'deck' is declared twice", "the first is at line 3"),
    "block_declared_twice": (HEAD + "turn:\n    end game\nturn:\n    end game\n",
                             5, 1, "'turn' is declared twice", "the first is at line 3"),
    "rank_by_shared_var": (HEAD + "var score = 0\nrank by score descending\nturn:\n    end game\n",
                           4, 1, "'rank by score': 'score' is not a player variable", ""),
    "board_guard_non_option": (HEAD + "var big = true\nboard b when big: grid 3 by 3\nturn:\n    end game\n",
                               4, 14, "a board's 'when' may use only options and the player count, not 'big'", ""),
    "break_outside_loop": (HEAD + "turn:\n    if true:\n        break\n    end game\n",
                           5, 9, "'break' is not inside a loop", "'break' leaves a 'for', 'while' or 'repeat'"),
    "choice_with_nobody_to_choose": (HEAD + "setup:\n    choose x in [1, 2]\nturn:\n    end game\n",
                                     4, 5, "nobody is named to make this choice: 'me' has no value here",
                                     "say who chooses with 'by', for example: by first_player"),
    "grid_too_tall": (HEAD + "board b: grid 30 by 3\nturn:\n    end game\n",
                      3, 10, "a grid of 30 by 3 cannot be drawn",
                      "a grid has 1 to 26 rows (named A to Z) and 1 to 99 columns"),
    "grid_headings": (HEAD + "board b: grid 3 by 3 headings n e s\nturn:\n    end game\n",
                      3, 10, "a grid has 4 or 8 different headings, not 3",
                      "list them counter-clockwise, starting with the direction of increasing column"),
    "table_key_twice": (HEAD + "table cards(name, value):\n    ace, 1\n    ace, 11\nturn:\n    end game\n",
                        5, 5, "'cards' has two different rows for 'ace'",
                        "the first is at line 4; repeat identical rows with '* N'"),
    "named_argument_to_def": (HEAD + "def twice(x) = x * 2\nvar y = twice(x: 1)\nturn:\n    end game\n",
                              4, 9, "'twice' takes no named arguments", "write twice(x)"),
    "record_field_twice": (HEAD + "record pair(a, b)\nvar p = pair(a: 1, a: 2)\nturn:\n    end game\n",
                           4, 20, "record 'pair': field 'a' is given twice", "keep one"),
    "function_without_call": (HEAD + "turn:\n    log \"{len}\"\n    end game\n",
                              4, 11, "'len' is a function; call it: len(...)", ""),
    "no_game_name": ("players 2\nturn:\n    end game\n",
                     1, 1, "the rules do not name the game", 'start the file with: game "Name"'),
}


@pytest.mark.parametrize("text, line, column, message, hint", MISTAKES.values(), ids=MISTAKES.keys())
def test_each_mistake_is_reported_once_at_its_place(diagnose, text, line, column, message, hint):
    d = only(diagnose(text))
    assert (d.file, d.line, d.column, d.message, d.hint) == ("test.rules", line, column, message, hint)
    assert d.source_line == text.split("\n")[line - 1]


@pytest.mark.parametrize("text", [m[0] for m in MISTAKES.values()], ids=MISTAKES.keys())
def test_rendered_diagnostics(diagnose, text, snapshot):
    assert "\n".join(d.render() for d in diagnose(text)) == snapshot


# ----------------------------------------------------------------------------- what must not be reported
def test_a_correct_game_has_no_diagnostics(diagnose):
    assert diagnose(HEAD + """
option size: small | large
enum colour: red, blue
table cards(name, value):
    ace, 1 * 2
    king, 13
var deck = []
player var score = 0
player var hand = [] secret
record pair(a, b)
def double(x) = x * 2
procedure deal(n):
    repeat n times:
        if len(deck) == 0:
            return 0
        draw c from deck
        add c to hand[me]
    return n
setup:
    deck = [c in cards]
    shuffle deck
turn:
    let got = 0
    got = deal(1)
    if size == large and got > 0:
        me.score += double(got)
    for c in me.hand:
        if c == "ace":
            break
    choose:
        "play" if len(me.hand) > 0:
            choose c in me.hand as "play {c}" optional "keep"
        "pass":
            pass
end when len(deck) == 0 after round
rank by score descending
""") == []


def test_option_compared_with_a_variable_is_not_a_value_it_never_has(diagnose):
    text = HEAD + "option bonus: 0 | 5\nplayer var score = 0\nturn:\n" \
                  "    if bonus == me.score or bonus == player_count:\n" \
                  "        pass\n    end game\n"
    assert diagnose(text) == []


def test_break_in_each_kind_of_loop_is_fine(diagnose):
    assert diagnose(HEAD + """
turn:
    for p in players:
        break
    while true:
        break
    repeat 3 times:
        break
    end game
""") == []


def test_choice_in_setup_with_by_is_fine(diagnose):
    assert diagnose(HEAD + "var x = 0\nsetup:\n    choose y in [1, 2] by first_player\n    x = y\n"
                           "turn:\n    end game\n") == []


def test_simultaneous_choice_in_round_needs_no_by(diagnose):
    assert diagnose(HEAD + "player var bid = 0\nround:\n    each p in players secretly choose b in [1, 2]:\n"
                           "        reveal b\n        bid[p] = b\n    end game\n") == []


def test_identical_table_rows_may_repeat(diagnose):
    assert diagnose(HEAD + "table t(k, v):\n    a, 1\n    a, 1\nturn:\n    end game\n") == []


def test_round_block_without_turn_statements_needs_no_turn_block(diagnose):
    assert diagnose(HEAD + "round:\n    end game\n") == []


def test_diagnostics_come_in_file_order(diagnose):
    found = diagnose(HEAD + "turn:\n    log \"{zz}\"\n    x = 1\n    log \"{yy}\"\n    end game\n")
    assert [(d.line, d.message.split("'")[1]) for d in found] == [(4, "zz"), (5, "x"), (6, "yy")]


# ----------------------------------------------------------------------------- through the API
def test_load_raises_rules_compile_error_with_every_diagnostic(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text(HEAD + "turn:\n    log \"{zz}\"\n    x = 1\n    end game\n")
    with pytest.raises(RulesCompileError) as info:
        load(str(path))
    assert [d.line for d in info.value.diagnostics] == [4, 5]
    assert str(path) in str(info.value)


@pytest.mark.parametrize("text, column, message", [
    ("def progress(p, q) = p.score\n", 1,
     "'def progress' tells how near one player is to the end: it takes that player, not 2 parameters"),
    ("def progress(p) = p.score > 3\n", 19, "'def progress' needs a number, but this is a yes/no value"),
])
def test_a_progress_measure_takes_one_player_and_gives_a_number(diagnose, text, column, message):
    d = only(diagnose(HEAD + "player var score = 0\n" + text + "turn:\n    end game\n"))
    assert (d.line, d.column, d.message) == (4, column, message)
