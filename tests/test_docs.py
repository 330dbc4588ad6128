"""The examples of docs/language.md parse, check, compile and play, so the guide cannot rot.

A ```rules block whose first line (after comments) is `game "..."` is a whole game. Any other ```rules block is a fragment
of the guide's "Examples" game (the first whole game of the guide): declarations are laid over it
with `extends`, exactly as a variant file would be, and bare statements become its `turn:` block.
Every example is then loaded for every player count it allows and played with random moves.
"""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import rulewright
from rulewright.dsl.errors import OptionError
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import option_values
from rulewright.interpreter.engine.builtins import BUILTINS, QUANTIFIERS
from rulewright.interpreter.check.checker import check

DOC = Path(__file__).resolve().parent.parent / "docs" / "language.md"
FENCE = re.compile(r"^```rules[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)
DECLARATION = re.compile(
    r"(game|extends|players|option|require|enum|table|board|var|player var|record|def|procedure|"
    r"setup|round|turn|scoring|end when|invariant|rank|teams|display|observe)\b")
MOVES_PER_PLAYOUT = 400


def _blocks() -> list[tuple[int, str]]:
    text = DOC.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in FENCE.finditer(text)]


BLOCKS = _blocks()


def _first_line(code: str) -> str:
    return next(line for line in code.splitlines() if line.strip() and not line.lstrip().startswith("#"))


GAMES = [(line, code) for line, code in BLOCKS if _first_line(code).startswith('game "')]
FRAGMENTS = [(line, code) for line, code in BLOCKS if not _first_line(code).startswith('game "')]
BASE = next(code for _line, code in GAMES if code.startswith('game "Examples"'))

# Examples that document the language as designed but meet a known engine bug; strict, so the
# day the bug is fixed these fail as XPASS and the mark must go.
# An example that a known engine bug breaks: text in the example -> the bug (strict xfail, so a fix is noticed).
KNOWN_BUGS: dict = {}


def _params(blocks):
    out = []
    for line, code in blocks:
        marks = [pytest.mark.xfail(reason=why, strict=True) for key, why in KNOWN_BUGS.items() if key in code]
        out.append(pytest.param(line, code, marks=marks, id=f"line{line}"))
    return out


def _as_variant(code: str) -> str:
    """A fragment as a rules file that extends the Examples game."""
    first = _first_line(code)
    if not first[0].isspace() and DECLARATION.match(first) and not first.startswith("turn "):
        return 'extends "examples.rules"\n' + code
    body = "".join("    " + line + "\n" if line.strip() else "\n" for line in code.splitlines())
    return 'extends "examples.rules"\nturn:\n' + body


def _play(game, seeds=(1, 2, 3)) -> None:
    for seed in seeds:
        state = game.new_state(seed=seed)
        pick = random.Random(seed)
        for _ in range(MOVES_PER_PLAYOUT):
            if state.is_over():
                break
            state.apply(pick.choice(state.legal_moves()))
        state.clone()
        game.load_state(state.to_json())


def _load_and_play(path: Path) -> int:
    """Every player count and, one at a time, every option value; returns how many games ran."""
    rules = rulewright.interpreter.api.load_rules(str(path))
    players = next(d for d in rules.decls if type(d).__name__ == "PlayersDecl")
    settings = [{}] + [{name: v} for name, values in option_values(rules).items() for v in values[1:]]
    ran = 0
    for count in range(players.low, players.high + 1):
        for options in settings:
            try:
                game = rulewright.load(str(path), players=count, options=options)
            except OptionError:
                continue  # a 'require' refuses this combination, as the rules intend
            _play(game)
            ran += 1
    return ran


def test_the_guide_has_examples():
    assert len(GAMES) >= 5 and len(FRAGMENTS) >= 20


@pytest.mark.parametrize("line,code", _params(GAMES))
def test_whole_game_parses_checks_and_plays(line, code, tmp_path):
    rules = parse(code, f"docs/language.md, the block at line {line}")
    assert [d.render() for d in check(rules)] == []
    path = tmp_path / "game.rules"
    path.write_text(code, encoding="utf-8")
    assert _load_and_play(path) >= 1


@pytest.mark.parametrize("line,code", _params(FRAGMENTS))
def test_fragment_fits_the_examples_game(line, code, tmp_path):
    (tmp_path / "examples.rules").write_text(BASE, encoding="utf-8")
    path = tmp_path / "fragment.rules"
    path.write_text(_as_variant(code), encoding="utf-8")
    assert _load_and_play(path) >= 1


def test_every_builtin_and_quantifier_is_documented():
    from rulewright.interpreter.boards.registry import board_functions
    text = DOC.read_text(encoding="utf-8")
    missing = [name for name in sorted(set(BUILTINS) | set(QUANTIFIERS) | set(board_functions()))
               if f"`{name}(" not in text]
    assert missing == []


def test_the_first_game_of_the_guide_is_the_shipped_tic_tac_toe():
    shipped = rulewright.interpreter.api.shipped_games()["tic-tac-toe"].read_text(encoding="utf-8")
    assert GAMES[0][1] == shipped
