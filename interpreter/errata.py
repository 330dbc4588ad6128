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
from rulewright.dsl.errors import suggest
from rulewright.interpreter.check.dispatch import _fixed_value, _tests, _NOT_FIXED

BASE_CALL = "base"  # base(...) inside a replacement: the replaced declaration's own version


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


def _addressed(alt, target) -> bool:
    """``alt`` is the alternative an erratum names: by its text as written, or by the name it was given."""
    return alt.name == target.id if isinstance(target, ast.Name) else alt.label == target


def _address(alt) -> str:
    """How an erratum names ``alt``: its name when it has one, else its text."""
    return alt.name if alt.name is not None else f'"{alt.label}"'


def _changes_step(d, label: str, holder) -> bool:
    """``d``, a piece of the variant, changes the step ``label`` (of ``holder``, when either names one)."""
    if isinstance(d, ast.StepOverlay):
        at = (d.label, d.place)
    elif isinstance(d, ast.Amend) and d.place[0] == "step":
        at = (d.place[1], d.place[2])
    else:
        return False
    return at[0] == label and (holder is None or at[1] is None or at[1] == holder)


def _same(a, b) -> bool:
    return a == b and a.span == b.span


def _replace_node(root, old, new):
    return ast.rewrite(root, lambda n: new if type(n) is type(old) and _same(n, old) else n)


