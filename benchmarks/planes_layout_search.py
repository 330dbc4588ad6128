"""Layout search for issue 12 item 2 (the PLANES Game Example on Flying Cloud): an exploration tool,
not a test and not a speed figure.

    python benchmarks/planes_layout_search.py [loop|chord|theta][-far] [SECONDS_PER_PLACEMENT] [SHARD/SHARDS]

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

Findings on one loop (issue 12 item 2, 24 November 2026, first run): none, and none can be.
Yellow's Move Twice needs a space of exactly 4 cubes (a yellow among them) and the next one of exactly
4, at most one grey among the 8 (seven party cubes make the cone). Until then greys leave only the
space Red's round-2 move starts from (the round-1 moves start on P spaces), so both are start spaces,
side by side; P4 keeps its five greens, P3 gets back at most Red's 3 cubes, so they are P1 and P2,
refilled to 4 and 4 after their owners emptied them in round 1; on one loop the one where Blue's
round-1 move does not stop gets at most 3 (docs/games/planes.md, assumption 41, gives the count).

Findings with one branch (second run, 24 November 2026). The families are ``chord`` (the loop and one
more arrow, from space 0 to space b: 11 shapes) and ``theta`` (two ways from a branch to a merge and one
way back, each way of the two at least one space long: 36 shapes; Zephyr's shape is one). Every
placement of P1-P4 with two of P1-P3 an arrow apart and P4 within 7 spaces of P3 is tried (73,520 and
257,550); ``counts_fit`` first plays round 1 and Red's round-2 move with cubes counted, not coloured
(sound: the sources are fixed and greys do not move yet), and only the placements it passes are
played with colours, beat by beat (``search``), with the pruning listed above ``shapes``. A placement
whose search does not end in its time is reported "too long".

- chord, 5 s a placement on two cores (about 10 minutes): 73,520 placements, 757 past the count, no
  airport found; 89 placements too long (a retry with more time settled some of them, with none
  found; the rest stayed too long).
- theta, 5 s a placement, stopped once layouts were found (not run to the end; about 90 placements
  too long by then): three placements, all of the shape with two ways of six spaces each and the
  merge leading straight back to the branch (theta 6,6,0), for example P (3, 4, 1, 2) with G1 in front
  of 5, G2 of 9, G3 of 8, N1 of 10, N2 of 3.

One of them is the Flying Cloud airport of games/planes.rules since issue 12 item 2: C -> P4 P1
P2 S1 S2 S3 -> P3 and C -> S4 ... S9 -> P3, P3 -> C; G1 beside S1, G2 beside S5, G3 beside S4, G4 beside
S8, N1 beside S6, N2 beside P1 (no beat of the example names G4, so the found layout leaves it free: it was placed beside S8 by
hand). The real
engine plays the whole Game Example on it: tests/planes/test_examples.py,
``test_the_game_example_on_our_flying_cloud``.

    python benchmarks/planes_layout_search.py chord 5 0/2    # and 1/2 on the other core; then theta

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


def moves(nxt, prv, cubes, cones, me, backwards=False, own_only=False, skip=False, sources=None,
          boards=None, front=None):
    """Every complete move of ``me`` (a list of Result). A move into a gate is reported with the
    space in front of the gate (``board``), whichever gate is there: the caller places the gates.
    ``boards`` (colours): only the moves whose last cube, of one of them, goes into a gate (beside
    ``front``, if given)."""
    out = []
    seen = set()                     # moves that differ only in the order of the drops
    ahead = {}                       # (space, steps) -> the spaces that far along the way
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
            if boards is not None and (board is None or board[0] not in boards):
                return
            if front is not None and board[1] != front:
                return
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
            if boards is not None and not any(c in boards for c in held):
                return
            if front is not None:
                # the last cube goes in beside the space of the last drop (after a skip owed)
                d = len(held) - 1 + bool(sk)
                if d == 0:
                    return
                if (at, d) not in ahead:
                    ahead[(at, d)] = reach({x: ways(x) for x in floor}, at, d)
                if front not in ahead[(at, d)]:
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


def within(nxt, s, k):
    """The spaces at most k steps from s."""
    seen, here = {s}, {s}
    for _ in range(k):
        here = {t for x in here for t in nxt[x]}
        seen |= here
    return seen


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


def setup(ps, n=14):
    """Setup 3 and 4: five cubes of each colour on its P space, two greys on every other space."""
    cubes = {i: "NN" for i in range(n)}
    for c, p in zip("RYBG", ps):
        cubes[p] = c * 5
    return cubes


# ------------------------------------------------------------------ the count that prunes
# Pruning, from the text (docs/games/planes.md, assumption 41):
#  * Yellow's Move Twice needs a space A of exactly 4 cubes (one yellow) with an arrow to a space B
#    of exactly 4, at most one grey among the 8. Greys leave one space only before it (the source of
#    Red's round-2 move, which can get back at most 3), so A and B are start spaces; P4 keeps its
#    five greens; so A and B are two of P1, P2, P3.
#  * Red's round-2 goal "1 Single Red Cube" needs a space holding one red cube and nothing else:
#    a start space (the third of P1-P3) or the source of that move, come round to.
#  * The blockage Blue removes in round 2 ("the 7 active cubes") is the one she made in round 1
#    (nobody picks it up before): 7 party cubes and no grey, not on A, B or the single red: P4, with
#    its five greens, a blue and one more. It is the only cone then.

def shapes(nxt, cnt, grey, cones, src, skip, p4=None):
    """Count-only moves from src (cubes without colours): the final counts, cones, and whether the
    path passed p4. Sound for round 1, where the sources are fixed and greys do not move."""
    out = set()

    def cone(c, s):
        return c[s] - grey[s] >= 7

    def walk(at, held, c, cn, sk, walls, touched):
        if at != src and (at in cn and at in walls):
            return
        for t in nxt[at]:
            if sk and t in cn:
                continue
            w = cn
            tp = touched or t == p4
            if held == 1 and not sk:
                c2 = list(c); c2[t] += 1
                out.add((tuple(c2), cn | {t} if cone(c2, t) else cn - {t}, tp))
                continue
            if held > 1 and not (t in cn and t in w):
                c2 = list(c); c2[t] += 1
                walk(t, held - 1, c2, cn | {t} if cone(c2, t) else cn - {t}, sk, w, tp)
            if sk and not (t in cn and t in w):
                walk(t, held, c, cn, False, w, tp)
            if not sk:
                c2 = list(c); c2[t] += held
                out.add((tuple(c2), cn | {t} if cone(c2, t) else cn - {t}, tp))

    c = list(cnt); h = c[src]; c[src] = 0
    cn = frozenset(cones) - {src}
    walk(src, h, c, cn, skip, frozenset(cones), False)
    return out


def pair_room(c, nxt, pset):
    """Two of P1-P3, an arrow apart, that Red's round-2 move (3 cubes) could bring to 4 and 4."""
    return any(b in pset and c[a] <= 4 and c[b] <= 4 and c[a] + c[b] >= 5 for a in pset for b in nxt[a])


