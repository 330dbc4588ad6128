"""The lost-write check: a change made to a copy that nothing reads afterwards.

Values are copied when they are stored (docs/language.md, "Values are copied when they are stored"):
``let mine = [t in tokens where t.owner == me]`` holds a copy of the records, and a ``def`` gives back
a copy of what it computes. A change to such a copy, or to an item taken from it by ``for``,
``choose`` or ``draw``, or passed to a procedure that changes its parameter, reaches the game only if
something reads the copy afterwards (``tokens = mine``, ``return mine``, a log, a later test). When
nothing can, the change is lost: the move logs its effect and the game is unchanged. This check
reports each such change at its line, with where the copy was made and how to reach the game's own
value instead.

It works on what is certain only (a false alarm would refuse a correct file):

- a *copy* is a local stored by ``let``/``=``, an item drawn into a local, or what a ``def``, a
  procedure's ``return`` or a record constructor gives; ``sorted``, ``first``, a comprehension and the
  like pass on what their list holds (the items themselves, not copies);
- an item of a copy (a loop, choice or comprehension variable over it, a field or item read from it)
  belongs to that copy's *family*; reading any name of the family counts as reading the copy;
- a field write counts only where the field is a record field and not a player variable's name
  (``p.score`` with ``p`` a player is the game's own variable);
- liveness follows the blocks: the branches of an ``if`` or a ``choose:`` are joined, a loop's body
  sees what its next round reads, ``break`` what follows the loop, and the end of a block or
  procedure ends its locals. A procedure changes a parameter when its body (or a procedure it passes
  the parameter to) writes into it; such a call is a write into the argument.
"""
from __future__ import annotations

from typing import Optional

import attrs

from rulewright.dsl import ast
from rulewright.dsl.errors import Diagnostic
from rulewright.interpreter.engine.builtins import called

# a value made afresh by the call: nothing else holds it
_FRESH = "<fresh>"
# roots of a procedure's parameters: the caller's values, never reported here
_PARAM = "@"


class _Write:
    """A change a statement makes to a copy (``family``) through ``node``, ``via`` a procedure or not."""

    def __init__(self, family: str, stmt, node, via: str = ""):
        self.family, self.stmt, self.node, self.via = family, stmt, node, via


class _Copy:
    """Where a family's copy was made, for the message."""

    def __init__(self, what: str, hint: str):
        self.what, self.hint = what, hint


