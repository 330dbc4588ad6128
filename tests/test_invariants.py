"""Invariants ('invariant "name": expression', with was(x)) and `rulewright check`: checked as yes/no
expressions, watched after every move by check, coverage, simulate --check, play --check and the test
kit, a breach shortened and replayable; a game that never ends fails check; the shipped games hold
theirs."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rulewright.cli.main import app
from rulewright.interpreter.api import load, load_rules
from rulewright.interpreter.check.symbols import symbols
from rulewright.interpreter.play.invariants import Watch, replay, shrink, watched_playout
from rulewright.interpreter.shipped import shipped_games
from rulewright.interpreter.testing import errors_of, game_from_text, line_of, random_playout, shipped, snippet

runner = CliRunner()

# Each player adds 0, 1 or 2 to their score and, from round 2 on, to their fuel: a tank of 4 that starts
# with 3 overflows in round 2 at the earliest.
TANK = snippet('''
    game "Tank"
    players 2
    player var score = 0
    player var fuel = 3
    invariant "a tank holds at most 4": all(p in players: p.fuel <= 4)
    invariant "scores only rise": all(p in players: p.score >= was(p.score))
    turn:
        choose n in [0, 1, 2]
        me.score += n
        if round_number >= 2:
            me.fuel += n
    end when round_number >= 4 after round
''')


def test_an_invariant_is_a_yes_no_and_was_belongs_to_invariants():
    text = snippet('''
        game "G"
        players 2
        var a = 1
        invariant "sum": a + 1
        invariant "twice": was(was(a)) == 1
        turn:
            a = was(a)
        end when a > 1
    ''')
    found = {(line, message) for line, _col, message, _hint in errors_of(text)}
    assert (line_of(text, 'invariant "sum"'), 'invariant "sum" needs a yes/no, but this is a number') in found
    assert (line_of(text, 'invariant "twice"'), "was(...) inside was(...) has no value: one move back is all an "
                                                "invariant keeps") in found
    assert (line_of(text, "a = was(a)"), "was(...) is a value before the last move: only an invariant has one") in found


def test_invariant_names_are_their_own_and_a_variant_adds_one(tmp_path):
    base = tmp_path / "tank.rules"
    base.write_text(TANK.replace('invariant "a tank holds at most 4"', 'invariant "fuel"'))
    variant = tmp_path / "strict.rules"
    variant.write_text('extends "tank.rules"\ninvariant "score": all(p in players: p.score <= 1)\n')
    game = load(str(variant), players=2)
    names = [d.name for d, _test in game.compiled.invariants]
    assert names == ["fuel", "scores only rise", "score"]
    st = game.new_state(seed=1)
    st.apply("2")
    assert Watch(game.compiled).broken(st)[0].name == "score"


def test_the_watch_finds_the_first_move_that_breaks_an_invariant_and_was_looks_back():
    game = game_from_text(TANK)
    st = game.new_state(seed=1)
    watch = Watch(game.compiled)
    assert watch.broken(st) is None
    for move in ["2", "2", "1"]:  # round 1: only the scores; round 2: player 1's fuel 4
        watch.before(st)
        st.apply(move)
        assert watch.broken(st) is None
    before = st.clone()
    watch.before(st)
    st.apply("2")  # player 2: fuel 3 + 2 = 5
    decl, why = watch.broken(st)
    assert (decl.name, why, st.moves_made) == ("a tank holds at most 4", "it is false", 4)  # round 2's last
    # was(x) reads the state before the move: a score set lower breaks "scores only rise"
    back = Watch(game.compiled)
    back.before(before)
    before.vars["score"][0] = -1
    assert back.broken(before)[0].name == "scores only rise"


def test_a_breach_stops_the_game_at_its_move_and_is_shortened():
    game = game_from_text(TANK)
    result = watched_playout(game, 4, 1000)
    breach = result["breach"]
    assert breach["invariant"] == "a tank holds at most 4" and result["outcome"] is None
    st, found, made = replay(game, 4, [tuple(m) for m in breach["moves"]])
    assert found[0].name == "a tank holds at most 4" and made == len(breach["moves"]) == st.moves_made
    # nothing added in rounds 1 and 2, then 2 in round 3: dropping round 1 breaks it in round 2
    padded = [(1, "0"), (2, "0"), (1, "0"), (2, "0"), (1, "2")]
    assert shrink(game, 4, padded, "a tank holds at most 4") == ((1, "0"), (2, "0"), (1, "2"))


def test_check_fails_with_the_name_and_moves_that_play_again(tmp_path):
    rules = tmp_path / "tank.rules"
    rules.write_text(TANK)
    out = tmp_path / "moves"
    result = runner.invoke(app, ["check", str(rules), "-n", "3", "--greedy", "1", "--coverage", "1", "-w", "1",
                                 "--json", "--out", str(out)])
    assert result.exit_code == 1, result.output
    report = json.loads(result.stdout)
    assert not report["ok"] and report["invariants"] == 2
    (breach,) = report["broken"]
    assert breach["invariant"] == "a tank holds at most 4" and breach["line"] == line_of(TANK, 'invariant "a tank')
    assert breach["games"] >= 1 and report["stalled"] == report["errors"] == []
    # the moves, replayed from the same seed, break the invariant again, in round 2 or later
    st, found, made = replay(game_from_text(TANK), breach["seed"], [tuple(m) for m in breach["moves"]])
    assert found[0].name == breach["invariant"] and made == len(breach["moves"]) and st.vars["round_number"] >= 2
    # and so they do through play --check (the file --out wrote)
    (moves_file,) = out.iterdir()
    replayed = runner.invoke(app, ["play", str(rules), "-p", "2", "--seed", str(breach["seed"]), "--check",
                                   "--moves", str(moves_file)])
    assert replayed.exit_code == 1
    assert f'invariant "a tank holds at most 4" is broken after move {made}' in replayed.output
    # without --check the same moves play on: the invariant is off in plain play
    plain = runner.invoke(app, ["play", str(rules), "-p", "2", "--seed", str(breach["seed"]), "--moves",
                                str(moves_file)])
    assert plain.exit_code == 0


def test_the_verdict_on_one_screen_names_the_invariant_and_the_replay(tmp_path):
    rules = tmp_path / "tank.rules"
    rules.write_text(TANK)
    result = runner.invoke(app, ["check", str(rules), "-n", "2", "--greedy", "0", "--coverage", "0", "-w", "1"])
    assert result.exit_code == 1
    text = result.stdout
    assert 'invariant "a tank holds at most 4" broken in' in text and ": it is false" in text
    assert "--check --moves FILE" in text and text.rstrip().endswith("verdict: FAILED")


def test_a_game_that_never_ends_fails_check(tmp_path):
    rules = tmp_path / "endless.rules"
    rules.write_text(snippet('''
        game "Endless"
        players 2
        var total = 0
        turn:
            choose n in [0, 1]
            total += n
        end when total < 0
    '''))
    result = runner.invoke(app, ["check", str(rules), "-n", "2", "--greedy", "1", "--coverage", "0", "-w", "1",
                                 "--max-decisions", "200", "--json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert len(report["endless"]) == 3 and {e["agent"] for e in report["endless"]} == {"random", "greedy"}
    # each game's own agents (200 decisions of random ones, a quarter of that of greedy ones, whose every
    # decision weighs each legal move), then the rush agents playing on for 200 more
    played = {(e["agent"], e["decisions"], e["finished_by"], e["played_on"]) for e in report["endless"]}
    assert played == {("random", 400, "rush", 200), ("greedy", 250, "rush", 200)}
    assert report["broken"] == [] and report["long"] == [] and report["greedy_decisions"] == 50
    shown = runner.invoke(app, ["check", str(rules), "-n", "0", "--greedy", "1", "--coverage", "0", "-w", "1",
                                "--max-decisions", "200"])
    assert "endless games (still running after 200 decisions (50 of greedy agents), and 200 more by rush" in shown.stdout


CLIMB = Path(__file__).parent / "rules" / "climb.rules"  # six 1s in a row, each one of ten choices


def test_a_game_random_players_do_not_finish_passes_check_when_rush_agents_end_it():
    """Six 1s in a row, each one of ten choices: random players do not finish in 200 decisions; the
    rush agents, told the climb by 'def progress', play on to the end, and the verdict says so."""
    rules = CLIMB
    result = runner.invoke(app, ["check", str(rules), "-n", "2", "--greedy", "0", "--coverage", "0", "-w", "1",
                                 "--max-decisions", "200", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["ok"] and report["endless"] == [] and report["finish"] == "rush"
    assert [(x["agent"], x["finished_by"]) for x in report["long"]] == [("random", "rush")] * 2
    assert all(x["decisions"] == 200 + x["played_on"] and x["played_on"] <= 12 for x in report["long"])
    assert report["first_seat"]["finished"] == 0  # a game the rush agents ended says nothing of the seats
    # the verdict on one screen says who ended them
    shown = runner.invoke(app, ["check", str(rules), "-n", "1", "--greedy", "0", "--coverage", "0", "-w", "1",
                                "--max-decisions", "200"])
    assert "long games (not a failure): 1 still running after 200 decisions, ended by rush agents" in shown.stdout
    # without agents to play on, the same games never end
    refused = runner.invoke(app, ["check", str(rules), "-n", "1", "--greedy", "0", "--coverage", "0", "-w", "1",
                                  "--max-decisions", "200", "--finish", "none", "--json"])
    assert refused.exit_code == 1 and len(json.loads(refused.stdout)["endless"]) == 1


def test_a_stall_and_an_error_are_told_with_their_options(tmp_path):
    rules = tmp_path / "stall.rules"
    rules.write_text(snippet('''
        game "Stall"
        players 2
        option trap: none_left | divide
        var left = [1, 2]
        turn:
            choose n in left where n > round_number
            if trap == divide:
                left = [1 / (round_number - 1)]
        end when round_number > 5 after round
    '''))
    result = runner.invoke(app, ["check", str(rules), "-n", "1", "--greedy", "0", "--coverage", "0", "-w", "1",
                                 "--json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert [s["options"] for s in report["stalled"]] == [{}]
    assert "no legal choice for 'n'" in report["stalled"][0]["error"]
    assert [e["options"] for e in report["errors"]] == [{"trap": "divide"}]


def test_rules_with_errors_fail_check_with_validates_words(tmp_path):
    rules = tmp_path / "bad.rules"
    rules.write_text(snippet('''
        game "Bad"
        players 2
        invariant "x": y > 1
        turn:
            pass
        end when true
    '''))
    result = runner.invoke(app, ["check", str(rules)])
    assert result.exit_code == 1
    assert "bad.rules:3:16: error: unknown name 'y'" in result.stdout
    assert result.stdout.rstrip().endswith("no game played: the rules do not load\nverdict: FAILED")


def test_a_game_that_holds_its_invariants_passes_with_its_first_seat_rate(tmp_path):
    rules = tmp_path / "fair.rules"
    rules.write_text(TANK.replace("me.fuel += n", "me.fuel = min(4, me.fuel + n)"))  # the tank holds
    result = runner.invoke(app, ["check", str(rules), "-n", "4", "--greedy", "1", "--coverage", "1", "-w", "1",
                                 "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    seat = report["first_seat"]
    assert report["ok"] and seat["finished"] == 5 and seat["fair"] == 0.5
    assert 0.0 <= seat["ci95"][0] <= seat["win_rate"] <= seat["ci95"][1] <= 1.0


def test_simulate_check_and_coverage_report_a_broken_invariant(tmp_path):
    rules = tmp_path / "tank.rules"
    rules.write_text(TANK)
    simulated = runner.invoke(app, ["simulate", str(rules), "-n", "2", "-w", "1", "-s", "1", "--check"])
    assert simulated.exit_code == 1 and 'invariant "a tank holds at most 4" broken in' in simulated.output
    covered = runner.invoke(app, ["coverage", str(rules), "-n", "1", "--json"])
    (broken,) = json.loads(covered.stdout)["broken"]
    assert broken["name"] == "a tank holds at most 4" and broken["move"] >= 3  # round 2 at the earliest


def test_the_test_kit_playout_checks_invariants():
    game = game_from_text(TANK)
    with pytest.raises(AssertionError, match='invariant "a tank holds at most 4" is broken after'):
        random_playout(game.new_state(seed=2), random.Random(2))
    random_playout(game.new_state(seed=2), random.Random(2), invariants=False)  # asked not to: it plays on


AVIATION = sorted(name for name, path in shipped_games().items() if "classic" not in path.parts)


@pytest.mark.parametrize("name", AVIATION)
def test_every_shipped_game_holds_its_invariants_in_a_seeded_game(name):
    """The default configuration, the first 200 moves of a random game (the full sweep of every
    configuration, whole games: benchmarks/check_shipped.py)."""
    game = shipped(name)  # compiled once for the process: the games' own tests use it too
    assert len(game.compiled.invariants) >= 5
    result = watched_playout(game, 1, 200)
    assert result["decisions"] == 200 or result["outcome"] is not None, result
    assert not {"breach", "error", "stalled"} & result.keys(), result


@pytest.mark.parametrize("name", ["air-show", "barnstormers", "biplane", "magnificent-flying-machines", "planes"])
def test_each_game_page_quotes_the_rulebook_for_every_invariant(name):
    page = (Path(__file__).resolve().parent.parent / "docs" / "games" / f"{name}.md").read_text(encoding="utf-8")
    section = page.split("\n## Invariants\n", 1)[1].split("\n## ", 1)[0]
    rows = [line.split(" | ") for line in section.splitlines() if line.startswith("| ") and "---" not in line][1:]
    named = {row[0].removeprefix("| ").split(" (")[0]: row[1] for row in rows}
    assert set(named) == {d.name for d in symbols(load_rules(name)).invariants}
    assert all('"' in rests_on for rests_on in named.values())  # each rests on a quoted sentence
