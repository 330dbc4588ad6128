"""The benchmark scripts still run (a tiny time budget; no speed is asserted here)."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def script(name):
    """A benchmark module that imports no sibling, by path (its bare name could clash with other modules)."""
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(name, *args):
    """A benchmark script run as its users run it (``python benchmarks/NAME.py``: it imports its siblings
    from its own folder)."""
    return subprocess.run([sys.executable, str(BENCHMARKS / f"{name}.py"), *args], capture_output=True, text=True,
                          timeout=600)


def test_playouts_count_whole_games():
    import rulewright
    playouts = script("playouts")
    measure, rulewright_runner = playouts.measure, playouts.rulewright_runner
    res = measure({"ttt": rulewright_runner(rulewright.load("tic-tac-toe"))}, seconds=0.02, rounds=2)["ttt"]
    per_game = res["decisions_per_s"] / res["games_per_s"]
    assert 5 <= per_game <= 9  # a tic-tac-toe game has 5 to 9 moves
    assert res["runs"] == 2


def test_games_script_reports_a_shipped_game():
    games = run("games", "connect-four", "--seconds", "0.02", "--rounds", "1")
    assert games.returncode == 0, games.stderr
    out = games.stdout
    assert "Connect Four" in out and "playouts/s" in out and "decisions/s" in out


def test_games_script_refuses_an_unknown_game():
    games = run("games", "no-such-game", "--seconds", "0.02")
    assert games.returncode == 1
    assert "unknown game" in games.stderr


def test_classic_script_compares_with_openspiel():
    pytest.importorskip("pyspiel")
    classic = run("classic", "--seconds", "0.02", "--rounds", "1")
    assert classic.returncode == 0, classic.stderr
    out = classic.stdout
    assert "ratio rulewright tic-tac-toe / openspiel python_tic_tac_toe" in out
    assert "ratio rulewright connect-four / openspiel connect_four" in out
