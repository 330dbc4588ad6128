"""A newcomer's common slips (words and operators from Python, C or JavaScript, a misspelt keyword, a
quote inside a {hole}) each give a located diagnostic with a hint that says what to write instead.

Word for word: each test asserts the whole rendered diagnostic."""
from __future__ import annotations

import pytest

from rulewright.dsl.errors import RulesSyntaxError
from rulewright.dsl.parser import parse
from rulewright.interpreter.check.checker import check

HEAD = 'game "T"\nplayers 2\nvar xs = [1, 2]\nvar done = false\n'


def rendered(body: str) -> str:
    """The syntax error of HEAD + body (the body starts at line 5)."""
    with pytest.raises(RulesSyntaxError) as info:
        parse(HEAD + body, "x.rules")
    return info.value.diagnostic.render()


def unknown_name(body: str) -> str:
    """The checker's 'unknown name' diagnostic for HEAD + body (it parses)."""
    (d,) = [d for d in check(parse(HEAD + body, "x.rules")) if d.message.startswith("unknown name")]
    return d.render()


def block(*lines: str) -> str:
    """A 'turn:' block holding ``lines`` (the first at line 6, column 5)."""
    return "turn:\n" + "".join(f"    {line}\n" for line in lines) + "    end game\n"


# ----------------------------------------------------------------------------- else if
def test_else_if():
    assert rendered(block("if done:", "    pass", "else if xs == []:", "    pass")) == """\
x.rules:8:10: error: unexpected 'if' after 'else'
        else if xs == []:
             ^
  hint: write 'elif' for 'else if'"""


# ----------------------------------------------------------------------------- operators of other languages
def test_double_ampersand():
    assert rendered(block("if done && xs == []:", "    pass")) == """\
x.rules:6:13: error: unexpected '&&'
        if done && xs == []:
                ^
  hint: write 'and'"""


def test_double_bar():
    assert rendered(block("if done || xs == []:", "    pass")) == """\
x.rules:6:13: error: unexpected '||'
        if done || xs == []:
                ^
  hint: write 'or'"""


def test_exclamation_mark():
    assert rendered(block("if !done:", "    pass")) == """\
x.rules:6:8: error: unexpected '!'
        if !done:
           ^
  hint: write 'not'"""


def test_operator_slip_inside_a_hole_points_into_the_string():
    assert rendered(block('log "{done && true}"')) == """\
x.rules:6:16: error: unexpected '&&'
        log "{done && true}"
                   ^
  hint: write 'and'"""


def test_angle_brackets_for_not_equal():
    assert rendered(block("if xs <> []:", "    pass")) == """\
x.rules:6:11: error: unexpected '<>'
        if xs <> []:
              ^
  hint: write '!='"""


def test_not_equal_is_valid():
    parse(HEAD + block("if xs != []:", "    pass"), "x.rules")


def test_a_double_bar_in_an_option_is_no_or():
    assert rendered("option o: a || b\n") == """\
x.rules:5:14: error: unexpected '|'
    option o: a || b
                 ^
  hint: expected a value here: a number, a name, a text in quotes, a list [...]"""


# ----------------------------------------------------------------------------- True, None, null... (the checker)
@pytest.mark.parametrize("word, ours", [
    ("True", "true"), ("False", "false"), ("None", "none"), ("null", "none"), ("nil", "none"),
])
def test_values_spelt_as_in_other_languages(word, ours):
    line = f"let y = {word}"
    assert unknown_name(block(line, "log \"{y}\"")) == f"""\
x.rules:6:13: error: unknown name '{word}'
        {line}
                ^
  hint: write '{ours}'"""


def test_self_for_me():
    assert unknown_name(block("log \"{self}\"")) == """\
x.rules:6:11: error: unknown name 'self'
        log "{self}"
              ^
  hint: write 'me'"""


def test_a_declared_name_is_not_corrected():
    rules = parse(HEAD + "var null = 0\n" + block("null += 1"), "x.rules")
    assert not [d for d in check(rules) if "null" in d.message]


