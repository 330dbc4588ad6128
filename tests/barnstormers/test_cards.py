"""Every Skill and Tactic card and every Expertise Bonus card does what its text says."""
from __future__ import annotations

import pytest

from rulewright.interpreter.testing import logs, mover, play, refresh, texts

from .helpers import (EXPERTISE, check_invariants, clear, dispatch, fleet, give_bonus, put, ready, set_hand,
                      set_panel, stack_tactics)
from .test_rules import QUIET_PANEL, others


def scene(players=4, seed=1, hand=(), bonuses=()):
    """An empty air show; the player to move holds ``hand`` and ``bonuses``, nobody else a card."""
    st = ready(players, seed=seed)
    p = mover(st)
    clear(st)
    for q in range(1, players + 1):
        set_hand(st, q, [])
    set_hand(st, p, list(hand))
    for b in bonuses:
        give_bonus(st, p, b)
    set_panel(st, QUIET_PANEL)
    return st, p


def play_card(st, name):
    refresh(st)
    play(st, "play a Skill and Tactic card", f"play {name}")


def use(st, name):
    refresh(st)
    play(st, "use an Expertise Bonus card", f"use {name}")


# ---------------------------------------------------------------- Skill and Tactic cards
def test_cards_only_offered_when_they_can_be_played():
    st, p = scene(hand=["Move Rival Plane", "Loop the Loop"])
    refresh(st)
    assert "play a Skill and Tactic card" not in texts(st)      # nobody in the air
    put(st, "D4", p, "N")
    refresh(st)
    play(st, "play a Skill and Tactic card")
    assert texts(st) == ["play Loop the Loop"]


# ---------------------------------------------------------------- Freak cards
def _end_turn_drawing(st, p, first_cards):
    """p has played no card; the deck's top is ``first_cards``; p ends the stunt and draws."""
    stack_tactics(st, first_cards)
    refresh(st)
    dispatch(st, "G1")
    dispatch(st, "G2")
    # a player keeping Expertise cards is asked on, usable or not (the others cannot tell)
    while texts(st) in (["end the stunt"], ["claim no Trick Stunt"]):
        play(st, texts(st)[0])


def test_freak_windstorm_turns_and_moves_a_plane_of_each_clockwise_rival():
    st, p = scene()
    order = [p] + others(st, p)
    spots = {order[0]: "D2", order[1]: "B6", order[2]: "F6", order[3]: "B2"}     # far apart
    for q, x in spots.items():
        put(st, x, q, "N")
    stack_tactics(st, ["Freak Windstorm", "Loop the Loop", "Swap any Two Planes"])
    refresh(st)
    play(st, "move a plane", "move D2 N", "move a plane", "move E2 N")
    spots[p] = "F2"
    assert fleet(st, p) == {"F2": (p, "N")}
    assert any("draws a Freak Windstorm" in line for line in logs(st))
    wind = None
    for q in order:                                   # each player, from the drawer, in turn
        rival = q % 4 + 1
        # the rival is asked about Immunity first, holding it or not: being asked tells nothing
        assert st.to_move() == [rival] and texts(st) == ["take the penalty"]
        play(st, "take the penalty")
        assert st.to_move() == [q]
        (t,) = texts(st)
        assert t.startswith(f"turn {spots[rival]} to ")
        wind = t.split()[3]
        play(st, t)
    assert all(h == wind for x, (o, h) in fleet(st).items())
    assert sorted(st.vars["hand"][p - 1]) == ["Loop the Loop", "Swap any Two Planes"]
    assert "Freak Windstorm" in st.vars["tactics_discard"]
    check_invariants(st)


def test_freak_thunderstorm_and_immunity():
    st, p = scene(bonuses=["Immunity to Freak Events"])
    order = [p] + others(st, p)
    for q, x in zip(order, ("B2", "B6", "F6")):     # the fourth player has no plane in the air
        put(st, x, q, "N")
    put(st, "D4", p, "E")
    _end_turn_drawing(st, p, ["Freak Thunderstorm", "Loop the Loop", "Swap any Two Planes"])
    assert texts(st) == ["play Immunity to Freak Events", "take the penalty"]
    play(st, "play Immunity to Freak Events")
    assert st.vars["expertise_used"][0] == ["Immunity to Freak Events"]
    assert st.to_move() == [order[1]] and texts(st) == ["take the penalty"]   # asked all the same
    play(st, "take the penalty")
    assert st.to_move() == [order[1]] and texts(st) == ["return B6 to your hangar"]
    play(st, "return B6 to your hangar")
    play(st, "take the penalty", "return F6 to your hangar")
    assert set(fleet(st)) == {"B2", "D4", "G1", "G2"}           # p was immune
    assert mover(st) == order[1] and st.step == "perform stunt"
    check_invariants(st)


