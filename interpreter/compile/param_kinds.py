"""Which parameters of the defs surely hold a value compared in one step (engine/compare.py: a number,
yes/no, none or a short text), known while compiling from every call in the rules file.

A def is called only where the rules call it (the compiled game's expressions all come from its file),
so a parameter that every call gives a constant number or short text (``has_part(s, wings)``), a
number worked out (``len(xs) - 1``), a parameter of the calling def that is itself one step, or the
variable of a loop over a list whose items all are (``flat_list``: a board's spaces, ``t in next(s)``), is
one step inside the body: its comparisons are Python's own, with no test as they run. The answer is the
greatest fixed point (a def calling itself with its own parameter keeps it), which is sound: every
value a parameter receives comes, through calls, from one of those expressions. A def called from
outside the rules (``progress``, by the agents) is left out. Nothing here reads a value the state
holds, so no save, deal or change made by hand can make the answer wrong.
"""
from __future__ import annotations

from rulewright.dsl import ast
from rulewright.interpreter.check.symbols import PROGRESS
from rulewright.interpreter.engine.builtin_names import ME
from rulewright.interpreter.engine import compare, limits
from rulewright.interpreter.engine.builtins import BUILTINS, QUANTIFIERS, SPACE, SPACE_LIST
from rulewright.interpreter.engine.kinds import BOOL, NUMBER

# the kinds of expression whose value is surely a number or yes/no (or an error)
SCALAR_NODES = (ast.Compare, ast.Not, ast.Neg)
SCALAR_OPS = ("-", "/", "%")  # ('+' and '*' join and repeat texts and lists too)
_SCALAR_KINDS = (NUMBER, BOOL)


def scalar_quantifier(node) -> bool:
    """Whether the quantifier ``node`` gives a number or yes/no."""
    entry = QUANTIFIERS.get(node.func)
    return entry is not None and entry.scalar


def scalar(game, node, seen: set) -> bool:
    """Whether ``node`` surely gives a number or yes/no (or fails): a comparison, arithmetic but '+' and
    '*', a counting quantifier, a builtin whose result is one, a def whose body is one."""
    if isinstance(node, ast.Literal):
        return type(node.value) in (int, bool, float)
    if isinstance(node, SCALAR_NODES) or (isinstance(node, ast.BinOp) and node.op in SCALAR_OPS):
        return True
    if isinstance(node, ast.Quantifier):
        return scalar_quantifier(node)
    if isinstance(node, ast.BinOp) and node.op in ("+", "*"):
        return scalar(game, node.left, seen) and scalar(game, node.right, seen)
    if isinstance(node, ast.Cond):
        return scalar(game, node.then, seen) and scalar(game, node.orelse, seen)
    if isinstance(node, ast.LetIn):
        return scalar(game, node.body, seen)
    if not isinstance(node, ast.Call):
        return False
    name = node.func.id
    if name in game.records:
        return False
    if name in game.defs:
        if name in seen:  # a def that calls itself: its other arms decide
            return False
        seen.add(name)
        return scalar(game, game.defs[name].body, seen)
    builtin = BUILTINS.get(name)
    if builtin is None and game.board is not None:
        builtin = game.board.functions.get(name)
    return builtin is not None and builtin.result in _SCALAR_KINDS


def flat_list(game, node, seen: set, constants=None) -> bool:
    """Whether ``node`` surely gives a list whose every item compares in one step (or fails): a board
    function giving the board's spaces while every space is a short text, a def whose body is one, both
    arms of a condition, two such lists joined, a comprehension over one keeping its items or making
    numbers, and a name in ``constants`` holding a short list of numbers and short texts."""
    if isinstance(node, ast.Name):
        value = (constants or {}).get(node.id)
        return type(value) is list and len(value) <= limits.SHORT and compare.flat(value)
    if isinstance(node, ast.Cond):
        return flat_list(game, node.then, seen, constants) and flat_list(game, node.orelse, seen, constants)
    if isinstance(node, ast.BinOp) and node.op == "+":
        return flat_list(game, node.left, seen, constants) and flat_list(game, node.right, seen, constants)
    if isinstance(node, ast.ListComp):
        b = node.binder
        return flat_list(game, b.source, seen, constants) and (b.body is None or scalar(game, b.body, set()))
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
        return False
    name = node.func.id
    if name in game.records:
        return False
    if name in game.defs:
        if name in seen:
            return False
        seen.add(name)
        return flat_list(game, game.defs[name].body, seen, constants)
    return _board_gives(game, name, SPACE_LIST)


def _board_gives(game, name: str, spaces: str) -> bool:
    """Whether ``name`` is a function of the board giving ``spaces`` (SPACE: one space or none; SPACE_LIST:
    a list of them; Builtin.spaces) and every space of the board is a short text."""
    builtin = BUILTINS.get(name)
    if builtin is None and game.board is not None:
        builtin = game.board.functions.get(name)
    return (builtin is not None and builtin.spaces == spaces
            and all(compare.one_step(space) for space in game.board.spaces))


