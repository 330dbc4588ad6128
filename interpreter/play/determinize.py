"""Determinization: a copy of a state in which everything one player cannot see is dealt again.

Information-set MCTS and the greedy agent (agents.py), and so every hint (cli/hints.py), play their
simulations in such copies. The promise: a copy is a function of what the player may see (their view)
and of the generator handed to ``sample``, never of a hidden value. Two states the player cannot tell
apart give, from one seed, the same copies, so an agent searching them gives the same advice, figure
for figure; over many seeds, its advice does not depend on what it cannot see.

What the player cannot see (the *places*, found by where a value sits, never by what it is):

- a ``hidden`` variable (a list's items, or the value itself), and the other players' entries of a
  ``secret player var`` (a hand's items, or the value), unless revealed;
- a record field the player may not see (``hidden``, ``secret to owner``), in the variables, in the
  locals of the rules waiting at a decision, and in the pending decision's options;
- a local of the rules waiting at a decision that the secrecy check labels as a secret the player may
  not know (a card drawn into ``c`` before a decision; only ``me`` and a number name its owner for
  sure), and the items still to come of a loop over such a secret (the loop's own copy of the list);
- in a simultaneous decision or a window: the others' options, who is asked, and the choices the
  player sees others have made (all asked again in the copy, ``_Waiting``);
- the generator: future draws are unknown too.

Each place is dealt from its slot's **domain** (the same variable, field of the same record, or local
of the same procedure): the values such places held in random games of the same rules from fixed
seeds, each as often as it was met, learned once per rules file, player count and options. A value
drawn that is a **card** (a key of a table) is replaced by the next card of its deck that the player
sees nowhere (the deck's copies less those in view, shuffled): so a deck and the other hands exchange
cards as in a fresh deal, and whether a place holds a card, of which deck, or a number or nothing,
follows the rules, not the real value. A slot no random game reached draws from what the player sees
of the same variable (its own entry), else none.

Finding the places walks the whole state; a search deals many copies of one state, so ``Dealer``
finds them once (as paths) and each ``sample()`` only copies and deals.
"""
from __future__ import annotations

import random
import weakref
from typing import Optional

import attrs

from rulewright.dsl.errors import RulesError
from rulewright.interpreter.compile.instructions import ForNext
from rulewright.interpreter.engine import limits
from rulewright.interpreter.engine.start import seeded_state
from rulewright.interpreter.engine.values import copy_value, face_down, sees_field
from rulewright.interpreter.present.views import revealed_now
from rulewright.interpreter.engine.builtin_names import ME

# The random games a domain is learned from (a generator of their own, fixed seeds): at most
# DOMAIN_GAMES games of at most GAME_DECISIONS decisions, DOMAIN_DECISIONS and DOMAIN_WORK in all; the unseen places
# noted at each of a game's first NOTE_ALL decisions, then every NOTE_EVERY, DOMAIN_NOTES times and
# DOMAIN_PLACES places at most; a value of more than VALUE_ITEMS items, or holding a text longer than
# VALUE_LETTERS, is not kept.
DOMAIN_GAMES = 64
GAME_DECISIONS = 600
DOMAIN_DECISIONS = 1500
NOTE_ALL, NOTE_EVERY = 20, 3
DOMAIN_NOTES = 400
DOMAIN_PLACES = 200_000
DOMAIN_WORK = 20_000_000  # the items the rules may go through in all the games (limits.py counts them)
VALUE_ITEMS, VALUE_LETTERS = 200, 2000
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
        self.rows = _rows_of(g)
        places = _unseen_places(state, player)  # [(path, slot)]: found by where values sit
        domains = domain(g) if places else {}
        # each place with the domain its value is drawn from: a fact of its slot, never of its value
        # (what a place held at the same step of the rules, which everyone sees, else at any step)
        step = state.step
        self.places = [(path, domains.get((step,) + slot[1:]) or domains.get(slot[1:])
                        or _fallback(state, slot, player)) for path, slot in places]
        decks = sorted({deck for _path, d in self.places for deck in d.decks})
        in_view = _cards_in_view(state, {path for path, _slot in places}) if decks else {}
        # each deck's cards the player sees nowhere, in canonical order: what a card place is dealt from
        self.free = [(deck, sorted(_copies_not_in_view(g, deck, in_view), key=repr)) for deck in decks]
        self.waiting = _Waiting.of(state, player)  # read now: the copies take the state's data
        # the others' hands whose parts the player cannot tell apart, each split again in a copy
        self.hands = [(p, [(part, domains.get((step, "length", part)) or domains.get(("length", part)))
                           for part in parts])
                      for p, _hand, parts in _unseen_hands(state, player) if len(parts) > 1] if g.hands else []

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
        world.undo_log.edited = True  # changed outside a move: a rollback must not go back to the real deal
        rows = self.rows
        pools = {deck: rng.sample(free, len(free)) for deck, free in self.free}  # each deck shuffled
        for path, dom in self.places:
            value = rng.choice(dom.values)
            t = type(value)
            if t is str or t is int:
                pool = pools.get(rows.get(value))
                if pool:  # a card: the next of its deck's cards the player sees nowhere
                    value = pool.pop()
            elif t is list or t is dict:
                value = copy_value(value)
            _put(world, path, value)
        for p, parts in self.hands:
            _split_again(world, p, parts, rng)
        return world


