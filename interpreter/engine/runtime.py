"""The run-time helpers of the instructions (instructions.py, statements.py): plain functions the generated
code calls where a step has no inline form, most of them to say in the language's words what went wrong."""
from __future__ import annotations

from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine.operations import player_index
from rulewright.interpreter.engine import compare, limits
from rulewright.interpreter.engine.errors import NO_ALTERNATIVE
from rulewright.interpreter.engine.faults import RULE_FAULTS, located
from rulewright.interpreter.engine.values import copy_value, shown, to_text

# Rules never nest procedure calls this deep unless one calls itself without end.
MAX_CALL_DEPTH = 500

NO_CHOICE_HINT = ("every option was left out by 'where' (or the list is empty): check before choosing "
                  "('if any(x in xs: ...)'), or add 'optional \"pass\"'")


def too_deep():
    raise RulesRuntimeError(f"procedures called {MAX_CALL_DEPTH} deep (one that calls itself forever?)",
                            "a procedure that calls itself needs a case that does not (an 'if' around the call), "
                            "and each call must come closer to it")


# the alternatives of a 'choose:' (or of a variant's erratum) are chosen into a name of the engine's own
NO_ALTERNATIVE_HINT = ("every alternative's 'if' is false here: give one alternative no 'if' (a way to pass), "
                       "or check before choosing")


def stalled(exc: RulesRuntimeError) -> bool:
    """Whether a rules error is a decision with nothing to choose: the game can go no further."""
    return exc.hint.startswith((NO_CHOICE_HINT, NO_ALTERNATIVE_HINT))


def no_choice(var: str):
    if var.startswith("$"):
        raise RulesRuntimeError("no alternative of this 'choose:' can be taken", NO_ALTERNATIVE_HINT,
                                focus=NO_ALTERNATIVE)
    raise RulesRuntimeError(f"no legal choice for '{var}'", NO_CHOICE_HINT)


def no_choice_for(var: str, p):
    if var.startswith("$"):
        raise RulesRuntimeError(f"no alternative of this 'choose:' can be taken by player {p}", NO_ALTERNATIVE_HINT,
                                focus=NO_ALTERNATIVE)
    raise RulesRuntimeError(f"no legal choice for '{var}' for player {p}", NO_CHOICE_HINT)


def not_a_player(p, count: int):
    """'choose ... by p' names a player of the game: else the decision could never be made (or saved)."""
    raise RulesRuntimeError(f"{shown(p)} is not a player of this game (1 to {count}), so it cannot decide",
                            "'by' names a player: a number from 1 to player_count")


def ended(st, conditions, decls) -> bool:
    """Whether one of the 'end when' ``conditions`` (compiled expressions) holds; one that fails is an
    error located at its own declaration, in the rule 'end when'."""
    i = 0
    try:
        for cond in conditions:
            if cond(st, {}):
                return True
            i += 1
    except RULE_FAULTS + (RulesRuntimeError,) as exc:
        if isinstance(exc, RulesRuntimeError) and exc.diagnostic is not None:
            raise
        d = decls[i] if i < len(decls) else None
        if d is None:
            raise
        raise located(st, exc, d.cond.span, "end when", d.cond) from None
    return False


def numbered(seen: dict, t: str, x, st=None):
    """A text already taken by another option: None for an identical copy of one table row (one move),
    else the text numbered ('#2', '#3'...). The two options' values compared as ``==`` compares them,
    counted on the run's budget (the state ``st``)."""
    if compare.equal(seen[t], x, st):
        return None
    n = seen.get((t,), 2)  # the number after the last one this text took: numbers are only ever taken, so
    while f"{t} #{n}" in seen:  # the first free one is past it (200,000 options of one text: not n^2)
        n += 1
    seen[(t,)] = n + 1  # (a tuple: no option's text)
    return f"{t} #{n}"


# ----------------------------------------------------------------------------- statements
def won(st, v, count: int) -> None:
    """'win' a player or a list of players."""
    winners = v if isinstance(v, list) else [v]
    for p in winners:  # 'win "me"' would otherwise name a winner nobody is
        player_index(p, count)
    st.winners = sorted(winners)


def noted(event: dict, values: list) -> dict:
    """``event`` carrying the values its text was made from (a compiled game that notes them: balance
    reports read what an event names there, never from its text)."""
    event["values"] = values
    return event


def readers(to, count: int) -> list:
    """The players a 'log ... to' names, in order (each a player, or a rules error)."""
    to = sorted(to) if type(to) is list else [to]
    for p in to:
        player_index(p, count)
    return to


def told(name: str, value, player_var: bool) -> str:
    """What 'reveal' of a whole variable says (each player's entry, for a player variable)."""
    if player_var:
        return f"{name}: " + "  ".join(f"{p}: {to_text(v)}" for p, v in enumerate(value, 1))
    return f"{name}: {to_text(value)}"


