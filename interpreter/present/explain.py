"""Moves that explain themselves: which rule offers a move, what the decider is asked, and the rules
text of the cards the move plays.

Three things the rules may say, none of them part of the machine (a decision's instructions and its
``Pending`` know nothing of them, so playing costs nothing more):

- a decision's **prompt** (``choose c in me.hand prompt "keep {n} of your {len(me.hand)} cards"``):
  prompts.py;
- a table's column named ``says``: the rules text of each of its items (a card, a tile); a move whose
  value is, or holds, such an item shows that text;
- the decision's line of the rules, quoted with its file and line.

An explanation is worked out for one viewer and holds only what that viewer may see: the decider (or
the referee, ``None``) is told everything above; another player is told of a secret decision's move
only what the move shows them (its ``shown`` text), of a public one no prompt (it may quote the
decider's secrets)."""
from __future__ import annotations

from pathlib import PurePath
from typing import Optional

import attrs

from rulewright.dsl import ast
from rulewright.dsl.errors import IllegalMoveError
from rulewright.interpreter.engine.state import Move
from rulewright.interpreter.present.prompts import decision_place, prompt
from rulewright.interpreter.engine.values import face_down, texts_held

# The column of a table that holds its items' rules text (docs/language.md, "Rules text of an item").
SAYS = "says"
_CARDS_MOST = 12  # the texts one explanation lists at most (a move that plays a whole hand)


@attrs.frozen
class Explanation:
    """One move, explained to one viewer (see the module's docstring for who is told what)."""
    player: int          # who makes the move
    text: str            # the move's text as the viewer sees it
    secret: bool = False  # a secret decision seen by someone else: nothing more is told
    rule: str = ""       # the procedure or block that asks ('turn', 'play_card')
    file: str = ""
    line: int = 0
    source: str = ""     # the decision's line of the rules, as written
    step: str = ""       # the step the game is in
    prompt: Optional[str] = None
    cards: tuple = ()    # (item, its rules text) for each item the move plays

    def to_dict(self) -> dict:
        out: dict = {"player": self.player, "move": self.text}
        if self.secret:
            out["secret"] = True
            return out
        out["rule"] = {"name": self.rule, "file": self.file, "line": self.line, "source": self.source}
        if self.step:
            out["step"] = self.step
        if self.prompt is not None:
            out["prompt"] = self.prompt
        out["cards"] = [{"item": item, "says": says} for item, says in self.cards]
        return out

    def lines(self) -> list[str]:
        """The explanation as readable lines."""
        return explanation_lines(self.to_dict())


def explanation_lines(told: dict) -> list[str]:
    """An explanation (``Explanation.to_dict()``, as the protocol sends it) as readable lines."""
    out = [f"player {told['player']}: {told['move']}"]
    if told.get("secret"):
        return out + ["  a secret choice: nothing more is shown"]
    rule = told["rule"]
    name = PurePath(rule["file"]).name  # the file's name reads better than its whole path
    where = f"{name}:{rule['line']}" if rule["line"] else name
    step = f", in the step '{told['step']}'" if told.get("step") else ""
    out.append(f"  offered by '{rule['name']}' at {where}{step}")
    if rule["source"]:
        out.append(f"    {rule['source'].strip()}")
    if "prompt" in told:
        out.append(f"  asked: {told['prompt']}")
    for card in told["cards"]:
        out.append(f"  {card['item']}: {card['says']}")
    return out


# ----------------------------------------------------------------------------- rules texts of items
def card_texts(game, value, viewer: Optional[int]) -> tuple:
    """(item, its rules text) for each item of a table with a ``says`` column that ``value`` is or holds
    (in lists and record fields, as ``viewer`` sees them: a face-down field tells nothing), in order,
    each once. Items are words or texts: a number is too often something else (a bid, a count)."""
    says = game.columns.get(SAYS)
    if not says:
        return ()
    if viewer is not None and game.field_visibility:
        value = face_down(game, value, viewer)
    found: dict = {}
    for v in texts_held(value):
        text = says.get(v)
        if type(text) is str and v not in found:
            found[v] = text
            if len(found) == _CARDS_MOST:
                break
    return tuple(found.items())


