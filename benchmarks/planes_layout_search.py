"""Layout search for issue 12 item 2 (the PLANES Game Example on Flying Cloud): an exploration tool,
not a test and not a speed figure.

    python benchmarks/planes_layout_search.py [loop|chord] [SECONDS_PER_PLACEMENT] [SHARD/SHARDS]

The airport is designed data; this script looks for a floor graph (14 spaces: P1-P4 and ten spaces
of two grey cubes) and places for the six gates (G1-G4, N1, N2, each beside one space) on which the
three-player Game Example can be followed turn by turn. The gates are not fixed in advance: each beat
of the example that boards or names a gate places it (the space Blue skips in round 1 is the front
of N2, the space Red skips in round 3 is the front of G3, the last space of Yellow's boarding move is
the front of G2, ...). Beats, in the rulebook's words:

  R1 Red: no action, all 5 red cubes move; Yellow: Draw 3 Discard 1, a move; "Red is in position to
     board her plane on her next turn"; Blue: Skip 1 Space, "skipping over the space next to gate
     N2", "a blockage is created", Red can no longer board; goal "A Blank Space" (an empty space).
  R2 Red: "moving 3 active cubes", goal "1 Single Red Cube"; Yellow: Move Twice, "moves 4 active
     cubes one space. This creates a blockage temporarily", then "picks up all 8 active cubes,
     removes the blockage" and boards a yellow cube (track 1); Blue: "removes the blockage and moves
     the 7 active cubes. This creates a new blockage in front of gate G1", goal "5 Cubes (3 Colors)".
  R3 Red: Skip 1 Space, "picking up 5 active cubes", "skipping the space next to gate G3 she succeeds
     in boarding a neutral cube" (track 2), goal "Visited a Help Desk"; Yellow: Move Backwards,
     boards a yellow cube (track 3), goal "4 Cubes (4 Unique Colors)"; Blue: Move Only Your Party,
     "She moves her single Blue cube right into her gate G3" (track 4).

Findings (issue 12 item 2, 24 November 2026): none on a single loop of 14 spaces, and none can be.
Yellow's Move Twice needs a space of exactly 4 cubes (a yellow among them) and the next one of exactly
4, at most one grey among the 8 (seven party cubes make the cone). Until then greys leave only the
space Red's round-2 move starts from (the round-1 moves start on P spaces), so both are start spaces,
side by side; P4 keeps its five greens, P3 gets back at most Red's 3 cubes, so they are P1 and P2,
refilled to 4 and 4 after their owners emptied them in round 1; on one loop the one where Blue's
round-1 move does not stop gets at most 3 (docs/games/planes.md, assumption 41, gives the count).
The count is the argument; the search is not: a run without that pruning (8 s per placement, P2
at 1 to 5 spaces after P1) found no fit but timed out on about 70 placements, and a run with it (60 s
per placement, P2 just after P1) timed out on each of the 10 placements it reached. An airport with
branches might fit: ``chord`` adds one extra arrow to the loop (not run).

    python benchmarks/planes_layout_search.py loop 60 0/2   # and 1/2 on the other core

The Move Phase of games/planes.rules is copied here for speed (moves); the rules file stays the one
authority: a layout found here must be checked with the real engine before it is used.
"""
from __future__ import annotations

import itertools
import sys

ORDER = "RYBGN"
NEUTRALS = "GN"                      # three players: green is nobody's, grey is grey
GATE_COLOUR = {"G1": "R", "G2": "Y", "G3": "B", "G4": "G", "N1": "N", "N2": "N"}


def party(cs):
    return sum(c != "N" for c in cs)


def add(cs, c):
    return "".join(sorted(cs + c, key=ORDER.index))


def minus(cs, c):
    return cs.replace(c, "", 1)


class Result:
    """One finished move: cubes and cones after it, the boarding (colour, space beside the gate) if
    the last cube went into a gate, and its trace."""
    __slots__ = ("cubes", "cones", "board", "src", "n", "path", "skipped", "texts")

    def __repr__(self):
        return f"<{' / '.join(self.texts)} board={self.board}>"


