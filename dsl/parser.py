"""The parser wrapper: loads the grammar once and turns rules text into an AST.

Every Lark exception becomes a RulesSyntaxError carrying file, line, column, the source line and a
hint, so a user never sees a parser traceback.
"""
from __future__ import annotations

import ast as pyast
import functools
import re
import warnings
from pathlib import Path

import attrs
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter

from rulewright.dsl import ast
from rulewright.dsl.errors import Diagnostic, RulesSyntaxError, suggest
from rulewright.dsl.texts import lone_surrogate, shown

GRAMMAR = Path(__file__).with_name("rules.lark")


class _RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


@functools.cache
def _lark() -> Lark:
    # Building the parser tables takes longer than parsing a game: Lark keeps them in a file (it checks
    # the grammar, its options and its own version before it reads one back)
    return Lark(GRAMMAR.read_text(), parser="lalr", postlex=_RulesIndenter(),
                start=["start", "expr"], propagate_positions=True, maybe_placeholders=False,
                cache=_lark_cache_file())


def _lark_cache_file():
    from rulewright.dsl import cache
    where = cache.folder()
    if where is None:
        return False
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return str(where / "grammar.lark-cache")


# Readable names for the terminals a parse error can expect.
_TERMINAL_NAMES = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "_NL": "end of line",
    "_INDENT": "an indented block", "_DEDENT": "end of block", "COLON": "':'", "LPAR": "'('",
    "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "EQUAL": "'='", "DOT": "'.'",
    "COMP_OP": "a comparison", "$END": "end of file",
}


def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[terminal]
    pattern = _lark().get_terminal(terminal).pattern if terminal in _lark()._terminals_dict else None
    if pattern is not None and pattern.type == "str":
        return f"'{pattern.value}'"
    return terminal.lower()


def _lines(text: str) -> list[str]:
    """The lines as Lark counts them: only '\\n' ends a line (a lone '\\r' or form feed does not)."""
    return [line.rstrip("\r") for line in text.split("\n")]


def _syntax_error(exc: UnexpectedInput, text: str, filename: str, statement: bool = True) -> RulesSyntaxError:
    """The diagnostic for a parse error. ``statement`` is false for the text of a {hole} (an expression)."""
    lines = _lines(text)
    if lines and lines[-1] == "" and len(lines) > 1:
        lines.pop()
    line = getattr(exc, "line", 0) or 0
    column = getattr(exc, "column", 0) or 0
    token = getattr(exc, "token", None)
    if token is not None and token.type == "_INDENT" and token.end_line:  # it borrows the newline's place
        line, column = token.end_line, token.end_column
    if line <= 0:  # an error at end of input
        line = max(len(lines), 1)
        column = len(lines[-1]) + 1 if lines else 1
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    slip = _slip(exc, text, source_line, line, column, statement)
    if slip is not None:
        message, column, hint = slip
        return RulesSyntaxError(Diagnostic(message, filename, line, column, source_line, hint))
    hint = ""
    if isinstance(exc, UnexpectedCharacters):
        message = f"unexpected character {exc.char!r}"
        if exc.char == '"':
            message = "this string is never closed"
            hint = 'end it with " on the same line (write \\" for a quote inside it)'
        elif exc.char == "\r":
            hint = "end lines with a newline ('\\n' or '\\r\\n'), not a lone carriage return"
    elif isinstance(exc, UnexpectedEOF):
        message = "unexpected end of file"
    else:
        token = exc.token
        message = f"unexpected {_shown(token)}"
        expected = sorted({_describe(t) for t in (exc.expected or ()) if not t.startswith("__")})
        opened = _unclosed_bracket(text, line, column)
        header = _previous_code_line(lines, line)
        first_word = source_line.split()[0] if source_line.split() else ""
        if token.type == "_NL" and "COLON" in (exc.expected or ()):
            hint = "a block header ends with ':'"
        elif token.type == "_INDENT" and source_line.lstrip().startswith('"') \
                and header.split("#", 1)[0].rstrip().endswith('"'):
            hint = "to go on with a text on the next line, end this line with '\\'"
        elif token.type == "_INDENT":
            hint = "this line is indented more than the line before; only a line ending with ':' opens a block"
        elif opened is not None:
            hint = f"the {opened[0]!r} at line {opened[1]}, column {opened[2]} is never closed"
        elif header.rstrip().endswith(":") and _indent(source_line) <= _indent(header) \
                and column == _indent(source_line) + 1:
            message = "expected an indented block after ':'"
            hint = "indent the lines of the block under the line that ends with ':'"
        elif token.type == "EQUAL" and (first_word in ("if", "elif", "while", "require", "end")
                                        or " where " in source_line):
            hint = "to compare two values write '=='; a single '=' gives a variable a value"
        elif first_word in ("elif", "else", "else:") and token.line == line:
            hint = f"'{first_word.rstrip(':')}' follows an 'if' block, at the same indentation as the 'if'"
        elif {"INT", "NAME", "STRING"} <= set(exc.expected or ()):
            hint = "expected a value here: a number, a name, a text in quotes, a list [...]"
        elif "ELSE" in (exc.expected or ()) and " if " in source_line[:column] \
                and token.type in ("_NL", "RPAR", "RSQB", "RBRACE", "COMMA"):
            # 'x if c' is a value only with the value for when c fails
            message = "expected 'else': a value with 'if' needs the value for when the test fails"
            hint = "write 'x if test else y', or an 'if' statement for a change made only when the test holds"
        elif expected and len(expected) <= 6:
            hint = "expected " + ", ".join(expected)
    return RulesSyntaxError(Diagnostic(message, filename, line, column, source_line, hint))


