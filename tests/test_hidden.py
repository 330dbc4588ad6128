"""Hidden information is a promise, tested on every shipped game and option: random playouts where,
at random points, each player's view, information state and event stream must hold nothing of
another player's secrets, nor of the face-down piles, beyond what the rules reveal.

Three checks, each one that a leak would fail:
- the events a player receives name no card that sits, right then, in someone else's secret or a
  face-down pile, unless the player saw it before (a view, a reveal) or sees it now;
- a public variable never shows a one-of-a-kind card that sits in someone else's secret at the same
  time (a public value worked out from a secret);
- two states that differ only in what a player cannot see (the face-down cards shuffled among the
  hiding places) give that player the same view, the same information state, the same explanations
  of the moves open, and (seeded alike) the same hint.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

import rulewright
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import Game, option_values, player_range, shipped_games
from rulewright.interpreter.engine.events import seen_by
from rulewright.interpreter.play.agents import ISMCTSAgent
from rulewright.interpreter.play.sweep import allows
from rulewright.interpreter.present.views import revealed_now

CHECK_EVERY = 1        # moves between two checks: a card may go public and back out of sight in a few
MOVES = 700            # per playout: enough to reach the middle game, short enough for CI


def _configs():
    """Every shipped game at each player count with default options, and each option value on its own.
    A variant (a few lines laid over a seed game with 'extends') plays with its default options only:
    the options are its base's, tested with the base."""
    out = []
    for name in sorted(shipped_games()):
        rules = rulewright.interpreter.api.load_rules(name)
        low, high = player_range(rules)
        variant = len(rules.sources) > 1
        settings = [{}] + ([] if variant else
                           [{opt: v} for opt, values in option_values(rules).items() for v in values[1:]])
        allowed = allows(rules)
        for options in settings:
            for players in range(low, high + 1):
                if not allowed(players, options):
                    continue  # a 'require' refuses this combination
                out.append(pytest.param(name, players, options,
                                        id=f"{name}-{players}p-" + ("-".join(f"{k}={v}" for k, v in options.items())
                                                                   or "default")))
                if options:
                    break  # an option value at one player count is enough
    return out