class LostWrites:
    def __init__(self, rules: ast.RulesFile, sym):
        self.rules, self.sym = rules, sym
        self.record_fields = sym.fields - sym.player_vars
        self.diagnostics: list[Diagnostic] = []
        self.changes_param: dict = {name: set() for name in sym.procs}  # procedure -> indexes it changes
        self.copies: dict = {}  # family root -> _Copy
        self.reported: set = set()
        self._in_def: set = set()

    # ------------------------------------------------------------------ entry
    def run(self) -> list[Diagnostic]:
        procs = list(self.sym.procs.values())
        for _ in range(len(procs) + 1):  # which parameters each procedure changes, to a fixed point
            before = {k: set(v) for k, v in self.changes_param.items()}
            for p in procs:
                self._summarise(p)
            if before == self.changes_param:
                break
        for d in self.rules.decls:
            if isinstance(d, ast.ProcDecl):
                env = {name: _PARAM + name for name in d.params}
                self._live(d.body, set(), env, report=True)
            elif isinstance(d, ast.BlockDecl):
                self._live(d.body, set(), {}, report=True)
        return self.diagnostics

    def _summarise(self, p: ast.ProcDecl):
        env = {name: _PARAM + name for name in p.params}
        for w in self._all_writes(p.body, env):
            if w.family.startswith(_PARAM):
                name = w.family[len(_PARAM):]
                if name in p.params:
                    self.changes_param[p.name].add(p.params.index(name))

    def _all_writes(self, body, env):
        for s in body:
            yield from self._writes(s, env)
            self._bind(s, env)
            for inner in ast.blocks_of(s):
                yield from self._all_writes(inner, env)

    # ------------------------------------------------------------------ roots
    def root(self, e, env) -> Optional[str]:
        """The family an expression's value belongs to when it is certainly a copy (or an item of one),
        _FRESH for a value nothing else holds, None for the game's own value or what is not known."""
        if isinstance(e, ast.Name):
            return env.get(e.id)
        if isinstance(e, ast.Attr):
            return self.root(e.obj, env) if e.name in self.record_fields else None
        if isinstance(e, ast.Index):
            return self.root(e.obj, env)
        if isinstance(e, ast.ListComp):
            b = e.binder
            if b.body is None or _path_of(b.body, b.var):
                return self.root(b.source, env)
            return None
        if isinstance(e, ast.Quantifier):
            b = e.binder
            if e.func in ("min", "max") and b.body is not None and not _path_of(b.body, b.var):
                return None  # the smallest of the values computed, not an item
            return self.root(b.source, env) if _passes_on(e) else None
        if isinstance(e, ast.Cond):
            a, b = self.root(e.then, env), self.root(e.orelse, env)
            return a if a == b else None
        if isinstance(e, ast.Match):
            roots = {self.root(value, env) for _pattern, value in e.arms}
            if e.orelse is not None:
                roots.add(self.root(e.orelse, env))
            return roots.pop() if len(roots) == 1 else None
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name):
            name = e.func.id
            if name in self.sym.records or name in self.sym.procs:
                return _FRESH  # a new record; what a procedure returns is copied
            if name in self.sym.defs:
                return self._def_root(self.sym.defs[name], e.args, env)
            if _passes_on(e) and e.args:
                return self.root(e.args[0], env)
        return None

    def _def_root(self, d: ast.DefDecl, args, env) -> Optional[str]:
        """A def gives back what its expression reads, not a copy: its root, its parameters standing for
        the arguments."""
        if d.name in self._in_def:
            return None  # a def that calls itself: not followed
        self._in_def.add(d.name)
        try:
            inner = {p: r for p, a in zip(d.params, args) if (r := self.root(a, env)) is not None}
            return self.root(d.body, inner)
        finally:
            self._in_def.discard(d.name)

    def _bind_to(self, env, var: str, source_root: Optional[str], copy: Optional[_Copy] = None):
        """``var`` now holds an item of a value with root ``source_root``."""
        if source_root is None:
            env.pop(var, None)
        elif source_root == _FRESH:
            env[var] = var
            if copy is not None:
                self.copies[var] = copy
        else:
            env[var] = source_root

    def _bind(self, s, env):
        """The names a statement binds, and what they hold."""
        if isinstance(s, ast.Let) or (isinstance(s, ast.Assign) and isinstance(s.target, ast.Name)):
            name = s.name if isinstance(s, ast.Let) else s.target.id
            if isinstance(s, ast.Assign) and name not in env and name in self.sym.vars:
                return  # a game variable: stored in place
            env[name] = name
            self.copies[name] = _Copy(f"'{name}' holds a copy (line {s.span.line}: a stored value is copied)",
                                      _store_hint(name, s.value))
        elif isinstance(s, (ast.For, ast.Choose)):
            self._bind_item(env, s.var, s.source, s.span)
        elif isinstance(s, ast.ChooseEach):
            env.pop(s.player_var, None)
            self._bind_item(env, s.choice.var, s.choice.source, s.span)
        elif isinstance(s, ast.Draw):
            env[s.name] = s.name
            self.copies[s.name] = _Copy(f"'{s.name}' holds the item drawn (line {s.span.line}), which is in no list",
                                        f"add '{s.name}' to a list of the game, or change it there")

    def _bind_item(self, env, var, source, span):
        r = self.root(source, env)
        copy = None
        if r == _FRESH:
            copy = _Copy(f"'{var}' is an item of {_describe_fresh(source)} (line {span.line}), a copy",
                         _fresh_hint(var, source))
        self._bind_to(env, var, r, copy)

    # ------------------------------------------------------------------ writes and reads
    def _writes(self, s, env) -> list:
        """Every change the statement makes to a copy or a parameter."""
        out = []

        def into(target, via=""):
            r = self.root(target, env)
            if r is not None:
                out.append(_Write(r, s, target, via))

        if isinstance(s, (ast.Assign, ast.AugAssign)) and not isinstance(s.target, ast.Name):
            into(s.target)
        for target in ast.changed(s) if not isinstance(s, (ast.Assign, ast.AugAssign)) else ():
            into(target)
        for e in _header_exprs(s):
            for call in _calls(e):
                for i in sorted(self.changes_param.get(call.func.id, ())):
                    if i < len(call.args):
                        into(call.args[i], call.func.id)
        return out

    def reads(self, e, env, bound=frozenset()) -> set:
        """The families an expression reads."""
        out: set = set()
        pending = [(e, bound)]
        while pending:
            n, b = pending.pop()
            if n is None or isinstance(n, (str, int, float, bool)):
                continue
            if isinstance(n, tuple):
                pending.extend((x, b) for x in n)
            elif isinstance(n, ast.Name):
                if n.id not in b and n.id in env:
                    out.add(env[n.id])
            elif isinstance(n, ast.Binder):
                pending.append((n.source, b))
                inner = b | {n.var}
                pending.extend((x, inner) for x in (n.where, n.body))
            elif isinstance(n, ast.LetIn):
                pending.append((n.value, b))
                pending.append((n.body, b | {n.name}))
            else:
                pending.extend((x, b) for x in ast.parts(n))
        return out

    def _statement_reads(self, s, env) -> set:
        """The families a statement reads. A list a ``draw``, ``remove`` or ``move`` takes from is read
        (what it finds depends on it); of any other target only the indexes (``x[i] = v`` reads i)."""
        got: set = set()
        for e in _header_exprs(s):
            got |= self.reads(_without_changed_arguments(e, self.changes_param), env)
        for target in ast.changed(s):
            got |= self.reads(_under_target(target), env)
        if isinstance(s, (ast.Draw, ast.Remove, ast.MoveItem)):
            got |= self.reads(s.source, env)
        return got

    # ------------------------------------------------------------------ liveness
    def _live(self, body, live: set, env: dict, report: bool, loop_exit: Optional[set] = None) -> set:
        """What is live before ``body`` given ``live`` after it; reports writes that nothing reads."""
        envs = []
        local = dict(env)
        for s in body:  # forward: the roots every statement sees
            envs.append(dict(local))
            self._bind(s, local)
            for inner in ast.blocks_of(s):
                self._forward(inner, local)
        env.update(local)
        for s, before in zip(reversed(body), reversed(envs)):
            live = self._live_statement(s, live, before, report, loop_exit)
        return live

    def _forward(self, body, env):
        for s in body:
            self._bind(s, env)
            for inner in ast.blocks_of(s):
                self._forward(inner, env)

    def _live_statement(self, s, live: set, env: dict, report: bool, loop_exit) -> set:
        if isinstance(s, ast.Break):
            return set(loop_exit or ())
        if isinstance(s, (ast.EndGame, ast.Fail)):
            live = set()
        if isinstance(s, ast.Return):
            live = set()
        writes = self._writes(s, env)
        if isinstance(s, (ast.If, ast.ChooseBlock)):  # one of its blocks runs: what any of them reads is live
            out = set()
            for b in ast.blocks_of(s):
                out |= self._live(b, set(live), dict(env), report, loop_exit)
            live = out
        elif isinstance(s, ast.Step):
            live = self._live(s.body, live, dict(env), report, loop_exit)
        elif isinstance(s, (ast.For, ast.While, ast.Repeat, ast.ChooseEach)):
            inner_env = dict(env)
            if isinstance(s, ast.For):
                self._bind(s, inner_env)
            elif isinstance(s, ast.ChooseEach):
                self._bind(s, inner_env)
            after = set(live)
            head = self._each_round_reads(s, inner_env)
            body_live = set()
            for _ in range(4):  # the next round reads what the body and its test read
                end = after | body_live | head
                new = self._live(s.body, set(end), dict(inner_env), False, after)
                if new == body_live:
                    break
                body_live = new
            self._live(s.body, after | body_live | head, dict(inner_env), report, after)
            live = after | body_live
        if report:
            for w in writes:
                if not w.family.startswith(_PARAM) and w.family not in live:
                    self._report(w)
        kills = self._kills(s, env)
        live = (live - kills) | self._statement_reads(s, env)
        return live

    def _each_round_reads(self, s, env) -> set:
        """What a loop reads before each round: a ``while`` its test, an ``each`` its choice (a ``for``
        takes its list once, ``repeat`` its count once)."""
        if isinstance(s, ast.While):
            return self.reads(s.cond, env)
        if isinstance(s, ast.ChooseEach):
            return self.reads(tuple(_header_exprs(s.choice)), env)
        return set()

    def _kills(self, s, env) -> set:
        """The families a statement starts afresh (their old value is gone)."""
        if isinstance(s, ast.Let):
            return {s.name}
        if isinstance(s, ast.Assign) and isinstance(s.target, ast.Name):
            return {s.target.id}
        if isinstance(s, ast.Draw):
            return {s.name}
        if isinstance(s, ast.Choose) and self.root(s.source, env) == _FRESH:
            return {s.var}
        return set()

    def _report(self, w: _Write):
        s, what = w.stmt, _text(self.rules, w.node)
        key = (s.span.file, s.span.line, s.span.column, what)
        if key in self.reported:
            return
        self.reported.add(key)
        copy = self.copies.get(w.family)
        if copy is None:  # changed where it was made: 'f(x).field = 1', 'hurt(first(f(x)))'
            copy = _Copy(f"'{what}' is {_describe_fresh(w.node)}, a copy", _fresh_hint(what, w.node))
        change = f"the change '{w.via}' makes to '{what}' here" if w.via else f"this change to '{what}'"
        message = f"{change} is lost: {copy.what}, and nothing reads it afterwards"
        hint = copy.hint
        if isinstance(s, ast.Draw) and w.node is s.source:
            hint += f"; to look at the top of '{what}' without taking it, read 'last({what})'"
        at = w.node.span if w.node.span.line else s.span  # the copy changed, underlined
        self.diagnostics.append(Diagnostic(message, at.file, at.line, at.column, self.rules.source_line(at), hint,
                                           "error"))


