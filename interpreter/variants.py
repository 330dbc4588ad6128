"""Variants: a rules file that ``extends`` a base is laid over it, declaration by declaration.

A variant may replace any declaration by declaring the same kind and name again (a def, a procedure, a
block such as ``turn:``, an option, a table...), add new ones, and change the base in small pieces:

    step "Fire" [in turn]:         replace one step of a block or procedure
    before step "Fire":            put statements just before it
    after step "Fire":             ... or just after it
    add to table cards:            more rows
    add to option speed: 5 | 6     more values
    add to option speed: 5 default 5      ... and another default
    add to enum colour: purple     more members

Every value a variant adds (a member, an option value, a row, or a column or row of a table it writes
again whole) is kept with the line that adds it (``derived["added"]``), so that the checker can name
that line wherever the base's rules let the value fall to a catch-all (interpreter/check/dispatch.py),
and where nothing produces or reads it (interpreter/check/reach.py).

A piece that names something the base does not have is an error, with a "did you mean", and so is a new
declaration that nothing uses while its name is close to one of the base's (a misspelled override would
otherwise change nothing). Every merged declaration keeps the span of the file it comes from.
"""
from __future__ import annotations

import collections
import difflib
import functools
import os
import stat
from pathlib import Path

import attrs

from rulewright.dsl import ast
from rulewright.dsl.errors import Diagnostic, OptionError, RulesCompileError, suggest
from rulewright.interpreter.shipped import shipped_game
from rulewright.dsl.parser import MAX_RULES_BYTES, parse
from rulewright.interpreter.check.dispatch import Added
from rulewright.interpreter.check.symbols import uses
from rulewright.interpreter.errata import (BASE_CALL, Errata, base_name, base_of_calls, base_of_uncalled, calls_base,
                                          to_base, to_base_of)

_SINGLE = (ast.GameDecl, ast.PlayersDecl, ast.RankDecl, ast.TeamsDecl, ast.DisplayDecl, ast.ScreenDecl,
           ast.ObserveDecl, ast.Extends)
_PIECES = (ast.StepOverlay, ast.AddRows, ast.AddValues, ast.AddMembers, ast.Amend, ast.Retire)
_KIND_WORDS = {"DefDecl": "def", "ProcDecl": "procedure", "VarDecl": "variable", "OptionDecl": "option",
               "TableDecl": "table", "RecordDecl": "record", "EnumDecl": "enum", "BoardDecl": "board"}


def decl_key(d, i):
    if isinstance(d, _SINGLE):
        return (type(d).__name__,)
    if isinstance(d, ast.BlockDecl):
        return ("block", d.kind)
    name = getattr(d, "name", None)
    if name is not None:
        return (type(d).__name__, name)
    return (type(d).__name__, i)


def read_rules(path, named_by_user: bool = True) -> str:
    """The text of a rules file (see read_bounded)."""
    return read_bounded(path, MAX_RULES_BYTES, "rules", named_by_user)


