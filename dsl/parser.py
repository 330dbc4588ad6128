"""The parser's front end: `parse` turns rules text into an ast.RulesFile, `parse_expr` the text of a
{hole} into an expression.

Lark's LALR parser (dsl/grammar.py) reads the text; the builders (dsl/builder.py, dsl/declarations.py)
make the ast nodes. Every Lark exception becomes a RulesSyntaxError carrying file, line, column, the
source line and a hint (dsl/syntax_errors.py), so a user never sees a parser traceback.
"""
from __future__ import annotations

from lark import Tree
from lark.exceptions import UnexpectedInput, VisitError
from lark.indenter import DedentError

from rulewright.dsl import ast
from rulewright.dsl.builder import Builder
from rulewright.dsl.declarations import RulesBuilder
from rulewright.dsl.errors import Diagnostic, RulesSyntaxError
from rulewright.dsl.grammar import lark as _lark, source_lines
from rulewright.dsl.syntax_errors import hole_syntax_error, indentation_error, syntax_error

# A rules file is text a person writes: the largest shipped one is 70 kB. Parsing takes some 250 times
# the text's size in memory, and checking it some seconds a 100 kB: the cap keeps any file (or a
# stranger's 'extends') far from a GB, and its 'validate' under 5 CPU-seconds (benchmarks/validate.py).
MAX_RULES_BYTES = 150_000


def parse(text: str, filename: str = "<rules>") -> ast.RulesFile:
    """Parse a whole rules file into an ast.RulesFile."""
    if not isinstance(text, str):
        raise TypeError(f"parse() takes the rules as text, not {type(text).__name__}")
    if len(text) > MAX_RULES_BYTES:
        raise RulesSyntaxError(Diagnostic(f"these rules are {len(text):,} characters long; the limit is "
                                          f"{MAX_RULES_BYTES:,}", filename, 1, 1, "",
                                          "a game's rules fit in far less: split out long texts"))
    text = text.removeprefix("\ufeff")  # the byte-order mark some editors write first
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = _lark().parse(text, start="start")
    except DedentError:
        raise indentation_error(text, filename) from None
    except UnexpectedInput as exc:
        raise syntax_error(exc, text, filename) from None
    _check_depth(tree, text, filename)
    return ast.RulesFile(filename, text, tuple(_build(RulesBuilder(filename, text, parse_expr), tree)))


def _build(builder: Builder, tree):
    """Run the builder; a RulesSyntaxError raised inside it (even in a nested {hole}) comes out as itself."""
    try:
        return builder.transform(tree)
    except VisitError as exc:
        orig = exc.orig_exc
        while isinstance(orig, VisitError):
            orig = orig.orig_exc
        if isinstance(orig, RulesSyntaxError):
            raise orig from None
        raise


# The checker, the compiler and the compiled closures all recurse over the tree: refuse nesting
# deep enough to exhaust Python's stack (no real rulebook comes near it).
MAX_DEPTH = 150


def _check_depth(tree, text: str, filename: str) -> None:
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            meta = node.meta
            line, column = (meta.line, meta.column) if not getattr(meta, "empty", True) else (1, 1)
            raise RulesSyntaxError(Diagnostic(
                f"this nests more than {MAX_DEPTH} levels deep", filename, line, column, source_lines(text)[line - 1],
                "split the expression with 'let', or a deep block into procedures"))
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def parse_expr(text: str, filename: str = "<expr>", line: int = 1, column: int = 1, source_line: str = ""):
    """Parse one expression (used for ``{holes}`` in strings and by tests).

    ``line``, ``column`` and ``source_line`` place the text inside the file it came from, so an error
    in a hole points at the file's line, not at the hole alone.
    """
    if not text.strip():
        raise RulesSyntaxError(Diagnostic("'{}' holds no expression", filename, line, max(column - 1, 1),
                                          source_line or text, "write {{ and }} for braces in a text"))
    try:
        tree = _lark().parse(text, start="expr")
    except UnexpectedInput as exc:
        raise hole_syntax_error(exc, text, filename, line, column, source_line) from None
    _check_depth(tree, text, filename)
    return _build(Builder(filename, text, parse_expr, line - 1, column - 1, source_line), tree)
