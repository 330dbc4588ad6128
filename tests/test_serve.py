"""`rulewright serve`: a client program plays whole games through one process, one JSON line each way
(or GTP-style text lines); every refused request gets its error reply, word for word, and the game
goes on as before it."""
from __future__ import annotations

import functools
import io
import json
import random
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import rulewright
from rulewright.cli.output import json_text
from rulewright.cli.serve import COMMANDS, Server, json_reply, serve_json, text_reply
from rulewright.dsl.texts import holds_lone_surrogate
from rulewright.interpreter.api import shipped_games


class Client:
    """One `rulewright serve` process, spoken to line by line as a program would."""

    def __init__(self, *args: str, cwd=None):
        # surrogateescape: a test can write bytes that are not UTF-8 ("\udcff" is the byte 0xff)
        self.proc = subprocess.Popen([sys.executable, "-m", "rulewright", "serve", *args], cwd=cwd,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, encoding="utf-8", errors="surrogateescape")

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
    assert reply == {"ok": True, "cmd": "apply", "events": [{"event": "move", "player": 1, "move": "B2",
                                                                   "rule": "tic-tac-toe.rules:25"}],
                     "to_move": [2], "over": False,
                     "moves": [{"number": i, "player": 2, "text": t}
                               for i, t in enumerate(["A1", "A2", "A3", "B1", "B3", "C1", "C2", "C3"], 1)]}
    assert c.ask(cmd="undo") == {"ok": True, "cmd": "undo", "to_move": [1], "over": False, "moves_made": 0}
    assert c.ask(cmd="view")["view"]["vars"]["marks"] == {}
    assert c.ask(cmd="undo") == {"ok": False, "cmd": "undo", "error": "no move to undo"}
    again = c.ask(cmd="apply", move="a1")
    # the undone B2 is not told again
    assert again["events"] == [{"event": "move", "player": 1, "move": "A1", "rule": "tic-tac-toe.rules:25"}]