def test_each_reshuffle_removes_one_freak_card():
    st, p = scene()
    v = st.vars
    v["tactics_discard"] = v["tactics"] + v["tactics_discard"]
    v["tactics"] = []
    freaks = sum(c.startswith("Freak") for c in v["tactics_discard"])
    refresh(st)
    dispatch(st, "G1")
    dispatch(st, "G2")
    while st.to_move() != [others(st, p)[0]] or st.step != "perform stunt":
        play(st, texts(st)[0])
    assert sum(c.startswith("Freak") for c in v["box"]) == 1
    assert sum(c.startswith("Freak") for c in v["tactics"] + v["tactics_discard"]) == freaks - 1
    assert any("reshuffled" in line for line in logs(st))
    check_invariants(st)


# ---------------------------------------------------------------- Expertise Bonus cards
def test_plus_one_skill_and_tactic_card():
    st, p = scene(hand=["Loop the Loop", "Dispatch a Plane"], bonuses=["+1 S&T Card"])
    stack_tactics(st, ["Recall any Plane"])
    use(st, "+1 S&T Card")
    assert st.vars["hand"][p - 1] == ["Loop the Loop", "Dispatch a Plane", "Recall any Plane"]
    assert st.vars["expertise_used"][0] == ["+1 S&T Card"]
    play(st, "play a Skill and Tactic card", "play Dispatch a Plane", "dispatch facing N", "place at A1")
    dispatch(st, "A4")
    dispatch(st, "G7")
    assert texts(st) == ["discard Loop the Loop", "discard Recall any Plane", "keep your cards"]
    play(st, "keep your cards")
    assert len(st.vars["hand"][p - 1]) == 2          # the extra card is not replaced


def test_play_two_skill_and_tactic_cards():
    st, p = scene(hand=["Dispatch a Plane", "Dispatch Two Planes"], bonuses=["Play 2 Skill and Tactic Cards"])
    use(st, "Play 2 Skill and Tactic Cards")
    play(st, "play a Skill and Tactic card", "play Dispatch a Plane", "dispatch facing N", "place at A1")
    assert texts(st) == ["dispatch a plane", "move a plane", "play a Skill and Tactic card"]   # a second card
    play(st, "play a Skill and Tactic card", "play Dispatch Two Planes", "place at A2", "place at A3")
    assert st.vars["cards_played"] == 2 and st.vars["hand"][p - 1] == []
    assert set(fleet(st, p)) == {"A1", "A2", "A3"} and fleet(st, p)["A1"] == (p, "N")
    assert st.vars["actions_left"] == 2                # the cards came on top of the two actions


def test_play_all_skill_and_tactic_cards():
    st, p = scene(hand=["Dispatch a Plane", "Dispatch a Plane", "Recall any Plane"],
                  bonuses=["Play All Skill and Tactic Cards"])
    use(st, "Play All Skill and Tactic Cards")
    play(st, "play a Skill and Tactic card", "play Dispatch a Plane", "dispatch facing N", "place at A1")
    play(st, "play a Skill and Tactic card", "play Dispatch a Plane", "dispatch facing N", "place at A2")
    play(st, "play a Skill and Tactic card", "play Recall any Plane", "recall A1")
    assert st.vars["hand"][p - 1] == [] and st.vars["cards_played"] == 3


