"""A variant's errata: one part of a base declaration amended in place, so nothing is copied.

    in def rules_of, add arm:                 one arm more for the def's match
        double_back: move_rules(backwards: true)
    in procedure play_action, add:            one branch more for its if/elif chain
        elif c.action == double_back: ...
    in step "rescue", add [before "TEXT"]:    alternatives more for the step's choose:
    in step "rescue", replace "TEXT":         ... one alternative in place of another
    in step "rescue", remove "TEXT"           ... one alternative fewer
    in step "rescue", replace NAME:           ... the alternative given that name ("TEXT" as NAME:)
    retire step "S" / procedure p / def f     a base part taken out (the checker asks no call of it)
    base(...)                                 in a def or procedure that replaces the base's, its own version
    base.f(...)                               anywhere in the variant: the base's version of f, which it replaces

The place (``def``, ``procedure``, ``step`` or a block) says where to look; the arm's values, the
elif's subject, the alternative's text say which match, chain or choice there. Anything that does not
fit (no such alternative, a value the base already handles, a part retired but still called) is an error
at the variant's line, naming the base's line.
"""
from __future__ import annotations

import attrs

from rulewright.dsl import ast
from rulewright.dsl.errors import Diagnostic, suggest
from rulewright.interpreter.check.dispatch import _fixed_value, _tests, _NOT_FIXED
from rulewright.interpreter.engine.builtin_names import BASE_CALL



def base_name(name: str, taken) -> str:
    """The name the base's version of a replaced def or procedure is kept under (no rules name has '@'),
    one not ``taken`` yet: a variant of a variant keeps each version."""
    kept = f"{name}@base"
    while kept in taken:
        kept += "@base"
    return kept


def calls_base(d) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == BASE_CALL
               for n in ast.walk(d.body if isinstance(d.body, tuple) else (d.body,)))


def to_base(d, kept: str):
    """``d`` with its ``base(...)`` calls calling the base's version, kept under the name ``kept``."""
    def change(n):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == BASE_CALL:
            return attrs.evolve(n, func=attrs.evolve(n.func, id=kept))
        return n
    return attrs.evolve(d, body=ast.rewrite(d.body, change))


def base_of_calls(decls) -> dict:
    """Each name called as ``base.X(...)`` in ``decls`` (the base's own version of another replaced def or
    procedure), with its first call."""
    found: dict = {}
    for n in ast.walk(tuple(decls)):
        if _is_base_of(n):
            found.setdefault(n.func.name, n)
    return found


def base_of_uncalled(decls) -> list:
    """Each ``base.X`` in ``decls`` that is not called (``base.X + 1``): the base's version is only called."""
    called = {id(n.func) for n in ast.walk(tuple(decls)) if _is_base_of(n)}
    return [n for n in ast.walk(tuple(decls)) if isinstance(n, ast.Attr) and isinstance(n.obj, ast.Name)
            and n.obj.id == BASE_CALL and id(n) not in called]


def _is_base_of(n) -> bool:
    return (isinstance(n, ast.Call) and isinstance(n.func, ast.Attr) and isinstance(n.func.obj, ast.Name)
            and n.func.obj.id == BASE_CALL)


def to_base_of(d, kept: dict):
    """``d`` with its ``base.X(...)`` calls calling X's base version, kept under the name ``kept[X]``."""
    def change(n):
        if _is_base_of(n) and n.func.name in kept:
            return attrs.evolve(n, func=ast.Name(kept[n.func.name], span=n.func.span))
        return n
    return ast.rewrite(d, change)


def _where(span) -> str:
    return f"{span.file}:{span.line}"


def _written(place) -> str:
    """A place as the errata write it: def f, procedure p, step "S", turn."""
    kind, name = place[0], place[1]
    return f'step "{name}"' if kind == "step" else name if kind == "block" else f"{kind} {name}"


# each change as an erratum writes it
_CHANGE_WORDS = {"arms": "add arm:", "branches": "add:", "add": "add:", "replace": "replace ...:", "remove": "remove ..."}


def _address(alt) -> str:
    """How an erratum names ``alt``: its name when it has one, else its text."""
    return alt.name if alt.name is not None else f'"{alt.label}"'


