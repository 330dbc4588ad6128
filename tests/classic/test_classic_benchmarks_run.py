"""The benchmark scripts still run (a tiny time budget; no speed is asserted here)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(autouse=True)
def _importable(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the scripts import their sibling playouts.py


def script(name):
    """A benchmark script as a module, by path (its bare name could clash with other modules)."""
    spec = importlib.util.spec_from_file_location(f"benchmark_{name}", BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_playouts_count_whole_games():
    import rulewright
    playouts = script("playouts")
    measure, rulewright_runner = playouts.measure, playouts.rulewright_runner
    res = measure({"ttt": rulewright_runner(rulewright.load("tic-tac-toe"))}, seconds=0.02, rounds=2)["ttt"]
    per_game = res["decisions_per_s"] / res["games_per_s"]
    assert 5 <= per_game <= 9  # a tic-tac-toe game has 5 to 9 moves
    assert res["runs"] == 2


def test_games_script_reports_a_shipped_game(capsys):
    games = script("games")
    assert games.main(["connect-four", "--seconds", "0.02", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "Connect Four" in out and "playouts/s" in out and "decisions/s" in out


def test_games_script_refuses_an_unknown_game(capsys):
    games = script("games")
    assert games.main(["no-such-game", "--seconds", "0.02"]) == 1
    assert "unknown game" in capsys.readouterr().err


def test_classic_script_compares_with_openspiel(capsys):
    pytest.importorskip("pyspiel")
    classic = script("classic")
    assert classic.main(["--seconds", "0.02", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "ratio rulewright tic-tac-toe / openspiel python_tic_tac_toe" in out
    assert "ratio rulewright connect-four / openspiel connect_four" in out
