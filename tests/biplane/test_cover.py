"""Rows of the coverage table (docs/games/biplane.md) that no rule test reached: every card's
respawn label; and over the turns of real seeded games, each Straight card flown by its own number of
spaces (the wrap, the ceiling and the ground among them), each loop, and the old maneuver card going
back to its hand or to the discards."""
from __future__ import annotations

from collections import Counter

from rulewright.interpreter.testing import positions

from .helpers import ALL_CARDS, assert_full_deck, game, place, program_all, quiet, ready, set_hand, stack_deck
from .test_rules import programming


def crashing():
    """Player 1 about to fly into the ground from A5; player 2 parked where no label points."""
    st = ready()
    quiet(st)
    place(st, 1, "A5", "down")
    set_hand(st, 1, perm=("Straight 1 A1", "Straight 2 A7"))
    place(st, 2, "F9", "right")
    return st


def test_every_card_respawns_a_plane_where_its_label_says():
    """4.5: "Draw the next card from the deck, and place it on the indicated space ... facing to the
    right, unless the card says "Up"". Every one of the 64 cards, drawn for a respawn; an
    unlabelled Shoot card indicates no space, so the next card is drawn."""
    base = crashing()
    for card in sorted(ALL_CARDS):
        st = base.clone()
        words = card.split()
        up = words[-1] == "Up"
        label = words[-2] if up else (None if card == "Shoot" else words[-1])
        drawn = [card] if label else [card, "Straight 2 C3"]
        stack_deck(st, drawn)
        assert st.vars["at"][0] == "A5" and st.vars["score"] == [0, 0]
        program_all(st, {})                       # either straight flies into the ground
        assert programming(st), card
        where = (label or "C3", "up" if up else "right")
        assert (st.vars["at"][0], st.vars["heading"][0]) == where, card
        assert st.vars["score"] == [1, 0], card
        assert st.vars["discard"][-len(drawn):] == drawn, card
        assert_full_deck(st, card)


ROWS = "ABCDEFG"            # A the ground, G the ceiling
COLUMNS = 12               # "column 1 is copied right of 12": the columns wrap


def ahead(space, heading):
    """The next space along a heading (2.0, 4.2), or None above the ceiling and below the ground."""
    row, col = ROWS.index(space[0]), int(space[1:])
    row += {"up": 1, "down": -1}.get(heading, 0)
    col = (col - 1 + {"right": 1, "left": -1}.get(heading, 0)) % COLUMNS + 1
    return f"{ROWS[row]}{col}" if 0 <= row < len(ROWS) else None


def straight_flight(space, heading, spaces):
    """4.1.1 and 4.2, as the rulebook tells them: the space and heading after flying ``spaces`` straight,
    and how the flight ends: "flies", "ceiling" (turned to face down, the move ended) or "ground"."""
    for _ in range(spaces):
        nxt = ahead(space, heading)
        if nxt is None:
            return (space, "down", "ceiling") if heading == "up" else (None, None, "ground")
        space = nxt
    return space, heading, "flies"


def before(kind):
    """A ``where``: a player has just to program the card that ends its turn, and the next player's
    programmed card, revealed and flown once this is done, is of this kind ("Straight ", "90 ", "180 ");
    no shot is in the air to meet it."""
    def holds(st):
        if st.step != "ending moving" or len(st.to_move()) != 1 or st.vars["shots"]:
            return False
        nxt = st.to_move()[0] % st.game.player_count + 1
        card = st.vars["programmed"][nxt - 1]
        return card is not None and card.startswith(kind) and st.vars["at"][nxt - 1] is not None
    return holds


def flown(kind, check, seeds=range(2), each=20):
    """What ``check(found, players)`` saw over the positions before a card of this kind, 2-4 players."""
    seen = set()
    for players in (2, 3, 4):
        options = {} if players == 2 else {"mode": "free_for_all"}
        for found in positions(game(players, **options), before(kind), seeds=seeds, each=each):
            seen |= check(found, players)
    return seen


def play_the_next_turn(st):
    """The player to program does (its first choice), and the next player's turn is flown, every
    player declining to shoot (a Temporary Hand over its limit discards its first card), up to that
    player's own programming."""
    (q,) = st.to_move()
    p = q % st.game.player_count + 1
    st.apply(st.legal_moves()[0])
    while not st.is_over() and not (st.step == "ending moving" and st.to_move() == [p]):
        legal = st.legal_moves()
        move = next((m for m in legal if m.text == "no shot"), legal[0])
        st.apply(move, player=move.player)
    return p


