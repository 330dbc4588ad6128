"""What a node of the syntax tree is (frozen attrs data with the span it came from) and the walks over
any node: its parts, every node under it, a tree rewritten or with nodes put back. dsl/ast.py declares
the nodes; dsl/statement_facts.py what each statement binds, holds and writes."""
from __future__ import annotations

import attrs


@attrs.frozen
class Span:
    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


def node(cls):
    """Every node is frozen, compared by value, and knows its span (excluded from equality)."""
    return attrs.frozen(cls)


_NO_SPAN = Span("<none>", 0, 0)


def span_field():
    return attrs.field(default=_NO_SPAN, eq=False, repr=False, kw_only=True, metadata={"place": True})


def places_field():
    """Spans of parts of a node that are no nodes themselves (the names of named arguments)."""
    return attrs.field(default=(), eq=False, repr=False, kw_only=True, metadata={"place": True})


def _held(node) -> list:
    """A node's fields that hold what it says (its span and other places left out)."""
    return [a.name for a in node.__attrs_attrs__ if not a.metadata.get("place")]


_FIELDS: dict = {}  # a node's type -> the names of its fields but its span


def parts(node):
    """What a node holds, one level down: a tuple's items, or a node's fields but its span."""
    if isinstance(node, (tuple, list)):
        return list(node)
    kind = type(node)
    names = _FIELDS.get(kind)
    if names is None:  # read once per node type
        names = _FIELDS[kind] = tuple(a.name for a in getattr(kind, "__attrs_attrs__", ()) if not a.metadata.get("place"))
    return [getattr(node, name) for name in names]


def walk(node):
    """Every node under ``node``, itself first (tuples are looked into, not yielded)."""
    pending = [node]
    while pending:
        n = pending.pop()
        if not isinstance(n, (tuple, list)):
            yield n
        pending.extend(reversed(parts(n)))


def rewrite(node, change):
    """``node`` with ``change`` applied to every node under it, innermost first (``change`` gives back
    the node, or a new one)."""
    if isinstance(node, tuple):
        return tuple(rewrite(n, change) for n in node)
    if not hasattr(node, "__attrs_attrs__"):
        return node
    fields = {name: rewrite(getattr(node, name), change) for name in _held(node)}
    return change(attrs.evolve(node, **fields))


def put_back(node, new: dict):
    """``node`` with each node under it that ``new`` holds (by ``id``) replaced by ``new``'s node, whose
    own parts are looked into too; what holds nothing replaced is kept, not copied."""
    if isinstance(node, tuple):
        items = tuple(put_back(n, new) for n in node)
        return node if all(a is b for a, b in zip(items, node)) else items
    if not hasattr(node, "__attrs_attrs__"):
        return node
    node = new.get(id(node), node)
    fields = {name: put_back(getattr(node, name), new) for name in _held(node)}
    changed = {name: v for name, v in fields.items() if v is not getattr(node, name)}
    return attrs.evolve(node, **changed) if changed else node