def _changes(d, retired: ast.Retire) -> bool:
    """``d``, a piece of the variant, changes (or retires before) what ``retired`` retires: the step
    (of its holder, when either names one), or the procedure or def."""
    if isinstance(d, ast.Retire):
        return ((d.kind, d.name, d.place) == (retired.kind, retired.name, retired.place)
                and (d.span.line, d.span.column) < (retired.span.line, retired.span.column))
    if retired.kind != "step":
        kind = {"procedure": ast.ProcDecl, "def": ast.DefDecl}[retired.kind]
        return (isinstance(d, kind) and d.name == retired.name
                or isinstance(d, ast.Amend) and d.place[:2] == (retired.kind, retired.name))
    if isinstance(d, ast.StepOverlay):
        at = (d.label, d.place)
    elif isinstance(d, ast.Amend) and d.place[0] == "step":
        at = (d.place[1], d.place[2])
    else:
        return False
    return at[0] == retired.name and (retired.place is None or at[1] is None or at[1] == retired.place)


class _Part:
    """A match, an if/elif chain or a choice of a base declaration that errata may amend, with the labels of
    the steps around it and what the errata have made of it so far."""

    def __init__(self, node, steps: frozenset):
        self.node, self.steps = node, steps
        self.gone = False   # inside an alternative an erratum took out
        self.added: list = []       # arms or branches the errata add, in order
        self.amended_at: list = []  # the errata that changed a choice's alternatives
        self.facts = None           # a match's (values, enums), a chain's (subject, values) or None: see Errata
        if isinstance(node, ast.ChooseBlock):
            # a choice's alternatives as amended: those put before each (by id), those at the end, those taken
            # out; put in order once, when written (finding a place in a list would cost a pass each)
            self.before: dict = {}
            self.at_end: list = []
            self.taken_out: set = set()
            self.count = len(node.alternatives)
            self.by_label = {a.label: a for a in node.alternatives}
            self.by_name = {a.name: a for a in node.alternatives if a.name is not None}

    def addressed(self, target):
        """The alternative an erratum names: by the name it was given, or by its text as written."""
        return self.by_name.get(target.id) if isinstance(target, ast.Name) else self.by_label.get(target)

    def put(self, items, before=None, out=None):
        """``items`` put before the alternative ``before`` (None: at the end), and ``out`` taken out."""
        (self.at_end if before is None else self.before.setdefault(id(before), [])).extend(items)
        self.count += len(items)
        for a in items:
            self.by_label[a.label] = a
            if a.name is not None:
                self.by_name[a.name] = a
        if out is not None:
            self.taken_out.add(id(out))
            self.count -= 1
            if self.by_label.get(out.label) is out:
                del self.by_label[out.label]
            if out.name is not None and self.by_name.get(out.name) is out:
                del self.by_name[out.name]

    @property
    def alternatives(self) -> list:
        """The alternatives in order: each after those put before it, the added ones last."""
        out, pending = [], [(a, False) for a in reversed(self.node.alternatives + tuple(self.at_end))]
        while pending:  # those put before one may have others put before them: a stack, not recursion
            a, placed = pending.pop()
            if placed:
                if id(a) not in self.taken_out:
                    out.append(a)
                continue
            pending.append((a, True))
            pending.extend((b, False) for b in reversed(self.before.get(id(a), ())))
        return out

    def amended(self):
        n = self.node
        if isinstance(n, ast.Match):
            return attrs.evolve(n, arms=n.arms + tuple(self.added))
        if isinstance(n, ast.If):
            return attrs.evolve(n, branches=n.branches + tuple(self.added))
        return attrs.evolve(n, alternatives=tuple(self.alternatives), amended_at=n.amended_at + tuple(self.amended_at))