def moves(nxt, prv, cubes, cones, me, backwards=False, own_only=False, skip=False, sources=None):
    """Every complete move of ``me`` (a list of Result). A move into a gate is reported with the
    space in front of the gate (``board``), whichever gate is there: the caller places the gates."""
    out = []
    seen = set()                     # moves that differ only in the order of the drops
    floor = list(nxt)

    def takes(c):
        return c == me if own_only else True

    def ways(s):
        return prv[s] if backwards else nxt[s]

    def passable(s, cn, walls):
        return not (s in cn and s in walls)

    def recheck(cn, cb, s):
        return cn | {s} if party(cb[s]) >= 7 else cn - {s}

    for src in (floor if sources is None else sources):
        if me not in cubes[src]:
            continue
        held = "".join(c for c in cubes[src] if takes(c))
        cb = dict(cubes)
        cb[src] = "".join(c for c in cubes[src] if not takes(c))
        cn = recheck(cones, cb, src)
        n = len(held)

        def finish(cb, cn, board, path, skipped, texts):
            key = (tuple(cb[s] for s in floor), cn, board, skipped, src, path[-1])
            if key in seen:
                return
            seen.add(key)
            r = Result()
            r.cubes, r.cones, r.board, r.src, r.n = cb, cn, board, src, n
            r.path, r.skipped, r.texts = path, skipped, texts
            out.append(r)

        def walk(at, held, cb, cn, sk, path, skipped, texts, walls):
            # walls: the cones standing when the cubes entered ``at``
            if not passable(at, cn, walls) and at != src:
                return
            for t in ways(at):
                if sk and not passable(t, cn, cn):
                    continue
                w = cn
                tx = texts + ([f"to {t}"] if len(ways(at)) > 1 else [])
                if len(held) == 1 and not sk:
                    cb2 = dict(cb)
                    cb2[t] = add(cb[t], held)
                    finish(cb2, recheck(cn, cb2, t), None, path + [t], skipped, tx)
                    continue
                for c in sorted(set(held), key=ORDER.index):
                    if len(held) > 1 and passable(t, cn, w):
                        cb2 = dict(cb)
                        cb2[t] = add(cb[t], c)
                        cn2 = recheck(cn, cb2, t)
                        rest = minus(held, c)
                        if len(rest) == 1 and not sk:
                            # the last cube may go into a gate beside t
                            finish(cb2, cn2, (rest, t), path + [t], skipped, tx + [f"drop {c}"])
                        walk(t, rest, cb2, cn2, sk, path + [t], skipped, tx + [f"drop {c}"], w)
                if sk and passable(t, cn, w):
                    if len(held) == 1:
                        finish(cb, cn, (held, t), path + [t], t, tx + [f"skip {t}"])
                    walk(t, held, cb, cn, False, path + [t], t, tx + [f"skip {t}"], w)
                if not sk:
                    cb2 = dict(cb)
                    cb2[t] = add(cb[t], held)
                    finish(cb2, recheck(cn, cb2, t), None, path + [t], skipped, tx + ["stop"])

        walk(src, held, cb, cn, skip, [src], None, [f"move {src}"], cones)
        # the last single cube of the source itself may go straight into a gate beside it
        if n == 1 and not skip:
            finish(cb, cn, (held, src), [src], None, [f"move {src}"])
    return out


def reach(nxt, s, k):
    """The spaces k steps from s along ``nxt`` (the arrows, or the arrows reversed)."""
    here = {s}
    for _ in range(k):
        here = {t for x in here for t in nxt[x]}
    return here


def boarding_fronts(nxt, cubes, cones, me):
    """The spaces from which a plain move of ``me`` can put one of its cubes into a gate: the last
    of n cubes arrives n - 1 spaces on, through spaces with no cone standing."""
    fronts = set()
    for s, cs in cubes.items():
        if me not in cs:
            continue
        n = len(cs)
        here = {s}
        for _ in range(n - 1):
            here = {t for x in here if x == s or x not in cones for t in nxt[x]}
        fronts |= {t for t in here if n == 1 or t not in cones}
    return fronts


