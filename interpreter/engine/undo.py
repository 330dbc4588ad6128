"""Undo's log: what ``State.undo()`` and a failed move's rollback need, as python-chess keeps its move
stack beside the board.

Two visible stacks: ``moves``, every move applied atomically since the oldest checkpoint, as (the light
fields before it, player, place among the player's options), newest last; and ``checkpoints``, (place in
``moves``, a snapshots.take() before that move), one every ``CHECKPOINT_EVERY`` moves of the state's
class. The state before any move is its checkpoint's with the moves after it replayed. Not cloned, not
saved: each state keeps its own."""
from __future__ import annotations

from typing import Any

import attrs

from rulewright.interpreter.engine import snapshots

UNDO_KEPT = 1000  # the moves undo() can take back (its log holds at most about twice that)
# ... within this many bytes of checkpoints: a game whose state is large keeps fewer (each one is its
# whole state, marshalled; a shipped game's is a few kilobytes)
UNDO_BYTES = 64 << 20


@attrs.define(eq=False)
class UndoLog:
    moves: list = attrs.field(factory=list)
    checkpoints: list = attrs.field(factory=list)
    oldest: int = 0  # the first move undo() may take back
    blob_most: int = 0  # the bytes of the biggest checkpoint taken
    edited: bool = False  # the state was changed by hand: the next move takes a checkpoint anew
    # the generator, and its count of changes after the last move: drawn from, reseeded or replaced by
    # hand since, the next move needs a new checkpoint
    rng_seen: Any = None
    rng_changes: int = -1
    replay_cost: float = 0.0  # seconds the moves since the last checkpoint took
    after_undo: int = 0  # moves left that each take a checkpoint: undo()

    @property
    def undoable(self) -> int:
        """How many moves undo() can take back (the last UNDO_KEPT at most)."""
        return len(self.moves) - self.oldest if self.checkpoints else 0

    def checkpoint(self, st) -> None:
        """A snapshot of ``st`` now, before its next move (in place of one taken here before)."""
        checkpoints, place = self.checkpoints, len(self.moves)
        if checkpoints and checkpoints[-1][0] == place:
            checkpoints.pop()  # taken before a change by hand: this one takes its place
        snapshot = snapshots.take(st)
        checkpoints.append((place, snapshot))
        if type(snapshot) is snapshots.Snapshot and len(snapshot.blob) > self.blob_most:
            self.blob_most = len(snapshot.blob)
        # summed only when as many of the biggest checkpoint seen could pass the bound (a sum each move
        # made a long game whose variables were handed out, a checkpoint a move, quadratic)
        if len(checkpoints) * self.blob_most > UNDO_BYTES and blob_bytes(checkpoints) > UNDO_BYTES:
            self._forget_checkpoints()
        self.edited = st._vars_out
        self.rng_seen, self.rng_changes = st.rng, st.rng.changes
        self.replay_cost = 0.0

    def seen(self, rng) -> None:
        """The generator as it is after a move (or a checkpoint): a draw by hand from now on shows."""
        self.rng_seen, self.rng_changes = rng, rng.changes

    def keep_last(self) -> None:
        """Undo reaches back UNDO_KEPT moves at most: called once more moves are logged (State._apply_option
        logs each move itself: its light fields before, and which option of which player it was)."""
        self.oldest = len(self.moves) - UNDO_KEPT
        if self.oldest >= UNDO_KEPT:  # now and then, so the log's upkeep costs nothing a move
            self._forget_before_oldest()

    def back_to(self, st, place: int, light: tuple) -> None:
        """Make ``st`` the state before the move at ``place`` in ``moves`` (``light``: its light fields):
        the last checkpoint at or before it, with the moves from there to it replayed, each the same
        option of the same player."""
        checkpoints = self.checkpoints
        k = len(checkpoints) - 1
        while checkpoints[k][0] > place:
            k -= 1
        start, snapshot = checkpoints[k]
        del checkpoints[k + 1:]
        snapshots.restore(st, snapshot)
        try:
            for _light, p, i in self.moves[start:place]:
                st._choose(p, st.pending.options[p][i])
        except BaseException as exc:  # only a state changed by hand behind the engine's back gets here
            self.forget()
            if not isinstance(exc, Exception):
                raise  # Ctrl-C or no memory left, during the replay
            raise RuntimeError("internal error: the moves since the last checkpoint do not replay (was a "
                               "field other than 'vars' changed by hand?); undo is no longer possible") from exc
        del self.moves[place:]
        st.history, st.history_len, st.drained, st.drained_by = light
        st._legal = None
        self.seen(st.rng)

    def forget(self) -> None:
        """Nothing to take back: a move the log does not record came (the moves before it cannot be
        replayed)."""
        self.moves.clear()
        self.checkpoints.clear()
        self.oldest = 0

    def _forget_before_oldest(self) -> None:
        """Keep the log bounded: drop the checkpoints and moves older than the last checkpoint that undo()
        can still need."""
        checkpoints = self.checkpoints
        k = len(checkpoints) - 1
        while checkpoints[k][0] > self.oldest:
            k -= 1
        cut = checkpoints[k][0]
        del self.moves[:cut]
        self.checkpoints = [(place - cut, snapshot) for place, snapshot in checkpoints[k:]]
        self.oldest -= cut

    def _forget_checkpoints(self) -> None:
        """Keep the checkpoints within UNDO_BYTES: the oldest dropped (undo() then reaches less far back),
        the newest always kept."""
        checkpoints = self.checkpoints
        while len(checkpoints) > 1 and blob_bytes(checkpoints) > UNDO_BYTES:
            self.oldest = max(self.oldest, checkpoints[1][0])
            self._forget_before_oldest()
            checkpoints = self.checkpoints

    def follows(self, earlier: "UndoLog") -> None:
        """This log's moves and checkpoints after ``earlier``'s: a state that became another, which went
        on from a copy of it (explicit chance's replay of a move), can still take back what came before."""
        n = len(earlier.moves)
        self.moves = earlier.moves + self.moves
        self.checkpoints = earlier.checkpoints + [(place + n, snapshot) for place, snapshot in self.checkpoints]
        self.oldest = earlier.oldest


def blob_bytes(checkpoints: list) -> int:
    """The bytes of the marshalled checkpoints (a slow copy's are not known: counted as none)."""
    return sum(len(snapshot.blob) for _place, snapshot in checkpoints if type(snapshot) is snapshots.Snapshot)
