"""Balance statistics: what many recorded games of one rules file say about its balance.

A recorded game is a game played by agents whose events are tallied as it runs (``play_recorded``): by
event kind, by the move text's first word, by the rule that made the event, and by the table keys (the
rows of the rules' tables) the event names. ``analyze`` turns the games into one report, a dict: win
rate per seat and the first player's, each with a Wilson confidence interval, game length and scores,
and how often each rule and each table key fires; ``differences`` says how two reports differ. Nothing
here prints: the command line shows and writes the reports (cli/report.py).

Which rule made an event, the event says itself (events.py: ``rule``, the file and line of its
statement, or of a move's decision). A report's rows are the rules' statements that make events: every
``log``, ``reveal`` and decision, a decision's ``optional`` decline, and each course of action of a
``choose:`` block; which of a decision's rows a move counts in, the value chosen says. Which table keys
an event names, its values say, never its text: a move's value chosen, and the values a log's or a
reveal's text was made from, which the game compiled for the tally carries beside the text
(``_NotingGame``: the same moves, draws and texts as the game's). The tally reads the referee's
events; a report is for the rules' author, and is made from many finished games, never shown to a
player during one.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter
from pathlib import Path
from typing import Optional

from rulewright.dsl import ast
from rulewright.interpreter.check.symbols import symbols
from rulewright.interpreter.api import Game
from rulewright.interpreter.compile.compiler import CompiledGame
from rulewright.interpreter.engine import events
from rulewright.interpreter.engine.values import texts_held
from rulewright.interpreter.engine.builtin_names import ROUND_NUMBER

Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval
UNMATCHED = "(no rule matched)"


# ----------------------------------------------------------------------------------------- the agents
def seat_agents(spec: Optional[str], players: int, seed: int) -> list:
    """One agent per seat from a spec such as ``random``, ``first,random`` or ``mcts:iterations=50,random``
    (one agent for every seat, or one per seat; agents.py parses it). Each seat gets its own agent and
    generator, fixed by the seed."""
    from rulewright.interpreter.play.agents import AGENTS, AgentSpecError, RandomAgent, parse_spec
    if spec is None:  # simulate's agent: one random agent for every seat, seeded with the game's seed
        agent = RandomAgent(seed)
        return [agent] * players
    try:
        parsed = parse_spec(spec)
    except AgentSpecError as exc:
        raise ValueError(str(exc)) from None
    if len(parsed) == 1:
        parsed = parsed * players
    if len(parsed) != players:
        raise ValueError(f"--agents names {len(parsed)} agents for {players} seats; name one for every seat, "
                         f"or one for all")
    return [AGENTS[name](seed * 101 + seat, **params) for seat, (name, params) in enumerate(parsed, 1)]


def check_agents(spec: Optional[str], players: int) -> None:
    """Raise ValueError for a spec ``seat_agents`` would refuse (before any game is played)."""
    seat_agents(spec, players, 0)


# ----------------------------------------------------------------------------------------- the rules
_ANY = object()  # a decision's row that takes whatever option was chosen (but a decline that has its own)


class Rule:
    """A statement that makes events: its kind of event, its text's shape, where it is (``file``:``line``,
    shown), the event rule that leads to it (``place``) and, for a move, the value it stands for."""

    def __init__(self, kind: str, shape: tuple, where: str, source: str, node, place: str, answer=_ANY):
        self.kind, self.shape, self.place, self.answer = kind, shape, place, answer
        self.label = f"{where}: {source}"
        self.line, self.file = node.span.line, Path(node.span.file).name


def _shape(text) -> tuple:
    """The texts a template can make: its letters, holes as None (two statements of one shape make the
    same texts); no template at all is one hole."""
    if isinstance(text, ast.Template):
        parts = text.parts
    elif isinstance(text, ast.Literal) and isinstance(text.value, str):
        parts = (text.value,)
    elif isinstance(text, str):
        parts = (text,)
    else:
        parts = (None,)
    shape: list = []
    for p in parts:
        if not isinstance(p, str):
            shape.append(None)
        elif shape and isinstance(shape[-1], str):
            shape[-1] += p
        elif p:
            shape.append(p)
    return tuple(shape) or (None,)


def _rules_of(rules: ast.RulesFile) -> list[Rule]:
    """Every statement of the rules that makes an event, with the block or procedure (and step) it is in."""
    found: list[Rule] = []
    labels: set = set()

    def add(kind, text, where, node, place, answer=_ANY, note=""):
        source = " ".join(rules.source_line(node.span).split()) + note
        rule = Rule(kind, _shape(text), where, source, node, place, answer)
        if rule.label in labels:  # the same statement written twice in one place: the line tells them apart
            rule.label += f" (line {rule.line})"
        labels.add(rule.label)
        found.append(rule)

    def visit(body, where):
        for s in body:
            here = f"{where} > {s.label}" if isinstance(s, ast.Step) else where
            place = events.place(s.span)
            if isinstance(s, ast.Log):
                add("log", s.message, where, s, place)
            elif isinstance(s, ast.Reveal):
                add("reveal", s.text, where, s, place)
            elif isinstance(s, (ast.Choose, ast.ChooseEach)):
                choice = s.choice if isinstance(s, ast.ChooseEach) else s
                add("move", choice.text, where, s, place)
                if choice.optional is not None:  # a decline's value is none
                    add("move", choice.optional, where, s, place, None, "  [declined]")
            elif isinstance(s, ast.ChooseBlock):
                for alt in s.alternatives:  # an alternative's value is its label
                    add("move", alt.label, where, alt, place, alt.label)
            for inner in ast.blocks_of(s):
                visit(inner, here)

    sym = symbols(rules)
    for kind, block in sym.blocks.items():
        visit(block.body, kind)
    for name, proc in sym.procs.items():
        visit(proc.body, f"procedure {name}")
    return found


class Tally:
    """Counts one game's events; built once per rules file (``tally_for``) and reset for each game."""

    def __init__(self, rules: ast.RulesFile):
        self.rules = _rules_of(rules)
        # Statements of the same shape make the same texts: one row for them all, under the first
        self.row = list(range(len(self.rules)))
        same: dict = {}
        for i, r in enumerate(self.rules):
            same.setdefault((r.kind, r.shape), []).append(i)
        for first, *others in same.values():
            if others:
                also = ", ".join(f"{self.rules[i].file}:{self.rules[i].line}" for i in others)
                self.rules[first].label += f" (and the same text at {also})"
            for i in others:
                self.row[i] = first
        self.at: dict = {}  # (kind, the event's rule) -> the rules there, in file order
        for i, r in enumerate(self.rules):
            self.at.setdefault((r.kind, r.place), []).append(i)
        keys = {}
        for table in symbols(rules).tables.values():
            for row in table.rows:
                first = row.values[0] if row.values else None
                key = first.id if isinstance(first, ast.Name) else first.value if isinstance(first, ast.Literal) else None
                if isinstance(key, str) and key.strip():
                    keys.setdefault(key, table.name)
        self.key_table = keys

    def _rule(self, kind: str, place, answer) -> int:
        """The row of the rule at ``place`` (the event's own rule); for a move, the one standing for the
        value chosen. -1 for none."""
        found = -1
        for i in self.at.get((kind, place), ()):
            want = self.rules[i].answer
            if want is _ANY:
                found = i if found < 0 else found
            elif want == answer:  # a decline stands for none, an alternative of a 'choose:' block for its label
                found = i
                break
        return self.row[found] if found >= 0 else -1

    def _keys_in(self, value) -> list:
        """The table keys ``value`` is or holds (values.texts_held), as many times as it holds them."""
        keys = self.key_table
        return [v for v in texts_held(value) if v in keys]

    def count(self, evts: list, into: dict, chosen: dict) -> None:
        """Count ``evts`` into ``into``; ``chosen``: each player's last value chosen (a move's)."""
        for e in evts:
            kind = e["event"]
            into["kind"][kind] += 1
            if kind == "move":
                into["head"][e["move"].split(" ", 1)[0]] += 1
                answer = named = chosen.get(e["player"], _ANY)
            elif kind in ("log", "reveal"):
                answer, named = _ANY, e.get("values")
            else:
                continue
            into["rule"][self._rule(kind, e.get("rule"), answer)] += 1
            if named is not _ANY:
                for k in self._keys_in(named):
                    into["card"][k] += 1


