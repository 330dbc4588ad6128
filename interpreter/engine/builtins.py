"""The functions every rules file can call. None of them knows a game.

Each entry says how many arguments it takes, the kinds they may have, the kind of its result and what
it needs besides them: nothing ("pure"), the compiled game ("game": players), the running state
("state": the seeded generator) or the board ("board": functions a board kind lends, see boards/base.py).
The checker, the type checker and the compiler read these specs; nothing else lists builtins.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import attrs

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine import compare, limits
from rulewright.interpreter.engine.errors import NONE_HINT, CannotCombine, WrongArgument
from rulewright.interpreter.engine.kinds import LIST, MAP, NUMBER, TEXT, kind_of
from rulewright.interpreter.engine.operations import first_unordered
from rulewright.interpreter.engine.values import public_text, shown, to_text
from rulewright.interpreter.engine.builtin_names import FIRST_PLAYER


# What the value a function gives is, which the checks and the compiler read:
SPACE, SPACE_LIST = "space", "list of spaces"  # (Builtin.spaces)
FRESH = "fresh"          # a new value, or a number, text or yes/no: 'let' need not copy it (compile/statements.py)
PASSED_ON = "passed on"  # its list argument, or items of it, not copies: a change to it changes the list
#                          (check/lost_writes.py)
OTHER = "other"          # neither for certain: stored, it is copied
GIVES = (FRESH, PASSED_ON, OTHER)


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
    # a board function's own method of the board (boards.base.board_function): generated code calls it
    # bound, with no call of ``fn`` in between
    method: str = ""
    # what generated code may call instead of fn, for speed (a C function): the same value for the
    # arguments fn takes; when it fails, fn run on the same arguments says why (faults.py)
    inline: Optional[Callable] = None
    # fn counts the work it does (the list it goes through, the list or text it makes: limits.py) on the
    # run's budget, the running state, given before anything else (None when folded at compile time)
    counts: bool = False
    # it compares its values to put them in order: an error of values with no order between them may
    # come from it (engine/faults.py)
    orders: bool = False
    # a board function giving a list of the board's spaces (SPACE_LIST) or one space or none (SPACE):
    # compile/param_kinds.py knows they compare in one step when every space is a short text
    spaces: str = attrs.field(default="", kw_only=True)
    # what the value it gives is, one of GIVES (said by every entry: no default)
    gives_back: str = attrs.field(kw_only=True, validator=attrs.validators.in_(GIVES))

    @property
    def passes_on(self) -> bool:
        return self.gives_back == PASSED_ON

    @property
    def fresh(self) -> bool:
        return self.gives_back == FRESH


@attrs.frozen
class Quantified:
    """A function that binds a name over a list (``count(x in xs where c)``, ``sum(x in xs: e)``): what
    the checks and the code generator read of it."""
    doc: str
    gives_back: str = attrs.field(validator=attrs.validators.in_(GIVES))  # as Builtin's (FRESH: a number or yes/no)
    # it compares or adds the values of its body, so it needs ': value' (expression_checks.py)
    needs_body: bool = False
    orders: bool = False  # as Builtin's
    # it may stop before the end of the list (the first item that passes, the first false...): the game
    # variables its loop reads are not taken before it (codegen.py)
    stops_early: bool = False
    # it never reads the values of its body, only which items the 'where' keeps (codegen.py)
    reads_values: bool = True
    # its loop goes through the list as it is, keeping none of it (codegen.py: no copy of a constant list;
    # a scalar one may take a board's shared list)
    only_reads: bool = False

    passes_on = Builtin.passes_on
    # every fresh quantifier gives a number or yes/no (comparisons.py)
    scalar = Builtin.fresh


# Each function says itself what went wrong (errors.py), by its own name: a value of the wrong kind
# (WrongArgument, or CannotCompare for the functions that order), or a limit it reached (limits.py),
# pointed at its call. The functions that go through a whole list count its items as work.
_FAULTS = (TypeError, ValueError, KeyError, IndexError, AttributeError, RulesRuntimeError)


def _failed(name: str, exc: BaseException, *args) -> RulesRuntimeError:
    """The error of builtin ``name`` that failed with ``exc`` given ``args``."""
    if isinstance(exc, RulesRuntimeError):  # a limit, or a typed error of an operation inside it
        if not exc.focus:
            exc.focus = f"call:{name}"
        return exc
    spec = BUILTINS[name]
    return WrongArgument.of(name, spec.args or (), spec.doc, isinstance(exc, TypeError), *args)


def _unordered(name: str, exc: BaseException, values, budget=None) -> RulesRuntimeError:
    """The error of a function that orders ``values`` (sorted, min, max...) and failed with ``exc``."""
    if isinstance(exc, TypeError):
        return first_unordered(values, budget)
    return _failed(name, exc, values)


def _len(x):
    try:
        return len(x)
    except TypeError:
        raise WrongArgument("len", f"len() needs a list, a map or text, not {kind_of(x)}",
                            NONE_HINT if x is None else "len counts the items of a list or map, or the letters "
                            "of text", x) from None


def _abs(x):
    try:
        return abs(x)
    except TypeError:
        raise WrongArgument("abs", f"abs() needs a number, not {kind_of(x)}", "abs works on numbers only", x) from None


def _sum(budget, xs):
    try:
        limits.through(budget, xs)
        return limits.number(sum(xs))
    except _FAULTS as exc:
        raise _failed("sum", exc, xs) from None


def _sorted(budget, xs):
    try:
        limits.through(budget, xs)
        return sorted(xs) if compare.flat(xs) else sorted(xs, key=compare.counted_key(budget))
    except _FAULTS as exc:
        raise _unordered("sorted", exc, xs, budget) from None


def _reversed(budget, xs):
    try:
        limits.through(budget, xs)
        return list(reversed(xs))
    except _FAULTS as exc:
        raise _failed("reversed", exc, xs) from None


def _tag(x):
    """The member a value is: a member with data gives its name (kept in the field "is"), anything else
    itself."""
    return x.get("is", x) if type(x) is dict else x


def _first(xs):
    try:
        return xs[0] if xs else None
    except _FAULTS as exc:
        raise _failed("first", exc, xs) from None


def _last(xs):
    try:
        return xs[-1] if xs else None
    except _FAULTS as exc:
        raise _failed("last", exc, xs) from None


def _distinct(budget, xs):
    try:
        limits.through(budget, xs)
        if not compare.flat(xs):  # long texts, compared letter by letter where their hashes meet
            compare.weigh(xs, budget)
        return list(dict.fromkeys(xs))
    except _FAULTS as exc:
        raise _failed("distinct", exc, xs) from None


def _range(budget, a, b=None):
    low, high = (a, b) if b is not None else (1, a)
    try:
        if type(low) is int and type(high) is int:
            limits.check_items(high - low + 1, "a list", budget)
        return list(range(low, high + 1))
    except _FAULTS as exc:
        raise _failed("range", exc, a, b) from None


def _extreme(name: str, pick):
    """min or max: of one list, or of its arguments; none of an empty list."""
    def extreme(budget, *xs):
        xs = xs[0] if len(xs) == 1 else xs
        try:
            limits.through(budget, xs)
            if not xs:
                return None
            return pick(xs) if compare.flat(xs) else pick(xs, key=compare.counted_key(budget))
        except _FAULTS as exc:
            raise _unordered(name, exc, xs, budget) from None
    return extreme


_min, _max = _extreme("min", min), _extreme("max", max)


def _random(st, xs):
    if not xs:
        raise RulesRuntimeError("random() of an empty list", focus="call:random")
    try:
        return xs[st.rng.randrange(len(xs))]
    except _FAULTS as exc:
        raise _failed("random", exc, xs) from None


def _shuffled(st, xs):
    try:
        limits.through(st, xs)
        xs = list(xs)
    except _FAULTS as exc:
        raise _failed("shuffled", exc, xs) from None
    st.rng.shuffle(xs)
    return xs


def _roll(st, sides):
    try:
        return st.rng.randint(1, sides)
    except ValueError:  # fewer than 1 side
        raise WrongArgument("roll", "roll() needs a die of 1 side or more", "roll(n) gives a number from 1 to n",
                            sides) from None
    except _FAULTS as exc:
        raise _failed("roll", exc, sides) from None


def _next_player(game, p, k=1):
    try:
        return (p - 1 + k) % game.player_count + 1
    except _FAULTS as exc:
        raise _failed("next_player", exc, p, k) from None


def _turn_order(st):
    first = st._vars.get(FIRST_PLAYER, 1)
    n = st.game.player_count
    return [(first - 1 + i) % n + 1 for i in range(n)]


def _without(budget, xs, x):
    t = type(x)
    if t is str and len(x) <= limits.SHORT or t in compare.ONE_STEP_TYPES:  # each comparison one step
        return without_one_step(budget, xs, x)
    try:
        limits.through(budget, xs)
        out = list(xs)
        i = compare.find(out, x, budget)
        if i >= 0:
            del out[i]
        return out
    except _FAULTS as exc:
        raise _failed("without", exc, xs, x) from None


def without_one_step(budget, xs, x):
    """without(xs, x) where ``x`` compares in one step (a number, yes/no, none or a short text: found so
    by _without, or known while compiling, compile/comparisons.py): Python's own look for it."""
    try:
        limits.through(budget, xs)
        out = list(xs)
        if x in out:
            out.remove(x)
        return out
    except _FAULTS as exc:
        raise _failed("without", exc, xs, x) from None


