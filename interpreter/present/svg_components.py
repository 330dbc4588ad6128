"""The components of a picture (svg.py draws the rest): the entries a rules file draws 'as cards', 'as
tokens', 'as pile', 'as track', 'as hand', each from its faces (screen.Face: a title, a corner, lines of text, a
colour, gauges). A face-down item is drawn as its back and nothing else: its face never reaches here.

Each picture is a block of a known size; blocks flow left to right under their owner's heading (the
table first, then each player) and wrap at the page's width.
"""
from __future__ import annotations

import attrs

from rulewright.interpreter.present.screen import BACK, Face, Picture, Screen, count_text
from rulewright.interpreter.present.svg_text import INK, PAPER, text, wrap

CARD_W, CARD_H = 92.0, 62.0     # the smallest card; lines and gauges make it taller
DASH_W = 156.0                  # a card with gauges (a dashboard) is wider
GAP = 8.0
TOKEN_R = 15.0
CELL = 26.0                     # a track's number
PLAYER_INK = ("red", "blue", "green", "magenta", "cyan", "yellow")


def _card_width(faces) -> float:
    return DASH_W if any(f.gauges for f in faces if not f.down) else CARD_W


def _wrapped(face: Face, w: float) -> tuple:
    """A face's title (two lines at most, clear of its corner) and text, wrapped to the card."""
    full = int((w - 12) / 7.2)
    room = max(4, int((w - 12 - (len(face.corner[:6]) * 6.5 + 4 if face.corner else 0)) / 7.2))
    first = wrap(face.title, room)[0] if face.title else ""
    if len(first) < len(face.title) and not face.title.startswith(first + " "):
        first = ""  # a first word too long beside the corner goes under it, whole ("Workshop", not "Worksh op")
    rest = face.title[len(first):].strip()
    # beside a corner the first line is kept, empty or not: the title's next lines start below the corner
    title = ([first] if first or (face.corner and rest) else []) + (wrap(rest, full) if rest else [])
    title = title[:3]
    lines = [part for line in face.lines for part in wrap(line, max(4, int((w - 12) / 6.0)))][:6]
    return title, lines


def _card_size(faces) -> tuple:
    """One size for every card of a row: the largest face's."""
    width = _card_width(faces)
    up = [f for f in faces if not f.down]
    height = max((9 + 13 * len(t) + 12 * len(ls) + 16 * len(f.gauges) + 8
                  for f in up for t, ls in [_wrapped(f, width)]), default=0)
    return width, max(CARD_H, height)


def _card(face: Face, x: float, y: float, w: float, h: float) -> list:
    if face.down:
        return [f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="6" fill="#546e7a" '
                f'stroke="#37474f"/>',
                f'<rect x="{x + 5:.1f}" y="{y + 5:.1f}" width="{w - 10:.1f}" height="{h - 10:.1f}" rx="4" '
                f'fill="none" stroke="#b0bec5" stroke-dasharray="3 3"/>']
    ink = INK.get(face.colour, "#616161")
    out = [f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="6" '
           f'fill="{PAPER.get(face.colour, "#ffffff")}" stroke="{ink}" stroke-width="{2 if face.colour else 1}"/>']
    if face.corner:
        out.append(text(x + w - 6, y + 13, face.corner[:6], 10, "end", "bold", ink))
    ty = y + 16
    title, lines = _wrapped(face, w)
    for line in title:
        if line:
            out.append(text(x + 6, ty, line, 11, weight="bold", fill="#212121"))
        ty += 13
    for line in lines:
        out.append(text(x + 6, ty + 2, line, 10, fill="#424242"))
        ty += 12
    for label, value, most in face.gauges:
        ty += 4
        out += _gauge(label, value, most, x + 6, ty, w - 12, ink)
        ty += 12
    return out


def _gauge(label, value, most, x, y, w, ink) -> list:
    """A bar filled as far as value goes towards most, with its label and numbers."""
    bar_x, bar_w = x + 46, w - 46 - 30
    share = max(0.0, min(1.0, value / most)) if most > 0 else 0.0
    return [text(x, y + 8, label[:8], 9, fill="#424242"),
            f'<rect x="{bar_x:.1f}" y="{y:.1f}" width="{bar_w:.1f}" height="9" rx="2" fill="#eeeeee" '
            'stroke="#bdbdbd"/>',
            f'<rect x="{bar_x:.1f}" y="{y:.1f}" width="{bar_w * share:.1f}" height="9" rx="2" fill="{ink}"/>',
            text(x + w, y + 8, f"{value}/{most}", 9, "end", fill="#424242")]


