"""Shared fixtures: build a game or its diagnostics from a rules snippet written inline in a test."""
from __future__ import annotations

import textwrap

import pytest

from rulewright.dsl.errors import RulesCompileError
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import Game
from rulewright.interpreter.checker import check


def _text(source: str) -> str:
    return textwrap.dedent(source).lstrip("\n")


@pytest.fixture
def diagnose():
    """diagnose(text) -> the checker's diagnostics for a rules snippet (file name 'test.rules')."""
    def run(source: str, filename: str = "test.rules"):
        return check(parse(_text(source), filename))
    return run


@pytest.fixture
def make_game():
    """make_game(text, players=None, options=None) -> a Game compiled from a rules snippet."""
    def build(source: str, players=None, options=None, filename: str = "test.rules") -> Game:
        rules = parse(_text(source), filename)
        errors = [d for d in check(rules) if d.severity == "error"]
        if errors:
            raise RulesCompileError(errors)
        return Game(rules, players, options)
    return build
