"""Speed of any shipped game (or rules file): random playouts per second and decisions per second.

    python benchmarks/games.py NAME [--players N] [--option name=value ...] [--seconds S] [--rounds R]

A decision is one applied move (legal_moves() then apply()). Games with hidden information or
simultaneous choices are played through the same public API, so the figure is what a bot sees.
"""
from __future__ import annotations

import argparse
import platform
import sys

import rulewright
from rulewright.dsl.errors import RulesError
from playouts import measure, rulewright_runner


def _options(pairs: list) -> dict:
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option wants name=value, not {pair!r}")
        out[name] = value
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name", help="a shipped game name or a path to a .rules file")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--seconds", type=float, default=2.0, help="length of one timed run")
    ap.add_argument("--rounds", type=int, default=3, help="timed runs (best and median shown)")
    args = ap.parse_args(argv)
    try:
        game = rulewright.load(args.name, players=args.players, options=_options(args.option))
    except RulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    res = measure({args.name: rulewright_runner(game)}, args.seconds, args.rounds)[args.name]
    per_game = res["decisions_per_s"] / res["games_per_s"]
    print(f"{game!r} on Python {platform.python_version()}")
    print(f"  {res['games_per_s']:,.1f} playouts/s  {res['decisions_per_s']:,.0f} decisions/s  "
          f"({per_game:.1f} decisions per game; best of {res['runs']} runs of {args.seconds:g} CPU-seconds,"
          f" median {res['median_games_per_s']:,.1f} playouts/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
