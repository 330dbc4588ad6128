"""Comparing, showing and observing values counts its work (issue 37, item 5; engine/compare.py).

A list holding the same list twice, forty levels deep, is a trillion items to compare, print or
flatten; two long lists compared in a loop are the length of the list a pass. Each hostile rules file
below ends at a located error under small limits; before, each ran for hours (or filled the memory):
they run in a child process with a generous timeout, so that a hang fails the test rather than hangs
the suite."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import rulewright
from rulewright.dsl.errors import RulesError
from rulewright.interpreter.engine import compare
from rulewright.interpreter.engine.limits import Budget, set_limits

SMALL = ("--max-steps", "20000", "--max-work", "20000", "--max-items", "5000", "--max-digits", "50")
HANG = 60  # seconds: these end within a second; a child still running after this hangs
DOUBLED = "def g(x, n) = x if n == 0 else g([x, x], n - 1)\n"  # g(1, 40): 2^40 items, 40 lists
TAIL = "    choose c in [1]\n    end game\n"

# each: the rules' body (after the head), the line the error points at
HOSTILE = {
    "==": (DOUBLED + "turn:\n    let y = g(1, 40) == g(0 + 1, 40)\n", "let y = g(1, 40) == g(0 + 1, 40)"),
    "!=": (DOUBLED + "turn:\n    let y = g(1, 40) != g(0 + 1, 40)\n", "let y = g(1, 40) != g(0 + 1, 40)"),
    "<": (DOUBLED + "turn:\n    let y = g(1, 40) < g(0 + 1, 40)\n", "let y = g(1, 40) < g(0 + 1, 40)"),
    ">=": (DOUBLED + "turn:\n    let y = g(1, 40) >= g(0 + 1, 40)\n", "let y = g(1, 40) >= g(0 + 1, 40)"),
    "in": (DOUBLED + "turn:\n    let y = g(1, 40) in [g(0 + 1, 40)]\n", "let y = g(1, 40) in [g(0 + 1, 40)]"),
    "not in": (DOUBLED + "turn:\n    let y = g(1, 40) not in [5, g(0 + 1, 40)]\n", "not in [5, g(0 + 1, 40)]"),
    "sorted": (DOUBLED + "turn:\n    let y = len(sorted([g(1, 40), g(0 + 1, 40)]))\n", "sorted([g(1, 40)"),
    "max": (DOUBLED + "turn:\n    let y = len(max(g(1, 40), g(0 + 1, 40)))\n", "max(g(1, 40)"),
    "without": (DOUBLED + "turn:\n    let y = len(without([g(1, 40)], g(0 + 1, 40)))\n", "without("),
    "a quantifier's min": (DOUBLED + "turn:\n    let y = len(min(x in [1, 1]: g(x, 40)))\n", "min(x in [1, 1]"),
    "a quantifier's lowest": (DOUBLED + "turn:\n    let y = len(lowest(x in [1, 1]: g(x, 40)))\n", "lowest(x in"),
    "a match's arm": (DOUBLED + "turn:\n    let y = match g(1, 40) { g(0 + 1, 40): 1, else: 2 }\n", "match g(1, 40)"),
    "options of one text": (DOUBLED + 'turn:\n    choose d in [g(1, 40), g(0 + 1, 40)] as "same"\n',
                            "choose d in [g(1, 40), g(0 + 1, 40)]"),
    # long lists and texts compared in a loop: each comparison goes through all of it (on main, the
    # steps ran out first: a thousand times the work counted)
    "two long lists in a loop": ("var a = range(4000)\nvar b = range(4000)\nvar n = 0\nturn:\n    while true:\n"
                                 "        if a == b:\n            n += 1\n", "if a == b:"),
    "two long texts in a loop": ("var s = text(range(1000))\nvar t = text(range(1000))\nvar n = 0\nturn:\n"
                                 "    while true:\n        if s < t or s == t:\n            n += 1\n", "if s < t"),
    # a record in a short list is compared inline only when its fields are numbers and short texts
    "a record holding a shared list": ("record box(v, w = 1)\n" + DOUBLED + "turn:\n"
                                       "    let y = box(g(1, 40)) in [box(g(0 + 1, 40))]\n", "let y = box(g(1, 40)) in"),
    "a record in a list, in a loop": ("record box(v, w = 1)\nvar r = box(1)\nvar b = [" + ", ".join(
                                      f"box({i})" for i in range(2, 22)) + "]\nvar n = 0\nturn:\n"
                                      "    while true:\n        if r in b:\n            n += 1\n", "if r in b:"),
    # records and maps made flat, then given a long list or text (by a field set, a field added to, an
    # entry set): the game's records are no longer compared inline (compare.Flatness)
    "a record's field set to a long list": ("record box(v, w = 1)\nvar a = box(1)\nvar b = box(1)\nvar n = 0\nturn:\n"
                                            "    a.v = range(4000)\n    b.v = range(4000)\n    while true:\n"
                                            "        if a in [b]:\n            n += 1\n", "if a in [b]:"),
    "a record's field joined to a long text": ("record box(v, w = 1)\nvar a = box(\"x\")\nvar b = box(\"x\")\nvar n = 0\n"
                                               "turn:\n    a.v += text(range(1000))\n    b.v += text(range(1000))\n"
                                               "    while true:\n        if a == b:\n            n += 1\n", "if a == b:"),
    "a map's entry set to a long list": ("var m = {}\nvar k = {}\nvar n = 0\nturn:\n    m[1] = range(4000)\n"
                                         "    k[1] = range(4000)\n    while true:\n        if m == k:\n            n += 1\n",
                                         "if m == k:"),
    # in a loop's function, a name from outside is tested once, before the loop (comparisons.py): a
    # def's argument holding a shared list still goes to the counted comparison at every item
    "a def's argument compared in a loop": (DOUBLED + "def same(x) = count(k in [1, 2] where g(k, 40) == x)\n"
                                            "turn:\n    let y = same(g(1, 40))\n", "let y = same(g(1, 40))"),
    "a def's short list looked in, in a loop": (DOUBLED + "def has(xs) = count(k in [1, 2] where g(k, 40) in xs)\n"
                                                "turn:\n    let y = has([g(1, 40)])\n", "let y = has([g(1, 40)])"),
    # a def's argument every other call gives a number (param_kinds.py), reached by a shared list
    # through another def's argument
    "a def's argument passed on by another def": (DOUBLED + "def same(x) = count(k in [1, 2] where g(k, 40) == x)\n"
                                                  "def via(y) = same(y)\nturn:\n    let z = same(3)\n"
                                                  "    let y = via(g(1, 40))\n", "let y = via(g(1, 40))"),
    "text looked for in a long text": ('var s = text(range(1000))\nvar n = 0\nturn:\n    while true:\n'
                                       '        if "x" in s:\n            n += 1\n', 'if "x" in s:'),
}


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def cli(*args) -> subprocess.CompletedProcess:
    """The command line in a child process, stopped (and the test failed) if it hangs."""
    try:
        return subprocess.run([sys.executable, "-m", "rulewright", *SMALL, *map(str, args)], capture_output=True,
                              text=True, timeout=HANG, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"rulewright {' '.join(map(str, args))} still running after {HANG} s")


def assert_located(result, rules: Path, line_text: str):
    assert result.returncode == 1, (result.returncode, result.stdout[-2000:], result.stderr[-2000:])
    out = result.stdout + result.stderr
    assert "Traceback" not in out, out
    assert f"{rules}:" in out and "items of work" in out and line_text in out, out


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_comparing_shared_or_long_values_counts_its_work(tmp_path, case):
    body, line_text = HOSTILE[case]
    rules = write(tmp_path, "hostile.rules", 'game "Hostile"\nplayers 2\n' + body + TAIL)
    assert_located(cli("play", rules, "--moves", "/dev/null"), rules, line_text)


def test_a_starting_value_compared_ends_validate_at_its_line(tmp_path):
    rules = write(tmp_path, "start.rules", 'game "Hostile"\nplayers 2\n' + DOUBLED
                  + "var v = g(1, 40) == g(0 + 1, 40)\nturn:\n" + TAIL)
    result = cli("validate", rules)
    assert_located(result, rules, "var v = g(1, 40) == g(0 + 1, 40)")
    assert f"{rules}:4:1: error: in 'var v'" in result.stdout + result.stderr


@pytest.mark.parametrize("where", ["table", "players", "own"])
@pytest.mark.parametrize("how", ["text", "svg"])
def test_showing_a_shared_value_counts_its_work(tmp_path, where, how):
    rules = write(tmp_path, "shown.rules", 'game "Hostile"\nplayers 2\n' + DOUBLED
                  + f'display:\n    {where} "Big" = g(1, 40)\nturn:\n' + TAIL)
    drawn = ("--svg", tmp_path / "table.svg") if how == "svg" else ()
    assert_located(cli("show", rules, "--seed", "1", "--as", "1", *drawn), rules, '"Big" = g(1, 40)')


OBSERVED = '''\
import sys
import rulewright
from rulewright.interpreter.engine.limits import set_limits
set_limits(work=20000)
st = rulewright.load(sys.argv[1]).new_state(seed=1)
try:
    st.observation_tensor(1)
except rulewright.RulesError as exc:
    print(exc)
'''


def test_observing_a_shared_value_counts_its_work(tmp_path):
    rules = write(tmp_path, "observed.rules", 'game "Hostile"\nplayers 2\n' + DOUBLED
                  + 'observe:\n    "big" = g(1, 40)\nturn:\n' + TAIL)
    try:  # before: 1.9 GB and counting (2^40 numbers flattened)
        result = subprocess.run([sys.executable, "-c", OBSERVED, str(rules)], capture_output=True, text=True,
                                timeout=HANG)
    except subprocess.TimeoutExpired:
        pytest.fail(f"observation_tensor still running after {HANG} s")
    assert result.returncode == 0, result.stderr[-2000:]
    assert f"{rules}:5:5: error: in 'observe'" in result.stdout and "items of work" in result.stdout, result.stdout


# ----------------------------------------------------------------------------- the same answers as Python
VALUES = [None, True, False, 0, 1, 2, "", "a", "b", "x" * 40, "x" * 39 + "y", [], [1], [1, 2], [2], ["a", [1]],
          [[1], [2]], [[1], [1]], {"a": 1}, {"a": [1]}, {"a": [2]}, {"b": 1}, list(range(40)), list(range(41)),
          [list(range(40))], [[1, 2]] * 40, [[1, 2]] * 39 + [[1, 3]], ["x" * 40] * 3]


def test_counted_comparisons_answer_as_python_does():
    ordered = {"<": compare.less, "<=": compare.less_or_equal, ">": compare.greater, ">=": compare.greater_or_equal}
    import operator
    ops = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
    for a in VALUES:
        for b in VALUES:
            budget = Budget()
            assert compare.equal(a, b, budget) == (a == b), (a, b)
            assert compare.not_equal(a, b, budget) == (a != b), (a, b)
            if type(b) in (list, str, dict):
                try:
                    expected = a in b
                except TypeError:
                    expected = TypeError
                if expected is TypeError:
                    with pytest.raises(RulesError):
                        compare.within(a, b, budget)
                else:
                    assert compare.within(a, b, budget) == expected, (a, b)
            for name, fn in ordered.items():
                try:
                    expected = ops[name](a, b)
                except TypeError:
                    with pytest.raises(RulesError):
                        fn(a, b, budget)
                    continue
                assert fn(a, b, budget) == expected, (name, a, b)


@pytest.fixture
def small_work():
    old = set_limits(work=20000)
    yield
    set_limits(**old)


def test_sorting_lists_of_lists_gives_pythons_order_and_errors(make_game, small_work):
    game = make_game('game "Sorts"\nplayers 2\nvar r = []\nvar m = []\nturn:\n'
                     '    r = sorted([[2, 1], [1, [3]], [1, [2]], [1]])\n'
                     '    m = [max([[1], [2, 0], [2]]), min(x in [3, 1, 2]: [x, [x]]), lowest(x in [1, 2, 1]: [x])]\n'
                     '    choose c in [1]\n    end game\n')
    st = game.new_state(seed=1)
    assert st.vars["r"] == sorted([[2, 1], [1, [3]], [1, [2]], [1]])
    assert st.vars["m"] == [[2, 0], [1, [1]], [1, 1]]
    bad = make_game('game "Bad"\nplayers 2\nturn:\n    let r = sorted([[1, [2]], [1, "a"]])\n    choose c in [1]\n'
                    '    end game\n')
    with pytest.raises(RulesError, match="cannot compare"):
        bad.new_state(seed=1)


def test_numbers_from_builtins_and_defs_compare_inline(make_game):
    """A comparison with a builtin's number (len) or a def's whose body surely gives a number or yes/no
    is Python's own, untested as it runs; a def that may give a list is still tested, and counted."""
    game = make_game('game "Counts"\nplayers 2\nvar hand = [1, 2, 3]\nvar piles = [[1], [2]]\n'
                     'def most() = 2 + len(piles) if len(hand) > 0 else 4\n'
                     'def pile(i) = piles[i]\n'
                     'turn:\n'
                     '    let a = len(hand) > most()\n'
                     '    let b = pile(1) == pile(2)\n'
                     '    choose c in [1]\n    end game\n')
    source = game.compiled.exprs.module.source()
    line_a = next(line for line in source.splitlines() if "env['a'] =" in line)
    assert ">" in line_a and "_ONE_STEP_TYPES" not in line_a and "_gt(" not in line_a
    line_b = next(line for line in source.splitlines() if "env['b'] =" in line)
    assert "_ONE_STEP_TYPES" in line_b and "_eq(" in line_b
    st = game.new_state(seed=1)
    assert st.legal_moves()