def test_each_straight_card_flies_its_number_of_spaces():
    """4.1.1: "moving a number of spaces, 1 at a time, indicated by the "Straight" maneuver card (i.e.,
    1, 2 or 3)", and 4.2: the columns wrap; "If a Biplane is facing upward in row G and is supposed to
    move 1 more space Straight, the plane instead turns to face straight down and ends its movement";
    "If plane is facing downward in row A and is supposed to move 1 more space Straight, it crashes into
    the ground." Every turn of real games (2, 3 and 4 players) where a Straight card is flown with
    nobody on its path: the plane's space and heading after it, or the crash (score +1, the plane
    respawned), as those sentences tell."""
    seen = flown("Straight ", _fly_the_straight)
    assert {(1, "flies"), (2, "flies"), (3, "flies"), "ceiling", "ground", "wrap"} <= seen, seen


def _fly_the_straight(found, players):
    """The next turn played from a position before a Straight, checked; what it showed: the spaces
    and how the flight ended, and whether it crossed the wrapping edge."""
    st, v = found.state, found.state.vars
    p = st.to_move()[0] % players + 1
    card = v["programmed"][p - 1]
    spaces = int(card.split()[1])
    at, heading, score = v["at"][p - 1], v["heading"][p - 1], list(v["score"])
    end, facing, how = straight_flight(at, heading, spaces)
    path = [x for x in (straight_flight(at, heading, k)[0] for k in range(1, spaces + 1)) if x]
    if how != "ground" and set(path) & {v["at"][o - 1] for o in range(1, players + 1) if o != p}:
        return set()                                  # a mid-air crash: another rule
    assert play_the_next_turn(st) == p
    if how == "ground":
        assert v["score"][p - 1] == score[p - 1] + 1 and v["at"][p - 1] is not None, (found, card)
    else:
        assert (v["at"][p - 1], v["heading"][p - 1], v["score"]) == (end, facing, score), (found, card)
    wrapped = any(abs(int(x[1:]) - int(y[1:])) > 1 for x, y in zip([at] + path, path))
    return {(spaces, how), how} | ({"wrap"} if wrapped else set())


TURNS = ("right", "up", "left", "down")       # counter-clockwise


def quarter(space, heading, rotation):
    """4.1.2: "Biplanes may only begin a loop from a space that has a curved path leaving it" (every
    other space: row + column even, row 1 the ground); the quarter circle ends one space ahead and one
    to the side, facing the turned way. None where no curved path leads away."""
    row, col = ROWS.index(space[0]) + 1, int(space[1:])
    turned = TURNS[(TURNS.index(heading) + rotation) % 4]
    corner = ahead(space, heading)
    end = ahead(corner, turned) if corner else None
    return (end, turned) if (row + col) % 2 == 0 and end else None