def _unseen_hands(state, player) -> list:
    """(player, hand, parts) for each hand ('secret in HAND') of another player: its parts ``player``
    sees only as one count (those not revealed)."""
    revealed = revealed_now(state)
    out = []
    for hand, parts in state.game.hands.items():
        for p in range(1, state.game.player_count + 1):
            unseen = [part for part in parts if (part, 0) not in revealed and (part, p) not in revealed]
            if p != player and unseen:
                out.append((p, hand, unseen))
    return out


def _split_again(world, p: int, parts: list, rng: random.Random) -> None:
    """Deal a hand's cards (as dealt) into its parts again: each part but the last as many as a part of
    its name held in random games (its length domain; else any number), the last the rest. Which part
    held how many is the owner's secret: the copy must not keep it."""
    held = [c for part, _dom in parts for c in world._vars[part][p - 1]]
    at = 0
    for k, (part, dom) in enumerate(parts):
        left = len(held) - at
        n = left if k == len(parts) - 1 else min(left, rng.choice(dom.values) if dom else rng.randint(0, left))
        world._vars[part][p - 1] = held[at:at + n]
        at += n


@attrs.frozen
class Domain:
    """What a place of one slot may hold: values met there in random games of the rules, each as often
    as it was met (a list to draw from), and the decks (tables) of the cards among them."""
    values: list
    decks: tuple = ()

    @staticmethod
    def of(values: list, rows: dict) -> "Domain":
        decks = {rows[v] for v in values if (type(v) is str or type(v) is int) and v in rows}
        return Domain(values, tuple(sorted(decks)))


def _fallback(state, slot: tuple, player) -> Domain:
    """The domain of a slot no random game reached: what the player sees of the same variable (its own
    entry: a hand of its own tells what a hand holds), else none. Never the unseen value itself."""
    values: list = []
    g = state.game
    if slot[1] == "var":
        name = slot[2]
        if name in g.player_vars and player is not None and g.visibility.get(name) == "secret":
            own = face_down(g, copy_value(state._vars[name][player - 1]), player)  # its face-down fields masked
            values = own if type(own) is list else [own]
    values = [v for v in values if type(v) is not list] or [None]
    return Domain.of(sorted(values, key=repr), _rows_of(g))


# ---------------------------------------------------------------------------------------------- places
_OPTIONS = "$options"  # a path's first step into the pending decision's options: (_OPTIONS, player, k, ...)


def _unseen_places(state, player) -> list:
    """(path, slot) of every value the player may not see (player None: any player), found by where
    values sit, never by what they are. A path starts with a variable's name (then list positions and
    record fields), with a frame's number and a local's name, or with _OPTIONS. The slot names the kind
    of place, for the domain: ("item"|"entry", "var", name), ("entry", "field", fields, field),
    ("entry"|"item", "local", procedure, name)."""
    g = state.game
    revealed = revealed_now(state)
    lists: list = []  # (path, list, name)
    places: list = []
    hands = _unseen_hands(state, player) if g.hands else []
    for name, value in state._vars.items():
        visibility = g.visibility.get(name, "public")
        if name in g.hand_of:  # a hand's parts, dealt as one list under the hand's name (where its first
            if name == g.hands[g.hand_of[name]][0]:  # part stands): as many cards however they are held
                lists += [((part, p - 1), state._vars[part][p - 1], hand)
                          for p, hand, parts in hands if hand == g.hand_of[name] for part in parts]
        elif visibility == "public" or (name, 0) in revealed:
            continue
        elif name in g.player_vars:
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
    places.extend(_unseen_locals(state, player))
    unseen = {path for path, _slot in places}
    places.extend(_unseen_fields(state, player, unseen))
    return places


