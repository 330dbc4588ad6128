"""Barnstormers, rule by rule: each test builds a position by hand (planes, hands, the Judges'
Panel), plays a turn by move texts, and checks what the rulebook says must happen."""
from __future__ import annotations

import pytest

from rulewright.dsl.errors import IllegalMoveError, OptionError
from rulewright.interpreter.engine import machine

from rulewright.interpreter.testing import logs, mover, play, refresh, texts

from .helpers import (EXPERTISE, TACTICS, check_invariants, clear, dispatch, fleet, game, give_bonus, set_own, put,
                      ready, rolled, set_hand, set_panel, stack_tactics, stunt_tier)

QUIET_PANEL = ["Wide Vic", "Wide Abreast", "Kite", "Trident", "Halo", "Arrow"]


def quiet(st, players=None):
    """Nobody holds a card, and the panel shows stunts the test's planes do not form."""
    for p in players or range(1, st.game.player_count + 1):
        set_hand(st, p, [])
    set_panel(st, QUIET_PANEL)


def empty_show(panel):
    """Four players, no cards in hand, every plane in its hangar, and this Judges' Panel."""
    st = ready(4)
    quiet(st)
    clear(st)
    set_panel(st, panel)
    return st


def others(st, p):
    n = st.game.player_count
    return [(p - 1 + k) % n + 1 for k in range(1, n)]


def finish_turn(st):
    """Play the rest of the current player's turn with first options that change nothing."""
    p = mover(st)
    while st.to_move() == [p] and st.step != "perform stunt":
        t = texts(st)
        st.apply(next((x for x in t if x in ("claim no Trick Stunt", "keep your cards")), t[0]))


