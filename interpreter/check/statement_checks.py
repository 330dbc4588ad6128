"""The checker's statement checks: each statement's expressions, where procedure calls may stand, what
may be assigned and added to, new locals (refused or warned when they hide a name), 'break' inside a
loop, who makes a choice, and a statement after one that always leaves its block."""
from __future__ import annotations

import re
import unicodedata

from rulewright.dsl import ast
from rulewright.dsl.visitor import Visitor
from rulewright.interpreter.engine.builtin_names import ME, NAMES, RESERVED
from rulewright.interpreter.engine.kinds import LIST, NUMBER

_STOPPERS = (ast.EndGame, ast.Return, ast.Break, ast.Fail)  # a statement after one of these never runs
_HOLE = re.compile(r"\{[^{}]*\}")  # a {hole} as a text of the rules writes it


class StatementChecks(Visitor):
    """Statements; a part of Checker (checker.py)."""

    def body(self, stmts, scope: set):
        for i, s in enumerate(stmts):
            self.stmt(s, scope)
            if isinstance(s, _STOPPERS) and i + 1 < len(stmts):
                self.error(stmts[i + 1].span, "this statement can never run: the one before it always leaves the block")
                break

    def stmt(self, s, scope: set):
        self.visit(s, scope)

    def _binds(self, names, span, scope: set = frozenset(), loop: bool = False):
        """A new local: refused as _refused_local says, else a warning when it hides a name the rules
        declare (the local wins there)."""
        for name in names:
            if self._refused_local(name, span, loop) or name in scope:
                continue
            what = self.sym.describe(name) if name in self.sym.globals else ""
            if what:
                self.error(span, f"the local '{name}' hides {what}",
                           f"rename the local: where it is seen, '{name}' means the local", severity="warning")

    def _refused_local(self, name: str, span, loop: bool = False) -> bool:
        """Whether a new local is refused (and reported): it would take a built-in name ('me', 'players'),
        a secret's name, or (``loop``: a loop or quantifier variable) the name of the loop variable around
        it. Two players under one name would be one player to whoever reads the rules, and 'me' another
        player than the one the rules speak for."""
        if name in RESERVED:
            self.error(span, f"'{name}' is a built-in name: a local cannot take it", NAMES[name].hint)
            return True
        if loop and name in self.loop_vars:
            self.error(span, f"'{name}' already names the loop variable of line {self.loop_vars[name]}: "
                       "a second one inside it would hide it", f"give this one another name, say '{name}2'")
            return True
        decl = self.sym.vars.get(name)
        if decl is not None and decl.visibility != "public":
            self.error(span, f"the local '{name}' would hide the {decl.visibility} "
                       f"{'player ' if decl.per_player else ''}variable '{name}'",
                       f"rename the local: '{name}' names a secret here")
            return True
        return False

    def _looping(self, name: str, span, check):
        """Check the body of a loop or a quantifier over ``name`` (``check()``), the name held meanwhile."""
        outer = self.loop_vars.get(name)
        self.loop_vars[name] = span.line
        try:
            check()
        finally:
            if outer is None:
                del self.loop_vars[name]
            else:
                self.loop_vars[name] = outer

    def visit_Let(self, s, scope):
        self.expr(s.value, scope, statement=True)
        self._binds([s.name], s.span, scope)
        scope.add(s.name)

    def _target(self, target, scope, declare: bool):
        if isinstance(target, ast.Name):
            name = target.id
            if name == ME:
                self.error(target.span, "'me' is the player whose turn it is; it cannot be changed")
                return
            if name in scope or name in self.sym.vars:
                return
            if name in self.sym.globals:
                self.error(target.span, f"'{name}' is fixed by the rules and cannot be changed")
            elif declare:
                scope.add(name)
            else:
                self.error(target.span, f"'{name}' is not a variable",
                           self.hint(name, lambda: scope | set(self.sym.vars)) or f"declare it with 'var {name} = ...' "
                           "or make a local with 'let'")
        elif isinstance(target, ast.Attr):
            self.expr(target.obj, scope)
            kinds = self.sym.field_kinds(target.name)  # a player variable's entry or a record's field is set
            if kinds == {"column"}:
                self.error(target.span, f"'{target.name}' is a table column; tables cannot change")
            elif not kinds:
                self._unknown_field(target)
        elif isinstance(target, ast.Index):
            self.expr(target.obj, scope)
            self.expr(target.index, scope)
        else:
            self.error(target.span, "only a variable, a field or an item can be assigned")

    def visit_Assign(self, s, scope):
        self.expr(s.value, scope, statement=True)
        self.types.check_store(s.target, s.value, scope)
        self._target(s.target, scope, declare=False)

    def visit_AugAssign(self, s, scope):
        self.expr(s.value, scope, statement=True)
        self._target(s.target, scope, declare=False)
        self.types.check_store(s.target, s.value, scope, augmented=s.op + "=")

    def visit_CallStmt(self, s, scope):
        self.expr(s.call, scope, statement=True)
        func = s.call.func
        if isinstance(func, ast.Name) and func.id in self.sym.defs and func.id not in scope:
            args = ", ".join(self.sym.defs[func.id].params)
            self.error(s.span, f"'{func.id}' is a def: it gives a value and changes nothing, so a call of it "
                       "alone does nothing",
                       f"use its value (let x = {func.id}(...)), or, to change the game, make it a procedure: "
                       f"procedure {func.id}({args}):")

    def visit_Pass(self, s, scope):
        pass

    def visit_EndGame(self, s, scope):
        self.ends = True

    def visit_Win(self, s, scope):
        self.expr(s.players, scope, statement=True)
        self.types.expect(s.players, scope, (NUMBER, LIST), "'win'", "a player or a list of players",
                          "a player is a seat number: win me, win p, win [1, 3]")

    def visit_Log(self, s, scope):
        self.expr(s.message, scope)
        self.expr(s.to, scope)

    def visit_Reveal(self, s, scope):
        what = s.what
        if isinstance(what, ast.Name) and what.id not in scope and what.id not in self.sym.vars:
            self.expr(what, scope)  # an unknown name is reported as such
            if what.id in self.sym.globals:
                self.error(what.span, f"'{what.id}' is fixed by the rules and public already: nothing to reveal")
        elif isinstance(what, ast.Attr) and what.name not in self.sym.player_vars:
            self.expr(what, scope)
            self.error(what.span, f"'reveal' turns up a local, a variable or a player's entry ('p.{what.name}' "
                       f"needs '{what.name}' to be a player variable)")
        else:
            self.expr(what, scope)
        self.expr(s.text, scope)

    def visit_Fail(self, s, scope):
        self.expr(s.message, scope)

    def visit_Add(self, s, scope):
        self.expr(s.item, scope, statement=True)
        self._list_place(s.target, scope)

    def _list_place(self, node, scope, maps_too: bool = False):
        self.expr(node, scope)
        if isinstance(node, (ast.Literal, ast.ListLit, ast.ListComp, ast.Template)):
            self.error(node.span, "this is a value, not a list in the game: name a variable")
        elif isinstance(node, ast.Name) and node.id in self.sym.tables:
            self.error(node.span, f"'{node.id}' is a table; copy it into a variable to change it")
        else:
            self.types.check_list_place(node, scope, "this statement", maps_too)

    def visit_Remove(self, s, scope):
        self.expr(s.item, scope)
        self._list_place(s.source, scope, maps_too=True)

    def visit_MoveItem(self, s, scope):
        self.expr(s.item, scope)
        self._list_place(s.source, scope)
        self._list_place(s.target, scope)

    def visit_Shuffle(self, s, scope):
        self._list_place(s.target, scope)

    def visit_Draw(self, s, scope):
        self._list_place(s.source, scope)
        self._binds([s.name], s.span, scope)
        scope.add(s.name)

    def visit_Return(self, s, scope):
        if s.value is not None:
            self.expr(s.value, scope, statement=True)

    def visit_Break(self, s, scope):
        if not self.loops:
            self.error(s.span, "'break' is not inside a loop", "'break' leaves a 'for', 'while' or 'repeat'")

    def _loop_body(self, body, scope):
        self.loops += 1
        self.body(body, scope)
        self.loops -= 1

    def visit_TakeTurn(self, s, scope):
        self.turns_taken = True
        self.expr(s.player, scope, statement=True)

    def visit_If(self, s, scope):
        for cond, body in s.branches:
            self.expr(cond, scope, statement=True)
            self.body(body, scope)
        self.body(s.orelse, scope)

    def visit_For(self, s, scope):
        self.expr(s.source, scope, statement=True)
        self._binds([s.var], s.span, scope, loop=True)
        scope.add(s.var)
        self._looping(s.var, s.span, lambda: self._loop_body(s.body, scope))

    def visit_While(self, s, scope):
        self.expr(s.cond, scope, statement=True)
        self._loop_body(s.body, scope)

    def visit_Repeat(self, s, scope):
        self.expr(s.count, scope, statement=True)
        self._loop_body(s.body, scope)

    def visit_Step(self, s, scope):
        self.body(s.body, scope)

    def _decider(self, by, span, scope):
        if by is None and ME not in scope:
            self.error(span, "nobody is named to make this choice: 'me' has no value here",
                       "say who chooses with 'by', for example: by first_player")

    def _choice(self, c: ast.Choose, scope, each: bool = False):
        if not each:  # in 'each p in ... secretly choose' every listed player decides
            self._decider(c.by, c.span, scope)
        self.expr(c.source, scope, statement=True)
        self.expr(c.prompt, scope)  # asked before the choice: the chosen value is not known in it
        self._binds([c.var], c.span, scope)
        scope.add(c.var)
        for part in (c.where, c.by, c.text, c.optional, c.shown):
            if part is not None:
                self.expr(part, scope)

    def visit_Choose(self, s, scope):
        self._choice(s, scope)

    def visit_ChooseBlock(self, s, scope):
        self._decider(s.by, s.span, scope)
        if s.by is not None:
            self.expr(s.by, scope)
        self.expr(s.prompt, scope)
        labels: dict = {}  # each text as a player reads it -> as written
        for alt in s.alternatives:
            shown = _as_read(alt.label)
            if alt.label in labels.values():
                self.error(alt.span, f"two courses of action are both called {alt.label!r}")
            elif shown in labels:  # "rest" and "rest ": two moves a player cannot tell apart
                self.error(alt.span, f"two courses of action are both called {shown!r}: {labels[shown]!r} and "
                           f"{alt.label!r} differ only in spaces or in how a letter is encoded",
                           "give each a text of its own, or replace the other")
            labels.setdefault(shown, alt.label)
            if _HOLE.search(alt.label):  # an alternative's text is its move text and its name: never filled in
                self.error(alt.span, f"the move {alt.label!r} is shown as written, braces and all: an "
                           f"alternative's text has no holes", "say the value in the decision inside it "
                           "(choose x in xs as \"pay {x}\") or in a log line", severity="warning")
            if alt.guard is not None:
                self.expr(alt.guard, scope)
            self.body(alt.body, scope)

    def visit_ChooseEach(self, s, scope):
        self.expr(s.players, scope, statement=True)
        self._binds([s.player_var], s.span, scope, loop=True)
        scope.add(s.player_var)

        def each():
            self._choice(s.choice, scope, each=True)
            self._loop_body(s.body, scope)  # the body runs once per player: a loop
        self._looping(s.player_var, s.span, each)


def _as_read(text: str) -> str:
    """A move's text as a player reads it: its letters composed one way (NFC), its spaces run together."""
    return " ".join(unicodedata.normalize("NFC", text).split())
