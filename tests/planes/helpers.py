"""Scenario helpers for PLANES: the 15 cards as the rulebook lists them, boards written as short
strings ("RRN" = two red cubes and a neutral), hands and decks set by card name (the 60 cards stay
all accounted for), and a way to ask the pending decision again after a test changed the state."""
from __future__ import annotations

from collections import Counter

from rulewright.interpreter import testing
from rulewright.interpreter.testing import logs, refresh, shipped, texts

# The card list of the rulebook (Card Clarifications), written out here, not read from the rules:
# action name -> (goal name, VP). The pairing follows the rulebook's order within each page.
CARDS = {
    "Draw 1": ("Blank Space", 1),
    "To Fast Food": ("Fast Food", 1),
    "To Restroom": ("Restroom", 1),
    "Choose One": ("Single Own Cube", 1),
    "Skip 1 Space": ("Single Neutral Cube", 1),
    "Draw 2 Discard 1": ("3 Cubes 3 Colours", 2),
    "Gather": ("4 Cubes 2 Colours", 2),
    "To Gift Shop": ("Gift Shop", 2),
    "To Help Desk": ("Help Desk", 2),
    "Ignore Neutrals": ("2 Cubes 2 Colours", 2),
    "Draw 3 Discard 1": ("5 Cubes 3 Colours", 3),
    "To Fine Dining": ("Fine Dining Pair", 3),
    "Move Backwards": ("4 Neutral Cubes", 3),
    "Only Your Party": ("4 Cubes 4 Colours", 3),
    "Move Twice": ("Own Neutral Other", 3),
}
ALL_CARDS = Counter({name: 4 for name in CARDS})
assert sum(ALL_CARDS.values()) == 60

COLOURS = ["red", "yellow", "blue", "green"]
LETTERS = {"R": "red", "Y": "yellow", "B": "blue", "G": "green", "N": "grey"}
CLOUD_FLOOR = ["C", "P4", "P1", "P2", "S1", "S2", "S3", "P3", "S9", "S8", "S7", "S6", "S5", "S4"]
ZEPHYR_FLOOR = ["C", "S1", "P1", "S2", "S3", "P2", "S4", "S5", "P3", "S6", "S7", "P4", "S8", "S9"]
# The arrows of each airport (space -> the spaces they lead to), written out from the board as the
# docs page reads it (docs/games/planes.md), not read from the rules: a move's test follows them.
ARROWS = {
    "flying_cloud": {"C": ["P4", "S4"], "P4": ["P1"], "P1": ["P2", "N2"], "P2": ["S1"], "S1": ["S2", "G1"],
                     "S2": ["S3"], "S3": ["P3"], "P3": ["C"], "S9": ["P3"], "S8": ["S9", "G4"], "S7": ["S8"],
                     "S6": ["S7", "N1"], "S5": ["S6", "G2"], "S4": ["S5", "G3"]},
    "zephyr": {"C": ["S1", "S5"], "S1": ["P1", "G3"], "P1": ["S2"], "S2": ["S3", "N1"], "S3": ["P2", "G4"],
               "P2": ["S4"], "S4": ["S9"], "S5": ["P3", "G1"], "P3": ["S6"], "S6": ["S7", "N2"], "S7": ["P4", "G2"],
               "P4": ["S8"], "S8": ["S9"], "S9": ["C"]},
}
GATES = ["G1", "G2", "G3", "G4"]          # the four major gates, one per colour
GREY_GATES = ["N1", "N2"]                 # the grey neutral gates, on both airports

# Every configuration the playout tests run: players and options.
CONFIGS = {
    "2p": (2, {}),
    "3p": (3, {}),
    "4p": (4, {}),
    "2p-zephyr": (2, {"airport": "zephyr"}),
    "3p-zephyr": (3, {"airport": "zephyr"}),
    "4p-zephyr": (4, {"airport": "zephyr"}),
    "3p-covered": (3, {"interest": "covered"}),
    "4p-zephyr-custom": (4, {"airport": "zephyr", "interest": "custom"}),
    "2p-shuffled": (2, {"interest": "shuffled"}),
    "3p-zephyr-covered": (3, {"airport": "zephyr", "interest": "covered"}),
    "3p-player-decks": (3, {"decks": "player_decks"}),
    "2p-zephyr-player-decks": (2, {"airport": "zephyr", "decks": "player_decks"}),
    "4p-short-8": (4, {"last_space": 8}),
    "3p-zephyr-short-5": (3, {"airport": "zephyr", "last_space": 5}),
}


