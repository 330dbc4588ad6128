"""The checker: every mistake it can see before a game runs, as diagnostics pinned to the line.

It resolves names (locals, variables, options, enum members, tables, the board), checks calls
(arity, procedures inside expressions, quantifiers, the functions the board supports), fields,
option values compared or matched in rules, assignments, table shapes and the bare words in tables,
locals that hide a declared name (a warning), and the game's structure: a way to end, a turn to
take, no procedure or statement that can never run. Every name comes from the symbol table.
"""
from __future__ import annotations

import attrs

from rulewright.dsl import ast
from rulewright.dsl.errors import Diagnostic, Hints, suggest
from rulewright.interpreter.boards import registry as board_kinds, base as boards
from rulewright.interpreter.engine import limits
from rulewright.interpreter.engine.builtins import QUANTIFIERS
from rulewright.interpreter.check.secrecy import secrecy_diagnostics
from rulewright.interpreter.check.dispatch import dispatch_diagnostics
from rulewright.interpreter.check.lost_writes import lost_write_diagnostics
from rulewright.interpreter.check.symbols import RESERVED, symbols
from rulewright.interpreter.check.types import TypeChecker
from rulewright.interpreter.check.typo_checks import TypoChecks

_STOPPERS = (ast.EndGame, ast.Return, ast.Break, ast.Fail)
MAX_TABLE_ROWS = limits.DEFAULTS["items"]  # as many as a list may hold
# the rules the engine runs by name, beside the procedures (compiler.CompiledGame._compile_procs)
ENGINE_RULES = {"setup": "the 'setup:' block", "round": "the 'round:' block", "turn": "the 'turn:' block",
                "scoring": "the 'scoring:' block", "__main__": "the engine's own round loop"}


# How other languages (Python, JavaScript, Lua...) write a value this language has a word for.
_OTHER_SPELLINGS = {"True": "true", "TRUE": "true", "False": "false", "FALSE": "false", "None": "none",
                    "null": "none", "NULL": "none", "nil": "none", "undefined": "none", "self": "me", "this": "me"}


