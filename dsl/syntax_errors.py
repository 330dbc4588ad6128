"""What a syntax error says: the message, the place and the hint for each way the parser can fail.

`syntax_error` turns a Lark exception into a RulesSyntaxError. The words of its most common messages
are data: `EXAMPLES`, each entry a message, a hint, and wrong snippets that give them (a test parses
every snippet). It asks, in this order:
1. the slips a newcomer makes (`_slip`): words and operators of other languages, a quote ending a
   {hole}, a def written as a block, a misspelt keyword. These read the text around the error.
2. the rules, each naming an entry of EXAMPLES or its own words: a string never closed, a header
   without ':', an unclosed bracket, a block not indented, '=' in a condition, what was expected.
   Some read the text; the others hold for every place where the parser expects some token, which
   no few snippets could stand for.
3. where no rule speaks, the entry whose snippet fails at the same place, found the way Lark's
   `UnexpectedInput.match_examples` finds it but keyed on the kind of token refused and the tokens
   expected and acceptable there, not on the depth of the parser's stack (Lark's matching asks for
   the same depth, and a rules file nests its blocks at every depth). A snippet added to an entry
   gives its hint at one more place.
"""
from __future__ import annotations

import functools
import re

import attrs
from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulewright.dsl.errors import Diagnostic, RulesSyntaxError, suggest
from rulewright.dsl.grammar import RulesIndenter, keyword_of, keywords, lark, source_lines

# Readable names for the terminals a parse error can expect.
_TERMINAL_NAMES = {
    "NAME": "a name", "INT": "a number", "STRING": "a string", "_NL": "end of line",
    "_INDENT": "an indented block", "_DEDENT": "end of block", "COLON": "':'", "LPAR": "'('",
    "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "EQUAL": "'='", "DOT": "'.'",
    "COMP_OP": "a comparison", "AUG_OP": "'+=', '-='", "ADD_OP": "'+', '-'",
    "MUL_OP": "'*', '/', '%'", "DIRECTION": "'ascending', 'descending'", "BOTTOM": "'at bottom'", "$END": "end of file",
}


def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[terminal]
    pattern = lark().get_terminal(terminal).pattern if terminal in lark()._terminals_dict else None
    if pattern is not None and pattern.type == "str":
        return f"'{pattern.value}'"
    return terminal.lower()


@attrs.frozen
class Example:
    """A message and a hint, and wrong snippets (whole rules texts) that give them. In ``message``,
    {token} stands for what the parser refused ('=', end of line) and {char} for the character the
    lexer could not read."""
    message: str
    hint: str
    snippets: tuple[str, ...]


_IN_A_BLOCK = "turn:\n    "  # the start of a snippet that is a statement

STRING_NOT_CLOSED = Example(
    "this string is never closed", 'end it with " on the same line (write \\" for a quote inside it)',
    ('game "T\n',))
LONE_CARRIAGE_RETURN = Example(
    "unexpected character {char}", "end lines with a newline ('\\n' or '\\r\\n'), not a lone carriage return",
    ('game "T"\rplayers 2\n',))
MISSING_COLON = Example("unexpected {token}", "a block header ends with ':'", (
    "turn\n", "procedure f()\n", "display\n",
    _IN_A_BLOCK + "if x\n", _IN_A_BLOCK + "if x.y\n", _IN_A_BLOCK + "if f(x)\n", _IN_A_BLOCK + "if xs[0]\n",
    _IN_A_BLOCK + "if 1\n", _IN_A_BLOCK + "if true\n", _IN_A_BLOCK + "if \"a\"\n", _IN_A_BLOCK + "if [x]\n",
    _IN_A_BLOCK + "if x is y\n", _IN_A_BLOCK + "for x in xs\n", _IN_A_BLOCK + "repeat 3 times\n",
    _IN_A_BLOCK + "step \"s\"\n", _IN_A_BLOCK + "choose\n", _IN_A_BLOCK + "choose by 1\n",
    _IN_A_BLOCK + "each p in players secretly\n", _IN_A_BLOCK + 'choose:\n        "a"\n', 'after step "s"\n',
))
SINGLE_EQUALS = Example("unexpected {token}", "to compare two values write '=='; a single '=' gives a variable a value", (
    _IN_A_BLOCK + "if x = 1:\n", _IN_A_BLOCK + "if x.y = 1:\n", _IN_A_BLOCK + "if f(x) = 1:\n",
    _IN_A_BLOCK + "if xs[0] = 1:\n", _IN_A_BLOCK + "if 1 = x:\n", _IN_A_BLOCK + "if true = x:\n",
    'require x = 1 else "no"\n', "end when x = 1\n", "var n = count(x in xs where x = 1)\n",
    "board b when x = 1: grid 3 by 3\n",
))
IF_WITHOUT_ELSE = Example(
    "expected 'else': a value with 'if' needs the value for when the test fails",
    "write 'x if test else y', or an 'if' statement for a change made only when the test holds", (
        "var y = 1 if x\n", "var y = 1 if x.y\n", "var y = 1 if f(x)\n", "var y = 1 if xs[0]\n",
        "var y = [1 if x]\n", "var y = f(1 if x)\n", "var y = [1 if x, 2]\n",
    ))
