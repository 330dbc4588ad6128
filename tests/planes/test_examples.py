"""The rulebook's worked examples. Example Move, Boarding Example, Example Blockage and Example Goal are
played at real positions of seeded games where the example's situation stands (its own colours and
spaces cannot all be reached by a seed; the same cubes, spaces ahead and choices are); Example Scoring
is the end of a real game with the example's numbers; the whole three-player Game Example is played
turn by turn from the real setup with the example's hands and deck order set, which no seed deals
(docs/games/planes.md, assumption 41).

Flying Cloud: from the centre C one arrow to P4 P1 P2 S1 S2 S3, the other to S4 S5 S6 S7 S8 S9; both
ways lead on to P3, and P3 back to C. Gates beside S1 (G1), S5 (G2), S4 (G3), S8 (G4), and the grey
neutral gates beside S6 (N1) and P1 (N2). Points of interest: help desk C S7, fast food P4 P1 P2 S9,
restroom S1 S4 S5 S8 (in front of the four major gates), gift shop S2 S6, fine dining S3, blank P3."""
from __future__ import annotations

from collections import Counter

from rulewright.interpreter.testing import reach, refresh, texts

from .helpers import ARROWS, CARDS, game, play, set_board, set_hand, spec, stack_deck, start


# ---- the examples at real positions: each reached by a seeded game (the seed found by a search over
# seeds 0-29 when the test was written), then played as the example tells
PLAIN = {"backwards": False, "own_only": False, "no_neutrals": False, "ignore_blockages": False, "skip": False}


def at_a_plain_move(st):
    return st.step == "move" and st.vars["mode"] == PLAIN and all(m.text.startswith("move ") for m in st.legal_moves())


def ahead(st, space, n):
    """The ``n`` spaces after ``space`` where each has one arrow out (no choice, no gate beside), or None."""
    path, arrows = [], ARROWS[st.game.options["airport"]]
    for _ in range(n):
        if len(arrows.get(space, [])) != 1:
            return None
        space = arrows[space][0]
        path.append(space)
    return path if not set(path) & set(st.vars["cones"]) else None


def sources(st, wanted):
    """The spaces the mover may move from whose cubes are ``wanted(cubes, colour)``."""
    (p,), v = st.to_move(), st.vars
    return [m.text[5:] for m in st.legal_moves() if wanted(Counter(v["cubes"][m.text[5:]]), v["colour"][p - 1])]


def move_example(st):
    """Example Move's start: a space with two cubes of the mover's party and a neutral, three single
    arrows ahead."""
    return at_a_plain_move(st) and any(ahead(st, s, 3) for s in sources(
        st, lambda cubes, me: cubes == Counter({me: 2, "grey": 1})))


def test_example_move():
    """Example Move: "Red picks up ALL the cubes in that space. This includes 2 red cubes and a neutral
    cube. ... She places 1 red cube in the next space, then the neutral cube in the space after that,
    and the last red cube in the space after that." (She could stop after the first space.) At a real
    position of a 2-player game (seed 0) with such a space."""
    st = reach(game(2), move_example, seeds=[0]).state
    (p,), v = st.to_move(), st.vars
    me = v["colour"][p - 1]
    (src,) = [s for s in sources(st, lambda cubes, me: cubes == Counter({me: 2, "grey": 1})) if ahead(st, s, 3)]
    first, second, third = ahead(st, src, 3)
    before = {s: Counter(v["cubes"][s]) for s in (first, second, third)}
    play(st, f"move {src}")
    assert v["cubes"][src] == [] and "stop" in texts(st)          # ALL the cubes were picked up
    play(st, f"drop {me}")
    assert "stop" in texts(st)
    play(st, "drop grey")                                           # the last cube goes on by itself
    gained = {s: Counter(v["cubes"][s]) - before[s] for s in (first, second, third)}
    assert gained == {first: Counter([me]), second: Counter(["grey"]), third: Counter([me])}
    assert st.step == "goal"                                        # the Move Phase is over


def boarding_example(st):
    """The Boarding Example's start: a space with one cube of the mover's party, one of another party
    and a neutral; single arrows to the next space and the one after, the mover's open plane beside
    that second space."""
    return at_a_plain_move(st) and any(boarding(st, s) for s in sources(st, lambda cubes, me: True))


