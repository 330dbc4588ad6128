"""The one way every pass walks the syntax tree: a ``visit_<NodeClass>`` method per kind of node, as
Jinja's NodeVisitor. A pass (the checker, the secrecy check, the compiler, the code generator) subclasses
``Visitor`` and calls ``self.visit(node, ...)``; which method takes a node is found once per pair of pass
and node class, so dispatching costs a dict lookup, not a string built and looked up every time."""
from __future__ import annotations

PREFIX = "visit_"


class Visitor:
    """Dispatch by the node's class to ``visit_<ClassName>(node, *args)``. A node with no method goes to
    ``generic_visit`` where the pass has one (a pass that looks at a few kinds of node), else it is a
    mistake in the pass (a node it was never taught), reported by name."""

    _visitors: dict = {}  # each subclass gets its own: node class -> the function taking it

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._visitors = {}

    def visit(self, node, *args):
        try:  # (indexing the dict is the cheapest look-up: it runs for every node of every pass)
            method = self._visitors[node.__class__]
        except KeyError:
            method = self._visitor_for(node.__class__)
        return method(self, node, *args)

    @classmethod
    def _visitor_for(cls, kind):
        method = getattr(cls, PREFIX + kind.__name__, None) or getattr(cls, "generic_visit", None)
        if method is None:
            raise TypeError(f"{cls.__name__} cannot take a {kind.__name__}: it has no {PREFIX}{kind.__name__}")
        cls._visitors[kind] = method
        return method

    @classmethod
    def visited(cls) -> set:
        """The names of the node classes this pass has a method for."""
        return {name[len(PREFIX):] for name in dir(cls) if name.startswith(PREFIX)}