def read_bounded(path, limit: int, what: str, named_by_user: bool = True) -> str:
    """The text of a file of at most ``limit`` bytes; a refusal names the file, never its content. A file
    named by another file (``extends``) must be a regular file, never a device, a pipe that would block,
    or /proc's files; one the user names may be a pipe (``--moves <(...)``, /dev/stdin)."""
    path = Path(path)
    try:
        info = os.stat(path)
    except OSError as exc:
        raise OptionError(f"cannot read {path}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL in the name (from a protocol request): no file has that name
        raise OptionError(f"cannot read {str(path)!r}: a file name holds no NUL character") from None
    if stat.S_ISDIR(info.st_mode) or not named_by_user and not stat.S_ISREG(info.st_mode):
        raise OptionError(f"{path} is not a regular file, so it is not read as {what}")
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise OptionError(f"{path} is larger than {limit:,} bytes, too large for {what}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise OptionError(f"{path} is not a text file in UTF-8, so it is not read as {what}") from None


def base_file(name: str, referrer: Path, shipped: dict) -> Path:
    """Where ``extends "NAME"`` in ``referrer`` leads: a shipped game by its name, or a ``.rules`` file
    under the referrer's own folder (its subfolders too), never a path outside it, absolute, or through
    a link that leads outside. Rules from a stranger can then read no other file of the machine."""
    if not name.endswith(".rules"):
        return shipped_game(name, shipped, "; a file's name ends in '.rules'")
    return inside(name, referrer.resolve().parent, "the variant's folder")


def inside(name: str, folder: Path, what: str) -> Path:
    """``name``, a relative path, as a regular file under ``folder``; anything else is refused."""
    relative = Path(name)
    if relative.is_absolute() or ".." in relative.parts:
        raise OptionError(f"{name!r} is not a path inside {what}; only shipped games and .rules files "
                          f"in {what} or below it can be named")
    found = (folder / relative).resolve()
    if not found.is_relative_to(folder):
        raise OptionError(f"{name!r} leads outside {what} (through a link); it is not read")
    if not found.exists():
        raise OptionError(f"no rules file at {folder / relative}")
    return found


def apply_extends(rules: ast.RulesFile, path: Path, find, chain: tuple = ()) -> ast.RulesFile:
    """The whole game a rules file makes: itself laid over its base (and the base's base...).
    ``find()`` gives the shipped games by name; other bases are files beside ``path`` (``base_file``)."""
    base = next((d for d in rules.decls if isinstance(d, ast.Extends)), None)
    pieces = [d for d in rules.decls if isinstance(d, _PIECES)]
    if base is None:
        if pieces:
            raise RulesCompileError([_diagnostic(rules, pieces[0].span, "only a variant changes a base's steps, "
                                                 "tables or options this way", "start the file with: extends \"base\"")])
        return rules
    second = [d for d in rules.decls if isinstance(d, ast.Extends)][1:]
    if second:  # one base a file: a second would be dropped without a word
        raise RulesCompileError([_diagnostic(rules, second[0].span, f"a variant extends one base: this file "
                                             f"already extends {base.base!r} (line {base.span.line})",
                                             "extend one of them (a variant may extend another variant, which extends its own base)")])
    chain = chain + (path.resolve(),)
    try:
        base_path = base_file(base.base, path, find())
        text = read_rules(base_path, named_by_user=False)
    except OptionError as exc:  # point at the 'extends' line
        raise RulesCompileError([_diagnostic(rules, base.span, str(exc))]) from None
    if base_path.resolve() in chain:
        names = " -> ".join(p.name for p in chain + (base_path.resolve(),))
        raise RulesCompileError([_diagnostic(rules, base.span, f"these rules extend themselves: {names}")])
    base_rules = apply_extends(parse(text, str(base_path)), base_path, find, chain)
    merged = _Merge(base_rules, rules)
    decls = merged.run()
    sources = {**base_rules.sources, **rules.sources}
    out = ast.RulesFile(rules.filename, rules.source + base_rules.source, tuple(decls), sources)
    out.derived["added"] = base_rules.derived.get("added", []) + merged.added
    out.derived["taken out"] = base_rules.derived.get("taken out", []) + merged.taken_out
    out.derived["base"] = base_rules  # what the base says alone (check/blame.py), until it is checked
    if merged.errors:
        raise RulesCompileError(merged.errors)
    return out


def _diagnostic(rules: ast.RulesFile, span: ast.Span, message: str, hint: str = "") -> Diagnostic:
    return Diagnostic(message, span.file, span.line, span.column, rules.source_line(span), hint)


class _Merge:
    def __init__(self, base: ast.RulesFile, variant: ast.RulesFile):
        self.base, self.variant = base, variant
        self.errors: list[Diagnostic] = []
        self.added: list = []  # dispatch.Added: each value the variant adds, with its line
        self.merged: dict = {decl_key(d, ("base", i)): d for i, d in enumerate(base.decls)}
        self.kept: dict = {}  # a replaced def or procedure -> the name its base version is kept under
        self.taken_out: list = []  # (a piece's span, the names the base code it takes out calls)
        self._label_counts: dict = {}  # id of a block or procedure -> (it, its steps' labels counted)

    def error(self, span, message, hint=""):
        self.errors.append(Diagnostic(message, span.file, span.line, span.column, self.source_line(span), hint))

    def take_out(self, span, node):
        """``node``, base code that the variant's piece at ``span`` takes out: the names it called are kept
        with the piece, so that a procedure no longer called is said at the piece (check/structure_checks.py)."""
        called = {n.func.id for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        if called:
            self.taken_out.append((span, called))

    def source_line(self, span) -> str:
        for rules in (self.variant, self.base):
            if span.file in rules.sources:
                return rules.source_line(span)
        return ""

    def run(self) -> list:
        own = self._base_versions(list(self.variant.decls))
        new = []
        for i, d in enumerate(own):
            if isinstance(d, (ast.Extends,) + _PIECES):
                continue
            key = decl_key(d, ("variant", i))
            old = self.merged.get(key)
            if old is None and hasattr(d, "name"):
                new.append(d)
            elif old is not None:
                self._same_shape(old, d)
            if isinstance(d, (ast.DefDecl, ast.ProcDecl)) and d.name == BASE_CALL:  # base(...) would not reach it
                self.error(d.span, f"a variant's {_KIND_WORDS[type(d).__name__]} cannot be named '{BASE_CALL}': "
                           f"{BASE_CALL}(...) calls the base's own version of the def or procedure it stands in",
                           "give it another name")
            elif isinstance(d, (ast.DefDecl, ast.ProcDecl)) and calls_base(d) and type(old) is not type(d):
                self.error(d.span, f"base(...) calls the base's own version of '{d.name}', but the base has "
                           f"no {_KIND_WORDS[type(d).__name__]} '{d.name}' that this one replaces",
                           "base(...) is for a def or procedure that replaces the base's of the same name")
            elif isinstance(d, (ast.DefDecl, ast.ProcDecl)) and d.name in self.kept:
                self.merged[(type(d).__name__, self.kept[d.name])] = attrs.evolve(old, name=self.kept[d.name])
                d = to_base(d, self.kept[d.name])
            elif old is not None:
                self.take_out(d.span, old)
            self.merged[key] = d
            if isinstance(d, ast.ScreenDecl) and d.board is not None:
                self.merged.pop(("DisplayDecl",), None)  # its 'board' line draws the spaces instead
            if isinstance(d, ast.DisplayDecl):
                screen = self.merged.get(("ScreenDecl",))
                if screen is not None and screen.board is not None:  # the base's 'board' line gives way
                    self.merged[("ScreenDecl",)] = attrs.evolve(screen, board=None)
        self._steps([d for d in own if isinstance(d, ast.StepOverlay)])
        for d in own:
            if isinstance(d, ast.AddRows):
                self._rows(d)
            elif isinstance(d, ast.AddValues):
                self._values(d)
            elif isinstance(d, ast.AddMembers):
                self._members(d)
        errata = Errata(self)
        for d in own:
            if isinstance(d, ast.Amend):
                errata.amend(d)
        errata.finish()
        for d in own:
            if isinstance(d, ast.Retire):
                errata.retire(d)
        errata.finish()
        decls = list(self.merged.values())
        self._unused(new, decls)
        errata.still_used(decls)
        return decls

    def _base_versions(self, own: list) -> list:
        """The variant's declarations with base.X(...) calling X's base version; ``self.kept``: the name
        each base version called (by base(...) or base.X(...)) is kept under."""
        wanted = base_of_calls(own)
        replacing = {d.name: d for d in own if isinstance(d, (ast.DefDecl, ast.ProcDecl))
                     and type(self.merged.get((type(d).__name__, d.name))) is type(d)}
        for attr in base_of_uncalled(own):
            base = self.merged.get(("DefDecl", attr.name)) or self.merged.get(("ProcDecl", attr.name))
            if base is not None:  # a local named 'base' may have fields: only a def's or procedure's name is meant
                call = f"{attr.name}({', '.join(base.params)})"
                self.error(attr.span, f"base.{attr.name} names the base's own version of '{attr.name}' without "
                           "calling it", f"call it: base.{call}" if attr.name in replacing else
                           f"call it: {call} (what a variant does not replace is the base's own)")
        for name, call in wanted.items():
            if name not in replacing:
                base = next((k[0] for k in (("DefDecl", name), ("ProcDecl", name)) if k in self.merged), None)
                self.error(call.span, f"base.{name}(...) calls the base's own version of '{name}', but " +
                           (f"this variant does not replace the base's {_KIND_WORDS[base]} '{name}'" if base else
                            f"the base has no def or procedure '{name}'"),
                           f"call {name}(...): what a variant does not replace is the base's own" if base else
                           suggest(name, [k[1] for k in self.merged if k[0] in ("DefDecl", "ProcDecl")
                                          and "@" not in k[1]]))
        for name, d in replacing.items():
            if calls_base(d) or name in wanted:
                self.kept[name] = base_name(name, {k[1] for k in self.merged if k[0] == type(d).__name__})
        return [to_base_of(d, self.kept) for d in own]

    # ------------------------------------------------------------------ replacing whole declarations
    def _same_shape(self, old, d):
        """An override of a def or a procedure keeps its parameters: the base's calls still fit. A table, an
        enum or an option written again whole adds the columns, rows, members and values the base's has not
        (kept as added: check/dispatch.py, check/reach.py)."""
        if isinstance(d, ast.TableDecl) and isinstance(old, ast.TableDecl):
            self.added.extend(Added(c, "column", d.name, d.span) for c in d.columns if c not in old.columns)
            keys = {_value(r.values[0]) for r in old.rows if r.values and isinstance(r.values[0], (ast.Name, ast.Literal))}
            for row in d.rows:
                if row.values and isinstance(row.values[0], (ast.Name, ast.Literal)) and _value(row.values[0]) not in keys:
                    self.added.append(Added(_value(row.values[0]), "table", d.name, row.span))
        if isinstance(d, ast.EnumDecl) and isinstance(old, ast.EnumDecl):  # an enum written again with more
            self.added.extend(Added(m, "enum", d.name, d.span) for m in d.members if m not in old.members)
        if isinstance(d, ast.OptionDecl) and isinstance(old, ast.OptionDecl):
            had = [_value(v) for v in old.values]
            self.added.extend(Added(_value(v), "option", d.name, d.span) for v in d.values if _value(v) not in had)
        if isinstance(d, (ast.DefDecl, ast.ProcDecl)) and type(old) is type(d) and len(old.params) != len(d.params):
            was = f"({', '.join(old.params)})"
            self.error(d.span, f"'{d.name}' takes {len(old.params)} argument(s) {was} in the base "
                       f"({old.span.file}:{old.span.line}); this replacement takes {len(d.params)}",
                       f"keep the parameters: {_KIND_WORDS[type(d).__name__]} {d.name}{was}")

    def _unused(self, new: list, decls: list):
        """A new name nothing uses, close to a name of the base: a misspelled replacement."""
        words, fields = uses(decls)
        used = words | fields
        for d in new:
            if d.name in used or not isinstance(d, (ast.DefDecl, ast.ProcDecl, ast.VarDecl, ast.OptionDecl,
                                                    ast.TableDecl)):
                continue
            same_kind = [getattr(b, "name", "") for b in self.base.decls if type(b) is type(d)]
            close = difflib.get_close_matches(d.name, same_kind, n=1, cutoff=0.75)
            if close:
                word = _KIND_WORDS[type(d).__name__]
                self.error(d.span, f"the base has no {word} '{d.name}' to replace, and nothing uses it",
                           f"did you mean '{close[0]}'?")

    # ------------------------------------------------------------------ pieces
    def find_step(self, span, label: str, place):
        """(key, declaration) of the one block or procedure holding the step ``label`` (in ``place``, when
        given), or None after an error at ``span``."""
        places = {}
        for key, d in self.merged.items():
            holder = d.kind if isinstance(d, ast.BlockDecl) else d.name if isinstance(d, ast.ProcDecl) else None
            if holder is not None and (place is None or place == holder):
                if self._labels(d)[label]:
                    places[key] = d
        if not places:
            holders = {d.kind if isinstance(d, ast.BlockDecl) else d.name: d for d in self.merged.values()
                       if isinstance(d, (ast.BlockDecl, ast.ProcDecl))}
            where = f" in '{place}'" if place else ""
            elsewhere = [h for h, d in holders.items() if self._labels(d)[label]]
            if place is not None and elsewhere:  # the right step in the wrong place: say where it is
                self.error(span, f"the base has no step {label!r}{where}",
                           f"it is in {', '.join(elsewhere)}: step \"{label}\" in {elsewhere[0]}"
                           + ("" if place in holders else f" (the base has no block or procedure '{place}')"))
                return None
            every = sorted({lab for d in holders.values() for lab in self._labels(d)})
            self.error(span, f"the base has no step {label!r}{where}",
                       suggest(label, every) or ("its steps: " + ", ".join(every) if every else
                                                 "the base has no steps"))
            return None
        if len(places) > 1 or any(self._labels(d)[label] > 1 for d in places.values()):
            holders = [d.kind if isinstance(d, ast.BlockDecl) else d.name for d in places.values()]
            self.error(span, f"there are several steps {label!r} (in {', '.join(holders)})",
                       f"say which: step \"{label}\" in {holders[0]}:")
            return None
        (key, d), = places.items()
        return key, d

    def _labels(self, d) -> collections.Counter:
        """How many steps of each label the block or procedure ``d`` holds (nested blocks included), worked out
        once for each version of it: find_step asks for every piece naming a step."""
        known = self._label_counts.get(id(d))
        if known is None or known[0] is not d:
            known = self._label_counts[id(d)] = (d, collections.Counter(_labels(d.body)))
        return known[1]

    def change_steps(self, changes: list):
        """Each (key, label, change) applied: the step ``label`` of the declaration ``key`` replaced by
        ``change(step)``, a tuple of statements; each declaration is rewritten once, its changes in order
        (one rewrite each would grow with their number squared)."""
        by_key: dict = {}
        for key, label, change in changes:
            by_key.setdefault(key, {}).setdefault(label, []).append(change)
        for key, by_label in by_key.items():
            self.merged[key] = attrs.evolve(self.merged[key], body=_rewrite(self.merged[key].body, by_label))

    def _steps(self, pieces: list):
        """The variant's 'step', 'before step' and 'after step' pieces, applied to the steps they name."""
        changes = []
        for piece in pieces:
            found = self.find_step(piece.span, piece.label, piece.place)
            if found is not None:
                changes.append((found[0], piece.label, functools.partial(self._overlay, piece)))
        self.change_steps(changes)

    def _overlay(self, piece: ast.StepOverlay, step: ast.Step) -> tuple:
        if piece.mode == "replace":
            self.take_out(piece.span, step.body)
            return (attrs.evolve(step, body=piece.body),)
        return piece.body + (step,) if piece.mode == "before" else (step,) + piece.body

    def _rows(self, piece: ast.AddRows):
        table = self.merged.get(("TableDecl", piece.table))
        if table is None:
            self.error(piece.span, f"the base has no table '{piece.table}'",
                       suggest(piece.table, [k[1] for k in self.merged if k[0] == "TableDecl"]))
            return
        self.merged[("TableDecl", piece.table)] = attrs.evolve(table, rows=table.rows + piece.rows)
        for row in piece.rows:
            if row.values and isinstance(row.values[0], (ast.Name, ast.Literal)):
                self.added.append(Added(_value(row.values[0]), "table", piece.table, row.span))

    def _values(self, piece: ast.AddValues):
        option = self.merged.get(("OptionDecl", piece.option))
        if option is None:
            self.error(piece.span, f"the base has no option '{piece.option}'",
                       suggest(piece.option, [k[1] for k in self.merged if k[0] == "OptionDecl"]))
            return
        have = [_value(v) for v in option.values]
        for v in piece.values:
            if _value(v) in have:
                self.error(v.span, f"option '{piece.option}' already has the value {_value(v)!r}")
            self.added.append(Added(_value(v), "option", piece.option, piece.span))
        values = option.values + piece.values
        if piece.default is not None:  # the first value is the default
            chosen = [v for v in values if _value(v) == _value(piece.default)]
            if not chosen:
                self.error(piece.default.span, f"option '{piece.option}' has no value {_value(piece.default)!r} "
                           "to make the default", "its values: " + ", ".join(str(_value(v)) for v in values))
                return
            values = (chosen[0],) + tuple(v for v in values if v is not chosen[0])
        self.merged[("OptionDecl", piece.option)] = attrs.evolve(option, values=values)

    def _members(self, piece: ast.AddMembers):
        enum = self.merged.get(("EnumDecl", piece.enum))
        if enum is None:
            self.error(piece.span, f"the base has no enum '{piece.enum}'",
                       suggest(piece.enum, [k[1] for k in self.merged if k[0] == "EnumDecl"]))
            return
        for m in piece.members:
            if m in enum.members:
                self.error(piece.span, f"enum '{piece.enum}' already has the member '{m}'")
            self.added.append(Added(m, "enum", piece.enum, piece.span))
        self.merged[("EnumDecl", piece.enum)] = attrs.evolve(enum, members=enum.members + piece.members)


def _value(v):
    return v.id if isinstance(v, ast.Name) else v.value


def _labels(stmts) -> list:
    """Every step label in a block, nested blocks included."""
    return [s.label for s in ast.statements(stmts) if isinstance(s, ast.Step)]


def _rewrite(stmts: tuple, changes: dict) -> tuple:
    """The block with each step whose label ``changes`` holds replaced by what its changes make of it, in
    turn (each gives a tuple of statements, the step among them unless it takes it out)."""
    out: list = []
    for s in stmts:
        if isinstance(s, ast.Step) and s.label in changes:
            made = [s]
            for change in changes[s.label]:
                made = [x for m in made for x in (change(m) if m is s or _same_step(m, s) else (m,))]
            out.extend(made)
        else:
            out.append(ast.with_blocks(s, lambda block: _rewrite(block, changes)))
    return tuple(out)


def _same_step(m, s: ast.Step) -> bool:
    """``m``, made by a change of ``s``, is ``s`` itself as the change left it (its body replaced)."""
    return isinstance(m, ast.Step) and m.label == s.label and m.span == s.span
