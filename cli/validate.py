"""validate: parse and check a rules file, then compile it for the player counts and option values
it declares, so errors that only show with some options surface too."""
from __future__ import annotations

import itertools

from rulewright.dsl.errors import OptionError, RulesError, RulesRuntimeError
from rulewright.interpreter.api import Game, load_rules, option_values, player_range
from rulewright.interpreter.checker import check
from rulewright.cli.errors import describe

MAX_VARIANTS = 64  # each player count with each single option value; enough to reach every 'when'


def variants(rules):
    """(players, options) to compile: the defaults first, then one option changed at a time."""
    low, high = player_range(rules)
    counts = sorted({low, high})
    changes = [{}] + [{name: v} for name, values in option_values(rules).items() for v in values[1:]]
    return list(itertools.islice(itertools.product(counts, changes), MAX_VARIANTS))


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
    for i, (players, options) in enumerate(variants(rules)):
        label = f"{path}: with {players} players" + "".join(f", {k}={v}" for k, v in options.items())
        try:
            game = Game(rules, players, options)
            if i == 0:
                game.new_state(seed=0)  # the setup must run with the defaults
        except OptionError as exc:
            if i == 0:  # a 'require' may rule out some options, never the defaults
                problems.append(f"{label}: error: {exc}")
        except RulesError as exc:
            text = describe(exc)
            if not getattr(exc, "diagnostics", None) or isinstance(exc, RulesRuntimeError):
                text = f"{label}: {text}"  # a run-time error depends on the players and options: say which
            if text not in problems:
                problems.append(text)
    return problems