class Checker:
    def __init__(self, rules: ast.RulesFile):
        self.rules = rules
        self.diagnostics: list[Diagnostic] = []
        self.sym = sym = symbols(rules)
        self.options, self.option_values, self.vars = sym.options, sym.option_values, sym.vars
        self.player_vars, self.tables, self.records, self.fields = sym.player_vars, sym.tables, sym.records, sym.fields
        self.defs, self.procs, self.blocks, self.boards = sym.defs, sym.procs, sym.blocks, sym.boards
        self.columns = set(sym.columns)
        self.enum_members = set(sym.members)
        self.globals = sym.globals
        self.called: set = set()
        self.in_def = False  # checking a def's body: procedures cannot run there
        self.spaces = self._board_spaces()
        self.loops = 0  # how many loops enclose the statement being checked (for 'break')
        self.loop_vars: dict = {}  # the variables of the loops and quantifiers around -> their line
        self.not_names: set = set()  # ids of Name nodes already reported as values an option never has
        self.proc_ok = False  # a procedure call may stand here (see expr)
        self.ends = bool(sym.end_conditions)
        self.turns_taken = False
        self.types = TypeChecker(self)
        self.hint = Hints()  # 'did you mean', within a budget (an adversarial file has thousands of unknowns)

    # ------------------------------------------------------------------ reporting
    def error(self, span: ast.Span, message: str, hint: str = "", severity: str = "error"):
        self.diagnostics.append(Diagnostic(message, span.file, span.line, span.column, self.rules.source_line(span),
                                           hint, severity))

    # ------------------------------------------------------------------ declarations
    def run(self) -> list[Diagnostic]:
        decls = self.rules.decls
        self._declarations(decls)
        for d in decls:
            if isinstance(d, ast.TableDecl):
                self._table(d)
            elif isinstance(d, ast.VarDecl):
                self.expr(d.value, {"me"} if d.per_player else set())
            elif isinstance(d, ast.DefDecl):
                self._binds(d.params, d.span)
                self.in_def = True
                self.expr(d.body, set(d.params) | {"me"})
                self.in_def = False
            elif isinstance(d, ast.ProcDecl):
                self._binds(d.params, d.span)
                self.body(d.body, set(d.params) | {"me"})
            elif isinstance(d, ast.BlockDecl):
                self.body(d.body, {"me"} if d.kind == "turn" else set())
            elif isinstance(d, (ast.EndWhen,)):
                self.expr(d.cond, set())
            elif isinstance(d, ast.Require):
                self.expr(d.cond, set())
                self._only_options(d.cond, "a requirement")
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
                    self.expr(e.expr, {"me"})
                    if e.look is not None:
                        self.error(e.span, "an observation is numbers: it is not drawn",
                                   f"leave out 'as {e.look.kind}'")
            elif isinstance(d, ast.RankDecl):
                for name, _asc in d.keys:
                    if name not in self.player_vars:
                        self.error(d.span, f"'rank by {name}': '{name}' is not a player variable",
                                   self.hint(name, self.player_vars))
        self._structure()
        if not any(d.severity == "error" for d in self.diagnostics):
            # a misspelled use is an error already, and the typo checks would guess the other way round
            TypoChecks(self).run()
            self.diagnostics.extend(lost_write_diagnostics(self.rules, self.sym))
            self.diagnostics.extend(dispatch_diagnostics(self.rules, self.sym))
        return self.diagnostics

    def _declarations(self, decls):
        seen: dict = {}
        for d in decls:
            name = d.kind if isinstance(d, ast.BlockDecl) else getattr(d, "name", None)
            if name is None or isinstance(d, ast.GameDecl):
                continue
            if name in RESERVED and not isinstance(d, (ast.BlockDecl, ast.DisplayDecl)):  # a display: _binds
                self.error(d.span, f"'{name}' is a built-in name; choose another")
                continue
            if isinstance(d, ast.ProcDecl) and name in ENGINE_RULES:
                # the blocks and the engine's own loop run by these names: a procedure would take their place
                self.error(d.span, f"'{name}' names {ENGINE_RULES[name]}: a procedure cannot take it",
                           f"call the procedure something else, say 'do_{name.strip('_')}'")
                continue
            kind = "block" if isinstance(d, ast.BlockDecl) else "name"
            if isinstance(d, ast.BoardDecl) and d.guard is not None:
                kind = "guarded board"  # alternatives chosen by options may share one name
                name = (name, id(d))
            key = (kind, name)
            if key in seen:
                self.error(d.span, f"'{key[1]}' is declared twice", f"the first is at line {seen[key].span.line}")
            seen[key] = d
        if not any(isinstance(d, ast.GameDecl) for d in decls):
            self.error(ast.Span(self.rules.filename, 1, 1), "the rules do not name the game",
                       "start the file with: game \"Name\"")
        players = [d for d in decls if isinstance(d, ast.PlayersDecl)]
        if not players:
            self.error(ast.Span(self.rules.filename, 1, 1), "the rules do not say how many players play",
                       "add a line such as: players 2..4")
        for p in players:
            if p.low < 1 or p.high < p.low:
                self.error(p.span, f"'players {p.low}..{p.high}' is not a valid range")
        grids = [b for b in self.boards if b.guard is None]
        if len(grids) > 1:
            self.error(grids[1].span, "a game has one board; guard alternatives with 'when'")
        for b in self.boards:
            kind = board_kinds.KINDS.get(b.spec.kind)
            if kind is None:
                self.error(b.spec.span, f"there is no board kind '{b.spec.kind}'",
                           self.hint(b.spec.kind, board_kinds.KINDS) or "kinds: " + ", ".join(sorted(board_kinds.KINDS)))
            else:
                self._board_declaration(kind, b)
        by_fields: dict = {}
        for d in decls:
            if isinstance(d, ast.EnumDecl):
                self._tagged_members(d)
            if isinstance(d, ast.RecordDecl):
                self._record_visibility(d)
                self._record_defaults(d)
                twin = by_fields.setdefault(frozenset(d.fields), d)
                if twin is not d and (d.visibility or twin.visibility):
                    # records are recognised by their fields when a view turns fields face down
                    self.error(d.span, f"records '{twin.name}' and '{d.name}' have the same fields, and one of "
                               f"them keeps a field face down", "give one of them a field of its own")

    def _record_visibility(self, d: ast.RecordDecl):
        for name, vis in d.visibility:
            for other in (vis.owner, vis.unless):
                if other is not None and other not in d.fields:
                    self.error(vis.span, f"record '{d.name}' has no field '{other}' to say who sees '{name}'",
                               self.hint(other, d.fields))
                elif other == name:
                    self.error(vis.span, f"field '{name}' cannot say who sees itself")

    def _tagged_members(self, d: ast.EnumDecl):
        """A member with data is made like a record: its name may be no other record's, def's or procedure's."""
        for t in d.tagged:
            other = ("a record" if self.sym.record_decls.get(t.name) is not t else
                     "a def" if t.name in self.defs else "a procedure" if t.name in self.procs else "")
            if other:
                self.error(t.span, f"'{t.name}' is a member of enum '{d.name}' and {other}",
                           "give one of them another name")
            self._record_defaults(t)

    def _record_defaults(self, d: ast.RecordDecl):
        """A field's default is a constant: the same for every record made, whoever makes it, where. (And
        no field is called 'is', the field that holds the name of an enum's member with data.)"""
        if "is" in d.fields:
            self.error(d.span, f"'{d.name}' has a field called 'is', a word of the language",
                       "give the field another name")
        for name, value in d.defaults:
            self.expr(value, set())
            bound = {n.binder.var for n in ast.walk(value) if isinstance(n, (ast.Quantifier, ast.ListComp))}
            for n in ast.walk(value):
                if isinstance(n, ast.Name) and n.id in self.vars and n.id not in bound:
                    self.error(n.span, f"the default of field '{name}' reads the variable '{n.id}'",
                               "a default is a constant (numbers, texts, lists, options, enum members); "
                               "give the value where the record is made")
                elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and (
                        n.func.id in self.defs or n.func.id in self.procs
                        or (what := self.sym.function(n.func.id)) is not None and what[0] != "record"
                        and what[1].needs == "state"):
                    self.error(n.span, f"the default of field '{name}' calls '{n.func.id}', which may differ "
                               "from one record to the next",
                               "a default is a constant; give the value where the record is made")

    def _board_declaration(self, kind, b: ast.BoardDecl):
        """A board's declaration, as read with every value of each option it names (its words
        'grid rows by columns'); a mistake with one value says which."""
        reported: set = set()
        for spec, note in boards.option_variants(b.spec, self.option_values):
            def report(span, message, hint="", note=note):
                if span not in reported:  # one mistake a place, with the first value that makes it
                    reported.add(span)
                    self.error(span, message + note, hint)
            kind.check(spec, report)

    def _board_spaces(self) -> set:
        """Every space of every board the rules declare (bare words a table may hold), whatever the
        options that size them."""
        out: set = set()
        for b in self.boards:
            kind = board_kinds.KINDS.get(b.spec.kind)
            if kind is None:
                continue
            for spec, _note in boards.option_variants(b.spec, self.option_values):
                problems: list = []
                kind.check(spec, lambda *a: problems.append(a))
                if not problems:
                    out.update(kind.build(b.name, spec).spaces)
        return out

    def _copies_option(self, row: ast.TableRow):
        """'* spares': an option whose every value is a number of copies (none at all included)."""
        name, at = row.copies, (row.copies_at or (row.span,))[0]
        if name not in self.option_values:
            self.error(at, f"'* {name}': '{name}' is not an option",
                       suggest(name, self.option_values) or f"declare it: option {name}: 1 | 2, or write a number")
            return
        wrong = next((v for v in self.option_values[name] if type(v) is not int or v < 0), None)
        if wrong is not None:
            self.error(at, f"'* {name}': option '{name}' may be {wrong!r}, which is not a number of copies",
                       "a row is repeated 0 or more times: the option's values must be whole numbers")

    def _most_copies(self, copies) -> int:
        """A row's copies at most: a number, or the largest value of the option that says it."""
        if type(copies) is not str:
            return copies
        return max((v for v in self.option_values.get(copies, ()) if type(v) is int), default=0)

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
            key = _literal_value(row.values[0])
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
        known = self.sym.members.keys() | self.sym.table_keys.keys() | self.spaces | self.globals
        for i in range(1, len(d.columns)):
            words = [r.values[i] for r in d.rows if i < len(r.values) and isinstance(r.values[i], ast.Name)]
            if not any(w.id in known for w in words):
                continue
            for w in words:
                if w.id not in known:
                    self.error(w.span, f"'{w.id}' is not declared, unlike the other words in column "
                               f"'{d.columns[i]}'", self.hint(w.id, known)
                               or f'declare it in an enum, or write it as text: "{w.id}"')

    def _only_options(self, node, what: str):
        for n in _names(node):
            if n.id not in self.options and n.id not in self.enum_members and n.id not in ("players", "player_count"):
                self.error(n.span, f"{what} may use only options and the player count, not '{n.id}'")

    def _structure(self):
        span = ast.Span(self.rules.filename, 1, 1)
        if "round" not in self.blocks:
            self.turns_taken = True
        if self.turns_taken and "turn" not in self.blocks:
            self.error(span, "players take turns but there is no 'turn:' block",
                       "add 'turn:' with what a player does, or a 'round:' block without 'turn' statements")
        if not self.ends:
            self.error(span, "the game never ends: nothing says 'end game' and there is no 'end when'",
                       "add a line such as: end when round_number > 10 after round")
        if not self.turns_taken:
            for d in self.sym.end_conditions:
                if d.timing == "turn":
                    self.error(d.span, "this end condition is checked after each turn, but no turn is ever taken",
                               "add 'after round', or take turns with 'turn p' in the round")
        self._display_is_public()
        for name, d in self.procs.items():
            if name not in self.called:
                self.error(d.span, f"procedure '{name}' is never called, so it can never run")

    def _display_is_public(self):
        """The board is drawn for every player alike, so it may show only public variables."""
        if len(self.sym.displays) > 1:
            self.error(self.sym.displays[1].span, "the board's spaces are drawn twice: by 'display NAME =' "
                       "and by the 'board' line of 'display:'", "keep one of them")
        for d in self.sym.displays:
            self._public_only(d.expr, {d.name}, d.span, "'display' draws the board for every player")
        screen = self.sym.screen
        for line in screen.lines if screen is not None else ():
            for e in line.entries:
                expr, span = e.expr, e.span
                if line.word in ("legend", "colours") or self._view_entry(line, expr):
                    continue  # a view entry is shown as the viewer sees it: secrets stay masked
                self._public_only(expr, {"me"}, span, "a 'display:' entry worked out from an expression")
        for f in screen.faces if screen is not None else ():
            for _word, expr in f.parts:
                self._public_only(expr, {f.param}, f.span, "a face is drawn for every viewer alike")
            for _label, value, most in f.gauges:
                self._public_only(value, {f.param}, f.span, "a face is drawn for every viewer alike")
                self._public_only(most, {f.param}, f.span, "a face is drawn for every viewer alike")
        if screen is not None and screen.paths is not None:
            p = screen.paths
            self._public_only(p.expr, {p.name}, p.span, "'paths' draws the board for every player")

    def _view_entry(self, line, expr) -> bool:
        """An entry that names a variable is taken from the viewer's view (others' secrets masked)."""
        if not isinstance(expr, ast.Name) or expr.id not in self.vars:
            return False
        return line.word == "table" or self.vars[expr.id].per_player

    def _public_only(self, expr, bound: set, span, what: str):
        seen_defs: set = set()
        pending = [expr]
        while pending:
            for n in _names(pending.pop()):
                if n.id in self.defs and n.id not in seen_defs:
                    seen_defs.add(n.id)
                    pending.append(self.defs[n.id].body)
                decl = self.vars.get(n.id)
                if decl is not None and decl.visibility != "public" and n.id not in bound:
                    self.error(span, f"{what}, so it cannot show the {decl.visibility} variable '{n.id}'",
                               "make the variable public, or leave it out of the display"
                               + ("; an entry that is just a variable's name shows it as each viewer sees it"
                                  if "entry" in what else ""))
                    return
        for n in _attr_names(expr, self.defs):
            decl = self.vars.get(n)
            if decl is not None and decl.per_player and decl.visibility != "public":
                self.error(span, f"{what}, so it cannot show the {decl.visibility} player variable '{n}'",
                           "make it public, or leave it out")
                return

    def _screen(self, d: ast.ScreenDecl):
        """The lines of 'display:': legend and colour entries are plain text; 'own' and 'players' entries
        are about a player ('me'); 'table' entries about the table."""
        if d.board is not None:
            self._refused_local(d.board.name, d.board.span)
            self.expr(d.board.expr, {d.board.name})
        if d.paths is not None:
            self.expr(d.paths.expr, {d.paths.name})
            if not self.sym.boards:
                self.error(d.paths.span, "'paths' draws lines on the board, but the game has no board")
        faces = {f.name for f in d.faces}
        named = set()
        for line in d.lines:
            for e in line.entries:
                if e.look is not None and e.look.face is not None:
                    named.add(e.look.face)
                    if e.look.face not in faces:
                        self.error(e.span, f"no face is called '{e.look.face}'",
                                   suggest(e.look.face, faces) or "declare it in 'display:': face NAME x: title = ...")
        for f in d.faces:
            for _word, expr in f.parts:
                self.expr(expr, {f.param})
            for _label, value, most in f.gauges:
                self.expr(value, {f.param})
                self.expr(most, {f.param})
            if f.name not in self.tables and f.name not in self.records and f.name not in named:
                self.error(f.span, f"the face '{f.name}' draws nothing: it is not a table's or a record's name, "
                           "and no entry says 'as cards " + f.name + "'",
                           suggest(f.name, list(self.tables) + list(self.records))
                           or "name the table or record it draws")
        for line in d.lines:
            for e in line.entries:
                label, expr, span = e.label, e.expr, e.span
                if e.look is not None and line.word in ("legend", "colours"):
                    self.error(span, f"a {line.word} entry is text: it is not drawn",
                               f"leave out 'as {e.look.kind}'")
                    continue
                if line.word in ("legend", "colours"):
                    if not (isinstance(expr, ast.Literal) and isinstance(expr.value, str)):
                        self.error(span, f"a {line.word} entry is \"text\" = \"text\"",
                                   'for example: legend "~" = "clouds"' if line.word == "legend"
                                   else 'for example: colours "~" = "blue"')
                    elif line.word == "colours" and expr.value not in SCREEN_COLOURS:
                        self.error(span, f"'{expr.value}' is not a colour the screen knows",
                                   self.hint(expr.value, SCREEN_COLOURS) or "colours: " + ", ".join(SCREEN_COLOURS))
                    continue
                self.expr(expr, set() if line.word == "table" else {"me"})
                if (line.word == "table" and isinstance(expr, ast.Name) and expr.id in self.vars
                        and self.vars[expr.id].per_player):
                    self.error(span, f"'{expr.id}' is a player variable: it belongs on an 'own' or a "
                               "'players' line", f'for example: players "{label}" = {expr.id}')

    # ------------------------------------------------------------------ statements
    def body(self, stmts, scope: set):
        for i, s in enumerate(stmts):
            self.stmt(s, scope)
            if isinstance(s, _STOPPERS) and i + 1 < len(stmts):
                self.error(stmts[i + 1].span, "this statement can never run: the one before it always leaves the block")
                break

    def stmt(self, s, scope: set):
        m = getattr(self, "_s_" + type(s).__name__)
        m(s, scope)

    def _binds(self, names, span, scope: set = frozenset(), loop: bool = False):
        """A new local: refused as _refused_local says, else a warning when it hides a name the rules
        declare (the local wins there)."""
        for name in names:
            if self._refused_local(name, span, loop) or name in scope:
                continue
            what = self.sym.describe(name) if name in self.globals else ""
            if what:
                self.error(span, f"the local '{name}' hides {what}",
                           f"rename the local: where it is seen, '{name}' means the local", severity="warning")

    def _refused_local(self, name: str, span, loop: bool = False) -> bool:
        """Whether a new local is refused (and reported): it would take a built-in name ('me', 'players'),
        a secret's name, or (``loop``: a loop or quantifier variable) the name of the loop variable around
        it. Two players under one name would be one player to whoever reads the rules, and 'me' another
        player than the one the rules speak for."""
        if name in RESERVED:
            self.error(span, f"'{name}' is a built-in name: a local cannot take it", _RESERVED_HINTS[name])
            return True
        if loop and name in self.loop_vars:
            self.error(span, f"'{name}' already names the loop variable of line {self.loop_vars[name]}: "
                       "a second one inside it would hide it", f"give this one another name, say '{name}2'")
            return True
        decl = self.vars.get(name)
        if decl is not None and decl.visibility != "public":
            self.error(span, f"the local '{name}' would hide the {decl.visibility} "
                       f"{'player ' if decl.per_player else ''}variable '{name}'",
                       f"rename the local: '{name}' names a secret here")
            return True
        return False

    def _looping(self, name: str, span, check):
        """Check the body of a loop or a quantifier over ``name`` (``check()``), the name held meanwhile."""
        outer = self.loop_vars.get(name)
        self.loop_vars[name] = span.line
        try:
            check()
        finally:
            if outer is None:
                del self.loop_vars[name]
            else:
                self.loop_vars[name] = outer

    def _s_Let(self, s, scope):
        self.expr(s.value, scope, statement=True)
        self._binds([s.name], s.span, scope)
        scope.add(s.name)

    def _target(self, target, scope, declare: bool):
        if isinstance(target, ast.Name):
            name = target.id
            if name == "me":
                self.error(target.span, "'me' is the player whose turn it is; it cannot be changed")
                return
            if name in scope or name in self.vars:
                return
            if name in self.globals:
                self.error(target.span, f"'{name}' is fixed by the rules and cannot be changed")
            elif declare:
                scope.add(name)
            else:
                self.error(target.span, f"'{name}' is not a variable",
                           self.hint(name, lambda: scope | set(self.vars)) or f"declare it with 'var {name} = ...' "
                           "or make a local with 'let'")
        elif isinstance(target, ast.Attr):
            self.expr(target.obj, scope)
            settable = target.name in self.player_vars or target.name in self.fields
            if target.name in self.columns and not settable:
                self.error(target.span, f"'{target.name}' is a table column; tables cannot change")
            elif not settable:
                self._unknown_field(target)
        elif isinstance(target, ast.Index):
            self.expr(target.obj, scope)
            self.expr(target.index, scope)
        else:
            self.error(target.span, "only a variable, a field or an item can be assigned")

    def _s_Assign(self, s, scope):
        self.expr(s.value, scope, statement=True)
        self.types.check_store(s.target, s.value, scope)
        self._target(s.target, scope, declare=False)

    def _s_AugAssign(self, s, scope):
        self.expr(s.value, scope, statement=True)
        self._target(s.target, scope, declare=False)
        self.types.check_store(s.target, s.value, scope, augmented=s.op + "=")

    def _s_CallStmt(self, s, scope):
        self.expr(s.call, scope, statement=True)

    def _s_Pass(self, s, scope):
        pass

    def _s_EndGame(self, s, scope):
        self.ends = True

    def _s_Win(self, s, scope):
        self.expr(s.players, scope, statement=True)
        self.types.expect(s.players, scope, ("number", "list"), "'win'", "a player or a list of players",
                          "a player is a seat number: win me, win p, win [1, 3]")

    def _s_Log(self, s, scope):
        self.expr(s.message, scope)
        self.expr(s.to, scope)

    def _s_Reveal(self, s, scope):
        what = s.what
        if isinstance(what, ast.Name) and what.id not in scope and what.id not in self.vars:
            self.expr(what, scope)  # an unknown name is reported as such
            if what.id in self.globals:
                self.error(what.span, f"'{what.id}' is fixed by the rules and public already: nothing to reveal")
        elif isinstance(what, ast.Attr) and what.name not in self.player_vars:
            self.expr(what, scope)
            self.error(what.span, f"'reveal' turns up a local, a variable or a player's entry ('p.{what.name}' "
                       f"needs '{what.name}' to be a player variable)")
        else:
            self.expr(what, scope)
        self.expr(s.text, scope)

    def _s_Fail(self, s, scope):
        self.expr(s.message, scope)

    def _s_Add(self, s, scope):
        self.expr(s.item, scope, statement=True)
        self._list_place(s.target, scope)

    def _list_place(self, node, scope, maps_too: bool = False):
        self.expr(node, scope)
        if isinstance(node, (ast.Literal, ast.ListLit, ast.ListComp, ast.Template)):
            self.error(node.span, "this is a value, not a list in the game: name a variable")
        elif isinstance(node, ast.Name) and node.id in self.tables:
            self.error(node.span, f"'{node.id}' is a table; copy it into a variable to change it")
        else:
            self.types.check_list_place(node, scope, "this statement", maps_too)

    def _s_Remove(self, s, scope):
        self.expr(s.item, scope)
        self._list_place(s.source, scope, maps_too=True)

    def _s_MoveItem(self, s, scope):
        self.expr(s.item, scope)
        self._list_place(s.source, scope)
        self._list_place(s.target, scope)

    def _s_Shuffle(self, s, scope):
        self._list_place(s.target, scope)

    def _s_Draw(self, s, scope):
        self._list_place(s.source, scope)
        self._binds([s.name], s.span, scope)
        scope.add(s.name)

    def _s_Return(self, s, scope):
        if s.value is not None:
            self.expr(s.value, scope, statement=True)

    def _s_Break(self, s, scope):
        if not self.loops:
            self.error(s.span, "'break' is not inside a loop", "'break' leaves a 'for', 'while' or 'repeat'")

    def _loop_body(self, body, scope):
        self.loops += 1
        self.body(body, scope)
        self.loops -= 1

    def _s_TakeTurn(self, s, scope):
        self.turns_taken = True
        self.expr(s.player, scope, statement=True)

    def _s_If(self, s, scope):
        for cond, body in s.branches:
            self.expr(cond, scope, statement=True)
            self.body(body, scope)
        self.body(s.orelse, scope)

    def _s_For(self, s, scope):
        self.expr(s.source, scope, statement=True)
        self._binds([s.var], s.span, scope, loop=True)
        scope.add(s.var)
        self._looping(s.var, s.span, lambda: self._loop_body(s.body, scope))

    def _s_While(self, s, scope):
        self.expr(s.cond, scope, statement=True)
        self._loop_body(s.body, scope)

    def _s_Repeat(self, s, scope):
        self.expr(s.count, scope, statement=True)
        self._loop_body(s.body, scope)

    def _s_Step(self, s, scope):
        self.body(s.body, scope)

    def _decider(self, by, span, scope):
        if by is None and "me" not in scope:
            self.error(span, "nobody is named to make this choice: 'me' has no value here",
                       "say who chooses with 'by', for example: by first_player")

    def _choice(self, c: ast.Choose, scope, each: bool = False):
        if not each:  # in 'each p in ... secretly choose' every listed player decides
            self._decider(c.by, c.span, scope)
        self.expr(c.source, scope, statement=True)
        self.expr(c.prompt, scope)  # asked before the choice: the chosen value is not known in it
        self._binds([c.var], c.span, scope)
        scope.add(c.var)
        for part in (c.where, c.by, c.text, c.optional, c.shown):
            if part is not None:
                self.expr(part, scope)

    def _s_Choose(self, s, scope):
        self._choice(s, scope)

    def _s_ChooseBlock(self, s, scope):
        self._decider(s.by, s.span, scope)
        if s.by is not None:
            self.expr(s.by, scope)
        self.expr(s.prompt, scope)
        labels = set()
        for alt in s.alternatives:
            if alt.label in labels:
                self.error(alt.span, f"two courses of action are both called {alt.label!r}")
            labels.add(alt.label)
            if alt.guard is not None:
                self.expr(alt.guard, scope)
            self.body(alt.body, scope)

    def _s_ChooseEach(self, s, scope):
        self.expr(s.players, scope, statement=True)
        self._binds([s.player_var], s.span, scope, loop=True)
        scope.add(s.player_var)

        def each():
            self._choice(s.choice, scope, each=True)
            self._loop_body(s.body, scope)  # the body runs once per player: a loop
        self._looping(s.player_var, s.span, each)

    # ------------------------------------------------------------------ expressions
    def expr(self, node, scope: set, statement: bool = False):
        """Check an expression. ``statement``: it is a statement's own expression, where procedure calls
        may stand (they run before the rest of it); below an 'and', 'or', 'if ... else', a 'match', a
        quantifier or a def they may not, since they would run even where the value is not needed."""
        if node is None:
            return
        was = self.proc_ok
        self.proc_ok = statement
        try:
            m = getattr(self, "_e_" + type(node).__name__)
            m(node, scope)
            self.types.check_expr(node, scope)
        finally:
            self.proc_ok = was

    def sub(self, node, scope: set):
        """A part that is evaluated whenever its parent is (procedure calls stay allowed)."""
        self.expr(node, scope, statement=self.proc_ok)

    def _e_Literal(self, node, scope):
        pass

    def _e_Template(self, node, scope):
        for p in node.parts:
            if not isinstance(p, str):
                self.sub(p, scope)

    def _e_ListLit(self, node, scope):
        for i in node.items:
            self.sub(i, scope)

    def _e_MapLit(self, node, scope):
        for k, v in node.items:
            self.sub(k, scope)
            self.sub(v, scope)

    def _e_Name(self, node, scope):
        name = node.id
        if name in scope or name in self.globals or id(node) in self.not_names:
            return
        if name == "me":
            self.error(node.span, "'me' (the player whose turn it is) has no value here",
                       "'me' exists in 'turn:', in procedures and in per-player variables")
            return
        if self.sym.function(name) is not None:
            self.error(node.span, f"'{name}' is a function; call it: {name}(...)")
            return
        word = _OTHER_SPELLINGS.get(name)
        self.error(node.span, f"unknown name '{name}'", f"write '{word}'" if word else
                   self.hint(name, lambda: scope | self.globals | set(self.defs) | set(self.procs)))

    def _e_Attr(self, node, scope):
        self.sub(node.obj, scope)
        if not self._is_field(node.name):
            self._unknown_field(node)

    def _is_field(self, name: str) -> bool:
        return name in self.player_vars or name in self.columns or name in self.fields

    def _unknown_field(self, node):
        hint = self.hint(node.name, lambda: self.player_vars | self.columns | self.fields)
        self.error(_name_span(node), f"'{node.name}' is not a player variable, a table column or a record field",
                   hint)

    def _e_Index(self, node, scope):
        self.sub(node.obj, scope)
        self.sub(node.index, scope)

    def _e_Call(self, node, scope):
        func = node.func
        if not isinstance(func, ast.Name):
            self.error(node.span, "only a named function can be called")
            return
        name = func.id
        for a in node.args:
            self.sub(a, scope)
        for _k, v in node.kwargs:
            self.sub(v, scope)
        n = len(node.args) + len(node.kwargs)
        what = self.sym.function(name)
        if name in self.procs:
            self.called.add(name)
            params = self.procs[name].params
            if not self.proc_ok:
                where = "a def" if self.in_def else "this part of an expression"
                self.error(node.span, f"procedure '{name}' changes the game, so it cannot run inside {where}",
                           "a procedure may stand in a statement's own value, condition or list, not in a text or "
                           f"under 'and', 'or', 'if ... else', 'match', a quantifier: first 'let x = {name}(...)'")
            elif node.kwargs:
                self.error(node.span, f"procedure '{name}' takes no named arguments", f"write {name}({', '.join(params)})")
            elif len(node.args) != len(params):
                self.error(node.span, f"procedure '{name}' takes {len(params)} argument(s) ({', '.join(params)}), "
                           f"not {n}")
        elif name in self.defs:
            params = self.defs[name].params
            if node.kwargs:
                self.error(node.span, f"'{name}' takes no named arguments", f"write {name}({', '.join(params)})")
            elif n != len(params):
                self.error(node.span, f"'{name}' takes {len(params)} argument(s) ({', '.join(params)}), not {n}")
        elif name in self.records:
            self._construction(name, node)
        elif what is not None:  # a builtin or a board's function
            b = what[1]
            if not b.min_args <= n <= b.max_args:
                want = str(b.min_args) if b.min_args == b.max_args else f"{b.min_args} to {b.max_args}"
                self.error(node.span, f"'{name}' takes {want} argument(s), not {n}")
            if node.kwargs:
                self.error(node.span, f"'{name}' takes no named arguments")
            if what[0] == "board":
                self._board_function(name, node)
        else:
            self.error(func.span, f"unknown function '{name}'", self.hint(name, self.sym.functions))

    def _construction(self, name, node):
        """A record (or an enum's member with data) made with its fields in order, then by name; a field
        left out takes its default. Each mistake is reported at the argument that makes it (a missing
        field at the call)."""
        decl = self.sym.record_decls[name]
        fields = decl.fields
        enum = self.sym.tags.get(name)
        what = f"member '{name}'" if enum else f"record '{name}'"
        declared = f"enum {enum}: {name}(...)" if enum else f"record {name}(...)"
        if len(node.args) > len(fields):
            self.error(node.args[len(fields)].span, f"{what} has {len(fields)} fields "
                       f"({', '.join(fields)}), but {len(node.args)} are given in order")
        in_order = fields[:len(node.args)]
        given = set(in_order)
        names_at = node.names_at or tuple(node.span for _ in node.kwargs)
        misnamed = False  # a name given twice or unknown is most often the missing field misspelt
        for (k, _v), at in zip(node.kwargs, names_at):
            misnamed = misnamed or k not in fields or k in given
            if k not in fields:
                self.error(at, f"{what} has no field '{k}'", suggest(k, fields) or f"its fields: {', '.join(fields)}")
            elif k in given:
                self.error(at, f"{what}: field '{k}' is given twice",
                           f"value {in_order.index(k) + 1} in order gives it already; keep one"
                           if k in in_order else "keep one")
            given.add(k)
        defaults = {f for f, _v in decl.defaults}
        missing = [f for f in fields if f not in given and f not in defaults]
        if missing and not misnamed and len(node.args) <= len(fields):
            many = len(missing) > 1
            self.error(node.span, f"{what} needs field{'s' if many else ''} " + ", ".join(f"'{f}'" for f in missing),
                       f"give {'them' if many else 'it'} by name, {name}({', '.join(f'{f}: ...' for f in missing)}), "
                       f"or a default in '{declared}'")

    def _board_function(self, name, node):
        """A board's function needs a board of a kind that has it (every board, when options choose)."""
        if not self.boards:
            self.error(node.span, f"'{name}' works on the board, and this game has none",
                       "declare one: board b: grid 8 by 8")
            return
        for b in self.boards:
            kind = board_kinds.KINDS.get(b.spec.kind)
            if kind is not None and name not in kind.functions:
                self.error(node.span, f"'{name}' does not work on board '{b.name}', which is a {kind.kind}",
                           f"a {kind.kind} has: " + ", ".join(sorted(kind.functions)))
                return

    def _binder(self, b: ast.Binder, scope):
        self.sub(b.source, scope)
        self._binds([b.var], b.span, scope, loop=True)
        inner = scope | {b.var}

        def parts():
            self.expr(b.where, inner)
            self.expr(b.body, inner)
        self._looping(b.var, b.span, parts)

    def _e_Quantifier(self, node, scope):
        if node.func not in QUANTIFIERS:
            self.error(node.span, f"'{node.func}' does not take 'x in list'",
                       "these do: " + ", ".join(sorted(QUANTIFIERS)))
        elif node.func in ("sum", "min", "max", "lowest", "highest", "sorted") and node.binder.body is None:
            self.error(node.span, f"'{node.func}(x in list ...)' needs ': value' to say what to compare",
                       f"for example {node.func}({node.binder.var} in ... : {node.binder.var}.score)")
        elif node.binder.descending and node.func != "sorted":
            self._descending_outside_sorted(node.binder)
        self._binder(node.binder, scope)

    def _e_ListComp(self, node, scope):
        if node.binder.descending:
            self._descending_outside_sorted(node.binder)
        self._binder(node.binder, scope)

    def _descending_outside_sorted(self, b: ast.Binder):
        self.error(b.body.span, "only 'sorted(x in list: value descending)' puts items in an order",
                   "highest(x in list: value) gives the items with the largest value; sorted(...) all of "
                   "them, highest first")

    def _e_BinOp(self, node, scope):
        self.sub(node.left, scope)
        self.sub(node.right, scope)
        for side in (node.left, node.right):  # what types.py leaves alone: arithmetic on none itself
            if isinstance(side, ast.Literal) and side.value is None:
                self.error(side.span, f"'{node.op}' needs numbers, not {_kind(side.value)}")

    def _option_values_spelled(self, subject, candidates, scope):
        """Values compared with (or matched against) an option that the option never has."""
        if not (isinstance(subject, ast.Name) and subject.id in self.options and subject.id not in scope):
            return
        values = self.option_values[subject.id]
        for v in candidates:
            if isinstance(v, ast.Name) and (v.id in scope or v.id in self.globals - self.enum_members):
                continue  # a variable or a constant: not a value spelled out
            value = v.id if isinstance(v, ast.Name) else getattr(v, "value", None)
            if isinstance(v, (ast.Name, ast.Literal)) and value not in values:
                self.error(v.span, f"option '{subject.id}' is never {value!r}",
                           self.hint(str(value), [str(x) for x in values])
                           or "its values: " + " | ".join(str(x) for x in values))
                self.not_names.add(id(v))

    def _e_Compare(self, node, scope):
        for a, b in ((node.left, node.right), (node.right, node.left)):
            self._option_values_spelled(
                a, [b] if node.op in ("==", "!=") else (b.items if isinstance(b, ast.ListLit) else []), scope)
        self.sub(node.left, scope)
        self.sub(node.right, scope)

    def _e_BoolOp(self, node, scope):
        self.sub(node.left, scope)
        self.expr(node.right, scope)  # not always evaluated

    def _e_Not(self, node, scope):
        self.sub(node.operand, scope)

    def _e_Neg(self, node, scope):
        self.sub(node.operand, scope)

    def _e_Cond(self, node, scope):
        self.sub(node.test, scope)
        self.expr(node.then, scope)
        self.expr(node.orelse, scope)

    def _e_Match(self, node, scope):
        if node.subject is not None:
            self.sub(node.subject, scope)
            patterns = [p for ps, _v in node.arms for p in ps]
            self._option_values_spelled(node.subject, patterns, scope)
            seen: dict = {}
            for p in patterns:
                self.expr(p, scope)
                self.types.check_equal(node.subject, p, scope, "match")
                key = _literal_value(p) if isinstance(p, (ast.Name, ast.Literal)) else None
                if key is not None and key in seen:
                    self.error(p.span, f"{key!r} is matched twice; the second arm can never be taken",
                               f"the first is at line {seen[key].span.line}")
                seen.setdefault(key, p)
        else:
            for (cond,), _v in node.arms:
                self.expr(cond, scope)
        for _ps, value in node.arms:
            self.expr(value, scope)
        self.expr(node.orelse, scope)

    def _e_LetIn(self, node, scope):
        self.expr(node.value, scope)
        self._binds([node.name], node.span, scope)
        self.expr(node.body, scope | {node.name})


