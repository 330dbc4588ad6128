"""The parser: every construct gives the expected AST node at the right place; syntax errors point at
the line and column, show the source line and a caret, and say what to do."""
from __future__ import annotations

import textwrap

import pytest

from rulewright.dsl import ast
from rulewright.dsl.errors import RulesSyntaxError
from rulewright.dsl.parser import MAX_DEPTH, parse, parse_expr

HEAD = 'game "T"\nplayers 2\n'


def decls(text: str):
    return parse(HEAD + textwrap.dedent(text).lstrip("\n"), "t.rules").decls[2:]


def turn(text: str):
    """The statements of a 'turn:' block holding ``text`` (which starts at line 4, column 5)."""
    body = textwrap.indent(textwrap.dedent(text).strip("\n"), "    ")
    return decls("turn:\n" + body + "\n")[0].body


def expr(text: str):
    return parse_expr(text)


def syntax_error(text: str) -> RulesSyntaxError:
    with pytest.raises(RulesSyntaxError) as info:
        parse(text, "t.rules")
    return info.value


# ----------------------------------------------------------------------------- declarations
def test_game_and_players():
    rules = parse('game "Tic-Tac-Toe"\nplayers 2..4\n', "t.rules")
    game, players = rules.decls
    assert game == ast.GameDecl("Tic-Tac-Toe")
    assert (game.span.line, game.span.column) == (1, 1)
    assert players == ast.PlayersDecl(2, 4)
    assert (players.span.line, players.span.column) == (2, 1)


def test_players_single_number():
    assert parse('game "T"\nplayers 3\n').decls[1] == ast.PlayersDecl(3, 3)


def test_option_first_value_is_the_default():
    (opt,) = decls('option size: small | large | 5 | -1 | "x y"')
    assert opt == ast.OptionDecl("size", (ast.Name("small"), ast.Name("large"), ast.Literal(5), ast.Literal(-1),
                                          ast.Literal("x y")))
    assert opt.span.line == 3
    assert opt.values[1].span.column == len("option size: small | ") + 1


def test_require():
    (req,) = decls('require player_count < 4 else "too many"')
    assert req == ast.Require(ast.Compare("<", ast.Name("player_count"), ast.Literal(4)), "too many")


def test_enum():
    assert decls("enum colour: red, blue, green") == (ast.EnumDecl("colour", ("red", "blue", "green")),)


def test_table_rows_and_copies():
    (table,) = decls("""
        table cards(name, value):
            ace, 1 * 4
            king, -13
        """)
    assert table.name == "cards" and table.columns == ("name", "value")
    ace, king = table.rows
    assert ace == ast.TableRow((ast.Name("ace"), ast.Literal(1)), 4)
    assert king == ast.TableRow((ast.Name("king"), ast.Literal(-13)), 1)
    assert (king.span.line, king.span.column) == (5, 5)


def test_grid_board_with_options():
    (board,) = decls("board b: grid 3 by 4 wrap columns headings e n w s")
    assert board.name == "b" and board.guard is None and board.spec.kind == "grid"
    assert [w.value if isinstance(w, ast.Literal) else w.id for w in board.spec.words] == [
        3, "by", 4, "wrap", "columns", "headings", "e", "n", "w", "s"]


def test_grid_board_default_headings():
    (board,) = decls("board b: grid 2 by 2")
    from rulewright.interpreter.boards.grid import GridBoard
    assert GridBoard.names(board.spec) == ("right", "up", "left", "down")


def test_graph_board_with_guard():
    (board,) = decls("""
        board track when length == long: graph
            A -> B, C
            B -> C
            C
        """)
    assert board.guard == ast.Compare("==", ast.Name("length"), ast.Name("long"))
    assert [(e[0], e[1]) for e in board.spec.edges] == [("A", ("B", "C")), ("B", ("C",)), ("C", ())]
    assert board.spec.edges[1][2].line == 5


