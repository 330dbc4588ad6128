"""Rules written to break the checker or the engine (issue 30): a name that stands for another player
than it seems, a table of a billion rows, a list moved into itself, a procedure named like the engine's
own rules, a file of thousands of unknown names. Each is refused with a located error, or checked in
time linear in the file; none ends in a traceback or leaks a secret."""
from __future__ import annotations

import pytest

from rulewright.dsl.errors import Hints, RulesRuntimeError, suggest
from rulewright.dsl.parser import parse
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.check.typo_checks import NearWords, one_edit
from rulewright.interpreter.testing import errors_of, line_of


# ----------------------------------------------------------------------------- names that hide a player
@pytest.mark.parametrize("code, part", [
    ('observe:\n    "x" = [me in players : sum(c in me.hand : c)]\n', "me in"),          # the leak
    ('display:\n    players "n" = count(me in players : me.score > 0)\n', "me in"),
    ('def mine(me) = me.hand\nobserve:\n    "x" = len(mine(1))\n', "def mine"),
    ('procedure tell(me):\n    log "{me.hand}" to me\nscoring:\n    tell(1)\n', "procedure tell"),
    ('scoring:\n    for me in players:\n        log "{me.hand}" to me\n', "for me"),
    ('scoring:\n    let me = 2\n    log "{me}"\n', "let me"),
    ('scoring:\n    draw me from deck\n', "draw me"),
    ('scoring:\n    log "{[players in [1, 2] : players]}"\n', "players in"),
    ('def f(x) =\n    let player_count = x\n    player_count\nscoring:\n    log "{f(1)}"\n', "let player_count"),
])
def test_a_local_may_not_take_a_built_in_name(code, part, cards_rules):
    text = cards_rules + code
    (line, _col, message, hint), = errors_of(text)
    assert line == line_of(text, part) and "is a built-in name: a local cannot take it" in message and hint


@pytest.mark.parametrize("code, part, secret", [
    ('scoring:\n    for hand in players:\n        log "{hand}"\n', "for hand", "the secret player variable 'hand'"),
    ('observe:\n    "x" = [deck in players : deck]\n', "deck in", "the hidden variable 'deck'"),
    ('def peek(hand) = hand\nscoring:\n    log "{peek(1)}"\n', "def peek", "the secret player variable 'hand'"),
])
def test_a_local_may_not_take_a_secrets_name(code, part, secret, cards_rules):
    text = cards_rules + code
    (line, _col, message, _hint), = errors_of(text)
    assert line == line_of(text, part) and message.endswith(f"would hide {secret}")


def test_a_loop_variable_may_not_hide_the_one_around_it(cards_rules):
    text = cards_rules + 'scoring:\n    for p in players:\n        let q = p\n        for p in players:\n' \
                   '            log "{q.hand}" to p\n'
    (line, col, message, hint), = errors_of(text)
    assert (line, col) == (line_of(text, "        for p"), 9)
    assert message == f"'p' already names the loop variable of line {line_of(text, 'scoring:') + 1}: a second one " \
                      "inside it would hide it" and hint == "give this one another name, say 'p2'"
    # a quantifier inside a quantifier too; one loop after another may reuse the name
    assert errors_of(cards_rules + 'scoring:\n    log "{[p in players : [p in players : p]]}"\n')
    assert errors_of(cards_rules + 'scoring:\n    for p in players:\n        log "{p}"\n    for p in players:\n'
                          '        log "{p}"\n') == []


def test_a_parameter_named_after_the_callers_player_is_still_another_player(cards_rules):
    # tell(p) gives q the key of the caller's p; the procedure's own p is another player
    text = cards_rules + 'procedure tell(q):\n    for p in players:\n        log "{q.hand}" to p\n' \
                   'scoring:\n    for p in players:\n        tell(p)\n'
    (d,) = check(parse(text, "t.rules"))  # the checker has nothing to say; the secrecy check does
    assert d.message == "the log line to player p' shows the secret 'hand' of player p"
    assert d.line == line_of(text, "log \"{q.hand}\"")


def test_a_player_taken_in_one_round_of_a_loop_is_another_player_in_the_next(cards_rules):
    text = cards_rules + 'scoring:\n    let seen = 0\n    for p in players:\n        log "{seen}" to p\n' \
                   '        seen = sum(c in p.hand : c)\n'
    (d,) = check(parse(text, "t.rules"))
    assert d.message == "the log line to player p' shows the secret 'hand' of player p"
    assert d.line == line_of(text, 'log "{seen}"')


