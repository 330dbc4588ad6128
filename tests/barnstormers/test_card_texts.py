"""Every card's `says` text against what its rule does (issue 39): each Skill and Tactic, Expertise
Bonus and Judges' Request card is played where each of its outcomes happens, the fallbacks included
(one plane where a card moves two, one plane in the hangar, one stunt left on the panel, a stunt deck
run out), and its text must name that outcome. The Trick Stunts' texts (shape and CP) are checked by
flying the shape the text draws, turned and mirrored as the text allows."""
from __future__ import annotations

import re

import pytest

from rulewright.interpreter.testing import mover, play, refresh, texts

from .helpers import EXPERTISE, TACTICS, clear, dispatch, fleet, give_bonus, put, ready, rolled, set_hand, \
    set_panel, stack_tactics
from .test_cards import _end_turn_drawing, play_card, scene, use
from .test_cover import _step, cells, fly_into
from .test_rules import QUIET_PANEL, _line_of, others, score_now

SAYS = ready(2).game.columns["says"]


def _says(card, *phrases):
    for phrase in phrases:
        assert phrase in SAYS[card], (card, phrase, SAYS[card])


def _headings_offered(st, origin):
    return sorted(t.split()[-1] for t in texts(st) if t.startswith(f"move {origin} "))


# ---------------------------------------------------------------- Skill and Tactic cards
def test_move_rival_plane():
    _says("Move Rival Plane", "one rival plane", "one space straight along its heading")
    st, p = scene(hand=["Move Rival Plane"])
    q = others(st, p)[0]
    put(st, "C4", q, "N")
    put(st, "A1", p, "N")
    play_card(st, "Move Rival Plane")
    assert texts(st) == ["move C4 N"]                      # a rival's, straight on only
    play(st, "move C4 N")
    assert fleet(st) == {"D4": (q, "N"), "A1": (p, "N")}


def test_adjust_and_move_a_plane():
    _says("Adjust AND Move a Plane", "one rival plane 45 degrees if you like, then fly it one space")
    st, p = scene(hand=["Adjust AND Move a Plane"])
    q = others(st, p)[0]
    put(st, "C4", q, "N")
    put(st, "A1", p, "N")
    play_card(st, "Adjust AND Move a Plane")
    assert _headings_offered(st, "C4") == ["N", "NE", "NW"] and _headings_offered(st, "A1") == []
    play(st, "move C4 NW")
    assert fleet(st, q) == {"D3": (q, "NW")}


@pytest.mark.parametrize("flying", [2, 1])
def test_move_two_planes_and_its_one_plane_fallback(flying):
    _says("Move Two Planes", "Fly two of your planes one space each", "(one, if only one flies)",
          "each may first turn 45 degrees")
    st, p = scene(hand=["Move Two Planes"])
    put(st, "A1", p, "N")
    if flying == 2:
        put(st, "A7", p, "N")
    play_card(st, "Move Two Planes")
    assert _headings_offered(st, "A1") == ["N", "NE", "NW"]
    play(st, "move A1 NE")
    if flying == 2:
        assert _headings_offered(st, "A7") == ["N", "NE", "NW"] and _headings_offered(st, "B2") == []
        play(st, "move A7 NW")
    assert fleet(st, p) == ({"B2": (p, "NE"), "B6": (p, "NW")} if flying == 2 else {"B2": (p, "NE")})
    assert texts(st) == ["dispatch a plane", "move a plane"]       # the card is done; two actions left


@pytest.mark.parametrize("start, end", [("B4", {"D4": "N"}), ("F4", {}), ("G4", {})])
def test_double_speed_and_leaving_the_air_show(start, end):
    """Two spaces straight on from B4; from the middle ring (F4) out after the second space, from the
    clouds (G4) out after the first, the second never flown."""
    _says("Double Speed", "two spaces straight on (it may first turn 45 degrees)", "it may leave the air show")
    st, p = scene(hand=["Double Speed"])
    put(st, start, p, "N")
    play_card(st, "Double Speed")
    assert sorted(t.split()[2] for t in texts(st)) == ["N", "NE", "NW"]
    play(st, f"fly {start} N two spaces")
    assert fleet(st) == {x: (p, h) for x, h in end.items()}
    assert len(st.vars["hangar"][p - 1]) == 6 - len(end)


