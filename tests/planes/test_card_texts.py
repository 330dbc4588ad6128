"""Card texts. Moves that explain themselves (issue 31 item 2): each card's text (the `says` column of
`table card`) is shown with every move that plays the card, and every decision of a game says what it
asks. Each text against its rule (issue 39 item 3): every card is played, as an action and as a goal,
where each outcome its rule can have happens, and its text must name that outcome."""
from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from rulewright.interpreter.testing import mover, random_playout, refresh, texts

from .helpers import CARDS, floor, game, play, set_board, set_hand, spec, stack_deck, start


def test_every_card_says_its_action_and_its_goal_each_in_one_sentence():
    says = game(2).compiled.columns["says"]
    assert set(says) == set(CARDS)
    for name in CARDS:
        action, goal = says[name].split(" Goal: ")
        assert action.startswith("Action: ") and action.count(".") == 1 and goal.count(".") == 1, says[name]
    assert len(set(says.values())) == len(CARDS)  # no two cards read alike


def test_an_action_and_a_goal_move_show_the_card_text():
    st = start(2)
    set_hand(st, 1, ["To Gift Shop", "Draw 1"])
    refresh(st)
    told = st.explain("action To Gift Shop", 1)
    assert told.prompt == "play 1 of your 2 cards as an action, or none"
    assert told.cards == (("To Gift Shop", "Action: move 1 of your party cubes to a Gift Shop you pick. "
                           "Goal: a Gift Shop holding at least 1 of your cubes."),)
    # another player is told the card text of this public move, never the prompt
    move = next(m for m in st.legal_moves() if m.text == "action To Gift Shop")
    seen = st.explain(move, 2)
    assert seen.cards == told.cards and seen.prompt is None


def test_every_decision_of_a_played_game_has_a_prompt_with_its_holes_filled():
    st = start(3, seed=4)
    asked = set()

    def check(state):
        if state.is_over():
            return
        for player in {m.player for m in state.legal_moves()}:
            text = state.prompt(player)
            assert text and "{" not in text, (player, texts(state))
            asked.add(text)

    check(st)
    random_playout(st, random.Random(4), check)
    for start_of in ("play 1 of your", "pick up the active cubes", "score 1 card whose goal"):
        assert any(text.startswith(start_of) for text in asked), start_of
    assert any(" cubes on " in text and "drop 1 and go on" in text for text in asked)


# ------------------------------------------------------------------ each text against its rule (issue 39)
# Flying Cloud, printed points of interest, two players (red 1, yellow 2; blue and green are neutral):
# fast food P4 P1 P2 S9, restrooms S1 S4 S5 S8, gift shops S2 S6, help desks C S7, fine dining S3, blank P3.
SAYS = game(2).compiled.columns["says"]
PLACE_NAMES = {"Fast Food Restaurant": "fast_food", "Restroom": "restroom", "Gift Shop": "gift_shop",
               "Help Desk": "help_desk", "Fine Dining Restaurant": "fine_dining"}
NEW = ["Move Twice", "Move Backwards", "To Fine Dining"]       # the deck's top cards, drawn in this order


def action_of(card):
    return SAYS[card].split(" Goal: ")[0]


def action_ready(layout, hand):
    """Player 1's Action Phase with this board and hand."""
    st = start(2)
    set_board(st, layout)
    set_hand(st, 1, hand)
    refresh(st)
    return st


def reds(st):
    """Where red's cubes stand: space -> how many."""
    return {s: spec(st, s).count("R") for s in floor(st) if "R" in spec(st, s)}


def sent_to(card):
    """What an action text sends where: ('all' | '1' | '2', the kind of place)."""
    m = re.search(r"move (all|1|2) of your party cubes.*? (?:onto one|to a) ([A-Z][A-Za-z ]+?) you pick",
                  action_of(card))
    return m.group(1), PLACE_NAMES[m.group(2)]


def _printed():
    poi = start(2).vars["poi"]
    return {kind: [s for s in poi if poi[s] == kind] for kind in set(poi.values())}


