"""What the play screen shows one viewer, worked out from the rules' ``display:`` section.

Everything here comes from the viewer's view (views.py), never from the full state: an entry that
names a variable shows it as the viewer sees it (another player's secret as a count), and an entry
worked out from an expression reads only public variables (the checker sees to it) over the viewer's
copy of them. Generic: the rules decide what the screen shows; cli/screen.py draws it with colours and
svg.py as a picture.
"""
from __future__ import annotations

from typing import Optional

import attrs

from rulewright.dsl import ast
from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.engine.compare import weigh
from rulewright.interpreter.engine.faults import RULE_FAULTS, located
from rulewright.dsl.declarations import SCREEN_COLOURS
from rulewright.interpreter.engine.values import UNSEEN
from rulewright.interpreter.present.views import WINDOW_NOTE, view, visible_vars
from rulewright.interpreter.engine.builtin_names import ME, ROUND_NUMBER


@attrs.frozen
class Face:
    """One card, token or dashboard as a picture draws it, worked out from a face of 'display:'."""
    title: str
    corner: str = ""
    lines: tuple = ()          # the text, a line each
    colour: Optional[str] = None
    gauges: tuple = ()         # (label, value, most)
    down: bool = False         # face down: only its back is drawn


BACK = Face("", down=True)


@attrs.frozen
class Picture:
    """A 'display:' entry drawn: 'as cards' and the rest. ``owner`` is the player it belongs to (a
    'players' or 'own' entry; a 'players' track is one picture with every player's mark)."""
    label: str
    kind: str                  # card, cards, tokens, pile, track, hand
    owner: Optional[int]
    items: tuple = ()          # Face per item (a pile: its top, or its back)
    count: int = 0             # a pile, a hand: how many items it holds
    marks: tuple = ()          # a track: (player or 0, number)
    low: int = 0
    high: int = 0


@attrs.frozen
class Screen:
    title: str                 # the game, its players and options
    status: str                # the round and the step
    viewer: Optional[int]      # a player; 0 the table (nobody's secrets); None the referee (everything)
    board: object              # the Board, or None
    spaces: dict               # space -> what it shows
    legend: tuple              # (text on a space, what it means)
    colours: tuple             # (text a space's text starts with, colour)
    columns: tuple             # the labels of the players' rows
    players: tuple             # (player, (value text per column)) per player
    own: tuple                 # (label, value text): the viewer's own things
    table: tuple               # (label, value text): the public zones
    ranking: str               # who wins, e.g. "highest score wins; ties: highest money"
    to_move: tuple
    turn_note: str             # whose move it is, or the outcome
    vars: dict                 # every variable as the viewer sees it (shown on request: ':vars')
    pictures: tuple = ()       # the entries drawn 'as cards' and so on (Picture)
    paths: tuple = ()          # lines drawn on the board, each a tuple of spaces
    drawn: frozenset = frozenset()          # (line, label) of the 'table' and 'own' entries drawn
    drawn_columns: frozenset = frozenset()  # the 'players' columns drawn (their places in 'columns')
    counted_columns: frozenset = frozenset()  # the 'players' columns drawn 'as hand' (their text: how many)

    def counts(self, player: int) -> tuple:
        """(label, how many) of the player's 'as hand' entries: what every seat knows of its hands."""
        values = next((values for p, values in self.players if p == player), ())
        return tuple((self.columns[i], values[i]) for i in sorted(self.counted_columns) if i < len(values))

    def seat_colour(self, player: int) -> Optional[str]:
        """A player's own colour, where the rules give one: their 'colours' entry for the player's number
        (colours "1" = "red"), else a 'players' column that names a colour of the language for every player (a
        colour each seat takes); None: the caller's round of colours."""
        given = self.colour_of(str(player))
        if given:
            return given
        for i in range(len(self.columns)):
            named = [values[i] for _p, values in self.players if i < len(values)]
            if len(named) == len(self.players) and all(v in SCREEN_COLOURS for v in named) and len(set(named)) == len(named):
                return next((values[i] for p, values in self.players if p == player), None)
        return None

    def colour_of(self, text: str) -> Optional[str]:
        """The colour of a space's text: the first 'colours' entry it starts with."""
        for start, colour in self.colours:
            if text.startswith(start):
                return colour
        return None


