"""Where a rule failed, and why, in the language's words.

The machine (machine.py) catches what a rule raises while it runs: a ``RulesRuntimeError``, most often
a typed one raised at the operation that failed (errors.py), or a Python exception a rules file
provoked (``RULE_FAULTS``) in code the generator wrote inline, which ``explain`` turns into that
operation's typed error (failed_operation.py). ``fail_at`` and ``located`` turn either into a
``RulesRuntimeError`` carrying a ``Diagnostic``: the file, line and column of the failing instruction
(narrowed to the expression at fault where that is certain), the source line with a caret, the rule
it happened in, and a hint.
"""
from __future__ import annotations

from typing import Optional

from rulewright.dsl import ast
from rulewright.dsl.errors import Diagnostic, RulesRuntimeError
from rulewright.interpreter.engine.builtins import called
from rulewright.interpreter.engine.errors import COUNT_HINT, KINDS_HINT, NO_ALTERNATIVE, MissingEntry
from rulewright.interpreter.engine.failed_operation import typed_error

# The Python exceptions a rules file can provoke (1 + "a", xs[9], a def calling itself...). Anything
# else (MemoryError, a bug in the engine) is not a rules error and keeps its traceback.
RULE_FAULTS = (ValueError, TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError,
               RecursionError, OverflowError)


# what the machine turns into a located rules error (any other RulesError, a syntax or compile error,
# derives from none of these and goes on as it is)
LOCATED = (RulesRuntimeError,) + RULE_FAULTS


def at_fault(st, exc: BaseException, proc, pc: int, frame=None) -> RulesRuntimeError:
    """The error to raise for ``exc``, raised while ``proc`` ran a stretch from ``pc``: located at the
    instruction that failed, unless it already is (an error of a procedure run inside it). An error in a
    base's line is told at the variant's line that led there (``led_from``): this instruction, and when
    ``proc`` runs in ``frame``, the calls of the frames below it."""
    pc = failing_pc(exc, proc, pc)
    if not (isinstance(exc, RulesRuntimeError) and exc.diagnostic is not None):
        exc = fail_at(st, exc, proc, pc)
    path = [proc.spans[pc]] if 0 <= pc < len(proc.spans) else []
    if frame is not None:  # each frame below called the one above it from the instruction before its pc
        procs = st.game.procs
        path += [procs[f.proc].spans[f.pc - 1] for f in reversed(st.frames[:-1]) if f.pc > 0]
    return led_from(st, exc, path)


def led_from(st, exc: RulesRuntimeError, path, why: str = "reached from this line") -> RulesRuntimeError:
    """``exc`` told at the first line of ``path`` in the rules' own file (a variant's) when it stands in
    another file (its base): the variant's line that led to the error, the base's line kept as context."""
    rules = getattr(st.game, "rules", None)
    d = exc.diagnostic
    if rules is None or d is None or d.file == rules.filename:
        return exc
    cause = next((span for span in path if span.file == rules.filename and span.line), None)
    if cause is None:
        return exc
    moved = d.told_at(cause.file, cause.line, cause.column, rules.source_line(cause), why)
    return RulesRuntimeError(exc.message, exc.hint, diagnostic=moved, focus=exc.focus)


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
    else:
        message, hint, focus = explain(exc)
    where = pinpoint(node, focus, game) or span
    if where.line and (where.file, where.line) != (span.file, span.line) and not _inside(where, node):
        # the call's file too when the def is in another (a variant's def called from its base's line)
        at = f"line {span.line}" if where.file == span.file else f"{span.file}:{span.line}"
        hint = (hint + "; " if hint else "") + f"this is inside a def, called at {at}"
    rules = getattr(game, "rules", None)
    source = rules.source_line(where) if rules is not None else ""
    diagnostic = Diagnostic(f"in '{rule}': {message}", where.file, where.line, where.column, source, hint)
    # what led here: the errata that left a 'choose:' its alternatives, then the instruction (a def's
    # error is pinpointed in the def's body, which may be the base's)
    error = RulesRuntimeError(message, hint, diagnostic=diagnostic, focus=focus)
    errata = getattr(node, "amended_at", ()) if focus == NO_ALTERNATIVE else ()
    if errata:
        lines = ", ".join(str(e.line) for e in errata)
        error = led_from(st, error, errata, f"a choice this variant's errata at line{'s' * (len(errata) > 1)} "
                                            f"{lines} changed: what they took out may have been the way to pass")
    defs = getattr(game, "defs", {}) or {}
    if focus == "def":  # calls without end: the defs that call themselves, one of them perhaps a variant's
        error = led_from(st, error, [d.span for d in _calling_themselves(node, defs)],
                         "whose call reaches this def, which calls itself without end")
    # the defs the instruction went through to the def that failed, the nearest to the failure first
    way = [d.span for d in reversed(_defs_on_the_way(node, where, defs))]
    return led_from(st, error, way + [span])


