"""The functions every rules file can call. None of them knows a game.

Each entry says how many arguments it takes, the kinds they may have, the kind of its result and what
it needs besides them: nothing ("pure"), the compiled game ("game": players), the running state
("state": the seeded generator) or the board ("board": functions a board kind lends, see boards.py).
The checker, the type checker and the compiler read these specs; nothing else lists builtins.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import attrs

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine import limits
from rulewright.interpreter.engine.kinds import LIST, MAP, NUMBER, TEXT


@attrs.frozen
class Builtin:
    """A function the rules can call, described well enough for the checker to check a call to it."""
    fn: Callable
    min_args: int
    max_args: int
    needs: str = "pure"  # pure | game | state | board (what fn takes before the arguments)
    doc: str = ""
    result: Optional[str] = None  # the kind of value it gives (kinds.py); None: it depends
    args: tuple = ()  # the kinds each argument may have, in order (() for an argument: any)
    # what the secrecy check needs: "item" gives an item of its list argument (its secrets
    # are the item's), "same length" a list as long as its argument
    gives: str = ""


# The functions that go through a whole list count its items as work (limits.py); each has its own code,
# which faults.explain reads to name the function that failed.
def _sum(xs):
    limits.spend(limits.size(xs))
    return limits.number(sum(xs))


def _sorted(xs):
    limits.spend(limits.size(xs))
    return sorted(xs)


def _reversed(xs):
    limits.spend(limits.size(xs))
    return list(reversed(xs))


def _tag(x):
    """The member a value is: a member with data gives its name (kept in the field "is"), anything else
    itself."""
    return x.get("is", x) if type(x) is dict else x


def _first(xs):
    return xs[0] if xs else None


def _last(xs):
    return xs[-1] if xs else None


def _distinct(xs):
    limits.spend(limits.size(xs))
    return list(dict.fromkeys(xs))


def _range(a, b=None):
    low, high = (a, b) if b is not None else (1, a)
    if type(low) is int and type(high) is int:  # else range() says what is wrong
        limits.check_items(high - low + 1)
    return list(range(low, high + 1))


def _min(*xs):
    xs = xs[0] if len(xs) == 1 else xs
    limits.spend(limits.size(xs))
    return min(xs) if xs else None


def _max(*xs):
    xs = xs[0] if len(xs) == 1 else xs
    limits.spend(limits.size(xs))
    return max(xs) if xs else None


def _random(st, xs):
    if not xs:
        raise RulesRuntimeError("random() of an empty list")
    return xs[st.rng.randrange(len(xs))]


def _shuffled(st, xs):
    limits.spend(limits.size(xs))
    xs = list(xs)
    st.rng.shuffle(xs)
    return xs


def _roll(st, sides):
    return st.rng.randint(1, sides)


def _next_player(game, p, k=1):
    return (p - 1 + k) % game.player_count + 1


def _turn_order(st):
    first = st._vars.get("first_player", 1)
    n = st.game.player_count
    return [(first - 1 + i) % n + 1 for i in range(n)]


def _without(xs, x):
    limits.spend(limits.size(xs))
    out = list(xs)
    if x in out:
        out.remove(x)
    return out


def _text(x):
    from rulewright.interpreter.engine.values import to_text
    return to_text(x)


def _listed(game, xs):
    """The items as a reader lists them: "A, B and C" (each item's text as a move text shows it)."""
    from rulewright.interpreter.engine.values import to_text
    if type(xs) is not list:
        from rulewright.interpreter.engine.values import shown
        raise RulesRuntimeError(f"listed() takes a list, not {shown(xs)}", "give it a list: listed(me.hand)")
    limits.spend(limits.size(xs))
    if game.field_visibility:
        from rulewright.interpreter.present.views import public_text as text_of
        texts = [text_of(game, x) for x in xs]
    else:
        texts = [to_text(x) for x in xs]
    if not texts:
        return "nothing"
    out = texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]
    limits.check_items(len(out), "a text")
    return out


