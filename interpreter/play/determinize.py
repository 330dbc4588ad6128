"""Determinization: a copy of a state in which everything one player cannot see is dealt again.

Information-set MCTS and the greedy agent (agents.py), and so every hint (cli/hints.py), play their
simulations in such copies. The promise: a copy is a function of what the player may see (their view)
and of the generator handed to ``sample``, never of a hidden value. Two states the player cannot tell
apart give, from one seed, the same copies, so an agent searching them gives the same advice, figure
for figure; over many seeds, its advice does not depend on what it cannot see.

What the player cannot see (the *places*, found by structure: where a value sits, never what it is):

- a ``hidden`` variable (a list's items, or the value itself), and the other players' entries of a
  ``secret player var``, unless revealed;
- a record field the player may not see (``hidden``, ``secret to owner``);
- a local of the rules waiting at a decision whose value the secrecy check labels as a secret the
  player may not know (a card drawn into ``c`` before a decision);
- the choices others already made in a simultaneous decision, the options they are offered there, and
  who else a reaction window asks (all asked again in the copy);
- the generator: future draws are unknown too.

How each place is dealt, from sources that depend only on what the player sees:

- a **card** (a key of one or more tables): from the copies of its tables' cards that the player sees
  nowhere (in view: the variables and fields the player sees, and the player's own options), in
  canonical order, shuffled; so a deck and the other hands exchange cards as in a fresh deal;
- a **record** held in a hidden list (a face-down tile): exchanged with the other such records of the
  same fields, in the order of their values (what the deck holds is the game's, not the player's);
- **any other value** (a secret number, a face-down bid, a hidden yes/no): drawn from the values such a
  place held in a few random games of the same rules (``domain``), learned once per compiled game
  from fixed seeds, so it is a fact of the rules, not of this game.

Which deck a card belongs to, and a record's fields, are read from the places themselves: the player
knows what kind of thing lies face down. The copy agrees with what the player sees now, not with
everything the player may remember having seen earlier.

Finding the places walks the whole state; a search deals many copies of one state, so ``Dealer``
finds them once (as paths) and each ``sample()`` only copies and deals.
"""
from __future__ import annotations

import random
import weakref
from typing import Optional

import attrs

from rulewright.dsl.errors import RulesError
from rulewright.interpreter.engine.values import copy_value, sees_field
from rulewright.interpreter.present.views import revealed_now

# The random games a domain is learned from: at most this many games, of at most GAME_DECISIONS
# decisions each, DOMAIN_DECISIONS in all (many short games, or a few long ones).
DOMAIN_GAMES = 64
GAME_DECISIONS = 150
DOMAIN_DECISIONS = 400
DOMAIN_KEPT = 64  # distinct values a place's domain keeps (the most frequent)
ASK_TRIES = 20  # deals tried for one copy where others are asked at once (Dealer.sample)


def determinize(state, player: int, rng: random.Random):
    """A copy of ``state`` consistent with ``player``'s view, the rest dealt again from ``rng``."""
    return Dealer(state, player).sample(rng)