_tallies: dict = {}  # id(rules) -> (rules, Tally): one per rules file and process
_noting: dict = {}  # id(game) -> (game, the same game compiled to note its events' values)


class _NotingGame(CompiledGame):
    """The game compiled so that each log and reveal carries the values its text was made from: what
    an event names is read there, never from its text. The same moves, draws and texts as the game's."""
    notes_values = True


def noting(game) -> Game:
    """``game`` compiled once (per process) as a ``_NotingGame``."""
    known = _noting.get(id(game))
    if known is None or known[0] is not game:
        known = _noting[id(game)] = (game, Game(game.rules, game.player_count, game.options, compiler=_NotingGame))
    return known[1]


def tally_for(game) -> Tally:
    known = _tallies.get(id(game.rules))
    if known is None or known[0] is not game.rules:
        known = _tallies[id(game.rules)] = (game.rules, Tally(game.rules))
    return known[1]


# ----------------------------------------------------------------------------------------- playing
def play_recorded(game, seed: int, max_decisions: int, agents: Optional[str] = None, by_seat: bool = False) -> dict:
    """One game with seed ``seed``, agents per seat (None: simulate's random agent), its events tallied.
    The result has simulate's keys (seed, decisions, outcome, or error) and: who decided first, the
    rounds played and the tally. Without ``agents`` the moves are simulate's, move for move. ``by_seat``:
    also each seat's own moves tallied apart ("seats": the rules and table keys of the moves a seat made,
    which the manual's notes on winners read)."""
    from rulewright.dsl.errors import RulesError
    tally = tally_for(game)
    # "card": the table keys named (the category's name in report.json and fires.csv, kept for their readers)
    counts = {"kind": Counter(), "head": Counter(), "rule": Counter(), "card": Counter()}
    chosen: dict = {}  # player -> the value of their last move (told in the events when all have chosen)
    seats_counts: dict = {}  # player -> the tally of their own moves (by_seat)
    first = None
    made = 0
    try:
        state = noting(game).new_state(seed=seed)
        seats = seat_agents(agents, game.player_count, seed)
        tally.count(state.drain_events(), counts, chosen)
        while not state.is_over() and made < max_decisions:
            player = state.to_move()[0]
            first = player if first is None else first
            move = seats[player - 1].choose(state, player)
            # a move's text is unique among its player's options (the engine numbers any twin)
            chosen[player] = next(o.value for o in state.pending.options[player] if o.text == move.text)
            state.apply(move, player=player, atomic=False)
            made += 1
            made_events = state.drain_events()
            tally.count(made_events, counts, chosen)
            if by_seat:
                for e in made_events:
                    if e["event"] == "move":
                        own = seats_counts.setdefault(e["player"], {"kind": Counter(), "head": Counter(),
                                                                    "rule": Counter(), "card": Counter()})
                        tally.count([e], own, chosen)
        outcome = state.outcome().to_dict() if state.is_over() else None
    except RulesError as exc:  # sent back as text, as simulate does
        return {"seed": seed, "error": str(exc)}
    rounds = state.vars.get(ROUND_NUMBER)
    recorded = {"seed": seed, "decisions": made, "outcome": outcome, "first": first,
                "rounds": rounds if isinstance(rounds, int) else None,
                "tally": {k: dict(v) for k, v in counts.items()}}
    if by_seat:
        recorded["seats"] = {p: {k: dict(own[k]) for k in ("rule", "card")} for p, own in seats_counts.items()}
    return recorded


