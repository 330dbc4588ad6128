"""Rules files, saves, logs and moves from a stranger (issue 13): each hostile input gives our own clear
error, through the command line and the Python API: no file of the machine is disclosed, no traceback,
no hang and no unbounded memory."""
from __future__ import annotations

import json
import os
import random
import re
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rulewright
from rulewright.cli.main import app
from rulewright.dsl.errors import RulesError

runner = CliRunner()

BASE = '''\
game "Count"
players 2

var total = 0

turn:
    choose c in range(3) as "{c}"
    total += c
    if total > 5:
        win me
        end game
'''


def run(*args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def api_error(fn, *args, **kwargs) -> str:
    """The RulesError ``fn`` raises (any other exception fails the test)."""
    with pytest.raises(RulesError) as info:
        fn(*args, **kwargs)
    return str(info.value)


# ----------------------------------------------------------------------------- files: extends and logs
SECRET = "TOP-SECRET-LINE"


@pytest.fixture
def secret(tmp_path) -> Path:
    """A file outside the folder of the rules under test, whose content must never be shown."""
    path = tmp_path / "outside" / "secret.rules"
    path.parent.mkdir()
    path.write_text(SECRET + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("target", ["/etc/passwd", "/proc/self/environ", "/dev/zero", "/dev/stdin",
                                    "../outside/secret.rules", "sub/../../outside/secret.rules",
                                    "SECRET_ABS"])
def test_extends_reads_no_file_outside_the_variants_folder(tmp_path, secret, target):
    target = str(secret) if target == "SECRET_ABS" else target
    variant = write(tmp_path, "game/variant.rules", f'extends "{target}"\n')
    result = run("validate", variant)
    assert result.exit_code == 1
    assert SECRET not in result.stdout and "root:" not in result.stdout and "PATH=" not in result.stdout
    assert "variant.rules:1:1: error:" in result.stdout
    message = api_error(rulewright.load, str(variant))
    assert SECRET not in message and "root:" not in message


def test_extends_refuses_a_link_leading_outside_and_a_device_or_pipe(tmp_path, secret):
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "link.rules").symlink_to(secret)
    os.mkfifo(folder / "pipe.rules")  # opening it would wait for a writer for ever
    for name, why in (("link.rules", "leads outside"), ("pipe.rules", "not a regular file")):
        variant = write(tmp_path, f"game/v-{name}", f'extends "{name}"\n')
        result = run("validate", variant)
        assert result.exit_code == 1 and why in result.stdout and SECRET not in result.stdout


def test_extends_beside_and_below_the_variant_and_shipped_names_still_work(tmp_path):
    write(tmp_path, "game/bases/count.rules", BASE)
    variant = write(tmp_path, "game/v.rules", 'extends "bases/count.rules"\nvar total = 1\n')
    assert run("validate", variant).exit_code == 0
    shipped = write(tmp_path, "game/fast.rules", 'extends "biplane"\n')
    assert run("validate", shipped).exit_code == 0


def test_a_file_named_on_the_command_line_is_read_up_to_a_cap(tmp_path):
    from rulewright.dsl.parser import MAX_RULES_BYTES
    result = run("validate", "/dev/zero")  # read up to the cap, then refused
    assert result.exit_code == 1 and "too large" in result.stdout + result.stderr
    big = tmp_path / "big.rules"
    big.write_text("# " + "x" * MAX_RULES_BYTES + "\n")
    result = run("validate", big)
    assert result.exit_code == 1 and "too large" in result.stdout + result.stderr
    for option in ("--moves", "--load"):
        result = run("play", "tic-tac-toe", option, "/dev/zero")
        assert result.exit_code == 1 and "too large" in result.stderr
    assert run("play", "tic-tac-toe", "--moves", "/dev/null").exit_code == 0  # a device the user names


def _log(tmp_path: Path, game: str) -> Path:
    path = tmp_path / "logs" / "log.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({"format": "rulewright-log", "version": 1, "game": game, "players": 2,
                                "options": {}, "seed": 1, "moves": [], "outcome": None}))
    return path


@pytest.mark.parametrize("game", ["/etc/passwd", "/proc/self/environ", "/dev/zero", "SECRET_ABS",
                                  "../outside/secret.rules"])
def test_replay_reads_only_shipped_games_and_rules_beside_the_log(tmp_path, secret, game):
    log = _log(tmp_path, str(secret) if game == "SECRET_ABS" else game)
    result = run("replay", log)
    assert result.exit_code == 1 and result.stderr.startswith("error: ")
    assert SECRET not in result.output and "root:" not in result.output and "--rules" in result.stderr