def atoms(value) -> set:
    """The texts a value is made of (card names, spaces...)."""
    out, stack = set(), [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
    return out


def unseen_places(st, player) -> list:
    """(variable, seat or None) for every value ``player`` may not see: face-down piles, other
    players' secrets (a revealed entry is seen)."""
    g = st.game
    revealed = revealed_now(st)
    places = []
    for name, visibility in g.visibility.items():
        if visibility == "public" or (name, 0) in revealed:
            continue
        if name in g.player_vars:
            for seat in range(1, g.player_count + 1):
                if (visibility == "hidden" or seat != player) and (name, seat) not in revealed:
                    places.append((name, seat))
        else:
            places.append((name, None))
    return places


def _value(st, place):
    name, seat = place
    return st.vars[name] if seat is None else st.vars[name][seat - 1]


def secret_atoms(st, player) -> set:
    return set().union(*(atoms(_value(st, p)) for p in unseen_places(st, player))) if unseen_places(st, player) \
        else set()


def named(text: str, secrets: set, seen: set) -> set:
    """The secrets a text names, once the names the player has seen are struck out of it ("Vic" is
    not named by "claim Open Vic" when "Open Vic" lies face up)."""
    suspects = {a for a in secrets if len(a) > 2 and a in text}
    if not suspects:
        return set()
    for a in sorted((a for a in seen if a in text), key=len, reverse=True):
        text = text.replace(a, "\0")
    return {a for a in suspects if a in text}


def one_of_a_kind(game) -> set:
    """Table items the game holds exactly one of: such a card cannot be in two places at once."""
    counts = Counter(k for keys in game.tables.values() for k in keys)
    return {k for k, n in counts.items() if n == 1 and isinstance(k, str)}


def shuffle_unseen(st, player, rng) -> None:
    """Deal the texts of every hidden place of ``player``'s view anew among those places, keeping each
    place's size and shape, and each card in a place of its own deck: a state ``player`` cannot tell
    from ``st``."""
    slots = []  # (container, index) of every text in an unseen place

    def collect(container, key):
        v = container[key]
        if isinstance(v, str):
            slots.append((container, key))
        elif isinstance(v, list):
            for i in range(len(v)):
                collect(v, i)

    for name, seat in unseen_places(st, player):
        if seat is None:
            collect(st.vars, name)
        else:
            collect(st.vars[name], seat - 1)
    # a card changes places only with a card of the same tables (the player knows which deck a face-down
    # card belongs to), any other text with any other such text
    decks: dict = {}
    for table, keys in st.game.tables.items():
        for key in keys:
            decks.setdefault(key, set()).add(table)
    kinds: dict = {}
    for c, k in slots:
        kinds.setdefault(tuple(sorted(decks.get(c[k], ()))), []).append((c, k))
    for same in kinds.values():
        texts = [c[k] for c, k in same]
        rng.shuffle(texts)
        for (c, k), t in zip(same, texts):
            c[k] = t


class Watch:
    """What each player has seen so far, and the checks run on a state."""

    def __init__(self, st, rng):
        self.st, self.rng = st, rng
        self.players = list(range(1, st.game.player_count + 1))
        self.known = {p: set() for p in self.players}
        self.unique = one_of_a_kind(st.game)
        self.see_now()

    def see_now(self):
        for p in self.players:
            self.known[p] |= atoms(self.st.view(p)["vars"])

    def check(self):
        st = self.st
        new = st.drain_events()  # the events since the last check, as the referee sees them
        views = {p: st.view(p)["vars"] for p in self.players}
        in_place: dict = {}  # the atoms of each unseen place, worked out once a check

        def held(place):
            if place not in in_place:
                in_place[place] = atoms(_value(st, place))
            return in_place[place]

        for p in self.players:
            unseen = unseen_places(st, p)
            by_var = {k: atoms(v) for k, v in views[p].items()}
            seen_now = set().union(*by_var.values())
            # what the other players hold in secret right now (face-down piles change hands with
            # every reshuffle, so a card named while face up may be face down a move later)
            secret = set().union(*(held(q) for q in unseen if q[1] is not None and q[1] != p)) - seen_now
            for event in new:
                seen = seen_by(event, p)
                if seen is None:
                    continue
                if seen["event"] == "reveal":
                    self.known[p] |= {a for a in secret | self.unique if a in seen["text"]}
                    continue
                text = seen.get("move") or seen.get("text") or ""
                leaked = named(text, secret - self.known[p], self.known[p])
                assert not leaked, f"player {p} is told {text!r}, naming {leaked} that it may not see"
                self.known[p] |= {a for a in self.unique if a in text}  # told in the open: known now
            public = set().union(*(a for k, a in by_var.items() if st.game.visibility.get(k, "public") == "public"))
            others = set().union(*(held(q) for q in unseen if q[1] != p))
            shown_twice = (public & others & self.unique) - self.known[p]  # known: it went there in sight
            if shown_twice:
                where = {k for k, v in st.vars.items() if shown_twice & atoms(v)}
                raise AssertionError(f"player {p} sees {shown_twice} in a public variable while it is secret "
                                     f"({where})")
            self.known[p] |= seen_now

    def indistinguishable(self):
        """A state ``p`` cannot tell from this one (its unseen cards dealt otherwise) gives ``p`` the
        same view, information state, explanations and, seeded alike, the same hint."""
        st = self.st
        for p in self.players:
            other = st.clone()
            shuffle_unseen(other, p, self.rng)
            assert other.view(p) == st.view(p)
            assert other.information_state(p) == st.information_state(p)
            assert told(other, p) == told(st, p)


def told(st, p) -> list:
    """What ``p`` is told of the moves open now (each explained to ``p``, or the refusal), and, if ``p``
    is to move, the hint's figures (ismcts, seeded: a function of what ``p`` may see)."""
    out = []
    for move in st.legal_moves():
        try:
            out.append(st.explain(move, p))
        except rulewright.IllegalMoveError as exc:
            out.append(str(exc))
    if p in st.to_move() and len(st.legal_moves(p)) > 1:
        out.append([(w.move.text, w.visits, w.value) for w in ISMCTSAgent(7, iterations=6, depth=3).weigh(st, p)])
    return out


@pytest.mark.parametrize("name,players,options", _configs())
def test_nothing_secret_reaches_another_player(name, players, options):
    game = rulewright.load(name, players=players, options=options)
    for seed in (1, 2):
        rng = random.Random(seed)
        st = game.new_state(seed=seed)
        watch = Watch(st, rng)
        watch.check()
        for n in range(MOVES):
            if st.is_over():
                break
            st.apply(rng.choice(st.legal_moves()))
            if n % CHECK_EVERY == 0:
                watch.check()
            if n % 97 == 0:
                watch.indistinguishable()
        watch.check()
        watch.indistinguishable()


def test_the_leak_test_catches_a_move_that_names_a_secret():
    """The test above would fail on a game that announces a secret card: it is not vacuous. (The
    secrecy check refuses this game, so it is compiled here without the checker.)"""
    text = ('''game "Leaky"
players 2
table card(name):
    "Ace"
    "King"
    "Queen"
    "Jack"
var deck = [] hidden
player var hand = [] secret
player var kept = none secret
setup:
    deck = shuffled(card)
    for p in players:
        draw c from deck
        add c to p.hand
        draw d from deck
        add d to p.hand
turn:
    choose c in me.hand as "keep {c}"
    me.kept = c
    remove c from me.hand
    end game
''')
    game = Game(parse(text, "leaky.rules"), 2)
    st = game.new_state(seed=1)
    watch = Watch(st, random.Random(1))
    st.apply(st.legal_moves()[0])
    with pytest.raises(AssertionError, match="naming"):
        watch.check()


def test_the_rule_of_an_event_reaches_the_referee_only():
    """The line that wrote a log can tell which branch of the rules ran, and a branch may follow a
    secret: the referee's copy of an event names its rule (file:line), a player's copy never does, so
    the two branches below, one public text each, look the same to every player."""
    text = ('''game "Coin"
players 2
player var side = "" secret
turn:
    choose c in ["heads", "tails"] secretly as "{c}" shown "picks a side"
    me.side = c
    if me.side == "heads":
        log "player {me} picked"
    else:
        log "player {me} picked"
    end game
''')
    game = Game(parse(text, "coin.rules"), 2)  # without the checker, which may refuse the branch
    told = {}
    for side, line in (("heads", 8), ("tails", 10)):
        st = game.new_state(seed=1)
        st.apply(side)
        referee = st.event_history()
        assert [(e["event"], e.get("rule")) for e in referee[:2]] == [("move", "coin.rules:5"),
                                                                      ("log", f"coin.rules:{line}")]
        for p in (1, 2):
            mine = st.event_history(p)
            assert mine == [seen_by(e, p) for e in referee] and not any("rule" in e for e in mine)
        told[side] = st.drain_events(2)
    assert told["heads"] == told["tails"]
