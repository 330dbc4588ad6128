"""Saves of every shape (issue 37): every node of a real save of each shipped game, replaced by a value
of every other JSON type, deleted, or given an unknown key, either loads into a state that plays on or
is refused with the project's SaveError, one line naming the field; never another exception, and a
refused load changes nothing. A few cases also go through `play --load`, `show --load` and serve's
referee. The fuzzing is deterministic: every structural field gets every edit, the nodes inside the
rules' values and the events an edit each in turn (the run stays within a few seconds of CI)."""
from __future__ import annotations

import json
import marshal
import random

import pytest
from typer.testing import CliRunner

from rulewright.cli.main import app
from rulewright.cli.serve import Server
from rulewright.dsl.errors import RulesError, SaveError
from rulewright.interpreter.engine.limits import set_limits
from rulewright.interpreter.testing import shipped

# the shipped games by their rules (a variant's save has the shape of its base game's)
GAMES = ["air-show", "barnstormers", "biplane", "connect-four", "kuhn-poker", "magnificent-flying-machines",
         "planes", "tic-tac-toe"]
# A value of every JSON type: null, yes/no, numbers (a fraction, one too long for the rules), texts,
# lists, maps, nested.
OTHERS = [None, True, False, 0, -7, 1.5, float("nan"), 10 ** 120, "", "x\x1b[2J", [], [[1, 2]], [None, 1.5],
          {}, {"a": [1, {"b": None}]}, {"$ref": 5}, {"$map": [[[1], 2]]}, [[[[["deep"]]]]]]
DELETE, UNKNOWN = object(), object()
EDITS = OTHERS + [DELETE, UNKNOWN]
# inside these the nodes are the rules' own values and the events' texts: one edit each, in turn
VALUE_FIELDS = {"vars", "locals", "value", "chosen", "history", "revealed"}
PER_FIELD = 5
POSITIONS = ((1, 2), (2, 8))  # (seed, random moves): each game's saves (the first: its values too)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            if path[-2:] == ("rng", 1) and 2 <= i < 623:
                continue  # the generator's 625 words: a few stand for all
            yield from _paths(v, path + (i,))


def _edited(data: dict, path: tuple, edit):
    """A copy of ``data`` with the node at ``path`` replaced, deleted, or (a map) given an unknown key;
    None when the edit does not apply there."""
    data = marshal.loads(marshal.dumps(data))
    if not path:
        return edit if edit not in (DELETE, UNKNOWN) else None
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if edit is DELETE:
        del parent[last]
    elif edit is UNKNOWN:
        if not isinstance(parent[last], dict):
            return None
        parent[last]["zz_unknown"] = 1
    else:
        if type(parent[last]) is type(edit) and parent[last] == edit:
            return None
        parent[last] = marshal.loads(marshal.dumps(edit))
    return data


def _inside_values(path) -> bool:
    """A node of the rules' values, or of a list's items after its first (their fields are the first's)."""
    return bool(VALUE_FIELDS & set(path[:-1])) or any(type(k) is int and k > 0 for k in path[:-1])


def _cases(data: dict, turn: int, values: bool) -> list:
    """(path, edit) for every node: on the save's own fields PER_FIELD edits, in turn (``turn``: the
    game and position), so that over the games each field gets every edit; inside values (``values``)
    one each."""
    cases, inside = [], turn
    for path in _paths(data):
        if _inside_values(path):
            if values:
                cases.append((path, EDITS[inside % len(EDITS)]))
                inside += 1
        else:
            cases.extend((path, EDITS[(turn * PER_FIELD + j) % len(EDITS)]) for j in range(PER_FIELD))
    return cases


def _position(name: str, seed: int, moves: int):
    game = shipped(name)
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over():
            break
        state.apply(rng.choice(state.legal_moves()))
    return game, json.loads(json.dumps(state.to_json()))


