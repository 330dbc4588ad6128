"""The `rulewright` command line: every command, its exit codes, and that a user's mistake never
shows a traceback. Most tests run the Typer app in-process; a few run the installed console script."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rulewright
from rulewright.cli.main import app

runner = CliRunner()

# A small generic game with an option, a secret per-player variable, scores and a simultaneous
# decision: the parts of the CLI tic-tac-toe does not reach.
GUESS = '''\
# Every player secretly picks 1, 2 or 3 each round; the picks add up to the score.
game "Guess"
players 2..3
option rounds: 1 | 2 | 3
player var picks = [] secret
player var score = 0

round:
    each p in players secretly choose n in [1, 2, 3] as "pick {n}":
        reveal n as "player {p} picked {n}"
        add n to picks[p]
        score[p] += n
    log "round {round_number} done"

end when round_number >= rounds after round
'''


def run(*args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def script_file(tmp_path: Path, name: str, *lines: str) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def guess(tmp_path) -> Path:
    path = tmp_path / "guess.rules"
    path.write_text(GUESS, encoding="utf-8")
    return path


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


# ---------------------------------------------------------------------------------------- help, list
def test_help_documents_the_exit_codes():
    result = run("--help")
    assert result.exit_code == 0
    assert "Exit codes: 0 ok; 1" in result.output and "2 a usage error" in result.output
    for command in ("validate", "play", "show", "simulate", "replay", "bench", "list"):
        assert command in result.output


def test_list_shows_player_counts_and_options():
    result = run("list")
    assert result.exit_code == 0
    line = next(l for l in result.stdout.splitlines() if l.startswith("tic-tac-toe"))
    assert "Tic-Tac-Toe, 2 players" in line
    games = json.loads(run("list", "--json").stdout)
    by_name = {g["name"]: g for g in games}
    assert set(by_name) == set(rulewright.interpreter.api.shipped_games())
    assert by_name["tic-tac-toe"]["players"] == [2, 2]
    assert by_name["tic-tac-toe"]["options"] == {}


def test_usage_errors_exit_2():
    assert run("play").exit_code == 2                                    # missing GAME
    assert run("play", "tic-tac-toe", "--option", "novalue").exit_code == 2
    assert run("play", "tic-tac-toe", "--auto", "clever").exit_code == 2
    assert run("play", "tic-tac-toe", "--human", "3").exit_code == 2
    assert run("simulate", "tic-tac-toe").exit_code == 2                 # --games is required
    assert run("frobnicate").exit_code == 2
    result = run("play", "tic-tac-toe", "-o", "a=1", "-o", "a=2")
    assert result.exit_code == 2 and "given twice" in result.output


# ---------------------------------------------------------------------------------------- validate
def test_validate_ok_for_shipped_name_and_path(guess):
    result = run("validate", "tic-tac-toe", guess)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["ok: tic-tac-toe", f"ok: {guess}"]


def test_validate_diagnostic_snapshot(tmp_path, snapshot):
    bad = tmp_path / "broken.rules"
    bad.write_text('game "Broken"\nplayers 2\nvar marks = {}\n\nturn:\n    if len(mraks) > 3:\n'
                   '        end game\n    marks[me] = 1\n', encoding="utf-8")
    result = run("validate", "tic-tac-toe", bad)
    assert result.exit_code == 1
    text = result.stdout.replace(str(bad.resolve()), "broken.rules").replace(str(bad), "broken.rules")
    assert "did you mean 'marks'?" in text
    assert text == snapshot


def test_validate_shows_warnings_and_still_passes(tmp_path):
    hiding = script_file(tmp_path, "hiding.rules", 'game "H"', "players 2",
                         "board b: grid 3 by 3 headings e ne n nw w sw s se", "def ahead(x, s) = step(x, s)",
                         "turn:", "    end game")
    result = run("validate", hiding)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        f"{hiding}:4:1: warning: the local 's' hides 's', a heading of board 'b'",
        "    def ahead(x, s) = step(x, s)",
        "    ^",
        "  hint: rename the local: where it is seen, 's' means the local",
        f"ok: {hiding}"]


def test_validate_syntax_error_and_missing_file(tmp_path):
    bad = script_file(tmp_path, "syntax.rules", 'game "S"', "players 2", "turn:", "    if x = 1:", "        end game")
    result = run("validate", bad, tmp_path / "missing.rules")
    assert result.exit_code == 1
    assert f"{bad.name}:4:" in result.stdout and "error" in result.stdout
    assert "no rules file at" in result.stdout


def test_validate_reports_setup_that_fails_at_run_time(tmp_path):
    bad = script_file(tmp_path, "setup.rules", 'game "S"', "players 2", "var deck = []", "var top = 0",
                      "setup:", "    top = deck[1]", "turn:", "    end game")
    result = run("validate", bad)
    assert result.exit_code == 1
    assert "with 2 players" in result.stdout


# ---------------------------------------------------------------------------------------- play: agents
def test_play_random_json_is_reproducible_and_legal():
    first = run("play", "tic-tac-toe", "--seed", "11", "--auto", "random", "--json")
    second = run("play", "tic-tac-toe", "--seed", "11", "--auto", "random", "--json")
    assert first.exit_code == 0 and first.stdout == second.stdout
    events = json_lines(first.stdout)
    assert events[-1]["event"] == "outcome"
    # The printed moves, applied through the API, reach the printed outcome.
    state = rulewright.load("tic-tac-toe").new_state(seed=11)
    for e in events:
        if e["event"] == "move":
            state.apply(e["move"], player=e["player"])
    assert state.is_over()
    assert {"event": "outcome", **state.outcome().to_dict()} == events[-1]
    other = run("play", "tic-tac-toe", "--seed", "12", "--auto", "random", "--json")
    assert other.stdout != first.stdout  # the seed matters


def test_console_script_gives_identical_output_twice():
    """The issue's own check: a four-player Biplane game played by script, twice, gives the same output."""
    exe = shutil.which("rulewright", path=str(Path(sys.executable).parent))
    assert exe, "the rulewright console script is not installed"
    cmd = [exe, "play", "biplane", "--players", "4", "--seed", "11", "--auto", "random", "--json"]
    a = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    b = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert a.returncode == 0 and a.stdout == b.stdout
    assert json.loads(a.stdout.splitlines()[-1])["event"] == "outcome"


