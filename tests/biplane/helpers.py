"""Scenario helpers for Biplane: the 64 cards as the rulebook lists them, where each card is now,
moving a named card into a chosen place (so the deck, discards and hands stay a full deck), and
building a position that waits for the first programming."""
from __future__ import annotations

from collections import Counter

from rulewright.interpreter.testing import refresh, shipped


def _labelled(prefix, row, cols):
    return [f"{prefix} {row}{c}" for c in cols]


# 2.0 Components, written out from the rulebook (not read from the rules file), so the rules'
# card table is checked against an independent list.
ALL_CARDS = Counter(
    _labelled("Straight 1", "A", range(1, 7))
    + _labelled("Straight 2", "A", range(7, 13)) + _labelled("Straight 2", "C", range(1, 7))
    + _labelled("Straight 3", "C", range(7, 13))
    + _labelled("90 CW", "E", range(1, 7)) + _labelled("180 CW", "E", range(7, 13))
    + _labelled("90 CCW", "G", range(1, 7)) + _labelled("180 CCW", "G", range(7, 13))
    + [f"Repeat {s} Up" for s in ("A2", "A4", "A6", "A8", "A10", "A12", "B4", "B10")]
    + ["Shoot"] * 4 + [f"Shoot {s} Up" for s in ("B2", "B6", "B8", "B10")]
)
assert sum(ALL_CARDS.values()) == 64

LIST_PLACES = ("perm", "temp", "fired", "set_aside")          # per-player lists of cards
ONE_CARD_PLACES = ("programmed", "shown", "left_repeat")   # per-player single cards (or none)

CONFIGS = {
    "2p": (2, {}),
    "3p": (3, {"mode": "free_for_all"}),
    "3p-two-on-one": (3, {"mode": "two_on_one"}),
    "4p": (4, {"mode": "free_for_all"}),
    "4p-two-on-two": (4, {"mode": "two_on_two"}),
    "2p-tree": (2, {"board": "tree"}),
    "4p-two-on-two-tree": (4, {"mode": "two_on_two", "board": "tree"}),
    "2p-skill-1": (2, {"skill": 1}),
    "2p-skill-2": (2, {"skill": 2}),
}


def game(players=2, **options):
    return shipped("biplane", players, **options)


def cards_everywhere(st) -> Counter:
    """Every card the state holds, wherever it is (deck, discards, hands, on the table)."""
    v = st.vars
    found = Counter(v["deck"]) + Counter(v["discard"])
    for p in range(len(v["perm"])):
        for place in LIST_PLACES:
            found.update(v[place][p])
        for place in ONE_CARD_PLACES:
            if v[place][p] is not None:
                found[v[place][p]] += 1
    return found


def assert_full_deck(st, where=""):
    found = cards_everywhere(st)
    assert found == ALL_CARDS, (where, found - ALL_CARDS, ALL_CARDS - found)


def kind_of(name):
    """Cards that fly alike: 'Straight 2', '90 CW', ...; every Repeat; every Shoot."""
    words = name.split()
    return words[0] if words[0] in ("Repeat", "Shoot") else " ".join(words[:2])


def _from_pile(st, accept):
    for pile in ("deck", "discard"):
        for i, c in enumerate(st.vars[pile]):
            if accept(c):
                return st.vars[pile].pop(i)
    return None


def take(st, name, keep=()):
    """Take one copy of a card out of play. From the deck or the discards if it is there; from a
    player, it is swapped for a card of the same kind from the piles (not one of ``keep``), so the
    player's hand still flies the same way."""
    v = st.vars
    if _from_pile(st, lambda c: c == name) is not None:
        return
    spare = _from_pile(st, lambda c: c != name and kind_of(c) == kind_of(name) and c not in keep)
    assert spare is not None, f"no card like {name!r} left to swap in"
    for p in range(len(v["perm"])):
        for place in LIST_PLACES:
            if name in v[place][p]:
                v[place][p][v[place][p].index(name)] = spare
                if name in v["owned"][p]:
                    v["owned"][p][v["owned"][p].index(name)] = spare
                return
        for place in ONE_CARD_PLACES:
            if v[place][p] == name:
                v[place][p] = spare
                if name in v["owned"][p]:
                    v["owned"][p][v["owned"][p].index(name)] = spare
                return
    raise AssertionError(f"no card {name!r} anywhere")


