"""A hint sees only what its seat sees: it is a function of the seat's information state and of its own
seed (interpreter/play/determinize.py). Two kinds of test, on small games of our own that each hide a
value in another way, and on Biplane's simultaneous programming:

- twins: states the seat cannot tell apart (equal information states) that differ in what it cannot
  see give, seeded alike, the same hint figure for figure;
- distribution: over many seeds the hint's answer does not depend on the hidden value (so it names
  the hidden value no more often than chance).
"""
from __future__ import annotations

import random
from pathlib import Path
from collections import Counter

import pytest

import rulewright
from rulewright.cli.hints import hint_lines
from rulewright.interpreter.play.agents import GreedyAgent, ISMCTSAgent
from rulewright.interpreter.play.determinize import determinize

# A secret number of each player (a scalar 'secret player var'); player 1 guesses player 2's.
GUESS = '''game "Guess"
players 2
player var number = 0 secret

setup:
    for p in players:
        p.number = roll(3)

turn:
    choose n in [1, 2, 3] as "guess {n}"
    reveal number
    if n == number[3 - me]:
        win me
    else:
        win 3 - me
    end game
'''

# A face-down field of a record: player 2's bid, which player 1 guesses.
BID = '''game "Bid"
players 2
record bid(owner, value secret to owner unless turned, turned = false)
var bids = []

round:
    choose v in [1, 2, 3] by 2 secretly as "bid {v}" shown "places a bid"
    add bid(2, v) to bids
    choose n in [1, 2, 3] by 1 as "guess {n}"
    bids[1].turned = true
    if n == revealed(bids[1].value):
        win 1
    else:
        win 2
    end game
'''

# A hidden variable that is no list, and a value held in a rule's local while a player decides.
HIDDEN = '''game "Hidden"
players 2
var target = 0 hidden
var deck = [] hidden

setup:
    target = roll(3)
    deck = shuffled([1, 2, 3])

round:
    draw c from deck
    choose n in [1, 2, 3] by 1 as "guess {n}"
    reveal c as "the card was {c}"
    reveal target as "the target was {target}"
    if n == revealed(c) or n == revealed(target):
        win 1
    else:
        win 2
    end game
'''

# A reaction window: who else is asked (the other holder of a cad) is for them alone to know.
WINDOW = '''game "Window"
players 3
player var hand = [] secret
var deck = [] hidden

setup:
    deck = shuffled(["cad", "cad", "dud", "dud"])
    for p in players:
        draw c from deck
        add c to p.hand

round:
    each q in players may choose c in q.hand where c == "cad" as "play a cad":
        reveal c as "player {q} plays a cad"
        remove c from q.hand
        win q
    end game
'''

# A simultaneous secret decision: each plays one of two cards; the higher card wins.
CLASH = '''game "Clash"
players 2
table card(name, rank):
    "a", 1
    "b", 2
    "c", 3
    "d", 4
    "e", 5
var deck = [] hidden
player var hand = [] secret
player var played = none

setup:
    deck = shuffled(card)
    for p in players:
        repeat 2 times:
            draw c from deck
            add c to p.hand

round:
    each p in players secretly choose c in p.hand as "play {c}" shown "plays a card":
        reveal c as "player {p} plays {c}"
        p.played = c
    if played[1].rank > played[2].rank:
        win 1
    else:
        win 2
    end game
'''


def _game(tmp_path, rules: str, players: int = 2):
    path = tmp_path / "game.rules"
    path.write_text(rules)
    return rulewright.load(str(path), players=players)


def _reach(game, seed: int, player: int, before=()):
    """A game from ``seed``, the moves ``before`` (texts, by whoever may make them) made, then random
    moves of the others (from a generator of its own) until ``player`` is to move (None: the game
    ended first)."""
    st = game.new_state(seed=seed)
    for text in before:
        mover = next(p for p in st.to_move() if text in [m.text for m in st.legal_moves(p)])
        st.apply(text, player=mover)
    rng = random.Random(seed)
    while player not in st.to_move():
        if st.is_over():
            return None
        p = st.to_move()[0]
        st.apply(rng.choice(st.legal_moves(p)), player=p)
    return st


