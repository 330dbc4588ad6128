"""`option NAME: values "description"`: parsed into the declaration, kept in the symbol table, printed by
`list`, and no part of the rules' meaning (the fingerprint a save records ignores it)."""
from __future__ import annotations

import pytest

from rulewright.dsl.errors import RulesSyntaxError
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import load
from rulewright.interpreter.saves import fingerprint
from rulewright.interpreter.check.symbols import symbols

RULES = '''game "Described"
players 2
option skill: 0 | 1 | 2  "more cards for skilled players"
option mode: "quick" | "long"
option board: open | tree "a tree in the way"   # a comment after it
turn:
    end game
'''


def test_the_description_is_parsed_and_kept_in_the_symbol_table():
    rules = parse(RULES, "described.rules")
    table = symbols(rules)
    assert table.option_about == {"skill": "more cards for skilled players", "board": "a tree in the way"}
    assert table.option_values == {"skill": [0, 1, 2], "mode": ["quick", "long"], "board": ["open", "tree"]}


def test_the_description_is_not_part_of_the_rules_meaning(tmp_path):
    plain = parse(RULES.replace('  "more cards for skilled players"', ""), "described.rules")
    assert fingerprint(parse(RULES, "described.rules")) == fingerprint(plain)
    assert fingerprint(parse(RULES.replace("0 | 1 | 2", "0 | 1"), "d.rules")) != fingerprint(plain)
    path = tmp_path / "described.rules"
    path.write_text(RULES, encoding="utf-8")
    assert load(str(path), options={"skill": "2"}).options["skill"] == 2


def test_a_description_is_plain_text():
    with pytest.raises(RulesSyntaxError) as info:
        parse(RULES.replace('"a tree in the way"', '"a {tree}"'), "described.rules")
    assert "an option's description is plain text: it cannot hold {...}" in str(info.value)
