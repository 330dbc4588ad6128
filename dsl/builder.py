"""The tree builder of values and statements: a Lark Transformer that turns the parse tree into
dsl/ast.py nodes, each with its span (the declarations of a whole file: dsl/declarations.py).

It also reads what the grammar leaves as text: a string's escapes and its {holes} (each parsed as an
expression, with its place in the file), and the checks a grammar cannot state (a number too large,
a part of a choice given twice). Those raise a located RulesSyntaxError.
"""
from __future__ import annotations

import ast as pyast
import re
import warnings
from typing import Callable

import attrs
from lark import Token, Transformer, v_args

from rulewright.dsl import ast
from rulewright.dsl.errors import Diagnostic, RulesSyntaxError
from rulewright.dsl.grammar import source_lines
from rulewright.dsl.texts import lone_surrogate, shown

_HOLE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")
_ESCAPE = re.compile(r"\\(N\{[^}]*\}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|.)")


def _raw_offset(raw: str, value: str, index: int) -> int:
    """Where character ``index`` of a string's decoded value stands in its source text (quotes excluded):
    escapes such as \\" take two characters in the source for one in the value."""
    inner = raw[1:-1]
    if "\\" not in inner:
        return index
    offsets, pos = [], 0
    for m in _ESCAPE.finditer(inner):
        offsets.extend(range(pos, m.start()))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                width = len(pyast.literal_eval('"' + m.group(0) + '"'))
            except (ValueError, SyntaxError):
                width = len(m.group(0))
        offsets.extend([m.start()] * width)
        pos = m.end()
    offsets.extend(range(pos, len(inner)))
    return offsets[index] if len(offsets) == len(value) and index < len(offsets) else index


class _AltName(str):
    """The name an alternative is given with 'as NAME', on its way to its alternative."""


@attrs.frozen
class _Texts:
    """Texts in a row (one text written over several lines) on their way from text to their statement."""
    tokens: tuple


@attrs.frozen
class _Named:
    """A named argument on its way from named_arg to args: 'count: 2'."""
    name: str
    value: object
    span: ast.Span


