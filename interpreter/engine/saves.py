"""Saves: the state as JSON through one cattrs converter, stamped with the rules it belongs to.

A save records two stamps of its rules: ``rules``, a digest of their text, and ``fingerprint``, a digest
of their meaning (the checked syntax tree without positions: comments and formatting do not change it).
A save loads as it is while the fingerprint is the same; when the rules' meaning changed, its seed and
its moves are played again on the new rules, and the first move they no longer allow is named."""
from __future__ import annotations

import hashlib
import marshal
import random
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
from rulewright.interpreter.engine.state import State
from rulewright.interpreter.engine.sharing import Encoder, decode, resolve
from rulewright.interpreter.shipped import shipped_games

FORMAT = "rulewright-save"
VERSION = 1

converter = cattrs.Converter()
converter.register_unstructure_hook(random.Random, lambda r: _rng_to_list(r.getstate()))
converter.register_structure_hook(random.Random, lambda data, _: _rng_from_list(data))
# The event history is a linked list shared between clones; a save writes it as a list, oldest first.
converter.register_unstructure_hook(
    State, make_dict_unstructure_fn(State, converter, game=override(omit=True), history=override(omit=True),
                                    _legal=override(omit=True), drained_by=override(omit=True),
                                    _work_left=override(omit=True), _steps_left=override(omit=True),
                                    _held_most=override(omit=True), _vars=override(rename="vars")))
converter.register_structure_hook(
    State, make_dict_structure_fn(State, converter, game=override(omit=True), history=override(omit=True),
                                  _legal=override(omit=True), drained_by=override(omit=True),
                                  _work_left=override(omit=True), _steps_left=override(omit=True),
                                  _held_most=override(omit=True), _vars=override(rename="vars")))


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


def restore(game, data, verify: bool = True) -> State:
    """Rebuild a state saved by ``save``; refuse a save of other rules, players or options, and (with
    ``verify``) one that its seed and its moves do not give when played again. A save of an earlier
    version of the same rules is played again on these (see load)."""
    return load(game, data, verify).state


