"""Compile a block of statements to a flat tuple of instructions with jumps.

Pass one lowers statements to a small intermediate list (exec, jump, jump_unless, loop, call,
return, choose, end...) with symbolic labels; pass two lays them out and turns each into a closure
``op(state, env) -> next pc`` with every jump target already a number.
"""
from __future__ import annotations

import itertools

from rulewright.dsl import ast
from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.expressions import get_index, is_const, player_index, set_index
from rulewright.interpreter import events
from rulewright.interpreter.machine import STOP, SWITCH, Frame, Option, Pending, Proc
from rulewright.interpreter.values import copy_value, to_text
from rulewright.interpreter.views import public_text


class Label:
    __slots__ = ("pc",)

    def __init__(self):
        self.pc = -1


class ProcCompiler:
    """Lowers one procedure; ``game`` is the CompiledGame whose names it resolves against."""

    _ids = itertools.count()

    def __init__(self, game, name: str, params: tuple, file: str):
        self.game = game
        self.name = name
        self.params = tuple(params)
        self.file = file
        self.ir: list = []  # (kind, line, payload...)
        self.scope: set = set(params) | {"me"}
        self.loops: list[Label] = []
        # Counted per procedure, not per process: a saved frame's hidden locals must get the same
        # names when the rules are compiled again (another process, or a second Game of the same rules).
        self._ids = itertools.count()

    # ------------------------------------------------------------------ helpers
    def expr(self, node):
        return self.game.exprs.compile(node, self.scope)

    def emit(self, kind, line, *payload):
        self.ir.append((kind, line, *payload))

    def label(self, lab: Label):
        self.ir.append(("label", 0, lab))

    def hidden(self, what: str) -> str:
        return f"${what}{next(self._ids)}"

    def block(self, stmts):
        for s in stmts:
            getattr(self, "_" + type(s).__name__)(s)

    # ------------------------------------------------------------------ simple statements
    def _Let(self, s):
        # the value is compiled before the name is a local: 'let n = [n]' reads the constant n
        if isinstance(s.value, ast.Call) and s.value.func.id in self.game.procs_ast:
            return self._call(s.value, s.span.line, target=ast.Name(s.name))
        value, name = self.expr(s.value), s.name
        self.scope.add(name)

        def f(st, env):
            env[name] = value(st, env)
        self.emit("exec", s.span.line, f)

    def _assigner(self, target, combine=None):
        """A function (st, env, value) that stores ``value`` into the place ``target`` names."""
        if isinstance(target, ast.Name):
            name = target.id
            if name in self.scope or name not in self.game.var_decls:
                self.scope.add(name)

                def store(st, env, v):
                    env[name] = combine(env[name], v) if combine else v
                return store

            def store(st, env, v):
                st.vars[name] = copy_value(combine(st.vars[name], v) if combine else v)
            return store
        if isinstance(target, ast.Attr):
            obj = self.expr(target.obj)
            name = target.name
            kinds = self.game.field_kinds(name)
            count = self.game.player_count
            if kinds == {"player"}:
                def store(st, env, v):
                    values = st.vars[name]
                    i = player_index(obj(st, env), count)
                    values[i] = copy_value(combine(values[i], v) if combine else v)
                return store

            player_too = "player" in kinds

            def store(st, env, v):
                o = obj(st, env)
                if type(o) is dict:
                    o[name] = copy_value(combine(o[name], v) if combine else v)
                elif player_too and type(o) is int:  # the name is both a player variable and a field
                    values, i = st.vars[name], player_index(o, count)
                    values[i] = copy_value(combine(values[i], v) if combine else v)
                else:
                    raise RulesRuntimeError(f"cannot set '{name}' of {to_text(o)!r}")
            return store
        if isinstance(target, ast.Index):
            obj, idx = self.expr(target.obj), self.expr(target.index)

            def store(st, env, v):
                o, i = obj(st, env), idx(st, env)
                set_index(o, i, copy_value(combine(get_index(o, i), v) if combine else v))
            return store
        raise RulesRuntimeError("cannot assign to this")

    def _Assign(self, s):
        if isinstance(s.value, ast.Call) and s.value.func.id in self.game.procs_ast:
            return self._call(s.value, s.span.line, target=s.target)
        value, store = self.expr(s.value), self._assigner(s.target)
        self.emit("exec", s.span.line, lambda st, env: store(st, env, value(st, env)))

    def _AugAssign(self, s):
        combine = (lambda a, b: a + b) if s.op == "+" else (lambda a, b: a - b)
        value, store = self.expr(s.value), self._assigner(s.target, combine)
        self.emit("exec", s.span.line, lambda st, env: store(st, env, value(st, env)))

    def _CallStmt(self, s):
        name = s.call.func.id
        if name in self.game.procs_ast:
            return self._call(s.call, s.span.line)
        fn = self.expr(s.call)
        self.emit("exec", s.span.line, lambda st, env: fn(st, env) and None)

    def _call(self, call, line, target=None):
        proc = call.func.id
        params = self.game.procs_ast[proc].params
        args = [self.expr(a) for a in call.args]
        if target is None:
            return self.emit("call", line, proc, params, args, None)
        if isinstance(target, ast.Name) and (target.id in self.scope or target.id not in self.game.var_decls):
            self.scope.add(target.id)  # a local receives the value directly
            return self.emit("call", line, proc, params, args, target.id)
        # a game variable, a field or an item: the value lands in a hidden local, then is stored there
        returned, store = self.hidden("returned"), self._assigner(target)
        self.emit("call", line, proc, params, args, returned)
        self.emit("exec", line, lambda st, env: store(st, env, env.pop(returned)))

    def _Pass(self, s):
        pass

    def _EndGame(self, s):
        self.emit("end", s.span.line)

    def _Win(self, s):
        players = self.expr(s.players)

        count = self.game.player_count

        def f(st, env):
            v = players(st, env)
            winners = v if isinstance(v, list) else [v]
            for p in winners:  # 'win "me"' would otherwise name a winner nobody is
                player_index(p, count)
            st.winners = sorted(winners)
        self.emit("exec", s.span.line, f)

    def _Log(self, s):
        msg = self.expr(s.message)
        if s.to is None:
            def f(st, env):
                st.emit(events.log(msg(st, env)))
        else:
            to = self.expr(s.to)

            def f(st, env):
                readers = to(st, env)
                readers = sorted(readers) if type(readers) is list else [readers]
                for p in readers:
                    player_index(p, self.game.player_count)  # a player, or a rules error
                st.emit(events.log(msg(st, env), readers))
        self.emit("exec", s.span.line, f)

    def _Reveal(self, s):
        what = s.what
        text = self.expr(s.text) if s.text is not None else None
        if isinstance(what, ast.Name) and what.id in self.game.var_decls and what.id not in self.scope:
            name = what.id
            player_var = name in self.game.player_vars

            def f(st, env):
                value = st.vars[name]
                _turn_up(st, name, 0, value)
                shown = "  ".join(f"{p}: {to_text(v)}" for p, v in enumerate(value, 1)) if player_var else to_text(value)
                st.emit(events.reveal(text(st, env) if text else f"{name}: {shown}", env.get("me")))
        elif isinstance(what, ast.Attr) and what.name in self.game.player_vars:
            owner, name, count = self.expr(what.obj), what.name, self.game.player_count

            def f(st, env):
                p = owner(st, env)
                value = st.vars[name][player_index(p, count)]
                _turn_up(st, name, p, value)
                st.emit(events.reveal(text(st, env) if text else f"player {p}'s {name}: {to_text(value)}", p))
        else:
            value = self.expr(what)

            def f(st, env):
                v = value(st, env)
                st.emit(events.reveal(text(st, env) if text else to_text(v), env.get("me")))
        self.emit("exec", s.span.line, f)

    def _list_expr(self, node, maps_too: bool = False):
        fn = self.expr(node)

        def f(st, env):
            v = fn(st, env)
            if type(v) is not list and not (maps_too and type(v) is dict):
                raise RulesRuntimeError(f"{to_text(v)!r} is not a list")
            return v
        return f

    def _Add(self, s):
        item, target, bottom = self.expr(s.item), self._list_expr(s.target), s.bottom

        def f(st, env):
            v = copy_value(item(st, env))
            if bottom:
                target(st, env).insert(0, v)
            else:
                target(st, env).append(v)
        self.emit("exec", s.span.line, f)

    def _Remove(self, s):
        item, source = self.expr(s.item), self._list_expr(s.source, maps_too=True)

        def f(st, env):
            x, xs = item(st, env), source(st, env)
            try:
                if type(xs) is dict:  # from a map: forget the key
                    del xs[x]
                else:
                    xs.remove(x)
            except (ValueError, KeyError):
                raise RulesRuntimeError(f"{to_text(x)!r} is not there to remove") from None
        self.emit("exec", s.span.line, f)

    def _MoveItem(self, s):
        item, source, target, bottom = (self.expr(s.item), self._list_expr(s.source),
                                        self._list_expr(s.target), s.bottom)

        def f(st, env):
            x, xs = item(st, env), source(st, env)
            try:
                xs.remove(x)
            except ValueError:
                raise RulesRuntimeError(f"{to_text(x)!r} is not there to move") from None
            if bottom:
                target(st, env).insert(0, x)
            else:
                target(st, env).append(x)
        self.emit("exec", s.span.line, f)

    def _Shuffle(self, s):
        target = self._list_expr(s.target)
        self.emit("exec", s.span.line, lambda st, env: st.rng.shuffle(target(st, env)))

    def _Draw(self, s):
        source, name = self._list_expr(s.source), s.name
        self.scope.add(name)

        def f(st, env):
            xs = source(st, env)
            if not xs:
                raise RulesRuntimeError("cannot draw from an empty list")
            env[name] = xs.pop()
        self.emit("exec", s.span.line, f)

    def _Return(self, s):
        self.emit("return", s.span.line, self.expr(s.value) if s.value is not None else None)

    def _Break(self, s):
        self.emit("jump", s.span.line, self.loops[-1])

    def _Fail(self, s):
        msg = self.expr(s.message)

        def f(st, env):
            raise RulesRuntimeError(msg(st, env))
        self.emit("exec", s.span.line, f)

    def _TakeTurn(self, s):
        self.emit("call", s.span.line, "turn", ("me",), [self.expr(s.player)], None)
        self.emit("check_end", s.span.line, "turn")

    # ------------------------------------------------------------------ control flow
    def _If(self, s):
        end = Label()
        for cond, body in s.branches:
            c = self.expr(cond)
            if is_const(c):
                if c.const:
                    self.block(body)
                    self._declare_skipped(s, body)
                    self.label(end)
                    return
                continue
            nxt = Label()
            self.emit("jump_unless", cond.span.line, c, nxt)
            self.block(body)
            self.emit("jump", cond.span.line, end)
            self.label(nxt)
        self.block(s.orelse)
        self._declare_skipped(s, s.orelse)
        self.label(end)

    def _declare_skipped(self, s, taken):
        """Names a branch folded away by options would have made local stay local names: the checker
        saw them in every branch, so later statements may use them (they just never get a value)."""
        skipped: set = set()
        for cond, body in s.branches:
            if body is not taken:
                skipped |= _bound_names(body)
        if s.orelse is not taken:
            skipped |= _bound_names(s.orelse)
        self.scope |= {n for n in skipped if n not in self.game.var_decls}  # game variables stay game's

    def _loop_over(self, var, source, body, line):
        """for var in source: body  (the list is taken once, when the loop starts)."""
        self.scope.add(var)
        items, index = self.hidden("items"), self.hidden("i")
        top, end = Label(), Label()

        def start(st, env):
            env[items] = list(source(st, env))
            env[index] = 0
        self.emit("exec", line, start)
        self.label(top)
        self.emit("for_next", line, items, index, var, end)
        self.loops.append(end)
        body()
        self.loops.pop()
        self.emit("jump", line, top)
        self.label(end)
        self.emit("exec", line, _forget(items, index))

    def _For(self, s):
        self._loop_over(s.var, self.expr(s.source), lambda: self.block(s.body), s.span.line)

    def _While(self, s):
        top, end = Label(), Label()
        self.label(top)
        self.emit("jump_unless", s.span.line, self.expr(s.cond), end)
        self.loops.append(end)
        self.block(s.body)
        self.loops.pop()
        self.emit("jump", s.span.line, top)
        self.label(end)

    def _Repeat(self, s):
        count = self.expr(s.count)
        counter = self.hidden("n")
        self._loop_over(counter, lambda st, env: range(count(st, env)), lambda: self.block(s.body), s.span.line)

    def _Step(self, s):
        label = s.label

        def f(st, env):
            st.step = label
        self.emit("exec", s.span.line, f)
        self.block(s.body)

    # ------------------------------------------------------------------ decisions
    def _choice_spec(self, c: ast.Choose, secret: bool = False):
        self.scope.add(c.var)
        return {
            "var": c.var,
            "source": self.expr(c.source),
            "where": self.expr(c.where) if c.where is not None else None,
            "by": self.expr(c.by) if c.by is not None else None,
            "text": self.expr(c.text) if c.text is not None else None,
            "optional": self.expr(c.optional) if c.optional is not None else None,
            "secret": c.secret or secret,
            "shown": self.expr(c.shown) if c.shown is not None else None,
        }

    def _Choose(self, s):
        self.emit("choose", s.span.line, self._choice_spec(s))

    def _ChooseBlock(self, s):
        var = self.hidden("alt")
        labels = [a.label for a in s.alternatives]
        guards = [self.expr(a.guard) if a.guard is not None else None for a in s.alternatives]
        pairs = list(zip(labels, guards))

        def source(st, env):
            return [lab for lab, g in pairs if g is None or g(st, env)]
        spec = {"var": var, "source": source, "where": None, "by": self.expr(s.by) if s.by is not None else None,
                "text": None, "optional": None, "secret": False, "shown": None}
        self.emit("choose", s.span.line, spec)
        end = Label()
        for alt in s.alternatives:
            nxt = Label()
            lab = alt.label
            self.emit("jump_unless", alt.span.line, (lambda lab: lambda st, env: env[var] == lab)(lab), nxt)
            self.block(alt.body)
            self.emit("jump", alt.span.line, end)
            self.label(nxt)
        self.label(end)

    def _ChooseEach(self, s):
        spec = {"players": self.expr(s.players)}  # the list is read before the player's name is bound
        self.scope.add(s.player_var)
        spec.update(self._choice_spec(s.choice, secret=True))
        spec["player_var"] = s.player_var
        results = self.hidden("each")
        spec["results"] = results
        self.emit("choose_each", s.span.line, spec)
        pair = self.hidden("pair")
        pvar, var = s.player_var, s.choice.var

        def body():
            def unpack(st, env):
                env[pvar], env[var] = env[pair]
            self.emit("exec", s.span.line, unpack)
            self.block(s.body)
        self._loop_over(pair, lambda st, env: env[results], body, s.span.line)

    # ------------------------------------------------------------------ layout
    def finish(self) -> Proc:
        self.emit("return", self.ir[-1][1] if self.ir else 0, None)
        pcs = []
        pc = 0
        for ins in self.ir:
            if ins[0] == "label":
                ins[2].pc = pc
            else:
                pcs.append(ins)
                pc += 1
        code = tuple(_materialize(ins, i, self.game) for i, ins in enumerate(pcs))
        lines = tuple(ins[1] for ins in pcs)
        return Proc(self.name, self.params, code, lines, self.file)


