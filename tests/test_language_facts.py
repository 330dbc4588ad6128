"""Each fact of the language is said once, where the construct is declared, and every pass reads it
there: a new statement or builtin that misses a fact fails here (issue 41)."""
from __future__ import annotations

import attrs
import pytest

from rulewright.dsl import ast
from rulewright.interpreter.boards import registry
from rulewright.interpreter.check.checker import Checker
from rulewright.interpreter.check.secrecy.check import SecrecyCheck
from rulewright.interpreter.compile.codegen import ExprSource
from rulewright.interpreter.compile.statements import ProcCompiler
from rulewright.interpreter.engine import limits
from rulewright.interpreter.engine.builtins import BUILTINS, FRESH, GIVES, PASSED_ON, QUANTIFIERS, Builtin

STATEMENTS = {cls.__name__ for cls in ast.STATEMENTS}
EXPRESSIONS = ExprSource.visited()


def test_every_pass_takes_every_statement_and_expression():
    assert ProcCompiler.visited() == STATEMENTS
    assert Checker.visited() == STATEMENTS | EXPRESSIONS
    # the secrecy check reads a literal as public before dispatching (labels.Labels.label)
    assert SecrecyCheck.visited() | {"Literal"} == STATEMENTS | EXPRESSIONS
    assert not STATEMENTS & EXPRESSIONS


@pytest.mark.parametrize("cls", ast.STATEMENTS, ids=lambda c: c.__name__)
def test_a_statement_declares_its_bindings_blocks_and_writes(cls):
    fields = {a.name for a in attrs.fields(cls)}
    for field, what in cls.BINDS:
        assert field in fields and what
    for field, shape in cls.BLOCKS:
        assert field in fields and shape in (ast.BLOCK, ast.PAIRS, ast.ALTERNATIVES)
    assert set(cls.CHANGES) <= fields
    # a field that holds statements is one of its blocks
    held = {"body", "orelse", "branches", "alternatives"} & fields
    assert held == {field for field, _shape in cls.BLOCKS}


def test_a_statement_without_its_facts_cannot_be_declared():
    with pytest.raises(TypeError):
        ast.statement(binds=(), blocks=())  # changes left out


def test_blocks_and_bindings_are_read_from_the_declaration():
    body = (ast.Pass(),)
    loop = ast.For("x", ast.Name("xs"), body)
    assert list(ast.blocks_of(loop)) == [body]
    assert list(ast.bound(loop)) == [("x", "loop variable")]
    each = ast.ChooseEach("p", ast.Name("players"), ast.Choose("c", ast.Name("xs")), body)
    assert list(ast.bound(each)) == [("p", "deciding player"), ("c", "choice")]
    move = ast.MoveItem(ast.Name("c"), ast.Name("deck"), ast.Name("hand"), False)
    assert ast.changed(move) == [ast.Name("deck"), ast.Name("hand")]
    branches = ast.If(((ast.Name("a"), body),), (ast.Break(),))
    assert ast.with_blocks(branches, lambda b: b + b) == ast.If(((ast.Name("a"), body + body),),
                                                                (ast.Break(), ast.Break()))


def _functions():
    yield from BUILTINS.items()
    for kind in registry.KINDS.values():
        yield from kind.functions.items()


def test_every_function_says_what_it_gives_back():
    for name, entry in list(_functions()) + list(QUANTIFIERS.items()):
        assert entry.gives_back in GIVES, name
    with pytest.raises(TypeError):
        Builtin(len, 1, 1)  # no gives_back


@pytest.mark.parametrize("name", [n for n, b in BUILTINS.items() if b.gives_back != "other" and b.needs == "pure"
                                  and b.max_args >= 1 and (not b.args or b.args[0] != ("number",))])
def test_a_pure_builtin_gives_back_what_it_says(name):
    """Called on a list of texts made afresh: one that passes its argument on gives the list, an item of it
    or a list of its items (the same objects), a fresh one none of them."""
    spec = BUILTINS[name]
    xs = ["".join(("word", str(i))) * 20 for i in (3, 1, 2)]  # no two the same object, none interned
    args = [xs] + [xs[0]] * (spec.min_args - 1)
    got = spec.fn(*([limits.Budget()] if spec.counts else []), *args)
    items = got if type(got) is list else [got]
    if spec.gives_back == PASSED_ON:
        assert got is xs or all(any(item is x for x in xs) for item in items)
    else:
        assert spec.gives_back == FRESH
        assert got is not xs and not any(item is x for item in items for x in xs)


def test_the_built_in_names_are_one_table():
    from rulewright.interpreter.check.symbols import symbols
    from rulewright.interpreter.compile.compiler import CompiledGame
    from rulewright.interpreter.engine.builtin_names import CONSTANTS, NAMES, RESERVED, VARIABLE
    from rulewright.dsl.parser import parse
    for name, entry in NAMES.items():
        assert entry.doc and (entry.hint if name in RESERVED else entry.role == VARIABLE), name
    rules = parse('game "G"\nplayers 3\nturn:\n    end game\n', "g.rules")
    sym = symbols(rules)
    assert set(CONSTANTS) <= sym.constants and {n for n in NAMES if n not in RESERVED} <= set(sym.vars)
    game = CompiledGame(rules, 3, {})
    assert {n: game.constants[n] for n in CONSTANTS} == {"players": [1, 2, 3], "player_count": 3}


def test_a_pass_is_told_a_node_it_was_never_taught():
    from rulewright.dsl.visitor import Visitor

    class Names(Visitor):
        def visit_Name(self, node):
            return node.id

    class Anything(Names):
        def generic_visit(self, node):
            return type(node).__name__

    assert Names().visit(ast.Name("x")) == "x"
    with pytest.raises(TypeError, match="Names cannot take a Pass: it has no visit_Pass"):
        Names().visit(ast.Pass())
    assert Anything().visit(ast.Pass()) == "Pass" and Anything().visit(ast.Name("y")) == "y"


def test_the_built_in_names_are_spelt_only_in_their_table():
    """Code speaks of 'me', 'round_number' and 'player_count' by builtin_names' constants, never by a text of
    its own ('players' and 'first_player' are also keys of saves and reports, and are not looked for)."""
    import ast as pyast
    from pathlib import Path
    from rulewright.interpreter.engine.builtin_names import ME, PLAYER_COUNT, ROUND_NUMBER
    root = Path(__file__).resolve().parent.parent
    spelt = []
    for path in [p for folder in ("interpreter", "cli", "dsl") for p in (root / folder).rglob("*.py")]:
        text = path.read_text(encoding="utf-8")
        if path.name == "builtin_names.py" or not any(f"{q}{n}{q}" in text for n in (ME, PLAYER_COUNT, ROUND_NUMBER)
                                                       for q in "'\""):
            continue  # (no quoted spelling at all: nothing to parse)
        tree = pyast.parse(text)
        docs = {id(n.body[0].value) for n in pyast.walk(tree)
                if isinstance(n, (pyast.Module, pyast.ClassDef, pyast.FunctionDef)) and n.body
                and isinstance(n.body[0], pyast.Expr)}
        spelt += [f"{path.relative_to(root)}:{n.lineno}: {n.value!r}" for n in pyast.walk(tree)
                  if isinstance(n, pyast.Constant) and n.value in (ME, PLAYER_COUNT, ROUND_NUMBER) and id(n) not in docs]
    assert spelt == []