def test_play_readable_ends_with_board_and_outcome():
    result = run("play", "tic-tac-toe", "--seed", "3", "--auto", "first")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "player 1: A1" and lines[1] == "player 2: A2"
    # The closing screen is the table a person reads (the board with its legend), not the variables,
    # and the outcome is said once, last.
    assert "A   x  o  x\nlegend: x player 1's mark  o player 2's mark" in result.stdout
    assert "marks:" not in result.stdout
    assert lines[-1] == "outcome: winner: player 1" and result.stdout.count("winner") == 1


def test_play_human_seat_against_agent():
    # Seat 2 at the prompt, seat 1 by the agent; the prompt shows numbered moves for seat 2 only.
    result = run("play", "tic-tac-toe", "--auto", "first", "--human", "2", input="C3\nC2\n")
    assert result.exit_code == 0
    assert "player 1: A1" in result.stdout and "player 2: C3" in result.stdout
    assert "player 2 to move" in result.stdout and "player 1 to move" not in result.stdout
    assert result.stdout.splitlines()[-1] == "outcome: winner: player 1"


# ---------------------------------------------------------------------------------------- play: scripts
def test_script_by_text_number_comments_and_blank_lines(tmp_path):
    # "1" is the first legal move at that point: A2, for player 2.
    moves = script_file(tmp_path, "moves.txt", "# opening", "A1", "", "1", "  b2  ", "# next", "C3")
    result = run("play", "tic-tac-toe", "--moves", moves, "--json")
    assert result.exit_code == 0
    events = json_lines(result.stdout)
    played = [(e["player"], e["move"]) for e in events if e["event"] == "move"]
    assert played == [(1, "A1"), (2, "A2"), (1, "B2"), (2, "C3")]
    assert events[-1] == {"event": "stopped", "reason": "the script ran out of moves", "to_move": [1]}


def test_moves_from_stdin(tmp_path):
    result = run("play", "tic-tac-toe", "--moves", "-", "--json", input="A1\nB1\nA2\nB2\nA3\n")
    assert result.exit_code == 0
    events = json_lines(result.stdout)
    assert events[-1]["event"] == "outcome" and events[-1]["winners"] == [1]


def test_illegal_script_move_is_refused_and_state_unchanged(tmp_path):
    good = script_file(tmp_path, "good.txt", "A1", "B1")
    bad = script_file(tmp_path, "bad.txt", "A1", "B1", "A1", "C3")
    result = run("play", "tic-tac-toe", "--seed", "3", "--moves", bad, "--save", tmp_path / "bad.json")
    assert result.exit_code == 1
    assert f"{bad}:3: refused 'A1'" in result.stderr
    assert "legal moves" in result.stderr and "'A2'" in result.stderr and "'C3'" in result.stderr
    assert "player 2: C3" not in result.stdout  # nothing after the refusal is played
    assert run("play", "tic-tac-toe", "--seed", "3", "--moves", good, "--save", tmp_path / "good.json").exit_code == 0
    saved_bad = json.loads((tmp_path / "bad.json").read_text())
    saved_good = json.loads((tmp_path / "good.json").read_text())
    assert saved_bad == saved_good
    shown_bad = run("show", "tic-tac-toe", "--load", tmp_path / "bad.json")
    shown_good = run("show", "tic-tac-toe", "--moves", good)
    assert shown_bad.stdout == shown_good.stdout


def test_ambiguous_script_move_names_the_candidates(tmp_path):
    moves = script_file(tmp_path, "moves.txt", "B")
    result = run("play", "tic-tac-toe", "--moves", moves, "--json")
    assert result.exit_code == 1
    assert "ambiguous" in result.stderr and "'B1'" in result.stderr
    assert "legal moves (player 1): A1, A2, A3, B1" in result.stderr
    refused = json_lines(result.stdout)[-1]
    assert refused["event"] == "refused" and refused["move"] == "B" and len(refused["legal_moves"]) == 9


