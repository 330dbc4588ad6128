"""The checks the symbol table makes possible: each mistake a new user makes, as its exact diagnostic.

Each case is a rules file that 'validate' used to accept and that then played another game."""
from __future__ import annotations

import pytest

from rulewright.dsl import ast
from rulewright.dsl.parser import parse
from rulewright.interpreter.boards import registry as board_kinds
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.check.symbols import SymbolTable, symbols

HEAD = 'game "T"\nplayers 2\n'


def rendered(text: str) -> str:
    return "\n".join(d.render() for d in check(parse(text, "t.rules")))


CASES = {
    "misspelled enum member in a table": (
        HEAD + "enum kind: straight, loop\ntable card(name, kind):\n    a, straight\n    b, strait\n"
               "turn:\n    end game\n",
        "t.rules:6:8: error: 'strait' is not declared, unlike the other words in column 'kind'\n"
        "        b, strait\n"
        "           ^\n"
        "  hint: did you mean 'straight'?"),
    "a local hides a heading": (
        HEAD + "board b: grid 3 by 3 headings e ne n nw w sw s se\ndef ahead(x, s) = step(x, s)\n"
               "turn:\n    end game\n",
        "t.rules:4:1: warning: the local 's' hides 's', a heading of board 'b'\n"
        "    def ahead(x, s) = step(x, s)\n"
        "    ^\n"
        "  hint: rename the local: where it is seen, 's' means the local"),
    "a loop variable hides an option": (
        HEAD + "option size: 1 | 2\nturn:\n    for size in [3]:\n        log \"{size}\"\n    end game\n",
        "t.rules:5:5: warning: the local 'size' hides the option 'size'\n"
        "        for size in [3]:\n"
        "        ^\n"
        "  hint: rename the local: where it is seen, 'size' means the local"),
    "a comparison that never holds": (
        HEAD + "var marks = []\nturn:\n    if len(marks) == \"9\":\n        end game\n    end game\n",
        "t.rules:5:8: error: '==' never holds: a number is never equal to text\n"
        "        if len(marks) == \"9\":\n"
        "           ^\n"
        "  hint: write both sides as the same kind, e.g. 9 and not \"9\""),
    "a winner who is not a player": (
        HEAD + "turn:\n    win \"me\"\n    end game\n",
        "t.rules:4:9: error: 'win' needs a player or a list of players, but this is text\n"
        "        win \"me\"\n"
        "            ^\n"
        "  hint: a player is a seat number: win me, win p, win [1, 3]"),
    "a player joined to text": (
        HEAD + "turn:\n    log \"{me + \\\"x\\\"}\"\n    end game\n",
        "t.rules:4:11: error: '+' cannot join a number and text\n"
        "        log \"{me + \\\"x\\\"}\"\n"
        "              ^\n"
        "  hint: '+' adds numbers, or joins two texts or two lists; to put a value into text, write \"{x}\" or "
        "text(x)"),
    "a grid's function on a graph": (
        HEAD + "board g: graph\n    a -> b\nturn:\n    let x = step(\"a\", \"b\")\n    log \"{x}\"\n    end game\n",
        "t.rules:6:13: error: 'step' does not work on board 'g', which is a graph\n"
        "        let x = step(\"a\", \"b\")\n"
        "                ^\n"
        "  hint: a graph has: neighbours, next, previous, spaces"),
    "a board function without a board": (
        HEAD + "turn:\n    let x = neighbours(\"a\")\n    log \"{x}\"\n    end game\n",
        "t.rules:4:13: error: 'neighbours' works on the board, and this game has none\n"
        "        let x = neighbours(\"a\")\n"
        "                ^\n"
        "  hint: declare one: board b: grid 8 by 8"),
    "an unknown board kind": (
        HEAD + "board b: hexes 3\nturn:\n    end game\n",
        "t.rules:3:10: error: there is no board kind 'hexes'\n"
        "    board b: hexes 3\n"
        "             ^\n"
        "  hint: kinds: graph, grid"),
    "a grid that does not read": (
        HEAD + "board b: grid 3 by 3 wrap colums\nturn:\n    end game\n",
        "t.rules:3:27: error: a grid wraps 'columns' or 'rows', not 'colums'\n"
        "    board b: grid 3 by 3 wrap colums\n"
        "                              ^\n"
        "  hint: did you mean 'columns'?"),
    "a match arm given twice": (
        HEAD + "option size: small | large\ndef n() = match size { small: 1, small: 2, else: 3 }\n"
               "turn:\n    end game\n",
        "t.rules:4:34: error: 'small' is matched twice; the second arm can never be taken\n"
        "    def n() = match size { small: 1, small: 2, else: 3 }\n"
        "                                     ^\n"
        "  hint: the first is at line 4"),
    "a match on an option's misspelled value": (
        HEAD + "option size: small | large\ndef n() = match size { small: 1, lage: 2 }\nturn:\n    end game\n",
        "t.rules:4:34: error: option 'size' is never 'lage'\n"
        "    def n() = match size { small: 1, lage: 2 }\n"
        "                                     ^\n"
        "  hint: did you mean 'large'?"),
    "a match arm of another kind": (
        HEAD + "def n(x) = match len(x) { \"1\": 1, else: 3 }\nturn:\n    end game\n",
        "t.rules:3:27: error: this match arm can never be taken: a number is never equal to text\n"
        "    def n(x) = match len(x) { \"1\": 1, else: 3 }\n"
        "                              ^\n"
        "  hint: write both sides as the same kind, e.g. 9 and not \"9\""),
    'a loop variable nothing reads': (
        HEAD + "var xs = [1, 2]\nvar s = 0\nturn:\n    for ss in xs:\n        s += 1\n    end game\n",
        ("t.rules:6:5: warning: the local 'ss' is never read, but 's', a letter away, is\n"
            '        for ss in xs:\n'
            '        ^\n'
            "  hint: did you mean 's'?")),
    'a display that ignores its space': (
        HEAD + "board b: grid 2 by 2 headings e n w s\ndisplay ss = text(s)\nturn:\n    end game\n",
        ("t.rules:4:1: warning: 'display ss' never reads 'ss', but reads 's', a letter away\n"
            '    display ss = text(s)\n'
            '    ^\n'
            "  hint: did you mean 's'? ('ss' is the space being drawn)")),
    'a graph space written once, a letter from another': (
        HEAD + "board g: graph\n    start -> a1\n    a1 -> a2\n    a22 -> finish\nturn:\n    end game\n",
        ("t.rules:6:5: warning: space 'a22' of board 'g' has no arrows in, and 'a2', a letter away, none out\n"
            '        a22 -> finish\n'
            '        ^\n'
            "  hint: did you mean 'a2'?")),
    'a number in a column of spaces': (
        HEAD + "board b: grid 2 by 2\ntable card(name, at):\n    x, A1\n    y, 2\nturn:\n    end game\n",
        ("t.rules:6:8: error: column 'at' holds names (A1, ...), not numbers\n"
            '        y, 2\n'
            '           ^\n'
            '  hint: a letter missing?')),
    'a label written once, a letter from a repeated one': (
        HEAD + "table card(name, move):\n    a, straight_1\n    b, straight_1\n    c, straightt_1\nturn:\n    end game\n",
        ("t.rules:6:8: warning: 'straightt_1' appears once in column 'move', a letter away from 'straight_1'\n"
            '        c, straightt_1\n'
            '           ^\n'
            "  hint: did you mean 'straight_1'?")),
    'a text a letter from a table key': (
        HEAD + "table layout(name, n):\n    two_layers, 2\nturn:\n    log \"{\\\"two_players\\\".n}\"\n    end game\n",
        ('t.rules:6:11: warning: the text "two_players" names nothing the rules declare, and is a letter away from \'two_layers\'\n'
            '        log "{\\"two_players\\".n}"\n'
            '              ^\n'
            '  hint: did you mean "two_layers"?')),
    'a graph space with no arrows, a letter from another': (
        HEAD + "board g: graph\n    start -> gate1\n    gate11\nturn:\n    end game\n",
        ("t.rules:5:5: warning: space 'gate11' of board 'g' has no arrows at all, and is a letter away from 'gate1'\n"
            '        gate11\n'
            '        ^\n'
            "  hint: did you mean 'gate1'?")),
    'a record field nothing uses, a letter from one used': (
        HEAD + "record shot(at, haeding)\nplayer var heading = 0\nvar x = 0\nturn:\n    let s = shot(\"A1\", 1)\n    x = s.heading\n    end game\n",
        ("t.rules:3:1: warning: field 'haeding' of record 'shot' is never used, and 'heading', a letter away, is\n"
            '    record shot(at, haeding)\n'
            '    ^\n'
            "  hint: did you mean 'heading'?")),
    "a procedure under 'and'": (
        HEAD + "procedure roll():\n    return 3\nturn:\n    if true and roll() > 2:\n        pass\n    end game\n",
        "t.rules:6:17: error: procedure 'roll' changes the game, so it cannot run inside this part of an "
        "expression\n"
        "        if true and roll() > 2:\n"
        "                    ^\n"
        "  hint: a procedure may stand in a statement's own value, condition or list, not in a text or under "
        "'and', 'or', 'if ... else', 'match', a quantifier: first 'let x = roll(...)'"),
}