class _Parts:
    """The parts of one declaration that errata may amend, found in one walk. The errata change the parts
    here, and the declaration is written once, when every erratum is read: many errata on one place cost
    one walk and one copy of it, not one each (a hostile review: 1,500 errata took minutes)."""

    _KINDS = (ast.Match, ast.If, ast.ChooseBlock)

    def __init__(self, decl):
        self.decl = decl
        self.of_kind: dict = {k: [] for k in self._KINDS}
        self.by_id: dict = {}
        self.find(decl.body, frozenset())

    def find(self, root, steps: frozenset):
        """Index the parts under ``root`` (a base's body, or what an erratum adds inside ``steps``)."""
        pending = [(root, steps)]
        while pending:
            n, labels = pending.pop()
            if isinstance(n, ast.Step):
                labels = labels | {n.label}
            elif isinstance(n, self._KINDS):
                part = self.by_id[id(n)] = _Part(n, labels)
                self.of_kind[type(n)].append(part)
            pending.extend((x, labels) for x in reversed(ast.parts(n)))

    def take_out(self, root):
        """The parts under ``root`` (an alternative taken out) are no longer there to amend."""
        for n in ast.walk(root):
            part = self.by_id.get(id(n))
            if part is not None:
                part.gone = True

    def in_place(self, kind, step) -> list:
        """The parts of ``kind`` in the step labelled ``step`` (None: anywhere in the declaration)."""
        return [p for p in self.of_kind[kind] if not p.gone and (step is None or step in p.steps)]

    def written(self):
        changed = {id(p.node): p.amended() for parts in self.of_kind.values() for p in parts
                   if p.added or p.amended_at}
        return attrs.evolve(self.decl, body=ast.put_back(self.decl.body, changed)) if changed else self.decl


