"""The work budget belongs to the run, not the process: runs in two threads (agents searching in
parallel) neither spend nor reset each other's (interpreter/engine/limits.py: the state holds it)."""
from __future__ import annotations

import threading

import pytest

from rulewright.interpreter.engine.generator import Generator
from rulewright.interpreter.engine.limits import set_limits

# A def that calls defs costs limits.CALL (10) items a call: down(n) is 10 * (n + 1) items. A move spends
# 400 items before its draw (def calls: the generated code spends them) and 400 after it (100 in def
# calls, 300 through range and sum: the builtins, handed the state, spend them): 800 of 1000.
RULES = """game "Budget"
players 2
def down(n) = 0 if n == 0 else down(n - 1)
var total = 0
turn:
    choose c in [1, 2] as "{c}"
    total = down(39)
    total += roll(6)
    total += down(9) + sum(range(149 + c))
    if c == 2:
        end game
"""


class PausingGenerator(Generator):
    """The generator of the run in thread A: its first draw waits until thread B's whole run is over,
    so B's run starts and ends in the middle of A's."""

    def __init__(self, seed, paused: threading.Event, resume: threading.Event):
        super().__init__(seed)
        self.paused, self.resume = paused, resume

    def randint(self, a, b):
        if not self.paused.is_set():
            self.paused.set()
            self.resume.wait(60)  # (only so that a broken test cannot hang: B sets it at once)
        return super().randint(a, b)


@pytest.fixture
def budget_of_1000():
    old = set_limits(work=1000)
    yield
    set_limits(**old)


def test_runs_in_two_threads_neither_spend_nor_reset_each_others_work(make_game, budget_of_1000):
    game = make_game(RULES)  # one compiled game, its generated code shared by both threads
    a, b = game.new_state(seed=1), game.new_state(seed=2)
    paused, b_done = threading.Event(), threading.Event()
    a.rng = PausingGenerator(1, paused, b_done)
    failures = []

    def move_a():
        try:
            a.apply("1")
        except Exception as exc:  # noqa: BLE001 - reported by the assertion below
            failures.append(("A", exc))

    def move_b():
        try:
            paused.wait(60)
            b.apply("1")  # a run of 800 items, all of it while A's run waits in its draw
        except Exception as exc:  # noqa: BLE001
            failures.append(("B", exc))
        finally:
            b_done.set()

    threads = [threading.Thread(target=move_a), threading.Thread(target=move_b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    # A shared budget: B's run resets it and spends 800, A's then spends its last 400 of it and fails
    assert failures == []
    assert paused.is_set() and b_done.is_set()
    assert a.moves_made == 1 and b.moves_made == 1
    assert a.vars["total"] > 0 and b.vars["total"] > 0


def test_a_run_over_the_budget_still_fails_in_its_own_thread(make_game, budget_of_1000):
    """The same move with a budget of 700 fails whichever thread runs it: each run counts its own."""
    set_limits(work=700)
    game = make_game(RULES)
    failures = []

    def move():
        try:
            game.new_state(seed=3).apply("1")
        except Exception as exc:  # noqa: BLE001
            failures.append(str(exc))

    thread = threading.Thread(target=move)
    thread.start()
    thread.join(120)
    assert len(failures) == 1 and "more than 700 items of work" in failures[0], failures


LOOPS = """game "Loops"
players 2
var xs = range(10)
turn:
    let n = count(a in xs where any(b in xs: b == a))
    choose c in [1, 2] as "{c}"
    end game
"""


@pytest.mark.parametrize("work, fails", [(110, False), (109, True)])
def test_each_item_a_loop_goes_through_counts_one(make_game, work, fails):
    """As docs/cli.md says: each item a quantifier goes through counts 1, short lists too: the outer
    loop's ten and each inner loop's ten (counted when it starts, though 'any' may stop early), 110."""
    old = set_limits(work=work)
    try:
        game = make_game(LOOPS)
        if fails:
            with pytest.raises(Exception, match="more than 109 items of work"):
                game.new_state(seed=1)
        else:
            assert game.new_state(seed=1).legal_moves()
    finally:
        set_limits(**old)


def test_a_counted_loop_over_what_is_no_list_says_so_as_before(make_game):
    """Counting a loop's items comes first; what has none is still the loop's own error."""
    game = make_game('game "NotList"\nplayers 2\ndef f(x) = x\nvar v = 0\nturn:\n'
                     '    v = count(a in f(5) where a > 0)\n    choose c in [1, 2]\n    end game\n')
    with pytest.raises(Exception, match="a number is not a list to go through"):
        game.new_state(seed=1)
