"""What a variant adds that nothing reaches (interpreter/check/reach.py): a member, an option value, a row
or a column no rule produces or reads is named at the variant's line, before anyone plays it."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulewright.cli.validate import validate, warnings
from rulewright.dsl.errors import RulesCompileError
from rulewright.interpreter.api import load_rules
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.shipped import shipped_games

DOCS_VARIANTS = Path(__file__).resolve().parent.parent / "docs" / "variants"

BASE = '''game "Base"
players 2
option pace: slow | fast
option dress: plain | fancy
enum suit: red, black
enum tint: light, dark
table card(name, suit, value, tint):
    ace, red, 1, light
    two, black, 2, dark
table speed(pace_name, steps):
    slow, 1
    fast, 2
table bonus(label, points):
    "gold", 3
var deck = card
player var score = 0
turn:
    draw c from deck
    step "score":
        if c.suit == red:
            me.score += c.value
        elif c.suit == black:
            me.score -= c.value
    log "a {c.tint} card"
    if pace == fast or dress == fancy:
        me.score += 1
    me.score += pace.steps + "gold".points
    end game
'''


def _variant(tmp_path, text: str) -> str:
    (tmp_path / "base.rules").write_text(BASE, encoding="utf-8")
    path = tmp_path / "v.rules"
    path.write_text('extends "base.rules"\ngame "V"\n' + text, encoding="utf-8")
    return str(path)


def _said(path: str) -> list[str]:
    """Each diagnostic's first line, as validate prints it (errors stop the load)."""
    try:
        rules = load_rules(path)
    except RulesCompileError as exc:
        return [d.render().splitlines()[0] for d in exc.diagnostics]
    return [d.render().splitlines()[0] for d in check(rules)]


def _file(name: str) -> Path:
    return shipped_games()[name]


# ---------------------------------------------------------------------------------- the three
def test_a_member_no_rule_names_and_no_table_holds(tmp_path):
    path = tmp_path / "gear.rules"
    path.write_text('extends "magnificent-flying-machines"\ngame "M"\n\nadd to enum gear: parachute\n', encoding="utf-8")
    said = warnings(str(path))
    assert len(said) == 1 and said[0].startswith(f"{path}:4:1: warning: 'parachute', added to enum 'gear' here")
    assert "nothing produces it and nothing reads it" in said[0]


def test_an_option_value_whose_table_row_is_missing_fails_validate(tmp_path):
    path = tmp_path / "level.rules"
    path.write_text('extends "barnstormers"\ngame "B"\n\nadd to option level: exhibition\n', encoding="utf-8")
    problems = validate(str(path))
    assert len(problems) == 1, problems
    first = problems[0].splitlines()[0]
    assert first.startswith(f"{path}:4:1: error: 'exhibition', added to option 'level' here, has no row in table "
                            "'competition'")
    base = _file("barnstormers")
    read_at = next(n for n, line in enumerate(open(base, encoding="utf-8"), 1) if "= level.stunts_required" in line)
    assert f"'level.stunts_required' at {base}:{read_at}:" in first  # the base's line that reads the row


def test_a_card_whose_action_is_none_fails_validate(tmp_path):
    path = tmp_path / "none.rules"
    path.write_text('extends "planes"\ngame "P"\n\nadd to table card:\n'
                    '    "Wait", none, 0, none, empty_blank, "Blank Space", 1, "Nothing." * 4\n', encoding="utf-8")
    problems = validate(str(path))
    assert len(problems) == 1, problems
    first = problems[0].splitlines()[0]
    assert first.startswith(f"{path}:5:13: error: 'Wait' has none as its 'action', which no arm of the match at "
                            f"{_file('planes')}:")


# ---------------------------------------------------------------------------------- each kind
def test_an_option_value_the_rules_only_compare_with_others(tmp_path):
    said = _said(_variant(tmp_path, "add to option dress: wild\n"))
    assert len(said) == 1 and ":3:1: warning: 'wild', added to option 'dress' here, is read by no rule" in said[0]
    assert _said(_variant(tmp_path, "add to option dress: wild\n"
                          'after step "score":\n    if dress == wild:\n        me.score += 5\n')) == []


def test_an_option_value_looked_up_in_a_table_is_reached(tmp_path):
    said = _said(_variant(tmp_path, "add to option pace: crawl\nadd to table speed:\n    crawl, 0\n"))
    assert said == []  # looked up in 'speed': reached
    said = _said(_variant(tmp_path, "table speed(pace_name, steps):\n    slow, 1\n    fast, 2\n    crawl, 0\n"
                          "add to option pace: crawl\n"))
    assert said == []


def test_an_option_value_with_no_row_where_the_rules_look_it_up(tmp_path):
    said = _said(_variant(tmp_path, "add to option pace: crawl\n"))
    assert len(said) == 1 and ":3:1: error: 'crawl', added to option 'pace' here, has no row in table 'speed'" in said[0]


def test_a_member_a_table_holds_but_no_rule_names(tmp_path):
    added = "add to enum tint: grey\nadd to table card:\n    three, red, 3, grey\n"
    said = _said(_variant(tmp_path, added))
    assert len(said) == 1 and ":3:1: warning: 'grey', added to enum 'tint' here, is held by table 'card' but named " \
        "by no rule" in said[0]
    # named by a rule of the variant: reached
    assert _said(_variant(tmp_path, added + 'after step "score":\n    if c.tint == grey:\n        me.score += 1\n')) == []


def test_a_cell_outside_its_columns_enum(tmp_path):
    said = _said(_variant(tmp_path, "add to table card:\n    three, none, 3, light\n"))
    assert len(said) == 1 and ":4:12: warning: 'three' has none as its 'suit', which falls to no branch of the dispatch at " in said[0]


def test_a_row_nothing_names(tmp_path):
    said = _said(_variant(tmp_path, 'add to table bonus:\n    "silver", 2\n'))
    assert len(said) == 1 and ":4:5: warning: the row 'silver' added to table 'bonus' here is reached by no rule" \
        in said[0]
    assert _said(_variant(tmp_path, 'add to table card:\n    three, red, 3, dark\n')) == []  # 'card' is taken whole


def test_a_column_no_rule_reads(tmp_path):
    said = _said(_variant(tmp_path, "table speed(pace_name, steps, noise):\n    slow, 1, 0\n    fast, 2, 5\n"))
    assert len(said) == 1 and ":3:1: warning: the column 'noise' added to table 'speed' here is read by no rule" \
        in said[0]


# ---------------------------------------------------------------------------------- no false alarms
@pytest.mark.parametrize("path", sorted(DOCS_VARIANTS.glob("*.rules"))
                         + [p for _n, p in sorted(shipped_games().items()) if "\nextends " in p.read_text()])
def test_the_public_variants_reach_all_they_add(path):
    assert [d.message for d in check(load_rules(str(path)))] == []


def test_a_member_only_compared_and_matched_is_produced_by_nothing(tmp_path):
    """An added member the rules test for (a branch) but nothing gives: no row holds it, no rule assigns it."""
    path = _variant(tmp_path, 'add to enum suit: green\nstep "score":\n    if c.suit == green:\n'
                              '        me.score += 5\n')
    said = _said(path)
    assert any("'green', added to enum 'suit' here, is only compared and matched" in s for s in said), said
    given = _variant(tmp_path, 'add to enum suit: green\nadd to table card:\n    three, green, 3, light\n'
                               'step "score":\n    if c.suit == green:\n        me.score += 5\n')
    assert not any("only compared" in s for s in _said(given))
