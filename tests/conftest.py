"""Shared fixtures: a game or its diagnostics from a rules snippet written inline in a test, the small
rules texts several test files play, and programs in a real pseudo-terminal.

The helpers a test imports (a game from a rules text, a shipped game compiled once, legal move texts, log
lines, random playouts) are in interpreter/testing.py, imported by their full name: tests/ cannot be a
package (the repository's root is one, so pytest would import it again under the checkout folder's name),
and a module beside the tests is importable only through sys.path. What is shared here is shared as
fixtures.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile

import pytest

pytest.register_assert_rewrite("rulewright.interpreter.testing")  # its asserts explain themselves like a test's

from rulewright.dsl.parser import parse  # noqa: E402
from rulewright.interpreter.api import load  # noqa: E402
from rulewright.interpreter.check.checker import check  # noqa: E402
from rulewright.interpreter.testing import game_from_text, snippet  # noqa: E402


def pytest_configure(config):
    """The tests use a cache folder of their own (dsl/cache.py), empty at the start: they neither read
    what an earlier run or another checkout left in ~/.cache nor leave anything there."""
    config._rulewright_cache = tempfile.mkdtemp(prefix="rulewright-test-cache-")
    os.environ["RULEWRIGHT_CACHE"] = config._rulewright_cache


def pytest_unconfigure(config):
    folder = getattr(config, "_rulewright_cache", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


# ----------------------------------------------------------------------------- games from rules snippets
@pytest.fixture(scope="session")
def diagnose():
    """diagnose(text) -> the checker's diagnostics for a rules snippet (file name 'test.rules')."""
    def run(source: str, filename: str = "test.rules"):
        return check(parse(snippet(source), filename))
    return run


@pytest.fixture(scope="session")
def make_game():
    """make_game(text, players=None, options=None) -> a Game compiled from a rules snippet."""
    def build(source: str, players=None, options=None, filename: str = "test.rules"):
        return game_from_text(snippet(source), players, options, filename)
    return build


@pytest.fixture
def load_file(tmp_path):
    """load_file(text, name="test.rules", players=None) -> the Game ``rulewright.load`` makes of ``text``
    written to the file ``name`` in the test's folder (the path a user's rules file takes)."""
    def build(text: str, name: str = "test.rules", players=None):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return load(str(path), players=players)
    return build


@pytest.fixture(scope="session")
def command():
    """command(*args) -> the result of `rulewright ARGS...` run in this process (typer's runner), which
    must end without a traceback."""
    from typer.testing import CliRunner
    from rulewright.cli.main import app
    runner = CliRunner()

    def run(*args):
        result = runner.invoke(app, [str(a) for a in args])
        assert "Traceback" not in result.output, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        return result
    return run


# ----------------------------------------------------------------------------- rules texts shared by test files
@pytest.fixture(scope="session")
def cards_rules() -> str:
    """Two players, a secret hand of one card each from a hidden deck, three rounds of a choice."""
    return '''game "Cards"
players 2
player var hand = [] secret
player var score = 0
var deck = [] hidden
setup:
    deck = shuffled([1, 2, 3, 4])
    for p in players:
        draw c from deck
        add c to p.hand
turn:
    choose x in ["a", "b"]
    me.score += 1
end when round_number == 3 after round
'''


@pytest.fixture(scope="session")
def dice_rules() -> str:
    """Two rounds in which each player rolls a die for points or stops: chance, and nothing hidden."""
    return '''
game "Dice"
players 2
player var score = 0
turn:
    choose a in ["roll", "stop"] as "{a}"
    if a == "roll":
        me.score += roll(6)
end when round_number == 2 after round
'''


# The guide's reaction-window game (docs/language.md, 'Reaction windows'): the adapters' window tests.
WINDOWS = '''
game "Windows"
players 3
player var hand = [] secret
player var score = 0
var deck = [] hidden

setup:
    deck = shuffled(["cad", "cad", "dud", "dud", "dud", "dud"])
    for p in players:
        repeat 2 times:
            draw c from deck
            add c to p.hand

turn:
    let need = 2
    each q in [k in players where k != me] may choose c in q.hand where c == "cad" as "play a cad against player {me}":
        reveal c as "player {q} plays a cad against player {me}"
        remove c from q.hand
        need += 1
    if roll(6) >= need:
        me.score += 1
end when round_number == 3 after round
'''


