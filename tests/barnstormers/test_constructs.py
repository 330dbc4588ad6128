"""The constructs Barnstormers brought to the language, each on its own, in small games written
here: shapes laid on a grid (shape_placements, shape_matches, shape_missing), a push chain carried by a while
loop, and cards played "at any time in this step" by a choice loop beside the step's actions."""
from __future__ import annotations

import pytest

from rulewright.dsl.errors import RulesCompileError, RulesRuntimeError
from rulewright.interpreter.engine import machine
from rulewright.interpreter.boards.shapes import orientations, shape_cells

SHAPES = '''
game "Shapes"
players 1
option symmetry: all | rotations | fixed
board field: grid 4 by 4 headings e ne n nw w sw s se
var found = []
var held = ["A1", "A2", "B1", "C3"]
turn:
    found = [shape_placements("xx", symmetry), shape_placements("xxx/x..", symmetry), shape_matches("xx", held, symmetry), shape_matches("x./.x", held, symmetry), shape_placements([[0, 0], [0, 1]], symmetry)]
    end game
'''


def _found(make_game, symmetry):
    st = make_game(SHAPES, options={"symmetry": symmetry}).new_state(seed=1)
    return st.vars["found"]


@pytest.mark.parametrize("symmetry, dominoes, ells", [("fixed", 12, 6), ("rotations", 24, 24), ("all", 24, 48)])
def test_shape_placements_counts(make_game, symmetry, dominoes, ells):
    pairs, ell, _m1, _m2, listed = _found(make_game, symmetry)
    assert len(pairs) == dominoes              # 4 rows x 3, and as many columns x 3 when turned
    assert len(ell) == ells                    # an L of four: 6 places for each of its orientations
    assert listed == pairs                     # [row, column] offsets draw the same shape
    assert len({tuple(p) for p in ell}) == len(ell)


def test_shape_placements_read_from_the_top_row_down(make_game):
    pairs, ell, *_ = _found(make_game, "fixed")
    assert ["A1", "A2"] in pairs and ["A1", "B1"] not in pairs
    # "xxx/x.." as drawn: three across the top, one under the left end
    assert ["A1", "B1", "B2", "B3"] in ell and ["A1", "A2", "A3", "B1"] not in ell


def test_shape_matches_only_the_given_spaces(make_game):
    _p, _e, pairs, diagonal, _l = _found(make_game, "all")
    assert pairs == [["A1", "A2"], ["A1", "B1"]]
    assert diagonal == [["A2", "B1"]]
    _p, _e, pairs, diagonal, _l = _found(make_game, "fixed")
    assert pairs == [["A1", "A2"]]             # only the shape as drawn
    assert diagonal == [["A2", "B1"]]          # "x./.x" falls to the right, as B1-A2 does


def test_shape_matches_are_the_placements_within_the_spaces_in_their_order(make_game):
    """shape_matches tests each placement in C and sorts only what it found: on random sets of spaces
    (with repeats and a stranger), always the placements whose every space is given, in the order
    shape_placements lists them."""
    import random
    from rulewright.interpreter.boards import shapes
    board = make_game(SHAPES, options={"symmetry": "all"}).compiled.board
    spaces, rng = list(board.spaces), random.Random(5)
    many = 0
    for _ in range(400):
        shape = rng.choice(["xx", "x./.x", "xxx/x..", "x.x/.x.", "xx/xx", "x", [[0, 0], [2, 1]]])
        symmetry = rng.choice(["all", "rotations", "fixed"])
        held = rng.sample(spaces, rng.randrange(len(spaces))) + rng.sample(spaces, 2) + ["Z9"]
        expected = [p for p in shapes.placements(board, shape, symmetry) if set(p) <= set(held)]
        assert shapes.matches(board, shape, held, symmetry) == expected
        many += len(expected) > 1
    assert many > 100


MISSING = '''
game "Near"
players 1
board field: grid 4 by 4 headings e ne n nw w sw s se
var near = []
turn:
    near = [shape_missing("xxx", ["A1", "A3"]), shape_missing("xxx", ["A1", "A2", "A3"]),
            shape_missing("xxx", []), shape_missing("x.x/.x.", ["B2", "C3"]), shape_missing("xxxxx", ["A1"]),
            shape_missing("xx", ["A1"], "fixed")]
    end game
'''


