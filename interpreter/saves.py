"""Saves: the state as JSON through one cattrs converter, stamped with the rules it belongs to.

A save records two stamps of its rules: ``rules``, a digest of their text, and ``fingerprint``, a digest
of their meaning (the checked syntax tree without positions: comments and formatting do not change it).
A save loads as it is while the fingerprint is the same; when the rules' meaning changed, its seed and
its moves are played again on the new rules, and the first move they no longer allow is named."""
from __future__ import annotations

import hashlib
import json
import marshal
import math
import random
import re
from pathlib import Path
from typing import Optional

import attrs

import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from rulewright.dsl import ast
from rulewright.dsl.errors import IllegalMoveError, RulesError, RulesRuntimeError, SaveError
from rulewright.interpreter.engine import bounds, events, limits
from rulewright.interpreter.engine.machine import Option
from rulewright.interpreter.engine.generator import Generator
from rulewright.interpreter.engine.start import seeded_state
from rulewright.interpreter.engine.state import State
from rulewright.interpreter.engine.state_fields import SAVED
from rulewright.interpreter.engine.sharing import Encoder, decode, resolve
from rulewright.interpreter.shipped import shipped_games
from rulewright.interpreter.engine.builtin_names import FIRST_PLAYER

FORMAT = "rulewright-save"
VERSION = 1

converter = cattrs.Converter()
converter.register_unstructure_hook(random.Random, lambda r: _rng_to_list(r.getstate()))
converter.register_structure_hook(random.Random, lambda data, _: _rng_from_list(data))
# What a save leaves out: the fields state_fields.SAVED does not name, and the event history, a linked list
# shared between clones, which a save writes as a list, oldest first (_saved).
_LEFT_OUT = {f.name: override(omit=True) for f in attrs.fields(State) if f.name not in SAVED or f.name == "history"}
converter.register_unstructure_hook(
    State, make_dict_unstructure_fn(State, converter, **_LEFT_OUT, _vars=override(rename="vars")))
# (each class of state its own: the API's State, a subclass, is built as itself)
converter.register_structure_hook_factory(
    lambda cls: isinstance(cls, type) and issubclass(cls, State),
    lambda cls: make_dict_structure_fn(cls, converter, **_LEFT_OUT, _vars=override(rename="vars")))


def _rng_to_list(state):
    version, internal, gauss = state
    return [version, list(internal), gauss]


def _rng_from_list(data):
    rng = Generator.__new__(Generator)  # not Generator(): that seeds from os.urandom first
    version, internal, gauss = data
    rng.setstate((version, tuple(internal), gauss))
    return rng


def save(st: State) -> dict:
    try:
        return _saved(st)
    except RecursionError:  # lists in lists deeper than Python's stack: no JSON writer could write them
        raise SaveError("cannot save this game: it holds lists inside lists nested too deep to write "
                        "(a few hundred levels)") from None


def _saved(st: State) -> dict:
    g = st.game
    data = converter.unstructure(st)
    # the rules' own data, in one pass so that what two places share stays shared (sharing.py)
    enc = Encoder()
    data["vars"] = {k: enc.encode(v, ["vars", k]) for k, v in st._vars.items()}
    for i, (frame, live) in enumerate(zip(data["frames"], st.frames)):
        frame["locals"] = {k: enc.encode(v, ["locals", i, k]) for k, v in live.locals.items()}
    if st.pending is not None:
        pend = data["pending"]
        pend["options"] = {p: [dict(o, value=enc.encode(live.value, ["option", p, j]))
                               for j, (o, live) in enumerate(zip(pend["options"][p], opts))]
                           for p, opts in st.pending.options.items()}
        pend["chosen"] = {p: enc.encode(v, ["chosen", p]) for p, v in st.pending.chosen.items()}
    data["history"] = st.event_history()
    return {"format": FORMAT, "version": VERSION, "game": g.name, "source": rules_source(g.file),
            "rules": g.digest, "fingerprint": fingerprint(g.rules), "players": g.player_count,
            "options": dict(g.options), "state": data}


def fingerprint(rules) -> str:
    """The rules' meaning: a digest of their declarations, positions left out (so comments, blank lines
    and spacing do not count). Worked out once per parsed file."""
    found = rules.derived.get("fingerprint")
    if found is None:
        found = rules.derived["fingerprint"] = hashlib.sha256(repr(rules.decls).encode()).hexdigest()[:16]
    return found