def counts_fit(nxt, ps):
    """Round 1 and Red's round-2 move with cubes counted, not coloured: can P4 end round 1 at
    exactly 7 (its only cone, Blue passing it) and Red's move leave A and B at 4 and 4 and a space
    of one cube? A placement failing this cannot host the example."""
    n = len(nxt)
    p1, p2, p3, p4 = ps
    pset = (p1, p2, p3)
    grey = [0 if s in ps else 2 for s in range(n)]
    cnt = [5 if s in ps else 2 for s in range(n)]
    for c1, cn1, _ in shapes(nxt, cnt, grey, frozenset(), p1, False):
        if c1[p4] > 6:
            continue
        for c2, cn2, _ in shapes(nxt, c1, grey, cn1, p2, False):
            if c2[p4] > 6:
                continue
            for c3, cn3, tp in shapes(nxt, c2, grey, cn2, p3, True, p4):
                if not tp or c3[p4] != 7 or cn3 != {p4} or not pair_room(c3, nxt, pset):
                    continue
                for src in range(n):
                    if c3[src] != 3 or src == p4:
                        continue
                    for c4, _, _ in shapes(nxt, c3, grey, cn3, src, False):
                        if c4[p4] == 7 and any(c4[s] == 1 and (s in pset or s == src) for s in range(n)) \
                                and any(b in pset and c4[a] == 4 and c4[b] == 4 for a in pset for b in nxt[a]):
                            return True
    return False


