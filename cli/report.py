"""Balance reports: what many recorded games of one rules file say about its balance.

A recorded game is a simulated game whose events are tallied as it runs (``play_recorded``): by event
kind, by the move text's first word, by the rule that made the event, and by the table keys (the rows
of the rules' tables) the event names. ``analyze`` turns the games into one report: win rate per seat and
the first player's, each with a Wilson confidence interval, game length and scores, and how often each
rule and each table key fires. ``compare.py`` puts two reports side by side; ``write_report`` writes a
report (or two) to a folder as JSON, CSV and plots.

Which rule made an event is read from the rules themselves, nothing is added to the engine: every
``log``, ``reveal`` and decision (``choose``, a choice between courses of action) has a text template;
an event's text is matched against the templates of its kind, the most specific template (the most
fixed letters) winning. The tally reads the referee's events; a report is for the rules' author, and
is made from many finished games, never shown to a player during one.
"""
from __future__ import annotations

import functools
import math
import re
import statistics
from collections import Counter
from pathlib import Path
from typing import Optional

from rulewright.dsl import ast
from rulewright.interpreter.check.symbols import symbols

Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval
UNMATCHED = "(no rule matched)"


# ----------------------------------------------------------------------------------------- the agents
def _agents(spec: Optional[str], players: int, seed: int) -> list:
    """One agent per seat from a spec such as ``random``, ``first,random`` or ``mcts:iterations=50,random``
    (one agent for every seat, or one per seat; interpreter/play/agents.py parses it). Each seat gets its own
    agent and generator, fixed by the seed."""
    from rulewright.interpreter.play.agents import AGENTS, AgentSpecError, RandomAgent, parse_spec
    if spec is None:  # simulate's agent: one random agent for every seat, seeded with the game's seed
        agent = RandomAgent(seed)
        return [agent] * players
    try:
        parsed = parse_spec(spec)
    except AgentSpecError as exc:
        raise ValueError(str(exc)) from None
    if len(parsed) == 1:
        parsed = parsed * players
    if len(parsed) != players:
        raise ValueError(f"--agents names {len(parsed)} agents for {players} seats; name one for every seat, "
                         f"or one for all")
    return [AGENTS[name](seed * 101 + seat, **params) for seat, (name, params) in enumerate(parsed, 1)]


def check_agents(spec: Optional[str], players: int) -> None:
    """Raise ValueError for a spec ``_agents`` would refuse (before any game is played)."""
    _agents(spec, players, 0)


# ----------------------------------------------------------------------------------------- the rules' texts
class Rule:
    """A statement that makes events: its kind of event, a pattern its texts match, and where it is."""

    def __init__(self, kind: str, parts: tuple, where: str, source: str, line: int, file: str):
        self.kind = kind
        self.fixed = sum(len(p) for p in parts if isinstance(p, str))  # how specific the pattern is
        self.regex = "".join(re.escape(p) if isinstance(p, str) else "(?:.*?)" for p in parts) or "(?:.*?)"
        self.label = f"{where}: {source}"
        self.line, self.file = line, file


def _parts(text) -> tuple:
    """A text template's pieces: strings stay, holes become None; no template at all is one hole."""
    if isinstance(text, ast.Template):
        return tuple(p if isinstance(p, str) else None for p in text.parts)
    if isinstance(text, ast.Literal) and isinstance(text.value, str):
        return (text.value,)
    if isinstance(text, str):
        return (text,)
    return (None,)


def _rules_of(rules: ast.RulesFile) -> list[Rule]:
    """Every statement of the rules that makes an event, with the block or procedure (and step) it is in."""
    found: list[Rule] = []

    labels: set = set()

    def add(kind, text, where, node, note=""):
        source = " ".join(rules.source_line(node.span).split()) + note
        rule = Rule(kind, _parts(text), where, source, node.span.line, Path(node.span.file).name)
        if rule.label in labels:  # the same statement written twice in one place: the line tells them apart
            rule.label += f" (line {rule.line})"
        labels.add(rule.label)
        found.append(rule)

    def visit(body, where):
        for s in body:
            here = f"{where} > {s.label}" if isinstance(s, ast.Step) else where
            if isinstance(s, ast.Log):
                add("log", s.message, where, s)
            elif isinstance(s, ast.Reveal):
                add("reveal", s.text, where, s)
            elif isinstance(s, (ast.Choose, ast.ChooseEach)):
                choice = s.choice if isinstance(s, ast.ChooseEach) else s
                add("move", choice.text, where, s)
                if choice.optional is not None:
                    add("move", choice.optional, where, s, "  [declined]")
            elif isinstance(s, ast.ChooseBlock):
                for alt in s.alternatives:
                    add("move", alt.label, where, alt)
            for part in ("body", "orelse"):
                inner = getattr(s, part, None)
                if isinstance(inner, tuple):
                    visit(inner, here)
            for _cond, branch in getattr(s, "branches", ()):
                visit(branch, here)
            for alt in getattr(s, "alternatives", ()):
                visit(alt.body, here)

    sym = symbols(rules)
    for kind, block in sym.blocks.items():
        visit(block.body, kind)
    for name, proc in sym.procs.items():
        visit(proc.body, f"procedure {name}")
    return found


