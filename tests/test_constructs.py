"""The constructs the shipped rules asked for: match, a def's let lines, procedures inside a statement's
expression, 'automatic' choices, and one value semantics (copy on store)."""
from __future__ import annotations

from rulewright.dsl.parser import parse
from rulewright.interpreter.api import Game
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.testing import game_from_text, logged

HEAD = 'game "T"\nplayers 2\n'


def game(text: str, **options) -> Game:
    """The rules after a two-player head; not even a warning."""
    return game_from_text(HEAD + text, options=options, filename="t.rules", strict=True)


def test_match_by_value_and_by_condition():
    g = game('option level: local | regional | national\n'
             'def target() = match level { local: 4, regional | national: 9 }\n'
             'def size(n) = match { if n > 10: "big", if n > 3: "middling", else: "small" }\n'
             'turn:\n    log "{target()} {size(11)} {size(5)} {size(1)}"\n    end game\n', level="national")
    assert logged(g.new_state(1)) == ["9 big middling small"]


def test_a_match_with_no_arm_that_fits_is_a_located_error():
    import pytest
    from rulewright.dsl.errors import RulesRuntimeError
    g = game('def name(n) = match n { 1: "one", 2: "two" }\nturn:\n    log "{name(3)}"\n    end game\n')
    with pytest.raises(RulesRuntimeError) as err:
        g.new_state(1)
    assert err.value.message == "no arm of this 'match' fits 3; add 'else: ...' for the other values"
    assert err.value.diagnostic.line == 5


def test_a_long_match_on_texts_finds_each_arm():
    """Four arms or more on texts find their arm through one dict (codegen): every arm, an arm of two
    patterns, a text no arm has and a number (else), and with no else the located error."""
    import pytest
    from rulewright.dsl.errors import RulesRuntimeError
    defs = ('def name(x) = match x { "a": 1, "b": 2, "c" | "d": 3, "e": 4, "f": 5, "g": 6, else: 0 }\n'
            'def strict(x) = match x { "a": 1, "b": 2, "c": 3, "e": 4 }\n')
    names = '[\\"a\\", \\"b\\", \\"c\\", \\"d\\", \\"e\\", \\"f\\", \\"g\\", \\"h\\", 7]'
    g = game(defs + f'turn:\n    log "{{[x in {names} : name(x)]}}"\n    end game\n')
    assert logged(g.new_state(1)) == ["1 2 3 3 4 5 6 0 0"]
    g = game(defs + 'turn:\n    log "{strict(\\"e\\")}"\n    log "{strict(\\"d\\")}"\n    end game\n')
    with pytest.raises(RulesRuntimeError) as err:
        g.new_state(1)
    assert err.value.message == "no arm of this 'match' fits d; add 'else: ...' for the other values"
    assert err.value.diagnostic.line == 7  # the second log line: "e" found its arm


def test_a_def_with_let_lines():
    g = game('def hypot2(a, b) =\n    let aa = a * a\n    let bb = b * b\n    aa + bb\n'
             'turn:\n    log "{hypot2(3, 4)}"\n    end game\n')
    assert logged(g.new_state(1)) == ["25"]


PROCS = '''var rolls = []
procedure roll(n):
    add n to rolls
    return n
'''


def test_procedures_inside_a_statement_run_first_left_to_right():
    g = game(PROCS + 'turn:\n    let x = roll(2) * 10 + roll(roll(3) + 1)\n'
                     '    if roll(5) > 4:\n        log "{x}"\n    end game\n')
    st = g.new_state(1)
    assert st.vars["rolls"] == [2, 3, 4, 5] and logged(st) == ["24"]


def test_a_while_condition_calls_its_procedures_before_each_pass():
    g = game(PROCS + 'var k = 0\nturn:\n    while roll(k) < 3:\n        k += 1\n    end game\n')
    assert g.new_state(1).vars["rolls"] == [0, 1, 2, 3]


def test_an_elif_calls_its_procedures_only_when_reached():
    g = game(PROCS + 'turn:\n    if roll(1) == 1:\n        pass\n    elif roll(2) == 2:\n        pass\n'
                     '    for x in [roll(7)]:\n        win me\n    end game\n')
    assert g.new_state(1).vars["rolls"] == [1, 7]


def test_a_procedure_that_asks_inside_an_expression():
    g = game('procedure pick():\n    choose x in [1, 2, 3]\n    return x\nvar total = 0\n'
             'turn:\n    total += 10 * pick()\n    end game\n')
    st = g.new_state(1)
    st.apply("3")
    assert st.vars["total"] == 30 and st.is_over()