def sequences(cnt, k):
    """The distinct colour sequences of length k drawn from the multiset cnt (a Counter)."""
    if k == 0:
        yield ()
        return
    for c in sorted(cnt):
        if cnt[c]:
            cnt[c] -= 1
            for rest in sequences(cnt, k - 1):
                yield (c,) + rest
            cnt[c] += 1


def blue_round_one(nxt, cubes, cones, src, p4, pset, shape_ok=lambda cnt, cn: True):
    """Blue's round-1 move (Skip 1 Space, from P3: party cubes only), shapes first: only the shapes
    that leave P4 at exactly 7 (its only cone) and room for A and B get their colours."""
    from collections import Counter
    grey = {s: cs.count("N") for s, cs in cubes.items()}
    held0 = cubes[src]
    found = []

    def cone(cnt, s):
        return cnt[s] - grey[s] >= 7

    def fits(cnt, touched, cn):
        return touched and cnt[p4] == 7 and cn == {p4} and pair_room(cnt, nxt, pset) and shape_ok(cnt, cn)

    def walk(at, held, cnt, cn, sk, walls, touched, acts):
        if at != src and (at in cn and at in walls):
            return
        for t in nxt[at]:
            if sk and t in cn:
                continue
            w = cn
            tp = touched or t == p4
            if held == 1 and not sk:
                c2 = dict(cnt); c2[t] += 1
                cn2 = cn | {t} if cone(c2, t) else cn - {t}
                if fits(c2, tp, cn2):
                    found.append((acts + [(t, "last")], cn2))
                continue
            if held > 1 and not (t in cn and t in w):
                c2 = dict(cnt); c2[t] += 1
                walk(t, held - 1, c2, cn | {t} if cone(c2, t) else cn - {t}, sk, w, tp, acts + [(t, "drop")])
            if sk and not (t in cn and t in w):
                walk(t, held, cnt, cn, False, w, tp, acts + [(t, "skip")])
            if not sk:
                c2 = dict(cnt); c2[t] += held
                cn2 = cn | {t} if cone(c2, t) else cn - {t}
                if fits(c2, tp, cn2):
                    found.append((acts + [(t, "stop")], cn2))

    cnt = {s: len(cs) for s, cs in cubes.items()}; cnt[src] = 0
    cn0 = frozenset(cones) - {src}
    walk(src, len(held0), cnt, cn0, True, frozenset(cones), False, [])
    out = []
    for acts, cn in found:
        drops = [t for t, a in acts if a in ("drop", "last")]
        stop = [t for t, a in acts if a == "stop"]
        k = len(drops) - (acts[-1][1] == "last")
        for seq in sequences(Counter(held0), k):
            rest = Counter(held0) - Counter(seq)
            cb = dict(cubes); cb[src] = ""
            for t, c in zip(drops, seq):
                cb[t] = add(cb[t], c)
            end = stop[0] if stop else drops[-1]
            cb[end] = "".join(sorted(cb[end] + "".join(rest.elements()), key=ORDER.index))
            r = Result()
            r.cubes, r.cones, r.board, r.src, r.n = cb, frozenset(cn), None, src, len(held0)
            r.path, r.skipped = [src] + [t for t, _ in acts], [t for t, a in acts if a == "skip"][0]
            r.texts = [f"move {src}"] + [f"{a} {t}" for t, a in acts] + [f"drops {''.join(seq)}"]
            out.append(r)
    return out


