"""Shared fixtures: build a game or its diagnostics from a rules snippet written inline in a test."""
from __future__ import annotations

import os
import shutil
import tempfile
import textwrap

import pytest

from rulewright.dsl.errors import RulesCompileError
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import Game
from rulewright.interpreter.check.checker import check


def pytest_configure(config):
    """The tests use a cache folder of their own (dsl/cache.py), empty at the start: they neither read
    what an earlier run or another checkout left in ~/.cache nor leave anything there."""
    config._rulewright_cache = tempfile.mkdtemp(prefix="rulewright-test-cache-")
    os.environ["RULEWRIGHT_CACHE"] = config._rulewright_cache


def pytest_unconfigure(config):
    folder = getattr(config, "_rulewright_cache", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


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
