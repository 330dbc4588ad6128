"""The graph board kind: named spaces joined by arrows, one line per space under ``board b: graph``::

    board track: graph
        start -> a, b
        a -> finish
"""
from __future__ import annotations

from rulewright.interpreter.boards import Board, board_function, words_text
from rulewright.interpreter.kinds import LIST


class GraphBoard(Board):
    kind = "graph"

    def __init__(self, name: str, successors: dict):
        self.name = name
        seen = dict.fromkeys(successors)
        for targets in successors.values():
            for t in targets:
                seen.setdefault(t, None)
        self.spaces = list(seen)
        self.successors = {s: list(successors.get(s, ())) for s in self.spaces}
        self.predecessors: dict = {s: [] for s in self.spaces}
        for s, targets in self.successors.items():
            for t in targets:
                self.predecessors[t].append(s)

    @classmethod
    def check(cls, spec, report):
        if spec.words:
            report(spec.words[0].span, f"a graph takes no words after 'graph' ('{words_text(spec)}')",
                   "list its spaces on indented lines: a -> b, c")
        if not spec.edges:
            report(spec.span, "a graph lists its spaces on indented lines under it", "for example:  a -> b, c")

    @classmethod
    def build(cls, name, spec):
        successors: dict = {}
        for source, targets, _span in spec.edges:
            successors.setdefault(source, []).extend(targets)
        return cls(name, successors)

    def layout(self, texts: dict) -> list:
        width = max(len(s) for s in self.spaces)
        shown = max(len(t) for t in texts.values())  # every arrow starts in one column
        lines = []
        for s in self.spaces:
            arrows = ", ".join(self.successors[s])
            line = [(f"{s.ljust(width)}  ", None), (texts[s], s)]
            if arrows:
                line.append((" " * (shown - len(texts[s])) + f" -> {arrows}", None))
            lines.append(line)
        return lines

    def next(self, space) -> list:
        return list(self.successors[space])

    def previous(self, space) -> list:
        return list(self.predecessors[space])

    def all_spaces(self) -> list:
        return list(self.spaces)

    functions = {
        "next": board_function("next", 1, 1, LIST, "the spaces the arrows from s lead to"),
        "previous": board_function("previous", 1, 1, LIST, "the spaces whose arrows lead to s"),
        "neighbours": board_function("next", 1, 1, LIST, "the spaces the arrows from s lead to"),
        "spaces": board_function("all_spaces", 0, 0, LIST, "every space of the board"),
    }
