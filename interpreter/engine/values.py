"""Runtime values are plain JSON data: int, str, bool, None, list and dict (records).

Spaces, enum members and table items are strings, players are ints from 1, so a state saves as
JSON without any conversion and a move's text reads like the rulebook.

This is the one place that prints a value, one function per form: ``to_text`` (a move text, a
``{hole}``), ``public_text`` (the same with face-down record fields as '?'), ``short_text`` (cut short,
at no cost of work) and ``shown`` (a value named in a message).
"""
from __future__ import annotations

from rulewright.interpreter.engine import limits


def to_text(value, budget=None) -> str:
    """The canonical text of a value, used for move texts and ``{holes}`` in strings; each list or map
    printed counted as work on ``budget`` (limits.py: a state while the rules run, else None)."""
    if value is None:
        return "none"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, (list, dict)):
        limits.spend(budget, len(value))  # a list holding the same list twice, nested deep, is a long text
        texts = []
        for v in value if type(value) is list else value.values():  # (a loop: one frame a level, and a
            texts.append(to_text(v, budget))  # comprehension would close over budget, a cell at every call)
        return " ".join(texts)
    return str(value)


def short_text(value, most: int = 40) -> str:
    """The text of a value, cut after about ``most`` letters; costs no work (for messages)."""
    if not isinstance(value, (list, dict)):
        return to_text(value)
    out, size, todo = [], 0, [value]
    while todo and size <= most:
        v = todo.pop()
        if isinstance(v, (list, dict)):
            todo.extend(reversed(list(v.values() if isinstance(v, dict) else v)[:most]))
            continue
        out.append(to_text(v)[:most])
        size += len(out[-1]) + 1
    return " ".join(out) + (" ..." if todo else "")


# the kinds of value nothing changes in place: a copy of one is the value itself (shared, not copied)
SCALARS = frozenset((int, str, bool, float, type(None)))


def copy_value(value, budget=None):
    """A deep copy of JSON-like data, fast for the flat lists that dominate game state; counted as work on
    ``budget`` (limits.py: a state while the rules run, else None): copying a list that holds the same
    list twice, nested, doubles with each level."""
    if isinstance(value, list):
        for v in value:
            if type(v) is list or type(v) is dict:
                limits.spend(budget, len(value))
                out = []
                for w in value:  # (a loop, as for a map below)
                    if type(w) is list and len(w) <= limits.SHORT and budget is not None:
                        budget._work_left -= len(w)  # nested, a short list's items count too (each copy
                    out.append(copy_value(w, budget))  # of a list of 32 short lists is 1,024 items)
                if budget is not None and budget._work_left < 0:
                    limits.exhausted(budget)
                return out
        if len(value) > limits.SHORT and budget is not None:  # a short flat list costs little: the steps
            limits.spend(budget, len(value))  # bound how often (limits.py)
        return value[:]
    if isinstance(value, dict):
        if budget is not None:
            budget._work_left -= len(value)
            if budget._work_left < 0:
                limits.exhausted(budget)
        out = {}
        for k, v in value.items():  # (a loop: one frame a level, and a comprehension would close over
            out[k] = v if type(v) in SCALARS else copy_value(v, budget)  # budget, a cell at every call)
        return out
    return value


def shown(value, named: bool = True) -> str:
    """A value in a message, as the rules would print it: numbers, yes/no and none as they are,
    text quoted, a list or a record named as one (unless not ``named``), long texts cut short."""
    t = type(value)
    if value is None or t is bool or t is int:
        return to_text(value)
    if t is str and not value:
        return "empty text"
    if t is list and not value:
        return "an empty list"
    if t is dict and not value:
        return "an empty map"
    text = short_text(value)
    if len(text) > 40:
        text = text[:37] + "..."
    if t is list and named:
        return f"the list '{text}'"
    if t is dict and named:
        return f"the map or record '{text}'"
    return f"'{text}'"


# ----------------------------------------------------------------------------- face-down fields
UNSEEN = "?"  # what a player sees of a value they may not see


def public_text(g, value) -> str:
    """The text of a value as a move text or a log may show it: face-down fields as '?' (a field
    named on its own, {b.amount}, is shown: the information-flow check follows it)."""
    return to_text(face_down(g, value, 0))  # player 0: nobody


def texts_held(value, looked_most: int = 10_000):
    """The texts ``value`` is or holds (a list's items, a record's fields but the member's name 'is'),
    in order, as they come: what a move or a log names (a table's key, a board's space) is read from its
    values, never from its text. A long value is looked at in part (``looked_most`` values)."""
    todo = [value]
    looked = 0
    while todo and looked < looked_most:
        v = todo.pop()
        looked += 1
        t = type(v)
        if t is str:
            yield v
        elif t is list:
            todo.extend(reversed(v))
        elif t is dict:
            todo.extend(reversed([x for k, x in v.items() if k != "is"]))


def face_down(g, value, player):
    """A copy of ``value`` with every record field ``player`` may not see replaced by '?' (the game
    ``g`` says which fields are face down, and until when)."""
    if type(value) is list:
        out = value[:]
        for i, v in enumerate(value):
            if type(v) is list or type(v) is dict:
                out[i] = face_down(g, v, player)
        return out
    if type(value) is not dict:
        return value
    rules = g.field_visibility.get(frozenset(value))
    out = {}
    for k, v in value.items():
        vis = rules.get(k) if rules else None
        if vis is not None and not sees_field(value, vis, player):
            out[k] = UNSEEN
        else:
            out[k] = v if type(v) in SCALARS else face_down(g, v, player)
    return out


def sees_field(record: dict, vis, player) -> bool:
    """Whether ``player`` sees a field of ``record`` whose visibility is ``vis`` (kind, owner, unless)."""
    kind, owner, unless = vis
    if unless is not None and record.get(unless):
        return True
    if kind == "secret":
        who = record.get(owner)
        return who == player or (type(who) is list and player in who)
    return False