ERRORS = [
    ('{"cmd": "legal"', "not JSON: Expecting ',' delimiter at column 16"),
    ("[1, 2]", 'a request is a JSON object such as {"cmd": "legal"}'),
    ('{"move": "A1"}', 'the request names no command: add "cmd", for instance {"cmd": "help"}'),
    ('{"cmd": "aply"}', "unknown command 'aply'; did you mean 'apply'? (commands: help, new, legal, apply, "
                        "explain, events, undo, view, render, outcome, save, load, quit)"),
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
        "game.load_save(data, force=True))")}
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
    assert c.text("frob") == ("? unknown command 'frob' (commands: help, new, legal, apply, explain, events, undo, "
                              "view, "
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


# ----------------------------------------------------------------------------- hostile clients (issue 30)
def test_a_seat_is_never_told_the_seed_and_cannot_choose_it_or_take_a_draw_back(client, tmp_path):
    """--as P: no reply holds the seed; a seated client cannot set it (new seed=...), replace it (load a
    save of its own), read it (save) or draw again what it has seen (undo, or a second game on the same
    seed); it opens no file: a refusal names none and quotes none."""
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-LINE\n", encoding="utf-8")
    seed = 987654321
    c = client("kuhn-poker", "--seed", str(seed), "--as", "1")
    raw = [c.send_line('{"cmd": "new"}')]
    started = json.loads(raw[0])
    assert started["ok"] and "seed" not in started and started["rules"] == "kuhn-poker"
    # the table's second game is dealt by seed + 1: not the first deal again
    game = rulewright.load("kuhn-poker")
    first, second = game.new_state(seed=seed).view(1), game.new_state(seed=seed + 1).view(1)
    assert first["vars"]["hand"] != second["vars"]["hand"]  # so the view tells which deal it is
    raw.append(c.send_line('{"cmd": "view"}'))
    assert json.loads(raw[-1])["view"] == second
    refused = {
        '{"cmd": "new", "seed": 5}': "the seed is the referee's: a seated player cannot choose it",
        '{"cmd": "new", "game": "tic-tac-toe"}': "a seated player plays the game this table offers: 'new' "
                                                 "takes no other 'game' (send {\"cmd\": \"new\"} for a new "
                                                 "game of it)",
        json.dumps({"cmd": "new", "game": str(secret)}): None,
        '{"cmd": "new", "game": "/etc/passwd"}': None,
        '{"cmd": "new", "players": 3}': None,
        json.dumps({"cmd": "load", "file": str(secret)}): "a save sets every secret, the seed included: a "
                                                          "seated player cannot load one",
        json.dumps({"cmd": "load", "save": rulewright.load("kuhn-poker").new_state(seed=1).to_json()}): None,
        '{"cmd": "save"}': "a save holds every secret: a seated player cannot save",
        '{"cmd": "save", "file": "x.json"}': None,
        '{"cmd": "undo"}': "taking a move back takes its random draws back too, and they would come again, "
                           "already seen: a seated player cannot undo",
        '{"cmd": "view", "player": 2}': None,
    }
    before = c.ask(cmd="view")
    for line, error in refused.items():
        raw.append(c.send_line(line))
        reply = json.loads(raw[-1])
        assert reply["ok"] is False, line
        assert error is None or reply["error"] == error, line
        assert "TOP-SECRET" not in reply["error"] and "root:" not in reply["error"]
        assert str(secret) not in reply["error"]
    assert c.ask(cmd="view") == before  # refused, so nothing changed
    assert c.ask(cmd="apply", move=1)["ok"]
    raw.append(c.send_line('{"cmd": "undo"}'))
    assert json.loads(raw[-1])["ok"] is False
    assert not any(str(seed) in line or str(seed + 1) in line for line in raw)
    assert not (tmp_path / "x.json").exists()
    assert c.close() == (0, "")


def test_a_seat_in_text_mode_is_not_told_the_seed(client):
    c = client("--text", "tic-tac-toe", "--seed", "4242", "--as", "2")
    assert c.text("new") == "= Tic-Tac-Toe, 2 players\nto move: player 1"
    assert c.text("new seed=3").startswith("? the seed is the referee's")


def test_serve_as_a_player_needs_the_game_it_offers():
    result = subprocess.run([sys.executable, "-m", "rulewright", "serve", "--as", "1"], input="",
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr == ("error: --as needs a GAME: a seated player plays only the game serve was started "
                             "with\n")


def test_the_referee_opens_rules_files_only_and_quotes_no_other_file(client, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-LINE\n", encoding="utf-8")
    c = client()
    assert c.ask(cmd="new", game=str(secret))["error"] == f"'{secret}' is not a .rules file"
    reply = c.ask(cmd="load", file=str(secret))
    assert reply["ok"] is False and "TOP-SECRET" not in reply["error"]


SURROGATE = "\\ud800"  # as a JSON escape: the request decodes to a lone surrogate
HOSTILE_LINES = [
    ('{"cmd": "legal", "id": "%s"}' % SURROGATE, None),
    ('{"cmd": "%s", "id": 7}' % SURROGATE, 7),
    ('{"cmd": "apply", "move": "A1%s"}' % SURROGATE, None),
    ('{"cmd": "new", "game": "%s"}' % SURROGATE, None),
    ('{"cmd": "new", "options": {"%s": 1}, "id": "x"}' % SURROGATE, "x"),
    ('{"cmd": "load", "save": {"format": "rulewright-save", "game": "\\udfff"}}', None),
    ('{"cmd": "legal", "id": NaN}', None),
    ('{"cmd": "legal", "id": -Infinity}', None),
    ("[" * 100_000, None),
    ('{"cmd": "legal", "id": %s}' % ("9" * 5000), None),
    ('{"cmd": "apply", "move": {"a": [1, 2]}}', None),
    ('{"cmd": "apply", "move": 1e400}', None),
    ('{"cmd": "legal", "player": true}', None),
    ('{"cmd": "load", "file": "a\\u0000b"}', None),
    ('{"cmd": "new", "game": "a\\u0000b.rules"}', None),
    ('"just a text"', None),
    ("null", None),
]


def test_one_hostile_line_gets_one_error_reply_and_the_session_goes_on(client):
    """A lone surrogate (in an id, a command, a move, an option, a save), NaN, deep nesting, a huge
    number, a wrong type, bytes that are not UTF-8: exactly one error reply each, and serve goes on."""
    c = client("tic-tac-toe")
    for line, ident in HOSTILE_LINES:
        reply = json.loads(c.send_line(line))
        assert reply["ok"] is False and reply["error"], line
        assert not reply["error"].startswith("internal error"), (line, reply)
        assert reply.get("id") == ident, line
    c.proc.stdin.write("\udcff\udcfe{}\n")  # not UTF-8 (written raw through surrogateescape below)
    c.proc.stdin.flush()
    assert json.loads(c.proc.stdout.readline()) == {"ok": False, "cmd": None, "error": "not UTF-8: byte 1 of "
                                                                                       "the line"}
    legal = c.ask(cmd="apply", move="B2", legal=True, id="\u2028")
    assert legal["ok"] and legal["id"] == "\u2028" and len(legal["moves"]) == 8
    assert c.close() == (0, "")


# ----------------------------------------------------------------------------- the protocol, in process
ANY_TEXT = hs.text(hs.characters(blacklist_categories=()), max_size=12)  # lone surrogates, controls: all
JSON_VALUE = hs.recursive(hs.none() | hs.booleans() | hs.integers() | hs.floats(allow_nan=False) | ANY_TEXT,
                          lambda inner: hs.lists(inner, max_size=3) | hs.dictionaries(ANY_TEXT, inner, max_size=3),
                          max_leaves=8)
ARGUMENT = {"id": JSON_VALUE, "move": hs.integers(-2, 12) | ANY_TEXT | JSON_VALUE,
            "player": hs.integers(-1, 3) | JSON_VALUE,
            "game": hs.sampled_from(["kuhn-poker", "tic-tac-toe", "no-such-game", "."]) | ANY_TEXT,
            "players": hs.integers(0, 4) | JSON_VALUE, "options": JSON_VALUE, "seed": hs.integers() | JSON_VALUE,
            "legal": JSON_VALUE, "force": JSON_VALUE, "save": JSON_VALUE}  # no "file": a save would write it
REQUEST = hs.fixed_dictionaries({"cmd": hs.sampled_from(sorted(set(COMMANDS) - {"quit"})) | ANY_TEXT},
                                optional=ARGUMENT)
LINE = (REQUEST.map(lambda r: json.dumps(r).encode()) | JSON_VALUE.map(lambda v: json.dumps(v).encode())
        | hs.binary(max_size=40))


@functools.cache
def _servers() -> dict:
    servers = {"referee": Server("kuhn-poker", None, {}, 3), "seat": Server("kuhn-poker", None, {}, 3, as_player=1)}
    for server in servers.values():
        assert server.handle({"cmd": "new"})["ok"]
    return servers


def _check_one_reply(server: Server, line: bytes) -> dict:
    """The reply to ``line``: one JSON object on one line, "ok" true or false, the id copied back, and a
    refused request changed nothing."""
    before = server.session.state.view(None)
    reply = json_reply(server, line + b"\n", limit=1000)
    if not line.strip(b" \t\r\n"):
        assert reply is None
        return {}
    written = json_text(reply)
    assert "\n" not in written and json.loads(written.encode("utf-8")) == json.loads(json.dumps(reply))
    assert isinstance(reply["ok"], bool) and (reply["ok"] or reply["error"])
    assert not reply.get("error", "").startswith("internal error"), (line, reply)  # every refusal foreseen
    try:  # read as serve reads it: NaN and Infinity are no JSON
        request = json.loads(line, parse_constant=lambda name: {}["no " + name])
    except (ValueError, KeyError, RecursionError):
        request = None
    if isinstance(request, dict) and "id" in request and holds_lone_surrogate(request["id"]) is None:
        assert reply["id"] == request["id"]
    if not reply["ok"]:
        assert server.session.state.view(None) == before, (line, reply)
    if server.seat is not None:
        assert "seed" not in reply and "save" not in reply
    return reply


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(line=LINE, who=hs.sampled_from(["referee", "seat"]))
def test_any_request_line_gets_exactly_one_well_formed_reply(line, who):
    server = _servers()[who]
    server.done = False
    _check_one_reply(server, line)
    if who == "seat":  # the same line in text mode (a seat: a text 'save FILE' is refused, writes nothing)
        before = server.session.state.view(None)
        reply = text_reply(server, line + b"\n", limit=1000)
        if reply is not None:
            assert reply[:2] in ("= ", "? ") or reply == "="
            assert "\n\n" not in reply and not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", reply)
            if reply.startswith("?"):
                assert server.session.state.view(None) == before
    if server.session is None:  # a refused 'new' of a game the seat cannot hold leaves no game: start one
        assert server.handle({"cmd": "new"})["ok"]


def _mutated(rng: random.Random, line: bytes) -> bytes:
    """``line`` with a few bytes deleted, changed or added."""
    data = bytearray(line)
    for _ in range(rng.randint(1, 3)):
        where = rng.randrange(len(data) + 1)
        how = rng.random()
        if how < 0.4 and where < len(data):
            del data[where]
        elif how < 0.7 and where < len(data):
            data[where] = rng.randrange(256)
        else:
            data[where:where] = rng.choice([b"\\ud800", b'"', b"{", b"]", b"\xff", b",", b"9" * 30, b"\n"])
    return bytes(data).split(b"\n")[0]


@pytest.mark.parametrize("who", ["referee", "seat"])
def test_a_seeded_fuzz_run_of_the_protocol(who):
    """1,000 lines, seeded: moves from the legal ones, other commands, and each of them mutated a byte or
    three. Each line gets one well-formed reply, a refused one changes nothing; and serve_json over the
    same lines writes one reply line per request line."""
    rng = random.Random(30)
    server = Server("kuhn-poker", None, {}, 1, as_player=1 if who == "seat" else None)
    assert server.handle({"cmd": "new"})["ok"]
    lines, played, refused = [], 0, 0
    for _ in range(1000):
        legal = server.handle({"cmd": "legal"}).get("moves") or [{"number": 1, "text": "pass"}]
        move = rng.choice(legal)
        request = rng.choice([{"cmd": "apply", "move": move["text"]}, {"cmd": "apply", "move": move["number"]},
                              {"cmd": "view"}, {"cmd": "render"}, {"cmd": "events"}, {"cmd": "outcome"},
                              {"cmd": "undo"}, {"cmd": "new"}, {"cmd": "legal", "player": rng.randint(1, 2)}])
        request["id"] = len(lines)
        line = json.dumps(request).encode()
        if rng.random() < 0.5:
            line = _mutated(rng, line)
        lines.append(line)
        reply = _check_one_reply(server, line)
        played += reply.get("cmd") == "apply" and reply["ok"]
        refused += reply.get("ok") is False
        if server.session is None or reply.get("over"):
            assert server.handle({"cmd": "new"})["ok"]
    # both kinds of line, many of each (a seat moves for its player only: the game waits for the other)
    assert played > (100 if who == "referee" else 20) and refused > 300
    again = Server("kuhn-poker", None, {}, 1, as_player=1 if who == "seat" else None)
    assert again.handle({"cmd": "new"})["ok"]
    written = io.BytesIO()
    serve_json(again, io.BytesIO(b"\n".join(lines) + b"\n"), written)
    replies = written.getvalue().decode("utf-8").splitlines()
    assert len(replies) == sum(1 for line in lines if line.strip(b" \t\r\n"))
    assert all(isinstance(json.loads(reply)["ok"], bool) for reply in replies)


def test_a_line_too_long_is_refused_without_being_held_and_the_next_is_answered():
    server = Server("tic-tac-toe", None, {}, 1)
    assert server.handle({"cmd": "new"})["ok"]
    written = io.BytesIO()
    serve_json(server, io.BytesIO(b'{"cmd": "legal", "id": "' + b"x" * 5000 + b'"}\n{"cmd": "outcome"}\n'),
               written, limit=1000)
    first, second = (json.loads(line) for line in written.getvalue().splitlines())
    assert first == {"ok": False, "cmd": None, "error": "the request is longer than 1,000 bytes"}
    assert second == {"ok": True, "cmd": "outcome", "over": False, "outcome": None}


def test_text_mode_frames_every_reply_even_with_empty_lines_or_controls_inside():
    """A reply ends at its first empty line: the board's blank lines and a rules text's control
    characters or newlines cannot end it early or reach the terminal raw."""
    server = Server("tic-tac-toe", None, {}, 1)
    assert server.handle({"cmd": "new"})["ok"]
    render = text_reply(server, b"render\n")
    assert render.startswith("= Tic-Tac-Toe") and "\n\n" not in render and "C   .  .  ." in render
    assert text_reply(server, b"apply \x1b[2J\n\n") == ("? illegal move '\\x1b[2J'; legal moves: 'A1', 'A2', 'A3', "
                                                        "'B1', 'B2', 'B3', 'C1', 'C2', 'C3'")
    assert text_reply(server, b"\xffapply\n") == "? not UTF-8: byte 1 of the line"


def test_a_seat_is_told_no_more_of_an_internal_error_than_its_kind(monkeypatch):
    """An engine bug's message may hold a value (another player's card): the referee sees it, a seat
    only its kind."""
    def broken(self, req):
        raise TypeError("cannot compare 'K of hearts'")
    monkeypatch.setattr(Server, "cmd_outcome", broken)
    referee, seat = Server("kuhn-poker", None, {}, 1), Server("kuhn-poker", None, {}, 1, as_player=1)
    assert referee.handle({"cmd": "outcome"})["error"] == ("internal error (TypeError: cannot compare 'K of "
                                                           "hearts'); please report it")
    assert seat.handle({"cmd": "outcome"})["error"] == "internal error (TypeError); please report it"


LEAKY = '''game "Leak"
players 2
table card(name, rank):
    "J", 1
    "Q", 2
    "K", 3
var deck = [] hidden
player var hand = none secret
var t = 0 hidden
setup:
    deck = shuffled(card)
    for p in players:
        draw c from deck
        p.hand = c
round:
    choose by 1:
        "a":
            t = deck[hand[2].rank + 5]
            end game
        "b":
            end game
'''


def test_a_seat_is_told_where_the_rules_failed_not_the_message_that_names_a_hidden_value(tmp_path, capsys):
    """A rule that fails while running may name a value the seat may not see (here the index holds player
    2's card): the seat is told the place only, with no path of the server's; nothing changed."""
    path = tmp_path / "leak.rules"
    path.write_text(LEAKY)
    referee, seat = Server(str(path), None, {}, 4), Server(str(path), None, {}, 4, as_player=1)
    assert referee.handle({"cmd": "new"})["ok"] and seat.handle({"cmd": "new"})["ok"]  # one deal (seed 4)
    rank = referee.session.state.vars["hand"][1]
    told_referee = referee.handle({"cmd": "apply", "move": 1})["error"]
    assert f"no item {({'J': 1, 'Q': 2, 'K': 3}[rank]) + 5}" in told_referee
    reply = seat.handle({"cmd": "apply", "move": 1})
    assert reply["ok"] is False
    assert reply["error"].startswith("leak.rules:18:")
    assert "no item" not in reply["error"] and str(tmp_path) not in reply["error"]
    assert seat.session.state.moves_made == 0
    assert "no item" in capsys.readouterr().err  # the server's operator has the whole message
    # a refusal about the seat's own request is told whole
    assert "illegal move" in seat.handle({"cmd": "apply", "move": "c"})["error"]


def test_a_seat_is_told_the_same_whoever_else_a_window_asks(asked_file):
    """Player 1 cannot tell the three deals apart: whether player 2, player 3 or both are asked in the
    window its move opens. Every reply it gets, JSON or text, is the same byte for byte."""
    asked_file, seeds = asked_file
    requests = [{"cmd": "legal"}, {"cmd": "view"}, {"cmd": "render"}, {"cmd": "events"},
                {"cmd": "apply", "move": "go", "legal": True}, {"cmd": "legal"}, {"cmd": "legal", "player": 1},
                {"cmd": "events"}, {"cmd": "view"}, {"cmd": "render"}, {"cmd": "outcome"},
                {"cmd": "apply", "move": 1}, {"cmd": "apply", "move": "cad against 1"},
                {"cmd": "apply", "move": "pass"}, {"cmd": "explain", "move": 1},
                {"cmd": "explain", "move": "pass"}, {"cmd": "help"}]
    heard = {}
    for seed, asked in seeds.items():
        json_server = Server(str(asked_file), None, {}, seed, as_player=1)
        text_server = Server(str(asked_file), None, {}, seed, as_player=1)
        replies = []
        for request in [{"cmd": "new"}] + requests:
            line = json.dumps(request).encode()
            replies.append(json_text(json_reply(json_server, line)))
            text = {"apply": "apply " + str(request.get("move", "")), "explain": "explain " + str(request.get("move", ""))}
            replies.append(text_reply(text_server, text.get(request["cmd"], request["cmd"]).encode()))
        state = json_server.session.state
        assert sorted(state.to_move()) == asked and state.pending.window  # the referee's: the deals differ
        heard[seed] = replies
    first, *others = heard.values()
    assert all(replies == first for replies in others)
    assert '"to_move": []' in "".join(first) and "not you (the game waits)" in "".join(first)