def test_an_automatic_choice_with_one_option_is_not_asked():
    g = game('var got = []\nturn:\n    choose x in [1, 2, 3] where x > 2 automatic\n    add x to got\n'
             '    choose y in [1, 2, 3] where y > 1 automatic\n    add y to got\n    end game\n')
    st = g.new_state(1)
    assert [m.text for m in st.legal_moves()] == ["2", "3"] and st.vars["got"] == [3]
    st.apply("2")
    assert st.vars["got"] == [3, 2]
    assert [e["move"] for e in st.event_history(0) if e["event"] == "move"] == ["2"]


def test_an_automatic_simultaneous_choice():
    g = game('var got = [] secret\nturn:\n    each p in players secretly choose x in [1, 2] where p == 1 or x == 2 '
             'automatic:\n        add [p, x] to got\n    end game\n')
    st = g.new_state(1)
    assert [(m.player, m.text) for m in st.legal_moves()] == [(1, "1"), (1, "2")]
    st.apply("1")
    assert st.vars["got"] == [[1, 1], [2, 2]]
    assert [e["player"] for e in st.event_history(0) if e["event"] == "move"] == [1]
    again = game('var got = [] secret\nturn:\n    each p in players secretly choose x in [p] automatic:\n'
                 '        add x to got\n    end game\n').new_state(1)
    assert again.vars["got"] == [1, 2] and again.is_over()


def test_a_save_with_an_automatic_player_waiting_loads():
    g = game('var got = [] secret\nturn:\n    each p in players secretly choose x in [1, 2] where p == 1 or x == 2 '
             'automatic:\n        add [p, x] to got\n    end game\n')
    st = g.new_state(1)
    back = g.load_state(st.to_json())
    back.apply("2")
    assert back.vars["got"] == [[1, 2], [2, 2]]


def test_values_are_copied_when_stored():
    g = game('record tile(name, up)\nvar course = [tile("a", false), tile("b", false)]\nvar hand = [1]\n'
             'turn:\n    let h = hand\n    add 2 to h\n    let t = first(course)\n    t.up = true\n'
             '    for c in course:\n        if c.name == "b":\n            c.up = true\n'
             '    log "{h} {hand} {course[1].up} {course[2].up} {t.up}"\n    end game\n')
    assert logged(g.new_state(1)) == ["1 2 1 no yes yes"]


PLAN = ('record slot(owner, card secret to owner unless shown, shown)\n'
        'player var hand = [1, 2, 3] secret\nplayer var slots = []\nplayer var score = 0\n'
        'setup:\n    for p in players:\n        p.slots = [k in range(2): slot(p, none, false)]\n'
        'round:\n    each p in players secretly:\n'
        '        for s in p.slots:\n'
        '            choose c in p.hand where all(t in p.slots: t.card != c) as "put {c} face down"\n'
        '            s.card = c\n'
        '        choose:\n            "stand":\n                pass\n            "boast":\n'
        '                log "you boast"\n'
        '    for p in players:\n        for s in p.slots:\n            s.shown = true\n'
        '            p.score += s.card\n'
        'end when round_number == 1 after round\n')


def test_a_secret_plan_asks_each_player_every_step_in_secret():
    st = game(PLAN).new_state(1)
    assert st.to_move() == [1]
    assert [m.text for m in st.legal_moves()] == ["put 1 face down", "put 2 face down", "put 3 face down"]
    st.apply("put 2 face down")
    # a card already planned is not offered again; the decisions stay small (one per slot)
    assert [m.text for m in st.legal_moves()] == ["put 1 face down", "put 3 face down"]
    st.apply("put 3 face down")
    st.apply("boast")
    assert st.to_move() == [2]
    # player 2 sees only that player 1 made three secret choices; the boast is told to player 1 alone
    seen = st.event_history(2)
    assert [e.get("move") for e in seen if e["event"] == "move"] == ["makes a secret choice"] * 3
    assert not any(e["event"] == "log" for e in seen)
    assert [e["text"] for e in st.event_history(1) if e["event"] == "log"] == ["you boast"]
    assert [s["card"] for s in st.view(2)["vars"]["slots"][0]] == ["?", "?"]
    for m in ("put 1 face down", "put 2 face down", "stand"):
        st.apply(m)
    assert st.is_over() and st.outcome().scores == {1: 5, 2: 3}