def _lists_in(value, path: tuple, name: str, out: list) -> None:
    """The lists the view shows only by size (masked(): a list of lists shows each one's size)."""
    if value and all(type(v) is list for v in value):
        for i, v in enumerate(value):
            _lists_in(v, path + (i,), name, out)
    else:
        out.append((path, value, name))


def _unseen_fields(state, player, unseen: set) -> list:
    """(path, slot) of each record field the player cannot see: in the variables, in the locals of the
    waiting rules, and in the pending decision's options (a record one copy of which is dealt is dealt
    once). Records inside a place dealt whole are left to it."""
    g = state.game
    out: list = []
    if not g.field_visibility:
        return out
    seen_ids: set = set()

    def walk(value, path):
        t = type(value)
        if (t is not list and t is not dict) or id(value) in seen_ids or path in unseen:
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
    for i, frame in enumerate(state.frames):  # the locals in scope (one left over from a block is not read)
        point = _point(state, frame)
        scope = dict(secret_locals(g).get(point, ())).get("$scope", ()) if point else ()
        for name in sorted(scope):
            if name in frame.locals:
                walk(frame.locals[name], (i, name))
    pend = state.pending
    if pend is not None:  # the player's own options (the others' are asked again in the copy)
        for p, options in pend.options.items():
            if player is None or p == player:
                for k, option in enumerate(options):
                    walk(option.value, (_OPTIONS, p, k))
    return out


def _unseen_locals(state, player) -> list:
    """(path, slot) of the locals of the waiting frames that hold what the player may not know:

    - a local the secrecy check labels as such a secret at the frame's decision or call (only 'me' and a
      number name its owner for sure), dealt whole, present or not (a local bound in a branch that ran
      in one game and not in another is a place in both: the places follow the rules, not the game);
    - a procedure's value held while the rules go on to another call of the same expression ($value),
      dealt whole: what a call returns is never known to be public;
    - the others' choices gathered by a simultaneous decision or a window while its block runs ($each),
      each on its own;
    - the items still to come of a 'for' loop over a secret list, in the loop's own copy ($items)."""
    out: list = []
    labels = secret_locals(state.game)
    for i, frame in enumerate(state.frames):
        point = _point(state, frame)
        if point is None:
            continue
        proc = state.game.procs[frame.proc]
        for name, owners in labels.get(point, ()):
            if not name.startswith("$") and (player is None or not _knows(frame.locals, owners, player)):
                out.append(((i, name), ("entry", "local", frame.proc, name)))
        held = frame.locals
        for name in sorted(held):
            if name.startswith("$value"):
                out.append(((i, name), ("entry", "local", frame.proc, name)))
            elif name.startswith("$each") and type(held[name]) is list:
                out.extend(((i, name, k, 1), ("item", "local", frame.proc, name))
                           for k, pair in enumerate(held[name]) if pair[0] != player)
        for ins in proc.instructions:
            if type(ins) is ForNext and type(held.get(ins.items)) is list:
                owners = dict(labels.get((ins.span.file, ins.span.line), ())).get("$items", False)
                if owners is not False and (player is None or not _knows(held, owners, player)):
                    out.extend(((i, ins.items, k), ("item", "local", frame.proc, ins.var))
                               for k in range(len(held[ins.items])))
    return out


def _point(state, frame) -> Optional[tuple]:
    """(file, line) of the decision or call a frame waits at (None: a frame not of the rules' own)."""
    proc = state.game.procs.get(frame.proc)
    if proc is None or not 0 < frame.pc <= len(proc.spans):
        return None
    span = proc.spans[frame.pc - 1]
    return (span.file, span.line)