def _shown(token: Token) -> str:
    return ("end of line" if token.type == "_NL" else
            "end of file" if token.type == "$END" else
            "indentation" if token.type == "_INDENT" else
            "end of block" if token.type == "_DEDENT" else repr(str(token)))


# -- the common slips of a newcomer (often from Python, C or JavaScript), each with its own hint

# Words of other languages for a keyword of this one, where a 'did you mean' cannot guess it.
_KEYWORD_SPELLINGS = {"elsif": "elif", "elseif": "elif", "elsf": "elif", "print": "log", "const": "let",
                      "foreach": "for", "loop": "repeat", "yield": "return", "raise": "fail", "throw": "fail"}
_FUNCTION_WORDS = ("function", "func", "fn", "fun", "sub", "proc")
_DEF_HINT = "a def is one expression: 'def {0} = ...'; for a block of statements write 'procedure {0}:'"
_DEF_LINES_HINT = ("a def's indented lines are 'let' lines, then the value it gives; for a block of statements "
                   "write 'procedure {0}:'")
_QUOTE_HINT = 'inside a string, write \\" for a quote (also inside {...})'
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _slip(exc: UnexpectedInput, text: str, source_line: str, line: int, column: int, statement: bool):
    """(message, column, hint) for a common slip at the error, or None to describe the error plainly."""
    before, after = source_line[:column - 1], source_line[column - 1:]
    token = getattr(exc, "token", None)
    if isinstance(exc, UnexpectedCharacters):
        if exc.char == "&":
            word = "&&" if after.startswith("&&") else "&"
            return f"unexpected '{word}'", column, "write 'and'"
        if exc.char == "!" and not after.startswith("!="):
            return "unexpected '!'", column, "write 'not'"
    quote = _quote_ending_a_hole(source_line, column)
    if quote is not None and (token is None or token.line == line):
        return "this string ends at the quote inside {...}", quote, _QUOTE_HINT
    if not isinstance(exc, UnexpectedToken) or token.line != line:
        return None
    value = str(token)
    if token.type == "VBAR" and not before.rstrip().endswith("|") and _first_word(source_line) != "option":
        return f"unexpected '{'||' if after.startswith('||') else '|'}'", column, "write 'or'"
    if value == ">" and before.endswith("<"):
        return "unexpected '<>'", column - 1, "write '!='"
    if token.type != "NAME" and re.search(r"\w\(([^()]*,)?\s*[A-Za-z_]\w*\s*:[^()]*,\s*$", before):
        return (f"unexpected {_shown(token)}", column,
                "after a field given by name, give the rest by name too: piece(owner: p, heading: n)")
    if token.type == "IF" and re.fullmatch(r"\s*else\s+", before):
        return "unexpected 'if' after 'else'", column, "write 'elif' for 'else if'"
    if not statement:
        return None
    first = _first_word(source_line)
    code = source_line.split("#", 1)[0].rstrip()
    if first == "def" and (token.type == "COLON" or token.type == "_NL" and (
            "EQUAL" in (exc.expected or ()) or code.endswith("="))):
        return f"unexpected {_shown(token)}", column, _DEF_HINT.format(_signature(source_line))
    header = _enclosing_header(text, line)
    if header.startswith("def ") and header.rstrip().endswith("="):
        return f"unexpected {_shown(token)}", column, _DEF_LINES_HINT.format(_signature(header))
    if first and _unclosed_bracket(text, line, column) is None:
        return _misspelled_keyword(exc, text, source_line, column, first)
    return None


