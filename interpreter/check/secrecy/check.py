"""One run of the secrecy check over a rules file: what it holds, how it reports, and the parts of the
file that are no block (variables' first values, 'end when', 'teams', the ranking, 'observe:').

The check is one class made of its parts, each a module of one job: the labels of expressions
(labels.py), the statements (statements.py), procedure calls (calls.py), decisions (decisions.py).
"""
from __future__ import annotations

from rulewright.dsl import ast
from rulewright.dsl.errors import Diagnostic
from rulewright.interpreter.check.secrecy.calls import Calls
from rulewright.interpreter.check.secrecy.decisions import Decisions
from rulewright.interpreter.check.secrecy.labels import Labels
from rulewright.interpreter.check.secrecy.messages import (HINT_END, HINT_OBSERVE, HINT_RANK, HINT_STORE,
                                                          HINT_TEAMS, secret_words)
from rulewright.interpreter.check.secrecy.points import PUBLIC, Analysis, Point
from rulewright.interpreter.check.secrecy.statements import Statements
from rulewright.interpreter.check.symbols import symbols
from rulewright.interpreter.engine.builtin_names import ME


class SecrecyCheck(Decisions, Calls, Statements, Labels):
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
        self.waiting_locals: dict = {}  # (file, line) of a decision or call -> {local: owners} (note_locals)

    # ------------------------------------------------------------------ reporting
    def report(self, rule: int, span: ast.Span, message: str, hint: str = ""):
        # one report per place and kind: a store or a log line is reported once, by the first rule it breaks
        key = (span.file, span.line, span.column, rule if rule > 3 else 1)
        if key in self.diagnostics:
            return
        self.diagnostics[key] = Diagnostic(message, span.file, span.line, span.column, self.rules.source_line(span),
                                           hint, "error")

    def note_locals(self, span: ast.Span, st: Point) -> None:
        """The locals holding a secret where the rules may wait for a decision (a decision, or a call of a
        procedure that may ask), for determinization (interpreter/play/determinize.py): each with the
        keys of the players whose own secret it is, or None when it is a secret of nobody's (a hidden
        variable, a face-down field)."""
        here = self.waiting_locals.setdefault((span.file, span.line), {})
        here.setdefault("$scope", set()).update(st.env)  # every local the rules may read there
        for name, val in st.env.items():
            if val.label:
                _join_owners(here, name, val.label)

    def note_loop(self, span: ast.Span, label: frozenset) -> None:
        """The secret a 'for' loop's list holds (its items to come wait in the loop's own copy)."""
        if label:
            _join_owners(self.waiting_locals.setdefault((span.file, span.line), {}), "$items", label)

    def secret(self, label: frozenset, near: frozenset = PUBLIC) -> str:
        """The words for one secret of a label: one read by the expression itself if any, else the first met."""
        label = (label & near) or label
        t = min(label, key=lambda x: (self.order.get(x, len(self.order)), repr(x)))
        return secret_words(t, self.vars)

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
                scoring_reveals.update(self.revealed_for_everyone(s, Point()))
        for d in sym.vars.values():
            lab = self.label(d.value, Point())
            if lab and d.visibility == "public":
                self.report(1, d.span, f"the public variable '{d.name}' is computed from {self.secret(lab)}",
                            HINT_STORE.format(name=d.name))
        for d in sym.blocks.values():
            self.block(d.body, Point(), Analysis(d.kind))
        for d in sym.end_conditions:
            lab = self.label(d.cond, Point())
            if lab:
                self.report(10, d.cond.span, f"the end condition depends on {self.secret(lab)}", HINT_END)
        if sym.teams is not None:
            lab = self.label(sym.teams.teams, Point())
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
            at = Point()
            for e in sym.observe.entries:
                bad = self.not_owned_by(self.label(e.expr, at), ME)
                if bad:
                    self.report(11, e.expr.span, f"the observation '{e.label}' of player me shows "
                                f"{self.secret(bad, self.direct(e.expr, at))}", HINT_OBSERVE)

    def check_ranking(self, span, names, scoring_reveals: set, what: str):
        for name in names:
            decl = self.vars.get(name)
            if decl is not None and decl.visibility != "public" and name not in scoring_reveals:
                self.report(10, span, f"{what} ranks the players by the {decl.visibility} variable '{name}'",
                            HINT_RANK)


def _join_owners(here: dict, name: str, label: frozenset) -> None:
    """Note that local ``name`` holds a secret of ``label``: the keys of the players whose own secret it
    is, or None (a secret of nobody's), joined with what was noted there before."""
    owners = None if any(t[0] != "own" for t in label) else frozenset(t[1] for t in label)
    if name in here:
        before = here[name]
        owners = None if before is None or owners is None else before | owners
    here[name] = owners


def secret_locals_of(rules: ast.RulesFile) -> dict:
    """(file, line) -> ((local, owners), ...): the locals holding a secret where the rules may wait for a
    decision there (SecrecyCheck.note_locals), every local in scope there ("$scope", the names), and at a
    'for' loop the secret of its list ("$items")."""
    check = SecrecyCheck(rules)
    check.run()
    return {at: tuple(sorted(((name, frozenset(v) if name == "$scope" else v) for name, v in found.items()),
                             key=lambda kv: kv[0]))
            for at, found in check.waiting_locals.items() if found}


def secrecy_diagnostics(rules: ast.RulesFile) -> list[Diagnostic]:
    """Every place where the rules let a secret reach a player who may not see it, in file order."""
    check = SecrecyCheck(rules)
    check.run()
    return sorted(check.diagnostics.values(), key=lambda d: (d.file, d.line, d.column, d.message))