# ----------------------------------------------------------------------------- the explanation
def explain(st, move, viewer: Optional[int] = None) -> Explanation:
    """The explanation of ``move`` for ``viewer`` (None: the referee). A number or a text is looked up
    among the viewer's own moves, as ``apply`` looks it up; a Move object (from ``legal_moves()``) may be
    another player's, and is then told as that viewer sees it."""
    if type(move) is Move:
        p, _k, option = st._resolve(move, None)
    else:
        p, _k, option = st._resolve(move, viewer)
    pend = st.pending
    g = st.game
    secret = option.shown is not None
    if viewer is not None and viewer != p:
        if pend.window:  # who is asked in a window is told to them alone
            raise IllegalMoveError(f"player {viewer} cannot see this move: it is another player's")
        if secret:
            return Explanation(p, option.shown, secret=True)
    span = decision_place(st)
    rules = g.rules
    told = viewer is None or viewer == p
    return Explanation(
        player=p,
        text=option.text,
        rule=st.frames[-1].proc,
        file=span.file if span is not None else g.file,
        line=span.line if span is not None else pend.line,
        source=rules.source_line(span) if span is not None else "",
        step=st.step,
        prompt=prompt(st, p) if told else None,
        cards=card_texts(g, option.value, viewer),
    )


def move_notes(st, player: Optional[int] = None) -> list[str]:
    """For each of legal_moves(player), in order, the rules text of what it plays ('' for none): the
    items' texts joined, for a screen to show beside the move."""
    if st.pending is None or SAYS not in st.game.columns:
        return [""] * len(st.legal_moves(player))
    table = st._legal_table(player)
    return ["; ".join(says for _item, says in card_texts(st.game, o.value, player))
            for _p, opts in table.groups for o in opts]


def move_spaces(st, player: int) -> list[list]:
    """For each of legal_moves(player), in order, the board's spaces its text shows: those the parts of
    its value that the decision's text holds as holes are or hold (the chosen name itself, or a field of
    it: ``"move {m.origin} {m.heading}"`` shows ``m``'s origin), as ``player`` sees them (a face-down
    field names none), each once: a table's page marks them. Read from the moves' values, which the
    decision made beside their texts, never from the texts' words; a value the text does not show (an
    item picked blind) names none."""
    board = st.game.board
    shown = _shown_parts(st) if st.pending is not None and board is not None else ()
    if not shown:
        return [[] for _ in st.legal_moves(player)]
    spaces = set(board.spaces)
    named = []
    for _p, opts in st._legal_table(player).groups:
        for o in opts:
            value = face_down(st.game, o.value, player) if st.game.field_visibility else o.value
            held = (v for path in shown for v in texts_held(_part(value, path)))
            named.append(list(dict.fromkeys(v for v in held if v in spaces)))
    return named


def _shown_parts(st) -> tuple:
    """The parts of the value chosen that the pending decision's move texts show, each as the path of
    fields that leads to it from the value (() for the whole value): the whole value where there is no
    'as' text (a move's text is its value's) or a 'choose:' block (its value is the label)."""
    frame = st.frames[-1]
    proc = st.game.procs.get(frame.proc)
    pc = frame.pc - 1  # the frame waits at the instruction after its choose
    node = getattr(proc.instructions[pc], "node", None) if proc is not None and 0 <= pc < len(proc.instructions) \
        else None
    if isinstance(node, ast.ChooseEach):
        node = node.choice
    if isinstance(node, ast.ChooseBlock) or (isinstance(node, ast.Choose) and node.text is None):
        return ((),)
    if not isinstance(node, ast.Choose) or not isinstance(node.text, ast.Template):
        return ()
    paths = []
    for hole in node.text.parts:
        path = []
        while isinstance(hole, ast.Attr):
            path.append(hole.name)
            hole = hole.obj
        if isinstance(hole, ast.Name) and hole.id == node.var:
            paths.append(tuple(reversed(path)))
    return tuple(dict.fromkeys(paths))


def _part(value, path: tuple):
    for field in path:
        value = value.get(field) if type(value) is dict else None
    return value
