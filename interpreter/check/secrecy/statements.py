"""The secrecy check's walk over statements: stores into public variables (rules 1 and 5), what every
player sees happen under a secret condition (rule 2), log lines (rule 3), reveals (rule 9), and the
blocks of 'if', loops and steps (branches joined, loop bodies run twice)."""
from __future__ import annotations

from typing import Optional

import attrs

from rulewright.dsl import ast
from rulewright.dsl.visitor import Visitor
from rulewright.interpreter.check.secrecy.messages import (HINT_ANNOUNCED, HINT_CONDITION, HINT_LOG, HINT_REVEAL,
                                                          HINT_STORE, STORES)
from rulewright.interpreter.check.secrecy.points import NO_ROOTS, PUBLIC, Analysis, Place, Point, Val, join_points
from rulewright.interpreter.engine.builtin_names import PLAYERS


class Statements(Visitor):
    """The statements but decisions (decisions.py) and procedure calls (calls.py); a part of SecrecyCheck
    (check.py)."""

    # ------------------------------------------------------------------ places written
    def place(self, target, st: Point) -> Place:
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

    def node_path(self, obj, st: Point) -> frozenset:
        """Which record a field store changes: a local's value, else the path of the place."""
        if isinstance(obj, ast.Name) and obj.id in st.env:
            return st.env[obj.id].label
        return PUBLIC

    # ------------------------------------------------------------------ statements
    def block(self, stmts, st: Point, fr: Analysis):
        revealed = st.revealed
        for s in stmts:
            self.visit(s, st, fr)
        st.revealed = revealed  # 'reveal v' lasts to the end of its block

    def direct(self, node, st: Point) -> frozenset:
        """The secrets an expression reads itself, its locals taken as public (to name the nearest one)."""
        if node is None:
            return PUBLIC
        plain = Point({n: Val(key=v.key, roots=v.roots) for n, v in st.env.items()}, PUBLIC, st.revealed,
                      st.face_up)
        return self.label(node, plain)

    def conditional(self, rule: int, span, st: Point, whether: str, hint: str, pc: Optional[frozenset] = None):
        """Rules 2 and 6: something every player sees happens, or not, as a secret condition decides."""
        pc = st.pc if pc is None else pc
        if not pc or st.quiet == pc:
            return
        st.quiet = pc
        self.report(rule, span, f"whether {whether} depends on {self.secret(pc, st.near)}", hint)

    def promote(self, st: Point, *nodes):
        """'revealed(x)' evaluated whatever happens, x a local: x is public from then on."""
        for node in nodes:
            for name in _revealed_locals(node):
                val = st.env.get(name)
                if val is not None:
                    st.env[name] = attrs.evolve(val, label=PUBLIC, length=PUBLIC)

    def visit_Pass(self, s, st, fr):
        pass

    visit_Break = visit_Pass
    visit_Fail = visit_Pass
    def visit_Shuffle(self, s, st, fr):
        place = self.place(s.target, st)
        if any(self.public_var(r, st) for r in place.roots):  # a public list seen reordered
            self.public_act(s.span, st, fr, "a public list is shuffled here", "shuffles a public list")

    def visit_Let(self, s, st, fr):
        self.bind(s.name, s.value, s, st, fr)

    def bind(self, name: str, value, s, st: Point, fr: Analysis, augmented: bool = False):
        """A local takes a value (the procedures called in it run first)."""
        self.run_calls(value, st, fr)
        val = Val(self.label(value, st) | st.pc, self.length(value, st) | st.pc, self.roots(value, st),
                  self.alias_key(value, st) or self.fresh_key(name, st), self.mark(value, st))
        self.promote(st, value)
        if augmented and name in st.env:
            old = st.env[name]
            val = Val(old.label | val.label, old.length | val.length, old.roots, old.key, old.mark)
        st.env[name] = val

    def visit_Assign(self, s, st, fr):
        self.assign(s, st, fr, augmented=False)

    def visit_AugAssign(self, s, st, fr):
        self.assign(s, st, fr, augmented=True)

    def assign(self, s, st: Point, fr: Analysis, augmented: bool):
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

    def store(self, s, verb: str, place: Place, value_label: frozenset, mark, st: Point, fr: Analysis, value_node=None):
        """A value (or an item) goes into a place: rules 1, 2 and 5."""
        public = sorted(r for r in place.roots if self.public_var(r, st))
        if public and not place.face_down:
            name = public[0]
            fr.does(f"changes the public variable '{name}'")
            hint = HINT_STORE.format(name=name)
            if value_label:
                what = STORES[verb].format(name=name)
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

    def visit_Add(self, s, st, fr):
        self.run_calls(s.item, st, fr)
        self.store(s, "add", self.place(s.target, st), self.label(s.item, st), self.mark(s.item, st), st, fr, s.item)
        self.promote(st, s.item)

    def visit_Remove(self, s, st, fr):
        self.store(s, "remove", self.place(s.source, st), self.label(s.item, st), None, st, fr, s.item)
        self.promote(st, s.item)

    def visit_MoveItem(self, s, st, fr):
        item, mark = self.label(s.item, st), self.mark(s.item, st)
        # the item is seen entering a public zone, or leaving one (the first report is kept)
        self.store(s, "move_in", self.place(s.target, st), item, mark, st, fr, s.item)
        self.store(s, "move_out", self.place(s.source, st), item, None, st, fr, s.item)
        self.promote(st, s.item)

    def visit_Draw(self, s, st, fr):
        item = self.label(s.source, st) | st.pc
        self.store(s, "remove", self.place(s.source, st), PUBLIC, None, st, fr)
        st.env[s.name] = Val(item, item, NO_ROOTS, self.fresh_key(s.name, st))

    def visit_CallStmt(self, s, st, fr):
        self.run_calls(s.call, st, fr)

    def visit_Return(self, s, st, fr):
        if s.value is None:
            val = Val(st.pc, st.pc)
        else:
            self.run_calls(s.value, st, fr)
            val = Val(self.label(s.value, st) | st.pc, self.length(s.value, st) | st.pc, self.roots(s.value, st),
                      None, self.mark(s.value, st))
        fr.ret = val if fr.ret is None else fr.ret.join(val)

    def public_act(self, span, st: Point, fr: Analysis, whether: str, effect: str):
        """A statement every player sees happen (rule 2)."""
        fr.does(effect)
        self.conditional(2, span, st, whether, HINT_CONDITION)

    def visit_EndGame(self, s, st, fr):
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

    def visit_Win(self, s, st, fr):
        self.naming_act(s, s.players, st, fr, "names the winners", "the winners named here are computed from",
                        "'win' names the winners here")

    def visit_TakeTurn(self, s, st, fr):
        self.naming_act(s, s.player, st, fr, "gives a turn", "whose turn it is here depends on",
                        f"player {self.key(s.player, st)} takes a turn here")

    def visit_Log(self, s, st, fr):
        text = self.label(s.message, st)
        if s.to is None:
            fr.does("writes a public log line")
            if text:
                self.report(3, s.span, f"the public log line shows "
                            f"{self.secret(text, self.direct(s.message, st))}", HINT_LOG)
            else:
                self.conditional(2, s.span, st, "this public log line is written", HINT_CONDITION)
        else:  # to one player, or to each player of a list written out ('to [me]', 'to [p, q]')
            for to in (s.to.items if isinstance(s.to, ast.ListLit) else (s.to,)):
                self.log_to(s, to, text, st)
        self.promote(st, s.message)

    def log_to(self, s, to, text, st):
        """A log line read by the player ``to`` names: it may show that player's own secrets only."""
        reader = self.key(to, st)
        readers = self.not_owned_by(self.label(to, st), reader)
        if readers:  # the readers learn that it was written to them
            self.report(3, to.span, f"who reads this log line depends on "
                        f"{self.secret(readers, self.direct(to, st))}", HINT_LOG)
        text, pc = self.not_owned_by(text, reader), self.not_owned_by(st.pc, reader)
        if isinstance(to, ast.Attr):  # 'to b.owner': b's fields 'secret to owner' may be shown
            text = frozenset(t for t in text if not (t[0] == "item" and self.item_fields[t[2]][1].owner == to.name))
        if text:
            self.report(3, s.span, f"the log line to player {reader} shows "
                        f"{self.secret(text, self.direct(s.message, st))}", HINT_LOG)
        else:
            self.conditional(2, s.span, st, f"this log line to player {reader} is written", HINT_CONDITION, pc)

    def visit_Reveal(self, s, st, fr):
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
    def replace(st: Point, new: Point):
        st.env, st.face_up = new.env, new.face_up

    def visit_If(self, s, st, fr):
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
        self.replace(st, join_points(st, outs))

    def loop(self, body, st: Point, fr: Analysis, condition, bind=None, after=None):
        """A loop body run twice, each time joined with the point before it (it may not run at all).
        ``condition(state)`` gives the label the body runs under and the secrets it reads itself;
        ``after(state)`` is what runs at the end of each round, under that condition."""
        for _round in range(2):
            inner = st.under(*condition(st))
            if bind is not None:
                bind(inner)
            self.block(body, inner, fr)
            if after is not None:
                after(inner)
            self.replace(st, join_points(st, [st, inner]))

    def visit_While(self, s, st, fr):
        self.run_calls(s.cond, st, fr)  # the first test; the next ones run after a round, under the condition
        self.promote(st, s.cond)
        self.loop(s.body, st, fr, lambda now: self.condition(s.cond, now),
                  after=lambda inner: self.run_calls(s.cond, inner, fr, again=True))

    def condition(self, node, st: Point):
        lab = self.label(node, st)
        return lab, (self.direct(node, st) if lab else PUBLIC)

    def visit_Repeat(self, s, st, fr):
        self.run_calls(s.count, st, fr)
        count = self.condition(s.count, st)
        self.loop(s.body, st, fr, lambda now: count)

    def visit_For(self, s, st, fr):
        # the body runs len(list) times: its condition is the list's length, public for a variable's list;
        # the loop variable holds an item (a secret list's items are secret)
        self.run_calls(s.source, st, fr)
        items, roots = self.label(s.source, st), self.roots(s.source, st)
        self.note_loop(s.span, items)  # the loop's own copy of the list holds its items to come
        length = self.length(s.source, st)
        runs = (length, self.direct(s.source, st) if length else PUBLIC)

        def bind(inner: Point):
            inner.env[s.var] = Val(items, items, roots, self.fresh_key(s.var, inner))
        self.loop(s.body, st, fr, lambda now: runs, bind)
        st.revealed = st.revealed | self.revealed_for_everyone(s, st)

    def revealed_for_everyone(self, s: ast.For, st: Point) -> frozenset:
        """'for p in players: reveal p.v' turns up every player's entry: the variable v is revealed after
        the loop, to the end of the block the loop stands in."""
        if not (isinstance(s.source, ast.Name) and s.source.id == PLAYERS and PLAYERS not in st.env):
            return frozenset()
        return frozenset(r.what.name for r in s.body if isinstance(r, ast.Reveal) and isinstance(r.what, ast.Attr)
                         and isinstance(r.what.obj, ast.Name) and r.what.obj.id == s.var
                         and r.what.name in self.player_vars)

    def visit_Step(self, s, st, fr):
        self.public_act(s.span, st, fr, f"the step '{s.label}' begins here", "begins a step")  # views show it
        self.block(s.body, st, fr)

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
