"""validate: parse and check a rules file, then start it for every player count and option value it
declares (interpreter/play/sweep.py), so errors that only show with some options surface too."""
from __future__ import annotations

from rulewright.dsl.errors import OptionError, RulesError, RulesRuntimeError
from rulewright.interpreter.api import Game, load_rules, option_values, player_range
from rulewright.interpreter.language import check
from rulewright.interpreter.play.sweep import player_counts, starts
from rulewright.cli.errors import describe

def warnings(path: str) -> list[str]:
    """The rendered warnings of a rules file that loads (a local hiding a name, a likely typo...)."""
    try:
        rules = load_rules(path)
    except RulesError:
        return []
    return [d.render() for d in check(rules) if d.severity == "warning"] + _never_started(path, rules, starts(rules))


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
        except OptionError as exc:  # the sweep starts only what the requirements allow, and the defaults
            problems.append(f"{label}: error: {exc}" + ("\n  hint: a 'require' may rule out some options, never "
                                                        "the defaults (the fewest players, each option's first value)"
                                                        if not options and players == player_range(rules)[0] else ""))
        except RulesError as exc:
            text = describe(exc)
            if text in seen:
                continue  # the same error with other options: once, with the first options that gave it
            seen.add(text)
            if not getattr(exc, "diagnostics", None) or isinstance(exc, RulesRuntimeError):
                text = f"{label}: {text}"  # a run-time error depends on the players and options: say which
            problems.append(text)
    return problems


def _never_started(path: str, rules, started: list) -> list[str]:
    """A warning for each player count and option value no game was started with (the search for an allowed
    game holding it is bounded): validate says what it did not try."""
    low, high = player_range(rules)
    missed = {"players": [n for n in player_counts(low, high) if n not in {p for p, _ in started}]}
    for name, values in option_values(rules).items():
        picked = {options.get(name, values[0]) for _, options in started}
        missed[name] = [v for v in values if v not in picked]
    return [f"{path}: warning: no game was started with " + (f"{', '.join(map(str, vs))} players" if what == "players"
                                                              else f"{what} = {', '.join(map(str, vs))}")
            + "\n  hint: none that the 'require' lines allow was found; start one with -p and -o to check it"
            for what, vs in missed.items() if vs]
