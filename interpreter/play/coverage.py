"""Coverage of a rules file, like coverage.py for code: seeded random games are played, and the report
says which statements never ran, which table rows were never used, and which moves changed nothing
(the symptom of a change written to a copy and lost).

What a statement, a used row and a silent move are is defined once, in docs/cli.md (coverage). A
variant's additions (interpreter/variants.py) are followed too: how often an added card was played and
how often that changed nothing, whether an added member or column was ever produced (read from its
table, or held by the game's data at a decision), whether an added option value was started at all.

Nothing here slows the normal engine: the games are played on a compile of their own, whose
procedures run one instruction at a time through wrappers that tick each instruction off, and whose
tables' columns and rows are dicts that note the keys read (``CompiledGame.lookup``). A move is judged
by the rules' data before it and at the next decision (``_data``), the log and the counters aside.
"""
from __future__ import annotations

import copy
import marshal
from typing import Optional

import attrs

from rulewright.dsl import ast
from rulewright.interpreter.play.agents import agents_for
from rulewright.interpreter.api import Game
from rulewright.interpreter.compile.compiler import CompiledGame
from rulewright.interpreter.engine.machine import Proc
from rulewright.interpreter.compile.instructions import Choose, ChooseEach, ForNext
from rulewright.interpreter.play.invariants import Watch
from rulewright.interpreter.engine.builtin_names import ROUND_NUMBER

EXAMPLES_KEPT = 3  # the examples a report keeps of each silent rule


