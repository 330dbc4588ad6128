"""The rulebook's worked examples: Example Move, Boarding Example, Example Blockage, Example Goal,
Example Scoring (27 VP), and the three-player Game Example as far as our Flying Cloud layout allows
(no airport of one loop lets Yellow's Move Twice of round 2 happen: docs/games/planes.md, assumption
41, gives the count).

Flying Cloud: P1 S1 S2 S3 P2 S4 S5 P3 S6 S7 S8 P4 S9 S10 (back to P1); gates beside S3 (G4), S5 (G1),
S8 (G2), S10 (G3), and the grey neutral gates beside S1 (N1) and S6 (N2). Points of interest: blank P1 P3, gift shop S1 S6, fast food S2 P2 P4, restroom
S3 S5 S8 S10, help desk S4 S9, fine dining S7."""
from __future__ import annotations

from collections import Counter

from .helpers import (board_quietly, finish, play, plain_turn, refresh, set_board, set_hand, spec,
                      stack_deck, start, texts)


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
    assert (spec(st, "S2"), spec(st, "S3"), spec(st, "P2")) == ("R", "N", "R")
    assert st.step == "goal"                           # the Move Phase is over


def test_boarding_example():
    """Blue picks up blue, red and a neutral: the neutral and the red are dropped, the blue boards."""
    st = start(3)
    board_quietly(st, {"S2": "R", "S4": "Y", "P4": "BRN"})
    plain_turn(st, "S2")
    plain_turn(st, "S4")
    play(st, "no action", "move P4", "drop grey", "drop red")
    assert texts(st) == ["to P1", "to G3"]             # the last cube is blue, beside the blue gate
    lines = play(st, "to G3")
    assert (spec(st, "S9"), spec(st, "S10")) == ("N", "R")
    assert st.vars["boarded"]["blue"] == 1 and st.vars["track"] == 1
    assert "player 3 boards a blue cube on the blue plane at G3 (boarding track 1)" in lines


def test_example_blockage():
    """Two yellows and a blue are active; the blue makes seven party cubes and a cone; the move
    goes on past it with the rest."""
    st = start(2)
    board_quietly(st, {"S6": "R", "P2": "YYB", "S4": "RRRGGG"})
    plain_turn(st, "S6")
    play(st, "no action", "move P2")
    lines = play(st, "drop blue")
    assert "a blockage forms at S4" in lines and st.vars["cones"] == ["S4"]
    # on to S5 with the two yellows: the cone is behind them
    assert texts(st) == ["drop yellow", "stop"]
    play(st, "stop")
    assert (spec(st, "S4"), spec(st, "S5")) == ("RRRBGGG", "YY")


def test_example_goal():
    """Red may score a Gift Shop goal or a Restroom goal; she scores the Gift Shop (more VP), and
    only one goal."""
    st = start(2)
    board_quietly(st, {"S1": "R", "S3": "R", "S6": "R", "P2": "Y"})
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


