"""Type checks: the kinds of values a rules file combines, found before the game runs.

The language has few kinds: number, text, yes/no, list, map, record and none. Where the kind of an
expression is known (a literal, a variable from its first value, a table column, a builtin's result)
the checker reports operations that cannot work: arithmetic on text, adding to something that is not
a list, a yes/no compared with '<'. Where it is not known (locals, record fields) it says nothing: a
false alarm would be worse than a runtime error that names the line.
"""
from __future__ import annotations

from rulewright.dsl import ast

NUMBER, TEXT, BOOL, LIST, MAP, RECORD, NONE, UNKNOWN = "number", "text", "yes/no", "list", "map", "record", "none", None

_BUILTIN_RESULTS = {
    "len": NUMBER, "abs": NUMBER, "sum": NUMBER, "range": LIST, "sorted": LIST, "reversed": LIST,
    "distinct": LIST, "without": LIST, "text": TEXT, "wraps": BOOL, "row": NUMBER, "col": NUMBER,
    "spaces": LIST, "neighbours": LIST, "next": LIST, "previous": LIST, "lines": LIST, "next_player": NUMBER,
    "turn_order": LIST, "shuffled": LIST, "roll": NUMBER,
}
# builtin -> the kinds its first argument may have
_BUILTIN_ARG_KINDS = {"len": (LIST, MAP, TEXT), "sum": (LIST,), "sorted": (LIST,), "reversed": (LIST,),
                      "distinct": (LIST,), "without": (LIST,), "first": (LIST,), "last": (LIST,),
                      "shuffled": (LIST,), "random": (LIST,)}
_QUANTIFIER_RESULTS = {"count": NUMBER, "sum": NUMBER, "all": BOOL, "any": BOOL, "lowest": LIST, "highest": LIST,
                       "sorted": LIST}


def literal_kind(value):
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return NUMBER
    if isinstance(value, str):
        return TEXT
    if value is None:
        return NONE
    return UNKNOWN


class TypeChecker:
    """Infers kinds where they are certain and reports impossible operations through ``report``."""

    def __init__(self, checker):
        self.c = checker
        self.report = checker.error
        self._var_kinds: dict = {}
        self._def_kinds: dict = {}
        self._column_kinds = self._columns()

    def _columns(self) -> dict:
        kinds: dict = {}
        for table in self.c.tables.values():
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
            decl = self.c.vars.get(name)
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
            if node.name in self.c.player_vars and node.name not in self.c.fields | self.c.columns:
                return self.var_kind(node.name)
            if node.name in self.c.columns and node.name not in self.c.fields | self.c.player_vars:
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
            a, b = self.kind(node.then, scope), self.kind(node.orelse, scope)
            return a if a == b else (a if b == NONE else (b if a == NONE else UNKNOWN))
        if isinstance(node, ast.Quantifier):
            return _QUANTIFIER_RESULTS.get(node.func)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name in self.c.records:
                return RECORD
            if name in self.c.defs:
                return self._def_kind(name)
            if name == "revealed" and len(node.args) == 1:
                return self.kind(node.args[0], scope)  # the value itself
            return _BUILTIN_RESULTS.get(name)
        return UNKNOWN

    def _name_kind(self, name, scope):
        if name in scope:
            return UNKNOWN
        if name in self.c.vars:
            return LIST if name in self.c.player_vars else self.var_kind(name)
        if name in ("round_number", "first_player", "player_count"):
            return NUMBER
        if name == "players" or name in self.c.tables or any(b.name == name for b in self.c.boards):
            return LIST
        if name in self.c.option_values:
            kinds = {literal_kind(v) for v in self.c.option_values[name]}
            return kinds.pop() if len(kinds) == 1 else UNKNOWN
        if name in self.c.enum_members:
            return TEXT
        return UNKNOWN

    def _def_kind(self, name):
        if name not in self._def_kinds:
            self._def_kinds[name] = UNKNOWN
            d = self.c.defs[name]
            self._def_kinds[name] = self.kind(d.body, frozenset(d.params) | {"me"})
        return self._def_kinds[name]

    # ------------------------------------------------------------------ checks
    def expect(self, node, scope, wanted: tuple, what: str):
        k = self.kind(node, scope)
        if k not in (UNKNOWN, NONE) and k not in wanted:
            self.report(node.span, f"{what} needs {' or '.join(_article(w) for w in wanted)}, "
                                   f"but this is {_article(k)}")

    def check_expr(self, node, scope):
        """Checks one expression node (its children are visited by the checker's walk)."""
        if isinstance(node, ast.BinOp):
            if node.op == "+":
                left, right = self.kind(node.left, scope), self.kind(node.right, scope)
                if UNKNOWN not in (left, right) and NONE not in (left, right) and (
                        left != right or left not in (NUMBER, TEXT, LIST)):
                    self.report(node.span, f"'+' cannot join {_article(left)} and {_article(right)}")
            else:
                for side in (node.left, node.right):
                    self.expect(side, scope, (NUMBER,), f"'{node.op}'")
        elif isinstance(node, ast.Neg):
            self.expect(node.operand, scope, (NUMBER,), "'-'")
        elif isinstance(node, ast.Compare) and node.op in ("<", "<=", ">", ">="):
            for side in (node.left, node.right):
                self.expect(side, scope, (NUMBER, TEXT), f"'{node.op}'")
        elif isinstance(node, ast.Compare) and node.op in ("in", "not in"):
            self.expect(node.right, scope, (LIST, MAP, TEXT), f"'{node.op}'")
        elif isinstance(node, ast.Index):
            self.expect(node.obj, scope, (LIST, MAP), "'[...]'")
        elif isinstance(node, ast.Quantifier):
            self.expect(node.binder.source, scope, (LIST,), f"'{node.func}(x in ...)'")
        elif isinstance(node, ast.ListComp):
            self.expect(node.binder.source, scope, (LIST,), "'[x in ...]'")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            kinds = _BUILTIN_ARG_KINDS.get(node.func.id)
            if kinds is not None and node.func.id not in self.c.defs and node.args:
                self.expect(node.args[0], scope, kinds, f"'{node.func.id}'")

    def check_list_place(self, node, scope, what: str, maps_too: bool = False):
        self.expect(node, scope, (LIST, MAP) if maps_too else (LIST,), what)

    def check_store(self, target, value, scope, augmented: str = ""):
        if isinstance(target, ast.Name) and target.id in self.c.vars and target.id not in scope:
            have = self.var_kind(target.id)
        elif isinstance(target, ast.Attr) and target.name in self.c.player_vars \
                and target.name not in self.c.fields:
            have = self.var_kind(target.name)
        else:
            return
        new = self.kind(value, scope)
        if augmented:
            if have not in (UNKNOWN, NUMBER, LIST):
                self.report(target.span, f"'{augmented}' needs a number, but '{_target_name(target)}' holds "
                            f"{_article(have)}")
            elif have == NUMBER:
                self.expect(value, scope, (NUMBER,), f"'{augmented}'")
            return
        if UNKNOWN in (have, new) or NONE in (have, new) or have == new:
            return
        self.report(value.span, f"'{_target_name(target)}' holds {_article(have)}, not {_article(new)}")


def _target_name(target) -> str:
    return target.id if isinstance(target, ast.Name) else target.name


def _article(kind) -> str:
    return {"number": "a number", "text": "text", "yes/no": "a yes/no value", "list": "a list", "map": "a map",
            "record": "a record", "none": "none"}.get(kind, str(kind))
