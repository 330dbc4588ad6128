"""Where a rule failed, and why, in the language's words.

The machine (machine.py) catches what a rule raises while it runs: a ``RulesRuntimeError`` of the
engine's own, or a Python exception a rules file provoked (``RULE_FAULTS``). ``fail_at`` and ``located``
turn either into a ``RulesRuntimeError`` carrying a ``Diagnostic``: the file, line and column of the
failing instruction (narrowed to the expression at fault where that is certain), the source line with a
caret, the rule it happened in, and a hint.
"""
from __future__ import annotations

import pathlib
import re
from typing import Optional

from rulewright.dsl import ast
from rulewright.dsl.errors import Diagnostic, RulesRuntimeError
from rulewright.interpreter.engine.values import _KIND_WORDS, shown

# The Python exceptions a rules file can provoke (1 + "a", xs[9], a def calling itself...). Anything
# else (MemoryError, a bug in the engine) is not a rules error and keeps its traceback.
RULE_FAULTS = (ValueError, TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError,
               RecursionError, OverflowError)


# what the machine turns into a located rules error (any other RulesError, a syntax or compile error,
# derives from none of these and goes on as it is)
LOCATED = (RulesRuntimeError,) + RULE_FAULTS


def at_fault(st, exc: BaseException, proc, pc: int) -> RulesRuntimeError:
    """The error to raise for ``exc``, raised while ``proc`` ran a stretch from ``pc``: located at the
    instruction that failed, unless it already is (an error of a procedure run inside it)."""
    if isinstance(exc, RulesRuntimeError) and exc.diagnostic is not None:
        return exc
    return fail_at(st, exc, proc, failing_pc(exc, proc, pc))


def failing_pc(exc: BaseException, proc, pc: int) -> int:
    """The instruction that raised ``exc``, when it ran inside a stretch (one generated function for
    several instructions, codegen.py) that starts at ``pc``: read from the traceback's line there."""
    tb = exc.__traceback__
    while tb is not None:
        lines = proc.lines_of.get(tb.tb_frame.f_code)
        if lines is not None:
            return lines.get(tb.tb_lineno, pc)
        tb = tb.tb_next
    return pc


# ----------------------------------------------------------------------------- located errors
def fail_at(st, exc: BaseException, proc, pc: int) -> RulesRuntimeError:
    """The error of instruction ``pc`` of ``proc``, located."""
    if 0 <= pc < len(proc.spans):
        span = proc.spans[pc]
        node = proc.instructions[pc].node if pc < len(proc.instructions) else None
    else:
        span, node = ast.Span(proc.file, 0, 0), None
    return located(st, exc, span, _RULE_NAMES.get(proc.name, proc.name), node)


_RULE_NAMES = {"__main__": "the round loop"}


def located(st, exc: BaseException, span: ast.Span, rule: str, node=None) -> RulesRuntimeError:
    """A RulesRuntimeError whose diagnostic points at ``span`` (or, inside ``node``, at the one
    expression the error can only have come from), says which rule failed and what to do."""
    game = st.game
    if isinstance(exc, RulesRuntimeError):
        message, hint, focus = exc.message, exc.hint, exc.focus
        if not focus:  # raised inside a builtin (rotate, random...): point at its call
            builtin = _failing_builtin(exc)
            focus = f"call:{builtin}" if builtin else ""
    else:
        message, hint, focus = explain(exc, game)
    where = pinpoint(node, focus, game) or span
    if where.line and (where.file, where.line) != (span.file, span.line) and not _inside(where, node):
        hint = (hint + "; " if hint else "") + f"this is inside a def, called at line {span.line}"
    rules = getattr(game, "rules", None)
    source = rules.source_line(where) if rules is not None else ""
    diagnostic = Diagnostic(f"in '{rule}': {message}", where.file, where.line, where.column, source, hint)
    return RulesRuntimeError(message, hint, diagnostic=diagnostic, focus=focus)





def _kind(type_name: str) -> str:
    return _KIND_WORDS.get(type_name, "a value")


_KINDS_HINT = "the kinds of value are number, text, yes/no, list, map, record and none"
_VERBS = {"+": "add {a} and {b}", "-": "subtract {b} from {a}", "*": "multiply {a} by {b}",
          "//": "divide {a} by {b}", "%": "take the remainder of {a} divided by {b}"}
