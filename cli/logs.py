"""Replayable logs: the rules, players, options and seed of a game and every move applied, in order.
Replaying re-applies the moves to a fresh state (or the save the game resumed from) and compares."""
from __future__ import annotations

from typing import Optional

import attrs

import rulewright
from rulewright.dsl.errors import IllegalMoveError, SaveError

FORMAT = "rulewright-log"
VERSION = 1


def make_log(session, moves: list[dict]) -> dict:
    st, game = session.state, session.game
    return {"format": FORMAT, "version": VERSION, "game": session.ref, "name": game.name,
            "rules": game.compiled.digest, "players": game.player_count, "options": dict(game.options),
            "seed": session.seed, "start": session.start, "moves": list(moves),
            "outcome": st.outcome().to_dict() if st.is_over() else None}


def check_log(data, path: str) -> dict:
    """Refuse anything that is not a log this module wrote, naming what is wrong."""
    def bad(why):
        return SaveError(f"{path}: not a valid rulewright log ({why})")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad("no 'format': 'rulewright-log' field")
    if data.get("version") != VERSION:
        raise bad(f"version {data.get('version')!r}, expected {VERSION}")
    for key, kind in (("game", str), ("players", int), ("options", dict), ("moves", list)):
        if not isinstance(data.get(key), kind):
            raise bad(f"'{key}' missing or not a {kind.__name__}")
    if data.get("seed") is not None and not isinstance(data["seed"], int):
        raise bad("'seed' is not an integer")
    if data.get("start") is not None and not isinstance(data["start"], dict):
        raise bad("'start' is not a save")
    if data.get("outcome") is not None and not isinstance(data["outcome"], dict):
        raise bad("'outcome' is not an object")
    for i, m in enumerate(data["moves"], 1):
        if not (isinstance(m, dict) and isinstance(m.get("player"), int) and isinstance(m.get("move"), str)):
            raise bad(f"move {i} is not {{'player': int, 'move': str}}")
    return data


@attrs.frozen
class Replay:
    ok: bool
    message: str
    moves: int
    rules_changed: bool = False


def log_rules(log: dict, log_path: str) -> str:
    """The rules a log names (see sandboxed_rules)."""
    return sandboxed_rules(log["game"], log_path, "log", "give the rules with --rules FILE")


def sandboxed_rules(name: str, file_path: str, what: str, otherwise: str) -> str:
    """The rules a log or a save names, sandboxed: it may come from anyone, so it names a shipped game or
    a .rules file in its own folder (or below it), never another file of the machine; other rules are
    given on the command line (``otherwise`` says how)."""
    from pathlib import Path
    from rulewright.interpreter.api import inside, shipped_games
    shipped = shipped_games()
    if name in shipped:
        return name
    folder = Path(file_path).resolve().parent
    path = Path(name)
    if path.suffix != ".rules":
        raise SaveError(f"{file_path}: the {what} names the game '{name}', which is neither a shipped game "
                        f"nor a .rules file; {otherwise}")
    if path.is_absolute():  # a file is recorded by its absolute path: accepted inside the file's folder
        resolved = path.resolve()
        if not resolved.is_relative_to(folder):
            raise SaveError(f"{file_path}: the {what}'s rules '{name}' are outside the {what}'s folder, so "
                            f"they are not read; {otherwise}")
        name = str(resolved.relative_to(folder))
    try:
        return str(inside(name, folder, f"the {what}'s folder"))
    except rulewright.RulesError as exc:
        raise SaveError(f"{file_path}: {exc}; {otherwise}") from None


def replay(log: dict, rules: str) -> Replay:
    """Replay ``log`` on ``rules`` (a shipped name or a path: see log_rules)."""
    game = rulewright.load(rules, players=log["players"], options=log["options"])
    changed = log.get("rules") not in (None, game.compiled.digest)
    state = game.load_state(log["start"]) if log.get("start") else game.new_state(seed=log.get("seed"))
    moves = log["moves"]

    def diverged(why):
        return Replay(False, why, len(moves), changed)
    for i, m in enumerate(moves, 1):
        what = f"move {i} (player {m['player']}: {m['move']!r})"
        if state.is_over():
            return diverged(f"diverged at {what}: the game was already over")
        try:
            state.apply(m["move"], player=m["player"])
        except IllegalMoveError as exc:
            return diverged(f"diverged at {what}: {exc}")
    recorded: Optional[dict] = log.get("outcome")
    if recorded is None:
        if state.is_over():
            return diverged(f"diverged after move {len(moves)}: the game ended, the log says it was unfinished")
        return Replay(True, f"reproduced {_moves(len(moves))} (the game was unfinished)", len(moves), changed)
    if not state.is_over():
        return diverged(f"diverged after move {len(moves)}: the log says the game ended, "
                        f"but player(s) {', '.join(map(str, state.to_move()))} still have a move")
    got = state.outcome().to_dict()
    if got != recorded:
        return diverged(f"diverged: the outcome is {describe_outcome(got)}; the log recorded "
                        f"{describe_outcome(recorded)}")
    return Replay(True, f"reproduced {_moves(len(moves))} and the outcome", len(moves), changed)


def describe_outcome(outcome: dict) -> str:
    """An outcome as Outcome.to_dict() gives it, in words: 'winners 1 (scores 1: 9, 2: 4)'."""
    def players(ps):
        return ", ".join(str(p) for p in ps) if isinstance(ps, list) else str(ps)
    if not isinstance(outcome, dict):
        return "not an outcome"
    head = "a draw" if outcome.get("draw") else f"winners {players(outcome.get('winners'))}"
    scores = outcome.get("scores")
    if isinstance(scores, dict) and scores:
        head += " (scores " + ", ".join(f"{p}: {s}" for p, s in scores.items()) + ")"
    ranking = outcome.get("ranking")
    if isinstance(ranking, list) and ranking:
        head += ", ranking " + " > ".join(players(g) for g in ranking)
    return head


def _moves(n: int) -> str:
    return f"{n} move" + ("" if n == 1 else "s")