def _token(face: Face, cx: float, cy: float) -> list:
    if face.down:
        return [f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{TOKEN_R}" fill="#546e7a" stroke="#37474f"/>',
                f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{TOKEN_R - 4}" fill="none" stroke="#b0bec5" '
                'stroke-dasharray="2 2"/>']
    ink = INK.get(face.colour, "#616161")
    words = face.title if len(face.title) <= 4 else face.title[:3] + "."
    return [f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{TOKEN_R}" fill="{PAPER.get(face.colour, "#ffffff")}" '
            f'stroke="{ink}" stroke-width="2"/>',
            text(cx, cy + 4, words, 11 if len(words) <= 2 else 9, "middle", "bold", "#212121")]


class _Block:
    """A picture laid out at (0, 0): its width, height and a function drawing it at (x, y)."""

    def __init__(self, width, height, draw):
        self.width, self.height, self.draw = width, height, draw


def _label(pic: Picture, x, y) -> str:
    return text(x, y + 11, pic.label, 11, weight="bold", fill="#424242")


def _cards_block(pic: Picture, room: float) -> _Block:
    faces = pic.items or ()
    w, h = _card_size(faces)
    per_row = max(1, int((room + GAP) // (w + GAP)))
    shown = min(len(faces), per_row) if faces else 0
    rows = -(-len(faces) // per_row) if faces else 0
    width = max(len(pic.label) * 7.0, shown * (w + GAP) - GAP if shown else 40.0)
    height = 16 + (rows * (h + GAP) - GAP if rows else 14)

    return _Block(width, height, _laid_out(pic, faces, per_row,
                                           lambda face, x, y: _card(face, x, y, w, h), w + GAP, h + GAP, 0))


def _laid_out(pic: Picture, faces, per_row: int, one, dx: float, dy: float, inset: float):
    """Drawing of a block's label and its items in rows of ``per_row``, ``one(face, x, y)`` each, ``dx``
    apart in a row and ``dy`` between rows ("none" when there are none)."""
    def draw(x, y):
        out = [_label(pic, x, y)]
        if not faces:
            out.append(text(x, y + 28, "none", 10, fill="#9e9e9e"))
        for i, face in enumerate(faces):
            r, c = divmod(i, per_row)
            out += one(face, x + inset + c * dx, y + 16 + inset + r * dy)
        return out
    return draw


def _tokens_block(pic: Picture, room: float) -> _Block:
    faces = pic.items or ()
    step = 2 * TOKEN_R + 6
    per_row = max(1, int(room // step))
    rows = max(1, -(-len(faces) // per_row))
    width = max(len(pic.label) * 7.0, min(len(faces), per_row) * step)
    height = 16 + rows * step

    return _Block(width, height, _laid_out(pic, faces, per_row, _token, step, step, TOKEN_R + 1))


def _pile_block(pic: Picture) -> _Block:
    top = pic.items[0] if pic.items else None
    w, h = _card_size([top] if top else [])
    width = max(len(pic.label) * 7.0, w + 8)

    def draw(x, y):
        out = [_label(pic, x, y)]
        if top is None:
            out.append(f'<rect x="{x:.1f}" y="{y + 16:.1f}" width="{w:.1f}" height="{h:.1f}" rx="6" fill="none" '
                       'stroke="#bdbdbd" stroke-dasharray="4 3"/>')
        else:
            for k in (2, 1):  # the cards under the top one
                if pic.count > k:
                    out.append(f'<rect x="{x + 3 * k:.1f}" y="{y + 16 + 3 * k:.1f}" width="{w:.1f}" height="{h:.1f}" '
                               'rx="6" fill="#eceff1" stroke="#90a4ae"/>')
            out += _card(top, x, y + 16, w, h)
        out.append(text(x, y + 16 + h + 14, f"{pic.count} card{'s' if pic.count != 1 else ''}" if pic.count
                        else "empty", 10, fill="#616161"))
        return out
    return _Block(width, 16 + h + 18, draw)


BACK_W, BACK_H, FAN = 34.0, 48.0, 16.0  # a hand of backs: small cards, each a little right of the one before
FANNED = 10                             # the most backs drawn; the count under them says how many there are


def _hand_block(pic: Picture, room: float) -> _Block:
    """A hand in a player's part: seen from across the table, its cards' backs fanned out, and how many
    there are; cards the viewer may see (the referee's picture) as a row of cards, counted in its label."""
    if any(not f.down for f in pic.items):
        return _cards_block(attrs.evolve(pic, label=f"{pic.label} ({count_text(pic.count)})"), room)
    drawn = min(pic.count, FANNED)
    width = max(len(pic.label) * 7.0, BACK_W + FAN * max(drawn - 1, 0), 52.0)

    def draw(x, y):
        out = [_label(pic, x, y)]
        if not drawn:
            out.append(f'<rect x="{x:.1f}" y="{y + 16:.1f}" width="{BACK_W:.1f}" height="{BACK_H:.1f}" rx="4" '
                       'fill="none" stroke="#bdbdbd" stroke-dasharray="4 3"/>')
        for i in range(drawn):
            out += _card(BACK, x + FAN * i, y + 16, BACK_W, BACK_H)
        out.append(text(x, y + 16 + BACK_H + 14, count_text(pic.count), 10, fill="#616161"))
        return out
    return _Block(width, 16 + BACK_H + 18, draw)


def _track_block(pic: Picture, room: float, sc: Screen) -> _Block:
    numbers = list(range(pic.low, pic.high + 1))
    per_row = max(2, int(room // CELL))
    rows = -(-len(numbers) // per_row)
    marks: dict = {}
    for player, n in pic.marks:
        marks.setdefault(min(max(n, pic.low), pic.high), []).append(player)
    deepest = max((len(v) for v in marks.values()), default=1)
    row_h = 18 + 9 * deepest + 6
    width = max(len(pic.label) * 7.0, min(len(numbers), per_row) * CELL)

    def draw(x, y):
        out = [_label(pic, x, y)]
        for i, n in enumerate(numbers):
            r, c = divmod(i, per_row)
            cx, cy = x + c * CELL, y + 16 + r * row_h
            out.append(f'<rect x="{cx:.1f}" y="{cy:.1f}" width="{CELL:.1f}" height="{row_h - 4:.1f}" '
                       f'fill="{"#f5f5f5" if n % 5 else "#e0e0e0"}" stroke="#bdbdbd"/>')
            out.append(text(cx + CELL / 2, cy + 11, str(n), 9, "middle", fill="#616161"))
            for k, player in enumerate(marks.get(n, ())):
                ink = INK[player_colour(sc, player)] if player else "#212121"
                out.append(f'<circle cx="{cx + CELL / 2:.1f}" cy="{cy + 20 + 9 * k:.1f}" r="4.5" fill="{ink}" '
                           'stroke="#ffffff"/>')
        return out
    return _Block(width, 16 + rows * row_h, draw)


def player_colour(sc: Screen, player: int) -> str:
    """A player's colour: the rules' (Screen.seat_colour), else one of a fixed round."""
    return sc.seat_colour(player) or PLAYER_INK[(player - 1) % len(PLAYER_INK)]


def _block(pic: Picture, room: float, sc: Screen) -> _Block:
    if pic.kind == "track":
        return _track_block(pic, room, sc)
    if pic.kind == "pile":
        return _pile_block(pic)
    if pic.kind == "hand":
        return _hand_block(pic, room)
    if pic.kind == "tokens":
        return _tokens_block(pic, room)
    return _cards_block(pic, room)


def draw_pictures(sc: Screen, x0: float, y: float, width: float) -> tuple:
    """The pictures under headings (the table's, then each player's), from y down; returns the
    elements and the y under them."""
    out = []
    groups: dict = {}
    for pic in sc.pictures:
        groups.setdefault(pic.owner, []).append(pic)
    for owner, pics in groups.items():
        if owner is None:
            head, ink = "on the table", "#212121"
        else:
            head = f"player {owner}" + (" (you)" if owner == sc.viewer else "")
            ink = INK[player_colour(sc, owner)]
        y += 22
        out.append(text(x0, y, head, 13, weight="bold", fill=ink))
        out.append(f'<line x1="{x0:.1f}" y1="{y + 4:.1f}" x2="{x0 + width:.1f}" y2="{y + 4:.1f}" stroke="{ink}" '
                   'stroke-opacity="0.4"/>')
        y += 12
        x, row_h = x0, 0.0
        for pic in pics:
            block = _block(pic, width, sc)
            if x > x0 and x + block.width > x0 + width:  # no room left on this line
                x, y, row_h = x0, y + row_h + 10, 0.0
            out += block.draw(x, y)
            x += block.width + 18
            row_h = max(row_h, block.height)
        y += row_h
    return out, y

