"""`rulewright serve`: a client program plays whole games through one process, one JSON line each way
(or GTP-style text lines); every refused request gets its error reply, word for word, and the game
goes on as before it."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

import rulewright
from rulewright.interpreter.api import shipped_games


class Client:
    """One `rulewright serve` process, spoken to line by line as a program would."""

    def __init__(self, *args: str, cwd=None):
        self.proc = subprocess.Popen([sys.executable, "-m", "rulewright", "serve", *args], cwd=cwd,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, encoding="utf-8")

    def send_line(self, line: str) -> str:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.proc.stdout.readline()

    def ask(self, **request) -> dict:
        return json.loads(self.send_line(json.dumps(request)))

    def text(self, line: str) -> str:
        """A text-mode reply: its lines up to the empty line that ends it."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while (got := self.proc.stdout.readline()) not in ("\n", ""):
            lines.append(got.rstrip("\n"))
        return "\n".join(lines)

    def close(self) -> tuple[int, str]:
        self.proc.stdin.close()
        code = self.proc.wait(timeout=60)
        stderr = self.proc.stderr.read()
        self.proc.stdout.close()
        self.proc.stderr.close()
        return code, stderr


@pytest.fixture
def client():
    started = []

    def start(*args, cwd=None):
        c = Client(*args, cwd=cwd)
        started.append(c)
        return c
    yield start
    for c in started:
        if c.proc.poll() is None:
            c.proc.kill()
            c.proc.wait()
        for stream in (c.proc.stdin, c.proc.stdout, c.proc.stderr):
            if not stream.closed:
                stream.close()


def test_one_process_plays_whole_games_of_several_rules(client):
    """Tic-Tac-Toe, then Biplane and Connect Four in the same process, each to its end by random legal
    moves; the outcome is the one the Python API gives for the same seed and moves."""
    c = client()
    rng = random.Random(4)
    for name, players, seed in (("tic-tac-toe", 2, 1), ("biplane", 3, 7), ("connect-four", 2, 2)):
        started = c.ask(cmd="new", game=name, players=players, seed=seed, id=name)
        assert started["ok"] and started["id"] == name and started["seed"] == seed
        assert started["players"] == players and started["over"] is False
        twin = rulewright.load(name, players=players).new_state(seed=seed)
        while True:
            legal = c.ask(cmd="legal")
            assert legal["to_move"] == twin.to_move()
            assert [m["text"] for m in legal["moves"]] == [m.text for m in twin.legal_moves()]
            move = rng.choice(legal["moves"])
            # by number in Biplane (simultaneous decisions: the number is into the one list 'legal' gave)
            reply = c.ask(cmd="apply", move=move["number"] if name == "biplane" else move["text"],
                          player=move["player"])
            twin.apply(move["text"], player=move["player"])
            assert reply["ok"] and reply["to_move"] == twin.to_move()
            if reply["over"]:
                break
        outcome = c.ask(cmd="outcome")
        assert outcome == {"ok": True, "cmd": "outcome", "over": True, "outcome": twin.outcome().to_dict()}
    assert c.ask(cmd="quit") == {"ok": True, "cmd": "quit"}
    assert c.close() == (0, "")


def test_apply_by_number_with_the_legal_moves_after_it_and_undo(client):
    c = client("tic-tac-toe", "--seed", "3")
    reply = c.ask(cmd="apply", move=5, legal=True)  # the 5th legal move: B2
    assert reply == {"ok": True, "cmd": "apply", "events": [{"event": "move", "player": 1, "move": "B2"}],
                     "to_move": [2], "over": False,
                     "moves": [{"number": i, "player": 2, "text": t}
                               for i, t in enumerate(["A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3"], 1)]}
    assert c.ask(cmd="undo") == {"ok": True, "cmd": "undo", "to_move": [1], "over": False, "moves_made": 0}
    assert c.ask(cmd="view")["view"]["vars"]["marks"] == {}
    assert c.ask(cmd="undo") == {"ok": False, "cmd": "undo", "error": "no move to undo"}
    again = c.ask(cmd="apply", move="a1")
    assert again["events"] == [{"event": "move", "player": 1, "move": "A1"}]  # the undone B2 is not told again


ERRORS = [
    ('{"cmd": "legal"', "not JSON: Expecting ',' delimiter at column 16"),
    ("[1, 2]", 'a request is a JSON object such as {"cmd": "legal"}'),
    ('{"move": "A1"}', 'the request names no command: add "cmd", for instance {"cmd": "help"}'),
    ('{"cmd": "aply"}', "unknown command 'aply'; did you mean 'apply'? (commands: help, new, legal, apply, "
                        "events, undo, view, render, outcome, save, load, quit)"),
    ('{"cmd": "legal"}', 'no game yet: start one with {"cmd": "new"} or {"cmd": "load", "file": "..."}'),
    ('{"cmd": "new"}', 'no game: give one, {"cmd": "new", "game": "NAME"}, or start serve with a GAME'),
    ('{"cmd": "new", "game": "tic-tac-to"}', "unknown game 'tic-tac-to'; did you mean 'tic-tac-toe'? "
                                             f"(shipped games: {', '.join(shipped_games())})"),
    ('{"cmd": "new", "game": "tic-tac-toe", "players": "two"}', "'players' must be a whole number"),
    ('{"cmd": "new", "game": "tic-tac-toe", "players": 5}', "Tic-Tac-Toe is played by 2 players, not 5"),
    ('{"cmd": "new", "game": "tic-tac-toe", "seed": 5}', None),
    ('{"cmd": "apply"}', "'move' is the move's text or its number in the legal moves"),
    ('{"cmd": "apply", "move": "Z9"}', "illegal move 'Z9'; legal moves: 'A1', 'A2', 'A3', 'B1', 'B2', 'B3', "
                                      "'C1', 'C2', 'C3'"),
    ('{"cmd": "apply", "move": "A1", "player": 2}', "player 2 has no decision to make now"),
    ('{"cmd": "apply", "move": 10}', "no move 10: the legal moves are numbered 1 to 9"),
    ('{"cmd": "apply", "move": 1, "player": 2}', "move 1 is player 1's, not player 2's"),
    ('{"cmd": "view", "player": 3}', "no player 3 in a 2-player game"),
    ('{"cmd": "load"}', "give the save as 'file' (a path) or as 'save' (the object), one of them"),
    ('{"cmd": "load", "file": "no-such-save.json"}', "cannot read no-such-save.json: No such file or directory"),
]