# A window whose askees a secret decides: players 2 and 3 each hold one card, and a 'cad' is a response.
# Player 1 holds none, so it cannot tell apart the deals of ASKED_SEEDS (its view, events and moves are
# the same in each) until an answer is played: serve's and the web table's leak tests.
ASKED = '''
game "Asked"
players 3
player var hand = [] secret
var deck = [] hidden

setup:
    deck = shuffled(["cad", "cad", "dud", "dud"])
    for p in players:
        if p != 1:
            draw c from deck
            add c to p.hand

turn:
    choose x in ["go", "wait"]
    each q in [k in players where k != me] may choose c in q.hand where c == "cad" as "cad against {me}":
        reveal c as "player {q} plays a cad"
        remove c from q.hand
end when round_number == 1 after round
'''
ASKED_SEEDS = {0: [3], 1: [2], 6: [2, 3]}  # seed -> who the first window asks


@pytest.fixture
def asked_file(tmp_path):
    """The path of ASKED written to asked.rules in the test's folder, and ASKED_SEEDS."""
    path = tmp_path / "asked.rules"
    path.write_text(ASKED, encoding="utf-8")
    return path, ASKED_SEEDS


@pytest.fixture
def windows_file(tmp_path):
    """The path of the reaction-window game (WINDOWS) written to windows.rules in the test's folder."""
    path = tmp_path / "windows.rules"
    path.write_text(WINDOWS, encoding="utf-8")
    return path


# ----------------------------------------------------------------------------- a real terminal
# `rulewright` in a pseudo-terminal (pexpect), its output drawn by a terminal emulator (pyte): what a
# person at a real terminal sees. Every step waits for a text the program writes (the prompt, the
# hand-over line, the end of its output), never for a time: a slow machine only makes a test slower.
ROWS, COLUMNS = 400, 120  # tall enough that nothing before the prompt scrolls away
PROMPT, HANDOVER = r"move> ", r"press Enter when only player \d+ can see the screen ===\r?\n"


class Terminal:
    """`rulewright ARGS` in a pseudo-terminal, its output fed to an emulated screen."""

    def __init__(self, *args, env=None, rows=ROWS, columns=COLUMNS):
        import pexpect
        import pyte
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)
        self.raw = ""  # every character the program wrote, escape codes included
        self.child = pexpect.spawn(sys.executable, ["-m", "rulewright", *args], env=env or Terminals.env(),
                                   dimensions=(rows, columns), encoding="utf-8", timeout=Terminals.wait)

    def wait_for(self, *patterns) -> int:
        """Read until one of ``patterns`` (regular expressions, or pexpect.EOF) is written; its index."""
        found = self.child.expect(list(patterns))
        seen = self.child.before + (self.child.after if isinstance(self.child.after, str) else "")
        self.raw += seen
        self.stream.feed(seen)
        return found

    def prompt(self) -> None:
        """Wait for the move prompt, pressing Enter at a hot seat's hand-over."""
        while self.wait_for(PROMPT, HANDOVER) == 1:
            self.child.sendline("")

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def interrupt(self) -> None:
        """Ctrl-C, as typed: the terminal sends SIGINT to the program."""
        self.child.sendintr()

    def finish(self) -> int:
        """Wait for the program to end; its exit status."""
        import pexpect
        self.wait_for(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus

    def shown(self) -> str:
        """The text on the screen, as a person reads it."""
        return "\n".join(line.rstrip() for line in self.screen.display).strip("\n")

    def bold_text(self) -> str:
        """The characters on the screen drawn in bold: the terminal took the styles as styles."""
        return "".join(char.data for row in self.screen.buffer.values() for char in row.values() if char.bold)

    def close(self) -> None:
        if self.child.isalive():
            self.child.close(force=True)


class Terminals:
    """``terminals(*args, **kw)`` starts a Terminal (see Terminal); each is closed (killed if still
    running) after the test."""

    wait = 120  # seconds a terminal waits for a text before the test fails (a hang, not a slow machine)

    def __init__(self):
        self.opened = []

    def __call__(self, *args, **kw) -> Terminal:
        self.opened.append(Terminal(*args, **kw))
        return self.opened[-1]

    @staticmethod
    def env(**extra) -> dict:
        """The environment of a colour terminal, whatever the test runner's is."""
        env = {k: v for k, v in os.environ.items()
               if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS", "LINES")}
        env.update({"TERM": "xterm", **extra})
        return env


@pytest.fixture
def terminals():
    """Terminals for one test (skipped where pexpect or pyte is not installed)."""
    pytest.importorskip("pexpect")
    pytest.importorskip("pyte")
    started = Terminals()
    yield started
    for t in started.opened:
        t.close()


# ------------------------------------------------------------------------- a real browser (web tests)
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the browser tests need playwright")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()