def _enclosing_header(text: str, line: int) -> str:
    """The nearest line above ``line`` indented less than it (its block's header), comments dropped."""
    lines = _lines(text)
    if not 0 < line <= len(lines):
        return ""
    own = _indent(lines[line - 1])
    for raw in reversed(lines[:line - 1]):
        code = raw.split("#", 1)[0]
        if code.strip() and _indent(code) < own:
            return code.strip()
    return ""


def _first_word(source_line: str) -> str:
    m = _WORD.match(source_line.lstrip())
    return m.group(0) if m else ""


def _signature(source_line: str) -> str:
    """'name(params)' of a def or function line, as written."""
    m = re.match(r"\s*\w+\s+([A-Za-z_]\w*\s*\([^()]*\))", source_line)
    return re.sub(r"\s+\(", "(", m.group(1)) if m else "f(x)"


def _quote_ending_a_hole(source_line: str, column: int):
    """The column of the quote that ended a string inside a {hole} ('"{p.name == "x"}"'), before ``column``."""
    last = None
    for m in _STRING.finditer(source_line):
        if m.end() > column - 1:
            break
        if "#" in source_line[last.end() if last else 0:m.start()]:
            return None  # a comment holds the rest of the line
        last = m
    if last is None:
        return None
    inner = last.group(0)[1:-1].replace("{{", "").replace("}}", "")
    # the hole is open where the string ended, and the rest of the line closes it and then the text
    if re.search(r"\{[^}]*$", inner) and re.search(r'\}.*"', source_line[last.end():]):
        return last.end()
    return None


def _misspelled_keyword(exc: UnexpectedToken, text: str, source_line: str, column: int, word: str):
    """A statement or declaration that starts with a word which is not its keyword: 'chose x in xs',
    'retrun x', 'procdure f():', 'function f(x):', 'var x = 1' inside a block."""
    start = _indent(source_line) + 1
    rest = source_line[start - 1 + len(word):]
    following = start + len(word) + _indent(rest)
    top, block = _keywords()
    if column == start and str(exc.token) == word:
        # the word itself is refused: where a declaration begins (a statement would have read it as a name)
        if word in _all_keywords() or not {_keyword(t) for t in exc.expected or ()} & top:
            return None
        if word in _FUNCTION_WORDS:
            keyword = "procedure" if source_line.split("#", 1)[0].rstrip().endswith(":") else "def"
            return f"unknown declaration '{word}'", start, f"did you mean '{keyword}'?"
        hint = f"did you mean '{word.lower()}'?" if word.lower() in top else suggest(word, top)
        return (f"unknown declaration '{word}'", start, hint) if hint else None
    if start == 1 or column != following or word in block or _declared(word, text):
        return None  # (a line at the left margin is a declaration: its first word was read as a keyword)
    # the word was read as a name at the start of a statement in a block, and what follows it is refused
    if word == "var":
        return ("'var' cannot start a statement in a block", start,
                "write 'let' for a new name inside a block; 'var' declares a game variable, at the top level")
    if word in top:
        return (f"'{word}' cannot start a statement in a block", start,
                f"'{word}' begins a declaration: write it at the top level, outside any block")
    if word in _FUNCTION_WORDS or word in _all_keywords():
        return None
    keyword = _KEYWORD_SPELLINGS.get(word, word.lower())
    hint = f"did you mean '{keyword}'?" if keyword in block else suggest(word, block)
    return (f"unknown statement '{word}'", start, hint) if hint else None


