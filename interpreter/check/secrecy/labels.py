"""The secrecy check's walk over expressions: the label of a value (the secrets it depends on), the
label of its length, the game variables it is part of (roots), and the key of the player it names.
A def is worked out with its arguments; a procedure called in an expression gives what it returned
where it last ran (calls.py)."""
from __future__ import annotations

from typing import Optional

from rulewright.dsl import ast
from rulewright.dsl.visitor import Visitor
from rulewright.interpreter.check.secrecy.messages import unparse
from rulewright.interpreter.check.secrecy.points import NO_ROOTS, PUBLIC, Point, Val
from rulewright.interpreter.engine.builtins import BUILTINS
from rulewright.interpreter.engine.builtin_names import ME

_ITEM_OF = {name for name, b in BUILTINS.items() if b.gives == "item"}              # an item of their list
_SAME_LENGTH = {name for name, b in BUILTINS.items() if b.gives == "same length"}   # as long as their list


class Labels(Visitor):
    """The labels of expressions; a part of SecrecyCheck (check.py), which holds the symbol table's names
    (vars, player_vars, records, defs, procs) and the memos read here."""

    # ------------------------------------------------------------------ tags
    def tag(self, t: tuple) -> frozenset:
        self.order.setdefault(t, len(self.order))
        return frozenset((t,))

    @staticmethod
    def unseen_by(label: frozenset, who: str) -> frozenset:
        """The tags of a label that player ``who`` may not see (face-down fields are let through)."""
        return frozenset(t for t in label if not (t[0] == "item" or (t[0] == "own" and t[1] == who)))

    @staticmethod
    def not_owned_by(label: frozenset, who: str) -> frozenset:
        return frozenset(t for t in label if not (t[0] == "own" and t[1] == who))

    # ------------------------------------------------------------------ variables
    def public_var(self, name: str, st: Point) -> bool:
        decl = self.vars.get(name)
        return decl is None or decl.visibility == "public" or name in st.revealed

    def var_label(self, name: str, st: Point) -> frozenset:
        """A variable read by its name (a player variable: everyone's values)."""
        if self.public_var(name, st):
            return PUBLIC
        return self.tag(("hidden", name))

    def entry_label(self, name: str, owner: str, st: Point) -> frozenset:
        """One player's entry of a player variable."""
        if self.public_var(name, st) or f"{name}@{owner}" in st.revealed:  # the variable, or this entry
            return PUBLIC
        if self.vars[name].visibility == "secret":
            return self.tag(("own", owner, name))
        return self.tag(("hidden", name))

    def is_entry(self, node: ast.Attr, st: Point) -> bool:
        """Whether ``x.name`` reads a player variable (rather than a record field or a column)."""
        name = node.name
        if name not in self.player_vars:
            return False
        return name not in self.shared_names or not self.public_var(name, st)

    # ------------------------------------------------------------------ keys
    def key(self, node, st: Point) -> str:
        if isinstance(node, ast.Name):
            val = st.env.get(node.id)
            key = val.key or node.id if val is not None else node.id
        else:
            key = unparse(node)
        self.keys_used.add(key)  # a key no one has used is free for a new local (fresh_key)
        return key

    def fresh_key(self, name: str, st: Point) -> str:
        """The key of the player a new local named ``name`` may hold: its name, unless that already stands
        for another player here (``me``; a local or parameter that names a caller's player of that name; a
        secret, a condition or a reveal about one): one key for two players would let each see the
        other's secrets. Then the name with primes (p', p'')."""
        key = name
        while key == ME or (key in self.keys_used and self.key_taken(key, name, st)):
            key += "'"
        self.keys_used.add(key)
        return key

    @staticmethod
    def key_taken(key: str, name: str, st: Point) -> bool:
        def about(label):
            for t in label:
                if t[0] == "own" and t[1] == key:
                    return True
            return False
        if about(st.pc) or any(r.endswith("@" + key) for r in st.revealed):
            return True
        for other, val in st.env.items():
            # the local being bound again no longer names its old player, unless another local still does
            if (other != name and (val.key or other) == key) or (val.label and about(val.label)) \
                    or (val.length and about(val.length)):
                return True
        return False

    def alias_key(self, node, st: Point) -> Optional[str]:
        """The key a local takes from its value: that of a plain name, else none (its own name)."""
        if isinstance(node, ast.Name):
            val = st.env.get(node.id)
            if val is not None:
                return val.key
            if node.id == ME:
                return ME
        return None

    def mark(self, node, st: Point) -> Optional[str]:
        """The announced choice a value carries (rule 5): a local, or a field or item of one."""
        while isinstance(node, (ast.Attr, ast.Index)):
            node = node.obj
        if isinstance(node, ast.Name) and node.id in st.env:
            return st.env[node.id].mark
        if self.is_proc_call(node) and id(node) in self.call_vals:
            return self.call_vals[id(node)].mark
        return None

    def arg_val(self, node, st: Point) -> Val:
        return Val(self.label(node, st), self.length(node, st), self.roots(node, st), self.key(node, st),
                   self.mark(node, st))

    # ------------------------------------------------------------------ labels of expressions
    def label(self, node, st: Point) -> frozenset:
        if node is None or isinstance(node, (ast.Literal, str)):
            return PUBLIC
        return self.visit(node, st)

    def visit_Name(self, node, st):
        val = st.env.get(node.id)
        if val is not None:
            return val.label
        if node.id in self.vars:
            return self.var_label(node.id, st)
        return PUBLIC

    def visit_Template(self, node, st):
        out = PUBLIC
        for p in node.parts:
            if not isinstance(p, str):
                out = out | self.label(p, st)
        return out

    def visit_ListLit(self, node, st):
        out = PUBLIC
        for i in node.items:
            out = out | self.label(i, st)
        return out

    def visit_MapLit(self, node, st):
        out = PUBLIC
        for k, v in node.items:
            out = out | self.label(k, st) | self.label(v, st)
        return out

    def visit_Attr(self, node, st):
        out = self.label(node.obj, st)
        if self.is_entry(node, st):
            return out | self.entry_label(node.name, self.key(node.obj, st), st)
        item = self.item_fields.get(node.name)
        if item is not None and not self.is_face_up(node.obj, item[1], st):
            return out | self.tag(("item", item[0], node.name))
        return out

    def is_face_up(self, obj, vis: ast.FieldVisibility, st: Point) -> bool:
        return (vis.unless is not None and isinstance(obj, ast.Name) and obj.id in st.env
                and (obj.id, vis.unless) in st.face_up)

    def visit_Index(self, node, st):
        obj = node.obj
        if isinstance(obj, ast.Name) and obj.id not in st.env and obj.id in self.player_vars:
            return self.label(node.index, st) | self.entry_label(obj.id, self.key(node.index, st), st)
        return self.label(obj, st) | self.label(node.index, st)

    def visit_Call(self, node, st):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name == "revealed":
            return PUBLIC
        if name == "len" and len(node.args) == 1:
            return self.length(node.args[0], st)
        if name in self.defs:
            return self.def_result("label", name, node, st)
        if name in self.procs and id(node) in self.call_vals:
            return self.call_vals[id(node)].label
        if name in self.records:
            return self.record_label(self.records[name], node, st)
        out = PUBLIC
        for a in node.args:
            out = out | self.label(a, st)
        for _k, v in node.kwargs:
            out = out | self.label(v, st)
        return out

    def record_label(self, decl: ast.RecordDecl, node: ast.Call, st: Point) -> frozenset:
        """A new record: its face-down fields keep what they hold to themselves."""
        face_down = {f for f, _vis in decl.visibility}
        out = PUBLIC
        given = list(zip(decl.fields, node.args)) + list(node.kwargs)
        for field, value in given:
            if field not in face_down:
                out = out | self.label(value, st)
        return out

    def visit_BinOp(self, node, st):
        return self.label(node.left, st) | self.label(node.right, st)

    visit_Compare = visit_BinOp

    def visit_BoolOp(self, node, st):
        # 't.face_up and t.amount > 2': the right side is read only once the left holds
        right = self.facing_up(node.left, st) if node.op == "and" else st
        return self.label(node.left, st) | self.label(node.right, right)

    def facing_up(self, cond, st: Point) -> Point:
        """The point where ``cond`` holds: the face-down fields it says are face up, public."""
        facts = self.face_up_facts(cond, st)
        if not facts:
            return st
        inner = st.copy()
        inner.face_up = inner.face_up | facts
        return inner

    def visit_Not(self, node, st):
        return self.label(node.operand, st)

    visit_Neg = visit_Not

    def visit_Cond(self, node, st):
        return self.label(node.test, st) | self.label(node.then, self.facing_up(node.test, st)) \
            | self.label(node.orelse, st)

    def visit_Match(self, node, st):
        out = self.arm_taken(node, st) | self.label(node.orelse, st)
        for _patterns, value in node.arms:
            out = out | self.label(value, st)
        return out

    def arm_taken(self, node: ast.Match, st: Point) -> frozenset:
        """The label of which arm of a 'match' is taken: its subject and every pattern (or condition) tested."""
        out = self.label(node.subject, st)
        for patterns, _value in node.arms:
            for p in patterns:
                out = out | self.label(p, st)
        return out

    def visit_LetIn(self, node, st):
        return self.label(node.body, self.let_point(node, st))

    def let_point(self, node: ast.LetIn, st: Point) -> Point:
        """The point inside a def's 'let name = value' line: the local holds the value (its player key is
        the value's, as if written in place)."""
        value = node.value
        inner = st.bound(node.name, Val(self.label(value, st), self.length(value, st), self.roots(value, st),
                                        self.key(value, st), self.mark(value, st)))
        inner.face_up = frozenset(f for f in inner.face_up if f[0] != node.name)
        return inner

    def visit_Quantifier(self, node, st):
        b = node.binder
        if node.func == "count" and b.where is None and b.body is None:
            return self.length(b.source, st)
        return self.binder_label(b, st)

    def visit_ListComp(self, node, st):
        return self.binder_label(node.binder, st)

    def binder_label(self, b: ast.Binder, st: Point) -> frozenset:
        source = self.label(b.source, st)
        inner = st.bound(b.var, Val(source, source, self.roots(b.source, st), self.fresh_key(b.var, st)))
        out = source | self.label(b.where, inner)
        if b.body is not None:
            out = out | self.label(b.body, self.facing_up(b.where, inner))
        return out

    def face_up_facts(self, cond, st: Point) -> frozenset:
        """(local, field) pairs a condition makes true: 't.face_up', 't.face_up == true', joined by 'and'."""
        if isinstance(cond, ast.BoolOp) and cond.op == "and":
            return self.face_up_facts(cond.left, st) | self.face_up_facts(cond.right, st)
        if isinstance(cond, ast.Compare) and cond.op == "==" and isinstance(cond.right, ast.Literal) \
                and cond.right.value is True:
            cond = cond.left
        if isinstance(cond, ast.Attr) and cond.name in self.unless_fields and isinstance(cond.obj, ast.Name) \
                and cond.obj.id in st.env:
            return frozenset(((cond.obj.id, cond.name),))
        return frozenset()

    # ------------------------------------------------------------------ lengths
    def length(self, node, st: Point) -> frozenset:
        """The label of len(node): a variable's list length is public, apart from which list it is; but
        a part of a hand ('secret in HAND') keeps its length its owner's."""
        if isinstance(node, ast.Name):
            val = st.env.get(node.id)
            return val.length if val is not None else PUBLIC
        if self.hand_part(node, st):
            return self.label(node, st)
        if isinstance(node, ast.Attr) and self.is_entry(node, st):
            return self.label(node.obj, st)
        if isinstance(node, ast.Index) and self.is_place(node.obj, st):
            return self.place_path(node.obj, st) | self.label(node.index, st)
        if isinstance(node, ast.BinOp) and node.op == "+":
            return self.length(node.left, st) | self.length(node.right, st)
        if isinstance(node, ast.Cond):
            return self.label(node.test, st) | self.length(node.then, st) | self.length(node.orelse, st)
        if isinstance(node, ast.Match):
            out = self.arm_taken(node, st)
            for _patterns, value in node.arms:
                out = out | self.length(value, st)
            return out | (self.length(node.orelse, st) if node.orelse is not None else PUBLIC)
        if isinstance(node, ast.LetIn):
            return self.length(node.body, self.let_point(node, st))
        if isinstance(node, ast.ListLit):
            return PUBLIC
        if isinstance(node, ast.ListComp) and node.binder.where is None:
            return self.length(node.binder.source, st)
        if isinstance(node, ast.Quantifier) and node.func == "sorted" and node.binder.where is None:
            return self.length(node.binder.source, st)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name == "revealed":
                return PUBLIC
            if name in _SAME_LENGTH and len(node.args) == 1:
                return self.length(node.args[0], st)
            if name in self.defs:
                return self.def_result("length", name, node, st)
            if name in self.procs and id(node) in self.call_vals:
                return self.call_vals[id(node)].length
        return self.label(node, st)

    def hand_part(self, node, st: Point) -> bool:
        """Whether ``node`` reads a player's part of a hand ('secret in HAND'), as ``p.kept`` or
        ``kept[p]``: its length is its owner's secret."""
        if isinstance(node, ast.Attr) and self.is_entry(node, st):
            return self.vars[node.name].hand is not None
        if isinstance(node, ast.Index) and isinstance(node.obj, ast.Name) and node.obj.id not in st.env:
            var = self.vars.get(node.obj.id)
            return var is not None and var.per_player and var.hand is not None
        return False

    def is_place(self, node, st: Point) -> bool:
        """A place rooted at a game variable: its name, 'x.v' for a player variable, 'P[i]'."""
        if isinstance(node, ast.Name):
            return node.id not in st.env and node.id in self.vars
        if isinstance(node, ast.Attr):
            return self.is_entry(node, st)
        if isinstance(node, ast.Index):
            return self.is_place(node.obj, st)
        return False

    def place_path(self, node, st: Point) -> frozenset:
        if isinstance(node, ast.Attr):
            return self.label(node.obj, st)
        if isinstance(node, ast.Index):
            return self.place_path(node.obj, st) | self.label(node.index, st)
        return PUBLIC

    # ------------------------------------------------------------------ roots: the variables a value is part of
    def roots(self, node, st: Point) -> frozenset:
        if isinstance(node, ast.Name):
            val = st.env.get(node.id)
            if val is not None:
                return val.roots
            return frozenset((node.id,)) if node.id in self.vars else NO_ROOTS
        if isinstance(node, ast.Attr):
            if node.name in self.player_vars:
                own = frozenset((node.name,))
                return own | self.roots(node.obj, st) if node.name in self.shared_names else own
            return self.roots(node.obj, st)
        if isinstance(node, ast.Index):
            obj = node.obj
            if isinstance(obj, ast.Name) and obj.id not in st.env and obj.id in self.player_vars:
                return frozenset((obj.id,))
            return self.roots(obj, st)
        if isinstance(node, ast.Cond):
            return self.roots(node.then, st) | self.roots(node.orelse, st)
        if isinstance(node, ast.Match):
            out = self.roots(node.orelse, st)
            for _patterns, value in node.arms:
                out = out | self.roots(value, st)
            return out
        if isinstance(node, ast.LetIn):
            return self.roots(node.body, self.let_point(node, st))
        if isinstance(node, ast.Quantifier) and node.func == "first":
            return self.roots(node.binder.source, st)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            name = node.func.id
            if name in _ITEM_OF and node.args:
                return self.roots(node.args[0], st)
            if name in self.defs:
                return self.def_result("roots", name, node, st)
            if name in self.procs and id(node) in self.call_vals:
                return self.call_vals[id(node)].roots
        return NO_ROOTS

    # ------------------------------------------------------------------ functions
    def def_result(self, what: str, name: str, call: ast.Call, st: Point):
        """The label, length label or roots of a def's value, its parameters bound to the arguments."""
        d = self.defs[name]
        args = tuple(Val(self.label(a, st), self.length(a, st), self.roots(a, st), self.key(a, st))
                     for a in call.args)
        if len(args) != len(d.params) or call.kwargs:
            return PUBLIC if what != "roots" else NO_ROOTS
        face_up = self.face_up_of_args(d.params, call, st)
        key = (what, name, args, st.revealed, face_up)
        if key in self.def_memo:
            return self.def_memo[key]
        empty = PUBLIC if what != "roots" else NO_ROOTS
        self.def_memo[key] = empty  # a recursive call meets the public value
        inner = Point(dict(zip(d.params, args)), PUBLIC, st.revealed, face_up)
        result = {"label": self.label, "length": self.length, "roots": self.roots}[what](d.body, inner)
        self.def_memo[key] = result
        return result

    @staticmethod
    def face_up_of_args(params, call: ast.Call, st: Point) -> frozenset:
        """The face-up facts the caller knows of its arguments, about the parameters: in
        '[b in bids where b.turned: text(b)]' the def's 'b.value' is face up too."""
        out = set()
        for param, arg in zip(params, call.args):
            if isinstance(arg, ast.Name) and arg.id in st.env:
                out.update((param, field) for local, field in st.face_up if local == arg.id)
        return frozenset(out)
