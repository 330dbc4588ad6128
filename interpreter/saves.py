"""Saves: the state as JSON through one cattrs converter, stamped with the rules it belongs to."""
from __future__ import annotations

import marshal
import random

import cattrs
from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn, override

from rulewright.dsl.errors import SaveError
from rulewright.interpreter.machine import Option
from rulewright.interpreter.state import Generator, State
from rulewright.interpreter.sharing import Encoder, decode, resolve

FORMAT = "rulewright-save"
VERSION = 1

converter = cattrs.Converter()
converter.register_unstructure_hook(random.Random, lambda r: _rng_to_list(r.getstate()))
converter.register_structure_hook(random.Random, lambda data, _: _rng_from_list(data))
# The event history is a linked list shared between clones; a save writes it as a list, oldest first.
converter.register_unstructure_hook(
    State, make_dict_unstructure_fn(State, converter, game=override(omit=True), history=override(omit=True),
                                    _legal=override(omit=True), drained_by=override(omit=True)))
converter.register_structure_hook(
    State, make_dict_structure_fn(State, converter, game=override(omit=True), history=override(omit=True),
                                  _legal=override(omit=True), drained_by=override(omit=True)))


def _rng_to_list(state):
    version, internal, gauss = state
    return [version, list(internal), gauss]


def _rng_from_list(data):
    rng = Generator.__new__(Generator)  # not Generator(): that seeds from os.urandom first
    version, internal, gauss = data
    rng.setstate((version, tuple(internal), gauss))
    return rng


def save(st: State) -> dict:
    g = st.game
    data = converter.unstructure(st)
    # the rules' own data, in one pass so that what two places share stays shared (sharing.py)
    enc = Encoder()
    data["vars"] = {k: enc.encode(v, ["vars", k]) for k, v in st.vars.items()}
    for i, (frame, live) in enumerate(zip(data["frames"], st.frames)):
        frame["locals"] = {k: enc.encode(v, ["locals", i, k]) for k, v in live.locals.items()}
    if st.pending is not None:
        pend = data["pending"]
        pend["options"] = {p: [dict(o, value=enc.encode(live.value, ["option", p, j]))
                               for j, (o, live) in enumerate(zip(pend["options"][p], opts))]
                           for p, opts in st.pending.options.items()}
        pend["chosen"] = {p: enc.encode(v, ["chosen", p]) for p, v in st.pending.chosen.items()}
    data["history"] = st.event_history()
    return {"format": FORMAT, "version": VERSION, "game": g.name, "rules": g.digest,
            "players": g.player_count, "options": dict(g.options), "state": data}


def restore(game, data) -> State:
    """Rebuild a state saved by ``save``; refuse a save of other rules, players or options."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError("not a rulewright save file")
    if data.get("version") != VERSION:
        raise SaveError(f"save format version {data.get('version')!r} is not supported (expected {VERSION})")
    g = game.compiled
    if data.get("rules") != g.digest:
        raise SaveError(f"this save belongs to other rules ({data.get('game')!r}, rules {data.get('rules')}), "
                        f"not to {g.name!r} (rules {g.digest})")
    if data.get("players") != g.player_count or data.get("options") != g.options:
        raise SaveError(f"this save is for {data.get('players')} players with options {data.get('options')}, "
                        f"not {g.player_count} players with {g.options}")
    if not isinstance(data.get("state"), dict):
        raise SaveError("corrupt save: it holds no game state")
    try:
        # a copy: the game must never share lists with the caller's data
        state_data = marshal.loads(marshal.dumps(data["state"]))  # JSON data: marshal copies it in C
        history = state_data.pop("history", [])
        st = converter.structure(state_data, State)
        _restore_history(st, history)
        if st.pending is not None:
            _restore_pending(st.pending)
        _restore_shared(st)
    except cattrs.BaseValidationError as exc:  # say which fields: "required field missing @ $.frames"
        raise SaveError("corrupt save: " + "; ".join(cattrs.transform_error(exc, path="$"))) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SaveError(f"corrupt save: {exc}") from None
    st.game = g
    _check_frames(st)
    _check_revealed(st)
    _check_vars_and_status(st)
    return st


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
    for e in history:
        st.emit(e)


def _is_event(e) -> bool:
    """An event as events.py makes them: a move names its player and text, a log's readers are players."""
    if not isinstance(e, dict) or not isinstance(e.get("event"), str):
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
