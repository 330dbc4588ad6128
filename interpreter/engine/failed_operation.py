"""Which operation of the generated code failed, and its typed error.

The generated code (codegen.py) writes the common operations inline, as Python's own (``a < b``,
``-a``, ``x in xs``, ``len(xs)``, ``for x in xs``, ``m[k]``), so that they cost nothing more than
Python's. When one of them fails, Python raises its own TypeError (or KeyError...), whose text is never
read. Instead the instruction that failed is found (the traceback's ``tb_lasti``, the code's
``co_positions``: Python 3.11), and the source written there is looked up in the notes the generator
kept while writing it (``codegen.Module.noted``: the operation and its operands' sources, as Jinja
keeps its ``debug_info``); the operands are worked out again in the frame, and the operation is run
again through its one checked function (operations.py, or the builtin's own), which raises the typed
error (errors.py). Only a failure pays for any of this; no source is parsed back.
"""
from __future__ import annotations

import copy
import opcode
import random
import re
import weakref
from typing import Optional

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine import operations

# the operations the notes name: (kind, and for some the operator), each with its operands' sources
COMPARE, NEGATE, ARITHMETIC, ENTRY, KEYS, ITEMS, CALL = "compare", "negate", "arithmetic", "entry", "keys", \
    "items", "call"

# generated code -> (its source's lines, the generator's notes)
_SOURCES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_STORE_SUBSCR = opcode.opmap["STORE_SUBSCR"]


def remember(module_code, source: str, notes: dict) -> None:
    """Keep, for each function ``module_code`` (compiled from ``source``) defines, the source's lines and
    the notes the generator wrote with it."""
    lines = source.split("\n")
    for c in module_code.co_consts:
        if hasattr(c, "co_positions"):
            _SOURCES[c] = (lines, notes)


def typed_error(exc: BaseException) -> Optional[RulesRuntimeError]:
    """The typed error of the generated operation that raised ``exc``, or None when it did not come
    from one this knows (then faults.py says it by the kind of exception alone)."""
    tb, found = exc.__traceback__, None
    while tb is not None:  # the innermost generated function the exception went through
        if tb.tb_frame.f_code in _SOURCES:
            found = tb
        tb = tb.tb_next
    if found is None:
        return None
    code, frame = found.tb_frame.f_code, found.tb_frame
    lines, notes = _SOURCES[code]
    note = notes.get(_written_at(lines, _position(code, found.tb_lasti)))
    if note is None:
        return None
    (operation, *how), operands = note
    if operation == ENTRY and code.co_code[found.tb_lasti] == _STORE_SUBSCR:
        operation = "set " + ENTRY
    try:
        again = _checked(operation, how, [_value(o, frame) for o in operands], exc)
    except _Unreadable:
        return None
    if again is None:
        return None
    try:
        again()
    except RulesRuntimeError as typed:
        return typed
    except Exception:  # noqa: BLE001 - the check itself could not say: the caller says it another way
        return None
    return None


def _position(code, lasti: int):
    for i, position in enumerate(code.co_positions()):
        if i == lasti // 2:
            return position
    return None


def _written_at(lines: list, position) -> Optional[str]:
    """The source written at ``position`` (line, end line, column, end column); of a statement over
    several lines (a loop), its first line from the column on."""
    if position is None or None in position:
        return None
    line, end_line, column, end_column = position
    if not 0 < line <= len(lines):
        return None
    if line == end_line:
        return lines[line - 1][column:end_column]
    return lines[line - 1][column:].rstrip()


class _Unreadable(Exception):
    """An operand that cannot be read back."""


def _checked(operation: str, how: list, values: list, exc):
    """A function running the operation again, on the operands it had, through its checked function;
    None when the operation has none."""
    if operation == COMPARE:
        return lambda: operations.COMPARE[how[0]](*values)
    if operation == NEGATE:
        return lambda: operations.negate(*values)
    if operation == ARITHMETIC:
        return lambda: operations.BINARY[how[0]](*values)
    if operation == ENTRY:
        return lambda: operations.entry(*values)
    if operation == "set " + ENTRY:
        obj, key = values
        return lambda: operations.set_entry(copy.copy(obj), key, None)  # a copy: the check changes nothing
    if operation == KEYS:
        return lambda: operations.keys_of_map(values)
    if operation == ITEMS:
        return lambda: operations.items_of(*values)
    if operation == CALL:
        return _checked_call(values[0], values[1:], exc)
    return None


def _checked_call(fn, args: list, exc):
    from rulewright.interpreter.engine.builtins import BUILTINS
    for spec in BUILTINS.values():
        if spec.inline is not None and fn is spec.inline:  # a builtin's fast form: the builtin says why
            return lambda: spec.fn(*args)
    if fn is len or fn is list or fn is iter:  # going through a value, or counting its items
        return lambda: operations.items_of(args[0]) if args else None
    owner = getattr(fn, "__self__", None)
    if type(owner) is dict and getattr(fn, "__name__", "") == "get" and args:  # a map's entry, read inline
        key = args[0]
        if type(key) is tuple:  # a board's own table, keyed by (space, heading): the value that cannot be
            key = next((k for k in key if not _hashable(k)), key)  # a key, not the pair (no rules value)
        return lambda: operations.get_index(owner, key)
    functions = getattr(owner, "functions", None)
    if isinstance(functions, dict) and fn.__name__ in functions:  # a board's own function
        return lambda: _board_failed(owner, fn.__name__, functions[fn.__name__], args, exc)
    return None


def _board_failed(board, name: str, spec, args: list, exc):
    """A board's function failed inside, with an error that is not its own: its arguments did not suit it."""
    from rulewright.interpreter.engine.errors import WrongArgument
    raise WrongArgument.of(name, spec.args or (), spec.doc, isinstance(exc, TypeError), *args)


_NAME = re.compile(r"[A-Za-z_]\w*")


def _value(source: str, frame):
    """The value the operand written ``source`` had when its operation failed: a name (a local or the
    namespace's); anything else worked out again (no expression changes the game: its draws come from a
    copy of the generator, the work budget is put back as it was)."""
    if _NAME.fullmatch(source) and source not in ("None", "True", "False"):
        for names in (frame.f_locals, frame.f_globals, frame.f_builtins):
            if source in names:
                return names[source]
        raise _Unreadable(source)
    st = frame.f_locals.get("st")
    rng = getattr(st, "rng", None)
    left = getattr(st, "_work_left", None)
    if rng is not None:  # a draw of the operand comes from a stand-in: the game's generator, an explicit
        stand_in = random.Random()  # chance queue too (chance.py), is not drawn from, nor even set
        stand_in.setstate(rng.getstate())
        st.rng = stand_in
    try:
        return eval(source, frame.f_globals, dict(frame.f_locals))  # noqa: S307 - the generator's own text
    except Exception as exc:  # noqa: BLE001 - an operand that fails again cannot be read back
        raise _Unreadable() from exc
    finally:
        if rng is not None:
            st.rng = rng
        if left is not None:
            st._work_left = left


def _hashable(value) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True
