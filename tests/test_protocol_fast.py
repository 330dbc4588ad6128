"""The lean decision protocol: one move numbering (from 1) for every path, the integer fast path
(legal_actions / apply_action), Moves made per decision, and cheap clones (the generator copied on the
first draw, the rules' data copied by marshal)."""
from __future__ import annotations

import pickle
import random

import pytest

import rulewright
from rulewright.dsl.errors import IllegalMoveError, RulesRuntimeError
from rulewright.interpreter.engine.state import Generator, Move

DICE = 'game "Dice"\nplayers 2\nvar total = 0\nvar pool = [1, 2, 3, 4, 5, 6]\n' """
turn:
    choose k in pool where k > total % 3 as "take {k}"
    total += k + random(pool)
    if total > 30:
        end game
"""

SECRET_BIDS = 'game "T"\nplayers 3\nplayer var bid = 0\n' """
round:
    each p in players secretly choose b in [1, 2, 3] as "bid {b}":
        reveal b as "{p} bids {b}"
        bid[p] = b
    end game
"""


def _connect_four_with_full_column():
    """Connect Four with the first column full: the moves are "2".."7", numbered 1 to 6, so no move's
    text is its number."""
    st = rulewright.load("connect-four").new_state(seed=1)
    for _ in range(6):
        st.apply("1")
    assert [m.text for m in st.legal_moves()] == ["2", "3", "4", "5", "6", "7"]
    return st


def test_a_moves_index_applies_that_move():
    st = _connect_four_with_full_column()
    moves = st.legal_moves()
    assert [m.index for m in moves] == list(range(1, 7))
    for k, m in enumerate(moves):
        by_index, by_move = st.clone(), st.clone()
        by_index.apply(moves[k].index)
        by_move.apply(m)
        assert by_index.to_json() == by_move.to_json()
        assert by_index.event_history()[-1]["move"] == m.text


def test_a_number_is_a_move_number_and_a_text_a_text_first():
    st = _connect_four_with_full_column()
    by_number, by_text, typed = st.clone(), st.clone(), st.clone()
    by_number.apply(3)        # the third move: column 4
    by_text.apply("3")        # the move whose text is "3": column 3
    typed.apply(" 1 ")        # no move has the text "1": the first move, column 2 (as at the prompt)
    assert [s.event_history()[-1]["move"] for s in (by_number, by_text, typed)] == ["4", "3", "2"]


def test_legal_actions_number_the_legal_moves_and_build_no_move():
    st = _connect_four_with_full_column().clone()  # a clone: no legal_moves() asked of it yet
    actions = st.legal_actions()
    st.apply_action(actions[0], atomic=False)
    actions = st.legal_actions()
    assert st._legal.moves is None  # no Move made on the integer path
    assert actions == [m.index for m in st.legal_moves()]
    assert st.to_move() == [2] and st.legal_actions(2) == [m.index for m in st.legal_moves(2)]
    assert st.legal_actions(1) == [] and st.legal_moves(1) == []


@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four"])
def test_apply_action_plays_like_apply(name):
    game = rulewright.load(name)
    rng = random.Random(7)
    for seed in range(3):
        fast, slow = game.new_state(seed=seed), game.new_state(seed=seed)
        while not fast.is_over():
            actions = fast.legal_actions()
            a = actions[rng.randrange(len(actions))]
            fast.apply_action(a)
            slow.apply(slow.legal_moves()[a - 1])
            assert fast.to_json() == slow.to_json()
        assert slow.is_over() and fast.outcome() == slow.outcome()


def test_apply_action_in_a_simultaneous_decision(make_game):
    st = make_game(SECRET_BIDS).new_state(1)
    assert st.legal_actions(2) == [1, 2, 3]
    st.apply_action(3, player=2)
    assert st.to_move() == [1, 3]
    st.apply_action(1, player=1)
    st.apply_action(2, player=3)
    assert st.is_over() and st.vars["bid"] == [1, 3, 2]


@pytest.mark.parametrize("bad", [0, 8, -1, "1", 1.0, True, None])
def test_a_wrong_action_is_refused_and_changes_nothing(bad):
    st = _connect_four_with_full_column()
    before = st.to_json()
    with pytest.raises(IllegalMoveError, match="numbered 1 to 6"):
        st.apply_action(bad)
    assert st.to_json() == before


@pytest.mark.parametrize("bad", [0, 7, -3])
def test_a_wrong_move_number_is_refused(bad):
    st = _connect_four_with_full_column()
    before = st.to_json()
    with pytest.raises(IllegalMoveError, match="no move number"):
        st.apply(bad)
    assert st.to_json() == before


def test_no_action_when_the_game_is_over():
    st = rulewright.load("tic-tac-toe").new_state(seed=0)
    while not st.is_over():
        st.apply_action(st.legal_actions()[0])
    assert st.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        st.apply_action(1)


def test_moves_are_values_that_pickle_and_print():
    st = _connect_four_with_full_column()
    m = st.legal_moves()[1]
    assert (m.player, m.text, m.index, str(m)) == (1, "3", 2, "3")
    assert repr(m) == "Move(player=1, text='3', index=2)"
    assert pickle.loads(pickle.dumps(m)) == m and type(pickle.loads(pickle.dumps(m))) is Move
    assert st.legal_moves() == st.legal_moves() and st.legal_moves() is not st.legal_moves()