def test_a_record_in_a_list_is_found_as_python_finds_it(make_game):
    """The inline test of a record of numbers and short texts in a short list (comparisons.py) answers as
    Python's own ``in``: found by its fields, not by identity; a field holding a list, or a list too long
    for the free case, goes through compare.within and answers the same."""
    game = make_game('game "Records"\nplayers 2\nrecord pos(at, side = "up")\nvar seen = []\nturn:\n'
                     '    let xs = [pos("a1"), pos("b2", "down"), pos(3)]\n'
                     '    let long = xs + xs + xs + xs + xs + xs + xs + xs + xs + xs + xs + [pos("z")]\n'
                     '    seen = [pos("b2", "down") in xs, pos("b2") in xs, pos(3) not in xs, pos([1]) in xs,\n'
                     '            pos([1]) in [pos([1])], pos("z") in long, pos("y") in long, "a1" in xs]\n'
                     '    choose c in [1]\n    end game\n')
    st = game.new_state(seed=1)
    assert st.vars["seen"] == [True, False, False, False, True, True, False, False]


def test_records_stay_compared_inline_only_while_every_one_is_flat(make_game):
    """compare.Flatness: a game whose records and maps hold numbers and short texts compares them inline;
    the first that holds a list (made so, set so, or loaded so from a save) turns that off for the game,
    and the answers are the same either way."""
    rules = ('game "Records"\nplayers 2\nrecord pos(at, side = "up")\nvar xs = []\nvar seen = []\nturn:\n'
             '    xs = [pos("a1"), pos("b2", "down")]\n'
             '    choose c in [1, 2]\n'
             '    if c == 2:\n        xs[1].side = [1, 2]\n'
             '    seen = [pos("b2", "down") in xs, pos("a1") in xs, xs[2] == pos("b2", "down")]\n'
             '    choose d in [1]\n    end game\n')
    game = make_game(rules)
    flat = game.compiled.flatness
    st = game.new_state(seed=1)
    st.apply("1")
    assert flat.ok and st.vars["seen"] == [True, True, True]
    listed = game.new_state(seed=1)
    listed.apply("2")
    assert not flat.ok and listed.vars["seen"] == [True, False, True]
    again = make_game(rules)  # compiled afresh: flat until a save holding a list in a record is loaded
    assert again.compiled is not game.compiled and again.compiled.flatness.ok
    again.load_state(st.to_json())
    assert again.compiled.flatness.ok
    again.load_state(listed.to_json())
    assert not again.compiled.flatness.ok
