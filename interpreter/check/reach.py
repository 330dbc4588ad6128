"""What a variant adds that nothing reaches: a member, an option value, a table's row or column that no
rule produces or reads, found before the game runs and reported at the variant's line.

A value is *produced* by a rule that names it or a table's row that holds it, and *read* by a rule that
names it, a dispatch over its set (interpreter/check/dispatch.py reports those it falls through), or,
for an option's value, the row of a table the rules look up with the option (``level.stunts_required``
reads the row of the level chosen). So:

- a member no rule names, held by no table (nothing produces it), or held by a table but named by no
  rule and dispatched over nowhere (nothing tells it from the others): a warning;
- an option value the rules look up in a table that has no row for it: an error (the game fails when it
  is picked); one no rule names, where the rules only compare the option with its other values: a warning;
- a row of a table the rules never take whole (``shuffled(card)``), whose key nothing names: a warning;
  a cell of an added row outside the enum every other row's cells in that column belong to (a card whose
  action is ``none``): an error where a ``match`` over that column has no arm for it, else a warning;
- a column no rule reads as a field: a warning.
"""
from __future__ import annotations

from rulewright.dsl import ast
from rulewright.dsl.errors import Diagnostic

# declarations that hold data, not rules: what they name is declared there, not produced or read
_DATA = (ast.EnumDecl, ast.RecordDecl, ast.OptionDecl, ast.TableDecl, ast.BoardDecl, ast.GameDecl,
         ast.PlayersDecl, ast.Extends)
_BY_VALUE = ("==", "!=", "in", "notin")


def unreached_diagnostics(rules: ast.RulesFile, sym, seen: list) -> list[Diagnostic]:
    """``seen``: the dispatches found (dispatch.Dispatches.seen)."""
    added = rules.derived.get("added", [])
    if not added:
        return []
    return _Reach(rules, sym, seen).run(added)


def _value(e):
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.Literal):
        return e.value
    return e  # a value worked out: never equal to a word


def _fixed(e) -> bool:
    return isinstance(e, (ast.Name, ast.Literal)) or isinstance(e, ast.ListLit) and all(_fixed(x) for x in e.items)


def _show(v) -> str:
    return "none" if v is None else f"'{v}'" if isinstance(v, str) else str(v)


