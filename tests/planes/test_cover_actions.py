"""The action cards over real seeded games: at every Action Phase reached (both airports, 2-4 players,
the common deck and the Player Decks), each card the player could play is checked: offered exactly
when it can be carried out, and played, it does what the rulebook's Card Clarifications say to the
hand, the piles and the cubes, and is discarded at the end of the turn."""
from __future__ import annotations

import functools
import random
from collections import Counter

from rulewright.interpreter.testing import positions

from .airport import Airport
from .helpers import CARDS, game
from .test_card_texts import CONDITIONS

CONFIGS = ((2, {}), (3, {"airport": "zephyr"}), (4, {}), (3, {"decks": "player_decks"}))
DRAWS = {"Draw 1": (1, False), "Draw 2 Discard 1": (2, True), "Draw 3 Discard 1": (3, True)}
PLACES = {"To Fast Food": "fast_food", "To Restroom": "restroom", "To Gift Shop": "gift_shop",
          "To Help Desk": "help_desk", "To Fine Dining": "fine_dining"}
MOVE_CARDS = ("Skip 1 Space", "Ignore Neutrals", "Move Backwards", "Only Your Party", "Move Twice")


def at_an_action(st):
    return st.step == "action" and any(m.text == "no action" for m in st.legal_moves())


@functools.lru_cache(maxsize=None)
def action_phases(players, options):
    return list(positions(game(players, **dict(options)), at_an_action, seeds=range(2), each=25))


def refusing(st):
    """A ``where``: an Action Phase where a card in the mover's hand is not offered."""
    if not at_an_action(st):
        return False
    offered, (p,) = {m.text for m in st.legal_moves()}, st.to_move()
    return any(f"action {c}" not in offered for c in st.vars["hand"][p - 1])


# Refusals are rare in random play: these games reach one (To Fine Dining with the whole party on
# the Fine Dining space, 4 players, seed 0; Skip 1 Space with nowhere to skip, 2 players, seed 3),
# found by a search over seeds 0-5 when the test was written.
REFUSING = ((4, 0), (2, 3))


class Turn:
    """The mover's view of a real position: its colour, its cubes, the places, its draw pile."""

    def __init__(self, st):
        v, (self.p,) = st.vars, st.to_move()
        self.i, self.st, self.v = self.p - 1, st, v
        self.me = v["colour"][self.i]
        self.own_decks = st.game.options["decks"] == "player_decks"

    def pile(self, name):                         # "deck" or "discard", the player's own with Player Decks
        return self.v[f"own_{name}"][self.i] if self.own_decks else self.v[name]

    def mine(self):
        return {s: c.count(self.me) for s, c in self.v["cubes"].items() if self.me in c and s in self.v["floor"]}

    def places(self, kind):
        return [s for s in self.v["floor"] if self.v["poi"][s] == kind]

    def scorable(self, hand):
        v = self.v
        neutral = set(v["neutrals"]).__contains__
        return [c for c in hand if any(CONDITIONS[c](v["cubes"][s], v["poi"][s], self.me, neutral)
                                       for s in v["floor"])]

    def can_move(self, **rules):
        """Move Phase: a space of yours from which the cubes can go on, under this card's rules."""
        airport = Airport(self.st)
        for rule, value in rules.items():
            setattr(airport, rule, value)
        return bool(airport.sources())

    def playable(self, card):
        """Card Clarifications: an action is played only when it can be carried out."""
        mine, in_airport = self.mine(), sum(self.mine().values())
        if card in DRAWS:
            return True
        if card in ("To Fast Food", "To Restroom", "To Fine Dining"):
            return any(mine.get(s, 0) < in_airport for s in self.places(PLACES[card]))
        if card in ("To Gift Shop", "To Help Desk"):
            return any(t != s for s in mine for t in self.places(PLACES[card]))
        if card == "Gather":
            return bool(mine)
        if card == "Choose One":
            return self.can_move(ignore_blockages=True) or bool(self.scorable(without(self.v["hand"][self.i], card)))
        rule = {"Skip 1 Space": "skip", "Ignore Neutrals": "no_neutrals", "Move Backwards": "backwards",
                "Only Your Party": "own_only", "Move Twice": None}[card]
        return self.can_move(**({rule: True} if rule else {}))