PLACES = _printed()       # kind -> its spaces, in the order of the floor


@pytest.mark.parametrize("card", ["Draw 1", "Draw 2 Discard 1", "Draw 3 Discard 1"])
def test_a_draw_cards_text_names_the_cards_taken_and_the_discard(card):
    text = action_of(card)
    taken = int(re.search(r"take (\d+) cards? from the draw deck", text).group(1))
    discards = text.endswith(", then discard 1 card from your hand.")
    st = action_ready({"P3": "R"}, [card, "Gather"])
    stack_deck(st, NEW)
    deck = len(st.vars["deck"])
    play(st, f"action {card}")
    if discards:
        # any card of the hand, a new one included
        assert sorted(texts(st)) == sorted(f"discard {c}" for c in ["Gather"] + NEW[:taken])
        play(st, "discard Gather")
    v = st.vars
    assert sorted(v["hand"][0]) == sorted(([] if discards else ["Gather"]) + NEW[:taken])
    assert len(v["deck"]) == deck - taken and v["discard"] == (["Gather"] if discards else [])


@pytest.mark.parametrize("card", ["To Fast Food", "To Restroom"])
def test_a_party_cards_text_names_the_whole_party_moving_onto_a_place_of_its_kind(card):
    how, kind = sent_to(card)
    assert how == "all"
    st = action_ready({"S2": "RRN", "S6": "RY", "S7": "R"}, [card])
    play(st, f"action {card}")
    assert texts(st) == [f"place at {s}" for s in PLACES[kind]]
    target = PLACES[kind][-1]
    play(st, f"place at {target}")
    assert reds(st) == {target: 4} and (spec(st, "S2"), spec(st, "S6")) == ("N", "Y")
    # "move ... together onto one": the place where the whole party already stands is not offered
    st = action_ready({target: "RRRRR"}, [card])
    play(st, f"action {card}")
    assert texts(st) == [f"place at {s}" for s in PLACES[kind] if s != target]


@pytest.mark.parametrize("card", ["To Gift Shop", "To Help Desk"])
def test_a_one_cube_cards_text_names_one_cube_moving_to_a_place_of_its_kind(card):
    how, kind = sent_to(card)
    assert how == "1"
    first, second = PLACES[kind]
    st = action_ready({first: "RN", "P3": "RR"}, [card])
    play(st, f"action {card}")
    assert texts(st) == [f"take from {s}" for s in floor(st) if s in (first, "P3")]
    play(st, "take from P3")
    # one cube, and to a place of the kind it is not on already
    assert texts(st) == [f"place at {first}", f"place at {second}"]
    play(st, f"place at {second}")
    assert reds(st) == {first: 1, "P3": 1, second: 1}
    st = action_ready({first: "RN", "P3": "RR"}, [card])
    play(st, f"action {card}", f"take from {first}")
    assert reds(st) == {"P3": 2, second: 1}


@pytest.mark.parametrize("layout, moves, after", [
    ({"P1": "RRR"}, [], {"P1": 1, "S3": 2}),                                       # two from one space
    ({"P1": "R", "S6": "RR"}, ["take from P1"], {"S6": 1, "S3": 2}),               # from two spaces
    ({"P1": "R", "S3": "R"}, [], {"S3": 2}),                                       # 1, the only one elsewhere
    ({"P1": "R"}, [], {"S3": 1}),                                                  # 1, the last in the airport
], ids=["one space", "two spaces", "one elsewhere", "one left"])
def test_to_fine_dinings_text_names_how_many_cubes_arrive(layout, moves, after):
    """ "Choose 2 of your party cubes and place them at a Fine Dining Restaurant of your choice. These
    cubes may come from different spaces." A party with one cube outside the restaurant moves that one
    (assumption 33): the text says so."""
    how, kind = sent_to("To Fine Dining")
    assert (how, kind) == ("2", "fine_dining") and PLACES[kind] == ["S3"]
    st = action_ready(layout, ["To Fine Dining"])
    # the only fine dining, S3, is picked by itself, and so is a cube's space where there is one
    play(st, "action To Fine Dining", *moves)
    assert reds(st) == after and texts(st)[0].startswith("move ")
    arrived = after["S3"] - layout.get("S3", "").count("R")
    if arrived == 2:
        assert ", from one space or two," in action_of("To Fine Dining")
    else:
        assert "(only 1 if only 1 stands elsewhere)" in action_of("To Fine Dining")