def load(game, data, verify: bool = True, force: bool = False) -> Loaded:
    """``restore``, saying what changed: a save whose rules differ from ``game``'s only in comments and
    formatting loads as it is; one whose rules' meaning changed is played again from its seed, move by
    move, and refused at the first move the new rules do not allow (``force``: loaded at that point,
    and a save of a differently named game is played again too)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("not a rulewright save file")
    if data.get("version") != VERSION:
        raise SaveError(f"save format version {data.get('version')!r} is not supported (expected {VERSION})")
    g = game.compiled
    changed = data.get("rules") != g.digest and data.get("fingerprint") != fingerprint(g.rules)
    if changed and data.get("game") != g.name and not force:
        raise SaveError(f"this save belongs to other rules ({_quote(data.get('game'))}, rules "
                        f"{data.get('rules')}), not to '{g.name}' (rules {g.digest})")
    if data.get("players") != g.player_count or data.get("options") != g.options:
        raise SaveError(f"this save is for {_setup(data.get('players'), data.get('options'))}, "
                        f"not {_setup(g.player_count, g.options)}")
    if changed:
        return _replay_on_changed_rules(game, data, force)
    return Loaded(_restore(game, data, verify))


def _setup(players, options) -> str:
    """'2 players with length=short' (no Python repr in a message)."""
    if not isinstance(options, dict):
        return f"{players} players with options {_quote(options)}"
    shown = ", ".join(f"{k}={v}" for k, v in options.items())
    return f"{players} players" + (f" with {shown}" if shown else " without options")


def _quote(value) -> str:
    return f"'{value}'" if isinstance(value, str) else str(value)


def _replay_on_changed_rules(game, data, force: bool) -> Loaded:
    """The save's seed and moves played on ``game``'s rules, which changed since the save was made."""
    state_data = data.get("state")
    if not isinstance(state_data, dict):
        raise SaveError("corrupt save: it holds no game state")
    seed, history = state_data.get("seed"), state_data.get("history", [])
    if type(seed) is not int or not isinstance(history, list) or not all(_is_event(e) for e in history):
        raise SaveError("the rules changed since this save was made, and it holds no seed and moves to "
                        "play again on the new rules")
    moves = [(e["player"], e["move"]) for e in history if e["event"] == "move"]
    pending = state_data.get("pending")
    if isinstance(pending, dict) and isinstance(pending.get("texts"), dict):
        moves += [(int(p), told[0] if isinstance(told, list) else told)
                  for p, told in pending["texts"].items() if told and str(p).isdigit()]
    st = game.new_state(seed=seed)
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
                                        "(in Python: saves.load(game, data, force=True))") from None
            return Loaded(st, f"{where}; loaded before that move (--force)")
    return Loaded(st, f"the rules changed since this save was made: its {total} "
                      f"move{'' if total == 1 else 's'} were played again on the new rules")


def _restore(game, data, verify: bool) -> State:
    g = game.compiled
    if not isinstance(data.get("state"), dict):
        raise SaveError("corrupt save: it holds no game state")
    try:
        # a copy: the game must never share lists with the caller's data
        state_data = marshal.loads(marshal.dumps(data["state"]))  # JSON data: marshal copies it in C
        history = state_data.pop("history", [])
        st = converter.structure(state_data, State)
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
        _check_replay(game, st)
    return st


EDITED_HINT = ("it was edited, or made from a position set by hand; to load it anyway, use "
               "load_state(data, verify=False) (on the command line, --unverified)")


def _check_replay(game, st: State) -> None:
    """A save is its seed and its moves: played again from the seed, the moves of its history (and the
    choices already made in a simultaneous decision) must give the very state saved. Anything edited
    by hand (a card added, a score, a choice's value, the generator) shows as a difference."""
    if st.seed is None:
        return  # a save made before games kept their seed: nothing to play again
    again = game.new_state(seed=st.seed)
    moves = [(e["player"], e["move"]) for e in st.event_history() if e["event"] == "move"]
    if st.pending is not None:
        moves += [(p, told[0]) for p, told in st.pending.texts.items() if told is not None]
    try:
        for player, text in moves:
            again.apply(text, player=player, atomic=False)
    except (RulesError, IllegalMoveError) as exc:
        raise SaveError(f"this save's moves do not play from its seed ({_short(str(exc))}): {EDITED_HINT}") from None
    for what, mine, theirs in (("variables", st._vars, again._vars), ("status", st.status, again.status),
                               ("winners", st.winners, again.winners), ("reveals", st.revealed, again.revealed),
                               ("generator", st.rng.getstate(), again.rng.getstate()),
                               ("running rules", [(f.proc, f.pc, f.locals) for f in st.frames],
                                [(f.proc, f.pc, f.locals) for f in again.frames]),
                               # the same events, whatever line their rules stand on (comments may move them)
                               ("events", [events.without_rule(e) for e in st.event_history()],
                                [events.without_rule(e) for e in again.event_history()])):
        if mine != theirs:
            differ = ""
            if what == "variables":
                names = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
                differ = " (" + ", ".join(names[:5]) + ")"
            raise SaveError(f"this save is not what its seed and its moves give: its {what} differ{differ}: "
                            f"{EDITED_HINT}")


def _short(exc: BaseException) -> str:
    text = str(exc)
    return text if len(text) <= 200 else text[:197] + "..."


# ----------------------------------------------------------------------------- a save from anyone
_SCALARS = (int, str, bool, type(None))
MAX_DEPTH = 100  # lists in lists: far deeper than any game's data, far below Python's stack


def _check_values(st: State) -> None:
    """Every value the rules hold is one of the language's kinds (no 1.5, NaN or Infinity: JSON has them,
    the rules do not), nested at most MAX_DEPTH deep, and no list holds itself ($ref to its own place)."""
    roots = [("variable " + k, v) for k, v in st.vars.items()]
    roots += [(f"local {k} of rule {f.proc}", v) for f in st.frames for k, v in f.locals.items()]
    if st.pending is not None:
        roots += [(f"an option of player {p}", o.value) for p, opts in st.pending.options.items() for o in opts]
        roots += [(f"the choice of player {p}", v) for p, v in st.pending.chosen.items()]
        for p, opts in st.pending.options.items():
            for o in opts:
                if type(o.text) is not str or not (o.shown is None or type(o.shown) is str):
                    raise SaveError(f"corrupt save: an option of player {p} has no text")
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
            if t in _SCALARS:
                if t is int and not -limits.BIG < v < limits.BIG:
                    raise SaveError(f"corrupt save: {where} holds a number of more than {limits.DIGITS} digits")
                continue
            if t is not list and t is not dict:
                raise SaveError(f"corrupt save: {where} holds {_short_repr(v)}, which is not a value of the rules")
            if id(v) in open_:
                raise SaveError(f"corrupt save: {where} holds itself")
            if id(v) in done:
                continue
            if depth >= MAX_DEPTH:
                raise SaveError(f"corrupt save: {where} is nested more than {MAX_DEPTH} deep")
            open_.add(id(v))
            todo.append((v, depth, True))
            items = v if t is list else v.values()
            if t is dict and not all(type(k) in _SCALARS for k in v):
                raise SaveError(f"corrupt save: {where} has a key that is not a value of the rules")
            todo.extend((x, depth + 1, False) for x in items)


def _short_repr(v) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_players(st: State) -> None:
    """What names a player names one of this game's, and the end is the machine's end."""
    n = st.game.player_count
    first = st.vars.get("first_player")
    if "first_player" in st.vars and (type(first) is not int or not 1 <= first <= n):
        raise SaveError(f"corrupt save: first_player is {_short_repr(first)}, not a player from 1 to {n}")
    if st.winners is not None:
        if not all(type(p) is int and 1 <= p <= n for p in st.winners) or len(set(st.winners)) != len(st.winners):
            raise SaveError(f"corrupt save: the winners {_short_repr(st.winners)} are not players from 1 to {n}")
    over = bool(st.history) and st.history[0].get("event") == events.GAME_OVER["event"]
    if (st.status == "over") != over or st.status == "over" and (st.frames or st.pending is not None):
        raise SaveError("corrupt save: its status says the game is over, but its rules and events do not agree"
                        if st.status == "over" else "corrupt save: its events say the game is over, its status does not")
    if type(st.moves_made) is not int or st.moves_made < 0:
        raise SaveError("corrupt save: its count of moves is not valid")
    # the step is shown to every player: one of the rules' own step labels, or the end ("game over")
    steps = {"game over"} if st.status == "over" else _step_labels(st.game.rules) | {"", None}  # "": none yet
    if not (st.step is None or type(st.step) is str) or st.step not in steps:
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
    if not isinstance(history, list) or not all(_is_event(e) for e in history):
        raise ValueError("its event history is not a list of events")
    if not 0 <= st.drained <= len(history):
        raise ValueError(f"{st.drained} events drained of {len(history)}")
    st.history, st.history_len = None, 0
    try:
        for e in history:
            st.emit(e)
    except RulesRuntimeError as exc:  # past the history's limits (bounds.py)
        raise ValueError(f"{exc.message} ({exc.hint.rsplit('(', 1)[-1]}") from None


def _is_event(e) -> bool:
    """An event as events.py makes them: a move names its player and text, a log's readers are players,
    a rule is a text (a save made before events named their rules has none)."""
    if not isinstance(e, dict) or not isinstance(e.get("event"), str) or not isinstance(e.get("rule", ""), str):
        return False
    if e["event"] == "move" and not (isinstance(e.get("player"), int) and isinstance(e.get("move"), str)
                                     and isinstance(e.get("shown", ""), str)):
        return False
    to = e.get("to")
    return to is None or (isinstance(to, list) and all(isinstance(p, int) for p in to))


def _check_revealed(st: State) -> None:
    g = st.game
    for entry in st.revealed:
        if not (isinstance(entry, list) and len(entry) == 3 and entry[0] in g.var_decls
                and isinstance(entry[1], int) and 0 <= entry[1] <= g.player_count
                and (entry[1] == 0 or entry[0] in g.player_vars)):
            raise SaveError(f"corrupt save: {entry!r} is not a revealed variable")


def _restore_shared(st: State) -> None:
    """Decode the rules' data, then point every reference at the object it was saved from."""
    root = {"vars": {k: decode(v) for k, v in st.vars.items()},
            "locals": [decode(f.locals) for f in st.frames],
            "option": {}, "chosen": {}}
    if st.pending is not None:
        root["option"] = {p: [decode(o.value) for o in opts] for p, opts in st.pending.options.items()}
        root["chosen"] = {p: decode(v) for p, v in st.pending.chosen.items()}
    resolve(root, root)
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
        raise SaveError("corrupt save: " + "; ".join(
            part for part in (missing and f"missing variables {', '.join(missing)}",
                              unknown and f"unknown variables {', '.join(unknown)}") if part))
    for name in sorted(g.player_vars):
        if not isinstance(st.vars[name], list) or len(st.vars[name]) != g.player_count:
            raise SaveError(f"corrupt save: '{name}' must hold one value for each of the {g.player_count} players")
    if st.status not in ("running", "scoring", "over"):
        raise SaveError(f"corrupt save: unknown status {st.status!r}")
    if st.status != "over" and (st.pending is None or not st.pending.waiting()):
        raise SaveError("corrupt save: the game is not over but nobody has a decision to make")


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
        for p, opts in st.pending.options.items():
            if not 1 <= p <= st.game.player_count:
                raise SaveError(f"corrupt save: no player {p}")