def _plays_on_or_is_refused(game, data, verify: bool) -> str:
    """'loaded' or 'refused'; anything else fails the test."""
    before = marshal.dumps(data, 2)
    try:
        state = game.load_state(data, verify=verify)
    except SaveError as exc:
        message = str(exc)
        assert "\n" not in message and 0 < len(message) < 600, message
        assert marshal.dumps(data, 2) == before  # a refused load changes nothing
        return "refused"
    assert marshal.dumps(data, 2) == before
    try:
        if not state.is_over():
            moves = state.legal_moves()
            assert moves
            state.apply(moves[0])
        json.dumps(state.to_json())
    except RulesError:
        # an unverified save may hold what the rules cannot work with: they say so where they meet it
        # (docs/cli.md); a verified one is what its seed and moves give, and plays on
        if verify:
            raise
    return "loaded"


@pytest.fixture
def quick_limits():
    old = set_limits(steps=50_000, work=50_000)  # an edited place in the rules may loop: stop it soon
    yield
    set_limits(**old)


@pytest.mark.parametrize("name", GAMES)
def test_every_node_of_a_save_edited_to_every_type_is_refused_or_plays_on(name, quick_limits):
    seen = {"loaded": 0, "refused": 0}
    for at, (seed, moves) in enumerate(POSITIONS):
        game, data = _position(name, seed, moves)
        for i, (path, edit) in enumerate(_cases(data, GAMES.index(name) * len(POSITIONS) + at, at == 0)):
            edited = _edited(data, path, edit)
            if edited is None:
                continue
            # the default load plays the moves again; one case in four also unverified, and one in
            # six as a save of rules changed since (its seed and moves are played again on these)
            seen[_plays_on_or_is_refused(game, edited, verify=True)] += 1
            if i % 4 == 0:
                _plays_on_or_is_refused(game, edited, verify=False)
            if i % 6 == 0 and isinstance(edited, dict):
                edited["rules"] = edited["fingerprint"] = "0" * 16
                _plays_on_or_is_refused(game, edited, verify=True)
    assert seen["loaded"] and seen["refused"] > 100, seen


def test_every_field_of_a_save_gets_every_edit_over_the_games():
    fields: dict = {}
    for g, name in enumerate(GAMES):
        for at, (seed, moves) in enumerate(POSITIONS):
            _game, data = _position(name, seed, moves)
            for path, edit in _cases(data, g * len(POSITIONS) + at, False):
                # a field by its name: the n-th frame's 'pc' as the first's, every game's option as one
                field = tuple("*" if path[:1] == ("options",) and i else k if isinstance(k, str) else 0
                              for i, k in enumerate(path))
                fields.setdefault(field, set()).add(id(edit))
    assert len(fields) > 40
    assert all(len(edits) == len(EDITS) for edits in fields.values())


# ----------------------------------------------------------------------------- named refusals
def _ttt_save() -> dict:
    return _position("tic-tac-toe", 1, 1)[1]


def _set(data, path, value):
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