_LIST = (LIST,)
_NUMBER = (NUMBER,)

# The functions every game has; a board kind adds its own (boards.py, board_kinds.py).
BUILTINS: dict[str, Builtin] = {
    "len": Builtin(len, 1, 1, doc="number of items in a list", result=NUMBER, args=((LIST, MAP, TEXT),)),
    "abs": Builtin(abs, 1, 1, result=NUMBER, args=(_NUMBER,)),
    "min": Builtin(_min, 1, 9, doc="smallest of a list or of the arguments"),
    "max": Builtin(_max, 1, 9),
    "sum": Builtin(_sum, 1, 1, result=NUMBER, args=(_LIST,)),
    "range": Builtin(_range, 1, 2, doc="range(n) = 1..n, range(a, b) = a..b", result=LIST, args=(_NUMBER, _NUMBER)),
    "tag": Builtin(_tag, 1, 1, doc="the member of an enum a value is (a member with data gives its name)"),
    "sorted": Builtin(_sorted, 1, 1, result=LIST, args=(_LIST,), gives="same length"),
    "reversed": Builtin(_reversed, 1, 1, result=LIST, args=(_LIST,), gives="same length"),
    "first": Builtin(_first, 1, 1, args=(_LIST,), gives="item"),
    "last": Builtin(_last, 1, 1, args=(_LIST,), gives="item"),
    "distinct": Builtin(_distinct, 1, 1, result=LIST, args=(_LIST,)),
    "without": Builtin(_without, 2, 2, doc="a copy of the list without one occurrence of x", result=LIST,
                       args=(_LIST,)),
    "text": Builtin(_text, 1, 1, result=TEXT),
    "listed": Builtin(_listed, 1, 1, "game", 'the items as a reader lists them: "A, B and C"', TEXT, (_LIST,)),
    # hidden information: the value itself, which the rulebook makes public (read by the secrecy check)
    "revealed": Builtin(lambda x: x, 1, 1, doc="the value, declared public because the rulebook shows it",
                        gives="item"),
    "next_player": Builtin(_next_player, 1, 2, "game", "the player k seats clockwise", NUMBER, (_NUMBER, _NUMBER)),
    # state
    "turn_order": Builtin(_turn_order, 0, 0, "state", "every player once, from first_player clockwise", LIST),
    "random": Builtin(_random, 1, 1, "state", "one item of a list, from the seeded generator", args=(_LIST,),
                      gives="item"),
    "shuffled": Builtin(_shuffled, 1, 1, "state", result=LIST, args=(_LIST,), gives="same length"),
    "roll": Builtin(_roll, 1, 1, "state", "a die of n sides", NUMBER, (_NUMBER,)),
}

# Functions that bind a name over a list: count(x in xs where c), sum(x in xs: e)...
QUANTIFIERS = {"count", "sum", "all", "any", "min", "max", "first", "lowest", "highest", "sorted"}


def quantified(func: str, items: list, values: list) -> Any:
    """The value of a quantifier over ``items`` (those its 'where' kept), ``values`` the value of its body
    for each (or the items themselves); the generated loop (codegen.py) gives both, and computes no
    values for count and first, which never read them."""
    if func == "count":
        return len(items)
    if func == "first":
        return items[0] if items else None
    if func == "all":
        return all(values)
    if func == "any":
        return any(values)
    if func == "sum":
        return limits.number(sum(values))
    if func == "min":
        return min(values) if values else None
    if func == "max":
        return max(values) if values else None
    if func == "sorted" or func == "sorted descending":  # stable: items with equal keys keep their order
        order = sorted(range(len(items)), key=values.__getitem__, reverse=func != "sorted")
        return [items[i] for i in order]
    if func in ("lowest", "highest"):
        if not values:
            return []
        best = min(values) if func == "lowest" else max(values)
        return [x for x, v in zip(items, values) if v == best]
    raise RulesRuntimeError(f"unknown quantifier {func}")