def _name_span(node: ast.Attr) -> ast.Span:
    """Where the field's name of ``x.name`` stands (underlined in a message), when the node ends on its line."""
    span = node.span
    if span.end_line == span.line and span.end_column - len(node.name) > span.column:
        return attrs.evolve(span, column=span.end_column - len(node.name))
    return span


def _literal_value(node):
    return node.id if isinstance(node, ast.Name) else getattr(node, "value", None)


def _kind(value) -> str:
    if isinstance(value, bool):
        return "yes/no"
    if value is None:
        return "none"
    return "text"


_RESERVED_HINTS = {
    "me": "'me' is the player the rules speak for (whose turn it is, who observes); name the local 'p' or 'who'",
    "players": "'players' is the list of every player; name the local 'group' or 'seats'",
    "player_count": "'player_count' is how many play; name the local 'n'",
}
assert _RESERVED_HINTS.keys() == RESERVED

# the colours a 'display:' section may give a space's text (rich's standard colours)
SCREEN_COLOURS = ("red", "green", "yellow", "blue", "magenta", "cyan", "white", "grey")


def _names(node):
    """Every Name inside an expression."""
    if isinstance(node, ast.Name):
        yield node
        return
    for part in ast.parts(node):
        yield from _names(part)


def _attr_names(node, defs: dict) -> set:
    """Every '.field' name in an expression and in the defs it calls."""
    out: set = set()
    seen: set = set()
    pending = [node]
    while pending:
        n = pending.pop()
        if isinstance(n, ast.Attr):
            out.add(n.name)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in defs and n.func.id not in seen:
            seen.add(n.func.id)
            pending.append(defs[n.func.id].body)
        pending.extend(ast.parts(n))
    return out


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
    return sorted(diagnostics, key=lambda d: (d.file, d.line, d.column))


def _too_deep(rules: ast.RulesFile) -> Diagnostic:
    span = rules.decls[0].span if rules.decls else ast.Span(rules.filename, 1, 1)
    return Diagnostic("these rules are nested too deeply to check: hundreds of defs or variables each "
                      "defined by the next, or an expression nested hundreds of levels deep",
                      span.file, span.line, span.column, rules.source_line(span),
                      "break the chain: a few defs that each do more, or a list or a table instead")
