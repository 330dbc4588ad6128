"""The names every game has without declaring them: the one table the checker, the type checker, the
compiler and the editor server read (as builtins.py is for the built-in functions)."""
from __future__ import annotations

from typing import Any, Callable, Optional

import attrs

from rulewright.interpreter.engine.kinds import LIST, NUMBER

CONSTANT = "constant"  # the same all game, from the number of players: declaring it again is refused
VARIABLE = "variable"  # a public game variable of every game: rules may set it, or declare it to start elsewhere
SPEAKER = "speaker"    # the player the rules speak for where they are read (whose turn it is, who observes)


@attrs.frozen
class BuiltinName:
    role: str           # CONSTANT | VARIABLE | SPEAKER
    kind: str           # the kind of its value (kinds.py)
    doc: str            # what it is, in a sentence's words
    start: Any = None   # a variable's value when the game begins
    # a constant's value for a number of players (the compiler's)
    of_players: Optional[Callable[[int], Any]] = None
    hint: str = ""      # a name no local may take: what it is, and a name to take instead

    @property
    def reserved(self) -> bool:
        """Whether no declaration nor local may take it (a variable may be declared, to start elsewhere)."""
        return self.role != VARIABLE


# Each name spelt once, here: code that speaks of one reads it from these (ROUND_NUMBER, never its
# spelling; tests/test_language_facts.py finds a spelling written elsewhere)
# in a variant: base(...) calls the replaced declaration's own version, base.NAME(...) that of NAME
BASE_CALL = "base"
PLAYERS, PLAYER_COUNT, ME, ROUND_NUMBER, FIRST_PLAYER = "players", "player_count", "me", "round_number", "first_player"

NAMES: dict[str, BuiltinName] = {
    PLAYERS: BuiltinName(CONSTANT, LIST, "the list of every player", of_players=lambda n: list(range(1, n + 1)),
                           hint="'players' is the list of every player; name the local 'group' or 'seats'"),
    PLAYER_COUNT: BuiltinName(CONSTANT, NUMBER, "how many play", of_players=lambda n: n,
                                hint="'player_count' is how many play; name the local 'n'"),
    ME: BuiltinName(SPEAKER, NUMBER, "the player the rules speak for",
                      hint="'me' is the player the rules speak for (whose turn it is, who observes); name the local "
                           "'p' or 'who'"),
    ROUND_NUMBER: BuiltinName(VARIABLE, NUMBER, "the round being played, from 1", start=1),
    FIRST_PLAYER: BuiltinName(VARIABLE, NUMBER, "the player who plays first in a round", start=1),
}

RESERVED = {name for name, entry in NAMES.items() if entry.reserved}
CONSTANTS = {name: entry for name, entry in NAMES.items() if entry.role == CONSTANT}
BUILTIN_VARS = {name: entry.start for name, entry in NAMES.items() if entry.role == VARIABLE}
