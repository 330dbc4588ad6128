"""Dispatches over a closed set of values: every value has its arm, or the rules say ``else``.

A *dispatch* is a ``match`` whose arms name values, or an ``if``/``elif`` chain (two tests or more)
whose every test compares one subject with values (``x == a``, ``x in [a, b]``, joined by ``or``),
all of one *value set*: an enum's members, an option's values, or a table's keys (its first column).

- A ``match`` with no ``else`` that misses a value stops the game with an error when that value
  comes: an error here, before the game runs.
- An ``if``/``elif`` chain with no ``else`` that misses a value does nothing for it: a warning, so
  that a partial chain is written on purpose (``else: pass``).
- A variant that adds a value (``add to enum``, ``add to option``, ``add to table``) is told of every
  dispatch of the base where its value falls to a catch-all ``else`` or through a chain: the
  diagnostic stands at the variant's line and names the base's file and line, so a new card, level or
  member never silently borrows another's rule.
"""
from __future__ import annotations

from typing import Optional

import attrs

from rulewright.dsl import ast
from rulewright.dsl.errors import Diagnostic


@attrs.frozen
class ValueSet:
    kind: str    # enum | option | table
    name: str
    values: tuple

    def words(self) -> str:
        return f"{'a member of enum' if self.kind == 'enum' else 'a value of option' if self.kind == 'option' else 'a key of table'} '{self.name}'"


@attrs.frozen
class Added:
    """A value a variant added, and the line that added it."""
    value: object
    set_kind: str
    set_name: str
    span: ast.Span


def value_sets(sym) -> list:
    sets = [ValueSet("enum", name, tuple(d.members)) for name, d in sym.enums.items()]
    sets += [ValueSet("option", name, tuple(values)) for name, values in sym.option_values.items()]
    for name, t in sym.tables.items():
        keys = tuple(_fixed_value(row.values[0]) for row in t.rows if row.values)
        if keys and len(keys) == len(t.rows) and all(isinstance(k, str) for k in keys):
            sets.append(ValueSet("table", name, tuple(dict.fromkeys(keys))))
    return sets


@attrs.frozen
class Seen:
    """A dispatch found: over which value set, of which subject, and whether it ends with 'else'."""
    values: ValueSet
    subject: object
    span: ast.Span
    is_match: bool
    has_else: bool