# Rules never nest procedure calls this deep unless one calls itself without end.
MAX_CALL_DEPTH = 500


def _bound_names(stmts) -> set:
    """Every local a block of statements can bind, nested blocks included."""
    names: set = set()
    for s in stmts:
        if isinstance(s, (ast.Let, ast.Draw)):
            names.add(s.name)
        elif isinstance(s, (ast.For, ast.Choose)):
            names.add(s.var)
        elif isinstance(s, ast.ChooseEach):
            names |= {s.player_var, s.choice.var}
        elif isinstance(s, ast.Assign) and isinstance(s.target, ast.Name):
            names.add(s.target.id)
        for part in ("body", "orelse"):
            if isinstance(getattr(s, part, None), tuple):
                names |= _bound_names(getattr(s, part))
        for branch in getattr(s, "branches", ()):
            names |= _bound_names(branch[1])
        for alt in getattr(s, "alternatives", ()):
            names |= _bound_names(alt.body)
    return names


def _turn_up(st, name: str, player: int, value) -> None:
    """A variable (player 0: all of it) or one player's entry is face up, as it is now: views show it
    until it changes (then it is face down again)."""
    st.revealed[:] = [r for r in st.revealed if r[:2] != [name, player]]
    st.revealed.append([name, player, copy_value(value)])


