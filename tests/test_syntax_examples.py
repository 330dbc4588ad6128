"""The parser's messages as data (dsl/syntax_errors.py): every wrong snippet of the table gives its
entry's message and hint, and the editor server reads the grammar's keywords by a public name."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulewright.dsl.errors import RulesSyntaxError
from rulewright.dsl.grammar import keywords
from rulewright.dsl.parser import parse
from rulewright.dsl.syntax_errors import EXAMPLES, SINGLE_EQUALS

SNIPPETS = [(example, snippet) for example in EXAMPLES for snippet in example.snippets]


@pytest.mark.parametrize("example, snippet", SNIPPETS, ids=[repr(s) for _, s in SNIPPETS])
def test_every_snippet_gives_its_message_and_hint(example, snippet):
    with pytest.raises(RulesSyntaxError) as info:
        parse(snippet, "x.rules")
    d = info.value.diagnostic
    pattern = re.escape(example.message).replace(re.escape("{token}"), ".+").replace(re.escape("{char}"), ".+")
    assert re.fullmatch(pattern, d.message) and d.hint == example.hint


def test_a_place_no_rule_names_takes_the_hint_of_its_example():
    # a board's guard is a condition, though its line starts with no 'if': its snippet stands for it
    with pytest.raises(RulesSyntaxError) as info:
        parse('game "T"\nplayers 2\nvar mode = 1\nboard b when mode = 2: grid 2 by 2\n', "x.rules")
    d = info.value.diagnostic
    assert (d.line, d.column, d.message, d.hint) == (4, 19, "unexpected '='", SINGLE_EQUALS.hint)


def test_keywords_are_the_grammars_words():
    assert {"choose", "if", "elif", "secretly", "procedure"} <= keywords()
    assert not {"x", "me", "deck"} & keywords()


def test_the_editor_server_uses_no_private_name_of_the_parser():
    source = (Path(__file__).resolve().parent.parent / "cli" / "lsp.py").read_text(encoding="utf-8")
    imports = re.findall(r"from rulewright\.dsl\.\w+ import ([^\n]+)", source)
    assert imports and not [name for line in imports for name in line.split(",") if name.strip().startswith("_")]
