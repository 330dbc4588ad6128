"""CPU time of `rulewright validate`: every shipped game, and generated files that stress the checks.

    python benchmarks/validate.py [--rounds R] [--only NAME]

Each file is validated by a whole `rulewright validate` process (start-up included) whose cache holds
the parser's tables but nothing of the file (parsing and checking included, nothing read back), R times; the figure is the best CPU time (user + system) of
the process, so other work on the machine weighs little. Targets: every shipped game
under 10 s (issue 38: it starts every player count and option value; issue 30 asked 2 s when it started one); any file under the size limit (dsl/parser.py: MAX_RULES_BYTES) under 5 s. The generated
files are the issue's 3,000 unknown names (54 kB), and files just under the limit made of one kind of
line each: unknown names, unknown names among thousands of declared ones, fields, locals, nested
quantifiers; and variants with 1,500 errata on one place (alternatives, arms, branches). Exit status 1 when a
target is missed.
"""
from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

EXE = [sys.executable, "-m", "rulewright", "validate"]
SHIPPED_TARGET, ANY_TARGET = 10.0, 5.0  # a shipped game starts every option value (issue 38)


def generated(limit: int) -> dict:
    """name -> rules text: each made of one kind of line, up to just under ``limit`` characters."""
    def fill(head: list, line, tail=("    end game",), size=limit - 500) -> str:
        out, used, i = list(head), sum(len(h) + 1 for h in head), 0
        while used < size:
            text = line(i)
            out.append(text)
            used += len(text) + 1
            i += 1
        return "\n".join(out + list(tail)) + "\n"
    head = ['game "Stress"', "players 2", "var score = 0"]
    declared = [f"var declared_{i} = 0" for i in range(2000)]
    return {
        "3,000 unknown names (the issue's)": fill(head + ["turn:"], lambda i: f"    score = unknown_{i} + 1",
                                                  size=54_000),
        "unknown names": fill(head + ["turn:"], lambda i: f"    score = unknown_{i} + 1"),
        "unknown names among 2,000 declared": fill(head + declared + ["turn:"], lambda i: f"    score = undeclared_{i}"),
        "unknown fields": fill(head + ["turn:"], lambda i: f"    score = me.field_{i}"),
        "locals": fill(head + ["turn:"], lambda i: f"    let local_{i} = {i}"),
        "nested quantifiers": fill(head + ["turn:"],
                                   lambda i: f"    score = sum(x in [1, 2] : sum(y in [x] : x + y + {i}))"),
    }


ERRATA_BASE = ("errata-base.rules", '''game "Shop"
players 2
enum suit: cups, swords
enum kind: up, down
player var coins = 3
player var score = 0
def worth(s) = match s { cups: 1, swords: 2 }
procedure gain(p, k):
    if k == up:
        p.coins += 1
    elif k == down:
        p.coins += 2
turn:
    step "shop":
        choose:
            "pay" if me.coins > 0:
                gain(me, up)
                me.score += worth(swords)
            "rest":
                me.coins += 1
end when round_number == 3 after round
''')
ERRATA_KINDS = {"alternatives": "alternatives added to one choice", "arms": "arms added to one match",
                "branches": "branches added to one if/elif"}


def errata(kind: str, n: int) -> str:
    """A variant of ERRATA_BASE with ``n`` errata of ``kind`` on one place (issue 38's leftovers: 1,500 took
    minutes when each erratum walked and copied its place; tests/test_errata_scale.py counts the work)."""
    out = [f'extends "{ERRATA_BASE[0]}"']
    if kind == "arms":
        out.append("add to enum suit: " + ", ".join(f"m{i}" for i in range(n)))
    if kind == "branches":
        out.append("add to enum kind: " + ", ".join(f"k{i}" for i in range(n)))
    for i in range(n):
        out += {"alternatives": ['in step "shop", add before "rest":', f'    "alt {i}":', f"        me.score += {i}"],
                "arms": ["in def worth, add arm:", f"    m{i}: {i}"],
                "branches": ["in procedure gain, add:", f"    elif k == k{i}:", f"        p.score += {i}"]}[kind]
    return "\n".join(out) + "\n"


def cpu_of(path: Path, cache: Path) -> float:
    """CPU seconds (user + system) of one `rulewright validate path` with the cache folder ``cache``."""
    env = dict(os.environ, RULEWRIGHT_CACHE=str(cache))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(EXE + [str(path)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def fresh_cache(folder: Path, tiny: Path) -> Path:
    """A cache folder holding the parser's tables (made once per installation) and nothing of ``path``."""
    subprocess.run(EXE + [str(tiny)], env=dict(os.environ, RULEWRIGHT_CACHE=str(folder)),
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return folder


def main(argv=None) -> int:
    from rulewright.dsl.parser import MAX_RULES_BYTES
    from rulewright.interpreter.api import shipped_games

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", help="only the files whose name contains this")
    args = ap.parse_args(argv)
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs; "
          f"best CPU time of {args.rounds} runs, nothing of the file cached")
    missed = False
    with tempfile.TemporaryDirectory() as folder:
        tiny = Path(folder) / "tiny.rules"
        tiny.write_text('game "Tiny"\nplayers 2\nturn:\n    end game\n', encoding="utf-8")
        files = [(name, path, SHIPPED_TARGET) for name, path in sorted(shipped_games().items())]
        (Path(folder) / ERRATA_BASE[0]).write_text(ERRATA_BASE[1], encoding="utf-8")
        variants = {f"1,500 {words}": errata(kind, 1500) for kind, words in ERRATA_KINDS.items()}
        for name, text in {**generated(MAX_RULES_BYTES), **variants}.items():
            path = Path(folder) / f"{len(files)}.rules"
            path.write_text(text, encoding="utf-8")
            files.append((f"{name} ({len(text) // 1000} kB)", path, ANY_TARGET))
        for name, path, target in files:
            if args.only and args.only not in name:
                continue
            times = [cpu_of(path, fresh_cache(Path(folder) / f"cache-{len(name)}-{i}", tiny))
                     for i in range(args.rounds)]
            ok = min(times) < target
            missed |= not ok
            print(f"{name:<48} {min(times):6.2f} s   target {target:.0f} s: {'met' if ok else 'MISSED'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
