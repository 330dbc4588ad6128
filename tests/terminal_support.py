"""`rulewright` in a pseudo-terminal (pexpect), its output drawn by a terminal emulator (pyte): what a
person at a real terminal sees. Every step waits for a text the program writes (the prompt, the hand-over
line, the end of its output), never for a time: a slow machine only makes a test slower."""
from __future__ import annotations

import os
import re
import sys

import pexpect
import pyte
import pytest

ROWS, COLUMNS = 400, 120  # tall enough that nothing before the prompt scrolls away
WAIT = 120  # seconds pexpect waits for a text before the test fails (a hang, not a slow machine)
PROMPT, HANDOVER = r"move> ", r"press Enter when only player \d+ can see the screen ===\r?\n"
# an escape code shown as text: the ESC character itself, its escaped form, or a bare SGR code
SHOWN_CODE = re.compile(r"\x1b|\\x1b|\[\d+(;\d+)*m")


def terminal_env(**extra) -> dict:
    """The environment of a colour terminal, whatever the test runner's is."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "COLUMNS", "LINES")}
    env.update({"TERM": "xterm", **extra})
    return env


class Terminal:
    """`rulewright ARGS` in a pseudo-terminal, its output fed to an emulated screen."""

    def __init__(self, *args, env=None, rows=ROWS, columns=COLUMNS):
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)
        self.raw = ""  # every character the program wrote, escape codes included
        self.child = pexpect.spawn(sys.executable, ["-m", "rulewright", *args], env=env or terminal_env(),
                                   dimensions=(rows, columns), encoding="utf-8", timeout=WAIT)

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


@pytest.fixture
def terminals():
    """``terminals(*args, **kw)`` starts a Terminal; each is closed (killed if still running) after the test."""
    opened = []

    def start(*args, **kw):
        opened.append(Terminal(*args, **kw))
        return opened[-1]
    yield start
    for t in opened:
        t.close()
