"""The play screen as a picture (SVG): the board where its kind places its spaces (a grid's rows and
columns with their headings, a graph's spaces joined by arrows), what each space shows in the rules'
colours, the lines the rules' 'paths' draw on it, the legend, then the components the rules draw (cards,
tokens, piles, tracks: svg_components.py), and the players' rows, the table and the viewer's own things
that are not drawn, as text.

Drawn from a Screen (screen.py), so a picture shows what its viewer may see and nothing more.
Generic: the board kind says where its spaces go (Board.places, arrows, margins).
"""
from __future__ import annotations

import math

from rulewright.interpreter.present.screen import Screen
from rulewright.interpreter.present.svg_components import draw_pictures
from rulewright.interpreter.present.svg_text import FONT, INK, MONO, TEXT_WIDTH, attribute as _attribute, text as _text, \
    wrap as _wrap, xml as _xml

PICTURE_WIDTH = 860.0  # the page's width when it draws components (cards, piles, tracks)


class _Board:
    """The board's part of the picture: spaces, arrows and margins placed in pixels."""

    def __init__(self, sc: Screen):
        board = sc.board
        self.sc = sc
        self.graph = bool(board.arrows())
        self.unit = 100.0 if self.graph else 48.0
        # a graph's space is a card with its name and text; a grid's a square with its text
        self.half = (48.0, 26.0) if self.graph else (22.0, 22.0)
        places = board.places()
        margins = board.margins()
        xs = [x for x, _y in places.values()] + [x for _t, x, _y in margins]
        ys = [y for _x, y in places.values()] + [y for _t, _x, y in margins]
        self.left, self.top = min(xs), min(ys)
        self.places = places
        self.margins = margins
        self.width = (max(xs) - self.left) * self.unit + 2 * self.half[0] + 20
        self.height = (max(ys) - self.top) * self.unit + 2 * self.half[1] + 20

    def at(self, x, y, dx, dy):
        return ((x - self.left) * self.unit + self.half[0] + 10 + dx, (y - self.top) * self.unit + self.half[1] + 10 + dy)

    def draw(self, dx: float, dy: float) -> list:
        out = []
        for a, b in self.sc.board.arrows():
            out.append(self._arrow(self.at(*self.places[a], dx, dy), self.at(*self.places[b], dx, dy)))
        texts = []
        for space, (x, y) in self.places.items():
            rect, shown = self._space(space, *self.at(x, y, dx, dy))
            out.append(rect)
            texts += shown
        out += [self._path(path, dx, dy) for path in self.sc.paths if self._near(path)]
        out += texts
        for text, x, y in self.margins:
            cx, cy = self.at(x, y, dx, dy)
            out.append(_text(cx, cy + 5, text, 13, "middle", "bold", "#757575"))
        return out

    def _space(self, space, cx, cy) -> list:
        hw, hh = self.half
        shown = self.sc.spaces[space]
        colour = self.sc.colour_of(shown)
        ink = INK.get(colour, "#212121")
        # data-space names the space, for a page that lets a click on it choose a move (cli/web_static)
        rect = (f'<rect data-space="{_attribute(space)}" x="{cx - hw:.1f}" y="{cy - hh:.1f}" width="{2 * hw:.1f}" '
                f'height="{2 * hh:.1f}" '
                f'rx="{6 if self.graph else 2}" fill="{"#fff8e1" if colour else "#ffffff"}" '
                f'stroke="{ink if colour else "#9e9e9e"}" stroke-width="{2 if colour else 1}"/>')
        if not self.graph:
            size = 18 if len(shown) <= 2 else max(9, int(36 / len(shown)))
            return rect, [_text(cx, cy + size / 3, shown, size, "middle", "bold", ink)]
        lines = _wrap(shown, 17)[:2]
        out = [_text(cx, cy - hh + 14, space, 12, "middle", "bold", "#424242")]
        out += [_text(cx, cy - hh + 29 + 12 * i, line, 10, "middle", "normal", ink) for i, line in enumerate(lines)]
        return rect, out

    def _near(self, path) -> bool:
        """A path whose spaces lie next to each other on the picture (one round a wrapped edge would
        cross the whole board)."""
        places = [self.places[s] for s in path]
        return all(abs(ax - bx) <= 1.5 and abs(ay - by) <= 1.5 for (ax, ay), (bx, by) in zip(places, places[1:]))

    def _path(self, path, dx, dy) -> str:
        """A line through the spaces' centres: two spaces a straight line, more a curve that bends
        towards the spaces between the first and the last (a quarter circle round a corner)."""
        points = [self.at(*self.places[s], dx, dy) for s in path]
        d = f"M {points[0][0]:.1f} {points[0][1]:.1f}"
        if len(points) == 2:
            d += f" L {points[1][0]:.1f} {points[1][1]:.1f}"
        else:
            for i in range(1, len(points) - 1):  # through the midpoints, bent at each space between
                (cx, cy), (nx, ny) = points[i], points[i + 1]
                end = (nx, ny) if i == len(points) - 2 else ((cx + nx) / 2, (cy + ny) / 2)
                d += f" Q {cx:.1f} {cy:.1f} {end[0]:.1f} {end[1]:.1f}"
        return f'<path d="{d}" fill="none" stroke="#78909c" stroke-width="1.5" stroke-opacity="0.7"/>'

    def _arrow(self, a, b) -> str:
        (ax, ay), (bx, by) = a, b
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy) or 1.0
        hw, hh = self.half
        # leave and enter each card at its edge
        edge = min(hw / abs(dx) if dx else math.inf, hh / abs(dy) if dy else math.inf) * length + 2
        ux, uy = dx / length, dy / length
        return (f'<line x1="{ax + ux * edge:.1f}" y1="{ay + uy * edge:.1f}" x2="{bx - ux * (edge + 2):.1f}" '
                f'y2="{by - uy * (edge + 2):.1f}" stroke="#616161" stroke-width="1.5" marker-end="url(#head)"/>')


