"""list: the shipped games, sorted by name, with their player counts and options (and what each option
does, when the rules describe it). The summary is cached by the games' text (dsl/cache.py): `list` then
reads the files but parses none."""
from __future__ import annotations

from rulewright.interpreter.language import cache


def describe_games() -> list[dict]:
    from rulewright.interpreter.api import shipped_games
    games = sorted(shipped_games().items())
    try:
        entry = cache.key(*(part for name, path in games for part in (name, path.read_bytes())))
    except OSError:
        entry = None
    found = cache.get("list", entry) if entry else None
    if found is not None:
        return found
    described = [_describe(name, path) for name, path in games]
    if entry:
        cache.put("list", entry, described)
    return described


def _describe(name: str, path) -> dict:
    from rulewright.dsl.errors import RulesError
    from rulewright.interpreter.api import game_name, load_rules, option_values, player_range
    from rulewright.interpreter.language import symbols
    try:
        rules = load_rules(str(path))
    except RulesError as exc:  # one broken file must not hide the others
        return {"name": name, "error": str(exc).splitlines()[0]}
    low, high = player_range(rules)
    return {"name": name, "title": game_name(rules), "players": [low, high], "options": option_values(rules),
            "option_descriptions": dict(symbols(rules).option_about)}


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
            about = g.get("option_descriptions", {}).get(option)
            # the default comes first; when the rules list it among the values too, it is shown there once
            shown = values[1:] if values[0] in values[1:] else values
            lines.append(f"{'':{width}}    option {option}: {' | '.join(map(str, shown))}"
                         f" (default {values[0]})" + (f": {about}" if about else ""))
    return lines
