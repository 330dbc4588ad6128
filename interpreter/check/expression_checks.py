"""The checker's expression checks: names (locals, variables, constants; 'me' where it has a value),
fields, calls (procedures where they may run, arity, records made with their fields, the board's
functions), quantifiers, and values an option never has when compared or matched with it."""
from __future__ import annotations

import attrs

from rulewright.dsl import ast
from rulewright.dsl.errors import suggest
from rulewright.dsl.visitor import Visitor
from rulewright.interpreter.boards import registry as board_kinds
from rulewright.interpreter.engine.builtins import QUANTIFIERS
from rulewright.interpreter.engine.kinds import NONE
from rulewright.interpreter.engine.builtin_names import BASE_CALL, ME

WAS = "was"  # was(x) in an invariant: x before the move (unless the rules declare a def of the name)

# How other languages (Python, JavaScript, Lua...) write a value this language has a word for.
_OTHER_SPELLINGS = {"True": "true", "TRUE": "true", "False": "false", "FALSE": "false", "None": "none",
                    "null": "none", "NULL": "none", "nil": "none", "undefined": "none", "self": ME, "this": ME}


class ExpressionChecks(Visitor):
    """Expressions; a part of Checker (checker.py)."""

    def expr(self, node, scope: set, statement: bool = False):
        """Check an expression. ``statement``: it is a statement's own expression, where procedure calls
        may stand (they run before the rest of it); below an 'and', 'or', 'if ... else', a 'match', a
        quantifier or a def they may not, since they would run even where the value is not needed."""
        if node is None:
            return
        was = self.proc_ok
        self.proc_ok = statement
        try:
            self.visit(node, scope)
            self.types.check_expr(node, scope)
        finally:
            self.proc_ok = was

    def sub(self, node, scope: set):
        """A part that is evaluated whenever its parent is (procedure calls stay allowed)."""
        self.expr(node, scope, statement=self.proc_ok)

    def visit_Literal(self, node, scope):
        pass

    def visit_Template(self, node, scope):
        for p in node.parts:
            if not isinstance(p, str):
                self.sub(p, scope)

    def visit_ListLit(self, node, scope):
        for i in node.items:
            self.sub(i, scope)

    def visit_MapLit(self, node, scope):
        for k, v in node.items:
            self.sub(k, scope)
            self.sub(v, scope)

    def visit_Name(self, node, scope):
        name = node.id
        if name in scope or name in self.sym.globals or id(node) in self.not_names:
            return
        if name == ME:
            self.error(node.span, "'me' (the player whose turn it is) has no value here",
                       "'me' exists in 'turn:', in procedures and in per-player variables")
            return
        if self.sym.function(name) is not None:
            self.error(node.span, f"'{name}' is a function; call it: {name}(...)")
            return
        word = _OTHER_SPELLINGS.get(name)
        expected = self.expected_words.get(id(node))  # compared with a value of a known kind: only that kind
        self.error(node.span, f"unknown name '{name}'", f"write '{word}'" if word else
                   self.hint(name, expected) if expected else
                   self.hint(name, lambda: (scope | self.sym.globals | set(self.sym.defs) | set(self.sym.procs))
                             - self._only_option_values()))

    def _only_option_values(self) -> set:
        """Words that are only an option's values: a bare one means something compared with its option
        (offered there, _option_values_spelled), never in a call or a sum: no 'did you mean' elsewhere."""
        members = {m for d in self.sym.enums.values() for m in d.members}
        return {v for values in self.sym.option_values.values() for v in values
                if isinstance(v, str)} - members - self.sym.headings

    def visit_Attr(self, node, scope):
        if isinstance(node.obj, ast.Name) and node.obj.id == BASE_CALL and BASE_CALL not in scope | self.sym.globals:
            self._base_of_unknown(node)
            return
        self.sub(node.obj, scope)
        if not self._is_field(node.name):
            self._unknown_field(node)

    def _base_of_unknown(self, node):
        """``base.NAME`` where no local or variable is named 'base' and NAME is no def or procedure of the base
        (a replaced one is caught with the variant): one error about NAME, not two about 'base' and a field."""
        routines = set(self.sym.defs) | set(self.sym.procs)
        self.error(node.span, f"base.{node.name}: the base has no def or procedure '{node.name}'",
                   self.hint(node.name, lambda: routines) or
                   f"base.NAME(...) calls the base's own version of a def or procedure this variant replaces")

    def _is_field(self, name: str) -> bool:
        return bool(self.sym.field_kinds(name))

    def _unknown_field(self, node):
        hint = self.hint(node.name, lambda: self.sym.player_vars | self.sym.columns.keys() | self.sym.fields)
        self.error(_name_span(node), f"'{node.name}' is not a player variable, a table column or a record field",
                   hint)

    def visit_Index(self, node, scope):
        self.sub(node.obj, scope)
        self.sub(node.index, scope)

    def visit_Call(self, node, scope):
        func = node.func
        if not isinstance(func, ast.Name):
            self.error(node.span, "only a named function can be called")
            return
        name = func.id
        self._expect_kind_in_call(node, scope)
        for a in node.args:
            self.sub(a, scope)
        for _k, v in node.kwargs:
            self.sub(v, scope)
        n = len(node.args) + len(node.kwargs)
        what = self.sym.function(name)
        if name in self.sym.procs:
            self.called.add(name)
            params = self.sym.procs[name].params
            if not self.proc_ok:
                where = "a def" if self.in_def else "this part of an expression"
                self.error(node.span, f"procedure '{name}' changes the game, so it cannot run inside {where}",
                           "a procedure may stand in a statement's own value, condition or list, not in a text or "
                           f"under 'and', 'or', 'if ... else', 'match', a quantifier: first 'let x = {name}(...)'")
            elif node.kwargs:
                self.error(node.span, f"procedure '{name}' takes no named arguments", f"write {name}({', '.join(params)})")
            elif len(node.args) != len(params):
                self.error(node.span, f"{_called(node, name, 'procedure')} takes {len(params)} argument(s) "
                           f"({', '.join(params)}), not {n}")
        elif name in self.sym.defs:
            params = self.sym.defs[name].params
            if node.kwargs:
                self.error(node.span, f"'{name}' takes no named arguments", f"write {name}({', '.join(params)})")
            elif n != len(params):
                self.error(node.span,
                           f"{_called(node, name)} takes {len(params)} argument(s) ({', '.join(params)}), not {n}")
        elif name in self.sym.records:
            self._construction(name, node)
        elif name == WAS:
            self._was(node, n)
        elif what is not None:  # a builtin or a board's function
            b = what[1]
            if not b.min_args <= n <= b.max_args:
                want = str(b.min_args) if b.min_args == b.max_args else f"{b.min_args} to {b.max_args}"
                self.error(node.span, f"'{name}' takes {want} argument(s), not {n}")
            if node.kwargs:
                self.error(node.span, f"'{name}' takes no named arguments")
            if what[0] == "board":
                self._board_function(name, node)
        else:
            self.error(func.span, f"unknown function '{name}'", self.hint(name, self.sym.functions))

    def _was(self, node, n: int):
        """was(x): x's value before the last move, which only an invariant, checked after every move,
        has (interpreter/compile/invariants.py)."""
        if not self.in_invariant:
            self.error(node.span, "was(...) is a value before the last move: only an invariant has one",
                       "compare with an earlier value in an 'invariant', or keep the value in a variable")
        elif n != 1 or node.kwargs:
            self.error(node.span, f"'was' takes 1 argument, not {n}")
        elif any(isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == WAS
                 for c in ast.walk(node.args[0])):
            self.error(node.span, "was(...) inside was(...) has no value: one move back is all an "
                                  "invariant keeps")

    def _construction(self, name, node):
        """A record (or an enum's member with data) made with its fields in order, then by name; a field
        left out takes its default. Each mistake is reported at the argument that makes it (a missing
        field at the call)."""
        decl = self.sym.record_decls[name]
        fields = decl.fields
        enum = self.sym.tags.get(name)
        what = f"member '{name}'" if enum else f"record '{name}'"
        declared = f"enum {enum}: {name}(...)" if enum else f"record {name}(...)"
        if len(node.args) > len(fields):
            self.error(node.args[len(fields)].span, f"{what} has {len(fields)} fields "
                       f"({', '.join(fields)}), but {len(node.args)} are given in order")
        in_order = fields[:len(node.args)]
        given = set(in_order)
        names_at = node.names_at or tuple(node.span for _ in node.kwargs)
        misnamed = False  # a name given twice or unknown is most often the missing field misspelt
        for (k, _v), at in zip(node.kwargs, names_at):
            misnamed = misnamed or k not in fields or k in given
            if k not in fields:
                self.error(at, f"{what} has no field '{k}'", suggest(k, fields) or f"its fields: {', '.join(fields)}")
            elif k in given:
                self.error(at, f"{what}: field '{k}' is given twice",
                           f"value {in_order.index(k) + 1} in order gives it already; keep one"
                           if k in in_order else "keep one")
            given.add(k)
        defaults = {f for f, _v in decl.defaults}
        missing = [f for f in fields if f not in given and f not in defaults]
        if missing and not misnamed and len(node.args) <= len(fields):
            many = len(missing) > 1
            self.error(node.span, f"{what} needs field{'s' if many else ''} " + ", ".join(f"'{f}'" for f in missing),
                       f"give {'them' if many else 'it'} by name, {name}({', '.join(f'{f}: ...' for f in missing)}), "
                       f"or a default in '{declared}'")

    def _board_function(self, name, node):
        """A board's function needs a board of a kind that has it (every board, when options choose)."""
        if not self.sym.boards:
            self.error(node.span, f"'{name}' works on the board, and this game has none",
                       "declare one: board b: grid 8 by 8")
            return
        for b in self.sym.boards:
            kind = board_kinds.KINDS.get(b.spec.kind)
            if kind is not None and name not in kind.functions:
                self.error(node.span, f"'{name}' does not work on board '{b.name}', which is a {kind.kind}",
                           f"a {kind.kind} has: " + ", ".join(sorted(kind.functions)))
                return

    def _binder(self, b: ast.Binder, scope):
        self.sub(b.source, scope)
        self._binds([b.var], b.span, scope, loop=True)
        inner = scope | {b.var}

        def parts():
            self.expr(b.where, inner)
            self.expr(b.body, inner)
        self._looping(b.var, b.span, parts)

    def visit_Quantifier(self, node, scope):
        if node.func not in QUANTIFIERS:
            self.error(node.span, f"'{node.func}' does not take 'x in list'",
                       "these do: " + ", ".join(sorted(QUANTIFIERS)))
        elif QUANTIFIERS[node.func].needs_body and node.binder.body is None:
            self.error(node.span, f"'{node.func}(x in list ...)' needs ': value' to say what to compare",
                       f"for example {node.func}({node.binder.var} in ... : {node.binder.var}.score)")
        elif node.binder.descending and node.func != "sorted":
            self._descending_outside_sorted(node.binder)
        self._binder(node.binder, scope)

    def visit_ListComp(self, node, scope):
        if node.binder.descending:
            self._descending_outside_sorted(node.binder)
        self._binder(node.binder, scope)

    def _descending_outside_sorted(self, b: ast.Binder):
        self.error(b.body.span, "only 'sorted(x in list: value descending)' puts items in an order",
                   "highest(x in list: value) gives the items with the largest value; sorted(...) all of "
                   "them, highest first")

    def visit_BinOp(self, node, scope):
        self.sub(node.left, scope)
        self.sub(node.right, scope)
        for side in (node.left, node.right):  # what types.py leaves alone: arithmetic on none itself
            if isinstance(side, ast.Literal) and side.value is None:
                self.error(side.span, f"'{node.op}' needs numbers, not {NONE}")

    def _option_values_spelled(self, subject, candidates, scope):
        """Values compared with (or matched against) an option that the option never has."""
        if not (isinstance(subject, ast.Name) and subject.id in self.sym.options and subject.id not in scope):
            return
        values = self.sym.option_values[subject.id]
        for v in candidates:
            if isinstance(v, ast.Name) and (v.id in scope or v.id in self.sym.globals and v.id not in self.sym.members):
                continue  # a variable or a constant: not a value spelled out
            value = v.id if isinstance(v, ast.Name) else getattr(v, "value", None)
            if isinstance(v, (ast.Name, ast.Literal)) and value not in values:
                self.error(v.span, f"option '{subject.id}' is never {value!r}",
                           self.hint(str(value), [str(x) for x in values])
                           or "its values: " + " | ".join(str(x) for x in values))
                self.not_names.add(id(v))

    def visit_Compare(self, node, scope):
        for a, b in ((node.left, node.right), (node.right, node.left)):
            others = [b] if node.op in ("==", "!=") else (b.items if isinstance(b, ast.ListLit) else [])
            self._option_values_spelled(a, others, scope)
            self._expect_kind_of(a, others, scope)
        self.sub(node.left, scope)
        self.sub(node.right, scope)

    def _expect_kind_of(self, subject, others, scope):
        """The bare words compared with ``subject`` are of its kind (an enum's members, a table's keys, the
        board's spaces) when it is known: a misspelt one is offered only names of that kind."""
        kind = self.kind_of_words(self._value_words(subject, scope))
        if kind:
            for o in others:
                if isinstance(o, ast.Name):
                    self.expected_words[id(o)] = kind

    def _value_words(self, e, scope) -> list:
        """The bare words ``e`` is known to be one of: a column's cells, a member, a list of members."""
        if isinstance(e, ast.Attr):
            cells = [r.values[t.columns.index(e.name)] for name in self.sym.columns.get(e.name, ())
                     for t in (self.sym.tables[name],) for r in t.rows if t.columns.index(e.name) < len(r.values)]
            return [c.id for c in cells if isinstance(c, ast.Name)]
        if isinstance(e, ast.Name) and e.id not in scope and e.id in self.sym.members:
            return [e.id]
        if isinstance(e, ast.ListLit):
            return [w for x in e.items for w in self._value_words(x, scope)]
        return []

    def _expect_kind_in_call(self, node, scope):
        """A bare word passed to a function is offered, when misspelt, names of the kind of the call's other
        arguments (without([flaps, wheels], whels): the gear) where one is known."""
        args = list(node.args) + [v for _k, v in node.kwargs]
        for a in args:
            if isinstance(a, ast.Name) and a.id not in scope:
                kind = self.kind_of_words([w for o in args if o is not a for w in self._value_words(o, scope)])
                if kind:
                    self.expected_words[id(a)] = kind

    def kind_of_words(self, words) -> frozenset:
        """The names of the kinds ``words`` are of (the members of an enum, the keys of a table, the board's
        spaces, the values of an option: those that hold one of them), or nothing when a word is of none."""
        words = set(words)
        if not words:
            return frozenset()
        kinds = [frozenset(d.members) for d in self.sym.enums.values()]
        kinds += [frozenset(k for k, t in self.sym.table_keys.items() if t == name) for name in self.sym.tables]
        kinds += [frozenset(v for v in values if isinstance(v, str)) for values in self.sym.option_values.values()]
        kinds.append(frozenset(self.spaces))
        names = frozenset().union(*(k for k in kinds if words & k))
        return names if words <= names else frozenset()

    def visit_BoolOp(self, node, scope):
        self.sub(node.left, scope)
        self.expr(node.right, scope)  # not always evaluated

    def visit_Not(self, node, scope):
        self.sub(node.operand, scope)

    def visit_Neg(self, node, scope):
        self.sub(node.operand, scope)

    def visit_Cond(self, node, scope):
        self.sub(node.test, scope)
        self.expr(node.then, scope)
        self.expr(node.orelse, scope)

    def visit_Match(self, node, scope):
        if node.subject is not None:
            self.sub(node.subject, scope)
            patterns = [p for ps, _v in node.arms for p in ps]
            self._option_values_spelled(node.subject, patterns, scope)
            self._expect_kind_of(node.subject, patterns, scope)
            seen: dict = {}
            for p in patterns:
                self.expr(p, scope)
                self.types.check_equal(node.subject, p, scope, "match")
                key = literal_value(p) if isinstance(p, (ast.Name, ast.Literal)) else None
                if key is not None and key in seen:
                    self.error(p.span, f"{key!r} is matched twice; the second arm can never be taken",
                               f"the first is at line {seen[key].span.line}")
                seen.setdefault(key, p)
        else:
            for (cond,), _v in node.arms:
                self.expr(cond, scope)
        for _ps, value in node.arms:
            self.expr(value, scope)
        self.expr(node.orelse, scope)

    def visit_LetIn(self, node, scope):
        self.expr(node.value, scope)
        self._binds([node.name], node.span, scope)
        self.expr(node.body, scope | {node.name})


def _name_span(node: ast.Attr) -> ast.Span:
    """Where the field's name of ``x.name`` stands (underlined in a message), when the node ends on its line."""
    span = node.span
    if span.end_line == span.line and span.end_column - len(node.name) > span.column:
        return attrs.evolve(span, column=span.end_column - len(node.name))
    return span


def literal_value(node):
    """The value a bare word or a literal stands for (a table's key, a pattern)."""
    return node.id if isinstance(node, ast.Name) else getattr(node, "value", None)


def _called(call: ast.Call, name: str, kind: str = "") -> str:
    """How a message names the def or procedure ``name`` that ``call`` calls: a base's version kept by a
    variant (errata.py's 'x@base') is the ``base(...)`` or ``base.x(...)`` written there (told apart by the
    width of what the call names: errata.to_base_of keeps the span of 'base.x')."""
    if "@" in name:
        own, span = name.split("@")[0], call.func.span
        written = (f"base.{own}(...)" if span.end_line == span.line and span.end_column - span.column > len("base")
                   else "base(...)")
        return f"{written}, the base's own '{own}',"
    return f"{kind} '{name}'".strip()