def test_reserve_a_trick_stunt():
    st, p = scene(bonuses=["Reserve a Trick Stunt"])
    set_panel(st, ["Wingmen", "Wide Abreast", "Kite", "Trident", "Halo", "Arrow"])
    put(st, "D3", p, "N")
    use(st, "Reserve a Trick Stunt")
    play(st, "reserve Wingmen")
    assert st.vars["reserved"][p - 1] == ["Wingmen"] and "Wingmen" not in st.vars["panel"]
    assert len(st.vars["panel"]) == 6                  # the slot is refilled
    set_panel(st, QUIET_PANEL)                         # nothing else to claim
    dispatch(st, "D4")
    dispatch(st, "A7")
    play(st, "claim a Trick Stunt")
    assert texts(st) == ["claim reserved Wingmen (2 CP)"]
    play(st, "claim reserved Wingmen (2 CP)")
    assert st.vars["claimed"][p - 1] == ["Wingmen"] and st.vars["reserved"][p - 1] == []
    check_invariants(st)


def test_recall_rival_planes():
    st, p = scene(bonuses=["Recall Rival Planes"])
    q, r, s = others(st, p)
    put(st, "D4", p, "N")
    put(st, "B2", q, "E")
    put(st, "B4", q, "E")
    put(st, "F6", r, "E")
    use(st, "Recall Rival Planes")
    assert st.to_move() == [q] and texts(st) == ["return B2 to your hangar", "return B4 to your hangar"]
    play(st, "return B4 to your hangar")
    assert st.to_move() == [r]
    play(st, "return F6 to your hangar")                 # s has nothing in the air
    assert fleet(st) == {"D4": (p, "N"), "B2": (q, "E")}
    assert st.to_move() == [p]


def test_reset_all_headings_from_one_to_all_of_your_planes():
    st, p = scene(bonuses=["Reset All Headings", "Reset All Headings"])
    q = others(st, p)[0]
    put(st, "D4", p, "N")
    put(st, "B4", p, "N")
    put(st, "F4", p, "N")
    put(st, "B2", q, "E")
    use(st, "Reset All Headings")
    assert texts(st) == ["reset B4", "reset D4", "reset F4"]       # own planes only, one at least
    play(st, "reset D4", "face E")
    assert texts(st) == ["reset B4", "reset F4", "no more"]
    play(st, "reset F4", "face W", "reset B4", "face S")
    assert fleet(st, p) == {"D4": (p, "E"), "F4": (p, "W"), "B4": (p, "S")}
    use(st, "Reset All Headings")
    play(st, "reset D4", "face N", "no more")
    assert fleet(st, p)["D4"] == (p, "N") and fleet(st, p)["F4"] == (p, "W")


@pytest.mark.parametrize("card, gone", [("Discard 2 Trick Stunts", 2), ("Discard All Trick Stunts", 6)])
def test_discard_trick_stunts(card, gone):
    st, p = scene(bonuses=[card])
    before = list(st.vars["panel"])
    use(st, card)
    if gone == 2:
        play(st, "discard Kite", "discard Halo")
        assert "the judges replace Kite and Halo" in logs(st)
    after = st.vars["panel"]
    assert len(after) == 6 and len(set(before) & set(after)) == 6 - gone
    assert sorted(st.game.columns["tier"][c] for c in after) == ["green"] * 2 + ["red"] * 2 + ["yellow"] * 2
    assert len([c for c in st.vars["box"] if c in before]) == gone
    check_invariants(st)


def test_used_expertise_cards_go_to_the_bottom_and_resurface():
    st, p = scene(bonuses=["+1 Action"])
    v = st.vars
    v["expertise_used"][0] += v["expertise_deck"][0]
    v["expertise_deck"][0] = []
    use(st, "+1 Action")
    assert v["expertise_used"][0][-1] == "+1 Action"
    v["stunts"][p - 1] = 1
    set_panel(st, ["Wingmen", "Wide Abreast", "Kite", "Trident", "Halo", "Arrow"])
    put(st, "D3", p, "N")
    refresh(st)
    dispatch(st, "D4")
    dispatch(st, "A7")
    dispatch(st, "A5")
    play(st, "claim a Trick Stunt", "claim Wingmen (2 CP)")     # the tracker reaches 2: level 1
    assert len(v["bonuses"][p - 1]) == 1
    assert v["expertise_used"][0] == [] and len(v["expertise_deck"][0]) == 15   # reshuffled
    check_invariants(st)