# ---------------------------------------------------------------------- helpers
def _header_exprs(s) -> list:
    """The expressions a statement evaluates itself (not those of the blocks it holds, nor the places it
    writes: see ast.changed)."""
    if isinstance(s, ast.If):
        return [c for c, _b in s.branches]
    if isinstance(s, ast.ChooseBlock):
        return [s.by, getattr(s, "prompt", None)] + [a.guard for a in s.alternatives]
    if isinstance(s, ast.ChooseEach):
        return [s.players] + _header_exprs(s.choice)
    if isinstance(s, (ast.Assign, ast.AugAssign)):
        return [s.value]
    if isinstance(s, (ast.Add, ast.Remove, ast.MoveItem)):
        return [s.item]
    if isinstance(s, (ast.Shuffle, ast.Draw)):
        return []
    # the rest (for, while, repeat, choose, log, reveal, let, call...): every expression it holds
    return [x for x in ast.parts(s) if not isinstance(x, (str, bool, tuple))]


def _under_target(target):
    """What a write target reads without being written: the indexes along its path, and for a
    player's variable (``p.hand``) the player."""
    out = []
    while isinstance(target, (ast.Attr, ast.Index)):
        if isinstance(target, ast.Index):
            out.append(target.index)
        target = target.obj
    return tuple(out)


