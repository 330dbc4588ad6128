"""Determinization: a copy of a state in which what one player cannot see is dealt again at random.

Information-set MCTS (agents.py) plays its simulations in such copies, so its choices cannot depend on
hidden values. What the player cannot see is what its view masks (views.py):

- a ``hidden`` variable's list (every entry of a ``hidden player var``), and the other players' entries of
  a ``secret player var``, unless revealed: the items of all these lists, and the entries that are not
  lists (a card held face down), are pooled and dealt back at random, each list keeping its size (a deck
  and the other hands exchange cards, as in a fresh deal);
- a record field the player may not see (``hidden``, ``secret to owner``): its values are exchanged at
  random among the records of the same shape whose field the player cannot see either;
- the secret choices others already made in a simultaneous decision: each is chosen again at random
  among that player's options;
- the generator, reseeded: future draws are unknown too.

Items are only exchanged with items of the same shape (a record with the same fields, or a value of the
same kind), so the copy is a position the rules could have dealt. It agrees with what the player sees now
(sizes, face-up values), not with everything the player may remember having seen earlier.
"""
from __future__ import annotations

import random

from rulewright.interpreter.views import _sees_field, revealed_now


def determinize(state, player: int, rng: random.Random):
    """A copy of ``state`` consistent with ``player``'s view, the rest dealt again from ``rng``."""
    world = state.clone()
    world.rng.seed(rng.getrandbits(64))
    _deal_hidden_lists(world, player, rng)
    _deal_hidden_fields(world, player, rng)
    _choose_secret_choices_again(world, player, rng)
    return world


def _shape(item):
    return ("record", frozenset(item)) if type(item) is dict else type(item).__name__


def _unseen_places(world, player) -> list:
    """(container, index) of every value the player's view masks: each item of a masked list, and the
    other players' entries of a secret player var that are not lists (a card held face down)."""
    g = world.game
    revealed = revealed_now(world)
    lists: list = []
    places: list = []
    for name, value in world.vars.items():
        visibility = g.visibility.get(name, "public")
        if visibility == "public" or (name, 0) in revealed:
            continue
        if name in g.player_vars:
            for p, entry in enumerate(value, 1):
                if (visibility == "secret" and p == player) or (name, p) in revealed:
                    continue
                if type(entry) is list:
                    _lists_in(entry, lists)
                else:
                    places.append((value, p - 1))
        else:
            _lists_in(value, lists)
    seen_ids = set()
    for lst in lists:
        if id(lst) not in seen_ids:  # one list held in two places
            seen_ids.add(id(lst))
            places.extend((lst, i) for i in range(len(lst)))
    return places


def _lists_in(value, out: list) -> None:
    """The lists the view shows only by size (masked(): a list of lists shows each one's size)."""
    if type(value) is not list:
        return
    if value and all(type(v) is list for v in value):
        for v in value:
            _lists_in(v, out)
    else:
        out.append(value)


def _deal_hidden_lists(world, player, rng) -> None:
    pools: dict = {}  # shape -> [(container, index)], then the items dealt back into those places
    for lst, i in _unseen_places(world, player):
        pools.setdefault(_shape(lst[i]), []).append((lst, i))
    for places in pools.values():
        items = [lst[i] for lst, i in places]
        rng.shuffle(items)
        for (lst, i), item in zip(places, items):
            lst[i] = item


def _deal_hidden_fields(world, player, rng) -> None:
    g = world.game
    if not g.field_visibility:
        return
    pools: dict = {}  # (record shape, field) -> records whose field the player cannot see
    seen_ids: set = set()

    def walk(value):
        t = type(value)
        if t is not list and t is not dict:
            return
        if id(value) in seen_ids:
            return
        seen_ids.add(id(value))
        items = value if t is list else value.values()
        if t is dict:
            rules = g.field_visibility.get(frozenset(value))
            if rules:
                for field, vis in rules.items():
                    if field in value and not _sees_field(value, vis, player):
                        pools.setdefault((frozenset(value), field), []).append(value)
        for v in items:
            walk(v)

    for v in world.vars.values():
        walk(v)
    for (_shape_, field), records in pools.items():
        values = [r[field] for r in records]
        rng.shuffle(values)
        for r, v in zip(records, values):
            r[field] = v


def _choose_secret_choices_again(world, player, rng) -> None:
    pend = world.pending
    if pend is None or not pend.simultaneous:
        return
    for q in list(pend.chosen):
        if q != player and pend.options.get(q):
            option = rng.choice(pend.options[q])
            pend.chosen[q] = option.value
            pend.texts[q] = [option.text, option.shown]