def test_player_prefix_in_simultaneous_decision(guess, tmp_path):
    moves = script_file(tmp_path, "moves.txt", "2: pick 3", "pick 1", "1: 2", "2: pick 2")
    result = run("play", guess, "--option", "rounds=2", "--moves", moves, "--json")
    assert result.exit_code == 0, result.output
    events = json_lines(result.stdout)
    played = [(e["player"], e["move"]) for e in events if e["event"] == "move"]
    # secret choices are told in seat order once everyone has chosen, whatever order they were typed in
    assert played == [(1, "pick 1"), (2, "pick 3"), (1, "pick 2"), (2, "pick 2")]
    assert {"event": "log", "text": "round 1 done", "rule": "guess.rules:13"} in events  # the referee's stream
    assert events[-1]["scores"] == {"1": 3, "2": 5} and events[-1]["winners"] == [2]


def test_player_who_already_chose_is_refused(guess, tmp_path):
    moves = script_file(tmp_path, "moves.txt", "1: pick 3", "1: pick 2")
    result = run("play", guess, "--moves", moves)
    assert result.exit_code == 1
    assert "refused '1: pick 2'" in result.stderr and "legal moves (player 2): pick 1, pick 2, pick 3" in result.stderr


def test_script_running_out_then_save_and_load_round_trip(tmp_path):
    first = script_file(tmp_path, "first.txt", "A1", "B1", "A2")
    rest = script_file(tmp_path, "rest.txt", "B2", "A3")
    everything = script_file(tmp_path, "all.txt", "A1", "B1", "A2", "B2", "A3")
    save = tmp_path / "save.json"
    result = run("play", "tic-tac-toe", "--seed", "5", "--moves", first, "--save", save)
    assert result.exit_code == 0
    assert "stopped: the script ran out of moves; the game is not over (player 2 to move)" in result.stdout
    resumed = run("play", "tic-tac-toe", "--load", save, "--moves", rest, "--json")
    assert resumed.exit_code == 0
    whole = run("play", "tic-tac-toe", "--seed", "5", "--moves", everything, "--json")
    assert json_lines(resumed.stdout)[-1] == json_lines(whole.stdout)[-1]
    assert json_lines(resumed.stdout)[-1]["winners"] == [1]


def test_save_load_keeps_options_and_players(guess, tmp_path):
    save = tmp_path / "save.json"
    run("play", guess, "--players", "3", "-o", "rounds=2", "--moves",
        script_file(tmp_path, "m.txt", "1: pick 1", "2: pick 2", "3: pick 3"), "--save", save)
    shown = run("show", guess, "--load", save)
    assert shown.exit_code == 0
    assert shown.stdout.startswith("Guess - 3 players (rounds=2)")
    assert "score: [1, 2, 3]" in shown.stdout
    # Repeating the save's settings is fine, changing them is refused with a reason.
    assert run("show", guess, "--load", save, "--players", "3").exit_code == 0
    changed = run("show", guess, "--load", save, "--players", "2")
    assert changed.exit_code == 1 and "this save is for 3 players" in changed.stderr


# ---------------------------------------------------------------------------------------- play: prompt
def test_prompt_refuses_then_accepts_and_stops_at_end_of_input():
    result = run("play", "tic-tac-toe", input="A1\nA1\nZ9\n2\n")
    assert result.exit_code == 0
    out = result.stdout
    assert "player 1 to move" in out and "    1. A1" in out
    assert "illegal move 'A1'" in out and "illegal move 'Z9'" in out
    assert "player 1: A1" in out and "player 2: A3" in out  # "2" = the second legal move, A3
    assert "stopped: end of input" in out


def test_prompt_quit_and_json_keeps_stdout_clean(tmp_path):
    save = tmp_path / "s.json"
    result = run("play", "tic-tac-toe", "--json", "--save", save, input="B2\n:quit\n")
    assert result.exit_code == 0
    events = json_lines(result.stdout)  # every stdout line is JSON; the prompt went to stderr
    seed = events[0].pop("seed")  # unseeded: the seed drawn is told, so the game can be played again
    assert isinstance(seed, int) and f"seed {seed} (--seed {seed} plays it again)" not in result.stderr
    assert events == [{"event": "stream", "as": "table", "note": "what every player may see; secrets are masked"},
                      {"event": "move", "player": 1, "move": "B2"},
                      {"event": "stopped", "reason": "you quit (:quit)", "to_move": [2]}]
    assert "player 2 to move" in result.stderr
    assert json.loads(save.read_text())["state"]["vars"]["marks"] == {"B2": 1}


# ---------------------------------------------------------------------------------------- play: errors
def test_unknown_game_lists_shipped_games():
    result = run("play", "tic-tac-to")
    assert result.exit_code == 1
    assert "unknown game 'tic-tac-to'" in result.stderr and "did you mean 'tic-tac-toe'" in result.stderr
    assert "shipped games:" in result.stderr and "connect-four" in result.stderr


def test_unknown_option_suggests_and_bad_value_lists_allowed(guess):
    result = run("play", guess, "--option", "roundz=2")
    assert result.exit_code == 1
    assert "unknown option 'roundz'; did you mean 'rounds'?" in result.stderr
    result = run("play", guess, "--option", "rounds=7")
    assert result.exit_code == 1 and "allowed: 1 | 2 | 3" in result.stderr
    result = run("play", "tic-tac-toe", "--option", "size=4")
    assert result.exit_code == 1 and "unknown option 'size'" in result.stderr


