"""The information-flow check: where a secret could reach a player who may not see it.

The checker's last pass (``rulewright validate``). It follows every value of the rules from where it
is read to where it goes, with a *label*: the set of secrets it depends on. A label is a frozenset of
tags, the empty set being public:

- ``("hidden", v)``  a ``hidden`` variable, a shared ``secret`` variable, or a secret ``player var``
  read whole (``hand``: everyone's values): nobody may know it;
- ``("own", k, v)``  the secret ``player var`` v of the player the rules name ``k`` (``me.hand``,
  ``p.hand``, ``hand[p]``); ``v`` is ``("choice", c)`` for the value chosen in a secret decision;
- ``("item", r, f)``  a face-down field f of a record r (``record bid(amount secret to owner)``).

Player keys are the text of the player expression after substitution: ``me``; a loop, quantifier or
decision variable's name; for a parameter, the caller's key of a plain-name argument, else the
argument's text; any other expression's text. ``len()`` of a variable's list is public (views show
counts), so a ``for`` over ``p.hand`` runs under a public condition; ``revealed(e)`` is public (and
``revealed(x)`` of a local, evaluated unconditionally, makes x public from there on); ``reveal x``
makes a local public from there on, ``reveal v``/``reveal p.v`` the variable to the end of the block
(and in the procedures called there); ``for p in players: reveal p.v`` reveals v (every entry) after
the loop, to the end of the block the loop stands in. A report a procedure's body gives only because
of a secret argument is made at the call's argument, where the secret enters, naming the procedure
and the line inside it. The value chosen in a public decision is public (the move
announces it); in a secret one, it is the decider's secret.

Locals are followed statement by statement (their label, the label of their length, the variables
they are part of); the branches of an ``if`` are joined, loops run twice. A ``match`` depends on its
subject and every pattern (or condition) it tests, and on its arms, as ``if ... else`` does. A
``def`` is worked out with its arguments (its ``let`` lines bind their value for the rest of it,
with the player key of that value), a procedure once per context (its arguments, the variables
revealed), and its summary (what it returns, whom it asks, what it does that everyone sees) is used
at the call: a secret condition deciding whether it runs is reported there. A procedure called
inside a statement's own expression (``if roll(p) > 3:``, ``x = f(a) + g(b)``) runs at that
statement, before the rest of the expression, left to right (a call in its arguments first), under
the statement's condition (an ``elif``'s under the conditions before it; a ``while`` condition's
again after each round, under the condition); what it returns flows into the expression. Names come
from the symbol table (interpreter/check/symbols.py). A secret condition is reported once per block, at
the first thing it decides that everyone sees; a message names the secret the expression reads
itself if there is one, else the first met.

The rules it applies (each message names the sink and the secret):

 1. Public variable: a store (``=``, ``+=``, ``-=``, ``add``, ``remove``, ``move``, ``draw``, a field
    or an item; through a local taken from a variable too) into a public variable, or a field or
    item of one, of a value computed from a secret, or into an entry chosen by a secret; ``move`` and
    ``remove`` with a public side show the item moved. Writes into secret or hidden places are never
    reported.
 2. Implicit flow: a write to a public variable, a public ``log``, a ``reveal``, ``end game``,
    ``win``, ``turn p``, a ``step``, a ``shuffle`` of a public list, or a call of a procedure doing one of these, under an ``if``/``while``/
    ``repeat`` condition, a ``for`` over a list of secret length, or a guard, depending on a secret;
    also the value of ``win`` and ``turn``.
 3. Log line: a public ``log`` shows a secret; ``log ... to X`` may show X's own secrets only, and
    who X is must not depend on a secret.
 4. Move text of a public decision: its ``as`` and ``optional`` texts show a secret other than the
    chosen value itself (which the move announces).
 5. Announced then kept secret: a public decision among options drawn from a secret, whose chosen
    value (or a field or item of it, in the same procedure or one it is passed to) is then stored
    into a secret or hidden variable.
 6. Decision existence: whether a player is asked (a ``choose``, a ``choose:``, an ``each ...
    secretly choose``, a call of a procedure that asks) depends on a secret; so does which player is
    asked, or the list of an ``each``. A ``choose ... automatic`` (one legal option taken without
    asking) is asked or not as the number of its options says: any secret in that number (the list's
    length, the ``where``), the decider's own too, leaks.
 7. Options shown to the decider: a decision's list, ``where``, ``optional`` text, alternative guards,
    ``prompt`` (and ``as`` text when secret) show a secret other than the decider's own (face-down fields are
    let through: their owner is not known here).
 8. Shown text: the ``shown`` text of a secret decision shows a secret other than the chosen value.
 9. Reveal text: the ``as`` text of ``reveal`` shows a secret other than the value revealed.
10. End, teams, ranking: an ``end when`` condition, ``teams``, a ``rank by`` key (or, without
    ``rank by``, the ``score`` the outcome ranks by), unless revealed at the start of ``scoring:``,
    depend on a secret.
11. Observation: an ``observe:`` entry shows its player ``me`` a secret other than ``me``'s own.

Known limits: implicit flows through ``break``/``return`` (what runs after them); the length of a
hidden or secret list changed under a secret condition or chosen by one (a record printed whole in a
text shows its face-down fields as '?' at run time); a face-down field read by its owner (but for ``log ... to
b.owner``); ``log ... to p`` inside a
procedure called under another player's secret; two spellings of one player are two players.
"""
from __future__ import annotations

from typing import Optional

import attrs

from rulewright.dsl import ast
from rulewright.interpreter.engine.builtins import BUILTINS
from rulewright.dsl.errors import Diagnostic
from rulewright.interpreter.check.symbols import symbols

PUBLIC: frozenset = frozenset()
NO_ROOTS: frozenset = frozenset()
_ITEM_OF = {name for name, b in BUILTINS.items() if b.gives == "item"}              # an item of their list
_SAME_LENGTH = {name for name, b in BUILTINS.items() if b.gives == "same length"}   # as long as their list

HINT_STORE = "make '{name}' secret or hidden, or 'reveal' what the rules turn face up"
HINT_CONDITION = ("decide it on what every player can see, or 'reveal' the condition first (or wrap what "
                  "the rulebook itself shows in revealed(...))")
HINT_LOG = "log it only to its owner (log \"...\" to p), or 'reveal' it first"
HINT_MOVE_TEXT = ("announce only the chosen value and what every player sees, or choose secretly "
                  "(choose ... secretly as \"...\" shown \"...\")")
HINT_ANNOUNCED = "choose it secretly (choose ... secretly as \"...\" shown \"...\")"
HINT_ASKED = ("ask uniformly (offer the decision every time, with only a decline when there is nothing to "
              "choose), or wrap a condition the rulebook itself reveals in revealed(...)")
HINT_AUTOMATIC = ("drop 'automatic' (ask even when only one option is legal), or make the list public: one "
                  "whose length every player sees, with no 'where' that reads a secret")
