"""The old engine against this one, measured alternately in one run: the before/after ratios of
docs/performance.md.

    python benchmarks/compare.py --old /path/to/old/checkout [--seconds S] [--rounds R] [--only KEY ...]

The old engine is any rulewright checkout (e.g. a pinned commit in a git worktree: ``git worktree add
--detach ../baseline 7886521``); it needs no install of its own: each measurement is a child process
(benchmarks/measure_one.py) run with this Python and a folder where ``rulewright`` links to one of the
two checkouts. Old and new take turns, R rounds each; the best run of each is compared (another
process can slow a run down, never speed it up), the median shown in brackets.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
NEW = HERE.parent

# key -> (mode, game, players): see measure_one.py for the modes
CASES = {
    "tic-tac-toe playout": ("playout", "tic-tac-toe", "-"),
    "connect-four playout": ("playout", "connect-four", "-"),
    "biplane-2 playout": ("playout", "biplane", "2"),
    "planes-3 playout": ("playout", "planes", "3"),
    "barnstormers-2 playout": ("playout", "barnstormers", "2"),
    "air-show-3 playout": ("playout", "air-show", "3"),
    "flying-machines-2 playout": ("playout", "magnificent-flying-machines", "2"),
    "connect-four search": ("search", "connect-four", "-"),
    "biplane-2 search": ("search", "biplane", "2"),
    "connect-four actions": ("actions", "connect-four", "-"),
    "biplane-2 actions": ("actions", "biplane", "2"),
    "fill 3x3": ("fill", "3", "-"),
    "fill 20x20": ("fill", "20", "-"),
}


def _link(checkout: Path, folder: Path) -> str:
    folder.mkdir()
    (folder / "rulewright").symlink_to(checkout.resolve(), target_is_directory=True)
    return str(folder)


def _measure(path: str, case: tuple, seconds: float, seed: int):
    env = dict(os.environ, PYTHONPATH=path, PYTHONHASHSEED="0")
    out = subprocess.run([sys.executable, str(HERE / "measure_one.py"), *case, str(seconds), str(seed)],
                         capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    if out.returncode != 0:
        raise SystemExit(f"measure_one.py {' '.join(case)} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True, help="the old engine's checkout")
    ap.add_argument("--seconds", type=float, default=2.0, help="length of one timed run (CPU seconds)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating runs per engine")
    ap.add_argument("--only", nargs="*", choices=list(CASES), help="measure only these")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        engines = {"old": _link(Path(args.old), Path(tmp) / "old"), "new": _link(NEW, Path(tmp) / "new")}
        print(f"{'case':<24} {'old':>22} {'new':>22}  new/old")
        for key in args.only or CASES:
            case = CASES[key]
            runs: dict = {"old": [], "new": []}
            for r in range(args.rounds):
                for name, path in engines.items():
                    runs[name].append(_measure(path, case, args.seconds, seed=1 + r))
            if None in runs["old"]:  # the old engine lacks the integer path: compare with its search
                runs["old"] = [_measure(engines["old"], ("search",) + case[1:], args.seconds, seed=1 + r)
                               for r in range(args.rounds)]
            unit = "us/option" if case[0] == "fill" else "/s"
            cells = []
            best = {}
            for name in ("old", "new"):
                if unit == "/s":
                    values = [x["per_s"] for x in runs[name]]
                    best[name] = max(values)
                else:
                    values = [x["us_per_option"] for x in runs[name]]
                    best[name] = min(values)
                cells.append(f"{best[name]:>10,.1f} ({statistics.median(values):>9,.1f})")
            ratio = best["new"] / best["old"] if unit == "/s" else best["old"] / best["new"]
            print(f"{key:<24} {cells[0]:>22} {cells[1]:>22}  {ratio:5.2f}  {unit}", flush=True)
    print("(/s: decisions or states per second, higher is better; us/option: lower is better;"
          " new/old above 1 means faster)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