def _forget(*names):
    def f(st, env):
        for n in names:
            env.pop(n, None)
    return f


def _materialize(ins, pc, game):
    kind, line = ins[0], ins[1]
    nxt = pc + 1
    if kind == "exec":
        fn = ins[2]

        def op(st, env):
            fn(st, env)
            return nxt
        return op
    if kind == "jump":
        target = ins[2].pc
        return lambda st, env: target
    if kind == "jump_unless":
        cond, target = ins[2], ins[3].pc
        return lambda st, env: nxt if cond(st, env) else target
    if kind == "for_next":
        items, index, var, end = ins[2], ins[3], ins[4], ins[5].pc

        def op(st, env):
            i = env[index]
            xs = env[items]
            if i < len(xs):
                env[var] = xs[i]
                env[index] = i + 1
                return nxt
            return end
        return op
    if kind == "call":
        proc, params, args, target = ins[2], ins[3], ins[4], ins[5]

        def op(st, env):
            inner = {p: a(st, env) for p, a in zip(params, args)}
            if "me" not in inner and "me" in env:
                inner["me"] = env["me"]
            if target is not None:
                inner["$return_to"] = target
            if len(st.frames) >= MAX_CALL_DEPTH:  # fail fast, before the step budget fills memory with frames
                raise RulesRuntimeError(f"procedures called {MAX_CALL_DEPTH} deep (one that calls itself forever?)")
            st.frames[-1].pc = nxt
            st.frames.append(Frame(proc, 0, inner))
            return SWITCH
        return op
    if kind == "return":
        value = ins[2]

        def op(st, env):
            v = value(st, env) if value is not None else None
            st.frames.pop()
            target = env.get("$return_to")
            if target is not None and st.frames:
                st.frames[-1].locals[target] = v
            return SWITCH
        return op
    if kind == "end":
        def op(st, env):
            st.begin_scoring()
            return SWITCH
        return op
    if kind == "check_end":
        conditions = game.end_conditions[ins[2]]

        def op(st, env):
            for cond in conditions:
                if cond(st, {}):
                    st.begin_scoring()
                    return SWITCH
            return nxt
        return op
    if kind == "choose":
        spec = ins[2]
        return _choose_op(spec, nxt, line)
    if kind == "choose_each":
        return _choose_each_op(ins[2], nxt, line)
    raise AssertionError(kind)