@pytest.mark.parametrize("name", CASES)
def test_each_mistake_gets_its_diagnostic(name):
    text, expected = CASES[name]
    assert rendered(text) == expected


def test_tables_may_share_a_column_name():
    text = HEAD + ("table cloud(gate, printed):\n    g1, 1\ntable zephyr(gate, printed):\n    z1, 2\n"
                   "var x = 0\nturn:\n    x = \"g1\".printed + \"z1\".printed\n    end game\n")
    assert rendered(text) == ""
    from rulewright.interpreter.api import Game
    assert Game(parse(text, "t.rules")).new_state(1).vars["x"] == 3


def test_a_key_two_tables_give_two_values_is_read_through_its_table():
    from rulewright.dsl.errors import RulesRuntimeError
    from rulewright.interpreter.api import Game
    text = HEAD + ("table cloud(gate, printed):\n    g1, 1\ntable zephyr(gate, printed):\n    g1, 2\n"
                   "var x = 0\nturn:\n    x = cloud[\"g1\"].printed * 10 + zephyr[\"g1\"].printed\n    end game\n")
    assert rendered(text) == ""
    assert Game(parse(text, "t.rules")).new_state(1).vars["x"] == 12
    with pytest.raises(RulesRuntimeError) as err:
        Game(parse(text.replace('cloud[\"g1\"].printed', '\"g1\".printed'), "t.rules")).new_state(1)
    assert str(err.value) == (
        "t.rules:9:5: error: in 'turn': 'g1.printed' is ambiguous: tables 'cloud' and 'zephyr' both have a row 'g1'\n"
        "        x = \"g1\".printed * 10 + zephyr[\"g1\"].printed\n"
        "        ^\n"
        "  hint: say which table: cloud[\"g1\"].printed")