class Tally:
    """Counts one game's events; built once per rules file (``tally_for``) and reset for each game."""

    def __init__(self, rules: ast.RulesFile):
        self.rules = _rules_of(rules)
        self.matchers = {}
        # Statements with the same template make the same texts: one row for them all, under the first
        same: dict = {}
        for i, r in enumerate(self.rules):
            same.setdefault((r.kind, r.regex), []).append(i)
        for first, *others in same.values():
            if others:
                also = ", ".join(f"{self.rules[i].file}:{self.rules[i].line}" for i in others)
                self.rules[first].label += f" (and the same text at {also})"
        for kind in ("move", "log", "reveal"):
            mine = sorted((ix[0] for (k, _r), ix in same.items() if k == kind),
                          key=lambda i: (-self.rules[i].fixed, i))  # the most specific first, then file order
            self.matchers[kind] = (re.compile("|".join(f"({self.rules[i].regex})" for i in mine), re.DOTALL)
                                   if mine else None, mine)
        keys = {}
        for table in symbols(rules).tables.values():
            for row in table.rows:
                first = row.values[0] if row.values else None
                key = first.id if isinstance(first, ast.Name) else first.value if isinstance(first, ast.Literal) else None
                if isinstance(key, str) and key.strip():
                    keys.setdefault(key, table.name)
        self.key_table = keys
        self.keys = (re.compile(r"(?<!\w)(?:" + "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
                                + r")(?!\w)") if keys else None)
        self._seen: dict = {}  # (kind, text) -> (rule index, keys named): texts repeat within and across games

    def _read(self, kind: str, text: str) -> tuple:
        known = self._seen.get((kind, text))
        if known is not None:
            return known
        regex, order = self.matchers.get(kind, (None, []))
        rule = -1
        if regex is not None:
            m = regex.fullmatch(text)
            if m is not None:
                rule = order[m.lastindex - 1]
        named = tuple(self.keys.findall(text)) if self.keys is not None else ()
        if len(self._seen) > 100_000:
            self._seen.clear()
        self._seen[(kind, text)] = known = (rule, named)
        return known

    def count(self, events: list, into: dict) -> None:
        for e in events:
            kind = e["event"]
            into["kind"][kind] += 1
            if kind == "move":
                text = e["move"]
                into["head"][text.split(" ", 1)[0]] += 1
            elif kind in ("log", "reveal"):
                text = e["text"]
            else:
                continue
            rule, named = self._read(kind, text)
            into["rule"][rule] += 1
            for k in named:
                into["card"][k] += 1


_tallies: dict = {}  # id(rules) -> (rules, Tally): one per rules file and process


def tally_for(game) -> Tally:
    known = _tallies.get(id(game.rules))
    if known is None or known[0] is not game.rules:
        known = _tallies[id(game.rules)] = (game.rules, Tally(game.rules))
    return known[1]