def _text(budget, x):
    return to_text(x, budget)


def _listed(budget, game, xs):
    """The items as a reader lists them: "A, B and C" (each item's text as a move text shows it)."""
    if type(xs) is not list:
        raise WrongArgument("listed", f"listed() takes a list, not {shown(xs)}", "give it a list: listed(me.hand)", xs)
    try:
        limits.through(budget, xs)
        texts = [public_text(game, x) for x in xs] if game.field_visibility else [to_text(x, budget) for x in xs]
        if not texts:
            return "nothing"
        out = texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]
        limits.check_items(len(out), "a text", budget)
        return out
    except RulesRuntimeError as exc:
        raise _failed("listed", exc, xs) from None


_LIST = (LIST,)
_NUMBER = (NUMBER,)

# The functions every game has; a board kind adds its own (boards/base.py, registered in boards/registry.py).
BUILTINS: dict[str, Builtin] = {
    "len": Builtin(_len, 1, 1, doc="number of items in a list", result=NUMBER, args=((LIST, MAP, TEXT),), inline=len,
                   gives_back=FRESH),
    "abs": Builtin(_abs, 1, 1, result=NUMBER, args=(_NUMBER,), inline=abs, gives_back=FRESH),
    "min": Builtin(_min, 1, 9, doc="smallest of a list or of the arguments", counts=True, orders=True,
                   gives_back=PASSED_ON),
    "max": Builtin(_max, 1, 9, counts=True, orders=True, gives_back=PASSED_ON),
    "sum": Builtin(_sum, 1, 1, result=NUMBER, args=(_LIST,), counts=True, gives_back=OTHER),
    "range": Builtin(_range, 1, 2, doc="range(n) = 1..n, range(a, b) = a..b", result=LIST, args=(_NUMBER, _NUMBER),
                     counts=True, gives_back=FRESH),
    "tag": Builtin(_tag, 1, 1, doc="the member of an enum a value is (a member with data gives its name)",
                   gives_back=OTHER),
    "sorted": Builtin(_sorted, 1, 1, result=LIST, args=(_LIST,), gives="same length", counts=True, orders=True,
                      gives_back=PASSED_ON),
    "reversed": Builtin(_reversed, 1, 1, result=LIST, args=(_LIST,), gives="same length", counts=True,
                        gives_back=PASSED_ON),
    "first": Builtin(_first, 1, 1, args=(_LIST,), gives="item", gives_back=PASSED_ON),
    "last": Builtin(_last, 1, 1, args=(_LIST,), gives="item", gives_back=PASSED_ON),
    "distinct": Builtin(_distinct, 1, 1, result=LIST, args=(_LIST,), counts=True, gives_back=PASSED_ON),
    "without": Builtin(_without, 2, 2, doc="a copy of the list without one occurrence of x", result=LIST,
                       args=(_LIST,), counts=True, gives_back=PASSED_ON),
    "text": Builtin(_text, 1, 1, result=TEXT, counts=True, gives_back=FRESH),
    "listed": Builtin(_listed, 1, 1, "game", 'the items as a reader lists them: "A, B and C"', TEXT, (_LIST,),
                      counts=True, gives_back=OTHER),
    # hidden information: the value itself, which the rulebook makes public (read by the secrecy check)
    "revealed": Builtin(lambda x: x, 1, 1, doc="the value, declared public because the rulebook shows it",
                        gives="item", gives_back=PASSED_ON),
    "next_player": Builtin(_next_player, 1, 2, "game", "the player k seats clockwise", NUMBER, (_NUMBER, _NUMBER),
                           gives_back=FRESH),
    # state
    "turn_order": Builtin(_turn_order, 0, 0, "state", "every player once, from first_player clockwise", LIST,
                          gives_back=OTHER),
    "random": Builtin(_random, 1, 1, "state", "one item of a list, from the seeded generator", args=(_LIST,),
                      gives="item", gives_back=PASSED_ON),
    "shuffled": Builtin(_shuffled, 1, 1, "state", result=LIST, args=(_LIST,), gives="same length",
                        gives_back=PASSED_ON),
    "roll": Builtin(_roll, 1, 1, "state", "a die of n sides", NUMBER, (_NUMBER,), gives_back=FRESH),
}

