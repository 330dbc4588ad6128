"""The Python API contract of architecture.md, on a small game written here."""
import pytest

import rulewright
from rulewright import IllegalMoveError

RULES = '''game "Pick"
players 2
var pool = [1, 2, 3]
player var score = 0
turn:
    choose n in pool as "take {n}"
    remove n from pool
    me.score += n
    if len(pool) == 0:
        end game
'''


@pytest.fixture
def game(load_file):
    return load_file(RULES, "pick.rules")


def test_the_loop_of_the_contract_plays_to_an_outcome(game):
    state = game.new_state(seed=7)
    while not state.is_over():
        assert state.to_move() == [state.legal_moves()[0].player]
        state.apply(state.legal_moves()[0])
    out = state.outcome()
    assert out.scores == {1: 4, 2: 2} and out.winners == [1] and out.ranking == [[1], [2]]


def test_ask_again_offers_the_options_of_a_position_set_by_hand(game):
    state = game.new_state(seed=1)
    assert [m.text for m in state.legal_moves()] == ["take 1", "take 2", "take 3"]
    state.vars["pool"] = [5, 9]
    assert [m.text for m in state.legal_moves()] == ["take 1", "take 2", "take 3"]  # asked before the change
    state.ask_again()
    assert [m.text for m in state.legal_moves()] == ["take 5", "take 9"]
    state.apply("take 9")
    assert state.vars["score"] == [9, 0] and state.vars["pool"] == [5]


def test_ask_again_needs_a_pending_decision(game):
    state = game.new_state(seed=1)
    for _ in range(3):
        state.apply(state.legal_moves()[0])
    assert state.is_over()
    with pytest.raises(IllegalMoveError, match="no decision is pending"):
        state.ask_again()


def test_rank_by_text_descending_orders_the_players(tmp_path):
    path = tmp_path / "names.rules"
    path.write_text('''game "Names"
players 3
player var name = "b" if me == 1 else ("c" if me == 2 else "a")
rank by name descending
turn:
    end game
''')
    state = rulewright.load(str(path), players=3).new_state(seed=1)
    assert state.outcome().ranking == [[2], [1], [3]]


def test_assigning_me_is_a_rules_error(tmp_path):
    path = tmp_path / "me.rules"
    path.write_text('game "Me"\nplayers 2\nturn:\n    me = 2\n    end game\n')
    with pytest.raises(rulewright.RulesCompileError, match="'me' is the player whose turn it is"):
        rulewright.load(str(path))


def test_rotating_an_unknown_heading_names_the_headings(tmp_path):
    path = tmp_path / "turn.rules"
    path.write_text('game "Turn"\nplayers 2\nboard b: grid 2 by 2\nvar h = "north"\nturn:\n'
                    '    h = rotate(h, 1)\n    end game\n')
    with pytest.raises(rulewright.RulesRuntimeError, match="'north' is not a heading of this board"):
        rulewright.load(str(path)).new_state(seed=1)


def test_the_event_history_is_kept_whole_and_shared_by_clones(game):
    state = game.new_state(seed=1)
    state.apply("take 2")
    assert state.drain_events() == [{"event": "move", "player": 1, "move": "take 2", "rule": "pick.rules:6"}]
    copy = state.clone()
    assert copy.history is state.history  # a clone costs nothing for the history
    copy.apply("take 1")
    assert [e["move"] for e in copy.event_history()] == ["take 2", "take 1"]
    assert [e["move"] for e in state.event_history()] == ["take 2"]  # the original's is untouched
    assert copy.drain_events() == [{"event": "move", "player": 2, "move": "take 1", "rule": "pick.rules:6"}]
    assert copy.drain_events() == []


SIMULTANEOUS = '''game "Pool"
players 2
record card(name, power)
var pool = [card("a", 1), card("b", 2)]
player var hand = []
var done = 0
setup:
    for p in players:
        add card("mine", p) to p.hand
round:
    each p in players secretly choose c in pool + p.hand as "{c.name}":
        c.power += 10
    done += 1
end when done >= 1 after round
'''


@pytest.fixture
def pool_game(load_file):
    return load_file(SIMULTANEOUS, "pool.rules")


def _powers(state):
    return [c["power"] for c in state.vars["pool"]], [h[0]["power"] for h in state.vars["hand"]]


def test_a_secret_choice_changes_the_chooser_own_record(pool_game):
    state = pool_game.new_state(seed=1)
    state.apply("mine", player=1)
    state.apply("mine", player=2)
    assert _powers(state) == ([1, 2], [11, 12])


def test_a_clone_of_a_half_made_simultaneous_decision_is_independent(pool_game):
    state = pool_game.new_state(seed=1)
    state.apply("a", player=1)
    twin = state.clone()
    twin.apply("b", player=2)
    assert _powers(twin) == ([11, 12], [1, 2])
    assert _powers(state) == ([1, 2], [1, 2]) and state.to_move() == [2]  # the original is untouched
    state.apply("b", player=2)
    assert state.to_json() == twin.to_json()


def test_a_save_of_a_half_made_simultaneous_decision_goes_on_like_the_original(pool_game):
    import json
    state = pool_game.new_state(seed=1)
    state.apply("a", player=1)
    loaded = pool_game.load_state(json.loads(json.dumps(state.to_json())))
    for s in (state, loaded):
        s.apply("b", player=2)
    assert _powers(loaded) == _powers(state) == ([11, 12], [1, 2])


