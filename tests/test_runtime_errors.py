"""Run-time errors: located (file:line:col, the source line, a caret, the rule), explained in the language's
words with a hint, never Python's own text. And the value semantics of 'let', '=', 'add', 'for' and 'choose'.

Every rules file here passes the checker: these are the mistakes only running the game can find.
"""
from __future__ import annotations

import json

import pytest

from rulewright.dsl import ast
from rulewright.dsl.errors import IllegalMoveError, RulesRuntimeError
from rulewright.interpreter.engine import limits
from rulewright.interpreter.api import Game, load
from rulewright.interpreter.compile.instructions import Choose, End, Exec, ForNext, Jump, JumpUnless, Return
from rulewright.interpreter.testing import game_from_text

HEAD = 'game "T"\nplayers 2\n'


def game_of(text: str) -> Game:
    return game_from_text(text, 2, filename="x.rules")  # a run-time mistake, not a compile-time one


def error_of(text: str) -> RulesRuntimeError:
    with pytest.raises(RulesRuntimeError) as info:
        game_of(text).new_state(1)
    return info.value


# ----------------------------------------------------------------------------- the whole message, word for word
def test_an_item_past_the_end_of_a_list():
    err = error_of(HEAD + 'var deck = [1, 2, 3]\nturn:\n    let n = 5\n    log "card {deck[n]}"\n    end game\n')
    assert str(err) == (
        "x.rules:6:16: error: in 'turn': there is no item 5 in a list of 3 items\n"
        '        log "card {deck[n]}"\n'
        "                   ^\n"
        "  hint: lists count from 1: xs[1] is the first item, xs[len(xs)] or xs[-1] the last")


def test_text_added_to_a_number():
    err = error_of(HEAD + 'player var score = 0\nturn:\n    let label = "points"\n'
                          '    me.score = me.score + label\n    end game\n')
    assert str(err) == (
        "x.rules:6:16: error: in 'turn': cannot add a number and text\n"
        "        me.score = me.score + label\n"
        "                   ^\n"
        "  hint: '+' adds two numbers, or joins two texts or two lists; to put a value into text, "
        "write \"{x}\" or text(x)")


def test_drawing_from_an_empty_list():
    err = error_of(HEAD + "var deck = []\nturn:\n    draw card from deck\n    end game\n")
    assert str(err) == (
        "x.rules:5:5: error: in 'turn': cannot draw from an empty list\n"
        "        draw card from deck\n"
        "        ^\n"
        "  hint: check first ('if len(deck) > 0:'), or refill the list before drawing")


def test_a_missing_map_entry():
    err = error_of(HEAD + 'record card(rank, suit)\nturn:\n    let c = {"rank": 7}\n'
                          '    log "{c.rank} of {c.suit}"\n    end game\n')
    assert str(err) == (
        "x.rules:6:23: error: in 'turn': no entry 'suit' in the map '7'\n"
        '        log "{c.rank} of {c.suit}"\n'
        "                          ^\n"
        "  hint: a map has only the keys set in it: read m[\"suit\"] to get none for a missing key, or set it first")


def test_removing_a_key_a_map_does_not_have():
    err = error_of(HEAD + 'var pieces = {}\nturn:\n    remove "B2" from pieces\n    end game\n')
    assert str(err) == (
        "x.rules:5:5: error: in 'turn': no entry 'B2' in the map to remove\n"
        '        remove "B2" from pieces\n'
        "        ^\n"
        "  hint: a map forgets only a key it has: check first ('if k in m:')")


def test_division_by_zero():
    err = error_of(HEAD + 'var pot = 12\nturn:\n    let others = len(players) - 2\n'
                          '    log "each gets {pot / others}"\n    end game\n')
    assert str(err) == (
        "x.rules:6:21: error: in 'turn': division by zero\n"
        '        log "each gets {pot / others}"\n'
        "                        ^\n"
        "  hint: check the number you divide by first ('if n != 0:')")