def test_the_three_player_game_example():
    """Red, Yellow and Blue play; Green is neutral. Round 1 and Red's turn of round 2 are played from
    the real setup. No one-loop airport can bring the cubes to Yellow's Move Twice (assumption 41), so
    the cubes are laid out twice more (before Yellow's turn of round 2 and before Red's turn of
    round 3); hands, deck, goals, planes and the boarding track carry on throughout."""
    st = start(3, seed=2)
    set_hand(st, 1, ["Skip 1 Space", "Choose One", "To Fast Food"])
    set_hand(st, 2, ["Draw 3 Discard 1", "Move Twice", "Move Backwards"])
    set_hand(st, 3, ["Skip 1 Space", "Draw 1", "Draw 3 Discard 1"])
    stack_deck(st, ["Only Your Party", "To Restroom", "Gather",    # Yellow's Draw 3, round 1
                    "Only Your Party",                             # Blue's empty hand, round 2
                    "To Help Desk", "Draw 1",                      # Red's neutral plane, round 3
                    "Gather"])                                     # Blue's empty hand, round 3
    refresh(st)
    assert st.render(1).count("draw 2") == 3 and "G4   plane green 0/5 draw 2" in st.render(1)
    assert "N1   plane grey 0/5 draw 2" in st.render(1) and "N2   plane grey 0/5 draw 2" in st.render(1)

    # Round 1. Red: no action, all five red cubes move; no goal.
    play(st, "no action", "move P1", "drop red", "drop red", "drop red", "drop red", "no goal")
    assert [spec(st, s) for s in ("P1", "S1", "S2", "S3", "P2", "S4")] == ["", "RNN", "RNN", "RNN", "RYYYYY", "RNN"]
    # Yellow: Draw 3 Cards and Discard 1, then a move; no goal.
    play(st, "action Draw 3 Discard 1")
    assert sorted(texts(st)) == sorted(f"discard {c}" for c in ["Move Twice", "Move Backwards", "Only Your Party",
                                                                 "To Restroom", "Gather"])
    play(st, "discard To Restroom", "move P2", "drop yellow", "stop", "no goal")
    assert st.vars["discard"] == ["To Restroom", "Draw 3 Discard 1"] and len(st.vars["hand"][1]) == 4
    # Blue: Skip 1 Space, "skipping over the space next to gate N2" (S6); a blockage forms; goal: A
    # Blank Space.
    play(st, "action Skip 1 Space", "move P3")
    assert texts(st) == ["drop blue", "skip S6"]
    play(st, "skip S6", "drop blue", "drop blue")
    lines = play(st, "stop")
    assert "a blockage forms at P4" in lines and spec(st, "S6") == "NN" and spec(st, "S8") == "BNN"
    assert texts(st) == ["goal Blank Space", "no goal"]              # P1 and P3 are empty
    play(st, "goal Blank Space")
    assert st.vars["goals"][2] == ["Draw 1"] and census(st) == FULL

    # Round 2. Red: no action, three active cubes move; goal: 1 Single Red Cube.
    play(st, "no action", "move S1", "drop grey", "drop grey")
    assert spec(st, "P2") == "R"
    play(st, "goal Single Own Cube")
    assert st.vars["goals"][0] == ["Choose One"]

    # The position before Yellow's turn, laid out for our board (S1 is the blockage Blue removes).
    board_quietly(st, {"S1": "RRBBBBG", "S2": "YYGN", "S3": "YYGR", "S4": "NNN", "S5": "RRB",
                       "P1": "NN", "P2": "NN", "P3": "NN", "S6": "NN", "S7": "NN", "S8": "NN",
                       "P4": "GGY", "S9": "NN", "S10": "NN"})
    assert census(st) == FULL and st.vars["cones"] == ["S1"]
    # Yellow: Move Twice. Four active cubes move one space: a blockage, for a while.
    lines = play(st, "action Move Twice", "move S2", "stop")
    assert "a blockage forms at S3" in lines and len(st.vars["cubes"]["S3"]) == 8
    # ... then all eight move on, the cone is lifted, and a yellow cube boards: track 1.
    lines = play(st, "move S3", "drop grey", "drop red", "drop green", "drop green",
                 "drop yellow", "drop yellow", "drop yellow", "to G2")
    assert "the blockage at S3 is lifted" in lines
    assert st.vars["boarded"]["yellow"] == 1 and st.vars["track"] == 1
    play(st, "no goal")
    # Blue: no action; she moves the 7 active cubes of the blockage: a new one in front of G1.
    lines = play(st, "no action", "move S1", "drop red", "drop red", "drop green", "drop blue", "stop")
    assert "the blockage at S1 is lifted" in lines and "a blockage forms at S5" in lines
    assert st.vars["cones"] == ["S5"] and spec(st, "S4") == "RBNNN"
    play(st, "goal 5 Cubes 3 Colours")
    assert st.vars["goals"][2] == ["Draw 1", "Draw 3 Discard 1"]
    assert st.vars["hand"][2] == ["Only Your Party"]                 # an empty hand draws 1

    # The position before Red's turn of round 3, laid out again (the same cubes, a few moved).
    v = st.vars["cubes"]
    assert (v["S2"], v["S4"], v["P4"], v["S8"], v["S9"], v["S10"], v["P3"]) == (
        ["red"], ["grey", "grey", "grey", "red", "blue"], ["green", "green", "yellow"],
        ["grey", "grey", "yellow"], ["grey", "grey"], ["grey", "grey"], ["grey", "grey", "green"])
    set_board(st, {"S2": "", "S9": "RGNNN", "P4": "GY", "S4": "NNNR", "S8": "NYB", "P3": "NN",
                   "S5": "RRGGBBB", "S10": "NNB"}, clear=False)
    refresh(st)
    assert census(st) == FULL and st.vars["cones"] == ["S5"]
    # Round 3. Red: Skip 1 Space; five active cubes; skipping the space beside the neutral gate, a
    # neutral (green) cube boards: she draws 2 at once, track 2; goal: Visited a Help Desk.
    lines = play(st, "action Skip 1 Space", "move S9", "drop grey", "drop grey", "drop grey", "drop red")
    assert "player 1 skips S3" in lines and texts(st) == ["to P2", "to G4"]
    play(st, "to G4")
    assert st.vars["boarded"]["green"] == 1 and st.vars["track"] == 2
    assert sorted(st.vars["hand"][0]) == ["Draw 1", "To Fast Food", "To Help Desk"]
    play(st, "goal Help Desk")
    # Yellow: Move Backwards, boarding a yellow cube (track 3); goal: 4 Cubes (4 Unique Colours).
    play(st, "action Move Backwards", "move P4", "drop green")
    assert texts(st) == ["to S7", "to G2"]
    play(st, "to G2")
    assert st.vars["boarded"]["yellow"] == 2 and st.vars["track"] == 3 and spec(st, "S8") == "YBGN"
    play(st, "goal 4 Cubes 4 Colours")
    # Blue: Only Your Party: her single blue cube goes right into G3 (track 4); no card left, no
    # goal; she draws 1.
    play(st, "action Only Your Party", "move S10", "to G3")
    assert st.vars["boarded"]["blue"] == 1 and st.vars["track"] == 4 and spec(st, "S10") == "NNN"
    assert texts(st) == ["no goal"]
    play(st, "no goal")
    assert st.vars["hand"][2] == ["Gather"]
    assert [len(g) for g in st.vars["goals"]] == [2, 1, 2] and census(st) == FULL
    assert st.vars["round_number"] == 4 and not st.is_over()


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