def rules_source(path: str) -> str:
    """How a save names its rules: a shipped game by its name, any other file by its absolute path."""
    for name, shipped in shipped_games().items():
        if Path(path) == shipped.resolve():
            return name
    return path


@attrs.frozen
class Loaded:
    """A save loaded: its state and, when the rules changed since it was made, what that did."""
    state: State
    note: Optional[str] = None


def load(g, data, verify: bool = True, force: bool = False, state_class: type = State) -> Loaded:
    """Rebuild a state of the compiled game ``g`` saved by ``save`` (a ``state_class``: the API's own
    State, which shows itself); refuse a save of other rules, players or options, and (with ``verify``)
    one that its seed and its moves do not give when played again. A save whose rules differ from
    ``g``'s only in comments and formatting loads as it is; one whose rules' meaning changed is played
    again from its seed, move by move, and refused at the first move the new rules do not allow
    (``force``: loaded at that point, and a save of a differently named game is played again too)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("not a rulewright save file")
    if data.get("version") != VERSION:
        raise SaveError(f"save format version {data.get('version')!r} is not supported (expected {VERSION})")
    check_shape(data)
    changed = data.get("rules") != g.digest and data.get("fingerprint") != fingerprint(g.rules)
    if changed and data.get("game") != g.name and not force:
        raise SaveError(f"this save belongs to other rules ({_quote(data.get('game'))}, rules "
                        f"{data.get('rules')}), not to '{g.name}' (rules {g.digest})")
    if data.get("players") != g.player_count or data.get("options") != g.options:
        raise SaveError(f"this save is for {_setup(data.get('players'), data.get('options'))}, "
                        f"not {_setup(g.player_count, g.options)}")
    if changed:
        return _replay_on_changed_rules(g, data, force, state_class)
    return Loaded(_restore(g, data, verify, state_class))


def _setup(players, options) -> str:
    """'2 players with length=short' (no Python repr in a message)."""
    if not isinstance(options, dict):
        return f"{players} players with options {_quote(options)}"
    shown = ", ".join(f"{k}={v}" for k, v in options.items())
    return f"{players} players" + (f" with {shown}" if shown else " without options")


def _quote(value) -> str:
    return f"'{value}'" if isinstance(value, str) else str(value)


def _replay_on_changed_rules(g, data, force: bool, state_class: type) -> Loaded:
    """The save's seed and moves played on ``g``'s rules, which changed since the save was made."""
    state_data = data["state"]  # its shape is checked (check_shape)
    seed, history = state_data.get("seed"), state_data.get("history", [])
    if seed is None:
        raise SaveError("the rules changed since this save was made, and it holds no seed and moves to "
                        "play again on the new rules")
    moves = [(e["player"], e["move"]) for e in history if e["event"] == "move"]
    pending = state_data.get("pending")
    if pending is not None:
        moves += [(int(p), told[0] if isinstance(told, list) else told)
                  for p, told in pending.get("texts", {}).items() if told]
    st = seeded_state(g, seed, state_class)
    total = len(moves)
    for i, (player, text) in enumerate(moves, 1):
        try:
            if st.is_over():
                raise IllegalMoveError("the game is already over")
            st.apply(text, player=player)
        except RulesError as exc:
            where = (f"the rules changed since this save was made: its moves were played again on the new "
                     f"rules, and move {i} of {total} (player {player}: '{text}') diverges: {_short(exc)}")
            if not force:
                raise SaveError(where + "; to load the game as it stands before that move, use --force "
                                        "(in Python: game.load_save(data, force=True))") from None
            return Loaded(st, f"{where}; loaded before that move (--force)")
    return Loaded(st, f"the rules changed since this save was made: its {total} "
                      f"move{'' if total == 1 else 's'} were played again on the new rules")


def _restore(g, data, verify: bool, state_class: type) -> State:
    try:
        # a copy: the game must never share lists with the caller's data
        state_data = marshal.loads(marshal.dumps(data["state"]))  # JSON data: marshal copies it in C
        history = state_data.pop("history", [])
        st = converter.structure(state_data, state_class)
        st._held_most = bounds.UNKNOWN  # counted at its first run (bounds.py)
        _restore_history(st, history)
        if st.pending is not None:
            _restore_pending(st.pending)
        _restore_shared(st)
    except cattrs.BaseValidationError as exc:  # say which fields: "required field missing @ $.frames"
        raise SaveError("corrupt save: " + "; ".join(cattrs.transform_error(exc, path="$"))) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise SaveError(f"corrupt save: {_short(exc)}") from None
    except RecursionError:
        raise SaveError("corrupt save: its data is nested too deep") from None
    st.game = g
    _check_frames(st)
    _check_revealed(st)
    _check_vars_and_status(st)
    _check_values(st)
    _check_players(st)
    st = _ask_again(st)
    if verify:
        _check_replay(st)
    return st


EDITED_HINT = ("it was edited, or made from a position set by hand; to load it anyway, use "
               "load_state(data, verify=False) (on the command line, --unverified)")


def _check_replay(st: State) -> None:
    """A save is its seed and its moves: played again from the seed, the moves of its history (and the
    choices already made in a simultaneous decision) must give the very state saved. Anything edited
    by hand (a card added, a score, a choice's value, the generator) shows as a difference."""
    if st.seed is None:
        return  # a save made before games kept their seed: nothing to play again
    again = seeded_state(st.game, st.seed)
    moves = [(e["player"], e["move"]) for e in st.event_history() if e["event"] == "move"]
    if st.pending is not None:
        moves += [(p, told[0]) for p, told in st.pending.texts.items() if told is not None]
    try:
        for player, text in moves:
            again.apply(text, player=player, atomic=False)
    except (RulesError, IllegalMoveError) as exc:
        raise SaveError(f"this save's moves do not play from its seed ({_short(str(exc))}): {EDITED_HINT}") from None
    for what, mine, theirs in (("variables", st._vars, again._vars), ("status", st.status, again.status),
                               ("step", st.step, again.step), ("count of moves", st.moves_made, again.moves_made),
                               ("winners", st.winners, again.winners), ("reveals", st.revealed, again.revealed),
                               ("generator", st.rng.getstate(), again.rng.getstate()),
                               ("running rules", [(f.proc, f.pc, f.locals) for f in st.frames],
                                [(f.proc, f.pc, f.locals) for f in again.frames]),
                               # the same events, whatever line their rules stand on (comments may move them)
                               ("events", [events.without_rule(e) for e in st.event_history()],
                                [events.without_rule(e) for e in again.event_history()])):
        # Python's == takes true for 1: their JSON tells them apart (and keeps the maps' order, which
        # a rule's loop over a map follows)
        if mine != theirs or json.dumps(mine) != json.dumps(theirs):
            differ = ""
            if what == "variables":
                names = sorted(k for k in set(mine) | set(theirs)
                               if json.dumps(mine.get(k)) != json.dumps(theirs.get(k)))
                differ = " (" + ", ".join(names[:5]) + ")"
            raise SaveError(f"this save is not what its seed and its moves give: its {what} differ{differ}: "
                            f"{EDITED_HINT}")


def _short(exc: BaseException) -> str:
    """An error's message in one line (a rules error's first: where and what, without the source shown)."""
    text = str(exc).split("\n", 1)[0]
    return text if len(text) <= 200 else text[:197] + "..."


# ----------------------------------------------------------------------------- a save from anyone
MAX_DEPTH = 100  # lists in lists: far deeper than any game's data, far below Python's stack


def _check_values(st: State) -> None:
    """Every value the rules hold (of the language's kinds: check_shape) is nested at most MAX_DEPTH deep
    once its references are followed, and no list holds itself ($ref to its own place)."""
    roots = [("variable " + k, v) for k, v in st.vars.items()]
    roots += [(f"local {_short_repr(k)} of rule {f.proc}", v) for f in st.frames for k, v in f.locals.items()]
    if st.pending is not None:
        roots += [(f"an option of player {p}", o.value) for p, opts in st.pending.options.items() for o in opts]
        roots += [(f"the choice of player {p}", v) for p, v in st.pending.chosen.items()]
    done: set = set()
    for where, value in roots:
        todo = [(value, 0, False)]
        open_: set = set()  # the lists and maps being looked into: meeting one again is a cycle
        while todo:
            v, depth, leaving = todo.pop()
            if leaving:
                open_.discard(id(v))
                done.add(id(v))
                continue
            t = type(v)
            if t is not list and t is not dict:  # a scalar of the rules' kinds (check_shape)
                continue
            if id(v) in open_:
                raise SaveError(f"corrupt save: {where} holds itself")
            if id(v) in done:
                continue
            if depth >= MAX_DEPTH:
                raise SaveError(f"corrupt save: {where} is nested more than {MAX_DEPTH} deep")
            open_.add(id(v))
            if t is dict:  # a record or map the rules did not make: its values looked at (compare.Flatness)
                st.game.flatness.note(v)
            todo.append((v, depth, True))
            items = v if t is list else v.values()
            todo.extend((x, depth + 1, False) for x in items if type(x) is list or type(x) is dict)


def _short_repr(v) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_players(st: State) -> None:
    """What names a player names one of this game's, and the end is the machine's end."""
    n = st.game.player_count
    first = st.vars.get(FIRST_PLAYER)
    if FIRST_PLAYER in st.vars and (type(first) is not int or not 1 <= first <= n):
        raise SaveError(f"corrupt save: {FIRST_PLAYER} is {_short_repr(first)}, not a player from 1 to {n}")
    if st.winners is not None:
        if not all(type(p) is int and 1 <= p <= n for p in st.winners) or len(set(st.winners)) != len(st.winners):
            raise SaveError(f"corrupt save: the winners {_short_repr(st.winners)} are not players from 1 to {n}")
    over = bool(st.history) and st.history[0].get("event") == events.GAME_OVER["event"]
    if (st.status == "over") != over or st.status == "over" and (st.frames or st.pending is not None):
        raise SaveError("corrupt save: its status says the game is over, but its rules and events do not agree"
                        if st.status == "over" else "corrupt save: its events say the game is over, its status does not")
    # the step is shown to every player: one of the rules' own step labels, or the end ("game over")
    steps = {"game over"} if st.status == "over" else _step_labels(st.game.rules) | {"", None}  # "": none yet
    if st.step not in steps:
        raise SaveError(f"corrupt save: the step {_short_repr(st.step)} is no step of these rules"
                        + (" (the game is over: its step is 'game over')" if st.status == "over" else ""))


def _step_labels(rules) -> set:
    """The labels of the rules' 'step' statements."""
    found = rules.derived.get("step labels")
    if found is None:
        found = rules.derived["step labels"] = {n.label for n in ast.walk(rules.decls) if isinstance(n, ast.Step)}
    return found


def _ask_again(st: State) -> State:
    """The pending decision asked again from the rules: its options are never taken from the file. The
    saved options must be those the rules give (by their texts); the values are the rules' own. Choices
    already made in a simultaneous decision must be among the rebuilt options."""
    saved = st.pending
    if saved is None:
        return st
    asked = st.clone()
    try:
        asked.ask_again()
    except RulesError as exc:
        raise SaveError(f"corrupt save: its pending decision cannot be asked again: {_short(exc)}") from None
    pend = asked.pending
    texts = {p: [o.text for o in opts] for p, opts in saved.options.items()}
    if pend is None or {p: [o.text for o in opts] for p, opts in pend.options.items()} != texts:
        raise SaveError("corrupt save: its pending decision does not offer what the rules offer there")
    if asked.rng.getstate() != st.rng.getstate() or asked.history_len != st.history_len:
        raise SaveError("corrupt save: its pending decision draws or tells something when asked again")
    for p, value in saved.chosen.items():
        told = saved.texts.get(p)
        if told is None:  # an 'automatic' choice: the only option
            if len(pend.options[p]) != 1:
                raise SaveError(f"corrupt save: player {p}'s choice is not one the rules offer")
            pend.chosen[p] = pend.options[p][0].value
            continue
        found = [o for o in pend.options[p] if o.text == told[0]]
        if not found or not isinstance(told, list) or len(told) != 2:
            raise SaveError(f"corrupt save: player {p}'s choice is not one the rules offer")
        pend.chosen[p] = found[0].value
        pend.texts[p] = [found[0].text, found[0].shown]
    asked.drained, asked.moves_made = st.drained, st.moves_made
    return asked



def _restore_pending(pend) -> None:
    """Pending.options is an untyped dict: JSON turned its player keys into strings, cattrs left its options dicts."""
    pend.options = {int(p): [o if isinstance(o, Option) else Option(**o) for o in opts]
                    for p, opts in pend.options.items()}
    pend.chosen = {int(p): v for p, v in pend.chosen.items()}
    pend.texts = {int(p): [t, None] if isinstance(t, str) else None if t is None else list(t)
                  for p, t in pend.texts.items()}


def _restore_history(st: State, history) -> None:
    if st.drained > len(history):
        raise SaveError(f"corrupt save: state.drained: {st.drained} events drained of {len(history)}")
    st.history, st.history_len = None, 0
    try:
        for e in history:
            st.emit(e, events.letters(e))
    except RulesRuntimeError as exc:  # past the history's limits (bounds.py)
        raise ValueError(f"{exc.message} ({exc.hint.rsplit('(', 1)[-1]}") from None


def _check_revealed(st: State) -> None:
    g = st.game
    for entry in st.revealed:
        if not (isinstance(entry, list) and len(entry) == 3 and entry[0] in g.var_decls
                and isinstance(entry[1], int) and 0 <= entry[1] <= g.player_count
                and (entry[1] == 0 or entry[0] in g.player_vars)):
            raise SaveError(f"corrupt save: {_short_repr(entry)} is not a revealed variable")


def _restore_shared(st: State) -> None:
    """Decode the rules' data, then point every reference at the object it was saved from."""
    root = {"vars": {k: decode(v) for k, v in st.vars.items()},
            "locals": [decode(f.locals) for f in st.frames],
            "option": {}, "chosen": {}}
    if st.pending is not None:
        root["option"] = {p: [decode(o.value) for o in opts] for p, opts in st.pending.options.items()}
        root["chosen"] = {p: decode(v) for p, v in st.pending.chosen.items()}
    try:
        resolve(root, root)
    except (KeyError, IndexError, TypeError, ValueError):
        raise SaveError("corrupt save: a reference ($ref) leads to no value saved before it") from None
    st.vars = root["vars"]
    for frame, local in zip(st.frames, root["locals"]):
        frame.locals = local
    if st.pending is not None:
        for p, opts in st.pending.options.items():
            for o, value in zip(opts, root["option"][p]):
                o.value = value
        st.pending.chosen = root["chosen"]


def _check_vars_and_status(st: State) -> None:
    """The variables the rules declare, one value per player where they say so, and a state that can go on."""
    g = st.game
    missing, unknown = sorted(set(g.var_decls) - set(st.vars)), sorted(set(st.vars) - set(g.var_decls))
    if missing or unknown:
        raise SaveError("corrupt save: state.vars: " + "; ".join(
            part for part in (missing and f"missing variables {_names(missing)}",
                              unknown and f"unknown variables {_names(unknown)}") if part))
    for name in sorted(g.player_vars):
        value = st.vars[name]
        if not isinstance(value, list) or len(value) != g.player_count:
            got = f"got {len(value)}" if isinstance(value, list) else _got(value)
            raise SaveError(f"corrupt save: state.vars.{name}: a player variable, a list of one value for "
                            f"each of the {g.player_count} players ({got})")
    if st.status not in ("running", "scoring", "over"):
        raise SaveError(f"corrupt save: unknown status {st.status!r}")
    if st.status != "over" and (st.pending is None or not st.pending.waiting()):
        raise SaveError("corrupt save: the game is not over but nobody has a decision to make")


def _names(names: list) -> str:
    """The first few names of a list, for a message of one line."""
    shown = ", ".join(_short_repr(n) if not _NAME.fullmatch(n) else n for n in names[:5])
    return shown + (f" and {len(names) - 5} more" if len(names) > 5 else "")


def _check_frames(st: State) -> None:
    procs = st.game.procs
    if st.pending is not None and not st.frames:
        raise SaveError("corrupt save: a decision is pending but no rule is waiting for it")
    for f in st.frames:
        if f.proc not in procs:
            raise SaveError(f"corrupt save: no rule {f.proc!r}")
        if not 0 <= f.pc < len(procs[f.proc].code) or not isinstance(f.locals, dict):
            raise SaveError(f"corrupt save: no step {f.pc} in rule {f.proc!r}")
    if st.pending is not None:
        if st.frames[-1].pc == 0:  # the machine stops just after a decision: step 0 is before any
            raise SaveError(f"corrupt save: the rule {st.frames[-1].proc!r} waits for a decision at its "
                            "step 0, before any decision")
        for p, opts in st.pending.options.items():
            if not 1 <= p <= st.game.player_count:
                raise SaveError(f"corrupt save: no player {p}")
        for what, players in (("chosen", st.pending.chosen), ("texts", st.pending.texts)):
            if not set(players) <= set(st.pending.options):
                raise SaveError(f"corrupt save: state.pending.{what}: a player who has no options here")


# ----------------------------------------------------------------------------- the shape of a save
# Every field of a save, by type and shape, checked before any of it is used (so no field of the wrong
# type reaches the code that rebuilds a state): a refusal names the field's path ("state.vars: not a map
# of variable names (got a list)"). What the rules make of the values (a variable they declare, a player
# of the game, a step of theirs) is checked once the state is rebuilt (_check_* above).
_JSON_KINDS = {type(None): "null", bool: "true or false", int: "a number", float: "a number with a fraction",
               str: "text", list: "a list", dict: "a map"}
_NAME = re.compile(r"[A-Za-z_$][\w$]{0,39}")
MAX_PLAYER_DIGITS = 4  # a game has at most 1,000 players (limits.py): a player's key is a short number
MAX_PATH_SHOWN = 8  # the steps of a path a message names


def _got(value) -> str:
    kind = _JSON_KINDS.get(type(value))
    return f"got {kind}" if kind else f"got a {type(value).__name__}, which JSON has not"


def _where(path) -> str:
    """A field's path as a reader of the file finds it: state.frames[2].locals.hand (its first steps:
    a value nested deep is named by where it starts)."""
    out = ""
    for step in path[:MAX_PATH_SHOWN]:
        if type(step) is int:
            out += f"[{step}]"
        elif type(step) is str and _NAME.fullmatch(step):
            out += ("." if out else "") + step
        else:
            out += "[" + _short_repr(step) + "]"
    return (out or "the save") + ("..." if len(path) > MAX_PATH_SHOWN else "")


def _refuse(path, what: str):
    raise SaveError(f"corrupt save: {_where(path)}: {what}")


def _mapping(value, path, what: str = "a map") -> dict:
    if type(value) is not dict:
        _refuse(path, f"not {what} ({_got(value)})")
    return value


def _fields(value, path, fields: dict, required=(), what: str = "a map of fields") -> None:
    """A map of the named fields, each checked by its function; ``required`` ones present, none other."""
    _mapping(value, path, what)
    for name in required:
        if name not in value:
            _refuse(path, f"the field '{name}' is missing")
    for key, item in value.items():
        check = fields.get(key)
        if check is None:
            _refuse(path, f"unknown field {_short_repr(key)} (the fields here: {', '.join(fields)})")
        check(item, path + [key])


def _text(value, path) -> None:
    if type(value) is not str:
        _refuse(path, f"not text ({_got(value)})")


def _maybe_text(value, path) -> None:
    if value is not None and type(value) is not str:
        _refuse(path, f"neither text nor null ({_got(value)})")


def _yes_no(value, path) -> None:
    if type(value) is not bool:
        _refuse(path, f"not true or false ({_got(value)})")


def _count(value, path) -> None:
    if type(value) is not int or value < 0:
        _refuse(path, f"not a whole number from 0 ({_got(value) if type(value) is not int else value})")


def _number(value, path) -> None:
    if type(value) is not int:
        _refuse(path, f"not a whole number ({_got(value)})")


def _maybe(check):
    return lambda value, path: value is None or check(value, path)


def _list_of(check, what: str = "a list"):
    def checked(value, path):
        if type(value) is not list:
            _refuse(path, f"not {what} ({_got(value)})")
        for i, item in enumerate(value):
            check(item, path + [i])
    return checked


def _by_player(check):
    """A map keyed by players: JSON writes the numbers as text ("2"); a save made in Python has numbers."""
    def checked(value, path):
        _mapping(value, path, "a map of players")
        for key, item in value.items():
            if not (type(key) is int or type(key) is str and key.isascii() and key.isdigit()
                    and len(key) <= MAX_PLAYER_DIGITS):
                _refuse(path, f"the key {_short_repr(key)} is not a player's number")
            check(item, path + [key])
    return checked


_SCALARS = {int, str, bool, type(None)}  # the rules' values that hold no other


def _value(value, path) -> None:
    """A value the rules hold, as a save writes it (sharing.py): the language's kinds (no 1.5, NaN or
    Infinity: JSON has them, the rules do not), a map with text keys, {"$map": [[key, value], ...]} for
    one with other keys, and {"$ref": path} for a list or map written at another place first."""
    t = type(value)
    if t in _SCALARS:
        return  # numbers' digits: _check_json
    if t is list:
        if set(map(type, value)) <= _SCALARS:
            return  # a flat list (most are): in one look
        for i, item in enumerate(value):
            _value(item, path + [i])
    elif t is dict:
        if len(value) == 1 and "$ref" in value:
            ref = value["$ref"]
            if type(ref) is not list or not ref or not all(type(s) in (str, int) for s in ref):
                _refuse(path + ["$ref"], "a reference is the path of the place it repeats, a list of names "
                                         f"and numbers ({_short_repr(ref)})")
        elif len(value) == 1 and "$map" in value:
            pairs = value["$map"]
            if type(pairs) is not list:
                _refuse(path + ["$map"], f"not a list of [key, value] pairs ({_got(pairs)})")
            for i, pair in enumerate(pairs):
                if type(pair) is not list or len(pair) != 2 or type(pair[0]) not in (int, str, bool, type(None)):
                    _refuse(path + ["$map", i], f"{_short_repr(pair)} is not a [key, value] pair with a "
                                                "number, text, yes/no or none as its key")
                _value(pair[1], path + ["$map", i, 1])
        elif set(map(type, value)) == {str} and set(map(type, value.values())) <= _SCALARS:
            return  # a flat record or map with text keys
        else:
            for key, item in value.items():
                if type(key) is not str:
                    _refuse(path, f"the key {_short_repr(key)} is not text (a map with other keys is "
                                  "saved as {\"$map\": [[key, value], ...]})")
                _value(item, path + [key])
    else:
        _refuse(path, f"{_short_repr(value)} is not a value of the rules ({_got(value)})")


def _values_by_name(what: str):
    def checked(value, path):
        _mapping(value, path, f"a map of {what} names")
        for key, item in value.items():
            if type(key) is not str:
                _refuse(path, f"the key {_short_repr(key)} is not a {what} name")
            _value(item, path + [key])
    return checked


def _rng(value, path) -> None:
    """random.Random's state as JSON: [3, the 624 words and the place in them, the next gauss or null]."""
    if type(value) is not list or len(value) != 3:
        _refuse(path, f"not the generator's state, a list of 3 ({_got(value)})")
    version, words, gauss = value
    if version != 3 or type(version) is not int:
        _refuse(path + [0], f"the generator's version is 3, not {_short_repr(version)}")
    if type(words) is not list or len(words) != 625 or not all(type(w) is int and 0 <= w < 2 ** 32 for w in words):
        _refuse(path + [1], "not the generator's 625 numbers from 0 to 2^32 - 1")
    if not 0 <= words[-1] <= 624:
        _refuse(path + [1, 624], f"the generator's place is from 0 to 624, not {words[-1]}")
    if not (gauss is None or type(gauss) in (int, float) and math.isfinite(gauss)):
        _refuse(path + [2], f"neither a number nor null ({_got(gauss)})")


_OPTION = {"text": _text, "value": _value, "shown": _maybe_text}


def _told(value, path) -> None:
    """The move a player chose in a simultaneous decision: [text, what the others see or null], or null."""
    if value is None or type(value) is str:
        return
    if type(value) is not list or len(value) != 2 or type(value[0]) is not str \
            or not (value[1] is None or type(value[1]) is str):
        _refuse(path, f"not a move chosen, [text, text or null] ({_short_repr(value)})")


_PENDING = {"var": _text, "options": _by_player(_list_of(lambda v, p: _fields(v, p, _OPTION, ("text", "value")),
                                                          "a list of options")),
            "chosen": _by_player(_value), "simultaneous": _yes_no, "line": _count, "results": _text,
            "texts": _by_player(_told), "window": _yes_no}
_FRAME = {"proc": _text, "pc": _count, "locals": _values_by_name("local")}


def _event(value, path) -> None:
    """An event as events.py makes them: its kind, the rule that told it, who may read it; a move names its
    player and text. Other fields are the event's own (its texts and values: any JSON, see _check_json)."""
    _mapping(value, path, "an event (a map)")
    if "event" not in value:
        _refuse(path, "an event without its 'event' field")
    for key, check in (("event", _text), ("rule", _text), ("to", _maybe(_list_of(_number)))):
        if key in value:
            check(value[key], path + [key])
    if value["event"] == "move":
        for key, check in (("player", _number), ("move", _text)):
            if key not in value:
                _refuse(path, f"a move without its '{key}' field")
            check(value[key], path + [key])
        if "shown" in value:
            _text(value["shown"], path + ["shown"])


def _revealed(value, path) -> None:
    if type(value) is not list or len(value) != 3:
        _refuse(path, f"not a revealed variable, [name, player or 0, value] ({_short_repr(value)})")
    _text(value[0], path + [0])
    _number(value[1], path + [1])
    _value(value[2], path + [2])


_STATE = {"vars": _values_by_name("variable"), "frames": _list_of(lambda v, p: _fields(v, p, _FRAME, tuple(_FRAME))),
          "pending": _maybe(lambda v, p: _fields(v, p, _PENDING, ("var", "options"))), "rng": _rng,
          "status": _text, "winners": _maybe(_list_of(_number)), "step": _maybe_text, "moves_made": _count,
          "seed": _maybe(_number), "history_len": _count, "drained": _count,
          "revealed": _list_of(_revealed), "history": _list_of(_event)}
_OPTIONS = _values_by_name("option")
_SAVE = {"format": _text, "version": _number, "game": _text, "source": _text, "rules": _text,
         "fingerprint": _text, "players": _number, "options": lambda v, p: _check_options(v, p),
         "state": lambda v, p: _fields(v, p, _STATE, ("vars", "frames"))}


def _check_options(value, path) -> None:
    _mapping(value, path, "a map of option names")
    for key, item in value.items():
        if type(key) is not str or not (type(item) is str or type(item) is int):
            _refuse(path + [key] if type(key) is str else path, "an option is a name with a text or number value")


def check_shape(data) -> None:
    """Refuse a save any of whose fields is not of the type and shape a save writes (see above)."""
    _check_json(data)
    if "state" not in data:
        raise SaveError("corrupt save: it holds no game state")
    _fields(data, [], _SAVE, ("state",))


def _check_json(data) -> None:
    """Only what JSON holds (maps with text keys, lists, texts, numbers, true, false, null; in a save made
    in Python, players' numbers as keys), numbers within the rules' digits, nested at most a little more
    than the rules' values may be (the checks above may then recurse). Each place remembers its parent
    (a linked path, cheap to keep) to be named when it is refused."""
    todo = [(data, 0, None)]
    big = limits.BIG
    while todo:
        v, depth, at = todo.pop()
        if depth > MAX_DEPTH + 8:  # a value nested MAX_DEPTH deep in a local of a frame of the state
            _refuse(_path(at), f"nested more than {MAX_DEPTH} deep")
        if type(v) is dict:  # only maps and lists are looked into (the save itself is a map: load)
            items = v.items()
            for k in v:
                if type(k) is not str and type(k) is not int:
                    _refuse(_path(at), f"the key {_short_repr(k)} is neither text nor a number")
        else:
            kinds = set(map(type, v))
            if kinds <= _PLAIN and (int not in kinds or kinds == {int} and -big < min(v) and max(v) < big):
                continue  # no list or map in it, its numbers within the digits (the generator's 625 words)
            items = enumerate(v)
        for k, x in items:
            t = type(x)
            if t is int:
                if not -big < x < big:
                    _refuse(_path((at, k)), f"a number of more than {limits.DIGITS} digits")
            elif t is dict or t is list:
                todo.append((x, depth + 1, (at, k)))
            elif t not in _PLAIN:
                _refuse(_path((at, k)), f"{_short_repr(x)} is not JSON data ({_got(x)})")


_PLAIN = {int, str, bool, float, type(None)}  # what _check_json does not look into (a float: the checks above)


def _path(at) -> list:
    out = []
    while at is not None:
        at, step = at
        out.append(step)
    return out[::-1]
