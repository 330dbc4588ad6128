"""Scenario helpers for Air Show: a game driven through its phases by a policy of preferred moves,
so a test reaches the moment it is about, changes what it needs, and plays the real decisions."""
from __future__ import annotations

from rulewright.interpreter.testing import shipped

# Moves that keep a turn quiet: no purchase but the free event, nothing built, nothing flown.
QUIET = ("bid on the event", "bid 0 on", "bid 1 on", "bid 2 on", "bid 3 on", "build nothing",
         "stop repairing", "keep the hand", "keep ", "no card on", "take prestige")


def game(players=4):
    return shipped("air-show", players)


def pick(st, prefer=QUIET):
    """The first legal move that starts with one of ``prefer`` (tried in order), else the first."""
    moves = st.legal_moves()
    for start in prefer:
        for m in moves:
            if m.text.startswith(start):
                return m
    return moves[0]


def drive(st, until, prefer=QUIET, limit=5000):
    """Play ``pick`` moves until ``until(st)`` holds (checked before each move)."""
    for _ in range(limit):
        if until(st):
            return st
        assert not st.is_over(), "the game ended before the moment the test is about"
        st.apply(pick(st, prefer))
    raise AssertionError("the moment never came")


def at_step(st, name, round_number=None):
    """Drive to the first decision of step ``name`` (in round ``round_number`` if given)."""
    return drive(st, lambda s: s.step == name and (round_number is None or s.vars["round_number"] == round_number))


def ready(players=4, seed=1):
    """A new game past the setup's choices of grey planes: the first bid of the first turn is asked."""
    return at_step(game(players).new_state(seed=seed), "auction bidding")


def plane(card, owner, damage=0):
    """An owned plane as the rules store it (face up, not entered in a show)."""
    return {"card": card, "owner": owner, "damage": damage, "entered": False, "unveiled": True}


def face_down(view):
    """The players whose show a view still has face down: a plane's entry or a period group's card
    masked ("?"), as a rival sees it before the shows are turned over."""
    seen = view["vars"]
    groups = {i + 1 for i, gs in enumerate(seen["groups"]) if any(g["placed"] == "?" for g in gs)}
    planes = {i + 1 for i, fleet in enumerate(seen["fleet"]) if any(a["entered"] == "?" for a in fleet)}
    return groups | planes