def test_bad_player_count(guess):
    result = run("play", "tic-tac-toe", "--players", "3")
    assert result.exit_code == 1 and "played by 2 players, not 3" in result.stderr
    result = run("simulate", guess, "--games", "2", "--players", "4")
    assert result.exit_code == 1 and "2 to 3 players, not 4" in result.stderr


def test_corrupt_saves_are_clear_errors(tmp_path):
    save = tmp_path / "save.json"
    run("play", "tic-tac-toe", "--moves", script_file(tmp_path, "m.txt", "A1"), "--save", save)
    good = json.loads(save.read_text())
    cases = {
        "not json": "{oops",
        "not a save": json.dumps({"hello": 1}),
        "a list": json.dumps([1, 2]),
        "bad frame": json.dumps({**good, "state": {**good["state"], "frames": [{"proc": "nowhere", "pc": 0,
                                                                               "locals": {}}]}}),
        "bad pending": json.dumps({**good, "state": {**good["state"], "pending": {"var": 3}}}),
    }
    for name, text in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        result = run("play", "tic-tac-toe", "--load", path)
        assert result.exit_code == 1, name
        assert result.stderr.startswith("error: "), (name, result.stderr)
    missing = run("play", "tic-tac-toe", "--load", tmp_path / "missing.json")
    assert missing.exit_code == 1 and "No such file" in missing.stderr


def test_save_for_other_rules_is_refused(tmp_path):
    save = tmp_path / "save.json"
    run("play", "tic-tac-toe", "--moves", script_file(tmp_path, "m.txt", "A1"), "--save", save)
    result = run("play", "connect-four", "--load", save)
    assert result.exit_code == 1
    assert result.stderr == (f"error: {save}: this save belongs to other rules ('Tic-Tac-Toe'), not to "
                             "'Connect Four' (--force plays its moves on these rules anyway)\n")


def test_missing_moves_file():
    result = run("play", "tic-tac-toe", "--moves", "no-such-moves.txt")
    assert result.exit_code == 1 and "no-such-moves.txt" in result.stderr


# ---------------------------------------------------------------------------------------- replay
def test_replay_of_a_finished_and_an_unfinished_game(tmp_path):
    log = tmp_path / "log.json"
    assert run("play", "tic-tac-toe", "--seed", "4", "--auto", "random", "--log", log).exit_code == 0
    data = json.loads(log.read_text())
    assert data["game"] == "tic-tac-toe" and data["seed"] == 4 and data["players"] == 2
    assert data["outcome"] is not None and len(data["moves"]) >= 5
    result = run("replay", log)
    assert result.exit_code == 0 and result.stdout.startswith(f"reproduced {len(data['moves'])} moves")

    unfinished = tmp_path / "unfinished.json"
    run("play", "tic-tac-toe", "--moves", script_file(tmp_path, "m.txt", "A1", "B2"), "--log", unfinished)
    result = run("replay", unfinished)
    assert result.exit_code == 0 and "unfinished" in result.stdout


def test_replay_with_a_path_and_options(guess, tmp_path):
    log = tmp_path / "log.json"
    assert run("play", guess, "--players", "3", "-o", "rounds=3", "--seed", "2", "--auto", "random",
               "--log", log).exit_code == 0
    data = json.loads(log.read_text())
    assert data["game"] == str(guess.resolve()) and data["options"] == {"rounds": 3}
    assert len(data["moves"]) == 9
    assert run("replay", log).exit_code == 0


def test_replay_of_a_resumed_game(tmp_path):
    save, log = tmp_path / "save.json", tmp_path / "log.json"
    run("play", "tic-tac-toe", "--moves", script_file(tmp_path, "a.txt", "B2", "A1"), "--save", save)
    result = run("play", "tic-tac-toe", "--load", save, "--seed", "1", "--auto", "random", "--log", log)
    assert result.exit_code == 0
    assert json.loads(log.read_text())["start"] is not None
    assert run("replay", log).exit_code == 0


def test_replay_reports_where_it_diverges(tmp_path):
    log = tmp_path / "log.json"
    run("play", "tic-tac-toe", "--seed", "4", "--auto", "random", "--log", log)
    data = json.loads(log.read_text())

    illegal = dict(data, moves=[*data["moves"][:2], {"player": data["moves"][2]["player"],
                                                     "move": data["moves"][0]["move"]}, *data["moves"][3:]])
    (tmp_path / "illegal.json").write_text(json.dumps(illegal))
    result = run("replay", tmp_path / "illegal.json")
    assert result.exit_code == 1 and result.stdout.startswith("diverged at move 3")

    other_outcome = dict(data, outcome={**data["outcome"], "winners": [99]})
    (tmp_path / "outcome.json").write_text(json.dumps(other_outcome))
    result = run("replay", tmp_path / "outcome.json")
    assert result.exit_code == 1
    won = data["outcome"]["winners"][0]
    assert result.stdout == (f"diverged: the outcome is winners {won}, ranking {won} > {3 - won}; the log "
                             f"recorded winners 99, ranking {won} > {3 - won}\n")

    extra = dict(data, moves=data["moves"] + [{"player": 1, "move": "A1"}])
    (tmp_path / "extra.json").write_text(json.dumps(extra))
    result = run("replay", tmp_path / "extra.json")
    assert result.exit_code == 1 and "the game was already over" in result.stdout

    short = dict(data, moves=data["moves"][:-1])
    (tmp_path / "short.json").write_text(json.dumps(short))
    result = run("replay", tmp_path / "short.json")
    assert result.exit_code == 1 and "still have a move" in result.stdout


