"""Machine instructions per game, counted by valgrind: a speed figure that a busy machine cannot blur.

    python benchmarks/instructions.py [--games N] [--only NAME ...]

Each contender plays N random games (the same loop as classic.py) in a child process run under
``valgrind --tool=callgrind``; the count for 0 games (start-up, imports, loading) is subtracted,
so what is left is the cost of the games alone. PYTHONHASHSEED is fixed so two runs agree. Slow
(valgrind runs Python some 50 times slower): a few minutes for the default 300 games.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# name -> code that defines play(rng) for one game; run with HERE on sys.path
CONTENDERS = {
    "rulewright tic-tac-toe": "import rulewright\nfrom playouts import rulewright_runner\n"
                              "play = rulewright_runner(rulewright.load('tic-tac-toe'))",
    "openspiel python_tic_tac_toe": "import pyspiel\nfrom open_spiel.python.games import tic_tac_toe\n"
                                    "from playouts import openspiel_runner\n"
                                    "play = openspiel_runner(pyspiel.load_game('python_tic_tac_toe'))",
    "rulewright connect-four": "import rulewright\nfrom playouts import rulewright_runner\n"
                               "play = rulewright_runner(rulewright.load('connect-four'))",
    "openspiel connect_four": "import pyspiel\nfrom playouts import openspiel_runner\n"
                              "play = openspiel_runner(pyspiel.load_game('connect_four'))",
}

_PLAY = "import random, sys\nsys.path.insert(0, {here!r})\n{setup}\nrng = random.Random(1)\n" \
        "for _ in range({games}): play(rng)\n"


def count(setup: str, games: int) -> int:
    code = _PLAY.format(here=str(HERE), setup=setup, games=games)
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          sys.executable, "-c", code], capture_output=True, text=True, env=env)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if out.returncode != 0 or not found:
        raise SystemExit(f"valgrind failed:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--only", nargs="*", choices=list(CONTENDERS), help="measure only these")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed", file=sys.stderr)
        return 2
    per_game = {}
    for name in args.only or CONTENDERS:
        setup = CONTENDERS[name]
        per_game[name] = (count(setup, args.games) - count(setup, 0)) / args.games
        print(f"  {name:<32} {per_game[name]:>14,.0f} instructions per game", flush=True)
    for ours, theirs in (("rulewright tic-tac-toe", "openspiel python_tic_tac_toe"),
                         ("rulewright connect-four", "openspiel connect_four")):
        if ours in per_game and theirs in per_game:
            print(f"  {theirs} / {ours}: {per_game[theirs] / per_game[ours]:.2f}"
                  " (above 1: ours does less work per game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
