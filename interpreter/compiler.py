"""Compile a checked rules file, for one player count and one set of options, into a Game.

Options and the player count are known here, so they fold to constants: a variant that is off
costs nothing at run time.
"""
from __future__ import annotations

import hashlib

from rulewright.dsl import ast
from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.boards import GraphBoard, GridBoard
from rulewright.interpreter.expressions import ExprCompiler, player_index
from rulewright.interpreter.statements import Call, CheckEnd, Exec, Jump, Label, ProcCompiler
from rulewright.interpreter.values import to_text

# Variables every game has; a rules file may set them.
BUILTIN_VARS = {"round_number": 1, "first_player": 1}


class CompiledGame:
    """Everything fixed for one (rules, player count, options): the state machine's definition."""

    def __init__(self, rules: ast.RulesFile, player_count: int, options: dict):
        self.rules = rules
        self.file = rules.filename
        self.digest = hashlib.sha256(rules.source.encode()).hexdigest()[:16]
        self.player_count = player_count
        self.options = dict(options)
        decls = rules.decls
        self.name = next((d.name for d in decls if isinstance(d, ast.GameDecl)), rules.filename)
        self.exprs = ExprCompiler(self)
        self.constants: dict = {"players": list(range(1, player_count + 1)), "player_count": player_count}
        self.constants.update(self.options)
        self.columns: dict = {}
        self.tables: dict = {}
        self.records: dict = {}
        self.defs: dict = {}
        self.def_bodies: dict = {}
        self.procs_ast: dict = {}
        self.blocks: dict = {}
        self.var_decls: dict = {}
        self.player_vars: set = set()
        self.visibility: dict = {}
        self.end_conditions: dict = {"turn": [], "round": []}
        self.rank_keys: tuple = ()
        self.teams = None
        self.display = None
        self.board = None
        self.record_fields: set = set()
        # a record's fields (as a set) -> {field: (hidden | secret, owner field, unless field)}:
        # records are plain dicts, recognised by their fields
        self.field_visibility: dict = {}

        for d in decls:
            if isinstance(d, ast.EnumDecl):
                for m in d.members:
                    self.constants[m] = m
            elif isinstance(d, ast.OptionDecl):
                for v in d.values:
                    if isinstance(v, ast.Name):
                        self.constants.setdefault(v.id, v.id)
        for d in decls:
            if isinstance(d, ast.TableDecl):
                self._table(d)
            elif isinstance(d, ast.RecordDecl):
                self.records[d.name] = d.fields
                self.record_fields.update(d.fields)
                if d.visibility:
                    self.field_visibility[frozenset(d.fields)] = {
                        name: (vis.kind, vis.owner, vis.unless) for name, vis in d.visibility}
            elif isinstance(d, ast.DefDecl):
                self.defs[d.name] = d
            elif isinstance(d, ast.ProcDecl):
                self.procs_ast[d.name] = d
            elif isinstance(d, ast.BlockDecl):
                self.blocks[d.kind] = d
            elif isinstance(d, ast.VarDecl):
                self.var_decls[d.name] = d
                self.visibility[d.name] = d.visibility
                if d.per_player:
                    self.player_vars.add(d.name)
            elif isinstance(d, ast.RankDecl):
                self.rank_keys = d.keys
        for name, value in BUILTIN_VARS.items():
            if name not in self.var_decls:
                self.var_decls[name] = ast.VarDecl(name, ast.Literal(value), False, "public")
                self.visibility[name] = "public"
        for d in decls:
            if isinstance(d, ast.BoardDecl):
                self._board(d)
        for name, d in self.defs.items():
            self.def_bodies[name] = self.exprs.compile(d.body, set(d.params) | {"me"})
        for d in decls:
            if isinstance(d, ast.EndWhen):
                self.end_conditions[d.timing].append(self.exprs.compile(d.cond, set()))
            elif isinstance(d, ast.TeamsDecl):
                self.teams = self.exprs.compile(d.teams, set())
            elif isinstance(d, ast.DisplayDecl):
                self.display = (d.name, self.exprs.compile(d.expr, {d.name}))
        self.initial = [(d.name, d.per_player, self.exprs.compile(d.value, set())) for d in self.var_decls.values()]
        self.procs = self._compile_procs()

    # ------------------------------------------------------------------ data
    def _table(self, d: ast.TableDecl):
        keys = []
        for row in d.rows:
            values = [self._literal(v) for v in row.values]
            key = values[0]
            for column, value in zip(d.columns, values):
                self.columns.setdefault(column, {})[key] = value
            keys.extend([key] * row.copies)
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
        spec = d.spec
        if isinstance(spec, ast.Grid):
            self.board = GridBoard(d.name, spec.rows, spec.cols, spec.headings,
                                   wrap_cols="columns" in spec.wrap, wrap_rows="rows" in spec.wrap)
            for h in spec.headings:
                self.constants.setdefault(h, h)
        else:
            successors: dict = {}
            for source, targets, _span in spec.edges:
                successors.setdefault(source, []).extend(targets)
            self.board = GraphBoard(d.name, successors)
        self.constants[d.name] = list(self.board.spaces)

    # ------------------------------------------------------------------ fields
    def field_kinds(self, name: str) -> set:
        kinds = set()
        if name in self.player_vars:
            kinds.add("player")
        if name in self.columns:
            kinds.add("column")
        if name in self.record_fields:
            kinds.add("field")
        return kinds

    def get_field(self, st, obj, name):
        if type(obj) is dict:
            return obj[name]
        if type(obj) is int and name in self.player_vars:
            return st.vars[name][player_index(obj, self.player_count)]
        column = self.columns.get(name)
        if column is not None and obj in column:
            return column[obj]
        raise RulesRuntimeError(f"{to_text(obj)!r} has no '{name}'")

    # ------------------------------------------------------------------ procedures
    def _compile_procs(self) -> dict:
        procs = {}
        for name, d in self.procs_ast.items():
            pc = ProcCompiler(self, name, d.params, self.file)
            pc.block(d.body)
            procs[name] = pc.finish()
        for kind, d in self.blocks.items():
            pc = ProcCompiler(self, kind, ("me",) if kind == "turn" else (), self.file)
            pc.block(d.body)
            procs[kind] = pc.finish()
        if "round" not in procs:
            procs["round"] = self._default_round()
        procs["__main__"] = self._main()
        return procs

    def _default_round(self):
        """Every player takes a turn, clockwise from first_player."""
        from rulewright.interpreter.builtins import BUILTINS
        pc = ProcCompiler(self, "round", (), self.file)
        order = BUILTINS["turn_order"].fn
        span = self._block_span("turn")

        def take_turns():
            pc.emit(Call(span, "turn", ("me",), [lambda st, env: env["$p"]]))
            pc.emit(CheckEnd(span, "turn"))
        pc._loop_over("$p", lambda st, env: order(st), take_turns, span)
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

        def next_round(st, env):
            st.vars["round_number"] += 1
        pc.emit(Exec(span, next_round))
        pc.emit(Jump(span, top))
        return pc.finish()

    def _block_span(self, kind: str) -> ast.Span:
        """Where the game's own code (the default round, the round loop) points an error: the block
        it runs."""
        d = self.blocks.get(kind)
        return d.span if d is not None else ast.Span(self.file, 0, 0)
