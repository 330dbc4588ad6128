"""Which operation of the generated code failed, and its typed error.

The generated code (codegen.py) writes the common operations inline, as Python's own (``a < b``,
``-a``, ``x in xs``, ``len(xs)``, ``for x in xs``, ``m[k]``), so that they cost nothing more than
Python's. When one of them fails, Python raises its own TypeError (or KeyError...), whose text is never
read. Instead the instruction that failed is found in the generated source (the traceback's
``tb_lasti``, the code's ``co_positions``: Python 3.11), its operands are read back from the frame, and
the operation is run again through its one checked function (operations.py, or the builtin's own),
which raises the typed error (errors.py). Only a failure pays for any of this.
"""
from __future__ import annotations

import ast as pyast
import copy
import random
import weakref
from typing import Optional

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine import operations

# the source of each generated function's code (codegen.Module remembers each one it compiles)
_SOURCES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def remember(module_code, source: str) -> None:
    """Keep the source of each function ``module_code`` (compiled from ``source``) defines."""
    for c in module_code.co_consts:
        if hasattr(c, "co_positions"):
            _SOURCES[c] = source


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
    node = _node_at(_SOURCES[code], _position(code, found.tb_lasti))
    if node is None:
        return None
    try:
        again = _checked(node, frame, exc)
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


_OPERATIONS = (pyast.Compare, pyast.UnaryOp, pyast.BinOp, pyast.AugAssign, pyast.Call, pyast.Subscript,
               pyast.Dict, pyast.For, pyast.Assign)


def _node_at(source: str, position) -> Optional[pyast.AST]:
    """The innermost operation of ``source`` written exactly at ``position`` (line, end line, column,
    end column), or None."""
    if position is None or None in position:
        return None
    found = None
    for node in pyast.walk(pyast.parse(source)):  # outer nodes first: the last found is the innermost
        if isinstance(node, _OPERATIONS) and (node.lineno, node.end_lineno, node.col_offset,
                                              node.end_col_offset) == tuple(position):
            found = node
    return found


class _Unreadable(Exception):
    """An operand that cannot be read back."""


_COMPARED = {pyast.Lt: "<", pyast.LtE: "<=", pyast.Gt: ">", pyast.GtE: ">=", pyast.In: "in", pyast.NotIn: "not in"}
_ARITHMETIC = {pyast.Add: "+", pyast.Sub: "-", pyast.Mult: "*", pyast.FloorDiv: "/", pyast.Mod: "%"}


def _checked(node, frame, exc):
    """A function running ``node``'s operation again, on the operands it had, through its checked
    function; None when the operation has none."""
    def value(e):
        return _value(e, frame)

    if isinstance(node, pyast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARED:
        a, b = value(node.left), value(node.comparators[0])
        return lambda: operations.COMPARE[_COMPARED[type(node.ops[0])]](a, b)
    if isinstance(node, pyast.UnaryOp) and isinstance(node.op, pyast.USub):
        a = value(node.operand)
        return lambda: operations.negate(a)
    if isinstance(node, (pyast.BinOp, pyast.AugAssign)) and type(node.op) in _ARITHMETIC:
        a, b = value(node.left if isinstance(node, pyast.BinOp) else _loaded(node.target)), \
            value(node.right if isinstance(node, pyast.BinOp) else node.value)
        return lambda: operations.BINARY[_ARITHMETIC[type(node.op)]](a, b)
    if isinstance(node, pyast.Subscript):
        obj, key = value(node.value), value(node.slice)
        if isinstance(node.ctx, pyast.Store):
            return lambda: operations.set_entry(copy.copy(obj), key, None)  # a copy: the check changes nothing
        return lambda: operations.entry(obj, key)
    if isinstance(node, pyast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], pyast.Subscript):
        return _checked(node.targets[0], frame, exc)
    if isinstance(node, pyast.Dict):
        keys = [value(k) for k in node.keys if k is not None]
        return lambda: operations.keys_of_map(keys)
    if isinstance(node, pyast.For):
        items = value(node.iter)
        return lambda: operations.items_of(items)
    if isinstance(node, pyast.Call) and not node.keywords:
        return _checked_call(value(node.func), [value(a) for a in node.args], exc)
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


def _loaded(target):
    """The expression ``target`` (an augmented assignment's) as a value read."""
    out = copy.copy(target)
    out.ctx = pyast.Load()
    return out


def _value(e, frame):
    """The value the operand ``e`` had when its operation failed: a constant, a name (a local or the
    namespace's), the name a ':=' gave it; anything else worked out again (no expression changes the
    game: its draws come from a copy of the generator, the work budget is put back as it was)."""
    if isinstance(e, pyast.Constant):
        return e.value
    if isinstance(e, pyast.NamedExpr):
        e = e.target
    if isinstance(e, pyast.Name):
        for names in (frame.f_locals, frame.f_globals, frame.f_builtins):
            if e.id in names:
                return names[e.id]
        raise _Unreadable(e.id)
    st = frame.f_locals.get("st")
    rng = getattr(st, "rng", None)
    left = getattr(st, "_work_left", None)
    if rng is not None:  # a draw of the operand comes from a stand-in: the game's generator, an explicit
        stand_in = random.Random()  # chance queue too (chance.py), is not drawn from, nor even set
        stand_in.setstate(rng.getstate())
        st.rng = stand_in
    try:
        return eval(compile(pyast.Expression(e), "<rules>", "eval"), frame.f_globals, dict(frame.f_locals))
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
