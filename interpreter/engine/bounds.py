"""How much a game may keep between its moves: the items its state holds (``limits.STATE``) and its event
history (``limits.EVENTS`` events, ``limits.EVENT_LETTERS`` letters of their texts).

The work budget (limits.py) bounds what one run makes; these bound what the runs leave behind, move
after move, so that a rule adding a long list at every move ends at a located error, never in a
MemoryError after an hour.

**The state.** Walking the state after every run would cost a quick game a tenth of its time. A run can
only add to the state what it made, and what it made is bounded by what it was charged: a step or an
item of work makes at most ``GROWTH`` items uncounted (a short list of up to ``limits.SHORT`` items, or a
copy of one, per statement or per counted item of a nested copy). So a state keeps ``_held_most``, a
bound on the items it holds: each run adds ``GROWTH`` times its steps and its work, and only when the
bound passes the limit are the items counted, for real (``held``); the bound becomes that count. A
shipped game's state holds a few thousand items and grows by a few thousand a move at most: it is
counted about once in a thousand moves. The count is made when the run stops at a decision, and the
error points there (the rule that left the state too large), naming the largest variable.

**The history.** Each cell of the linked history holds the letters of the texts of every event up to
it (``(event, older, letters)``, State.emit), so the count travels with the history through clones,
undo and saves, for free. A log line or a move past either limit fails where it is made.
"""
from __future__ import annotations

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine import limits
from rulewright.interpreter.engine.faults import fail_at

# the most items a step, or an item of work, can add to the state without being counted (see above)
GROWTH = limits.SHORT + 2
UNKNOWN = 1 << 62  # a bound that makes the next run count the state (a state loaded from a save)


def counted(st) -> int:
    """The run on ``st`` stopped at a decision and the state's bound (its last count, plus ``GROWTH``
    items a step or an item of work since: machine.run adds it, inline) passed the limit: the items it
    holds, counted; refused if too many."""
    n = held(st, limits.STATE)
    if n > limits.STATE:
        raise at_decision(st, too_large(st))
    return n


def started(st) -> None:
    """The starting values of a new game were made on ``st``'s budget: what they may hold is bounded."""
    st._held_most = GROWTH * (limits.WORK - st._work_left)


def held(st, most: int = UNKNOWN) -> int:
    """The items ``st`` holds: its variables, the locals of the rules waiting for a decision, the pending
    decision's options, reveals and winners; counting stops once past ``most``."""
    parts = [st._vars, st.revealed, st.winners]
    for f in st.frames:
        parts.append(f.locals)
    pend = st.pending
    if pend is not None:
        parts.append(pend.chosen)
        for opts in pend.options.values():
            parts.append([[o.text, o.value] for o in opts])
    return items(parts, most)


def items(value, most: int = UNKNOWN) -> int:
    """The items of ``value``: one for each number, yes/no or none, one for each list or map and each key of
    a map, with what they hold, and the letters of each text. A text is never changed, so storing one
    stores a reference: a long one (over limits.SHORT letters, which cost work to make) is counted once
    however many places hold it; a list is copied when stored, so is counted each time (a list that
    holds the same list many times is so counted, but never for long: counting stops once past ``most``)."""
    n = 0
    todo = [value]
    pop, push = todo.pop, todo.append
    long_texts: set = set()
    short = limits.SHORT
    while todo:
        v = pop()
        t = type(v)
        if t is list:
            n += 1 + len(v)
            for x in v:
                tx = type(x)
                if tx is str:
                    if len(x) <= short:
                        n += len(x)
                    elif id(x) not in long_texts:
                        long_texts.add(id(x))
                        n += len(x)
                elif tx is list or tx is dict:
                    push(x)
        elif t is dict:
            n += 1 + 2 * len(v)
            for k, x in v.items():
                if type(k) is str:
                    n += len(k)
                tx = type(x)
                if tx is str and len(x) <= short:  # (a record's short texts counted here, not pushed)
                    n += len(x)
                elif tx is str or tx is list or tx is dict:
                    push(x)
        elif t is str:
            if len(v) <= short:
                n += len(v)
            elif id(v) not in long_texts:
                long_texts.add(id(v))
                n += len(v)
        else:
            n += 1
        if n > most:
            return n
    return n


def too_large(st) -> RulesRuntimeError:
    """The error of a state holding more than limits.STATE items, naming its largest variable."""
    sizes = sorted(((items(v, limits.STATE), name) for name, v in st._vars.items()), reverse=True)
    largest = ""
    if sizes:
        n, name = sizes[0]
        largest = f": the largest variable is '{name}', " + (
            f"{n:,} items" if n <= limits.STATE else f"more than {limits.STATE:,} items alone")
    return RulesRuntimeError(
        f"the game's state holds more than {limits.STATE:,} items{largest}",
        "its variables and the values its rules hold at a decision count, each number, letter of a text "
        "and list one: look for a list that grows at every move, or raise the limit (rulewright --max-state)")


def history_full(st, event: dict) -> RulesRuntimeError:
    """The error of ``event`` past the history's limits; a move's is located at its decision (a log
    line's or a reveal's is located by the machine, which runs it)."""
    if st.history_len >= limits.EVENTS:
        what = f"more than {limits.EVENTS:,} events"
        flag = "--max-events"
    else:
        what = f"events with more than {limits.EVENT_LETTERS:,} letters of text"
        flag = "--max-event-letters"
    error = RulesRuntimeError(
        f"the game's history would hold {what}",
        "every move, log line and reveal is kept: look for a log line in a long loop, or a long text logged "
        f"at every move, or raise the limit (rulewright {flag})")
    return at_decision(st, error) if event.get("event") == "move" else error


def at_decision(st, error: RulesRuntimeError) -> RulesRuntimeError:
    """``error`` located at the decision ``st`` waits for (its frame stopped just after it)."""
    if not st.frames or st.game is None:  # a save's history, read before its game is known
        return error
    frame = st.frames[-1]
    return fail_at(st, error, st.game.procs[frame.proc], frame.pc - 1)