def sized(cubes, me, n, among=None):
    """The spaces holding exactly n cubes, one of ``me`` among them."""
    return [s for s, cs in cubes.items() if len(cs) == n and me in cs and (among is None or s in among)]


def blue_can_cone(nxt, cubes):
    """Round 1 moves only party cubes (each source is a P space), so the cone Blue makes there and
    moves in round 2 as "the 7 active cubes" is a space with no grey: it gets exactly 7 cubes from
    Blue's move, by her stop (after her skip) or by one drop on a space of 6."""
    src = [s for s, cs in cubes.items() if "B" in cs]
    for p in src:
        h = len(cubes[p])
        for k in range(1, h + 1):
            for x in reach(nxt, p, k):
                cx = cubes[x]
                if x == p or "N" in cx:
                    continue
                if len(cx) == 6 or (k >= 2 and len(cx) + h - k + 2 == 7):
                    return True
    return False


def loop_graph(n=14, chord=None):
    names = list(range(n))
    nxt = {i: [(i + 1) % n] for i in names}
    if chord:
        a, b = chord
        nxt[a] = nxt[a] + [b]
    prv = {i: [] for i in names}
    for s, ts in nxt.items():
        for t in ts:
            prv[t].append(s)
    return nxt, prv


def setup(ps, n=14):
    cubes = {i: "NN" for i in range(n)}
    for c, p in zip("RYBG", ps):
        cubes[p] = c * 5
    return cubes