def explain(exc: BaseException) -> tuple[str, str, str]:
    """(message, hint, focus) for a Python exception a rule provoked, in the language's words: the
    typed error of the operation that failed (failed_operation.py), or, where none is known, words for
    the kind of exception (its text is never read)."""
    if isinstance(exc, RecursionError):
        return ("defs call each other too deep (one that calls itself without end?)",
                "a def that calls itself needs a case that does not ('x if done else f(...)'), and each "
                "call must come closer to it", "def")
    if isinstance(exc, ZeroDivisionError):
        return "division by zero", "check the number you divide by first ('if n != 0:')", "divide"
    if isinstance(exc, OverflowError):
        return "a number too large to work with", "check the arithmetic on this line", ""
    typed = typed_error(exc)
    if typed is not None:
        return typed.message, typed.hint, typed.focus
    if isinstance(exc, IndexError):
        return "an item past the end of a list", COUNT_HINT, "index"
    if isinstance(exc, KeyError):
        missing = MissingEntry(exc.args[0] if exc.args else None)
        return missing.message, missing.hint, missing.focus
    if isinstance(exc, AttributeError):
        return "this value cannot be used this way", f"check the values on this line: {KINDS_HINT}", ""
    if isinstance(exc, TypeError):
        return "these values cannot be used together here", f"check the values on this line: {KINDS_HINT}", ""
    return "a value out of range here", "check the values on this line", ""


# ----------------------------------------------------------------------------- the caret
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


def _defs_on_the_way(node, where: ast.Span, defs: dict) -> list:
    """The defs by which the instruction ``node`` reaches the def whose body holds ``where`` (that one
    last), by the fewest calls; [] when ``where`` is in none of them."""
    came_from: dict = {}
    todo = []
    for name in _called_defs(node, defs):
        came_from.setdefault(name, None)
        todo.append(name)
    while todo:
        name = todo.pop(0)
        if _inside(where, defs[name]):
            way = [name]
            while came_from[way[-1]] is not None:
                way.append(came_from[way[-1]])
            return [defs[n] for n in reversed(way)]
        for callee in _called_defs(getattr(defs[name], "body", None), defs):
            if callee not in came_from:
                came_from[callee] = name
                todo.append(callee)
    return []


def _calling_themselves(node, defs: dict) -> list:
    """The defs the instruction ``node`` reaches that can call themselves again (directly or through
    others), in the order they are reached."""
    reached, todo = [], _called_defs(node, defs)
    while todo:
        name = todo.pop(0)
        if name not in reached:
            reached.append(name)
            todo += _called_defs(getattr(defs[name], "body", None), defs)
    looping = []
    for name in reached:
        seen, todo = set(), _called_defs(getattr(defs[name], "body", None), defs)
        while todo and name not in seen:
            callee = todo.pop()
            if callee not in seen:
                seen.add(callee)
                todo += _called_defs(getattr(defs[callee], "body", None), defs)
        if name in seen:
            looping.append(defs[name])
    return looping


def _called_defs(node, defs: dict) -> list:
    nodes: list = []
    _walk(node, nodes)
    return [n.func.id for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in defs]


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
        return (isinstance(n, ast.Compare) and n.op in ("<", "<=", ">", ">=")) or _orders(n)
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


def _orders(n) -> bool:
    """Whether ``n`` calls a builtin or quantifier that puts values in order."""
    entry = called(n) if isinstance(n, (ast.Call, ast.Quantifier)) else None
    return entry is not None and entry.orders


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
        blocks = dict(getattr(node, "BLOCKS", ()))  # a statement's blocks, as it declares them
        for a in node.__attrs_attrs__:
            shape = blocks.get(a.name)
            held = getattr(node, a.name)
            if a.name == "span" or shape == ast.BLOCK:
                continue
            if shape == ast.PAIRS:  # an if's conditions are its own, their blocks are not
                _walk([cond for cond, _block in held], out)
            elif shape == ast.ALTERNATIVES:  # a choose block's alternatives, without their blocks
                for alt in held:
                    out.append(alt)
                    _walk([getattr(alt, f.name) for f in alt.__attrs_attrs__ if f.name not in ("span", "body")],
                          out)
            else:
                _walk(held, out)