HINT_EACH = "list the players from what every player can see"
HINT_OPTIONS = "offer player {who} only public values and their own secrets"
HINT_SHOWN = "the 'shown' text may use the chosen value and what every player sees"
HINT_REVEAL = "the 'as' text of a reveal may use the value revealed and what every player sees"
HINT_END = "end the game on what every player can see, or 'reveal' it first"
HINT_TEAMS = "build the teams from what every player can see"
HINT_RANK = ("rank by public variables, or 'reveal' them at the start of 'scoring:' ('reveal v', or every "
             "player's entry: 'for p in players: reveal p.v')")
HINT_OBSERVE = "observe only what every player sees and the observing player's ('me') own secrets"


@attrs.frozen
class Val:
    """What the check knows of a local: its label, the label of its length, the game variables it is
    part of (a write through it changes them), the key of the player it names, and the announced
    choice it holds (rule 5)."""
    label: frozenset = PUBLIC
    length: frozenset = PUBLIC
    roots: frozenset = NO_ROOTS
    key: Optional[str] = None
    mark: Optional[str] = None

    def join(self, other: "Val") -> "Val":
        if self == other:
            return self
        key = self.key if self.key == other.key or other.key is None else \
            other.key if self.key is None else f"{self.key} or {other.key}"  # either player: neither's key
        return Val(self.label | other.label, self.length | other.length, self.roots | other.roots, key,
                   self.mark or other.mark)


class FlowPoint:
    """The flow at one point of a block: the locals, the label of the condition the statement runs
    under (pc), the variables revealed, and the face-up facts ((local, field) known true)."""
    __slots__ = ("env", "pc", "revealed", "face_up", "near", "quiet")

    def __init__(self, env=None, pc=PUBLIC, revealed=frozenset(), face_up=frozenset()):
        self.env: dict = env if env is not None else {}
        self.pc = pc
        self.revealed = revealed
        self.face_up = face_up
        self.near = PUBLIC    # the secrets the enclosing conditions read themselves (named first)
        self.quiet = None     # the pc already reported in this region: one report per secret condition

    def copy(self) -> "FlowPoint":
        st = FlowPoint(dict(self.env), self.pc, self.revealed, self.face_up)
        st.near, st.quiet = self.near, self.quiet
        return st

    def under(self, pc: frozenset, near: frozenset) -> "FlowPoint":
        """A copy for a block run under one more condition."""
        st = self.copy()
        st.pc = self.pc | pc
        st.near = self.near | near
        return st

    def bound(self, name: str, val: Val) -> "FlowPoint":
        st = self.copy()
        st.env[name] = val
        return st


def _join_points(base: FlowPoint, states: list) -> FlowPoint:
    """The flow after branches: each local joined over the branches that have it."""
    if not states:
        return base
    env: dict = {}
    for s in states:
        for name, val in s.env.items():
            env[name] = env[name].join(val) if name in env else val
    face_up = states[0].face_up
    for s in states[1:]:
        face_up = face_up & s.face_up
    out = FlowPoint(env, base.pc, base.revealed, face_up)
    out.near, out.quiet = base.near, base.quiet
    return out


class Analysis:
    """One analysis of a procedure or a block: what it returns and what it does that others see."""

    def __init__(self, name: str):
        self.name = name
        self.ret: Optional[Val] = None
        self.deciders: list = []      # the players it may ask, in order
        self.effect: Optional[str] = None

    def asks(self, who: str):
        if who not in self.deciders:
            self.deciders.append(who)

    def does(self, what: str):
        if self.effect is None:
            self.effect = what


@attrs.frozen
class Summary:
    ret: Val
    deciders: tuple
    effect: Optional[str]
    # (rule, message, hint, argument index, ((procedure, file, line), ...)): what only the arguments'
    # secrets make it report, and where (through the procedures it passes them to)
    leaks: tuple = ()


@attrs.frozen
class Place:
    """Where a store goes: the game variables it changes, the label of which entry (path), the local
    it changes, and whether it lands in a face-down field."""
    roots: frozenset = NO_ROOTS
    path: frozenset = PUBLIC
    local: Optional[str] = None
    face_down: bool = False


def unparse(node) -> str:
    """A short source text for an expression (a player's key in messages)."""
    if node is None:
        return ""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Literal):
        v = node.value
        if isinstance(v, bool):
            return "true" if v else "false"
        if v is None:
            return "none"
        return f'"{v}"' if isinstance(v, str) else str(v)
    if isinstance(node, ast.Template):
        return '"' + "".join(p if isinstance(p, str) else "{" + unparse(p) + "}" for p in node.parts) + '"'
    if isinstance(node, ast.ListLit):
        return "[" + ", ".join(unparse(i) for i in node.items) + "]"
    if isinstance(node, ast.MapLit):
        return "{" + ", ".join(f"{unparse(k)}: {unparse(v)}" for k, v in node.items) + "}"
    if isinstance(node, ast.Attr):
        return f"{_operand(node.obj)}.{node.name}"
    if isinstance(node, ast.Index):
        return f"{_operand(node.obj)}[{unparse(node.index)}]"
    if isinstance(node, ast.Call):
        args = [unparse(a) for a in node.args] + [f"{k}: {unparse(v)}" for k, v in node.kwargs]
        return f"{unparse(node.func)}({', '.join(args)})"
    if isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp)):
        return f"{_operand(node.left)} {node.op} {_operand(node.right)}"
    if isinstance(node, ast.Not):
        return f"not {_operand(node.operand)}"
    if isinstance(node, ast.Neg):
        return f"-{_operand(node.operand)}"
    if isinstance(node, ast.Cond):
        return f"{_operand(node.then)} if {_operand(node.test)} else {_operand(node.orelse)}"
    if isinstance(node, ast.Match):
        if node.subject is None:
            arms = [f"if {unparse(ps[0])}: {unparse(v)}" for ps, v in node.arms]
        else:
            arms = [f"{' | '.join(_operand(p) for p in ps)}: {unparse(v)}" for ps, v in node.arms]
        if node.orelse is not None:
            arms.append(f"else: {unparse(node.orelse)}")
        head = "match" if node.subject is None else f"match {unparse(node.subject)}"
        return f"{head} {{{', '.join(arms)}}}"
    if isinstance(node, ast.Quantifier):
        return f"{node.func}({_binder_text(node.binder)})"
    if isinstance(node, ast.ListComp):
        return f"[{_binder_text(node.binder)}]"
    return "?"


def _operand(node) -> str:
    text = unparse(node)
    return f"({text})" if isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp, ast.Cond, ast.Not, ast.Neg)) else text


def _binder_text(b: ast.Binder) -> str:
    out = f"{b.var} in {unparse(b.source)}"
    if b.where is not None:
        out += f" where {unparse(b.where)}"
    if b.body is not None:
        out += f" : {unparse(b.body)}"
    return out


