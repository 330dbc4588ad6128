"""A variant's errata: one arm, one branch, one alternative, the base's own version, a part retired. Each
form is tested alone, by the state it changes; each misfit is an error at the variant's line (issue 38)."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulewright.dsl.errors import RulesCompileError, RulesError
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import _apply_extends, load
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.testing import play, texts

BASE = '''game "Base"
players 2
enum suit: cups, swords
table card(name, suit):
    ace, cups
    two, swords
player var score = 0
player var coins = 0
def worth(c) = match c.suit { cups: 1, swords: 2 }
def bonus(p) = 1
procedure gain(p, c):
    if c.suit == cups:
        p.coins += 1
    elif c.suit == swords:
        p.coins += 2
procedure spare(p):
    p.score += 100
turn:
    step "play":
        for c in card:
            me.score += worth(c) + bonus(me)
            gain(me, c)
    step "shop":
        choose:
            "buy" if me.coins > 0:
                me.coins -= 1
                me.score += 10
            "rest":
                pass
    step "extra":
        spare(me)
    end game
'''
# the base: 1 + 1 and 2 + 1 points and 3 coins from the cards; "buy": 10 points, a coin; "extra": 100 points


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "base.rules").write_text(BASE)
    return tmp_path


def variant(folder: Path, text: str):
    (folder / "v.rules").write_text('extends "base.rules"\n' + text)
    return load(str(folder / "v.rules"))


def diagnostics(folder: Path, text: str) -> list:
    path = folder / "v.rules"
    path.write_text('extends "base.rules"\n' + text)
    return check(_apply_extends(parse(path.read_text(), str(path)), path))


def after(game, *moves):
    st = game.new_state(1)
    play(st, *moves)
    return st


def test_the_base(folder):
    st = after(load(str(folder / "base.rules")), "buy")
    assert st.vars["score"] == [115, 0] and st.vars["coins"] == [2, 0]


WANDS = "add to enum suit: wands\nadd to table card:\n    three, wands\n"


def test_an_arm_and_a_branch_are_added_for_a_new_value(folder):
    g = variant(folder, WANDS + "in def worth, add arm:\n    wands: 5\n"
                "in procedure gain, add:\n    elif c.suit == wands:\n        p.coins += 7\n")
    st = after(g, "rest")
    assert st.vars["score"] == [2 + 3 + 6 + 100, 0] and st.vars["coins"] == [10, 0]


def test_an_alternative_is_added_before_another(folder):
    g = variant(folder, 'in step "shop", add before "rest":\n    "gamble" if me.coins > 2:\n        me.score += 1000\n')
    st = g.new_state(1)
    assert texts(st) == ["buy", "gamble", "rest"]
    play(st, "gamble")
    assert st.vars["score"] == [1105, 0] and st.vars["coins"] == [3, 0]


def test_an_alternative_is_replaced(folder):
    g = variant(folder, 'in turn, replace "buy":\n    "buy big" if me.coins > 2:\n        me.coins -= 3\n'
                '        me.score += 50\n')
    st = g.new_state(1)
    assert texts(st) == ["buy big", "rest"]
    play(st, "buy big")
    assert st.vars["score"] == [155, 0] and st.vars["coins"] == [0, 0]


def test_an_alternative_is_removed(folder):
    st = variant(folder, 'in step "shop", remove "buy"\n').new_state(1)
    assert "buy" not in texts(st)
    play(st, "rest")
    assert st.vars["coins"] == [3, 0]


def test_a_replacement_calls_the_base_version(folder):
    g = variant(folder, "def bonus(p) = base(p) * 10\nprocedure gain(p, c):\n    base(p, c)\n    base(p, c)\n")
    st = after(g, "rest")
    assert st.vars["score"] == [1 + 2 + 20 + 100, 0] and st.vars["coins"] == [6, 0]


def test_a_step_and_a_procedure_are_retired(folder):
    st = after(variant(folder, 'retire step "extra"\nretire procedure spare\n'), "buy")
    assert st.vars["score"] == [15, 0]


def test_a_def_is_retired_with_what_calls_it(folder):
    g = variant(folder, 'retire def bonus\nstep "play":\n    me.score += 7\n    gain(me, "two")\n')
    st = after(g, "rest")
    assert st.vars["score"] == [107, 0] and st.vars["coins"] == [2, 0]


@pytest.mark.parametrize("text, line, column, message, hint", [
    ('in step "shop", remove "bye"\n', 2, 1, "the step 'shop' has no alternative 'bye'",
     'did you mean \'buy\'?; its alternatives, as written: "buy"; "rest" (each named by its text exactly, {holes} '
     "and all, or by the name it is given with 'as')"),
    ('in step "shop", add:\n    "rest":\n        pass\n', 3, 5, "the choice at {base}:24 already has an alternative 'rest'",
     'replace it: in step "shop", replace "rest":'),
    ("in def worth, add arm:\n    cups: 9\n", 2, 1, "the match at {base}:9 already has an arm for 'cups'",
     "an erratum adds arms for new values; to change the base's arm, replace the def"),
    ("in procedure gain, add:\n    elif c.suit == swords:\n        pass\n", 2, 1,
     "the chain at {base}:12 already has a branch for 'swords'",
     "an erratum adds branches for new values; replace the step or procedure to change the base's"),
    ("retire procedure spare\n", 2, 1, "the procedure 'spare' is retired here but still called at {base}:31: "
     "spare(me)", "retire or amend what calls it too, or keep it"),
    ("retire procedure spar\n", 2, 1, "the base has no procedure 'spar' to retire", "did you mean 'spare'?"),
    ("in def wroth, add arm:\n    wands: 1\n", 2, 1, "the base has no def 'wroth'", "did you mean 'worth'?"),
    ("def extra(p) = base(p)\n", 2, 1, "base(...) calls the base's own version of 'extra', but the base has no "
     "def 'extra' that this one replaces", "base(...) is for a def or procedure that replaces the base's of the same "
     "name"),
    ("in def bonus, add arm:\n    cups: 1\n", 2, 1, "the def 'bonus' has no match to add an arm to",
     "an arm goes in a 'match x { ... }' of the place named"),
    # a def named as a procedure, a procedure as a def: which it is, and how to write it
    ("in procedure worth, add arm:\n    wands: 1\n", 2, 1, "the base has no procedure 'worth'",
     "'worth' is a def in the base, not a procedure: in def worth, add arm:"),
    ("in def gain, add:\n    elif c.suit == wands:\n        pass\n", 2, 1, "the base has no def 'gain'",
     "'gain' is a procedure in the base, not a def: in procedure gain, add:"),
    ("retire def spare\n", 2, 1, "the base has no def 'spare' to retire",
     "'spare' is a procedure in the base, not a def: retire procedure spare"),
    # an alternative not found: every alternative listed as an erratum names it
    ('in step "shop", remove "nap"\n', 2, 1, "the step 'shop' has no alternative 'nap'",
     'its alternatives, as written: "buy"; "rest" (each named by its text exactly, {holes} and all, or by the '
     "name it is given with 'as')"),
    ("in step \"shop\", remove nap\n", 2, 1, "the step 'shop' has no alternative named 'nap'",
     'its alternatives: "buy"; "rest" (a name is given with: "TEXT" as NAME:)'),
    # base.NAME(...) of what the variant does not replace
    ("def bonus(p) = base.worth(p)\n", 2, 16, "base.worth(...) calls the base's own version of 'worth', but this "
     "variant does not replace the base's def 'worth'", "call worth(...): what a variant does not replace is the "
     "base's own"),
    ("def bonus(p) = base.wroth(p)\n", 2, 16, "base.wroth(...) calls the base's own version of 'wroth', but the base "
     "has no def or procedure 'wroth'", "did you mean 'worth'?"),
])
def test_an_erratum_that_does_not_fit_is_an_error_at_the_variants_line(folder, text, line, column, message, hint):
    with pytest.raises(RulesCompileError) as err:
        variant(folder, text)
    d = err.value.diagnostics[0]
    assert (d.message, d.hint) == (message.format(base=folder / "base.rules"), hint)
    assert (d.file, d.line, d.column) == (str(folder / "v.rules"), line, column)


def test_a_base_warning_goes_away_when_the_variant_gives_the_value_its_branch(folder):
    alone = diagnostics(folder, WANDS + "in def worth, add arm:\n    wands: 5\n")
    assert [(d.line, d.severity) for d in alone if d.file.endswith("v.rules")] == [(2, "warning")]
    assert "gain, add:" in alone[0].hint and "catch-all" not in alone[0].hint
    answered = diagnostics(folder, WANDS + "in def worth, add arm:\n    wands: 5\n"
                           "in procedure gain, add:\n    elif c.suit == wands:\n        pass\n")
    assert [d for d in answered if d.severity in ("warning", "error")] == []


def test_a_match_without_an_arm_for_an_added_value_hints_at_an_arm_not_a_catch_all(folder):
    d = [d for d in diagnostics(folder, WANDS) if d.severity == "error"][0]
    assert d.file.endswith("v.rules") and "no arm for it" in d.message
    assert d.hint == "give 'wands' its arm there: in def worth, add arm: wands: ..."


@pytest.mark.parametrize("text, name, line", [('retire step "extra"\n', "spare", 16),
                                              ('step "extra":\n    me.score += 1\n', "spare", 16),
                                              ('step "play":\n    pass\n', "gain", 11)])
def test_a_base_procedure_no_longer_called_is_said_at_the_line_that_took_out_its_call(folder, text, name, line):
    d = [d for d in diagnostics(folder, text) if d.severity == "error"][0]
    assert (d.file, d.line, d.column) == (str(folder / "v.rules"), 2, 1)
    assert d.message == (f"procedure '{name}' is never called, so it can never run (at {folder / 'base.rules'}:{line}, "
                         "whose last call this line takes out)")
    assert d.hint.startswith(f"the base's line {folder / 'base.rules'}:{line}:1: procedure {name}(")
    assert d.hint.endswith(f"the variant no longer calls it: take it out with 'retire procedure {name}'")


def test_an_error_a_variant_causes_in_a_base_line_is_said_at_the_variants_line(folder):
    errors = [d for d in diagnostics(folder, 'def bonus(p) = "many"\n') if d.severity == "error"]
    assert len(errors) == 1
    d = errors[0]
    assert (d.file, d.line, d.column) == (str(folder / "v.rules"), 2, 1) and d.source_line == 'def bonus(p) = "many"'
    assert f"at {folder / 'base.rules'}:21" in d.message and "'bonus'" in d.message
    assert d.hint.startswith(f"the base's line {folder / 'base.rules'}:21:") and "worth(c) + bonus(me)" in d.hint


def test_a_variant_of_a_variant_calls_each_base_in_turn(folder):
    (folder / "middle.rules").write_text('extends "base.rules"\ndef bonus(p) = base(p) + 10\n')
    (folder / "top.rules").write_text('extends "middle.rules"\ndef bonus(p) = base(p) * 2\n')
    st = after(load(str(folder / "top.rules")), "rest")
    assert st.vars["score"] == [1 + 2 + 2 * 22 + 100, 0]


# ------------------------------------------------------------------ a hostile review's cases (issue 38)
def test_an_arm_for_a_value_of_another_kind_is_an_error(folder):
    """An arm the match can never take (a text, or a member of another enum, against a match over suits)."""
    for arm in ('"hello": 9', "wands: 9"):
        extra = "add to enum colour: wands\n" if arm.startswith("wands") else ""
        with pytest.raises(RulesError) as caught:
            variant(folder, "enum colour: red\n" + extra + f"in def worth, add arm:\n    {arm}\n")
        assert "v.rules:" in str(caught.value) and "is not of the enum the match at" in str(caught.value)
        assert "(suit)" in str(caught.value)


def test_retiring_a_def_is_not_undone_by_a_local_of_its_name(folder):
    g = variant(folder, 'retire def bonus\nretire procedure gain\nstep "play":\n    let bonus = 2\n    me.score += bonus\n')
    assert after(g, "rest").vars["score"] == [102, 0]


def test_a_base_version_no_replacement_calls_is_dropped_quietly(folder):
    """A variant of a variant that replaces what its parent amended with base(): the base's own version is
    no longer called, and no one can name it to retire it; nothing is said of it."""
    (folder / "mid.rules").write_text('extends "base.rules"\nprocedure gain(p, c):\n    base(p, c)\n'
                                      '    p.score += 1\n')
    (folder / "top.rules").write_text('extends "mid.rules"\nprocedure gain(p, c):\n    p.coins += 5\n')
    path = folder / "top.rules"
    assert not [d for d in check(_apply_extends(parse(path.read_text(), str(path)), path)) if d.severity == "error"]
    assert after(load(str(path)), "rest").vars["coins"] == [10, 0]


def test_retiring_a_step_the_variant_hooks_is_an_error(folder):
    with pytest.raises(RulesError) as caught:
        variant(folder, 'after step "extra":\n    log "after"\nretire step "extra"\nretire procedure spare\n')
    assert "v.rules:4:" in str(caught.value) and "'after step' at line 2 still runs" in str(caught.value)


def test_a_step_named_in_the_wrong_place_is_told_where_it_is(folder):
    with pytest.raises(RulesError) as caught:
        variant(folder, 'in step "shop" in setup, remove "rest"\n')
    assert "no step 'shop' in 'setup'" in str(caught.value) and 'step "shop" in turn' in str(caught.value)


def test_a_second_extends_is_an_error(folder):
    with pytest.raises(RulesError) as caught:
        variant(folder, 'extends "other.rules"\n')
    assert "v.rules:2:" in str(caught.value) and "a variant extends one base" in str(caught.value)


# ------------------------------------------------------------------ a second review's cases
def test_a_def_called_alone_is_told_it_changes_nothing(folder):
    with pytest.raises(RulesCompileError) as err:
        variant(folder, 'after step "extra":\n    bonus(me)\n')
    d = err.value.diagnostics[0]
    assert (d.file, d.line, d.column) == (str(folder / "v.rules"), 3, 5) and "'bonus' is a def" in d.message
    assert d.hint.endswith("make it a procedure: procedure bonus(p):")


NAMED = BASE.replace('"buy" if', '"buy" as buy if').replace('"rest":', '"rest" as rest:')


def test_an_alternative_is_addressed_by_the_name_it_was_given(folder):
    (folder / "base.rules").write_text(NAMED)
    g = variant(folder, 'in step "shop", replace buy:\n    "buy two" as buy if me.coins > 1:\n        me.coins -= 2\n'
                'in step "shop", add before rest:\n    "nap" as nap:\n        me.score += 1\n')
    st = g.new_state(1)
    assert texts(st) == ["buy two", "nap", "rest"]
    play(st, "buy two")
    assert st.vars["coins"] == [1, 0]
    # a variant of the variant addresses what the variant added, by its name
    (folder / "top.rules").write_text('extends "v.rules"\nin step "shop", remove nap\n')
    assert texts(load(str(folder / "top.rules")).new_state(1)) == ["buy two", "rest"]


@pytest.mark.parametrize("text, line, column, message", [
    ('in step "shop", add:\n    "nap" as rest:\n        pass\n', 3, 5, "already has an alternative named 'rest'"),
    ('in step "shop", add:\n    "":\n        pass\n', 3, 5, "an alternative's text is empty"),
    ('in step "shop", remove ""\n', 2, 24, "an alternative's text is empty"),
])
def test_a_name_taken_and_an_empty_text_are_refused_at_their_line(folder, text, line, column, message):
    (folder / "base.rules").write_text(NAMED)
    with pytest.raises(RulesError) as caught:
        variant(folder, text)
    assert f"v.rules:{line}:{column}:" in str(caught.value) and message in str(caught.value)


def test_two_alternatives_of_one_name_and_an_empty_text_are_refused_in_any_rules(folder):
    for wrong, message in (('"rest" as buy:', "two alternatives of this choice are named 'buy'"),
                           ('"":', "an alternative's text is empty")):
        (folder / "base.rules").write_text(NAMED.replace('"rest" as rest:', wrong))
        with pytest.raises(RulesError) as caught:
            load(str(folder / "base.rules"))
        assert "base.rules:28:13:" in str(caught.value) and message in str(caught.value)


def test_a_choice_left_with_no_way_to_pass_names_the_errata_that_changed_it(folder):
    g = variant(folder, 'in step "shop", remove "rest"\nin step "shop", replace "buy":\n'
                '    "buy" if me.coins > 5:\n        pass\n')
    with pytest.raises(RulesError) as caught:
        g.new_state(1)
    d = caught.value.diagnostic
    assert (d.file, d.line) == (str(folder / "v.rules"), 2) and "errata at lines 2, 3" in d.message
    assert d.hint.startswith(f"the base's line {folder / 'base.rules'}:24:9: choose:")


RUNNING = '''game "Base"
players 2
player var coins = 0
def share(n) = 12 / n
def per(n) = share(n)
procedure pay(p, n):
    choose k in [1, 2] as "pay {k}"
    p.coins += per(n) * k
procedure rest(p, n):
    p.coins += per(n)
turn:
    step "work":
        pay(me, 3)
        rest(me, 3)
    end game
'''


@pytest.mark.parametrize("step, moves", [("rest(me, 0)", ()), ("pay(me, 0)", ("pay 1",)),
                                         ("me.coins += per(0)", ())])
def test_a_run_time_error_in_a_base_line_is_told_at_the_variants_line_that_led_there(folder, step, moves):
    """A procedure run as a call, one that decides first (its own frame), a def: each fails in the base's def,
    called from the variant's step."""
    (folder / "base.rules").write_text(RUNNING)
    g = variant(folder, f'before step "work":\n    {step}\n')
    with pytest.raises(RulesError) as caught:
        after(g, *moves)
    d = caught.value.diagnostic
    assert (d.file, d.line, d.column) == (str(folder / "v.rules"), 3, 5) and "division by zero" in d.message
    assert f"at {folder / 'base.rules'}:4" in d.message and d.hint.startswith(f"the base's line {folder / 'base.rules'}:4:")


