"""list: the shipped games, their player counts and options."""
from __future__ import annotations

from rulewright.dsl.errors import RulesError
from rulewright.interpreter.api import game_name, load_rules, option_values, player_range, shipped_games


def describe_games() -> list[dict]:
    out = []
    for name, path in shipped_games().items():
        try:
            rules = load_rules(str(path))
        except RulesError as exc:  # one broken file must not hide the others
            out.append({"name": name, "error": str(exc).splitlines()[0]})
            continue
        low, high = player_range(rules)
        out.append({"name": name, "title": game_name(rules), "players": [low, high],
                    "options": option_values(rules)})
    return out


def format_games(games: list[dict]) -> list[str]:
    width = max((len(g["name"]) for g in games), default=0)
    lines = []
    for g in games:
        if "error" in g:
            lines.append(f"{g['name'].ljust(width)}  (does not load: {g['error']})")
            continue
        low, high = g["players"]
        players = f"{low} players" if low == high else f"{low}-{high} players"
        lines.append(f"{g['name'].ljust(width)}  {g['title']}, {players}")
        for option, values in g["options"].items():
            lines.append(f"{'':{width}}    option {option}: {' | '.join(map(str, values))}"
                         f" (default {values[0]})")
    return lines