def picture(sc: Screen, own_notes: bool = True) -> str:
    """The screen as an SVG document; ``own_notes=False`` leaves out the lines of the viewer's own things
    not drawn (the web table shows them beside the picture, in 'Yours')."""
    body, y = [], 28.0
    width = 640.0
    for i, line in enumerate(_wrap(sc.title, 66)):
        y += 20 if i else 0
        body.append(_text(16, y, line, 16, weight="bold"))
    for line in _wrap(sc.status + (f"   ({sc.ranking})" if sc.ranking else ""), TEXT_WIDTH):
        y += 17
        body.append(_text(16, y, line, 12, fill="#424242"))
    y += 14
    if sc.board is not None:
        board = _Board(sc)
        body += board.draw(16, y)
        y += board.height + 8
        width = max(width, board.width + 32)
    if sc.pictures:
        width = max(width, PICTURE_WIDTH)
        drawn, y = draw_pictures(sc, 16, y, width - 32)
        body += drawn
        y += 8
    notes = []
    if sc.legend:
        notes.append(("legend", "   ".join(f"{mark} {meaning}" for mark, meaning in sc.legend)))
    for p, values in sc.players:
        you = " (you)" if p == sc.viewer else ""
        turn = " - to move" if p in sc.to_move else ""
        said = [f"{label}: {value}" for i, (label, value) in enumerate(zip(sc.columns, values))
                if i not in sc.drawn_columns]
        if said or turn or not sc.drawn_columns:  # a row whose every column is drawn above says nothing more
            notes.append((f"player {p}{you}{turn}", "; ".join(said)))
    notes += [(f"on the table: {label}", value) for label, value in sc.table if ("table", label) not in sc.drawn]
    if own_notes:
        notes += [(f"yours: {label}", value) for label, value in sc.own if ("own", label) not in sc.drawn]
    if sc.turn_note:
        notes.append((sc.turn_note, ""))
    for head, text in notes:
        y += 18
        if len(head) + len(text) <= 80:  # a short value goes on its label's line
            body.append(f'<text x="16" y="{y:.1f}" font-family="{FONT}" font-size="12" fill="#212121">'
                        f'<tspan font-weight="bold">{_xml(head)}</tspan>'
                        + (f'<tspan font-family="{MONO}" font-size="11" fill="#424242">  {_xml(text)}</tspan>'
                           if text else "") + "</text>")
            continue
        body.append(_text(16, y, head, 12, weight="bold"))
        for line in _wrap(text, TEXT_WIDTH):
            y += 15
            body.append(_text(28, y, line, 11, family=MONO, fill="#424242"))
    width = max(width, 40 + TEXT_WIDTH * 6.7)
    height = y + 16
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}">\n'
            '<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
            'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#616161"/></marker></defs>\n'
            f'<rect width="100%" height="100%" fill="#fafafa"/>\n')
    return head + "\n".join(body) + "\n</svg>\n"


def render_svg(st, viewer=None) -> str:
    """The picture ``viewer`` may see of the state (None: the referee's, everything)."""
    from rulewright.interpreter.engine import limits
    from rulewright.interpreter.present.screen import build
    limits.fresh(st)  # the display runs the rules' expressions: bounded like a move
    return picture(build(st, viewer))
