"""Start-up of the command line: wall time of whole `rulewright` processes, best and median of a few.

    python benchmarks/startup.py [--rounds R]

Targets (issue 15 item 7): `--help` under 0.3 s, `list` under 0.6 s. `list` and a first `show` are
measured with a warm cache (the usual case: the cache fills on the first run) and with an empty one
(RULEWRIGHT_CACHE pointed at a fresh folder), so the cache's worth shows too. Exit status 1 when a
target is missed.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXE = [sys.executable, "-m", "rulewright"]
TARGETS = {"--help": 0.3, "list": 0.6}


def timed(args: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(EXE + args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args(argv)
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    missed = False
    with tempfile.TemporaryDirectory() as folder:
        warm = dict(os.environ, RULEWRIGHT_CACHE=str(Path(folder) / "warm"))
        for command in (["--help"], ["list"], ["show", "barnstormers", "-s", "1"]):
            timed(command, warm)  # fills the cache
            cold_times = []
            for i in range(min(args.rounds, 3)):
                cold = dict(os.environ, RULEWRIGHT_CACHE=str(Path(folder) / f"cold-{command[0]}-{i}"))
                cold_times.append(timed(command, cold))
            times = [timed(command, warm) for _ in range(args.rounds)]
            name = " ".join(command)
            target = TARGETS.get(command[0])
            verdict = ""
            if target is not None:
                ok = statistics.median(times) < target
                missed |= not ok
                verdict = f"  target {target} s: {'met' if ok else 'MISSED'}"
            print(f"{name:<24} warm cache: best {min(times):.3f} s, median {statistics.median(times):.3f} s;"
                  f"  empty cache: median {statistics.median(cold_times):.3f} s{verdict}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
