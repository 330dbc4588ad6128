"""A variant written carelessly or against the grain: each defect found by attacking the errata from the
outside (task hostile38), with the smallest variant that showed it."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulewright.dsl.errors import RulesCompileError, RulesError
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import load, load_rules
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.present.document import to_html
from rulewright.interpreter.present.manual import Manual
from rulewright.interpreter.testing import play, texts

BASE = '''game "Shop"
players 2
player var coins = 3
player var score = 0
def price(p) = 1
def bonus(p) = 0
procedure gain(p, n):
    p.score += n + bonus(p)
turn:
    step "shop":
        choose:
            "pay" as pay if me.coins > 0:
                me.coins -= price(me)
                gain(me, 1)
            "rest":
                me.coins += 1
end when round_number == 3 after round
'''


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "base.rules").write_text(BASE)
    return tmp_path


def variant(folder: Path, text: str):
    (folder / "v.rules").write_text('extends "base.rules"\n' + text)
    return load(str(folder / "v.rules"))


def failure(game, *moves):
    with pytest.raises(RulesError) as caught:
        play(game.new_state(1), *moves)
    return caught.value.diagnostic


@pytest.mark.parametrize("text, line", [("def bonus(p) = bonus(p) + 1\n", 2),
                                        ("def bonus(p) = helper(p)\ndef helper(p) = helper(p) + 1\n", 3)])
def test_a_variants_def_that_calls_itself_without_end_is_blamed_not_the_bases_call(folder, text, line):
    d = failure(variant(folder, text), "pay")
    assert (d.file, d.line) == (str(folder / "v.rules"), line) and "too deep" in d.message
    assert d.hint.startswith(f"the base's line {folder / 'base.rules'}:8:")


def test_a_def_calling_itself_in_a_single_file_stays_at_its_call(tmp_path):
    (tmp_path / "g.rules").write_text('game "G"\nplayers 2\ndef f(n) = f(n) + 1\nplayer var s = 0\nturn:\n    me.s = f(1)\n'
                     'end when round_number == 2 after round\n')
    d = failure(load(str(tmp_path / "g.rules")))
    assert (d.line, d.column) == (6, 12)


def test_an_error_in_a_variants_def_called_from_the_base_names_the_calls_file(folder):
    d = failure(variant(folder, "def bonus(p) = [1, 2][p * 5]\n"), "pay")
    assert (d.file, d.line) == (str(folder / "v.rules"), 2)
    assert d.hint.endswith(f"this is inside a def, called at {folder / 'base.rules'}:8")


@pytest.mark.parametrize("text", ["def base(p) = 5\ndef bonus(p) = base(p)\n",
                                  "procedure base(p):\n    p.score += 5\nafter step \"shop\":\n    base(me)\n"])
def test_a_variants_def_or_procedure_named_base_is_refused(folder, text):
    """base(...) in a replacement is the base's own version: a def named base would never be called by it."""
    with pytest.raises(RulesCompileError) as caught:
        variant(folder, text)
    d = caught.value.diagnostics[0]
    assert (d.file, d.line) == (str(folder / "v.rules"), 2) and "cannot be named 'base'" in d.message



@pytest.mark.parametrize("items, message", [
    ('    "nap" as a:\n        pass\n    "nip" as a:\n        pass\n', "two alternatives of this erratum are named 'a'"),
    ('    "nap":\n        pass\n    "nap":\n        pass\n', "two alternatives of this erratum are both 'nap'")])
def test_two_alternatives_of_one_erratum_cannot_share_a_name_or_a_text(folder, items, message):
    with pytest.raises(RulesCompileError) as caught:
        variant(folder, 'in step "shop", add:\n' + items)
    d = caught.value.diagnostics[0]
    assert (d.file, d.line, d.message) == (str(folder / "v.rules"), 5, message)


def test_one_alternative_replaced_by_one_without_a_name_keeps_the_name(folder):
    """"the text may change and the name still holds": a later erratum (or a variant of this one) still finds it."""
    g = variant(folder, 'in step "shop", replace pay:\n    "pay twice":\n        gain(me, 2)\n'
                'in step "shop", add before pay:\n    "haggle":\n        me.coins += 7\n')
    st = g.new_state(1)
    assert texts(st) == ["haggle", "pay twice", "rest"]
    play(st, "pay twice")
    assert st.vars["score"] == [2, 0] and st.vars["coins"] == [3, 3]