def test_bare_words_of_free_label_columns_are_text():
    text = HEAD + "table card(name, label):\n    a, Ace\n    b, Bee\nturn:\n    end game\n"
    assert rendered(text) == ""


def test_the_symbol_table_is_built_once_and_knows_every_kind_of_name():
    rules = parse(HEAD + "option size: small | large\nenum kind: straight, loop\nboard b: grid 2 by 2\n"
                         "table card(name, kind):\n    ace, straight\nrecord bid(owner, amount)\n"
                         "player var score = 0\nvar deck = []\ndef double(x) = 2 * x\n"
                         "turn:\n    end game\n", "t.rules")
    table = symbols(rules)
    assert symbols(rules) is table and isinstance(table, SymbolTable)
    assert table.describe("size") == "the option 'size'"
    assert table.describe("straight") == "'straight', a member of enum 'kind'"
    assert table.describe("small") == "'small', a value of option 'size'"
    assert table.describe("up") == "'up', a heading of board 'b'"
    assert table.describe("score") == "the player variable 'score'"
    assert table.describe("round_number") == "the variable 'round_number'"
    assert table.columns == {"name": ["card"], "kind": ["card"]}
    assert table.table_keys == {"ace": "card"}
    assert table.function("double")[0] == "def" and table.function("bid") == ("record", ("owner", "amount"))
    assert table.function("step")[0] == "board" and table.function("len")[0] == "builtin"
    assert table.function("nothing") is None



def test_field_kinds_record_defaults_and_visibility_are_the_symbol_tables():
    """One place per fact: what '.name' reads is worked out there, and the compiled game reads the same."""
    from rulewright.interpreter.compile.compiler import CompiledGame
    rules = parse(HEAD + "table card(name, score):\n    ace, 1\nrecord bid(owner, amount = 0)\n"
                         "player var score = 0 secret\nplayer var amount = 0\n"
                         "turn:\n    end game\n", "t.rules")
    table = symbols(rules)
    assert table.field_kinds("score") == {"player", "column"}
    assert table.field_kinds("amount") == {"player", "field"}
    assert table.field_kinds("owner") == {"field"} and table.field_kinds("name") == {"column"}
    assert table.field_kinds("nothing") == set()
    assert table.record_defaults == {"bid": {"amount": ast.Literal(0)}}
    assert table.visibility["score"] == "secret" and table.visibility["round_number"] == "public"
    game = CompiledGame(rules, 2, {})
    assert game.record_defaults is table.record_defaults and game.visibility is table.visibility
    assert game.field_kinds("amount") == {"player", "field"}

def test_every_board_kind_implements_the_protocol():
    for kind in board_kinds.KINDS.values():
        for name, spec in kind.functions.items():
            assert spec.needs == "board" and spec.min_args <= spec.max_args, name
        for method in ("check", "names", "build", "layout", "places"):
            assert getattr(kind, method) is not getattr(board_kinds.Board, method) or method == "names", \
                (kind.kind, method)


def test_the_shipped_games_validate_with_no_warning():
    from rulewright.interpreter.api import load_rules, shipped_games
    for name, path in shipped_games().items():
        assert [d.render() for d in check(load_rules(str(path)))] == [], name
