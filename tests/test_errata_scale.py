"""Many errata on one place, or a piece on each of many steps: the work of applying them grows with their
number, not its square (a hostile review measured 1,500 alternatives added to one choice: over 2 minutes to
validate). The work is counted in Python function calls, never timed; benchmarks/validate.py times 1,500
errata of each kind."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from rulewright.dsl.parser import parse
from rulewright.interpreter.api import _apply_extends, load
from rulewright.interpreter.testing import play, texts


def _benchmark():
    """benchmarks/validate.py, by path (a benchmark is no package): the base and the errata it times."""
    spec = importlib.util.spec_from_file_location("benchmark_validate", Path(__file__).resolve().parents[1]
                                                  / "benchmarks" / "validate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCHMARK = _benchmark()
BASE_NAME, BASE = BENCHMARK.ERRATA_BASE
errata = BENCHMARK.errata


def calls_to_merge(folder: Path, text: str) -> int:
    """The Python function calls made to apply the variant ``text`` to BASE (parsing not counted)."""
    path = folder / "v.rules"
    path.write_text(text)
    rules = parse(text, str(path))
    calls = 0

    def count(_frame, event, _arg):
        nonlocal calls
        calls += event == "call"
    sys.setprofile(count)
    try:
        _apply_extends(rules, path)
    finally:
        sys.setprofile(None)
    return calls


@pytest.mark.parametrize("kind", ["alternatives", "arms", "branches"])
def test_five_times_the_errata_on_one_place_take_about_five_times_the_work(tmp_path, kind):
    (tmp_path / BASE_NAME).write_text(BASE)
    few, many = calls_to_merge(tmp_path, errata(kind, 20)), calls_to_merge(tmp_path, errata(kind, 100))
    assert many < 7 * few, f"{many} calls for 100 errata, {few} for 20: not linear"  # quadratic: about 25 times


def steps(n: int) -> str:
    """A base of ``n`` steps, each with a choice."""
    step = '    step "s{i}":\n        choose:\n            "a":\n                me.c += 1\n            "b":\n'
    step += '                pass\n'
    return ('game "Steps"\nplayers 2\nplayer var c = 0\nturn:\n' + "".join(step.format(i=i) for i in range(n))
            + "end when round_number == 2 after round\n")


@pytest.mark.parametrize("piece", ['in step "s{i}", add:\n    "x":\n        pass\n',
                                   'after step "s{i}":\n    me.c += 2\n', 'retire step "s{i}"\n'])
def test_a_piece_on_each_of_five_times_the_steps_takes_about_five_times_the_work(tmp_path, piece):
    """Each piece names a step of its own: finding it and writing it back walked the whole block each time."""
    calls = []
    for n in (20, 100):
        (tmp_path / "base.rules").write_text(steps(n))
        pieces = "".join(piece.format(i=i) for i in range(n))
        calls.append(calls_to_merge(tmp_path, 'extends "base.rules"\n' + pieces))
    assert calls[1] < 7 * calls[0], f"{calls[1]} calls for 100 steps, {calls[0]} for 20: not linear"


def test_many_errata_on_one_choice_keep_their_order(tmp_path):
    """Alternatives put before others, before ones added, in place of ones added, and taken out: in order."""
    (tmp_path / BASE_NAME).write_text(BASE)
    text = f'extends "{BASE_NAME}"\n'
    for i in range(40):
        text += f'in step "shop", add before "rest":\n    "a{i}":\n        pass\n'
    for i in range(0, 40, 2):  # each even one gets a neighbour before it; each odd one is replaced or taken out
        text += f'in step "shop", add before "a{i}":\n    "b{i}":\n        pass\n'
        text += (f'in step "shop", replace "a{i + 1}":\n    "c{i + 1}":\n        me.coins += 5\n' if i % 4 == 0
                 else f'in step "shop", remove "a{i + 1}"\n')
    (tmp_path / "v.rules").write_text(text)
    st = load(str(tmp_path / "v.rules")).new_state(1)
    expected = ["pay"] + [t for i in range(0, 40, 2)
                          for t in ([f"b{i}", f"a{i}"] + ([f"c{i + 1}"] if i % 4 == 0 else []))]
    assert texts(st) == expected + ["rest"]
    play(st, "c1")
    assert st.vars["coins"] == [8, 3]