def test_shape_missing_counts_the_spaces_a_placement_lacks(make_game):
    """The fewest spaces of any placement of the shape not among those given; none when the shape fits
    nowhere on the board (five in a row on a grid of four)."""
    assert make_game(MISSING).new_state(seed=1).vars["near"] == [1, 0, 3, 1, None, 1]


def test_shape_missing_is_the_fewest_over_every_placement(make_game):
    """Worked out on bits (each space's placements a number): on random sets of spaces, always what
    counting every placement gives."""
    import random
    from rulewright.interpreter.boards import shapes
    board = make_game(SHAPES, options={"symmetry": "all"}).compiled.board
    spaces, rng = list(board.spaces), random.Random(6)
    for _ in range(400):
        shape = rng.choice(["xx", "x./.x", "xxx/x..", "x.x/.x.", "xx/xx", "x", "xxxx", [[0, 0], [2, 1]]])
        symmetry = rng.choice(["all", "rotations", "fixed"])
        held = rng.sample(spaces, rng.randrange(len(spaces))) + rng.sample(spaces, 2) + ["Z9"]
        laid = shapes.placements(board, shape, symmetry)
        assert shapes.missing(board, shape, held, symmetry) == min(len(set(p) - set(held)) for p in laid)


def test_orientations_dedupe_symmetric_shapes():
    assert len(orientations(shape_cells("xx/xx"), "all")) == 1
    assert len(orientations(shape_cells(".x./xxx/.x."), "all")) == 1
    assert len(orientations(shape_cells("x.x/.x."), "all")) == 4
    assert len(orientations(shape_cells("xx./.xx"), "rotations")) == 2
    assert len(orientations(shape_cells("xx./.xx"), "all")) == 4


@pytest.mark.parametrize("call, message", [
    ('shape_placements("xx", "mirrors")', "symmetry is one of fixed, rotations, all"),
    ('shape_placements("...")', "has no cells"),
    ('shape_placements([[0, 0], [1]])', "[row, column] pair"),
    ("shape_placements(3)", "a shape is a picture"),
])
def test_shape_errors(make_game, call, message):
    g = make_game(f'''
        game "Bad shape"
        players 1
        board field: grid 3 by 3
        var x = 0
        turn:
            x = len({call})
            end game
        ''')
    with pytest.raises(RulesRuntimeError, match=message.replace("[", r"\[").replace("]", r"\]")):
        g.new_state(seed=1)


def test_shapes_need_a_grid(make_game):
    """The board kind says which functions it has: a graph has no shapes, and the checker says so."""
    with pytest.raises(RulesCompileError) as err:
        make_game('''
            game "Graph shape"
            players 1
            board route: graph
                a -> b
            var x = 0
            turn:
                x = len(shape_placements("xx"))
                end game
            ''')
    assert str(err.value) == (
        "test.rules:7:13: error: 'shape_placements' does not work on board 'route', which is a graph\n"
        "        x = len(shape_placements(\"xx\"))\n"
        "                ^\n"
        "  hint: a graph has: neighbours, next, previous, spaces")


# ---------------------------------------------------------------- push chains
PUSHES = '''
game "Pushes"
players 2
board air: grid 4 by 4 headings e ne n nw w sw s se
record piece(id, owner, heading)
var pieces = {}
var last_chain = 0
player var home = 0

# A piece arrives at x (none: off the board); whoever was there is pushed along its own heading.
procedure enter(arriving, x):
    let carried = arriving
    let at = x
    let moved = 0
    while carried != none:
        moved += 1
        if at == none:
            carried.owner.home += 1
            carried = none
        else:
            let bumped = pieces[at]
            pieces[at] = carried
            carried = bumped
            if carried != none:
                at = step(at, carried.heading)
    return moved

turn:
    choose x in air where pieces[x] != none and pieces[x].owner == me as "push {x}" optional "pass"
    if x != none:
        let mover = pieces[x]
        pieces[x] = none
        last_chain = enter(mover, step(x, mover.heading))
end when round_number == 5 after round
'''


