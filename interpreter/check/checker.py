"""The checker: every mistake it can see before a game runs, as diagnostics pinned to the line.

It resolves names (locals, variables, options, enum members, tables, the board), checks calls
(arity, procedures inside expressions, quantifiers, the functions the board supports), fields,
option values compared or matched in rules, assignments, table shapes and the bare words in tables,
locals that hide a declared name (a warning), and the game's structure: a way to end, a turn to
take, no procedure or statement that can never run. Every name comes from the symbol table
(``self.sym``).

The checker is one class made of its parts, each a module of one job: the declarations and the game's
structure (structure_checks.py), tables (table_checks.py), the display (screen_checks.py), statements
(statement_checks.py), expressions (expression_checks.py). The later passes, on rules without errors:
typo_checks.py, lost_writes.py, dispatch.py, reach.py (what a variant adds that nothing reaches), then the
secrecy check (secrecy/).
"""
from __future__ import annotations

from rulewright.dsl import ast
from rulewright.dsl.errors import Diagnostic, Hints
from rulewright.interpreter.check.blame import follow_variant
from rulewright.interpreter.check.dispatch import Dispatches
from rulewright.interpreter.check.expression_checks import ExpressionChecks
from rulewright.interpreter.check.lost_writes import lost_write_diagnostics
from rulewright.interpreter.check.reach import unreached_diagnostics
from rulewright.interpreter.check.screen_checks import ScreenChecks
from rulewright.interpreter.check.secrecy import secrecy_diagnostics
from rulewright.interpreter.check.statement_checks import StatementChecks
from rulewright.interpreter.check.structure_checks import StructureChecks
from rulewright.interpreter.check.symbols import PROGRESS, symbols
from rulewright.interpreter.check.table_checks import TableChecks
from rulewright.interpreter.check.types import TypeChecker
from rulewright.interpreter.check.typo_checks import TypoChecks
from rulewright.interpreter.engine.builtin_names import ME


class Checker(StructureChecks, TableChecks, ScreenChecks, StatementChecks, ExpressionChecks):
    """One run of the checks over a rules file."""

    def __init__(self, rules: ast.RulesFile):
        self.rules = rules
        self.diagnostics: list[Diagnostic] = []
        self.sym = sym = symbols(rules)  # every declared name: read there, never copied
        self.called: set = set()
        self.in_def = False  # checking a def's body: procedures cannot run there
        self.in_invariant = False  # checking an invariant: was(...) may stand there
        self.spaces = self._board_spaces()
        self.loops = 0  # how many loops enclose the statement being checked (for 'break')
        self.loop_vars: dict = {}  # the variables of the loops and quantifiers around -> their line
        self.not_names: set = set()  # ids of Name nodes already reported as values an option never has
        self.expected_words: dict = {}  # id of a Name compared with a value of a known kind -> the names of it
        self.proc_ok = False  # a procedure call may stand here (see expr)
        self.ends = bool(sym.end_conditions)
        self.turns_taken = False
        self.types = TypeChecker(self)
        self.hint = Hints()  # 'did you mean', within a budget (an adversarial file has thousands of unknowns)

    # ------------------------------------------------------------------ reporting
    def error(self, span: ast.Span, message: str, hint: str = "", severity: str = "error"):
        self.diagnostics.append(Diagnostic(message, span.file, span.line, span.column, self.rules.source_line(span),
                                           hint, severity))

    # ------------------------------------------------------------------ the run
    def run(self) -> list[Diagnostic]:
        decls = self.rules.decls
        self._declarations(decls)
        for d in decls:
            if isinstance(d, ast.TableDecl):
                self._table(d)
            elif isinstance(d, ast.VarDecl):
                self.expr(d.value, {ME} if d.per_player else set())
            elif isinstance(d, ast.DefDecl):
                self._binds(d.params, d.span)
                self.in_def = True
                self.expr(d.body, set(d.params) | {ME})
                self.in_def = False
                if d.name == PROGRESS:
                    self._progress(d)
            elif isinstance(d, ast.ProcDecl):
                self._binds(d.params, d.span)
                self.body(d.body, set(d.params) | {ME})
            elif isinstance(d, ast.BlockDecl):
                self.body(d.body, {ME} if d.kind == "turn" else set())
            elif isinstance(d, (ast.EndWhen,)):
                self.expr(d.cond, set())
            elif isinstance(d, ast.Require):
                self.expr(d.cond, set())
                self._only_options(d.cond, "a requirement")
            elif isinstance(d, ast.Invariant):
                self._invariant(d)
            elif isinstance(d, ast.BoardDecl) and d.guard is not None:
                self.expr(d.guard, set())
                self._only_options(d.guard, "a board's 'when'")
            elif isinstance(d, ast.TeamsDecl):
                self.expr(d.teams, set())
            elif isinstance(d, ast.DisplayDecl):
                self._refused_local(d.name, d.span)  # the space drawn (hiding a heading is the custom)
                self.expr(d.expr, {d.name})
            elif isinstance(d, ast.ScreenDecl):
                self._screen(d)
            elif isinstance(d, ast.ObserveDecl):
                for e in d.entries:
                    self.expr(e.expr, {ME})
                    if e.look is not None:
                        self.error(e.span, "an observation is numbers: it is not drawn",
                                   f"leave out 'as {e.look.kind}'")
            elif isinstance(d, ast.RankDecl):
                for name, _asc in d.keys:
                    if name not in self.sym.player_vars:
                        self.error(d.span, f"'rank by {name}': '{name}' is not a player variable",
                                   self.hint(name, self.sym.player_vars))
        self._structure()
        if not any(d.severity == "error" for d in self.diagnostics):
            # a misspelled use is an error already, and the typo checks would guess the other way round
            TypoChecks(self).run()
            self.diagnostics.extend(lost_write_diagnostics(self.rules, self.sym))
            dispatches = Dispatches(self.rules, self.sym)
            self.diagnostics.extend(dispatches.run())
            self.diagnostics.extend(unreached_diagnostics(self.rules, self.sym, dispatches.seen))
        return self.diagnostics



def check(rules: ast.RulesFile) -> list[Diagnostic]:
    """All diagnostics for a parsed rules file, in file order; worked out once per rules (kept with them:
    loading checks for errors, `validate` shows the warnings too)."""
    found = rules.derived.get("diagnostics")
    if found is None:
        found = rules.derived["diagnostics"] = _diagnostics(rules)
    return list(found)


def _diagnostics(rules: ast.RulesFile) -> list[Diagnostic]:
    try:
        diagnostics = Checker(rules).run()
        if not any(d.severity == "error" for d in diagnostics):
            # the secrecy check (secrecy/): a secret reaching a player who may not see it;
            # it reads well-formed rules only
            diagnostics += secrecy_diagnostics(rules)
    except RecursionError:  # the checks follow defs and variables into each other: hundreds in a chain
        return [_too_deep(rules)]
    diagnostics = follow_variant(rules, diagnostics, check)
    return sorted(diagnostics, key=lambda d: (d.file, d.line, d.column))


def _too_deep(rules: ast.RulesFile) -> Diagnostic:
    span = rules.decls[0].span if rules.decls else ast.Span(rules.filename, 1, 1)
    return Diagnostic("these rules are nested too deeply to check: hundreds of defs or variables each "
                      "defined by the next, or an expression nested hundreds of levels deep",
                      span.file, span.line, span.column, rules.source_line(span),
                      "break the chain: a few defs that each do more, or a list or a table instead")