def test_a_changed_list_of_moves_does_not_spoil_the_next():
    st = _connect_four_with_full_column()
    mine = st.legal_moves()
    mine.reverse()
    assert [m.index for m in st.legal_moves()] == list(range(1, 7))


# ---------------------------------------------------------------- the generator, copied lazily

def _draws(g: random.Random, n: int = 5) -> list:
    return [g.randrange(1000) for _ in range(n)]


@pytest.mark.parametrize("first", ["fork", "source"])
def test_a_fork_draws_what_a_copy_would(first):
    source = Generator(42)
    _draws(source, 3)
    copy = random.Random()
    copy.setstate(source.getstate())
    fork = source.fork()
    assert fork.getstate() == source.getstate()  # read without copying
    expected = _draws(copy)
    if first == "fork":
        assert _draws(fork) == expected
        assert _draws(source) == expected  # the source is untouched by its fork's draws
    else:
        assert _draws(source) == expected
        assert _draws(fork) == expected    # the source handed its old state over before drawing


def test_forks_of_forks_and_reseeding():
    source = Generator(5)
    a = source.fork()
    b = a.fork()  # a fork of a fork shares the same source
    expected = _draws(random.Random(5))
    source.seed(99)  # a new state for the source: the forks keep the old one
    assert _draws(b) == expected and _draws(a) == expected
    assert _draws(source) == _draws(random.Random(99))
    c = source.fork()
    c.setstate(random.Random(3).getstate())
    assert _draws(c) == _draws(random.Random(3))
    assert _draws(source, 2) == _draws(random.Random(99), 7)[5:]


def test_a_fork_pickles_in_its_state():
    source = Generator(11)
    fork = source.fork()
    _draws(source)
    again = pickle.loads(pickle.dumps(fork))
    assert _draws(again) == _draws(random.Random(11))


def test_a_source_forked_many_times_keeps_one_state_for_them_all():
    """A source keeps no list of its forks (a search drops its clones at once): the forks made between
    two of its draws share one cell, which its next draw fills with its state of before, once."""
    source = Generator(1)
    forks = [source.fork() for _ in range(10_000)]
    assert len({id(f._cell) for f in forks}) == 1 and forks[0]._cell == [None]
    expected = _draws(random.Random(1))
    assert _draws(source) == expected
    assert forks[0]._cell[0] is not None and source._cell is None
    assert _draws(forks[0]) == _draws(forks[-1]) == expected
    later = source.fork()
    assert later._cell is not forks[1]._cell and _draws(forks[1]) == expected != _draws(later)


def test_clones_draw_like_the_original(make_game):
    game = make_game(DICE)
    st = game.new_state(seed=3)
    st.apply(st.legal_moves()[0])
    twin = st.clone()
    a = st.clone()
    a.apply(a.legal_moves()[0])      # the clone draws first
    st.apply(st.legal_moves()[0])    # then the original
    twin.apply(twin.legal_moves()[0])
    assert a.to_json() == st.to_json() == twin.to_json()


def test_a_failed_move_puts_a_forked_generator_back(make_game):
    game = make_game(DICE.replace("total += k + random(pool)", "total += k + random(pool)\n    if total > 9:\n        total += pool[total]"))
    st = game.new_state(seed=3)
    rng = random.Random(0)
    for _ in range(40):
        if st.is_over():
            break
        clone = st.clone()
        before = clone.to_json()
        try:
            clone.apply_action(rng.choice(clone.legal_actions()))
        except RulesRuntimeError:
            assert clone.to_json() == before
            assert clone.rng.getstate() == st.rng.getstate()
            return
        st = clone
    pytest.fail("the rules never failed")


ROWS = 'game "Rows"\nplayers 2\nvar rows = [[1], [2]]\n' """
turn:
    for r in rows:
        choose k in [5, 6] as "{k}"
        add k to r
    end game
"""


def test_a_clone_keeps_a_local_and_the_game_sharing_a_list(make_game):
    """A loop's local holds one of the game's lists: in the copy it holds the copy's list."""
    st = make_game(ROWS).new_state(seed=1)
    clone = st.clone()
    (local,) = [v for f in clone.frames for k, v in f.locals.items() if k == "r"]
    assert local is clone.vars["rows"][0] and local is not st.vars["rows"][0]
    clone.apply("6")
    clone.apply("5")
    assert clone.vars["rows"] == [[1, 6], [2, 5]] and st.vars["rows"] == [[1], [2]]


FILL = 'game "Fill"\nplayers 2\nboard grid: grid 6 by 6\nvar marks = {}\n' """
turn:
    choose cell in grid where marks[cell] == none
    marks[cell] = me
    if len(marks) == 36:
        end game
"""