def test_a_def_that_calls_itself_forever():
    err = error_of(HEAD + 'def countdown(n) = countdown(n - 1)\nturn:\n    log "{countdown(3)}"\n    end game\n')
    assert str(err) == (
        "x.rules:5:11: error: in 'turn': defs call each other too deep (one that calls itself without end?)\n"
        '        log "{countdown(3)}"\n'
        "              ^\n"
        "  hint: a def that calls itself needs a case that does not ('x if done else f(...)'), and each call "
        "must come closer to it")


def test_fail_says_the_rules_own_words():
    err = error_of(HEAD + 'var coins = 0\nturn:\n    if coins < 1:\n        fail "player {me} has no coin to pay"\n'
                          '    end game\n')
    assert str(err) == (
        "x.rules:6:9: error: in 'turn': player 1 has no coin to pay\n"
        '            fail "player {me} has no coin to pay"\n'
        "            ^\n"
        "  hint: the rules' own 'fail' stopped the game: what it guards against has happened")


def test_the_step_budget(monkeypatch):
    monkeypatch.setattr(limits, "STEPS", 1000)
    err = error_of(HEAD + "var n = 0\nturn:\n    while n >= 0:\n        n += 1\n    end game\n")
    assert str(err) == (
        "x.rules:5:5: error: in 'turn': the rules ran 1,000 steps without asking for a decision\n"
        "        while n >= 0:\n"
        "        ^\n"
        "  hint: this is an endless loop: check that the loop's condition can become false, or that it reaches "
        "a 'choose' (or 'break') on every turn through it")


def test_an_end_condition_that_fails_points_at_itself():
    err = error_of(HEAD + "var track = []\nturn:\n    pass\nend when track[1] > 5 after turn\n")
    assert str(err) == (
        "x.rules:6:10: error: in 'end when': there is no item 1 in an empty list\n"
        "    end when track[1] > 5 after turn\n"
        "             ^\n"
        "  hint: lists count from 1: xs[1] is the first item, xs[len(xs)] or xs[-1] the last")


def test_the_error_carries_its_diagnostic():
    err = error_of(HEAD + "var deck = []\nturn:\n    draw card from deck\n    end game\n")
    d = err.diagnostic
    assert (d.file, d.line, d.column, d.severity) == ("x.rules", 5, 5, "error")
    assert d.message == "in 'turn': cannot draw from an empty list"
    assert d.source_line == "    draw card from deck"
    assert err.message == "cannot draw from an empty list" and err.diagnostics == [d]
    assert str(err) == d.render()


def test_an_error_in_a_base_file_quotes_the_base_file(tmp_path):
    (tmp_path / "a.rules").write_text(HEAD + "var deck = []\nturn:\n    draw card from deck\n    end game\n")
    (tmp_path / "b.rules").write_text('extends "a.rules"\nvar extra = 1\n')
    with pytest.raises(RulesRuntimeError) as info:
        load(str(tmp_path / "b.rules")).new_state(1)
    d = info.value.diagnostic
    assert d.file.endswith("a.rules") and (d.line, d.column) == (5, 5)
    assert d.source_line == "    draw card from deck"


def test_the_caret_stays_on_the_statement_when_the_fault_may_be_inside_a_def():
    # xs[1] is fine; the index that fails is in g's body: pointing at xs[1] would be a lie
    err = error_of(HEAD + 'var xs = [1]\ndef g(n) = xs[n]\nturn:\n    log "{xs[1]} {g(4)}"\n    end game\n')
    assert (err.diagnostic.line, err.diagnostic.column) == (6, 5)
    assert err.message == "there is no item 4 in a list of 1 item"


