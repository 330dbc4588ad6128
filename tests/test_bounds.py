"""What a game keeps between its moves is bounded (issue 37, item 5): the items its state holds
(--max-state), the events of its history and the letters of their texts (--max-events,
--max-event-letters), each past its limit a located error, never a MemoryError or a traceback; undo's
checkpoints stay within their bytes; and printing the variables takes time linear in their text.
Small limits keep each test quick; one realistic case runs in a subprocess."""
from __future__ import annotations

import io
import random
import subprocess
import sys

import pytest
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

from rulewright.cli.main import app
from rulewright.cli.screen import wrapped
from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine import bounds, undo
from rulewright.interpreter.engine.limits import set_limits
from rulewright.interpreter.testing import line_of

runner = CliRunner()


@pytest.fixture
def limits_back():
    """The limits as they were, after the test."""
    old = set_limits()
    yield
    set_limits(**old)


# ----------------------------------------------------------------------------- the state's items
GROW = """game "Grow"
players 2
var xs = []
var other = [1, 2, 3]
end when round_number > 1000 after round
turn:
    choose c in [1, 2]
    add range(900) to xs
    if c == 2 and 3 in other:
        remove 3 from other
"""


def test_a_state_that_grows_at_every_move_ends_at_a_located_error(make_game, limits_back):
    set_limits(state=4_000)
    st = make_game(GROW).new_state(seed=1)
    for _ in range(4):  # 3,600 items and a few: within the limit
        st.apply("1")
    before = st.to_json()
    with pytest.raises(RulesRuntimeError) as info:
        st.apply("1")
    d = info.value.diagnostic
    assert d.line == line_of(GROW, "choose c") and d.column == 5
    assert info.value.message == ("the game's state holds more than 4,000 items: the largest variable is 'xs', "
                                  "more than 4,000 items alone")  # the list, five lists in it, 900 numbers each
    assert "--max-state" in info.value.hint
    assert st.to_json() == before  # the move is refused whole


def test_the_state_is_counted_only_when_its_bound_passes_the_limit(make_game, limits_back, monkeypatch):
    """Counting the state is not free: a game far below the limit is never counted, and one that shrinks
    again after a count is not refused for what it held before."""
    counts = []
    real = bounds.held
    monkeypatch.setattr(bounds, "held", lambda st, most=bounds.UNKNOWN: counts.append(1) or real(st, most))
    st = make_game(GROW).new_state(seed=1)
    for _ in range(3):
        st.apply("1")
    assert counts == []
    set_limits(state=3_000)  # two moves' lists and a bit: each move now passes the bound
    shrink = make_game(GROW.replace("    add range(900) to xs\n", "    add range(900) to xs\n"
                                    "    if len(xs) > 2:\n        xs = []\n"))
    st = shrink.new_state(seed=1)
    for _ in range(12):
        st.apply("1")  # the list is emptied at its third 900: never more than 2,700 and a few
    assert counts and len(st.vars["xs"]) < 3


def test_clones_undo_and_saves_keep_the_bound(make_game, limits_back):
    set_limits(state=4_000)
    game = make_game(GROW)
    st = game.new_state(seed=1)
    for _ in range(4):
        st.apply("1")
    clone = st.clone()
    with pytest.raises(RulesRuntimeError, match="more than 4,000 items"):
        clone.apply("1")
    st.undo()
    st.apply("1")
    with pytest.raises(RulesRuntimeError, match="more than 4,000 items"):
        st.apply("1")
    loaded = game.load_state(st.to_json())  # counted at its first move
    with pytest.raises(RulesRuntimeError, match="more than 4,000 items"):
        loaded.apply("1")


def test_a_long_text_held_in_many_places_is_counted_once():
    text = "x" * 100
    assert bounds.items([text, text, text]) == 4 + 100
    assert bounds.items([[1, 2], {"a": "bc"}]) == 3 + 3 + 3 + 1 + 2
    many = [[1] * 10] * 1000  # a list held many times is counted each time: the count stops early
    assert bounds.items(many, most=500) == 1001 and bounds.items(many) == 1001 + 11_000


# ----------------------------------------------------------------------------- the event history
LOGS = """game "Logs"
players 2
var t = "x"
end when round_number > 1000 after round
turn:
    choose c in [1, 2]
    t = "{t}{c}"
    repeat 10 times:
        log "{t}"
"""


def test_a_history_past_its_count_ends_at_the_log_line(make_game, limits_back):
    set_limits(events=100)
    st = make_game(LOGS).new_state(seed=1)
    for _ in range(9):  # 11 events a move: 99
        st.apply("1")
    with pytest.raises(RulesRuntimeError) as info:
        st.apply("1")
    assert info.value.diagnostic.line == line_of(LOGS, "log ")
    assert info.value.message == "the game's history would hold more than 100 events"
    assert "--max-events" in info.value.hint and st.history_len == 99


def test_a_move_past_the_count_ends_at_its_decision(make_game, limits_back):
    set_limits(events=3)
    st = make_game('game "M"\nplayers 2\nend when round_number > 9 after round\nturn:\n'
                   '    choose c in [1, 2]\n').new_state(seed=1)
    for _ in range(3):
        st.apply("1")
    with pytest.raises(RulesRuntimeError) as info:
        st.apply("1")
    assert info.value.diagnostic.line == 5 and "more than 3 events" in info.value.message


