"""The checker's declarations and the game's structure: names declared twice or reserved, the game's
name and player count, the board (one, of a known kind, well formed with every option), records and
enum members with data, requirements and board guards that read only options, and the structure: a
turn to take, a way to end, no procedure never called."""
from __future__ import annotations

from rulewright.dsl import ast
from rulewright.interpreter.boards import registry as board_kinds, base as boards
from rulewright.interpreter.check.symbols import PROGRESS
from rulewright.interpreter.engine.builtin_names import CONSTANTS, ME, RESERVED
from rulewright.interpreter.engine.builtins import BUILTINS
from rulewright.interpreter.engine.kinds import BOOL, NUMBER

# the rules the engine runs by name, beside the procedures (compiler.CompiledGame._compile_procs)
ENGINE_RULES = {"setup": "the 'setup:' block", "round": "the 'round:' block", "turn": "the 'turn:' block",
                "scoring": "the 'scoring:' block", "__main__": "the engine's own round loop"}


class StructureChecks:
    """The declarations and the game's structure; a part of Checker (checker.py)."""

    def _declarations(self, decls):
        seen: dict = {}
        for d in decls:
            name = d.kind if isinstance(d, ast.BlockDecl) else getattr(d, "name", None)
            if name is None or isinstance(d, ast.GameDecl):
                continue
            if name in RESERVED and not isinstance(d, (ast.BlockDecl, ast.DisplayDecl, ast.Invariant)):  # a display: _binds
                self.error(d.span, f"'{name}' is a built-in name; choose another")
                continue
            if isinstance(d, ast.ProcDecl) and name in ENGINE_RULES:
                # the blocks and the engine's own loop run by these names: a procedure would take their place
                self.error(d.span, f"'{name}' names {ENGINE_RULES[name]}: a procedure cannot take it",
                           f"call the procedure something else, say 'do_{name.strip('_')}'")
                continue
            kind = "block" if isinstance(d, ast.BlockDecl) else "invariant" if isinstance(d, ast.Invariant) else "name"
            if isinstance(d, ast.BoardDecl) and d.guard is not None:
                kind = "guarded board"  # alternatives chosen by options may share one name
                name = (name, id(d))
            key = (kind, name)
            if key in seen:
                first = seen[key].span
                where = f"line {first.line}" if first.file == d.span.file else f"{first.file}:{first.line}"
                self.error(d.span, f"'{key[1]}' is declared twice", f"the first is at {where}" + (
                    ", in the base: a variant replaces a declaration with one of the same kind"
                    if first.file != d.span.file else ""))
            seen[key] = d
        for hand, parts in self.sym.hands.items():
            first = self.sym.vars[parts[0]]
            # a bare name in 'display:' reads the hand first: nothing else may answer to it there
            taken = self.sym.members.get(hand) or ("a built-in" if hand in BUILTINS or hand in RESERVED else None)
            if taken or hand in self.sym.constants or ("name", hand) in seen:
                self.error(first.span, f"'{hand}' names a hand ('secret in {hand}') and something else too"
                           + (f" ({taken})" if taken else ""), "give the hand a name of its own")
            for part in parts:
                if not isinstance(self.sym.vars[part].value, ast.ListLit):
                    self.error(self.sym.vars[part].span, f"'{part}' is a part of the hand '{hand}': it starts as "
                               "a list of cards", f"player var {part} = [] secret in {hand}")
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
        grids = [b for b in self.sym.boards if b.guard is None]
        if len(grids) > 1:
            self.error(grids[1].span, "a game has one board; guard alternatives with 'when'")
        for b in self.sym.boards:
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

    def _invariant(self, d: ast.Invariant):
        """An invariant is a yes/no over the game's variables and constants (no 'me': it speaks of the
        whole game), where was(x) is x before the move."""
        self.in_invariant = True
        try:
            self.expr(d.cond, set())
        finally:
            self.in_invariant = False
        self.types.expect(d.cond, set(), (BOOL,), f'invariant "{d.name}"', "a yes/no",
                          "an invariant says what must hold: all(p in players: p.score >= 0)")

    def _progress(self, d: ast.DefDecl):
        """``def progress(p)``: how near player p is to the end, a number (agents read it: RushAgent)."""
        if len(d.params) != 1:
            self.error(d.span, f"'def {PROGRESS}' tells how near one player is to the end: it takes that player, "
                       f"not {len(d.params)} parameters", f"def {PROGRESS}(p) = p.score")
            return
        self.types.expect(d.body, set(d.params) | {ME}, (NUMBER,), f"'def {PROGRESS}'", "a number",
                          f"bigger is nearer the end: def {PROGRESS}(p) = p.score")

    def _record_visibility(self, d: ast.RecordDecl):
        for name, vis in d.visibility:
            for other in (vis.owner, vis.unless):
                if other is not None and other not in d.fields:
                    self.error(vis.span, f"record '{d.name}' has no field '{other}' to say who sees '{name}'",
                               self.hint(other, d.fields))
                elif other == name:
                    self.error(vis.span, f"field '{name}' cannot say who sees itself")
                elif other in dict(d.visibility):
                    # who sees a field must be seen by all: a face-down owner would tell by what it shows
                    self.error(vis.span, f"field '{other}' says who sees '{name}', so everyone must see it: it is "
                               f"face down itself", f"make '{other}' a field everyone sees")

    def _tagged_members(self, d: ast.EnumDecl):
        """A member with data is made like a record: its name may be no other record's, def's or procedure's."""
        for t in d.tagged:
            other = ("a record" if self.sym.record_decls.get(t.name) is not t else
                     "a def" if t.name in self.sym.defs else "a procedure" if t.name in self.sym.procs else "")
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
                if isinstance(n, ast.Name) and n.id in self.sym.vars and n.id not in bound:
                    self.error(n.span, f"the default of field '{name}' reads the variable '{n.id}'",
                               "a default is a constant (numbers, texts, lists, options, enum members); "
                               "give the value where the record is made")
                elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and (
                        n.func.id in self.sym.defs or n.func.id in self.sym.procs
                        or (what := self.sym.function(n.func.id)) is not None and what[0] != "record"
                        and what[1].needs == "state"):
                    self.error(n.span, f"the default of field '{name}' calls '{n.func.id}', which may differ "
                               "from one record to the next",
                               "a default is a constant; give the value where the record is made")

    def _board_declaration(self, kind, b: ast.BoardDecl):
        """A board's declaration, as read with every value of each option it names (its words
        'grid rows by columns'); a mistake with one value says which."""
        reported: set = set()
        for spec, note in boards.option_variants(b.spec, self.sym.option_values):
            def report(span, message, hint="", note=note):
                if span not in reported:  # one mistake a place, with the first value that makes it
                    reported.add(span)
                    self.error(span, message + note, hint)
            kind.check(spec, report)

    def _board_spaces(self) -> set:
        """Every space of every board the rules declare (bare words a table may hold), whatever the
        options that size them."""
        out: set = set()
        for b in self.sym.boards:
            kind = board_kinds.KINDS.get(b.spec.kind)
            if kind is None:
                continue
            for spec, _note in boards.option_variants(b.spec, self.sym.option_values):
                problems: list = []
                kind.check(spec, lambda *a: problems.append(a))
                if not problems:
                    out.update(kind.build(b.name, spec).spaces)
        return out

    def _only_options(self, node, what: str):
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id not in self.sym.options and n.id not in self.sym.members \
                    and n.id not in CONSTANTS:
                self.error(n.span, f"{what} may use only options and the player count, not '{n.id}'")

    def _structure(self):
        span = ast.Span(self.rules.filename, 1, 1)
        if "round" not in self.sym.blocks:
            self.turns_taken = True
        if self.turns_taken and "turn" not in self.sym.blocks:
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
        for name, d in self.sym.procs.items():
            if name in self.called or "@" in name:  # (a base's version no replacement calls: dropped)
                continue
            message = f"procedure '{name}' is never called, so it can never run"
            if d.span.file == self.rules.filename:
                self.error(d.span, message)
                continue
            retire = f"the variant no longer calls it: take it out with 'retire procedure {name}'"
            self.error(d.span, message, retire)
            # a variant's piece that took out its calls (variants.py: take_out): said there, the base's line as context
            takers = [span for span, called in self.rules.derived.get("taken out", ()) if name in called]
            if takers:
                at = takers[-1]
                self.diagnostics[-1] = self.diagnostics[-1].told_at(
                    at.file, at.line, at.column, self.rules.source_line(at), "whose last call this line takes out")