class Errata:
    """Applies the errata and retirements of a variant to the merged declarations (``merge.merged``)."""

    def __init__(self, merge):
        self.m = merge
        self.retired: list = []  # the 'retire procedure/def' pieces applied

    # ------------------------------------------------------------------ where
    def _place(self, piece):
        """(key, declaration, step or None) that ``piece.place`` names, or None after an error."""
        kind, name = piece.place[0], piece.place[1]
        if kind == "step":
            found = self.m.find_step(piece.span, name, piece.place[2])
            if found is None:
                return None
            key, d = found
            step = next(s for s in ast.statements(d.body) if isinstance(s, ast.Step) and s.label == name)
            return key, d, step
        key = {"def": ("DefDecl", name), "procedure": ("ProcDecl", name), "block": ("block", name)}[kind]
        d = self.m.merged.get(key)
        if d is None:
            have = [k[1] for k in self.m.merged if k[0] == key[0]]
            self.m.error(piece.span, f"the base has no {kind} '{name}'",
                         self._other_kind(kind, name, f"in {{kind}} {name}, {_CHANGE_WORDS[piece.change]}")
                         or suggest(name, have))
            return None
        return key, d, None

    def _other_kind(self, kind: str, name: str, written: str) -> str:
        """The hint when ``name`` is the base's def named as a procedure, or its procedure named as a def."""
        other = {"def": ("ProcDecl", "procedure"), "procedure": ("DefDecl", "def")}.get(kind)
        if other is None or (other[0], name) not in self.m.merged:
            return ""
        if other[1] == "def" and not written.endswith(("add arm:", f"def {name}")):  # a def takes arms only
            written = f"in def {name}, add arm: (a def has no chain or choice), or write the def again"
        return f"'{name}' is a {other[1]} in the base, not a {kind}: {written.format(kind=other[1])}"

    def _words(self, kind, name) -> str:
        return f"step '{name}'" if kind == "step" else f"{kind} '{name}'"

    def _nodes(self, region, cls):
        body = region.body if isinstance(region.body, tuple) else (region.body,)
        return [n for n in ast.walk(body) if isinstance(n, cls)]

    def _put(self, key, d, region, old, new):
        """The declaration with ``old`` (a node inside ``region``) replaced by ``new``."""
        self.m.merged[key] = attrs.evolve(d, body=_replace_node(d.body, old, new))

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
        key, d, step = where
        region = step if step is not None else d
        what = self._words(piece.place[0], piece.place[1])
        if piece.change == "arms":
            self._arms(piece, key, d, region, what)
        elif piece.change == "branches":
            self._branches(piece, key, d, region, what)
        else:
            self._alternatives(piece, key, d, region, what)

    def _enum_of(self, value):
        return next((k[1] for k, e in self.m.merged.items() if k[0] == "EnumDecl" and value in e.members), None)

    def _arms(self, piece, key, d, region, what):
        new = [_fixed_value(p) for patterns, _v in piece.items for p in patterns]
        if _NOT_FIXED in new:
            self.m.error(piece.span, "an added arm names values (an enum's member, a text, a number)")
            return
        matches = [n for n in self._nodes(region, ast.Match) if n.subject is not None]
        sets = {self._enum_of(v) for v in new}

        def enums(m):
            return {self._enum_of(_fixed_value(p)) for patterns, _v in m.arms for p in patterns}

        def fits(m):  # a match over the same enum; where kinds are unknown, the place's only match
            return enums(m) == sets if enums(m) != {None} else sets == {None} and len(matches) == 1
        chosen = [m for m in matches if fits(m)]
        if not chosen and len(matches) == 1 and enums(matches[0]) != {None}:
            self.m.error(piece.span, f"the arm's {', '.join(repr(v) for v in new)} is not of the enum the match at "
                         f"{_where(matches[0].span)} is over ({', '.join(sorted(map(str, enums(matches[0]) - {None})))})",
                         "an added arm is for a new member of that enum (add it with 'add to enum')")
            return
        if not chosen:
            self.m.error(piece.span, f"the {what} has no match over {', '.join(repr(v) for v in new)}'s values"
                         f" to add an arm to" if matches else f"the {what} has no match to add an arm to",
                         "an arm goes in a 'match x { ... }' of the place named")
            return
        if len(chosen) > 1:
            lines = ", ".join(_where(m.span) for m in chosen)
            self.m.error(piece.span, f"the {what} has several matches these arms could join ({lines})",
                         "name a smaller place: a def or a step holding one of them")
            return
        m = chosen[0]
        have = {_fixed_value(p) for patterns, _v in m.arms for p in patterns}
        for v in new:
            if v in have:
                self.m.error(piece.span, f"the match at {_where(m.span)} already has an arm for {v!r}",
                             "an erratum adds arms for new values; to change the base's arm, replace the def")
                return
        self._put(key, d, region, m, attrs.evolve(m, arms=m.arms + piece.items))

    def _value_words(self) -> set:
        """The words that are values (enum members, option values, table keys), as the checker's dispatches
        read them: a bare name that is none of them is a chain's subject (elif k == green:)."""
        words: set = set()
        for d in self.m.merged.values():
            if isinstance(d, ast.EnumDecl):
                words.update(d.members)
            elif isinstance(d, ast.OptionDecl):
                words.update(_fixed_value(v) for v in d.values)
            elif isinstance(d, ast.TableDecl):
                words.update(_fixed_value(r.values[0]) for r in d.rows if r.values)
        return {w for w in words if isinstance(w, str)}

    def _branches(self, piece, key, d, region, what):
        tested = []
        words = self._value_words()
        for cond, _body in piece.items:
            got = _tests(cond, words)
            if got is None:
                self.m.error(piece.span, "an added branch compares the chain's subject with values "
                             "(elif x == v:, elif x in [v, w]:)")
                return
            tested.append(got)
        subject = tested[0][0]
        chains = []
        for s in self._nodes(region, ast.If):
            got = [_tests(cond, words) for cond, _b in s.branches]
            if all(g is not None and g[0] == subject for g in got):
                chains.append((s, [v for g in got for v in g[1]]))
        if not chains:
            self.m.error(piece.span, f"the {what} has no if/elif chain over this subject to add a branch to",
                         "the chain's tests compare one subject with values: if x == a: ... elif x == b: ...")
            return
        if len(chains) > 1:
            lines = ", ".join(_where(s.span) for s, _v in chains)
            self.m.error(piece.span, f"the {what} has several chains over this subject ({lines})",
                         "name a smaller place: a procedure or a step holding one of them")
            return
        s, have = chains[0]
        for _subject, values in tested:
            for v in values:
                if v in have:
                    self.m.error(piece.span, f"the chain at {_where(s.span)} already has a branch for {v!r}",
                                 "an erratum adds branches for new values; replace the step or procedure "
                                 "to change the base's")
                    return
        self._put(key, d, region, s, attrs.evolve(s, branches=s.branches + piece.items))

    def _alternatives(self, piece, key, d, region, what):
        blocks = self._nodes(region, ast.ChooseBlock)
        if not blocks:
            self.m.error(piece.span, f"the {what} has no 'choose:' between alternatives")
            return
        target = piece.target
        if target is not None:
            blocks = [b for b in blocks if any(_addressed(a, target) for a in b.alternatives)]
            if not blocks:
                self._no_alternative(piece, what, target, [a for b in self._nodes(region, ast.ChooseBlock)
                                                           for a in b.alternatives])
                return
        if len(blocks) > 1:
            self.m.error(piece.span, f"the {what} has several choices ({', '.join(_where(b.span) for b in blocks)})",
                         "name one of its alternatives: add before \"...\", or a smaller place")
            return
        b = blocks[0]
        alts = list(b.alternatives)
        at = next((i for i, a in enumerate(alts) if _addressed(a, target)), len(alts))
        kept = [a for i, a in enumerate(alts) if not (piece.change in ("replace", "remove") and i == at)]
        items = piece.items
        if piece.change == "replace" and len(items) == 1 and items[0].name is None and at < len(alts):
            items = (attrs.evolve(items[0], name=alts[at].name),)  # one in place of one: the name still holds
        for i, a in enumerate(items):
            others = kept + list(items[:i])
            same = next((k for k in others if k.label == a.label or (a.name is not None and k.name == a.name)), None)
            if same is not None and any(same is x for x in items):
                self.m.error(a.span, f"two alternatives of this erratum are "
                             + (f"both {a.label!r}" if same.label == a.label else f"named '{a.name}'"),
                             "give each its own text and name")
                return
            if same is not None:
                what_same = f"an alternative {a.label!r}" if same.label == a.label else f"an alternative named '{a.name}'"
                self.m.error(a.span, f"the choice at {_where(b.span)} already has {what_same}",
                             f"replace it: in {_written(piece.place)}, replace {_address(same)}:")
                return
        if piece.change == "add":
            alts[at:at] = items
        elif piece.change == "replace":
            alts[at:at + 1] = items
        else:
            del alts[at]
            if not alts:
                self.m.error(piece.span, f"the choice at {_where(b.span)} would be left with no alternative",
                             "retire its step instead")
                return
        self._put(key, d, region, b, attrs.evolve(b, alternatives=tuple(alts), amended_at=b.amended_at + (piece.span,)))

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
        if piece.kind == "step":
            changed = next((d for d in self.m.variant.decls if _changes_step(d, piece.name, piece.place)), None)
            if changed is not None and getattr(changed, "mode", "") in ("before", "after"):
                # it would run on where the step was: a retired step leaves nothing behind
                self.m.error(piece.span, f"the step {piece.name!r} is retired here, but this variant's "
                             f"'{changed.mode} step' at line {changed.span.line} still runs where it was",
                             f"take out the '{changed.mode} step' too, or keep the step")
                return
            if changed is not None:  # what the variant writes into the step would go with it, unsaid
                self.m.error(piece.span, f"the step {piece.name!r} is retired here, but this variant changes it at "
                             f"line {changed.span.line}: {self.m.source_line(changed.span).strip()}",
                             "take out the change too, or keep the step")
                return
            found = self.m.find_step(piece.span, piece.name, piece.place)
            if found is not None:
                key, d = found
                # a step taken out leaves 'pass' behind: the block around it keeps a statement
                self.m.merged[key] = attrs.evolve(d, body=self.m.rewrite_step(d.body, piece.name,
                                                                           lambda s: (ast.Pass(span=s.span),)))
            return
        key = ("ProcDecl" if piece.kind == "procedure" else "DefDecl", piece.name)
        if self.m.merged.pop(key, None) is None:
            have = [k[1] for k in self.m.merged if k[0] == key[0]]
            self.m.error(piece.span, f"the base has no {piece.kind} '{piece.name}' to retire",
                         self._other_kind(piece.kind, piece.name, f"retire {{kind}} {piece.name}")
                         or suggest(piece.name, have))
            return
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