class Dealer:
    """What ``player`` cannot see in ``state``, found once; each ``sample(rng)`` is a fresh copy of the
    state with all of it dealt again."""

    def __init__(self, state, player: int):
        self.state, self.player = state, player
        g = state.game
        rows = _rows_of(g)
        places = _unseen_places(state, player)  # [(path, slot)]
        unseen_paths = {path for path, _slot in places}
        in_view = _cards_in_view(state, unseen_paths, player)
        cards: dict = {}     # tables -> paths of the cards of those tables
        records: dict = {}   # record fields -> paths of the records
        self.draws = []      # (path, domain): each drawn on its own
        needs_domain = []
        for path, slot in places:
            value = _at(state, path)
            t = type(value)
            tables = rows.get(value) if t is str or t is int else None
            if tables is not None:
                cards.setdefault(tables, []).append(path)
            elif t is dict and slot[0] == "item":
                records.setdefault(frozenset(value), []).append(path)
            else:
                needs_domain.append((path, slot))
        # The cards: each deck's unseen places take cards from the copies the player sees nowhere.
        self.card_deals = []
        for tables, paths in sorted(cards.items()):
            free = sorted(_copies_not_in_view(g, tables, in_view), key=repr)
            if not free:  # every copy is in view (the rules copied a card): any card of the deck
                free = sorted(_copies_not_in_view(g, tables, {}), key=repr)
            self.card_deals.append((paths, free))
        # Records in a hidden list: exchanged, in the order of their values (never of their places).
        self.record_pools = [(paths, _by_value([_at(state, p) for p in paths]))
                             for paths in records.values() if len(paths) > 1]
        if needs_domain:
            domains = domain(g)
            for path, slot in needs_domain:
                values = domains.get(slot[1:]) or _kind_default(_at(state, path))
                self.draws.append((path, values))
        self.waiting = _Waiting.of(state, player)  # read now: the copies take the state's data

    def sample(self, rng: random.Random):
        """A copy with everything the player cannot see dealt again from ``rng``. Where others are asked
        at once, a deal in which the decision would not wait as the player sees it wait (nobody else
        asked in a window the player sees open) is dealt again, up to ASK_TRIES times."""
        for _ in range(ASK_TRIES):
            world = self._deal(rng)
            if self.waiting is None or self.waiting.ask_again(world, self.player, rng):
                break
        return world

    def _deal(self, rng: random.Random):
        world = self.state.clone()
        world.rng.seed(rng.getrandbits(64))
        world._edited = True  # changed outside a move: a rollback must not go back to the real deal
        for paths, free in self.card_deals:
            if len(free) >= len(paths):
                dealt = rng.sample(free, len(paths))
            else:  # more places than free copies: the rest drawn from the deck again
                dealt = free[:] + [rng.choice(free) for _ in range(len(paths) - len(free))]
                rng.shuffle(dealt)
            for path, card in zip(paths, dealt):
                _put(world, path, card)
        for paths, order in self.record_pools:
            items = [_at(world, paths[k]) for k in order]
            rng.shuffle(items)
            for path, item in zip(paths, items):
                _put(world, path, item)
        for path, values in self.draws:
            _put(world, path, copy_value(rng.choice(values)))
        return world


# ---------------------------------------------------------------------------------------------- places
def _unseen_places(state, player) -> list:
    """(path, slot) of every value the player may not see. A path starts with a variable's name (then
    list positions and record fields), or with a frame's number and a local's name. The slot names the
    kind of place, for the domain: ("item"|"entry", "var", name), ("entry", "field", fields, field),
    ("entry", "local", procedure, name)."""
    g = state.game
    revealed = revealed_now(state)
    lists: list = []  # (path, list, name)
    places: list = []
    for name, value in state._vars.items():
        visibility = g.visibility.get(name, "public")
        if visibility == "public" or (name, 0) in revealed:
            continue
        if name in g.player_vars:
            for p, entry in enumerate(value, 1):
                if (visibility == "secret" and p == player) or (name, p) in revealed:
                    continue  # (player None: every entry someone cannot see)
                if type(entry) is list:
                    _lists_in(entry, (name, p - 1), name, lists)
                else:
                    places.append(((name, p - 1), ("entry", "var", name)))
        elif type(value) is list:
            _lists_in(value, (name,), name, lists)
        else:
            places.append(((name,), ("entry", "var", name)))
    seen_ids = set()
    for path, lst, name in lists:
        if id(lst) not in seen_ids:  # one list held in two places
            seen_ids.add(id(lst))
            places.extend((path + (i,), ("item", "var", name)) for i in range(len(lst)))
    places.extend(_unseen_fields(state, player))
    places.extend(_unseen_locals(state, player))
    return places


def _lists_in(value, path: tuple, name: str, out: list) -> None:
    """The lists the view shows only by size (masked(): a list of lists shows each one's size)."""
    if value and all(type(v) is list for v in value):
        for i, v in enumerate(value):
            _lists_in(v, path + (i,), name, out)
    else:
        out.append((path, value, name))


def _unseen_fields(state, player) -> list:
    """(path, slot) of each record field the player cannot see."""
    g = state.game
    out: list = []
    if not g.field_visibility:
        return out
    seen_ids: set = set()

    def walk(value, path):
        t = type(value)
        if t is not list and t is not dict:
            return
        if id(value) in seen_ids:
            return
        seen_ids.add(id(value))
        if t is dict:
            fields = frozenset(value)
            rules = g.field_visibility.get(fields)
            if rules:
                for field, vis in rules.items():
                    if field in value and (player is None or not sees_field(value, vis, player)):
                        out.append((path + (field,), ("entry", "field", fields, field)))
            for k, v in value.items():
                walk(v, path + (k,))
        else:
            for i, v in enumerate(value):
                walk(v, path + (i,))

    for name, v in state._vars.items():
        walk(v, (name,))
    return out