# ---------------------------------------------------------------- setup
FORMATIONS = {
    2: {1: {"A2": "N", "A4": "NW", "B2": "N", "B3": "N"},
        2: {"E4": "S", "E2": "SE", "D4": "S", "D3": "S"}},
    3: {1: {"A5": "N", "A7": "NW", "B5": "N", "B6": "N"},
        2: {"C1": "E", "A1": "NE", "C2": "E", "B2": "E"},
        3: {"F7": "S", "F5": "SE", "E7": "S", "E6": "S"}},
    4: {1: {"A5": "N", "A7": "NW", "B5": "N", "B6": "N"},
        2: {"C1": "E", "A1": "NE", "C2": "E", "B2": "E"},
        3: {"G3": "S", "G1": "SE", "F3": "S", "F2": "S"},
        4: {"E7": "W", "G7": "SW", "E6": "W", "F6": "W"}},
}
ADVANCED = {
    2: {1: {"B1": "N", "B3": "NW", "C1": "N", "C2": "N"},
        2: {"D5": "S", "D3": "SE", "C5": "S", "C4": "S"}},
    4: {1: {"B4": "N", "B6": "NW", "C4": "N", "C5": "N"},
        2: {"D2": "E", "B2": "NE", "D3": "E", "C3": "E"},
        3: {"F4": "S", "F2": "SE", "E4": "S", "E3": "S"},
        4: {"D6": "W", "F6": "SW", "D5": "W", "E5": "W"}},
    3: {3: {"E6": "S", "E4": "SE", "D6": "S", "D5": "S"}},
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_start_formations_and_hangars(players):
    st = ready(players)
    for p, planes in FORMATIONS[players].items():
        assert {x: h for x, (_o, h) in fleet(st, p).items()} == planes
        assert len(st.vars["hangar"][p - 1]) == 2
    board = st.game.board
    assert (board.rows, board.cols) == ((5, 5) if players == 2 else (7, 7))
    check_invariants(st)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_advanced_air_show_formations(players):
    st = ready(players, board="advanced")
    for p, planes in ADVANCED[players].items():
        assert {x: h for x, (_o, h) in fleet(st, p).items()} == planes
    if players == 3:
        assert {x: h for x, (_o, h) in fleet(st, 1).items()} == ADVANCED[4][1]
        assert {x: h for x, (_o, h) in fleet(st, 2).items()} == ADVANCED[4][2]


def test_setup_deals_the_panel_hands_and_decks():
    st = ready(4, seed=3)
    v = st.vars
    assert sorted(stunt_tier(st, c) for c in v["panel"]) == ["green"] * 2 + ["red"] * 2 + ["yellow"] * 2
    assert [len(v[f"{t}_deck"]) for t in ("green", "yellow", "red")] == [14, 14, 14]
    assert [len(d) for d in v["expertise_deck"]] == [16, 12, 8]
    for hand in v["hand"]:
        assert len(hand) == 2 and not any(c.startswith("Freak") for c in hand)
    assert v["open_requests"] == []
    assert 1 <= v["first_player"] <= 4 and mover(st) == v["first_player"]
    check_invariants(st)


def test_freak_cards_dealt_at_setup_are_replaced():
    for seed in range(30):
        st = game(4).new_state(seed=seed)
        assert all(not c.startswith("Freak") for hand in st.vars["hand"] for c in hand)
        assert sum(c.startswith("Freak") for c in st.vars["tactics"]) == 3


def test_lead_pilot_is_drawn_by_lot():
    firsts = {game(3).new_state(seed=s).vars["first_player"] for s in range(20)}
    assert firsts == {1, 2, 3}


def test_options_are_checked():
    with pytest.raises(OptionError, match="specialist and mystery"):
        game(2, specialist="on", mystery="on")
    with pytest.raises(OptionError, match="2-round draft"):
        game(3, mystery="on", level="extreme", draft="on")
    with pytest.raises(OptionError):
        game(4, level="world")


# ---------------------------------------------------------------- 1) perform stunt: two actions
def test_exactly_two_actions_any_mix():
    st = ready(4)
    p = mover(st)
    quiet(st)
    refresh(st)
    assert texts(st) == ["dispatch a plane", "move a plane"]
    play(st, "dispatch a plane")
    spaces = texts(st)
    assert len(spaces) == 49 and all(t.startswith("place at ") for t in spaces)
    heading = rolled(st)
    play(st, "place at D4")
    assert fleet(st)["D4"] == (p, heading)
    assert len(st.vars["hangar"][p - 1]) == 1
    play(st, "dispatch a plane")       # a repeat action
    play(st, texts(st)[0])
    assert st.vars["hangar"][p - 1] == []
    # two actions done, no card to play, nothing to claim, no card to discard: the next pilot
    assert mover(st) == others(st, p)[0] and st.step == "perform stunt"


def test_dispatch_faces_the_compass_roll():
    seen = set()
    for seed in range(40):
        st = ready(2, seed=seed)
        refresh(st)
        play(st, "dispatch a plane")
        seen.add(rolled(st))
    assert seen == {"N", "NE", "E", "SE", "S", "SW", "W", "NW"}


# ---------------------------------------------------------------- pushes and chained manoeuvres
def test_fig2_chained_manoeuvre_pushes_planes_into_the_clouds_and_home():
    st = ready(4)
    p = mover(st)
    q, r, s = others(st, p)
    quiet(st)
    clear(st)
    put(st, "D4", p, "E")
    put(st, "D5", q, "E")
    put(st, "D6", r, "E")
    put(st, "D7", s, "E")          # in the clouds, heading out of the air show
    refresh(st)
    play(st, "move a plane", "move D4 E")
    assert fleet(st) == {"D5": (p, "E"), "D6": (q, "E"), "D7": (r, "E")}
    assert len(st.vars["hangar"][s - 1]) == 6
    assert st.vars["longest_chain"] == 4
    assert "a chained manoeuvre of 4 planes" in logs(st)
    # placing another plane on the cloud space forces the plane there out as well
    play(st, "dispatch a plane")
    play(st, "place at D7")
    assert fleet(st)["D7"][0] == p
    assert len(st.vars["hangar"][r - 1]) == 6
    check_invariants(st)


def test_a_pushed_plane_moves_along_its_own_heading_and_chains_on():
    st = ready(4)
    p = mover(st)
    q, r, _s = others(st, p)
    quiet(st)
    clear(st)
    put(st, "C3", p, "N")
    put(st, "D3", q, "E")          # pushed east, not north
    put(st, "D4", r, "S")          # then pushed south
    refresh(st)
    play(st, "move a plane", "move C3 N")
    assert fleet(st) == {"D3": (p, "N"), "D4": (q, "E"), "C4": (r, "S")}
    assert st.vars["longest_chain"] == 3


def test_a_chain_that_comes_back_pushes_the_mover_on():
    # A enters B's space; B is pushed into C; C is pushed back onto A's new space: A moves again.
    st = ready(4)
    p = mover(st)
    q, r, _s = others(st, p)
    quiet(st)
    clear(st)
    put(st, "D3", p, "E")
    put(st, "D4", q, "N")
    put(st, "E4", r, "S")
    refresh(st)
    play(st, "move a plane", "move D3 E")
    assert fleet(st) == {"D5": (p, "E"), "E4": (q, "N"), "D4": (r, "S")}
    assert st.vars["longest_chain"] == 3           # four moves, three planes: A counts once


# level 1 Expertise cards that the Replace step still offers (the rest add actions or wait for a Freak)
LATER = {"+1 S&T Card", "Reset Headings", "Recall Planes"}


def end_turn_with_a_new_card(st, p):
    """Step 3 offers the Expertise card just won, if it does anything there; decline it."""
    (card,) = st.vars["bonuses"][p - 1]
    if card in LATER:
        assert mover(st) == p and texts(st) == [f"use {card}", "end the turn"]
        play(st, "end the turn")


def _line_of(st, p, owners, row="B"):
    quiet(st)
    clear(st)
    for i, owner in enumerate(owners, start=1):
        put(st, f"{row}{i}", owner, "E")
    refresh(st)


def test_chain_of_six_earns_a_level_one_expertise_card():
    st = ready(4, seed=2)
    p = mover(st)
    q, r, s = others(st, p)
    _line_of(st, p, [p, q, r, s, q, r])
    play(st, "move a plane", "move B1 E")
    assert st.vars["longest_chain"] == 6
    dispatch(st, "G7")
    # the Expertise card is claimed in the scoring step; then the turn goes on (no card to discard)
    assert any("chained manoeuvre of 6 planes" in line for line in logs(st))
    end_turn_with_a_new_card(st, p)
    assert mover(st) == q
    assert len(st.vars["bonuses"][p - 1]) == 1
    assert EXPERTISE[st.vars["bonuses"][p - 1][0]][0] == 1
    assert st.vars["chain_cards"][p - 1] == 1
    assert st.vars["stunts"][p - 1] == 0          # chained manoeuvres do not move the tracker
    check_invariants(st)


def test_chain_of_five_earns_nothing_without_flying_aces():
    st = ready(4, seed=2)
    p = mover(st)
    q, r, s = others(st, p)
    _line_of(st, p, [p, q, r, s, q])
    play(st, "move a plane", "move B1 E")
    assert st.vars["longest_chain"] == 5
    dispatch(st, "G7")
    assert mover(st) == q and st.vars["bonuses"][p - 1] == []


def test_a_chain_counts_planes_not_moves():
    """"A chained manoeuvre involving any six or more planes": six moves by five planes (one of
    them pushed twice) are a chain of five, and earn no Expertise card."""
    st = ready(4, seed=2)
    p = mover(st)
    q, r, s = others(st, p)
    quiet(st)
    clear(st)
    put(st, "C2", p, "E")
    put(st, "C3", q, "E")
    put(st, "C4", r, "N")
    put(st, "D4", s, "S")          # pushed south, back onto C4: the plane from C3 is pushed again
    put(st, "C5", q, "E")
    refresh(st)
    play(st, "move a plane", "move C2 E")
    assert fleet(st) == {"C3": (p, "E"), "C4": (s, "S"), "D4": (r, "N"), "C5": (q, "E"), "C6": (q, "E")}
    assert st.vars["longest_chain"] == 5
    assert "a chained manoeuvre of 5 planes" in logs(st)
    dispatch(st, "G7")
    assert mover(st) == q and st.vars["bonuses"][p - 1] == [] and st.vars["chain_cards"][p - 1] == 0


def test_chain_of_five_with_flying_aces():
    st = ready(4, seed=2)
    p = mover(st)
    q, r, s = others(st, p)
    give_bonus(st, p, "Flying Aces")
    _line_of(st, p, [p, q, r, s, q])
    play(st, "use an Expertise Bonus card", "use Flying Aces")
    assert st.vars["displayed"][p - 1] == ["Flying Aces"]
    assert "use an Expertise Bonus card" not in texts(st)     # on display, not used up
    play(st, "move a plane", "move B1 E")
    dispatch(st, "G7")
    assert len(st.vars["bonuses"][p - 1]) == 1
    end_turn_with_a_new_card(st, p)
    assert mover(st) == q
    check_invariants(st)


def _wingmen_by(pushed):
    """The mover's plane at D2 (heading E) moves onto D3; its other plane is pushed from D3 by the
    move (a chained manoeuvre of two planes), or already waits beside D3 (no chain). Then a far
    plane moves, and Wingmen (xx) is claimed. Returns the state and the mover."""
    st = empty_show(["Wingmen", "Wide Abreast", "Kite", "Trident", "Halo", "Arrow"])
    p = mover(st)
    put(st, "D2", p, "E")
    if pushed:
        put(st, "D3", p, "N")                     # pushed north, beside D3
    else:
        put(st, "E3", p, "N")                     # where the push would have left it
    put(st, "A7", p, "S")
    refresh(st)
    play(st, "move a plane", "move D2 E")
    assert fleet(st, p) == {"D3": (p, "E"), "E3": (p, "N"), "A7": (p, "S")}
    assert ("a chained manoeuvre of 2 planes" in logs(st)) == pushed
    play(st, "move a plane", "move A7 S")
    assert st.vars["chain_stunts"][p - 1] == 0
    play(st, "claim a Trick Stunt", "claim Wingmen (2 CP)")
    assert st.vars["claimed"][p - 1] == ["Wingmen"]
    return st, p


@pytest.mark.parametrize("pushed", [True, False], ids=["by a chain", "by a plain move"])
def test_chain_reaction_counts_a_trick_stunt_a_chained_manoeuvre_formed(pushed):
    """Judges' Requests score "for the number and/or types of Trick Stunts you complete"; a chain
    manoeuvre "consists of any number of planes moved when executing manoeuvres". Chain Reaction
    counts the Trick Stunts whose formation holds a plane a chained manoeuvre moved in the turn of
    the claim: the same Wingmen, formed by a push or by a plain move."""
    st, p = _wingmen_by(pushed)
    assert st.vars["chain_stunts"][p - 1] == (1 if pushed else 0)
    view = st.view(others(st, p)[0])["vars"]["chain_stunts"]
    assert view[p - 1] == "?"                      # as secret as the face-down stunt
    check_invariants(st)


# ---------------------------------------------------------------- trick stunts (Fig. 3)
def fig3(st, yellow, blue, rival):
    """Yellow has a Long Flying V but for one plane, with another yellow plane next to it; blue has
    a Closed Diamond but for one plane, a rival's plane in its middle and another blue plane clear."""
    quiet(st)
    clear(st)
    set_panel(st, ["Wide Vic", "Wide Abreast", "Kite", "Trident", "Closed Diamond", "Long Flying V"])
    for x in ("E1", "D2", "C3", "D4"):            # the V: E1 D2 C3 D4 E5
        put(st, x, yellow, "N")
    put(st, "F6", yellow, "S")                    # the circled plane: next to E5
    for x in ("D6", "C7", "B6"):                  # the diamond: D6 C5 C7 B6
        put(st, x, blue, "E")
    put(st, "C6", rival, "W")                     # a rival in the middle is ignored
    put(st, "G2", blue, "N")                      # the other blue plane, clear of the stunt


def test_fig3_a_stunt_is_not_claimed_while_another_plane_of_the_colour_is_adjacent():
    st = ready(4, seed=5)
    yellow = mover(st)
    blue, rival = others(st, yellow)[:2]
    fig3(st, yellow, blue, rival)
    refresh(st)
    dispatch(st, "E5")
    play(st, "move a plane", "move F6 S")         # onto E6... still next to E5
    assert "E6" in fleet(st, yellow)
    assert mover(st) != yellow                    # nothing to claim: the turn is over
    assert st.vars["claimed"][yellow - 1] == []


def test_fig3_the_closed_diamond_is_claimed_for_7_cp():
    st = ready(4, seed=5)
    blue = mover(st)
    yellow, rival = others(st, blue)[:2]
    fig3(st, yellow, blue, rival)
    refresh(st)
    dispatch(st, "C5")
    dispatch(st, "A1")                            # G2 and A1 are clear of the diamond
    assert texts(st) == ["claim a Trick Stunt", "claim no Trick Stunt"]
    play(st, "claim a Trick Stunt")
    assert texts(st) == ["claim Closed Diamond (7 CP)"]
    play(st, "claim Closed Diamond (7 CP)")
    assert st.vars["claimed"][blue - 1] == ["Closed Diamond"]
    assert st.vars["stunts"][blue - 1] == 1
    assert "Closed Diamond" not in st.vars["panel"]
    assert sum(stunt_tier(st, c) == "red" for c in st.vars["panel"]) == 2   # refilled from the red deck
    assert len(st.vars["red_deck"]) == 13
    check_invariants(st)


def test_other_own_plane_adjacent_blocks_the_diamond():
    st = ready(4, seed=5)
    blue = mover(st)
    yellow, rival = others(st, blue)[:2]
    fig3(st, yellow, blue, rival)
    refresh(st)
    dispatch(st, "C5")
    dispatch(st, "A4")  # next to B5? no: A4 touches B5
    assert "claim a Trick Stunt" in texts(st)      # A4 is not next to B6, C5, C7 or D6
    st2 = ready(4, seed=5)
    fig3(st2, yellow, blue, rival)
    refresh(st2)
    dispatch(st2, "C5")
    dispatch(st2, "A5")  # touches B6
    assert mover(st2) != blue


ROWS = "ABCDEFG"


def distance(x, y):
    return max(abs(ROWS.index(x[0]) - ROWS.index(y[0])), abs(int(x[1:]) - int(y[1:])))


def hand_over(st, spaces=("D3", "D4")):
    """The player to move dispatches two planes onto the empty ``spaces``, claims nothing and ends
    the turn (drawing no Freak card): the next player's turn begins, and with it the record of
    the stunts that player's planes already show."""
    p = mover(st)
    refresh(st)
    stack_tactics(st, ["Dispatch a Plane", "Dispatch a Plane"])
    for x in spaces:
        dispatch(st, x)
    finish_turn(st)
    assert mover(st) != p and st.step == "perform stunt"
    return mover(st)


def test_a_formation_held_from_the_start_of_the_turn_needs_a_plane_moved_into_it():
    st = empty_show(["Wingmen", "Wide Abreast", "Kite", "Trident", "Halo", "Arrow"])
    q = others(st, mover(st))[0]
    put(st, "D3", q, "N")
    put(st, "D4", q, "N")
    put(st, "A7", q, "E")
    assert hand_over(st, ("G1", "G3")) == q
    assert st.vars["standing"] == ["Wingmen"]
    play(st, "move a plane", "move A7 E", "dispatch a plane")
    play(st, "place at G7")
    assert mover(st) != q                         # the Wingmen stood there already: no claim
    assert st.vars["claimed"][q - 1] == []
    st = empty_show(["Wingmen", "Wide Abreast", "Kite", "Trident", "Halo", "Arrow"])
    p = mover(st)
    put(st, "C3", p, "N")
    put(st, "D4", p, "N")
    refresh(st)
    play(st, "move a plane", "move C3 N")             # into the formation
    dispatch(st, "G7")
    assert texts(st) == ["claim a Trick Stunt", "claim no Trick Stunt"]


def test_a_formation_blocked_at_the_start_may_be_claimed_once_the_neighbour_flies_off():
    """The start-of-turn condition holds only for a stunt the planes could already claim: a
    Wingmen with another plane of the colour beside it was no claimable formation."""
    st = empty_show(["Wingmen", "Wide Abreast", "Kite", "Trident", "Halo", "Arrow"])
    q = others(st, mover(st))[0]
    put(st, "D3", q, "N")
    put(st, "D4", q, "N")
    put(st, "E5", q, "N")                         # touches D4
    assert hand_over(st, ("G1", "A1")) == q
    assert st.vars["standing"] == []
    play(st, "move a plane", "move E5 N")         # to F5: the Wingmen are clear, and untouched
    dispatch(st, "A7")
    assert fleet(st, q).keys() >= {"D3", "D4", "F5"}
    assert texts(st) == ["claim a Trick Stunt", "claim no Trick Stunt"]
    play(st, "claim a Trick Stunt", "claim Wingmen (2 CP)")
    assert st.vars["claimed"][q - 1] == ["Wingmen"]


# The designed start formations, checked by a matcher written here (not the rules file's): the
# stunts each seat's four planes show as the game begins, turned and mirrored, clear of the rest.
def _cells(shape):
    return {(-r, c) for r, row in enumerate(shape.split("/")) for c, ch in enumerate(row) if ch == "x"}


def _variants(cells):
    out = set()
    for k in range(4):
        for mirror in (False, True):
            turned = set()
            for r, c in cells:
                c = -c if mirror else c
                for _ in range(k):
                    r, c = c, -r
                turned.add((r, c))
            out.add(frozenset(turned))
    return out


def _showing(shapes, spaces):
    mine = {(ROWS.index(x[0]), int(x[1:])) for x in spaces}
    found = set()
    for name, shape in shapes.items():
        for v in _variants(_cells(shape)):
            anchor = min(v)
            for r0, c0 in mine:
                f = {(r - anchor[0] + r0, c - anchor[1] + c0) for r, c in v}
                if f <= mine and all(max(abs(a - r), abs(b - c)) > 1 for a, b in mine - f for r, c in f):
                    found.add(name)
    return found


def _shape_of(spaces):
    cells = {(ROWS.index(x[0]), int(x[1:])) for x in spaces}
    return min(tuple(sorted((r - min(a for a, _ in v), c - min(b for _, b in v)) for r, c in v))
               for v in _variants(cells))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("board", ["standard", "advanced"])
def test_the_start_formations_are_no_stunts_and_every_seat_flies_the_same_one(players, board):
    """"All players start with the same formation": the four planes show no Trick Stunt (of the base
    game or the extra-stunts variant), whole or in part, so no seat starts a stunt ahead; every seat
    flies the same shape, at the same distances from the centre, and (with three players, the third
    seat included) each seat is as far from each rival beside it as the others are."""
    from rulewright import load
    st = ready(players, board=board)
    shapes = dict(st.game.columns["shape"])
    shapes.update(load("barnstormers-extra-stunts", players=players).new_state(seed=1).game.columns["shape"])
    fleets = {p: fleet(st, p) for p in range(1, players + 1)}
    assert {p: _showing(shapes, f) for p, f in fleets.items()} == {p: set() for p in fleets}
    assert len({_shape_of(f) for f in fleets.values()}) == 1
    mid = "D4" if players > 2 else "C3"
    assert len({tuple(sorted(distance(x, mid) for x in f)) for f in fleets.values()}) == 1

    def gap(p, q):
        return min(distance(x, y) for x in fleets[p] for y in fleets[q])
    beside = [(1, 2), (2, 3), (3, 1)] if players == 3 else [(1, 2), (2, 3), (3, 4), (4, 1)] if players == 4 else [(1, 2)]
    assert len({gap(p, q) for p, q in beside}) == 1


def test_a_swap_of_two_planes_of_a_standing_formation_moves_no_plane_into_it():
    """"you must move at least one plane into or within the new scoring formation": swapping two of
    its own planes leaves the same formation on the same spaces; a plane swapped in from outside it
    does move into it."""
    st = empty_show(["Line Abreast", "Wide Abreast", "Kite", "Trident", "Halo", "Arrow"])
    q = others(st, mover(st))[0]
    for x in ("D3", "D4", "D5"):
        put(st, x, q, "N")
    put(st, "A7", q, "E")
    assert hand_over(st, ("G1", "G3")) == q
    assert st.vars["standing"] == ["Line Abreast"]
    later = st.clone()
    set_hand(st, q, ["Swap any Two Planes"])
    refresh(st)
    play(st, "play a Skill and Tactic card", "play Swap any Two Planes", "swap D3", "with D5")
    play(st, "move a plane", "move A7 E", "dispatch a plane")
    play(st, "place at G7")
    assert mover(st) != q and st.vars["claimed"][q - 1] == []      # the same formation: no claim
    # swapping a plane from outside into the formation moves a plane into it
    set_hand(later, q, ["Swap any Two Planes"])
    refresh(later)
    play(later, "play a Skill and Tactic card", "play Swap any Two Planes", "swap D3", "with A7")
    play(later, "move a plane", "move A7 N", "dispatch a plane")
    play(later, "place at G7")
    play(later, "claim a Trick Stunt", "claim Line Abreast (3 CP)")
    assert later.vars["claimed"][q - 1] == ["Line Abreast"]


def test_one_trick_stunt_a_turn_and_refill():
    st = empty_show(["Wingmen", "Open Pair", "Kite", "Trident", "Halo", "Arrow"])
    p = mover(st)
    put(st, "D3", p, "N")
    put(st, "D7", p, "N")
    refresh(st)
    dispatch(st, "D4")
    dispatch(st, "D5")
    # D3 D4 D5 is a Line Abreast, not shown; D5 _ D7 is an Open Pair, but D4 is next to D5
    assert mover(st) != p
    st = empty_show(["Wingmen", "Open Pair", "Kite", "Trident", "Halo", "Arrow"])
    p = mover(st)
    put(st, "D3", p, "N")
    put(st, "A7", p, "N")
    refresh(st)
    dispatch(st, "D4")
    dispatch(st, "A5")
    play(st, "claim a Trick Stunt")
    assert texts(st) == ["claim Wingmen (2 CP)", "claim Open Pair (2 CP)"]
    play(st, "claim Open Pair (2 CP)")
    assert mover(st) != p                            # the Wingmen wait for another turn
    assert st.vars["claimed"][p - 1] == ["Open Pair"]
    assert len(st.vars["panel"]) == 6 and len(st.vars["green_deck"]) == 13


# ---------------------------------------------------------------- 3) replace cards
# ---------------------------------------------------------------- the end
def _claim_now(st, p, stunt="Wingmen"):
    """p claims the Wingmen this turn (D3 held, D4 dispatched)."""
    quiet(st)
    clear(st)
    set_panel(st, [stunt, "Wide Abreast", "Kite", "Trident", "Halo", "Arrow"])
    put(st, "D3", p, "N")
    refresh(st)
    dispatch(st, "D4")
    dispatch(st, "A1")
    play(st, "claim a Trick Stunt", f"claim {stunt} (2 CP)")


def _play_quietly(st):
    """Play the current turn with first options, never claiming."""
    p = mover(st)
    while not st.is_over() and st.to_move() == [p]:
        t = texts(st)
        st.apply("claim no Trick Stunt" if "claim no Trick Stunt" in t else t[0])


@pytest.mark.parametrize("level", ["local", "regional", "national", "extreme"])
def test_reaching_the_level_ends_the_competition_at_the_end_of_the_round(level):
    target = {"local": 4, "regional": 6, "national": 9, "extreme": 12}[level]
    st = ready(4, seed=1, level=level)
    p = mover(st)                                  # the Lead Pilot
    st.vars["stunts"][p - 1] = target - 1
    _claim_now(st, p)
    assert st.vars["stunts"][p - 1] == target
    played = []
    while not st.is_over():
        played.append(mover(st))
        _play_quietly(st)
    assert played == others(st, p)                 # everyone else completes the round
    assert st.outcome() is not None


def test_one_short_of_the_level_plays_on():
    st = ready(4, seed=1, level="local")
    p = mover(st)
    st.vars["stunts"][p - 1] = 2
    _claim_now(st, p)
    for _ in range(4):
        _play_quietly(st)
    assert not st.is_over()


def _no_freaks(st):
    """The Freak cards out of the Skill and Tactic cards (to the box): no turn is interrupted by
    another player's decision, so the player to move is the player whose turn it is."""
    v = st.vars
    for pile in ("tactics", "tactics_discard"):
        v["box"] += [c for c in v[pile] if c.startswith("Freak")]
        v[pile] = [c for c in v[pile] if not c.startswith("Freak")]


def _finish_the_round(st):
    """Play quietly until the game ends or play comes back to the Lead Pilot; the players who played."""
    lead, played = st.vars["first_player"], []
    while not st.is_over() and not (played and mover(st) == lead):
        played.append(mover(st))
        _play_quietly(st)
    return played


def _perform_open_pair(st, p, claim):
    """p flies an Open Pair (D3, then D5 dispatched; A1 is clear of both) and claims it by ``claim``;
    no card in hand to play."""
    set_hand(st, p, [])
    clear(st)
    put(st, "D3", p, "N")
    refresh(st)
    dispatch(st, "D5")
    dispatch(st, "A1")
    play(st, "claim a Trick Stunt", claim)
    if st.to_move() == [p]:
        _play_quietly(st)                          # the rest of the turn (a second stunt brings an Expertise card)


def _green_deck_out():
    """4 players at the extreme level, no freak weather, a clear sky: the panel holds two greens (Wingmen,
    Open Pair) and the green deck is empty."""
    st = ready(4, seed=1, level="extreme")
    quiet(st)
    _no_freaks(st)
    clear(st)
    set_panel(st, ["Wingmen", "Open Pair", "Kite", "Trident", "Halo", "Arrow"])
    _empty_deck(st, "green")
    return st


def test_a_level_ends_the_competition_when_its_last_stunt_on_the_panel_is_performed_not_before():
    """"The competition is over (at the end of the current round): ... 2) when the last Trick Stunt from
    one of the Stunt levels (green, yellow or red) is performed by a player"; the glossary: "End game
    conditions include ... b) any Trick Stunt deck from the Judges' Panel runs out of cards." Read
    together: the level's last stunt is performed when its deck is empty and no stunt of the level is left
    on the panel (nor reserved from it). The green deck empty, a green stunt performed while another green
    is still on the panel ends nothing (a whole round is played and the competition goes on); the panel's last
    green performed ends the competition with the round."""
    st = _green_deck_out()
    p = mover(st)                                  # the Lead Pilot
    put(st, "D3", p, "N")
    refresh(st)
    dispatch(st, "D4")
    dispatch(st, "A1")
    play(st, "claim a Trick Stunt", "claim Wingmen (2 CP)")
    assert "the green stunt deck has run out: the slot stays empty" in logs(st)
    assert [c for c in st.vars["panel"] if stunt_tier(st, c) == "green"] == ["Open Pair"]
    assert st.vars["deck_ran_out"] is False
    assert _finish_the_round(st) == others(st, p)
    assert not st.is_over() and mover(st) == p and st.vars["round_number"] == 2
    # the panel's last green: now the level's last stunt is performed, and this round is the last
    _perform_open_pair(st, p, "claim Open Pair (2 CP)")
    assert st.vars["deck_ran_out"] is True
    assert "the last green Trick Stunt from the Judges' Panel is performed: the competition ends with this round" \
        in logs(st)
    assert not any(stunt_tier(st, c) == "green" for c in st.vars["panel"])
    assert _finish_the_round(st) == others(st, p)
    assert st.is_over() and st.vars["round_number"] == 2


def test_a_stunt_reserved_from_the_panel_is_one_of_its_levels_last():
    """A reserved stunt is placed "in front of you to complete when you can. Once completed, you score the Trick
    stunt": it is still to be performed. The green deck empty, the panel's last green is reserved (no stunt
    performed: nothing ends), the other panel green is performed (one green still reserved: nothing ends), and
    the reserved one, performed a round later, is the level's last: the competition ends with that round."""
    st = _green_deck_out()
    p = mover(st)                                  # the Lead Pilot
    give_bonus(st, p, "Reserve a Trick Stunt")
    put(st, "D3", p, "N")
    refresh(st)
    play(st, "use an Expertise Bonus card", "use Reserve a Trick Stunt", "reserve Open Pair")
    assert st.vars["reserved"][p - 1] == ["Open Pair"] and st.vars["deck_ran_out"] is False
    dispatch(st, "D4")
    dispatch(st, "A1")
    play(st, "claim a Trick Stunt", "claim Wingmen (2 CP)")
    assert not any(stunt_tier(st, c) == "green" for c in st.vars["panel"]) and st.vars["green_deck"] == []
    assert st.vars["deck_ran_out"] is False
    assert _finish_the_round(st) == others(st, p)
    assert not st.is_over() and mover(st) == p
    _perform_open_pair(st, p, "claim reserved Open Pair (2 CP)")
    assert st.vars["deck_ran_out"] is True and st.vars["reserved"][p - 1] == []
    assert _finish_the_round(st) == others(st, p)
    assert st.is_over()


def _empty_deck(st, tier):
    st.vars["box"] += st.vars[f"{tier}_deck"]
    st.vars[f"{tier}_deck"] = []


@pytest.mark.parametrize("card, picks", [("Discard 2 Trick Stunts", ["discard Wide Abreast", "discard Trident"]),
                                         ("Discard All Trick Stunts", [])])
def test_a_discard_card_does_not_end_the_competition_with_no_stunt_performed(card, picks):
    """The end comes "when the last Trick Stunt from one of the Stunt levels ... is performed by a
    player": a slot left empty by a Discard card (its deck has run out) performs nothing. (A Reserve
    card: test_a_stunt_reserved_from_the_panel_is_one_of_its_levels_last.)"""
    st = ready(4, seed=1, level="extreme")
    p = mover(st)
    quiet(st)
    clear(st)
    set_panel(st, ["Wingmen", "Wide Abreast", "Kite", "Trident", "Halo", "Arrow"])
    _empty_deck(st, "green")
    give_bonus(st, p, card)
    refresh(st)
    play(st, "use an Expertise Bonus card", f"use {card}", *picks)
    assert st.vars["deck_ran_out"] is False
    assert any("green stunt deck has run out: the slot stays empty" in line for line in logs(st))
    for _ in range(8):                             # two whole rounds, nobody claims: play goes on
        _play_quietly(st)
    assert not st.is_over()
    # the panel's only green, performed: the level's last, so now the round is the last
    q = mover(st)
    for r in range(1, 5):
        set_hand(st, r, [])
    clear(st)
    put(st, "D3", q, "N")
    st.vars["panel"] = [c for c in st.vars["panel"] if stunt_tier(st, c) != "green"] + ["Open Pair"]
    refresh(st)
    dispatch(st, "D5")
    dispatch(st, "A1")
    play(st, "claim a Trick Stunt", "claim Open Pair (2 CP)")
    assert st.vars["deck_ran_out"] is True
    lead, rest = st.vars["first_player"], []
    for r in others(st, q):                        # the round ends when play returns to the Lead Pilot
        if r == lead:
            break
        rest.append(r)
    played = []
    while not st.is_over():
        played.append(mover(st))
        _play_quietly(st)
    assert played[:len(rest)] == rest and set(played) <= set(rest)


def test_the_claim_that_takes_a_decks_last_card_onto_the_panel_does_not_end_the_competition():
    st = ready(4, seed=1, level="extreme")
    p = mover(st)
    quiet(st)
    clear(st)
    set_panel(st, ["Wingmen", "Wide Abreast", "Kite", "Trident", "Halo", "Arrow"])
    st.vars["box"] += st.vars["green_deck"][1:]
    del st.vars["green_deck"][1:]
    put(st, "D3", p, "N")
    refresh(st)
    dispatch(st, "D4")
    dispatch(st, "A1")
    play(st, "claim a Trick Stunt", "claim Wingmen (2 CP)")   # replaced by the deck's last card
    assert st.vars["green_deck"] == [] and st.vars["deck_ran_out"] is False
    assert sum(stunt_tier(st, c) == "green" for c in st.vars["panel"]) == 2


# ---------------------------------------------------------------- scoring and ties
def score_now(st, claimed, bonuses=None, requests=(), secret=None, chains=None):
    """End the game now with these claimed stunts (a list per player) and Expertise cards held."""
    v = st.vars
    for i, cs in enumerate(claimed):
        v["claimed"][i] = list(cs)
        v["bonuses"][i] = list((bonuses or {}).get(i + 1, []))
        v["secret_request"][i] = (secret or {}).get(i + 1)
        v["chain_stunts"][i] = (chains or {}).get(i + 1, 0)
    v["open_requests"] = list(requests)
    st.begin_scoring()
    machine.run(st)
    return st.outcome()


def test_secret_requests_deal_two_keep_one():
    st = game(3, requests="open_and_secret").new_state(seed=4)
    assert st.to_move() == [1, 2, 3]
    offers = [list(o) for o in st.vars["request_offer"]]
    assert all(len(o) == 2 for o in offers) and len(st.vars["open_requests"]) == 3
    for p in (1, 2, 3):
        st.apply(f"keep the request {offers[p - 1][1]}", player=p)
    assert st.vars["secret_request"] == [o[1] for o in offers]
    assert st.vars["request_offer"] == [[], [], []]
    assert all(o[0] in st.vars["box"] for o in offers)
    assert len(st.vars["box"]) == 18 - 3 - 3        # the rest of the deck back in the box
    v1 = st.view(1)["vars"]["secret_request"]
    assert v1[0] == offers[0][1] and v1[1] == "?"


# ---------------------------------------------------------------- variants
def test_specialist_stunts_are_dealt_secretly_and_claimed_instead():
    st = ready(3, specialist="on")
    own = st.vars["own_stunts"]
    assert all(len(o) == 1 and stunt_tier(st, o[0]) == "red" for o in own)
    assert len(st.vars["red_deck"]) == 16 - 3 - 2
    assert st.view(1)["vars"]["own_stunts"][1] == {"hidden": 1}
    p = mover(st)
    quiet(st)
    clear(st)
    set_own(st, p, ["Closed Diamond"])
    for x in ("D4", "C3", "C5"):
        put(st, x, p, "N")
    refresh(st)
    dispatch(st, "B4")
    dispatch(st, "G7")
    st.drain_events()
    play(st, "claim a secret stunt")
    assert texts(st) == ["claim secret Closed Diamond (7 CP)"]
    play(st, texts(st)[0])
    assert st.vars["claimed"][p - 1] == ["Closed Diamond"] and st.vars["own_stunts"][p - 1] == []
    assert st.vars["stunts"][p - 1] == 1
    # the others learn that a secret stunt was performed, not which
    told = [e.get("move") or e.get("text") for e in st.drain_events(others(st, p)[0])]
    assert told == ["claim a secret stunt", "claims a secret stunt",
                    f"player {p} performs one of their secret stunts: 1 stunts"]
    assert not any("Closed Diamond" in t for t in told)
    check_invariants(st)


def test_mystery_stunts_keep_as_many_as_the_level_needs():
    st = game(2, mystery="on", level="local").new_state(seed=2)
    assert st.to_move() == [1, 2]
    assert [len(d) for d in st.vars["dealt"]] == [24, 24]
    for _ in range(4):
        for p in (1, 2):
            st.apply(st.legal_moves(p)[0], player=p)
    assert [len(o) for o in st.vars["own_stunts"]] == [4, 4]
    assert st.vars["dealt"] == [[], []]
    assert len(st.vars["panel"]) == 6
    assert sum(len(st.vars[f"{t}_deck"]) for t in ("green", "yellow", "red")) == 48 - 8 - 6
    check_invariants(st)


def test_mystery_extreme_for_four_all_stunts_in_hand_no_panel():
    st = game(4, mystery="on", level="extreme").new_state(seed=2)
    assert [len(o) for o in st.vars["own_stunts"]] == [12] * 4
    assert st.vars["panel"] == [] and st.vars["deck_ran_out"] is False
    assert st.step == "perform stunt"
    check_invariants(st)


def test_mystery_draft_passes_two_left_then_two_across():
    st = game(4, mystery="on", level="extreme", draft="on").new_state(seed=2)
    start = [list(d) for d in st.vars["dealt"]]
    passed_left = {}
    for _ in range(2):
        for p in range(1, 5):
            move = st.legal_moves(p)[0]
            passed_left.setdefault(p, []).append(move.text.removeprefix("pass "))
            st.apply(move, player=p)
    for p in range(1, 5):
        left = p % 4 + 1
        assert all(c in st.vars["dealt"][left - 1] for c in passed_left[p])
        assert all(c not in st.vars["dealt"][p - 1] for c in passed_left[p])
    passed_across = {}
    for _ in range(2):
        for p in range(1, 5):
            move = st.legal_moves(p)[-1]
            passed_across.setdefault(p, []).append(move.text.removeprefix("pass "))
            st.apply(move, player=p)
    for p in range(1, 5):
        across = (p + 1) % 4 + 1
        assert all(c in st.vars["own_stunts"][across - 1] for c in passed_across[p])
    assert [len(o) for o in st.vars["own_stunts"]] == [12] * 4
    assert sorted(c for o in st.vars["own_stunts"] for c in o) == sorted(c for d in start for c in d)
    check_invariants(st)


def test_refused_move_changes_nothing():
    st = ready(4)
    before = st.to_json()
    with pytest.raises(IllegalMoveError):
        st.apply("fly to the moon")
    assert st.to_json() == before


def test_cards_and_tables_match_the_appendices():
    g = game(2)
    assert len(g.compiled.tables["stunt"]) == 48
    assert {t: sum(g.compiled.columns["tier"][c] == t for c in g.compiled.tables["stunt"])
            for t in ("green", "yellow", "red")} == {"green": 16, "yellow": 16, "red": 16}
    assert len(g.compiled.tables["tactic"]) == 30
    assert sorted(set(g.compiled.tables["tactic"])) == sorted(TACTICS)
    assert len(g.compiled.tables["expertise"]) == 36
    assert {c: g.compiled.columns["deck_level"][c] for c in g.compiled.tables["expertise"]} == \
        {n: lvl for n, (lvl, _c) in EXPERTISE.items()}
    assert len(g.compiled.tables["request"]) == 18
