"""One declared list of State's fields (interpreter/engine/state_fields.py), read by clone, snapshots and
saves: a field added to State and not declared there fails here."""
from __future__ import annotations

import copy

import attrs

from rulewright.interpreter.engine import snapshots, state_fields
from rulewright.interpreter.engine.state import State

RULES = """
game "Fields"
players 2
player var score = 0
var pile = [1, 2, 3]
turn:
    choose n in pile as "take {n}"
    remove n from pile
    me.score += n
    log "took {n}"
    if len(pile) == 0:
        end game
"""


def undeclared(cls) -> list:
    """The fields of ``cls`` that state_fields declares in neither CLONED nor OWN."""
    return [f.name for f in attrs.fields(cls) if f.name not in state_fields.CLONED + state_fields.OWN]


def test_every_field_of_state_is_declared_once():
    declared = state_fields.CLONED + state_fields.OWN
    assert undeclared(State) == []
    assert sorted(declared) == sorted(f.name for f in attrs.fields(State))  # each once, none stale
    assert set(state_fields.SAVED) <= set(state_fields.CLONED)


def test_a_field_added_to_state_and_not_declared_is_found():
    grown = attrs.make_class("Grown", {"extra": attrs.field(default=0)}, bases=(State,))
    assert undeclared(grown) == ["extra"]


def _in_play(make_game):
    st = make_game(RULES).new_state(seed=2)
    st.apply("take 2")
    st.drain_events(1)  # a drain mark by player
    return st


def test_a_clone_takes_every_cloned_field_and_none_of_the_states_own(make_game):
    st = _in_play(make_game)
    before = {f: getattr(st, f) for f in state_fields.CLONED}
    twin = st.clone()
    for field in state_fields.CLONED:
        if field != "rng":  # forked
            assert getattr(twin, field) == before[field], field
    assert twin.undo_log is not st.undo_log and twin.undo_log.moves == [] and twin.undoable == 0
    twin.apply("take 3")
    assert st._vars["pile"] == [1, 3] and twin._vars["pile"] == [1]  # the rules' data: copies


def test_a_snapshot_gives_back_every_taken_field(make_game):
    st = _in_play(make_game)
    before = copy.deepcopy({f: getattr(st, f) for f in state_fields.TAKEN})
    taken = snapshots.take(st)
    st.apply("take 3")
    st.drain_events(2)
    assert {f: getattr(st, f) for f in state_fields.TAKEN} != before
    snapshots.restore(st, taken)
    assert {f: getattr(st, f) for f in state_fields.TAKEN} == before


def test_a_save_writes_the_saved_fields(make_game):
    st = _in_play(make_game)
    written = set(st.to_json()["state"])
    assert written == {f.removeprefix("_") for f in state_fields.SAVED}
