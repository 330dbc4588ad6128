"""The engine: what each statement does when a game runs, whose turn it is, how a game ends and is
scored, what each player may see, and how refused moves and runaway rules are handled."""
from __future__ import annotations

import random
import textwrap

import pytest

from rulewright.dsl.errors import AmbiguousMoveError, IllegalMoveError, RulesCompileError, RulesRuntimeError
from rulewright.interpreter.engine import limits
from rulewright.interpreter.api import load
from rulewright.interpreter.testing import logs

HEAD = 'game "T"\nplayers 2\n'


@pytest.fixture
def run_turn(make_game):
    """run_turn(body, decls="") -> the log of a game whose first turn runs ``body`` then ends the game."""
    def run(body: str, decls: str = "", seed: int = 1) -> list[str]:
        text = HEAD + textwrap.dedent(decls).strip("\n") + "\nturn:\n" \
            + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n    end game\n"
        return logs(make_game(text).new_state(seed))
    return run


# ----------------------------------------------------------------------------- simple statements
def test_let_assign_and_augmented_assign(run_turn):
    assert run_turn("""
        let x = 3
        x += 4
        total -= x
        total = total * 2
        log "{x} {total}"
        """, "var total = 10") == ["7 6"]


def test_player_variables_by_field_and_by_index(run_turn):
    assert run_turn("""
        me.score += 5
        score[2] = 7
        log "{score} {me.score} {score[2]}"
        """, "player var score = 0") == ["5 7 5 7"]


def test_if_elif_else(run_turn):
    assert run_turn("""
        for x in [1, 2, 3]:
            if x == 1:
                log "one"
            elif x == 2:
                log "two"
            else:
                log "many"
        """) == ["one", "two", "many"]


def test_for_takes_the_list_once_and_break_leaves_the_loop(run_turn):
    assert run_turn("""
        for x in xs:
            add x to xs
            if x == 3:
                break
            log "{x}"
        log "{len(xs)}"
        """, "var xs = [1, 2, 3, 4]") == ["1", "2", "7"]


def test_while_and_repeat(run_turn):
    assert run_turn("""
        let n = 0
        while n < 5:
            n += 2
        repeat 3 times:
            n += 10
        log "{n}"
        """) == ["36"]


def test_list_positions_count_from_one(run_turn):
    assert run_turn('log "{xs[1]} {xs[-1]} {len(xs)}"', "var xs = [10, 20, 30]") == ["10 30 3"]


def test_add_remove_move_draw(run_turn):
    assert run_turn("""
        add 4 to deck
        add 0 to deck at bottom
        remove 2 from deck
        move 3 from deck to pile
        draw top from deck
        log "{deck} | {pile} | {top}"
        """, "var deck = [1, 2, 3]\nvar pile = []") == ["0 1 | 3 | 4"]


def test_shuffle_keeps_the_items_and_follows_the_seed(make_game):
    game = make_game(HEAD + "var deck = [1, 2, 3, 4, 5, 6, 7, 8]\nturn:\n    shuffle deck\n    end game\n")
    orders = [tuple(game.new_state(seed).vars["deck"]) for seed in (1, 1, 2)]
    assert sorted(orders[0]) == list(range(1, 9))
    assert orders[0] == orders[1]
    assert orders[0] != orders[2]


def test_templates_show_values_as_text(run_turn):
    assert run_turn('log "{true} {false} {none} {[1, 2]} {name + name}"', 'var name = "ab"') == ["yes no none 1 2 abab"]


def test_quantifiers_and_list_comprehension(run_turn):
    assert run_turn("""
        log "{count(x in xs where x > 2)} {sum(x in xs: x * 10)} {all(x in xs: x > 0)} {any(x in xs: x > 4)}"
        log "{min(x in xs: -x)} {max(x in xs: x)} {first(x in xs where x > 1)} {lowest(x in xs: x % 2)}"
        log "{[x in xs where x != 2 : x * x]}"
        """, "var xs = [1, 2, 3, 4]") == ["2 100 yes no", "-4 4 2 2 4", "1 9 16"]