def test_replay_of_rules_beside_the_log_or_named_on_the_command_line(tmp_path, secret):
    rules = write(tmp_path, "logs/count.rules", BASE)
    assert run("replay", _log(tmp_path, str(rules))).exit_code == 0
    assert run("replay", _log(tmp_path, "count.rules")).exit_code == 0
    elsewhere = write(tmp_path, "elsewhere/count.rules", BASE)
    log = _log(tmp_path, str(elsewhere))
    assert run("replay", log).exit_code == 1
    assert run("replay", log, "--rules", elsewhere).exit_code == 0


# ----------------------------------------------------------------------------- atomic moves
FAILING = '''\
game "Fails"
players 2

var total = 0
var drawn = []
player var score = 0

turn:
    choose c in range(3) as "{c}"
    total += c
    add roll(6) to drawn
    score[me] += 1
    log "took {c}"
    if c == 3:
        let broken = drawn[99]
    if total > 5:
        win me
        end game
'''


def test_a_move_whose_rules_fail_leaves_the_state_exactly_as_before(make_game):
    state = make_game(FAILING).new_state(seed=5)
    state.apply("1")
    before, moves, events = state.to_json(), state.legal_moves(), state.event_history()
    with pytest.raises(rulewright.RulesRuntimeError, match=r"test\.rules:15:\d+: error: in 'turn': "):
        state.apply("3")
    assert state.to_json() == before and state.legal_moves() == moves and state.event_history() == events
    clone = state.clone()
    state.apply("2")  # the game goes on as if the failed move had never been tried
    clone.apply("2")
    assert state.to_json() == clone.to_json()
    with pytest.raises(rulewright.RulesRuntimeError):
        state.apply("3")
    assert state.to_json() == clone.to_json()


def test_a_failed_move_at_a_simultaneous_decision_is_undone_too(make_game):
    game = make_game('''
        game "Picks"
        players 2
        var picks = [] hidden
        round:
            each p in players secretly choose n in [1, 2] as "pick {n}":
                add n to picks
                let broken = picks[n * 9]
            end game
        ''')
    state = game.new_state(seed=1)
    state.apply("pick 2", player=1)
    before = state.to_json()
    with pytest.raises(rulewright.RulesRuntimeError):
        state.apply("pick 2", player=2)
    assert state.to_json() == before and state.to_move() == [2]


def test_play_saves_the_state_before_a_move_whose_rules_fail(tmp_path):
    rules = write(tmp_path, "fails.rules", FAILING)
    moves = write(tmp_path, "moves.txt", "1\n2\n3\n")
    save, log = tmp_path / "save.json", tmp_path / "log.json"
    result = run("play", rules, "--seed", "3", "--moves", moves, "--save", save, "--log", log)
    assert result.exit_code == 1 and "fails.rules:15:" in result.stderr and "in 'turn'" in result.stderr
    data = json.loads(save.read_text())
    assert data["state"]["moves_made"] == 2
    assert [m["move"] for m in json.loads(log.read_text())["moves"]] == ["1", "2"]
    resumed = run("play", rules, "--load", save, "--moves", write(tmp_path, "more.txt", "2\n"))
    assert resumed.exit_code == 0
    as_json = run("play", rules, "--seed", "3", "--moves", moves, "--json")
    assert as_json.exit_code == 1 and json.loads(as_json.stdout.splitlines()[-1])["event"] == "error"


# ----------------------------------------------------------------------------- bounded time and memory
@pytest.fixture
def small_limits():
    """Small limits, so that each runaway rule below stops within milliseconds; put back afterwards."""
    from rulewright.interpreter.engine.limits import set_limits
    old = set_limits(steps=20_000, work=20_000, items=5_000, digits=50)
    yield
    set_limits(**old)


