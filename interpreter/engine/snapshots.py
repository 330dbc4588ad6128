"""A state's data at one moment: taken before a checkpointed move (undo) and for a clone, loaded back.

Everything the rules hold (variables, the frames' locals, the pending values, reveals, winners) is
marshalled into one bytes object: a C deep copy that keeps what two places share shared, several times
cheaper than a copy in Python (docs/performance.md), and nothing the garbage collector has to go
through while undo() keeps its checkpoints. The rest is shared: the pending decision's options (an
option whose value is a number or a text is never changed) and the event history; the generator's
state is copied only when the rules draw (generator.py).

A clone takes the state's data as it is and *lends* the state a snapshot: ``lend`` swaps the state's
class for one whose first touch of anything takes a copy back from it (see docs/architecture.md,
"Clones")."""
from __future__ import annotations

import marshal
import operator
from typing import Any, Optional

import attrs

from rulewright.interpreter.engine.generator import Generator, generator
from rulewright.interpreter.engine.machine import Frame, Option, Pending
from rulewright.interpreter.engine.state_fields import PLAIN, TAKEN
from rulewright.interpreter.engine.values import SCALARS


@attrs.define(eq=False)
class Snapshot:
    """What ``load`` needs to put a state back as it was (see the module's docstring)."""
    # marshal of (variables, each frame's locals, the options' values or None, the choices made,
    # revealed, winners)
    blob: bytes
    where: list  # (procedure, pc) of each frame
    pending: Optional[Pending]  # shared: its options' values are in the blob when not all scalars
    texts: Optional[dict]  # a copy of the pending decision's texts, when its values are in the blob
    rng: Generator  # a fork: the generator's state of then, copied only when one of the two draws
    plain: list  # the state's PLAIN fields (state_fields.py), in order: the event history shared


@attrs.define(eq=False)
class Copied:
    """A snapshot of data marshal does not know (a range a loop keeps): a copy of the state made in
    Python (State._copy_slowly), copied again when loaded."""
    state: Any

    @property
    def rng(self) -> Generator:
        return self.state.rng


def take(st) -> "Snapshot | Copied":
    """A snapshot of ``st`` now."""
    pend = st.pending
    frames = st.frames
    values = None  # the options' values, when some are not numbers or texts (a move may change those)
    if pend is not None and (pend.simultaneous or not _scalar_options(pend.options)):
        values = [[o.value for o in opts] for opts in pend.options.values()]
    where, locals_ = [], []
    for f in frames:  # (one loop, not two comprehensions: a snapshot is a tenth of a clone)
        where.append((f.proc, f.pc))
        locals_.append(f.locals)
    try:
        blob = marshal.dumps((st._vars, locals_, values, pend.chosen if pend is not None else None,
                              st.revealed, st.winners))
    except ValueError:  # something marshal does not know (a range a loop keeps): the slow copy
        return Copied(st._copy_slowly())
    rng = st.rng = generator(st.rng)
    # a fork keeps the generator's state of now, and copies it only when the generator draws
    plain = list(_plain(st))
    plain[_DRAINED_BY] = dict(plain[_DRAINED_BY])
    return Snapshot(blob, where, pend, dict(pend.texts) if values is not None else None, rng.fork(), plain)


_plain = operator.attrgetter(*PLAIN)
_DRAINED_BY = PLAIN.index("drained_by")  # the one plain field that is changed in place: copied


def restore(st, before) -> None:
    """Make ``st`` the state ``before`` was taken from, generator included."""
    load(st, before)
    then = before.rng
    if then.shares_state_with(st.rng):
        return  # neither has drawn since
    st.rng.setstate(then.getstate())


def load(st, before) -> None:
    """Give ``st`` the rules' data and the fields of the snapshot ``before`` (copies: it stays as it
    was); not the generator."""
    st._legal = None
    if type(before) is Copied:
        old = before.state._copy_slowly()
        for field in TAKEN:
            setattr(st, field, getattr(old, field))
        return
    for field, value in zip(PLAIN, before.plain):
        setattr(st, field, value)
    st.drained_by = dict(st.drained_by)
    st._vars, locals_, values, chosen, st.revealed, st.winners = marshal.loads(before.blob)
    st.frames = [Frame(proc, pc, env) for (proc, pc), env in zip(before.where, locals_)]
    pend = before.pending
    if values is not None:  # else one player's decision, options of numbers and texts: nothing in it changes
        options = {}
        for (p, opts), vals in zip(pend.options.items(), values):
            options[p] = [o if type(v) in SCALARS else Option(o.text, v, o.shown) for o, v in zip(opts, vals)]
        pend = Pending(pend.var, options, chosen, pend.simultaneous, pend.line, pend.results, dict(before.texts),
                       pend.window)
    st.pending = pend


def _scalar_options(options: dict) -> bool:
    """Whether every option's value is a number, a text, yes/no or none."""
    for opts in options.values():
        for o in opts:
            if type(o.value) not in SCALARS:
                return False
    return True


# ----------------------------------------------------------------------------- lending to a clone
def lend(st, snapshot: Snapshot) -> None:
    """``st``, whose data a clone now holds, takes a copy back from ``snapshot`` when next touched.
    Touch nothing of ``st`` after this."""
    st._lent = snapshot
    object.__setattr__(st, "__class__", _lent_class(type(st)))


def _take_back(st) -> None:
    """A state whose data a clone took, touched again: its own copy of the data, from the snapshot
    taken then, and its class back."""
    object.__setattr__(st, "__class__", type(st).__base__)
    snapshot, st._lent = st._lent, None
    legal = st._legal
    load(st, snapshot)
    if legal is not None and legal.pending is st.pending:  # a decision shared with the clone: its moves hold
        st._legal = legal


def _lent_getattribute(st, name):
    _take_back(st)
    return getattr(st, name)


def _lent_setattr(st, name, value):
    _take_back(st)
    setattr(st, name, value)


def _lent_delattr(st, name):
    _take_back(st)
    delattr(st, name)


_LENT_CLASSES: dict = {}


def _lent_class(cls: type) -> type:
    """``cls`` while a clone holds its data: the first touch of any attribute takes the data back. Same
    layout (no slots of its own), so an instance can change to it and back."""
    lent = _LENT_CLASSES.get(cls)
    if lent is None:
        lent = _LENT_CLASSES[cls] = type(cls.__name__, (cls,), {
            "__slots__": (), "__getattribute__": _lent_getattribute, "__setattr__": _lent_setattr,
            "__delattr__": _lent_delattr, "__module__": cls.__module__, "__qualname__": cls.__qualname__})
    return lent
