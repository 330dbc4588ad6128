"""Which locals of the procedures that never decide surely hold a value compared in one step (a number,
yes/no, none or a short text: engine/compare.py), known while compiling from every statement that gives
them a value.

A procedure that never decides (no 'choose' in it, nor in any procedure it calls) is never waiting in a
frame at a decision: its locals live only while it runs, inside one move, so no save, deal or change
made by hand ever reaches them. Such a local is one step when every statement giving it a value gives
one: a 'let' or '=' of a constant number or short text, a number worked out (param_kinds.scalar), one
of the board's spaces or none (``step(s, h)``), another such local, or a 'for' over a list of such items
(param_kinds.flat_list). A parameter is never one (its callers decide), nor a name that is also a game
variable, nor a local given a value any other way (a draw, a procedure's value, '+=' of anything but a
number). The answer is the greatest fixed point (``let a = b`` and ``b = a`` in one loop both are).
"""
from __future__ import annotations

from rulewright.dsl import ast
from rulewright.interpreter.compile.param_kinds import flat_list, gives_space, scalar, unbound_constants
from rulewright.interpreter.engine import compare
from rulewright.interpreter.engine.builtin_names import ME

_DECIDES = (ast.Choose, ast.ChooseBlock, ast.ChooseEach, ast.TakeTurn)  # (a turn decides)


def one_step_locals(game) -> dict:
    """{procedure name: the names of its locals that surely hold a value compared in one step}, for the
    procedures that never decide."""
    procs, constants = game.procs_ast, unbound_constants(game)
    return {name: _locals(game, procs[name], constants) for name in _never_deciding(game, procs)}


def _never_deciding(game, procs: dict) -> frozenset:
    """The procedures with no decision in them nor in any procedure they call (a least fixed point);
    worked out once per rules file (kept in ``rules.derived``: `validate` compiles a file many times)."""
    found = game.rules.derived.get("never deciding")
    if found is None:
        found = game.rules.derived["never deciding"] = frozenset(_without_decisions(procs))
    return found


def _without_decisions(procs: dict) -> set:
    calls, deciding = {}, set()
    for name, d in procs.items():
        nodes = [n for s in ast.statements(d.body) for n in ast.walk(s)]
        calls[name] = {n.func.id for n in nodes
                       if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in procs}
        if any(isinstance(n, _DECIDES) for n in nodes):
            deciding.add(name)
    changed = True
    while changed:
        changed = False
        for name in set(procs) - deciding:
            if calls[name] & deciding:
                deciding.add(name)
                changed = True
    return set(procs) - deciding


def _locals(game, d, constants: dict) -> frozenset:
    """The one-step locals of the procedure ``d`` (see above); ``constants``: unbound_constants."""
    given: dict = {}  # each local -> the expressions giving it a value (None: a way not judged)
    for s in ast.statements(d.body):
        for name, _word in ast.bound(s):
            value = s.value if isinstance(s, ast.Let) else ("item", s.source) if isinstance(s, ast.For) else None
            given.setdefault(name, []).append(value)
        for target in ast.changed(s):
            if isinstance(target, ast.Name):
                value = s.value if isinstance(s, ast.Assign) else (
                    ("number", s.value) if isinstance(s, ast.AugAssign) else None)
                given.setdefault(target.id, []).append(value)
    known = {name for name in given
             if name not in d.params and name != ME and name not in game.var_decls and name not in constants}

    def one_step(value) -> bool:
        if value is None:
            return False
        if type(value) is tuple:
            how, node = value
            if how == "item":
                return flat_list(game, node, set(), constants)
            return node is not None and (scalar(game, node, set()))  # '+=' or '-=' a number: a number
        if isinstance(value, ast.Literal):
            return compare.one_step(value.value)
        if isinstance(value, ast.Name):
            return value.id in known or (value.id in constants and compare.one_step(constants[value.id]))
        if isinstance(value, ast.Cond):
            return one_step(value.then) and one_step(value.orelse)
        return scalar(game, value, set()) or gives_space(game, value)

    changed = True
    while changed:
        changed = False
        for name in list(known):
            if not all(one_step(v) for v in given[name]):
                known.discard(name)
                changed = True
    return frozenset(known)