# ----------------------------------------------------------------------------- def with a block
def test_def_with_a_block_body():
    assert rendered("def double(x):\n    return x * 2\n" + block()) == """\
x.rules:5:14: error: unexpected ':'
    def double(x):
                 ^
  hint: a def is one expression: 'def double(x) = ...'; for a block of statements write 'procedure double(x):'"""


def test_a_statement_among_a_defs_lines():
    assert rendered("def double(x) =\n    me.score += 1\n    x * 2\n" + block()) == """\
x.rules:6:14: error: unexpected '+='
        me.score += 1
                 ^
  hint: a def's indented lines are 'let' lines, then the value it gives; for a block of statements write \
'procedure double(x):'"""


def test_a_def_with_indented_lines_is_a_def_with_lets():
    from rulewright.dsl import ast
    (d,) = [d for d in parse(HEAD + "def double(x) =\n    x * 2\n", "x.rules").decls if isinstance(d, ast.DefDecl)]
    assert isinstance(d.body, ast.BinOp)


def test_an_unfinished_def_expression_keeps_its_hint():
    assert rendered("def double(x) = x *\n" + block()) == """\
x.rules:5:20: error: unexpected end of line
    def double(x) = x *
                       ^
  hint: expected a value here: a number, a name, a text in quotes, a list [...]"""


# ----------------------------------------------------------------------------- misspelt keywords
@pytest.mark.parametrize("line, keyword", [
    ("chose y in xs", "choose"),
    ("shufle xs", "shuffle"),
    ("whlie done:", "while"),
    ("lte y = 1", "let"),
    ("pas", "pass"),
    ("print \"hello\"", "log"),
    ("If done:", "if"),
])
def test_misspelt_statement_keyword(line, keyword):
    word = line.split()[0]
    assert rendered(block(line, "    pass") if line.endswith(":") else block(line)) == f"""\
x.rules:6:5: error: unknown statement '{word}'
        {line}
        ^
  hint: did you mean '{keyword}'?"""


def test_misspelt_return():
    assert rendered("procedure f(y):\n    retrun y\n" + block("f(1)")) == """\
x.rules:6:5: error: unknown statement 'retrun'
        retrun y
        ^
  hint: did you mean 'return'?"""


@pytest.mark.parametrize("word, keyword", [("esle", "else"), ("elsif", "elif"), ("elseif", "elif")])
def test_misspelt_else_and_elif(word, keyword):
    line = f"{word}:" if keyword == "else" else f"{word} xs == []:"
    assert rendered(block("if done:", "    pass", line, "    pass")) == f"""\
x.rules:8:5: error: unknown statement '{word}'
        {line}
        ^
  hint: did you mean '{keyword}'?"""


def test_var_inside_a_block():
    assert rendered(block("var y = 1")) == """\
x.rules:6:5: error: 'var' cannot start a statement in a block
        var y = 1
        ^
  hint: write 'let' for a new name inside a block; 'var' declares a game variable, at the top level"""


def test_a_declaration_inside_a_block():
    assert rendered(block("def f(x) = x")) == """\
x.rules:6:5: error: 'def' cannot start a statement in a block
        def f(x) = x
        ^
  hint: 'def' begins a declaration: write it at the top level, outside any block"""


@pytest.mark.parametrize("line, keyword", [
    ("function f(x):", "procedure"),
    ("func f(x):", "procedure"),
    ("fn f(x) = x", "def"),
    ("procdure f(x):", "procedure"),
    ("setpu:", "setup"),
])
def test_misspelt_declaration_keyword(line, keyword):
    body = "\n    pass\n" if line.endswith(":") else "\n"
    word = line.split()[0].rstrip(":")
    assert rendered(line + body + block()) == f"""\
x.rules:5:1: error: unknown declaration '{word}'
    {line}
    ^
  hint: did you mean '{keyword}'?"""


def test_a_name_the_rules_declare_is_not_taken_for_a_misspelt_keyword():
    assert rendered("player var draws = 0\n" + block("draws 3")) == """\
x.rules:7:11: error: unexpected '3'
        draws 3
              ^"""