def _declared(word: str, text: str) -> bool:
    """Whether the rules give ``word`` a meaning as a name (then it is no misspelt keyword)."""
    if re.search(rf"\b(?:var|let|for|each|draw|choose|def|procedure|record|table|enum|display)\s+{re.escape(word)}\b",
                 text):
        return True
    return any(word in re.findall(r"\w+", params)
               for params in re.findall(r"\b(?:def|procedure)\s+\w+\s*\(([^()]*)\)", text))


def _keyword(terminal: str) -> str:
    """The word a terminal stands for, or '' when it is not a plain word ('choose', 'if', 'var')."""
    pattern = _lark()._terminals_dict[terminal].pattern if terminal in _lark()._terminals_dict else None
    if pattern is not None and pattern.type == "str" and re.fullmatch(r"[a-z]+", pattern.value):
        return pattern.value
    return ""


@functools.cache
def _all_keywords() -> frozenset:
    return frozenset(w for w in map(_keyword, _lark()._terminals_dict) if w)


@functools.cache
def _keywords() -> tuple[frozenset, frozenset]:
    """The keywords that begin a declaration, and those that begin a line in a block (statements,
    'elif', 'else'), read from the grammar: what the parser accepts at those places."""
    def words(accepted) -> frozenset:
        return frozenset(w for w in map(_keyword, accepted) if w)

    top = block = expression = frozenset()
    try:
        top = words(_lark().parse_interactive("", start="start").accepts())
        value = _lark().parse_interactive("var x = 1\n", start="start")
        for tok in value.iter_parse():
            if tok.type == "INT":
                expression = words(value.accepts())  # 'true', 'not'... begin a value, not a statement
                break
        probe = _lark().parse_interactive("turn:\n    if true:\n        pass\n    pass\n", start="start")
        for tok in probe.iter_parse():
            if tok.line == 4:
                block = words(probe.accepts())
                break
    except UnexpectedInput:  # the grammar no longer reads a probe: fewer hints, never a traceback
        pass
    return top, block - expression


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _previous_code_line(lines: list[str], line: int) -> str:
    """The last line before ``line`` that holds more than blanks and a comment."""
    for raw in reversed(lines[:max(line - 1, 0)]):
        code = raw.split("#", 1)[0]
        if code.strip():
            return code
    return ""


def _unclosed_bracket(text: str, line: int, column: int):
    """The bracket still open at (line, column) that was opened on an earlier line, as (char, line, col)."""
    stack: list = []
    pairs = {")": "(", "]": "[", "}": "{"}
    for number, raw in enumerate(_lines(text)[:line], 1):
        in_string = False
        for col, ch in enumerate(raw, 1):
            if number == line and col >= column:
                break
            if in_string:
                in_string = ch != '"' or raw[col - 2] == "\\"
            elif ch == '"':
                in_string = True
            elif ch == "#":
                break
            elif ch in "([{":
                stack.append((ch, number, col))
            elif ch in pairs and stack and stack[-1][0] == pairs[ch]:
                stack.pop()
    return stack[-1] if stack and stack[-1][1] < line else None


# A rules file is text a person writes: the largest shipped one is 70 kB. Parsing takes some 250 times
# the text's size in memory, and checking it some seconds a 100 kB: the cap keeps any file (or a
# stranger's 'extends') far from a GB, and its 'validate' under 5 CPU-seconds (benchmarks/validate.py).
MAX_RULES_BYTES = 150_000
MAX_PLAYERS = 1000  # every player has their own copy of each 'player var'


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
        line = _dedent_line(text)
        source_line = _lines(text)[line - 1]
        raise RulesSyntaxError(Diagnostic("this line's indentation matches no enclosing block", filename,
                                          line, 1, source_line, "indent by the same amount as a line above")) from None
    except UnexpectedInput as exc:
        raise _syntax_error(exc, text, filename) from None
    _check_depth(tree, text, filename)
    return ast.RulesFile(filename, text, tuple(_build(_Builder(filename, text), tree)))