# ----------------------------------------------------------------------------------------- playing
def play_recorded(game, seed: int, max_decisions: int, agents: Optional[str] = None) -> dict:
    """One game with seed ``seed``, agents per seat (None: simulate's random agent), its events tallied.
    The result has simulate's keys (seed, decisions, outcome, or error) and: who decided first, the
    rounds played and the tally. Without ``agents`` the moves are simulate's, move for move."""
    from rulewright.dsl.errors import RulesError
    tally = tally_for(game)
    counts = {"kind": Counter(), "head": Counter(), "rule": Counter(), "card": Counter()}
    first = None
    made = 0
    try:
        state = game.new_state(seed=seed)
        seats = _agents(agents, game.player_count, seed)
        tally.count(state.drain_events(), counts)
        while not state.is_over() and made < max_decisions:
            player = state.to_move()[0]
            first = player if first is None else first
            state.apply(seats[player - 1].choose(state, player), player=player, atomic=False)
            made += 1
            tally.count(state.drain_events(), counts)
        outcome = state.outcome().to_dict() if state.is_over() else None
    except RulesError as exc:  # sent back as text, as simulate does
        return {"seed": seed, "error": str(exc)}
    rounds = state.vars.get("round_number")
    return {"seed": seed, "decisions": made, "outcome": outcome, "first": first,
            "rounds": rounds if isinstance(rounds, int) else None,
            "tally": {k: dict(v) for k, v in counts.items()}}


def run_recorded(game, ref: str, seeds: list[int], workers: int, max_decisions: int,
                 agents: Optional[str] = None, advance=None, live=None) -> list[dict]:
    """Every seed's recorded game, in seed order, through simulate's worker pool."""
    from rulewright.cli.simulate import run_games
    play = functools.partial(play_recorded, agents=agents)
    return run_games(game, ref, seeds, workers, max_decisions, advance, live, play=play)


# ----------------------------------------------------------------------------------------- statistics
def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (sound near 0 and 1, unlike the normal one)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> Optional[float]:
    """The two-sided p-value that k1/n1 and k2/n2 are the same rate (pooled z test); None if undefined."""
    if not n1 or not n2:
        return None
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return None if k1 / n1 == k2 / n2 else 0.0
    return math.erfc(abs(k1 / n1 - k2 / n2) / se / math.sqrt(2))


def rate(k: int, n: int) -> dict:
    low, high = wilson(k, n)
    return {"count": k, "rate": round(k / n, 4) if n else 0.0, "low": round(low, 4), "high": round(high, 4)}


