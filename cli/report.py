"""Balance reports on the command line: the tables `compare` and `simulate --report` print, and the
files they write (report.json, fires.csv and the plots). The figures themselves are the library's
(interpreter/play/balance.py: ``play_recorded`` plays and tallies a game, ``analyze`` makes a report);
``run_recorded`` plays the games through simulate's worker pool.
"""
from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Optional

from rulewright.interpreter.play.balance import differences, play_recorded


# ----------------------------------------------------------------------------------------- playing
def run_recorded(game, ref: str, seeds: list[int], workers: int, max_decisions: int,
                 agents: Optional[str] = None, advance=None, live=None) -> list[dict]:
    """Every seed's recorded game, in seed order, through simulate's worker pool."""
    from rulewright.cli.simulate import run_games
    play = functools.partial(play_recorded, agents=agents)
    return run_games(game, ref, seeds, workers, max_decisions, advance, live, play=play)


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
