"""`rulewright coverage`: statements never run, table rows never used and moves that changed nothing,
over seeded random games (interpreter/play/coverage.py, cli/coverage.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rulewright
from rulewright.cli.coverage import line_ranges
from rulewright.cli.main import app
from rulewright.interpreter.api import load_rules
from rulewright.interpreter.play.coverage import measure
from rulewright.interpreter.testing import line_of

runner = CliRunner()

# A 'log "never"' that never runs (round 6 never comes), a row nobody draws or reads (Cat), a
# move that changes nothing but the log ("wave"), and a real pass ("rest": its body is 'pass').
PROBE = '''\
game "Probe"
players 2..3
option bonus: 0 | 5
table card(name, points):
    Ace, 3
    Bee, 2
    Cat, 1
var hand = ["Ace", "Bee"]
player var score = 0
turn:
    choose c in hand as "score {c}"
    me.score += c.points + bonus
    if bonus > 0:
        log "bonus"
    choose:
        "wave":
            log "player {me} waves"
        "rest":
            pass
    if round_number > 5:
        log "never"
    choose d in ["Ace"] as "again {d}" optional "decline"
    me.score += 1 if d != none else 0
end when round_number > 2 after round
'''

# Every move changes something, or is a pass the rules declare ('stop': break): a move's value that only
# lands in a local still in use (the first of two decisions) is no silent move.
QUIET = '''\
game "Quiet"
players 2
player var score = 0
turn:
    repeat 2 times:
        choose:
            "aim":
                choose n in [1, 2] as "take {n}"
                me.score += n
            "stop":
                break
end when round_number > 1 after round
'''


@pytest.fixture
def probe(tmp_path) -> Path:
    path = tmp_path / "probe.rules"
    path.write_text(PROBE, encoding="utf-8")
    return path


def run(*args):
    result = runner.invoke(app, ["coverage", *[str(a) for a in args]])
    assert "Traceback" not in result.output, result.output
    return result


def test_reports_the_unrun_statement_the_unused_row_and_the_silent_move_exactly(probe):
    report = measure(load_rules(str(probe)), 2, None, range(1, 4))
    (f,) = report.files
    assert f.file == str(probe)
    # with bonus 0 the 'if bonus > 0' is compiled away: it and its log never run
    assert f.missing == (line_of(PROBE, "if bonus"), line_of(PROBE, '"bonus"'), line_of(PROBE, '"never"'))
    assert len(f.lines) == 10  # 'pass' is no statement; the choose's alternatives are none either
    assert [(t.table, t.rows, t.unused) for t in report.tables] == [("card", 3, ("Cat",))]
    (silent,) = report.silent
    assert (silent.file, silent.line, silent.texts) == (str(probe), line_of(PROBE, "choose:"), ["wave"])
    # reproducible: each example names its game's seed and the move's number in it
    first = silent.examples[0]
    game = rulewright.load(str(probe), players=2)
    state = game.new_state(seed=first["seed"])
    from rulewright.interpreter.play.agents import agents_for
    agents = agents_for("random", 2, first["seed"])
    for _ in range(first["move"] - 1):
        player = state.to_move()[0]
        state.apply(agents[player - 1].choose(state, player), player=player)
    player = state.to_move()[0]
    assert agents[player - 1].choose(state, player).text == "wave" == first["text"]
    assert player == first["player"]


def test_a_game_whose_moves_all_change_something_reports_none(tmp_path):
    path = tmp_path / "quiet.rules"
    path.write_text(QUIET, encoding="utf-8")
    report = measure(load_rules(str(path)), 2, None, range(1, 6))
    assert report.silent == ()
    assert report.files[0].missing == ()  # every alternative was chosen in 5 games
    assert report.moves >= 5 * 2 * 2 and report.unfinished == 0


def test_a_shipped_game_without_silent_moves():
    report = measure(load_rules("tic-tac-toe"), None, None, range(1, 4))
    assert report.silent == () and report.moves > 0
    assert 0 < report.statements_run <= report.statements


def test_json_shape_and_options_and_players_passed_through(probe):
    result = run(probe, "-n", 3, "--players", 3, "--option", "bonus=5", "--seed", 7, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data) == {"game", "players", "options", "games", "seeds", "moves", "unfinished", "statements",
                         "rows", "silent_moves", "added", "broken"}
    assert data["added"] == [] and data["broken"] == []  # not a variant; no invariant
    assert (data["game"], data["players"], data["options"], data["seeds"]) == ("Probe", 3, {"bonus": 5}, [7, 8, 9])
    statements = data["statements"]
    assert set(statements) == {"total", "run", "percent", "files"}
    # bonus 5: the 'if bonus > 0' folds to its body, which runs
    assert statements["files"] == [{"file": str(probe), "statements": 10, "run": 9,
                                    "missing": [line_of(PROBE, '"never"')]}]
    assert data["rows"] == [{"table": "card", "rows": 3, "unused": ["Cat"]}]
    (silent,) = data["silent_moves"]
    assert set(silent) == {"file", "line", "count", "texts", "examples"}
    assert silent["line"] == line_of(PROBE, "choose:") and silent["count"] >= 1
    assert set(silent["examples"][0]) == {"seed", "move", "player", "text"}
    assert silent["examples"][0]["player"] in (1, 2, 3)


def test_text_report(probe):
    result = run(probe, "-n", 2)
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Coverage of Probe, 2 players, options: bonus=0" in text
    assert "2 random games (seeds 1-2)" in text
    never, if_bonus = line_of(PROBE, '"never"'), line_of(PROBE, "if bonus")
    assert f"    10      3    70%   {if_bonus}-{if_bonus + 1}, {never}" in text
    assert "card: Cat (1 of 3)" in text
    assert f":{line_of(PROBE, 'choose:')}: " in text and '"wave"' in text
    assert "--seed 1 --auto random" in text or "--seed 2 --auto random" in text


def test_usage_errors_exit_2(probe):
    assert run(probe, "-n", 0).exit_code == 2
    assert run(probe, "--bogus").exit_code == 2
    assert run().exit_code == 2


def test_bad_option_is_a_clear_error(probe):
    result = run(probe, "-o", "bonus=7")
    assert result.exit_code == 1 and "bonus" in result.output


def test_line_ranges_join_missing_lines_with_no_statement_run_between():
    assert line_ranges((1, 2, 4, 7, 9, 10), (2, 4, 9, 10)) == "2-4, 9-10"
    assert line_ranges((3, 5), ()) == ""


# ---------------------------------------------------------------------------------------- a variant's additions
CARDS = '''\
game "Cards"
players 2
option pace: slow | fast
enum suit: red, black
table card(name, suit):
    ace, red
    two, black
player var score = 0
turn:
    choose c in card as "play {c}"
    if c.suit == red:
        me.score += 1
    elif c.suit == black:
        me.score -= 1
    if pace == fast:
        me.score += 1
end when round_number > 4 after round
'''

# joker: a card of a new suit no rule of the base tells apart (played, it changes nothing); blue: a
# member no card holds; crawl: an option value the default game never starts
JOKER = '''\
extends "cards.rules"
game "Cards with a joker"
add to enum suit: green, blue
add to table card:
    joker, green
add to option pace: crawl
after step "nothing":
    pass
'''


def test_a_variants_additions_are_followed_through_the_games(tmp_path):
    (tmp_path / "cards.rules").write_text(CARDS, encoding="utf-8")
    variant = tmp_path / "joker.rules"
    variant.write_text(JOKER.replace('after step "nothing":\n    pass\n', "def slow_enough() = pace == crawl\n"),
                       encoding="utf-8")
    report = measure(load_rules(str(variant)), seeds=range(1, 6))
    added = {(a.kind, a.value): a for a in report.added}
    joker = added[("table", "joker")]
    # every play of it changed nothing but the one that ended a game (the status changed)
    assert joker.played > 3 and joker.played - 5 <= joker.silent < joker.played and joker.line == 5
    assert joker.status() == f"played {joker.played} times, changed nothing {joker.silent} of them"
    assert added[("enum", "green")].status() == "produced"  # read from its card
    assert added[("enum", "blue")].status() == "never produced"
    assert added[("option", "crawl")].status() == "never started"
    assert [(a["kind"], a["value"], a["status"]) for a in report.to_dict()["added"]][-1] == \
        ("option", "crawl", "never started")
    result = run(variant, "-n", "2")
    assert result.exit_code == 0
    tail = result.stdout.split("What the variant adds:\n")[1].splitlines()
    assert tail[0].endswith("joker.rules:3: enum suit: green: produced")
    assert tail[1].endswith("joker.rules:3: enum suit: blue: never produced")
    assert "joker.rules:5: table card: 'joker': played " in tail[2] and "changed nothing" in tail[2]
    assert tail[3].endswith("joker.rules:6: option pace: crawl: never started (-o pace=crawl starts it)")
    started = measure(load_rules(str(variant)), options={"pace": "crawl"}, seeds=[1])
    assert {a.value: a.status() for a in started.added}["crawl"] == "started"


DRAWN = '''game "Drawn"
players 2
enum colour: red, blue
table card(name, colour):
    ace, red
    two, blue
var deck = []
player var score = 0
setup:
    deck = shuffled(card)
turn:
    step "draw":
        choose:
            "draw" if len(deck) > 0:
                if deck[1].colour == red:
                    me.score += 1
                elif deck[1].colour == blue:
                    me.score += 2
                deck = without(deck, deck[1])
            "stop":
                end game
'''


def test_what_a_variant_adds_and_the_rules_read_through_a_field_is_counted(tmp_path):
    """A card drawn and read (deck[1].colour), never a move's value, is read, not 'never played'; a member
    that is only a key whose field a loop reads (col.pts) is produced, not 'never produced'."""
    (tmp_path / "base.rules").write_text(DRAWN, encoding="utf-8")
    variant = tmp_path / "v.rules"
    variant.write_text('extends "base.rules"\nadd to enum colour: green\nadd to table card:\n    three, green\n'
                       'in step "draw", add:\n    elif deck[1].colour == green:\n        me.score += 3\n'
                       'table points(colour, pts):\n    red, 1\n    blue, 2\n    green, 3\n'
                       'after step "draw":\n    for col in points:\n        if col.pts > 2:\n            me.score += 1\n',
                       encoding="utf-8")
    report = measure(load_rules(str(variant)), seeds=range(1, 4))
    added = {(a.kind, a.value): a for a in report.added}
    assert added[("table", "three")].status() == "read by the rules, never a move's choice"
    assert not added[("table", "three")].problem()
    assert added[("enum", "green")].status() == "produced"