def test_gathers_text_names_the_space_picked_and_the_other_cubes_brought_there():
    text = action_of("Gather")
    assert text == ("Action: pick a space holding one of your party cubes and bring all your other party "
                    "cubes there.")
    st = action_ready({"P1": "RRN", "S6": "RY", "S9": "R"}, ["Gather"])
    play(st, "action Gather")
    assert texts(st) == ["gather at P1", "gather at S9", "gather at S6"]      # spaces of red's, floor order
    play(st, "gather at S6")
    assert reds(st) == {"S6": 4} and spec(st, "P1") == "N"
    # with the party on one space, that space is picked and no other cube is there to bring
    st = action_ready({"S6": "RRRRR"}, ["Gather"])
    play(st, "action Gather")
    assert reds(st) == {"S6": 5} and st.vars["in_play"][0] == ["Gather"] and texts(st) == ["move S6"]


def test_choose_ones_text_names_both_of_its_ways():
    text = action_of("Choose One")
    assert text == ("Action: either ignore every blockage during this turn's move, or score another card of "
                    "your hand as a goal right now.")
    layout = {"P2": "RRR", "S1": "YYYYYYY"}             # a cone on S1; P3, blank, is empty
    st = action_ready(layout, ["Choose One", "Draw 1"])
    play(st, "action Choose One")
    assert texts(st) == ["ignore blockages", "extra goal"]
    play(st, "ignore blockages", "move P2", "drop red", "drop red")
    assert reds(st) == {"S1": 1, "S2": 1, "S3": 1} and st.vars["cones"] == ["S1"]     # past the cone
    st = action_ready(layout, ["Choose One", "Draw 1"])
    play(st, "action Choose One", "extra goal")
    assert texts(st) == ["goal Blank Space"]
    play(st, "goal Blank Space")
    assert st.vars["goals"][0] == ["Draw 1"] and texts(st) == ["move P2"]             # before the move


def test_skip_1_spaces_text_names_the_compulsory_skip_and_the_blocked_space():
    text = action_of("Skip 1 Space")
    assert text == ("Action: during this turn's move, you must pass over 1 space of your choice without "
                    "dropping a cube there (never a blocked one).")
    st = action_ready({"P1": "RRN"}, ["Skip 1 Space"])
    play(st, "action Skip 1 Space", "move P1")
    assert texts(st) == ["drop red", "drop grey", "skip P2"]        # "you must": no stop before the skip
    play(st, "skip P2", "drop red", "drop grey")
    assert spec(st, "P2") == "" and reds(st) == {"S1": 1, "S3": 1}
    # a plain move from C may enter the blocked S4; a skip may not pass over it, so it goes to P4
    layout = {"C": "RRR", "S4": "YYYYYYY"}
    st = action_ready(layout, ["Skip 1 Space"])
    play(st, "no action", "move C")
    assert texts(st) == ["to P4", "to S4"]
    st = action_ready(layout, ["Skip 1 Space"])
    play(st, "action Skip 1 Space", "move C")
    assert texts(st) == ["drop red", "skip P4"]


@pytest.mark.parametrize("card, layout, moves, left, phrase", [
    ("Ignore Neutrals", {"P1": "RYBN"}, ["drop red"], "BN",
     "every neutral cube stays where it is; other players' cubes move as usual"),
    ("Only Your Party", {"P1": "RRYN"}, ["drop red"], "YN", "only your own cubes are active; every other cube "
                                                            "stays put"),
])
def test_a_cards_text_names_the_cubes_it_leaves_behind(card, layout, moves, left, phrase):
    """Two players: blue is neutral, so Ignore Neutrals leaves it with the grey cube."""
    assert phrase in action_of(card)
    st = action_ready(layout, [card])
    play(st, f"action {card}", "move P1", *moves)
    moved = Counter(layout["P1"]) - Counter(left)
    assert spec(st, "P1") == left and Counter(spec(st, "P2") + spec(st, "S1")) == moved