_OP_HINTS = {
    "+": "'+' adds two numbers, or joins two texts or two lists; to put a value into text, write "
         "\"{x}\" or text(x)",
    "-": "'-' works on numbers only", "*": "'*' multiplies a number by a number (or repeats text or a list)",
    "//": "'/' works on numbers only", "%": "'%' works on numbers only",
}
_ORDER_HINT = ("'<', '<=', '>', '>=' (and sorted, min, max, lowest, highest) compare numbers with numbers "
               "and text with text; none, yes/no, lists and records have no order")
_NONE_HINT = "the value is none here: check it first ('if x != none:')"


def explain(exc: BaseException, game=None) -> tuple[str, str, str]:
    """(message, hint, focus) for a Python exception a rule provoked, in the language's words."""
    text = str(exc)
    builtin = _failing_builtin(exc)
    if isinstance(exc, RecursionError):
        return ("defs call each other too deep (one that calls itself without end?)",
                "a def that calls itself needs a case that does not ('x if done else f(...)'), and each "
                "call must come closer to it", "def")
    if isinstance(exc, ZeroDivisionError):
        return "division by zero", "check the number you divide by first ('if n != 0:')", "divide"
    if isinstance(exc, IndexError):
        return ("an item past the end of a list",
                "lists count from 1: xs[1] is the first item, xs[len(xs)] or xs[-1] the last", "index")
    if isinstance(exc, KeyError):
        key = exc.args[0] if exc.args else None
        if _raised_in_boards(exc):  # a board kind's module (boards/grid.py...)
            space = key[0] if type(key) is tuple and key else key
            return (f"{shown(space)} is not a space of the board", _board_hint(game),
                    f"call:{builtin}" if builtin else "")
        return (f"no entry {shown(key)} in the map",
                "a map has only the keys set in it: m[key] gives none for a missing key",
                f"field:{key}" if type(key) is str else "index")
    if isinstance(exc, AttributeError):
        return _explain_attribute(text, game)
    if isinstance(exc, OverflowError):
        return "a number too large to work with", "check the arithmetic on this line", ""
    if isinstance(exc, TypeError) and (not builtin or builtin in _ORDERING):
        found = _explain_type(text)
        if found is not None:
            return found
    if builtin == "roll" and isinstance(exc, ValueError):
        return "roll() needs a die of 1 side or more", "roll(n) gives a number from 1 to n", "call:roll"
    if builtin:
        from rulewright.interpreter.engine.builtins import BUILTINS
        from rulewright.interpreter.engine.kinds import article
        spec = BUILTINS.get(builtin)
        doc, kinds = _builtin_doc(builtin), (spec.args[0] if spec is not None and spec.args else ())
        message = (f"{builtin}() needs {' or '.join(article(k) for k in kinds)}" if kinds and isinstance(exc, TypeError)
                   else f"{builtin}() cannot work with the values it was given")
        return (message, (f"{builtin}: {doc}; " if doc else "") + "check the kinds and values of its arguments",
                f"call:{builtin}")
    if isinstance(exc, TypeError):
        return "these values cannot be used together here", f"check the values on this line: {_KINDS_HINT}", ""
    return "a value out of range here", "check the values on this line", ""