# Functions that bind a name over a list: count(x in xs where c), sum(x in xs: e)...
QUANTIFIERS: dict[str, Quantified] = {
    "count": Quantified("how many items pass", FRESH, reads_values=False, only_reads=True),
    "sum": Quantified("the values added up", FRESH, needs_body=True),
    "all": Quantified("whether every value is true", FRESH, stops_early=True, only_reads=True),
    "any": Quantified("whether some value is true", FRESH, stops_early=True, only_reads=True),
    "min": Quantified("the item with the smallest value", PASSED_ON, needs_body=True, orders=True),
    "max": Quantified("the item with the largest value", PASSED_ON, needs_body=True, orders=True),
    "first": Quantified("the first item that passes", PASSED_ON, stops_early=True, reads_values=False,
                        only_reads=True),
    "lowest": Quantified("every item with the smallest value", PASSED_ON, needs_body=True, orders=True),
    "highest": Quantified("every item with the largest value", PASSED_ON, needs_body=True, orders=True),
    "sorted": Quantified("the items in the order of their values", PASSED_ON, needs_body=True, orders=True),
}


def called(node, board_functions=None):
    """The entry of the function a call or a quantifier (a syntax node) calls: its Quantified, its
    Builtin, or (``board_functions``: the board's) the board function's; None for anything else."""
    func = getattr(node, "func", None)
    if isinstance(func, str):  # a quantifier names its function
        return QUANTIFIERS.get(func)
    name = getattr(func, "id", None)
    if name is None:
        return None
    return BUILTINS.get(name) or (board_functions or {}).get(name)


