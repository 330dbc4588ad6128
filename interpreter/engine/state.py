"""A game in progress: plain data (variables, the machine's frames, a pending decision, the seeded
generator) plus the public methods of the Python API.

Beside it in the engine: snapshots.py (a state's data at one moment: undo's checkpoints and clones),
generator.py (the seeded generator), outcome.py (the result). What a state shows and how it is saved
belong to the layers above: functions of a state in present/ and interpreter/saves.py, which the API's
State (interpreter/state.py) offers as methods. This one works without them."""
from __future__ import annotations

import operator
import random
from time import perf_counter
from typing import Any, Optional

import attrs

from rulewright.dsl.errors import AmbiguousMoveError, IllegalMoveError, RulesRuntimeError
from rulewright.interpreter.engine import bounds, events, limits, machine, snapshots
from rulewright.interpreter.engine.generator import Generator, generator
from rulewright.interpreter.engine.machine import Frame, Option, Pending
from rulewright.interpreter.engine.outcome import Outcome, outcome_of
from rulewright.interpreter.engine.sharing import copy_shared
from rulewright.interpreter.engine.state_fields import CLONED, TAKEN
from rulewright.interpreter.engine import undo
from rulewright.interpreter.engine.undo import UNDO_KEPT, UndoLog

__all__ = ["State", "Move", "LegalTable", "Outcome", "Generator", "UNDO_KEPT"]


class Move(tuple):
    """One legal option: who decides, the canonical text a script types, and its number: its place in
    legal_moves(), counted from 1 like every move number (``apply(n)``, ``apply_action(n)``, the prompt's
    list), so ``state.apply(moves[k].index)`` applies ``moves[k]``.

    A tuple underneath: cheap to build, since a decision may offer hundreds of them. Moves are made
    only when someone asks for ``legal_moves()`` (``legal_actions()`` makes none), kept with their
    decision, and shared through a table of bounded size (_MOVES)."""
    __slots__ = ()

    def __new__(cls, player: int, text: str, index: int = 1):
        return tuple.__new__(cls, (player, text, index))

    player = property(operator.itemgetter(0))
    text = property(operator.itemgetter(1))
    index = property(operator.itemgetter(2))

    def __str__(self) -> str:
        return self[1]

    def __repr__(self) -> str:
        return f"Move(player={self[0]!r}, text={self[1]!r}, index={self[2]!r})"

    def __getnewargs__(self):  # pickling calls __new__ with these
        return tuple(self)


_new_move = tuple.__new__

# The same few moves recur in every game, so they are shared: the first _MOVES_KEPT made are kept and
# found again; past that a move is built afresh each time (a big board's moves do not churn the table).
_MOVES: dict = {}
_MOVES_KEPT = 20_000


@attrs.define(eq=False)
class LegalTable:
    """The pending decision's options as one player (or everyone) is offered them, gathered once and
    kept until the decision changes (State._legal_table). A state fills its own table anew at each
    decision (a new object each time cost a few hundredths of a quick game's move); one that a clone
    shares is never changed again, by either."""
    pending: Pending  # the decision (the same object: an equal one may hold other values)
    player: Optional[int]  # the player asked about (None: everyone)
    chosen: int  # how many had chosen then (a simultaneous decision)
    moves: Optional[list]  # their Moves, made for the first caller of legal_moves() (None: not yet)
    groups: list  # [(player, their options)...]
    options: list  # every option, in order: the move numbered n is options[n - 1]
    shared: bool = False  # held by a state and its clone