# ----------------------------------------------------------------------------- never Python's own words
BROKEN = {
    "compare text and a number": 'let a = "x"\n    if a < 3:\n        pass',
    "negate text": 'let a = "x"\n    let b = -a',
    "an item of none": "let a = none\n    let b = a[1]",
    "len of a number": "let a = 5\n    let b = len(a)",
    "in a number": "let a = 5\n    if 3 in a:\n        pass",
    "for over a number": "let a = 5\n    for x in a:\n        pass",
    "a list as a map key": "let k = [1]\n    let m = {}\n    m[k] = 3\n    log \"{len(m)}\"",
    "sorted of mixed kinds": 'let xs = [1, "a"]\n    let ys = sorted(xs)',
    "sum of text": 'let xs = [1, "a"]\n    let n = sum(xs)',
    "text % number": 'let a = "x%d"\n    let b = a % 3',
    "text * text": 'let a = "x"\n    let y = "y"\n    let b = a * y',
    "a field of a number": "let c = 5\n    log \"{c.rank}\"",
    "a list position that is text": 'let xs = [1]\n    let i = "a"\n    xs[i] = 2\n    log "{xs}"',
    "roll of text": 'let z = "a"\n    let s = roll(z)',
    "roll of 0": "let s = roll(0)",
    "a player that is not one": "let p = 7\n    p.score += 1",
}
PYTHON_WORDS = ("object", "NoneType", "operand", "'int'", "'str'", "'list'", "'dict'", "subscriptable", "iterable",
                "attribute", "instances", "concatenate", "Traceback", "randrange", "integer")


@pytest.mark.parametrize("body", BROKEN.values(), ids=list(BROKEN))
def test_python_errors_are_put_in_the_language_s_words(body):
    err = error_of(HEAD + "record card(rank, suit)\nplayer var score = 0\nturn:\n    " + body + "\n    end game\n")
    text = str(err)
    assert text.startswith("x.rules:") and ": error: in 'turn': " in text
    assert "\n  hint: " in text
    assert not [w for w in PYTHON_WORDS if w in text], text


def test_a_space_that_is_not_on_the_board():
    # (a function the board's kind lacks, step() on a graph, is the checker's: tests/test_symbols.py)
    err = error_of(HEAD + 'board b: grid 3 by 3\nturn:\n    let s = row("Z9")\n    end game\n')
    assert err.message == "'Z9' is not a space of the board"
    assert err.hint == "a space of this grid is a row letter and a column number, from A1 to C3"


# ----------------------------------------------------------------------------- refused and failing moves
PICK = HEAD + 'var taken = []\nturn:\n    choose x in [1, 2, 3]\n    if x == 3:\n        fail "three"\n' \
              '    add x to taken\n    if len(taken) == 4:\n        end game\n'


def test_a_refused_move_leaves_the_state_exactly_as_it_was():
    state = game_of(PICK).new_state(1)
    before = json.dumps(state.to_json(), sort_keys=True)
    for move in ("9", "four", ""):
        with pytest.raises(IllegalMoveError):
            state.apply(move)
    with pytest.raises(IllegalMoveError):
        state.apply("1", player=2)  # not player 2's decision
    assert json.dumps(state.to_json(), sort_keys=True) == before


# ----------------------------------------------------------------------------- instructions
def test_instructions_are_typed_and_know_their_columns():
    game = game_of(HEAD + "var xs = [1, 2]\nturn:\n    for x in xs:\n        choose y in [x, 3]\n    end game\n")
    turn = game.compiled.procs["turn"]
    assert [type(i) for i in turn.instructions] == [Exec, ForNext, Choose, Jump, Exec, End, Return]
    assert [(s.line, s.column) for s in turn.spans] == [(5, 5), (5, 5), (6, 9), (5, 5), (5, 5), (7, 5), (7, 5)]
    assert all(isinstance(s, ast.Span) for s in turn.spans)
    assert turn.lines == (5, 5, 6, 5, 5, 7, 7)
    spec = turn.instructions[2].spec
    assert spec.var == "y" and spec.where is None and spec.secret is False
    assert turn.instructions[3].target.pc == 1  # back to the loop's head


def test_an_if_jumps_over_its_body():
    turn = game_of(HEAD + "var n = 0\nturn:\n    if n > 0:\n        n = 1\n    end game\n").compiled.procs["turn"]
    test, body, jump = turn.instructions[:3]
    assert isinstance(test, JumpUnless) and (test.span.line, test.span.column) == (5, 8)
    assert isinstance(body, Exec) and isinstance(jump, Jump)
    assert test.target.pc == 3  # past the body and the jump