def test_records_and_tables(run_turn):
    assert run_turn("""
        let p = pair(a: 1, b: 2)
        p.a = 5
        log "{p.a} {p.b} {cards[4]} {cards[4].value} {len(cards)}"
        """, """
        record pair(a, b)
        table cards(name, value):
            ace, 1 * 3
            king, 13
        """) == ["5 2 king 13 4"]


def test_def_functions_see_their_arguments_and_me(run_turn):
    assert run_turn('log "{bonus(3)}"', "player var score = 7\ndef bonus(x) = x + me.score") == ["10"]


def test_procedure_return_values(run_turn):
    assert run_turn("""
        let a = triple(2)
        total = triple(a)
        me.score = triple(1)
        log "{a} {total} {me.score}"
        """, """
        var total = 0
        player var score = 0
        procedure triple(n):
            return n * 3
        """) == ["6 18 3"]


def test_step_labels_what_the_game_is_doing(make_game):
    state = make_game(HEAD + 'turn:\n    step "placing":\n        choose x in [1, 2]\n    end game\n').new_state(1)
    assert state.step == "placing" and state.view(1)["step"] == "placing"


# ----------------------------------------------------------------------------- decisions
def test_choose_where_as_optional(make_game):
    state = make_game(HEAD + """
turn:
    choose s in [1, 2, 3, 4] where s % 2 == 0 as "take {s}" optional "skip"
    log "{s}"
    end game
""").new_state(1)
    assert state.to_move() == [1]
    assert [m.text for m in state.legal_moves()] == ["take 2", "take 4", "skip"]
    state.apply("skip")
    assert logs(state) == ["none"] and state.is_over()


def test_choose_value_is_the_one_picked(make_game):
    state = make_game(HEAD + 'turn:\n    choose s in [5, 6, 7]\n    log "{s}"\n    end game\n').new_state(1)
    state.apply("6")  # a move text (not the 6th move: there are only 3)
    assert logs(state) == ["6"]


def test_a_number_picks_the_nth_move(make_game):
    state = make_game(HEAD + 'turn:\n    choose s in ["a", "b"]\n    log "{s}"\n    end game\n').new_state(1)
    state.apply("2")
    assert logs(state) == ["b"]


def test_choose_by_another_player(make_game):
    state = make_game(HEAD + "turn:\n    choose x in [1, 2] by next_player(me)\n    end game\n").new_state(1)
    assert state.to_move() == [2]
    assert {m.player for m in state.legal_moves()} == {2}


def test_choose_block_offers_only_guarded_courses_that_hold(make_game):
    state = make_game(HEAD + """
var coins = 0
turn:
    choose:
        "buy" if coins > 0:
            log "bought"
        "earn":
            coins += 1
            log "earned"
        "wait":
            log "waited"
    if coins > 1:
        end game
""").new_state(1)
    assert [m.text for m in state.legal_moves()] == ["earn", "wait"]
    state.apply("earn")
    assert [m.text for m in state.legal_moves()] == ["buy", "earn", "wait"]
    state.apply("buy")
    assert logs(state) == ["earned", "bought"]


def test_no_legal_choice_is_a_runtime_error(make_game):
    game = make_game(HEAD + "turn:\n    choose x in [1, 2] where x > 5\n    end game\n")
    with pytest.raises(RulesRuntimeError, match=r"test\.rules:4:5: error: in 'turn': no legal choice for 'x'"):
        game.new_state(1)


SECRET_BIDS = HEAD.replace("players 2", "players 3") + """
player var bid = 0
round:
    each p in players secretly choose b in [1, 2, 3] as "bid {b}":
        reveal b as "{p} bids {b}"
        bid[p] = b
    end game
"""


def test_simultaneous_choice_waits_for_everyone(make_game):
    state = make_game(SECRET_BIDS).new_state(1)
    assert state.to_move() == [1, 2, 3]
    assert [m.text for m in state.legal_moves(2)] == ["bid 1", "bid 2", "bid 3"]
    state.apply("bid 3", player=2)
    assert state.to_move() == [1, 3]
    state.apply("bid 1", player=1)
    state.apply("bid 2", player=3)
    assert state.is_over()
    assert state.vars["bid"] == [1, 3, 2]
    assert logs(state) == ["1 bids 1", "2 bids 3", "3 bids 2"]


