"""The error tree. Every error a user can cause is a RulesError; none of them is a traceback.

    RulesError
    ├── RulesSyntaxError    the text does not parse
    ├── RulesCompileError   it parses but names, types or structure are wrong (one or more diagnostics)
    ├── RulesRuntimeError   a rule failed while the game ran (step budget, drawing from an empty list...)
    ├── OptionError         unknown option, bad value, player count the game does not allow
    ├── IllegalMoveError    a move that is not legal now (AmbiguousMoveError when it names several)
    └── SaveError           a save or log that is corrupt or belongs to other rules
"""
from __future__ import annotations

import difflib

import attrs


@attrs.frozen
class Diagnostic:
    """One message pinned to a place in a rules file."""
    message: str
    file: str
    line: int
    column: int
    source_line: str = ""
    hint: str = ""
    severity: str = "error"

    def render(self) -> str:
        out = [f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"]
        if self.source_line:
            out.append("    " + self.source_line.rstrip())
            out.append("    " + " " * max(self.column - 1, 0) + "^")
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)

    def told_at(self, file: str, line: int, column: int, source_line: str, why: str) -> "Diagnostic":
        """This diagnostic said at the line that caused it (a variant's), ``why`` that line leads here;
        its own line (a base's) kept as context in the hint."""
        context = f"the base's line {self.file}:{self.line}:{self.column}: {self.source_line.strip()}"
        return Diagnostic(f"{self.message} (at {self.file}:{self.line}, {why})", file, line, column, source_line,
                          context + (f"; {self.hint}" if self.hint else ""), self.severity)


def suggest(word: str, candidates) -> str:
    """A 'did you mean' hint, or '' when nothing is close."""
    close = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


class Hints:
    """'did you mean' hints for one run of the checks, within a budget of work. A hint compares its word
    with every candidate: thousands of unknown names against thousands of declared ones would take
    minutes. Past the budget the errors come without the hint; a word longer than a name a person would
    misspell gets none. The hint given is suggest()'s (difflib's closest match), or none."""
    BUDGET = 200_000   # in candidates looked at; a full comparison counts as RATIO of them: half a second
    RATIO = 25         # a full comparison (SequenceMatcher.ratio) costs about as much as 25 quick looks
    LONGEST = 64       # letters of a word given a hint

    def __init__(self, budget: int = BUDGET):
        self.left = budget

    def __call__(self, word: str, candidates) -> str:
        """``candidates``: the names, or a function that gives them (not called past the budget)."""
        if self.left <= 0 or len(word) > self.LONGEST:
            return ""
        pool = set(candidates() if callable(candidates) else candidates)
        self.left -= len(pool)
        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(word)
        best = None
        for x in pool:  # difflib.get_close_matches(word, pool, n=1, cutoff=0.6), its work counted
            matcher.set_seq1(x)
            if matcher.real_quick_ratio() >= 0.6 and matcher.quick_ratio() >= 0.6:
                self.left -= self.RATIO
                score = matcher.ratio()
                if score >= 0.6 and (best is None or (score, x) > best):
                    best = (score, x)
        if self.left < 0:
            return ""  # not all of it looked at: no hint rather than a worse one
        return f"did you mean '{best[1]}'?" if best is not None else ""


class RulesError(Exception):
    """Base of every error a user can cause."""


class RulesSyntaxError(RulesError):
    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.render())
        self.diagnostic = diagnostic
        self.diagnostics = [diagnostic]


class RulesCompileError(RulesError):
    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("\n".join(d.render() for d in diagnostics))
        self.diagnostics = list(diagnostics)


class RulesRuntimeError(RulesError):
    """A rule failed while running.

    Code inside the rules raises it with plain words (``message``) and perhaps a ``hint``; ``focus``
    names the kind of expression at fault ("index", "divide"...), so the caret can point at it. The
    machine then re-raises it with a ``diagnostic`` (file:line:col, the source line and a caret, the
    rule it happened in, a hint): ``str(exc)`` is that diagnostic rendered. An error raised outside
    the machine (a starting value, the outcome) has no diagnostic and keeps its message.
    """

    def __init__(self, message: str = "", hint: str = "", *, diagnostic: Diagnostic | None = None,
                 focus: str = ""):
        super().__init__(diagnostic.render() if diagnostic is not None else message)
        self.message = message
        self.hint = hint
        self.focus = focus
        self.diagnostic = diagnostic
        self.diagnostics = [diagnostic] if diagnostic is not None else []


class OptionError(RulesError):
    """An unknown option, a value the option does not allow, or a player count out of range."""


class IllegalMoveError(RulesError):
    """A move that is not among the legal ones now; the state is unchanged."""


class AmbiguousMoveError(IllegalMoveError):
    """A move text that matches more than one legal move."""


class SaveError(RulesError):
    """A save file or log that is corrupt or belongs to other rules."""