def pairs(cb, nxt, pset):
    """The spaces A of Yellow's Move Twice: A and the next space B hold exactly 4 cubes each, a
    yellow in A, 7 or more party cubes among the 8."""
    return [a for a in pset for b in nxt[a] if b in pset and len(cb[a]) == 4 and len(cb[b]) == 4
            and "Y" in cb[a] and party(cb[a] + cb[b]) >= 7]


def search(nxt, prv, ps, stats):
    """Play the example on this floor graph with P1-P4 at ``ps``; yield the first fit (the gate
    fronts and the moves). ``stats`` counts how far the beats got (for the report)."""
    c0 = setup(ps, len(nxt))
    p1, p2, p3, p4 = ps
    pset = (p1, p2, p3)
    none = frozenset()
    seen = set()                     # positions already tried with the same gates placed

    def new(*key):
        key = tuple(tuple(sorted(k.items())) if isinstance(k, dict) else k for k in key)
        if key in seen:
            return False
        seen.add(key)
        return True

    grey = [2 if s not in ps else 0 for s in range(len(nxt))]
    room = {}                        # count-only check of Red's round-2 move, by the counts

    def red_room(cb, cn, counted=False):
        """Can Red's round-2 move (3 cubes) leave A and B at 4 and 4 and a space of one cube?
        Counted: from the counts alone (every space of 3 a possible source)."""
        if counted:
            cnt = tuple(cb[s] for s in range(len(nxt)))
            srcs = tuple(s for s in range(len(nxt)) if cnt[s] == 3)
        else:
            cnt = tuple(len(cb[s]) for s in range(len(nxt)))
            srcs = tuple(sized(cb, "R", 3))
        key = (cnt, frozenset(cn), srcs)
        if key not in room:
            room[key] = any(c4[p4] == 7 and any(c4[s] == 1 and (s in pset or s == src) for s in range(len(nxt)))
                            and any(b in pset and c4[a] == 4 and c4[b] == 4 for a in pset for b in nxt[a])
                            for src in srcs if src != p4
                            for c4, _, _ in shapes(nxt, cnt, grey, cn, src, False))
        return room[key]

    cone_room = {}                   # count-only check of Blue's round-2 move, by the counts

    def blue_room(cb, cn, fronts):
        """Can the 7 cubes of P4 make a new cone on one of ``fronts``? (counts and greys only)"""
        cnt = tuple(len(cb[s]) for s in range(len(nxt)))
        gr = [cb[s].count("N") for s in range(len(nxt))]
        key = (cnt, tuple(gr), frozenset(cn), frozenset(fronts))
        if key not in cone_room:
            cone_room[key] = any(f in c6 - cn for c6_counts, c6, _ in shapes(nxt, cnt, gr, cn, p4, False)
                                 for f in fronts)
        return cone_room[key]

    for m1 in moves(nxt, prv, c0, none, "R"):
        if m1.board or len(m1.cubes[p4]) > 6:
            continue
        for m2 in moves(nxt, prv, m1.cubes, m1.cones, "Y"):
            if m2.board or len(m2.cubes[p4]) > 6:
                continue
            ready = boarding_fronts(nxt, m2.cubes, m2.cones, "R")    # "Red is in position to board"
            if not ready:
                continue
            stats[0] += 1
            for m3 in blue_round_one(nxt, m2.cubes, m2.cones, p3, p4, pset,
                                     lambda cnt, cn: red_room(cnt, cn, counted=True)):
                n2 = m3.skipped                                      # "the space next to gate N2"
                f1s = ready - boarding_fronts(nxt, m3.cubes, m3.cones, "R") - {n2}
                if not f1s or not any(m3.cubes[s] == "" for s in nxt):   # goal "A Blank Space"
                    continue
                if not new(3, m3.cubes, m3.cones, n2, frozenset(f1s)) or not red_room(m3.cubes, m3.cones):
                    continue
                stats[1] += 1
                for m4 in moves(nxt, prv, m3.cubes, m3.cones, "R", sources=sized(m3.cubes, "R", 3)):
                    if m4.board or m4.n != 3 or len(m4.cubes[p4]) != 7:
                        continue
                    if not any(m4.cubes[s] == "R" for s in nxt):     # goal "1 Single Red Cube"
                        continue
                    prs = pairs(m4.cubes, nxt, pset)
                    if not prs or not new(4, m4.cubes, m4.cones, n2, frozenset(f1s)):
                        continue
                    stats[2] += 1
                    for m5a in moves(nxt, prv, m4.cubes, m4.cones, "Y", sources=prs):
                        if m5a.board or m5a.n != 4 or len(m5a.path) != 2:
                            continue
                        mid = m5a.path[1]
                        if mid not in m5a.cones or len(m5a.cubes[mid]) != 8:
                            continue
                        for m5b in moves(nxt, prv, m5a.cubes, m5a.cones, "Y", sources=[mid], boards="Y"):
                            if not m5b.board or m5b.board[0] != "Y" or m5b.board[1] == n2:
                                continue
                            f2 = m5b.board[1]
                            if len(m5b.cubes[p4]) != 7 or p4 not in m5b.cones:
                                continue
                            if not new(5, m5b.cubes, m5b.cones, n2, frozenset(f1s), f2):
                                continue
                            if not blue_room(m5b.cubes, m5b.cones, f1s - {f2, n2}):
                                continue
                            stats[3] += 1
                            for m6 in moves(nxt, prv, m5b.cubes, m5b.cones, "B", sources=[p4]):
                                if m6.board or m6.n != 7:
                                    continue
                                # "a new blockage in front of gate G1", where Red could have boarded
                                f1c = {f for f in f1s if f in m6.cones - m5b.cones and f not in (f2, n2)}
                                if not f1c or not any(len(m6.cubes[s]) == 5 and "B" in m6.cubes[s]
                                                      and len(set(m6.cubes[s])) == 3 for s in nxt):
                                    continue
                                if not new(6, m6.cubes, m6.cones, n2, frozenset(f1c), f2):
                                    continue
                                stats[4] += 1
                                for m7 in moves(nxt, prv, m6.cubes, m6.cones, "R", skip=True,
                                                sources=sized(m6.cubes, "R", 5), boards=NEUTRALS):
                                    if m7.n != 5 or not m7.board or m7.board[0] not in NEUTRALS:
                                        continue
                                    f3, (colour, fn) = m7.skipped, m7.board
                                    gate = "G4" if colour == "G" else ("N2" if fn == n2 else "N1")
                                    if f3 in (f2, n2) or fn in (f2, f3) or f1c <= {f3, fn}:
                                        continue
                                    if not new(7, m7.cubes, m7.cones, n2, frozenset(f1c), f2, f3, fn):
                                        continue
                                    stats[5] += 1
                                    for m8 in moves(nxt, prv, m7.cubes, m7.cones, "Y", backwards=True, boards="Y", front=f2,
                                                    sources=[y for y, cs in m7.cubes.items()
                                                             if "Y" in cs and f2 in reach(prv, y, len(cs) - 1)]):
                                        if m8.board != ("Y", f2) or m8.cubes[f3].count("B") != 1:
                                            continue
                                        if not any(len(cs) == 4 and len(set(cs)) == 4 for cs in m8.cubes.values()):
                                            continue
                                        for m9 in moves(nxt, prv, m8.cubes, m8.cones, "B", own_only=True, sources=[f3], boards="B", front=f3):
                                            if m9.board != ("B", f3):
                                                continue
                                            fronts = dict(G1=sorted(f1c - {f3, fn}), G2=f2, G3=f3, N2=n2)
                                            fronts[gate] = fn
                                            yield fronts, [m1, m2, m3, m4, m5a, m5b, m6, m7, m8, m9]
                                            return