def _knows(local_values: dict, owners, player) -> bool:
    """Whether ``player`` may know a local whose secrets are the players named by ``owners`` (None: a
    secret of nobody's, a face-down pile). Only 'me' and a number name a player for sure: a loop's
    player ('p') may have named another player when the value was made."""
    if owners is None:
        return False
    return all((int(key) if key.isdigit() else local_values.get(ME) if key == ME else None) == player
               for key in owners)


# ---------------------------------------------------------------------------------------------- cards
def _cards_in_view(state, unseen: set) -> dict:
    """How many times each text or number stands in the variables where the player sees it (nothing
    inside an unseen place is looked into)."""
    counts: dict = {}
    todo = [((name,), v) for name, v in state._vars.items()]
    while todo:
        path, value = todo.pop()
        if path in unseen:
            continue
        t = type(value)
        if t is list:
            todo.extend((path + (i,), v) for i, v in enumerate(value))
        elif t is dict:
            todo.extend((path + (k,), v) for k, v in value.items())
        elif t is str or t is int:
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
    """Slot (see _unseen_places, less its first word), alone and after the step of the rules -> its
    Domain: the values such places held (at that step) in random games of ``game`` from fixed seeds,
    learned once per rules file, player count and options."""
    per_rules = _learned(game.rules).setdefault("domains", {})  # one rules file, loaded again, learns once
    key = (game.player_count, tuple(sorted(game.options.items(), key=repr)))
    found = per_rules.get(key)
    if found is None:
        found = per_rules[key] = _learn_domain(game)
    return found


def _learn_domain(game) -> dict:
    """Random games of the rules (a generator of their own, fixed seeds), their unseen places noted every
    NOTE_EVERY decisions; bounded in games, decisions, notes and places looked at."""
    counts: dict = {}
    budget = {"decisions": DOMAIN_DECISIONS, "notes": DOMAIN_NOTES, "places": DOMAIN_PLACES, "work": DOMAIN_WORK}
    for seed in range(DOMAIN_GAMES):
        if min(budget.values()) <= 0:
            break
        chooser = random.Random(seed)
        try:
            st = seeded_state(game, seed)
            for k in range(GAME_DECISIONS):
                over = st.is_over() or st.pending is None
                # each of a game's first decisions, then every few, and at the end
                if (k < NOTE_ALL or k % NOTE_EVERY == 0 or over) and budget["notes"] > 0 and budget["places"] > 0:
                    _note_places(st, counts, budget)
                if over or budget["decisions"] <= 0 or budget["work"] <= 0:
                    break
                budget["decisions"] -= 1
                p = st.to_move()[0]
                st.apply_action(chooser.randrange(len(st.legal_actions(p))) + 1, player=p, atomic=False)
                budget["work"] -= limits.WORK - st._work_left  # what the move's rules went through
                st.drain_events()
        except RulesError:  # the rules fail on this line of play: what was met so far still counts
            continue
    rows = _rows_of(game)
    out = {}
    for slot, seen in counts.items():
        kept = sorted(seen.values(), key=lambda met: -met[1])[:DOMAIN_KEPT]  # the most frequent (stable)
        out[slot] = Domain.of([value for _key, (value, n) in sorted((repr(m[0]), m) for m in kept)
                               for _ in range(n)], rows)
    return out


def _small(value) -> bool:
    """Whether a value holds at most VALUE_ITEMS items and texts of at most VALUE_LETTERS letters (the
    walk stops at the first excess: a huge value costs no more than a small one)."""
    todo, left = [value], VALUE_ITEMS
    while todo:
        v = todo.pop()
        t = type(v)
        if t is list or t is dict:
            left -= len(v)
            if left < 0:
                return False
            todo.extend(v.values() if t is dict else v)
        elif t is str and len(v) > VALUE_LETTERS:
            return False
    return True


def _note_places(st, counts: dict, budget: dict) -> None:
    """Count the values of every place some player cannot see (as the referee, who sees them all), and
    the lengths of the parts of hands ('secret in HAND': split again in a copy, _split_again)."""
    budget["notes"] -= 1
    places = _unseen_places(st, None)
    places += [((part, p - 1), ("length", "length", part)) for parts in st.game.hands.values()
               for part in parts for p in range(1, st.game.player_count + 1)]
    for path, slot in places:
        budget["places"] -= 1
        try:
            value = _at(st, path)
        except KeyError:  # a local the rules did not bind in this game
            continue
        if slot[0] == "length":
            value = len(value)
        elif not _small(value):
            continue  # a value too big to keep (a whole deck in a local): the slot draws from the rest
        key = repr(value)
        for where in (slot[1:], (st.step,) + slot[1:]):  # at any step, and at this step of the rules
            seen = counts.setdefault(where, {})  # the value's text -> [the value, times met]
            met = seen.get(key)
            if met is not None:
                met[1] += 1
            elif len(seen) < 4 * DOMAIN_KEPT:
                seen[key] = [copy_value(value), 1]