@pytest.mark.parametrize("text, per_player, visibility", [
    ("var deck = []", False, "public"),
    ("var deck = [] hidden", False, "hidden"),
    ("player var hand = [] secret", True, "secret"),
    ("player var score = 0", True, "public"),
])
def test_variables(text, per_player, visibility):
    (var,) = decls(text)
    assert (var.per_player, var.visibility) == (per_player, visibility)


def test_record_def_and_procedure():
    record, fn, proc = decls("""
        record pair(a, b)
        def double(x) = x * 2
        procedure deal(n, who):
            pass
        """)
    assert record == ast.RecordDecl("pair", ("a", "b"))
    assert fn == ast.DefDecl("double", ("x",), ast.BinOp("*", ast.Name("x"), ast.Literal(2)))
    assert proc == ast.ProcDecl("deal", ("n", "who"), (ast.Pass(),))
    assert proc.span.line == 5 and proc.body[0].span == ast.Span("t.rules", 6, 5, 6, 9)


def test_procedure_without_parameters():
    (proc,) = decls("procedure tidy():\n    pass")
    assert proc.params == ()


@pytest.mark.parametrize("kind", ["setup", "round", "turn", "scoring"])
def test_blocks(kind):
    (block,) = decls(f"{kind}:\n    pass")
    assert block == ast.BlockDecl(kind, (ast.Pass(),))


@pytest.mark.parametrize("text, timing", [
    ("end when round_number > 9", "turn"),
    ("end when round_number > 9 after turn", "turn"),
    ("end when round_number > 9 after round", "round"),
])
def test_end_when(text, timing):
    (end,) = decls(text)
    assert end.timing == timing
    assert end.cond == ast.Compare(">", ast.Name("round_number"), ast.Literal(9))


def test_rank_teams_display_extends():
    extends, rank, teams, display = decls("""
        extends "base.rules"
        rank by score descending, time ascending
        teams [[1, 3], [2, 4]]
        display s = "x"
        """)
    assert extends == ast.Extends("base.rules")
    assert rank == ast.RankDecl((("score", False), ("time", True)))
    assert teams.teams == ast.ListLit((ast.ListLit((ast.Literal(1), ast.Literal(3))),
                                       ast.ListLit((ast.Literal(2), ast.Literal(4)))))
    assert display == ast.DisplayDecl("s", ast.Literal("x"))


def test_comments_and_blank_lines_are_ignored():
    rules = parse('# a game\n\ngame "T"   # its name\n\n# who\nplayers 2\n', "t.rules")
    assert [type(d) for d in rules.decls] == [ast.GameDecl, ast.PlayersDecl]
    assert rules.decls[1].span.line == 6


def test_a_file_without_final_newline_parses():
    assert parse('game "T"\nplayers 2').decls[1] == ast.PlayersDecl(2, 2)


def test_windows_line_endings():
    rules = parse('game "T"\r\nplayers 2\r\nturn:\r\n    end game\r\n', "t.rules")
    assert rules.decls[2].body[0].span.line == 4


# ----------------------------------------------------------------------------- statements
def test_let_assign_and_augmented_assign():
    let, assign, plus, minus = turn("""
        let x = 1
        me.score = x
        marks[s] += 2
        x -= 1
        """)
    assert let == ast.Let("x", ast.Literal(1))
    assert assign == ast.Assign(ast.Attr(ast.Name("me"), "score"), ast.Name("x"))
    assert plus == ast.AugAssign(ast.Index(ast.Name("marks"), ast.Name("s")), "+", ast.Literal(2))
    assert minus.op == "-"
    assert [s.span.line for s in (let, assign, plus, minus)] == [4, 5, 6, 7]
    assert all(s.span.column == 5 for s in (let, assign, plus, minus))


def test_call_statement():
    (call,) = turn("deal(2, me)")
    assert call == ast.CallStmt(ast.Call(ast.Name("deal"), (ast.Literal(2), ast.Name("me")), ()))


def test_named_arguments():
    e = expr("pair(a: 1, b: 2)")
    assert e == ast.Call(ast.Name("pair"), (), (("a", ast.Literal(1)), ("b", ast.Literal(2))))