def _explain_type(text: str) -> Optional[tuple[str, str, str]]:
    m = re.match(r"unsupported operand type\(s\) for ([^:]+): '(\w+)' and '(\w+)'", text)
    if m:
        op, a, b = m.group(1).strip(), _kind(m.group(2)), _kind(m.group(3))
        if len(op) > 1 and op.endswith("="):  # +=, -=
            op = op[:-1]
        if op in _VERBS:
            hint = _NONE_HINT if "none" in (a, b) else _OP_HINTS[op]
            return f"cannot {_VERBS[op].format(a=a, b=b)}", hint, f"op:{'/' if op == '//' else op}"
    m = re.match(r'can only concatenate (\w+) \(not "(\w+)"\) to (\w+)', text)
    if m:
        a, b = _kind(m.group(1)), _kind(m.group(2))
        return f"cannot add {a} and {b}", _NONE_HINT if b == "none" else _OP_HINTS["+"], "op:+"
    m = re.match(r"'([<>=!]+)' not supported between instances of '(\w+)' and '(\w+)'", text)
    if m:
        a, b = _kind(m.group(2)), _kind(m.group(3))
        return f"cannot compare {a} with {b}", _NONE_HINT if "none" in (a, b) else _ORDER_HINT, "order"
    m = re.match(r"bad operand type for unary -: '(\w+)'", text)
    if m:
        return f"cannot negate {_kind(m.group(1))}", "'-' works on numbers only", "op:neg"
    m = re.match(r"bad operand type for abs\(\): '(\w+)'", text)
    if m:
        return f"abs() needs a number, not {_kind(m.group(1))}", "abs works on numbers only", "call:abs"
    m = re.match(r"can't multiply sequence by non-int of type '(\w+)'", text)
    if m:
        return (f"cannot multiply text or a list by {_kind(m.group(1))}",
                "'*' repeats text or a list a number of times; otherwise it multiplies numbers", "op:*")
    m = re.match(r"object of type '(\w+)' has no len\(\)", text)
    if m:
        return (f"len() needs a list, a map or text, not {_kind(m.group(1))}",
                _NONE_HINT if m.group(1) == "NoneType" else "len counts the items of a list or map, or the "
                "letters of text", "call:len")
    m = re.match(r"'(\w+)' object is not subscriptable", text)
    if m:
        kind = _kind(m.group(1))
        return (f"{kind} has no items or fields to read",
                _NONE_HINT if m.group(1) == "NoneType" else "only lists, maps and records have items "
                "(xs[1]) and fields (r.name)", "items")
    m = re.match(r"'(\w+)' object does not support item assignment", text)
    if m:
        kind = _kind(m.group(1))
        return (f"cannot change an item of {kind}",
                "only lists and maps have items to change (xs[1] = v); text cannot be changed in place",
                "index")
    m = re.match(r"argument of type '(\w+)' is not iterable", text)
    if m:
        return (f"cannot look for an item in {_kind(m.group(1))}",
                _NONE_HINT if m.group(1) == "NoneType" else "'in' looks in a list, among a map's keys, or in text",
                "in")
    m = re.match(r"'(\w+)' object is not iterable", text)
    if m:
        return (f"{_kind(m.group(1))} is not a list to go through",
                _NONE_HINT if m.group(1) == "NoneType" else "'for', quantifiers (count, sum, any...) and "
                "functions of lists need a list", "")
    m = re.match(r"unhashable type: '(\w+)'", text)
    if m:
        return (f"{_kind(m.group(1))} cannot be a key of a map",
                "map keys are numbers, text or yes/no values, not lists, maps or records", "key")
    m = re.match(r"list indices must be integers or slices, not (\w+)", text)
    if m:
        return (f"a list position must be a number, not {_kind(m.group(1))}",
                "lists count from 1: xs[1] is the first item; a map's key can be anything", "index")
    m = re.match(r"'(\w+)' object cannot be interpreted as an integer", text)
    if m:
        return f"a count must be a number, not {_kind(m.group(1))}", "check the values on this line", ""
    return None


def _explain_attribute(text: str, game) -> tuple[str, str, str]:
    m = re.match(r"'(\w+)' object has no attribute '(\w+)'", text)
    board = getattr(game, "board", None)
    if m and board is not None and m.group(1) == type(board).__name__:  # the checker sees to it; kept for safety
        what = m.group(2)
        return (f"{what}() does not work on this game's board, which is a {board.kind}",
                f"a {board.kind} has: " + ", ".join(sorted(board.functions)), f"call:{what}")
    if m:
        return (f"{_kind(m.group(1))} cannot be used this way", f"check the values on this line: {_KINDS_HINT}", "")
    return "this value cannot be used this way", f"check the values on this line: {_KINDS_HINT}", ""


def _board_hint(game) -> str:
    board = getattr(game, "board", None)
    if board is None:
        return "this game has no board"
    spaces = list(board.spaces)
    if hasattr(board, "coords"):
        return f"a space of this grid is a row letter and a column number, from {spaces[0]} to {spaces[-1]}"
    names = ", ".join(spaces[:8]) + (", ..." if len(spaces) > 8 else "")
    return f"the board's spaces are {names}"


def _frames(exc: BaseException) -> list:
    out = []
    tb = exc.__traceback__
    while tb is not None:
        out.append(tb.tb_frame.f_code)
        tb = tb.tb_next
    return out