@pytest.mark.parametrize("text", ['in def bonus, add:\n    elif p == 1:\n        pass\n',
                                  'in def bonus, add:\n    "nap":\n        pass\n'])
def test_a_def_is_amended_only_by_arms(folder, text):
    with pytest.raises(RulesCompileError) as caught:
        variant(folder, text)
    d = caught.value.diagnostics[0]
    assert d.line == 2 and d.message == "a def gives a value and has no if/elif chain or 'choose:' to amend"


def test_a_def_named_as_a_procedure_is_not_sent_to_a_change_a_def_cannot_take(folder):
    with pytest.raises(RulesCompileError) as caught:
        variant(folder, 'in procedure bonus, add:\n    elif p == 1:\n        pass\n')
    assert caught.value.diagnostics[0].hint.startswith("'bonus' is a def in the base, not a procedure: in def bonus, add arm:")


def test_the_manual_says_an_alternative_addressed_by_its_name_by_that_name(folder):
    text = 'extends "base.rules"\nin step "shop", replace pay:\n    "pay twice":\n        gain(me, 2)\n'
    (folder / "v.rules").write_text(text)
    page = to_html(Manual(load_rules(str(folder / "v.rules")), parse(text, str(folder / "v.rules")),
                          load_rules(str(folder / "base.rules"))).blocks(), "manual")
    assert "replaces the course of action named <code>pay</code>" in page and "Name(" not in page


@pytest.mark.parametrize("text, line, changed", [
    ('in step "shop", add:\n    "nap":\n        pass\nretire step "shop"\n', 5, 2),   # the addition would vanish
    ('retire step "shop"\nin step "shop", add:\n    "nap":\n        pass\n', 2, 3),   # "the base has no step"
    ('step "shop":\n    me.coins += 1\nretire step "shop"\n', 4, 2)])
def test_retiring_a_step_the_variant_changes_is_an_error_at_the_retire(folder, text, line, changed):
    with pytest.raises(RulesCompileError) as caught:
        variant(folder, text + "retire procedure gain\n")
    d = caught.value.diagnostics[0]
    assert (d.file, d.line) == (str(folder / "v.rules"), line)
    assert d.message.startswith(f"the step 'shop' is retired here, but this variant changes it at line {changed}: ")


def test_a_hole_in_an_alternatives_text_is_warned_as_shown_braces_and_all(folder):
    """The text is the move's as written (and what errata name it by): a player would read 'pay {price(me)}'."""
    (folder / "base.rules").write_text(BASE.replace('"pay" as pay', '"pay {price(me)}" as pay'))
    st = load(str(folder / "base.rules")).new_state(1)
    assert texts(st) == ["pay {price(me)}", "rest"]
    found = [d for d in check(parse((folder / "base.rules").read_text(), str(folder / "base.rules")))
             if "braces and all" in d.message]
    assert [(d.severity, d.line) for d in found] == [("warning", 12)]


CHAIN = '''game "Chain"
players 2
enum kind: red, blue
player var score = 0
procedure award(p, k):
    if k == red:
        p.score += 1
    elif k == blue:
        p.score += 2
turn:
    step "take":
        award(me, red)
    end game
'''


def test_a_branch_is_added_to_a_chain_whose_subject_is_a_bare_name(folder):
    """'elif k == green' compares the parameter k with a member: it was read as two values and refused."""
    (folder / "base.rules").write_text(CHAIN)
    g = variant(folder, 'add to enum kind: green\nin procedure award, add:\n    elif k == green:\n        p.score += 3\n'
                'after step "take":\n    award(me, green)\n')
    st = g.new_state(1)
    assert st.vars["score"] == [4, 0]


def test_an_erratum_that_took_out_the_last_call_of_a_procedure_is_named_with_the_retire_hint(folder):
    with pytest.raises(RulesCompileError) as caught:
        variant(folder, 'in step "shop", remove pay\n')
    d = caught.value.diagnostics[0]
    assert (d.file, d.line, d.source_line) == (str(folder / "v.rules"), 2, 'in step "shop", remove pay')
    assert f"(at {folder / 'base.rules'}:7, whose last call this line takes out)" in d.message
    assert d.hint.endswith("take it out with 'retire procedure gain'")


