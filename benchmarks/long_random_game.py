"""A game random players take hundreds of thousands of decisions to end, played to its end: the long
random game the test suite no longer plays (tests/barnstormers/test_playouts.py plays the same
configuration with one rush pilot, in about 3,000 decisions).

    python benchmarks/long_random_game.py [GAME] [-p PLAYERS] [-o NAME=VALUE ...] [--seed S] [--limit N]

The default is Barnstormers for four players, extreme level, mystery stunts and the draft: every stunt
is in the players' hands and the show ends only when one has performed all twelve of theirs. Seed 7 ends
after 339,247 decisions (19 s CPU); the test kit's random game of seed 7 took about 190,000, its seeds
0-6 run past 500,000. Prints the decisions, whether the game ended
(and its winners) and the CPU time; the invariants are checked every 5,000 decisions. Exit status 1 when
the game did not end within the limit or an invariant broke.
"""
from __future__ import annotations

import argparse
import random
import sys
import time

import rulewright
from rulewright.interpreter.play.invariants import Watch


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="barnstormers")
    parser.add_argument("-p", "--players", type=int, default=4)
    parser.add_argument("-o", "--option", action="append", metavar="NAME=VALUE",
                        help="an option (default for Barnstormers: level=extreme, mystery=on, draft=on)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--limit", type=int, default=500_000)
    args = parser.parse_args()
    pairs = args.option if args.option is not None else (
        ["level=extreme", "mystery=on", "draft=on"] if args.game == "barnstormers" else [])
    options = dict(p.split("=", 1) for p in pairs)
    st = rulewright.load(args.game, players=args.players, options=options).new_state(seed=args.seed)
    rng, watch = random.Random(args.seed), Watch(st.game)
    start, made = time.process_time(), 0
    while not st.is_over() and made < args.limit:
        checked = (made + 1) % 5000 == 0
        if checked:
            watch.before(st)  # what was(x) reads: the state just before this move
        st.apply(rng.choice(st.legal_moves()), atomic=False)
        st.drain_events()
        made += 1
        found = watch.broken(st) if checked else None
        if found is not None:
            print(f"after {made} decisions: invariant {found[0].name!r} is broken: {found[1]}")
            return 1
    ended = f"ended, winners {st.outcome().winners}" if st.is_over() else "still running"
    print(f"{args.game} {options} seed {args.seed}: {made} decisions, {ended}; "
          f"{time.process_time() - start:.1f} s CPU")
    return 0 if st.is_over() else 1


if __name__ == "__main__":
    sys.exit(main())
