"""Scenario helpers for Barnstormers: a game past its setup, the air show cleared and planes
placed by hand, cards moved between decks and hands (so every card stays somewhere), and the
pending decision asked again after a test has changed the variables."""
from __future__ import annotations

import random
from collections import Counter

from rulewright.interpreter.testing import shipped

# Written out from the rulebook's appendices, not read from the rules file.
TACTICS = Counter({
    "Move Rival Plane": 1, "Adjust AND Move a Plane": 1, "Move Two Planes": 2, "Double Speed": 2,
    "Dispatch Two Planes": 1, "Dispatch AND Move Planes": 2, "Dispatch a Plane": 4,
    "Swap any Two Planes": 3, "Recall any Plane": 3, "Encounter a Tailwind": 3, "Loop the Loop": 3,
    "Intercept Orders": 2, "Freak Windstorm": 2, "Freak Thunderstorm": 1,
})
FREAKS = ("Freak Windstorm", "Freak Thunderstorm")
EXPERTISE = {  # name: (level, copies)
    "+1 S&T Card": (1, 4), "Play 2 Skill and Tactic Cards": (1, 2), "+1 Action": (1, 4),
    "Play All Skill and Tactic Cards": (1, 1), "Reset Headings": (1, 2), "Recall Planes": (1, 2),
    "Immunity to Freak Events": (1, 1), "+2 Actions": (2, 2), "Flying Aces": (2, 2),
    "Barnstormer Award": (2, 2), "Reset and Move Planes": (2, 3), "Reserve a Trick Stunt": (2, 3),
    "Recall Rival Planes": (3, 1), "Reset All Headings": (3, 2), "Precision Flying": (3, 2),
    "Discard 2 Trick Stunts": (3, 2), "Discard All Trick Stunts": (3, 1),
}
LEVELS = ("local", "regional", "national", "extreme")
TARGET = {"local": 4, "regional": 6, "national": 9, "extreme": 12}


def game(players=4, **options):
    return shipped("barnstormers", players, **options)


def ready(players=4, seed=1, **options):
    """A new game past the setup's decisions (secret requests, mystery stunts): the first player
    is about to perform a stunt."""
    st = game(players, **options).new_state(seed=seed)
    while st.step != "perform stunt":
        st.apply(st.legal_moves()[0])
    st.drain_events()
    return st


def clear(st):
    """Every plane back in its hangar: an empty air show."""
    v = st.vars
    for x, plane in list(v["air"].items()):
        if plane is not None:
            v["hangar"][plane["owner"] - 1].append(plane["id"])
    v["air"] = {}


def put(st, at, owner, heading):
    """A plane of ``owner`` from its hangar placed at ``at`` facing ``heading``."""
    v = st.vars
    assert v["air"].get(at) is None, f"{at} is taken"
    pid = v["hangar"][owner - 1].pop(0)
    v["air"][at] = {"id": pid, "owner": owner, "heading": heading}
    return pid


def fleet(st, owner=None):
    """{space: (owner, heading)} of the planes in the air."""
    return {x: (p["owner"], p["heading"]) for x, p in st.vars["air"].items()
            if p is not None and (owner is None or p["owner"] == owner)}


def _take_tactic(st, name):
    v = st.vars
    for pile in ("tactics", "tactics_discard"):
        if name in v[pile]:
            v[pile].remove(name)
            return
    for hand in v["hand"]:
        if name in hand:
            hand.remove(name)
            return
    raise AssertionError(f"no {name!r} left")


def set_hand(st, player, names):
    v = st.vars
    v["tactics"].extend(v["hand"][player - 1])
    v["hand"][player - 1] = []
    for name in names:
        _take_tactic(st, name)
        v["hand"][player - 1].append(name)


def stack_tactics(st, names):
    """These cards on top of the Skill and Tactic deck, the first name drawn first."""
    for name in names:
        _take_tactic(st, name)
    st.vars["tactics"].extend(reversed(names))


def give_bonus(st, player, name):
    v = st.vars
    level = EXPERTISE[name][0]
    for pile in (v["expertise_deck"][level - 1], v["expertise_used"][level - 1]):
        if name in pile:
            pile.remove(name)
            v["bonuses"][player - 1].append(name)
            return
    raise AssertionError(f"no {name!r} left")


def _deck_name(tier):
    return f"{tier}_deck"


def stunt_tier(st, name):
    return st.game.columns["tier"][name]


def take_stunt(st, name):
    """Take a stunt out of its deck; a player holding it as a secret stunt gets another of its tier."""
    v = st.vars
    deck = v[_deck_name(stunt_tier(st, name))]
    if name in deck:
        deck.remove(name)
        return
    for own in v["own_stunts"]:
        if name in own:
            own[own.index(name)] = deck.pop()
            return
    raise AssertionError(f"{name!r} is not to be had")


def set_panel(st, names):
    """The Judges' Panel shows exactly these stunts (taken from the decks; the old ones go back)."""
    v = st.vars
    for c in v["panel"]:
        v[_deck_name(stunt_tier(st, c))].insert(0, c)
    v["panel"] = []
    for c in names:
        take_stunt(st, c)
        v["panel"].append(c)