# ---------------------------------------------------------------------------------------------- decisions
@attrs.frozen
class _Waiting:
    """A decision that asks others at once (a simultaneous decision or a window), as the player knows
    it: where the rules wait, and who the player sees has chosen (nobody, in a window: whether others
    answered is theirs to know)."""
    where: tuple  # (frames, the top frame's procedure and pc, the decision's variable and line)
    others_chose: list

    @staticmethod
    def of(state, player) -> Optional["_Waiting"]:
        pend = state.pending
        if pend is None or not pend.simultaneous or all(q == player for q in pend.options):
            return None
        return _Waiting(_where(state), [] if pend.window else sorted(q for q in pend.chosen if q != player))

    def ask_again(self, world, player, rng) -> bool:
        """The decision asked again in the dealt copy: who is asked and what they are offered follow the
        copy; the player's own options and choice (as dealt) are kept; those the player sees have chosen
        choose again at random. False when the copy does not wait there (nobody else would be asked),
        or its options cannot be worked out: then nobody else is asked in it."""
        pend = world.pending
        own_options = pend.options.get(player)
        own_choice = (pend.chosen[player], pend.texts.get(player)) if player in pend.chosen else None
        try:
            world.ask_again()
        except RulesError:  # the real decision is back: keep nothing of the others' in it
            _keep_only(world.pending, player, own_options, own_choice)
            world._legal = None
            return False
        if _where(world) != self.where:
            return False
        pend = world.pending
        _keep_only(pend, player, own_options, own_choice, others=True)
        for q in self.others_chose:
            if pend.options.get(q):
                option = rng.choice(pend.options[q])
                pend.chosen[q] = option.value
                pend.texts[q] = [option.text, option.shown]
        world._legal = None
        return True


def _keep_only(pend, player, own_options, own_choice, others: bool = False) -> None:
    """The player's own options and choice put back in ``pend``; the others' kept only if ``others``."""
    if not others:
        pend.options = {}
        pend.chosen, pend.texts = {}, {}
    if own_options is not None:
        pend.options[player] = own_options
    if own_choice is not None:
        pend.chosen[player], pend.texts[player] = own_choice[0], own_choice[1]


def _where(state) -> tuple:
    """Where the rules wait for a decision."""
    pend, top = state.pending, state.frames[-1] if state.frames else None
    if pend is None or top is None:
        return ()
    return (len(state.frames), top.proc, top.pc, pend.var, pend.line)


# ---------------------------------------------------------------------------------------------- paths
def _at(state, path: tuple):
    """The value at ``path`` (see _unseen_places)."""
    holder, key = _holder(state, path), path[-1]
    return holder[key].value if type(holder) is list and path[0] == _OPTIONS and len(path) == 3 else holder[key]


def _put(state, path: tuple, value) -> None:
    """Put ``value`` at ``path`` (a local the rules did not bind is left unbound)."""
    holder, key = _holder(state, path), path[-1]
    if type(path[0]) is int and len(path) == 2 and key not in holder:
        return
    if path[0] == _OPTIONS and len(path) == 3:
        holder[key].value = value
    else:
        holder[key] = value
        if type(holder) is dict and len(path) > (2 if type(path[0]) is int else 1):  # a record's field
            state.game.flatness.note_value(value)


def _holder(state, path: tuple):
    """The list, record or locals holding the value at ``path`` (for an option, its decision's list)."""
    head = path[0]
    if type(head) is int:
        holder, steps = state.frames[head].locals, path[1:-1]
    elif head == _OPTIONS:
        holder, steps = state.pending.options[path[1]], path[3:-1]
        if len(path) > 3:
            holder = holder[path[2]].value
    else:
        holder, steps = state._vars, path[:-1]
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
