"""The rules file's steps are the rulebook's sections: a variant can reach each of the twelve phases of
the Game Sequence, and each step of the Set-Up, by the name the rulebook gives it."""
from __future__ import annotations

import rulewright

from rulewright.interpreter.testing import logs

from .helpers import drive

PHASES = ["determine first player", "auction bidding", "auction resolution", "buy development token",
          "check hangar space", "repairs", "air show cards", "air show preparation",
          "determine master weather and mechanical stress check", "resolve air show performance",
          "air show results", "end of turn"]
SET_UP = ["decks", "development stacks", "starting player", "each player", "unselected grey planes"]


def test_an_overlay_reaches_every_phase_and_set_up_step_by_its_rulebook_name(tmp_path):
    # one line logged after each step: the labels exist (an unknown one is an error), and the log shows
    # they run in the rulebook's order, every phase once a turn
    marks = "".join(f'after step "{s}":\n    log "after {s}"\n' for s in SET_UP + PHASES)
    path = tmp_path / "marked.rules"
    path.write_text(f'extends "air-show"\ngame "Air Show, marked"\n{marks}', encoding="utf-8")
    st = rulewright.load(str(path), players=2).new_state(seed=3)
    drive(st, lambda s: s.vars["round_number"] == 3 or s.is_over(),
          prefer=("take a plane", "bid ", "build nothing", "stop repairing", "keep", "no card", "take prestige"))
    seen = [line.removeprefix("after ") for line in logs(st) if line.startswith("after ")]
    assert seen[:len(SET_UP) + 2 * len(PHASES)] == SET_UP + PHASES + PHASES