class Flow:
    """One run of the check over a rules file."""

    def __init__(self, rules: ast.RulesFile):
        self.rules = rules
        self.sym = sym = symbols(rules)   # every declared name, found once
        self.vars = sym.vars              # the built-in round_number and first_player included
        self.player_vars = sym.player_vars
        self.records = sym.record_decls
        self.defs, self.procs = sym.defs, sym.procs
        # a name that is both a player variable and a field: read as the player variable when secret
        self.shared_names = self.player_vars & (sym.fields | set(sym.columns))
        self.item_fields: dict = {}  # field -> (record, FieldVisibility)
        for r in self.records.values():
            for f, vis in r.visibility:
                self.item_fields.setdefault(f, (r.name, vis))
        self.unless_fields = {vis.unless for _r, vis in self.item_fields.values() if vis.unless}
        self.diagnostics: dict = {}
        self.order: dict = {}       # tag -> when it was first met (the secret a message names)
        self.def_memo: dict = {}
        self.proc_memo: dict = {}
        self.in_progress: set = set()
        self.call_vals: dict = {}   # id of a procedure call in an expression -> its result where it last ran
        self.keys_used: set = set()  # every player key given out or read so far (fresh_key)
        self.leak_origin: dict = {}  # a report made at a call's argument -> (its message, where it leaks)

    # ------------------------------------------------------------------ reporting
    def report(self, rule: int, span: ast.Span, message: str, hint: str = ""):
        # one report per place and kind: a store or a log line is reported once, by the first rule it breaks
        key = (span.file, span.line, span.column, rule if rule > 3 else 1)
        if key in self.diagnostics:
            return
        self.diagnostics[key] = Diagnostic(message, span.file, span.line, span.column, self.rules.source_line(span),
                                           hint, "error")

    def tag(self, t: tuple) -> frozenset:
        self.order.setdefault(t, len(self.order))
        return frozenset((t,))

    def secret(self, label: frozenset, near: frozenset = PUBLIC) -> str:
        """The words for one secret of a label: one read by the expression itself if any, else the first met."""
        label = (label & near) or label
        t = min(label, key=lambda x: (self.order.get(x, len(self.order)), repr(x)))
        if t[0] == "own":
            what = t[2]
            if isinstance(what, tuple):
                return f"the secret choice '{what[1]}' of player {t[1]}"
            return f"the secret '{what}' of player {t[1]}"
        if t[0] == "item":
            return f"the face-down field '{t[2]}' of a '{t[1]}'"
        decl = self.vars.get(t[1])
        if decl is not None and decl.per_player and decl.visibility == "secret":
            return f"the secret '{t[1]}' of every player"
        if decl is not None and decl.visibility == "hidden":
            return f"the hidden '{t[1]}'"
        return f"the secret '{t[1]}'"

    @staticmethod
    def unseen_by(label: frozenset, who: str) -> frozenset:
        """The tags of a label that player ``who`` may not see (face-down fields are let through)."""
        return frozenset(t for t in label if not (t[0] == "item" or (t[0] == "own" and t[1] == who)))

    @staticmethod
    def not_owned_by(label: frozenset, who: str) -> frozenset:
        return frozenset(t for t in label if not (t[0] == "own" and t[1] == who))

    # ------------------------------------------------------------------ variables
    def public_var(self, name: str, st: FlowPoint) -> bool:
        decl = self.vars.get(name)
        return decl is None or decl.visibility == "public" or name in st.revealed

    def var_label(self, name: str, st: FlowPoint) -> frozenset:
        """A variable read by its name (a player variable: everyone's values)."""
        if self.public_var(name, st):
            return PUBLIC
        return self.tag(("hidden", name))

    def entry_label(self, name: str, owner: str, st: FlowPoint) -> frozenset:
        """One player's entry of a player variable."""
        if self.public_var(name, st) or f"{name}@{owner}" in st.revealed:  # the variable, or this entry
            return PUBLIC
        if self.vars[name].visibility == "secret":
            return self.tag(("own", owner, name))
        return self.tag(("hidden", name))

    def is_entry(self, node: ast.Attr, st: FlowPoint) -> bool:
        """Whether ``x.name`` reads a player variable (rather than a record field or a column)."""
        name = node.name
        if name not in self.player_vars:
            return False
        return name not in self.shared_names or not self.public_var(name, st)

    # ------------------------------------------------------------------ keys
    def key(self, node, st: FlowPoint) -> str:
        if isinstance(node, ast.Name):
            val = st.env.get(node.id)
            key = val.key or node.id if val is not None else node.id
        else:
            key = unparse(node)
        self.keys_used.add(key)  # a key no one has used is free for a new local (fresh_key)
        return key

    def fresh_key(self, name: str, st: FlowPoint) -> str:
        """The key of the player a new local named ``name`` may hold: its name, unless that already stands
        for another player here (``me``; a local or parameter that names a caller's player of that name; a
        secret, a condition or a reveal about one): one key for two players would let each see the
        other's secrets. Then the name with primes (p', p'')."""
        key = name
        while key == "me" or (key in self.keys_used and self.key_taken(key, name, st)):
            key += "'"
        self.keys_used.add(key)
        return key

    @staticmethod
    def key_taken(key: str, name: str, st: FlowPoint) -> bool:
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

    def alias_key(self, node, st: FlowPoint) -> Optional[str]:
        """The key a local takes from its value: that of a plain name, else none (its own name)."""
        if isinstance(node, ast.Name):
            val = st.env.get(node.id)
            if val is not None:
                return val.key
            if node.id == "me":
                return "me"
        return None

    def mark(self, node, st: FlowPoint) -> Optional[str]:
        """The announced choice a value carries (rule 5): a local, or a field or item of one."""
        while isinstance(node, (ast.Attr, ast.Index)):
            node = node.obj
        if isinstance(node, ast.Name) and node.id in st.env:
            return st.env[node.id].mark
        if self.is_proc_call(node) and id(node) in self.call_vals:
            return self.call_vals[id(node)].mark
        return None

    def arg_val(self, node, st: FlowPoint) -> Val:
        return Val(self.label(node, st), self.length(node, st), self.roots(node, st), self.key(node, st),
                   self.mark(node, st))

    # ------------------------------------------------------------------ labels of expressions
    def label(self, node, st: FlowPoint) -> frozenset:
        if node is None or isinstance(node, (ast.Literal, str)):
            return PUBLIC
        return getattr(self, "_l_" + type(node).__name__)(node, st)

    def _l_Name(self, node, st):
        val = st.env.get(node.id)
        if val is not None:
            return val.label
        if node.id in self.vars:
            return self.var_label(node.id, st)
        return PUBLIC

    def _l_Template(self, node, st):
        out = PUBLIC
        for p in node.parts:
            if not isinstance(p, str):
                out = out | self.label(p, st)
        return out

    def _l_ListLit(self, node, st):
        out = PUBLIC
        for i in node.items:
            out = out | self.label(i, st)
        return out

    def _l_MapLit(self, node, st):
        out = PUBLIC
        for k, v in node.items:
            out = out | self.label(k, st) | self.label(v, st)
        return out

    def _l_Attr(self, node, st):
        out = self.label(node.obj, st)
        if self.is_entry(node, st):
            return out | self.entry_label(node.name, self.key(node.obj, st), st)
        item = self.item_fields.get(node.name)
        if item is not None and not self.is_face_up(node.obj, item[1], st):
            return out | self.tag(("item", item[0], node.name))
        return out

    def is_face_up(self, obj, vis: ast.FieldVisibility, st: FlowPoint) -> bool:
        return (vis.unless is not None and isinstance(obj, ast.Name) and obj.id in st.env
                and (obj.id, vis.unless) in st.face_up)

    def _l_Index(self, node, st):
        obj = node.obj
        if isinstance(obj, ast.Name) and obj.id not in st.env and obj.id in self.player_vars:
            return self.label(node.index, st) | self.entry_label(obj.id, self.key(node.index, st), st)
        return self.label(obj, st) | self.label(node.index, st)

    def _l_Call(self, node, st):
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

    def record_label(self, decl: ast.RecordDecl, node: ast.Call, st: FlowPoint) -> frozenset:
        """A new record: its face-down fields keep what they hold to themselves."""
        face_down = {f for f, _vis in decl.visibility}
        out = PUBLIC
        given = list(zip(decl.fields, node.args)) + list(node.kwargs)
        for field, value in given:
            if field not in face_down:
                out = out | self.label(value, st)
        return out

    def _l_BinOp(self, node, st):
        return self.label(node.left, st) | self.label(node.right, st)

    _l_Compare = _l_BinOp

    def _l_BoolOp(self, node, st):
        # 't.face_up and t.amount > 2': the right side is read only once the left holds
        right = self.facing_up(node.left, st) if node.op == "and" else st
        return self.label(node.left, st) | self.label(node.right, right)

    def facing_up(self, cond, st: FlowPoint) -> FlowPoint:
        """The flow where ``cond`` holds: the face-down fields it says are face up, public."""
        facts = self.face_up_facts(cond, st)
        if not facts:
            return st
        inner = st.copy()
        inner.face_up = inner.face_up | facts
        return inner

    def _l_Not(self, node, st):
        return self.label(node.operand, st)

    _l_Neg = _l_Not

    def _l_Cond(self, node, st):
        return self.label(node.test, st) | self.label(node.then, self.facing_up(node.test, st)) \
            | self.label(node.orelse, st)

    def _l_Match(self, node, st):
        out = self.arm_taken(node, st) | self.label(node.orelse, st)
        for _patterns, value in node.arms:
            out = out | self.label(value, st)
        return out

    def arm_taken(self, node: ast.Match, st: FlowPoint) -> frozenset:
        """The label of which arm of a 'match' is taken: its subject and every pattern (or condition) tested."""
        out = self.label(node.subject, st)
        for patterns, _value in node.arms:
            for p in patterns:
                out = out | self.label(p, st)
        return out

    def _l_LetIn(self, node, st):
        return self.label(node.body, self.let_point(node, st))

    def let_point(self, node: ast.LetIn, st: FlowPoint) -> FlowPoint:
        """The flow inside a def's 'let name = value' line: the local holds the value (its player key is
        the value's, as if written in place)."""
        value = node.value
        inner = st.bound(node.name, Val(self.label(value, st), self.length(value, st), self.roots(value, st),
                                        self.key(value, st), self.mark(value, st)))
        inner.face_up = frozenset(f for f in inner.face_up if f[0] != node.name)
        return inner

    def _l_Quantifier(self, node, st):
        b = node.binder
        if node.func == "count" and b.where is None and b.body is None:
            return self.length(b.source, st)
        return self.binder_label(b, st)

    def _l_ListComp(self, node, st):
        return self.binder_label(node.binder, st)

    def binder_label(self, b: ast.Binder, st: FlowPoint) -> frozenset:
        source = self.label(b.source, st)
        inner = st.bound(b.var, Val(source, source, self.roots(b.source, st), self.fresh_key(b.var, st)))
        out = source | self.label(b.where, inner)
        if b.body is not None:
            out = out | self.label(b.body, self.facing_up(b.where, inner))
        return out

    def face_up_facts(self, cond, st: FlowPoint) -> frozenset:
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
    def length(self, node, st: FlowPoint) -> frozenset:
        """The label of len(node): a variable's list length is public, apart from which list it is."""
        if isinstance(node, ast.Name):
            val = st.env.get(node.id)
            return val.length if val is not None else PUBLIC
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

    def is_place(self, node, st: FlowPoint) -> bool:
        """A place rooted at a game variable: its name, 'x.v' for a player variable, 'P[i]'."""
        if isinstance(node, ast.Name):
            return node.id not in st.env and node.id in self.vars
        if isinstance(node, ast.Attr):
            return self.is_entry(node, st)
        if isinstance(node, ast.Index):
            return self.is_place(node.obj, st)
        return False

    def place_path(self, node, st: FlowPoint) -> frozenset:
        if isinstance(node, ast.Attr):
            return self.label(node.obj, st)
        if isinstance(node, ast.Index):
            return self.place_path(node.obj, st) | self.label(node.index, st)
        return PUBLIC

    # ------------------------------------------------------------------ roots: the variables a value is part of
    def roots(self, node, st: FlowPoint) -> frozenset:
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
    def def_result(self, what: str, name: str, call: ast.Call, st: FlowPoint):
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
        inner = FlowPoint(dict(zip(d.params, args)), PUBLIC, st.revealed, face_up)
        result = {"label": self.label, "length": self.length, "roots": self.roots}[what](d.body, inner)
        self.def_memo[key] = result
        return result

    @staticmethod
    def face_up_of_args(params, call: ast.Call, st: FlowPoint) -> frozenset:
        """The face-up facts the caller knows of its arguments, about the parameters: in
        '[b in bids where b.turned: text(b)]' the def's 'b.value' is face up too."""
        out = set()
        for param, arg in zip(params, call.args):
            if isinstance(arg, ast.Name) and arg.id in st.env:
                out.update((param, field) for local, field in st.face_up if local == arg.id)
        return frozenset(out)

    # ------------------------------------------------------------------ places written
    def place(self, target, st: FlowPoint) -> Place:
        if isinstance(target, ast.Name):
            val = st.env.get(target.id)
            if val is not None:
                return Place(val.roots, PUBLIC, target.id)
            if target.id in self.vars:
                return Place(frozenset((target.id,)))
            return Place(local=target.id)
        if isinstance(target, ast.Attr):
            if self.is_entry(target, st) or target.name in self.shared_names:
                own = frozenset((target.name,))
                if target.name in self.shared_names:
                    inner = self.place(target.obj, st)
                    return Place(own | inner.roots, inner.path | self.label(target.obj, st), inner.local)
                return Place(own, self.label(target.obj, st))
            inner = self.place(target.obj, st)
            face_down = target.name in self.item_fields
            return Place(inner.roots, inner.path | self.node_path(target.obj, st), inner.local, face_down)
        if isinstance(target, ast.Index):
            obj = target.obj
            if isinstance(obj, ast.Name) and obj.id not in st.env and obj.id in self.player_vars:
                return Place(frozenset((obj.id,)), self.label(target.index, st))
            inner = self.place(obj, st)
            return Place(inner.roots, inner.path | self.label(target.index, st), inner.local)
        return Place(self.roots(target, st), self.label(target, st))

    def node_path(self, obj, st: FlowPoint) -> frozenset:
        """Which record a field store changes: a local's value, else the path of the place."""
        if isinstance(obj, ast.Name) and obj.id in st.env:
            return st.env[obj.id].label
        return PUBLIC

    # ------------------------------------------------------------------ statements
    def block(self, stmts, st: FlowPoint, fr: Analysis):
        revealed = st.revealed
        for s in stmts:
            getattr(self, "_s_" + type(s).__name__)(s, st, fr)
        st.revealed = revealed  # 'reveal v' lasts to the end of its block

    def direct(self, node, st: FlowPoint) -> frozenset:
        """The secrets an expression reads itself, its locals taken as public (to name the nearest one)."""
        if node is None:
            return PUBLIC
        plain = FlowPoint({n: Val(key=v.key, roots=v.roots) for n, v in st.env.items()}, PUBLIC, st.revealed,
                      st.face_up)
        return self.label(node, plain)

    def conditional(self, rule: int, span, st: FlowPoint, whether: str, hint: str, pc: Optional[frozenset] = None):
        """Rules 2 and 6: something every player sees happens, or not, as a secret condition decides."""
        pc = st.pc if pc is None else pc
        if not pc or st.quiet == pc:
            return
        st.quiet = pc
        self.report(rule, span, f"whether {whether} depends on {self.secret(pc, st.near)}", hint)

    def promote(self, st: FlowPoint, *nodes):
        """'revealed(x)' evaluated whatever happens, x a local: x is public from then on."""
        for node in nodes:
            for name in _revealed_locals(node):
                val = st.env.get(name)
                if val is not None:
                    st.env[name] = attrs.evolve(val, label=PUBLIC, length=PUBLIC)

    def _s_Pass(self, s, st, fr):
        pass

    _s_Break = _s_Pass
    _s_Fail = _s_Pass
    def _s_Shuffle(self, s, st, fr):
        place = self.place(s.target, st)
        if any(self.public_var(r, st) for r in place.roots):  # a public list seen reordered
            self.public_act(s.span, st, fr, "a public list is shuffled here", "shuffles a public list")

    def _s_Let(self, s, st, fr):
        self.bind(s.name, s.value, s, st, fr)

    def bind(self, name: str, value, s, st: FlowPoint, fr: Analysis, augmented: bool = False):
        """A local takes a value (the procedures called in it run first)."""
        self.run_calls(value, st, fr)
        val = Val(self.label(value, st) | st.pc, self.length(value, st) | st.pc, self.roots(value, st),
                  self.alias_key(value, st) or self.fresh_key(name, st), self.mark(value, st))
        self.promote(st, value)
        if augmented and name in st.env:
            old = st.env[name]
            val = Val(old.label | val.label, old.length | val.length, old.roots, old.key, old.mark)
        st.env[name] = val

    def is_proc_call(self, node) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.procs

    def _s_Assign(self, s, st, fr):
        self.assign(s, st, fr, augmented=False)

    def _s_AugAssign(self, s, st, fr):
        self.assign(s, st, fr, augmented=True)

    def assign(self, s, st: FlowPoint, fr: Analysis, augmented: bool):
        target = s.target
        if isinstance(target, ast.Name) and (target.id in st.env or target.id not in self.vars):
            self.bind(target.id, s.value, s, st, fr, augmented)
            return
        self.run_calls(s.value, st, fr)
        value_label, mark = self.label(s.value, st), self.mark(s.value, st)
        self.store(s, "assign", self.place(target, st), value_label, mark, st, fr, s.value)
        self.promote(st, s.value)
        # turning an item over: 'x.face_up = true' makes x's face-down fields public for what follows
        if isinstance(target, ast.Attr) and isinstance(target.obj, ast.Name) and target.obj.id in st.env \
                and target.name in self.unless_fields:
            fact = (target.obj.id, target.name)
            if isinstance(s.value, ast.Literal) and s.value.value is True and not augmented:
                st.face_up = st.face_up | {fact}
            else:
                st.face_up = st.face_up - {fact}

    _STORES = {"assign": "the public variable '{name}' is computed from",
               "add": "the item added to the public variable '{name}' comes from",
               "remove": "the item removed from the public variable '{name}' comes from",
               "move_in": "the item moved into the public variable '{name}' comes from",
               "move_out": "the item moved out of the public variable '{name}' comes from"}

    def store(self, s, verb: str, place: Place, value_label: frozenset, mark, st: FlowPoint, fr: Analysis, value_node=None):
        """A value (or an item) goes into a place: rules 1, 2 and 5."""
        public = sorted(r for r in place.roots if self.public_var(r, st))
        if public and not place.face_down:
            name = public[0]
            fr.does(f"changes the public variable '{name}'")
            hint = HINT_STORE.format(name=name)
            if value_label:
                what = self._STORES[verb].format(name=name)
                self.report(1, s.span, f"{what} {self.secret(value_label, self.direct(value_node, st))}", hint)
            elif place.path:
                self.report(1, s.span, f"which entry of the public variable '{name}' changes depends on "
                            f"{self.secret(place.path)}", hint)
            else:
                self.conditional(2, s.span, st, f"the public variable '{name}' changes here", HINT_CONDITION)
        hidden = sorted(r for r in place.roots if not self.public_var(r, st))
        if hidden and mark is not None and verb in ("assign", "add", "move_in"):
            self.report(5, s.span, f"the move text announces the choice of '{mark}' to every player, but it is "
                        f"kept in the {self.vars[hidden[0]].visibility} '{hidden[0]}'", HINT_ANNOUNCED)
        if place.local is not None and place.local in st.env:
            old = st.env[place.local]
            grow = value_label | st.pc | place.path
            length = old.length | st.pc if verb in ("add", "remove", "move_in", "move_out") else old.length
            st.env[place.local] = attrs.evolve(old, label=old.label | grow, length=length)

    def _s_Add(self, s, st, fr):
        self.run_calls(s.item, st, fr)
        self.store(s, "add", self.place(s.target, st), self.label(s.item, st), self.mark(s.item, st), st, fr, s.item)
        self.promote(st, s.item)

    def _s_Remove(self, s, st, fr):
        self.store(s, "remove", self.place(s.source, st), self.label(s.item, st), None, st, fr, s.item)
        self.promote(st, s.item)

    def _s_MoveItem(self, s, st, fr):
        item, mark = self.label(s.item, st), self.mark(s.item, st)
        # the item is seen entering a public zone, or leaving one (the first report is kept)
        self.store(s, "move_in", self.place(s.target, st), item, mark, st, fr, s.item)
        self.store(s, "move_out", self.place(s.source, st), item, None, st, fr, s.item)
        self.promote(st, s.item)

    def _s_Draw(self, s, st, fr):
        item = self.label(s.source, st) | st.pc
        self.store(s, "remove", self.place(s.source, st), PUBLIC, None, st, fr)
        st.env[s.name] = Val(item, item, NO_ROOTS, self.fresh_key(s.name, st))

    def _s_CallStmt(self, s, st, fr):
        self.run_calls(s.call, st, fr)

    def run_calls(self, node, st: FlowPoint, fr: Analysis, again: bool = False):
        """The procedures called in a statement's own expression run first, left to right (the calls in
        a call's arguments before it): what they do happens at the statement, under its condition, and
        what they return flows into the expression (``call_vals``, read by label, length, roots and mark).
        ``again``: the expression is evaluated once more (a 'while' condition); its results are joined."""
        done: dict = {}
        for call in _proc_calls(node, self.procs):
            self.call_vals.update(done)  # an analysis run by a call may have met the same nodes elsewhere
            val = self.call(call, st, fr)
            before = self.call_vals.get(id(call))
            done[id(call)] = val.join(before) if again and before is not None else val
        self.call_vals.update(done)

    def call(self, call: ast.Call, st: FlowPoint, fr: Analysis) -> Val:
        """A procedure call: its summary in this context, and the call site's rules 2 and 6."""
        name = call.func.id
        proc = self.procs[name]
        args = tuple(self.arg_val(a, st) for a in call.args)
        summary = self.summary(proc, args, st.revealed, self.face_up_of_args(proc.params, call, st),
                               bool(call.kwargs))
        for rule, message, hint, i, path in summary.leaks:  # the secret enters here, with this argument
            span = call.args[i].span
            chain = ", then to ".join(f"'{inside}', line {line}" if file == span.file else f"'{inside}', {file}:{line}"
                                      for inside, file, line in path)
            self.report(rule, span, f"{message} (passed here to the procedure {chain})", hint)
            self.leak_origin[(span.file, span.line, span.column, rule)] = (message, path)
        for who in summary.deciders:
            fr.asks(who)
        if summary.effect is not None:
            fr.does(summary.effect)
        if summary.deciders:
            # name a player the caller knows: one passed in, or me
            known = {a.key for a in args} | {"me"}
            who = next((w for w in summary.deciders if w in known), summary.deciders[0])
            self.conditional(6, call.span, st, f"player {who} is asked here (in '{name}')", HINT_ASKED)
        elif summary.effect is not None:
            self.conditional(2, call.span, st, f"'{name}' {summary.effect} here", HINT_CONDITION)
        self.promote(st, *call.args)
        ret = summary.ret
        return attrs.evolve(ret, label=ret.label | st.pc, length=ret.length | st.pc)

    def summary(self, proc: ast.ProcDecl, args: tuple, revealed: frozenset, face_up: frozenset,
                kwargs: bool = False) -> Summary:
        """What a procedure does in one context (memoised). A report its body would not give with public
        arguments is the caller's: it becomes a leak, reported at each call's argument, not in the body."""
        key = (proc.name, args, revealed, face_up)
        summary = self.proc_memo.get(key)
        if summary is not None:
            return summary
        if key in self.in_progress or len(args) != len(proc.params) or kwargs:
            return Summary(Val(), (), None)  # re-entry: assume a public result
        secret_args = [i for i, a in enumerate(args) if a.label or a.length]
        if secret_args:  # first what the body does on its own (reported in it)
            self.summary(proc, tuple(attrs.evolve(a, label=PUBLIC, length=PUBLIC) for a in args), revealed,
                         face_up)
        before = set(self.diagnostics)
        self.in_progress.add(key)
        inner = Analysis(proc.name)
        self.block(proc.body, FlowPoint(dict(zip(proc.params, args)), PUBLIC, revealed, face_up), inner)
        self.in_progress.discard(key)
        leaks = []
        if secret_args:
            for k in [k for k in self.diagnostics if k not in before]:
                d = self.diagnostics.pop(k)
                message, path = self.leak_origin.get(k, (d.message, ()))  # a leak of a procedure it calls
                leaks.append((k[3], message, d.hint, secret_args[0], ((proc.name, d.file, d.line),) + path))
        summary = Summary(inner.ret or Val(), tuple(inner.deciders), inner.effect, tuple(leaks))
        self.proc_memo[key] = summary
        return summary

    def _s_Return(self, s, st, fr):
        if s.value is None:
            val = Val(st.pc, st.pc)
        else:
            self.run_calls(s.value, st, fr)
            val = Val(self.label(s.value, st) | st.pc, self.length(s.value, st) | st.pc, self.roots(s.value, st),
                      None, self.mark(s.value, st))
        fr.ret = val if fr.ret is None else fr.ret.join(val)

    def public_act(self, span, st: FlowPoint, fr: Analysis, whether: str, effect: str):
        """A statement every player sees happen (rule 2)."""
        fr.does(effect)
        self.conditional(2, span, st, whether, HINT_CONDITION)

    def _s_EndGame(self, s, st, fr):
        self.public_act(s.span, st, fr, "the game ends here", "ends the game")

    def naming_act(self, s, expr, st, fr, effect: str, secret_words: str, whether: str):
        """A statement everyone sees that names players (win, turn p): who they are must be public."""
        self.run_calls(expr, st, fr)
        who = self.label(expr, st)
        if who:
            fr.does(effect)
            self.report(2, s.span, f"{secret_words} {self.secret(who, self.direct(expr, st))}", HINT_CONDITION)
        else:
            self.public_act(s.span, st, fr, whether, effect)

    def _s_Win(self, s, st, fr):
        self.naming_act(s, s.players, st, fr, "names the winners", "the winners named here are computed from",
                        "'win' names the winners here")

    def _s_TakeTurn(self, s, st, fr):
        self.naming_act(s, s.player, st, fr, "gives a turn", "whose turn it is here depends on",
                        f"player {self.key(s.player, st)} takes a turn here")

    def _s_Log(self, s, st, fr):
        text = self.label(s.message, st)
        if s.to is None:
            fr.does("writes a public log line")
            if text:
                self.report(3, s.span, f"the public log line shows "
                            f"{self.secret(text, self.direct(s.message, st))}", HINT_LOG)
            else:
                self.conditional(2, s.span, st, "this public log line is written", HINT_CONDITION)
        else:
            reader = self.key(s.to, st)
            readers = self.not_owned_by(self.label(s.to, st), reader)
            if readers:  # the readers learn that it was written to them
                self.report(3, s.to.span, f"who reads this log line depends on "
                            f"{self.secret(readers, self.direct(s.to, st))}", HINT_LOG)
            text, pc = self.not_owned_by(text, reader), self.not_owned_by(st.pc, reader)
            if isinstance(s.to, ast.Attr):  # 'to b.owner': b's fields 'secret to owner' may be shown
                text = frozenset(t for t in text if not (t[0] == "item" and self.item_fields[t[2]][1].owner == s.to.name))
            if text:
                self.report(3, s.span, f"the log line to player {reader} shows "
                            f"{self.secret(text, self.direct(s.message, st))}", HINT_LOG)
            else:
                self.conditional(2, s.span, st, f"this log line to player {reader} is written", HINT_CONDITION, pc)
        self.promote(st, s.message)

    def _s_Reveal(self, s, st, fr):
        what = s.what
        if isinstance(what, ast.Name) and what.id in st.env:
            st.env[what.id] = attrs.evolve(st.env[what.id], label=PUBLIC, length=PUBLIC)
        elif isinstance(what, ast.Name) and what.id in self.vars:
            st.revealed = st.revealed | {what.id}
        elif isinstance(what, ast.Attr) and what.name in self.player_vars:
            st.revealed = st.revealed | {f"{what.name}@{self.key(what.obj, st)}"}  # that player's entry only
        self.public_act(s.span, st, fr, "this 'reveal' is made", "makes a reveal")
        if s.text is not None:
            shown = self.label(s.text, st)
            if not isinstance(what, (ast.Name, ast.Attr)):
                shown = shown - self.label(what, st)  # the text may show the value revealed
            if shown:
                self.report(9, s.text.span, f"the text of this 'reveal' shows "
                            f"{self.secret(shown, self.direct(s.text, st))}", HINT_REVEAL)

    @staticmethod
    def replace(st: FlowPoint, new: FlowPoint):
        st.env, st.face_up = new.env, new.face_up

    def _s_If(self, s, st, fr):
        conds, near = PUBLIC, PUBLIC
        outs = []
        at = st  # where the condition is tested: an 'elif' only when those before it fail
        for i, (cond, body) in enumerate(s.branches):
            if i > 0:
                at = st.under(conds, near)
            self.run_calls(cond, at, fr)  # the procedures called in a condition run when it is tested
            if i == 0:
                self.promote(st, cond)
            lab = self.label(cond, st)
            if lab:
                conds, near = conds | lab, near | self.direct(cond, st)
            branch = at.under(conds, near)
            branch.face_up = branch.face_up | self.face_up_facts(cond, st)
            self.block(body, branch, fr)
            outs.append(branch)
        branch = st.under(conds, near)
        self.block(s.orelse, branch, fr)
        outs.append(branch)
        self.replace(st, _join_points(st, outs))

    def loop(self, body, st: FlowPoint, fr: Analysis, condition, bind=None, after=None):
        """A loop body run twice, each time joined with the flow before it (it may not run at all).
        ``condition(state)`` gives the label the body runs under and the secrets it reads itself;
        ``after(state)`` is what runs at the end of each round, under that condition."""
        for _round in range(2):
            inner = st.under(*condition(st))
            if bind is not None:
                bind(inner)
            self.block(body, inner, fr)
            if after is not None:
                after(inner)
            self.replace(st, _join_points(st, [st, inner]))

    def _s_While(self, s, st, fr):
        self.run_calls(s.cond, st, fr)  # the first test; the next ones run after a round, under the condition
        self.promote(st, s.cond)
        self.loop(s.body, st, fr, lambda now: self.condition(s.cond, now),
                  after=lambda inner: self.run_calls(s.cond, inner, fr, again=True))

    def condition(self, node, st: FlowPoint):
        lab = self.label(node, st)
        return lab, (self.direct(node, st) if lab else PUBLIC)

    def _s_Repeat(self, s, st, fr):
        self.run_calls(s.count, st, fr)
        count = self.condition(s.count, st)
        self.loop(s.body, st, fr, lambda now: count)

    def _s_For(self, s, st, fr):
        # the body runs len(list) times: its condition is the list's length, public for a variable's list;
        # the loop variable holds an item (a secret list's items are secret)
        self.run_calls(s.source, st, fr)
        items, roots = self.label(s.source, st), self.roots(s.source, st)
        length = self.length(s.source, st)
        runs = (length, self.direct(s.source, st) if length else PUBLIC)

        def bind(inner: FlowPoint):
            inner.env[s.var] = Val(items, items, roots, self.fresh_key(s.var, inner))
        self.loop(s.body, st, fr, lambda now: runs, bind)
        st.revealed = st.revealed | self.revealed_for_everyone(s, st)

    def revealed_for_everyone(self, s: ast.For, st: FlowPoint) -> frozenset:
        """'for p in players: reveal p.v' turns up every player's entry: the variable v is revealed after
        the loop, to the end of the block the loop stands in."""
        if not (isinstance(s.source, ast.Name) and s.source.id == "players" and "players" not in st.env):
            return frozenset()
        return frozenset(r.what.name for r in s.body if isinstance(r, ast.Reveal) and isinstance(r.what, ast.Attr)
                         and isinstance(r.what.obj, ast.Name) and r.what.obj.id == s.var
                         and r.what.name in self.player_vars)

    def _s_Step(self, s, st, fr):
        self.public_act(s.span, st, fr, f"the step '{s.label}' begins here", "begins a step")  # views show it
        self.block(s.body, st, fr)

    # ------------------------------------------------------------------ decisions
    def asked(self, span, who: str, by, st: FlowPoint, fr: Analysis):
        """Rule 6: whether a player is asked, and which one, is public."""
        fr.asks(who)
        self.conditional(6, span, st, f"player {who} is asked here", HINT_ASKED)
        if by is not None:
            which = self.label(by, st)
            if which:
                self.report(6, span, f"which player is asked here depends on "
                            f"{self.secret(which, self.direct(by, st))}", HINT_ASKED)

    def _s_Choose(self, s, st, fr):
        self.run_calls(s.source, st, fr)  # the list is worked out before the player is asked
        who = self.key(s.by, st) if s.by is not None else "me"
        self.asked(s.span, who, s.by, st, fr)
        self.choice(s, who, st, secret=s.secret or s.shown is not None)

    def choice(self, c: ast.Choose, who: str, st: FlowPoint, secret: bool):
        source = self.label(c.source, st)
        roots = self.roots(c.source, st)
        key = self.fresh_key(c.var, st)
        inner = st.bound(c.var, Val(source, source, roots, key))
        where = self.label(c.where, inner)
        # rule 7: the options, their texts, the guards are shown to the decider only
        parts = [(c.source, source, st), (c.where, where, inner), (c.optional, self.label(c.optional, st), st),
                 (c.prompt, self.label(c.prompt, st), st)]  # the prompt is shown to the decider only
        if secret:
            parts.append((c.text, self.label(c.text, inner), inner))
        for node, lab, at in parts:
            bad = self.unseen_by(lab, who)
            if node is not None and bad:
                what = f"the prompt of player {who}'s decision shows" if node is c.prompt else \
                    f"the options offered to player {who} show"
                self.report(7, node.span, f"{what} "
                            f"{self.secret(bad, self.direct(node, at))}", HINT_OPTIONS.format(who=who))
                break
        if c.automatic:
            # rule 6: one legal option is taken without asking, so everyone learns whether there were more:
            # any secret in the number of options leaks, the decider's own too
            count = self.length(c.source, st) | where
            if count:
                near = self.direct(c.source, st) | self.direct(c.where, inner)
                self.report(6, c.span, f"whether player {who} is asked here ('automatic': only when two "
                            f"options or more are legal) depends on {self.secret(count, near)}", HINT_AUTOMATIC)
        chosen = st.bound(c.var, Val(key=key))
        if not secret:
            # rule 4: the move text is announced; it may show the value chosen
            for node in (c.text, c.optional):
                shown = self.label(node, chosen)
                if node is not None and shown:
                    self.report(4, node.span, f"the move text of this public decision shows "
                                f"{self.secret(shown, self.direct(node, chosen))}", HINT_MOVE_TEXT)
                    break
            val = Val(PUBLIC, PUBLIC, roots, key, c.var if (source | where) else None)
        else:
            if c.shown is not None:
                shown = self.label(c.shown, chosen)
                if shown:
                    self.report(8, c.shown.span, f"the 'shown' text of this secret decision shows "
                                f"{self.secret(shown, self.direct(c.shown, chosen))}", HINT_SHOWN)
            mine = self.tag(("own", who, ("choice", c.var)))
            val = Val(mine, mine, roots, key)
        st.env[c.var] = val

    def _s_ChooseBlock(self, s, st, fr):
        who = self.key(s.by, st) if s.by is not None else "me"
        self.asked(s.span, who, s.by, st, fr)
        outs = []
        # a secret course of action: what runs next depends on the decider's own choice
        chosen = self.tag(("own", who, ("choice", "course of action"))) if s.secret else PUBLIC
        prompt = self.unseen_by(self.label(s.prompt, st), who)  # shown to the decider only
        if prompt:
            self.report(7, s.prompt.span, f"the prompt of player {who}'s decision shows "
                        f"{self.secret(prompt, self.direct(s.prompt, st))}", HINT_OPTIONS.format(who=who))
        for alt in s.alternatives:
            guard = self.unseen_by(self.label(alt.guard, st), who)
            near = PUBLIC
            if guard:
                near = self.direct(alt.guard, st)
                self.report(7, alt.guard.span, f"the options offered to player {who} show "
                            f"{self.secret(guard, near)}", HINT_OPTIONS.format(who=who))
            # the decider's own secrets in a guard are told by their own choice; another's, reported
            # above, once
            branch = st.under(guard | chosen, near)
            if guard:
                branch.quiet = branch.pc
            self.block(alt.body, branch, fr)
            outs.append(branch)
        self.replace(st, _join_points(st, outs))

    def _s_ChooseEach(self, s, st, fr):
        self.run_calls(s.players, st, fr)
        who = self.fresh_key(s.player_var, st)
        listed = self.label(s.players, st)
        fr.asks(who)
        self.conditional(6, s.span, st, f"player {who} is asked here", HINT_ASKED)
        if listed:
            self.report(6, s.span, f"which players are asked here depends on "
                        f"{self.secret(listed, self.direct(s.players, st))}", HINT_EACH)
        runs = self.condition(s.players, st)

        def bind(inner: FlowPoint):
            inner.env[s.player_var] = Val(key=who)  # who is asked is public: they are seen deciding
            self.run_calls(s.choice.source, inner, fr)  # each player's list
            # 'each ... secretly choose' is always secret; in a window ('may'), whether a player is asked is
            # told to them alone, and whether they answered shows in what their answer does
            choice = attrs.evolve(s.choice, automatic=False) if s.window else s.choice
            self.choice(choice, who, inner, secret=True)
        self.loop(s.body, st, fr, lambda now: runs, bind)

    # ------------------------------------------------------------------ the whole file
    def run(self):
        sym = self.sym
        scoring_reveals = set()
        scoring = sym.blocks.get("scoring")
        for s in scoring.body if scoring is not None else ():
            if isinstance(s, ast.Reveal):
                if isinstance(s.what, ast.Name):
                    scoring_reveals.add(s.what.id)
                elif isinstance(s.what, ast.Attr):
                    scoring_reveals.add(s.what.name)
            elif isinstance(s, ast.For):
                scoring_reveals.update(self.revealed_for_everyone(s, FlowPoint()))
        for d in sym.vars.values():
            lab = self.label(d.value, FlowPoint())
            if lab and d.visibility == "public":
                self.report(1, d.span, f"the public variable '{d.name}' is computed from {self.secret(lab)}",
                            HINT_STORE.format(name=d.name))
        for d in sym.blocks.values():
            self.block(d.body, FlowPoint(), Analysis(d.kind))
        for d in sym.end_conditions:
            lab = self.label(d.cond, FlowPoint())
            if lab:
                self.report(10, d.cond.span, f"the end condition depends on {self.secret(lab)}", HINT_END)
        if sym.teams is not None:
            lab = self.label(sym.teams.teams, FlowPoint())
            if lab:
                self.report(10, sym.teams.teams.span, f"'teams' depends on {self.secret(lab)}", HINT_TEAMS)
        if sym.rank is not None:
            self.check_ranking(sym.rank.span, [name for name, _ascending in sym.rank.keys], scoring_reveals,
                               "'rank by'")
        else:
            score = self.vars.get("score")
            if score is not None and score.per_player:
                # without 'rank by' the outcome ranks (and shows) the scores
                self.check_ranking(score.span, ["score"], scoring_reveals, "the outcome")

        if sym.observe is not None:
            at = FlowPoint()
            for e in sym.observe.entries:
                bad = self.not_owned_by(self.label(e.expr, at), "me")
                if bad:
                    self.report(11, e.expr.span, f"the observation '{e.label}' of player me shows "
                                f"{self.secret(bad, self.direct(e.expr, at))}", HINT_OBSERVE)

    def check_ranking(self, span, names, scoring_reveals: set, what: str):
        for name in names:
            decl = self.vars.get(name)
            if decl is not None and decl.visibility != "public" and name not in scoring_reveals:
                self.report(10, span, f"{what} ranks the players by the {decl.visibility} variable '{name}'",
                            HINT_RANK)