@pytest.mark.parametrize("in_hangar", [6, 1])
def test_dispatch_two_planes_and_its_one_plane_fallback(in_hangar):
    _says("Dispatch Two Planes", "Dispatch two planes from your hangar one after the other", "(one, if one is left)",
          "rolling the wind for each")
    st, p = scene(hand=["Dispatch Two Planes"])
    for x in ("A1", "A3", "A5", "A7", "C1")[:6 - in_hangar]:
        put(st, x, p, "N")
    play_card(st, "Dispatch Two Planes")
    for x in ("G1", "G3")[:min(in_hangar, 2)]:
        wind = rolled(st)
        play(st, f"place at {x}")
        assert fleet(st, p)[x] == (p, wind)
    assert len(fleet(st, p)) == (2 if in_hangar == 6 else 6)
    assert texts(st) == (["dispatch a plane", "move a plane"] if in_hangar == 6 else ["move a plane"])


def test_dispatch_and_move_planes():
    _says("Dispatch AND Move Planes", "Dispatch a plane (roll the wind)",
          "then you may fly any one of your planes one space, turning it 45 degrees first if you like")
    st, p = scene(hand=["Dispatch AND Move Planes"])
    put(st, "A7", p, "N")
    play_card(st, "Dispatch AND Move Planes")
    wind = rolled(st)
    play(st, "place at D4")
    assert fleet(st, p)["D4"] == (p, wind)
    assert _headings_offered(st, "A7") == ["N", "NE", "NW"] and texts(st)[-1] == "no move"
    play(st, "move A7 NW")
    assert fleet(st, p)["B6"] == (p, "NW")
    st, p = scene(hand=["Dispatch AND Move Planes"])
    play_card(st, "Dispatch AND Move Planes")
    play(st, "place at D4", "no move")
    assert list(fleet(st, p)) == ["D4"]


def test_dispatch_a_plane():
    _says("Dispatch a Plane", "facing the heading you choose, without rolling the wind")
    st, p = scene(hand=["Dispatch a Plane"])
    play_card(st, "Dispatch a Plane")
    assert len(texts(st)) == 8
    play(st, "dispatch facing SW", "place at E5")
    assert fleet(st) == {"E5": (p, "SW")}


def test_swap_any_two_planes():
    _says("Swap any Two Planes", "Any two planes in the air show change places, keeping their headings")
    st, p = scene(hand=["Swap any Two Planes"])
    q, r = others(st, p)[:2]
    put(st, "A1", q, "N")
    put(st, "G7", r, "S")
    play_card(st, "Swap any Two Planes")
    play(st, "swap A1", "with G7")
    assert fleet(st) == {"A1": (r, "S"), "G7": (q, "N")}


def test_recall_any_plane():
    _says("Recall any Plane", "Send any plane in the air show back to its owner's hangar")
    st, p = scene(hand=["Recall any Plane"])
    q = others(st, p)[0]
    put(st, "D4", q, "S")
    put(st, "A1", p, "N")
    play_card(st, "Recall any Plane")
    assert texts(st) == ["recall A1", "recall D4"]          # own or rival
    play(st, "recall D4")
    assert fleet(st) == {"A1": (p, "N")} and len(st.vars["hangar"][q - 1]) == 6


