"""coverage: seeded random games, and what they left unrun (interpreter/play/coverage.py measures it), printed
like coverage.py's report: statements never run, table rows never used, moves that changed nothing, and
what became of each thing a variant adds."""
from __future__ import annotations

import os
import shlex


def shown_path(path: str) -> str:
    """A rules file's path as short as it reads: relative to the current folder when it is below it."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        return path
    return path if relative.startswith("..") else relative


def line_ranges(lines: tuple, missing: tuple) -> str:
    """'12-14, 20': the missing statement lines, a range joining those with no statement run between."""
    gone = set(missing)
    ranges, start, last = [], None, None
    for n in lines:
        if n in gone:
            start = n if start is None else start
            last = n
        elif start is not None:
            ranges.append((start, last))
            start = None
    if start is not None:
        ranges.append((start, last))
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)


def replay_command(game: str, players: int, options: dict, seed: int, auto: str = "random") -> str:
    """The command that plays a reported game again, move for move (its agents seeded as here; ``auto``
    empty: no agents, for moves given by --moves)."""
    words = ["rulewright", "play", game, "-p", str(players)]
    for name, value in options.items():
        words += ["-o", f"{name}={value}"]
    words += ["--seed", str(seed)] + (["--auto", auto] if auto else [])
    return " ".join(shlex.quote(w) for w in words)


def format_report(report, game_ref: str, given_options: dict) -> list[str]:
    """The report as text lines. ``game_ref`` and ``given_options``: as the user named them, for the
    command that replays a silent move."""
    d = report.to_dict()
    seeds = d["seeds"]
    span = f"seed {seeds[0]}" if len(seeds) == 1 else f"seeds {seeds[0]}-{seeds[-1]}"
    options = ", ".join(f"{k}={v}" for k, v in d["options"].items()) or "none"
    lines = [f"Coverage of {d['game']}, {d['players']} players, options: {options}",
             f"{d['games']} random games ({span}), {d['moves']} moves"
             + (f", {d['unfinished']} stopped unfinished" if d["unfinished"] else ""), ""]
    names = [shown_path(f.file) for f in report.files]
    width = max(len(n) for n in names + ["Rules file"])
    lines.append(f"{'Rules file':<{width}}  Stmts   Miss  Cover   Missing")
    for name, f in zip(names, report.files):
        lines.append(f"{name:<{width}}  {len(f.lines):>5}  {len(f.missing):>5}  {_percent(f.run, len(f.lines)):>4}%   "
                     f"{line_ranges(f.lines, f.missing)}".rstrip())
    total, run = report.statements, report.statements_run
    lines.append(f"{'TOTAL':<{width}}  {total:>5}  {total - run:>5}  {_percent(run, total):>4}%")
    lines += ["", "Table rows never used:"]
    unused = [t for t in d["rows"] if t["unused"]]
    for t in unused:
        lines.append(f"  {t['table']}: {', '.join(str(k) for k in t['unused'])} ({len(t['unused'])} of {t['rows']})")
    if not unused:
        lines.append("  none" if d["rows"] else "  none (no tables)")
    lines += ["", "Moves that changed nothing but the log:"]
    for s in d["silent_moves"]:
        times = "once" if s["count"] == 1 else f"{s['count']} times"
        texts = ", ".join(f'"{t}"' for t in s["texts"])
        first = s["examples"][0]
        lines.append(f"  {shown_path(s['file'])}:{s['line']}: {times}: {texts}")
        lines.append(f"    first: seed {first['seed']}, move {first['move']} "
                     f"({replay_command(game_ref, d['players'], given_options, first['seed'])})")
    if not d["silent_moves"]:
        lines.append("  none")
    if report.broken:
        lines += ["", "Invariants broken:"]
        for b in report.broken:
            when = "at the start" if b.move == 0 else f"after move {b.move}"
            lines.append(f"  {shown_path(b.file)}:{b.line}: \"{b.name}\": {b.why}, seed {b.seed}, {when} "
                         f"({replay_command(game_ref, d['players'], given_options, b.seed)} --check)")
    if report.added:
        lines += ["", "What the variant adds:"]
        for a in report.added:
            shown = f"{a.value}" if a.kind in ("option", "enum", "column") else f"{a.value!r}"
            what = {"enum": f"enum {a.set_name}: {shown}", "option": f"option {a.set_name}: {shown}",
                    "table": f"table {a.set_name}: {shown}", "column": f"column {shown} of {a.set_name}"}[a.kind]
            hint = f" (-o {a.set_name}={a.value} starts it)" if a.kind == "option" and not a.started else ""
            lines.append(f"  {shown_path(a.file)}:{a.line}: {what}: {a.status()}{hint}")
    return lines


def _percent(part: int, whole: int) -> str:
    """A whole percentage, never rounded up to 100 while something is missing (coverage.py's way)."""
    return str(100 * part // whole) if whole else "100"