def test_expertise_in_the_scoring_step():
    st, p = scene(bonuses=["Reset Headings", "+1 Action"])
    put(st, "D4", p, "N")
    refresh(st)
    dispatch(st, "A1")
    dispatch(st, "A3")
    assert texts(st) == ["use an Expertise Bonus card", "end the stunt"]
    play(st, "end the stunt")
    assert texts(st) == ["use an Expertise Bonus card", "claim no Trick Stunt"]
    play(st, "use an Expertise Bonus card")
    assert texts(st) == ["use Reset Headings"]                 # extra actions are over by now
    play(st, "use Reset Headings", "reset D4", "face S", "reset A1")
    play(st, texts(st)[0])
    assert fleet(st, p)["D4"] == (p, "S")
    # +1 Action is still kept: the player is asked on, with nothing to use (the others cannot tell)
    assert texts(st) == ["claim no Trick Stunt"]
    play(st, "claim no Trick Stunt")
    assert st.step == "replace skill and tactic cards"
    while mover(st) == p:
        assert "end the turn" in texts(st)
        play(st, texts(st)[-1] if texts(st)[-1] == "end the turn" else texts(st)[0])
    assert mover(st) != p


def test_expertise_in_the_replace_step():
    """"Expertise Bonus cards can be used at any time during your turn": after the draw too, where
    +1 S&T Card leaves a third card in hand; the cards for actions are over by then."""
    st, p = scene(bonuses=["+1 S&T Card", "+2 Actions", "Reset Headings", "Barnstormer Award"])
    stack_tactics(st, ["Recall any Plane", "Loop the Loop", "Dispatch a Plane"])
    refresh(st)
    dispatch(st, "A1")
    dispatch(st, "D4")
    play(st, "end the stunt", "claim no Trick Stunt")
    assert st.step == "replace skill and tactic cards"
    assert texts(st) == ["use +1 S&T Card", "use Reset Headings", "end the turn"]
    assert st.vars["hand"][p - 1] == ["Recall any Plane", "Loop the Loop"]
    play(st, "use +1 S&T Card")
    assert st.vars["hand"][p - 1] == ["Recall any Plane", "Loop the Loop", "Dispatch a Plane"]
    assert texts(st) == ["use Reset Headings", "end the turn"]
    play(st, "use Reset Headings", "reset D4", "face S", "reset A1", "face E")
    assert fleet(st, p) == {"A1": (p, "E"), "D4": (p, "S")}
    assert texts(st) == ["end the turn"]                       # two cards kept, neither usable now
    play(st, "end the turn")
    assert mover(st) != p
    assert st.vars["bonuses"][p - 1] == ["+2 Actions", "Barnstormer Award"]
    check_invariants(st)


def test_every_expertise_card_is_tested():
    tested = {"+1 S&T Card", "Play 2 Skill and Tactic Cards", "+1 Action", "+2 Actions",
              "Play All Skill and Tactic Cards", "Reset Headings", "Recall Planes", "Reset and Move Planes",
              "Reserve a Trick Stunt", "Recall Rival Planes", "Reset All Headings", "Discard 2 Trick Stunts",
              "Discard All Trick Stunts", "Immunity to Freak Events",
              "Flying Aces", "Barnstormer Award", "Precision Flying"}   # the last three in test_rules
    assert tested == set(EXPERTISE)


def test_a_card_taken_at_a_level_up_point_may_be_played_at_once():
    st, p = scene()
    v = st.vars
    v["expertise_deck"][0].remove("Reset Headings")
    v["expertise_deck"][0].append("Reset Headings")          # the top of the level 1 deck
    v["stunts"][p - 1] = 1
    set_panel(st, ["Wingmen", "Wide Abreast", "Kite", "Trident", "Halo", "Arrow"])
    put(st, "D3", p, "N")
    refresh(st)
    dispatch(st, "D4")
    dispatch(st, "A7")
    play(st, "claim a Trick Stunt", "claim Wingmen (2 CP)")
    assert v["bonuses"][p - 1] == ["Reset Headings"]
    assert texts(st) == ["use an Expertise Bonus card", "finish scoring"]    # no second stunt
    play(st, "use an Expertise Bonus card", "use Reset Headings", "reset D3", "face S", "reset D4", "face E")
    assert fleet(st, p)["D3"] == (p, "S") and mover(st) != p
