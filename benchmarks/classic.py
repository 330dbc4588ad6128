"""Speed of the classic games against OpenSpiel, in one process, same random agent.

    python benchmarks/classic.py [--seconds S] [--rounds R]

tic-tac-toe: ours vs OpenSpiel's pure-Python ``python_tic_tac_toe`` (the fair comparison: both
interpreted Python) and its C++ ``tic_tac_toe`` (for scale). connect-four: ours vs OpenSpiel's
C++ ``connect_four``. Both games also against a class written by hand in plain Python with our API
(benchmarks/reference.py): the limit of a Python engine, so our speed reads as a ratio of it. Then a
tree search's step, clone + legal moves + apply, in states/s (ours by texts and by numbers). Every contender plays whole random games (uniform over the legal moves,
fixed seeds) for S seconds of CPU time, R times, alternating; the best run's rate is printed, with
the median of the R runs in brackets.
"""
from __future__ import annotations

import argparse
import platform
import sys

import rulewright
from playouts import measure, openspiel_runner, rulewright_runner, search_runner
import reference


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _table(title: str, results: dict, ours: str, others: list) -> None:
    print(f"\n{title}")
    for name, r in results.items():
        print(f"  {name:<38} {r['games_per_s']:>9,.0f} games/s ({r['median_games_per_s']:>9,.0f})"
              f" {r['decisions_per_s']:>11,.0f} decisions/s")
    for other in others:
        ratio = results[ours]["games_per_s"] / results[other]["games_per_s"]
        print(f"  ratio {ours} / {other}: {ratio:.2f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="length of one timed run")
    ap.add_argument("--rounds", type=int, default=5, help="alternating runs per contender")
    args = ap.parse_args(argv)
    try:
        import pyspiel
        from open_spiel.python.games import tic_tac_toe  # noqa: F401  registers python_tic_tac_toe
    except ImportError:
        print("open_spiel is not installed: pip install open_spiel", file=sys.stderr)
        return 2
    print(f"Python {platform.python_version()} on {_cpu()}, rulewright vs open_spiel")
    print(f"{args.rounds} alternating runs of {args.seconds:g} CPU-seconds each; best run (median)")

    ttt = {
        "rulewright tic-tac-toe": rulewright_runner(rulewright.load("tic-tac-toe")),
        "plain Python class": rulewright_runner(reference.TIC_TAC_TOE),
        "openspiel python_tic_tac_toe (Python)": openspiel_runner(pyspiel.load_game("python_tic_tac_toe")),
        "openspiel tic_tac_toe (C++)": openspiel_runner(pyspiel.load_game("tic_tac_toe")),
    }
    res = measure(ttt, args.seconds, args.rounds)
    _table("tic-tac-toe", res, "rulewright tic-tac-toe",
           ["plain Python class", "openspiel python_tic_tac_toe (Python)", "openspiel tic_tac_toe (C++)"])

    c4 = {
        "rulewright connect-four": rulewright_runner(rulewright.load("connect-four")),
        "plain Python class": rulewright_runner(reference.CONNECT_FOUR),
        "openspiel connect_four (C++)": openspiel_runner(pyspiel.load_game("connect_four")),
    }
    res = measure(c4, args.seconds, args.rounds)
    _table("connect four", res, "rulewright connect-four", ["plain Python class", "openspiel connect_four (C++)"])

    for title, ours, ref, theirs in (("tic-tac-toe", "tic-tac-toe", reference.TIC_TAC_TOE, "tic_tac_toe"),
                                     ("connect four", "connect-four", reference.CONNECT_FOUR, "connect_four")):
        game = rulewright.load(ours)
        search = {
            "rulewright legal_moves/apply": search_runner(game),
            "rulewright legal_actions/apply_action": search_runner(game, integer=True),
            "plain Python class": search_runner(ref, integer=True),
            f"openspiel {theirs} (C++)": search_runner(pyspiel.load_game(theirs)),
        }
        res = measure(search, args.seconds, args.rounds)
        print(f"\n{title}: clone + legal moves + apply (states/s)")
        for name, r in res.items():
            print(f"  {name:<38} {r['decisions_per_s']:>11,.0f} states/s")
        for name in ("rulewright legal_moves/apply", "rulewright legal_actions/apply_action"):
            for other in ("plain Python class", f"openspiel {theirs} (C++)"):
                print(f"  ratio {name} / {other}: {res[name]['decisions_per_s'] / res[other]['decisions_per_s']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
