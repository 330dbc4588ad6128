"""State.undo(): a move taken back leaves the state exactly as before it (python-chess's pop)."""
from __future__ import annotations

import random

import pytest

import rulewright
from rulewright.dsl.errors import IllegalMoveError
from rulewright.interpreter.api import shipped_games


def snapshot(st) -> tuple:
    """Everything a game is: its save (variables, rules, events, reveals), the generator, the moves offered."""
    return (st.to_json(), st.rng.getstate(), [(m.player, m.text, m.index) for m in st.legal_moves()],
            st.history_len)


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_apply_then_undo_is_the_original_for_random_moves(name):
    game = rulewright.load(name)
    st = game.new_state(seed=11)
    rng = random.Random(name)
    for _ in range(120):
        if st.is_over():
            break
        before = snapshot(st)
        move = rng.choice(st.legal_moves())
        st.apply(move)
        after = snapshot(st)
        st.undo()
        assert snapshot(st) == before
        st.apply(move)  # played again, the move gives the same state: the generator went back too
        assert snapshot(st) == after


def test_undo_all_the_way_back_to_the_start():
    game = rulewright.load("biplane")
    st = game.new_state(seed=3)
    start = snapshot(st)
    rng = random.Random(3)
    played = 0
    while not st.is_over() and played < 60:
        st.apply(rng.choice(st.legal_moves()))
        played += 1
    for _ in range(played):
        st.undo()
    assert snapshot(st) == start
    with pytest.raises(IllegalMoveError, match="no move to undo"):
        st.undo()
    assert snapshot(st) == start  # a refused undo changes nothing


def test_undo_takes_back_one_secret_choice_of_a_simultaneous_decision():
    game = rulewright.load("biplane", players=2)
    st = game.new_state(seed=5)
    rng = random.Random(5)
    for _ in range(200):
        if len(st.to_move()) >= 2:
            break
        st.apply(rng.choice(st.legal_moves()))
    assert len(st.to_move()) >= 2, "no simultaneous decision reached"
    before = snapshot(st)
    first = st.to_move()[0]
    st.apply(st.legal_moves(first)[0], player=first)
    assert first not in st.to_move()
    st.undo()
    assert snapshot(st) == before


def test_only_the_last_moves_are_kept_for_undo(monkeypatch):
    """A game that never ends must not grow without bound: undo keeps the last UNDO_KEPT moves."""
    from rulewright.interpreter.engine import undo
    monkeypatch.setattr(undo, "UNDO_KEPT", 5)
    st = rulewright.load("biplane").new_state(seed=3)
    rng = random.Random(3)
    kept = []
    for _ in range(12):
        kept.append(snapshot(st))
        st.apply(rng.choice(st.legal_moves()))
    assert st.undoable == 5
    for _ in range(5):
        st.undo()
    assert snapshot(st) == kept[-5]
    with pytest.raises(IllegalMoveError, match="no move to undo"):
        st.undo()


# ----------------------------------------------------------------------------- checkpoints and replay
# A move is taken back by replaying the moves since the last checkpoint (State.CHECKPOINT_EVERY):
# these play far past one, so every undo and failed move below replays several moves.
LONG = '''\
game "Long"
players 2
var total = 0
var drawn = []
turn:
    choose c in [0, 1, 2] as "{c}"
    total += c
    add roll(6) to drawn
    log "took {c}, rolled {last(drawn)}"
    if c == 2 and len(drawn) > 20:
        fail "two, late"
    if len(drawn) == 90:
        end game
'''


def long_game(make_game, moves: int):
    st = make_game(LONG).new_state(seed=4)
    rng = random.Random(moves)
    for _ in range(moves):
        st.apply(rng.choice(["0", "1"]))
    return st


def test_a_failed_move_between_checkpoints_leaves_the_state_exactly_as_before(make_game):
    from rulewright.interpreter.state import State
    st = long_game(make_game, State.CHECKPOINT_EVERY * 2 + 5)
    before, events = snapshot(st), st.event_history()
    with pytest.raises(rulewright.RulesRuntimeError, match="two, late"):
        st.apply("2")
    assert snapshot(st) == before and st.event_history() == events
    twin = st.clone()
    st.apply("1")
    twin.apply("1")
    assert snapshot(st) == snapshot(twin)  # the generator went back too: both roll the same


def test_a_change_by_hand_survives_undo_and_a_failed_move(make_game):
    st = long_game(make_game, 23)
    st.vars["total"] = 1000  # a scenario test setting up a position
    changed = snapshot(st)
    st.apply("1")
    st.undo()
    assert snapshot(st) == changed and st.vars["total"] == 1000
    with pytest.raises(rulewright.RulesRuntimeError):
        st.apply("2")
    assert snapshot(st) == changed