def boarding(st, space):
    """(the two spaces entered, the other party's colour, the gate) where ``space`` starts the example."""
    v, (p,) = st.vars, st.to_move()
    me, cubes, arrows = v["colour"][p - 1], Counter(v["cubes"][space]), ARROWS[st.game.options["airport"]]
    others = [c for c in cubes if c not in (me, "grey", *v["neutrals"])]
    if sum(cubes.values()) != 3 or cubes[me] != 1 or cubes["grey"] != 1 or not others:
        return None
    for first in arrows.get(space, []):
        for second in arrows.get(first, []):
            gates = [g for g in arrows.get(second, []) if v["planes"].get(g) == me and v["load"][g] < 5]
            if gates and not {first, second} & (set(v["planes"]) | set(v["cones"])):
                return (first, second), others[0], gates[0]
    return None


def test_boarding_example():
    """Boarding Example: "Blue picks up 3 active cubes in this space (1 blue, 1 red, and 1 neutral). She
    drops 1 neutral in the next space and 1 red in the space after that. This leaves her 1 blue cube,
    which she can move into the blue gate ... moves the boarding token 1 space forward." At a real
    position of a 2-player game (seed 0) with such a space: the two cubes dropped, the last one on the
    plane, the boarding token one space on."""
    st = reach(game(2), boarding_example, seeds=[0]).state
    (p,), v = st.to_move(), st.vars
    me = v["colour"][p - 1]
    src = [s for s in sources(st, lambda cubes, me: True) if boarding(st, s)][0]
    (first, second), other, gate = boarding(st, src)
    before = {s: Counter(v["cubes"][s]) for s in (first, second)}
    track, load, boarded = v["track"], v["load"][gate], v["boarded"][me]
    for move in (f"move {src}", f"to {first}", "drop grey", f"to {second}", f"drop {other}"):
        if not move.startswith("to ") or move in texts(st):     # an arrow chosen where there are two
            play(st, move)
    assert f"to {gate}" in texts(st)                       # the last cube, of the gate's colour
    play(st, f"to {gate}")
    assert {s: Counter(v["cubes"][s]) - before[s] for s in (first, second)} == \
        {first: Counter(["grey"]), second: Counter([other])}
    assert (v["load"][gate], v["boarded"][me], v["track"]) == (load + 1, boarded + 1, track + 1)


def blockage_example(st):
    """The Example Blockage's start: a space with two cubes of the mover's party and one of another
    party (two_and_one), the next space holding six party cubes."""
    if not at_a_plain_move(st):
        return False
    return any(blockage_ahead(st, s) for s in sources(st, two_and_one))


def two_and_one(cubes, me):
    """Two cubes of the mover's party and one of another party."""
    return cubes[me] == 2 and sum(cubes.values()) == 3 and len(cubes) == 2 and "grey" not in cubes


def blockage_ahead(st, space):
    path = ahead(st, space, 2)
    return path if path and sum(c != "grey" for c in st.vars["cubes"][path[0]]) == 6 else None


def test_example_blockage():
    """Example Blockage: "Yellow picks up 3 active cubes (2 yellow and 1 blue). He drops 1 blue cube in
    the next space, which causes a blockage to form in that space because it now contains 7 party
    cubes. ... Yellow continues his move" past it with the rest. At a real position of a 3-player game
    (seed 1) with such a space: the cone on the space dropped on, the two cubes going on beyond it."""
    st = reach(game(3), blockage_example, seeds=[1]).state
    (p,), v = st.to_move(), st.vars
    me = v["colour"][p - 1]
    (src,) = [s for s in sources(st, two_and_one) if blockage_ahead(st, s)]
    other = [c for c in v["cubes"][src] if c != me][0]
    first, second = ahead(st, src, 2)
    before = Counter(v["cubes"][second])
    play(st, f"move {src}", f"drop {other}")
    assert first in v["cones"]                                    # seven party cubes: a blockage
    assert texts(st) == [f"drop {me}", "stop"]                   # on beyond it with the two
    play(st, "stop")
    assert Counter(v["cubes"][second]) - before == Counter({me: 2})


def two_goals(st):
    """The Example Goal's start: a Goal Phase where two goals of different VP are offered."""
    goals = [m.text for m in st.legal_moves() if m.text.startswith("goal ")]
    return st.step == "goal" and len({VP[g[5:]] for g in goals}) >= 2


VP = {goal: vp for goal, vp in CARDS.values()}


