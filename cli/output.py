"""Where the command line writes. Data goes to stdout as plain text (no rich markup, no wrapping, so
a board or a diagnostic is printed exactly); messages and progress go to stderr."""
from __future__ import annotations

import json
import re
import sys


# Control characters other than newline and tab: a rules file's text (or a move typed into a script)
# could otherwise move the cursor, clear the screen or retitle the terminal. Shown escaped instead.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def out(text: str = "") -> None:
    print(printable(text), file=sys.stdout, flush=True)


def err(text: str) -> None:
    print(printable(text), file=sys.stderr, flush=True)


def json_line(obj) -> None:
    """One JSON object on one line (the --json output of play and friends)."""
    out(json.dumps(obj, ensure_ascii=False))


def stdout_console():
    # Made on demand: a test runner swaps sys.stdout between commands (and rich loads only when used).
    from rich.console import Console
    return Console(file=sys.stdout, highlight=False, markup=False, soft_wrap=True)


def stderr_console():
    from rich.console import Console
    return Console(file=sys.stderr, highlight=False, markup=False)


# The width of text that is not going to a terminal (a file, a pipe, a test): the same everywhere.
PIPED_WIDTH = 80


def terminal_console(stream):
    """A rich console for what a person reads on ``stream`` (the play screen): colours and the
    terminal's width at a terminal, plain text PIPED_WIDTH wide otherwise. rich reads the environment:
    NO_COLOR (no colours), FORCE_COLOR (colours even when piped), TERM=dumb (no escape codes at all),
    COLUMNS (the width). What is printed through it must be rich Text made of texts that went through
    printable(): the styling is ours, no text from a rules file brings an escape code."""
    from rich.console import Console
    console = Console(file=stream, highlight=False, markup=False, emoji=False)
    if not console.is_terminal:
        console.width = PIPED_WIDTH
    return console
