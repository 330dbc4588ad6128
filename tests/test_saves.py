"""Saves: a state saved at any point (a pending simultaneous decision included) loads back equal and
plays on to the same end; a corrupt save, or one of other rules, options or players, is a SaveError."""
from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulewright.dsl.errors import SaveError
from rulewright.interpreter.api import load, shipped_games

SAVES_RULES = str(Path(__file__).parent / "rules" / "saves.rules")


def through_json(state) -> dict:
    """What a save file holds: the state as JSON text, read back."""
    return json.loads(json.dumps(state.to_json()))


def play(state, rng: random.Random, moves: int | None = None) -> list[str]:
    """Random legal moves (all of them if ``moves`` is None); the texts played."""
    played = []
    while not state.is_over() and (moves is None or len(played) < moves):
        move = rng.choice(state.legal_moves())
        state.apply(move)
        played.append(move.text)
    return played


def assert_round_trip(game, state, continue_seed: int, moves: int | None = None):
    loaded = game.load_state(through_json(state))
    assert loaded.to_json() == state.to_json()
    assert loaded.to_move() == state.to_move()
    assert [m.text for m in loaded.legal_moves()] == [m.text for m in state.legal_moves()]
    for viewer in range(1, game.player_count + 1):
        assert loaded.view(viewer) == state.view(viewer)
    # both go on with the same moves (the seeded generator travels in the save) to the same end
    assert play(loaded, random.Random(continue_seed), moves) == play(state, random.Random(continue_seed), moves)
    assert loaded.to_json() == state.to_json()
    assert loaded.outcome() == state.outcome()


@settings(max_examples=30, deadline=None, derandomize=True)
@given(players=st.sampled_from([2, 3]), length=st.sampled_from(["short", "long"]), seed=st.integers(0, 10_000),
       point=st.integers(0, 40))
def test_round_trip_at_random_points(players, length, seed, point):
    game = load(SAVES_RULES, players=players, options={"length": length})
    state = game.new_state(seed)
    play(state, random.Random(seed), point)
    assert_round_trip(game, state, seed + 1)


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_round_trip_of_every_shipped_game(name):
    game = load(name)
    for seed in range(3):
        state = game.new_state(seed)
        play(state, random.Random(seed), random.Random(seed).randrange(12))
        assert_round_trip(game, state, seed, moves=20)  # long games: the first 20 moves after loading


def test_pending_simultaneous_decision_is_saved_half_made():
    game = load(SAVES_RULES, players=3)
    state = game.new_state(5)
    assert state.pending.simultaneous and state.to_move() == [1, 2, 3]
    state.apply("bid 3", player=2)
    loaded = game.load_state(through_json(state))
    assert loaded.to_move() == [1, 3]
    assert loaded.view(1)["chosen"] == [2] and loaded.view()["chosen"] == {"2": 3}
    for s in (state, loaded):
        s.apply("bid 1", player=1)
        s.apply("bid 2", player=3)
    assert loaded.to_json() == state.to_json()
    assert loaded.vars["bid"] == [1, 3, 2]


def test_decision_inside_a_procedure_is_saved_with_its_frames():
    game = load(SAVES_RULES, players=2)
    state = game.new_state(2)
    state.apply("bid 2", player=1)
    state.apply("bid 1", player=2)
    assert [f.proc for f in state.frames][-1] == "take"  # waiting inside the procedure, several frames deep
    loaded = game.load_state(through_json(state))
    assert [(f.proc, f.pc) for f in loaded.frames] == [(f.proc, f.pc) for f in state.frames]
    assert_round_trip(game, state, 7)


def test_finished_game_round_trips():
    game = load(SAVES_RULES, players=2)
    state = game.new_state(1)
    play(state, random.Random(1))
    loaded = game.load_state(through_json(state))
    assert loaded.is_over() and loaded.outcome() == state.outcome()


def test_loading_does_not_share_lists_with_the_save():
    game = load(SAVES_RULES, players=2)
    state = game.new_state(1)
    data = through_json(state)
    loaded = game.load_state(data)
    loaded.vars["deck"].clear()
    assert data["state"]["vars"]["deck"] != []


# ----------------------------------------------------------------------------- refused saves
@pytest.fixture
def saved():
    game = load(SAVES_RULES, players=2)
    state = game.new_state(3)
    play(state, random.Random(3), 5)
    return game, through_json(state)


def _set(path, value):
    def change(data):
        *parents, last = path
        for key in parents:
            data = data[key]
        data[last] = value
    return change


def _drop(path):
    def change(data):
        *parents, last = path
        for key in parents:
            data = data[key]
        del data[last]
    return change


