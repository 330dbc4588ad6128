"""What each statement binds, the blocks it holds and the places it writes: declared once on its class
(``@statement(binds=, blocks=, changes=)`` in dsl/ast.py) and read by every pass through the functions
here (``bound``, ``changed``, ``blocks_of``, ``with_blocks``, ``statements``)."""
from __future__ import annotations

import attrs

from rulewright.dsl.nodes import node, parts


# how a statement holds a block (``blocks`` of ``statement``): a tuple of statements, pairs (condition,
# block) as an if's branches, or alternatives (each with a ``body``) as a choose block's
BLOCK, PAIRS, ALTERNATIVES = "block", "pairs", "alternatives"

STATEMENTS: list = []  # every statement's class, in the order declared
_HAS_FACTS: set = set()  # the same, to ask of a part


def statement(*, binds: tuple, blocks: tuple, changes: tuple):
    """A statement's node class, with what every pass reads of it declared once (each must be said):
    ``binds``: (field, what the local is called) for each name it gives a value; ``blocks``: (field,
    BLOCK | PAIRS | ALTERNATIVES) for each field holding statements; ``changes``: the fields naming the
    places it writes (a variable, an entry, a list it adds to or takes from)."""
    def declare(cls):
        cls.BINDS, cls.BLOCKS, cls.CHANGES = binds, blocks, changes
        made = node(cls)  # (attrs makes a new class)
        STATEMENTS.append(made)
        _HAS_FACTS.add(made)
        return made
    return declare


def bound(s):
    """(name, what it is called) for each local the statement ``s`` binds itself, those of the
    statement it holds as a part included (a 'choose each''s choice), not those of its blocks."""
    for field, word in s.BINDS:
        yield getattr(s, field), word
    for part in parts(s):
        if type(part) in _HAS_FACTS:
            yield from bound(part)


def changed(s) -> list:
    """The places (expressions) the statement ``s`` writes."""
    return [getattr(s, field) for field in s.CHANGES]


def blocks_of(s):
    """The blocks a statement holds, one level down: an if's branches and else, a loop's or a step's
    body, a choose block's alternatives."""
    for field, shape in s.BLOCKS:
        held = getattr(s, field)
        if shape == BLOCK:
            yield held
        elif shape == PAIRS:
            for _cond, b in held:
                yield b
        else:
            for alt in held:
                yield alt.body


def with_blocks(s, change):
    """``s`` with each block it holds (those ``blocks_of`` gives) replaced by ``change(block)``, a tuple
    of statements; ``s`` itself when it holds none."""
    fields = {}
    for field, shape in s.BLOCKS:
        held = getattr(s, field)
        if shape == BLOCK:
            fields[field] = change(held)
        elif shape == PAIRS:
            fields[field] = tuple((cond, change(b)) for cond, b in held)
        else:
            fields[field] = tuple(attrs.evolve(alt, body=change(alt.body)) for alt in held)
    return attrs.evolve(s, **fields) if fields else s


def statements(body):
    """Every statement of a block, the statements of its nested blocks included, in order."""
    for s in body:
        yield s
        for inner in blocks_of(s):
            yield from statements(inner)
