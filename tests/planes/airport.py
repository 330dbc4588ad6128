"""The rulebook's account of a PLANES Move Phase, worked out in Python apart from the rules file: the
cubes picked up, one dropped on each space entered, the stop, the gates and the planes, the blockages
and the movement rules the action cards set. test_cover_moves.py walks real moves with it, decision by
decision, checking the options offered and the airport after each."""
from __future__ import annotations

from collections import Counter

from .helpers import ARROWS

SHADES = ["red", "yellow", "blue", "green", "grey"]     # the order the cubes' options are offered in
SLOTS = 5               # Rule Clarifications: "Each plane features five slots"
BLOCKAGE = 7            # Blockages: "seven or more party cubes in a single space"

# How an action card changes the move (Card Clarifications); Choose One's "ignore all blockages" is
# the player's pick, read from the card's choice.
CARD_RULES = {"Skip 1 Space": "skip", "Ignore Neutrals": "no_neutrals", "Move Backwards": "backwards",
              "Only Your Party": "own_only"}


class Airport:
    """The cubes, cones, planes and track of a state, and a move made on them by the rulebook."""

    def __init__(self, st, ignore_blockages=False):
        v, (p,) = st.vars, st.to_move()
        self.arrows = ARROWS[st.game.options["airport"]]
        self.cubes = {s: list(c) for s, c in v["cubes"].items()}
        self.cones, self.planes = set(v["cones"]), dict(v["planes"])
        self.load, self.boarded, self.track = dict(v["load"]), dict(v["boarded"]), v["track"]
        self.neutrals, self.colour = set(v["neutrals"]), v["colour"][p - 1]
        rules = {CARD_RULES[c] for c in v["in_play"][p - 1] if c in CARD_RULES}
        self.backwards, self.own_only = "backwards" in rules, "own_only" in rules
        self.no_neutrals, self.skip = "no_neutrals" in rules, "skip" in rules
        self.ignore_blockages = ignore_blockages
        self.seen = set()
        self.walls = set(self.cones)

    # ------------------------------------------------------------ the board
    def party(self, s):
        return sum(c != "grey" for c in self.cubes[s])

    def recheck(self, s):
        """Blockages: a cone where seven or more party cubes stand, lifted as soon as fewer remain."""
        if self.party(s) >= BLOCKAGE:
            if s not in self.cones:
                self.seen.add("a blockage forms")
            self.cones.add(s)
        elif s in self.cones:
            self.cones.discard(s)
            self.seen.add("a blockage lifts")

    def ahead(self, s):
        """The spaces the cubes may go on to: along the arrows, or against them (Move Backwards),
        a gate still entered from the space in front of it."""
        if not self.backwards:
            return self.arrows.get(s, [])
        back = [t for t, outs in self.arrows.items() if s in outs]
        return back + [g for g in self.arrows.get(s, []) if g in self.planes]

    def enterable(self, t, held):
        """Move Phase: a gate only for "the last single cube" of its plane's colour, and "a full plane
        may no longer be boarded"."""
        return t not in self.planes or (len(held) == 1 and self.planes[t] == held[0] and self.load[t] < SLOTS)

    def passable(self, s):
        """Nothing moves past a gate, nor past a cone that stood when the cubes entered its space (unless
        Choose One ignores the blockages)."""
        return s not in self.planes and not (s in self.cones and s in self.walls and not self.ignore_blockages)

    def steps(self, s, held, skip):
        return [t for t in self.ahead(s) if self.enterable(t, held) and (not skip or self.passable(t))]

    def can_go_on(self, s, held, skip):
        return self.passable(s) and bool(self.steps(s, held, skip))

    def active(self, s):
        """The cubes a move picks up: all of them, your own only, or all but the neutrals."""
        if self.own_only:
            return [c for c in self.cubes[s] if c == self.colour]
        if self.no_neutrals:
            return [c for c in self.cubes[s] if c not in self.neutrals]
        return list(self.cubes[s])

    def sources(self):
        return {s for s, c in self.cubes.items() if self.colour in c and self.steps(s, self.active(s), self.skip)}

    def picks(self, at, held, skip):
        """On a space entered with more than one cube: drop one and go on (where the rest can), skip the
        space (Skip 1 Space, where all can go on), or stop with all."""
        drops = [f"drop {c}" for c in SHADES if c in held and len(held) > 1
                 and self.can_go_on(at, without(held, c), skip)]
        return drops + ([f"skip {at}"] if skip and self.can_go_on(at, held, False) else []) \
            + ([] if skip else ["stop"])

    # ------------------------------------------------------------ the move, decision by decision
    def move(self, st, rng):
        """Make the move on ``st`` with random choices, checking each set of options offered and the
        airport after the move; returns the options the move went through."""
        options = {m.text for m in st.legal_moves()}
        assert options == {f"move {s}" for s in self.sources()}, (options, self.sources())
        src = rng.choice(sorted(self.sources()))
        held = self.active(src)
        for c in held:
            self.cubes[src].remove(c)
        self.recheck(src)
        if (self.own_only or self.no_neutrals) and self.cubes[src]:
            self.seen.add("cubes left behind")
        choice, skip, at = f"move {src}", self.skip, src
        while True:
            ways = self.steps(at, held, skip)
            assert ways, (at, held)
            if len(ways) > 1:                     # a choice; one way alone is taken unasked
                choice = self.decide(st, choice, {f"to {t}" for t in ways}, rng)
                at = choice[3:]
                self.seen.add("the player picks an arrow")
            else:
                at = ways[0]
            self.walls = set(self.cones)
            if at in self.planes:
                return self.board(st, choice, held[0], at)
            if len(held) == 1 and not skip:
                self.cubes[at].append(held[0])
                self.recheck(at)
                return self.done(st, choice, "one cube left, put down")
            picks = self.picks(at, held, skip)
            if at in self.cones and at in self.walls and not self.ignore_blockages:
                assert picks == ["stop"], picks
                self.seen.add("stopped by a blockage")
            if len(picks) > 1:
                choice = pick = self.decide(st, choice, set(picks), rng)
            else:
                pick = picks[0]
            if pick == "stop":
                self.cubes[at] += held
                self.recheck(at)
                return self.done(st, choice, "stop with all")
            if pick.startswith("skip "):
                skip = False
                self.seen.add("a space skipped")
            else:
                held = without(held, pick[5:])
                self.cubes[at].append(pick[5:])
                self.recheck(at)

    def decide(self, st, made, offered, rng):
        """Apply the choice made so far; the decision now pending offers exactly ``offered``."""
        st.apply(made)
        assert {m.text for m in st.legal_moves()} == offered, (made, offered)
        return rng.choice(sorted(offered))

    def board(self, st, made, cube, gate):
        """Boarding a Plane: the cube on the plane, the boarding token one space on; a neutral plane's
        cube draws the active player two cards."""
        self.load[gate] += 1
        self.boarded[cube] += 1
        self.track += 1
        self.seen.add("boards a neutral plane" if cube in self.neutrals else "boards")
        if self.backwards:
            self.seen.add("boards against the arrows")
        return self.done(st, made, "at a gate")

    def done(self, st, made, how):
        """Apply the last choice: the move ends (the rest goes unasked)."""
        st.apply(made)
        v = st.vars
        assert {s: Counter(c) for s, c in v["cubes"].items()} == {s: Counter(c) for s, c in self.cubes.items()}
        assert (set(v["cones"]), v["load"], v["boarded"], v["track"]) == \
            (self.cones, self.load, self.boarded, self.track)
        self.seen.add(how)
        return self.seen


def without(held, c):
    rest = list(held)
    rest.remove(c)
    return rest