CORRUPTIONS = {
    "not_a_dict": (lambda data: "{\"format\": \"rulewright-s", "not a rulewright save file"),
    "other_format": (_set(["format"], "chess-save"), "not a rulewright save file"),
    "future_version": (_set(["version"], 99), "save format version 99 is not supported (expected 1)"),
    "no_state": (_drop(["state"]), "corrupt save: it holds no game state"),
    "no_frames": (_drop(["state", "frames"]), "corrupt save: state: the field 'frames' is missing"),
    "bad_step": (_set(["state", "frames", -1, "pc"], 9999), "corrupt save: no step 9999 in rule 'take'"),
    "bad_rule": (_set(["state", "frames", 0, "proc"], "nowhere"), "corrupt save: no rule 'nowhere'"),
    "bad_generator": (_set(["state", "rng"], [1, 2]), "corrupt save: state.rng: not the generator's state, a list of 3 (got a list)"),
    "missing_variable": (_drop(["state", "vars", "deck"]), "corrupt save: state.vars: missing variables deck"),
    "unknown_variable": (_set(["state", "vars", "gold"], 3), "corrupt save: state.vars: unknown variables gold"),
    "player_variable_too_short": (_set(["state", "vars", "score"], [1]),
                                  "corrupt save: state.vars.score: a player variable, a list of one "
                                  "value for each of the 2 players (got 1)"),
    "unknown_status": (_set(["state", "status"], "paused"), "corrupt save: unknown status 'paused'"),
    "nobody_to_move": (_set(["state", "pending"], None),
                       "corrupt save: the game is not over but nobody has a decision to make"),
    "no_such_player": (_set(["state", "pending", "options"], {"7": []}), "corrupt save: no player 7"),
    # the step is shown to every player: only the rules' own labels, never a text the file makes up
    "unknown_step_label": (_set(["state", "step"], "\x1b[2Jyou win"),
                           "corrupt save: the step '\\x1b[2Jyou win' is no step of these rules"),
    "step_of_the_end_in_a_game_going_on": (_set(["state", "step"], "game over"),
                                           "corrupt save: the step 'game over' is no step of these rules"),
    "step_not_text": (_set(["state", "step"], 7), "corrupt save: state.step: neither text nor null (got a number)"),
}


@pytest.mark.parametrize("change, message", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_corrupt_saves_are_refused_with_a_clear_message(saved, change, message):
    game, data = saved
    data = copy.deepcopy(data)
    data = change(data) or data
    with pytest.raises(SaveError) as info:
        game.load_state(data)
    assert str(info.value) == message


def test_save_of_other_rules_is_refused(saved):
    _game, data = saved
    with pytest.raises(SaveError, match=r"^this save belongs to other rules \('Save Test', rules \w+\), "
                                        r"not to 'Tic-Tac-Toe' \(rules \w+\)$"):
        load("tic-tac-toe").load_state(data)


def test_save_for_other_options_or_players_is_refused(saved):
    _game, data = saved
    with pytest.raises(SaveError, match="^this save is for 2 players with length=short, "
                                        "not 2 players with length=long$"):
        load(SAVES_RULES, players=2, options={"length": "long"}).load_state(data)
    with pytest.raises(SaveError, match="not 3 players"):
        load(SAVES_RULES, players=3).load_state(data)


def test_a_refused_save_is_not_half_loaded(saved):
    game, data = saved
    good = game.load_state(data)
    before = good.to_json()
    with pytest.raises(SaveError):
        game.load_state(_corrupt(data))
    assert good.to_json() == before == game.load_state(data).to_json()


def _corrupt(data):
    data = copy.deepcopy(data)
    data["state"]["vars"]["score"] = "lots"
    return data


# ----------------------------------------------------------------------------- saves across edits
def _edited(tmp_path, change) -> str:
    """A copy of the save-test rules with ``change`` applied to its text."""
    path = tmp_path / "saves.rules"
    path.write_text(change(Path(SAVES_RULES).read_text()))
    return str(path)


def _saved_on(path: str, seed: int = 3, moves: int = 9):
    game = load(path, players=2)
    state = game.new_state(seed)
    play(state, random.Random(seed), moves)
    return state, through_json(state)


def test_a_save_survives_an_edit_of_comments_and_formatting(tmp_path):
    state, data = _saved_on(_edited(tmp_path, lambda text: text))
    reformatted = _edited(tmp_path, lambda text: "# a new first comment\n\n" + text.replace(
        "var tokens = []", "var tokens = []      # spaced out, with a comment").replace("\n\n", "\n\n\n"))
    game = load(reformatted, players=2)
    assert game.compiled.digest != data["rules"]  # the text did change
    loaded = game.load_save(data)
    assert loaded.note is None
    mine, theirs = loaded.state.to_json()["state"], state.to_json()["state"]
    assert mine["pending"].pop("line") != theirs["pending"].pop("line")  # the decision's line moved down
    assert mine == theirs


def test_a_save_is_played_again_on_rules_whose_meaning_changed(tmp_path):
    state, data = _saved_on(_edited(tmp_path, lambda text: text))
    game = load(_edited(tmp_path, lambda text: text.replace("me.score += got", "me.score += got * 2")), players=2)
    loaded = game.load_save(data)
    moves = sum(1 for e in data["state"]["history"] if e["event"] == "move")
    moves += sum(1 for t in data["state"]["pending"]["texts"].values() if t)
    assert loaded.note == f"the rules changed since this save was made: its {moves} moves were played again on the new rules"
    assert [m.text for m in loaded.state.legal_moves()] == [m.text for m in state.legal_moves()]
    assert game.load_state(data).to_json() == loaded.state.to_json()  # the API loads it the same way


def test_a_save_that_diverges_on_the_new_rules_names_the_move_and_loads_with_force(tmp_path):
    _state, data = _saved_on(_edited(tmp_path, lambda text: text))
    first_bid = next(e for e in data["state"]["history"] if e["event"] == "move")
    game = load(_edited(tmp_path, lambda text: text.replace('as "bid {b}"', 'as "offer {b}"')), players=2)
    with pytest.raises(SaveError) as info:
        game.load_save(data)
    assert str(info.value).startswith(
        "the rules changed since this save was made: its moves were played again on the new rules, and "
        "move 1 of ")
    assert f"(player {first_bid['player']}: '{first_bid['move']}') diverges: illegal move" in str(info.value)
    assert str(info.value).endswith("; to load the game as it stands before that move, use --force "
                                    "(in Python: game.load_save(data, force=True))")
    forced = game.load_save(data, force=True)
    assert forced.state.moves_made == 0 and forced.note.endswith("; loaded before that move (--force)")