# ------------------------------------------------------------------ the airports searched
def graph(n, arrows):
    """A floor graph from its arrows: nxt (the arrows) and prv (the arrows reversed)."""
    nxt = {i: [] for i in range(n)}
    for a, b in arrows:
        nxt[a].append(b)
    prv = {i: [] for i in range(n)}
    for s, ts in nxt.items():
        for t in ts:
            prv[t].append(s)
    return nxt, prv


def loop_arrows(n=14, chord=None):
    """One loop; ``chord`` (a, b) adds a second arrow from a (a shortcut, or a way back)."""
    return [(i, (i + 1) % n) for i in range(n)] + ([chord] if chord else [])


def theta_arrows(i1, i2, i3):
    """Two branch spaces X (0) and Y (1): two ways from X to Y (i1 and i2 spaces between) and one
    way back from Y to X (i3 between), 14 spaces in all when i1 + i2 + i3 == 12 (the Zephyr airport
    is one: X its centre, Y the space before it, i1 == i2 == 6, i3 == 0)."""
    it = iter(range(2, 2 + i1 + i2 + i3))
    ways = [[0] + [next(it) for _ in range(i1)] + [1], [0] + [next(it) for _ in range(i2)] + [1]]
    ways.append([1] + [next(it) for _ in range(i3)] + [0])
    return [(a, b) for w in ways for a, b in zip(w, w[1:])]