@pytest.mark.parametrize("text, node", [
    ("pass", ast.Pass()),
    ("end game", ast.EndGame()),
    ("win me", ast.Win(ast.Name("me"))),
    ("break", ast.Break()),
    ("return", ast.Return(None)),
    ("return 3", ast.Return(ast.Literal(3))),
    ("turn 2", ast.TakeTurn(ast.Literal(2))),
    ("shuffle deck", ast.Shuffle(ast.Name("deck"))),
    ("draw c from deck", ast.Draw("c", ast.Name("deck"))),
    ("add c to hand", ast.Add(ast.Name("c"), ast.Name("hand"), False)),
    ("add c to hand at bottom", ast.Add(ast.Name("c"), ast.Name("hand"), True)),
    ("remove c from hand", ast.Remove(ast.Name("c"), ast.Name("hand"))),
    ("move c from hand to pile", ast.MoveItem(ast.Name("c"), ast.Name("hand"), ast.Name("pile"), False)),
    ("move c from hand to pile at  bottom", ast.MoveItem(ast.Name("c"), ast.Name("hand"), ast.Name("pile"), True)),
    ('log "hi"', ast.Log(ast.Literal("hi"))),
    ('fail "no"', ast.Fail(ast.Literal("no"))),
])
def test_simple_statements(text, node):
    (stmt,) = turn(text)
    assert stmt == node
    assert (stmt.span.line, stmt.span.column) == (4, 5)


def test_if_elif_else():
    (stmt,) = turn("""
        if x == 1:
            pass
        elif x == 2:
            end game
        else:
            break
        """)
    assert stmt.branches == ((ast.Compare("==", ast.Name("x"), ast.Literal(1)), (ast.Pass(),)),
                             (ast.Compare("==", ast.Name("x"), ast.Literal(2)), (ast.EndGame(),)))
    assert stmt.orelse == (ast.Break(),)
    assert stmt.branches[1][1][0].span.line == 7
    assert stmt.orelse[0].span.line == 9


def test_for_while_repeat_step():
    for_, while_, repeat, step = turn("""
        for p in players:
            pass
        while x > 0:
            x -= 1
        repeat 3 times:
            pass
        step "deal":
            pass
        """)
    assert for_ == ast.For("p", ast.Name("players"), (ast.Pass(),))
    assert while_.cond == ast.Compare(">", ast.Name("x"), ast.Literal(0))
    assert repeat == ast.Repeat(ast.Literal(3), (ast.Pass(),))
    assert step == ast.Step("deal", (ast.Pass(),))
    assert [s.span.line for s in (for_, while_, repeat, step)] == [4, 6, 8, 10]


def test_choose_with_every_option():
    (choose,) = turn('choose c in hand where c > 1 by next_player(me) as "play {c}" optional "pass"')
    assert choose.var == "c" and choose.source == ast.Name("hand")
    assert choose.where == ast.Compare(">", ast.Name("c"), ast.Literal(1))
    assert choose.by == ast.Call(ast.Name("next_player"), (ast.Name("me"),), ())
    assert choose.text == ast.Template(("play ", ast.Name("c")))
    assert choose.optional == ast.Literal("pass")


def test_plain_choose():
    (choose,) = turn("choose s in grid")
    assert choose == ast.Choose("s", ast.Name("grid"))


def test_choose_block_with_guards():
    (block,) = turn("""
        choose by 2:
            "attack" if x > 0:
                pass
            "wait":
                end game
        """)
    assert block.by == ast.Literal(2)
    attack, wait = block.alternatives
    assert attack == ast.Alternative("attack", ast.Compare(">", ast.Name("x"), ast.Literal(0)), (ast.Pass(),))
    assert wait == ast.Alternative("wait", None, (ast.EndGame(),))
    assert (wait.span.line, wait.span.column) == (7, 9)


def test_choose_each_secretly():
    (each,) = turn("""
        each p in players secretly choose c in p.hand as "{c}":
            log "{p}"
        """)
    assert each.player_var == "p" and each.players == ast.Name("players")
    assert each.choice == ast.Choose("c", ast.Attr(ast.Name("p"), "hand"), text=ast.Template((ast.Name("c"),)))
    assert each.body == (ast.Log(ast.Template((ast.Name("p"),))),)


