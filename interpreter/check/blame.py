"""A diagnostic that a variant causes in a line of its base is said at the variant's line that causes it.

A variant's replacement (a def, a variable, a table...) or addition (a member, a value, a row) can break
a base line that was right: the base's call no longer fits, a value is of another kind, a chain does
nothing for a new member. The diagnostic is found at the base's line, but the cause is the variant's:
it moves to the variant's line and keeps the base's line as its context.

What the base says on its own (its own check, run only when a diagnostic stands in a base's line) is
the base's: it stays where it is. Of the rest, the cause is the variant's declaration or addition that
gives a value the diagnostic quotes ('wands', a member the variant's enum adds), else the one the base
line names. A diagnostic new with the variant whose cause is neither stays at the base's line.
"""
from __future__ import annotations

import re

from rulewright.dsl import ast
from rulewright.interpreter.check.expression_checks import literal_value

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_QUOTED = re.compile(r"'([^']+)'")


def follow_variant(rules: ast.RulesFile, diagnostics: list, check) -> list:
    """``diagnostics`` of the merged ``rules`` with each a variant causes in a base line told at the variant's
    line. ``check(rules)`` gives a rules file's diagnostics (the base's, to tell what it says alone)."""
    base = rules.derived.pop("base", None)  # the merged base (variants.py), kept only until this is done
    in_base = {d for d in diagnostics if d.file != rules.filename and d.file in rules.sources}
    if base is None or not in_base:
        return diagnostics
    own = {_said(d) for d in check(base)}
    named, given = _declared(rules, base)
    out = []
    for d in diagnostics:
        cause = None
        if d in in_base and _said(d) not in own:
            cause = _cause(d, named, given)
        if cause is None:
            out.append(d)
            continue
        node, why = cause
        out.append(d.told_at(node.span.file, node.span.line, node.span.column, rules.source_line(node.span), why))
    return out


def _said(d) -> tuple:
    return d.file, d.line, d.column, d.message, d.severity


def _declared(rules: ast.RulesFile, base: ast.RulesFile) -> tuple[dict, dict]:
    """What the variant's own lines declare: {name: declaration}, and {value: the declaration or piece that
    gives it} for the members, option values and table keys the base does not have."""
    had = {v for d in base.decls for v in _values(d)}
    named, given = {}, {}
    for d in rules.decls:
        if d.span.file != rules.filename:
            continue
        name = getattr(d, "name", None)
        if isinstance(name, str):
            named.setdefault(name, d)
        for v in _values(d):
            if v not in had:
                given.setdefault(v, d)
    for piece in rules.derived.get("added", []):  # add to enum / option / table, with their lines
        if piece.span.file == rules.filename:
            given.setdefault(str(piece.value), piece)
    return named, given


def _values(d) -> list:
    """The values a declaration gives: an enum's members, an option's values, a table's keys."""
    if isinstance(d, ast.EnumDecl):
        return list(d.members)
    if isinstance(d, ast.OptionDecl):
        return [str(literal_value(v)) for v in d.values]
    if isinstance(d, ast.TableDecl):
        return [str(literal_value(r.values[0])) for r in d.rows if r.values]
    return []


def _cause(d, named: dict, given: dict):
    """(the variant's node, why it leads to ``d``) or None."""
    for q in _QUOTED.findall(d.message):
        if q in given:
            return given[q], f"which meets {q!r} as this variant gives it"
    for w in _WORD.findall(d.source_line):
        if w in named:
            return named[w], f"which uses '{w}' as this variant makes it"
    return None