def options_for(spec, st, env) -> list:
    """The options of one decision, each with a text unique among them."""
    var, where, text = spec["var"], spec["where"], spec["text"]
    opts: list = []
    seen: dict = {}
    for x in spec["source"](st, env):
        env[var] = x
        if where is not None and not where(st, env):
            continue
        if text is not None:
            t = text(st, env)
        elif type(x) is str:
            t = x  # spaces and names are their own text
        else:
            t = public_text(st.game, x) if st.game.field_visibility else to_text(x)
        if t in seen:
            if seen[t] == x:
                continue  # identical copies of one table row: one move
            n = 2
            while f"{t} #{n}" in seen:
                n += 1
            t = f"{t} #{n}"
        seen[t] = x
        opts.append(Option(t, x))
    if spec["optional"] is not None:
        opts.append(Option(spec["optional"](st, env), None))
    if spec["secret"] or spec["shown"] is not None:
        _mask(opts, spec, st, env)
    return opts


def _mask(opts: list, spec, st, env) -> None:
    """A secret decision: each option carries what the other players see of it."""
    shown, var = spec["shown"], spec["var"]
    for o in opts:
        if shown is None:
            o.shown = events.DEFAULT_SHOWN
        else:
            env[var] = o.value
            o.shown = shown(st, env)


def _choose_op(spec, nxt, line):
    by = spec["by"]

    def op(st, env):
        opts = options_for(spec, st, env)
        env.pop(spec["var"], None)
        if not opts:
            raise RulesRuntimeError(f"no legal choice for '{spec['var']}'")
        player = by(st, env) if by is not None else env["me"]
        st.frames[-1].pc = nxt
        st.pending = Pending(spec["var"], {player: opts}, line=line)
        return STOP
    return op


def _choose_each_op(spec, nxt, line):
    def op(st, env):
        options = {}
        for p in spec["players"](st, env):
            env[spec["player_var"]] = p
            opts = options_for(spec, st, env)
            if not opts:
                raise RulesRuntimeError(f"no legal choice for '{spec['var']}' for player {p}")
            options[p] = opts
        st.frames[-1].pc = nxt
        if not options:
            env[spec["results"]] = []
            return nxt
        st.pending = Pending(spec["var"], options, simultaneous=True, line=line, results=spec["results"])
        return STOP
    return op
