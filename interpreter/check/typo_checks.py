"""Checks for the typos a name check cannot see, because the misspelled word declares a new name
instead of naming an old one: a local bound and never read (a loop variable renamed, so the body reads
an older one), a graph space or a table label written once next to one of the same but a letter,
a text that misses a table key or a space by a letter, a number in a column of names.

Each is a warning but the last: the rules may mean it, and the hint says how to say so.
"""
from __future__ import annotations

from collections import Counter

from rulewright.dsl import ast
from rulewright.interpreter.check.symbols import uses


def one_edit(a: str, b: str) -> bool:
    """Whether two different words differ by one letter dropped, added, replaced or two swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


class NearWords:
    """The words of a set, indexed to find those one letter from a given word without comparing it with
    each: every word is filed under itself and under itself with each letter dropped, so two words one
    edit apart (a letter dropped, added, replaced, or two swapped) share a key. A check of a file with
    thousands of names stays linear. Words of more than ``LONGEST`` letters are left out (no one
    misspells those by a letter, and their keys would take their length squared)."""
    LONGEST = 64

    def __init__(self, words, shortest: int = 2):
        self.shortest = shortest
        self.index: dict = {}
        for w in set(words):
            if shortest <= len(w) <= self.LONGEST:
                for key in _keys(w):
                    self.index.setdefault(key, []).append(w)

    def near(self, word: str) -> str:
        """The first word (in sorted order) one letter from ``word``, or ''."""
        if not self.shortest <= len(word) <= self.LONGEST:
            return ""
        found = {o for key in _keys(word) for o in self.index.get(key, ())}
        return min((o for o in found if one_edit(word, o)), default="")


def _keys(word: str) -> set:
    return {word} | {word[:i] + word[i + 1:] for i in range(len(word))}


def _near(word: str, others, shortest: int = 2) -> str:
    """A word of ``others`` one letter from ``word``; words shorter than ``shortest`` are left out (the
    letters and marks of a game are all that close to one another)."""
    return NearWords(others, shortest).near(word)


class TypoChecks:
    def __init__(self, checker):
        self.c = checker
        self.sym = checker.sym

    def run(self):
        for d in self.sym.rules.decls:
            if isinstance(d, (ast.ProcDecl, ast.BlockDecl)):
                self.unread_locals(d.body)
        for d in self.sym.displays:
            reads = _reads(d.expr)
            near = _near(d.name, reads, shortest=1) if d.name not in reads else ""
            if near:
                self.c.error(d.span, f"'display {d.name}' never reads '{d.name}', but reads '{near}', a letter away",
                             f"did you mean '{near}'? ('{d.name}' is the space being drawn)", severity="warning")
        for b in self.sym.boards:
            if b.spec.edges:
                self.lonely_spaces(b)
        for t in self.sym.tables.values():
            self.table_columns(t)
        self.texts_near_names()
        self.unused_words()

    # ------------------------------------------------------------------ locals
    def unread_locals(self, body):
        """A local bound by a statement and read nowhere in its block or procedure, while a name a letter
        away is read there: the binding was misspelled, and the reads find an older local or a constant."""
        reads = _reads(body)
        index = None
        for s in ast.statements(body):
            for name, _what in ast.bound(s):
                if name in reads:
                    continue
                index = index or NearWords(reads, shortest=1)
                near = index.near(name)
                if near:
                    self.c.error(s.span, f"the local '{name}' is never read, but '{near}', a letter away, is",
                                 f"did you mean '{near}'?", severity="warning")

    # ------------------------------------------------------------------ boards
    def lonely_spaces(self, b: ast.BoardDecl):
        """A graph space with no arrows in, a letter away from one with arrows in and none out: one name
        was misspelled, and the graph is cut in two where it should go on."""
        arrows_in: set = set()
        arrows_out: set = set()
        spans: dict = {}
        for source, targets, span in b.spec.edges:
            if targets:
                arrows_out.add(source)
            arrows_in.update(targets)
            for s in (source,) + tuple(targets):
                spans.setdefault(s, span)
        dead_ends = NearWords(arrows_in - arrows_out, shortest=1)
        every = NearWords(spans, shortest=1)
        for s in sorted(arrows_out - arrows_in):
            near = dead_ends.near(s)
            if near and len(s) + len(near) > 2:  # 'a -> b': two letters are names, not a typo
                self.c.error(spans[s], f"space '{s}' of board '{b.name}' has no arrows in, and '{near}', a letter "
                             f"away, none out", f"did you mean '{near}'?", severity="warning")
        for s in sorted(set(spans) - arrows_in - arrows_out):  # a space on a line of its own, and nowhere else
            near = every.near(s)  # (never s itself)
            if near and len(s) + len(near) > 2:
                self.c.error(spans[s], f"space '{s}' of board '{b.name}' has no arrows at all, and is a letter "
                             f"away from '{near}'", f"did you mean '{near}'?", severity="warning")

    # ------------------------------------------------------------------ tables
    def table_columns(self, t: ast.TableDecl):
        known = self.sym.members.keys() | self.sym.table_keys.keys() | self.c.spaces
        self.table_keys(t)
        for i in range(1, len(t.columns)):
            cells = [r.values[i] for r in t.rows if i < len(r.values)]
            words = [v for v in cells if isinstance(v, ast.Name)]
            if words and all(w.id in known for w in words):  # a column of names (spaces, enum members...)
                for v in cells:
                    if isinstance(v, ast.Literal) and type(v.value) is int:
                        self.c.error(v.span, f"column '{t.columns[i]}' holds names ({words[0].id}, ...), "
                                     f"not numbers", "a letter missing?")
            counts = Counter(w.id for w in words)
            if words and not any(w.id in known for w in words) and max(counts.values()) > 1:
                repeated = NearWords([o for o in counts if counts[o] > 1])
                for w in words:  # free labels that repeat: one written once, a letter from another
                    near = repeated.near(w.id) if counts[w.id] == 1 else ""
                    if near:
                        self.c.error(w.span, f"'{w.id}' appears once in column '{t.columns[i]}', a letter away "
                                     f"from '{near}'", f"did you mean '{near}'?", severity="warning")

    def table_keys(self, t: ast.TableDecl):
        """A table keyed mostly by declared names (spaces, headings, enum members) is keyed only by them:
        a key that is none of them is misspelled (a free key would be a row the rules never read)."""
        declared = self.sym.members.keys() | self.c.spaces
        keys = [r.values[0] for r in t.rows if r.values and isinstance(r.values[0], ast.Name)]
        inside = [k for k in keys if k.id in declared]
        if 2 * len(inside) <= len(keys):
            return
        for k in keys:
            if k.id not in declared:
                self.c.error(k.span, f"'{k.id}' is not declared, unlike the other keys of table '{t.name}' "
                             f"({inside[0].id}, ...)", self.c.hint(k.id, declared)
                             or f'declare it, or write it as text: "{k.id}"')

    # ------------------------------------------------------------------ declared words nothing uses
    def unused_words(self):
        """A variable, an enum member, a heading or a record field that nothing uses, a letter from a word
        that is used: the declaration is misspelled (a heading's place in the list still turns the board)."""
        words, fields = uses(self.sym.rules.decls)
        read = words | fields
        read_index = NearWords(read)
        for name in sorted(self.sym.declared_vars):  # a variable is read as a name or as 'p.name'
            self._unused(name, read, read_index, self.sym.vars[name].span, f"the variable '{name}'")
        declared = self.sym.members.keys() | self.sym.table_keys.keys() | self.c.spaces
        words &= declared  # a member misspelled is near another declared word, not near a local
        words_index = NearWords(words)
        for d in self.sym.enums.values():
            for m in d.members:
                self._unused(m, words, words_index, d.span, f"'{m}' of enum '{d.name}'")
        for b in self.sym.boards:
            for w in b.spec.words:
                if isinstance(w, ast.Name) and w.id in self.sym.headings:
                    self._unused(w.id, words, words_index, w.span, f"heading '{w.id}' of board '{b.name}'")
        fields_index = NearWords(fields)
        for d in self.sym.record_decls.values():
            for f in d.fields:
                self._unused(f, fields, fields_index, d.span, f"field '{f}' of record '{d.name}'")

    def _unused(self, word, used, index, span, what):
        near = index.near(word) if word not in used else ""
        if near:
            self.c.error(span, f"{what} is never used, and '{near}', a letter away, is",
                         f"did you mean '{near}'?", severity="warning")

    # ------------------------------------------------------------------ texts
    def texts_near_names(self):
        """A text in the rules that looks like a name (no spaces, four letters or more), is no key, space
        or member, and is a letter away from a table key or a space: the text or the key is misspelled."""
        declared = self.sym.table_keys.keys() | self.c.spaces | self.sym.members.keys()
        strings = NearWords(k for k in self.sym.table_keys.keys() | self.c.spaces if isinstance(k, str) and len(k) >= 4)
        for lit in _text_literals(self.sym.rules.decls):
            value = lit.value
            if value in declared or not value.isidentifier() or len(value) < 4:
                continue  # short texts ("x", "R") are marks and letters, too close to everything
            near = strings.near(value)
            if near:
                self.c.error(lit.span, f"the text \"{value}\" names nothing the rules declare, and is a letter "
                             f"away from '{near}'", f"did you mean \"{near}\"?", severity="warning")


def _reads(node) -> set:
    """Every name an expression or a block reads (Name nodes and template holes)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _text_literals(decls):
    """Text literals of the rules' expressions and statements (not table cells, option values or the
    game's name)."""
    roots = tuple(d for d in decls if not isinstance(d, (ast.TableDecl, ast.OptionDecl, ast.GameDecl, ast.Extends)))
    for n in ast.walk(roots):
        if isinstance(n, ast.Literal) and type(n.value) is str:
            yield n