_BOARDS = str(pathlib.Path(__file__).resolve().parent.parent / "boards")


def _raised_in_boards(exc: BaseException) -> bool:
    """Whether the error came out of a board kind's own code (the boards package)."""
    codes = _frames(exc)
    return bool(codes) and str(pathlib.Path(codes[-1].co_filename).resolve()).startswith(_BOARDS)


_BUILTIN_CODES: dict = {}


def _failing_builtin(exc: BaseException) -> str:
    """The builtin function (written in Python) whose code the error came out of, or ''."""
    if not _BUILTIN_CODES:
        from rulewright.interpreter.engine.builtins import BUILTINS
        for name, b in BUILTINS.items():
            code = getattr(b.fn, "__code__", None)
            if code is not None:
                _BUILTIN_CODES[code] = name
    for code in reversed(_frames(exc)):
        name = _BUILTIN_CODES.get(code)
        if name is not None:
            return name
    return ""


def _builtin_doc(name: str) -> str:
    from rulewright.interpreter.engine.builtins import BUILTINS
    b = BUILTINS.get(name)
    return b.doc if b is not None else ""


# ----------------------------------------------------------------------------- the caret
_ORDERING = {"sorted", "min", "max", "lowest", "highest"}


def pinpoint(node, focus: str, game=None) -> Optional[ast.Span]:
    """The span of the one expression in ``node`` that an error of kind ``focus`` can come from, or
    None when there is no such single expression (then the caret stays on the instruction). When the
    node calls a def, the error may have come from the def's body instead: no guess then."""
    if node is None or not focus:
        return None
    nodes: list = []
    _walk(node, nodes)
    defs = getattr(game, "defs", {}) or {}
    if focus == "def":
        found = [n for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in defs]
    else:
        # the error may also come from the body of a def the instruction calls (and the defs it calls):
        # point there when it is the one expression, of all of them, that can fail this way
        called, todo = set(), [n for n in nodes]
        while todo:
            n = todo.pop()
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in defs \
                    and n.func.id not in called:
                called.add(n.func.id)
                body: list = []
                _walk(getattr(defs[n.func.id], "body", None), body)
                nodes += body
                todo += body
        found = [n for n in nodes if _fits(n, focus)]
    if len(found) != 1:
        return None
    span = found[0].span
    return span if span.line > 0 else None


def _fits(n, focus: str) -> bool:
    kind, _, what = focus.partition(":")
    if kind == "index":
        return isinstance(n, ast.Index)
    if kind == "divide":
        return isinstance(n, ast.BinOp) and n.op in ("/", "%")
    if kind == "op":
        if what == "neg":
            return isinstance(n, ast.Neg)
        if isinstance(n, ast.BinOp) and n.op == what:
            return True
        return what == "+" and _is_call(n, "sum")
    if kind == "order":
        return (isinstance(n, ast.Compare) and n.op in ("<", "<=", ">", ">=")) or any(
            _is_call(n, f) for f in _ORDERING)
    if kind == "in":
        return isinstance(n, ast.Compare) and n.op in ("in", "not in")
    if kind == "items":
        return isinstance(n, (ast.Index, ast.Attr))
    if kind == "field":
        return isinstance(n, ast.Attr) and n.name == what
    if kind == "key":
        return isinstance(n, (ast.Index, ast.MapLit)) or (isinstance(n, ast.Compare) and n.op in ("in", "not in"))
    if kind == "call":
        return _is_call(n, what)
    return False


def _is_call(n, name: str) -> bool:
    if isinstance(n, ast.Quantifier):
        return n.func == name
    return isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name


def _inside(where: ast.Span, node) -> bool:
    """``where`` lies within the instruction ``node`` (not in a def it calls)."""
    span = getattr(node, "span", None)
    if span is None or not span.line or span.file != where.file:
        return False
    end = span.end_line or span.line
    return span.line <= where.line <= end


def _walk(node, out: list) -> None:
    """Every AST node of an instruction's own expressions (not the statements of a nested block)."""
    if isinstance(node, (tuple, list)):
        for x in node:
            _walk(x, out)
    elif hasattr(node, "__attrs_attrs__") and not isinstance(node, ast.Span):
        out.append(node)
        for a in node.__attrs_attrs__:
            if a.name not in ("span", "body", "orelse", "branches"):
                _walk(getattr(node, a.name), out)