def test_move_backwards_text_names_the_way_against_the_arrows():
    assert "the cubes travel against the arrows all the way" in action_of("Move Backwards")
    st = action_ready({"S2": "RR"}, ["Move Backwards"])
    play(st, "action Move Backwards", "move S2", "drop red")
    assert texts(st) == ["to P2", "to G1"]            # S1's arrows lead from P2, and out to the gate G1
    play(st, "to P2")
    assert reds(st) == {"S1": 1, "P2": 1}


def test_move_twices_text_names_the_second_move_and_when_there_is_none():
    text = action_of("Move Twice")
    assert text == ("Action: make two moves this turn, the second straight after the first (if a cube of "
                    "yours can still move).")
    st = action_ready({"S5": "RN", "S9": "R"}, ["Move Twice"])
    play(st, "action Move Twice", "move S5", "drop red", "to S7")
    assert sorted(texts(st)) == ["move S6", "move S9"]
    play(st, "move S9")
    assert reds(st) == {"S6": 1, "P3": 1} and texts(st)[-1] == "no goal"
    # the first move boards red's last cube in the airport: no second move
    st = action_ready({"S1": "R"}, ["Move Twice"])
    play(st, "action Move Twice", "move S1", "to G1")
    assert reds(st) == {} and st.vars["boarded"]["red"] == 1 and texts(st)[-1] == "no goal"


# ---- goals: each goal's text read as a condition on one space, phrase by phrase
def _yours(n, exact):
    return lambda cubes, me, neutral: (cubes.count(me) == n) if exact else (cubes.count(me) >= n)


GOAL_PHRASES = [
    (r"^a blank space", "blank", None),
    (r"^a (Fast Food Restaurant|Restroom|Gift Shop|Help Desk|Fine Dining Restaurant)", "place", None),
    (r" with no cube on it \(a gate does not count\)", None, lambda cubes, me, neutral: not cubes),
    (r" holding at least (\d+) of your cubes", None, "at least"),
    (r" holding exactly (\d+) of your cubes", None, "exactly"),
    (r" whose only cube is one of yours", None, lambda cubes, me, neutral: cubes == [me]),
    (r" whose only cube is a neutral one", None, lambda cubes, me, neutral: len(cubes) == 1 and neutral(cubes[0])),
    (r" with exactly (\d+) cubes", None, "cubes"),
    (r" in (?:exactly )?(\d+) (?:different )?colours", None, "colours"),
    (r", yours among them", None, lambda cubes, me, neutral: me in cubes),
    (r", 1 of yours and 1 of another colour", None, lambda cubes, me, neutral: cubes.count(me) == 1
     and len(cubes) - 1 == 1),
    (r", every one of them neutral", None, lambda cubes, me, neutral: all(map(neutral, cubes))),
    (r": 1 of yours, 1 neutral and 1 of a third colour", None, lambda cubes, me, neutral: cubes.count(me) == 1
     and len(set(cubes)) == 3 and any(neutral(c) for c in cubes if c != me)),
]


def goal_condition(card):
    """The goal text of a card as a test of one space (its cubes, its place, the player's colour, which
    colours are neutral). Every phrase of the text must be read: a phrase this reader does not know
    fails the test rather than being skipped."""
    text = SAYS[card].split(" Goal: ")[1].rstrip(".")
    checks, rest = [], text
    for pattern, place, check in GOAL_PHRASES:
        m = re.search(pattern, text)
        if not m:
            continue
        rest = rest.replace(m.group(0), "", 1)
        number = int(m.group(1)) if m.groups() and m.group(1).isdigit() else None
        if place == "blank":
            checks.append(lambda cubes, poi, me, neutral: poi == "blank")
        elif place == "place":
            kind = PLACE_NAMES[m.group(1)]
            checks.append(lambda cubes, poi, me, neutral, kind=kind: poi == kind)
        elif check in ("at least", "exactly"):
            count = _yours(number, check == "exactly")
            checks.append(lambda cubes, poi, me, neutral, count=count: count(cubes, me, neutral))
        elif check == "cubes":
            checks.append(lambda cubes, poi, me, neutral, n=number: len(cubes) == n)
        elif check == "colours":
            checks.append(lambda cubes, poi, me, neutral, n=number: len(set(cubes)) == n)
        else:
            checks.append(lambda cubes, poi, me, neutral, check=check: check(cubes, me, neutral))
    assert rest in ("", "a space"), (card, rest)
    return lambda cubes, poi, me, neutral: all(c(cubes, poi, me, neutral) for c in checks)