def test_backslash_continues_a_line():
    (let,) = turn("let x = 1 + \\\n        2")
    assert let == ast.Let("x", ast.BinOp("+", ast.Literal(1), ast.Literal(2)))


def test_brackets_continue_a_line():
    (let,) = turn("let x = [1,\n    2]")
    assert let.value == ast.ListLit((ast.Literal(1), ast.Literal(2)))


# ----------------------------------------------------------------------------- expressions
@pytest.mark.parametrize("text, node", [
    ("1 + 2 * 3", ast.BinOp("+", ast.Literal(1), ast.BinOp("*", ast.Literal(2), ast.Literal(3)))),
    ("(1 + 2) * 3", ast.BinOp("*", ast.BinOp("+", ast.Literal(1), ast.Literal(2)), ast.Literal(3))),
    ("10 - 3 - 2", ast.BinOp("-", ast.BinOp("-", ast.Literal(10), ast.Literal(3)), ast.Literal(2))),
    ("7 / 2 % 3", ast.BinOp("%", ast.BinOp("/", ast.Literal(7), ast.Literal(2)), ast.Literal(3))),
    ("-x", ast.Neg(ast.Name("x"))),
    ("not a and b or c", ast.BoolOp("or", ast.BoolOp("and", ast.Not(ast.Name("a")), ast.Name("b")), ast.Name("c"))),
    ("a in b", ast.Compare("in", ast.Name("a"), ast.Name("b"))),
    ("a not in b", ast.Compare("not in", ast.Name("a"), ast.Name("b"))),
    ("a <= b", ast.Compare("<=", ast.Name("a"), ast.Name("b"))),
    ("1 if a else 2", ast.Cond(ast.Name("a"), ast.Literal(1), ast.Literal(2))),
    ("true", ast.Literal(True)),
    ("false", ast.Literal(False)),
    ("none", ast.Literal(None)),
    ('"a\\"b"', ast.Literal('a"b')),
    ("[]", ast.ListLit(())),
    ("[1, 2]", ast.ListLit((ast.Literal(1), ast.Literal(2)))),
    ("{}", ast.MapLit(())),
    ('{"a": 1}', ast.MapLit(((ast.Literal("a"), ast.Literal(1)),))),
    ("p.score", ast.Attr(ast.Name("p"), "score")),
    ("xs[1]", ast.Index(ast.Name("xs"), ast.Literal(1))),
    ("f()", ast.Call(ast.Name("f"), (), ())),
    ("a.b[c].d", ast.Attr(ast.Index(ast.Attr(ast.Name("a"), "b"), ast.Name("c")), "d")),
])
def test_expressions(text, node):
    assert expr(text) == node


@pytest.mark.parametrize("text, node", [
    ("count(s in xs where s > 1)",
     ast.Quantifier("count", ast.Binder("s", ast.Name("xs"), ast.Compare(">", ast.Name("s"), ast.Literal(1)), None))),
    ("sum(c in hand: c.value)",
     ast.Quantifier("sum", ast.Binder("c", ast.Name("hand"), None, ast.Attr(ast.Name("c"), "value")))),
    ("all(s in xs where s > 0: s < 9)",
     ast.Quantifier("all", ast.Binder("s", ast.Name("xs"), ast.Compare(">", ast.Name("s"), ast.Literal(0)),
                                      ast.Compare("<", ast.Name("s"), ast.Literal(9))))),
])
def test_quantifiers(text, node):
    assert expr(text) == node


def test_list_comprehension():
    assert expr("[p in players where p != me : p.score]") == ast.ListComp(ast.Binder(
        "p", ast.Name("players"), ast.Compare("!=", ast.Name("p"), ast.Name("me")), ast.Attr(ast.Name("p"), "score")))


def test_expression_spans():
    (let,) = turn("let total = a + b.c")
    value = let.value
    assert (value.span.line, value.span.column) == (4, 17)
    assert (value.right.span.line, value.right.span.column) == (4, 21)
    assert (value.span.end_line, value.span.end_column) == (4, 24)


