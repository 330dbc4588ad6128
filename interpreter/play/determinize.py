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

Items are only exchanged with items of the same shape (a record with the same fields, a row of the same
tables, so a card of one deck never lands in another, or a value of the same kind), so the copy is a
position the rules could have dealt. It agrees with what the player sees now
(sizes, face-up values), not with everything the player may remember having seen earlier.

Finding what is unseen walks the whole state; a search deals many copies of one state, so ``Dealer``
finds it once (as paths from the variables) and each ``sample()`` only copies and shuffles.
"""
from __future__ import annotations

import random
import weakref

from rulewright.interpreter.engine.values import sees_field
from rulewright.interpreter.present.views import revealed_now


def determinize(state, player: int, rng: random.Random):
    """A copy of ``state`` consistent with ``player``'s view, the rest dealt again from ``rng``."""
    return Dealer(state, player).sample(rng)


class Dealer:
    """What ``player`` cannot see in ``state``, found once; each ``sample(rng)`` is a fresh copy of the
    state with all of it dealt again."""

    def __init__(self, state, player: int):
        self.state, self.player = state, player
        rows = _rows_of(state.game)
        pools: dict = {}  # shape -> paths of the places holding an item of that shape
        for path in _unseen_paths(state, player):
            pools.setdefault(_shape(_at(state.vars, path), rows), []).append(path)
        # Each pool with the order in which its items are shuffled: the order of their values, not of the
        # places they hold, so that two states the player cannot tell apart deal alike from one seed
        # (a search seeded alike then gives the same advice in both: it learns nothing of where things are).
        self.item_pools = [(paths, _by_value([_at(state.vars, p) for p in paths]))
                           for paths in pools.values() if len(paths) > 1]
        # A card alone of its deck among what the player cannot see (the last one of a pile) has nothing
        # to be exchanged with; kept, its real value would steer the search. It is drawn instead from
        # the deck's cards the player sees nowhere (the copies of its table not in view).
        lone = [(shape, paths[0]) for shape, paths in pools.items() if len(paths) == 1 and _is_card(shape)]
        self.lone_draws = []
        if lone:
            unseen = {path for paths in pools.values() for path in paths}
            in_view = _cards_in_view(state.vars, unseen)
            for (_kind, tables), path in lone:
                candidates = sorted(_copies_not_in_view(state.game, tables, in_view), key=repr)
                if len(set(candidates)) > 1:
                    self.lone_draws.append((path, candidates))
        self.field_pools = [(field, paths, _by_value([_at(state.vars, p)[field] for p in paths]))
                            for (_shape_, field), paths in _unseen_fields(state, player).items() if len(paths) > 1]

    def sample(self, rng: random.Random):
        world = self.state.clone()
        world.rng.seed(rng.getrandbits(64))
        variables = world.vars
        for paths, order in self.item_pools:
            places = [(_at(variables, path[:-1]), path[-1]) for path in paths]
            items = [places[k][0][places[k][1]] for k in order]
            rng.shuffle(items)
            for (holder, i), item in zip(places, items):
                holder[i] = item
        for path, candidates in self.lone_draws:
            _at(variables, path[:-1])[path[-1]] = rng.choice(candidates)
        for field, paths, order in self.field_pools:
            records = [_at(variables, path) for path in paths]
            values = [records[k][field] for k in order]
            rng.shuffle(values)
            for r, v in zip(records, values):
                r[field] = v
        _choose_secret_choices_again(world, self.player, rng)
        return world


def _is_card(shape) -> bool:
    """A shape of a table's row (a key of one or more tables)."""
    return type(shape) is tuple and len(shape) == 2 and shape[0] in ("str", "int") and shape[1] is not None


def _cards_in_view(variables: dict, unseen: set) -> dict:
    """How many times each text or number stands in the state where the player sees it."""
    counts: dict = {}
    todo = [((name,), v) for name, v in variables.items()]
    while todo:
        path, value = todo.pop()
        t = type(value)
        if t is list:
            todo.extend((path + (i,), v) for i, v in enumerate(value))
        elif t is dict:
            todo.extend((path + (k,), v) for k, v in value.items())
        elif (t is str or t is int) and path not in unseen:
            counts[value] = counts.get(value, 0) + 1
    return counts