SMALL = ("--max-steps", "20000", "--max-work", "20000", "--max-items", "5000", "--max-digits", "50")
HEAD = 'game "Runaway"\nplayers 2\n'
TAIL = '    choose c in [1]\n    end game\n'
DOUBLED = "def g(x, n) = x if n == 0 else g([x, x], n - 1)\n"
RUNAWAY = {
    # two different calls: one call written twice is computed once (codegen's common subexpressions)
    "exponential recursion": ("def f(n) = 1 if n < 2 else f(n - 1) + f(n - 2)\nturn:\n    let x = f(60)\n",
                              "items of work"),
    "nested quantifiers": ("turn:\n    let x = count(a in range(4000) where any(b in range(4000): b == a + 9999))\n",
                           "items of work"),
    # a short list (uncounted when copied or gone through by a function) nested in one expression: each
    # loop's items are counted, or the four loops would run 810,000 times
    "nested quantifiers over a short list": (
        "var xs = range(30)\nturn:\n    let x = count(a in xs where count(b in xs where count(c in xs where "
        "any(d in xs: a + b + c + d < 0)) > 0) > 0)\n", "items of work"),
    "nested comprehensions over a short list": (
        "var xs = range(30)\nturn:\n    let x = [a in xs where [b in xs where [c in xs where [d in xs where "
        "a + b + c + d < 0] != []] != []] != []]\n",
        "items of work"),
    # (a loop's items each count what a call of the def may do: here its forty loops)
    "a def running many loops, for each item": (
        "var xs = range(30)\ndef h(a) = len([count(b in xs where b == a + 0), count(b in xs where b == a + 1), count(b in xs where b == a + 2), count(b in xs where b == a + 3), count(b in xs where b == a + 4), count(b in xs where b == a + 5), count(b in xs where b == a + 6), count(b in xs where b == a + 7), count(b in xs where b == a + 8), count(b in xs where b == a + 9), count(b in xs where b == a + 10), count(b in xs where b == a + 11), count(b in xs where b == a + 12), count(b in xs where b == a + 13), count(b in xs where b == a + 14), count(b in xs where b == a + 15), count(b in xs where b == a + 16), count(b in xs where b == a + 17), count(b in xs where b == a + 18), count(b in xs where b == a + 19), count(b in xs where b == a + 20), count(b in xs where b == a + 21), count(b in xs where b == a + 22), count(b in xs where b == a + 23), count(b in xs where b == a + 24), count(b in xs where b == a + 25), count(b in xs where b == a + 26), count(b in xs where b == a + 27), count(b in xs where b == a + 28), count(b in xs where b == a + 29), count(b in xs where b == a + 30), count(b in xs where b == a + 31), count(b in xs where b == a + 32), count(b in xs where b == a + 33), count(b in xs where b == a + 34), count(b in xs where b == a + 35), count(b in xs where b == a + 36), count(b in xs where b == a + 37), count(b in xs where b == a + 38), count(b in xs where b == a + 39)])\nturn:\n    let x = count(a in xs where h(a) > 0)\n",
        "items of work"),
    # a value that doubles with each level (the same list twice), printed or named in a message
    "a doubled value listed": (DOUBLED + "turn:\n    log \"{listed([g(1, 40)])}\"\n", "items of work"),
    "a doubled value no arm fits": (DOUBLED + "turn:\n    let y = match g(1, 40) { 5: 1 }\n", "no arm"),
    # lists made while the game is compiled count too (then the rest are made, and counted, as it runs)
    "constants folded": ("turn:\n    log \"{len([" + ", ".join(["range(4000)"] * 12) + "])}\"\n", "items of work"),
    "a choice whose condition runs a loop": (
        "var xs = range(30)\nturn:\n    choose c in range(4000) where any(b in xs: b == c + 9999)\n", "items of work"),
    # statements that go through a long list: each step costs as much as the list is long
    "a long constant list copied in a loop": ("turn:\n    while true:\n        let ys = range(4000)\n", "items of work"),
    "a long list shuffled in a loop": ("var xs = range(4000)\nturn:\n    while true:\n        shuffle xs\n",
                                       "items of work"),
    "a long list searched in a loop": ("var xs = range(4000)\nturn:\n    while true:\n        add 0 to xs at bottom\n"
                                       "        remove 0 from xs\n", "items of work"),
    "squaring": ("var x = 2\nturn:\n    repeat 40 times:\n        x = x * x\n", "more than 50 digits"),
    "doubling by +": ("var x = 1\nturn:\n    repeat 400 times:\n        x = x + x\n", "more than 50 digits"),
    "huge range": ("var xs = []\nturn:\n    xs = range(1000000000)\n", "too long"),
    "huge range, shuffled": ("var xs = []\nturn:\n    xs = range(50000000)\n    shuffle xs\n", "too long"),
    "list doubling": ("var xs = [1]\nturn:\n    repeat 64 times:\n        xs = xs + xs\n", "too long"),
    "text doubling": ('var s = "ab"\nturn:\n    repeat 64 times:\n        s = "{s}{s}"\n', "too long"),
    "list repeated": ("def rep(x, n) = x * n\nvar xs = []\nturn:\n    xs = rep([0], 1000000000)\n", "too long"),
    "nested copies": ("var xs = [1]\nturn:\n    repeat 60 times:\n        xs = [xs, xs]\n", "items of work"),
    "shared text": ("def g(x, n) = x if n == 0 else g([x, x], n - 1)\nturn:\n    let t = text(g(1, 60))\n",
                    "items of work"),
    "endless repeat": ("var n = 0\nturn:\n    repeat 999999999999999999 times:\n        n += 1\n", "passes"),
    "endless loop": ("var n = 0\nturn:\n    while true:\n        n += 1\n", "steps"),
}