def quantified(func: str, items: list, values: list, budget=None) -> Any:
    """The value of a quantifier over ``items`` (those its 'where' kept), ``values`` the value of its body
    for each (or the items themselves); the generated loop (codegen.py) gives both, and computes no
    values for count and first, which never read them."""
    try:
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
        if not compare.flat(values):  # lists or long texts: each comparison counted (engine/compare.py)
            return _quantified_counted(func, items, values, budget)
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
    except TypeError:  # values with no order between them, or that do not add up: which two, and how
        raise (_unsummed(values) if func == "sum" else first_unordered(values, budget)) from None


def _quantified_counted(func: str, items: list, values: list, budget) -> Any:
    """min, max, sorted, lowest and highest of values that are lists or long texts, as ``quantified``
    gives them, each comparison counted on ``budget``."""
    key = compare.counted_key(budget)
    if func in ("min", "max"):
        return (min if func == "min" else max)(values, key=key) if values else None
    if func == "sorted" or func == "sorted descending":
        order = sorted(range(len(items)), key=lambda i: key(values[i]), reverse=func != "sorted")
        return [items[i] for i in order]
    if func in ("lowest", "highest"):
        if not values:
            return []
        best = (min if func == "lowest" else max)(values, key=key)
        return [x for x, v in zip(items, values) if compare.equal(v, best, budget)]
    raise RulesRuntimeError(f"unknown quantifier {func}")


def _unsummed(values) -> RulesRuntimeError:
    """The error of adding up ``values`` (as Python's sum does, from 0): the first sum that fails."""
    total = 0
    for v in values:
        try:
            total = total + v
        except TypeError:
            return CannotCombine("+", total, v)
    return CannotCombine("+", total, None)