@attrs.define(eq=False)
class State:
    # the rules' variables by name (the ``vars`` property hands them out: see there)
    _vars: dict = attrs.field(alias="vars")
    frames: list[Frame]
    pending: Optional[Pending] = None
    rng: random.Random = attrs.field(factory=random.Random)
    status: str = "running"  # running | scoring | over
    winners: Optional[list[int]] = None
    step: str = ""
    moves_made: int = 0
    seed: Optional[int] = None  # the game's seed: with the moves in the history, the whole game
    game: Any = attrs.field(default=None, repr=False)
    # Every event so far, newest first, as linked pairs (event, older): clones share it for free.
    history: Optional[tuple] = attrs.field(default=None, repr=False)
    history_len: int = 0
    drained: int = 0  # history_len at the referee's last drain_events()
    # the same for each player who drains their own stream (not saved: a loaded game starts them afresh)
    drained_by: dict = attrs.field(factory=dict, repr=False)
    # [variable, player or 0 for all, the value revealed]: face up while the value is unchanged ('reveal')
    revealed: list = attrs.field(factory=list)
    # the options of the pending decision, gathered once: see _legal_table
    _legal: Optional[LegalTable] = attrs.field(default=None, repr=False, init=False)
    # What undo() and a failed move's rollback need (undo.py): this state's own, not cloned, not saved
    undo_log: UndoLog = attrs.field(factory=UndoLog, repr=False, init=False)
    # 'vars' was handed out: a dict (or a list in it) kept by the caller may be changed at any time, so
    # every move takes a checkpoint (and undo is exact, as with a snapshot before each move)
    _vars_out: bool = attrs.field(default=False, repr=False, init=False)
    # the snapshot this state takes its data back from, while a clone holds the data (see clone)
    _lent: Optional[snapshots.Snapshot] = attrs.field(default=None, repr=False, init=False)
    # what the run on this state may still do (limits.py): the items of work left, and the steps left to the
    # procedures run as Python calls; refilled by limits.fresh at each entry into the rules, spent by the
    # generated code. Not cloned, not saved, but kept by attrs.evolve: the copy a display runs the rules
    # on spends what the display's entry gave.
    _work_left: int = attrs.field(default=0, repr=False, alias="work_left")
    _steps_left: int = attrs.field(default=0, repr=False, alias="steps_left")
    # the most items the state may hold now (bounds.py: counted for real only when this passes the limit);
    # cloned and kept by snapshots, not saved (a loaded state is counted at its first run)
    _held_most: int = attrs.field(default=0, repr=False, alias="held_most")

    # ------------------------------------------------------------------ the API
    @property
    def vars(self) -> dict:
        """The rules' variables by name. A scenario test or an editor may change them by hand to set up
        a position (then ask_again() offers the position's own options); undo() and a failed move's
        rollback keep the change, however long the dict is kept. A state whose variables were handed
        out therefore takes a snapshot before each move (the engine reads them as ``_vars``)."""
        self._vars_out = self.undo_log.edited = True
        return self._vars

    @vars.setter
    def vars(self, value: dict) -> None:
        self._vars_out = self.undo_log.edited = True
        self._vars = value

    def is_over(self) -> bool:
        return self.status == "over"

    def to_move(self) -> list[int]:
        """The players who must decide now (several during a simultaneous secret decision)."""
        if self.pending is None:
            return []
        return self.pending.waiting()

    def legal_moves(self, player: Optional[int] = None) -> list[Move]:
        """The moves open now (to ``player`` only, if given), numbered from 1 in this list."""
        if self.pending is None:
            return []
        table = self._legal_table(player)
        moves = table.moves
        if moves is None:  # made once per decision, and only for a caller that wants Move objects
            moves = table.moves = []
            get = _MOVES.get
            i = 0
            for p, opts in table.groups:
                for o in opts:
                    i += 1
                    key = (p, o.text, i)
                    m = get(key)
                    if m is None:
                        m = _new_move(Move, key)
                        if len(_MOVES) < _MOVES_KEPT:
                            _MOVES[key] = m
                    moves.append(m)
        return moves[:]

    def legal_actions(self, player: Optional[int] = None) -> list[int]:
        """The numbers of the moves open now, as ``apply_action`` takes them (OpenSpiel's integer
        protocol): 1 to the number of legal_moves(player), no text and no Move built."""
        if self.pending is None:
            return []
        return list(range(1, len(self._legal_table(player).options) + 1))

    def apply_action(self, action: int, player: Optional[int] = None, atomic: bool = True) -> None:
        """Apply the move numbered ``action`` (from 1, as legal_actions() gives them): the integer path,
        no text looked up. Otherwise exactly ``apply`` (refused moves and failed rules change nothing)."""
        if self.pending is None:
            self._resolve(action, player)  # raises: the game is over, or no decision is pending
        table = self._legal_table(player)
        groups, options = table.groups, table.options
        if type(action) is not int or not 1 <= action <= len(options):
            self._refuse_number(action, len(options), player)
        self._apply_option(*_place_of(groups, action), options[action - 1], atomic)

    def _legal_table(self, player) -> LegalTable:
        """The pending decision's options for ``player`` (None: everyone), kept until it changes (a copy
        of the moves goes out, so a caller that sorts or shuffles its list cannot spoil the cache)."""
        pend = self.pending
        table = self._legal
        # the same decision object (an equal one may hold other values), asked the same
        if table is not None and table.pending is pend and table.player == player \
                and table.chosen == len(pend.chosen):
            return table
        if player is None and not pend.chosen:  # everyone asked, no one has chosen yet: the common case
            groups = list(pend.options.items())
        else:
            groups = [(p, pend.options[p]) for p in (pend.waiting() if pend.chosen else pend.options)
                      if player is None or p == player]
        if len(groups) == 1:
            options = groups[0][1]  # never changed: shared, not copied
        else:
            options = [o for _, opts in groups for o in opts]
        if table is None or table.shared:
            self._legal = table = LegalTable(pend, player, len(pend.chosen), None, groups, options)
        else:  # this state's own: filled anew
            table.pending, table.player, table.chosen = pend, player, len(pend.chosen)
            table.moves, table.groups, table.options = None, groups, options
        return table

    def apply(self, move, player: Optional[int] = None, atomic: bool = True) -> None:
        """Apply a Move, a move text, or a move number (from 1, as Move.index, legal_actions() and the
        prompt count them; a number given as text only when no move has that text). Refused moves change
        nothing, and neither does a move whose rules then fail: the error is raised with the state as
        before. ``atomic=False`` is for a caller that throws the state away when the rules fail (the
        agents' simulations): nothing is kept for undo, and what undo() could take back is forgotten."""
        table = self._legal
        if type(move) is Move and player is None and table is not None and table.pending is self.pending \
                and table.player is None and len(table.groups) == 1 and table.chosen == len(self.pending.chosen):
            # the common case, without the search: one of the current legal_moves() of one player
            p, opts = table.groups[0]
            i = move[2] - 1
            if move[0] == p and 0 <= i < len(opts) and opts[i].text == move[1]:
                return self._apply_option(p, i, opts[i], atomic)
        self._apply_option(*self._resolve(move, player), atomic)

    # A snapshot (a marshal of all the rules' data) before every move was a quarter to two fifths of a
    # random playout. Moves are cheap to replay and rarely taken back, so a snapshot is taken every
    # CHECKPOINT_EVERY moves only, and a move is taken back by replaying the moves since the last one.
    # A state whose draws are chance nodes (chance.py) takes one before every move: its moves are
    # taken back at every draw.
    CHECKPOINT_EVERY = 16
    # ... or sooner, once the moves since the last one took this long (rules whose moves each run for
    # long would otherwise make a failed move or an undo replay for long)
    CHECKPOINT_SECONDS = 0.05
    # After an undo(), the next moves each take one: a search that applies and undoes (python-chess's
    # push and pop) then takes each move back without replaying any
    CHECKPOINT_AFTER_UNDO = 32

    def _apply_option(self, p: int, k: int, option: Option, atomic: bool) -> None:
        """Apply ``option``, the ``k``-th (from 0) of player ``p``'s options."""
        log = self.undo_log
        if not atomic:
            if log.checkpoints:  # a move the log does not record: the moves before it cannot be replayed
                log.forget()
            return self._choose(p, option)
        moves, checkpoints, rng = log.moves, log.checkpoints, self.rng
        if not checkpoints or log.edited or rng is not log.rng_seen or rng.changes != log.rng_changes:
            log.checkpoint(self)  # the first move, or the state was changed by hand since the last move
        elif checkpoints[-1][0] != len(moves) and (
                len(moves) - checkpoints[-1][0] >= self.CHECKPOINT_EVERY or log.replay_cost > self.CHECKPOINT_SECONDS
                or log.after_undo):
            log.checkpoint(self)
        if log.after_undo:
            log.after_undo -= 1
        # The light fields: what a move changes that replaying it would not give back as it was (the drain
        # marks, since drain_events() runs between moves, and the events themselves: replayed, equal copies)
        drained_by = self.drained_by
        light = (self.history, self.history_len, self.drained, dict(drained_by) if drained_by else {})
        began = perf_counter()
        try:
            self._choose(p, option)
        except BaseException:  # a rules error, no memory left, Ctrl-C: nothing of the move stays
            log.back_to(self, len(moves), light)
            raise
        log.replay_cost += perf_counter() - began
        # the move logged here, not by a call of the log's (a call a move was a hundredth of a playout)
        moves.append((light, p, k))
        log.rng_changes = self.rng.changes  # the move's own draws
        if len(moves) - log.oldest > undo.UNDO_KEPT:  # (undo.py, the module: a test may lower the bound)
            log.keep_last()

    def _choose(self, p: int, option: Option) -> None:
        """Apply ``option`` for player ``p``: one secret choice of a simultaneous decision that others
        still have to make, or the move that runs the rules on."""
        pend = self.pending
        if pend.simultaneous and len(pend.waiting()) > 1:
            self.moves_made += 1
            pend.chosen[p] = option.value  # secret until everyone has chosen: no event, no rule runs
            pend.texts[p] = [option.text, option.shown]
            return
        self._run_move(p, option)

    @property
    def undoable(self) -> int:
        """How many moves undo() can take back (the last UNDO_KEPT at most)."""
        return self.undo_log.undoable

    def undo(self) -> None:
        """Take back the last move applied atomically (python-chess's pop): the state becomes the one
        before it, events and generator included. Raises IllegalMoveError when there is none. A state
        changed by hand is taken back to the change, as long as the change went through ``vars``
        (anything else a state holds belongs to the engine: see docs/architecture.md)."""
        log = self.undo_log
        if not log.undoable:
            raise IllegalMoveError("no move to undo")
        last = len(log.moves) - 1
        log.back_to(self, last, log.moves[last][0])
        log.after_undo = self.CHECKPOINT_AFTER_UNDO

    def _run_move(self, p: int, option: Option) -> None:
        """The move's choice into the waiting frame (a simultaneous decision's last one: every choice), then
        the rules run on."""
        pend = self.pending
        self.moves_made += 1
        if not pend.simultaneous:
            self.emit(events.move(p, option.text, option.shown, events.decision_rule(self)), len(option.text))
            self.frames[-1].locals[pend.var] = option.value
        else:
            pend.chosen[p] = option.value
            pend.texts[p] = [option.text, option.shown]
            rule = events.decision_rule(self)
            for q in pend.options:
                if pend.texts[q] is not None:  # None: an 'automatic' choice, taken without a move
                    text, shown = pend.texts[q]
                    move = events.move(q, text, shown, rule)
                    if pend.window:  # only the player knows they were asked; an answer shows in what it does
                        move["to"] = [q]
                    self.emit(move, len(text))
            self.frames[-1].locals[pend.results] = [[q, pend.chosen[q]] for q in pend.options]
        self.pending = None
        machine.run(self)

    def _resolve(self, move, player):
        if self.pending is None:
            raise IllegalMoveError("the game is over; no move is legal" if self.is_over() else "no decision is pending")
        table = self._legal_table(player)
        groups, options = table.groups, table.options
        if not options:
            raise IllegalMoveError("no decision is pending" if player is None
                                   else f"player {player} has no decision to make now")
        if type(move) is Move:
            i = move[2] - 1
            if 0 <= i < len(options) and options[i].text == move[1] and (player is None or move[0] == player):
                p, k = _place_of(groups, move[2])
                if p == move[0]:
                    return p, k, options[i]  # one of the current legal_moves(): no search
            if player is None:
                player = move.player
            text = move.text
        elif type(move) is int:  # a move number, as Move.index and legal_actions() give it
            if not 1 <= move <= len(options):
                self._refuse_number(move, len(options), player)
            return (*_place_of(groups, move), options[move - 1])
        else:
            text = str(move).strip()
        moves = [(p, k, o) for p, opts in groups for k, o in enumerate(opts)]
        # exact text, then case-insensitive text, then a move number, then a unique beginning
        found = [(p, k, o) for p, k, o in moves if o.text == text and (player is None or p == player)]
        if not found:
            found = [(p, k, o) for p, k, o in moves if o.text.lower() == text.lower()]
        # ASCII digits only: '²' and '①' are digits to isdigit() but not to int(); a long number is no move
        if not found and text.isascii() and text.isdigit() and len(text) <= 9 and 1 <= int(text) <= len(moves):
            found = [moves[int(text) - 1]]
        if not found:
            prefix = [(p, k, o) for p, k, o in moves if o.text.lower().startswith(text.lower())] if text else []
            if len({o.text for _, _, o in prefix}) > 1:
                raise AmbiguousMoveError(f"move {_quoted(text)} is ambiguous: it could be "
                                         + ", ".join(repr(o.text) for _, _, o in prefix[:10]))
            found = prefix
        if not found:
            if text.isascii() and text.isdigit():  # a number out of range: say which are in range
                raise IllegalMoveError(f"illegal move {_quoted(text)}: there "
                                       + ("is 1 move, choose 1" if len(moves) == 1
                                          else f"are {len(moves)} moves, choose 1-{len(moves)}"))
            shown = ", ".join(repr(o.text) for _, _, o in moves[:20]) + (" ..." if len(moves) > 20 else "")
            raise IllegalMoveError(f"illegal move {_quoted(text)}; legal moves: {shown}")
        movers = sorted({p for p, _, _ in found})
        if len(movers) > 1:  # the same move for several players who decide at once: whose is it?
            raise AmbiguousMoveError(
                f"move {_quoted(text)} could be " + " or ".join(f"player {p}'s" for p in movers)
                + ", who all decide now; say whose it is (apply(move, player=P); in a script 'P: move')")
        return found[0]

    def _refuse_number(self, number, count: int, player) -> None:
        if self.pending is None:
            self._resolve(number, player)
        if count == 0:
            raise IllegalMoveError("no decision is pending" if player is None
                                   else f"player {player} has no decision to make now")
        raise IllegalMoveError(f"no move number {_quoted(str(number))}; the legal moves are numbered 1 to {count}")

    def ask_again(self) -> None:
        """Ask the pending decision again, so its options follow variables changed by hand.

        A decision's options are fixed when it is asked; a scenario test or an editor that sets up a
        position by changing ``vars`` calls this so the position's own options are offered. Choices
        already made in a simultaneous decision are dropped and asked again.
        """
        if self.pending is None:
            raise IllegalMoveError("no decision is pending")
        before = snapshots.take(self)
        try:
            self.pending = None
            self._legal = None
            self.frames[-1].pc -= 1  # the machine stopped just after the decision's instruction
            machine.run(self)
        except BaseException:
            snapshots.restore(self, before)
            raise
        self.undo_log.edited = True  # changed outside a move: replaying from an older checkpoint would lose it

    def clone(self) -> "State":
        snapshot = snapshots.take(self)
        copy = type(self)(vars=None, frames=[], rng=self.rng.fork())  # a fork: copied on the first draw of either
        marshalled = type(snapshot) is snapshots.Snapshot
        if not marshalled or self._vars_out:  # (a caller holds this state's variables: they stay its own)
            snapshots.load(copy, snapshot)
            _set(copy, _BESIDE_DATA, _beside_data(self))
        else:
            # The copy takes this state's data as it is, and this state takes a copy back from the snapshot
            # when it is next touched (snapshots.lend): a search goes on from the copy and seldom comes back.
            _set(copy, _CLONED_AS_IS, _cloned_as_is(self))
            copy.drained_by = dict(copy.drained_by)
            copy._legal = table = self._legal  # the same decision: its options and moves as gathered here
            if table is not None:
                table.shared = True
            snapshots.lend(self, snapshot)  # touch nothing of self after this
        if marshalled:
            # the copy's state now, kept as its checkpoint: its first move needs no snapshot of its own
            copy.undo_log.checkpoints.append((0, snapshot))
            copy.undo_log.seen(copy.rng)
        return copy

    def _copy_slowly(self) -> "State":
        """A copy made in Python, for data marshal does not know: one memo for everything the rules
        hold, so what two places share stays shared in the copy."""
        memo: dict = {}
        self.rng = generator(self.rng)
        copy = type(self)(vars=None, frames=[], rng=self.rng.fork())
        _set(copy, _CLONED_AS_IS, _cloned_as_is(self))
        # the rules' data (state_fields.DATA), each copied in its own way
        copy._vars = {k: copy_shared(v, memo) for k, v in self._vars.items()}
        copy.frames = [Frame(f.proc, f.pc, copy_shared(f.locals, memo)) for f in self.frames]
        pend = self.pending
        if pend is not None:
            copy.pending = Pending(pend.var, {p: [Option(o.text, copy_shared(o.value, memo), o.shown) for o in opts]
                                              for p, opts in pend.options.items()},
                                   {p: copy_shared(v, memo) for p, v in pend.chosen.items()}, pend.simultaneous,
                                   pend.line, pend.results, dict(pend.texts), pend.window)
        copy.revealed = copy_shared(self.revealed, memo)
        copy.winners = copy_shared(self.winners, memo)
        copy.drained_by = dict(self.drained_by)
        return copy

    def outcome(self) -> Optional[Outcome]:
        """The result, once the game is over (None before): interpreter/engine/outcome.py."""
        return outcome_of(self) if self.is_over() else None

    # ------------------------------------------------------------------ used by the machine
    def begin_scoring(self) -> None:
        """End the game now: drop every running rule and run the scoring block, if any."""
        self.pending = None
        already = self.status == "scoring"  # 'end game' inside the scoring block: scoring is over
        self.status = "scoring"
        self.frames[:] = [Frame("scoring", 0, {})] if "scoring" in self.game.procs and not already else []

    def finish(self) -> None:
        if self.status != "scoring":
            raise RulesRuntimeError("the rules stopped without ending the game")
        self.status = "over"
        self.step = "game over"
        self.emit(events.GAME_OVER, 0)

    def emit(self, event: dict, letters: int) -> None:
        """Keep ``event``, whose text has ``letters`` letters (events.letters; its maker knows them, and
        passes them: reading them back from the event cost two look-ups at every event)."""
        # each cell holds the letters of the texts of the events up to it (bounds.py)
        node = self.history
        if node is not None:
            letters += node[2]
        n = self.history_len + 1
        if (n > limits.EVENTS or letters > limits.EVENT_LETTERS) and event is not events.GAME_OVER:
            raise bounds.history_full(self, event)
        self.history = (event, node, letters)
        self.history_len = n

    def _newest(self, count: int) -> list:
        """The newest ``count`` events, oldest first, as the referee sees them."""
        out = []
        node = self.history
        for _ in range(count):
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    def event_history(self, player: Optional[int] = None) -> list:
        """Every event since the game began, as ``player`` sees it (None: the referee)."""
        return _seen(self._newest(self.history_len), player)

    @property
    def events(self) -> list:
        """The events not drained yet, as the referee sees them."""
        return [dict(e) for e in self._newest(self.history_len - self.drained)]

    def drain_events(self, player: Optional[int] = None) -> list:
        """The events since the last drain, as ``player`` sees them (None: the referee: every event,
        a secret move with both its text and its masked 'shown' text)."""
        if player is None:
            out = self._newest(self.history_len - self.drained)
            self.drained = self.history_len
        else:
            out = self._newest(self.history_len - self.drained_by.get(player, self.drained))
            self.drained_by[player] = self.history_len
        return _seen(out, player)


# What a clone takes as it is (state_fields.CLONED; the generator is forked), and of that what a snapshot
# does not carry
_CLONED_AS_IS = tuple(f for f in CLONED if f != "rng")
_cloned_as_is = operator.attrgetter(*_CLONED_AS_IS)
_BESIDE_DATA = tuple(f for f in _CLONED_AS_IS if f not in TAKEN)
_beside_data = operator.attrgetter(*_BESIDE_DATA)


def _set(st, fields: tuple, values: tuple) -> None:
    for field, value in zip(fields, values):
        setattr(st, field, value)


def _place_of(groups: list, number: int) -> tuple:
    """Who decides the move numbered ``number`` (from 1) of a decision's groups of options, and its
    place (from 0) among that player's options."""
    for p, opts in groups:
        if number <= len(opts):
            return p, number - 1
        number -= len(opts)
    raise IndexError(number)


def _quoted(text: str) -> str:
    """A move text from the user, quoted for a message: cut short, control characters escaped by repr."""
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _seen(evts: list, player: Optional[int]) -> list:
    out = []
    for e in evts:
        seen = events.seen_by(e, player)
        if seen is not None:
            out.append(seen)
    return out