def game(players=3, **options):
    return shipped("planes", players, **options)


def cubes(spec: str) -> list:
    """'RRN' -> ['red', 'red', 'grey']."""
    return [LETTERS[ch] for ch in spec]


def spec(st, space) -> str:
    """The cubes of a space as a sorted letter string, 'NRR' style sorted by colour order."""
    order = "RYBGN"
    back = {v: k for k, v in LETTERS.items()}
    return "".join(sorted((back[c] for c in st.vars["cubes"][space]), key=order.index))


def floor(st) -> list:
    return list(st.vars["floor"])


def set_board(st, layout: dict, clear: bool = True):
    """Put exactly these cubes on these spaces (every other space empty when ``clear``); cones
    follow the new counts, and the move's walls are the cones now standing."""
    v = st.vars
    if clear:
        for s in v["cubes"]:
            v["cubes"][s] = []
    for s, what in layout.items():
        v["cubes"][s] = cubes(what) if isinstance(what, str) else list(what)
    v["cones"] = [s for s in v["floor"] if sum(c != "grey" for c in v["cubes"][s]) >= 7]
    v["walls"] = list(v["cones"])


def cards_everywhere(st) -> Counter:
    v = st.vars
    found = Counter(v["deck"]) + Counter(v["discard"])
    for i in range(len(v["hand"])):
        for place in ("hand", "goals", "in_play", "own_deck", "own_discard"):
            found.update(v[place][i])
    return found


def _take(st, name, player=None):
    """Take one copy of a card out of a pile (the deck, then the discards) for a test to place."""
    v = st.vars
    piles = [v["deck"], v["discard"]]
    if player is not None:
        piles += [v["own_deck"][player - 1], v["own_discard"][player - 1]]
    for pile in piles:
        if name in pile:
            pile.remove(name)
            return
    raise AssertionError(f"no spare {name!r} in the piles")


def set_hand(st, player, names):
    """Give a player exactly these cards; the old hand goes back into the deck (own deck in the
    Player Decks variant), so every card stays accounted for."""
    v, i = st.vars, player - 1
    own = v["own_deck"][i] if st.game.options["decks"] == "player_decks" else v["deck"]
    own.extend(v["hand"][i])
    v["hand"][i] = []
    for name in names:
        _take(st, name, player)
        v["hand"][i].append(name)


def stack_deck(st, names, player=None):
    """These cards on top of the deck, the first name drawn first."""
    v = st.vars
    pile = v["own_deck"][player - 1] if player is not None else v["deck"]
    for name in names:
        _take(st, name, player)
    pile.extend(reversed(names))


def start(players=3, seed=1, **options):
    """A new game at the starting player's Action Phase, events drained."""
    st = game(players, **options).new_state(seed=seed)
    st.drain_events()
    return st


def play(st, *moves):
    """Apply moves by text; returns the log lines they produced."""
    testing.play(st, *moves)
    return logs(st)


def plain_turn(st, source):
    """A turn without cards: no action, move every cube of ``source``, stop at the first chance."""
    st.apply("no action")
    st.apply(f"move {source}")
    while texts(st) and not texts(st)[-1] == "no goal":
        options = texts(st)
        st.apply("stop" if "stop" in options else options[0])
    st.apply("no goal")


def board_quietly(st, layout):
    """This board at the pending decision, asked again."""
    set_board(st, layout)
    refresh(st)


def fill(st, colour, n):
    """``n`` cubes of ``colour`` on its plane (the plane at its gate and the colour's count)."""
    v = st.vars
    v["load"][GATES[COLOURS.index(colour)]] = n
    v["boarded"][colour] = n


def finish(st, goals, boarded):
    """Set goals and boarded cubes, then end a 2-player game at the end of round 1."""
    board_quietly(st, {"S6": "R", "S9": "Y"})
    plain_turn(st, "S6")
    st.apply("no action")
    st.apply("move S9")
    for p, names in goals.items():
        st.vars["goals"][p - 1] = list(names)
    for c, n in boarded.items():
        fill(st, c, n)
    st.vars["track"] = 12
    refresh(st)
    st.apply("no goal")
    assert st.is_over()
    return st.outcome()