EXAMPLES = (STRING_NOT_CLOSED, LONE_CARRIAGE_RETURN, MISSING_COLON, SINGLE_EQUALS, IF_WITHOUT_ELSE)

def _place(exc: UnexpectedInput):
    """What an example must share with an error to stand for it: the kind of token refused and the
    tokens the parser would accept there, or the character the lexer stopped at."""
    if isinstance(exc, UnexpectedCharacters):
        return ("character", exc.char)
    if isinstance(exc, UnexpectedToken):
        return (exc.token.type, frozenset(exc.expected), frozenset(exc.accepts))
    return None


@functools.cache
def _examples_by_place() -> dict:
    """Each example's place, found once by parsing its snippets (the first example of a place wins)."""
    found: dict = {}
    for example in EXAMPLES:
        for snippet in example.snippets:
            try:
                lark().parse(snippet, start="start")
            except UnexpectedInput as exc:
                found.setdefault(_place(exc), example)
    return found


def example_for(exc: UnexpectedInput):
    """The entry of EXAMPLES whose snippets fail where and as ``exc`` does, or None."""
    return _examples_by_place().get(_place(exc))


def syntax_error(exc: UnexpectedInput, text: str, filename: str, statement: bool = True) -> RulesSyntaxError:
    """The diagnostic for a parse error. ``statement`` is false for the text of a {hole} (an expression)."""
    lines = source_lines(text)
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
    example = None  # the entry of EXAMPLES a rule below picks
    if isinstance(exc, UnexpectedCharacters):
        message = f"unexpected character {exc.char!r}"
        example = {'"': STRING_NOT_CLOSED, "\r": LONE_CARRIAGE_RETURN}.get(exc.char)
        if exc.char.isalnum() and not exc.char.isascii():  # a letter the rules' names do not take (é, ж)
            message = f"unexpected character {exc.char!r}: a name is written with the letters A to Z, digits and _"
            hint = "a text in quotes takes any letter: \"café\" as cafe:, log \"café\""
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
            example = MISSING_COLON
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
            example = SINGLE_EQUALS
        elif first_word in ("elif", "else", "else:") and token.line == line:
            hint = f"'{first_word.rstrip(':')}' follows an 'if' block, at the same indentation as the 'if'"
        elif {"INT", "NAME", "STRING"} <= set(exc.expected or ()):
            hint = "expected a value here: a number, a name, a text in quotes, a list [...]"
        elif "ELSE" in (exc.expected or ()) and " if " in source_line[:column] \
                and token.type in ("_NL", "RPAR", "RSQB", "RBRACE", "COMMA"):
            example = IF_WITHOUT_ELSE  # 'x if c' is a value only with the value for when c fails
        else:
            example = example_for(exc)  # no rule speaks: the error may fail where an example does
            if example is None and expected and len(expected) <= 6:
                hint = "expected " + ", ".join(expected)
    if example is not None:
        shown_token = _shown(exc.token) if isinstance(exc, UnexpectedToken) else ""
        message = example.message.format(token=shown_token, char=repr(getattr(exc, "char", "")))
        hint = example.hint
    return RulesSyntaxError(Diagnostic(message, filename, line, column, source_line, hint))


def hole_syntax_error(exc: UnexpectedInput, text: str, filename: str, line: int, column: int,
                      source_line: str) -> RulesSyntaxError:
    """The diagnostic for a parse error in the text of a {hole} that starts at (line, column) of the
    file: it points into the file's line, and the hole's end is no end of file."""
    d = syntax_error(exc, text, filename, statement=False).diagnostic
    if d.line > 1:  # a hole holds one line: a later line means it ran past its end
        d = attrs.evolve(d, line=1, column=len(text.split("\n")[0]) + 1)
    message = d.message.replace("end of file", "end of the expression")
    return RulesSyntaxError(attrs.evolve(d, message=message, line=line, column=column + d.column - 1,
                                         source_line=source_line or d.source_line))