def test_a_word_like_no_keyword_gets_no_suggestion():
    assert rendered(block("frobnicate xs")) == """\
x.rules:6:16: error: unexpected 'xs'
        frobnicate xs
                   ^"""


# ----------------------------------------------------------------------------- quotes inside a {hole}
def test_quote_inside_a_hole():
    assert rendered(block('log "{xs == "x"}"')) == """\
x.rules:6:17: error: this string ends at the quote inside {...}
        log "{xs == "x"}"
                    ^
  hint: inside a string, write \\" for a quote (also inside {...})"""


def test_quote_inside_a_hole_after_text():
    assert rendered(block('log "xs: {join(xs, ", ")}."')) == """\
x.rules:6:24: error: this string ends at the quote inside {...}
        log "xs: {join(xs, ", ")}."
                           ^
  hint: inside a string, write \\" for a quote (also inside {...})"""


def test_escaped_quote_inside_a_hole_parses():
    parse(HEAD + block('log "{xs == \\"x\\"}"'), "x.rules")


# ----------------------------------------------------------------------------- hints kept from before
def test_single_equals_sign_in_a_condition():
    assert rendered(block("if done = true:", "    pass")) == """\
x.rules:6:13: error: unexpected '='
        if done = true:
                ^
  hint: to compare two values write '=='; a single '=' gives a variable a value"""


@pytest.mark.parametrize("line", ["if done", "for x in xs", "while done"])
def test_missing_colon(line):
    assert rendered(block(line, "    pass")) == f"""\
x.rules:6:{5 + len(line)}: error: unexpected end of line
        {line}
        {" " * len(line)}^
  hint: a block header ends with ':'"""


def test_a_declaration_word_at_the_left_margin_is_no_statement_in_a_block():
    assert rendered("player\n") == """\
x.rules:5:7: error: unexpected end of line
    player
          ^
  hint: expected 'var'"""


def test_else_if_inside_an_expression_is_not_taken_for_elif():
    assert rendered("var y = 1 if done != else if 2 else 3\n") == """\
x.rules:5:27: error: unexpected 'if'
    var y = 1 if done != else if 2 else 3
                              ^
  hint: expected 'else', 'or'"""


# ----------------------------------------------------------------------------- a 'choose:' alternative too deep
def test_an_alternative_indented_under_the_one_before():
    # it is read as a statement of "take" and refused at its 'if': say what it is indented under
    assert rendered(block("choose:", '    "take":', "        xs = [3]", '        "drop" if xs != []:',
                          "            xs = []")) == """\
x.rules:9:13: error: the alternative "drop" is indented under '"take":' (line 7), so it is read as a statement there
                "drop" if xs != []:
                ^
  hint: indent it as the other alternatives of 'choose:' (line 6), 8 spaces"""


def test_an_alternative_indented_under_a_statement_of_the_one_before():
    assert rendered(block("choose:", '    "take":', "        if done:", "            xs = [3]",
                          '            "drop":', "                xs = []")) == """\
x.rules:10:17: error: the alternative "drop" is indented under 'if done:' (line 8), so it is read as a statement there
                    "drop":
                    ^
  hint: indent it as the other alternatives of 'choose:' (line 6), 8 spaces"""


def test_an_alternative_indented_too_deep_in_an_erratum():
    """The same mistake in a variant's erratum that adds alternatives (in step "S", add:)."""
    with pytest.raises(RulesSyntaxError) as info:
        parse('extends "base"\nin step "shop", add:\n    "pray":\n        log "pray"\n'
              '        "pray harder" if true:\n            log "x"\n', "v.rules")
    assert info.value.diagnostic.render().splitlines()[::3] == [
        'v.rules:5:9: error: the alternative "pray harder" is indented under \'"pray":\' (line 3), so it is read '
        "as a statement there",
        "  hint: indent it as the other alternatives of 'in step \"shop\", add:' (line 2), 4 spaces"]


def test_a_refused_token_is_named_in_words_not_by_the_grammar():
    assert "aug_op" not in rendered(block("xs [0]]"))
    assert "'+=', '-='" in rendered(block('"drop": xs = []'))