def without(cards, card):
    rest = list(cards)
    rest.remove(card)
    return rest


def test_an_action_is_offered_exactly_when_it_can_be_carried_out():
    """Action Phase: "you may play one card from your hand as an action ... carry out the instructions of
    the card"; an action that cannot be carried out is not offered. At every Action Phase of real games,
    each card in hand is offered if and only if the rulebook's instructions can be carried out."""
    seen = Counter()
    refusals = [next(positions(game(players), refusing, seeds=[seed])) for players, seed in REFUSING]
    phases = [f for players, options in CONFIGS for f in action_phases(players, tuple(sorted(options.items())))]
    for found in phases + refusals:
        turn = Turn(found.state)
        offered = {m.text[7:] for m in found.state.legal_moves() if m.text.startswith("action ")}
        for card in set(turn.v["hand"][turn.i]):
            assert (card in offered) == turn.playable(card), (found, card)
            seen.update([card in offered])
    assert seen[True] and seen[False] >= 2, seen


def test_each_action_card_does_what_its_clarification_says_where_it_is_played():
    """Card Clarifications, each action played at every Action Phase of real games where it is offered:
    Draw 1 (the top card of the draw pile into the hand), Draw 2 / Draw 3 Discard 1 (drawn, then one of
    the hand discarded), To Fast Food / To Restroom ("Collect all of your party cubes and place them
    together"), Gather ("collect all of your other party cubes and add them to that chosen space"), To
    Gift Shop / To Help Desk ("Choose 1 of your party cubes and place it"), To Fine Dining ("Choose 2 ...
    These cubes may come from different spaces"), Choose One (ignore the blockages, or score another goal
    now); every action card in play until the end of the turn, then in the discards."""
    seen = set()
    for players, options in CONFIGS:
        for found in action_phases(players, tuple(sorted(options.items()))):
            for move in found.state.legal_moves():
                if move.text == "action Choose One":
                    seen |= _play(found, "Choose One", "ignore blockages") | _play(found, "Choose One", "extra goal")
                elif move.text.startswith("action "):
                    seen |= _play(found, move.text[7:])
    assert {f"{card}" for card in list(DRAWS) + list(PLACES) + ["Gather", "Choose One"] + list(MOVE_CARDS)} <= seen
    assert {"ignore blockages", "extra goal", "two places offered", "discarded at the end"} <= seen, seen