def _calls(e):
    for n in ast.walk(e) if e is not None else ():
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            yield n


def _without_changed_arguments(e, changes_param: dict):
    """``e`` with the arguments of procedure calls that change them left out: passing a copy to be
    changed is no read of it (what the procedure reads of it, it reads from the copy)."""
    if e is None or not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and changes_param.get(n.func.id)
                            for n in ast.walk(e)):
        return e

    def drop(n):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and changes_param.get(n.func.id):
            changed = changes_param[n.func.id]
            return attrs.evolve(n, args=tuple(ast.Literal(None) if i in changed else a for i, a in enumerate(n.args)))
        return n
    return ast.rewrite(e, drop)


def _path_of(e, var: str) -> bool:
    """``e`` is ``var`` or a field or item of it."""
    while isinstance(e, (ast.Attr, ast.Index)):
        e = e.obj
    return isinstance(e, ast.Name) and e.id == var


def _text(rules, node) -> str:
    line = rules.source_line(node.span) if node.span.line else ""
    if node.span.end_line == node.span.line and node.span.end_column > node.span.column and line:
        return line[node.span.column - 1:node.span.end_column - 1]
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attr):
        return f"{_text(rules, node.obj)}.{node.name}"
    return "the value"


def _passes_on(node) -> bool:
    """Whether the builtin or quantifier ``node`` calls gives its list, or items of it, not copies."""
    entry = called(node)
    return entry is not None and entry.passes_on


def _describe_fresh(source) -> str:
    while isinstance(source, ast.Call) and _passes_on(source) and source.args:
        source = source.args[0]
    if isinstance(source, ast.ListComp):
        source = source.binder.source
    if isinstance(source, ast.Call) and isinstance(source.func, ast.Name):
        return f"what '{source.func.id}(...)' gives back"
    return "a value made afresh"


def _fresh_hint(var, source) -> str:
    return (f"a procedure's 'return' gives back a copy, and a record made here is held by nothing else; to "
            f"change the game's own value, take '{var}' from where it lives (a variable, or a def: a def hands "
            "over what it reads, not a copy)")


def _store_hint(name, value) -> str:
    if isinstance(value, ast.ListComp) and value.binder.where is not None:
        return (f"'let' and '=' store a copy; to change the game's own items, take them from where they live: "
                f"'choose x in [{value.binder.var} in ... where ...]' (a comprehension written in place hands over "
                f"the items themselves), or store the copy back (e.g. '<variable> = {name}')")
    return f"'let' and '=' store a copy; store it back where it came from (e.g. '<variable> = {name}') or change " \
           "the game's value in place"


def lost_write_diagnostics(rules: ast.RulesFile, sym) -> list[Diagnostic]:
    return LostWrites(rules, sym).run()
