"""What a person sees at a real terminal (the `terminals` fixture, tests/conftest.py), for every shipped
game: no escape code shows as text, the screen is readable (the title, the moves numbered), a move is
answered and play stops at ':quit'; the terminal's width, NO_COLOR, TERM=dumb, and plain text when piped."""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

pytest.importorskip("pexpect")
pytest.importorskip("pyte")

import rulewright  # noqa: E402
from rulewright.interpreter.api import load_rules, player_range, shipped_games  # noqa: E402

GAMES = sorted(shipped_games())
# an escape code shown as text: the ESC character itself, its escaped form, or a bare SGR code
SHOWN_CODE = re.compile(r"\x1b|\\x1b|\[\d+(;\d+)*m")


def numbered_moves(shown: str) -> list[tuple[int, str]]:
    """The moves the prompt lists after its last 'to move' line: (number, text). A card's rules text,
    printed beside its move after a gap of two spaces or more, is not part of the move's text."""
    listing = shown[shown.rindex("to move (a move or its number"):]
    return [(int(n), text) for n, text in re.findall(r"^ +(\d+)\. (.+?)(?: {2,}.*)?$", listing, re.M)]


@pytest.mark.parametrize("name", GAMES)
def test_every_game_at_a_real_terminal_shows_a_clean_readable_screen(name, terminals, tmp_path):
    players = player_range(load_rules(name))[0]
    save = tmp_path / "save.json"
    term = terminals("play", name, "--players", str(players), "--seed", "5", "--save", str(save))
    term.prompt()
    shown = term.shown()
    assert not SHOWN_CODE.search(shown), shown
    title = f"{rulewright.load(name, players=players).name} - {players} players"
    assert title in shown
    assert title in term.bold_text()  # drawn bold: the codes went to the terminal, not onto the screen
    moves = numbered_moves(shown)
    assert moves and [n for n, _ in moves] == list(range(1, len(moves) + 1))
    mover = int(re.findall(r"player (\d+) to move \(a move", shown)[-1])
    term.send("1")
    term.prompt()
    assert not SHOWN_CODE.search(term.shown())
    term.send(":quit")
    assert term.finish() == 0
    assert "stopped: you quit (:quit)" in term.shown()
    # the game saved is the game after the first move listed (a secret move is not printed)
    expected = rulewright.load(name, players=players).new_state(5)
    expected.apply(moves[0][1], player=mover)
    saved, wanted = json.loads(save.read_text()), json.loads(json.dumps(expected.to_json()))
    for data in (saved, wanted):
        del data["state"]["drained"]  # how many events were printed
    assert saved == wanted


def test_the_screen_takes_the_terminals_width(terminals):
    """Board and players' rows laid out for the terminal: a wide one is used, a narrow one folds."""
    args = ("play", "planes", "--seed", "5", "--auto", "random", "--human", "1")
    wide, narrow = terminals(*args, columns=150), terminals(*args, columns=60)
    for term in (wide, narrow):
        term.prompt()
        term.send(":quit")
        term.finish()
    widest = {t: max(len(line.rstrip()) for line in t.shown().splitlines()) for t in (wide, narrow)}
    assert widest[narrow] <= 60 < 80 < widest[wide] <= 150


def test_no_color_and_a_dumb_terminal(terminals):
    args = ("play", "tic-tac-toe", "--seed", "5", "--auto", "random", "--human", "1")
    plain = terminals(*args, env=terminals.env(NO_COLOR="1"))
    dumb = terminals(*args, env=terminals.env(TERM="dumb"))
    for term in (plain, dumb):
        term.prompt()
        term.send(":quit")
        assert term.finish() == 0
        assert "Tic-Tac-Toe - 2 players" in term.shown() and "    9. C3" in term.shown()
    colours = re.compile(r"\x1b\[[0-9;]*(3[0-9]|9[0-7])[0-9;]*m")  # a foreground colour in an SGR code
    assert not colours.search(plain.raw) and "Tic-Tac-Toe - 2 players" in plain.bold_text()
    assert "\x1b[" not in dumb.raw.split("move> ")[0]  # TERM=dumb: no codes at all before the prompt


def test_piped_output_is_plain_text_and_forced_colour_is_not(terminals):
    args = [sys.executable, "-m", "rulewright", "play", "tic-tac-toe", "--seed", "5"]
    env = terminals.env()
    piped = subprocess.run(args, input="B2\n:quit\n", capture_output=True, text=True, timeout=terminals.wait,
                           env=env)
    forced = subprocess.run(args, input=":quit\n", capture_output=True, text=True, timeout=terminals.wait,
                            env={**env, "FORCE_COLOR": "1"})
    assert piped.returncode == forced.returncode == 0
    assert "\x1b" not in piped.stdout and "Tic-Tac-Toe - 2 players" in piped.stdout
    assert "player 1: B2" in piped.stdout
    assert "\x1b[1mTic-Tac-Toe - 2 players\x1b[0m" in forced.stdout