@pytest.mark.parametrize("case", sorted(RUNAWAY))
def test_runaway_rules_end_with_a_located_error(tmp_path, small_limits, case):
    body, why = RUNAWAY[case]
    rules = write(tmp_path, "runaway.rules", HEAD + body + TAIL)
    message = api_error(rulewright.load(str(rules)).new_state, seed=1)
    assert message.startswith(f"{rules}:") and "in 'turn'" in message and why in message, message
    result = run(*SMALL, "play", rules, "--moves", "/dev/null")
    assert result.exit_code == 1 and why in result.stderr and "Traceback" not in result.stderr


def test_a_starting_value_that_runs_away_ends_with_a_located_error(tmp_path, small_limits):
    rules = write(tmp_path, "runaway.rules", HEAD + DOUBLED + "var v = g(1, 60)\nturn:\n" + TAIL)
    message = api_error(rulewright.load(str(rules)).new_state, seed=1)
    assert message.startswith(f"{rules}:4:1: error: in 'var v'") and "items of work" in message, message


def test_options_of_one_text_are_numbered_each_once(make_game):
    """Four thousand options with one text: numbered in order, a number an item already shows skipped
    (each duplicate looks on from the last number it gave, not from #2)."""
    game = make_game('game "Same"\nplayers 2\ndef t(c) = "same #3" if c == 1 else "same"\nturn:\n'
                     '    choose c in range(4000) as "{t(c)}"\n    end game\n')
    texts = [m.text for m in game.new_state(seed=1).legal_moves()]
    assert texts[:4] == ["same #3", "same", "same #2", "same #4"] and texts[-1] == "same #4000"
    assert len(set(texts)) == 4000


def test_a_game_nested_too_deep_to_save_says_so(tmp_path):
    rules = write(tmp_path, "deep.rules", 'game "Deep"\nplayers 2\nvar xs = []\nturn:\n    repeat 600 times:\n'
                  '        xs = [xs]\n    choose c in [1, 2]\n    end game\n')
    save = tmp_path / "save.json"
    result = run("play", rules, "--seed", "1", "--moves", "/dev/null", "--save", save)
    assert result.exit_code == 1 and "nested too deep to write" in result.stderr and not save.exists()


def test_limits_are_set_from_the_command_line(tmp_path):
    rules = write(tmp_path, "deep.rules", HEAD + RUNAWAY["exponential recursion"][0] + TAIL)
    result = run("--max-work", "500", "validate", rules)
    assert result.exit_code == 1 and "more than 500 items of work" in result.stdout
    result = run("--max-digits", "0", "validate", rules)
    assert result.exit_code == 2  # a usage error
    assert run("validate", "tic-tac-toe").exit_code == 0  # back to the defaults for the next command


def test_a_runaway_in_a_branch_that_never_runs_is_no_error(tmp_path):
    rules = write(tmp_path, "fold.rules", HEAD + 'option o: a | b\nturn:\n    if o == b:\n'
                  "        let xs = range(1000000000)\n"
                  + TAIL)
    # compiled with o=b too without folding the huge values; started with o=b (validate starts every option
    # value) the branch runs before the first decision, and that game's failure is named with its option
    result = run("validate", rules)
    assert result.exit_code == 1 and "with 2 players, o=b:" in result.stdout and "fold.rules:6:" in result.stdout
    assert "too long" in result.stdout and result.stdout.count("error") == 1
    assert rulewright.load(str(rules)).new_state(seed=1).legal_moves()
    message = api_error(rulewright.load(str(rules), options={"o": "b"}).new_state, seed=1)
    assert "fold.rules:6:" in message and "too long" in message


