"""A seat: what a client playing one player (``serve --as P``, and any later network table) may ask and
be told. The rule lives here, once; docs/cli.md ("Who may do what") gives the threat model.

The seed is the referee's. It deals every hidden card: a client that read it, chose it, or could take a
draw back and see it drawn again would know another player's hand and the deck. So a seat
- is never told the seed (nor where the server keeps its files, nor the inside of an engine error, nor
  the message of a rule that failed while running: it may name a hidden value);
- plays only the game the table was opened with: it names no other game or file, player count,
  options or seed; and no two of its games have one seed (a game dealt again, played otherwise, would
  show the deck);
- cannot save (a save holds every secret), load (a save sets them all, the generator included) or undo
  (the generator goes back with the move: the next draw is one already seen);
- sees, and moves, as its player only (the state's views, events and legal moves for that player)."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import attrs

from rulewright.dsl.errors import RulesRuntimeError

REFUSED = {
    "save": "a save holds every secret: a seated player cannot save",
    "load": "a save sets every secret, the seed included: a seated player cannot load one",
    "undo": "taking a move back takes its random draws back too, and they would come again, already "
            "seen: a seated player cannot undo",
}


class SeatRefusal(Exception):
    """A request a seated client may not make: the reply's error message."""


@attrs.define
class Seat:
    player: int
    table: dict  # what the table was opened with: game, players, options, seed (the referee's)
    games: int = 0  # games started at this seat

    def next_seed(self) -> int:
        """The seed of the seat's next game: with the table's seed S, game k (from 0) is dealt by S+k (the
        referee can play it again); without, a fresh one."""
        from rulewright.interpreter.api import fresh_seed
        self.games += 1
        return fresh_seed() if self.table["seed"] is None else self.table["seed"] + self.games - 1

    def check(self, cmd: str, request: dict) -> None:
        """Refuse a request this seat may not make (before it does anything)."""
        if cmd in REFUSED:
            raise SeatRefusal(REFUSED[cmd])
        if cmd == "new":
            if request.get("seed") is not None:
                raise SeatRefusal("the seed is the referee's: a seated player cannot choose it")
            for name in ("game", "players", "options"):
                if request.get(name) is not None and not self._same(name, request[name]):
                    raise SeatRefusal(f"a seated player plays the game this table offers: 'new' takes no "
                                      f"other '{name}' (send {{\"cmd\": \"new\"}} for a new game of it)")

    def _same(self, name: str, value) -> bool:
        offered = self.table[name]
        if name == "options" and isinstance(value, dict):
            return {k: str(v) for k, v in value.items()} == (offered or {})
        return value == offered

    def asks_for(self, player: Optional[int]) -> None:
        """Refuse another player's view, legal moves or move."""
        if player is not None and player != self.player:
            raise SeatRefusal(f"this session plays as player {self.player}: it sees no other player's view "
                              "or moves, and makes no other player's move")

    def started(self, reply: dict) -> dict:
        """What the seat is told of a game that starts: not the seed, and the rules by name, not path."""
        told = {k: v for k, v in reply.items() if k != "seed"}
        if "rules" in told:
            told["rules"] = Path(told["rules"]).name
        return told

    @staticmethod
    def explained(explanation: dict) -> dict:
        """A move's explanation as the seat is told it: the rules file by name, not path."""
        rule = explanation.get("rule")
        if rule is None:
            return explanation
        return {**explanation, "rule": {**rule, "file": Path(rule["file"]).name}}

    @staticmethod
    def rules_error(exc: BaseException, text: str) -> str:
        """A rules error as the seat is told it. A rule that fails while running may name a value the seat
        may not see (an item of a hidden deck, a rival's card in an index): the seat is told where the
        rules failed and that nothing changed, not the message (the server's operator gets it whole).
        Any other refusal (an illegal move, a wrong option) is about the seat's own request: told whole,
        with the server's paths cut to file names."""
        diagnostic = getattr(exc, "diagnostic", None)
        if isinstance(exc, RulesRuntimeError):
            sys.stderr.write(text.rstrip("\n") + "\n")
            if diagnostic is None:
                return "the rules failed: the request is refused and nothing changed"
            return (f"{Path(diagnostic.file).name}:{diagnostic.line}:{diagnostic.column}: the rules failed here: "
                    "the request is refused and nothing changed (the message may name what you may not see: "
                    "the server's operator has it)")
        for d in [diagnostic] + list(getattr(exc, "diagnostics", None) or ()):
            if d is not None and d.file and d.file != Path(d.file).name:
                text = text.replace(d.file, Path(d.file).name)
        return text

    @staticmethod
    def internal_error(exc: BaseException) -> str:
        """A failure of rulewright's own, told without its message (which may name a hidden value)."""
        return f"internal error ({type(exc).__name__}); please report it"