def value_text(value) -> str:
    """A value as a person reads it: lists joined by commas, face-down things as counts."""
    t = type(value)
    if value is None:
        return "-"
    if t is bool:
        return "yes" if value else "no"
    if t is list:
        if not value:
            return "-"
        texts = [value_text(v) for v in value]
        return ("; " if any(", " in t for t in texts) else ", ").join(texts)
    if t is dict:
        if set(value) == {"hidden"} and type(value["hidden"]) is int:
            n = value["hidden"]
            return f"{n} face down" if n else "-"
        if not value:
            return "-"
        return "(" + ", ".join(f"{k} {value_text(v)}" for k, v in value.items()) + ")"
    return str(value)


def faces_text(faces, with_text: bool = False) -> str:
    """Cards or tokens as text: each one's title, the face-down ones as a count ("none": no item, as the
    picture says). ``with_text``: each card on a line of its own with its text, as the web panel shows
    one's own cards (a bare title may be a code: "AS06")."""
    up = [f.title + (f" [{f.corner}]" if f.corner else "")
          + (" (" + ", ".join(f"{label} {v}/{most}" for label, v, most in f.gauges) + ")" if f.gauges else "")
          + (": " + _joined(f.lines) if with_text and f.lines else "")
          for f in faces if not f.down]
    down = sum(1 for f in faces if f.down)
    told = up + ([f"{down} face down"] if down else [])
    lined = with_text and any(f.lines for f in faces if not f.down)
    return ("\n" if lined else ", ").join(told) or "none"


def _joined(lines) -> str:
    """A card's lines on one: ', ' between them, a space after one that ends with ':' ("goal: To Gate")."""
    return "".join(line + ("" if i == len(lines) - 1 else " " if line.endswith(":") else ", ")
                   for i, line in enumerate(lines))


def count_text(count: int) -> str:
    """How many cards: '3 cards', '1 card', 'none'."""
    return f"{count} card{'' if count == 1 else 's'}" if count else "none"


def picture_text(pic: Picture, with_text: bool = False) -> str:
    """What a drawn entry says as text (the terminal's screen), in the words the picture uses."""
    if pic.kind == "hand":
        return count_text(pic.count)
    if pic.kind == "pile":
        if not pic.count:
            return "empty"
        top = pic.items[0] if pic.items else BACK
        return f"{pic.count} face down" if top.down else f"{pic.count}, top: {faces_text([top])}"
    if pic.kind == "track":
        return ", ".join(str(n) for _p, n in pic.marks) or "-"
    return faces_text(pic.items, with_text)


class _Drawer:
    """Works out the pictures of the 'as' entries: each item through its face, over the viewer's copy
    of the variables (a face reads public variables only), face-down items as backs."""

    def __init__(self, st, shown_state, evaluate):
        self.g = st.game
        self.shown_state = shown_state
        self.evaluate = evaluate

    def face(self, item, name) -> Face:
        if item == UNSEEN:
            return BACK
        g = self.g
        if name is None:
            if type(item) is str:
                name = g.face_of_key.get(item)
            elif type(item) is dict:
                name = g.face_of_fields.get(frozenset(item))
        if name is None:
            return Face(value_text(item))
        decl, parts, gauges = g.faces[name]
        env = {decl.param: item}
        shown = {word: self.evaluate(decl, fn, env, expr) for word, (expr, fn) in parts.items()}
        title = value_text(shown["title"]) if "title" in shown else value_text(item)
        if title == UNSEEN:
            return BACK
        text = shown.get("text")
        texts = text if type(text) is list else ([] if text is None else [text])
        lines = tuple(value_text(t) for t in texts)
        colour = shown.get("colour")
        if colour is not None and colour not in SCREEN_COLOURS:
            raise located(self.shown_state, RulesRuntimeError(
                f"the face's colour is {value_text(colour)!r}, not a colour the screen knows",
                "colours: " + ", ".join(SCREEN_COLOURS)), decl.span, "display", parts["colour"][0])
        drawn_gauges = tuple((label, self.evaluate(decl, v[1], env, v[0]), self.evaluate(decl, m[1], env, m[0]))
                             for label, v, m in gauges)
        return Face(title, value_text(shown["corner"]) if shown.get("corner") is not None else "", lines, colour,
                    tuple((label, _number(v), _number(m)) for label, v, m in drawn_gauges))

    def items(self, value, name) -> tuple:
        """The faces of a list (a hidden list: its backs), or of one item."""
        if type(value) is dict and set(value) == {"hidden"}:
            return (BACK,) * min(value["hidden"], 60)
        if type(value) is list:
            return tuple(self.face(v, name) for v in value)
        return () if value is None else (self.face(value, name),)

    def picture(self, label, look, owner, value) -> Picture:
        kind = look.kind
        if kind == "hand":  # its cards as the viewer sees them (a rival's: backs), and how many
            return Picture(label, kind, owner, self.items(value, look.face), _how_many(value))
        if kind == "pile":
            if type(value) is dict and set(value) == {"hidden"}:
                return Picture(label, kind, owner, (BACK,) if value["hidden"] else (), value["hidden"])
            items = value if type(value) is list else [value]
            return Picture(label, kind, owner, (self.face(items[-1], look.face),) if items else (), len(items))
        if kind == "card" and type(value) is list:
            value = value[-1] if value else None
        return Picture(label, kind, owner, self.items(value, look.face))