class Dispatches:
    def __init__(self, rules: ast.RulesFile, sym):
        self.rules, self.sym = rules, sym
        self.seen: list = []  # Seen: every dispatch found (interpreter/check/reach.py reads them)
        self.sets = value_sets(sym)
        self.words = {v for s in self.sets for v in s.values if isinstance(v, str)}
        self.added: list = rules.derived.get("added", [])
        self.diagnostics: list[Diagnostic] = []

    def run(self) -> list[Diagnostic]:
        roots = [d for d in self.rules.decls if isinstance(d, (ast.DefDecl, ast.ProcDecl, ast.BlockDecl, ast.VarDecl,
                                                                 ast.DisplayDecl, ast.ScreenDecl, ast.ObserveDecl,
                                                                 ast.EndWhen))]
        for root in roots:
            self.place = _place_words(root)
            for n in ast.walk(root):
                if isinstance(n, ast.Match) and n.subject is not None:
                    self._match(n)
                elif isinstance(n, ast.If):
                    self._chain(n)
        return self.diagnostics

    # ------------------------------------------------------------------ the two shapes
    def _match(self, m: ast.Match):
        tested = []
        for patterns, _value in m.arms:
            for p in patterns:
                v = _fixed_value(p, self.words)
                if v is _NOT_FIXED:
                    return
                tested.append(v)
        found = self._set_of(m.subject, tested)
        if found is None:
            return
        self.seen.append(Seen(found, m.subject, m.span, True, m.orelse is not None))
        missing = [v for v in found.values if v not in tested]
        if m.orelse is None:
            mine = [v for v in missing if self._added(found, v) is None]
            if mine:
                self._report(m.span, f"no arm of this match fits {_list(mine)} ({found.words()}): the game would "
                             "stop with an error when one comes",
                             "give each its arm, or end with 'else: ...'", "error")
        for v in missing:
            if m.orelse is not None:
                self._variant_report(found, v, m.span, "this match's 'else'", "warning", "arm")
            else:
                self._variant_report(found, v, m.span, "this match, which has no arm for it: the game would stop "
                                     "with an error when it comes", "error", "arm")

    def _chain(self, s: ast.If):
        if len(s.branches) < 2:
            return
        subject, tested = None, []
        for cond, _body in s.branches:
            got = _tests(cond, self.words)
            if got is None:
                return
            subj, values = got
            if subject is None:
                subject = subj
            elif subj != subject:
                return
            tested += values
        found = self._set_of(subject, tested)
        if found is None:
            return
        self.seen.append(Seen(found, subject, s.span, False, bool(s.orelse)))
        missing = [v for v in found.values if v not in tested]
        if not s.orelse:
            mine = [v for v in missing if self._added(found, v) is None]
            if mine:
                self._report(s.span, f"this if/elif chain does nothing for {_list(mine)} ({found.words()})",
                             "give each its branch, or end with 'else:' ('else: pass' when nothing is meant)",
                             "warning")
        for v in missing:
            self._variant_report(found, v, s.span, "this chain's 'else'" if s.orelse else
                                 "this if/elif chain, which does nothing for it", "warning", "branch")

    # ------------------------------------------------------------------ value sets
    def _set_of(self, subject, tested: list) -> Optional[ValueSet]:
        """The one value set the tested values belong to (the option itself when the subject names it)."""
        if not tested:
            return None
        if isinstance(subject, ast.Name) and subject.id in self.sym.option_values:
            found = next(s for s in self.sets if s.kind == "option" and s.name == subject.id)
            return found if all(v in found.values for v in tested) else None
        if any(not isinstance(v, str) for v in tested):
            return None  # numbers and texts: an option's own values only, named by the subject above
        candidates = [s for s in self.sets if s.kind != "option" and all(v in s.values for v in tested)]
        return candidates[0] if len(candidates) == 1 else None

    def _added(self, found: ValueSet, v) -> Optional[Added]:
        return next((a for a in self.added if a.value == v and a.set_kind == found.kind
                     and a.set_name == found.name), None)

    def _variant_report(self, found: ValueSet, v, at: ast.Span, where: str, severity: str, shape: str):
        a = self._added(found, v)
        if a is None or at.file == a.span.file:
            return  # the variant's own dispatches are checked as any other
        erratum = (f"in {self.place}, add arm: {_show(v).strip(chr(39))}: ..." if shape == "arm" else
                   f"in {self.place}, add: elif ... == {_show(v).strip(chr(39))}: ...")
        catch_all = ", or check that the catch-all is meant for it" if "'else'" in where else ""
        self._report(a.span, f"{_show(v)}, added here, falls to {where} at {at}",
                     f"give {_show(v)} its {shape} there: {erratum}{catch_all}", severity)

    def _report(self, span: ast.Span, message: str, hint: str, severity: str):
        self.diagnostics.append(Diagnostic(message, span.file, span.line, span.column, self.rules.source_line(span),
                                           hint, severity))


_NOT_FIXED = object()


def _place_words(root) -> str:
    """Where a dispatch is, as a variant's erratum names it: def f, procedure p, turn."""
    if isinstance(root, ast.DefDecl):
        return f"def {root.name}"
    if isinstance(root, ast.ProcDecl):
        return f"procedure {root.name}"
    return root.kind if isinstance(root, ast.BlockDecl) else "the place"


def _fixed_value(e, words=None):
    """The value ``e`` stands for when fixed: a literal, or a bare word (an enum member, an option's value
    or a table key; ``words=None``: any name)."""
    if isinstance(e, ast.Name):
        return e.id if words is None or e.id in words else _NOT_FIXED
    if isinstance(e, ast.Literal) and not isinstance(e.value, bool) and e.value is not None:
        return e.value
    return _NOT_FIXED


def _tests(cond, words) -> Optional[tuple]:
    """(subject, values) when ``cond`` compares one subject with fixed values only."""
    if isinstance(cond, ast.BoolOp) and cond.op == "or":
        a, b = _tests(cond.left, words), _tests(cond.right, words)
        if a is None or b is None or a[0] != b[0]:
            return None
        return a[0], a[1] + b[1]
    if isinstance(cond, ast.Compare) and cond.op == "==":
        for subject, value in ((cond.left, cond.right), (cond.right, cond.left)):
            v = _fixed_value(value, words)
            if v is not _NOT_FIXED and _fixed_value(subject, words) is _NOT_FIXED:
                return subject, [v]
        return None
    if isinstance(cond, ast.Compare) and cond.op == "in" and isinstance(cond.right, ast.ListLit):
        values = [_fixed_value(x, words) for x in cond.right.items]
        if values and all(v is not _NOT_FIXED for v in values) and _fixed_value(cond.left, words) is _NOT_FIXED:
            return cond.left, values
    return None


def _show(v) -> str:
    return f"'{v}'" if isinstance(v, str) else str(v)


def _list(values) -> str:
    shown = [_show(v) for v in values[:6]]
    more = f" and {len(values) - 6} more" if len(values) > 6 else ""
    return ", ".join(shown) + more