def test_changing_a_list_of_lines_does_not_change_the_board(load_file):
    g = load_file('game "L"\nplayers 2\nboard b: grid 3 by 3 headings e ne n nw w sw s se\n'
                  'var seen = 0\nvar after = 0\nturn:\n    let s = "B2"\n    let ls = lines(3, s)\n'
                  '    seen = len(ls)\n    remove first(ls) from ls\n    after = len(ls)\n    end game\n')
    assert [g.new_state(seed=i).vars["seen"] for i in range(3)] == [4, 4, 4]


def test_a_quantifier_leaves_a_local_of_the_same_name_alone(load_file):
    g = load_file('game "Q"\nplayers 2\nvar seen = 0\nvar xs = [3, 7]\nturn:\n    let x = 1\n'
                  '    let n = count(x in xs where x > 5)\n    let ys = [x in xs : x * 2]\n'
                  '    seen = x\n    end game\n')
    assert g.new_state(seed=1).vars["seen"] == 1


def test_player_zero_is_an_error_not_the_last_player(load_file):
    g = load_file('game "P"\nplayers 3\nplayer var score = 0\nturn:\n    let left = me - 1\n'
                  '    left.score += 10\n    end game\n')
    with pytest.raises(rulewright.RulesRuntimeError, match="in 'turn': 0 is not a player of this game"):
        g.new_state(seed=1)


def test_a_starting_value_made_from_another_variable_is_a_copy(load_file):
    g = load_file('game "C"\nplayers 2\nvar deck = [1, 2]\nvar start = deck\nturn:\n'
                  '    add 3 to deck\n    end game\n')
    state = g.new_state(seed=1)
    assert state.vars["deck"] == [1, 2, 3] and state.vars["start"] == [1, 2]


def test_end_game_inside_scoring_ends_the_scoring(load_file):
    g = load_file('game "S"\nplayers 2\nplayer var score = 0\nturn:\n    score[me] += 1\n    end game\n'
                  'scoring:\n    for p in players:\n        p.score += 1\n    end game\n')
    state = g.new_state(seed=1)
    assert state.is_over() and state.outcome().scores == {1: 2, 2: 1}


def test_a_let_in_a_branch_an_option_turns_off_still_compiles(tmp_path, load_file):
    load_file('game "F"\nplayers 2\noption bonus: on | off\nvar total = 0\nturn:\n'
              '    if bonus == on:\n        let extra = 5\n    choose x in [1, 2]\n'
              '    total += x + (extra if bonus == on else 0)\n    end game\n', "g.rules")
    path = tmp_path / "g.rules"
    state = rulewright.load(str(path), options={"bonus": "off"}).new_state(seed=1)
    state.apply("2")
    assert state.vars["total"] == 2


def test_the_checker_refuses_a_display_that_shows_a_secret(diagnose):
    found = diagnose('game "M"\nplayers 2\nboard b: grid 2 by 2\nvar mines = ["A2"] secret\n'
                     'def mined(s) = s in mines\ndisplay s = "*" if mined(s) else "."\n'
                     'turn:\n    end game\n')
    assert [d.message for d in found] == [
        "'display' draws the board for every player, so it cannot show the secret variable 'mines'"]


def test_the_checker_refuses_an_end_condition_no_turn_ever_checks(diagnose):
    found = diagnose('game "N"\nplayers 2\nvar n = 0\nround:\n    n += 1\nend when n >= 3\n')
    assert [d.message for d in found] == [
        "this end condition is checked after each turn, but no turn is ever taken"]


def test_a_byte_order_mark_at_the_start_is_ignored(tmp_path):
    path = tmp_path / "bom.rules"
    path.write_text("\ufeff" + RULES, encoding="utf-8")
    assert rulewright.load(str(path)).new_state(seed=1).legal_moves()[0].text == "take 1"


def test_a_save_with_a_decision_and_no_rule_waiting_is_corrupt(game):
    state = game.new_state(seed=1)
    data = state.to_json()
    data["state"]["frames"] = []
    with pytest.raises(rulewright.SaveError, match="a decision is pending but no rule is waiting"):
        game.load_state(data)


@pytest.mark.parametrize("kwargs, message", [
    ({"players": "2"}, "the number of players must be a whole number, not '2'"),
    ({"options": ["a"]}, "options must be a mapping of option names to values, not ['a']"),
])
def test_wrong_argument_types_are_option_errors(kwargs, message):
    with pytest.raises(rulewright.OptionError) as info:
        rulewright.load("tic-tac-toe", **kwargs)
    assert str(info.value) == message


BIDS = '''game "Bids"
players 3
player var bid = 0 secret
turn:
    each p in players secretly choose n in [1, 2, 3] as "bid {n}":
        p.bid = n
    end game
'''


def test_a_move_several_players_could_make_needs_its_player(tmp_path):
    path = tmp_path / "bids.rules"
    path.write_text(BIDS)
    state = rulewright.load(str(path)).new_state(seed=1)
    with pytest.raises(rulewright.AmbiguousMoveError,
                       match=r"move 'bid 1' could be player 1's or player 2's or player 3's, who all decide "
                             r"now; say whose it is \(apply\(move, player=P\)"):
        state.apply("bid 1")
    assert state.to_move() == [1, 2, 3] and state.moves_made == 0  # nothing changed
    state.apply("bid 2", player=2)
    state.apply("bid 3", player=3)
    state.apply("bid 1")  # player 1 alone may still choose: the move is theirs
    assert state.is_over() and state.vars["bid"] == [1, 2, 3]


def test_a_move_number_out_of_range_says_which_are_in_range(game):
    state = game.new_state(seed=1)
    with pytest.raises(IllegalMoveError, match=r"^illegal move '9': there are 3 moves, choose 1-3$"):
        state.apply("9")
    state.apply("2")
    state.apply("1")
    with pytest.raises(IllegalMoveError, match=r"^illegal move '2': there is 1 move, choose 1$"):
        state.apply("2")
