"""Variants as overlays: a few lines over a base game change one step, one def, one table or option."""
from __future__ import annotations

import pytest

from rulewright.dsl.errors import RulesCompileError
from rulewright.interpreter.api import load
from rulewright.interpreter.testing import logged

BASE = '''game "Base"
players 2
option speed: 1 | 2
table card(name, value):
    ace, 1
    two, 2
var deck = card
player var score = 0
def deal_count(p) = 2
def bonus() = 0
procedure gain(p, n):
    p.score += n
turn:
    step "draw":
        repeat deal_count(me) times:
            draw c from deck
            gain(me, c.value + bonus())
    step "report":
        log "{me} has {me.score}"
    end game
'''


@pytest.fixture
def base(tmp_path):
    (tmp_path / "base.rules").write_text(BASE)
    return tmp_path


def variant(base, text: str):
    (base / "v.rules").write_text('extends "base.rules"\n' + text)
    return load(str(base / "v.rules"))


def test_the_base_plays(base):
    st = load(str(base / "base.rules")).new_state(1)
    assert st.vars["score"] == [3, 0] and logged(st) == ["1 has 3"]


def test_a_def_is_overridden(base):
    st = variant(base, "def bonus() = 10\n").new_state(1)
    assert st.vars["score"] == [23, 0]


def test_one_step_is_replaced(base):
    st = variant(base, 'step "report":\n    log "score: {me.score}"\n').new_state(1)
    assert logged(st) == ["score: 3"]


def test_statements_go_before_and_after_a_step(base):
    g = variant(base, 'before step "report":\n    log "before"\nafter step "report" in turn:\n    log "after"\n')
    assert logged(g.new_state(1)) == ["before", "1 has 3", "after"]


def test_table_rows_and_option_values_are_added(base):
    g = variant(base, "add to table card:\n    king, 13\nadd to option speed: 3\n"
                      "def deal_count(p) = 3\n")
    assert g.compiled.tables["card"] == ["ace", "two", "king"]
    assert load(str(base / "v.rules"), options={"speed": 3}).options == {"speed": 3}
    assert g.new_state(1).vars["score"] == [16, 0]


@pytest.mark.parametrize("text,message,hint", [
    ("def deal_cont(p) = 6\n", "the base has no def 'deal_cont' to replace, and nothing uses it",
     "did you mean 'deal_count'?"),
    ("def bonsu() = 4\n", "the base has no def 'bonsu' to replace, and nothing uses it", "did you mean 'bonus'?"),
    ('step "reprot":\n    pass\n', "the base has no step 'reprot'", "did you mean 'report'?"),
    ('after step "draw" in setup:\n    pass\n', "the base has no step 'draw' in 'setup'", 'it is in turn: step "draw" in turn (the base has no block or procedure \'setup\')'),
    ("add to table cards:\n    king, 13\n", "the base has no table 'cards'", "did you mean 'card'?"),
    ("add to option sped: 3\n", "the base has no option 'sped'", "did you mean 'speed'?"),
    ("add to option speed: 2\n", "option 'speed' already has the value 2", ""),
    ("def deal_count() = 3\n", "'deal_count' takes 1 argument(s) (p) in the base ({base}:9); this replacement "
     "takes 0", "keep the parameters: def deal_count(p)"),
])
def test_an_overlay_that_misses_the_base_is_an_error(base, text, message, hint):
    with pytest.raises(RulesCompileError) as err:
        variant(base, text)
    d = err.value.diagnostics[0]
    assert (d.message, d.hint) == (message.format(base=base / "base.rules"), hint)
    assert d.file == str(base / "v.rules") and d.line == 2 and d.source_line == text.split("\n")[0]


def test_an_error_in_the_base_quotes_the_base_file(base):
    with pytest.raises(RulesCompileError) as err:
        variant(base, "var deck = 3\n")
    rendered = str(err.value)
    assert "draw c from deck" in rendered and str(base / "base.rules") in rendered


def test_pieces_need_a_base(tmp_path):
    (tmp_path / "x.rules").write_text(BASE + 'step "report":\n    pass\n')
    with pytest.raises(RulesCompileError, match="only a variant changes a base's steps"):
        load(str(tmp_path / "x.rules"))


def test_a_repeated_label_must_say_where(base):
    (base / "base.rules").write_text(BASE.replace("turn:\n", 'setup:\n    step "report":\n        pass\nturn:\n'))
    with pytest.raises(RulesCompileError) as err:
        variant(base, 'step "report":\n    pass\n')
    assert err.value.diagnostics[0].hint == 'say which: step "report" in setup:'
    g = variant(base, 'step "report" in turn:\n    log "changed"\n')
    assert logged(g.new_state(1)) == ["changed"]