# ----------------------------------------------------------------------------- what the engine runs by name
@pytest.mark.parametrize("name", ["__main__", "round", "setup", "scoring"])
def test_a_procedure_may_not_take_the_name_of_a_rule_the_engine_runs(name):
    text = f'game "P"\nplayers 2\nprocedure {name}():\n    log "hi"\nturn:\n    {name}()\n    end game\n'
    (line, col, message, hint), = errors_of(text)
    assert (line, col) == (3, 1) and message.startswith(f"'{name}' names the ") and "a procedure cannot take it" in message


def test_a_table_of_more_rows_than_a_list_holds_is_refused_at_the_row():
    text = 'game "M"\nplayers 2\ntable t(name):\n    "a" * 999999999999999999\nturn:\n    end game\n'
    assert errors_of(text) == [(4, 5, "table 't' would have 999,999,999,999,999,999 rows here; a table has at most "
                                   "1,000,000", "repeat a row fewer times ('* N'), or count copies in a column")]
    many = 'game "M"\nplayers 2\ntable t(name):\n' + '    "a" * 400000\n' * 3 + 'turn:\n    end game\n'
    assert [e[0] for e in errors_of(many)] == [6]  # the row where the count passes the limit


# ----------------------------------------------------------------------------- a list that holds itself
HOLDER = 'game "S"\nplayers 2\nvar h = [[[1]], [2]]\nvar keep = [1]\nvar outside = []\n' \
         'procedure put(xs, ys):\n    move xs from h to ys\nturn:\n    choose x in ["a"]\n{moves}    end game\n'


def test_a_list_is_never_moved_inside_itself(make_game):
    # the procedure's parameters are the lists themselves: h[1] would go into its own first item
    st = make_game(HOLDER.format(moves="    put(h[1], h[1][1])\n")).new_state(1)
    before = st.to_json()
    with pytest.raises(RulesRuntimeError) as info:
        st.apply("a")
    assert info.value.message == "'move' would put this list inside itself"
    assert info.value.diagnostic.line == 7 and st.to_json() == before  # the lists as they were


def test_move_takes_the_item_the_list_held_not_the_variable_named(make_game):
    # 'move keep from h to keep': what moves is h's copy of keep, so keep never holds itself
    moves = "    add keep to outside\n    move keep from outside to keep\n    if false:\n        put(h, h)\n"
    st = make_game(HOLDER.format(moves=moves)).new_state(1)
    st.apply("a")
    assert st.view(None)["vars"]["keep"] == [1, [1]] and st.view(None)["vars"]["outside"] == []
    assert st.to_json()  # a save can be written: nothing in the state holds itself


# ----------------------------------------------------------------------------- checking stays linear
def test_thousands_of_unknown_names_are_each_reported_the_first_with_a_hint():
    text = 'game "U"\nplayers 2\nvar score = 0\n' + "".join(f"var declared_{i} = 0\n" for i in range(300)) \
        + "turn:\n" + "".join(f"    score = declared_{i}x\n" for i in range(3000)) + "    end game\n"
    found = errors_of(text)
    assert len(found) == 3000 and all(m.startswith("unknown name 'declared_") for _l, _c, m, _h in found)
    hinted = [h for _l, _c, _m, h in found if h]
    assert found[0][3] == "did you mean 'declared_0'?"
    assert 0 < len(hinted) < 3000  # the hints end where their budget does; the errors do not


def test_the_hint_budget_counts_names_compared():
    hints = Hints(budget=60)  # 2 looked at, 1 compared in full (25): 33 left; then 21 and 1 more: spent
    assert hints("scor", ["score", "round"]) == suggest("scor", ["score", "round"]) == "did you mean 'score'?"
    assert hints("scor", [f"n{i}" for i in range(20)] + ["score"]) == ""  # past the budget
    assert hints("scor", ["score"]) == ""
    assert Hints()("x" * 65, ["x" * 64]) == ""  # no one misspells a name that long by a letter


@pytest.mark.parametrize("words", [
    ["score", "scores", "sorce", "core", "scare", "a", "ab", "ba", "abc"],
    ["S1", "S2", "S22", "S3", "E11", "E1", "straight_2", "straightt_2", "loop"],
])
def test_near_words_finds_what_comparing_with_each_finds(words):
    index = NearWords(words, shortest=1)
    for word in words + ["scor", "S4", "lop", "x", "abd", "straigth_2"]:
        expected = min((o for o in words if one_edit(word, o)), default="")
        assert index.near(word) == expected, word
