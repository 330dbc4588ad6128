"""The symbol table: every name a rules file declares, found once, read by everything after parsing.

Built once per (merged) rules file, in the spirit of Jinja's ``idtracking``: the checker, the type
checker, the secrecy check, the compiler, the API and ``rulewright list`` all read it, and
nothing else indexes declarations. Built-in functions describe themselves in builtins.py; board kinds
(boards/registry.py) add the functions their boards support.
"""
from __future__ import annotations

from rulewright.dsl import ast
from rulewright.interpreter.boards import registry as board_kinds, base as boards
from rulewright.interpreter.engine.builtin_names import BUILTIN_VARS, CONSTANTS, NAMES
from rulewright.interpreter.engine.builtins import BUILTINS, Builtin

# the def by which rules may say how near player p is to the game's end: read by agents that play toward
# it (play/agents.py, RushAgent), never by play itself (docs/language.md, "Progress")
PROGRESS = "progress"


class SymbolTable:
    """What every declared name is. Attributes are plain dicts and sets, keyed by name."""

    def __init__(self, rules: ast.RulesFile):
        self.rules = rules
        decls = rules.decls
        self.game_name = next((d.name for d in decls if isinstance(d, ast.GameDecl)), rules.filename)
        players = next((d for d in decls if isinstance(d, ast.PlayersDecl)), None)
        self.player_range = (players.low, players.high) if players else (1, 1)
        self.options = {d.name: d for d in decls if isinstance(d, ast.OptionDecl)}
        self.option_values = {name: [_value(v) for v in d.values] for name, d in self.options.items()}
        self.option_about = {name: d.about for name, d in self.options.items() if d.about}
        self.vars: dict = {d.name: d for d in decls if isinstance(d, ast.VarDecl)}
        for name, value in BUILTIN_VARS.items():  # every game has them, as public game variables
            self.vars.setdefault(name, ast.VarDecl(name, ast.Literal(value), False, "public"))
        self.declared_vars = {d.name for d in decls if isinstance(d, ast.VarDecl)}
        self.player_vars = {n for n, d in self.vars.items() if d.per_player}
        self.visibility = {name: d.visibility for name, d in self.vars.items()}  # public, secret or hidden
        self.hands: dict = {}  # a hand -> its parts, the 'player var ... secret in HAND' lists, in order
        for d in self.vars.values():
            if d.hand is not None:
                self.hands.setdefault(d.hand, []).append(d.name)
        self.tables = {d.name: d for d in decls if isinstance(d, ast.TableDecl)}
        self.columns: dict = {}  # column -> the tables that have it
        for t in self.tables.values():
            for c in t.columns:
                self.columns.setdefault(c, []).append(t.name)
        self.table_keys: dict = {}  # a bare name in a table's first column -> its table
        for t in self.tables.values():
            for row in t.rows:
                if row.values and isinstance(row.values[0], ast.Name):
                    self.table_keys.setdefault(row.values[0].id, t.name)
        self.record_decls = {d.name: d for d in decls if isinstance(d, ast.RecordDecl)}
        # an enum's members with data are made like records, with their member's name in the field "is"
        self.tags = {t.name: d.name for d in decls if isinstance(d, ast.EnumDecl) for t in d.tagged}
        for d in decls:
            if isinstance(d, ast.EnumDecl):
                for t in d.tagged:
                    self.record_decls.setdefault(t.name, t)
        self.records = {name: d.fields for name, d in self.record_decls.items()}
        self.record_defaults = {name: dict(d.defaults) for name, d in self.record_decls.items()}
        self.fields = {f for fs in self.records.values() for f in fs}
        # a record's fields (as a set) -> {field: (hidden | secret, owner field, unless field)}:
        # records are plain dicts, recognised by their fields
        self.field_visibility = {frozenset(d.fields): {n: (v.kind, v.owner, v.unless) for n, v in d.visibility}
                                 for d in self.record_decls.values() if d.visibility}
        self.defs = {d.name: d for d in decls if isinstance(d, ast.DefDecl)}
        self.procs = {d.name: d for d in decls if isinstance(d, ast.ProcDecl)}
        self.blocks = {d.kind: d for d in decls if isinstance(d, ast.BlockDecl)}
        self.boards = [d for d in decls if isinstance(d, ast.BoardDecl)]
        self.board_names = {b.name for b in self.boards}
        self.enums = {d.name: d for d in decls if isinstance(d, ast.EnumDecl)}
        # every bare word that stands for itself, with what declares it (for messages)
        self.members: dict = {}
        for d in self.enums.values():
            for m in d.members:
                self.members.setdefault(m, f"a member of enum '{d.name}'")
        for name, values in self.option_values.items():
            for v in values:
                if isinstance(v, str):
                    self.members.setdefault(v, f"a value of option '{name}'")
        self.headings: set = set()
        for b in self.boards:
            kind = board_kinds.KINDS.get(b.spec.kind)
            if kind is not None:
                defaults = {name: values[0] for name, values in self.option_values.items()}
                for h in kind.names(boards.with_options(b.spec, defaults)):
                    self.headings.add(h)
                    self.members.setdefault(h, f"a heading of board '{b.name}'")
        self.end_conditions = [d for d in decls if isinstance(d, ast.EndWhen)]
        self.requires = [d for d in decls if isinstance(d, ast.Require)]
        self.invariants = [d for d in decls if isinstance(d, ast.Invariant)]
        rank = next((d for d in decls if isinstance(d, ast.RankDecl)), None)
        self.rank_keys = rank.keys if rank else ()
        self.rank = rank
        self.teams = next((d for d in decls if isinstance(d, ast.TeamsDecl)), None)
        self.screen = next((d for d in decls if isinstance(d, ast.ScreenDecl)), None)
        self.observe = next((d for d in decls if isinstance(d, ast.ObserveDecl)), None)
        self.displays = [d for d in decls if isinstance(d, ast.DisplayDecl)]
        if self.screen is not None and self.screen.board is not None:
            self.displays.append(self.screen.board)
        self.display = self.displays[0] if self.displays else None
        # names an expression may read without declaring them: variables and constants
        self.constants = (set(CONSTANTS) | set(self.options) | set(self.members)
                          | set(self.tables) | self.board_names)
        self.globals = set(self.vars) | self.constants

    # ------------------------------------------------------------------ questions
    def board_kinds(self) -> list:
        """The kind classes of the boards the rules declare (several when options choose one)."""
        return [k for b in self.boards if (k := board_kinds.KINDS.get(b.spec.kind)) is not None]

    def function(self, name: str):
        """What a called name is: ('def', DefDecl), ('procedure', ProcDecl), ('record', fields),
        ('builtin', Builtin), ('board', Builtin) or None."""
        if name in self.defs:
            return "def", self.defs[name]
        if name in self.procs:
            return "procedure", self.procs[name]
        if name in self.records:
            return "record", self.records[name]
        if name in BUILTINS:
            return "builtin", BUILTINS[name]
        spec = board_kinds.function_spec(name)
        if spec is not None:
            return "board", spec
        return None

    def field_kinds(self, name: str) -> set:
        """What '.name' may read: "player" (a player variable), "column" (a table's), "field" (a record's);
        several when the name is more than one (the value read decides at run time)."""
        kinds = set()
        if name in self.player_vars:
            kinds.add("player")
        if name in self.columns:
            kinds.add("column")
        if name in self.fields:
            kinds.add("field")
        return kinds

    def functions(self) -> set:
        """Every name that can be called."""
        return set(self.defs) | set(self.procs) | set(self.records) | set(BUILTINS) | set(board_kinds.board_functions())

    def describe(self, name: str) -> str:
        """What a global name is, in words ('' if the rules do not declare it)."""
        if name in self.options:
            return f"the option '{name}'"
        if name in self.vars:
            return f"the {'player ' if name in self.player_vars else ''}variable '{name}'"
        if name in self.tables:
            return f"the table '{name}'"
        if name in self.board_names:
            return f"the board '{name}'"
        if name in self.members:
            return f"'{name}', {self.members[name]}"
        if name in self.defs:
            return f"the def '{name}'"
        if name in self.hands:
            return f"the hand '{name}' ({' and '.join(self.hands[name])} counted together by the others)"
        if name in CONSTANTS:
            return f"the built-in '{name}'"
        return ""

    def option_default(self) -> dict:
        return {name: values[0] for name, values in self.option_values.items()}