def entry_told(p, name: str, value) -> str:
    """What 'reveal' of one player's entry of a player variable says."""
    return f"player {p}'s {name}: {to_text(value)}"


def turn_up(st, name: str, player: int, value) -> None:
    """A variable (player 0: all of it) or one player's entry is face up, as it is now: views show it
    until it changes (then it is face down again)."""
    st.revealed[:] = [r for r in st.revealed if r[:2] != [name, player]]
    st.revealed.append([name, player, copy_value(value, st)])


def not_a_list(v, what: str, maps_too: bool):
    raise RulesRuntimeError(
        f"{what} needs a list{' or a map' if maps_too else ''}, but this is {shown(v)}",
        "the value is none here: check it first ('if x != none:')" if v is None
        else "name the list itself (a variable, a field or an item that holds a list)")


def removed(x, xs, st=None) -> None:
    """'remove x from xs': xs is a list or a map (x compared with the items as ``==`` compares them,
    counted on the run's budget, the state ``st``)."""
    try:
        if type(xs) is dict:  # from a map: forget the key
            del xs[x]
        elif type(xs) is not list:
            xs.remove(x)  # (fails: no list)
        else:
            i = compare.find(xs, x, st)
            if i < 0:
                raise ValueError
            del xs[i]
    except ValueError:
        raise RulesRuntimeError(f"{shown(x)} is not in the list to remove",
                                "'remove' takes away an item that is there: check first "
                                "('if x in xs:')") from None
    except KeyError:
        raise RulesRuntimeError(f"no entry {shown(x)} in the map to remove",
                                "a map forgets only a key it has: check first ('if k in m:')") from None
    except TypeError:  # a list or a record as a map's key
        raise RulesRuntimeError(f"{shown(x)} cannot be a key of a map",
                                "map keys are numbers, text or yes/no values") from None


def taken_out(x, xs, st=None) -> tuple:
    """'move x from xs': (its place, the item the list held), taken out of ``xs``. What moves is the item
    the list held (x is only equal to it: 'move keep from h to keep' names the variable 'keep', whose
    own list must not go into itself). Compared as ``removed`` compares."""
    try:
        i = compare.find(xs, x, st)
        if i < 0:
            raise ValueError
    except ValueError:
        raise RulesRuntimeError(f"{shown(x)} is not in the list to move it from",
                                "'move' takes an item that is in the first list: check first "
                                "('if x in xs:')") from None
    return i, xs.pop(i)


def put_in(st, xs: list, i: int, moved, into: list, bottom: bool) -> None:
    """'move ... to into': the item taken out of ``xs`` at ``i`` goes in (a list never into itself)."""
    if type(moved) is list or type(moved) is dict:
        if _holds(st, moved, into):
            xs.insert(i, moved)  # as before the move
            raise RulesRuntimeError("'move' would put this list inside itself",
                                    "a list cannot hold itself: add a copy (add x to ys), or move "
                                    "it into another list")
    if bottom:
        into.insert(0, moved)
    else:
        into.append(moved)


def _holds(st, value, place) -> bool:
    """Whether ``place`` is the list or map ``value``, or one inside it (counted as work on ``st``)."""
    pending = [value]
    while pending:
        v = pending.pop()
        if v is place:
            return True
        inside = v if type(v) is list else v.values()
        limits.spend(st, len(inside))
        pending.extend(w for w in inside if type(w) is list or type(w) is dict)
    return False


def empty_draw():
    raise RulesRuntimeError("cannot draw from an empty list",
                            "check first ('if len(deck) > 0:'), or refill the list before drawing")


def failed(message):
    """The rules' own 'fail'."""
    raise RulesRuntimeError(message, "the rules' own 'fail' stopped the game: what it guards against has happened")


def field_set(st, o, name: str, v, op, player_too: bool, count: int) -> None:
    """'o.name = v' (``op`` '+' or '-': 'o.name += v') where ``o`` is not a record the generated code
    sets itself: a map, or a player's entry when the name is both a player variable and a field."""
    if type(o) is dict:
        o[name] = copy_value(combined(o[name], v, op), st)
        st.game.flatness.note_value(o[name])
    elif player_too and type(o) is int:  # the name is both a player variable and a field
        values, i = st._vars[name], player_index(o, count)
        values[i] = copy_value(combined(values[i], v, op), st)
    else:
        raise RulesRuntimeError(f"cannot set the field '{name}' of {shown(o)}",
                                "only a record (or a map) has fields to set", focus=f"field:{name}")


def combined(old, v, op):
    """The value '+=' or '-=' stores (``op`` None: '=' stores ``v``)."""
    return v if op is None else old + v if op == "+" else old - v
