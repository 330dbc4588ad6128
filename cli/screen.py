"""The play screen drawn with rich: the board with colours and its legend, a row per player, the
public zones, the viewer's own things, whose move it is. Readable in 80 columns; at a terminal, as wide
as the terminal. The variables behind it appear only on request (``:vars``). What it shows comes from
interpreter/present/screen.py (the viewer's view only).

Every text here comes from a rules file: each becomes a rich Text through ``_plain`` (control characters
shown escaped, no rich markup read), so the only escape codes on the screen are the styles added here."""
from __future__ import annotations

import io
import json
from typing import Optional

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from rulewright.cli.output import PIPED_WIDTH, printable, terminal_console
from rulewright.interpreter.engine import limits
from rulewright.interpreter.present.screen import Screen, build

WIDTH = PIPED_WIDTH
# one colour per player for the players' rows (the rules' 'colours' colour the board)
PLAYER_COLOURS = ("red", "blue", "green", "magenta", "yellow", "cyan")


def _plain(text, style: str = "") -> Text:
    """A text from the rules as rich Text: its control characters escaped, never read as markup."""
    return Text(printable(str(text)), style=style)


def _board(sc: Screen) -> Text:
    text = Text()
    for i, line in enumerate(sc.board.layout(sc.spaces)):
        if i:
            text.append("\n")
        pieces = list(line)
        while pieces and pieces[-1][1] is None and not pieces[-1][0].strip():
            pieces.pop()  # no trailing blanks
        for piece, space in pieces:
            colour = sc.colour_of(piece) if space is not None else None
            text.append(printable(piece), style=f"bold {colour}" if colour else ("dim" if space is None else ""))
    return text


def _legend(sc: Screen) -> Text:
    text = Text()
    text.append("legend: ", style="bold")
    for i, (mark, meaning) in enumerate(sc.legend):
        if i:
            text.append("  ")
        colour = sc.colour_of(mark)
        text.append(printable(mark), style=f"bold {colour}" if colour else "bold")
        text.append(" " + printable(meaning))
    return text


def _players(sc: Screen) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, expand=False)
    table.add_column("player", no_wrap=True)
    for label in sc.columns:
        table.add_column(_plain(label), overflow="fold")
    for p, values in sc.players:
        marks = ("> " if p in sc.to_move else "  ") + str(p) + (" (you)" if p == sc.viewer else "")
        table.add_row(Text(marks, style=PLAYER_COLOURS[(p - 1) % len(PLAYER_COLOURS)]), *map(_plain, values))
    return table


def _pairs(title: str, pairs) -> Group:
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(no_wrap=True, style="bold")
    table.add_column(overflow="fold")
    for label, value in pairs:
        table.add_row(_plain(label), _plain(value))
    return Group(_plain(title, style="bold underline"), table)


def renderable(sc: Screen, with_vars: bool = False, with_turn_note: bool = True) -> Group:
    parts = [_plain(sc.title, style="bold"), _plain(sc.status + (f"   ({sc.ranking})" if sc.ranking else ""))]
    if sc.board is not None:
        parts += [Text(""), _board(sc)]
    if sc.legend:
        parts.append(_legend(sc))
    if sc.columns:
        parts += [Text(""), _players(sc)]
    if sc.table:
        parts += [Text(""), _pairs("on the table", sc.table)]
    if sc.own:
        parts += [Text(""), _pairs(f"yours (player {sc.viewer})", sc.own)]
    if with_vars or not (sc.board or sc.columns or sc.table or sc.own):
        parts += [Text(""), _vars(sc)]
    if sc.turn_note and with_turn_note:
        parts += [Text(""), _plain(sc.turn_note, style="bold")]
    return Group(*parts)


def _vars(sc: Screen) -> Text:
    """Every variable as the viewer sees it: the rules' own names, for designers."""
    text = Text()
    text.append("variables:", style="bold")
    for name, value in sc.vars.items():
        text.append(printable(f"\n{name}: {json.dumps(value, ensure_ascii=False)}"))
    return text


def screen_text(state, viewer: Optional[int] = None, with_vars: bool = False, width: int = WIDTH,
                colour: bool = False, with_turn_note: bool = True) -> str:
    """The screen as text (ANSI colours if ``colour``), for the prompt, `show` and tests; without the
    closing line (whose move it is, or the outcome) when the caller says it its own way."""
    limits.fresh(state)  # the display runs the rules' expressions: bounded like a move
    sc = build(state, viewer)
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system="standard" if colour else None,
                      force_terminal=colour, highlight=False, emoji=False, legacy_windows=False)
    console.print(renderable(sc, with_vars, with_turn_note))
    return "\n".join(line.rstrip() for line in buffer.getvalue().splitlines())


def print_screen(stream, state, viewer: Optional[int] = None, with_vars: bool = False,
                 with_turn_note: bool = True) -> None:
    """The screen as a person reads it on ``stream``: coloured and as wide as the terminal at one,
    plain text otherwise (cli/output.py's terminal_console)."""
    limits.fresh(state)  # the display runs the rules' expressions: bounded like a move
    shown = renderable(build(state, viewer), with_vars, with_turn_note)
    terminal_console(stream).print(shown)
