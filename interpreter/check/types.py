"""Type checks: the kinds of values a rules file combines, found before the game runs.

The language has few kinds: number, text, yes/no, list, map, record and none. Where the kind of an
expression is known (a literal, a variable from its first value, a table column, a builtin's result)
the checker reports operations that cannot work: arithmetic on text, adding to something that is not
a list, a yes/no compared with '<'. Where it is not known (locals, record fields) it says nothing: a
false alarm would be worse than a runtime error that names the line.
"""
from __future__ import annotations

from rulewright.dsl import ast
from rulewright.dsl.visitor import Visitor
from rulewright.interpreter.engine.builtin_names import ME, NAMES, SPEAKER
from rulewright.interpreter.engine.kinds import BOOL, LIST, MAP, NONE, NUMBER, RECORD, TEXT, UNKNOWN, article, literal_kind

_QUANTIFIER_RESULTS = {"count": NUMBER, "sum": NUMBER, "all": BOOL, "any": BOOL, "lowest": LIST, "highest": LIST,
                       "sorted": LIST}


class TypeChecker(Visitor):
    """Infers kinds where they are certain and reports impossible operations through ``report``."""

    def __init__(self, checker):
        self.sym = checker.sym
        self.report = checker.error
        self._var_kinds: dict = {}
        self._def_kinds: dict = {}
        self._column_kinds = self._columns()

    def _columns(self) -> dict:
        kinds: dict = {}
        for table in self.sym.tables.values():
            for i, column in enumerate(table.columns):
                for row in table.rows:
                    if i < len(row.values):
                        v = row.values[i]
                        k = TEXT if isinstance(v, ast.Name) else literal_kind(v.value)
                        if k == NONE:
                            continue
                        kinds.setdefault(column, set()).add(k)
        return {c: ks.pop() if len(ks) == 1 else UNKNOWN for c, ks in kinds.items()}

    # ------------------------------------------------------------------ inference
    def var_kind(self, name):
        if name not in self._var_kinds:
            self._var_kinds[name] = UNKNOWN  # guards against a variable defined by itself
            decl = self.sym.vars.get(name)
            k = self.kind(decl.value, frozenset()) if decl is not None else UNKNOWN
            self._var_kinds[name] = UNKNOWN if k == NONE else k
        return self._var_kinds[name]

    def kind(self, node, scope):
        if isinstance(node, ast.Literal):
            return literal_kind(node.value)
        if isinstance(node, ast.Template):
            return TEXT
        if isinstance(node, (ast.ListLit, ast.ListComp)):
            return LIST
        if isinstance(node, ast.MapLit):
            return MAP
        if isinstance(node, (ast.Compare, ast.Not)):
            return BOOL
        if isinstance(node, ast.Name):
            return self._name_kind(node.id, scope)
        if isinstance(node, ast.Attr):
            kinds = self.sym.field_kinds(node.name)
            if kinds == {"player"}:
                return self.var_kind(node.name)
            if kinds == {"column"}:
                return self._column_kinds.get(node.name)
            return UNKNOWN
        if isinstance(node, ast.BinOp):
            left, right = self.kind(node.left, scope), self.kind(node.right, scope)
            if node.op == "+" and left == right and left in (TEXT, LIST):
                return left
            return NUMBER if left == NUMBER and right == NUMBER else UNKNOWN
        if isinstance(node, ast.Neg):
            return NUMBER
        if isinstance(node, ast.BoolOp):
            left, right = self.kind(node.left, scope), self.kind(node.right, scope)
            return left if left == right else UNKNOWN
        if isinstance(node, ast.Cond):
            return _join(self.kind(node.then, scope), self.kind(node.orelse, scope))
        if isinstance(node, ast.Match):
            kinds = [self.kind(v, scope) for _ps, v in node.arms]
            if node.orelse is not None:
                kinds.append(self.kind(node.orelse, scope))
            out = kinds[0] if kinds else UNKNOWN
            for k in kinds[1:]:
                out = _join(out, k)
            return out
        if isinstance(node, ast.LetIn):
            return self.kind(node.body, scope | {node.name})
        if isinstance(node, ast.Quantifier):
            return _QUANTIFIER_RESULTS.get(node.func)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            what = self.sym.function(name)
            if what is None or what[0] == "procedure":
                return UNKNOWN
            if what[0] == "record":
                return RECORD
            if what[0] == "def":
                return self._def_kind(name)
            if name == "revealed" and len(node.args) == 1:
                return self.kind(node.args[0], scope)  # the value itself
            return what[1].result
        return UNKNOWN

    def _name_kind(self, name, scope):
        if name == ME and ME in scope:
            return NUMBER  # a player is their seat number
        if name in scope:
            return UNKNOWN
        if name in self.sym.vars:
            return LIST if name in self.sym.player_vars else self.var_kind(name)
        builtin = NAMES.get(name)
        if builtin is not None and builtin.role != SPEAKER:  # ('me' outside a scope that has it: unknown)
            return builtin.kind
        if name in self.sym.tables or name in self.sym.board_names:
            return LIST
        if name in self.sym.option_values:
            kinds = {literal_kind(v) for v in self.sym.option_values[name]}
            return kinds.pop() if len(kinds) == 1 else UNKNOWN
        if name in self.sym.members:
            return TEXT
        return UNKNOWN

    def _def_kind(self, name):
        if name not in self._def_kinds:
            self._def_kinds[name] = UNKNOWN
            d = self.sym.defs[name]
            self._def_kinds[name] = self.kind(d.body, frozenset(d.params) | {ME})
        return self._def_kinds[name]

    # ------------------------------------------------------------------ checks
    def expect(self, node, scope, wanted: tuple, what: str, wanted_words: str = "", hint: str = ""):
        k = self.kind(node, scope)
        if k not in (UNKNOWN, NONE) and k not in wanted:
            self.report(node.span, f"{what} needs {wanted_words or ' or '.join(article(w) for w in wanted)}, "
                                   f"but this is {article(k)}", hint)

    def check_equal(self, left, right, scope, op: str = "=="):
        """Two values of different kinds are never equal: a comparison of them is a mistake."""
        a, b = self.kind(left, scope), self.kind(right, scope)
        if UNKNOWN in (a, b) or NONE in (a, b) or a == b:
            return
        verdict = "never holds" if op in ("==", "match") else "always holds"
        what = "this match arm can never be taken" if op == "match" else f"'{op}' {verdict}"
        self.report(right.span if op == "match" else left.span,
                    f"{what}: {article(a)} is never equal to {article(b)}",
                    'write both sides as the same kind, e.g. 9 and not "9"')

    def check_expr(self, node, scope):
        """Checks one expression node (its children are visited by the checker's walk)."""
        self.visit(node, scope)

    def generic_visit(self, node, scope):
        pass  # a name, a literal, a condition...: no operation whose operands have a kind to check

    def visit_BinOp(self, node, scope):
        if node.op == "+":
            left, right = self.kind(node.left, scope), self.kind(node.right, scope)
            if UNKNOWN not in (left, right) and NONE not in (left, right) and (
                    left != right or left not in (NUMBER, TEXT, LIST)):
                self.report(node.span, f"'+' cannot join {article(left)} and {article(right)}",
                            "'+' adds numbers, or joins two texts or two lists; to put a value into text, "
                            "write \"{x}\" or text(x)")
        else:
            for side in (node.left, node.right):
                self.expect(side, scope, (NUMBER,), f"'{node.op}'")

    def visit_Neg(self, node, scope):
        self.expect(node.operand, scope, (NUMBER,), "'-'")

    def visit_Compare(self, node, scope):
        if node.op in ("<", "<=", ">", ">="):
            for side in (node.left, node.right):
                self.expect(side, scope, (NUMBER, TEXT), f"'{node.op}'")
        elif node.op in ("in", "not in"):
            self.expect(node.right, scope, (LIST, MAP, TEXT), f"'{node.op}'")
        elif node.op in ("==", "!="):
            self.check_equal(node.left, node.right, scope, node.op)

    def visit_Index(self, node, scope):
        self.expect(node.obj, scope, (LIST, MAP), "'[...]'")

    def visit_Quantifier(self, node, scope):
        self.expect(node.binder.source, scope, (LIST,), f"'{node.func}(x in ...)'")

    def visit_ListComp(self, node, scope):
        self.expect(node.binder.source, scope, (LIST,), "'[x in ...]'")

    def visit_Call(self, node, scope):
        if not isinstance(node.func, ast.Name):
            return
        what = self.sym.function(node.func.id)
        if what is not None and what[0] in ("builtin", "board"):
            for arg, kinds in zip(node.args, what[1].args):
                if kinds:
                    self.expect(arg, scope, kinds, f"'{node.func.id}'")

    def check_list_place(self, node, scope, what: str, maps_too: bool = False):
        self.expect(node, scope, (LIST, MAP) if maps_too else (LIST,), what)

    def check_store(self, target, value, scope, augmented: str = ""):
        if isinstance(target, ast.Name) and target.id in self.sym.vars and target.id not in scope:
            have = self.var_kind(target.id)
        elif isinstance(target, ast.Attr) and target.name in self.sym.player_vars \
                and target.name not in self.sym.fields:
            have = self.var_kind(target.name)
        else:
            return
        new = self.kind(value, scope)
        if augmented:
            if have not in (UNKNOWN, NUMBER, LIST):
                self.report(target.span, f"'{augmented}' needs a number, but '{_target_name(target)}' holds "
                            f"{article(have)}")
            elif have == NUMBER:
                self.expect(value, scope, (NUMBER,), f"'{augmented}'")
            return
        if UNKNOWN in (have, new) or NONE in (have, new) or have == new:
            return
        self.report(value.span, f"'{_target_name(target)}' holds {article(have)}, not {article(new)}")


def _target_name(target) -> str:
    return target.id if isinstance(target, ast.Name) else target.name


def _join(a, b):
    """The kind of a value that is one of two kinds (none joins anything)."""
    return a if a == b else (a if b == NONE else (b if a == NONE else UNKNOWN))