# ----------------------------------------------------------------------------- templates
def test_template_holes():
    (log,) = turn('log "{me} scores {me.score + 1}!"')
    parts = log.message.parts
    assert parts[0] == ast.Name("me") and parts[1] == " scores "
    assert parts[2] == ast.BinOp("+", ast.Attr(ast.Name("me"), "score"), ast.Literal(1))
    assert parts[3] == "!"
    # the holes know where they are in the file: line 4, the column inside the string
    assert (parts[0].span.line, parts[0].span.column) == (4, 11)
    assert (parts[2].span.line, parts[2].span.column) == (4, 23)


def test_hole_columns_count_escapes_as_written():
    (log,) = turn('log "a\\"b {me} \\n {x}"')
    holes = [p for p in log.message.parts if not isinstance(p, str)]
    assert [h.span.column for h in holes] == [16, 24]
    assert log.message.parts[0] == 'a"b '


def test_unknown_escape_is_kept_as_written():
    (log,) = turn('log "a\\d"')
    assert log.message == ast.Literal("a\\d")


def test_doubled_braces_are_plain_text():
    (log,) = turn('log "{{x}} and }}"')
    assert log.message == ast.Literal("{x} and }")


def test_string_without_holes_is_a_literal():
    (log,) = turn('log "plain"')
    assert log.message == ast.Literal("plain")


def test_error_in_a_hole_points_into_the_file():
    err = syntax_error(HEAD + 'turn:\n    log "ab {1 +} c"\n')
    d = err.diagnostic
    assert (d.line, d.column) == (4, 16)
    assert d.source_line == '    log "ab {1 +} c"'
    assert "end of the expression" in d.message


def test_empty_hole():
    d = syntax_error(HEAD + 'turn:\n    log "a {} b"\n').diagnostic
    assert (d.line, d.column, d.message) == (4, 12, "'{}' holds no expression")
    assert "{{" in d.hint


@pytest.mark.parametrize("text, what", [
    ('game "T{1}"\nplayers 2\n', "a game's name"),
    (HEAD + 'option o: "a{1}" | b\n', "an option's value"),
    (HEAD + 'require true else "no {x}"\n', "a requirement's message"),
    (HEAD + 'table t(k):\n    "a{1}"\n', "a table's value"),
    (HEAD + 'extends "{x}.rules"\n', "the name of the base rules"),
])
def test_holes_where_only_plain_text_goes(text, what):
    d = syntax_error(text).diagnostic
    assert d.message == f"{what} is plain text: it cannot hold {{...}}"
    assert d.source_line == text.split("\n")[d.line - 1]


# ----------------------------------------------------------------------------- syntax errors
def test_missing_colon():
    d = syntax_error(HEAD + "turn:\n    if x > 1\n        pass\n").diagnostic
    assert (d.file, d.line, d.column) == ("t.rules", 4, 13)
    assert d.source_line == "    if x > 1"
    assert d.hint == "a block header ends with ':'"


def test_indented_too_far():
    d = syntax_error(HEAD + "turn:\n    pass\n        end game\n").diagnostic
    assert (d.line, d.column, d.message) == (5, 9, "unexpected indentation")
    assert "indented more than the line before" in d.hint


def test_indentation_matching_no_block():
    d = syntax_error(HEAD + "turn:\n    if true:\n        pass\n      end game\n").diagnostic
    assert (d.line, d.column) == (6, 1)
    assert d.message == "this line's indentation matches no enclosing block"
    assert d.source_line == "      end game"


def test_block_not_indented():
    d = syntax_error(HEAD + "turn:\nend when true\n").diagnostic
    assert (d.line, d.column) == (4, 1)
    assert d.message == "expected an indented block after ':'"


def test_unexpected_token():
    d = syntax_error(HEAD + "var x = 1 +* 2\n").diagnostic
    assert (d.line, d.column, d.message) == (3, 12, "unexpected '*'")
    assert d.hint.startswith("expected a value here")


