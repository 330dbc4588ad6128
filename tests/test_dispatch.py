"""Dispatches over a closed set of values (interpreter/check/dispatch.py), and the variant pieces that add values:
`add to enum`, `add to option ... default`, `add to table`; a value a variant adds that falls to the base's
catch-all is reported at the variant's line, naming the base's line."""
from __future__ import annotations

import pytest

from rulewright.dsl.parser import parse
from rulewright.interpreter.api import _apply_extends, load
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.check.symbols import symbols

BASE = '''game "Base"
players 2
option level: low | high
enum suit: red, blue
table card(name, vp):
    "ace", 3
    "king", 2
player var score = 0
def target() = match level { low: 5, else: 12 }
def worth(c) = match c { "ace": 3, "king": 2, else: 0 }
turn:
    choose c in [x in card] as "take {c}"
    if c == "ace":
        me.score += 1
    elif c == "king":
        me.score += 2
    else:
        pass
    let s = random([red, blue])
    if s == red:
        me.score += 1
    elif s == blue:
        me.score += 0
    me.score += worth(c)
end when any(p in players: p.score >= target())
'''


def diagnostics(tmp_path, variant_text: str, base_text: str = BASE):
    (tmp_path / "base.rules").write_text(base_text)
    path = tmp_path / "v.rules"
    path.write_text('extends "base.rules"\n' + variant_text)
    rules = _apply_extends(parse(path.read_text(), str(path)), path)
    return [(d.severity, d.file.rsplit("/", 1)[-1], d.line, d.message.replace(str(tmp_path) + "/", ""))
            for d in check(rules)]


def test_the_base_alone_is_clean(tmp_path):
    assert diagnostics(tmp_path, "") == []


def test_each_added_value_is_named_at_the_variant_line_with_every_catch_all_of_the_base(tmp_path):
    found = diagnostics(tmp_path, 'add to option level: extreme\nadd to enum suit: green\n'
                                  'add to table card:\n    "queen", 1\n')
    assert sorted(found) == sorted([
        ("warning", "v.rules", 2, "'extreme', added here, falls to this match's 'else' at base.rules:9:16"),
        ("warning", "v.rules", 5, "'queen', added here, falls to this match's 'else' at base.rules:10:16"),
        ("warning", "v.rules", 5, "'queen', added here, falls to this chain's 'else' at base.rules:13:5"),
        ("warning", "v.rules", 3, "'green', added here, falls to this if/elif chain, which does nothing for it at "
                                  "base.rules:20:5"),
    ])


def test_a_value_that_no_arm_of_a_match_fits_is_an_error_in_the_base_and_from_a_variant(tmp_path):
    base = BASE.replace(', else: 0 }', ' }')
    (tmp_path / "b.rules").write_text(base.replace('    "king", 2\n', '    "king", 2\n    "jack", 1\n'))
    own = [(d.severity, d.line, d.message) for d in check(parse((tmp_path / "b.rules").read_text(), "b.rules"))]
    assert own == [("error", 11, "no arm of this match fits 'jack' (a key of table 'card'): the game would stop "
                                 "with an error when one comes")]
    found = diagnostics(tmp_path, 'add to table card:\n    "queen", 1\n', base)
    assert ("error", "v.rules", 3, "'queen', added here, falls to this match, which has no arm for it: the game would "
            "stop with an error when it comes at base.rules:10:16") in found


def test_a_partial_if_chain_without_else_is_a_warning_and_else_pass_says_it_is_meant(diagnose):
    text = BASE.replace("    elif s == blue:\n        me.score += 0\n", "    elif s == red:\n        me.score += 0\n")
    assert [(d.severity, d.line, d.message) for d in diagnose(text)] == [
        ("warning", 20, "this if/elif chain does nothing for 'blue' (a member of enum 'suit')")]
    meant = text.replace("        me.score += 0\n    me.score", "        me.score += 0\n    else:\n        pass\n    me.score")
    assert diagnose(meant) == []


def test_add_to_enum_and_a_new_default_change_the_game(tmp_path):
    (tmp_path / "base.rules").write_text(BASE)
    (tmp_path / "v.rules").write_text('extends "base.rules"\nadd to option level: extreme | mid default mid\n'
                                      'add to enum suit: green\n')
    game = load(str(tmp_path / "v.rules"), players=2)
    assert game.options == {"level": "mid"}  # the new default
    assert symbols(game.rules).enums["suit"].members == ("red", "blue", "green")
    assert load(str(tmp_path / "v.rules"), players=2, options={"level": "low"}).options == {"level": "low"}


@pytest.mark.parametrize("text, message", [
    ("add to option level: 3 default 9\n", "option 'level' has no value 9 to make the default"),
    ("add to enum suits: green\n", "the base has no enum 'suits'"),
    ("add to enum suit: red\n", "enum 'suit' already has the member 'red'"),
])
def test_variant_pieces_that_cannot_apply_are_located_errors(tmp_path, text, message):
    from rulewright.dsl.errors import RulesCompileError
    (tmp_path / "base.rules").write_text(BASE)
    (tmp_path / "v.rules").write_text('extends "base.rules"\n' + text)
    with pytest.raises(RulesCompileError) as err:
        load(str(tmp_path / "v.rules"))
    (d,) = err.value.diagnostics
    assert (d.line, d.message) == (2, message)