@pytest.mark.parametrize("target, end", [("F2", {"F2": "own"}), ("D4", {"D4": "own", "D5": "rival"})])
def test_encounter_a_tailwind(target, end):
    _says("Encounter a Tailwind", "Lift one of your planes and set it on any other space", "a plane there is pushed on")
    st, p = scene(hand=["Encounter a Tailwind"])
    q = others(st, p)[0]
    put(st, "A1", p, "N")
    put(st, "D4", q, "E")
    play_card(st, "Encounter a Tailwind")
    play(st, "lift A1", f"put it at {target}")
    who = {"own": (p, "N"), "rival": (q, "E")}
    assert fleet(st) == {x: who[w] for x, w in end.items()} | ({"D4": (q, "E")} if target != "D4" else {})


@pytest.mark.parametrize("start, end", [("D4", "C4"), ("A4", None)])
def test_loop_the_loop(start, end):
    """Backwards one space, the heading kept; from the clouds backwards out of the air show."""
    _says("Loop the Loop", "one space backwards, towards its tail")
    st, p = scene(hand=["Loop the Loop"])
    put(st, start, p, "N")
    play_card(st, "Loop the Loop")
    play(st, texts(st)[0])
    assert fleet(st) == ({end: (p, "N")} if end else {})


def test_intercept_orders_both_ways():
    _says("Intercept Orders", "Fly a rival plane one space along its heading",
          "or turn one of yours to a new heading and fly it one space")
    st, p = scene(hand=["Intercept Orders"])
    q = others(st, p)[0]
    put(st, "D4", p, "N")
    put(st, "B2", q, "E")
    play_card(st, "Intercept Orders")
    keep = st.clone()
    play(st, "move a rival's plane", "move B2 E")
    assert fleet(st) == {"D4": (p, "N"), "B3": (q, "E")}
    st = keep
    play(st, "reset and move your own plane", "reset D4")
    assert "face N and move" not in texts(st) and len(texts(st)) == 7   # a new heading
    play(st, "face SW and move")
    assert fleet(st) == {"C3": (p, "SW"), "B2": (q, "E")}


def test_freak_windstorm():
    """Drawn by p, whose two planes (G1, G2) and q's are in the air: p turns one of q's planes, and
    the player before p one of p's; the others' clockwise rivals have nothing in the air."""
    _says("Freak Windstorm", "Plays out when drawn: roll the wind",
          "each player turns a plane of the next player to it and flies it one space")
    st, p = scene(hand=[])
    q, r, s = others(st, p)
    put(st, "C2", q, "N")
    _end_turn_drawing(st, p, ["Freak Windstorm", "Loop the Loop", "Swap any Two Planes"])
    assert st.to_move() == [q]
    play(st, "take the penalty")
    (turn,) = texts(st)
    assert st.to_move() == [p] and turn.startswith("turn C2 to ")
    wind = turn.split()[3]
    play(st, turn)
    assert st.to_move() == [p]
    play(st, "take the penalty")
    assert st.to_move() == [s] and texts(st) == [f"turn G1 to {wind} and move it", f"turn G2 to {wind} and move it"]
    play(st, f"turn G1 to {wind} and move it")
    assert fleet(st, q) == {_step("C2", wind, 1, 7): (q, wind)}
    on = _step("G1", wind, 1, 7)                            # none: flown out of the air show
    assert fleet(st, p)[on] == (p, wind) if on else len(fleet(st, p)) == 1
    assert sorted(st.vars["hand"][p - 1]) == ["Loop the Loop", "Swap any Two Planes"]


def test_freak_thunderstorm():
    _says("Freak Thunderstorm", "Plays out when drawn", "each player with planes in the air sends one back to the hangar")
    st, p = scene(players=4, hand=[])
    q, r, s = others(st, p)
    put(st, "B6", q, "N")
    put(st, "F6", r, "N")                                   # s has nothing in the air: not asked
    _end_turn_drawing(st, p, ["Freak Thunderstorm", "Loop the Loop", "Swap any Two Planes"])
    for who in (p, q, r):
        assert st.to_move() == [who] and texts(st) == ["take the penalty"]
        play(st, "take the penalty")
        play(st, texts(st)[0])
    assert len(fleet(st, p)) == 1 and fleet(st, q) == {} and fleet(st, r) == {}
    assert mover(st) == q