def test_missing_value():
    d = syntax_error(HEAD + "var x =\n").diagnostic
    assert (d.line, d.column, d.message) == (3, 8, "unexpected end of line")
    assert d.hint.startswith("expected a value here")


def test_unterminated_string():
    d = syntax_error(HEAD + 'turn:\n    log "hello\n    end game\n').diagnostic
    assert (d.line, d.column, d.message) == (4, 9, "this string is never closed")
    assert 'end it with "' in d.hint


def test_unclosed_bracket_is_named():
    d = syntax_error(HEAD + "var x = (1 + 2\nturn:\n    end game\n").diagnostic
    assert d.line == 4
    assert d.hint == "the '(' at line 3, column 9 is never closed"


def test_single_equals_in_a_condition():
    d = syntax_error(HEAD + "turn:\n    if x = 1:\n        pass\n").diagnostic
    assert (d.line, d.column) == (4, 10)
    assert "'=='" in d.hint


def test_elif_without_if():
    d = syntax_error(HEAD + "turn:\n    elif true:\n        pass\n").diagnostic
    assert d.line == 4 and "follows an 'if' block" in d.hint


def test_unexpected_character():
    d = syntax_error(HEAD + "var x = 1 @ 2\n").diagnostic
    assert (d.line, d.column, d.message) == (3, 11, "unexpected character '@'")


def test_end_of_file_inside_a_block_header():
    d = syntax_error(HEAD + "turn:").diagnostic
    assert (d.line, d.column, d.message) == (3, 6, "unexpected end of file")


def test_lone_carriage_returns():
    d = syntax_error('game "T"\rplayers 2\r').diagnostic
    assert d.message == "unexpected character '\\r'" and "newline" in d.hint


def test_huge_number():
    d = syntax_error(HEAD + "var x = " + "9" * 40 + "\n").diagnostic
    assert (d.line, d.column, d.message) == (3, 9, "this number is too large")


def test_deep_nesting_is_refused_not_a_crash():
    d = syntax_error(HEAD + "var x = " + "-" * (MAX_DEPTH + 10) + "1\n").diagnostic
    assert d.line == 3 and "nests more than" in d.message


def test_nesting_within_the_limit_parses():
    rules = parse(HEAD + "var x = " + "-" * (MAX_DEPTH // 2) + "1\n")
    assert isinstance(rules.decls[2].value, ast.Neg)


def test_quantifier_on_something_not_a_name():
    d = syntax_error(HEAD + "var x = a.b(s in xs)\n").diagnostic
    assert (d.line, d.column) == (3, 9)
    assert d.message == "only a named function takes 'x in list' arguments"


def test_syntax_error_is_a_rules_error_with_one_diagnostic():
    err = syntax_error(HEAD + "turn\n")
    assert err.diagnostics == [err.diagnostic]
    assert str(err) == err.diagnostic.render()


# ----------------------------------------------------------------------------- word for word
SYNTAX_ERRORS = {
    "missing_colon": HEAD + "turn\n    end game\n",
    "bad_indentation": HEAD + "turn:\n    if true:\n        pass\n      end game\n",
    "indented_too_far": HEAD + "turn:\n    pass\n        end game\n",
    "unexpected_token": HEAD + "turn:\n    choose s grid\n",
    "missing_value": HEAD + "turn:\n    let x == 1\n",
    "unterminated_string": HEAD + 'turn:\n    log "hello\n',
    "unclosed_bracket": HEAD + "var x = [1, 2\nturn:\n    end game\n",
    "error_in_hole": HEAD + 'turn:\n    log "{me.score +}"\n',
}


@pytest.mark.parametrize("text", SYNTAX_ERRORS.values(), ids=SYNTAX_ERRORS.keys())
def test_rendered_syntax_errors(text, snapshot):
    assert syntax_error(text).diagnostic.render() == snapshot


def test_a_choice_part_given_twice_is_a_syntax_error():
    with pytest.raises(RulesSyntaxError, match="'shown' is given twice in this choice"):
        parse('game "D"\nplayers 2\nturn:\n    choose x in [1] shown "a" shown "b"\n    end game\n', "d.rules")