def test_every_refused_request_gets_its_error_word_for_word_and_changes_nothing(client):
    c = client()
    for line, error in ERRORS:
        reply = json.loads(c.send_line(line))
        if error is None:
            assert reply["ok"], reply
            continue
        assert reply["ok"] is False and reply["error"] == error, line
    assert c.ask(cmd="legal")["moves"][0] == {"number": 1, "player": 1, "text": "A1"}  # still the opening
    assert c.ask(cmd="render", id=[1, "x"])["id"] == [1, "x"]
    code, stderr = c.close()  # end of input ends the session
    assert (code, stderr) == (0, "")


def test_save_and_load_through_the_protocol_and_across_an_edit(client, tmp_path):
    rules = tmp_path / "duel.rules"
    rules.write_text('game "Duel"\nplayers 2\nplayer var score = 0\n\nturn:\n'
                     '    choose n in [1, 2, 3] as "take {n}"\n    me.score += n\n'
                     'end when round_number > 2 after round\nrank by score descending\n', encoding="utf-8")
    c = client(str(rules), "--seed", "9", cwd=tmp_path)
    for move in ("take 1", "take 3", "take 2"):
        assert c.ask(cmd="apply", move=move)["ok"]
    assert c.ask(cmd="save", file="s.json") == {"ok": True, "cmd": "save", "file": "s.json"}
    # a comment and a new blank line do not change what the save means
    rules.write_text("# the duel, commented\n\n" + rules.read_text(encoding="utf-8"), encoding="utf-8")
    loaded = c.ask(cmd="load", file="s.json")
    assert loaded["ok"] and "note" not in loaded and loaded["to_move"] == [2]
    assert c.ask(cmd="view")["view"]["vars"]["score"] == [3, 3]
    # a changed rule: the moves are played again on it; one it no longer allows is named
    rules.write_text(rules.read_text(encoding="utf-8").replace("[1, 2, 3]", "[1, 2]"), encoding="utf-8")
    refused = c.ask(cmd="load", file="s.json")
    assert refused == {"ok": False, "cmd": "load", "error": (
        "s.json: the rules changed since this save was made: its moves were played again on the new rules, "
        "and move 2 of 3 (player 2: 'take 3') diverges: illegal move 'take 3'; legal moves: 'take 1', "
        "'take 2'; to load the game as it stands before that move, use --force (in Python: "
        "saves.load(game, data, force=True))")}
    forced = c.ask(cmd="load", file="s.json", force=True)
    assert forced["ok"] and forced["to_move"] == [2] and forced["note"].endswith("loaded before that move (--force)")
    assert c.ask(cmd="view")["view"]["vars"]["score"] == [1, 0]


def test_a_session_as_one_player_never_tells_another_players_secrets(client):
    c = client("biplane", "--players", "2", "--seed", "5", "--as", "1")
    twin = rulewright.load("biplane", players=2).new_state(seed=5)
    rng = random.Random(5)
    for _ in range(40):
        if twin.is_over():
            break
        move = rng.choice(twin.legal_moves())
        reply = c.ask(cmd="apply", move=move.text, player=move.player)
        if move.player != 1:
            assert reply == {"ok": False, "cmd": "apply", "error": "this session plays as player 1: it sees no "
                             "other player's view or moves, and makes no other player's move"}
            twin.apply(move)
            c.proc.kill()
            break
        twin.apply(move)
        assert reply["events"] == twin.drain_events(1)
    c2 = client("biplane", "--players", "2", "--as", "1")
    assert c2.ask(cmd="view", player=2)["error"] == ("this session plays as player 1: it sees no other "
                                                     "player's view or moves, and makes no other player's move")
    assert c2.ask(cmd="save")["error"] == "a save holds every secret: a seated player cannot save"


def test_text_mode_speaks_gtp_style(client):
    c = client("--text", "tic-tac-toe", "--seed", "1")
    assert c.text("apply B2") == "= player 1: B2\nto move: player 2"
    assert c.text("apply B2") == ("? illegal move 'B2'; legal moves: 'A1', 'A2', 'A3', 'B1', 'B3', 'C1', 'C2', "
                                  "'C3'")
    assert c.text("legal").splitlines()[:3] == ["= to move: player 2", "1. 2: A1", "2. 2: A2"]
    assert c.text("undo") == "= to move: player 1"
    assert c.text("frob") == ("? unknown command 'frob' (commands: help, new, legal, apply, events, undo, view, "
                              "render, outcome, save, load, quit)")
    assert c.text("new connect-four seed=3") == "= Connect Four, 2 players, seed 3\nto move: player 1"
    assert c.text("outcome") == "= not over"
    assert c.text("quit") == "="
    assert c.close() == (0, "")


def test_serve_with_a_bad_game_is_a_clear_error_before_any_request(tmp_path):
    result = subprocess.run([sys.executable, "-m", "rulewright", "serve", "no-such-game"], input="",
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith("error: unknown game 'no-such-game'")