class Errata:
    """Applies the errata and retirements of a variant to the merged declarations (``merge.merged``): first
    every erratum (``amend``, then ``finish`` writes the declarations they changed), then the retirements
    (``retire``, then ``finish``)."""

    def __init__(self, merge):
        self.m = merge
        self.retired: list = []  # the 'retire procedure/def' pieces applied
        self.steps_out: list = []  # the steps retired: (key, label, change), written by finish()
        self.amended: dict = {}  # key -> _Parts: the declarations the errata change, written by finish()
        self.places: dict = {}   # an erratum's place -> (key, step label) or the error it gave: looked up once
        self._words = self._member_enum = None  # read from the merged declarations when first needed

    # ------------------------------------------------------------------ where
    def _place(self, piece):
        """(key, step label or None) that ``piece.place`` names, or None after an error (said again at
        each erratum naming that place, not looked for again)."""
        known = self.places.get(piece.place)
        if isinstance(known, Diagnostic):
            self.m.error(piece.span, known.message, known.hint)
            return None
        if known is not None:
            return known
        errors = len(self.m.errors)
        found = self._find_place(piece)
        self.places[piece.place] = found if found is not None else self.m.errors[errors]
        return found

    def _find_place(self, piece):
        kind, name = piece.place[0], piece.place[1]
        if kind == "step":
            found = self.m.find_step(piece.span, name, piece.place[2])
            return None if found is None else (found[0], name)
        key = {"def": ("DefDecl", name), "procedure": ("ProcDecl", name), "block": ("block", name)}[kind]
        if key not in self.m.merged:
            have = [k[1] for k in self.m.merged if k[0] == key[0]]
            self.m.error(piece.span, f"the base has no {kind} '{name}'",
                         self._other_kind(kind, name, f"in {{kind}} {name}, {_CHANGE_WORDS[piece.change]}")
                         or suggest(name, have))
            return None
        return key, None

    def _other_kind(self, kind: str, name: str, written: str) -> str:
        """The hint when ``name`` is the base's def named as a procedure, or its procedure named as a def."""
        other = {"def": ("ProcDecl", "procedure"), "procedure": ("DefDecl", "def")}.get(kind)
        if other is None or (other[0], name) not in self.m.merged:
            return ""
        if other[1] == "def" and not written.endswith(("add arm:", f"def {name}")):  # a def takes arms only
            written = f"in def {name}, add arm: (a def has no chain or choice), or write the def again"
        return f"'{name}' is a {other[1]} in the base, not a {kind}: {written.format(kind=other[1])}"

    def _what(self, kind, name) -> str:
        return f"step '{name}'" if kind == "step" else f"{kind} '{name}'"

    # ------------------------------------------------------------------ in PLACE, CHANGE
    def amend(self, piece: ast.Amend):
        if piece.place[0] == "def" and piece.change != "arms" and ("DefDecl", piece.place[1]) in self.m.merged:
            # a def is one expression: no chain, no choice
            self.m.error(piece.span, f"a def gives a value and has no if/elif chain or 'choose:' to amend",
                         f"add an arm to its match (in def {piece.place[1]}, add arm:), or write the def again")
            return
        where = self._place(piece)
        if where is None:
            return
        key, step = where
        if key not in self.amended:
            self.amended[key] = _Parts(self.m.merged[key])
        parts = self.amended[key]
        what = self._what(piece.place[0], piece.place[1])
        if piece.change == "arms":
            self._arms(piece, parts, step, what)
        elif piece.change == "branches":
            self._branches(piece, parts, step, what)
        else:
            self._alternatives(piece, parts, step, what)

    def _own(self, piece, parts) -> str:
        """The hint when the def or procedure amended is the variant's own replacement, not the base's."""
        d = parts.decl
        if piece.place[0] not in ("def", "procedure") or d.span.file != self.m.variant.filename:
            return ""
        return (f"this variant's own {piece.place[0]} at line {d.span.line} replaces the base's, and an erratum "
                "amends it as the variant writes it: write the change into it, or amend the base's without "
                "replacing it")

    def finish(self):
        """Write each declaration the errata changed or a step retired from, once."""
        for key, parts in self.amended.items():
            self.m.merged[key] = parts.written()
        self.amended.clear()
        self.m.change_steps(self.steps_out)
        self.steps_out.clear()

    def _enum_of(self, value):
        if self._member_enum is None:  # the first enum naming it, as the merged declarations are ordered
            self._member_enum = {}
            for k, e in self.m.merged.items():
                if k[0] == "EnumDecl":
                    for member in e.members:
                        self._member_enum.setdefault(member, k[1])
        return self._member_enum.get(value) if isinstance(value, str) else None

    def _match_facts(self, part):
        """(the values its arms name, the enums they are of), kept as arms are added."""
        if part.facts is None:
            values = [_fixed_value(p) for patterns, _v in part.node.arms for p in patterns]
            part.facts = (set(values), {self._enum_of(v) for v in values})
        return part.facts

    def _arms(self, piece, parts, step, what):
        new = [_fixed_value(p) for patterns, _v in piece.items for p in patterns]
        if _NOT_FIXED in new:
            self.m.error(piece.span, "an added arm names values (an enum's member, a text, a number)")
            return
        matches = [p for p in parts.in_place(ast.Match, step) if p.node.subject is not None]
        sets = {self._enum_of(v) for v in new}

        def fits(p):  # a match over the same enum; where kinds are unknown, the place's only match
            enums = self._match_facts(p)[1]
            return enums == sets if enums != {None} else sets == {None} and len(matches) == 1
        chosen = [p for p in matches if fits(p)]
        if not chosen and len(matches) == 1 and self._match_facts(matches[0])[1] != {None}:
            m, over = matches[0], sorted(map(str, self._match_facts(matches[0])[1] - {None}))
            self.m.error(piece.span, f"the arm's {', '.join(repr(v) for v in new)} is not of the enum the match at "
                         f"{_where(m.node.span)} is over ({', '.join(over)})",
                         "an added arm is for a new member of that enum (add it with 'add to enum')")
            return
        if not chosen:
            self.m.error(piece.span, f"the {what} has no match over {', '.join(repr(v) for v in new)}'s values"
                         f" to add an arm to" if matches else f"the {what} has no match to add an arm to",
                         self._own(piece, parts) or "an arm goes in a 'match x { ... }' of the place named")
            return
        if len(chosen) > 1:
            lines = ", ".join(_where(p.node.span) for p in chosen)
            self.m.error(piece.span, f"the {what} has several matches these arms could join ({lines})",
                         "name a smaller place: a def or a step holding one of them")
            return
        m = chosen[0]
        have, enums = self._match_facts(m)
        for v in new:
            if v in have:
                self.m.error(piece.span, f"the match at {_where(m.node.span)} already has an arm for {v!r}",
                             "an erratum adds arms for new values; to change the base's arm, replace the def")
                return
        m.added.extend(piece.items)
        have.update(new)
        enums.update(sets)
        parts.find(piece.items, m.steps)

    def _value_words(self) -> set:
        """The words that are values (enum members, option values, table keys), as the checker's dispatches
        read them: a bare name that is none of them is a chain's subject (elif k == green:)."""
        if self._words is not None:
            return self._words
        words: set = set()
        for d in self.m.merged.values():
            if isinstance(d, ast.EnumDecl):
                words.update(d.members)
            elif isinstance(d, ast.OptionDecl):
                words.update(_fixed_value(v) for v in d.values)
            elif isinstance(d, ast.TableDecl):
                words.update(_fixed_value(r.values[0]) for r in d.rows if r.values)
        self._words = {w for w in words if isinstance(w, str)}
        return self._words

    def _chain_facts(self, part):
        """(the subject every test of the if/elif compares, the values they name), or () when it is no chain."""
        if part.facts is None:
            got = [_tests(cond, self._value_words()) for cond, _b in part.node.branches]
            subject = got[0][0] if got[0] is not None else None
            chain = all(g is not None and g[0] == subject for g in got)
            part.facts = (subject, {v for g in got for v in g[1]}) if chain else ()
        return part.facts

    def _branches(self, piece, parts, step, what):
        tested = []
        for cond, _body in piece.items:
            got = _tests(cond, self._value_words())
            if got is None:
                self.m.error(piece.span, "an added branch compares the chain's subject with values "
                             "(elif x == v:, elif x in [v, w]:)")
                return
            tested.append(got)
        subject = tested[0][0]
        chains = [p for p in parts.in_place(ast.If, step) if self._chain_facts(p) and self._chain_facts(p)[0] == subject]
        if not chains:
            self.m.error(piece.span, f"the {what} has no if/elif chain over this subject to add a branch to",
                         self._own(piece, parts)
                         or "the chain's tests compare one subject with values: if x == a: ... elif x == b: ...")
            return
        if len(chains) > 1:
            lines = ", ".join(_where(p.node.span) for p in chains)
            self.m.error(piece.span, f"the {what} has several chains over this subject ({lines})",
                         "name a smaller place: a procedure or a step holding one of them")
            return
        s = chains[0]
        have = self._chain_facts(s)[1]
        for _subject, values in tested:
            for v in values:
                if v in have:
                    self.m.error(piece.span, f"the chain at {_where(s.node.span)} already has a branch for {v!r}",
                                 "an erratum adds branches for new values; replace the step or procedure "
                                 "to change the base's")
                    return
        s.added.extend(piece.items)
        have.update(v for _subject, values in tested for v in values)
        parts.find(piece.items, s.steps)

    def _alternatives(self, piece, parts, step, what):
        blocks = parts.in_place(ast.ChooseBlock, step)
        if not blocks:
            self.m.error(piece.span, f"the {what} has no 'choose:' between alternatives", self._own(piece, parts))
            return
        target = piece.target
        if target is not None:
            named = [b for b in blocks if b.addressed(target) is not None]
            if not named:
                self._no_alternative(piece, what, target, [a for b in blocks for a in b.alternatives])
                return
            blocks = named
        if len(blocks) > 1:
            self.m.error(piece.span, f"the {what} has several choices "
                         f"({', '.join(_where(b.node.span) for b in blocks)})",
                         "name one of its alternatives: add before \"...\", or a smaller place")
            return
        b = blocks[0]
        found = b.addressed(target) if target is not None else None
        out = found if piece.change in ("replace", "remove") else None  # the alternative taken out
        items = piece.items
        if piece.change == "replace" and len(items) == 1 and items[0].name is None:
            items = (attrs.evolve(items[0], name=out.name),)  # one in place of one: the name still holds
        for i, a in enumerate(items):
            same = next((k for k in (b.by_label.get(a.label), b.by_name.get(a.name) if a.name is not None else None)
                         if k is not None and k is not out), None)
            if same is not None:
                what_same = f"an alternative {a.label!r}" if same.label == a.label else f"an alternative named '{a.name}'"
                self.m.error(a.span, f"the choice at {_where(b.node.span)} already has {what_same}",
                             f"replace it: in {_written(piece.place)}, replace {_address(same)}:")
                return
            same = next((k for k in items[:i] if k.label == a.label or (a.name is not None and k.name == a.name)), None)
            if same is not None:
                self.m.error(a.span, f"two alternatives of this erratum are "
                             + (f"both {a.label!r}" if same.label == a.label else f"named '{a.name}'"),
                             "give each its own text and name")
                return
        if piece.change == "remove" and b.count == 1:
            self.m.error(piece.span, f"the choice at {_where(b.node.span)} would be left with no alternative",
                         "retire its step instead")
            return
        b.put(items, found, out)
        if out is not None:
            parts.take_out(out)
            self.m.take_out(piece.span, out)
        b.amended_at.append(piece.span)
        parts.find(items, b.steps)

    def _no_alternative(self, piece, what, target, alternatives):
        """No alternative of the place is the one named: say so, and list them as an erratum names them."""
        listed = "; ".join(_address(a) for a in alternatives)
        if isinstance(target, ast.Name):
            missing, near = f"named '{target.id}'", suggest(target.id, [a.name for a in alternatives if a.name])
            listing = f"its alternatives: {listed} (a name is given with: \"TEXT\" as NAME:)"
        else:
            missing, near = repr(target), suggest(target, [a.label for a in alternatives])
            listing = (f"its alternatives, as written: {listed} (each named by its text exactly, {{holes}} and all, "
                       "or by the name it is given with 'as')")
        self.m.error(piece.span, f"the {what} has no alternative {missing}", (near + "; " if near else "") + listing)

    # ------------------------------------------------------------------ retire
    def retire(self, piece: ast.Retire):
        changed = next((d for d in self.m.variant.decls if _changes(d, piece)), None)
        what = f"the {piece.kind} {piece.name!r}"
        if isinstance(changed, ast.Retire):
            self.m.error(piece.span, f"{what} is retired twice: first at line {changed.span.line}",
                         "take out one of the two")
            return
        if changed is not None and getattr(changed, "mode", "") in ("before", "after"):
            # it would run on where the step was: a retired step leaves nothing behind
            self.m.error(piece.span, f"{what} is retired here, but this variant's "
                         f"'{changed.mode} step' at line {changed.span.line} still runs where it was",
                         f"take out the '{changed.mode} step' too, or keep the step")
            return
        if changed is not None:  # what the variant writes into it would go with it, unsaid
            self.m.error(piece.span, f"{what} is retired here, but this variant changes it at "
                         f"line {changed.span.line}: {self.m.source_line(changed.span).strip()}",
                         f"take out the change too, or keep the {piece.kind}")
            return
        if piece.kind == "step":
            found = self.m.find_step(piece.span, piece.name, piece.place)
            if found is not None:
                def leave_pass(s):  # a step taken out leaves 'pass' behind: the block around it keeps a statement
                    self.m.take_out(piece.span, s)
                    return (ast.Pass(span=s.span),)
                self.steps_out.append((found[0], piece.name, leave_pass))
            return
        key = ("ProcDecl" if piece.kind == "procedure" else "DefDecl", piece.name)
        gone = self.m.merged.pop(key, None)
        if gone is None:
            have = [k[1] for k in self.m.merged if k[0] == key[0]]
            self.m.error(piece.span, f"the base has no {piece.kind} '{piece.name}' to retire",
                         self._other_kind(piece.kind, piece.name, f"retire {{kind}} {piece.name}")
                         or suggest(piece.name, have))
            return
        self.m.take_out(piece.span, gone)
        self.retired.append(piece)

    def still_used(self, decls):
        """A retired procedure or def that the game still calls: an error at the 'retire' line."""
        for piece in self.retired:
            use = next((n for n in ast.walk(tuple(decls)) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                        and n.func.id == piece.name), None)
            if use is not None:
                line = self.m.source_line(use.span)
                self.m.error(piece.span, f"the {piece.kind} '{piece.name}' is retired here but still called at "
                             f"{_where(use.span)}: {line.strip()}",
                             "retire or amend what calls it too, or keep it")