def test_every_skill_and_tactic_card_has_a_text_test():
    tested = {"Move Rival Plane", "Adjust AND Move a Plane", "Move Two Planes", "Double Speed", "Dispatch Two Planes",
              "Dispatch AND Move Planes", "Dispatch a Plane", "Swap any Two Planes", "Recall any Plane",
              "Encounter a Tailwind", "Loop the Loop", "Intercept Orders", "Freak Windstorm", "Freak Thunderstorm"}
    assert tested == set(TACTICS)


# ---------------------------------------------------------------- Expertise Bonus cards
def test_plus_one_skill_and_tactic_card():
    _says("+1 S&T Card", "Draw one more Skill and Tactic card now", "you will not replace it once it is played")
    st, p = scene(hand=["Loop the Loop", "Dispatch a Plane"], bonuses=["+1 S&T Card"])
    stack_tactics(st, ["Recall any Plane"])
    use(st, "+1 S&T Card")
    assert st.vars["hand"][p - 1] == ["Loop the Loop", "Dispatch a Plane", "Recall any Plane"]
    play(st, "play a Skill and Tactic card", "play Dispatch a Plane", "dispatch facing N", "place at A1")
    dispatch(st, "A4")
    dispatch(st, "G7")
    play(st, "keep your cards")
    assert len(st.vars["hand"][p - 1]) == 2 and mover(st) != p     # no card drawn for the one played


@pytest.mark.parametrize("card, plays", [("Play 2 Skill and Tactic Cards", 2), ("Play All Skill and Tactic Cards", 3)])
def test_play_two_or_all_skill_and_tactic_cards(card, plays):
    _says(card, "This turn you may play", "two Skill and Tactic cards instead of one" if plays == 2
          else "every Skill and Tactic card in your hand")
    hand = ["Dispatch a Plane", "Dispatch a Plane", "Dispatch a Plane"][:plays] + ["Recall any Plane"]
    st, p = scene(hand=hand, bonuses=[card])
    use(st, card)
    for i in range(plays):
        play(st, "play a Skill and Tactic card", "play Dispatch a Plane", "dispatch facing N", f"place at A{i + 1}")
    can_play_more = "play a Skill and Tactic card" in texts(st)
    assert can_play_more == (plays == 3) and st.vars["actions_left"] == 2


@pytest.mark.parametrize("card, more", [("+1 Action", 1), ("+2 Actions", 2)])
def test_extra_actions(card, more):
    _says(card, "Take one more action this turn." if more == 1 else "Take two more actions this turn.")
    st, p = scene(bonuses=[card])
    use(st, card)
    assert st.vars["actions_left"] == 2 + more


@pytest.mark.parametrize("card", ["Reset Headings", "Recall Planes", "Reset and Move Planes"])
@pytest.mark.parametrize("flying", [2, 1])
def test_two_planes_in_the_air_show_or_the_only_one(card, flying):
    _says(card, "any two planes in the air show (the only one, if one flies)")
    st, p = scene(bonuses=[card])
    q = others(st, p)[0]
    put(st, "B2", q, "E")
    if flying == 2:
        put(st, "D4", p, "N")
    use(st, card)
    if card == "Recall Planes":
        _says(card, "back to their hangars")
        for x in ("B2", "D4")[:flying]:
            play(st, f"recall {x}")
        assert fleet(st) == {} and len(st.vars["hangar"][q - 1]) == 6
        return
    moves = card == "Reset and Move Planes"
    _says(card, "to headings you choose", *(["each flying one space on"] if moves else []))
    for x, h in (("B2", "N"), ("D4", "SW"))[:flying]:
        play(st, f"reset {x}", f"face {h}")
    expect = {"C2": (q, "N"), "C3": (p, "SW")} if moves else {"B2": (q, "N"), "D4": (p, "SW")}
    assert fleet(st) == dict(list(expect.items())[:flying])
    assert st.step == "perform stunt" and "reset" not in " ".join(texts(st))


