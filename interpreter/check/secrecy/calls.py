"""The secrecy check's procedure calls: a procedure called in a statement's own expression runs at the
statement, first, under its condition; what it does is summarised once per context (its arguments,
the variables revealed), and a report its body gives only because of a secret argument is made at
the call's argument."""
from __future__ import annotations

import attrs

from rulewright.dsl import ast
from rulewright.interpreter.check.secrecy.messages import HINT_ASKED, HINT_CONDITION
from rulewright.interpreter.check.secrecy.points import PUBLIC, Analysis, Point, Summary, Val
from rulewright.interpreter.engine.builtin_names import ME


class Calls:
    """Procedure calls; a part of SecrecyCheck (check.py), which holds the memos (proc_memo, in_progress,
    call_vals, leak_origin)."""

    def is_proc_call(self, node) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in self.procs

    def run_calls(self, node, st: Point, fr: Analysis, again: bool = False):
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

    def call(self, call: ast.Call, st: Point, fr: Analysis) -> Val:
        """A procedure call: its summary in this context, and the call site's rules 2 and 6."""
        name = call.func.id
        proc = self.procs[name]
        self.note_locals(call.span, st)  # a decision inside waits with this frame's locals
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
            known = {a.key for a in args} | {ME}
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
        self.block(proc.body, Point(dict(zip(proc.params, args)), PUBLIC, revealed, face_up), inner)
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