def test_a_secret_plan_survives_a_save_midway():
    g = game(PLAN)
    st = g.new_state(1)
    st.apply("put 2 face down")
    back = g.load_state(st.to_json())
    assert [m.text for m in back.legal_moves()] == ["put 1 face down", "put 3 face down"]


def test_a_plan_whose_steps_depend_on_a_secret_is_reported():
    from rulewright.interpreter.check.secrecy import secrecy_diagnostics as check_secrecy
    rules = parse(HEAD + 'player var hand = [1, 2, 3] secret\nplayer var score = 0\n'
                  'round:\n    each p in players secretly:\n        for c in [c in p.hand where c > 1]:\n'
                  '            choose x in ["keep", "drop"] as "{x} {c}"\n'
                  'end when round_number == 1 after round\n', "t.rules")
    found = [d.message for d in check_secrecy(rules)]
    assert any("asked" in m for m in found), found


def test_a_secret_course_of_action_is_masked_and_checked():
    g = game('player var score = 0\nturn:\n    choose secretly:\n        "left":\n            pass\n'
             '        "right":\n            pass\n    end game\n')
    st = g.new_state(1)
    st.apply("right")
    assert [e["move"] for e in st.event_history(2) if e["event"] == "move"] == ["makes a secret choice"]
    from rulewright.interpreter.check.secrecy import secrecy_diagnostics as check_secrecy
    leaky = parse(HEAD + 'player var score = 0\nturn:\n    choose secretly:\n        "left":\n'
                  '            me.score += 1\n        "right":\n            pass\n    end game\n', "t.rules")
    assert any("score" in d.message for d in check_secrecy(leaky))


WINDOW = ('player var hand = [] secret\nplayer var score = 0\nvar deck = [] hidden\n'
          'setup:\n    deck = ["dud", "cad", "dud", "cad", "dud", "dud"]\n'
          '    for p in players:\n        repeat 2 times:\n            draw c from deck\n            add c to p.hand\n'
          'turn:\n    let need = 2\n'
          '    each q in [k in players where k != me] may choose c in q.hand where c == "cad" as "cad against {me}":\n'
          '        reveal c as "player {q} plays a cad"\n        remove c from q.hand\n        need += 1\n'
          '    me.score += need\n'
          'end when round_number == 2 after round\n')


def _window_game():
    rules = parse('game "T"\nplayers 3\n' + WINDOW, "t.rules")
    assert [d.render() for d in check(rules)] == []
    return Game(rules)


def test_a_window_asks_only_the_players_with_a_response():
    st = _window_game().new_state(1)
    # player 2 holds a cad; player 3 holds one too; player 1 is acting
    assert st.vars["hand"] == [["dud", "dud"], ["cad", "dud"], ["cad", "dud"]]
    assert sorted(st.to_move()) == [2, 3]
    assert [m.text for m in st.legal_moves(2)] == ["cad against 1", "pass"]
    st.apply("pass", player=2)
    st.apply("cad against 1", player=3)
    assert st.vars["score"][0] == 3 and st.vars["hand"][2] == ["dud"]
    # player 2's turn: player 3 has no cad left and player 1 none: nobody is asked, no decision stops it
    assert st.vars["score"][1] == 2
    # player 3's turn: player 2 still holds the cad passed on earlier, and is asked
    assert st.to_move() == [2] and st.pending.window


def test_nobody_sees_who_was_asked_in_a_window():
    st = _window_game().new_state(1)
    view1 = st.view(1)
    assert view1["to_move"] == [] and view1["window"] == "open" and "legal_moves" not in view1
    assert st.view(2)["to_move"] == [2] and st.view(2)["legal_moves"] == ["cad against 1", "pass"]
    assert "a window for responses is open" in st.render(1)
    st.apply("pass", player=2)
    assert st.view(3)["to_move"] == [3] and "chosen" not in st.view(3)
    st.apply("cad against 1", player=3)
    # the pass reached player 2 alone; the cad shows to all in what it does (the reveal)
    for p in (1, 3):
        assert not any(e["event"] == "move" and e["player"] == 2 for e in st.event_history(p))
    assert [e for e in st.event_history(2) if e["event"] == "move"][0]["move"] == "pass"
    assert any(e.get("text") == "player 3 plays a cad" for e in st.event_history(1))


def test_a_window_survives_a_save():
    g = _window_game()
    st = g.new_state(1)
    st.apply("pass", player=2)
    back = g.load_state(st.to_json())
    assert back.pending.window and back.to_move() == [3]
    back.apply("cad against 1")
    assert back.vars["score"][0] == 3
