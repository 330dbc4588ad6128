"""How much a rules file may make the engine do between two decisions, and how large its values may grow.

Rules may come from a stranger: whatever they say, a game ends with a located rules error naming the
limit, never a hang, a full memory or a Python traceback. The limits:

- ``STEPS``: instructions run between two decisions (an endless loop);
- ``WORK``: the work inside expressions between two decisions, in items: each def call, each item a
  quantifier, a comprehension or a list function goes through, each item of a list, map or text made or
  copied (exponential recursion, nested quantifiers over long lists, a list doubled in a loop);
- ``ITEMS``: the items of one list or map, the letters of one text (``range(1000000000)``);
- ``DIGITS``: the digits of a number (``x = x * x`` forty times).

Work is counted where it can grow without the steps growing: a call of a def that calls defs, a list of
more than 32 items gone through or copied, a nested list or a map copied. A short flat list costs no more than an instruction,
and the steps already bound how many instructions run.

They are module values, the same for every game of the process: ``set_limits`` changes them (the command
line's --max-* options, or the Python API), and ``simulate`` hands them to its workers. What is *left*
of the work and of the steps is one object, ``work``, still one for the process: runs in two threads
share it (see Work).
"""
from __future__ import annotations

from rulewright.dsl.errors import RulesRuntimeError

STEPS = 2_000_000
WORK = 2_000_000  # a thousand times what a move of the shipped games needs (docs/performance.md)
CALL = 10  # a def call counts as this many items: it costs about as much time as going through ten
ITEMS = 1_000_000
DIGITS = 100

BIG = 10 ** DIGITS  # numbers stay strictly between -BIG and BIG
# set_limits' names, with the values above
DEFAULTS = {"steps": STEPS, "work": WORK, "items": ITEMS, "digits": DIGITS}

class Work:
    """The work left until the next decision (``left``), reset by machine.run and by every other entry
    into the rules (a new game's starting values, a view, the outcome), and the steps left to the
    procedures run as Python calls. One for the process: a ``threading.local`` would give each thread
    its own, but reading it costs a tenth of a playout (docs/performance.md), so agents in threads still
    share it (a run in one thread may reset or spend another's)."""

    def __init__(self):
        self.left = WORK
        self.steps = STEPS  # the steps left to the procedures run as Python calls (machine.run_call)


work = Work()


def fresh() -> None:
    """A fresh work budget: the rules start to run towards a decision (or a view, or the outcome)."""
    work.left = WORK


def spend(n: int) -> None:
    """Count ``n`` items of work; past the budget, a rules error (the machine says where). Hot code does
    the same inline: ``work.left -= n`` then ``if work.left < 0: exhausted()``."""
    w = work
    w.left -= n
    if w.left < 0:
        exhausted()


def exhausted():
    work.left = 0  # stays spent until the next fresh(): the error is raised once per statement
    raise RulesRuntimeError(
        f"the rules did more than {WORK:,} items of work without asking for a decision",
        "this counts def calls, the items quantifiers and list functions go through and the items of "
        "lists and texts made or copied: look for a def that calls itself more than once, a "
        "quantifier over a long list inside another, or a list that doubles in a loop")


def size(x) -> int:
    """The items of a value that is gone through (0 for what is not a list: the error comes later)."""
    return len(x) if type(x) in (list, dict, str) else 0


def check_items(n: int, what: str = "a list") -> None:
    """A list, map or text of ``n`` items is about to be made: refused past ITEMS, else counted as work."""
    if n > ITEMS:
        unit = "letters" if what == "a text" else "items"
        raise RulesRuntimeError(f"{what} of {n:,} {unit} is too long (the limit is {ITEMS:,})",
                                "a game's lists, maps and texts stay far below this; check the sizes on this line")
    spend(n)


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
    return {"steps": STEPS, "work": WORK, "items": ITEMS, "digits": DIGITS}


def set_limits(steps=None, work=None, items=None, digits=None) -> dict:
    """Change some limits for every game of this process; returns the old ones (to put them back).
    Each must be a whole number of at least 1 (digits: at most 4,000, where Python stops printing)."""
    from rulewright.dsl.errors import OptionError
    global STEPS, WORK, ITEMS, DIGITS, BIG
    old = current()
    for name, value in (("steps", steps), ("work", work), ("items", items), ("digits", digits)):
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
    fresh()
    return old
