"""Compile a checked rules file, for one player count and one set of options, into a Game.

Options and the player count are known here, so they fold to constants: a variant that is off
costs nothing at run time.
"""
from __future__ import annotations

import hashlib

from rulewright.dsl import ast
from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.boards import registry as board_kinds, base as boards
from rulewright.interpreter.engine.builtin_names import CONSTANTS, ME, ROUND_NUMBER
from rulewright.interpreter.engine.builtins import BUILTINS
from rulewright.interpreter.engine.compare import Flatness
from rulewright.interpreter.compile.invariants import compile_invariants
from rulewright.interpreter.compile.expressions import ExprCompiler
from rulewright.interpreter.engine.operations import player_index
from rulewright.interpreter.engine.values import shown
from rulewright.interpreter.compile.instructions import Call, CheckEnd, Exec, Jump, Label
from rulewright.interpreter.compile.statements import ProcCompiler, plain_procedures
from rulewright.interpreter.check.symbols import symbols


def _names_hand(expr, hands: dict) -> bool:
    """A display entry that is a hand's name: shown from the view (views.visible_vars), never computed."""
    return isinstance(expr, ast.Name) and expr.id in hands


class CompiledGame:
    """Everything fixed for one (rules, player count, options): the state machine's definition."""

    # the kind of dict a table's columns and rows are kept in (coverage.py's notes the keys the rules read)
    lookup = dict
    # whether each log and reveal event carries the values its text was made from ("values"): a game
    # compiled for balance reports (play/balance.py); played games' events hold their texts only
    notes_values = False

    def __init__(self, rules: ast.RulesFile, player_count: int, options: dict, only=None, played: bool = True):
        """For `validate`, a game generated only to find its errors, never played (``played=False``): its
        generated Python is compiled only where generation itself runs it (codegen.Module.define), and
        ``only`` may name the defs, procedures and blocks to generate (None: all)."""
        assert only is None or not played, "a game generated in part cannot be played"
        self.rules = rules
        self.only = only
        self.file = rules.filename
        self.digest = hashlib.sha256(rules.source.encode()).hexdigest()[:16]
        self.player_count = player_count
        self.options = dict(options)
        self.symbols = sym = symbols(rules)
        self.name = sym.game_name
        self.flatness = Flatness()  # (read by the generated code: ExprCompiler's helpers)
        self.exprs = ExprCompiler(self)
        self.exprs.module.played = played
        # each def, procedure and block names its generated functions apart (codegen.Module.names_of)
        parts = dict.fromkeys([*sym.defs, *sym.procs, *sym.blocks, "round"])  # each name once, in order
        self.parts = {name: i for i, name in enumerate(parts, start=1)}
        self.exprs.module.number_parts(len(self.parts) + 1)
        self.constants: dict = {name: c.of_players(player_count) for name, c in CONSTANTS.items()}
        self.constants.update(self.options)
        for member in sym.members:
            self.constants.setdefault(member, member)
        self.columns: dict = {}  # column -> {key: value}, over every table that has the column
        self.column_owner: dict = {}  # (column, key) -> the table that gave it first
        self.ambiguous: dict = {}  # column -> {key: (table, table)}: two tables give the key two values
        self.rows: dict = {}  # table -> {key: {column: value}}
        self.tables: dict = {}
        # the symbol table's fields under the names the engine reads (the same objects, never rebuilt here)
        self.records = sym.records
        self.tags = sym.tags
        self.record_defaults = sym.record_defaults
        self.field_visibility = sym.field_visibility
        self.defs = sym.defs
        self.def_bodies: dict = {}
        self.procs_ast = sym.procs
        self.blocks = sym.blocks
        self.var_decls = sym.vars
        self.player_vars = sym.player_vars
        self.visibility = sym.visibility
        self.hands = sym.hands  # a hand -> its parts: the others see how many the parts hold together
        self.hand_of = {part: hand for hand, parts in sym.hands.items() for part in parts}
        self.end_conditions: dict = {"turn": [], "round": []}
        self.rank_keys = sym.rank_keys
        self.teams = None
        self.display = None
        self.board = None
        for d in sym.tables.values():
            self._table(d)
        for d in sym.boards:
            self._board(d)
        for name, d in self.defs.items():
            if only is not None and name not in only:
                continue
            with self.exprs.module.names_of(self.parts[name]):
                self.def_bodies[name] = self.exprs.compile_def(name)
        for d in sym.end_conditions:
            self.end_conditions[d.timing].append(self.exprs.compile(d.cond, set()))
        # each invariant, compiled once; run only by a watch (play/invariants.py): plain play never looks
        self.invariants = compile_invariants(self)
        if sym.teams is not None:
            self.teams = self.exprs.compile(sym.teams.teams, set())
        if sym.display is not None:
            self.display = (sym.display.name, self.exprs.compile(sym.display.expr, {sym.display.name}))
        self.screen = self._compile_screen(sym.screen)
        self.faces, self.paths = self._compile_pictures(sym.screen)
        # 'observe:': (entry, compiled) in order, worked out for the observing player 'me'
        self.observe = tuple((e, self.exprs.compile(e.expr, {ME})) for e in sym.observe.entries) \
            if sym.observe is not None else ()
        self.observe_sizes: list = []  # the values each entry gives, fixed by the first observation
        # each decision's prompt by its place (file, line), compiled with the procedures (explain.py)
        self.prompts: dict = {}
        self.initial = [(d.name, d.per_player, self.exprs.compile(d.value, set())) for d in self.var_decls.values()]
        self.procs = self._compile_procs()

    def _compile_screen(self, d) -> tuple:
        """The lines of 'display:' (screen.py shows them): (word, [(label, entry, compiled or text)])."""
        if d is None:
            return ()
        lines = []
        for line in d.lines:
            if line.word in ("legend", "colours"):
                lines.append((line.word, [(e.label, e, e.expr.value) for e in line.entries]))
            else:
                scope = set() if line.word == "table" else {ME}
                lines.append((line.word, [(e.label, e, None if _names_hand(e.expr, self.hands)
                                           else self.exprs.compile(e.expr, scope)) for e in line.entries]))
        return tuple(lines)

    def _compile_pictures(self, d) -> tuple:
        """The faces of 'display:' by name, (decl, {part: (expr, compiled)}, [(label, value, most)] with
        value and most as (expr, compiled)), and its 'paths' line, (decl, compiled) or None (screen.py
        draws them)."""
        if d is None:
            return {}, None
        faces = {}
        for f in d.faces:
            scope = {f.param}
            parts = {word: (expr, self.exprs.compile(expr, scope)) for word, expr in f.parts}
            gauges = [(label, (v, self.exprs.compile(v, scope)), (m, self.exprs.compile(m, scope)))
                      for label, v, m in f.gauges]
            faces[f.name] = (f, parts, gauges)
        paths = (d.paths, self.exprs.compile(d.paths.expr, {d.paths.name})) if d.paths is not None else None
        # which face draws an item met in an entry: a table's key, or a record (known by its fields)
        self.face_of_key = {key: name for name in faces if name in self.rows for key in self.rows[name]}
        self.face_of_fields = {frozenset(self.records[name]): name for name in faces if name in self.records}
        return faces, paths

    # ------------------------------------------------------------------ data
    def _table(self, d: ast.TableDecl):
        """A table's keys (copies included), its rows by key, and its columns merged with the columns
        of the same name in other tables; a key two tables give two values there is ambiguous."""
        keys = []
        rows = self.rows[d.name] = self.lookup()
        for row in d.rows:
            values = [self._literal(v) for v in row.values]
            key = values[0]
            rows[key] = dict(zip(d.columns, values))
            for column, value in zip(d.columns, values):
                merged = self.columns.get(column)
                if merged is None:
                    merged = self.columns[column] = self.lookup()
                owner = self.column_owner.setdefault((column, key), d.name)
                if key in self.ambiguous.get(column, ()):
                    continue
                if owner != d.name and merged.get(key) != value:
                    self.ambiguous.setdefault(column, {})[key] = (owner, d.name)
                    del merged[key]
                else:
                    merged[key] = value
            keys.extend([key] * (self.options[row.copies] if type(row.copies) is str else row.copies))
        self.tables[d.name] = keys
        self.constants[d.name] = keys

    def _literal(self, v):
        if isinstance(v, ast.Name):
            return self.constants.get(v.id, v.id)
        return v.value

    def _board(self, d: ast.BoardDecl):
        if d.guard is not None:
            guard = self.exprs.compile(d.guard, set())
            if not hasattr(guard, "const"):  # folding failed (player_count > "a")
                raise RulesRuntimeError(f"{self.file}:{d.span.line}: the board's 'when' cannot be computed")
            if not guard.const:
                return
        self.board = board_kinds.KINDS[d.spec.kind].build(d.name, boards.with_options(d.spec, self.options))
        self.constants[d.name] = list(self.board.spaces)

    # ------------------------------------------------------------------ fields
    def field_kinds(self, name: str) -> set:
        """What '.name' may read: the symbol table's answer (checked rules give every column a row)."""
        return self.symbols.field_kinds(name)

    def get_field(self, st, obj, name):
        if type(obj) is dict:
            return obj[name]
        if type(obj) is int and name in self.player_vars:
            return st._vars[name][player_index(obj, self.player_count)]
        column = self.columns.get(name)
        if column is not None and obj in column:
            return column[obj]
        raise self.no_column(obj, name)

    def no_column(self, item, name: str) -> RulesRuntimeError:
        """The error for 'item.name' where no table gives the item that column (or two tables do)."""
        both = self.ambiguous.get(name, {}).get(item) if type(item) is str else None
        if both is not None:
            return RulesRuntimeError(f"'{item}.{name}' is ambiguous: tables '{both[0]}' and '{both[1]}' both have "
                                     f"a row {item!r}", f"say which table: {both[0]}[\"{item}\"].{name}",
                                     focus=f"field:{name}")
        return RulesRuntimeError(f"{shown(item)} has no '{name}'",
                                 f"'{name}' is a column of a table: only that table's items have it",
                                 focus=f"field:{name}")

    # ------------------------------------------------------------------ procedures
    def _compile_procs(self) -> dict:
        lowered = {}
        names_of = self.exprs.module.names_of
        wanted = (lambda name: True) if self.only is None else self.only.__contains__
        for name, d in filter(lambda item: wanted(item[0]), self.procs_ast.items()):
            lowered[name] = ProcCompiler(self, name, d.params, self.file)
            with names_of(self.parts[name]):
                lowered[name].block(d.body)
        self.plain_procs = plain_procedures({name: pc.ir for name, pc in lowered.items()})
        for kind, d in filter(lambda item: wanted(item[0]), self.blocks.items()):
            lowered[kind] = ProcCompiler(self, kind, (ME,) if kind == "turn" else (), self.file)
            with names_of(self.parts[kind]):
                lowered[kind].block(d.body)
        procs = {}
        for name, pc in lowered.items():
            with names_of(self.parts[name]):
                procs[name] = pc.finish()
        if self.only is not None:
            return procs  # the engine's own procedures are the same in every variant
        if "round" not in procs:
            with names_of(self.parts["round"]):
                procs["round"] = self._default_round()
        procs["__main__"] = self._main()
        return procs

    def _default_round(self):
        """Every player takes a turn, clockwise from first_player."""
        pc = ProcCompiler(self, "round", (), self.file)
        order = BUILTINS["turn_order"].fn
        span = self._block_span("turn")

        def take_turns():
            pc.emit(Call(span, "turn", (ME,), [pc.raw("env['$p']")]))
            pc.emit(CheckEnd(span, "turn"))
        pc.loop_over("$p", pc.raw(f"{pc.constant(order)}(st)"), take_turns, span)
        return pc.finish()

    def _main(self):
        pc = ProcCompiler(self, "__main__", (), self.file)
        if "setup" in self.blocks:
            pc.emit(Call(self._block_span("setup"), "setup", (), []))
        top = Label()
        pc.label(top)
        span = self._block_span("round" if "round" in self.blocks else "turn")
        pc.emit(Call(span, "round", (), []))
        pc.emit(CheckEnd(span, "round"))

        pc.emit(Exec(span, [f"st._vars[{ascii(ROUND_NUMBER)}] += 1"]))
        pc.emit(Jump(span, top))
        return pc.finish()

    def _block_span(self, kind: str) -> ast.Span:
        """Where the game's own code (the default round, the round loop) points an error: the block
        it runs."""
        d = self.blocks.get(kind)
        return d.span if d is not None else ast.Span(self.file, 0, 0)
