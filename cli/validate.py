"""validate: parse and check a rules file, then compile it for the player counts and option values
it declares, so errors that only show with some options surface too."""
from __future__ import annotations

import functools
import itertools

from rulewright.dsl.errors import OptionError, RulesError, RulesRuntimeError
from rulewright.interpreter.api import Game, load_rules, option_values, player_range
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.compile.compiler import CompiledGame
from rulewright.interpreter.check.option_reads import option_reads
from rulewright.cli.errors import describe

MAX_VARIANTS = 64  # each player count with each single option value; enough to reach every 'when'


def variants(rules):
    """(players, options) to compile: the defaults first, then one option changed at a time."""
    low, high = player_range(rules)
    counts = sorted({low, high})
    changes = [{}] + [{name: v} for name, values in option_values(rules).items() for v in values[1:]]
    return list(itertools.islice(itertools.product(counts, changes), MAX_VARIANTS))


class _ChangedParts:
    """The defs, procedures and blocks to generate for a variant (None: all, for each player count's
    first): those generated before only with other values of the options they read
    (interpreter/check/option_reads.py). The others would come out the same, and so would their errors. A
    procedure they call that is not generated is taken as one that may decide (compiler.plain_procedures):
    that changes how the call is written, not what can go wrong in generating it."""

    def __init__(self, rules):
        self.reads = option_reads(rules)
        self.defaults = {name: values[0] for name, values in option_values(rules).items()}
        self.done: dict = {}  # player count -> {(part, values of the options it reads)} generated
        self.keys: dict = {}

    def of(self, players: int, options: dict):
        chosen = {**self.defaults, **options}
        self.players = players
        self.keys = {name: (name, tuple(chosen[o] for o in sorted(read))) for name, read in self.reads.items()}
        seen = self.done.get(players)
        if seen is None:
            return None
        return frozenset(name for name, k in self.keys.items() if k not in seen)

    def generated(self):
        """The variant last asked about was generated without an error."""
        self.done.setdefault(self.players, set()).update(self.keys.values())


def warnings(path: str) -> list[str]:
    """The rendered warnings of a rules file that loads (a local hiding a name, a likely typo...)."""
    try:
        rules = load_rules(path)
    except RulesError:
        return []
    return [d.render() for d in check(rules) if d.severity == "warning"]


def validate(path: str) -> list[str]:
    """The rendered problems of one rules file (empty when it is fine)."""
    try:
        rules = load_rules(path)
    except RulesError as exc:
        return [describe(exc)]
    problems: list[str] = []
    parts = _ChangedParts(rules)
    for i, (players, options) in enumerate(variants(rules)):
        label = f"{path}: with {players} players" + "".join(f", {k}={v}" for k, v in options.items())
        try:
            only = parts.of(players, options)
            if i == 0:
                game = Game(rules, players, options)
                game.new_state(seed=0)  # the setup must run with the defaults
            else:  # generated to find errors, never played
                checked = functools.partial(CompiledGame, only=only, played=False)
                Game(rules, players, options, compiler=checked)
            parts.generated()
        except OptionError as exc:
            parts.generated()  # a 'require' is checked once the rules are generated
            if i == 0:  # a 'require' may rule out some options, never the defaults
                problems.append(f"{label}: error: {exc}")
        except RulesError as exc:
            text = describe(exc)
            if not getattr(exc, "diagnostics", None) or isinstance(exc, RulesRuntimeError):
                text = f"{label}: {text}"  # a run-time error depends on the players and options: say which
            if text not in problems:
                problems.append(text)
    return problems
