"""How much a rules file may make the engine do between two decisions, and how large its values may grow.

Rules may come from a stranger: whatever they say, a game ends with a located rules error naming the
limit, never a hang, a full memory or a Python traceback. The limits:

- ``STEPS``: instructions run between two decisions (an endless loop);
- ``WORK``: the work inside expressions between two decisions, in items (exponential recursion, nested
  quantifiers, a list doubled in a loop);
- ``ITEMS``: the items of one list or map, the letters of one text (``range(1000000000)``);
- ``DIGITS``: the digits of a number (``x = x * x`` forty times);
- ``STATE``: the items the game's state holds between moves (a rule adding a long list at every move);
- ``EVENTS``, ``EVENT_LETTERS``: the events the game keeps, and the letters of their texts (bounds.py).

Work is counted where it can grow without the steps growing: each item a loop goes through (a
quantifier, a comprehension: loops nested in one expression multiply, and 30 items seven deep is 20
billion), a call of a def that calls defs (``CALL`` items), a list, map or text of more than ``SHORT``
items made, gone through (by a function, or by a statement: shuffle, remove, move, add at the bottom)
or copied, and a nested list or a map copied or printed; the items and letters a comparison of lists,
maps or long texts goes through (compare.py). A short flat list costs no more than an
instruction: the steps and the counted loops and calls bound how often one is made.

They are module values, the same for every game of the process: ``set_limits`` changes them (the command
line's --max-* options, or the Python API), and ``simulate`` hands them to its workers. What is *left*
of the work and of the steps belongs to the run, held by the state it runs on (see ``fresh``): runs in
two threads (agents searching in parallel, the web table beside a script) never spend or refill each
other's.
"""
from __future__ import annotations

from rulewright.dsl.errors import RulesRuntimeError

STEPS = 2_000_000
WORK = 2_000_000  # 1,200 times the most a move of the shipped games does (docs/performance.md)
CALL = 10  # a def call counts as this many items: it costs about as much time as going through ten
SHORT = 32  # a list, map or text of at most this many items made, gone through or copied is not counted
ITEMS = 1_000_000
DIGITS = 100
STATE = 4_000_000  # shipped games hold under 1 % of this (docs/performance.md); bounds.py counts it
EVENTS = 500_000  # a shipped game keeps a few thousand (a random one 50,000 moves long: 100,000)
EVENT_LETTERS = 20_000_000

BIG = 10 ** DIGITS  # numbers stay strictly between -BIG and BIG
# set_limits' names, with the values above
DEFAULTS = {"steps": STEPS, "work": WORK, "items": ITEMS, "digits": DIGITS, "state": STATE, "events": EVENTS,
            "event_letters": EVENT_LETTERS}

# What a run may still do belongs to the run: the state it runs on holds it (``State._work_left``, the
# items of work left, and ``_steps_left``, the steps left to the procedures run as Python calls), refilled
# by every entry into the rules (``fresh``: machine.run, a new game's starting values, a view, the
# outcome...). The generated code counts on its state (``st._work_left -= n``); a function it calls that
# counts work of its own (a builtin going through a list, copying or printing a value) is handed the
# state, as ``budget``. Two runs in two threads run on two states: neither spends nor refills the
# other's. The constants folded while a game is compiled count on a ``Budget`` of their own. A budget of
# None counts nothing: values of the state printed or copied outside a run (counted when they were made).


class Budget:
    """A budget that is no state's: what the constants folded while one game is compiled may do (past
    it, the rest are left to be computed when they run, each run counting its own)."""
    __slots__ = ("_work_left", "_steps_left")

    def __init__(self):
        self._work_left = WORK
        self._steps_left = STEPS


def fresh(st) -> None:
    """A fresh budget for the rules about to run on the state ``st`` towards a decision (or a view, or the
    outcome). (machine.run does the same inline.)"""
    st._work_left = WORK
    st._steps_left = STEPS


def spend(budget, n: int) -> None:
    """Count ``n`` items of work on ``budget`` (a state, or None: nothing counted); past the limit, a rules
    error (the machine says where). The generated code does the same inline on its state."""
    if budget is not None:
        budget._work_left -= n
        if budget._work_left < 0:
            exhausted(budget)


def exhausted(budget):
    budget._work_left = 0  # stays spent until the next fresh(): the error is raised once per statement
    raise RulesRuntimeError(
        f"the rules did more than {WORK:,} items of work without asking for a decision",
        "this counts def calls, the items quantifiers and list functions go through and the items of "
        "lists and texts made or copied: look for a def that calls itself more than once, a "
        "quantifier over a long list inside another, or a list that doubles in a loop")


def through(budget, xs) -> None:
    """``xs`` gone through by a function (sum, sorted, min...): a list, map or text longer than SHORT
    counted as work; a short one costs no more than the call."""
    if budget is not None and type(xs) in _SIZED and len(xs) > SHORT:
        spend(budget, len(xs))


_SIZED = (list, dict, str)


def size(x) -> int:
    """The items of a value that is gone through (0 for what is not a list: the error comes later)."""
    return len(x) if type(x) in _SIZED else 0


def check_items(n: int, what: str = "a list", budget=None) -> None:
    """A list, map or text of ``n`` items is about to be made: refused past ITEMS, else counted as work
    on ``budget`` when longer than SHORT."""
    if n > ITEMS:
        unit = "letters" if what == "a text" else "items"
        raise RulesRuntimeError(f"{what} of {n:,} {unit} is too long (the limit is {ITEMS:,})",
                                "a game's lists, maps and texts stay far below this; check the sizes on this line")
    if n > SHORT and budget is not None:
        spend(budget, n)


def too_large(n: int) -> RulesRuntimeError:
    return RulesRuntimeError(f"a number with more than {DIGITS} digits is too large",
                             f"numbers stay below 10 to the power {DIGITS}; check the arithmetic on this line")


def number(n):
    """``n`` (an arithmetic result) if it is not too large."""
    if type(n) is int and not -BIG < n < BIG:
        raise too_large(n)
    return n


def current() -> dict:
    """The limits now in force, by the names ``set_limits`` takes."""
    return {"steps": STEPS, "work": WORK, "items": ITEMS, "digits": DIGITS, "state": STATE, "events": EVENTS,
            "event_letters": EVENT_LETTERS}


def set_limits(steps=None, work=None, items=None, digits=None, state=None, events=None,
               event_letters=None) -> dict:
    """Change some limits for every game of this process; returns the old ones (to put them back).
    Each must be a whole number of at least 1 (digits: at most 4,000, where Python stops printing)."""
    from rulewright.dsl.errors import OptionError
    global STEPS, WORK, ITEMS, DIGITS, BIG, STATE, EVENTS, EVENT_LETTERS
    old = current()
    for name, value in (("steps", steps), ("work", work), ("items", items), ("digits", digits), ("state", state),
                        ("events", events), ("event_letters", event_letters)):
        if value is not None and (type(value) is not int or value < 1):
            raise OptionError(f"the limit {name} must be a whole number of at least 1, not {value!r}")
    if digits is not None and digits > 4000:
        raise OptionError("the limit digits can be at most 4000")
    if steps is not None:
        STEPS = steps
    if work is not None:
        WORK = work
    if items is not None:
        ITEMS = items
    if digits is not None:
        DIGITS, BIG = digits, 10 ** digits
    if state is not None:
        STATE = state
    if events is not None:
        EVENTS = events
    if event_letters is not None:
        EVENT_LETTERS = event_letters
    return old