@v_args(meta=True)
class Builder(Transformer):
    """Builds ast nodes from the parse tree, giving each its span.

    ``parse_hole(text, filename, line, column, source_line)`` parses the text of a {hole} found at
    (line, column) of the file: the front end's parse_expr (given, so this module does not import it)."""

    def __init__(self, filename: str, source: str, parse_hole: Callable, line_offset: int = 0,
                 column_offset: int = 0, hole_line: str = ""):
        super().__init__()
        self.filename = filename
        self.parse_hole = parse_hole
        self.source = source
        self.line_offset = line_offset
        self.column_offset = column_offset
        self.hole_line = hole_line  # inside a {hole}: the file's line that holds it
        self._split = None  # the source's lines, once asked for

    def _span(self, meta) -> ast.Span:
        if getattr(meta, "empty", True):
            return ast.Span(self.filename, 0, 0)
        column = meta.column + (self.column_offset if meta.line == 1 else 0)
        end_column = meta.end_column + (self.column_offset if meta.end_line == 1 else 0)
        return ast.Span(self.filename, meta.line + self.line_offset, column,
                        meta.end_line + self.line_offset, end_column)

    def _source_line(self, line: int) -> str:
        if self.hole_line:
            return self.hole_line
        if self._split is None:  # split once: every {hole} and every text asks for its line
            self._split = source_lines(self.source)
        lines = self._split
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def _plain(self, tok: Token, what: str) -> str:
        """A string that is plain text (a game's name, a message, an option value): no {holes}."""
        value = self._string(tok)
        if isinstance(value, ast.Literal):
            return value.value
        span = self._tok_span(tok)
        raise RulesSyntaxError(Diagnostic(f"{what} is plain text: it cannot hold {{...}}", self.filename,
                                          span.line, span.column, self._source_line(span.line),
                                          "write {{ and }} for braces"))

    def _int(self, tok: Token) -> int:
        if len(tok) > 18:  # far beyond any count in a game, and beyond what saves and JSON keep exact
            span = self._tok_span(tok)
            raise RulesSyntaxError(Diagnostic("this number is too large", self.filename, span.line, span.column,
                                              self._source_line(span.line)))
        return int(tok)

    def _tok_span(self, tok: Token) -> ast.Span:
        column = tok.column + (self.column_offset if tok.line == 1 else 0)
        return ast.Span(self.filename, tok.line + self.line_offset, column)

    # -- strings and templates
    def text(self, meta, c):
        return _Texts(tuple(c))

    def _string(self, tok):
        """A text's Literal, or its Template when it has {holes}; texts in a row are joined."""
        if not isinstance(tok, _Texts):
            return self._one_string(tok)
        pieces = [self._one_string(t) for t in tok.tokens]
        if len(pieces) == 1:
            return pieces[0]
        parts: list = []
        for piece in pieces:
            for part in (piece.value,) if isinstance(piece, ast.Literal) else piece.parts:
                if isinstance(part, str) and parts and isinstance(parts[-1], str):
                    parts[-1] += part
                else:
                    parts.append(part)
        if all(isinstance(p, str) for p in parts):
            return ast.Literal("".join(parts), span=pieces[0].span)
        return ast.Template(tuple(parts), span=pieces[0].span)

    def _one_string(self, tok: Token):
        raw = str(tok)
        try:
            with warnings.catch_warnings():  # "\\d" warns (an error under -W error): keep it as written
                warnings.simplefilter("ignore")
                value = pyast.literal_eval(raw)
        except (ValueError, SyntaxError):
            value = raw[1:-1]
        span = self._tok_span(tok)
        if (bad := lone_surrogate(value)) is not None:  # no output could write it (dsl/texts.py)
            raise RulesSyntaxError(Diagnostic(
                f"{shown(value[bad])} is half of a character (a lone surrogate): a text cannot hold it",
                self.filename, span.line, span.column + 1 + _raw_offset(raw, value, bad),
                self._source_line(span.line), "write the character itself, or \\U and its 8 hex digits"))
        if "{" not in value:
            return ast.Literal(value.replace("}}", "}"), span=span)
        parts: list = []
        pos = 0
        for m in _HOLE.finditer(value):
            if m.start() > pos:
                parts.append(value[pos:m.start()])
            if m.group(0) == "{{":
                parts.append("{")
            elif m.group(0) == "}}":
                parts.append("}")
            else:
                # the hole's column: the string's column + 1 for the quote + its offset in the raw text
                parts.append(self.parse_hole(m.group(1), self.filename, span.line,
                                        span.column + 1 + _raw_offset(raw, value, m.start(1)),
                                        self._source_line(span.line)))
            pos = m.end()
        if pos < len(value):
            parts.append(value[pos:])
        if all(isinstance(p, str) for p in parts):  # only {{ and }}: plain text after all
            return ast.Literal("".join(parts), span=span)
        return ast.Template(tuple(parts), span=span)

    # -- literals
    def int_lit(self, meta, c):
        return ast.Literal(self._int(c[0]), span=self._span(meta))

    def neg_int_lit(self, meta, c):
        return ast.Literal(-self._int(c[0]), span=self._span(meta))

    def string(self, meta, c):
        return self._string(c[0])

    def joined_text(self, meta, c):
        return self._string(_Texts(tuple(c)))

    def symbol(self, meta, c):
        return ast.Name(str(c[0]), span=self._span(meta))

    def true(self, meta, c):
        return ast.Literal(True, span=self._span(meta))

    def false(self, meta, c):
        return ast.Literal(False, span=self._span(meta))

    def none(self, meta, c):
        return ast.Literal(None, span=self._span(meta))

    # -- expressions
    def name(self, meta, c):
        return ast.Name(str(c[0]), span=self._span(meta))

    def list_lit(self, meta, c):
        return ast.ListLit(tuple(c), span=self._span(meta))

    def binder(self, meta, c):
        var, source, *rest = c
        parts = {part[0]: part[1:] for part in rest}
        where, = parts.get("where", (None,))
        body, descending = parts.get("body", (None, False))
        return ast.Binder(str(var), source, where, body, descending, span=self._span(meta))

    def binder_where(self, meta, c):
        return ("where", c[0])

    def binder_body(self, meta, c):
        return ("body", c[0], len(c) > 1 and str(c[1]) == "descending")

    def map_lit(self, meta, c):
        return ast.MapLit(tuple(c), span=self._span(meta))

    def map_item(self, meta, c):
        return (c[0], c[1])

    def list_comp(self, meta, c):
        return ast.ListComp(c[0], span=self._span(meta))

    def quantifier(self, meta, c):
        func, binder = c
        if not isinstance(func, ast.Name):
            raise RulesSyntaxError(Diagnostic("only a named function takes 'x in list' arguments", self.filename,
                                              func.span.line, func.span.column, self._source_line(func.span.line),
                                              "for example count(x in xs where ...)"))
        return ast.Quantifier(func.id, binder, span=self._span(meta))

    def attr(self, meta, c):
        return ast.Attr(c[0], str(c[1]), span=self._span(meta))

    def index(self, meta, c):
        return ast.Index(c[0], c[1], span=self._span(meta))

    def call(self, meta, c):
        func = c[0]
        args, kwargs, names_at = c[1] if len(c) > 1 else ((), (), ())
        return ast.Call(func, args, kwargs, span=self._span(meta), names_at=names_at)

    def args(self, meta, c):
        """(positional arguments, (name, value) pairs, the span of each name)."""
        named = [x for x in c if isinstance(x, _Named)]
        return (tuple(x for x in c if not isinstance(x, _Named)), tuple((x.name, x.value) for x in named),
                tuple(x.span for x in named))

    def named_arg(self, meta, c):
        return _Named(str(c[0]), c[1], self._tok_span(c[0]))

    def binop(self, meta, c):
        return ast.BinOp(str(c[1]), c[0], c[2], span=self._span(meta))

    def compare(self, meta, c):
        return ast.Compare(str(c[1]), c[0], c[2], span=self._span(meta))

    def in_op(self, meta, c):
        return ast.Compare("in", c[0], c[1], span=self._span(meta))

    def not_in_op(self, meta, c):
        return ast.Compare("not in", c[0], c[1], span=self._span(meta))

    def is_op(self, meta, c, op="=="):
        """'x is discard': the member x is, tag(x), compared with the member's name."""
        span = self._span(meta)
        return ast.Compare(op, ast.Call(ast.Name("tag", span=span), (c[0],), (), span=span),
                           ast.Name(str(c[1]), span=self._tok_span(c[1])), span=span)

    def is_not_op(self, meta, c):
        return self.is_op(meta, c, "!=")

    def and_op(self, meta, c):
        return ast.BoolOp("and", c[0], c[1], span=self._span(meta))

    def or_op(self, meta, c):
        return ast.BoolOp("or", c[0], c[1], span=self._span(meta))

    def not_op(self, meta, c):
        return ast.Not(c[0], span=self._span(meta))

    def neg(self, meta, c):
        return ast.Neg(c[0], span=self._span(meta))

    def cond_expr(self, meta, c):
        return ast.Cond(c[1], c[0], c[2], span=self._span(meta))

    def match_value(self, meta, c):
        subject, *arms = c
        orelse = [a[1] for a in arms if a[0] == "else"]
        if len(orelse) > 1 or orelse and arms[-1][0] != "else":
            raise RulesSyntaxError(Diagnostic("'else' is the last arm of a 'match', and there is one", self.filename,
                                              meta.line, meta.column, self._source_line(meta.line)))
        return ast.Match(subject, tuple(a[1:] for a in arms if a[0] == "arm"), orelse[0] if orelse else None,
                         span=self._span(meta))

    def match_test(self, meta, c):
        orelse = c[-1][1] if c[-1][0] == "else" else None
        arms = tuple(a[1:] for a in c if a[0] == "arm")
        return ast.Match(None, arms, orelse, span=self._span(meta))

    def match_arm(self, meta, c):
        if len(c) == 1:  # the else arm
            return c[0]
        return ("arm", tuple(c[:-1]), c[-1])

    def else_arm(self, meta, c):
        return ("else", c[0])

    def test_arm(self, meta, c):
        return ("arm", (c[0],), c[1])

    # -- statements
    def block(self, meta, c):
        return tuple(c)

    def let_stmt(self, meta, c):
        return ast.Let(str(c[0]), c[1], span=self._span(meta))

    def assign_stmt(self, meta, c):
        return ast.Assign(c[0], c[1], span=self._span(meta))

    def aug_stmt(self, meta, c):
        return ast.AugAssign(c[0], str(c[1])[0], c[2], span=self._span(meta))

    def call_stmt(self, meta, c):
        args, kwargs, names_at = c[1] if len(c) > 1 else ((), (), ())
        span = self._span(meta)
        return ast.CallStmt(ast.Call(c[0], args, kwargs, span=span, names_at=names_at), span=span)

    def pass_stmt(self, meta, c):
        return ast.Pass(span=self._span(meta))

    def end_stmt(self, meta, c):
        return ast.EndGame(span=self._span(meta))

    def win_stmt(self, meta, c):
        return ast.Win(c[0], span=self._span(meta))

    def log_stmt(self, meta, c):
        return ast.Log(self._string(c[0]), c[1] if len(c) > 1 else None, span=self._span(meta))

    def reveal_stmt(self, meta, c):
        return ast.Reveal(c[0], self._string(c[1]) if len(c) > 1 else None, span=self._span(meta))

    def add_stmt(self, meta, c):
        return ast.Add(c[0], c[1], len(c) > 2, span=self._span(meta))

    def remove_stmt(self, meta, c):
        return ast.Remove(c[0], c[1], span=self._span(meta))

    def move_stmt(self, meta, c):
        return ast.MoveItem(c[0], c[1], c[2], len(c) > 3, span=self._span(meta))

    def shuffle_stmt(self, meta, c):
        return ast.Shuffle(c[0], span=self._span(meta))

    def draw_stmt(self, meta, c):
        return ast.Draw(str(c[0]), c[1], span=self._span(meta))

    def return_stmt(self, meta, c):
        return ast.Return(c[0] if c else None, span=self._span(meta))

    def break_stmt(self, meta, c):
        return ast.Break(span=self._span(meta))

    def fail_stmt(self, meta, c):
        return ast.Fail(self._string(c[0]), span=self._span(meta))

    def turn_stmt(self, meta, c):
        return ast.TakeTurn(c[0], span=self._span(meta))

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        orelse: tuple = ()
        for extra in c[2:]:
            if extra[0] == "elif":
                branches.append(extra[1:])
            else:
                orelse = extra[1]
        return ast.If(tuple(branches), orelse, span=self._span(meta))

    def elif_clause(self, meta, c):
        return ("elif", c[0], c[1])

    def else_clause(self, meta, c):
        return ("else", c[0])

    def for_stmt(self, meta, c):
        return ast.For(str(c[0]), c[1], c[2], span=self._span(meta))

    def while_stmt(self, meta, c):
        return ast.While(c[0], c[1], span=self._span(meta))

    def repeat_stmt(self, meta, c):
        return ast.Repeat(c[0], c[1], span=self._span(meta))

    def step_stmt(self, meta, c):
        label = self._string(c[0])
        return ast.Step(label.value if isinstance(label, ast.Literal) else str(c[0])[1:-1], c[1], span=self._span(meta))

    def _choose(self, meta, var, source, opts) -> ast.Choose:
        fields = {}
        for kind, value in opts:
            if kind in fields:
                word = {"text": "as"}.get(kind, kind)
                raise RulesSyntaxError(Diagnostic(f"'{word}' is given twice in this choice", self.filename,
                                                  meta.line, meta.column, self._source_line(meta.line),
                                                  "keep one"))
            fields[kind] = value
        return ast.Choose(str(var), source, fields.get("where"), fields.get("by"), fields.get("text"),
                          fields.get("optional"), "secretly" in fields, fields.get("shown"), "automatic" in fields,
                          fields.get("prompt"), span=self._span(meta))

    def choose_stmt(self, meta, c):
        return self._choose(meta, c[0], c[1], c[2:])

    def choose_where(self, meta, c):
        return ("where", c[0])

    def choose_by(self, meta, c):
        return ("by", c[0])

    def choose_as(self, meta, c):
        return ("text", self._string(c[0]))

    def choose_optional(self, meta, c):
        return ("optional", self._string(c[0]))

    def choose_secretly(self, meta, c):
        return ("secretly", True)

    def choose_shown(self, meta, c):
        return ("shown", self._string(c[0]))

    def choose_automatic(self, meta, c):
        return ("automatic", True)

    def choose_prompt(self, meta, c):
        return ("prompt", self._string(c[0]))

    def choose_block(self, meta, c):
        given = [x for x in c if isinstance(x, tuple)]
        opts = dict(given)
        if len(opts) < len(given):
            kind = next(k for i, (k, _) in enumerate(given) if k in dict(given[:i]))
            raise RulesSyntaxError(Diagnostic(f"'{kind}' is given twice in this choice", self.filename, meta.line,
                                              meta.column, self._source_line(meta.line), "keep one"))
        alternatives = tuple(x for x in c if not isinstance(x, tuple))
        named = [a for a in alternatives if a.name is not None]
        twice = next((a for i, a in enumerate(named) if a.name in [b.name for b in named[:i]]), None)
        if twice is not None:
            raise RulesSyntaxError(Diagnostic(f"two alternatives of this choice are named '{twice.name}'", self.filename,
                                              twice.span.line, twice.span.column, self._source_line(twice.span.line),
                                              "give each its own name: errata address an alternative by it"))
        return ast.ChooseBlock(opts.get("by"), alternatives, "secretly" in opts, opts.get("prompt"),
                               span=self._span(meta))

    def alternative(self, meta, c):
        named = [x for x in c[1:-1] if isinstance(x, _AltName)]
        guard = next((x for x in c[1:-1] if not isinstance(x, _AltName)), None)
        return ast.Alternative(self.alt_text(c[0]), guard, c[-1], name=str(named[0]) if named else None,
                               span=self._span(meta))

    def alt_name(self, meta, c):
        return _AltName(c[0])

    def alt_text(self, tok) -> str:
        """An alternative's text as written ({holes} and all: it is its move text, and what errata name it by);
        an empty one is refused, since no move and no erratum could name it."""
        value = self._string(tok)
        text = value.value if isinstance(value, ast.Literal) else str(tok)[1:-1]
        if not text.strip():
            span = self._tok_span(tok)
            raise RulesSyntaxError(Diagnostic("an alternative's text is empty", self.filename, span.line, span.column,
                                              self._source_line(span.line),
                                              "write what the move does, as a player would read it: \"rest\":"))
        return text

    def choose_each(self, meta, c):
        pvar, players, mode, var, source, *rest = c
        body = rest[-1]
        choice = self._choose(meta, var, source, rest[:-1])
        window = mode == "may"
        if window:  # a response may always be declined; a player with nothing else is not asked
            decline = choice.optional if choice.optional is not None else ast.Literal("pass", span=self._span(meta))
            choice = attrs.evolve(choice, optional=decline, automatic=True, secret=True)
        return ast.ChooseEach(str(pvar), players, choice, body, window, span=self._span(meta))

    def each_at_once(self, meta, c):
        return "secretly"

    def each_may(self, meta, c):
        return "may"

    def each_secretly(self, meta, c):
        """A loop over the players in which every decision of the block is made by the player of the
        turn through it, in secret, and every log line is told to that player only."""
        pvar, players, body = c
        player = ast.Name(str(pvar), span=self._span(meta))

        def secret(n):
            if isinstance(n, (ast.Choose, ast.ChooseBlock)):
                return attrs.evolve(n, by=n.by if n.by is not None else player, secret=True)
            if isinstance(n, ast.Log) and n.to is None:
                return attrs.evolve(n, to=player)
            return n
        return ast.For(str(pvar), players, ast.rewrite(body, secret), span=self._span(meta))
