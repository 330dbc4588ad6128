"""What a game's manual shows of play (interpreter/present/manual.py writes it): the table at the start and at
a seeded mid-game position, an example turn from there (each move as the table sees it and the events it
made), and notes from self-play: the table keys (cards) and choices winners made most, the first seat's
advantage with its interval, the game's length; for a variant, its effect against its base.

Everything is seeded: the same seed and agents give the same manual. Every text here is what a player
watching the table sees (the spectator's view, events.seen_by): a secret move shows only its masked text,
a log written to one player is left out, and no prompt (the decider's alone) is shown.
"""
from __future__ import annotations

from collections import Counter
from typing import Optional

from rulewright.interpreter.play.balance import analyze, differences, seat_agents, tally_for
from rulewright.interpreter.engine.builtin_names import ROUND_NUMBER

SPECTATOR = 0  # no seat: sees what every player sees
EXAMPLE_MOVES_MOST = 12  # an example turn that goes on longer is cut here
TOP = 8  # rows of the tables of winners' cards and choices


def _play(game, seed: int, agents: Optional[str], until: Optional[int], max_decisions: int):
    """A seeded game, played by the agents until ``until`` decisions were made (None: to its end); with
    the agents, the decisions made and who made the last."""
    state = game.new_state(seed=seed)
    seats = seat_agents(agents, game.player_count, seed)
    made, last = 0, None
    while not state.is_over() and made < max_decisions and (until is None or made < until):
        last = state.to_move()[0]
        state.apply(seats[last - 1].choose(state, last), player=last, atomic=False)
        made += 1
    return state, seats, made, last


def positions(game, seed: int, agents: Optional[str] = None, max_decisions: int = 100_000,
              length: Optional[int] = None) -> dict:
    """The start, the mid-game position (half the length of the seeded game, moved on to where a turn
    begins: the player to move changes), and the example turn played from there. ``length``: the
    decisions of the whole seeded game, when known (balance.play_recorded plays the same moves)."""
    start = game.new_state(seed=seed)
    if length is None:
        length = _play(game, seed, agents, None, max_decisions)[2]
    state, seats, made, last = _play(game, seed, agents, length // 2, max_decisions)
    while not state.is_over() and last is not None and state.to_move()[0] == last:  # on to a new player's turn
        state.apply(seats[last - 1].choose(state, last), player=last, atomic=False)
        made += 1
    mid = state.clone()
    state.drain_events(SPECTATOR)
    moves = []
    mover = state.to_move()[0] if not state.is_over() else None
    while not state.is_over() and state.to_move()[0] == mover and len(moves) < EXAMPLE_MOVES_MOST:
        step, round_number = state.step, state.vars.get(ROUND_NUMBER)
        state.apply(seats[mover - 1].choose(state, mover), player=mover, atomic=False)
        seen = state.drain_events(SPECTATOR)
        shown = next((e["move"] for e in seen if e["event"] == "move" and e["player"] == mover), "")
        moves.append({"player": mover, "move": shown, "step": step, "round": round_number,
                      "events": [_event_text(e) for e in seen if not (e["event"] == "move" and e["player"] == mover
                                                                         and e["move"] == shown)]})
    return {"seed": seed, "length": length, "mid_decisions": made, "start": start, "mid": mid,
            "mid_round": mid.vars.get(ROUND_NUMBER), "mid_step": mid.step, "moves": moves,
            "cut": not state.is_over() and len(moves) == EXAMPLE_MOVES_MOST and state.to_move()[0] == mover}


def _event_text(e: dict) -> str:
    if e["event"] == "move":
        return f"player {e['player']}: {e['move']}"
    if e["event"] in ("log", "reveal"):
        return e["text"]
    return e["event"]


def notes(game, results: list[dict], seed: int, agents: Optional[str] = None) -> dict:
    """What self-play says (``results``: play_recorded's, with ``by_seat``): the balance report's
    figures, and the table keys and choices of winners' moves against the other players'."""
    report = analyze(game, results, seed, agents)
    tally = tally_for(game)
    made = {True: {"card": Counter(), "rule": Counter()}, False: {"card": Counter(), "rule": Counter()}}
    seats = Counter()  # (won?) -> seat-games
    for r in results:
        outcome = r.get("outcome")
        if outcome is None or outcome["draw"]:
            continue
        for p in range(1, game.player_count + 1):
            won = p in outcome["winners"]
            seats[won] += 1
            own = r.get("seats", {}).get(p, {})
            for kind in ("card", "rule"):
                made[won][kind].update(own.get(kind, {}))

    def rows(kind, label):
        keys = sorted(made[True][kind], key=lambda k: (-made[True][kind][k], str(k)))[:TOP]
        return [{"name": label(k), "winners": round(made[True][kind][k] / seats[True], 2) if seats[True] else 0.0,
                 "others": round(made[False][kind][k] / seats[False], 2) if seats[False] else 0.0} for k in keys]

    def rule_label(i):
        rule = tally.rules[i] if i >= 0 else None
        if rule is None:
            return ("(no rule matched)", "")
        if rule.shape == (None,):  # a decision whose move is its value's own text
            return ("(the value chosen)", f"{rule.file}:{rule.line}")
        text = "".join(p if p is not None else "…" for p in rule.shape)
        return (text, f"{rule.file}:{rule.line}")

    return {"games": report["games"], "finished": report["finished"], "agents": report["agents"],
            "seed": seed, "length": report["length"], "rounds": report["rounds"], "draws": report["draws"],
            "wins": report["wins"], "first_player": report["first_player"],
            "cards": [dict(r, table=tally.key_table.get(r["name"], "")) for r in rows("card", str)],
            "choices": [dict(r, name=r["name"][0], rule=r["name"][1]) for r in rows("rule", rule_label)],
            "report": report}


def effect(base: dict, variant: dict) -> dict:
    """A variant's measured effect against its base (two ``notes`` on the same seeds and agents)."""
    return {"base": {k: v for k, v in base.items() if k != "report"},
            "variant": {k: v for k, v in variant.items() if k != "report"},
            "differences": differences(base["report"], variant["report"])}