def gives_space(game, node) -> bool:
    """Whether ``node`` is a call of a board function giving one of its spaces or none (``step(s, h)``)
    while every space is a short text."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in game.defs
            and node.func.id not in game.records and _board_gives(game, node.func.id, SPACE))


def _flat_binders(game, d, constants: dict) -> set:
    """The loop variables of def ``d`` that hold an item of a ``flat_list`` wherever they are read: each
    binder of the name goes through one, and no parameter, 'let', game variable or constant has the name
    (so every read of it in the body is a binder's)."""
    return {var for var, sources in _body_binders(d).items()
            if var not in d.params and var not in game.var_decls and var not in game.constants
            and all(src is not None and flat_list(game, src, set(), constants) for src in sources)}


def _body_binders(d) -> dict:
    """{name: the lists it goes through} for each name a loop or a 'let ... in' binds inside def ``d``'s
    body (None for a 'let': no list)."""
    binders: dict = {}
    for n in ast.walk(d.body):
        if isinstance(n, ast.Binder):
            binders.setdefault(n.var, []).append(n.source)
        elif isinstance(n, ast.LetIn):
            binders.setdefault(n.name, []).append(None)
    return binders


def _bound_anywhere(rules) -> frozenset:
    """Every name the rules bind anywhere (a parameter, a local, a loop's variable, a 'let'): such a name
    may mean something else than a constant where it is read, so only the others are taken as constants.
    Worked out once per rules file (kept in ``rules.derived``: `validate` compiles a file for every player
    count and option, and each compile asks several times)."""
    found = rules.derived.get("bound names")
    if found is None:
        found = rules.derived["bound names"] = frozenset(_bound_names(rules.decls))
    return found


def _bound_names(decls) -> set:
    names: set = set()
    for n in ast.walk(decls):
        if isinstance(n, ast.Binder):
            names.add(n.var)
        elif isinstance(n, (ast.LetIn, ast.Let)):
            names.add(n.name)
        elif isinstance(n, (ast.DefDecl, ast.ProcDecl)):
            names.update(n.params)
        elif hasattr(n, "BINDS"):
            names.update(name for name, _word in ast.bound(n))
    return names


def unbound_constants(game) -> dict:
    """The game's constants whose names nothing in the rules binds (a name bound somewhere may mean
    something else where it is read), and no game variable has: {name: value}."""
    bound = _bound_anywhere(game.rules)
    return {name: value for name, value in game.constants.items()
            if name not in bound and name not in game.var_decls and name != ME}


def _calls(game) -> list:
    """(the def around the call or None, the call) for each call of a def in the rules; worked out once
    per rules file, as _bound_anywhere."""
    found = game.rules.derived.get("def calls")
    if found is None:
        found = game.rules.derived["def calls"] = _def_calls(game.rules, game.defs)
    return found


def _def_calls(rules, defs) -> list:
    found = []
    for decl in rules.decls:
        around = decl.name if isinstance(decl, ast.DefDecl) and decl.name in defs else None
        for n in ast.walk(decl):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in defs:
                found.append((around, n))
    return found


def one_step_params(game) -> frozenset:
    """{(def name, parameter position)} for each parameter every call gives a value compared in one step."""
    defs = game.defs
    unbound = unbound_constants(game)
    constants = {name: value for name, value in unbound.items() if compare.one_step(value)}
    # a def's own parameter, read in its body, is that parameter unless a name inside rebinds it
    rebound = {name: set(_body_binders(d)) for name, d in defs.items()}
    flat_binders = {name: _flat_binders(game, d, unbound) for name, d in defs.items()}
    calls = _calls(game)
    called = {n.func.id for _around, n in calls}
    known = {(name, i) for name, d in defs.items() if name in called and name != PROGRESS
             for i in range(len(d.params))}

    def one_step(node, around) -> bool:
        if isinstance(node, ast.Literal):
            return compare.one_step(node.value)
        if isinstance(node, ast.Name):
            if around is not None:
                params = defs[around].params
                if node.id in params:
                    return node.id not in rebound[around] and (around, params.index(node.id)) in known
                if node.id in flat_binders[around]:
                    return True
            return node.id in constants
        if isinstance(node, ast.Cond):
            return one_step(node.then, around) and one_step(node.orelse, around)
        return scalar(game, node, set())

    changed = True
    while changed:
        changed = False
        for around, call in calls:
            name = call.func.id
            args = call.args if not call.kwargs else ()  # (a def takes its arguments in order)
            for i in range(len(defs[name].params)):
                if (name, i) in known and not (i < len(args) and one_step(args[i], around)):
                    known.discard((name, i))
                    changed = True
    return frozenset(known)