def test_a_secret_choice_is_hidden_from_the_others_until_all_chose(make_game):
    state = make_game(SECRET_BIDS).new_state(1)
    state.apply("bid 3", player=2)
    for viewer in (1, 3):
        seen = state.view(viewer)
        assert seen["chosen"] == [2]  # who has chosen, not what
        assert seen["vars"]["bid"] == [0, 0, 0]
        assert seen["legal_moves"] == ["bid 1", "bid 2", "bid 3"]  # the viewer's own decision only
    assert "legal_moves" not in state.view(2)  # player 2 has nothing more to decide
    assert state.view()["chosen"] == {"2": 3}  # the full view (no player) shows everything


# ----------------------------------------------------------------------------- turns and rounds
TURN_ORDER = HEAD.replace("players 2", "players 3") + """
var last = 0
setup:
    first_player = 2
turn:
    choose x in ["go"]
    log "{round_number}:{me}"
    last = me
end when round_number == 2 and last == 3 after turn
"""


def test_turn_order_starts_with_first_player(make_game):
    state = make_game(TURN_ORDER).new_state(1)
    while not state.is_over():
        state.apply("go")
    assert logs(state) == ["1:2", "1:3", "1:1", "2:2", "2:3"]


def test_end_when_after_round_finishes_the_round(make_game):
    state = make_game(TURN_ORDER.replace("after turn", "after round").replace("and last == 3", "")).new_state(1)
    while not state.is_over():
        state.apply("go")
    assert logs(state) == ["1:2", "1:3", "1:1", "2:2", "2:3", "2:1"]


def test_round_block_with_turn_statements(make_game):
    state = make_game(HEAD + """
round:
    for p in reversed(players):
        turn p
    if round_number == 2:
        end game
turn:
    log "{me}"
""").new_state(1)
    assert logs(state) == ["2", "1", "2", "1"] and state.is_over()


def test_end_game_runs_the_scoring_block_then_ranks(make_game):
    state = make_game(HEAD.replace("players 2", "players 3") + """
player var score = 0
turn:
    end game
    log "never"
scoring:
    score[1] = 5
    score[2] = 9
    score[3] = 5
    log "scored"
rank by score descending
""".replace('    end game\n    log "never"\n', "    end game\n")).new_state(1)
    outcome = state.outcome()
    assert logs(state) == ["scored"]
    assert outcome.scores == {1: 5, 2: 9, 3: 5}
    assert outcome.ranking == [[2], [1, 3]]
    assert outcome.winners == [2] and not outcome.draw
    assert outcome.returns() == {2: 1, 1: -1, 3: -1}


def test_rank_by_several_keys_ascending(make_game):
    state = make_game(HEAD.replace("players 2", "players 3") + """
player var time = 0
player var faults = 0
turn:
    end game
scoring:
    time[1] = 30
    time[2] = 20
    time[3] = 20
    faults[2] = 1
rank by time ascending, faults ascending
""").new_state(1)
    assert state.outcome().ranking == [[3], [2], [1]]


def test_tied_best_players_all_win_and_everyone_tied_is_a_draw(make_game):
    state = make_game(HEAD + "player var score = 4\nturn:\n    end game\n").new_state(1)
    outcome = state.outcome()
    assert outcome.ranking == [[1, 2]] and outcome.winners == [1, 2]
    assert outcome.draw and outcome.returns() == {1: 0, 2: 0}


def test_win_names_the_winners(make_game):
    state = make_game(HEAD + "turn:\n    win next_player(me)\n    end game\n").new_state(1)
    assert state.outcome().winners == [2]
    state = make_game(HEAD + "turn:\n    win []\n    end game\n").new_state(1)
    assert state.outcome().winners == [] and state.outcome().draw


