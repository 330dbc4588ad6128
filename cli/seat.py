"""A seat: what a client playing one player (``serve --as P``, and any later network table) may ask and
be told. The rule lives here, once; docs/cli.md ("Who may do what") gives the threat model.

The seed is the referee's. It deals every hidden card: a client that read it, chose it, or could take a
draw back and see it drawn again would know another player's hand and the deck. So a seat
- is never told the seed (nor where the server keeps its files, nor the inside of an engine error);
- plays only the game the table was opened with: it names no other game or file, player count,
  options or seed; and no two of its games have one seed (a game dealt again, played otherwise, would
  show the deck);
- cannot save (a save holds every secret), load (a save sets them all, the generator included) or undo
  (the generator goes back with the move: the next draw is one already seen);
- sees, and moves, as its player only (the state's views, events and legal moves for that player)."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import attrs

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
    def internal_error(exc: BaseException) -> str:
        """A failure of rulewright's own, told without its message (which may name a hidden value)."""
        return f"internal error ({type(exc).__name__}); please report it"