def _pushes(make_game, layout):
    st = make_game(PUSHES).new_state(seed=1)
    st.vars["pieces"] = {x: {"id": i, "owner": o, "heading": h} for i, (x, (o, h)) in enumerate(layout.items())}
    st.frames[-1].pc -= 1         # ask the first decision again, over the pieces just laid
    st.pending = None
    machine.run(st)
    return st


def _where(st):
    return {x: (p["owner"], p["heading"]) for x, p in st.vars["pieces"].items() if p is not None}


def test_push_chain_runs_along_each_pieces_own_heading(make_game):
    st = _pushes(make_game, {"A1": (1, "e"), "A2": (2, "n"), "B2": (2, "e"), "B3": (2, "e")})
    st.apply("push A1")
    assert _where(st) == {"A2": (1, "e"), "B2": (2, "n"), "B3": (2, "e"), "B4": (2, "e")}
    assert st.vars["last_chain"] == 4


def test_push_chain_off_the_board_sends_pieces_home(make_game):
    st = _pushes(make_game, {"A1": (1, "e"), "A2": (2, "e"), "A3": (2, "e"), "A4": (2, "e")})
    st.apply("push A1")
    assert _where(st) == {"A2": (1, "e"), "A3": (2, "e"), "A4": (2, "e")}
    assert st.vars["home"] == [0, 1] and st.vars["last_chain"] == 4


def test_push_chain_that_turns_back_on_itself(make_game):
    # B1's piece is pushed north into C1, whose piece comes back south onto B1, where the mover
    # now is: the mover goes on north into C1, and pushes B1's old piece on to D1.
    st = _pushes(make_game, {"A1": (1, "n"), "B1": (2, "n"), "C1": (2, "s")})
    st.apply("push A1")
    assert _where(st) == {"B1": (2, "s"), "C1": (1, "n"), "D1": (2, "n")}
    assert st.vars["last_chain"] == 5 and st.vars["home"] == [0, 0]


# ---------------------------------------------------------------- any time in this step
ANY_TIME = '''
game "Any time"
players 2
player var hand = ["boost", "spare"]
player var score = 0
var actions = 0
var played = 0

turn:
    step "perform":
        actions = 2
        played = 0
        while actions > 0 or (played < 1 and len(me.hand) > 0):
            choose:
                "act" if actions > 0:
                    actions -= 1
                    me.score += 1
                "play a card" if played < 1 and len(me.hand) > 0:
                    choose c in me.hand as "play {c}"
                    played += 1
                    remove c from me.hand
                    me.score += 10
                "end the step" if actions == 0:
                    break
    step "after":
        me.score += 100
end when round_number == 2 after round
'''


def _texts(st):
    return [m.text for m in st.legal_moves()]


def test_a_card_before_between_or_after_the_actions(make_game):
    g = make_game(ANY_TIME)
    st = g.new_state(seed=1)
    assert _texts(st) == ["act", "play a card"]                  # before
    st.apply("act")
    st.apply("play a card")                                      # between
    assert _texts(st) == ["play boost", "play spare"]
    st.apply("play spare")
    assert _texts(st) == ["act"]                                 # one card a step
    st.apply("act")
    assert st.vars["score"] == [112, 0] and st.to_move() == [2]  # the step ended by itself
    st.apply("act")
    st.apply("act")
    assert _texts(st) == ["play a card", "end the step"]         # after, or not at all
    st.apply("end the step")
    assert st.vars["score"][1] == 102 and st.vars["hand"][1] == ["boost", "spare"]


def test_a_let_reads_the_constant_its_name_shadows(make_game):
    """Met writing the push chains: 'let n = enter(piece(me, n), x)' read the local n, not the
    heading n, because the name became a local before its value was compiled."""
    g = make_game('''
        game "Shadow"
        players 1
        board b: grid 3 by 3 headings e n w s
        var seen = []
        procedure twice(h):
            return [h, h]
        turn:
            let n = [n]
            let w = twice(w)
            seen = n + w
            end game
        ''')
    assert g.new_state(seed=1).vars["seen"] == ["n", "w", "w"]