def test_immunity_to_freak_events():
    _says("Immunity to Freak Events", "When a Freak card hits you, play this to escape its penalty")
    st, p = scene(bonuses=["Immunity to Freak Events"])
    _end_turn_drawing(st, p, ["Freak Thunderstorm", "Loop the Loop", "Swap any Two Planes"])
    play(st, "play Immunity to Freak Events")
    assert len(fleet(st, p)) == 2 and st.vars["bonuses"][p - 1] == []


def test_flying_aces():
    _says("Flying Aces", "Keep it on display", "a chained manoeuvre of 5 planes, not 6, earns you a level 1 Expertise")
    st = ready(4, seed=2)
    p = mover(st)
    q, r, s = others(st, p)
    give_bonus(st, p, "Flying Aces")
    _line_of(st, p, [p, q, r, s, q])
    play(st, "use an Expertise Bonus card", "use Flying Aces", "move a plane", "move B1 E")
    dispatch(st, "G7")
    assert st.vars["displayed"][p - 1] == ["Flying Aces"] and st.vars["chain_cards"][p - 1] == 1
    assert len(st.vars["bonuses"][p - 1]) == 1


@pytest.mark.parametrize("bonuses, extra", [(["Barnstormer Award"], 5), (["Precision Flying"], 9),
                                             (["Precision Flying", "Precision Flying"], 9 + 2)])
def test_end_of_game_cards(bonuses, extra):
    _says("Barnstormer Award", "Keep it: 5 CP more at the end of the game.")
    _says("Precision Flying", "Keep it: at the end of the game one of your Trick Stunts scores double.")
    out = score_now(ready(2), [["Halo", "Wingmen"], []], bonuses={1: bonuses})
    assert out.scores[1] == 9 + 2 + extra


@pytest.mark.parametrize("deck_left", [True, False])
def test_reserve_a_trick_stunt(deck_left):
    _says("Reserve a Trick Stunt", "keep it face up for you alone to perform", "its deck refills the slot while it lasts")
    st, p = scene(bonuses=["Reserve a Trick Stunt"])
    set_panel(st, ["Wingmen", "Wide Abreast", "Kite", "Trident", "Halo", "Arrow"])
    if not deck_left:
        _empty_deck(st, "green")
    use(st, "Reserve a Trick Stunt")
    play(st, "reserve Wingmen")
    assert st.vars["reserved"][p - 1] == ["Wingmen"] and "Wingmen" not in st.vars["panel"]
    assert len(st.vars["panel"]) == (6 if deck_left else 5)


def _empty_deck(st, tier):
    v = st.vars
    v["box"] += v[f"{tier}_deck"]
    v[f"{tier}_deck"] = []
    refresh(st)


@pytest.mark.parametrize("panel, deck_left, gone", [(6, True, 2), (1, True, 1), (6, False, 2)])
def test_discard_two_trick_stunts(panel, deck_left, gone):
    _says("Discard 2 Trick Stunts", "Remove two Trick Stunts from the Judges' Panel (one, if one is left)",
          "their decks refill the slots while they last")
    st, p = scene(bonuses=["Discard 2 Trick Stunts"])
    set_panel(st, ["Wingmen", "Vic", "Kite", "Trident", "Halo", "Arrow"][:panel])
    if not deck_left:
        _empty_deck(st, "green")
    use(st, "Discard 2 Trick Stunts")
    for c in ("Wingmen", "Vic")[:gone]:
        play(st, f"discard {c}")
    assert "Wingmen" not in st.vars["panel"] and "Wingmen" in st.vars["box"]
    assert len(st.vars["panel"]) == (panel if deck_left else panel - gone)