def search(nxt, prv, ps, limit=1):
    """Play the example on this floor graph with P1-P4 at ``ps``; yield each fit (the gate fronts
    and the moves)."""
    found = 0
    c0 = setup(ps, len(nxt))
    p1, p2 = ps[0], ps[1]
    none = frozenset()
    for m1 in moves(nxt, prv, c0, none, "R"):
        if m1.board:
            continue
        for m2 in moves(nxt, prv, m1.cubes, m1.cones, "Y"):
            if m2.board:
                continue
            ready = boarding_fronts(nxt, m2.cubes, m2.cones, "R")
            if not ready:
                continue
            if len(m2.cubes[p1]) > 4 or not blue_can_cone(nxt, m2.cubes):
                continue
            for m3 in moves(nxt, prv, m2.cubes, m2.cones, "B", skip=True):
                if m3.board or m3.skipped is None or not (m3.cones - m2.cones):
                    continue
                # the cone Blue lifts in round 2 by moving "the 7 active cubes": 7 cubes, all party
                # Yellow's Move Twice (round 2) needs two spaces of 4 cubes, one after the other, with
                # at most one grey among the 8: only start spaces have fewer than two greys then, and
                # only P1 and P2 can be refilled (Red's round-2 move brings at most 3 cubes)
                got = len(m3.cubes[p1]) + len(m3.cubes[p2])
                if got < 5 or len(m3.cubes[p1]) > 4 or len(m3.cubes[p2]) > 4:
                    continue
                if not any(len(m3.cubes[x]) == 7 and "N" not in m3.cubes[x] and "B" in m3.cubes[x]
                           for x in m3.cones):
                    continue
                n2 = m3.skipped
                f1s = ready - boarding_fronts(nxt, m3.cubes, m3.cones, "R") - {n2}
                if not f1s:
                    continue
                if not any(m3.cubes[s] == "" for s in nxt):
                    continue
                for m4 in moves(nxt, prv, m3.cubes, m3.cones, "R", sources=sized(m3.cubes, "R", 3)):
                    if m4.board or m4.n != 3 or not any(m4.cubes[s] == "R" for s in nxt):
                        continue
                    pairs = [x for x in sized(m4.cubes, "Y", 4) if any(
                        len(m4.cubes[t]) == 4 and party(m4.cubes[x] + m4.cubes[t]) >= 7 for t in nxt[x])]
                    for m5a in moves(nxt, prv, m4.cubes, m4.cones, "Y", sources=pairs):
                        if m5a.board or m5a.n != 4 or len(m5a.path) != 2:
                            continue
                        mid = m5a.path[1]
                        if mid not in m5a.cones or len(m5a.cubes[mid]) != 8:
                            continue
                        for m5b in moves(nxt, prv, m5a.cubes, m5a.cones, "Y", sources=[mid]):
                            if not m5b.board or m5b.board[0] != "Y":
                                continue
                            f2 = m5b.board[1]
                            if f2 == n2:
                                continue
                            for m6 in moves(nxt, prv, m5b.cubes, m5b.cones, "B", sources=sized(m5b.cubes, "B", 7, m5b.cones)):
                                if m6.board or m6.n != 7 or m6.src not in m5b.cones:
                                    continue
                                f1c = {f for f in f1s if f in m6.cones - m5b.cones and f not in (f2, n2)}
                                if not f1c:
                                    continue
                                if not any(len(m6.cubes[s]) == 5 and "B" in m6.cubes[s]
                                           and len(set(m6.cubes[s])) == 3 for s in nxt):
                                    continue
                                for m7 in moves(nxt, prv, m6.cubes, m6.cones, "R", skip=True, sources=sized(m6.cubes, "R", 5)):
                                    if m7.n != 5 or not m7.board or m7.board[0] not in NEUTRALS:
                                        continue
                                    f3 = m7.skipped
                                    if f3 in (f2, n2) or f3 in f1c and len(f1c) == 1:
                                        continue
                                    colour, fn = m7.board
                                    # green boards at G4, grey at N1 or N2
                                    gates = ["G4"] if colour == "G" else (["N2"] if fn == n2 else ["N1"])
                                    to_f2 = [y for y, cs in m7.cubes.items() if "Y" in cs and f2 in reach(prv, y, len(cs) - 1)]
                                    for m8 in moves(nxt, prv, m7.cubes, m7.cones, "Y", backwards=True, sources=to_f2):
                                        if not m8.board or m8.board != ("Y", f2):
                                            continue
                                        if not any(len(m8.cubes[s]) == 4 and len(set(m8.cubes[s])) == 4 for s in nxt):
                                            continue
                                        if m8.cubes[f3].count("B") != 1 or len(m8.cubes[f3]) < 2:
                                            continue
                                        for m9 in moves(nxt, prv, m8.cubes, m8.cones, "B", own_only=True, sources=[f3]):
                                            if m9.board != ("B", f3):
                                                continue
                                            fronts = dict(G1=sorted(f1c - {f3}), G2=f2, G3=f3, N2=n2)
                                            fronts[gates[0]] = fn
                                            yield fronts, [m1, m2, m3, m4, m5a, m5b, m6, m7, m8, m9]
                                            found += 1
                                            if found >= limit:
                                                return


def main():
    import signal
    kind = sys.argv[1] if len(sys.argv) > 1 else "loop"
    seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    shard, shards = (int(x) for x in (sys.argv[3] if len(sys.argv) > 3 else "0/1").split("/"))
    n = 14
    graphs = [(None, loop_graph(n))]
    if kind == "chord":
        graphs = [((a, b), loop_graph(n, (a, b))) for a in range(n) for b in range(n)
                  if (b - a) % n not in (0, 1)]

    class TooLong(Exception):
        pass

    def alarm(*_):
        raise TooLong()

    signal.signal(signal.SIGALRM, alarm)
    # two start spaces side by side (P1 and P2, see search): P2 just after or just before P1
    jobs = [(chord, g, ps) for chord, g in graphs
            for ps in ((0,) + p for p in itertools.permutations(range(1, n), 3)) if ps[1] in (1, n - 1)]
    for i, (chord, (nxt, prv), ps) in enumerate(jobs):
        if i % shards != shard:
            continue
        signal.alarm(seconds)
        try:
            for fronts, ms in search(nxt, prv, ps):
                print("FOUND chord", chord, "P", ps, fronts, flush=True)
                for m in ms:
                    print("   ", m.texts, "board", m.board, flush=True)
        except TooLong:
            print("too long", chord, ps, flush=True)
        finally:
            signal.alarm(0)
    print("done", flush=True)


if __name__ == "__main__":
    main()
