"""The lost-write check (interpreter/check/lost_writes.py): a change to a copy that nothing reads afterwards is
refused by validate at its line; the same rules written on the game's own values play and keep the change."""
from __future__ import annotations

import pytest

from rulewright.interpreter.api import shipped_games

HEAD = """
game "Trap"
players 2
record token(owner, value)
var tokens = []
player var score = 0
def mine(p) = [t in tokens where t.owner == p]
setup:
    tokens = [token(1, 0), token(2, 0)]
{procs}
turn:
{turn}
    me.score = sum(x in tokens where x.owner == me: x.value)
end when round_number > 2 after round
rank by score descending
"""


def rules(turn: str, procs: str = "") -> str:
    indent = "\n".join("    " + line for line in turn.strip("\n").splitlines())
    return HEAD.format(turn=indent, procs=procs)


def lost(diagnose, text):
    return [(d.line, d.column, d.message) for d in diagnose(text) if "is lost" in d.message]


def test_the_issue_trap_is_refused_at_the_write(diagnose):
    found = lost(diagnose, rules("""
let mine = [t in tokens where t.owner == me]
choose t in mine as "raise {t.value}"
t.value += 1"""))
    assert found == [(13, 5, "this change to 't.value' is lost: 'mine' holds a copy (line 11: a stored value is "
                               "copied), and nothing reads it afterwards")]
    hint = [d.hint for d in diagnose(rules("""
let mine = [t in tokens where t.owner == me]
choose t in mine as "raise {t.value}"
t.value += 1""")) if "is lost" in d.message][0]
    assert "choose x in [t in ... where ...]" in hint


@pytest.mark.parametrize("turn", [
    # the list written in place: the items themselves
    'choose t in [t in tokens where t.owner == me] as "raise {t.value}"\nt.value += 1',
    # a def hands over what it reads, not a copy
    'choose t in mine(me) as "raise {t.value}"\nt.value += 1',
    # a loop over the game's own list
    'for t in tokens:\n    if t.owner == me:\n        t.value += 1',
    # the copy stored back
    'let copy = tokens\nfor t in copy:\n    if t.owner == me:\n        t.value += 1\ntokens = copy',
])
def test_writes_that_reach_the_game_are_accepted_and_change_the_state(diagnose, make_game, turn):
    text = rules(turn)
    assert lost(diagnose, text) == []
    state = make_game(text).new_state(seed=1)
    while not state.is_over():
        state.apply(state.legal_moves()[0])
    assert state.outcome().scores == {1: 3, 2: 3}  # three rounds, one raise a turn


BUMP = "procedure bump(t):\n    t.value += 1"
PICK = "procedure pick(p):\n    return first(mine(p))"


@pytest.mark.parametrize("turn, procs, line, what", [
    # a loop over a copy, never read again (line: of the turn)
    ("let hand = tokens\nfor x in hand:\n    x.value += 2", "", 3, "this change to 'x.value'"),
    # a procedure that changes its parameter, given a copy
    ("let t = first(mine(me))\nbump(t)", BUMP, 2, "the change 'bump' makes to 't' here"),
    # a procedure's return is a copy
    ("bump(pick(me))", BUMP + "\n" + PICK, 1, "the change 'bump' makes to 'pick(me)' here"),
    # taken from a copy, the item drawn in no list
    ("let c = tokens\ndraw d from c", "", 2, "this change to 'c'"),
    ("draw d from tokens\nd.value = 3", "", 2, "this change to 'd.value'"),
    # an 'if' whose branches never read the copy after the write
    ("let c = tokens\nif me == 1:\n    add token(me, 1) to c\nelse:\n    log \"two\"", "", 3, "this change to 'c'"),
])
def test_changes_nothing_reads_are_refused(diagnose, turn, procs, line, what):
    text = rules(turn, procs)
    turn_line = text.lstrip("\n").splitlines().index("turn:") + 1
    found = lost(diagnose, text)
    assert [(f[0] - turn_line, f[2].split(" is lost")[0]) for f in found] == [(line, what)]


@pytest.mark.parametrize("turn", [
    # read later, in the same block
    "let hand = tokens\nadd token(me, 1) to hand\nlog \"{len(hand)} tokens\"",
    # read by the next round of the loop: each draw takes what the one before left
    "let pool = tokens\nrepeat 2 times:\n    draw d from pool\n    log \"{d.value}\"",
    # read after a loop that changed it
    "let c = tokens\nfor t in c:\n    t.value += 1\ntokens = c",
    # read in one branch only: it may be read, so it is not reported
    "let c = tokens\nadd token(me, 1) to c\nif me == 1:\n    tokens = c",
    # a player's own variable through a player taken from a copied list
    "let ps = [p in players where p != me]\nfor p in ps:\n    p.score += 1",
    # returned: the caller reads it
    "let t = grow(tokens)\ntokens = t",
])
def test_changes_something_reads_are_accepted(diagnose, turn):
    procs = "procedure grow(xs):\n    let ys = xs\n    add token(1, 9) to ys\n    return ys"
    assert lost(diagnose, rules(turn, procs)) == []


def test_a_write_into_a_parameter_is_the_callers_value(diagnose):
    procs = "procedure bump(t):\n    t.value += 1"
    assert lost(diagnose, rules("for t in tokens:\n    bump(t)", procs)) == []


def test_every_shipped_game_has_no_lost_write():
    from pathlib import Path

    from rulewright.dsl.parser import parse
    from rulewright.interpreter.api import _apply_extends
    from rulewright.interpreter.check.checker import check
    from rulewright.interpreter.variants import read_rules
    for name, path in shipped_games().items():
        merged = _apply_extends(parse(read_rules(str(path)), str(path)), Path(path))
        assert [d.message for d in check(merged) if "is lost" in d.message] == [], name