def _how_many(value) -> int:
    """The items of a value as the viewer sees it: a list's, a hidden list's size, one item, or none."""
    if type(value) is dict and set(value) == {"hidden"}:
        return value["hidden"] if type(value["hidden"]) is int else 0
    if type(value) is list:
        return len(value)
    return 0 if value is None else 1


def _number(v) -> int:
    return v if type(v) is int else 0


def _track(label, look, marks) -> Picture:
    """A numbered track with a mark per player (or one for the table), LOW..HIGH or from the marks."""
    numbers = [n for _p, n in marks if type(n) is int]
    low = look.low if look.low is not None else min([0] + numbers)
    high = look.high if look.high is not None else max(10, -(-max(numbers + [0]) // 10) * 10)
    return Picture(label, "track", None, marks=tuple((p, n) for p, n in marks if type(n) is int), low=low, high=high)


def _ranking(g) -> str:
    keys = g.symbols.rank_keys
    if not keys:
        return ""
    words = [f"{'lowest' if asc else 'highest'} {name.replace('_', ' ')}" for name, asc in keys]
    return words[0] + " wins" + ("; ties: " + ", then ".join(words[1:]) if len(words) > 1 else "")


def _direction(g, expr) -> str:
    """' (low wins)' after a column that shows the first thing the players are ranked by."""
    keys = g.symbols.rank_keys
    if keys and isinstance(expr, ast.Name) and expr.id == keys[0][0]:
        return " (low wins)" if keys[0][1] else " (high wins)"
    return ""


def build(st, viewer: Optional[int] = None) -> Screen:
    """The screen ``viewer`` sees now (see Screen.viewer)."""
    g = st.game
    data = view(st, viewer)
    seen = data["vars"]
    # Expressions run over the viewer's copy of the variables, never the full state.
    shown_state = attrs.evolve(st, vars=visible_vars(st, viewer))

    def evaluate(entry, fn, env, expr=None):
        try:
            value = fn(shown_state, env)
            weigh(value, shown_state)  # printed or drawn whole: its items counted (a list holding one list twice...)
            return value
        except RULE_FAULTS + (RulesRuntimeError,) as exc:
            raise located(st, exc, entry.span, "display", expr if expr is not None else entry.expr) from None

    def entry_value(entry, fn, player=None):
        expr = entry.expr
        if isinstance(expr, ast.Name) and expr.id in seen:
            value = seen[expr.id]
            if expr.id in g.player_vars or expr.id in g.hands:
                value = value[player - 1] if player else None
            return value
        return evaluate(entry, fn, {ME: player} if player else {})

    drawer = _Drawer(st, shown_state, evaluate)
    pictures = []

    drawn = set()

    def shown_text(label, entry, fn, player, owner, line):
        """An entry's text; an entry drawn 'as cards' (and so on) adds its picture too (but the viewer's
        own hand on a 'players' line: its 'own' entries draw it)."""
        value = entry_value(entry, fn, player)
        if entry.look is None:
            return value_text(value)
        drawn.add((line, label))
        pic = drawer.picture(label, entry.look, owner, value)
        if not (pic.kind == "hand" and line == "players" and owner == viewer):
            pictures.append(pic)
        return picture_text(pic, with_text=line == "own")  # one's own cards with their texts

    legend, colours, columns, own, table = [], [], [], [], []
    column_entries = []
    for word, entries in g.screen:
        if word == "legend":
            legend += [(label, text) for label, _e, text in entries]
        elif word == "colours":
            colours += [(label, text) for label, _e, text in entries]
        elif word == "players":
            for label, entry, fn in entries:
                columns.append(label + _direction(g, entry.expr))
                column_entries.append((label, entry, fn))
        elif word == "own":
            if viewer:  # the table and the referee have no hand of their own
                own += [(label, shown_text(label, entry, fn, viewer, viewer, "own")) for label, entry, fn in entries]
        elif word == "table":
            for label, entry, fn in entries:
                if entry.look is not None and entry.look.kind == "track":
                    value = entry_value(entry, fn)
                    pictures.append(_track(label, entry.look, [(0, value)]))
                    table.append((label, value_text(value)))
                    drawn.add(("table", label))
                else:
                    table.append((label, shown_text(label, entry, fn, None, None, "table")))
    rows = {p: [] for p in range(1, g.player_count + 1)}
    for label, entry, fn in column_entries:
        if entry.look is not None and entry.look.kind == "track":  # one track, a mark per player
            marks = [(p, entry_value(entry, fn, p)) for p in rows]
            pictures.append(_track(label, entry.look, marks))
            for p, value in marks:
                rows[p].append(value_text(value))
            continue
        for p in rows:
            rows[p].append(shown_text(label, entry, fn, p, p, "players"))
    drawn_columns = frozenset(i for i, (_label, entry, _fn) in enumerate(column_entries) if entry.look is not None)
    counted_columns = frozenset(i for i, (_label, entry, _fn) in enumerate(column_entries)
                                if entry.look is not None and entry.look.kind == "hand")
    players = tuple((p, tuple(texts)) for p, texts in rows.items())

    spaces = {}
    if g.board is not None and g.display is not None:
        name, fn = g.display
        decl = g.symbols.display
        spaces = {s: str(evaluate(decl, fn, {name: s}) or ".") for s in g.board.spaces}

    paths = ()
    if g.board is not None and g.paths is not None:
        decl, fn = g.paths
        paths = tuple(tuple(path) for s in g.board.spaces for path in (evaluate(decl, fn, {decl.name: s}) or ())
                      if type(path) is list and len(path) >= 2 and all(x in g.board.spaces for x in path))

    title = f"{data['game']} - {data['players']} players"
    if data["options"]:
        title += " (" + ", ".join(f"{k}={v}" for k, v in data["options"].items()) + ")"
    status = f"round {data['round']}" + (f", {data['step']}" if data["step"] else "")
    if st.is_over():
        out = data["outcome"]
        note = "game over - " + (("winner" + ("s" if len(out["winners"]) > 1 else "") + ": "
                                   + ", ".join(f"player {p}" for p in out["winners"])) if out["winners"] else "a draw")
    elif data.get("window") and not data["to_move"]:
        note = WINDOW_NOTE
    elif data["to_move"]:
        note = "to move: " + ", ".join(f"player {p}" for p in data["to_move"])
    else:
        note = ""
    hidden_names = {ROUND_NUMBER}
    return Screen(title, status, viewer, g.board if spaces else None, spaces, tuple(legend), tuple(colours),
                  tuple(columns), players, tuple(own), tuple(table), _ranking(g), tuple(data["to_move"]), note,
                  {k: v for k, v in seen.items() if k not in hidden_names}, _in_order(pictures), paths,
                  frozenset(drawn), drawn_columns, counted_columns)


def _in_order(pictures) -> tuple:
    """The table's pictures first, then each player's in seat order (a player's entries together)."""
    return tuple(sorted(pictures, key=lambda pic: pic.owner or 0))