def _copies_not_in_view(game, tables: tuple, in_view: dict) -> list:
    """The copies of the tables' cards that the player sees nowhere."""
    copies: dict = {}
    for table in tables:
        for key in game.tables.get(table, ()):
            copies[key] = copies.get(key, 0) + 1
    out: list = []
    for key, n in copies.items():
        out += [key] * max(0, n - in_view.get(key, 0))
    return out


def _by_value(values: list) -> list:
    """The positions of ``values`` in the order of the values themselves (their text)."""
    return sorted(range(len(values)), key=lambda k: repr(values[k]))


def _at(variables: dict, path: tuple):
    """The value at ``path``: a variable's name, then list positions and record fields."""
    value = variables[path[0]]
    for step in path[1:]:
        value = value[step]
    return value


def _shape(item, rows: dict):
    """What an item may be exchanged with: a record with the same fields, a row of the same tables (a
    card of one deck never lands in another deck), or a value of the same kind."""
    t = type(item)
    if t is dict:
        return ("record", frozenset(item))
    if t is str or t is int:
        return (t.__name__, rows.get(item))
    return t.__name__


_ROWS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _rows_of(game) -> dict:
    """key -> the tables (sorted names) that have a row with that key, for one compiled game."""
    rows = _ROWS.get(game)
    if rows is None:
        found: dict = {}
        for table, keys in game.tables.items():
            for key in keys:
                if type(key) in (str, int):
                    found.setdefault(key, []).append(table)
        # the tables, each once: a card with more copies than another is of the same deck all the same
        rows = _ROWS[game] = {k: tuple(sorted(set(v))) for k, v in found.items()}
    return rows


def _unseen_paths(state, player) -> list:
    """The path of every value the player's view masks: each item of a masked list, and the other
    players' entries of a secret player var that are not lists (a card held face down)."""
    g = state.game
    revealed = revealed_now(state)
    lists: list = []  # (path, list)
    paths: list = []
    for name, value in state.vars.items():
        visibility = g.visibility.get(name, "public")
        if visibility == "public" or (name, 0) in revealed:
            continue
        if name in g.player_vars:
            for p, entry in enumerate(value, 1):
                if (visibility == "secret" and p == player) or (name, p) in revealed:
                    continue
                if type(entry) is list:
                    _lists_in(entry, (name, p - 1), lists)
                else:
                    paths.append((name, p - 1))
        else:
            _lists_in(value, (name,), lists)
    seen_ids = set()
    for path, lst in lists:
        if id(lst) not in seen_ids:  # one list held in two places
            seen_ids.add(id(lst))
            paths.extend(path + (i,) for i in range(len(lst)))
    return paths


def _lists_in(value, path: tuple, out: list) -> None:
    """The lists the view shows only by size (masked(): a list of lists shows each one's size)."""
    if type(value) is not list:
        return
    if value and all(type(v) is list for v in value):
        for i, v in enumerate(value):
            _lists_in(v, path + (i,), out)
    else:
        out.append((path, value))


def _unseen_fields(state, player) -> dict:
    """(record shape, field) -> the paths of the records whose field the player cannot see."""
    g = state.game
    pools: dict = {}
    if not g.field_visibility:
        return pools
    seen_ids: set = set()

    def walk(value, path):
        t = type(value)
        if t is not list and t is not dict:
            return
        if id(value) in seen_ids:
            return
        seen_ids.add(id(value))
        if t is dict:
            rules = g.field_visibility.get(frozenset(value))
            if rules:
                for field, vis in rules.items():
                    if field in value and not sees_field(value, vis, player):
                        pools.setdefault((frozenset(value), field), []).append(path)
            for k, v in value.items():
                walk(v, path + (k,))
        else:
            for i, v in enumerate(value):
                walk(v, path + (i,))

    for name, v in state.vars.items():
        walk(v, (name,))
    return pools


def _choose_secret_choices_again(world, player, rng) -> None:
    """The secret choices others already made, made again at random among the options the dealt copy
    offers them: their real options come from what they hold, which the player cannot see."""
    pend = world.pending
    if pend is None or not pend.simultaneous:
        return
    others = [q for q in pend.chosen if q != player]
    if not others:
        return
    own = (pend.chosen[player], pend.texts[player]) if player in pend.chosen else None
    world.ask_again()  # every option worked out again from the dealt copy; every choice dropped
    pend = world.pending
    if own is not None:
        pend.chosen[player], pend.texts[player] = own
    for q in others:
        if pend.options.get(q):
            option = rng.choice(pend.options[q])
            pend.chosen[q] = option.value
            pend.texts[q] = [option.text, option.shown]