class _Reach:
    def __init__(self, rules: ast.RulesFile, sym, seen: list):
        self.rules, self.sym, self.seen = rules, sym, seen
        self.diagnostics: list[Diagnostic] = []
        self.named: set = set()   # every word and text the rules name
        self.given: set = set()   # ... where it is a value (not an operand of a comparison, not an arm's pattern)
        self.fields: set = set()  # every field they read
        self.option_uses: dict = {}  # option -> [(how, node)]: 'compare', 'lookup' (an Attr) or 'other'
        self._read_rules([d for d in rules.decls if not isinstance(d, _DATA)]
                         + [d.guard for d in rules.decls if isinstance(d, ast.BoardDecl) and d.guard is not None])

    def _read_rules(self, roots: list):
        options = self.sym.option_values
        pending = [(r, None) for r in roots]
        while pending:
            n, parent = pending.pop()
            if isinstance(n, (tuple, list)):
                pending.extend((x, parent) for x in n)
                continue
            if isinstance(n, ast.Name):
                self.named.add(n.id)
                if not _tested(n, parent):
                    self.given.add(n.id)
                if n.id in options:
                    self.option_uses.setdefault(n.id, []).append(_how(n, parent))
            elif isinstance(n, ast.Literal):
                self.named.add(n.value)
            elif isinstance(n, ast.Attr):
                self.fields.add(n.name)
            elif isinstance(n, ast.Call):
                self.fields.update(k for k, _v in n.kwargs)
            elif isinstance(n, ast.RankDecl):
                self.fields.update(name for name, _asc in n.keys)
            if isinstance(n, str) or n is None or isinstance(n, (int, float, bool)):
                continue
            pending.extend((x, n) for x in ast.parts(n))

    def report(self, span: ast.Span, message: str, hint: str, severity: str = "warning"):
        self.diagnostics.append(Diagnostic(message, span.file, span.line, span.column,
                                           self.rules.source_line(span), hint, severity))

    def run(self, added: list) -> list[Diagnostic]:
        rows_added = {a.span for a in added if a.set_kind == "table"}
        for a in added:
            if a.set_kind == "enum":
                self._member(a)
            elif a.set_kind == "option":
                self._option_value(a)
            elif a.set_kind == "table":
                self._row(a, rows_added)
            elif a.set_kind == "column":
                self._column(a)
        return self.diagnostics

    # ------------------------------------------------------------------ helpers
    def _dispatched(self, kind: str, name: str) -> list:
        return [s for s in self.seen if s.values.kind == kind and s.values.name == name]

    def _holders(self, word) -> list:
        """The tables with a row holding ``word`` in a cell (the key column included)."""
        return [t.name for t in self.sym.tables.values()
                if any(isinstance(c, ast.Name) and c.id == word for r in t.rows for c in r.values)]

    def _keys(self, table: str) -> set:
        return {_value(r.values[0]) for r in self.sym.tables[table].rows if r.values}

    # ------------------------------------------------------------------ each kind of addition
    def _member(self, a):
        holders = self._holders(a.value)
        if a.value in self.named and a.value not in self.given and not holders:
            self.report(a.span, f"{_show(a.value)}, added to enum '{a.set_name}' here, is only compared and matched: "
                        "no table holds it and no rule gives it as a value, so those rules never see it",
                        "give it to something (a table's row, an assignment, an 'add'), or leave it out")
            return
        if a.value in self.named or self._dispatched("enum", a.set_name):
            return  # named, or a dispatch over the enum says where it falls (dispatch.py)
        if not holders:
            self.report(a.span, f"{_show(a.value)}, added to enum '{a.set_name}' here, is named by no rule and held "
                        "by no table: nothing produces it and nothing reads it",
                        "name it in a rule (a comparison, a match arm) or a table's row, or leave it out")
        else:
            self.report(a.span, f"{_show(a.value)}, added to enum '{a.set_name}' here, is held by table "
                        f"'{holders[0]}' but named by no rule: no rule tells it from the other members",
                        f"give it a rule that names it (where the rules compare or match the other members "
                        f"of '{a.set_name}')")

    def _option_value(self, a):
        option, v = a.set_name, a.value
        uses = self.option_uses.get(option, [])
        looked_up = False
        missing: dict = {}  # field -> (the first lookup, the tables that have it)
        for how, node in uses:
            if how != "lookup":
                continue
            tables = self.sym.columns.get(node.name, [])
            if any(v in self._keys(t) for t in tables):
                looked_up = True
            elif tables:
                missing.setdefault(node.name, (node, tables))
        for field, (node, tables) in missing.items():
            self.report(a.span, f"{_show(v)}, added to option '{option}' here, has no row in table '{tables[0]}': "
                        f"'{option}.{field}' at {node.span} fails in every game with {option}={v}",
                        f"add its row: add to table {tables[0]}: ...", "error")
        if missing or looked_up or v in self.named or not uses or any(how == "other" for how, _n in uses):
            return  # reported, read through a table, named, unused altogether, or read as a value
        if self._dispatched("option", option):
            return  # where it falls through a dispatch is said there (dispatch.py)
        self.report(a.span, f"{_show(v)}, added to option '{option}' here, is read by no rule: the rules only "
                    f"compare '{option}' with its other values, so {option}={v} plays as none of them",
                    f"give it a rule that names it (where the rules compare '{option}'), or a row in the table "
                    f"the rules look up with '{option}'")

    def _row(self, a, rows_added: set):
        table = self.sym.tables.get(a.set_name)
        row = next((r for r in table.rows if r.span == a.span), None) if table is not None else None
        if row is None:
            return
        self._cells(table, row, rows_added)
        k = a.value
        if table.name in self.named or k in self.named:
            return  # the rules take the table whole, or name the row
        lookups = [o for o, uses in self.option_uses.items() if k in self.sym.option_values[o]
                   and any(how == "lookup" and table.name in self.sym.columns.get(n.name, []) for how, n in uses)]
        if lookups or k in self.sym.members or any(t != table.name for t in self._holders(k)):
            return  # the row of an option's value, a member's, or one another table names
        self.report(row.span, f"the row {_show(k)} added to table '{table.name}' here is reached by no rule: the "
                    f"rules read '{table.name}' only by key, and nothing names {_show(k)}",
                    "name it where the rules pick a row, or add the option value or member that leads to it")

    def _cells(self, table: ast.TableDecl, row, rows_added: set):
        """A cell outside the enum every other row's cell in its column belongs to."""
        base = [r for r in table.rows if r.span not in rows_added]
        for i, column in enumerate(table.columns[1:], 1):
            cells = [r.values[i] for r in base if i < len(r.values)]
            if not cells or i >= len(row.values) or not all(isinstance(c, ast.Name) for c in cells):
                continue
            enums = [e for e in self.sym.enums.values() if all(c.id in e.members for c in cells)]
            cell = row.values[i]
            if len(enums) != 1 or isinstance(cell, ast.Name) and cell.id in enums[0].members:
                continue
            enum, v = enums[0], _value(cell)
            over = [s for s in self._dispatched("enum", enum.name)
                    if isinstance(s.subject, ast.Attr) and s.subject.name == column]
            stops = [s for s in over if s.is_match and not s.has_else]
            what = f"{_show(_value(row.values[0]))} has {_show(v)} as its '{column}'"
            if stops:
                self.report(cell.span, f"{what}, which no arm of the match at {stops[0].span} fits: the game would "
                            "stop with an error when it comes", f"give it a member of enum '{enum.name}'", "error")
            elif over:
                self.report(cell.span, f"{what}, which falls to "
                            f"{'the else' if over[0].has_else else 'no branch'} of the dispatch at {over[0].span}",
                            f"give it a member of enum '{enum.name}'")
            else:
                self.report(cell.span, f"{what}, while every other row of table '{table.name}' holds a member of "
                            f"enum '{enum.name}' there", f"give it a member of enum '{enum.name}'")

    def _column(self, a):
        if a.value in self.fields or a.value == "says":  # 'says' is read by explain
            return
        self.report(a.span, f"the column '{a.value}' added to table '{a.set_name}' here is read by no rule",
                    f"read it as a field ('x.{a.value}'), or leave it out")


def _tested(name: ast.Name, parent) -> bool:
    """Whether ``name`` stands where a value is only tested: an operand of a comparison, an arm's pattern."""
    if isinstance(parent, ast.Compare):
        return True
    return isinstance(parent, ast.Match) and any(p is name for patterns, _v in parent.arms for p in patterns)


def _how(name: ast.Name, parent) -> tuple:
    """How a rule uses an option's name: looked up in a table, compared with fixed values, or otherwise."""
    if isinstance(parent, ast.Attr) and parent.obj is name:
        return "lookup", parent
    if isinstance(parent, ast.Compare) and parent.op in _BY_VALUE:
        other = parent.right if parent.left is name else parent.left
        if _fixed(other):
            return "compare", parent
    if isinstance(parent, ast.Match) and parent.subject is name:
        return "compare", parent
    return "other", parent