class _ReadKeys(dict):
    """A table's column (or rows) that notes every key the rules read from it."""
    __slots__ = ("read",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.read = set()

    def __getitem__(self, key):
        self.read.add(key)
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        self.read.add(key)
        return dict.get(self, key, default)


class _WatchedGame(CompiledGame):
    lookup = _ReadKeys

    def forget_reads(self) -> None:
        """Forget what compiling read (folding 'x.cost' for a constant x): only play counts."""
        for d in list(self.columns.values()) + list(self.rows.values()):
            d.read.clear()


@attrs.frozen
class FileStatements:
    file: str
    lines: tuple    # every statement's line
    missing: tuple  # the lines never run

    @property
    def run(self) -> int:
        return len(self.lines) - len(self.missing)


@attrs.frozen
class TableRows:
    table: str
    rows: int
    unused: tuple  # the keys of the rows never used, in declared order


@attrs.define
class SilentRule:
    """The moves a decision (``file``:``line``) offered that changed nothing."""
    file: str
    line: int
    count: int = 0
    texts: list = attrs.field(factory=list)     # the different texts, first seen first (a few)
    examples: list = attrs.field(factory=list)  # dicts: seed, move (its number in the game, from 1), player, text


@attrs.define
class AddedReach:
    """What the games did with one thing a variant added (``kind``: enum, option, table or column)."""
    kind: str
    set_name: str
    value: object
    file: str
    line: int
    started: bool = True   # an option value: chosen for these games
    produced: bool = False  # a member or a column: read from a table, or seen in the game's data
    played: int = 0         # a row: moves whose value is or holds its key, judged...
    silent: int = 0         # ... and of those, the ones that changed nothing
    read: bool = False      # a row: a rule read one of its cells (a card drawn and looked at, not chosen)

    def status(self) -> str:
        if self.kind == "option":
            return "started" if self.started else "never started"
        if self.kind == "table":
            if not self.played:
                return "read by the rules, never a move's choice" if self.read else "never played"
            times = "once" if self.played == 1 else f"{self.played} times"
            if self.silent == 0:
                return f"played {times}"
            return f"played {times}, " + ("changed nothing each time" if self.silent == self.played
                                            else f"changed nothing {self.silent} of them")
        return "produced" if self.produced else "never produced"

    def problem(self) -> bool:
        return self.status().startswith("never") or self.silent > 0


@attrs.frozen
class BrokenInvariant:
    """An invariant that did not hold: first after move ``move`` (0: at the start) of the game ``seed``."""
    name: str
    file: str
    line: int
    why: str
    seed: int
    move: int


@attrs.frozen
class CoverageReport:
    game: str
    players: int
    options: dict
    seeds: tuple
    moves: int            # moves played in all
    unfinished: int       # games stopped at max_moves
    files: tuple          # FileStatements, by file
    tables: tuple         # TableRows, in declared order
    silent: tuple         # SilentRule, by file and line
    added: tuple = ()     # AddedReach, in the order the variant adds them
    broken: tuple = ()    # BrokenInvariant: each invariant that failed, at its first failure

    @property
    def statements(self) -> int:
        return sum(len(f.lines) for f in self.files)

    @property
    def statements_run(self) -> int:
        return sum(f.run for f in self.files)

    def to_dict(self) -> dict:
        total, run = self.statements, self.statements_run
        return {
            "game": self.game, "players": self.players, "options": self.options, "games": len(self.seeds),
            "seeds": list(self.seeds), "moves": self.moves, "unfinished": self.unfinished,
            "statements": {"total": total, "run": run, "percent": percent(run, total),
                           "files": [{"file": f.file, "statements": len(f.lines), "run": f.run,
                                      "missing": list(f.missing)} for f in self.files]},
            "rows": [{"table": t.table, "rows": t.rows, "unused": list(t.unused)} for t in self.tables],
            "silent_moves": [{"file": s.file, "line": s.line, "count": s.count, "texts": s.texts,
                              "examples": s.examples} for s in self.silent],
            "added": [{"file": a.file, "line": a.line, "kind": a.kind, "of": a.set_name, "value": a.value,
                       "status": a.status(), "played": a.played, "changed_nothing": a.silent} for a in self.added],
            "broken": [attrs.asdict(b) for b in self.broken],
        }


def percent(part: int, whole: int) -> float:
    return round(100.0 * part / whole, 1) if whole else 100.0


def measure(rules: ast.RulesFile, players: Optional[int] = None, options: Optional[dict] = None,
            seeds=(1,), max_moves: int = 100_000) -> CoverageReport:
    """Play a game of random moves for each seed (the game and every seat's random agent seeded with it,
    as `rulewright play --seed S --auto random` does), and report what ran and what did not."""
    game = Game(rules, players, options, compiler=_WatchedGame)
    compiled = game.compiled
    compiled.forget_reads()
    hits = _instrument(compiled)
    loop_vars = {name: _loop_variables(proc) for name, proc in compiled.procs.items()}
    silent: dict = {}
    chosen: set = set()
    added = _Additions(rules, game)
    broken: dict = {}
    moves = unfinished = 0
    for seed in seeds:
        made, over = _play(game, seed, max_moves, loop_vars, silent, chosen, added, broken)
        moves += made
        unfinished += not over
    return CoverageReport(
        game=game.name, players=game.player_count, options=dict(game.options), seeds=tuple(seeds),
        moves=moves, unfinished=unfinished, files=_statements(compiled, hits), tables=_rows(compiled, chosen),
        silent=tuple(silent[k] for k in sorted(silent)), added=added.finish(compiled), broken=tuple(broken.values()))


# ----------------------------------------------------------------------------- statements
def _instrument(compiled) -> dict:
    """Each procedure run one instruction at a time, each ticked off as it runs: {proc: bytearray}."""
    hits = {}
    for name, proc in list(compiled.procs.items()):
        ticks = hits[name] = bytearray(len(proc.code))
        code = tuple(_ticking(op, ticks, pc) for pc, op in enumerate(proc.code))
        # a stretch of one instruction each: the machine's loops stay as they are
        compiled.procs[name] = attrs.evolve(proc, code=code, fast=code, costs=(1,) * len(code), lines_of={})
    return hits


def _ticking(op, ticks: bytearray, pc: int):
    def ticked(st, env):
        ticks[pc] = 1
        return op(st, env)
    return ticked


def _statement_lines(compiled) -> dict:
    """{file: set of lines}: where each statement of the procedures and blocks starts (an elif too)."""
    lines: dict = {}
    bodies = [d.body for d in compiled.procs_ast.values()] + [d.body for d in compiled.blocks.values()]
    for body in bodies:
        for s in ast.statements(body):
            if isinstance(s, ast.Pass):
                continue
            spans = [s.span] + [cond.span for cond, _ in getattr(s, "branches", ())[1:]]
            for span in spans:
                if span.line > 0:
                    lines.setdefault(span.file, set()).add(span.line)
    return lines


def _statements(compiled, hits: dict) -> tuple:
    lines = _statement_lines(compiled)
    ran: set = set()
    for name, proc in compiled.procs.items():
        ticks = hits[name]
        for pc, ins in enumerate(proc.instructions):
            if ticks[pc] and ins.span.line > 0:
                ran.add((ins.span.file, ins.span.line))
    for d in list(compiled.procs_ast.values()) + list(compiled.blocks.values()):
        _heads_ran(d.body, ran)
    return tuple(FileStatements(file, tuple(sorted(ls)), tuple(sorted(n for n in ls if (file, n) not in ran)))
                 for file, ls in sorted(lines.items()))


def _heads_ran(body, ran: set) -> bool:
    """Whether a statement of ``body`` ran; an 'if' or 'elif' whose branch ran counts as run, since its
    condition folded to yes for these options leaves no instruction of its own. Adds those to ``ran``."""
    any_ran = False
    for s in body:
        here = (s.span.file, s.span.line) in ran
        for i, (cond, inner) in enumerate(getattr(s, "branches", ())):
            if _heads_ran(inner, ran):
                head = s.span if i == 0 else cond.span
                ran.add((head.file, head.line))
                here = True
        for part in ("body", "orelse"):
            inner = getattr(s, part, None)
            if isinstance(inner, tuple) and _heads_ran(inner, ran):
                here = True
        for alt in getattr(s, "alternatives", ()):
            here = _heads_ran(alt.body, ran) or here
        any_ran = any_ran or here
    return any_ran


# ----------------------------------------------------------------------------- rows
def _rows(compiled, chosen: set) -> tuple:
    tables = []
    for d in compiled.symbols.tables.values():
        rows = compiled.rows[d.name]
        read = set(rows.read)
        for column in d.columns:
            read |= compiled.columns[column].read
        unused = tuple(k for k in rows if k not in read and k not in chosen)
        tables.append(TableRows(d.name, len(rows), unused))
    return tuple(tables)


def _keys_in(value, into: set, depth: int = 0) -> None:
    """The texts a chosen value is or holds (a key, a record's fields, a list's items)."""
    t = type(value)
    if t is str:
        into.add(value)
    elif depth < 8 and t is list:
        for x in value:
            _keys_in(x, into, depth + 1)
    elif depth < 8 and t is dict:
        for x in value.values():
            _keys_in(x, into, depth + 1)


# ----------------------------------------------------------------------------- silent moves
def _loop_variables(proc: Proc) -> frozenset:
    """The locals a loop of the procedure moves on by itself: changing them is no move's doing."""
    names = set()
    for ins in proc.instructions:
        if isinstance(ins, ForNext):
            names.update((ins.items, ins.index, ins.var))
        elif isinstance(ins, ChooseEach):
            names.update((ins.spec.player_var, ins.spec.var))
    return frozenset(names)


def is_pass(decision, value) -> bool:
    """A move that may change nothing, by the rules' own words: a decline ('optional', whose value is
    none), or an alternative of a 'choose:' block whose body is 'pass' or 'break' (stop)."""
    if value is None:
        return True
    node = decision.node
    if isinstance(node, ast.ChooseBlock):
        return any(alt.label == value and all(isinstance(s, (ast.Pass, ast.Break)) for s in alt.body)
                   for alt in node.alternatives)
    return False


def _copied(value):
    try:
        return marshal.loads(marshal.dumps(value))
    except ValueError:  # something marshal does not know (never a rules value today)
        return copy.deepcopy(value)


def _data(st, loop_vars: dict) -> tuple:
    """What a move may change, the log and the counters aside: the variables, what is face up, the
    status, the winners, and the locals of each frame (by the frame itself)."""
    variables = {k: v for k, v in st._vars.items() if k != ROUND_NUMBER}
    frames = {id(f): {k: v for k, v in f.locals.items() if k not in loop_vars[f.proc]}
              for f in st.frames}
    return _copied((variables, st.revealed, st.status, st.winners)), _copied(frames), list(st.frames)


def _unchanged(before: tuple, st, procs: dict, loop_vars: dict, chose: Optional[tuple]) -> bool:
    shared, frames, kept = before
    now_shared, now_frames, _ = _data(st, loop_vars)
    if shared != now_shared:
        return False
    # the frames still running (the same objects: kept alive by ``kept``, so no id is reused), each without
    # the locals no move set: the frame asking the next decision has let go of that decision's variable
    # to ask it; a 'choose:' block's answer, once the rules have gone on past the alternative it chose,
    # only picked that alternative
    ignored: dict = {}
    if st.pending is not None and st.frames:
        ignored.setdefault(id(st.frames[-1]), set()).add(st.pending.var)
    if chose is not None:
        frame, var, lines = chose
        if id(frame) in now_frames and not _resumes_within(frame, procs, lines):
            ignored.setdefault(id(frame), set()).add(var)
    for k in frames.keys() & now_frames.keys():
        old, new = frames[k], now_frames[k]
        for var in ignored.get(k, ()):
            old, new = dict(old), dict(new)
            old.pop(var, None)
            new.pop(var, None)
        if old != new:
            return False
    return True


def _chosen_alternative(frame, decision, value) -> Optional[tuple]:
    """(the frame, the hidden local of the answer, (file, first line, last line) of the alternative's
    body) for an answer to a 'choose:' block; None for any other decision."""
    node = decision.node
    if not isinstance(node, ast.ChooseBlock) or not isinstance(decision, Choose):
        return None
    for alt in node.alternatives:
        if alt.label == value:
            lines = [s.span.line for s in ast.statements(alt.body)]
            if lines:
                return frame, decision.spec.var, (alt.body[0].span.file, min(lines), max(lines))
    return None


def _resumes_within(frame, procs: dict, lines: tuple) -> bool:
    """Whether the frame waits inside those lines: asking a decision there, or calling from there a
    procedure that asks one."""
    span = procs[frame.proc].spans[frame.pc - 1] if frame.pc > 0 else None
    return span is not None and span.file == lines[0] and lines[1] <= span.line <= lines[2]


def _play(game, seed: int, max_moves: int, loop_vars: dict, silent: dict, chosen: set, added, broken: dict) -> tuple:
    """One game of random moves; notes its silent moves, the keys chosen and the invariants broken (the
    first time each is). Gives (moves, finished)."""
    st = game.new_state(seed=seed)
    agents = agents_for("random", game.player_count, seed)
    procs = game.compiled.procs
    made = 0
    watch = Watch(game.compiled)
    _note_broken(watch, st, seed, made, broken)
    while not st.is_over() and made < max_moves:
        added.look(st)
        player = st.to_move()[0]
        move = agents[player - 1].choose(st, player)
        pend = st.pending
        option = pend.options[player][move.index - 1]
        _keys_in(option.value, chosen)
        frame = st.frames[-1]
        decision = procs[frame.proc].instructions[frame.pc - 1]  # the frame stopped just after it
        span = decision.span
        runs = not pend.simultaneous or len(pend.waiting()) == 1  # the last choice runs the rules
        before = _data(st, loop_vars) if runs and not is_pass(decision, option.value) else None
        chose = _chosen_alternative(frame, decision, option.value)
        watch.before(st)
        st.apply(move, player=player, atomic=False)
        made += 1
        _note_broken(watch, st, seed, made, broken)
        st.drain_events()
        unchanged = before is not None and _unchanged(before, st, procs, loop_vars, chose)
        if before is not None:
            added.played(option.value, unchanged)
        if unchanged:
            rule = silent.setdefault((span.file, span.line), SilentRule(span.file, span.line))
            rule.count += 1
            if move.text not in rule.texts and len(rule.texts) < EXAMPLES_KEPT:
                rule.texts.append(move.text)
            if len(rule.examples) < EXAMPLES_KEPT:
                rule.examples.append({"seed": seed, "move": made, "player": player, "text": move.text})
    added.look(st)
    return made, st.is_over()


def _note_broken(watch, st, seed: int, made: int, broken: dict) -> None:
    if not watch:
        return
    found = watch.broken(st)
    if found is not None and found[0].name not in broken:
        decl, why = found
        broken[decl.name] = BrokenInvariant(decl.name, decl.span.file, decl.span.line, why, seed, made)


# ----------------------------------------------------------------------------- a variant's additions
class _Additions:
    """Follows what a variant added (rules.derived["added"]) through the games."""

    def __init__(self, rules: ast.RulesFile, game):
        self.entries = [AddedReach(a.set_kind, a.set_name, a.value, a.span.file, a.span.line)
                        for a in rules.derived.get("added", [])]
        for e in self.entries:
            if e.kind == "option":
                e.started = game.options.get(e.set_name) == e.value
        self.rows = {e.value: e for e in self.entries if e.kind == "table"}
        # the members not yet seen, each with the ways marshal writes it (a short text, or a long one)
        self.unseen = {e.value: _encodings(e.value) for e in self.entries
                       if e.kind == "enum" and isinstance(e.value, str)}

    def played(self, value, unchanged: bool):
        if not self.rows:
            return
        keys: set = set()
        _keys_in(value, keys)
        for k in keys & self.rows.keys():
            self.rows[k].played += 1
            self.rows[k].silent += unchanged

    def look(self, st):
        """Note the members the game's data holds at this decision (its variables and running rules)."""
        if not self.unseen:
            return
        try:
            blob = marshal.dumps((st._vars, [f.locals for f in st.frames]))
        except ValueError:
            return  # something marshal does not know (never a rules value today)
        for word in [w for w, ways in self.unseen.items() if any(way in blob for way in ways)]:
            del self.unseen[word]

    def finish(self, compiled) -> tuple:
        for e in self.entries:
            if e.kind == "enum":  # held at a decision, read from a cell, or a key a field was read of
                e.produced = e.value not in self.unseen or _read_from_tables(compiled, e.value) \
                    or _read_as_key(compiled, e.value)
            elif e.kind == "table":
                e.read = _read_as_key(compiled, e.value, e.set_name)
            elif e.kind == "column":
                e.produced = bool(compiled.columns[e.value].read) if e.value in compiled.columns else False
        return tuple(self.entries)


def _encodings(word: str) -> tuple:
    """How marshal writes the text ``word``: its type code (with or without the flag of a shared object),
    its length, its bytes."""
    data = word.encode("utf-8", "surrogatepass")
    ways = [bytes([code | flag, len(data)]) + data for code in b"zZ" for flag in (0, 0x80)] if len(data) < 256 \
        and word.isascii() else []
    ways += [bytes([code | flag]) + len(data).to_bytes(4, "little") + data for code in b"aAut" for flag in (0, 0x80)]
    return tuple(ways)


def _read_from_tables(compiled, word: str) -> bool:
    """Whether the rules read, in some game, a table's cell holding ``word`` (its row's key, that column)."""
    for d in compiled.symbols.tables.values():
        for row in d.rows:
            for column, cell in zip(d.columns[1:], row.values[1:]):
                if isinstance(cell, ast.Name) and cell.id == word and row.values \
                        and _key(row.values[0]) in compiled.columns[column].read:
                    return True
    return False


def _read_as_key(compiled, key, table: Optional[str] = None) -> bool:
    """Whether, in some game, the rules read a field of ``key`` (``x.points`` with x == key) or its row
    whole: of ``table``'s columns, or any table's."""
    tables = [compiled.symbols.tables[table]] if table is not None else compiled.symbols.tables.values()
    return any(key in compiled.rows[d.name].read or any(key in compiled.columns[c].read for c in d.columns[1:])
               for d in tables)


def _key(cell):
    return cell.id if isinstance(cell, ast.Name) else getattr(cell, "value", None)