@pytest.mark.parametrize("text, line, column, message, hint", [
    # base.NAME without a call: what it names is only called
    ("def bonus(p) = 1\ndef price(p) = base.bonus + 1\n", 3, 16,
     "base.bonus names the base's own version of 'bonus' without calling it", "call it: base.bonus(p)"),
    ("def price(p) = base.bonus + 1\n", 2, 16, "base.bonus names the base's own version of 'bonus' without calling it",
     "call it: bonus(p) (what a variant does not replace is the base's own)"),
    # base.NAME of no def or procedure: one error about NAME, not an unknown 'base' and a field
    ("def price(p) = base.zork + 1\n", 2, 16, "base.zork: the base has no def or procedure 'zork'",
     "base.NAME(...) calls the base's own version of a def or procedure this variant replaces"),
    # a wrong number of arguments names the call as written
    ("def bonus(p) = 1\ndef price(p) = base.bonus(p, p)\n", 3, 16,
     "base.bonus(...), the base's own 'bonus', takes 1 argument(s) (p), not 2", ""),
    ("def bonus(p) = base(p, p)\n", 2, 16, "base(...), the base's own 'bonus', takes 1 argument(s) (p), not 2", ""),
    # a letter a name does not take, in an erratum's place or an alternative's name
    ("in procedure gaín, add:\n    elif n == 1:\n        pass\n", 2, 16,
     "unexpected character 'í': a name is written with the letters A to Z, digits and _",
     'a text in quotes takes any letter: "café" as cafe:, log "café"'),
    ('in step "shop", add:\n    "x" as жест:\n        pass\n', 3, 12,
     "unexpected character 'ж': a name is written with the letters A to Z, digits and _",
     'a text in quotes takes any letter: "café" as cafe:, log "café"'),
    # two texts a player cannot tell apart
    ('in step "shop", add:\n    "rest ":\n        pass\n', 3, 5, "two courses of action are both called 'rest': 'rest' "
     "and 'rest ' differ only in spaces or in how a letter is encoded",
     "give each a text of its own, or replace the other"),
    ('in step "shop", add:\n    "cafe\u0301":\n        pass\n    "caf\u00e9":\n        pass\n', 5, 5,
     "two courses of action are both called 'caf\u00e9': 'cafe\u0301' and 'caf\u00e9' differ only in spaces or in how a "
     "letter is encoded", "give each a text of its own, or replace the other"),
])
def test_the_wordings_of_base_calls_names_and_texts(folder, text, line, column, message, hint):
    with pytest.raises(RulesError) as caught:
        variant(folder, text)
    got = caught.value.diagnostics[0] if isinstance(caught.value, RulesCompileError) else caught.value.diagnostic
    assert (got.file, got.line, got.column) == (str(folder / "v.rules"), line, column)
    assert (got.message, got.hint) == (message, hint)


@pytest.mark.parametrize("text, line, message", [
    # what the variant writes into a procedure it retires would vanish unsaid
    ('in step "shop", remove pay\nprocedure gain(p, n):\n    pass\nretire procedure gain\n', 5,
     "the procedure 'gain' is retired here, but this variant changes it at line 3: procedure gain(p, n):"),
    ('in step "shop", remove pay\nretire def price\ndef price(p) = 2\n', 3,
     "the def 'price' is retired here, but this variant changes it at line 4: def price(p) = 2"),
    ('in step "shop", remove pay\nretire procedure gain\nretire procedure gain\n', 4,
     "the procedure 'gain' is retired twice: first at line 3"),
    ('retire step "shop"\nretire step "shop"\nretire procedure gain\n', 3,
     "the step 'shop' is retired twice: first at line 2"),
])
def test_a_part_retired_that_the_variant_changes_or_retires_again_is_an_error_at_the_retire(folder, text, line, message):
    with pytest.raises(RulesCompileError) as caught:
        variant(folder, text)
    d = caught.value.diagnostics[0]
    assert (d.file, d.line, d.message) == (str(folder / "v.rules"), line, message)


def test_an_erratum_on_a_def_the_variant_replaces_is_told_it_amends_the_variants_own(folder):
    """The erratum amends the def as the variant leaves it: its replacement, which has no match of its own."""
    with pytest.raises(RulesCompileError) as caught:
        variant(folder, 'def price(p) = base(p) + 1\nin def price, add arm:\n    2: 5\n')
    d = caught.value.diagnostics[0]
    assert (d.line, d.message) == (3, "the def 'price' has no match to add an arm to")
    assert d.hint.startswith("this variant's own def at line 2 replaces the base's, and an erratum amends it")
