"""The engine is the runtime: a compiled game plays to its end with the engine alone, nothing of the facade
(api.py), the saves or the API's State imported, and the engine's State has no hook for the layers above
(docs/architecture.md, "Layers")."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).parent / "rules" / "saves.rules"

PLAY = """
import sys
from rulewright.dsl.parser import parse
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.compile.compiler import CompiledGame
from rulewright.interpreter.engine.start import seeded_state
from rulewright.interpreter.engine.state import State

path = sys.argv[1]
rules = parse(open(path, encoding="utf-8").read(), path)
assert not [d for d in check(rules) if d.severity == "error"]
state = seeded_state(CompiledGame(rules, 2, {"length": "short"}), seed=3)
moves = 0
while not state.is_over():
    player = state.to_move()[0]
    state.apply_action(1 + moves % len(state.legal_actions(player)), player=player)
    moves += 1
state.undo()  # the undo log is the engine's too
above = sorted(m for m in sys.modules if m in (
    "rulewright.interpreter.api", "rulewright.interpreter.saves", "rulewright.interpreter.state",
    "rulewright.interpreter.chance", "rulewright.interpreter.play"))
print(type(state).__module__, moves, state.moves_made, hasattr(State, "readers"), above)
"""


def test_a_compiled_game_plays_with_the_engine_alone():
    out = subprocess.run([sys.executable, "-c", PLAY, str(RULES)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    module, moves, made, readers, above = out.stdout.split(" ", 4)
    assert module == "rulewright.interpreter.engine.state"
    assert int(moves) > 5 and int(made) == int(moves) - 1  # played to the end, the last move taken back
    assert readers == "False" and above.strip() == "[]"
