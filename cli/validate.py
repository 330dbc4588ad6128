"""validate: parse and check a rules file, then start it for every player count and option value it
declares (interpreter/play/sweep.py), so errors that only show with some options surface too."""
from __future__ import annotations

from rulewright.dsl.errors import OptionError, RulesError, RulesRuntimeError
from rulewright.interpreter.api import Game, load_rules
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.play.sweep import starts
from rulewright.cli.errors import describe

def warnings(path: str) -> list[str]:
    """The rendered warnings of a rules file that loads (a local hiding a name, a likely typo...)."""
    try:
        rules = load_rules(path)
    except RulesError:
        return []
    return [d.render() for d in check(rules) if d.severity == "warning"]


def validate(path: str) -> list[str]:
    """The rendered problems of one rules file (empty when it is fine). Besides parsing and checking, the
    game is started (set up to its first decision) for every allowed player count and option value
    (interpreter/play/sweep.py), so an option that fails only when picked fails here, with the options
    that were picked."""
    try:
        rules = load_rules(path)
    except RulesError as exc:
        return [describe(exc)]
    problems: list[str] = []
    seen: set = set()
    for players, options in starts(rules):
        label = f"{path}: with {players} players" + "".join(f", {k}={v}" for k, v in options.items())
        try:
            Game(rules, players, options).new_state(seed=0)
        except OptionError as exc:  # the sweep starts only what the requirements allow
            problems.append(f"{label}: error: {exc}")
        except RulesError as exc:
            text = describe(exc)
            if text in seen:
                continue  # the same error with other options: once, with the first options that gave it
            seen.add(text)
            if not getattr(exc, "diagnostics", None) or isinstance(exc, RulesRuntimeError):
                text = f"{label}: {text}"  # a run-time error depends on the players and options: say which
            problems.append(text)
    return problems