def _unseen_locals(state, player) -> list:
    """(path, slot) of each local of a waiting frame that holds a secret the player may not know, as the
    secrecy check labels it at the frame's decision or call (secret_locals)."""
    out: list = []
    labels = secret_locals(state.game)
    if not labels:
        return out
    for i, frame in enumerate(state.frames):
        proc = state.game.procs.get(frame.proc)
        if proc is None or not 0 < frame.pc <= len(proc.spans):
            continue
        span = proc.spans[frame.pc - 1]
        for name, owners in labels.get((span.file, span.line), ()):
            if name not in frame.locals or (player is not None and _knows(frame.locals, owners, player)):
                continue
            value = frame.locals[name]
            if type(value) is list:  # each item on its own (a card drawn among others)
                out.extend(((i, name, k), ("entry", "local", frame.proc, name)) for k in range(len(value)))
            else:
                out.append(((i, name), ("entry", "local", frame.proc, name)))
    return out


def _knows(local_values: dict, owners, player) -> bool:
    """Whether ``player`` may know a local whose secrets are the players named by ``owners`` (None: a
    secret of nobody's, a face-down pile)."""
    if owners is None:
        return False
    return all((int(key) if key.isdigit() else local_values.get(key)) == player for key in owners)


# ---------------------------------------------------------------------------------------------- cards
def _cards_in_view(state, unseen: set, player) -> dict:
    """How many times each text or number stands where the player sees it: the variables and fields
    that are not unseen places, and the player's own options now."""
    counts: dict = {}
    todo = [((name,), v) for name, v in state._vars.items()]
    pend = state.pending
    if pend is not None:  # what the player's own options hold, the player knows (a card drawn to decide on)
        todo.extend((("$options",), o.value) for o in pend.options.get(player, ()))
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


# ---------------------------------------------------------------------------------------------- domains
_LEARNED: dict = {}  # id of a rules file -> what was learned of it (kept while the rules live)


def _learned(rules) -> dict:
    """What determinization learned of one rules file (by identity: hashing a file's tree costs much)."""
    found = _LEARNED.get(id(rules))
    if found is None:
        found = _LEARNED[id(rules)] = {}
        weakref.finalize(rules, _LEARNED.pop, id(rules), None)
    return found


def domain(game) -> dict:
    """Slot (see _unseen_places, less its first word) -> the values such places held in random games of
    ``game`` from fixed seeds (cards and records aside: they are dealt otherwise), most frequent first,
    each as often as it was met, in a canonical order. Learned once per compiled game."""
    per_rules = _learned(game.rules).setdefault("domains", {})  # one rules file, loaded again, learns once
    key = (game.player_count, tuple(sorted(game.options.items(), key=repr)))
    found = per_rules.get(key)
    if found is None:
        found = per_rules[key] = _learn_domain(game)
    return found


def _learn_domain(game) -> dict:
    from rulewright.interpreter.api import start_state  # (the facade sits above the agents' layer)
    from rulewright.interpreter.engine.generator import Generator
    rows = _rows_of(game)
    counts: dict = {}
    decisions = 0
    for seed in range(DOMAIN_GAMES):
        if decisions >= DOMAIN_DECISIONS:
            break
        chooser = random.Random(seed)
        try:
            st = start_state(game, seed, Generator(seed))
            for _ in range(GAME_DECISIONS):
                _note_places(st, rows, counts)
                decisions += 1
                if st.is_over() or st.pending is None:
                    break
                p = st.to_move()[0]
                st.apply_action(chooser.randrange(len(st.legal_actions(p))) + 1, player=p, atomic=False)
                st.drain_events()
        except RulesError:  # the rules fail on this line of play: what was met so far still counts
            continue
    out = {}
    for slot, seen in counts.items():
        kept = sorted(seen.items(), key=lambda kv: (-kv[1][1], kv[0]))[:DOMAIN_KEPT]  # the most frequent
        out[slot] = [value for _key, (value, n) in sorted(kept) for _ in range(n)]
    return out