def test_teams(make_game):
    game = make_game(HEAD.replace("players 2", "players 4") + """
teams [[1, 3], [2, 4]]
turn:
    win [2, 4]
    end game
""")
    outcome = game.new_state(1).outcome()
    assert outcome.teams == [[1, 3], [2, 4]]
    assert outcome.winners == [2, 4] and not outcome.draw
    assert outcome.to_dict()["teams"] == [[1, 3], [2, 4]]


def test_no_move_after_the_game_is_over(make_game):
    state = make_game(HEAD + "turn:\n    end game\n").new_state(1)
    assert state.is_over() and state.to_move() == [] and state.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.apply("x")


# ----------------------------------------------------------------------------- runaway rules and errors
def test_endless_loop_hits_the_step_budget(make_game, monkeypatch):
    monkeypatch.setattr(limits, "STEPS", 10_000)
    game = make_game(HEAD + "var n = 0\nturn:\n    while true:\n        n += 1\n    end game\n")
    with pytest.raises(RulesRuntimeError) as info:
        game.new_state(1)
    message = str(info.value)
    assert message.startswith("test.rules:")
    assert "in 'turn'" in message and "10,000 steps" in message and "endless loop" in message
    assert message.count("test.rules") == 1
    assert int(message.split(":")[1]) in (4, 5)


def test_runtime_errors_carry_file_and_line(make_game):
    game = make_game(HEAD + 'var deck = []\nturn:\n    log "a"\n    draw c from deck\n    end game\n')
    with pytest.raises(RulesRuntimeError, match=r"^test\.rules:6:5: error: in 'turn': cannot draw from an empty list\n"):
        game.new_state(1)


def test_fail_stops_with_the_rules_message(make_game):
    game = make_game(HEAD + 'turn:\n    if me == 1:\n        fail "player {me} cheated"\n    end game\n')
    with pytest.raises(RulesRuntimeError, match=r"^test\.rules:5:9: error: in 'turn': player 1 cheated\n"):
        game.new_state(1)


def test_python_errors_inside_rules_become_located_runtime_errors(make_game):
    game = make_game(HEAD + 'var xs = [1]\nturn:\n    log "{xs[5]}"\n    end game\n')
    with pytest.raises(RulesRuntimeError, match=r"^test\.rules:5:11: error: in 'turn': there is no item 5 in a list of 1 item\n"):
        game.new_state(1)


def test_starting_value_that_cannot_be_computed(make_game):
    game = make_game(HEAD + "var xs = [1][3]\nturn:\n    end game\n")
    with pytest.raises(RulesRuntimeError, match=r"^test\.rules:3:10: error: in 'var xs': there is no item 3 in a list of 1 item\n"):
        game.new_state(1)


@pytest.mark.parametrize("defs, where", [
    ("def share(k) =\n    let whole = 12\n    whole / k\n", r"test\.rules:6:5: error: in 'turn': division by zero"),
    ("def share(k) = match k { 1: 1, else: 12 / k }\n", r"test\.rules:4:38: error: in 'turn': division by zero"),
])
def test_an_error_after_a_let_or_in_a_matchs_else_points_inside_the_def(make_game, defs, where):
    """The expression that failed is found in a def's whole body: after its 'let' lines, in a match's else."""
    game = make_game(HEAD + "option n: 0 | 1\n" + defs + 'turn:\n    log "{share(n)}"\n    end game\n')
    with pytest.raises(RulesRuntimeError, match="(?s)^" + where + ".*this is inside a def"):
        game.new_state(1)


def test_procedure_errors_name_the_procedure(make_game):
    game = make_game(HEAD + "procedure boom():\n    log \"{1 / 0}\"\nturn:\n    boom()\n    end game\n")
    with pytest.raises(RulesRuntimeError, match=r"^test\.rules:4:11: error: in 'boom': division by zero\n"):
        game.new_state(1)


# ----------------------------------------------------------------------------- refused moves
PICK = HEAD + """
var taken = []
turn:
    choose x in ["apple", "apricot", "banana"] where x not in taken
    add x to taken
    if len(taken) == 3:
        end game
"""