def indentation_error(text: str, filename: str) -> RulesSyntaxError:
    """The diagnostic for a line whose indentation matches no open block (Lark's DedentError)."""
    line = _dedent_line(text)
    return RulesSyntaxError(Diagnostic("this line's indentation matches no enclosing block", filename,
                                       line, 1, source_lines(text)[line - 1],
                                       "indent by the same amount as a line above"))


def _dedent_line(text: str) -> int:
    """The first line whose indentation matches no open block (for the indentation error)."""
    stack = [0]
    for number, raw in enumerate(source_lines(text), 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = raw[:len(raw) - len(raw.lstrip())]
        width = indent.count(" ") + indent.count("\t") * RulesIndenter.tab_len  # as the Indenter counts
        if width > stack[-1]:
            stack.append(width)
        else:
            while width < stack[-1]:
                stack.pop()
            if width != stack[-1]:
                return number
    return 1


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
    alternative = _alternative_too_deep(text, source_line, line)
    if alternative is not None:
        return alternative
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


_ALTERNATIVE = re.compile(r'\s*"(?:[^"\\\n]|\\.)*"\s*(?:if\b.*)?:\s*(?:#.*)?')


# a block of alternatives: a 'choose:', or a variant's erratum adding or replacing some (in step "S", add:)
_ALTERNATIVES_HEADER = re.compile(r'(choose\b[^"]*|in\b.*,\s*(add( before "[^"]*")?|replace "[^"]*")):$')


def _alternative_too_deep(text: str, source_line: str, line: int):
    """A 'choose:' alternative ('"label":', '"label" if test:') indented deeper than the alternatives of
    its block: it is read as a statement of the line it is indented under, and refused at its ':' or
    'if'. Says which line that is, and where the alternatives of the 'choose:' stand."""
    if not _ALTERNATIVE.fullmatch(source_line):
        return None
    lines = source_lines(text)
    own = _indent(source_line)
    under = None  # (line, code) of the line it is indented under
    for number in range(line - 1, 0, -1):
        code = lines[number - 1].split("#", 1)[0]
        if not code.strip() or _indent(code) >= own:
            continue
        under = under or (number, code.strip())
        if _ALTERNATIVES_HEADER.match(code.strip()):  # the 'choose:' (or an erratum's) block it belongs to
            after = next((raw for raw in lines[number:line - 1] if raw.split("#", 1)[0].strip()), "")
            if under[0] == number or not after or _indent(after) >= own:
                return None
            label = source_line.strip().split('"')[1]
            return (f"the alternative \"{label}\" is indented under '{under[1]}' (line {under[0]}), so it is read "
                    "as a statement there", own + 1,
                    f"indent it as the other alternatives of '{code.strip()}' (line {number}), "
                    f"{_indent(after)} spaces")
        if _indent(code) == 0:
            return None
    return None


def _enclosing_header(text: str, line: int) -> str:
    """The nearest line above ``line`` indented less than it (its block's header), comments dropped."""
    lines = source_lines(text)
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
    top, block = _line_keywords()
    if column == start and str(exc.token) == word:
        # the word itself is refused: where a declaration begins (a statement would have read it as a name)
        if word in keywords() or not {keyword_of(t) for t in exc.expected or ()} & top:
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
    if word in _FUNCTION_WORDS or word in keywords():
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


@functools.cache
def _line_keywords() -> tuple[frozenset, frozenset]:
    """The keywords that begin a declaration, and those that begin a line in a block (statements,
    'elif', 'else'), read from the grammar: what the parser accepts at those places."""
    def words(accepted) -> frozenset:
        return frozenset(w for w in map(keyword_of, accepted) if w)

    top = block = expression = frozenset()
    try:
        top = words(lark().parse_interactive("", start="start").accepts())
        value = lark().parse_interactive("var x = 1\n", start="start")
        for tok in value.iter_parse():
            if tok.type == "INT":
                expression = words(value.accepts())  # 'true', 'not'... begin a value, not a statement
                break
        probe = lark().parse_interactive("turn:\n    if true:\n        pass\n    pass\n", start="start")
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
    for number, raw in enumerate(source_lines(text)[:line], 1):
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
