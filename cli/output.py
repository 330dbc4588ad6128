"""Where the command line writes, and how each format it writes escapes a text: the terminal (control
characters), JSON, CSV and plots. Data goes to stdout as plain text (no rich markup, no wrapping, so a
board or a diagnostic is printed exactly); messages and progress go to stderr. Texts come from rules
files, saves and requests: any character may reach a writer, and none may break its format."""
from __future__ import annotations

import json
import re
import sys


# Control characters other than newline and tab: a rules file's text (or a move typed into a script)
# could otherwise move the cursor, clear the screen or retitle the terminal. Shown escaped instead, and
# so is a lone surrogate (from a command-line argument that is not UTF-8), which no terminal can encode.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def printable(text: str) -> str:
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100
                        else f"\\u{ord(m.group()):04x}", text)


# What json.dumps(ensure_ascii=False) leaves raw that a terminal or a reader chokes on: C1 controls, the
# line and paragraph separators (line ends to JavaScript) and lone surrogates (unencodable).
_JSON_RAW = re.compile("[\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def json_text(obj, **dumps) -> str:
    """``obj`` as JSON that any UTF-8 reader takes and a terminal shows as it is: non-ASCII text kept,
    every control character and lone surrogate as a \\u escape."""
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(obj, ensure_ascii=False, **dumps))


# A spreadsheet reads a cell beginning with one of these as a formula (OWASP, "CSV injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A value for a CSV cell: a text a spreadsheet would run as a formula gets a leading apostrophe
    (numbers stay numbers, so -3 is still -3)."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def plot_text(text: str) -> str:
    """A text for a plot's label: what XML forbids (matplotlib's SVG writes it raw) replaced. Plots are
    drawn with mathtext off (report.py), so a '$' is just a dollar."""
    from rulewright.dsl.texts import xml_safe
    return xml_safe(text)


def out(text: str = "") -> None:
    print(printable(text), file=sys.stdout, flush=True)


def err(text: str) -> None:
    print(printable(text), file=sys.stderr, flush=True)


def json_line(obj) -> None:
    """One JSON object on one line (the --json output of play and friends)."""
    out(json_text(obj))


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