def test_simulate_workers_report_the_same_limits(tmp_path):
    rules = write(tmp_path, "deep.rules", HEAD + RUNAWAY["exponential recursion"][0] + TAIL)
    result = run("--max-work", "500", "simulate", rules, "-n", "2", "--workers", "2")
    assert result.exit_code == 1 and "more than 500 items of work" in result.stderr


def test_rules_too_deep_or_too_many_players_are_diagnostics(tmp_path):
    chain = "".join(f"def d{i}(x) = d{i - 1}(x) + 1\n" for i in range(1, 600))
    rules = write(tmp_path, "chain.rules", HEAD + chain + "def d0(x) = x\nturn:\n    choose c in [d599(1)]\n"
                  "    end game\n")
    result = run("validate", rules)
    assert result.exit_code == 1 and "nested too deeply to check" in result.stdout
    many = write(tmp_path, "many.rules", 'game "M"\nplayers 2..99999999\nturn:\n' + TAIL)
    result = run("validate", many)
    assert result.exit_code == 1 and "many.rules:2:1: error: a game has at most 1000 players" in result.stdout
    api_error(rulewright.load, str(many))
    from rulewright.dsl.parser import parse
    with pytest.raises(RulesError, match="characters long"):
        parse('game "x"\nvar s = "' + "a" * 600_000 + '"\n')


# ----------------------------------------------------------------------------- saves from anyone
CARDS = '''\
game "Cards"
players 2

var deck = [1, 2, 3, 4, 5, 6]
player var hand = [] secret
player var score = 0

setup:
    shuffle deck
    for p in players:
        repeat 2 times:
            add deck[1] to hand[p]
            remove deck[1] from deck

turn:
    choose c in hand[me] as "play {c}"
    remove c from hand[me]
    score[me] += c
    if all(p in players: len(hand[p]) == 0):
        end game
'''


@pytest.fixture
def cards_save(tmp_path):
    rules = write(tmp_path, "cards.rules", CARDS)
    game = rulewright.load(str(rules))
    state = game.new_state(seed=2)
    state.apply(state.legal_moves()[0])
    return rules, game, json.loads(json.dumps(state.to_json()))


def _nested(depth):
    value = 1
    for _ in range(depth):
        value = [value]
    return value


def _edit(path, value):
    def change(data):
        target = data["state"]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


HOSTILE_SAVES = {
    "nested 100,000 deep": (_edit(["vars", "deck"], "NESTED"), "nested"),
    "$ref out of range": (_edit(["vars", "deck"], [{"$ref": ["vars", "hand", 7, 3]}]), "corrupt save"),
    "$ref to itself": (_edit(["vars", "deck"], [1, {"$ref": ["vars", "deck"]}]), "holds itself"),
    "$ref to a $ref": (lambda d: d["state"]["vars"].update(deck={"$ref": ["vars", "score"]},
                                                            score={"$ref": ["vars", "deck"]}), "corrupt save"),
    "vars as a list": (_edit(["vars"], [1, 2]), "corrupt save"),
    "score NaN": (_edit(["vars", "score"], [float("nan"), float("inf")]), "not a value of the rules"),
    "a number with 200 digits": (_edit(["vars", "deck"], [10 ** 200]), "more than 100 digits"),
    "option text not text": (lambda d: d["state"]["pending"]["options"]["2"][0].update(text=5),
                             "state.pending.options['2'][0].text: not text (got a number)"),
    "option value swapped": (lambda d: d["state"]["pending"]["options"]["2"][0].update(value=99), "OK-REBUILT"),
    "option text invented": (lambda d: d["state"]["pending"]["options"]["2"][0].update(text="play 99"),
                             "does not offer what the rules offer"),
    "over with a winner": (lambda d: d["state"].update(status="over", winners=[1], pending=None, frames=[]),
                           "over"),
    "first_player 7": (_edit(["vars", "first_player"], 7), "first_player is 7"),
    "winners out of range": (_edit(["winners"], [9]), "winners"),
    "moves_made negative": (_edit(["moves_made"], -4), "state.moves_made: not a whole number from 0 (-4)"),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_SAVES))
