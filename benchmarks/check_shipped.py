"""`rulewright check` on every shipped aviation game and variant: the verdict and the time each takes.

    python benchmarks/check_shipped.py [--only NAME] [-- CHECK OPTIONS...]

Every shipped game and variant in games/, then every variant in docs/variants/.
Each game is checked by a whole `rulewright check GAME --json` process (every player count and option
value, at the default size unless options follow `--`: `-- -n 2 --greedy 0`); the figures are the
wall time, the CPU time of the process and its workers (user + system), and the verdict's counts.
The tests keep a small run (tests/test_invariants.py: the default configuration of each game, 200
moves); this is the full one. Target (issue 40): Magnificent Flying Machines under 5 minutes on 2
cores at the default size. Exit status 1 when a game's verdict is not ok.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

GAMES = ["air-show", "barnstormers", "barnstormers-extra-stunts", "barnstormers-short-show", "biplane",
         "biplane-fast-shots", "biplane-more-ammo", "magnificent-flying-machines", "planes", "planes-own-layout",
         "planes-refill", "planes-short-track"]
# the variants the docs teach with, checked as files
VARIANTS = sorted(str(p) for p in (Path(__file__).resolve().parent.parent / "docs" / "variants").glob("*.rules"))


def check(game: str, extra: list) -> tuple:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "rulewright", "check", game, "--json", *extra],
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(done.stdout) if done.stdout.strip() else {"ok": False, "error": done.stderr[-2000:]}, wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="one game")
    parser.add_argument("--skip", action="append", default=[], help="a game not to check (may be repeated)")
    parser.add_argument("extra", nargs="*", help="options for rulewright check (after --)")
    args = parser.parse_args()
    failed = False
    for game in [args.only] if args.only else [g for g in GAMES + VARIANTS if g not in args.skip]:
        report, wall, cpu = check(game, args.extra)
        failed = failed or not report.get("ok")
        if "error" in report:
            print(f"{game}: could not run: {report['error']}")
            continue
        fs = report["first_seat"]
        print(f"{game}: {'ok' if report['ok'] else 'FAILED'}, {len(report['configurations'])} configurations, "
              f"{report['games']} games, {report['invariants']} invariants; broken {len(report['broken'])}, "
              f"endless {len(report['endless'])}, long {len(report['long'])}, stalls {len(report['stalled'])}, "
              f"errors {len(report['errors'])}; "
              f"first seat {100 * fs['win_rate']:.1f}% (fair {100 * fs['fair']:.1f}%); "
              f"{wall:.1f} s wall, {cpu:.1f} s CPU", flush=True)
        for e in report["endless"][:3]:
            print(f"  endless: {e['players']} players {e['options']} {e['agent']} seed {e['seed']}")
        for x in report["long"][:3]:
            print(f"  long: {x['players']} players {x['options']} {x['agent']} seed {x['seed']}, ended by "
                  f"{x['finished_by']} after {x['played_on']} more decisions")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