def _note_places(st, rows: dict, counts: dict) -> None:
    """Count the values of every place some player cannot see (as the referee, who sees them all)."""
    for path, slot in _unseen_places(st, None):
        value = _at(st, path)
        t = type(value)
        if (t is str or t is int) and value in rows:
            continue
        if t is dict and slot[0] == "item":
            continue
        seen = counts.setdefault(slot[1:], {})  # the value's text -> [the value, times met]
        key = repr(value)
        met = seen.get(key)
        if met is not None:
            met[1] += 1
        elif len(seen) < 4 * DOMAIN_KEPT:
            seen[key] = [copy_value(value), 1]


_DEFAULTS = {int: 0, float: 0.0, str: "", bool: False}


def _kind_default(value) -> list:
    """A place whose domain was never met: the plain value of its kind (never the value itself)."""
    t = type(value)
    if t is list:
        return [[]]
    if t is dict:
        return [{}]
    return [_DEFAULTS.get(t)]


# ---------------------------------------------------------------------------------------------- decisions
@attrs.frozen
class _Waiting:
    """A decision that asks others at once (a simultaneous decision or a window), as the player knows
    it: where the rules wait, the player's own options and choice, and who the player sees has chosen
    (nobody, in a window: whether others answered is theirs to know)."""
    where: tuple  # (frames, the top frame's procedure and pc, the decision's variable and line)
    window: bool
    own_options: Optional[list]
    own_choice: Optional[tuple]
    others_chose: list

    @staticmethod
    def of(state, player) -> Optional["_Waiting"]:
        pend = state.pending
        if pend is None or not pend.simultaneous or all(q == player for q in pend.options):
            return None
        texts = pend.texts.get(player)  # (None: passed without being asked)
        own = (pend.chosen[player], None if texts is None else list(texts)) if player in pend.chosen else None
        return _Waiting(_where(state), pend.window,
                        list(pend.options[player]) if player in pend.options else None, own,
                        [] if pend.window else sorted(q for q in pend.chosen if q != player))

    def ask_again(self, world, player, rng) -> bool:
        """The decision asked again in the dealt copy: who is asked and what they are offered follow the
        copy; the player's own options and choice are kept; those the player sees have chosen choose
        again at random. False when the copy does not wait there (nobody else would be asked)."""
        try:
            world.ask_again()
        except RulesError:
            return False  # the copy's options cannot be worked out
        if _where(world) != self.where:
            return False
        pend = world.pending
        if self.own_options is not None:
            pend.options[player] = self.own_options
        if self.own_choice is not None:
            value, texts = self.own_choice
            pend.chosen[player], pend.texts[player] = value, None if texts is None else list(texts)
        for q in self.others_chose:
            if pend.options.get(q):
                option = rng.choice(pend.options[q])
                pend.chosen[q] = option.value
                pend.texts[q] = [option.text, option.shown]
        world._legal = None
        return True


def _where(state) -> tuple:
    """Where the rules wait for a decision."""
    pend, top = state.pending, state.frames[-1] if state.frames else None
    if pend is None or top is None:
        return ()
    return (len(state.frames), top.proc, top.pc, pend.var, pend.line)


# ---------------------------------------------------------------------------------------------- paths
def _by_value(values: list) -> list:
    """The positions of ``values`` in the order of the values themselves (their text)."""
    return sorted(range(len(values)), key=lambda k: repr(values[k]))


def _at(state, path: tuple):
    """The value at ``path`` (see _unseen_places)."""
    if type(path[0]) is int:
        value = state.frames[path[0]].locals
    else:
        value = state._vars
    for step in path[1:] if type(path[0]) is int else path:
        value = value[step]
    return value


def _put(state, path: tuple, value) -> None:
    """Put ``value`` at ``path``."""
    _holder(state, path)[path[-1]] = value


def _holder(state, path: tuple):
    """The list, record or locals holding the value at ``path``."""
    if type(path[0]) is int:
        holder = state.frames[path[0]].locals
        steps = path[1:-1]
    else:
        holder = state._vars
        steps = path[:-1]
    for step in steps:
        holder = holder[step]
    return holder


# ---------------------------------------------------------------------------------------------- locals
def secret_locals(game) -> dict:
    """(file, line) of a decision or call -> ((local, owners), ...): the locals the secrecy check
    labels secret there, each with the keys of the players whose secret it is (None: nobody may know
    it). Worked out once per rules file."""
    learned = _learned(game.rules)
    found = learned.get("locals")
    if found is None:
        from rulewright.interpreter.check.secrecy.check import secret_locals_of
        found = learned["locals"] = secret_locals_of(game.rules)
    return found