@pytest.mark.parametrize("move, error", [
    ("cherry", IllegalMoveError),
    ("ap", AmbiguousMoveError),
    ("9", IllegalMoveError),
    ("", IllegalMoveError),
])
def test_refused_moves_leave_the_state_unchanged(make_game, move, error):
    state = make_game(PICK).new_state(3)
    state.apply("banana")
    before = state.to_json()
    with pytest.raises(error):
        state.apply(move)
    assert state.to_json() == before
    assert [m.text for m in state.legal_moves()] == ["apple", "apricot"]


def test_move_for_the_wrong_player_is_refused_unchanged(make_game):
    state = make_game(PICK).new_state(3)
    before = state.to_json()
    with pytest.raises(IllegalMoveError):
        state.apply("apple", player=2)
    assert state.to_json() == before


def test_unambiguous_prefix_and_case_are_accepted(make_game):
    state = make_game(PICK).new_state(3)
    state.apply("BAN")
    state.apply("apr")
    assert state.vars["taken"] == ["banana", "apricot"]


def test_ambiguous_message_lists_the_candidates(make_game):
    state = make_game(PICK).new_state(3)
    with pytest.raises(AmbiguousMoveError, match="'apple', 'apricot'"):
        state.apply("ap")


# ----------------------------------------------------------------------------- determinism
RANDOM_GAME = HEAD + """
player var score = 0
var deck = []
setup:
    deck = range(1, 20)
    shuffle deck
turn:
    draw c from deck
    choose k in [c, roll(6), random(deck)] as "{k}"
    me.score += k
end when len(deck) < 4 after round
"""


def _playout(game, seed: int, choice_seed: int):
    state, rng, trace = game.new_state(seed), random.Random(choice_seed), []
    while not state.is_over():
        move = rng.choice(state.legal_moves())
        trace.append(move.text)
        state.apply(move)
    return trace, state.outcome()


def test_same_seed_same_game(make_game):
    game = make_game(RANDOM_GAME)
    assert _playout(game, 5, 9) == _playout(game, 5, 9)
    assert _playout(game, 5, 9) != _playout(game, 6, 9)


def test_clone_continues_like_the_original(make_game):
    game = make_game(RANDOM_GAME)
    state = game.new_state(4)
    for _ in range(5):
        state.apply(state.legal_moves()[0])
    copy = state.clone()
    for s in (state, copy):
        while not s.is_over():
            s.apply(s.legal_moves()[-1])
    assert copy.to_json() == state.to_json()


# ----------------------------------------------------------------------------- what each player sees
def test_hidden_and_secret_variables_are_masked(make_game):
    state = make_game(HEAD + """
var deck = [1, 2, 3] hidden
var seed_card = 7 hidden
player var hand = [] secret
player var stash = [] hidden
player var score = 0
setup:
    hand[1] = [4, 5]
    hand[2] = [6]
    stash[1] = [8, 9]
turn:
    choose x in [1]
    end game
""").new_state(1)
    mine = state.view(1)["vars"]
    assert mine["deck"] == {"hidden": 3} and mine["seed_card"] == "?"
    assert mine["hand"] == [[4, 5], {"hidden": 1}]
    assert mine["stash"] == [{"hidden": 2}, {"hidden": 0}]
    assert mine["score"] == [0, 0]
    theirs = state.view(2)["vars"]
    assert theirs["hand"] == [{"hidden": 2}, [6]]
    assert "4" not in state.render(2).split("hand")[-1].split("\n")[0]
    assert state.view()["vars"]["deck"] == [1, 2, 3]  # no viewer: everything


# ----------------------------------------------------------------------------- extends
def test_a_variant_replaces_an_option_and_a_procedure(tmp_path):
    (tmp_path / "base.rules").write_text(HEAD + """
option size: small | large
player var score = 0
procedure gain():
    me.score += 1
turn:
    gain()
    log "{size}"
    end game
""")
    (tmp_path / "variant.rules").write_text("""
extends "base.rules"
option size: huge | small
procedure gain():
    me.score += 10
""")
    base = load(str(tmp_path / "base.rules")).new_state(1)
    variant_game = load(str(tmp_path / "variant.rules"))
    variant = variant_game.new_state(1)
    assert base.vars["score"] == [1, 0] and logs(base) == ["small"]
    assert variant.vars["score"] == [10, 0] and logs(variant) == ["huge"]
    assert variant_game.name == "T"
    assert load(str(tmp_path / "variant.rules"), options={"size": "small"}).options == {"size": "small"}