def test_corrupt_logs_are_clear_errors(tmp_path):
    log = tmp_path / "log.json"
    run("play", "tic-tac-toe", "--seed", "4", "--auto", "random", "--log", log)
    data = json.loads(log.read_text())
    cases = {"garbage": "not json at all", "save": json.dumps({"format": "rulewright-save"}),
             "moves": json.dumps(dict(data, moves=[{"player": "one", "move": 3}])),
             "players": json.dumps(dict(data, players="two")),
             "game": json.dumps(dict(data, game="no-such-game"))}
    for name, text in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        result = run("replay", path)
        assert result.exit_code == 1, name
        assert result.stderr.startswith("error: "), (name, result.stderr)


# ---------------------------------------------------------------------------------------- show
def test_show_snapshot(tmp_path, snapshot):
    moves = script_file(tmp_path, "moves.txt", "B2", "A1", "C3")
    result = run("show", "tic-tac-toe", "--moves", moves)
    assert result.exit_code == 0
    assert "to move: player 2" in result.stdout
    assert result.stdout == snapshot


def test_show_json_is_the_view(tmp_path):
    moves = script_file(tmp_path, "moves.txt", "B2")
    view = json.loads(run("show", "tic-tac-toe", "--moves", moves, "--json", "--referee").stdout)
    state = rulewright.load("tic-tac-toe").new_state(seed=0)
    state.apply("B2")
    assert view == state.view()
    assert view["legal_moves"] == ["A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3"]


def test_show_without_as_shows_no_secret_unless_the_referee_asks(tmp_path):
    """Without --as, show (text, JSON, picture) is what every player may see; --referee everything."""
    state = rulewright.load("kuhn-poker").new_state(seed=3)
    hands = state.vars["hand"]
    table = json.loads(run("show", "kuhn-poker", "--seed", "3", "--json").stdout)
    assert table["vars"]["hand"] == ["?", "?"] and "legal_moves" not in table
    referee = json.loads(run("show", "kuhn-poker", "--seed", "3", "--json", "--referee").stdout)
    assert referee["vars"]["hand"] == hands
    picture, text = tmp_path / "t.svg", run("show", "kuhn-poker", "--seed", "3").stdout
    run("show", "kuhn-poker", "--seed", "3", "--svg", picture)
    for card in hands:
        assert f">{card}<" not in picture.read_text() and f" {card} " not in text
    assert run("show", "kuhn-poker", "--as", "1", "--referee").exit_code == 2


def test_show_as_player_hides_secrets(guess, tmp_path, snapshot):
    moves = script_file(tmp_path, "moves.txt", "2: pick 3", "pick 1", "1: 2")
    as_one = run("show", guess, "-o", "rounds=2", "--moves", moves, "--as", "1")
    assert as_one.exit_code == 0
    assert "picks: [[1], {\"hidden\": 1}]" in as_one.stdout
    as_two = json.loads(run("show", guess, "-o", "rounds=2", "--moves", moves, "--as", "2", "--json").stdout)
    assert as_two["vars"]["picks"] == [{"hidden": 1}, [3]]
    assert as_two["chosen"] == [1]  # who has chosen, not what
    assert as_one.stdout == snapshot
    assert run("show", guess, "--as", "4").exit_code == 2


def test_show_refused_move(tmp_path):
    result = run("show", "tic-tac-toe", "--moves", script_file(tmp_path, "m.txt", "A1", "A1"))
    assert result.exit_code == 1 and "refused 'A1'" in result.stderr and result.stdout == ""


# ---------------------------------------------------------------------------------------- simulate, bench
def test_simulate_two_workers_matches_one(tmp_path):
    args = ["simulate", "tic-tac-toe", "--games", "24", "--seed", "7", "--json"]
    two = json.loads(run(*args, "--workers", "2").stdout)
    one = json.loads(run(*args, "--workers", "1").stdout)
    assert two == one
    assert two["games"] == 24 and two["finished"] == 24 and two["seed"] == 7
    assert sum(two["wins"].values()) + two["draws"] == 24
    assert 5 <= two["length"]["min"] <= two["length"]["mean"] <= two["length"]["max"] <= 9
    # Game i is a random playout with seed 7+i: the same games as play --auto random --seed 7+i.
    first = json_lines(run("play", "tic-tac-toe", "--seed", "7", "--auto", "random", "--json").stdout)[-1]
    again = json.loads(run("simulate", "tic-tac-toe", "--games", "1", "--seed", "7", "--json").stdout)
    assert again["draws"] == (1 if first["draw"] else 0)
    assert again["wins"] == {str(p): int(p in first["winners"] and not first["draw"]) for p in (1, 2)}


