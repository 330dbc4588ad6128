"""The game's seeded generator: random.Random's numbers, with copies that cost nothing until one of
them draws (a clone's generator, a checkpoint's)."""
from __future__ import annotations

import random


class Generator(random.Random):
    """The game's seeded generator, the same numbers as random.Random's, with two economies.

    Lazy copies: ``fork()`` (what a clone gets) copies nothing. The fork reads its numbers from its
    ``_source`` until one of the two draws: a fork that draws first takes a copy of the source's state
    then; a source that draws first keeps a copy of its state of before in the cell its waiting forks
    share (one copy, however many forks), and each fork copies it from there on its own first draw.
    Copying the 2.5 kB state cost 9 us of every clone; a search that clones and never draws now pays
    nothing."""
    changes = 0  # how often it drew, or was reseeded or set: a draw by hand between moves shows (State._rng_seen)
    _source = None  # a fork not yet copied: the generator whose state it still shares
    # On a fork not yet copied: [a random.Random in the source's state when the fork was made, or None
    # while the source has not changed since]. On a source: the cell of its forks made since it last
    # changed (None: none). (A Random, not getstate()'s tuple: 625 numbers kept alive per checkpoint
    # were work for the memory allocator and the garbage collector.)
    _cell = None

    def fork(self) -> "Generator":
        """A generator in this one's state, its own from the first draw of either."""
        g = Generator.__new__(Generator)  # not Generator(): that seeds from os.urandom first
        source = self._source
        if source is None:
            source, cell = self, self._cell
            if cell is None:
                cell = self._cell = [None]
        else:  # a fork of a fork not yet copied: the same source, the same cell
            cell = self._cell
        g._source, g._cell = source, cell
        return g

    def _own(self) -> None:
        """Before a draw or a new state: a fork copies the state it shares; a source keeps its state of
        now for its waiting forks."""
        source = self._source
        if source is not None:
            kept = self._cell[0]
            self._source = self._cell = None
            _setstate(self, _getstate(kept if kept is not None else source))
        elif self._cell is not None:
            kept = _Random.__new__(_Random)
            _setstate(kept, _getstate(self))
            self._cell[0] = kept
            self._cell = None

    def shares_state_with(self, other: random.Random) -> bool:
        """Whether this fork, not yet copied, is still in the state of ``other`` (its source, or a fork
        made with it): then neither has drawn since."""
        source, cell = self._source, self._cell
        return source is not None and cell[0] is None and (
            other is source or (getattr(other, "_source", None) is source and other._cell is cell))

    # every draw the rules make (randrange, randint, choice, shuffle) comes through one of these two
    def getrandbits(self, k):
        self.changes += 1
        if self._cell is not None:
            self._own()
        return _getrandbits(self, k)

    def random(self):
        self.changes += 1
        if self._cell is not None:
            self._own()
        return _random(self)

    def getstate(self):
        source = self._source
        if source is None:
            return _getstate(self)
        kept = self._cell[0]
        return _getstate(kept if kept is not None else source)

    def setstate(self, state):
        self.changes += 1
        if self._source is not None:  # a state of its own: nothing to copy
            self._source = self._cell = None
        elif self._cell is not None:
            self._own()  # our forks keep the state they were made with
        _setstate(self, state)

    def seed(self, a=None, version=2):
        self.changes += 1
        if self._cell is not None:
            self._own()
        super().seed(a, version)


_Random = random.Random
_getstate, _setstate = random.Random.getstate, random.Random.setstate
_getrandbits, _random = random.Random.getrandbits, random.Random.random


def generator(rng: random.Random) -> Generator:
    """``rng`` as a Generator, in the same state."""
    if isinstance(rng, Generator):  # a subclass too (chance.py's ChanceGenerator)
        return rng
    g = Generator.__new__(Generator)  # not Generator(): that seeds from os.urandom first
    _setstate(g, rng.getstate())
    return g
