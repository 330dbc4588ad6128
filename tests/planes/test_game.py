"""Setup for 2, 3 and 4 players on both airports, the points-of-interest layouts, drawing and
reshuffling, Player Decks, the end triggers at the end of the round, scoring and its tie-breaks,
the command line, and snapshots of the rendered airport."""
from __future__ import annotations

import functools
import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from rulewright.cli.main import app

from rulewright.interpreter.testing import ends, refresh, texts

from .helpers import (ALL_CARDS, CARDS, CLOUD_FLOOR, COLOURS, GATES, GREY_GATES, ZEPHYR_FLOOR, board_quietly,
                      cards_everywhere, fill, game, play, plain_turn, set_board, set_hand, spec, stack_deck,
                      start)


# ------------------------------------------------------------------ setup
@pytest.mark.parametrize("airport", ["flying_cloud", "zephyr"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_puts_all_four_colours_on_the_board_whatever_the_player_count(players, airport):
    st = start(players, airport=airport)
    v = st.vars
    assert sorted(v["floor"]) == sorted(CLOUD_FLOOR if airport == "flying_cloud" else ZEPHYR_FLOOR)
    for i, c in enumerate(COLOURS, 1):
        assert v["cubes"][f"P{i}"] == [c] * 5
        assert v["planes"][f"G{i}"] == c and v["boarded"][c] == 0
    others = [s for s in v["floor"] if not s.startswith("P")]
    assert len(others) == 10 and all(v["cubes"][s] == ["grey", "grey"] for s in others)
    assert all(v["cubes"][g] == [] for g in GATES)
    assert v["colour"] == COLOURS[:players]
    assert v["neutrals"] == ["grey"] + COLOURS[players:]
    assert [len(h) for h in v["hand"]] == [3] * players and len(v["deck"]) == 60 - 3 * players
    assert cards_everywhere(st) == ALL_CARDS and v["track"] == 0 and v["cones"] == []
    assert st.to_move() == [1] and texts(st)[-1] == "no action"
    board = st.render(1)
    for i, c in enumerate(COLOURS, 1):
        line = next(l for l in board.splitlines() if l.startswith(f"G{i} "))
        assert (f"plane {c} 0/5" in line) and (("draw 2" in line) == (i > players))


def test_each_gate_opens_beside_the_space_in_front_of_it_and_the_zephyr_centre_branches():
    cloud = game(2).compiled.board
    assert {g: cloud.previous(g) for g in GATES} == {"G1": ["S1"], "G2": ["S5"], "G3": ["S4"], "G4": ["S8"]}
    zephyr = game(2, airport="zephyr").compiled.board
    assert {g: zephyr.previous(g) for g in GATES} == {"G1": ["S5"], "G2": ["S7"], "G3": ["S1"], "G4": ["S3"]}
    # the grey neutral gates: on Flying Cloud where the Game Example needs them (N2 beside P1, N1
    # beside S6); on Zephyr beside the first space after P1 and after P3
    assert {g: cloud.previous(g) for g in GREY_GATES} == {"N1": ["S6"], "N2": ["P1"]}
    assert {g: zephyr.previous(g) for g in GREY_GATES} == {"N1": ["S2"], "N2": ["S6"]}
    gates = GATES + GREY_GATES
    assert all(cloud.next(g) == [] == zephyr.next(g) for g in gates)
    # one space with two arrows on each airport, its centre C; on Flying Cloud the two ways meet at P3
    for board in (cloud, zephyr):
        branching = [s for s in board.spaces if len([t for t in board.next(s) if t not in gates]) > 1]
        assert branching == ["C"]
    assert cloud.next("C") == ["P4", "S4"] and cloud.previous("P3") == ["S3", "S9"] and cloud.next("P3") == ["C"]
    for board, floor in ((cloud, CLOUD_FLOOR), (zephyr, ZEPHYR_FLOOR)):
        assert sorted(board.spaces) == sorted(floor + gates)
        for s in floor:    # both ways there is always a space that is not a gate to go on to
            assert [t for t in board.next(s) if t not in gates] and board.previous(s)


SCARCITY = [("restroom", "fast_food"), ("gift_shop", "help_desk"), ("fine_dining",)]


@pytest.mark.parametrize("airport", ["flying_cloud", "zephyr"])
@pytest.mark.parametrize("layout", ["printed", "custom"])
def test_points_of_interest_keep_the_gates_equal_and_the_order_of_scarcity(airport, layout):
    st = start(2, airport=airport, interest=layout)
    poi, board = st.vars["poi"], st.game.board
    fronts = [board.previous(g)[0] for g in GATES]
    assert len({poi[s] for s in fronts}) == 1 and poi[fronts[0]] != "blank"
    n = Counter(poi.values())
    tiers = [[n[k] for k in tier] for tier in SCARCITY]
    assert min(tiers[0]) > max(tiers[1]) >= min(tiers[1]) > max(tiers[2]) >= 1
    assert n["blank"] >= 1 and sum(n.values()) == 14


@pytest.mark.parametrize("airport", ["flying_cloud", "zephyr"])
def test_covered_layout_puts_blank_tokens_over_some_places(airport):
    printed = start(2, airport=airport).vars["poi"]
    st = start(2, airport=airport, interest="covered")
    board = st.game.board
    if airport == "zephyr":
        covered = {board.previous(g)[0] for g in ("G2", "G4")} | {"P2", "P4"}
        assert len({printed[s] for s in covered}) == 2        # two kinds covered, two of each
    else:
        covered = {"P2", "P4"}                                # the fast food on two start spaces
        assert {printed[s] for s in covered} == {"fast_food"}
        fronts = [board.previous(g)[0] for g in GATES]        # the four major gates stay equal
        assert len({st.vars["poi"][s] for s in fronts}) == 1
    assert all(st.vars["poi"][s] == ("blank" if s in covered else printed[s]) for s in printed)


KINDS = {"restroom", "fast_food", "gift_shop", "help_desk", "fine_dining"}


@pytest.mark.parametrize("airport", ["flying_cloud", "zephyr"])
@pytest.mark.parametrize("layout", ["printed", "covered", "custom", "shuffled"])
def test_every_kind_of_place_stays_on_the_board_under_every_layout(airport, layout):
    """Every action card that sends cubes to a kind of place, and every goal there, stays playable."""
    for seed in (1, 2, 3):
        assert KINDS <= set(start(2, seed=seed, airport=airport, interest=layout).vars["poi"].values())


def test_shuffled_layout_uses_the_printed_tokens_in_a_random_layout():
    printed = Counter(start(2).vars["poi"].values())
    layouts = [start(2, seed=seed, interest="shuffled").vars["poi"] for seed in range(4)]
    assert all(Counter(p.values()) == printed for p in layouts)
    assert len({json.dumps(p, sort_keys=True) for p in layouts}) > 1


# ------------------------------------------------------------------ cards in hand
def test_the_discards_are_shuffled_into_a_new_deck_when_it_runs_out():
    st = start(2)
    v = st.vars
    set_hand(st, 1, ["Draw 1"])
    v["discard"] = v["discard"] + v["deck"][:-1]
    v["deck"] = v["deck"][-1:]
    set_board(st, {"P1": "R", "S7": "GR"})
    refresh(st)
    play(st, "action Draw 1")                # the last card of the deck
    # out of the piles: player 2's three cards, the card in play and the card just drawn
    assert v["deck"] == [] and len(st.vars["discard"]) == 60 - 5
    lines = play(st, "move S7", "drop red", "to G4")   # the neutral plane: draw 2 from a new deck
    assert "the discards are shuffled into a new draw deck" in lines
    assert len(st.vars["hand"][0]) == 3 and len(st.vars["deck"]) == 55 - 2 and st.vars["discard"] == []
    assert cards_everywhere(st) == ALL_CARDS


def test_with_no_card_anywhere_to_draw_nothing_is_drawn():
    st = start(2)
    set_hand(st, 1, [])
    st.vars["discard"] = []
    st.vars["deck"] = []
    refresh(st)
    plain_turn(st, "P1")
    assert st.vars["hand"][0] == [] and st.to_move() == [2]


def test_there_is_no_hand_limit():
    st = start(2)
    set_board(st, {"S7": "GR", "P4": "Y"})
    names = [n for n in CARDS][:12]
    set_hand(st, 1, names)
    refresh(st)
    play(st, "no action", "move S7", "drop red", "to G4", "no goal")
    assert len(st.vars["hand"][0]) == 14


def test_player_decks_give_everyone_the_fifteen_cards_with_an_own_discard_pile():
    st = start(3, decks="player_decks")
    v = st.vars
    assert v["deck"] == [] and v["discard"] == []
    for i in range(3):
        assert Counter(v["own_deck"][i] + v["hand"][i]) == Counter(list(CARDS))
    set_board(st, {"P1": "R", "P2": "Y", "P3": "B"})
    set_hand(st, 1, ["Draw 1"])
    v["own_discard"][0] = v["own_deck"][0][:-1]
    v["own_deck"][0] = v["own_deck"][0][-1:]
    refresh(st)
    top = v["own_deck"][0][-1]
    play(st, "action Draw 1")
    assert v["hand"][0] == [top]
    play(st, "move P1", "no goal")
    assert v["own_discard"][0][-1] == "Draw 1" and v["discard"] == []
    set_hand(st, 2, [])
    refresh(st)
    plain_turn(st, "P2")                      # player 2 draws from their own deck
    assert len(v["hand"][1]) == 1 and len(v["own_deck"][1]) == 15 - 1


# ------------------------------------------------------------------ the end
def test_the_twelfth_boarded_cube_ends_the_game_at_the_end_of_the_round():
    st = start(3)
    board_quietly(st, {"P2": "RN", "S6": "Y", "S9": "B"})
    st.vars["track"] = 11
    st.vars["boarded"].update(red=3, yellow=4, blue=4)
    play(st, "no action", "move P2", "drop grey", "to G1", "no goal")
    assert st.vars["track"] == 12 and not st.is_over()
    plain_turn(st, "S6")
    assert not st.is_over()
    plain_turn(st, "S9")
    assert st.is_over() and st.vars["round_number"] == 1


def test_a_full_plane_ends_the_game_at_the_end_of_the_round_even_a_neutral_one():
    st = start(2)
    board_quietly(st, {"S7": "GR", "S2": "Y"})
    fill(st, "green", 4)
    st.vars["track"] = 4
    play(st, "no action", "move S7", "drop red", "to G4", "no goal")
    assert st.vars["boarded"]["green"] == 5 and not st.is_over()
    plain_turn(st, "S2")
    assert st.is_over() and st.vars["track"] == 5


def grey_at(st, n1, n2):
    st.vars["load"].update(N1=n1, N2=n2)
    st.vars["boarded"]["grey"] = n1 + n2
    st.vars["track"] = n1 + n2


def test_grey_filling_all_of_its_planes_ends_the_game_at_the_end_of_the_round():
    """"Any one color (including neutrals) has filled all of their respective planes": grey has two
    planes (N1, N2); the tenth grey cube ends the game, at the end of the round."""
    st = start(2)
    board_quietly(st, {"P4": "RN", "S9": "Y"})
    grey_at(st, 5, 4)
    play(st, "no action", "move P4", "drop red", "to N2", "no goal")
    assert st.vars["load"]["N2"] == 5 and st.vars["boarded"]["grey"] == 10 and not st.is_over()
    plain_turn(st, "S9")
    assert st.is_over() and st.vars["track"] == 10


def test_one_full_grey_plane_does_not_end_the_game():
    st = start(2)
    board_quietly(st, {"S5": "RN", "S9": "Y"})
    grey_at(st, 4, 0)
    play(st, "no action", "move S5", "drop red", "to N1", "no goal")
    assert st.vars["load"]["N1"] == 5 and st.vars["boarded"]["grey"] == 5
    plain_turn(st, "S9")
    assert not st.is_over()


def test_no_trigger_no_end():
    st = start(2)
    board_quietly(st, {"P2": "RN", "S6": "Y"})
    st.vars["track"] = 6
    play(st, "no action", "move P2", "drop grey", "to G1", "no goal")
    plain_turn(st, "S6")
    assert not st.is_over() and st.vars["round_number"] == 2


@pytest.mark.parametrize("last_space,ends", [(8, True), (12, False), (9, False)])
def test_a_shorter_game_ends_when_the_track_reaches_the_chosen_space(last_space, ends):
    st = start(2, last_space=last_space)
    board_quietly(st, {"P2": "RN", "S6": "Y"})
    st.vars["track"] = 7
    st.vars["boarded"].update(red=2, yellow=2, blue=2, green=1)
    play(st, "no action", "move P2", "drop grey", "to G1", "no goal")
    plain_turn(st, "S6")
    assert st.is_over() == ends


@functools.lru_cache(maxsize=None)
def final(players, seed):
    """The end of a seeded random game (real moves from the start)."""
    (found,) = ends(game(players), seeds=[seed])
    return found.state


def counted(st, p):
    """Winning the Game, counted here: each goal scored for its printed VP, and 5 points for each party
    cube that boarded its owner's own coloured plane (none for a neutral or another player's plane)."""
    v = st.vars
    return sum(CARDS[c][1] for c in v["goals"][p - 1]) + 5 * v["boarded"][v["colour"][p - 1]]


def ranked(st):
    """The places: most VP, then most own cubes boarded, then most goals; the rest share a place."""
    v, n = st.vars, st.game.player_count
    key = {p: (-counted(st, p), -v["boarded"][v["colour"][p - 1]], -len(v["goals"][p - 1])) for p in range(1, n + 1)}
    return [sorted(p for p in key if key[p] == k) for k in sorted(set(key.values()))]


# Real games whose ends tie on points: broken by the own cubes boarded (the goals would say otherwise),
# then by the goals, or shared.
TIED = {"own cubes": (3, 28), "goals": (4, 15), "shared": (4, 23)}


@pytest.mark.parametrize("players, seed", [(2, 0), (3, 28), (4, 15)])
def test_most_points_wins(players, seed):
    """ "add 5 points for each party cube that boarded on their own colored plane" to the goals' VP: the
    scores of a real end, counted from the goals and cubes really scored, and the most points win."""
    st = final(players, seed)
    out = st.outcome()
    assert out.scores == {p: counted(st, p) for p in range(1, players + 1)}
    assert out.ranking == ranked(st) and out.winners == ranked(st)[0]


def _tied_pair(st):
    out, n = st.outcome(), st.game.player_count
    return next((a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1) if out.scores[a] == out.scores[b])


def test_a_tie_on_points_goes_to_the_most_own_cubes_boarded():
    st = final(*TIED["own cubes"])
    a, b = _tied_pair(st)
    v = st.vars
    own = {p: v["boarded"][v["colour"][p - 1]] for p in (a, b)}
    goals = {p: len(v["goals"][p - 1]) for p in (a, b)}
    assert own[a] != own[b] and (own[a] > own[b]) != (goals[a] > goals[b])    # goals: the other way
    first = max((a, b), key=own.get)
    flat = [p for place in st.outcome().ranking for p in place]
    assert flat.index(first) < flat.index(a + b - first) and st.outcome().ranking == ranked(st)


def test_then_to_the_most_goals_scored():
    st = final(*TIED["goals"])
    a, b = _tied_pair(st)
    v = st.vars
    assert v["boarded"][v["colour"][a - 1]] == v["boarded"][v["colour"][b - 1]]
    goals = {p: len(v["goals"][p - 1]) for p in (a, b)}
    assert goals[a] != goals[b]
    first = max((a, b), key=goals.get)
    flat = [p for place in st.outcome().ranking for p in place]
    assert flat.index(first) < flat.index(a + b - first) and st.outcome().ranking == ranked(st)


def test_then_the_win_is_shared():
    st = final(*TIED["shared"])
    a, b = _tied_pair(st)
    v = st.vars
    assert v["boarded"][v["colour"][a - 1]] == v["boarded"][v["colour"][b - 1]]
    assert len(v["goals"][a - 1]) == len(v["goals"][b - 1])
    assert [a, b] in st.outcome().ranking and st.outcome().ranking == ranked(st)


def test_cubes_boarded_on_a_neutral_or_another_players_plane_score_nothing_for_the_mover():
    """Over real ends, 2-4 players: cubes of every colour boarded, only a player's own colour counts."""
    for players, seed in [(2, 0), *TIED.values()]:
        st = final(players, seed)
        v = st.vars
        others = sum(n for c, n in v["boarded"].items() if c not in v["colour"])
        assert others > 0                     # neutral cubes boarded in this game
        assert st.outcome().scores == {p: counted(st, p) for p in range(1, players + 1)}


# ------------------------------------------------------------------ the command line and the view
def test_the_cli_plays_planes_to_a_scored_end():
    result = CliRunner().invoke(app, ["play", "planes", "--players", "3", "--seed", "5", "--auto", "random"])
    assert result.exit_code == 0, result.output
    assert "game over" in result.output and "outcome" in result.output


def test_a_whole_move_is_scriptable_in_one_moves_file(tmp_path):
    script = tmp_path / "moves.txt"
    script.write_text("no action\nmove P1\ndrop red\ndrop red\nstop\nno goal\n")
    result = CliRunner().invoke(app, ["play", "planes", "--players", "2", "--seed", "1",
                                      "--moves", str(script), "--save", str(tmp_path / "save.json")])
    assert result.exit_code == 0, result.output
    st = game(2).load_state(json.loads((tmp_path / "save.json").read_text()))
    assert (spec(st, "P2"), spec(st, "S1"), spec(st, "S2")) == ("RYYYYY", "RNN", "RRRNN")
    assert st.to_move() == [2]


def test_hands_are_secret_in_a_players_view():
    st = start(3)
    view = st.view(2)
    assert view["vars"]["hand"][1] == st.vars["hand"][1]
    assert view["vars"]["hand"][0] == {"hidden": 3} and view["vars"]["deck"] == {"hidden": 51}


@pytest.mark.parametrize("airport", ["flying_cloud", "zephyr"])
def test_the_rendered_airport_at_the_start(airport, snapshot):
    assert start(3, seed=5, airport=airport).render(1) == snapshot


def test_the_rendered_airport_with_a_blockage_and_boarded_cubes(snapshot):
    st = start(2, seed=5)
    set_board(st, {"P1": "RRRR", "S1": "RYYYYYYN", "S5": "BN", "P3": "BBB", "P4": "GGG"})
    fill(st, "green", 2)
    fill(st, "blue", 5)
    st.vars["track"] = 7
    refresh(st)
    assert st.render(1) == snapshot