# ----------------------------------------------------------------------------------------- statistics
def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (sound near 0 and 1, unlike the normal one)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def two_proportion_p(k1: int, n1: int, k2: int, n2: int) -> Optional[float]:
    """The two-sided p-value that k1/n1 and k2/n2 are the same rate (pooled z test); None if undefined."""
    if not n1 or not n2:
        return None
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        return None if k1 / n1 == k2 / n2 else 0.0
    return math.erfc(abs(k1 / n1 - k2 / n2) / se / math.sqrt(2))


def rate(k: int, n: int) -> dict:
    low, high = wilson(k, n)
    return {"count": k, "rate": round(k / n, 4) if n else 0.0, "low": round(low, 4), "high": round(high, 4)}


def spread(values: list) -> Optional[dict]:
    """Mean, standard deviation and quantiles of a list of numbers (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)

    def q(f):
        return ordered[min(len(ordered) - 1, int(f * len(ordered)))]
    return {"n": len(values), "mean": round(statistics.fmean(values), 3),
            "sd": round(statistics.pstdev(values), 3), "min": ordered[0], "p10": q(0.1), "p25": q(0.25),
            "median": q(0.5), "p75": q(0.75), "p90": q(0.9), "max": ordered[-1]}


def analyze(game, results: list[dict], seed: int, agents: Optional[str] = None) -> dict:
    """The report of one set of recorded games (``play_recorded`` results) of ``game``."""
    seats = [str(p) for p in range(1, game.player_count + 1)]
    n = len(results)
    finished = [r for r in results if r.get("outcome") is not None]
    wins = Counter()
    draws = shared = first_wins = 0
    firsts = Counter()
    for r in finished:
        winners = r["outcome"]["winners"]
        if r["outcome"]["draw"]:
            draws += 1
        shared += len(winners) > 1
        for p in winners:
            wins[str(p)] += 1
        if r.get("first") is not None:
            firsts[str(r["first"])] += 1
            first_wins += r["first"] in winners and not r["outcome"]["draw"]
    scores = {p: [r["outcome"]["scores"][p] for r in finished if p in r["outcome"]["scores"]] for p in seats}
    tally = tally_for(game)
    decisions = sum(r.get("decisions", 0) for r in results)
    fires = {}
    for cat in ("kind", "head", "rule", "card"):
        total, games = Counter(), Counter()
        for r in results:
            for key, count in r.get("tally", {}).get(cat, {}).items():
                total[key] += count
                games[key] += 1
        rows = {}
        for key in sorted(total, key=lambda k: (-total[k], str(k))):
            label = key
            extra = {}
            if cat == "rule":
                rule = tally.rules[key] if key >= 0 else None
                label = rule.label if rule else UNMATCHED
                extra = {"file": rule.file, "line": rule.line} if rule else {}
            elif cat == "card":
                extra = {"table": tally.key_table.get(key, "")}
            rows[label] = {"total": total[key], "per_game": round(total[key] / n, 3) if n else 0.0,
                           "per_100_decisions": round(100 * total[key] / decisions, 3) if decisions else 0.0,
                           "games": games[key], **extra}
        fires[cat] = rows
    return {
        "game": game.name, "players": game.player_count, "options": dict(game.options),
        "agents": agents or "random", "seed": seed, "games": n, "finished": len(finished),
        "unfinished": n - len(finished), "draws": rate(draws, n), "shared_wins": shared,
        "wins": {p: rate(wins[p], n) for p in seats},
        "first_player": {**rate(first_wins, n), "fair": round(1 / game.player_count, 4),
                         "seats": {p: firsts[p] for p in seats}},
        "length": spread([r["decisions"] for r in results if "decisions" in r]),
        "rounds": spread([r["rounds"] for r in results if r.get("rounds") is not None]),
        "scores": {p: spread(v) for p, v in scores.items() if v},
        "fires": fires,
        # the raw figures the plots draw; not shown in the table
        "samples": {"length": [r["decisions"] for r in results if "decisions" in r],
                    "scores": {p: v for p, v in scores.items() if v}},
    }


def differences(a: dict, b: dict) -> dict:
    """How B differs from A: each seat's win rate and the first player's, with a p-value each."""
    out = {}
    for p in a["wins"]:
        if p in b["wins"]:
            x, y = a["wins"][p], b["wins"][p]
            out[f"seat {p}"] = {"change": round(y["rate"] - x["rate"], 4),
                                "p": _round(two_proportion_p(x["count"], a["games"], y["count"], b["games"]))}
    x, y = a["first_player"], b["first_player"]
    out["first player"] = {"change": round(y["rate"] - x["rate"], 4),
                           "p": _round(two_proportion_p(x["count"], a["games"], y["count"], b["games"]))}
    x, y = a["draws"], b["draws"]
    out["draws"] = {"change": round(y["rate"] - x["rate"], 4),
                    "p": _round(two_proportion_p(x["count"], a["games"], y["count"], b["games"]))}
    return out


def _round(p):
    return None if p is None else round(p, 4)