def test_simulate_readable_with_scores_and_options(guess):
    result = run("simulate", guess, "--games", "6", "--players", "3", "-o", "rounds=2", "--seed", "1",
                 "--workers", "2")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Guess: 6 games, 3 players, rounds=2, seed 1")
    assert "length (decisions): mean 6.0 (95% CI 6.0-6.0), min 6, max 6" in out
    lines = out.splitlines()
    header = next(l for l in lines if l.lstrip().startswith("seat")).split()
    rows = [l.split() for l in lines if l.strip()[:1].isdigit()]
    assert [r[0] for r in rows] == ["1", "2", "3"]
    mean = header.index("mean") - 1  # 'score mean' is two words in the header
    assert all(2 <= float(r[mean]) <= 6 for r in rows)  # two picks of 1..3 each


def test_simulate_counts_shared_wins_honestly_with_confidence_intervals(tmp_path):
    # every game ends with players 1 and 2 winning together, player 3 losing
    shared = script_file(tmp_path, "shared.rules", 'game "Shared"', "players 3", "player var score = 0",
                         "turn:", "    choose x in [1, 2]", "    score[1] = 5", "    score[2] = 5",
                         "end when round_number >= 1 after round", "rank by score descending")
    summary = json.loads(run("simulate", shared, "-n", "10", "-s", "0", "-w", "1", "--json").stdout)
    assert summary["wins"] == {"1": 10, "2": 10, "3": 0} and summary["shared_wins"] == {"1": 10, "2": 10, "3": 0}
    assert summary["win_rate"] == {"1": 0.5, "2": 0.5, "3": 0.0}  # adds up to 100 %, not 200 %
    assert summary["win_rate_ci95"]["3"] == [0.0, 0.2775] and summary["win_rate_ci95"]["1"] == [0.2366, 0.7634]
    text = run("simulate", shared, "-n", "10", "-s", "0", "-w", "1").stdout.splitlines()
    assert text[3].split() == ["seat", "wins", "shared", "win", "rate", "95%", "CI", "score", "mean", "95%", "CI",
                               "min", "max"]
    assert text[5].split() == ["1", "10", "10", "50.0%", "23.7%-76.3%", "5.00", "5.00-5.00", "5", "5"]
    assert text[-1].startswith("a shared win counts in 'wins' for each of its winners")


