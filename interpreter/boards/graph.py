"""The graph board kind: named spaces joined by arrows, one line per space under ``board b: graph``::

    board track: graph
        start -> a, b
        a -> finish
"""
from __future__ import annotations

import math

from rulewright.interpreter.boards.base import Board, board_function, words_text
from rulewright.interpreter.engine.builtins import FRESH, SPACE_LIST
from rulewright.interpreter.engine.kinds import LIST


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

    def layout(self, texts: dict, paths=()) -> list:
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

    def arrows(self) -> list:
        return [(s, t) for s in self.spaces for t in self.successors[s]]

    def places(self) -> dict:
        """The largest loop of spaces on a circle, the spaces off it just outside the space they join;
        a graph without a loop in columns by distance from its first spaces."""
        loop = self._largest_loop()
        if len(loop) < 3:
            return self._columns()
        n = len(loop)
        radius = max(1.5, n * 1.7 / (2 * math.pi))
        at = {s: (radius * math.sin(2 * math.pi * i / n), -radius * math.cos(2 * math.pi * i / n))
              for i, s in enumerate(loop)}
        pending = [s for s in self.spaces if s not in at]
        while pending:
            for s in pending:
                anchor = next((a for a in self.predecessors[s] + self.successors[s] if a in at), None)
                if anchor is not None or s == pending[-1]:
                    break
            at[s] = self._outside(at, at[anchor] if anchor is not None else (0.0, radius + 2.0))
            pending.remove(s)
        return at

    def _outside(self, at: dict, near: tuple) -> tuple:
        """A free place one step further from the centre than ``near``, turned aside if taken."""
        x, y = near
        angle = math.atan2(y, x)
        distance = math.hypot(x, y) + 1.6
        for turn in (0, 0.25, -0.25, 0.5, -0.5, 0.75, -0.75, 1.0, -1.0):
            px, py = distance * math.cos(angle + turn), distance * math.sin(angle + turn)
            if all(math.hypot(px - qx, py - qy) >= 1.2 for qx, qy in at.values()):
                return px, py
        return distance * math.cos(angle) + 1.3, distance * math.sin(angle)

    def _largest_loop(self) -> list:
        """The spaces of the largest set that all reach one another, in the order the arrows go."""
        reach = {s: self._reachable(s) for s in self.spaces}
        best: list = []
        for s in self.spaces:
            group = [t for t in self.spaces if t in reach[s] and s in reach[t]]
            if len(group) > len(best):
                best = group
        if not best:
            return []
        members, order, s = set(best), [best[0]], best[0]
        while True:  # follow the arrows round the loop, then add whatever the walk missed
            s = next((t for t in self.successors[s] if t in members and t not in order), None)
            if s is None:
                break
            order.append(s)
        return order + [t for t in best if t not in order]

    def _reachable(self, start) -> set:
        seen, pending = set(), [start]
        while pending:
            for t in self.successors[pending.pop()]:
                if t not in seen:
                    seen.add(t)
                    pending.append(t)
        return seen

    def _columns(self) -> dict:
        depth: dict = {}
        pending = [s for s in self.spaces if not self.predecessors[s]] or self.spaces[:1]
        for s in pending:
            depth[s] = 0
        while pending:
            s = pending.pop(0)
            for t in self.successors[s]:
                if t not in depth:
                    depth[t] = depth[s] + 1
                    pending.append(t)
        for s in self.spaces:
            depth.setdefault(s, 0)
        rows: dict = {}
        at = {}
        for s in self.spaces:
            at[s] = (depth[s] * 2.0, rows.get(depth[s], 0) * 1.5)
            rows[depth[s]] = rows.get(depth[s], 0) + 1
        return at

    def next(self, space) -> list:
        try:
            return list(self.successors[space])
        except KeyError:
            raise self.not_a_space(space) from None

    def previous(self, space) -> list:
        try:
            return list(self.predecessors[space])
        except KeyError:
            raise self.not_a_space(space) from None

    def all_spaces(self) -> list:
        return list(self.spaces)

    functions = {
        "next": board_function("next", 1, 1, LIST, "the spaces the arrows from s lead to", gives_back=FRESH,
                               spaces=SPACE_LIST),
        "previous": board_function("previous", 1, 1, LIST, "the spaces whose arrows lead to s", gives_back=FRESH,
                                   spaces=SPACE_LIST),
        "neighbours": board_function("next", 1, 1, LIST, "the spaces the arrows from s lead to", gives_back=FRESH,
                                     spaces=SPACE_LIST),
        "spaces": board_function("all_spaces", 0, 0, LIST, "every space of the board", gives_back=FRESH,
                                 spaces=SPACE_LIST),
    }
