"""The checker's table checks: rows of the table's width, repeated by a number of copies (or an option
whose values are numbers), not too many in all, one row per key, a 'says' column of texts, and bare
words that name declared things where the column's other words do."""
from __future__ import annotations

from rulewright.dsl import ast
from rulewright.dsl.errors import suggest
from rulewright.interpreter.check.expression_checks import literal_value
from rulewright.interpreter.engine import limits

MAX_TABLE_ROWS = limits.DEFAULTS["items"]  # as many as a list may hold


class TableChecks:
    """A table's checks; a part of Checker (checker.py)."""

    def _copies_option(self, row: ast.TableRow):
        """'* spares': an option whose every value is a number of copies (none at all included)."""
        name, at = row.copies, (row.copies_at or (row.span,))[0]
        if name not in self.sym.option_values:
            self.error(at, f"'* {name}': '{name}' is not an option",
                       suggest(name, self.sym.option_values) or f"declare it: option {name}: 1 | 2, or write a number")
            return
        wrong = next((v for v in self.sym.option_values[name] if type(v) is not int or v < 0), None)
        if wrong is not None:
            self.error(at, f"'* {name}': option '{name}' may be {wrong!r}, which is not a number of copies",
                       "a row is repeated 0 or more times: the option's values must be whole numbers")

    def _most_copies(self, copies) -> int:
        """A row's copies at most: a number, or the largest value of the option that says it."""
        if type(copies) is not str:
            return copies
        return max((v for v in self.sym.option_values.get(copies, ()) if type(v) is int), default=0)

    def _table(self, d: ast.TableDecl):
        for row in d.rows:
            if len(row.values) != len(d.columns):
                self.error(row.span, f"this row of '{d.name}' has {len(row.values)} values but the table has "
                           f"{len(d.columns)} columns ({', '.join(d.columns)})")
            if type(row.copies) is str:
                self._copies_option(row)
            elif row.copies < 1:
                self.error(row.span, "a row is repeated at least once")
        rows = 0
        for row in d.rows:  # the table is a list made before the game starts: bounded like any list
            rows += max(self._most_copies(row.copies), 0)
            if rows > MAX_TABLE_ROWS:
                self.error(row.span, f"table '{d.name}' would have {rows:,} rows here; a table has at most "
                           f"{MAX_TABLE_ROWS:,}", "repeat a row fewer times ('* N'), or count copies in a column")
                break
        first: dict = {}
        for row in d.rows:
            if not row.values:
                continue
            key = literal_value(row.values[0])
            if key in first and first[key].values != row.values:
                self.error(row.span, f"'{d.name}' has two different rows for {key!r}",
                           f"the first is at line {first[key].span.line}; repeat identical rows with '* N'")
            first.setdefault(key, row)
        self._says(d)
        self._bare_words(d)

    def _says(self, d: ast.TableDecl):
        """A 'says' column is its items' rules text (explain.py): each value a quoted text."""
        if "says" not in d.columns:
            return
        i = d.columns.index("says")
        for row in d.rows:
            v = row.values[i] if i < len(row.values) else None
            if v is not None and not (isinstance(v, ast.Literal) and type(v.value) is str):
                self.error(row.span, f"the column 'says' of '{d.name}' holds each item's rules text, and this "
                           "row's is not a text", 'write it in quotes: "Take 2 coins from the bank"',
                           severity="warning")

    def _bare_words(self, d: ast.TableDecl):
        """A column whose bare words name declared things (enum members, spaces, keys of a table) holds
        only such words: a typo there would be a new word the rules never test for. A column with no
        declared word holds free labels."""
        known = self.sym.members.keys() | self.sym.table_keys.keys() | self.spaces | self.sym.globals
        for i in range(1, len(d.columns)):
            words = [r.values[i] for r in d.rows if i < len(r.values) and isinstance(r.values[i], ast.Name)]
            if not any(w.id in known for w in words):
                continue
            kind = self.kind_of_words(w.id for w in words if w.id in known)  # a misspelt one is of that kind
            for w in words:
                if w.id not in known:
                    self.error(w.span, f"'{w.id}' is not declared, unlike the other words in column "
                               f"'{d.columns[i]}'", self.hint(w.id, kind or known)
                               or f'declare it in an enum, or write it as text: "{w.id}"')