@pytest.mark.parametrize("deck_left", [True, False])
def test_discard_all_trick_stunts(deck_left):
    _says("Discard All Trick Stunts", "Clear the whole Judges' Panel", "its decks refill the slots while they last")
    st, p = scene(bonuses=["Discard All Trick Stunts"])
    before = list(st.vars["panel"])
    if not deck_left:
        _empty_deck(st, "red")
    use(st, "Discard All Trick Stunts")
    assert not set(before) & set(st.vars["panel"]) and set(before) <= set(st.vars["box"])
    assert len(st.vars["panel"]) == (6 if deck_left else 4)


def test_recall_rival_planes():
    _says("Recall Rival Planes", "Every rival sends one of their planes in the air back to the hangar; yours stay.")
    st, p = scene(bonuses=["Recall Rival Planes"])
    q, r, s = others(st, p)
    put(st, "D4", p, "N")
    put(st, "B2", q, "E")
    put(st, "F6", r, "E")
    use(st, "Recall Rival Planes")
    play(st, "return B2 to your hangar", "return F6 to your hangar")      # s has none in the air
    assert fleet(st) == {"D4": (p, "N")} and st.to_move() == [p]


def test_reset_all_headings():
    _says("Reset All Headings", "Turn one or more of your own planes to headings you choose.")
    st, p = scene(bonuses=["Reset All Headings"])
    q = others(st, p)[0]
    for x in ("D4", "B4"):
        put(st, x, p, "N")
    put(st, "B2", q, "E")
    use(st, "Reset All Headings")
    assert texts(st) == ["reset B4", "reset D4"]                       # own planes, one at least
    play(st, "reset D4", "face E")
    assert texts(st) == ["reset B4", "no more"]
    play(st, "no more")
    assert fleet(st) == {"D4": (p, "E"), "B4": (p, "N"), "B2": (q, "E")}


def test_every_expertise_card_has_a_text_test():
    tested = {"+1 S&T Card", "Play 2 Skill and Tactic Cards", "Play All Skill and Tactic Cards", "+1 Action",
              "+2 Actions", "Reset Headings", "Recall Planes", "Reset and Move Planes", "Immunity to Freak Events",
              "Flying Aces", "Barnstormer Award", "Precision Flying", "Reserve a Trick Stunt",
              "Discard 2 Trick Stunts", "Discard All Trick Stunts", "Recall Rival Planes", "Reset All Headings"}
    assert tested == set(EXPERTISE)


COLS = ready(2).game.columns


# ---------------------------------------------------------------- Trick Stunts
def _turned_and_mirrored(shape):
    """The text's shape turned a quarter turn and mirrored: "any way round"."""
    rows = shape.split("/")
    turned = ["".join(row[c] for row in reversed(rows)) for c in range(len(rows[0]))]
    return "/".join(row[::-1] for row in turned)


@pytest.fixture(scope="module")
def open_show():
    st = ready(4)
    clear(st)
    for q in range(1, 5):
        set_hand(st, q, [])
    return st


@pytest.mark.parametrize("card", sorted(COLS["shape"]))
def test_a_stunts_text_draws_the_formation_to_fly_and_its_points(open_show, card):
    """The shape drawn in the text, flown turned and mirrored, is claimed for the CP the text names."""
    m = re.search(r": ([x./]+) \(rows from the top, any way round\)\. (\d+) CP\.$", SAYS[card])
    shape, points = m.group(1), int(m.group(2))
    st = open_show.clone()
    p = mover(st)
    set_panel(st, [card] + [c for c in QUIET_PANEL if c != card][:5])
    fly_into(st, p, cells(_turned_and_mirrored(shape)), 7)
    play(st, "claim a Trick Stunt", f"claim {card} ({points} CP)")
    assert st.vars["claimed"][p - 1] == [card]
    out = score_now(st, [st.vars["claimed"][i] for i in range(4)])
    assert out.scores[p] == points
