"""The compiler: options and the player count fold to constants (a branch they turn off costs nothing),
options are validated, and what cannot be computed fails where it runs, with its line."""
from __future__ import annotations

import re

import pytest

from rulewright.dsl.errors import OptionError, RulesRuntimeError
from rulewright.interpreter.api import option_values

HEAD = 'game "T"\nplayers 2..4\n'

VARIANT = HEAD + """
option scoring: simple | bonus
player var score = 0
turn:
    me.score += 1
    if scoring == bonus:
        me.score += 10
        log "bonus for {me}"
    if player_count == 4:
        log "four"
    end game
"""
BONUS_LINES = {9, 10}  # the lines of the branch that 'scoring: simple' turns off


def test_a_branch_turned_off_by_an_option_is_not_compiled(make_game):
    simple = make_game(VARIANT).compiled.procs["turn"]
    bonus = make_game(VARIANT, options={"scoring": "bonus"}).compiled.procs["turn"]
    assert not BONUS_LINES & set(simple.lines)
    assert BONUS_LINES <= set(bonus.lines)
    assert len(simple.code) < len(bonus.code)


def test_a_branch_turned_on_needs_no_test_at_run_time(make_game):
    bonus = make_game(VARIANT, options={"scoring": "bonus"}).compiled.procs["turn"]
    unconditional = VARIANT.replace("    if scoring == bonus:\n        me.score += 10\n        log \"bonus for {me}\"\n",
                                    "    me.score += 10\n    log \"bonus for {me}\"\n")
    plain = make_game(unconditional).compiled.procs["turn"]
    assert len(bonus.code) == len(plain.code)


def test_the_player_count_folds_too(make_game):
    two = make_game(VARIANT, players=2).compiled.procs["turn"]
    four = make_game(VARIANT, players=4).compiled.procs["turn"]
    assert 12 not in two.lines and 12 in four.lines


def test_folded_branches_still_behave(make_game):
    def log_of(**kw):
        state = make_game(VARIANT, **kw).new_state(1)
        return [e["text"] for e in state.drain_events() if e["event"] in ("log", "reveal")], state.vars["score"]
    assert log_of(players=2) == ([], [1, 0])
    assert log_of(players=4, options={"scoring": "bonus"}) == (["bonus for 1", "four"], [11, 0, 0, 0])


def test_an_error_in_a_branch_turned_off_never_happens(make_game):
    text = HEAD + "option parts: 2 | 0\nturn:\n    if parts == 0:\n        log \"{12 / parts}\"\n    end game\n"
    assert make_game(text).new_state(1).is_over()
    with pytest.raises(RulesRuntimeError, match=r"^test\.rules:6:15: error: in 'turn': division by zero\n"):
        make_game(text, options={"parts": 0}).new_state(1)


@pytest.mark.parametrize("expression, message", [
    ("12 / n", "division by zero"),
    ("[1, 2][n]", "there is no item 0: lists count from 1"),
])
def test_a_constant_that_cannot_be_computed_fails_when_it_runs(make_game, expression, message):
    game = make_game(HEAD + "option n: 0 | 1\n"
                     f'turn:\n    log "x"\n    log "{{{expression}}}"\n    end game\n')
    with pytest.raises(RulesRuntimeError, match=rf"^test\.rules:6:11: error: in 'turn': {re.escape(message)}\n"):
        game.new_state(1)


def test_board_chosen_by_an_option(make_game):
    text = HEAD + """
option board: small | big
board tiny when board == small: grid 2 by 2
board large when board == big: graph
    A -> B
    B -> A
turn:
    end game
"""
    assert make_game(text).compiled.board.spaces == ["A1", "A2", "B1", "B2"]
    assert sorted(make_game(text, options={"board": "big"}).compiled.board.spaces) == ["A", "B"]


def test_tables_become_lists_of_keys_with_copies(make_game):
    game = make_game(HEAD + "table cards(name, value):\n    ace, 1 * 3\n    king, 13\nturn:\n    end game\n")
    assert game.compiled.tables["cards"] == ["ace", "ace", "ace", "king"]
    assert game.compiled.columns["value"] == {"ace": 1, "king": 13}


def test_defaults_are_the_first_values(make_game):
    game = make_game(HEAD + "option a: x | y\noption n: 3 | 5\nturn:\n    end game\n")
    assert game.options == {"a": "x", "n": 3}
    assert option_values(game.rules) == {"a": ["x", "y"], "n": [3, 5]}
    assert game.player_count == 2


def test_option_given_as_text_matches_a_number(make_game):
    assert make_game(HEAD + "option n: 3 | 5\nturn:\n    end game\n", options={"n": "5"}).options == {"n": 5}


@pytest.mark.parametrize("players, options, message", [
    (5, {}, "T is played by 2 to 4 players, not 5"),
    (2, {"sise": "x"}, "unknown option 'sise'; did you mean 'size'? (options: size)"),
    (2, {"size": "hugee"}, "option 'size' cannot be 'hugee'; did you mean 'huge'? (allowed: small | huge)"),
    (3, {}, "three players need the huge board"),
])
def test_bad_options_and_player_counts(make_game, players, options, message):
    text = HEAD + 'option size: small | huge\nrequire player_count != 3 or size == huge else "three players need the ' \
                  'huge board"\nturn:\n    end game\n'
    with pytest.raises(OptionError) as info:
        make_game(text, players=players, options=options)
    assert str(info.value) == message


def test_requirement_met(make_game):
    text = HEAD + 'option size: small | huge\nrequire player_count != 3 or size == huge else "no"\n' \
                  'turn:\n    end game\n'
    assert make_game(text, players=3, options={"size": "huge"}).player_count == 3


def test_compiled_instructions_know_their_lines(make_game):
    game = make_game(HEAD + "var n = 0\nturn:\n    n += 1\n    n += 2\n    end game\n")
    assert set(game.compiled.procs["turn"].lines) >= {5, 6, 7}


def test_other_rules_have_another_digest(make_game):
    a = make_game(HEAD + "turn:\n    end game\n").compiled.digest
    b = make_game(HEAD + "turn:\n    end game  # changed\n").compiled.digest
    assert a != b and a == make_game(HEAD + "turn:\n    end game\n").compiled.digest