def loop_flight(space, heading, card):
    """4.1.2 for a loop card from a space and heading: the path (the spaces entered) and the heading
    after it, and how each quarter went ("curve", or "straight" where no curved path leaves); None
    where a straight quarter meets the ceiling or the ground (the Straight test's rules)."""
    rotation = -1 if " CW " in card else 1
    path, shown = [], set()
    for _ in range(int(card.split()[0]) // 90):
        curve = quarter(space, heading, rotation)
        if curve is None:
            space, heading, how = straight_flight(space, heading, 1)
            if how != "flies":
                return None
            shown.add("straight")
        else:
            (space, heading), _ = curve, shown.add("curve")
        path.append(space)
    return path, heading, shown


def _fly_the_loop(found, players):
    """The next turn played from a position before a loop card, checked when each quarter either
    follows its curve or, with none, flies one space straight, onto a free space; what it showed."""
    st, v = found.state, found.state.vars
    p = st.to_move()[0] % players + 1
    card = v["programmed"][p - 1]
    start, score = v["at"][p - 1], list(v["score"])
    flight = loop_flight(start, v["heading"][p - 1], card)
    if flight is None or set(flight[0]) & {v["at"][o - 1] for o in range(1, players + 1) if o != p}:
        return set()                                  # the ceiling, the ground, a mid-air crash: other rules
    path, heading, shown = flight
    assert play_the_next_turn(st) == p
    assert (v["at"][p - 1], v["heading"][p - 1], v["score"]) == (path[-1], heading, score), (found, card)
    wrapped = any(abs(int(x[1:]) - int(y[1:])) > 1 for x, y in zip([start] + path, path))
    return {(card.split()[0], how) for how in shown} | {card.split()[1]} | ({"wrap"} if wrapped else set())


def test_loops_follow_quarter_circles_or_fly_straight_where_none_leaves():
    """4.1.2 LOOPING MANEUVERS over every clear loop of real games (2-4 players): a 90 flies one
    quarter circle clockwise or counter-clockwise as the card says, a 180 two; a quarter begun where
    no curved path leaves flies one space straight instead (a half loop's second quarter at an edge);
    a curve across the wrapping edge wraps like a straight line."""
    seen = flown("90 ", _fly_the_loop) | flown("180 ", _fly_the_loop)
    assert {("90", "curve"), ("90", "straight"), ("180", "curve"), ("180", "straight"), "CW", "CCW",
            "wrap"} <= seen, seen


def before_a_maneuver(st):
    return any(before(kind)(st) for kind in ("Straight ", "90 ", "180 "))


def test_permanent_cards_return_and_temporary_cards_are_discarded():
    """4.1.4 CHANGED MANEUVERS: "When a player reveals a Maneuver card as his move, he removes the old
    Maneuver Card": a card of the Permanent Hand goes back to that hand, one of the Temporary Hand to
    the discards. Every turn of real games (2-4 players) where a maneuver is revealed: the card shown
    after it, and where the old one went."""
    seen = set()
    for players in (2, 3, 4):
        options = {} if players == 2 else {"mode": "free_for_all"}
        for found in positions(game(players, **options), before_a_maneuver, seeds=range(2), each=15):
            st, v = found.state, found.state.vars
            p = st.to_move()[0] % players + 1
            card, old, owned = v["programmed"][p - 1], v["shown"][p - 1], list(v["owned"][p - 1])
            perm, discard = Counter(v["perm"][p - 1]), Counter(v["discard"])
            play_the_next_turn(st)
            assert v["shown"][p - 1] == card
            if old is None:
                continue
            home = old in owned
            assert (Counter(v["perm"][p - 1]) - perm)[old] == (1 if home else 0), (found, old)
            assert (Counter(v["discard"]) - discard)[old] >= (0 if home else 1), (found, old)
            seen.add(home)
    assert seen == {True, False}


def test_repeat_repeats_the_maneuver_and_draws_into_the_temporary_hand():
    """4.1.5 REPEAT MOVES over every Repeat revealed in real games (2-4 players): the maneuver card left
    out is flown again (its card stays out), a card is drawn into the Temporary Hand, which keeps to
    one card a Repeat owned, and a Permanent Hand Repeat goes back to that hand (a Temporary Hand one
    stays out as the played card)."""
    seen = set()
    for players in (2, 3, 4):
        options = {} if players == 2 else {"mode": "free_for_all"}
        for found in positions(game(players, **options), before("Repeat "), seeds=range(3), each=10):
            st, v = found.state, found.state.vars
            p = st.to_move()[0] % players + 1
            card, shown = v["programmed"][p - 1], v["shown"][p - 1]
            owned = card in v["owned"][p - 1]
            start, heading, score, temp = v["at"][p - 1], v["heading"][p - 1], list(v["score"]), len(v["temp"][p - 1])
            if shown.startswith("Straight "):
                end, facing, how = straight_flight(start, heading, int(shown.split()[1]))
                flight = None if how == "ground" else ([end], facing, {how})
            else:
                flight = loop_flight(start, heading, shown)
            others = {v["at"][o - 1] for o in range(1, players + 1) if o != p}
            play_the_next_turn(st)
            assert v["shown"][p - 1] == shown
            repeats = sum(c.startswith("Repeat ") for c in v["perm"][p - 1] + v["temp"][p - 1]
                          + [v["left_repeat"][p - 1] or ""])
            assert len(v["temp"][p - 1]) == min(temp + 1, repeats), found
            assert (card in v["perm"][p - 1]) if owned else v["left_repeat"][p - 1] == card
            seen.add("permanent" if owned else "temporary")
            if flight is not None and not set(flight[0]) & others and v["score"] == score:
                assert (v["at"][p - 1], v["heading"][p - 1]) == (flight[0][-1], flight[1]), (found, shown)
                seen.add(shown.split()[0])
    assert {"permanent", "temporary", "Straight", "90"} <= seen, seen