def test_example_goal():
    """Example Goal: "Red can play a card from her hand as a goal: either Gift Shop or a Restroom ... She
    decides to play the Gift Shop goal, since it is worth more victory points." (one goal a turn). At
    a real Goal Phase of a 2-player game (seed 0) where two goals of different VP are offered: the
    richer one scored, the other still in hand, the turn over."""
    st = reach(game(2), two_goals, seeds=[0]).state
    (p,), v = st.to_move(), st.vars
    offered = [m.text[5:] for m in st.legal_moves() if m.text.startswith("goal ")]
    best = max(offered, key=VP.get)
    card = [c for c in v["hand"][p - 1] if CARDS[c][0] == best][0]
    hand, goals = Counter(v["hand"][p - 1]), list(v["goals"][p - 1])
    play(st, f"goal {best}")
    assert v["goals"][p - 1] == goals + [card]
    assert Counter(v["hand"][p - 1]) == hand - Counter([card])      # the other goal stays in hand
    assert st.to_move() != [p]                                       # the turn is over after one goal


def test_example_scoring_27_vp():
    """Example Scoring: "Red has 7 VP from goal cards and 4 red party cubes boarded on her plane (4 x 5
    = 20 VP). So, her total is 27 VP." The end of a real 4-player game (seed 53, found by a search over
    seeds 0-149 for an end with these numbers): player 2 scored goals worth 1 + 1 + 2 + 1 + 2 = 7 VP
    and boarded 4 cubes of its colour."""
    found = reach(game(4), lambda st: st.is_over(), seeds=[53])
    v, out = found.state.vars, found.state.outcome()
    colour = v["colour"][1]
    assert sum(CARDS[c][1] for c in v["goals"][1]) == 7 and v["boarded"][colour] == 4
    assert out.scores[2] == 7 + 4 * 5 == 27


def census(st):
    """Every colour's cubes, on the floor and on the planes: always 5 each and 20 grey."""
    on_floor = Counter(c for s in st.vars["floor"] for c in st.vars["cubes"][s])
    return {c: on_floor[c] + st.vars["boarded"].get(c, 0) for c in ("red", "yellow", "blue", "green", "grey")}


FULL = {"red": 5, "yellow": 5, "blue": 5, "green": 5, "grey": 20}


def test_no_grey_cube_leaves_its_space_in_the_example_round_one():
    """The count of assumption 41 rests on this: in round 1 of the Game Example each player makes
    one move (Red and Yellow plain, Blue with Skip 1 Space), from a start space, which holds no grey;
    so every other space still holds its two grey cubes when Red's round-2 move begins, whatever
    the moves were."""
    import random
    for seed in range(12):
        rng = random.Random(seed)
        st = start(3, seed=seed)
        set_hand(st, 3, ["Skip 1 Space", "Draw 1", "Gather"])
        refresh(st)
        for action in ("no action", "no action", "action Skip 1 Space"):
            st.apply(action)
            while texts(st)[-1] != "no goal":
                st.apply(rng.choice(texts(st)))
            st.apply("no goal")
        assert st.vars["round_number"] == 2
        for s in st.vars["floor"]:
            greys = st.vars["cubes"][s].count("grey")
            assert greys == (0 if s in ("P1", "P2", "P3", "P4") else 2), (seed, s)


def moves_can_board(st, colour) -> bool:
    """Whether some way of making the pending Move Phase boards a cube of ``colour`` (every choice
    tried, on copies of the state)."""
    if st.step != "move":
        return False
    before = st.vars["boarded"][colour]
    for text in texts(st):
        after = st.clone()
        after.apply(text)
        if after.vars["boarded"][colour] > before or moves_can_board(after, colour):
            return True
    return False


def red_could_board_now(st) -> bool:
    """Whether Red, were it her turn with these cubes on the board, could board her plane with a
    plain move (no action)."""
    red = start(3, seed=2)
    set_board(red, {s: list(cs) for s, cs in st.vars["cubes"].items() if s in st.vars["floor"]})
    refresh(red)
    red.apply("no action")
    return moves_can_board(red, "red")