def spread(values: list) -> Optional[dict]:
    """Mean, standard deviation and quantiles of a list of numbers (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)

    def q(f):
        return ordered[min(len(ordered) - 1, int(f * len(ordered)))]
    return {"n": len(values), "mean": round(statistics.fmean(values), 3),
            "sd": round(statistics.pstdev(values), 3), "min": ordered[0], "p10": q(0.1), "p25": q(0.25),
            "median": q(0.5), "p75": q(0.75), "p90": q(0.9), "max": ordered[-1]}


def analyze(game, results: list[dict], seed: int, agents: Optional[str] = None) -> dict:
    """The report of one set of recorded games (``play_recorded`` results) of ``game``."""
    seats = [str(p) for p in range(1, game.player_count + 1)]
    n = len(results)
    finished = [r for r in results if r.get("outcome") is not None]
    wins = Counter()
    draws = shared = first_wins = 0
    firsts = Counter()
    for r in finished:
        winners = r["outcome"]["winners"]
        if r["outcome"]["draw"]:
            draws += 1
        shared += len(winners) > 1
        for p in winners:
            wins[str(p)] += 1
        if r.get("first") is not None:
            firsts[str(r["first"])] += 1
            first_wins += r["first"] in winners and not r["outcome"]["draw"]
    scores = {p: [r["outcome"]["scores"][p] for r in finished if p in r["outcome"]["scores"]] for p in seats}
    tally = tally_for(game)
    decisions = sum(r.get("decisions", 0) for r in results)
    fires = {}
    for cat in ("kind", "head", "rule", "card"):
        total, games = Counter(), Counter()
        for r in results:
            for key, count in r.get("tally", {}).get(cat, {}).items():
                total[key] += count
                games[key] += 1
        rows = {}
        for key in sorted(total, key=lambda k: (-total[k], str(k))):
            label = key
            extra = {}
            if cat == "rule":
                rule = tally.rules[key] if key >= 0 else None
                label = rule.label if rule else UNMATCHED
                extra = {"file": rule.file, "line": rule.line} if rule else {}
            elif cat == "card":
                extra = {"table": tally.key_table.get(key, "")}
            rows[label] = {"total": total[key], "per_game": round(total[key] / n, 3) if n else 0.0,
                           "per_100_decisions": round(100 * total[key] / decisions, 3) if decisions else 0.0,
                           "games": games[key], **extra}
        fires[cat] = rows
    return {
        "game": game.name, "players": game.player_count, "options": dict(game.options),
        "agents": agents or "random", "seed": seed, "games": n, "finished": len(finished),
        "unfinished": n - len(finished), "draws": rate(draws, n), "shared_wins": shared,
        "wins": {p: rate(wins[p], n) for p in seats},
        "first_player": {**rate(first_wins, n), "fair": round(1 / game.player_count, 4),
                         "seats": {p: firsts[p] for p in seats}},
        "length": spread([r["decisions"] for r in results if "decisions" in r]),
        "rounds": spread([r["rounds"] for r in results if r.get("rounds") is not None]),
        "scores": {p: spread(v) for p, v in scores.items() if v},
        "fires": fires,
        # the raw figures the plots draw; not shown in the table
        "samples": {"length": [r["decisions"] for r in results if "decisions" in r],
                    "scores": {p: v for p, v in scores.items() if v}},
    }


def differences(a: dict, b: dict) -> dict:
    """How B differs from A: each seat's win rate and the first player's, with a p-value each."""
    out = {}
    for p in a["wins"]:
        if p in b["wins"]:
            x, y = a["wins"][p], b["wins"][p]
            out[f"seat {p}"] = {"change": round(y["rate"] - x["rate"], 4),
                                "p": _round(two_proportion_p(x["count"], a["games"], y["count"], b["games"]))}
    x, y = a["first_player"], b["first_player"]
    out["first player"] = {"change": round(y["rate"] - x["rate"], 4),
                           "p": _round(two_proportion_p(x["count"], a["games"], y["count"], b["games"]))}
    x, y = a["draws"], b["draws"]
    out["draws"] = {"change": round(y["rate"] - x["rate"], 4),
                    "p": _round(two_proportion_p(x["count"], a["games"], y["count"], b["games"]))}
    return out


def _round(p):
    return None if p is None else round(p, 4)


# ----------------------------------------------------------------------------------------- the table
def _p(p: Optional[float]) -> str:
    if p is None:
        return ""
    return " (p<0.001)" if p < 0.001 else f" (p={p:.3g})"


def _title(r: dict) -> str:
    opts = "".join(f", {k}={v}" for k, v in r["options"].items())
    return f"{r['game']} ({r['players']} players{opts})"


def _pct(x: dict) -> str:
    return f"{100 * x['rate']:.1f}% [{100 * x['low']:.1f}, {100 * x['high']:.1f}]"


def _dist(s: Optional[dict]) -> str:
    if not s:
        return "-"
    return f"{s['mean']:.1f} ± {s['sd']:.1f} (median {s['median']}, {s['min']}..{s['max']})"


def tables(reports: list[dict], top: int = 15) -> list:
    """Rich tables: the figures of one or more reports side by side (one column per report)."""
    from rich.table import Table
    from rulewright.cli.output import printable  # rich prints a rules text's control characters raw
    heads = ["A", "B"] if len(reports) == 2 else [printable(_title(r)) for r in reports]
    legend = "".join(f"{h}: {printable(_title(r))}\n" for h, r in zip(heads, reports)) if len(reports) == 2 else ""
    main = Table(title=f"{legend}{reports[0]['games']} games each, agents {reports[0]['agents']}, "
                 f"seed {reports[0]['seed']} (95% Wilson intervals)", title_justify="left")
    main.add_column("")
    for h in heads:
        main.add_column(h, overflow="fold")
    diff = differences(reports[0], reports[1]) if len(reports) == 2 else None
    if diff:
        main.add_column("B - A (p)")

    def row(label, cells, key=None):
        extra = []
        if diff:
            d = diff.get(key) if key else None
            extra = [f"{100 * d['change']:+.1f} pts" + _p(d["p"]) if d else ""]
        main.add_row(label, *cells, *extra)
    row("finished / unfinished", [f"{r['finished']} / {r['unfinished']}" for r in reports])
    row("draws", [_pct(r["draws"]) for r in reports], "draws")
    row("shared wins", [str(r["shared_wins"]) for r in reports])
    seats = sorted({p for r in reports for p in r["wins"]}, key=int)
    for p in seats:
        row(f"seat {p} wins", [_pct(r["wins"][p]) if p in r["wins"] else "-" for r in reports], f"seat {p}")
    row("first player wins", [_pct(r["first_player"]) + f" (fair {100 * r['first_player']['fair']:.1f}%)"
                              for r in reports], "first player")
    row("game length (decisions)", [_dist(r["length"]) for r in reports])
    if any(r["rounds"] for r in reports):
        row("rounds", [_dist(r["rounds"]) for r in reports])
    for p in seats:
        if any(p in r["scores"] for r in reports):
            row(f"seat {p} score", [_dist(r["scores"].get(p)) for r in reports])
    out = [main]
    for cat, title in (("rule", "rules that fire"), ("card", "table keys named"), ("head", "moves by first word")):
        if not any(r["fires"][cat] for r in reports):
            continue
        t = Table(title=f"{title}: per game (share of games)"
                        f"{'; the largest changes first' if diff else ''}",
                  title_justify="left")
        t.add_column({"rule": "rule (where: statement)", "card": "key (table)", "head": "first word"}[cat],
                     overflow="fold")
        for h in heads:
            t.add_column(h, justify="right")
        labels = _top(reports, cat, top)
        for label in labels:
            cells = []
            for r in reports:
                f = r["fires"][cat].get(label)
                cells.append(f"{f['per_game']:.2f} ({100 * f['games'] / r['games']:.0f}%)" if f else "0")
            if cat == "card":
                table = next(r["fires"][cat][label]["table"] for r in reports if label in r["fires"][cat])
                label = f"{label} ({table})"
            t.add_row(printable(label), *cells)
        out.append(t)
    return out


def _top(reports: list[dict], cat: str, top: int) -> list[str]:
    """The rows worth showing: with two reports the largest changes in how often a row fires per game,
    else the most frequent. (report.json also has each row per 100 decisions, for variants whose games
    are shorter or longer.)"""
    labels = {label for r in reports for label in r["fires"][cat]}

    def per_game(r, label):
        f = r["fires"][cat].get(label)
        return f["per_game"] if f else 0.0
    if len(reports) == 2:
        a, b = reports

        def change(label):  # relative change, so that a rare rule that doubles shows as well as a common one
            x, y = per_game(a, label), per_game(b, label)
            return abs(y - x) / max(x, y, 1e-9) * math.sqrt(max(x, y))
        ordered = sorted(labels, key=lambda lab: (-change(lab), lab))
    else:
        ordered = sorted(labels, key=lambda lab: (-max(per_game(r, lab) for r in reports), lab))
    return ordered[:top]


# ----------------------------------------------------------------------------------------- the files
def write_report(folder: str, reports: list[dict], top: int = 25) -> list[str]:
    """report.json, fires.csv and the plots (PNG and SVG) in ``folder``; the names of the files written."""
    import csv
    from rulewright.cli.output import csv_cell, json_text
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    written = []
    data = {"reports": reports}
    if len(reports) == 2:
        data["differences"] = differences(*reports)
    with open(path / "report.json", "w", encoding="utf-8") as f:
        f.write(json_text(data, indent=1) + "\n")
    written.append("report.json")
    with open(path / "fires.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["report", "game", "category", "what", "total", "per_game", "per_100_decisions", "games"])
        for i, r in enumerate(reports):
            for cat, rows in r["fires"].items():
                for label, v in rows.items():
                    w.writerow([csv_cell(cell) for cell in (
                        "AB"[i] if len(reports) == 2 else i + 1, r["game"], cat, label, v["total"],
                        v["per_game"], v["per_100_decisions"], v["games"])])
    written.append("fires.csv")
    try:
        import matplotlib  # noqa: F401  (the 'report' extra)
    except ImportError:
        from rulewright.cli.output import err
        err("note: no plots: they need matplotlib (pip install 'rulewright[report]')")
        return written
    written += plot(path, reports, top)
    return written


def plot(path: Path, reports: list[dict], top: int) -> list[str]:
    """Win rates, game lengths, scores and the rules that fire most (or change most), PNG and SVG each."""
    import matplotlib
    matplotlib.use("Agg")  # files only, never a window
    matplotlib.rcParams["svg.hashsalt"] = "rulewright"  # the same figures give the same SVG text
    # a rules text is drawn as written: a '$' in a title or a move is a dollar, never mathematics
    with matplotlib.rc_context({"text.parse_math": False, "text.usetex": False}):
        return _plot(path, reports, top)


def _plot(path: Path, reports: list[dict], top: int) -> list[str]:
    import matplotlib.pyplot as plt
    from rulewright.cli.output import plot_text
    names = [plot_text(f"{'AB'[i] + ': ' if len(reports) == 2 else ''}{_title(r)}") for i, r in enumerate(reports)]
    width = 0.8 / len(reports)
    written = []

    def legend(ax, *handles):  # under the plot, where it hides no bar
        ax.figure.legend(*(handles or ax.get_legend_handles_labels()), fontsize="small", loc="outside lower center")

    def save(fig, stem):
        fig.savefig(path / f"{stem}.png", dpi=100, metadata={"Software": None}, bbox_inches="tight")
        fig.savefig(path / f"{stem}.svg", metadata={"Date": None}, bbox_inches="tight")
        plt.close(fig)
        written.extend([f"{stem}.png", f"{stem}.svg"])

    # win rates per seat and the first player's, with their intervals
    seats = sorted({p for r in reports for p in r["wins"]}, key=int)
    groups = [f"seat {p}" for p in seats] + ["first player", "draws"]
    fig, ax = plt.subplots(layout="constrained", figsize=(max(6, 1.2 * len(groups)), 4))
    for i, (r, name) in enumerate(zip(reports, names)):
        cells = [r["wins"].get(p) for p in seats] + [r["first_player"], r["draws"]]
        xs = [j + (i - (len(reports) - 1) / 2) * width for j in range(len(groups))]
        ys = [c["rate"] if c else 0 for c in cells]
        err = [[c["rate"] - c["low"] if c else 0 for c in cells], [c["high"] - c["rate"] if c else 0 for c in cells]]
        ax.bar(xs, ys, width, yerr=err, capsize=3, label=name)
    ax.axhline(1 / reports[0]["players"], color="grey", linestyle=":", linewidth=1, label="fair share")
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylabel("share of games (95% interval)")
    ax.set_title("wins")
    legend(ax)
    save(fig, "wins")

    # game length
    fig, ax = plt.subplots(layout="constrained", figsize=(7, 4))
    lengths = [r["samples"]["length"] for r in reports]
    if any(lengths):
        ax.hist(lengths, bins=30, label=names, alpha=0.8)
    ax.set_xlabel("decisions per game")
    ax.set_ylabel("games")
    ax.set_title("game length")
    legend(ax)
    save(fig, "length")

    # scores per seat
    if any(r["samples"]["scores"] for r in reports):
        fig, ax = plt.subplots(layout="constrained", figsize=(max(6, 1.5 * len(seats)), 4))
        data, positions, colours = [], [], []
        for i, r in enumerate(reports):
            for j, p in enumerate(seats):
                if p in r["samples"]["scores"]:
                    data.append(r["samples"]["scores"][p])
                    positions.append(j + (i - (len(reports) - 1) / 2) * width)
                    colours.append(f"C{i}")
        parts = ax.boxplot(data, positions=positions, widths=width * 0.9, patch_artist=True)
        for box, colour in zip(parts["boxes"], colours):
            box.set_facecolor(colour)
        ax.set_xticks(range(len(seats)), [f"seat {p}" for p in seats])
        ax.set_ylabel("final score")
        ax.set_title("scores")
        legend(ax, [parts["boxes"][colours.index(f"C{i}")] for i in range(len(reports)) if f"C{i}" in colours],
               [n for i, n in enumerate(names) if f"C{i}" in colours])
        save(fig, "scores")

    # the rules that fire
    labels = _top(reports, "rule", top)
    if labels:
        fig, ax = plt.subplots(layout="constrained", figsize=(10, 0.3 * len(labels) + 1.5))
        height = 0.8 / len(reports)
        for i, (r, name) in enumerate(zip(reports, names)):
            ys = [j + (i - (len(reports) - 1) / 2) * height for j in range(len(labels))]
            xs = [r["fires"]["rule"].get(lab, {}).get("per_game", 0) for lab in labels]
            ax.barh(ys, xs, height, label=name)
        ax.set_yticks(range(len(labels)), [plot_text(lab if len(lab) <= 70 else lab[:67] + "...") for lab in labels],
                      fontsize="x-small")
        ax.invert_yaxis()
        ax.set_xlabel("times per game")
        ax.set_title("rules that fire" + (" (largest changes)" if len(reports) == 2 else ""))
        legend(ax)
        save(fig, "rules")
    return written