REFUSED = {
    "vars a list of pairs": (["state", "vars"], [[1, 2]],
                             "corrupt save: state.vars: not a map of variable names (got a list)"),
    "vars text": (["state", "vars"], "x", "corrupt save: state.vars: not a map of variable names (got text)"),
    "a variable's fraction": (["state", "vars", "round_number"], 1.5,
                              "corrupt save: state.vars.round_number: 1.5 is not a value of the rules "
                              "(got a number with a fraction)"),
    "frames a map": (["state", "frames"], {"0": 1}, "corrupt save: state.frames: not a list (got a map)"),
    "a frame's step text": (["state", "frames", 0, "pc"], "1",
                            "corrupt save: state.frames[0].pc: not a whole number from 0 (got text)"),
    "a frame's unknown field": (["state", "frames", 0, "line"], 3,
                                "corrupt save: state.frames[0]: unknown field 'line' (the fields here: proc, pc, locals)"),
    "options a list": (["state", "pending", "options"], [[1]],
                       "corrupt save: state.pending.options: not a map of players (got a list)"),
    "options' player not a number": (["state", "pending", "options"], {"two": []},
                                     "corrupt save: state.pending.options: the key 'two' is not a player's number"),
    "a chosen value by nobody asked": (["state", "pending", "chosen"], {"1": "A1"},
                                       "corrupt save: state.pending.chosen: a player who has no options here"),
    "generator words": (["state", "rng", 1], [1, 2],
                        "corrupt save: state.rng[1]: not the generator's 625 numbers from 0 to 2^32 - 1"),
    "seed text": (["state", "seed"], "1", "corrupt save: state.seed: not a whole number (got text)"),
    "history a map": (["state", "history"], {}, "corrupt save: state.history: not a list (got a map)"),
    "a move without its text": (["state", "history", 0], {"event": "move", "player": 1},
                                "corrupt save: state.history[0]: a move without its 'move' field"),
    "revealed entry short": (["state", "revealed"], [["marks", 0]],
                             "corrupt save: state.revealed[0]: not a revealed variable, [name, player or 0, "
                             "value] (['marks', 0])"),
    "a reference to a number": (["state", "vars", "marks"], {"$ref": 5},
                                "corrupt save: state.vars.marks.$ref: a reference is the path of the place it "
                                "repeats, a list of names and numbers (5)"),
    "a reference to nowhere": (["state", "vars", "marks"], {"$ref": ["vars", "nothing"]},
                               "corrupt save: a reference ($ref) leads to no value saved before it"),
    # the rule waiting for the decision is asked it again from the instruction before its step: at
    # step 0 there is none (the machine looped forever)
    "a decision waited for at step 0": (["state", "frames", -1, "pc"], 0,
                                        "corrupt save: the rule 'turn' waits for a decision at its step 0, "
                                        "before any decision"),
    # Python's == takes true for 1: a verified save is compared as JSON
    "true for 1": (["state", "vars", "round_number"], True,
                   "this save is not what its seed and its moves give: its variables differ (round_number): it "
                   "was edited, or made from a position set by hand; to load it anyway, use "
                   "load_state(data, verify=False) (on the command line, --unverified)"),
    "players text": (["players"], "2", "corrupt save: players: not a whole number (got text)"),
    "unknown top-level field": (["extra"], 1, "corrupt save: the save: unknown field 'extra' (the fields "
                                               "here: format, version, game, source, rules, fingerprint, "
                                               "players, options, state)"),
    "a number too long": (["state", "moves_made"], 10 ** 120,
                          "corrupt save: state.moves_made: a number of more than 100 digits"),
    "nested too deep": (["state", "vars", "marks"], None, "corrupt save: state.vars.marks[0][0][0][0][0]...: "
                                                            "nested more than 100 deep"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_each_malformed_field_is_refused_by_its_path(case):
    path, value, message = REFUSED[case]
    if case == "nested too deep":
        for _ in range(120):
            value = [value]
    data = _set(_ttt_save(), path, value)
    with pytest.raises(SaveError) as info:
        shipped("tic-tac-toe").load_state(data)
    assert str(info.value) == message


@pytest.fixture
def cli_save(tmp_path):
    def write(case: str):
        path, value, _message = REFUSED[case]
        save = tmp_path / "save.json"
        save.write_text(json.dumps(_set(_ttt_save(), path, value)))
        return save
    return write


CLI_CASES = ["vars a list of pairs", "a frame's step text", "options a list", "generator words",
             "a reference to nowhere", "history a map"]


@pytest.mark.parametrize("case", CLI_CASES)
def test_play_and_show_refuse_a_malformed_save_in_one_line(cli_save, case):
    save = cli_save(case)
    expected = f"error: {save}: {REFUSED[case][2]}\n"
    for args in (["play", "--load", str(save), "--moves", "/dev/null"], ["show", "--load", str(save)],
                 ["show", "tic-tac-toe", "--load", str(save), "--unverified"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 1, (args, result.output)
        assert result.stderr == expected, (args, result.stderr)
        assert "Traceback" not in result.output


@pytest.mark.parametrize("case", CLI_CASES)
def test_the_referee_refuses_a_malformed_save_with_a_clear_reply(case):
    path, value, message = REFUSED[case]
    server = Server("tic-tac-toe", None, {}, 1)
    assert server.handle({"cmd": "new"})["ok"]
    reply = server.handle({"cmd": "load", "save": _set(_ttt_save(), path, value)})
    assert reply == {"ok": False, "cmd": "load", "error": "./(the save sent): " + message}
    assert len(server.handle({"cmd": "legal"})["moves"]) == 9  # the game before goes on, not the save's