def test_the_game_example_on_the_airport_with_a_branch():
    """The whole Game Example, every turn a real move from the real setup, on the branched Flying
    Cloud the layout search found (tests/planes/example_airport.rules; assumption 41): C -> P4 P1 P2
    S1 S2 S3 -> P3 and C -> S4 ... S9 -> P3, P3 -> C; G1 beside S1, G2 beside S5, G3 beside S4, N1
    beside S6, N2 beside P1."""
    from pathlib import Path

    import rulewright
    rules = str(Path(__file__).with_name("example_airport.rules"))
    st = rulewright.load(rules, players=3).new_state(seed=2)
    st.drain_events()
    set_hand(st, 1, ["Skip 1 Space", "Choose One", "To Fast Food"])
    set_hand(st, 2, ["Draw 3 Discard 1", "Move Twice", "Move Backwards"])
    set_hand(st, 3, ["Skip 1 Space", "Draw 1", "Draw 3 Discard 1"])
    stack_deck(st, ["Only Your Party", "To Restroom", "Gather",    # Yellow's Draw 3, round 1
                    "Only Your Party",                             # Blue's empty hand, round 2
                    "To Help Desk", "Draw 1",                      # Red's neutral plane, round 3
                    "Gather"])                                     # Blue's empty hand, round 3
    refresh(st)

    # Round 1. Red: no action, all five red cubes move (onto P2); no goal.
    play(st, "no action", "move P1", "stop", "no goal")
    assert spec(st, "P1") == "" and spec(st, "P2") == "RRRRRYYYYY"
    # Yellow: Draw 3 Cards and Discard 1, then a move (round the P3 side, to P4 at the centre).
    play(st, "action Draw 3 Discard 1", "discard To Restroom", "move P2",
         "drop red", "drop red", "drop red", "drop red", "drop red", "to P4", "drop yellow", "stop", "no goal")
    assert [spec(st, s) for s in ("S1", "S2", "S3", "C", "P4", "P1")] == ["RNN", "RNN", "RNN", "RNN", "YGGGGG", "YYYY"]
    # "Red is in position to board her plane on her next turn": P3 holds a red cube and five blue,
    # six cubes: five spaces on (C P4 P1 P2 S1) the last one, red, would go into G1 beside S1.
    assert spec(st, "P3") == "RBBBBB"
    # Blue: Skip 1 Space; "skipping over the space next to gate N2" (P1); a blockage at P4; goal: A
    # Blank Space (P3, emptied).
    play(st, "action Skip 1 Space", "move P3", "drop blue", "to P4")
    lines = play(st, "drop blue")
    assert "a blockage forms at P4" in lines
    play(st, "skip P1", "stop")
    assert spec(st, "P1") == "YYYY" and spec(st, "P2") == "RBBB" and st.vars["cones"] == ["P4"]
    assert texts(st) == ["goal Blank Space", "no goal"]
    play(st, "goal Blank Space")
    assert census(st) == FULL

    # Round 2. Red: no action, "moving 3 active cubes"; goal: 1 Single Red Cube (on P3).
    play(st, "no action", "move S2", "drop grey", "drop red")
    assert spec(st, "P3") == "R" and spec(st, "C") == "RBNNN"
    play(st, "goal Single Own Cube")
    # Yellow: Move Twice. "He moves 4 active cubes one space. This creates a blockage temporarily."
    lines = play(st, "action Move Twice", "move P1", "stop")
    assert "a blockage forms at P2" in lines and len(st.vars["cubes"]["P2"]) == 8
    # "he picks up all 8 active cubes, removes the blockage, and moves them", boarding a yellow cube.
    lines = play(st, "move P2", "drop red", "drop yellow", "drop blue", "drop yellow", "drop yellow",
                 "to S4", "drop blue", "drop blue", "to G2")
    assert "the blockage at P2 is lifted" in lines
    assert st.vars["boarded"]["yellow"] == 1 and st.vars["track"] == 1
    play(st, "no goal")
    # Blue: no action; "She removes the blockage and moves the 7 active cubes. This creates a new
    # blockage in front of gate G1"; goal: 5 Cubes (3 Colors) (S3); an empty hand draws 1.
    lines = play(st, "no action", "move P4", "drop yellow", "drop blue", "stop")
    assert "the blockage at P4 is lifted" in lines and "a blockage forms at S1" in lines
    assert st.vars["cones"] == ["S1"] and spec(st, "S3") == "RBNNN"
    play(st, "goal 5 Cubes 3 Colours")
    assert st.vars["hand"][2] == ["Only Your Party"]

    # Round 3. Red: Skip 1 Space, "picking up 5 active cubes"; "By skipping the space next to gate
    # G3" (S4) "she succeeds in boarding a neutral cube" (grey, at N1): she draws 2, track 2; goal:
    # Visited a Help Desk (C).
    play(st, "action Skip 1 Space", "move S3", "drop blue", "drop red", "to S4", "skip S4",
         "drop grey", "drop grey")
    assert texts(st) == ["to S7", "to N1"]
    play(st, "to N1")
    assert st.vars["boarded"]["grey"] == 1 and st.vars["track"] == 2
    assert sorted(st.vars["hand"][0]) == ["Draw 1", "To Fast Food", "To Help Desk"]
    play(st, "goal Help Desk")
    # Yellow: Move Backwards, against the arrows from C, boarding a yellow cube (track 3); goal: 4
    # Cubes (4 Unique Colors) (P3).
    play(st, "action Move Backwards", "move C", "drop grey", "to S9", "drop red", "drop red",
         "drop blue", "drop grey", "drop grey", "to G2")
    assert st.vars["boarded"]["yellow"] == 2 and st.vars["track"] == 3 and spec(st, "P3") == "RYBN"
    play(st, "goal 4 Cubes 4 Colours")
    # Blue: Move Only Your Party: "She moves her single Blue cube right into her gate G3" (track 4);
    # no card, no goal; she draws 1.
    assert spec(st, "S4") == "BNN"
    play(st, "action Only Your Party", "move S4", "to G3")
    assert st.vars["boarded"]["blue"] == 1 and st.vars["track"] == 4 and spec(st, "S4") == "NN"
    play(st, "no goal")
    assert st.vars["hand"][2] == ["Gather"]
    assert [len(g) for g in st.vars["goals"]] == [2, 1, 2] and census(st) == FULL
    assert st.vars["round_number"] == 4 and not st.is_over()