def test_the_game_example_on_our_flying_cloud():
    """The rulebook's whole Game Example, every turn a real move from the real setup on our Flying
    Cloud (assumption 41). Each beat is quoted before the moves and assertions that follow it."""
    st = start(3, seed=2)
    board = st.game.board
    set_hand(st, 1, ["Skip 1 Space", "Choose One", "To Fast Food"])
    set_hand(st, 2, ["Draw 3 Discard 1", "Move Twice", "Move Backwards"])
    set_hand(st, 3, ["Skip 1 Space", "Draw 1", "Draw 3 Discard 1"])
    stack_deck(st, ["Only Your Party", "To Restroom", "Gather",    # Yellow's Draw 3, round 1
                    "Only Your Party",                             # Blue's empty hand, round 2
                    "To Help Desk", "Draw 1",                      # Red's neutral plane, round 3
                    "Gather"])                                     # Blue's empty hand, round 3
    refresh(st)
    # "This is the standard setup for a 3-player game using the Flying Cloud airport board. Blue,
    # Yellow, and Red are player colors while Green is neutral. Notice that the green plane has been
    # flipped to its neutral side, represented by the "Draw 2 Cards" symbols."
    assert st.game.options["airport"] == "flying_cloud" and census(st) == FULL
    assert st.vars["colour"] == ["red", "yellow", "blue"] and st.vars["neutrals"] == ["grey", "green"]
    assert "G4  plane green 0/5 draw 2" in st.render(1) and "G3  plane blue 0/5\n" in st.render(1)

    # ROUND 1. "Red chooses to not play an action, so she picks up all 5 of her party cubes and
    # moves them. She also chooses to not play a goal this turn."
    play(st, "no action", "move P1", "stop", "no goal")
    assert spec(st, "P1") == "" and spec(st, "P2") == "RRRRRYYYYY"
    # "Yellow plays a card from his hand as an action: Draw 3 Cards and Discard 1. He then discards
    # the card to the discard pile and proceeds to the Move Phase. He chooses to not play a goal this
    # turn." (His move goes round the P3 side to P4, after the centre.)
    play(st, "action Draw 3 Discard 1")
    assert sorted(texts(st)) == sorted(f"discard {c}" for c in ["Move Twice", "Move Backwards", "Only Your Party",
                                                                 "To Restroom", "Gather"])
    play(st, "discard To Restroom", "move P2",
         "drop red", "drop red", "drop red", "drop red", "drop red", "to P4", "drop yellow", "stop", "no goal")
    assert st.vars["discard"] == ["To Restroom", "Draw 3 Discard 1"] and len(st.vars["hand"][1]) == 4
    assert [spec(st, s) for s in ("S1", "S2", "S3", "C", "P4", "P1")] == ["RNN", "RNN", "RNN", "RNN", "YGGGGG", "YYYY"]
    # "She notices that Red is in position to board her plane on her next turn." P3 holds a red cube
    # and five blue: five spaces on (C P4 P1 P2 S1) the last one, red, goes into G1 beside S1.
    assert spec(st, "P3") == "RBBBBB" and red_could_board_now(st)
    # "Blue plays her Skip 1 Space card as an action. ... So, Blue uses her Move Phase to move her
    # party cubes to disrupt Red's opportunity, skipping over the space next to gate N2. As a result
    # of this movement, a blockage is created."
    play(st, "action Skip 1 Space", "move P3", "drop blue", "to P4")
    lines = play(st, "drop blue")
    assert "a blockage forms at P4" in lines
    assert board.previous("N2") == ["P1"] and texts(st)[-1] == "skip P1"
    play(st, "skip P1", "stop")
    assert spec(st, "P1") == "YYYY" and spec(st, "P2") == "RBBB" and st.vars["cones"] == ["P4"]
    assert not red_could_board_now(st)                                # the opportunity is gone
    # "Blue ends her turn by playing a card from her hand as a goal: A Blank Space." (P3, emptied)
    assert texts(st) == ["goal Blank Space", "no goal"] and spec(st, "P3") == ""
    play(st, "goal Blank Space")
    assert st.vars["goals"][2] == ["Draw 1"] and census(st) == FULL

    # ROUND 2. "Red chooses to not play an action. She proceeds with her move by moving 3 active
    # cubes. Then she plays a card from her hand as a goal: 1 Single Red Cube." (On P3.)
    assert spec(st, "S2") == "RNN"
    play(st, "no action", "move S2", "drop grey", "drop red")
    assert spec(st, "P3") == "R" and spec(st, "C") == "RBNNN"
    play(st, "goal Single Own Cube")
    assert st.vars["goals"][0] == ["Choose One"]
    # "Yellow plays his Move Twice card as an action. For his first move, He moves 4 active cubes one
    # space. This creates a blockage temporarily."
    assert spec(st, "P1") == "YYYY"
    lines = play(st, "action Move Twice", "move P1", "stop")
    assert "a blockage forms at P2" in lines and len(st.vars["cubes"]["P2"]) == 8
    # "For Yellow's second move, he picks up all 8 active cubes, removes the blockage, and moves
    # them. Notice that he concludes the move with boarding a party cube. He moves the boarding token
    # forward to space 1. He ends his turn by choosing to not play a goal this turn."
    lines = play(st, "move P2", "drop red", "drop yellow", "drop blue", "drop yellow", "drop yellow",
                 "to S4", "drop blue", "drop blue", "to G2")
    assert "the blockage at P2 is lifted" in lines
    assert st.vars["boarded"]["yellow"] == 1 and st.vars["track"] == 1
    play(st, "no goal")
    # "Blue chooses to not play an action. She removes the blockage and moves the 7 active cubes.
    # This creates a new blockage in front of gate G1."
    assert st.vars["cones"] == ["P4"] and len(st.vars["cubes"]["P4"]) == 7
    lines = play(st, "no action", "move P4", "drop yellow", "drop blue", "stop")
    assert "the blockage at P4 is lifted" in lines and "a blockage forms at S1" in lines
    assert st.vars["cones"] == ["S1"] and board.previous("G1") == ["S1"]
    # "Blue decides to also play a card from her hand as a goal: 5 Cubes (3 Colors). Blue's turn is
    # over, but since she doesn't have any cards in hand, she draws 1 card." (On S3.)
    assert spec(st, "S3") == "RBNNN"
    play(st, "goal 5 Cubes 3 Colours")
    assert st.vars["goals"][2] == ["Draw 1", "Draw 3 Discard 1"] and st.vars["hand"][2] == ["Only Your Party"]

    # ROUND 3. "Red plays her Skip 1 Space card as an action. She proceeds with her move by picking
    # up 5 active cubes and moving them. By skipping the space next to gate G3 she succeeds in
    # boarding a neutral cube." (S4 is next to G3; the grey cube boards the grey plane at N1.)
    assert len(st.vars["cubes"]["S3"]) == 5
    play(st, "action Skip 1 Space", "move S3", "drop blue", "drop red", "to S4")
    assert board.previous("G3") == ["S4"] and texts(st)[-1] == "skip S4"
    play(st, "skip S4", "drop grey", "drop grey")
    assert texts(st) == ["to S7", "to N1"]
    # "She immediately draws 2 cards and moves the boarding token forward to space 2. Coincidentally,
    # she is able to score one of the newly drawn cards as a goal: Visited a Help Desk." (On C.)
    play(st, "to N1")
    assert st.vars["boarded"]["grey"] == 1 and st.vars["track"] == 2
    assert sorted(st.vars["hand"][0]) == ["Draw 1", "To Fast Food", "To Help Desk"]
    play(st, "goal Help Desk")
    assert st.vars["goals"][0] == ["Choose One", "To Help Desk"]
    # "Yellow spots an opportunity to both board his plane and score a goal card. So, he plays a card
    # from his hand as an action: Move Backwards. He proceeds with moving against the arrows on the
    # board. This move results in him boarding 1 party cube. He moves the boarding token to space 3.
    # Then, he plays a card from his hand as a goal: 4 Cubes (4 Unique Colors)." (From C back along
    # P3 S9 ... S5, into G2 beside S5; the goal on P3.)
    play(st, "action Move Backwards", "move C", "drop grey", "to S9", "drop red", "drop red",
         "drop blue", "drop grey", "drop grey", "to G2")
    assert st.vars["boarded"]["yellow"] == 2 and st.vars["track"] == 3 and spec(st, "P3") == "RYBN"
    play(st, "goal 4 Cubes 4 Colours")
    assert st.vars["goals"][1] == ["Only Your Party"]
    # "Blue knows that Red and Yellow thought they had blocked her availability to score, but they
    # didn't know that she had this action in her hand: Move Only Your Party. She moves her single
    # Blue cube right into her gate G3. She gladly moves the boarding token to space 4." (A plain
    # move would take the two grey cubes with her blue one, and could not board.)
    assert spec(st, "S4") == "BNN"
    plain = st.clone()
    plain.apply("no action")
    assert not moves_can_board(plain, "blue")
    play(st, "action Only Your Party", "move S4", "to G3")
    assert st.vars["boarded"]["blue"] == 1 and st.vars["track"] == 4 and spec(st, "S4") == "NN"
    # "She is out of cards, so she doesn't play a goal this turn. Blue's turn is over, but since she
    # doesn't have any cards in hand, she draws 1 card."
    assert st.vars["hand"][2] == [] and texts(st) == ["no goal"]
    play(st, "no goal")
    assert st.vars["hand"][2] == ["Gather"]
    # "The game continues like this until one of the end game triggers has been reached..."
    assert [len(g) for g in st.vars["goals"]] == [2, 1, 2] and census(st) == FULL
    assert st.vars["round_number"] == 4 and not st.is_over()