def test_the_table_of_moves_stays_bounded(make_game, monkeypatch):
    from rulewright.interpreter.engine import state as state_module
    monkeypatch.setattr(state_module, "_MOVES", {})
    monkeypatch.setattr(state_module, "_MOVES_KEPT", 50)
    st = make_game(FILL).new_state(seed=1)
    made = 0
    while not st.is_over():
        moves = st.legal_moves()
        assert [m.index for m in moves] == list(range(1, len(moves) + 1))
        assert [m.text for m in moves] == [o.text for o in st.pending.options[st.to_move()[0]]]
        made += len(moves)
        st.apply(moves[-1].index)
    assert made > 600 and len(state_module._MOVES) == 50


@pytest.mark.parametrize("rules", [SECRET_BIDS, ROWS])
def test_clone_and_undo_keep_every_field_of_the_pending_decision(make_game, rules):
    """A clone and an undone move give back the pending decision whole, field by field (the clone and
    the snapshot build it field by field, not through attrs.evolve)."""
    import attrs
    st = make_game(rules).new_state(seed=1)
    first = st.legal_moves()[0]
    st.apply(first)  # a simultaneous decision: one player has chosen; else the loop's next decision
    fields = attrs.asdict(st.pending, recurse=True)
    assert attrs.asdict(st.clone().pending, recurse=True) == fields
    st.apply(st.legal_moves()[0])
    st.undo()
    assert attrs.asdict(st.pending, recurse=True) == fields


LIST_OPTIONS = '''game "Lists"
players 2
var kept = []
turn:
    choose pair in [[1, 2], [3, 4]]
    add 9 to pair
    kept = kept + [pair]
    if len(kept) >= 4:
        end game
'''
NUMBER_OPTIONS = '''game "Numbers"
players 2
var total = 0
turn:
    choose n in [1, 2, 3]
    total += n
    if total >= 9:
        end game
'''


def test_a_clone_copies_option_values_a_move_can_change(make_game):
    """A clone shares a decision whose options are numbers or texts, and copies options that are lists:
    the move the clone makes, and what its rules do to the chosen list, leave the original's as they were."""
    st = make_game(LIST_OPTIONS).new_state(seed=1)
    copy = st.clone()
    assert copy.pending is not st.pending
    copy.apply(copy.legal_moves()[0])
    assert copy.vars["kept"] == [[1, 2, 9]]
    assert [o.value for o in st.pending.options[1]] == [[1, 2], [3, 4]]
    st.apply(st.legal_moves()[1])
    assert st.vars["kept"] == [[3, 4, 9]] and copy.vars["kept"] == [[1, 2, 9]]

    numbers = make_game(NUMBER_OPTIONS).new_state(seed=1)
    twin = numbers.clone()
    assert twin.pending is numbers.pending  # nothing in it changes: shared, not rebuilt
    twin.apply(twin.legal_moves()[2])
    numbers.apply(numbers.legal_moves()[0])
    assert (twin.vars["total"], numbers.vars["total"]) == (3, 1)
    assert [m.text for m in twin.legal_moves()] == [m.text for m in numbers.legal_moves()] == ["1", "2", "3"]
    twin.undo()
    assert twin.vars["total"] == 0 and twin.pending is not None and numbers.vars["total"] == 1


def test_a_clone_takes_the_data_and_the_original_takes_a_copy_back(make_game):
    """A clone holds the original's own lists (no second copy); the original, touched again in any way,
    takes its copy back from the snapshot: equal to what it was, independent of the clone, its class
    and its methods as before."""
    from rulewright.interpreter.state import State
    st = make_game(ROWS).new_state(seed=1)
    st.apply("6")
    rows = st._vars["rows"]
    saved = st.to_json()
    clone = st.clone()
    assert clone._vars["rows"] is rows  # taken, not copied
    assert type(st) is not State and st.__class__ is State  # lent; any touch (this one) takes it back
    assert type(st) is State and st._vars["rows"] is not rows and st._vars["rows"] == rows
    clone.apply("5")
    assert st.to_json() == saved and rows == [[1, 6], [2, 5]]
    st.apply("6")
    assert st.vars["rows"] == [[1, 6], [2, 6]] and clone.vars["rows"] == [[1, 6], [2, 5]]
    # every way to touch it takes it back first: a write, a save, repr, a second clone, an undo
    for touch in (lambda s: setattr(s, "step", s.step), lambda s: s.to_json(),
                  repr, lambda s: s.clone(), lambda s: s.undo()):
        st = make_game(ROWS).new_state(seed=1)
        st.apply("6")
        before = st.to_json()
        st.clone().apply("5")
        touch(st)  # (a clone lends the data out again: the next touch takes it back again)
        assert st.__class__ is State and type(st) is State
        if st.undoable:
            assert st.to_json() == before
            st.apply("6")
            assert st.vars["rows"] == [[1, 6], [2, 6]]
        else:  # undone
            assert st.vars["rows"] == [[1], [2]]


def test_a_clone_copies_the_variables_a_caller_holds(make_game):
    """Variables handed out through ``vars`` stay the original's: the clone gets copies."""
    st = make_game(ROWS).new_state(seed=1)
    held = st.vars
    clone = st.clone()
    assert clone.vars["rows"] is not held["rows"]
    clone.apply("5")
    assert held["rows"] == [[1], [2]] and st.vars is held
