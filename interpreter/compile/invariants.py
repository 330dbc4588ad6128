"""The rules' invariants, compiled once with their game (``CompiledGame.invariants``).

An invariant is a yes/no over the game; its ``was(x)`` is x before the move. Where x reads only the
game (its variables and constants: ``was(score)``, ``was(len(deck))``), it is worked out just before each
move and handed to the invariant as a local (``Invariants.earlier``), a copy of one value. Where x reads a
name the invariant binds (``all(p in players: p.score >= was(p.score))``), the invariant works it out on a
clone of the state before the move (codegen ``WAS_STATE``): a clone a move, so ``Invariants.clones``
says whether any invariant needs one. The watch that runs them: interpreter/play/invariants.py.
"""
from __future__ import annotations

import attrs

from rulewright.dsl import ast
from rulewright.interpreter.check.expression_checks import WAS
from rulewright.interpreter.compile.codegen import WAS_STATE


@attrs.frozen
class Invariants:
    tests: tuple = ()    # (the declaration, f(state, env)) in the rules' order
    earlier: tuple = ()  # (the local, f(state, env)): each was(x) that reads only the game, x
    clones: bool = False  # some was(x) reads the invariant's own names: worked out on a clone

    def __iter__(self):
        return iter(self.tests)

    def __len__(self) -> int:
        return len(self.tests)

    def __bool__(self) -> bool:
        return bool(self.tests)


def compile_invariants(game) -> Invariants:
    tests, earlier = [], {}  # earlier: x -> (its local, f): one each, however often it is written
    known = game.symbols.globals
    clones = False

    def taken_before(node):
        if _is_was(node, game) and _reads_only(node.args[0], known):
            x = node.args[0]
            if x not in earlier:
                earlier[x] = (f"{WAS_STATE}{len(earlier)}", game.exprs.compile(x, set()))
            return ast.Name(earlier[x][0], span=node.span)
        return node

    for d in game.symbols.invariants:
        cond = ast.rewrite(d.cond, taken_before)
        clones = clones or any(_is_was(n, game) for n in ast.walk(cond))
        tests.append((d, game.exprs.compile(cond, {WAS_STATE} | {local for local, _fn in earlier.values()})))
    return Invariants(tuple(tests), tuple(earlier.values()), clones)


def _is_was(node, game) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == WAS \
        and WAS not in game.defs


def _reads_only(node, known) -> bool:
    """Whether ``node`` names nothing but the game's variables and constants, and what it binds itself."""
    nodes = list(ast.walk(node))
    bound = {n.var for n in nodes if isinstance(n, ast.Binder)} | {n.name for n in nodes if isinstance(n, ast.LetIn)}
    called = {id(n.func) for n in nodes if isinstance(n, ast.Call)}
    return all(n.id in known or n.id in bound or id(n) in called for n in nodes if isinstance(n, ast.Name))
