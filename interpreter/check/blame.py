"""An error that a variant causes in a line of its base is said at the variant's line that causes it.

A variant's replacement (a def, a variable, a table...) can break a base line that was right: the base's
call no longer fits, a value is of another kind. The error is found at the base's line, but the cause is
the variant's: the diagnostic moves to the variant's declaration that the base line names, and keeps
the base's line as its context. A base line that names nothing of the variant keeps its error.
"""
from __future__ import annotations

import re

from rulewright.dsl import ast
from rulewright.dsl.errors import Diagnostic

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def follow_variant(rules: ast.RulesFile, diagnostics: list) -> list:
    mine = {}
    for d in rules.decls:
        name = getattr(d, "name", None)
        if isinstance(name, str) and d.span.file == rules.filename:
            mine.setdefault(name, d)
    if not mine or len(rules.sources) < 2:
        return diagnostics
    out = []
    for d in diagnostics:
        cause = None
        if d.severity == "error" and d.file != rules.filename and d.file in rules.sources:
            cause = next((mine[w] for w in _WORD.findall(d.source_line) if w in mine), None)
        if cause is None:
            out.append(d)
            continue
        out.append(d.told_at(cause.span.file, cause.span.line, cause.span.column, rules.source_line(cause.span),
                             f"which uses '{cause.name}' as this variant makes it"))
    return out