def set_own(st, player, names):
    """A player's secret (specialist or mystery) stunts are exactly these."""
    v = st.vars
    for c in v["own_stunts"][player - 1]:
        v[_deck_name(stunt_tier(st, c))].insert(0, c)
    v["own_stunts"][player - 1] = []
    for c in names:
        take_stunt(st, c)
        v["own_stunts"][player - 1].append(c)


def cards_everywhere(st):
    """Every card of each kind, wherever the state holds it."""
    v = st.vars
    tactics = Counter(v["tactics"]) + Counter(v["tactics_discard"])
    expertise = Counter()
    stunts = Counter(v["panel"]) + Counter(v["green_deck"]) + Counter(v["yellow_deck"]) + Counter(v["red_deck"])
    boxed = Counter(v["box"])
    for lvl in range(3):
        expertise.update(v["expertise_deck"][lvl])
        expertise.update(v["expertise_used"][lvl])
    for i in range(len(v["hand"])):
        tactics.update(v["hand"][i])
        expertise.update(v["bonuses"][i])
        expertise.update(v["displayed"][i])
        for place in ("claimed", "own_stunts", "dealt", "passing", "reserved"):
            stunts.update(v[place][i])
    names = set(st.game.tables["stunt"])
    tactics.update({c: n for c, n in boxed.items() if c in TACTICS})
    stunts.update({c: n for c, n in boxed.items() if c in names})
    return tactics, expertise, stunts


def check_invariants(st):
    """Nothing is lost or made up: 30 + 36 + 48 cards, 6 planes a player, one plane per id."""
    tactics, expertise, stunts = cards_everywhere(st)
    assert tactics == TACTICS
    assert expertise == Counter({n: c for n, (_lvl, c) in EXPERTISE.items()})
    assert stunts == Counter(st.game.tables["stunt"]) and len(stunts) == 48
    v = st.vars
    players = len(v["hangar"])
    ids = sorted([p["id"] for p in v["air"].values() if p is not None] + [i for h in v["hangar"] for i in h])
    assert ids == list(range(1, 6 * players + 1))
    for x, p in v["air"].items():
        if p is not None:
            assert (p["id"] - 1) // 6 + 1 == p["owner"]
    for i in range(players):
        assert all(not c.startswith("Freak") for c in v["hand"][i])


def dispatch(st, at):
    """Dispatch a plane (the compass die decides its heading) to space ``at``."""
    st.apply("dispatch a plane")
    st.apply(f"place at {at}")


def rolled(st):
    """The heading the compass die gave the plane being dispatched (from the log)."""
    lines = [e["text"] for e in st.events if e["event"] == "log" and " dispatches a plane facing " in e["text"]]
    return lines[-1].split()[-1]


# ----------------------------------------------------------------------------- games played to their end
def planes_of(st, owner):
    return [x for x, plane in st.vars["air"].items() if plane is not None and plane["owner"] == owner]


def tiers_claimed(st, player):
    return Counter(stunt_tier(st, c) for c in st.vars["claimed"][player - 1])


def _kinds(st, stunt):
    """What a plan may name a stunt by: its tier (colour) or its family."""
    return st.game.columns["tier"][stunt], st.game.columns["family"][stunt]


def _aim(st, player, plan):
    """What a player steered by ``plan`` (tiers or families, one per stunt wanted) flies toward next:
    the first the plan lists more often than the player has claimed such a stunt; None once it is done."""
    have = Counter(kind for c in st.vars["claimed"][player - 1] for kind in _kinds(st, c))
    return next((kind for i, kind in enumerate(plan) if plan[:i + 1].count(kind) > have[kind]), None)


def _nearness(st, player, kind):
    """How near a player is to claiming a stunt of ``kind``: its claimed value, then the fewest of its
    planes missing from a formation of that kind on the Judges' Panel."""
    columns, board = st.game.columns, st.game.board
    mine = planes_of(st, player)
    missing = [board.shape_missing(columns["shape"][c], mine) for c in st.vars["panel"] if kind in _kinds(st, c)]
    missing = [m for m in missing if m is not None]
    return 10 * sum(columns["value"][c] for c in st.vars["claimed"][player - 1]) - min(missing, default=0)


def steered_playout(st, seed, plans):
    """Play a game to its end by legal moves from a seeded generator: a seat with a plan (``plans``,
    {player: tiers or families}) takes, one move ahead, a move that brings a stunt of its plan's next
    kind nearest, ties at random; the other seats, and a seat whose plan is done, move at random. Real
    games that reach the stunts (red ones, a family) random pilots seldom fly."""
    rng = random.Random(seed)
    while not st.is_over():
        legal = st.legal_moves()
        player = legal[0].player
        kind = _aim(st, player, plans[player]) if player in plans and len(legal) > 1 else None
        if kind is None:
            st.apply(rng.choice(legal))
            continue
        scored = []
        for move in legal:
            trial = st.clone()
            trial.apply(move, atomic=False)     # a copy thrown away: no snapshot to undo a failure
            scored.append((_nearness(trial, player, kind), move))
        best = max(score for score, _move in scored)
        st.apply(rng.choice([move for score, move in scored if score == best]))
    return st
