"""The rulebook's worked examples: Example Move, Boarding Example, Example Blockage, Example Goal,
Example Scoring (27 VP), and the whole three-player Game Example, turn by turn from the real setup
(docs/games/planes.md, assumption 41).

Flying Cloud: from the centre C one arrow to P4 P1 P2 S1 S2 S3, the other to S4 S5 S6 S7 S8 S9; both
ways lead on to P3, and P3 back to C. Gates beside S1 (G1), S5 (G2), S4 (G3), S8 (G4), and the grey
neutral gates beside S6 (N1) and P1 (N2). Points of interest: help desk C S7, fast food P4 P1 P2 S9,
restroom S1 S4 S5 S8 (in front of the four major gates), gift shop S2 S6, fine dining S3, blank P3."""
from __future__ import annotations

from collections import Counter

from rulewright.interpreter.testing import refresh, texts

from .helpers import board_quietly, finish, play, plain_turn, set_board, set_hand, spec, stack_deck, start


def test_example_move():
    """Red picks up two red cubes and a neutral, drops a red, then the neutral, then the last red."""
    st = start(2)
    board_quietly(st, {"S1": "RRN"})
    play(st, "no action", "move S1")
    assert spec(st, "S1") == ""                       # ALL the cubes were picked up
    assert "stop" in texts(st)                         # she could stop here with all three
    play(st, "drop red")
    assert "stop" in texts(st)
    play(st, "drop grey")                              # the last red goes on by itself
    assert (spec(st, "S2"), spec(st, "S3"), spec(st, "P3")) == ("R", "N", "R")
    assert st.step == "goal"                           # the Move Phase is over


def test_boarding_example():
    """Blue picks up blue, red and a neutral: the neutral and the red are dropped, the blue boards."""
    st = start(3)
    board_quietly(st, {"S2": "R", "S7": "Y", "P3": "BRN"})
    plain_turn(st, "S2")
    plain_turn(st, "S7")
    play(st, "no action", "move P3", "drop grey", "to S4", "drop red")
    assert texts(st) == ["to S5", "to G3"]             # the last cube is blue, beside the blue gate
    lines = play(st, "to G3")
    assert (spec(st, "C"), spec(st, "S4")) == ("N", "R")
    assert st.vars["boarded"]["blue"] == 1 and st.vars["track"] == 1
    assert "player 3 boards a blue cube on the blue plane at G3 (boarding track 1)" in lines


def test_example_blockage():
    """Two yellows and a blue are active; the blue makes seven party cubes and a cone; the move
    goes on past it with the rest."""
    st = start(2)
    board_quietly(st, {"S6": "R", "P2": "YYB", "S1": "RRRGGG"})
    plain_turn(st, "S6")
    play(st, "no action", "move P2")
    lines = play(st, "drop blue")
    assert "a blockage forms at S1" in lines and st.vars["cones"] == ["S1"]
    # on to S2 with the two yellows: the cone is behind them
    assert texts(st) == ["drop yellow", "stop"]
    play(st, "stop")
    assert (spec(st, "S1"), spec(st, "S2")) == ("RRRBGGG", "YY")


def test_example_goal():
    """Red may score a Gift Shop goal or a Restroom goal; she scores the Gift Shop (more VP), and
    only one goal."""
    st = start(2)
    board_quietly(st, {"S2": "R", "S4": "R", "S6": "R", "P2": "Y"})
    set_hand(st, 1, ["To Restroom", "To Gift Shop"])
    refresh(st)
    play(st, "no action", "move S6")
    assert texts(st) == ["goal Restroom", "goal Gift Shop", "no goal"]
    play(st, "goal Gift Shop")
    assert st.to_move() == [2]                         # the turn is over after one goal
    assert st.vars["goals"][0] == ["To Gift Shop"] and st.vars["hand"][0] == ["To Restroom"]


def test_example_scoring_27_vp():
    """7 VP of goals (1 + 1 + 2 + 3) and 4 red cubes boarded (20 VP): 27 VP."""
    out = finish(start(2), {1: ["Draw 1", "To Restroom", "Gather", "Move Twice"]}, {"red": 4})
    assert out.scores[1] == 27


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