def test_a_run_time_error_in_a_base_def_is_told_at_the_variants_def_that_called_it(folder):
    """The base's step calls per(3), which the variant replaces with one that calls the base's share(0)."""
    (folder / "base.rules").write_text(RUNNING)
    with pytest.raises(RulesError) as caught:
        after(variant(folder, "def per(n) = share(n - 3) + 1\n"), "pay 1")
    d = caught.value.diagnostic
    assert (d.file, d.line) == (str(folder / "v.rules"), 2) and "division by zero" in d.message
    assert d.hint.startswith(f"the base's line {folder / 'base.rules'}:4:") and "12 / n" in d.hint


def test_a_variant_calls_the_base_version_of_another_def_it_replaces(folder):
    """def worth is replaced (cards worth nothing); the bonus it replaces too counts the base's worth of the
    cards: base.worth(c), where base(...) in bonus would be the base's bonus."""
    g = variant(folder, "def worth(c) = 0\ndef bonus(p) = sum(c in card: base.worth(c))\n"
                "after step \"extra\":\n    me.coins += base.bonus(me)\n")
    st = after(g, "rest")
    assert st.vars["score"] == [2 * 3 + 100, 0] and st.vars["coins"] == [3 + 1, 0]


def test_an_alternative_with_holes_is_addressed_by_its_text_as_written(folder):
    (folder / "base.rules").write_text(BASE.replace('"buy" if', '"buy for {bonus(me)}" if'))
    st = after(variant(folder, 'in step "shop", replace "buy for {bonus(me)}":\n    "rob":\n        me.coins += 50\n'),
               "rob")
    assert st.vars["coins"] == [53, 0]
    with pytest.raises(RulesError) as caught:
        variant(folder, 'in step "shop", remove "buy for 1"\n')
    assert 'its alternatives, as written: "buy for {bonus(me)}"; "rest"' in str(caught.value)