def uses(decls) -> tuple:
    """(every bare word read or written in the rules' expressions, statements and table cells; every field
    name used: '.f', 'record(f: ...)', 'rank by f'), not counting where words are declared."""
    words: set = set()
    fields: set = set()
    roots = [d for d in decls if not isinstance(d, (ast.EnumDecl, ast.RecordDecl, ast.BoardDecl))]
    roots += [d.guard for d in decls if isinstance(d, ast.BoardDecl) and d.guard is not None]
    for n in ast.walk(tuple(roots)):
        if isinstance(n, ast.Name):
            words.add(n.id)
        elif isinstance(n, ast.Attr):
            fields.add(n.name)
        elif isinstance(n, ast.Call):
            fields.update(k for k, _v in n.kwargs)
        elif isinstance(n, ast.RankDecl):
            fields.update(name for name, _asc in n.keys)
    return words, fields


def _value(v):
    return v.id if isinstance(v, ast.Name) else v.value


def symbols(rules: ast.RulesFile) -> SymbolTable:
    """The rules' symbol table, built on first use and kept with the rules."""
    table = rules.derived.get("symbols")
    if table is None:
        table = rules.derived["symbols"] = SymbolTable(rules)
    return table


def is_builtin(spec) -> bool:
    return isinstance(spec, Builtin)
