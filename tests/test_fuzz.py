"""Fuzzing the front end: whatever text comes in, parse + check + compile raise nothing but RulesError.

Random text, token soup, and mutated copies of real rules files (characters and lines deleted,
inserted, swapped, re-indented). Every crash the fuzzers found is kept below as a regular test.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rulewright.dsl.errors import RulesError, RulesSyntaxError
from rulewright.dsl.parser import parse
from rulewright.interpreter.engine import limits
from rulewright.interpreter.api import Game, player_range
from rulewright.interpreter.check.checker import check

ROOT = Path(__file__).resolve().parent.parent
TIC_TAC_TOE = (ROOT / "games" / "classic" / "tic-tac-toe.rules").read_text()
MANY_CONSTRUCTS = (Path(__file__).parent / "rules" / "many-constructs.rules").read_text()

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MUTANTS = settings(FUZZ, max_examples=300)


def front_end(text: str):
    """Parse, check and compile; a RulesError is a fine answer, anything else is a bug."""
    try:
        rules = parse(text, "fuzz.rules")
        if any(d.severity == "error" for d in check(rules)):
            return None
        low, _high = player_range(rules)
        return Game(rules, low, {})
    except RulesError:
        return None


def play_a_little(game, moves: int = 8):
    """Run a compiled mutant a few moves: the engine too must answer only with RulesError."""
    try:
        state = game.new_state(0)
        for _ in range(moves):
            if state.is_over():
                break
            state.apply(state.legal_moves()[-1])
    except RulesError:
        pass


# ----------------------------------------------------------------------------- strategies
WORDS = ["game", '"G"', "players", "2", "..", "option", "var", "player", "turn", "setup", "round", "scoring",
         "if", "elif", "else", "for", "in", "while", "repeat", "times", "choose", "where", "by", "as", "optional",
         "each", "secretly", "end", "when", "after", "let", "log", "win", "me", "none", "true", "not", "and",
         "x", "marks", "grid", "board", "table", "record", "def", "procedure", "return", "break", "draw", "from",
         "add", "to", "remove", "move", "shuffle", "rank", "teams", "display", "extends", "step", "fail", "pass",
         ":", ",", ".", "=", "==", "+=", "(", ")", "[", "]", "{", "}", '"{x}"', '"', "#", "\\", "->", "*", "-",
         "\n", "\n    ", "\n        ", "\t", "1", "99", "count(s in grid where s)", "sum(p in players: p)"]

token_soup = st.lists(st.sampled_from(WORDS), max_size=60).map(" ".join)
random_text = st.text(alphabet=st.sampled_from(list(" \n\t:()[]{}\"#,.=+-*/<>|\\0123456789abxyz_")) | st.characters(),
                      max_size=300)


@st.composite
def mutated(draw, base: str):
    """``base`` with a few characters or lines deleted, inserted, swapped or re-indented."""
    text = base
    for _ in range(draw(st.integers(1, 5))):
        kind = draw(st.sampled_from(["del", "ins", "swap", "del_line", "dup_line", "swap_lines", "indent"]))
        at = draw(st.integers(0, max(len(text) - 1, 0)))
        if kind == "del":
            text = text[:at] + text[at + draw(st.integers(1, 4)):]
        elif kind == "ins":
            text = text[:at] + draw(st.sampled_from(WORDS)) + text[at:]
        elif kind == "swap" and len(text) > at + 1:
            text = text[:at] + text[at + 1] + text[at] + text[at + 2:]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if kind == "del_line":
                del lines[i]
            elif kind == "dup_line":
                lines.insert(i, lines[j])
            elif kind == "swap_lines":
                lines[i], lines[j] = lines[j], lines[i]
            else:
                lines[i] = draw(st.sampled_from(["", "  ", "    ", "        ", "\t"])) + lines[i].lstrip()
            text = "\n".join(lines)
    return text


# ----------------------------------------------------------------------------- fuzzers
@FUZZ
@given(random_text)
def test_random_text(text):
    front_end(text)


@FUZZ
@given(token_soup)
def test_token_soup(text):
    front_end(text)


@MUTANTS
@given(text=mutated(TIC_TAC_TOE))
def test_mutated_tic_tac_toe(text, monkeypatch_budget):
    game = front_end(text)
    if game is not None:
        play_a_little(game)


@MUTANTS
@given(text=mutated(MANY_CONSTRUCTS))
def test_mutated_rules_with_many_constructs(text, monkeypatch_budget):
    game = front_end(text)
    if game is not None:
        play_a_little(game)


@pytest.fixture(scope="module")
def monkeypatch_budget():
    """A mutant may loop forever: give up sooner than the real budget (module-wide, restored after)."""
    saved = limits.STEPS
    limits.STEPS = 20_000
    yield
    limits.STEPS = saved


# Small programs built from the grammar: more of them get through the checker, so the compiler, the
# engine, views, rendering and saves are fuzzed too.
ATOMS = ["0", "1", "7", "-2", "me", "x", "xs", "score", "players", "player_count", "round_number", "grid", "none",
         "true", '"A1"', '"B2"', "[]", "small", "big"]
expressions = st.recursive(
    st.sampled_from(ATOMS),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "%", "==", "!=", "<", "and", "or", "in"]), inner)
        .map(" ".join),
        st.tuples(st.sampled_from(["len", "abs", "max", "min", "sorted", "first", "range", "text", "row",
                                   "neighbours", "next_player", "random", "roll", "lines"]), inner)
        .map(lambda p: f"{p[0]}({p[1]})"),
        st.tuples(st.sampled_from(["count", "sum", "any", "max"]), inner, inner)
        .map(lambda p: f"{p[0]}(q in {p[1]}: {p[2]})"),
        st.lists(inner, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.tuples(inner, inner).map(lambda p: f"{p[0]}[{p[1]}]"),
        st.tuples(inner, inner).map(lambda p: "{" + f"{p[0]}: {p[1]}" + "}"),
        st.tuples(inner, inner, inner).map(lambda p: f"({p[0]} if {p[1]} else {p[2]})"),
        inner.map(lambda e: f"({e}).score"),
    ),
    max_leaves=6)
STATEMENTS = ["let x = {e}", "x = {e}", "xs = {e}", "me.score += {e}", "score[{e}] = {e}", 'log "{{{e}}}"',
              "add {e} to xs", "remove {e} from xs", "if {e}:\n        x = {e}", "for q in {e}:\n        x = q",
              "while {e}:\n        break", "choose c in {e} as \"c {{c}}\" optional \"no\"", "win {e}",
              "choose:\n        \"a\" if {e}:\n            x = 1\n        \"b\":\n            pass"]
SKELETON = """game "G"
players 2
option size: small | big
board grid: grid 3 by 3
var x = 0
var xs = [1, 2, 3]
player var score = 0
display s = {display}
turn:
{body}
end when round_number > 2
"""


@st.composite
def small_programs(draw):
    body = []
    for _ in range(draw(st.integers(1, 4))):
        template = draw(st.sampled_from(STATEMENTS))
        while "{e}" in template:
            template = template.replace("{e}", draw(expressions), 1)
        body.append("    " + template)
    return SKELETON.format(display=draw(expressions), body="\n".join(body))


@FUZZ
@given(text=small_programs())
def test_small_programs_run_views_render_and_saves(text, monkeypatch_budget):
    game = front_end(text)
    event("compiled" if game is not None else "refused")
    if game is None:
        return
    try:
        state = game.new_state(0)
        for _ in range(6):
            state.view(1), state.render(2), state.outcome()
            again = game.load_state(state.to_json())
            assert again.to_json() == state.to_json()
            if state.is_over():
                break
            state.apply(state.legal_moves()[0])
    except RulesError:
        pass


def test_the_bases_are_valid_games():
    for base in (TIC_TAC_TOE, MANY_CONSTRUCTS):
        assert front_end(base) is not None


# ----------------------------------------------------------------------------- crashes found, kept
HEAD = 'game "G"\nplayers 2\n'
END = "turn:\n    end game\n"

FOUND = {
    # the grammar's '(' expr ')' had slid under map_item: no parenthesised expression parsed, '{(1)}' crashed
    "parenthesised_in_map": HEAD + "var m = {(1)}\n" + END,
    # int() of a 5000-digit number raised ValueError inside the builder
    "huge_number": HEAD + "var x = " + "9" * 5000 + "\n" + END,
    "huge_number_in_option_range": HEAD + "option n: 1.." + "9" * 5000 + "\n" + END,
    # deep nesting exhausted Python's stack in the builder (RecursionError)
    "deep_negation": HEAD + "var x = " + "-" * 3000 + "1\n" + END,
    "long_sum": HEAD + "var x = " + "+".join(["1"] * 3000) + "\n" + END,
    "deep_lists": HEAD + "var x = " + "[" * 2000 + "]" * 2000 + "\n" + END,
    # 160 blocks deep: past the nesting limit (150), within the size limit
    "deep_blocks": HEAD + "turn:\n" + "".join("    " * (i + 1) + "if true:\n" for i in range(160))
    + "    " * 161 + "end game\n",
    # a RulesSyntaxError inside a {hole} came out wrapped in Lark's VisitError
    "quantifier_on_attribute_in_hole": HEAD + 'turn:\n    log "{a.b(x in players)}"\n    end game\n',
    # a {hole} in a string that must be plain text: AttributeError on Template.value
    "hole_in_game_name": 'game "G{1}"\nplayers 2\n' + END,
    "hole_in_option": HEAD + 'option o: "a{1}" | b\n' + END,
    "hole_in_table": HEAD + 'table t(k):\n    "a{1}"\n' + END,
    "hole_in_requirement": HEAD + 'require true else "{x}"\n' + END,
    "hole_in_extends": HEAD + 'extends "{x}"\n' + END,
    # 'break' outside a loop: IndexError in the compiler
    "break_outside_loop": HEAD + "turn:\n    if true:\n        break\n    end game\n",
    "break_in_choose_block": HEAD + 'turn:\n    choose:\n        "a":\n            break\n    end game\n',
    # a grid taller than the alphabet: IndexError naming its spaces
    "grid_of_30_rows": HEAD + "board b: grid 30 by 3\n" + END,
    # constants folded at compile time raised TypeError / ValueError
    "fold_type_error": HEAD + "option n: 0 | 1\nturn:\n    log \"{[1][n]}\"\n    end game\n",
    "fold_in_board_guard": HEAD + 'board b when player_count > "a": grid 2 by 2\n' + END,
    "fold_in_requirement": HEAD + 'require player_count > "a" else "no"\n' + END,
    "starting_value": HEAD + "var x = [1][5]\n" + END,
}


@pytest.mark.parametrize("text", FOUND.values(), ids=FOUND.keys())
def test_crashes_found_are_now_rules_errors(text):
    game = front_end(text)
    if game is not None:
        play_a_little(game)


@pytest.mark.parametrize("text", [FOUND["deep_negation"], FOUND["long_sum"], FOUND["deep_blocks"]])
def test_deep_nesting_is_a_syntax_error(text):
    with pytest.raises(RulesSyntaxError, match="nests more than"):
        parse(text)