CONDITIONS = {card: goal_condition(card) for card in CARDS}


@pytest.fixture(scope="module")
def goal_phases():
    """Every Goal Phase of two seeded games (two players on Flying Cloud, three on Zephyr): the board,
    the mover's colour, the neutral colours, the mover's hand, the goals offered, and the position (a
    copy to play on)."""
    seen = []

    def record(st):
        if st.is_over() or "no goal" not in texts(st):
            return
        v, p = st.vars, mover(st)
        board = {s: list(v["cubes"][s]) for s in v["floor"]}
        seen.append((board, dict(v["poi"]), v["colour"][p - 1], set(v["neutrals"]), set(v["hand"][p - 1]),
                     set(texts(st)), st.clone()))

    for players, seed, options in [(2, 1, {}), (3, 2, {"airport": "zephyr"})]:
        st = game(players, **options).new_state(seed=seed)
        random_playout(st, random.Random(seed), record)
    return seen


def test_a_goal_is_offered_exactly_where_its_text_holds(goal_phases):
    """ "A card may only be played as a goal if the condition depicted on the card is currently present
    somewhere on the board." Every card in hand, at every Goal Phase of the games: its goal is offered
    if and only if its text, read phrase by phrase, holds on some space of the airport."""
    goal_names = game(2).compiled.columns["goal_name"]
    held = Counter()
    for board, poi, me, neutrals, hand, offered, _position in goal_phases:
        for card in hand:
            holds = any(CONDITIONS[card](cubes, poi[s], me, neutrals.__contains__) for s, cubes in board.items())
            assert (f"goal {goal_names[card]}" in offered) == holds, (card, me, board)
            held[card, holds] += 1
    # each text was seen both holding and not
    assert {card for card, holds in held if holds} == set(CARDS)
    assert {card for card, holds in held if not holds} == set(CARDS)


@pytest.mark.parametrize("card", sorted(CARDS))
def test_each_goal_scores_only_when_its_condition_is_on_the_board(goal_phases, card):
    """ "A card may only be played as a goal if the condition depicted on the card is currently present
    somewhere on the board", and a goal played is scored: at each Goal Phase of the games where the
    card is in the mover's hand, its goal is offered where its condition holds on a space and refused
    where it does not; played, the card leaves the hand for the player's goals (its VP counted at the
    end) and the turn passes."""
    goal = game(2).compiled.columns["goal_name"][card]
    outcomes = set()
    for board, poi, me, neutrals, hand, offered, position in goal_phases:
        if card not in hand:
            continue
        holds = any(CONDITIONS[card](cubes, poi[s], me, neutrals.__contains__) for s, cubes in board.items())
        assert (f"goal {goal}" in offered) == holds
        outcomes.add(holds)
        if holds:
            st = position.clone()
            p = mover(st)
            before = (Counter(st.vars["hand"][p - 1]), list(st.vars["goals"][p - 1]))
            play(st, f"goal {goal}")
            rest, hand_now = before[0] - Counter([card]), st.vars["hand"][p - 1]
            assert Counter(hand_now) == rest or (not rest and len(hand_now) == 1)   # an emptied hand draws one
            assert st.vars["goals"][p - 1] == before[1] + [card]
            assert st.is_over() or mover(st) != p
    assert outcomes == {True, False}, outcomes