def _build(builder: "_Builder", tree):
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
                f"this nests more than {MAX_DEPTH} levels deep", filename, line, column, _lines(text)[line - 1],
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
        d = _syntax_error(exc, text, filename, statement=False).diagnostic
        if d.line > 1:  # a hole holds one line: a later line means it ran past its end
            d = attrs_evolve(d, line=1, column=len(text.split("\n")[0]) + 1)
        message = d.message.replace("end of file", "end of the expression")
        raise RulesSyntaxError(attrs_evolve(d, message=message, line=line, column=column + d.column - 1,
                                            source_line=source_line or d.source_line)) from None
    _check_depth(tree, text, filename)
    return _build(_Builder(filename, text, line - 1, column - 1, source_line), tree)


def attrs_evolve(d: Diagnostic, **changes) -> Diagnostic:
    import attrs
    return attrs.evolve(d, **changes)


def _dedent_line(text: str) -> int:
    """The first line whose indentation matches no open block (for the indentation error)."""
    stack = [0]
    for number, raw in enumerate(_lines(text), 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = raw[:len(raw) - len(raw.lstrip())]
        width = indent.count(" ") + indent.count("\t") * _RulesIndenter.tab_len  # as the Indenter counts
        if width > stack[-1]:
            stack.append(width)
        else:
            while width < stack[-1]:
                stack.pop()
            if width != stack[-1]:
                return number
    return 1


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


@attrs.frozen
class _Texts:
    """Texts in a row (one text written over several lines) on their way from text to their statement."""
    tokens: tuple


@attrs.frozen
class _Named:
    """A named argument on its way from named_arg to args: 'fuel: 2'."""
    name: str
    value: object
    span: ast.Span


@attrs.frozen
class _About:
    """An option's description on its way from option_about to option_decl."""
    text: str


@attrs.frozen
class _Default:
    """A variant's new default for an option, on its way to add_values_decl."""
    value: ast.Literal


@v_args(meta=True)
class _Builder(Transformer):
    """Builds ast nodes from the parse tree, giving each its span."""

    def __init__(self, filename: str, source: str, line_offset: int = 0, column_offset: int = 0,
                 hole_line: str = ""):
        super().__init__()
        self.filename = filename
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
            self._split = _lines(self.source)
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
                parts.append(parse_expr(m.group(1), self.filename, span.line,
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
        return ast.ChooseBlock(opts.get("by"), alternatives, "secretly" in opts, opts.get("prompt"),
                               span=self._span(meta))

    def alternative(self, meta, c):
        label = self._string(c[0])
        guard = c[1] if len(c) == 3 else None
        return ast.Alternative(label.value if isinstance(label, ast.Literal) else str(c[0])[1:-1], guard, c[-1],
                               span=self._span(meta))

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

    # -- declarations
    def start(self, meta, c):
        return c

    def game_decl(self, meta, c):
        return ast.GameDecl(self._plain(c[0], "a game's name"), span=self._span(meta))

    def extends_decl(self, meta, c):
        return ast.Extends(self._plain(c[0], "the name of the base rules"), span=self._span(meta))

    def players_decl(self, meta, c):
        low = self._int(c[0])
        high = self._int(c[1]) if len(c) > 1 else low
        if high > MAX_PLAYERS:
            raise RulesSyntaxError(Diagnostic(f"a game has at most {MAX_PLAYERS} players, not {high:,}", self.filename,
                                              meta.line, meta.column, self._source_line(meta.line)))
        return ast.PlayersDecl(low, high, span=self._span(meta))

    def _fixed(self, value, what: str):
        """A literal in a declaration (an option's value, a table cell) is fixed: no {holes}."""
        if isinstance(value, ast.Template):
            raise RulesSyntaxError(Diagnostic(f"{what} is plain text: it cannot hold {{...}}", self.filename,
                                              value.span.line, value.span.column,
                                              self._source_line(value.span.line), "write {{ and }} for braces"))
        return value

    def option_decl(self, meta, c):
        values, about = [], ""
        for v in c[1:]:
            if isinstance(v, _About):
                about = v.text
                continue
            values.extend(v if isinstance(v, tuple) else [self._fixed(v, "an option's value")])
        return ast.OptionDecl(str(c[0]), tuple(values), span=self._span(meta), about=about)

    def option_about(self, meta, c):
        return _About(self._fixed(self._string(c[0]), "an option's description").value)

    def int_range(self, meta, c):
        low, high = self._int(c[0]), self._int(c[1])
        if high < low or high - low > 1000:
            raise RulesSyntaxError(Diagnostic(f"'{low}..{high}' is not a range of at most 1000 numbers",
                                              self.filename, meta.line, meta.column,
                                              self._source_line(meta.line)))
        span = self._span(meta)
        return tuple(ast.Literal(n, span=span) for n in range(low, high + 1))

    def require_decl(self, meta, c):
        return ast.Require(c[0], self._plain(c[1], "a requirement's message"), span=self._span(meta))

    def enum_decl(self, meta, c):
        members = c[1:]
        return ast.EnumDecl(str(c[0]), tuple(m if isinstance(m, str) else m.name for m in members),
                            tuple(m for m in members if isinstance(m, ast.RecordDecl)), span=self._span(meta))

    def enum_member(self, meta, c):
        """A plain member's name, or a member with data as the record of its fields."""
        if len(c) == 1:
            return str(c[0])
        fields = tuple(name for name, _default in c[1:])
        defaults = tuple((name, default) for name, default in c[1:] if default is not None)
        return ast.RecordDecl(str(c[0]), fields, (), defaults, span=self._span(meta))

    def tag_field(self, meta, c):
        return (str(c[0]), c[1][1] if len(c) > 1 else None)

    def table_decl(self, meta, c):
        columns = tuple(str(x) for x in c[1:] if isinstance(x, Token))
        rows = tuple(x for x in c[1:] if isinstance(x, ast.TableRow))
        return ast.TableDecl(str(c[0]), columns, rows, span=self._span(meta))

    def table_row(self, meta, c):
        copies, copies_at = 1, ()
        values = list(c)
        if values and isinstance(values[-1], Token):
            tok = values.pop()
            copies = self._int(tok) if tok.type == "INT" else str(tok)
            copies_at = () if tok.type == "INT" else (self._tok_span(tok),)
        values = [self._fixed(v, "a table's value") for v in values]
        return ast.TableRow(tuple(values), copies, span=self._span(meta), copies_at=copies_at)

    def board_decl(self, meta, c):
        name, *rest = c
        guard = rest.pop(0) if not isinstance(rest[0], Token) else None
        kind, *words = rest
        edges = words.pop()[1] if words and isinstance(words[-1], tuple) else ()
        spec = ast.BoardSpec(str(kind), tuple(words), edges, span=self._tok_span(kind))
        return ast.BoardDecl(str(name), guard, spec, span=self._span(meta))

    def guard(self, meta, c):
        return c[0]

    def word(self, meta, c):
        tok = c[0]
        span = self._tok_span(tok)
        return ast.Literal(self._int(tok), span=span) if tok.type == "INT" else ast.Name(str(tok), span=span)

    def by_word(self, meta, c):
        return ast.Name("by", span=self._span(meta))

    def board_lines(self, meta, c):
        return ("lines", tuple(c))

    def edge(self, meta, c):
        return (str(c[0]), tuple(str(x) for x in c[1:]), self._span(meta))

    def var_decl(self, meta, c):
        vis = c[2] if len(c) > 2 else "public"
        return ast.VarDecl(str(c[0]), c[1], False, vis, span=self._span(meta))

    def player_var_decl(self, meta, c):
        vis = c[2] if len(c) > 2 else "public"
        return ast.VarDecl(str(c[0]), c[1], True, vis, span=self._span(meta))

    def hidden(self, meta, c):
        return "hidden"

    def secret(self, meta, c):
        return "secret"

    def record_decl(self, meta, c):
        fields = tuple(name for name, _default, _vis in c[1:])
        visibility = tuple((name, vis) for name, _default, vis in c[1:] if vis is not None)
        defaults = tuple((name, default) for name, default, _vis in c[1:] if default is not None)
        return ast.RecordDecl(str(c[0]), fields, visibility, defaults, span=self._span(meta))

    def record_field(self, meta, c):
        """(name, default or None, visibility or None)."""
        default = next((x[1] for x in c[1:] if isinstance(x, tuple)), None)
        vis = next((x for x in c[1:] if isinstance(x, ast.FieldVisibility)), None)
        return (str(c[0]), default, vis)

    def field_default(self, meta, c):
        return ("default", c[0])

    def field_hidden(self, meta, c):
        return ast.FieldVisibility("hidden", None, c[0] if c else None, span=self._span(meta))

    def field_secret(self, meta, c):
        return ast.FieldVisibility("secret", str(c[0]), c[1] if len(c) > 1 else None, span=self._span(meta))

    def field_unless(self, meta, c):
        return str(c[0])

    def params(self, meta, c):
        return tuple(str(x) for x in c)

    def def_decl(self, meta, c):
        params = c[1] if len(c) == 3 else ()
        return ast.DefDecl(str(c[0]), params, c[-1], span=self._span(meta))

    def def_block(self, meta, c):
        name, *rest = c
        params = rest.pop(0) if isinstance(rest[0], tuple) and not isinstance(rest[0], ast.LetIn) else ()
        body = rest.pop()
        for let in reversed(rest):  # each 'let' scopes over the lines after it
            body = ast.LetIn(let.name, let.value, body, span=let.span)
        return ast.DefDecl(str(name), params, body, span=self._span(meta))

    def def_let(self, meta, c):
        return ast.LetIn(str(c[0]), c[1], None, span=self._span(meta))

    def proc_decl(self, meta, c):
        params = c[1] if len(c) == 3 else ()
        return ast.ProcDecl(str(c[0]), params, c[-1], span=self._span(meta))

    def block_name(self, meta, c):
        return str(c[0])

    def block_decl(self, meta, c):
        return ast.BlockDecl(c[0], c[1], span=self._span(meta))

    def end_decl(self, meta, c):
        timing = c[1] if len(c) > 1 else "turn"
        return ast.EndWhen(c[0], timing, span=self._span(meta))

    def after_round(self, meta, c):
        return "round"

    def after_turn(self, meta, c):
        return "turn"

    def rank_decl(self, meta, c):
        return ast.RankDecl(tuple(c), span=self._span(meta))

    def rank_key(self, meta, c):
        return (str(c[0]), str(c[1]) == "ascending")

    def teams_decl(self, meta, c):
        return ast.TeamsDecl(c[0], span=self._span(meta))

    def display_decl(self, meta, c):
        return ast.DisplayDecl(str(c[0]), c[1], span=self._span(meta))

    # the words a 'display:' line may start with besides 'board', 'players' and 'table'
    SCREEN_WORDS = ("legend", "colours", "own")

    # how a picture may draw an entry ('as cards'), and the parts of a face
    LOOKS = ("card", "cards", "tokens", "pile", "track")
    FACE_PARTS = ("title", "corner", "text", "colour")

    def screen_decl(self, meta, c):
        boards = [x for x in c if isinstance(x, ast.DisplayDecl)]
        if len(boards) > 1:
            self._screen_error(boards[1].span, "a 'display:' section has one 'board' line")
        paths = [x for x in c if isinstance(x, ast.PathsDecl)]
        if len(paths) > 1:
            self._screen_error(paths[1].span, "a 'display:' section has one 'paths' line")
        faces = tuple(x for x in c if isinstance(x, ast.FaceDecl))
        named: dict = {}
        for f in faces:
            if f.name in named:
                self._screen_error(f.span, f"a second face for '{f.name}' (the first is on line {named[f.name]})")
            named[f.name] = f.span.line
        return ast.ScreenDecl(boards[0] if boards else None,
                              tuple(x for x in c if isinstance(x, ast.ScreenLine)), faces,
                              paths[0] if paths else None, span=self._span(meta))

    def screen_board(self, meta, c):
        return ast.DisplayDecl(str(c[0]), c[1], span=self._span(meta))

    def screen_paths(self, meta, c):
        return ast.PathsDecl(str(c[0]), c[1], span=self._span(meta))

    def screen_entry(self, meta, c):
        look = c[2] if len(c) > 2 else None
        return ast.ScreenEntry(self._plain(c[0], "a label"), c[1], look, span=self._span(meta))

    def _look_kind(self, tok) -> str:
        kind = str(tok)
        if kind not in self.LOOKS:
            self._screen_error(self._tok_span(tok), f"a picture cannot draw an entry as '{kind}'",
                               suggest(kind, self.LOOKS) or "as " + ", ".join(self.LOOKS))
        return kind

    def screen_look(self, meta, c):
        kind = self._look_kind(c[0])
        face = str(c[1]) if len(c) > 1 else None
        if face is not None and kind == "track":
            self._screen_error(self._tok_span(c[1]), "a track has no face: it shows numbers",
                               "as track, or as track 0..30")
        return ast.ScreenLook(kind, face, span=self._span(meta))

    def screen_look_range(self, meta, c):
        kind = self._look_kind(c[0])
        low, high = self._int(c[1]), self._int(c[2])
        if kind != "track":
            self._screen_error(self._tok_span(c[1]), f"only a track has a range of numbers, not {kind}",
                               "as track 0..30")
        if high <= low or high - low > 1000:
            self._screen_error(self._tok_span(c[1]), f"'{low}..{high}' is not a track of 2 to 1000 numbers")
        return ast.ScreenLook(kind, None, low, high, span=self._span(meta))

    def screen_face(self, meta, c):
        name, param = str(c[0]), str(c[1])
        parts, gauges, seen = [], [], set()
        for part in c[2:]:
            if part[0] == "gauge":
                gauges.append(part[1:])
                continue
            word, expr, span = part
            if word not in self.FACE_PARTS:
                self._screen_error(span, f"a face has no part '{word}'",
                                   suggest(word, self.FACE_PARTS + ("gauge",))
                                   or "a face has " + ", ".join(self.FACE_PARTS) + ' and gauge "Label" = value of most')
            if word in seen:
                self._screen_error(span, f"the face says its '{word}' twice")
            seen.add(word)
            parts.append((word, expr))
        return ast.FaceDecl(name, param, tuple(parts), tuple(gauges), span=self._span(meta))

    def face_part(self, meta, c):
        return (str(c[0]), c[1], self._tok_span(c[0]))

    def face_gauge(self, meta, c):
        return ("gauge", self._plain(c[0], "a gauge's label"), c[1], c[2])

    def screen_players(self, meta, c):
        return ast.ScreenLine("players", tuple(c), span=self._span(meta))

    def screen_table(self, meta, c):
        return ast.ScreenLine("table", tuple(c), span=self._span(meta))

    def screen_words(self, meta, c):
        word = str(c[0])
        if word not in self.SCREEN_WORDS:
            words = ("board", "players", "table") + self.SCREEN_WORDS
            hint = suggest(word, words) or "a line of 'display:' starts with " + ", ".join(words)
            self._screen_error(self._tok_span(c[0]), f"'{word}' is not a line of 'display:'", hint)
        return ast.ScreenLine(word, tuple(c[1:]), span=self._span(meta))

    def observe_decl(self, meta, c):
        return ast.ObserveDecl(tuple(c), span=self._span(meta))

    def _screen_error(self, span, message, hint=""):
        raise RulesSyntaxError(Diagnostic(message, self.filename, span.line, span.column,
                                          self._source_line(span.line), hint))

    def _step_overlay(self, mode, meta, c):
        label = self._plain(c[0], "a step's label")
        place = c[1] if len(c) == 3 else None
        return ast.StepOverlay(mode, label, place, c[-1], span=self._span(meta))

    def replace_step(self, meta, c):
        return self._step_overlay("replace", meta, c)

    def before_step(self, meta, c):
        return self._step_overlay("before", meta, c)

    def after_step(self, meta, c):
        return self._step_overlay("after", meta, c)

    def step_place(self, meta, c):
        return str(c[0])

    def add_rows_decl(self, meta, c):
        return ast.AddRows(str(c[0]), tuple(c[1:]), span=self._span(meta))

    def add_values_decl(self, meta, c):
        values, default = [], None
        for v in c[1:]:
            if isinstance(v, _Default):
                default = v.value
                continue
            values.extend(v if isinstance(v, tuple) else [self._fixed(v, "an option's value")])
        return ast.AddValues(str(c[0]), tuple(values), default, span=self._span(meta))

    def option_default(self, meta, c):
        if isinstance(c[0], tuple):
            raise RulesSyntaxError(Diagnostic("a default is one value, not a range", self.filename, meta.line,
                                              meta.column, self._source_line(meta.line)))
        return _Default(self._fixed(c[0], "an option's default"))

    def add_members_decl(self, meta, c):
        return ast.AddMembers(str(c[0]), tuple(str(x) for x in c[1:]), span=self._span(meta))