def test_simulate_unfinished_games_are_counted(tmp_path):
    endless = script_file(tmp_path, "endless.rules", 'game "Endless"', "players 2", "var n = 0",
                          "turn:", "    choose x in [1, 2]", "    n += x",
                          "end when n < 0 after turn")
    result = run("simulate", endless, "--games", "3", "--seed", "0", "--workers", "1",
                 "--max-decisions", "20", "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["unfinished"] == 3 and summary["finished"] == 0 and summary["length"]["max"] == 20


def test_bench_counts_playouts(guess):
    report = json.loads(run("bench", "tic-tac-toe", "--seconds", "0.05", "--json").stdout)
    assert report["playouts"] >= 1 and report["decisions"] >= 5 * report["playouts"]
    assert report["playouts_per_second"] > 0
    result = run("bench", guess, "--players", "3", "-o", "rounds=2", "--seconds", "0")
    assert result.exit_code == 0
    assert result.stdout.startswith("Guess, 3 players: 1 playouts, 6 decisions")
    assert "decisions/s" in result.stdout


# ---------------------------------------------------------------------------------------- more cases
def test_validate_compiles_every_option_value(tmp_path):
    # The board exists only with size=small: the default compiles, size=big does not.
    rules = script_file(tmp_path, "v.rules", 'game "V"', "players 2..3", "option size: small | big",
                        "board grid when size == small: grid 3 by 3",
                        'require player_count == 2 or size == big else "three players need the big board"',
                        "turn:", "    choose s in grid", "    end game")
    result = run("validate", rules)
    assert result.exit_code == 1
    assert "with 2 players, size=big" in result.stdout and "'grid'" in result.stdout
    # the 'require' that rules out 3 players on the small board is not a problem of the rules
    assert "three players" not in result.stdout
    refused = run("play", rules, "--players", "3")
    assert refused.exit_code == 1 and "three players need the big board" in refused.stderr


def test_script_then_agent(tmp_path):
    moves = script_file(tmp_path, "m.txt", "C3", "C2")
    result = run("play", "tic-tac-toe", "--moves", moves, "--auto", "first", "--json")
    assert result.exit_code == 0
    played = [e["move"] for e in json_lines(result.stdout) if e["event"] == "move"]
    assert played[:4] == ["C3", "C2", "A1", "A2"]
    assert json_lines(result.stdout)[-1]["event"] == "outcome"


def test_unseeded_play_logs_its_seed_and_replays(tmp_path):
    log = tmp_path / "log.json"
    assert run("play", "connect-four", "--auto", "random", "--log", log).exit_code == 0
    assert isinstance(json.loads(log.read_text())["seed"], int)
    assert run("replay", log).exit_code == 0


def test_secret_choice_stays_hidden_at_the_prompt(guess):
    result = run("play", guess, input="pick 3\npick 1\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    # Player 2 is asked before anything shows what player 1 picked; the table sees the picks masked
    # until the rules reveal them, and each seat is handed over before its secrets are shown.
    assert out.index("pass the seat to player 2") < out.index("player 2 to move") < out.index("player 1 picked 3")
    assert "player 1: makes a secret choice" in out and "player 1: pick 3" not in out
    assert out.index("player 1 picked 3") < out.index("player 2 picked 1")
    assert out.splitlines()[-1] == "outcome: winner: player 1 (scores: 1: 3, 2: 1)"


# ---------------------------------------------------------------------------------------- play: hidden information
def test_play_as_a_player_streams_only_what_that_player_may_see(snapshot):
    result = run("play", "biplane", "--players", "2", "--seed", "11", "--auto", "random", "--json", "--as", "1")
    assert result.exit_code == 0
    events = json_lines(result.stdout)
    assert events[0] == {"event": "stream", "as": 1, "note": "what player 1 may see", "seed": 11}
    theirs = [e["move"] for e in events if e["event"] == "move" and e["player"] == 2]
    mine = [e["move"] for e in events if e["event"] == "move" and e["player"] == 1]
    # player 2's set-up discards are masked; a Temporary Hand discard is public (the card goes face up)
    assert "programs a card" in theirs and "sets a card aside" in theirs
    assert not any(m.startswith("program ") for m in theirs)      # player 2's programs stay masked
    assert any(m.startswith("program ") for m in mine)            # player 1 sees its own
    assert events[:16] == snapshot


def test_the_referee_stream_says_so_and_keeps_both_texts():
    result = run("play", "biplane", "--players", "2", "--seed", "11", "--auto", "random", "--json")
    events = json_lines(result.stdout)
    assert events[0]["event"] == "stream" and events[0]["as"] == "referee"
    secret = [e for e in events if "shown" in e]
    assert secret and all(e["move"].startswith(("program ", "discard ")) for e in secret)


def test_play_as_a_seat_the_game_does_not_have_is_a_usage_error():
    result = run("play", "tic-tac-toe", "--as", "3", "--auto", "random")
    assert result.exit_code == 2 and "no player 3" in result.output


def test_a_refused_script_line_under_as_shows_no_other_seats_options(tmp_path):
    moves = script_file(tmp_path, "m.txt", "1: keep the cards dealt", "2: keep the cards dealt", "1: discard Shoot",
                        "2: bogus")
    result = run("play", "biplane", "-p", "2", "--seed", "11", "--moves", moves, "--json", "--as", "1")
    assert result.exit_code == 1
    refused = json_lines(result.stdout)[-1]
    assert refused["event"] == "refused" and refused["legal_moves"] == []   # player 1 has chosen already
    hand = rulewright.load("biplane", players=2).new_state(seed=11).vars["perm"][1]
    assert not any(card in result.output for card in hand if card != "Shoot")


def test_one_person_at_the_prompt_sees_their_own_stream():
    result = run("play", "biplane", "-p", "2", "--seed", "11", "--human", "1", "--auto", "random",
                 input="1\n" * 400)
    assert "(the others see:" not in result.stdout             # not the referee's copy of secret moves
    assert "player 2: sets a card aside" in result.stdout


# ---------------------------------------------------------------------------------------- issue 15 items 4-6
def test_prompt_help_undo_and_unknown_commands_word_for_word(tmp_path):
    log = tmp_path / "log.json"
    result = run("play", "tic-tac-toe", "--seed", "1", "--auto", "first", "--human", "1", "--log", log,
                 input=":undo\nB2\n:frob\n:undo\nC3\n:help\n:quit\n")
    assert result.exit_code == 0
    said = [l for l in result.stdout.splitlines() if l.startswith(("move> ", "took back", "you have", "unknown"))]
    assert said == ["move> :undo", "you have made no move to take back", "move> B2", "move> :frob",
                    "unknown command :frob; :help lists the commands", "move> :undo",
                    "took back 2 moves",  # B2 and the agent's answer: player 1 is to move again
                    "move> C3", "move> :help", "move> :quit"]
    from rulewright.cli.play import PROMPT_HELP
    assert PROMPT_HELP in result.stdout
    moves = json.loads(log.read_text())["moves"]
    assert moves == [{"player": 1, "move": "C3"}, {"player": 2, "move": "A1"}]  # the undone ones are gone
    assert result.stderr.startswith("Tic-Tac-Toe, 2 players, seed 1 (--seed 1 plays it again)")


def test_unseeded_show_and_play_draw_a_seed_and_say_it():
    shown = run("show", "tic-tac-toe")
    seed = int(shown.stderr.split("seed ")[1].split()[0])
    assert shown.stderr == f"Tic-Tac-Toe, 2 players, seed {seed} (--seed {seed} plays it again)\n"
    assert run("show", "tic-tac-toe", "--seed", "4").stderr.startswith("Tic-Tac-Toe, 2 players, seed 4 ")


def test_play_load_needs_no_game_and_force_loads_a_diverging_save(tmp_path):
    rules = tmp_path / "duel.rules"
    rules.write_text('game "Duel"\nplayers 2\nplayer var score = 0\n\nturn:\n'
                     '    choose n in [1, 2, 3] as "take {n}"\n    me.score += n\n'
                     'end when round_number > 2 after round\nrank by score descending\n', encoding="utf-8")
    save = tmp_path / "s.json"
    run("play", rules, "--seed", "2", "--moves", script_file(tmp_path, "m.txt", "take 1", "take 3"), "--save", save)
    resumed = run("show", "--load", save, "--json")
    assert resumed.exit_code == 0 and json.loads(resumed.stdout)["vars"]["score"] == [1, 3]
    rules.write_text(rules.read_text().replace("[1, 2, 3]", "[1, 2]"), encoding="utf-8")
    refused = run("play", "--load", save, "--auto", "first")
    assert refused.exit_code == 1
    assert refused.stderr == (
        f"error: {save}: the rules changed since this save was made: its moves were played again on the new "
        "rules, and move 2 of 2 (player 2: 'take 3') diverges: illegal move 'take 3'; legal moves: 'take 1', "
        "'take 2'; to load the game as it stands before that move, use --force (in Python: game.load_save("
        "data, force=True))\n")
    forced = run("play", "--load", save, "--force", "--auto", "first")
    assert forced.exit_code == 0
    assert forced.stderr.startswith("note: the rules changed since this save was made")
    assert "loaded before that move (--force)" in forced.stderr
    assert run("play").stderr.endswith("Invalid value for 'GAME': missing: name a game (see `rulewright list`) "
                                       "or give a save with --load FILE\n")


def test_json_events_carry_the_legal_moves_on_request():
    result = run("play", "tic-tac-toe", "--seed", "1", "--auto", "first", "--json", "--legal")
    events = json_lines(result.stdout)
    first_move = events[1]
    assert first_move == {"event": "move", "player": 1, "move": "A1", "rule": "tic-tac-toe.rules:25", "to_move": [2],
                          "legal_moves": [{"number": i, "player": 2, "text": t} for i, t in
                                          enumerate(["A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"], 1)]}
    assert run("play", "tic-tac-toe", "--legal").exit_code == 2  # only with --json


def test_version_short_help_and_python_m():
    from importlib.metadata import version
    assert run("--version").stdout == f"rulewright {version('rulewright')}\n"
    assert run("-h").stdout == run("--help").stdout
    assert run("play", "-h").exit_code == 0
    for command in ("validate", "play", "serve"):
        text = run(command, "--help").stdout
        assert "<" not in text and "{" not in text, text  # no '<list[str]>', '<int>' or '{GAME}'
    module = subprocess.run([sys.executable, "-m", "rulewright", "--version"], capture_output=True, text=True,
                            timeout=60)
    assert (module.returncode, module.stdout) == (0, f"rulewright {version('rulewright')}\n")


def test_ctrl_c_at_the_prompt_exits_130_without_a_traceback(terminals):
    """Ctrl-C typed at the prompt of a real terminal, once the prompt is shown (a state, not a time: the
    input stays open, so nothing but the signal can end play)."""
    term = terminals("play", "tic-tac-toe", "--seed", "1", "--auto", "random", "--human", "1")
    try:
        term.prompt()
        term.interrupt()
        assert term.finish() == 130
    finally:
        term.close()
    assert "Traceback" not in term.raw and "stopped: interrupted (Ctrl-C)" in term.shown()


def test_a_win_lose_game_ranks_the_winner_first():
    events = json_lines(run("play", "tic-tac-toe", "--seed", "3", "--auto", "first", "--json").stdout)
    assert events[-1] == {"event": "outcome", "scores": {}, "ranking": [[1], [2]], "winners": [1], "teams": None,
                          "draw": False}


def test_prompt_says_the_range_of_the_move_numbers():
    result = run("play", "tic-tac-toe", "--seed", "1", input="12\n:quit\n")
    assert "illegal move '12': there are 9 moves, choose 1-9" in result.stdout


def test_prompt_hint_suggests_a_move_with_its_reasons():
    result = run("play", "tic-tac-toe", "--seed", "1", "--hint-agent", "ismcts:iterations=30",
                 input=":hint\n:quit\n")
    assert result.exit_code == 0
    hint = result.stdout[result.stdout.index("move> :hint"):].splitlines()
    head = re.fullmatch(r"move> :hint\nhint \(ismcts, 30 simulations of the game as you see it\): play (\d)\. (\w\d)",
                        "\n".join(hint[:2]))
    assert head, hint[:3]
    listed = [re.fullmatch(r" +(\d)\. (\w\d) +(\d+) simulations, result (0\.\d\d|1\.00)", line) for line in hint[3:8]]
    assert all(listed), hint[3:8]
    numbers = {i: t for i, t in enumerate(["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"], 1)}
    assert all(numbers[int(m.group(1))] == m.group(2) for m in listed)  # numbered as the prompt numbers them
    assert (head.group(1), head.group(2)) == listed[0].groups()[:2]  # the suggestion is the first listed
    assert "... and 4 more moves" in hint[8] and "player 1:" not in result.stdout  # a hint makes no move


def test_a_hint_agent_that_sees_secrets_is_refused():
    for spec in ("mcts", "random", "ismcts,greedy", "ismcts:depth=x"):
        result = run("play", "kuhn-poker", "--hint-agent", spec)
        assert result.exit_code == 2 and "--hint-agent" in result.output, spec
    assert "searches only what the player may see (ismcts or greedy" in run("play", "kuhn-poker", "--hint-agent",
                                                                             "mcts").output
    greedy = run("play", "tic-tac-toe", "--seed", "1", "--hint-agent", "greedy", input=":hint\n:quit\n")
    assert "hint (greedy, each move tried once, in the game as you see it): play " in greedy.stdout