def _twins(game, player: int, hidden, seeds=range(60), before=()):
    """States the player cannot tell apart (one information state), by the hidden value they hold:
    {hidden(state): state} for the largest such group with more than one hidden value."""
    groups: dict = {}
    for seed in seeds:
        st = _reach(game, seed, player, before)
        if st is None:
            continue
        groups.setdefault(st.information_state(player), {}).setdefault(hidden(st), st)
    best = max(groups.values(), key=len)
    assert len(best) > 1, "no two states the player cannot tell apart differ in the hidden value"
    return best


def _figures(st, player: int, seed: int) -> list:
    agent = ISMCTSAgent(seed, iterations=40, depth=6)
    return [(w.move.text, w.visits, w.value) for w in agent.weigh(st, player)]


CASES = {
    # name: (rules, players, the seat asking for a hint, the hidden value, moves made first)
    "a secret number": (GUESS, 2, 1, lambda st: st.vars["number"][1], ()),
    "a face-down bid": (BID, 2, 1, lambda st: st.vars["bids"][0]["value"], ()),
    "a hidden value and a local": (HIDDEN, 2, 1, lambda st: (st.vars["target"], st.frames[-1].locals.get("c")), ()),
    "who else a window asks": (WINDOW, 3, 1, lambda st: tuple(st.pending.waiting()), ()),
    "a rival's pending choice": (CLASH, 2, 1, lambda st: tuple(st.vars["hand"][1]), ()),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_twins_the_seat_cannot_tell_apart_get_the_same_hint(tmp_path, case):
    rules, players, seat, hidden, before = CASES[case]
    twins = _twins(_game(tmp_path, rules, players), seat, hidden, before=before)
    states = list(twins.values())
    for seed in range(3):
        first = _figures(states[0], seat, seed)
        for other in states[1:]:
            assert _figures(other, seat, seed) == first
        greedy = [(w.move.text, w.value) for w in GreedyAgent(seed).weigh(states[0], seat)]
        for other in states[1:]:
            assert [(w.move.text, w.value) for w in GreedyAgent(seed).weigh(other, seat)] == greedy
    # the hint as the prompt prints it, seeded alike
    lines = hint_lines(states[0], seat, "ismcts:iterations=30", seed=5)
    assert all(hint_lines(other, seat, "ismcts:iterations=30", seed=5) == lines for other in states[1:])


@pytest.mark.parametrize("case, chance", [("a secret number", 1 / 3), ("a face-down bid", 1 / 3),
                                          ("a hidden value and a local", 5 / 9)])
def test_the_hint_names_the_hidden_value_no_more_often_than_chance(tmp_path, case, chance):
    """Over many seeds, how often the hint's guess is right does not depend on the hidden value: a hint
    that peeked would be right every time; one that does not is right by chance (a third, or five
    ninths where either of two hidden values wins)."""
    rules, players, seat, hidden, before = CASES[case]
    game = _game(tmp_path, rules, players)
    answers: dict = {}
    for seed in range(60):
        st = _reach(game, seed, seat, before)
        if st is None:
            continue
        guess = ISMCTSAgent(seed, iterations=30, depth=4).choose(st, seat).text
        value = hidden(st)
        answers.setdefault(value, Counter())[guess] += 1

    def right(value, counts) -> int:
        winning = value if isinstance(value, tuple) else (value,)
        return sum(counts[f"guess {v}"] for v in set(winning))
    assert len(answers) > 1
    total = sum(right(v, c) for v, c in answers.items()) / sum(sum(c.values()) for c in answers.values())
    assert total < chance + 0.2, answers  # a peeking hint is right every time


def test_a_window_copy_asks_whoever_the_copy_deals_a_response(tmp_path):
    """Who else a window asks follows the dealt copy: over many copies, the other holder of a cad
    changes, and a player dealt no cad is never asked."""
    game = _game(tmp_path, WINDOW, 3)
    st = next(s for s in (_reach(game, seed, 1) for seed in range(40)) if s is not None)
    asked = Counter()
    for seed in range(40):
        world = determinize(st, 1, random.Random(seed))
        assert world.view(1) == st.view(1)
        others = tuple(q for q in world.pending.waiting() if q != 1)  # (one with nothing to answer has passed)
        for q in others:
            assert "cad" in world.vars["hand"][q - 1]
        asked[others] += 1
    assert len(asked) > 1, asked


def test_a_rivals_pending_options_come_from_its_dealt_hand(tmp_path):
    """In a simultaneous decision, the rival's options in a copy are those of its hand in the copy, both
    before and after it chose: never the options of its real hand."""
    game = _game(tmp_path, CLASH, 2)
    for chose_first in (False, True):
        st = game.new_state(seed=3)
        if chose_first:
            st.apply(st.legal_moves(2)[0], player=2)
        real = set(st.vars["hand"][1])
        outside = 0
        for seed in range(30):
            world = determinize(st, 1, random.Random(seed))
            offered = {o.value for o in world.pending.options[2]}
            assert offered == set(world.vars["hand"][1])
            outside += not offered <= real
            if chose_first:
                assert world.pending.chosen[2] in world.vars["hand"][1]
        assert outside > 0


def test_biplane_programming_deals_the_rivals_options_again():
    """Biplane's simultaneous programming: a copy dealt for player 1 offers player 2 the cards of player
    2's dealt hands, as asking again in that copy would."""
    st = rulewright.load("biplane", players=2).new_state(seed=2)
    while not st.pending.simultaneous:                # each player's question after the deal, in turn
        st.apply(st.legal_moves()[0])
    assert st.pending is not None and st.pending.simultaneous and 2 in st.pending.options
    real = sorted(o.text for o in st.pending.options[2])
    different = 0
    for seed in range(12):
        world = determinize(st, 1, random.Random(seed))
        again = world.clone()
        again.ask_again()
        assert sorted(o.text for o in world.pending.options[2]) == sorted(o.text for o in again.pending.options[2])
        different += sorted(o.text for o in world.pending.options[2]) != real
        assert world.view(1) == st.view(1)
    assert different > 0


# ------------------------------------------------------------------------------ a hostile review's twins
# Each file of tests/hint_secrets/ hides a value in a way a review found the hint could read (the card or
# nothing in one place; a card of one table or another; a loop's own copy of a hidden list; face-down
# fields of records in a local or in the seat's own options; a local gathering each player's secret pick;
# a secret number equal to a table's key; records and maps in hidden lists; a card inside a hidden record;
# a decision the copy cannot ask again; a value no random game met). Each builds states the seat cannot
# tell apart that differ in the hidden value: the hints must be the same.
CASE_DIR = Path(__file__).parent / "hint_secrets"


def _scripted(*lines):
    """States each reached by one line of moves, (text, player) each."""
    def build(game):
        out = []
        for moves in lines:
            st = game.new_state(seed=0)
            for text, player in moves:
                st.apply(text, player=player)
            out.append(st)
        return out
    return build


def _waited(rounds, last):
    """States after 'wait 1' until round ``rounds``, then each of ``last`` (text, player), if any."""
    def build(game):
        out = []
        for move in last:
            st = game.new_state(seed=0)
            while st.vars["round_number"] < rounds:
                st.apply("wait 1", player=1)
            if move is not None:
                st.apply(move[0], player=move[1])
            out.append(st)
        return out
    return build


def _by_seed(hidden, seat=1):
    def build(game):
        return list(_twins(game, seat, hidden, seeds=range(40)).values())
    return build


REVIEWED = {
    # file: (the seat, how its twins are built)
    "card_or_none": (1, _scripted([("set a trap", 2)], [("set nothing", 2)])),
    "two_tables": (1, _scripted([("hold sun 1", 2)], [("hold moon 1", 2)])),
    "plan_local": (2, _scripted([("pick 1", 1)], [("pick 2", 1)], [("pick 3", 1)])),
    "fallback": (1, _waited(160, [("play 1", 2), ("play 3", 2)])),
    "loop_items": (1, _by_seed(lambda st: tuple(st.vars["deck"]))),
    "options": (1, _by_seed(lambda st: tuple(t["value"] for t in st.vars["tiles"]))),
    "options_built": (1, _by_seed(lambda st: tuple(t["value"] for t in st.vars["tiles"]))),
    "kind": (1, _by_seed(lambda st: st.vars["number"][1])),
    "records": (1, _by_seed(lambda st: tuple(t["v"] for t in st.vars["pile"]))),
    "maps_in_hand": (1, _by_seed(lambda st: tuple(t["v"] for t in st.vars["hand"][1]))),
    "inview": (1, _by_seed(lambda st: (st.vars["stash"]["c"], st.vars["hand"][1][0]))),
}


def _reseeded(rounds, seeds):
    """One game waited to round ``rounds`` - 1, then a 'wait 1' from its generator reseeded with each seed."""
    def build(game):
        base = game.new_state(seed=0)
        while base.vars["round_number"] < rounds - 1:
            base.apply("wait 1", player=1)
        out = {}
        for seed in seeds:
            st = base.clone()
            st.rng.seed(seed)
            st.apply("wait 1", player=1)
            out.setdefault(st.information_state(1), {}).setdefault(st.vars["hand"][1][0]["mark"], st)
        return list(max(out.values(), key=len).values())
    return build


def _asked_with_seat(game):
    """States of a window in which seat 1 is asked, by who else is."""
    by: dict = {}
    for seed in range(40):
        st = game.new_state(seed=seed)
        if st.pending is not None and 1 in st.to_move():
            by.setdefault(st.information_state(1), {}).setdefault(tuple(st.pending.waiting()), st)
    return list(max(by.values(), key=len).values())


# a second review's: a procedure's value held while another call asks; the others' picks gathered by a
# simultaneous decision whose block asks the seat; a loop's variable set to a public value before the
# decision (its list still secret); the seat's own entry as a fallback domain (its face-down field); the
# others' options; a window's leftover locals; a local bound in a branch on a secret
REVIEWED.update({
    "hoisted": (1, _by_seed(lambda st: st.frames[2].locals["$value0"])),
    "each_block": (1, _scripted([("pick 1", 1), ("pick 1", 2)], [("pick 1", 1), ("pick 2", 2)],
                                [("pick 1", 1), ("pick 3", 2)])),
    "loop_var_reassigned": (1, _by_seed(lambda st: tuple(st.vars["deck"]))),
    "fallback_own": (1, _reseeded(700, range(12))),
    "optcount": (1, _by_seed(lambda st: st.vars["level"][1])),
    "window_fields": (1, _asked_with_seat),
    "stale_local": (1, _by_seed(lambda st: "junk" in st.frames[-1].locals)),
})


@pytest.mark.parametrize("name", sorted(REVIEWED))
def test_what_a_hostile_review_hid_no_hint_reads(name):
    seat, build = REVIEWED[name]
    game = rulewright.load(str(CASE_DIR / f"{name}.rules"), players=2)
    states = build(game)
    assert len({st.information_state(seat) for st in states}) == 1
    assert len({repr(st.vars) + repr(st.frames[-1].locals) + repr(st.pending) for st in states}) == len(states)
    for seed in range(2):
        first = _figures(states[0], seat, seed)
        greedy = [(w.move.text, w.value) for w in GreedyAgent(seed).weigh(states[0], seat)]
        for other in states[1:]:
            assert _figures(other, seat, seed) == first
            assert [(w.move.text, w.value) for w in GreedyAgent(seed).weigh(other, seat)] == greedy
    lines = hint_lines(states[0], seat, "greedy", seed=5)
    assert all(hint_lines(other, seat, "greedy", seed=5) == lines for other in states[1:])