def test_a_clone_takes_its_first_moves_back_to_itself(make_game):
    st = long_game(make_game, 9)
    original = snapshot(st)
    clone = st.clone()
    at_clone = snapshot(clone)
    for move in ["1", "0", "1"]:
        clone.apply(move)
    for _ in range(3):
        clone.undo()
    assert snapshot(clone) == at_clone == original and snapshot(st) == original
    with pytest.raises(IllegalMoveError, match="no move to undo"):
        clone.undo()  # a clone takes back only its own moves


def test_a_move_applied_without_atomic_ends_what_undo_can_take_back(make_game):
    st = long_game(make_game, 5)
    assert st.undoable == 5
    st.apply("1", atomic=False)
    assert st.undoable == 0
    with pytest.raises(IllegalMoveError, match="no move to undo"):
        st.undo()
    st.apply("0")
    st.undo()
    assert st.undoable == 0


def test_a_generator_reseeded_by_hand_is_taken_back_to_its_new_seed(make_game):
    st = long_game(make_game, 20)
    trial = st.clone()
    trial.rng.seed(7)  # as a test that looks for the dice it wants does
    reseeded = snapshot(trial)
    for move in ["1", "0", "1"]:
        trial.apply(move)
    for _ in range(3):
        trial.undo()
    assert snapshot(trial) == reseeded


def test_moves_that_take_long_are_checkpointed_sooner(make_game, monkeypatch):
    """A checkpoint comes every CHECKPOINT_EVERY moves, or sooner once the moves since the last one took
    CHECKPOINT_SECONDS: rules whose moves run long cannot make an undo replay for long."""
    from rulewright.interpreter.state import State
    quick = long_game(make_game, 10)
    assert len(quick.undo_log.checkpoints) == 1  # ten tiny moves: one checkpoint, before the first
    monkeypatch.setattr(State, "CHECKPOINT_SECONDS", -1.0)  # every move counts as long
    st = make_game(LONG).new_state(seed=4)
    start = snapshot(st)
    for move in ["1", "0"] * 5:
        st.apply(move)
    assert len(st.undo_log.checkpoints) == 10
    for _ in range(10):
        st.undo()
    assert snapshot(st) == start


def test_the_log_of_moves_stays_bounded_in_a_long_game(make_game, monkeypatch):
    """Undo keeps the last UNDO_KEPT moves: the log behind it (moves and checkpoints) stays within a
    small multiple of that, however long the game."""
    from rulewright.interpreter.engine import undo
    monkeypatch.setattr(undo, "UNDO_KEPT", 5)
    st = long_game(make_game, 80)
    assert st.undoable == 5
    assert len(st.undo_log.moves) <= 2 * 5 + st.CHECKPOINT_EVERY and len(st.undo_log.checkpoints) <= 3
    before = snapshot(st)
    st.apply("1")
    st.undo()
    assert snapshot(st) == before


def test_moves_are_replayed_as_the_option_chosen_not_by_their_text(make_game):
    """Two options may share a text (an 'optional' one and an item) and a text may start with a space:
    a move taken back by replay is the very option chosen, found by its place, never by its text."""
    game = make_game('''
        game "Texts"
        players 2
        var got = []
        turn:
            choose c in ["pass", "go"] optional "pass"
            choose d in ["b", "a"] as " {d}"
            add [c, d] to got
            if len(got) > 40:
                end game
        ''')
    st = game.new_state(seed=1)
    start = snapshot(st)
    assert [m.text for m in st.legal_moves()] == ["pass", "go", "pass"]
    st.apply(3)  # the optional pass: none
    st.apply(2)  # ' a'
    after = snapshot(st)
    st.apply(1)
    st.undo()  # replays the two moves before it from the checkpoint at the start
    assert snapshot(st) == after and st.vars["got"] == [[None, "a"]]
    st.undo()
    st.undo()
    assert snapshot(st) == start


def test_a_draw_by_hand_between_moves_is_kept_by_undo(make_game):
    st = long_game(make_game, 3)
    st.rng.random()  # a script's agent drawing with the game's generator
    drawn = snapshot(st)
    st.apply("1")
    st.undo()
    assert snapshot(st) == drawn


def test_a_search_by_apply_and_undo_replays_nothing(make_game, monkeypatch):
    """After an undo, each move takes a checkpoint: python-chess's push and pop cost no replay."""
    from rulewright.interpreter.state import State
    st = long_game(make_game, 20)
    st.apply("1")
    st.undo()  # the first undo replays (the last checkpoint is some moves back)
    replayed = []
    choose = State._choose
    monkeypatch.setattr(State, "_choose", lambda self, p, o: (replayed.append(o.text), choose(self, p, o)))
    for first in ("0", "1"):
        st.apply(first)
        for second in ("0", "1"):
            st.apply(second)
            st.undo()
        st.undo()
    assert replayed == ["0", "0", "1", "1", "0", "1"]  # the six moves applied, none replayed