def test_the_letters_of_the_history_are_bounded_and_kept_through_undo_and_saves(make_game, limits_back):
    set_limits(event_letters=300)
    game = make_game(LOGS)
    st = game.new_state(seed=1)
    st.apply("2")
    st.apply("2")  # texts of 2 then 3 letters, ten each, and two moves' texts
    assert st.history[2] == 20 + 30 + 2
    st.undo()
    assert st.history[2] == 20 + 1
    st.apply("2")
    assert game.load_state(st.to_json()).history[2] == st.history[2]
    for _ in range(4):
        st.apply("1")  # 4 + 5 + 6 + 7 letters, ten a move: 272 and the moves' 6
    with pytest.raises(RulesRuntimeError) as info:
        st.apply("1")
    assert info.value.message == "the game's history would hold events with more than 300 letters of text"
    assert "--max-event-letters" in info.value.hint


def test_a_save_with_a_history_past_the_limit_is_refused_clearly(make_game, limits_back):
    game = make_game(LOGS)
    st = game.new_state(seed=1)
    for _ in range(3):
        st.apply("1")
    data = st.to_json()
    set_limits(events=20)
    with pytest.raises(Exception) as info:
        game.load_state(data)
    assert "more than 20 events" in str(info.value) and "--max-events" in str(info.value)


# ----------------------------------------------------------------------------- what a run makes counts
def test_a_text_of_more_than_32_letters_made_counts_as_work(make_game, limits_back):
    """The texts a game keeps are bounded by what its runs made: a template's text of 40 letters, made
    50 times, is 2,000 items of work (it was free below 1,000 letters)."""
    rules = ('game "T"\nplayers 2\nvar ts = []\nvar t = "{range(16)}"\nend when round_number > 9 after round\nturn:\n    choose c in [1, 2]\n'
             '    repeat 50 times:\n        add "{t}{c}" to ts\n')
    set_limits(work=1_500)
    with pytest.raises(RulesRuntimeError, match="more than 1,500 items of work"):
        make_game(rules).new_state(seed=1).apply("1")


def test_a_nested_copy_counts_the_items_of_its_short_lists(make_game, limits_back):
    """Copying a list of 32 lists of 32 items makes 1,056 items: counted as such (was 32)."""
    rules = ('game "N"\nplayers 2\nvar keep = []\nend when round_number > 9 after round\nturn:\n    choose c in [1, 2]\n    let a = range(32)\n'
             '    let b = [a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, a, '
             'a, a, a]\n    repeat 30 times:\n        add b to keep\n')
    set_limits(work=20_000)
    with pytest.raises(RulesRuntimeError, match="more than 20,000 items of work"):
        make_game(rules).new_state(seed=1).apply("1")


# ----------------------------------------------------------------------------- undo's checkpoints
def test_undos_checkpoints_stay_within_their_bytes(make_game, monkeypatch):
    monkeypatch.setattr(undo, "UNDO_BYTES", 20_000)
    st = make_game(GROW).new_state(seed=1)
    for _ in range(40):
        st.apply("1")
        assert undo.blob_bytes(st.undo_log.checkpoints) <= 20_000 or len(st.undo_log.checkpoints) == 1
    assert 0 < st.undoable < 40
    lengths = []
    while st.undoable:
        st.undo()
        lengths.append(len(st.vars["xs"]))
    assert lengths == list(range(39, 39 - len(lengths), -1))  # each undo takes back exactly one move


# ----------------------------------------------------------------------------- the command line
def test_the_limits_are_options_of_the_command_line(tmp_path):
    rules = tmp_path / "grow.rules"
    rules.write_text(GROW, encoding="utf-8")
    try:
        result = runner.invoke(app, ["--max-state", "3000", "play", str(rules), "--seed", "1", "--auto",
                                     "random"])
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert f"grow.rules:{line_of(GROW, 'choose c')}:5: error: in 'turn': the game's state holds more " \
               "than 3,000 items" in result.output
        result = runner.invoke(app, ["--max-events", "30", "play", str(rules), "--seed", "1", "--auto", "random"])
        assert result.exit_code == 1 and "more than 30 events" in result.output
    finally:
        runner.invoke(app, ["validate", "tic-tac-toe"])  # the defaults back, for the next command


# ----------------------------------------------------------------------------- printing
def test_the_variables_wrap_as_rich_wraps_them():
    rng = random.Random(5)
    words = ["a", "bb", "ccc", "ddddddd", "[1,", "2],", '{"k":', '"red 5",', "é", "日本", "x" * 23]
    for _ in range(1500):
        width = rng.choice([10, 20, 40, 80])
        text = "".join(rng.choice(words) + rng.choice([" ", " ", "  ", ""]) for _ in range(rng.randrange(1, 40)))
        text = text.strip()
        if any(len(w) > width for w in text.split()):
            continue  # (a word wider than the line: rich leaves a blank line or a leading space, this not)
        buffer = io.StringIO()
        Console(file=buffer, width=width, color_system=None, highlight=False, emoji=False).print(Text(text))
        assert wrapped(text, width) == [line.rstrip() for line in buffer.getvalue().splitlines()], (width, text)


def test_show_prints_two_million_items_in_seconds(tmp_path):
    """Rich's wrapping grows with the square of a text: two lists of a million items took 174 s."""
    rules = tmp_path / "big.rules"
    rules.write_text('game "Big"\nplayers 2\nvar xs = range(1000000)\nvar ys = range(1000000)\nturn:\n'
                     '    choose c in [1, 2]\n    end game\n', encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "rulewright", "show", str(rules), "--seed", "1"],
                         capture_output=True, text=True, timeout=90)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert [line for line in lines if line.endswith("999999, 1000000]")] and all(len(line) <= 80 for line in lines)
    assert sum(line.count(",") for line in lines) == 2 * 999_999