def test_hostile_saves_are_refused_or_rebuilt_from_the_rules(tmp_path, cards_save, case):
    rules, game, data = cards_save
    change, why = HOSTILE_SAVES[case]
    change(data)
    if why == "OK-REBUILT":  # the value is taken from the rules again, never from the file
        state = game.load_state(data)
        assert [o.value for o in state.pending.options[2]] == state.vars["hand"][1]
        return
    if case.startswith("nested"):
        data["state"]["vars"]["deck"] = _nested(100_000)
    message = api_error(game.load_state, data)
    assert message.startswith("corrupt save") and why in message, message
    assert len(message) < 400
    if case.startswith("nested"):
        return  # json.dumps itself refuses so deep a value; the CLI's reading is tested below
    save = tmp_path / "save.json"
    save.write_text(json.dumps(data))
    result = run("play", rules, "--load", save, "--moves", "/dev/null")
    assert result.exit_code == 1 and why in result.stderr and result.stderr.startswith("error: ")


def test_a_save_nested_deep_is_refused_by_the_cli(tmp_path, cards_save):
    rules, _game, _data = cards_save
    save = tmp_path / "deep.json"
    save.write_text('{"format": "rulewright-save", "state": ' + "[" * 100_000 + "]" * 100_000 + "}")
    result = run("play", rules, "--load", save)
    assert result.exit_code == 1 and "nested too deep" in result.stderr
    result = run("replay", save)
    assert result.exit_code == 1 and "nested too deep" in result.stderr
    save.write_text('{"format": "rulewright-save", "state": ' + "9" * 5000 + "}")
    result = run("play", rules, "--load", save)
    assert result.exit_code == 1 and "a number far too long" in result.stderr


def test_api_misuse_raises_the_projects_errors(cards_save):
    rules, game, _data = cards_save
    for bad in (123, None, ["x"]):
        api_error(rulewright.load, bad)
        api_error(game.load_state, bad)
    api_error(rulewright.load, str(rules), options={1: 2})
    api_error(rulewright.load, str(rules), players=True)


def test_terminal_control_sequences_from_rules_are_shown_escaped(tmp_path):
    rules = write(tmp_path, "escape.rules", 'game "Esc"\nplayers 2\nturn:\n    log "\x1b[2Jcleared\x07"\n'
                  '    choose c in ["a\x1b]0;title\x07"]\n    end game\n')
    result = run("play", rules, "--moves", write(tmp_path, "m.txt", "1\n"))
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "\\x1b[2Jcleared" in result.stdout


# ----------------------------------------------------------------------------- moves and run-time values
@pytest.mark.parametrize("text", ["²", "①", "¹", "٣", "9" * 5000, "\x1b[2J", "-1", "0"])
def test_odd_move_texts_are_refused_moves(tmp_path, text):
    state = rulewright.load("tic-tac-toe").new_state(seed=1)
    with pytest.raises(rulewright.IllegalMoveError) as info:
        state.apply(text)
    assert len(str(info.value)) < 600 and state.moves_made == 0
    result = run("play", "tic-tac-toe", "--moves", write(tmp_path, "m.txt", text + "\n"))
    assert result.exit_code == 1 and "refused" in result.stderr and "\x1b" not in result.stderr


@pytest.mark.parametrize("statement, why", [
    ("choose c in [1, 2] by 99", "99 is not a player of this game (1 to 2), so it cannot decide"),
    ("each p in [1, 7] secretly choose c in [1, 2]:\n        log \"x\"", "7 is not a player of this game"),
    ("win [99]", "99 is not a player of this game (1 to 2)"),
    ("let w = [\"x\"]\n    win w", "'x' is not a player of this game"),
])
def test_run_time_players_out_of_range_are_located_errors(tmp_path, statement, why):
    rules = write(tmp_path, "who.rules", f'game "Who"\nplayers 2\nturn:\n    {statement}\n    end game\n')
    message = api_error(rulewright.load(str(rules)).new_state, seed=1)
    line = 3 + len(statement.splitlines()) - (1 if statement.startswith("each") else 0)
    assert f"{rules}:{line}:5: error: in 'turn': " in message and why in message, message
    result = run("validate", rules)
    assert result.exit_code == 1 and why in result.stdout


# ----------------------------------------------------------------------------- properties: ours or success
from hypothesis import HealthCheck, given, settings, strategies as hs  # noqa: E402

JSON_VALUES = hs.recursive(
    hs.none() | hs.booleans() | hs.integers() | hs.floats() | hs.text(max_size=6),
    lambda inner: hs.lists(inner, max_size=3) | hs.dictionaries(hs.text(max_size=5), inner, max_size=3),
    max_leaves=8)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