def _play(found, card, way=None):
    """Play an action card at a real position (Choose One by ``way``) and check what it did."""
    st = found.state.clone()
    turn, v = Turn(st), st.vars
    hand, mine, cubes = list(v["hand"][turn.i]), turn.mine(), {s: Counter(c) for s, c in v["cubes"].items()}
    deck, discards = list(turn.pile("deck")), list(turn.pile("discard"))
    rng = random.Random(found.seed * 1000 + len(found.moves))
    st.apply(f"action {card}")
    assert v["in_play"][turn.i] == [card]
    seen = {card}
    if card in DRAWS:
        n, discard = DRAWS[card]
        if len(deck) < n:
            return seen                           # a reshuffle: its own test
        drawn = deck[::-1][:n]                    # the top of the pile is its end
        assert Counter(v["hand"][turn.i]) == Counter(without(hand, card) + drawn), (found, card)
        assert turn.pile("deck") == deck[:-n]
        if discard:
            offered = {m.text for m in st.legal_moves()}
            assert offered == {f"discard {c}" for c in v["hand"][turn.i]}, (found, offered)
            choice = rng.choice(sorted(offered))
            st.apply(choice)
            assert turn.pile("discard")[-1] == choice[8:]
            assert Counter(v["hand"][turn.i]) == Counter(without(hand, card) + drawn) - Counter([choice[8:]])
    elif card in ("To Fast Food", "To Restroom", "Gather"):
        verb = "gather at" if card == "Gather" else "place at"
        targets = list(mine) if card == "Gather" else \
            [s for s in turn.places(PLACES[card]) if mine.get(s, 0) < sum(mine.values())]
        target = _pick(st, verb, targets, rng, seen)
        assert turn.mine() == {target: sum(mine.values())}, (found, card)
        _others_stay(v, cubes, turn.me)
    elif card in ("To Gift Shop", "To Help Desk"):
        sources = [s for s in mine if any(t != s for t in turn.places(PLACES[card]))]
        src = _pick(st, "take from", sources, rng, seen)
        target = _pick(st, "place at", [t for t in turn.places(PLACES[card]) if t != src], rng, seen)
        assert turn.mine() == +(Counter(mine) - Counter([src]) + Counter([target])), (found, card)
        _others_stay(v, cubes, turn.me)
    elif card == "To Fine Dining":
        target = _pick(st, "place at", [s for s in turn.places("fine_dining")
                                        if mine.get(s, 0) < sum(mine.values())], rng, seen)
        left = Counter(mine)
        for _ in range(2):
            others = [s for s in left if s != target and left[s]]
            if others:
                left.subtract([_pick(st, "take from", others, rng, seen)])
        arrived = sum(mine.values()) - sum(n for s, n in left.items() if s != target)
        assert turn.mine() == +Counter({**{s: n for s, n in left.items() if s != target}, target: arrived})
        _others_stay(v, cubes, turn.me)
    elif card == "Choose One":
        seen |= _choose_one(st, turn, hand, way, rng)
    if not st.is_over() and st.to_move() == [turn.p]:
        _finish_the_turn(st, turn.p, rng)
        assert v["in_play"][turn.i] == [] and card in (turn.pile("discard") + v["discard"])
        seen.add("discarded at the end")
    return seen


def _pick(st, verb, options, rng, seen):
    """The space picked for an action: asked when there are two or more, taken unasked when one."""
    assert options
    if len(options) == 1:
        return options[0]
    offered = {m.text for m in st.legal_moves()}
    assert offered == {f"{verb} {s}" for s in options}, (offered, options)
    choice = rng.choice(sorted(offered))
    st.apply(choice)
    seen.add("two places offered")
    return choice[len(verb) + 1:]


def _others_stay(v, before, me):
    """The other colours' cubes do not move."""
    for s, c in v["cubes"].items():
        assert Counter(x for x in c if x != me) == Counter(x for x in before[s].elements() if x != me), s


def _choose_one(st, turn, hand, way, rng):
    """Choose One: "Ignore all blockages during your Move Phase" or "Score another goal card
    immediately", each offered where it can be carried out."""
    v, goals = turn.v, list(turn.v["goals"][turn.i])
    ways = {"ignore blockages": turn.can_move(ignore_blockages=True),
            "extra goal": bool(turn.scorable(without(hand, "Choose One")))}
    offered = {m.text for m in st.legal_moves()}
    assert offered == {w for w, ok in ways.items() if ok}, (offered, ways)
    if way not in offered:
        return set()
    st.apply(way)
    if way == "ignore blockages":
        assert v["mode"]["ignore_blockages"]
        return {way}
    names = {c: goal for c, (goal, _vp) in CARDS.items()}
    scorable = turn.scorable(without(hand, "Choose One"))
    choices = {m.text for m in st.legal_moves()}
    assert choices == {f"goal {names[c]}" for c in scorable}, (choices, scorable)
    goal = rng.choice(sorted(choices))
    st.apply(goal)
    card = [c for c in scorable if f"goal {names[c]}" == goal][0]
    assert v["goals"][turn.i] == goals + [card]
    return {way}


def _finish_the_turn(st, p, rng):
    while not st.is_over() and st.to_move() == [p]:
        st.apply(rng.choice(st.legal_moves()))
