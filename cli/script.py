"""Move scripts: one move per line, by text or by number; blank lines and '#' comments are skipped.
A line may start with 'P:' to name the player who moves (for simultaneous decisions)."""
from __future__ import annotations

import re
import sys
from typing import Optional

import attrs

_PLAYER_PREFIX = re.compile(r"^(\d+)\s*:\s*(\S.*)$")


@attrs.frozen
class ScriptLine:
    where: str  # "file:line", for messages
    text: str   # the line as written (without the newline)


def read_script(path: str) -> list[ScriptLine]:
    """The moves of a script file, '-' for stdin."""
    if path == "-":
        lines, name = sys.stdin.read().splitlines(), "<stdin>"
    else:
        from rulewright.cli.errors import MAX_JSON_BYTES
        from rulewright.interpreter.api import read_bounded
        lines, name = read_bounded(path, MAX_JSON_BYTES, "a move script").splitlines(), path
    out = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if text and not text.startswith("#"):
            out.append(ScriptLine(f"{name}:{number}", text))
    return out


def split_player(state, text: str) -> tuple[Optional[int], str]:
    """(player, move text): 'P: move' names the player, unless the whole line is itself a legal move."""
    match = _PLAYER_PREFIX.match(text)
    if match is None or any(m.text == text for m in state.legal_moves()):
        return None, text
    return int(match.group(1)), match.group(2).strip()