def _revealed_locals(node):
    """The names x of 'revealed(x)' evaluated whatever happens (not in a branch of 'if'/'and'/'or'/a quantifier)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "revealed" \
            and len(node.args) == 1 and isinstance(node.args[0], ast.Name):
        yield node.args[0].id
        return
    if isinstance(node, ast.Cond):
        yield from _revealed_locals(node.test)
        return
    if isinstance(node, ast.Match):  # the subject, or the first arm's condition, is always evaluated
        yield from _revealed_locals(node.subject if node.subject is not None else node.arms[0][0][0])
        return
    if isinstance(node, ast.LetIn):
        yield from _revealed_locals(node.value)
        yield from (name for name in _revealed_locals(node.body) if name != node.name)
        return
    if isinstance(node, ast.BoolOp):
        yield from _revealed_locals(node.left)
        return
    if isinstance(node, (ast.Quantifier, ast.ListComp)):
        yield from _revealed_locals(node.binder.source)
        return
    if isinstance(node, ast.Template):
        for p in node.parts:
            if not isinstance(p, str):
                yield from _revealed_locals(p)
        return
    for part in ast.parts(node):
        yield from _revealed_locals(part)


def _proc_calls(node, procs):
    """The procedure calls in an expression, in the order they run: left to right, a call's arguments first."""
    if isinstance(node, ast.Call):
        for part in (node.args, node.kwargs):
            yield from _proc_calls(part, procs)
        if isinstance(node.func, ast.Name) and node.func.id in procs:
            yield node
        return
    for part in ast.parts(node):
        yield from _proc_calls(part, procs)


def flow_diagnostics(rules: ast.RulesFile) -> list[Diagnostic]:
    """Every place where the rules let a secret reach a player who may not see it, in file order."""
    flow = Flow(rules)
    flow.run()
    return sorted(flow.diagnostics.values(), key=lambda d: (d.file, d.line, d.column, d.message))