def test_rules_that_extend_themselves_are_refused(tmp_path):
    (tmp_path / "a.rules").write_text('extends "b.rules"\n' + HEAD + "turn:\n    end game\n")
    (tmp_path / "b.rules").write_text('extends "a.rules"\n')
    with pytest.raises(RulesCompileError) as info:
        load(str(tmp_path / "a.rules"))
    d = info.value.diagnostics[0]
    assert d.message == "these rules extend themselves: a.rules -> b.rules -> a.rules"
    assert (d.file, d.line, d.source_line) == (str(tmp_path / "b.rules"), 1, 'extends "a.rules"')


def test_a_missing_base_is_reported_at_the_extends_line(tmp_path):
    (tmp_path / "v.rules").write_text('# a variant\nextends "gone.rules"\n')
    with pytest.raises(RulesCompileError) as info:
        load(str(tmp_path / "v.rules"))
    d = info.value.diagnostics[0]
    assert (d.line, d.column) == (2, 1) and d.message.startswith("no rules file at ")


@pytest.mark.parametrize("display", ["{[]: 1}", '"B2".score', "{none.score: 5}"])
def test_a_display_that_fails_is_a_located_runtime_error(make_game, display):
    # found by fuzzing: the display expression runs outside the machine and let Python errors out
    state = make_game(HEAD + f"player var score = 0\nboard b: grid 2 by 2\ndisplay s = {display}\n"
                             "turn:\n    choose x in [1]\n    end game\n").new_state(1)
    with pytest.raises(RulesRuntimeError, match=r"^test\.rules:5:\d+: error: in 'display': "):
        state.render(1)


@pytest.mark.parametrize("decls", [
    "teams [[1], [2]][5]\nplayer var score = 0",
    "player var score = none",
    "player var score = 0\nplayer var bonus = 0\nrank by score descending, bonus ascending\n"
    "setup:\n    score[1] = \"x\"",
])
def test_an_outcome_the_rules_get_wrong_is_a_runtime_error(make_game, decls):
    state = make_game(HEAD + decls + "\nturn:\n    end game\n").new_state(1)
    assert state.is_over()
    with pytest.raises(RulesRuntimeError, match=r"^test\.rules:\d+:\d+: error: in 'the outcome': "):
        state.outcome()


def test_each_player_chooses_from_their_own_list(make_game):
    state = make_game(HEAD + """
player var hand = [] secret
setup:
    hand[1] = ["a", "b"]
    hand[2] = ["c"]
round:
    each p in players secretly choose x in p.hand where x != "b" as "play {x}":
        remove x from hand[p]
    end game
""").new_state(1)
    assert [m.text for m in state.legal_moves(1)] == ["play a"]
    assert [m.text for m in state.legal_moves(2)] == ["play c"]
    assert "play c" not in repr(state.view(1))  # another player's options stay hidden too
    state.apply("play c", player=2)
    state.apply("play a", player=1)
    assert state.vars["hand"] == [["b"], []]


def test_a_procedure_calling_itself_forever_stops_early(make_game):
    game = make_game(HEAD + "procedure deeper(n):\n    deeper(n + 1)\nturn:\n    deeper(1)\n    end game\n")
    with pytest.raises(RulesRuntimeError, match=r"^test\.rules:4:5: error: in 'deeper': procedures called 500 deep"):
        game.new_state(1)


def test_a_procedure_may_call_itself_a_bounded_number_of_times(make_game):
    state = make_game(HEAD + """
var total = 0
procedure add_down(n):
    if n > 0:
        total += n
        add_down(n - 1)
turn:
    add_down(100)
    end game
""").new_state(1)
    assert state.vars["total"] == 5050