_CARDS_GAME: dict = {}


def _cards():
    """The Cards game and a save of it after one move, made once for every example."""
    if not _CARDS_GAME:
        from rulewright.dsl.parser import parse
        game = rulewright.Game(parse(CARDS, "cards.rules"), 2)
        state = game.new_state(seed=2)
        state.apply(state.legal_moves()[0])
        _CARDS_GAME.update(game=game, data=json.loads(json.dumps(state.to_json())))
        _CARDS_GAME["paths"] = [p for p in _paths(_CARDS_GAME["data"]["state"]) if p]
    return _CARDS_GAME


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(hs.data())
def test_any_edit_of_a_save_is_refused_or_loads_and_fails_only_with_our_errors(data):
    from rulewright.interpreter.engine.limits import set_limits
    # an edited place in the rules may loop until the step limit: keep that short (not a fixture:
    # hypothesis runs the body many times per fixture)
    old = set_limits(steps=20_000, work=20_000)
    try:
        _edit_a_save(data)
    finally:
        set_limits(**old)


def _edit_a_save(data):
    import copy
    cards = _cards()
    save = copy.deepcopy(cards["data"])
    path = data.draw(hs.sampled_from(cards["paths"]))
    target = save["state"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(JSON_VALUES)
    try:
        state = cards["game"].load_state(save)
    except rulewright.SaveError:
        return
    json.dumps(state.to_json())
    try:  # a value of the wrong kind in a variable (a score of none) is not refused: the rules say so later
        state.render(1)
        if not state.is_over():
            state.apply(state.legal_moves()[0])
    except RulesError:
        pass


@settings(max_examples=200, deadline=None, derandomize=True)
@given(hs.text(max_size=40))
def test_any_move_text_is_a_move_or_a_refusal(text):
    state = rulewright.load("tic-tac-toe").new_state(seed=1)
    try:
        state.apply(text)
    except rulewright.IllegalMoveError:
        assert state.moves_made == 0


# ----------------------------------------------------------------------------- saves edited by hand
def _biplane_mid_game():
    g = rulewright.load("biplane", players=2)
    st = g.new_state(seed=5)
    rng = random.Random(5)
    for _ in range(40):
        st.apply(rng.choice(st.legal_moves()))
    return g, st


def test_a_save_is_checked_against_its_seed_and_moves():
    g, st = _biplane_mid_game()
    data = json.loads(json.dumps(st.to_json()))
    assert g.load_state(data).to_json() == st.to_json()
    deck = data["state"]["vars"]["deck"]
    edits = [
        lambda d: d["state"]["vars"]["deck"].append(deck[0]),          # a duplicated card
        lambda d: d["state"]["vars"]["score"].__setitem__(0, 99),       # a score
        lambda d: d["state"]["vars"].__setitem__("first_player", 2),    # who starts
    ]
    for edit in edits:
        edited = json.loads(json.dumps(data))
        edit(edited)
        with pytest.raises(rulewright.SaveError, match="is not what its seed and its moves give"):
            g.load_state(edited)
        g.load_state(json.loads(json.dumps(edited)), verify=False)  # on purpose, it loads


def test_a_save_whose_moves_were_edited_is_refused():
    g, st = _biplane_mid_game()
    data = json.loads(json.dumps(st.to_json()))
    moves = [e for e in data["state"]["history"] if e["event"] == "move"]
    moves[3]["move"] = "no such move"
    with pytest.raises(rulewright.SaveError, match="moves do not play from its seed"):
        g.load_state(data)


def test_the_command_line_refuses_an_edited_save_unless_told(tmp_path):
    g, st = _biplane_mid_game()
    data = st.to_json()
    data["state"]["vars"]["score"][1] = 42
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    out = CliRunner().invoke(app, ["show", "biplane", "--load", str(path)])
    assert out.exit_code == 1 and "--unverified" in out.output and "Traceback" not in out.output
    out = CliRunner().invoke(app, ["show", "biplane", "--load", str(path), "--unverified"])
    assert out.exit_code == 0, out.output


# ----------------------------------------------------------------------------- any Unicode in a rules text
def _literal(text: str) -> str:
    """``text`` as a rules string literal: braces doubled, anything not printable as an escape."""
    return "".join(c * 2 if c in "{}" else c if c.isprintable() and c not in '"\\' else f"\\U{ord(c):08x}"
                   for c in text)


def _texts_game(tmp_path: Path, text: str) -> Path:
    """A game whose title, move texts and log line hold ``text``."""
    quoted = _literal(text)
    return write(tmp_path, "texts.rules", f'''
        game "T{quoted}"
        players 2
        player var score = 0

        turn:
            choose n in [1, 2] as "{quoted} {{n}}"
            log "{quoted}"
            me.score += n
        end when round_number > 1 after round
        rank by score descending
        ''')


def _outputs_hold(tmp_path: Path, text: str) -> None:
    """Every output of the game of ``text`` is well formed for its format and says ``text``."""
    import xml.etree.ElementTree as ET
    rules = _texts_game(tmp_path, text)
    shown = run("show", rules, "--seed", "1")
    assert shown.exit_code == 0, shown.output
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", shown.stdout)  # no control reaches the terminal
    as_json = run("show", "--json", rules, "--seed", "1")
    assert json.loads(as_json.stdout)["game"] == "T" + text
    picture = tmp_path / "texts.svg"
    assert run("show", "--svg", picture, rules, "--seed", "1").exit_code == 0
    ET.parse(picture)  # well-formed XML 1.0, whatever the text held
    played = run("play", "--json", rules, "--seed", "1", "--auto", "first")
    assert played.exit_code == 0, played.output
    events = [json.loads(line) for line in played.stdout.splitlines()]
    assert {"event": "log", "text": text} in [{k: e.get(k) for k in ("event", "text")} for e in events]
    at_prompt = run("play", rules, "--seed", "1", input="1\n1\n1\n1\n")
    assert at_prompt.exit_code == 0 and not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", at_prompt.stdout)


@pytest.mark.parametrize("text", ["\x00\x01\x07\x1b[2J\x7f\x85", "\u2028\u2029\ufeff\ufffe\uffff", "a\U0010ffff𝄞",
                                  "$\\frac{1}{2}$ =1+1 @x -y", "\t\r\n", " "])
def test_odd_texts_in_rules_reach_every_output_well_formed(tmp_path, text):
    _outputs_hold(tmp_path, text)


@pytest.mark.parametrize("where", ['game "a\\ud800"', 'log "b\\udfff"', 'log "{\\"c\\ud83d\\"}"',
                                   'choose n in [1] as "\\ud800{n}"'])
def test_a_lone_surrogate_escape_in_a_rules_text_is_a_located_error(tmp_path, where):
    """No output can write half of a character: the parser refuses it where it stands, so show, show
    --json, show --svg and play never meet it."""
    if where.startswith("game"):
        body = where + "\nplayers 2\nturn:\n    end game\n"
    else:
        body = 'game "G"\nplayers 2\nturn:\n    ' + where + "\n    end game\n"
    rules = write(tmp_path, "half.rules", body)
    line = 1 if where.startswith("game") else 4
    for args in (["validate"], ["show"], ["show", "--json"], ["show", "--svg", tmp_path / "x.svg"], ["play"],
                 ["play", "--json"]):
        result = run(*args, rules, input="")
        assert result.exit_code == 1, (args, result.output)
        assert re.search(rf"half\.rules:{line}:\d+: error: '\\ud[89a-f][0-9a-f]{{2}}' is half of a character "
                         r"\(a lone surrogate\): a text cannot hold it", result.output), result.output


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow,
                                                                                   HealthCheck.function_scoped_fixture])
@given(text=hs.text(hs.characters(blacklist_categories=()), min_size=1, max_size=8))
def test_any_unicode_in_a_rules_text_is_refused_where_it_stands_or_written_well_formed(tmp_path, text):
    """Arbitrary code points (controls, non-characters, private use, lone surrogates) in a rules text."""
    if re.search("[\ud800-\udfff]", text):
        result = run("validate", _texts_game(tmp_path, text))
        assert result.exit_code == 1 and "lone surrogate" in result.output
    else:
        _outputs_hold(tmp_path, text)


def test_a_save_holding_a_lone_surrogate_is_refused_when_read(tmp_path, cards_save):
    _rules, _game, data = cards_save
    data["state"]["history"][0]["move"] = "\ud800"
    saved = tmp_path / "half.json"
    saved.write_text(json.dumps(data), encoding="utf-8")  # ensure_ascii: written as the escape \ud800
    result = run("play", "--load", saved)
    assert result.exit_code == 1
    assert result.stderr == (f"error: {saved}: not a valid save file (a text holds half of a character: an "
                             "escape such as \\ud800, a lone surrogate)\n")