def test_hidden_locals_keep_their_names():
    state = game_of(HEAD + "var xs = [1, 2]\nturn:\n    for x in xs:\n        choose y in [x, 3]\n    end game\n"
                    ).new_state(1)
    assert {"$items0", "$i1", "x"} <= set(state.frames[-1].locals)


# ----------------------------------------------------------------------------- value semantics
def run_vars(body: str, head: str = "") -> dict:
    return game_of(HEAD + head + "turn:\n" + body + "    end game\n").new_state(1).vars


def test_let_copies():
    v = run_vars("    let h = hand\n    add 3 to h\n    seen = h\n", "var hand = [1, 2]\nvar seen = []\n")
    assert v["hand"] == [1, 2] and v["seen"] == [1, 2, 3]


def test_let_of_a_record_copies_it():
    # the copy is read afterwards: a change to a copy that nothing reads is refused (tests/test_lost_writes.py)
    v = run_vars("    let c = last(cards)\n    c.up = true\n    log \"{c.up}\"\n",
                 "record card(rank, up)\nvar cards = []\nsetup:\n    add card(1, false) to cards\n")
    assert v["cards"] == [{"rank": 1, "up": False}]


def test_assignment_copies_into_a_variable_and_into_a_local():
    v = run_vars("    other = hand\n    add 3 to other\n    let h = []\n    h = hand\n    add 4 to h\n    log \"{h}\"\n",
                 "var hand = [1, 2]\nvar other = []\n")
    assert v["hand"] == [1, 2] and v["other"] == [1, 2, 3]


def test_add_copies():
    v = run_vars("    let c = card(1, false)\n    add c to cards\n    c.up = true\n    log \"{c.up}\"\n",
                 "record card(rank, up)\nvar cards = []\n")
    assert v["cards"] == [{"rank": 1, "up": False}]


def test_a_value_returned_into_a_local_is_a_copy():
    v = run_vars("    let c = top()\n    c.up = true\n    log \"{c.up}\"\n",
                 "record card(rank, up)\nvar cards = []\nsetup:\n    add card(1, false) to cards\n"
                 "procedure top():\n    return cards[1]\n")
    assert v["cards"] == [{"rank": 1, "up": False}]


def test_a_for_item_is_the_item_itself():
    # 'for t in course: t.up = true' turns the tiles of the list: loop items are not copies
    v = run_vars("    for t in course:\n        t.up = true\n",
                 "record tile(kind, up)\nvar course = []\nsetup:\n    add tile(1, false) to course\n"
                 "    add tile(2, false) to course\n")
    assert v["course"] == [{"kind": 1, "up": True}, {"kind": 2, "up": True}]


def test_a_chosen_item_is_the_item_itself():
    state = game_of(HEAD + "record tile(kind, up)\nvar course = []\nsetup:\n    add tile(1, false) to course\n"
                           "turn:\n    choose t in course as \"turn {t.kind}\"\n    t.up = true\n    end game\n"
                    ).new_state(1)
    state.apply("turn 1")
    assert state.vars["course"] == [{"kind": 1, "up": True}]


def test_a_procedure_parameter_is_the_value_passed():
    v = run_vars("    flip(course[1])\n",
                 "record tile(kind, up)\nvar course = []\nsetup:\n    add tile(1, false) to course\n"
                 "procedure flip(t):\n    t.up = true\n")
    assert v["course"] == [{"kind": 1, "up": True}]


def test_a_choose_whose_alternatives_are_all_shut_says_so_in_the_rules_words(make_game):
    """Not "no legal choice for '$alt0'": the alternatives' name is the engine's own."""
    game = make_game('game "Shut"\nplayers 2\nvar n = 0\nturn:\n    choose:\n        "a" if n > 0:\n'
                     '            n -= 1\n        "b" if n > 1:\n            n -= 2\n    end game\n')
    with pytest.raises(RulesRuntimeError) as caught:
        game.new_state(seed=1)
    text = str(caught.value)
    assert "no alternative of this 'choose:' can be taken" in text and "$" not in text