def set_hand(st, player, perm=(), temp=()):
    """Give a player exactly these Permanent and Temporary Hands; displaced cards go to the discards."""
    v, i = st.vars, player - 1
    v["discard"].extend(v["perm"][i] + v["temp"][i])
    v["perm"][i], v["temp"][i], v["owned"][i] = [], [], []
    wanted = tuple(perm) + tuple(temp)
    for name in perm:
        take(st, name, keep=wanted)
        v["perm"][i].append(name)
    for name in temp:
        take(st, name, keep=wanted)
        v["temp"][i].append(name)
    v["owned"][i] = list(perm)


def stack_deck(st, names):
    """Put these cards on top of the deck, the first name to be drawn first."""
    for name in names:
        take(st, name, keep=names)
    st.vars["deck"].extend(reversed(names))


def place(st, player, at, heading="right"):
    st.vars["at"][player - 1] = at
    st.vars["heading"][player - 1] = heading


SHOW, KEEP = "show the cards and draw publicly", "keep the cards dealt"


def answer_the_deal(st, show=True):
    """Answer every player's question after the deal (3.0 "A player may show that his random cards did
    not include two different "Maneuver" cards"): show where it is offered (``show``) or where the hand
    must be shown, keep the cards dealt otherwise."""
    while (offered := [m.text for m in st.legal_moves()]) and set(offered) <= {SHOW, KEEP}:
        st.apply(SHOW if SHOW in offered and (show or KEEP not in offered) else KEEP)


def ready(players=2, seed=1, **options):
    """A new game past the secret discards of the setup: everyone is to program a first card."""
    st = game(players, **options).new_state(seed=seed)
    for _ in range(10 * players):                 # a few discards each, at most
        if all(m.text.startswith("program ") for m in st.legal_moves()):
            break
        st.apply(st.legal_moves()[0])
    assert st.to_move() == list(range(1, players + 1))
    st.drain_events()
    return st


def quiet(st, players=None):
    """Park every plane on row A, far apart and flying right one space a turn, with two Straight 1
    cards and nothing else, and no shots: a background for a scenario about other planes."""
    v = st.vars
    v["shots"] = []
    n = len(v["at"])
    spaces = ["A1", "A4", "A7", "A10"]
    hands = [("Straight 1 A1", "Straight 1 A2"), ("Straight 1 A3", "Straight 1 A4"),
             ("Straight 1 A5", "Straight 1 A6"), ("Straight 2 A7", "Straight 2 A8")]
    for p in players or range(1, n + 1):
        place(st, p, spaces[p - 1], "right")
        set_hand(st, p, perm=hands[p - 1])


def program_all(st, cards: dict):
    """Every player programs a card (a dict player -> card name); missing players take their first.
    The decision is asked again first, so it sees the hands and places the test has set."""
    refresh(st)
    decline_empty_shot_offers(st)
    for p in st.to_move():
        name = cards.get(p)
        st.apply(f"program {name}" if name else st.legal_moves(p)[0], player=p)
    decline_empty_shot_offers(st)


def decline_empty_shot_offers(st):
    """Answer 'no shot' while it is the only move: every player is asked after each space flown,
    Shoot card or not, so that being asked tells the others nothing. The scenarios are about other
    things, so they read the position past these questions (texts, act)."""
    while [m.text for m in st.legal_moves()] == ["no shot"]:
        st.apply("no shot")


def texts(st, player=None):
    """The legal moves, once the questions with nothing to choose are answered."""
    decline_empty_shot_offers(st)
    return [m.text for m in st.legal_moves(player)]


def act(st, move, player=None):
    """Apply a move, once the questions with nothing to choose are answered."""
    if move != "no shot":
        decline_empty_shot_offers(st)
    st.apply(move, player=player)


def shot(id_, at, heading, side="yellow"):
    return {"id": id_, "at": at, "heading": heading, "side": side}