def families(kind, n=14):
    """(name, arrows) of every airport of a family: ``loop``; ``chord``: a loop and one more arrow
    (rotated so that it leaves space 0); ``theta``: two ways from one branch to a merge, one way
    back, both ways at least one space long (a chord is the case of a way with none)."""
    if kind == "loop":
        yield "loop", loop_arrows(n)
    elif kind == "chord":
        for b in range(2, n - 1):
            yield f"chord 0->{b}", loop_arrows(n, (0, b))
    elif kind == "theta":
        for i3 in range(0, n - 1):
            for i1 in range(1, n - 1):
                i2 = n - 2 - i3 - i1
                if i2 >= i1:
                    yield f"theta {i1},{i2},{i3}", theta_arrows(i1, i2, i3)


def placements(nxt, n=14, far=False):
    """P1-P4 with two of P1-P3 an arrow apart (A and B), P4 within 7 spaces of P3 (Blue's reach
    with 6 cubes and a skip), or, ``far``, only those beyond (Blue would need 7 cubes or more)."""
    seen = set()
    for a, b in [(s, t) for s in nxt for t in nxt[s]]:
        for roles in itertools.permutations((0, 1, 2), 2):
            third = ({0, 1, 2} - set(roles)).pop()
            for x in range(n):
                for p4 in range(n):
                    if len({a, b, x, p4}) < 4:
                        continue
                    ps = [None] * 3
                    ps[roles[0]], ps[roles[1]], ps[third] = a, b, x
                    ps = tuple(ps) + (p4,)
                    if ps not in seen and (p4 in within(nxt, ps[2], 7)) != far:
                        seen.add(ps)
                        yield ps


def main():
    import signal
    import time
    kind = sys.argv[1] if len(sys.argv) > 1 else "chord"
    far = kind.endswith("-far")                  # chord-far, theta-far: P4 beyond 7 spaces of P3
    kind = kind.removesuffix("-far")
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 8
    shard, shards = (int(x) for x in (sys.argv[3] if len(sys.argv) > 3 else "0/1").split("/"))

    class TooLong(Exception):
        pass

    def alarm(*_):
        raise TooLong()

    signal.signal(signal.SIGALRM, alarm)
    t0, i, counted, searched, slow = time.time(), -1, 0, 0, 0
    for name, arrows in families(kind):
        nxt, prv = graph(14, arrows)
        for ps in placements(nxt, far=far):
            i += 1
            if i % shards != shard:
                continue
            counted += 1
            stats = [0] * 6
            signal.setitimer(signal.ITIMER_REAL, seconds)
            try:
                if counts_fit(nxt, ps):
                    searched += 1
                    for fronts, ms in search(nxt, prv, ps, stats):
                        print("FOUND", name, "P", ps, fronts, flush=True)
                        for m in ms:
                            print("   ", m.texts, "board", m.board, flush=True)
            except TooLong:
                slow += 1
                print("too long", name, ps, stats, flush=True)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    print(f"done {kind}: {counted} placements, {searched} past the count, {slow} too long, "
          f"{time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
