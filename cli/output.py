"""Where the command line writes. Data goes to stdout as plain text (no rich markup, no wrapping, so
a board or a diagnostic is printed exactly); messages and progress go to stderr."""
from __future__ import annotations

import json
import sys

from rich.console import Console


def out(text: str = "") -> None:
    print(text, file=sys.stdout, flush=True)


def err(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def json_line(obj) -> None:
    """One JSON object on one line (the --json output of play and friends)."""
    out(json.dumps(obj, ensure_ascii=False))


def stdout_console() -> Console:
    # Made on demand: a test runner swaps sys.stdout between commands.
    return Console(file=sys.stdout, highlight=False, markup=False, soft_wrap=True)


def stderr_console() -> Console:
    return Console(file=sys.stderr, highlight=False, markup=False)
