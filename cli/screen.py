"""The play screen drawn with rich: the board with colours and its legend, a row per player, the
public zones, the viewer's own things, whose move it is. Readable in 80 columns; at a terminal, as wide
as the terminal. The variables behind it appear only on request (``:vars``). What it shows comes from
interpreter/present/screen.py (the viewer's view only).

Every text here comes from a rules file: each becomes a rich Text through ``_plain`` (control characters
shown escaped, no rich markup read), so the only escape codes on the screen are the styles added here."""
from __future__ import annotations

import io
import json
import re
from typing import Optional

from rich import box
from rich.cells import cell_len as cells, chop_cells
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from rulewright.cli.output import PIPED_WIDTH, printable, terminal_console
from rulewright.interpreter.engine import limits
from rulewright.interpreter.present.screen import Screen, build

WIDTH = PIPED_WIDTH
# one colour per player for the players' rows (the rules' 'colours' colour the board)
PLAYER_COLOURS = ("red", "blue", "green", "magenta", "yellow", "cyan")
TERMINAL_COLOURS = {"grey": "bright_black"}  # the language's colours rich names otherwise


def _plain(text, style: str = "") -> Text:
    """A text from the rules as rich Text: its control characters escaped, never read as markup."""
    return Text(printable(str(text)), style=style)


def _board(sc: Screen) -> Text:
    text = Text()
    for i, line in enumerate(sc.board.layout(sc.spaces, sc.paths)):
        if i:
            text.append("\n")
        pieces = list(line)
        while pieces and pieces[-1][1] is None and not pieces[-1][0].strip():
            pieces.pop()  # no trailing blanks
        for piece, space in pieces:
            colour = sc.colour_of(piece) if space is not None else None
            text.append(printable(piece), style=f"bold {colour}" if colour else ("dim" if space is None else ""))
    return text


PATH_GLYPHS = "─│╱╲╳╭╮╰╯"  # what a grid's text draws the rules' 'paths' with (boards/grid.py, path_marks)


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
        colour = sc.seat_colour(p) or PLAYER_COLOURS[(p - 1) % len(PLAYER_COLOURS)]
        table.add_row(Text(marks, style=TERMINAL_COLOURS.get(colour, colour)), *map(_plain, values))
    return table


def _pairs(title: str, pairs) -> Group:
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(no_wrap=True, style="bold")
    table.add_column(overflow="fold")
    for label, value in pairs:
        table.add_row(_plain(label), _plain(value))
    return Group(_plain(title, style="bold underline"), table)


def renderable(sc: Screen, with_vars: bool = False, with_turn_note: bool = True, width: int = WIDTH) -> Group:
    """The parts of the screen, for rich, but the variables: a list of lines, for the stream (_print)."""
    parts = [_plain(sc.title, style="bold"), _plain(sc.status + (f"   ({sc.ranking})" if sc.ranking else ""))]
    board = _board(sc) if sc.board is not None else Text("")
    if sc.board is not None:
        parts += [Text(""), board]
    if sc.legend:
        parts.append(_legend(sc))
    drawn_paths = [glyph for glyph in PATH_GLYPHS if glyph in board.plain]
    if drawn_paths:
        parts.append(Text(f"paths: {' '.join(drawn_paths)} join the spaces beside them (lines and curves in the "
                          "picture)", style="dim"))
    if sc.columns:
        parts += [Text(""), _players(sc)]
    if sc.table:
        parts += [Text(""), _pairs("on the table", sc.table)]
    if sc.own:
        parts += [Text(""), _pairs(f"yours (player {sc.viewer})", sc.own)]
    if with_vars or not (sc.board or sc.columns or sc.table or sc.own):
        parts += [Text(""), Text("variables:", style="bold"), _vars(sc, width)]
    if sc.turn_note and with_turn_note:
        parts += [Text(""), _plain(sc.turn_note, style="bold")]
    return Group(*parts)


def _vars(sc: Screen, width: int) -> list:
    """Every variable as the viewer sees it: the rules' own names, for designers. Plain lines, wrapped
    here (``wrapped``): a variable may hold a million items, and rich wraps a long text in a time that
    grows with its square."""
    lines = []
    for name, value in sc.vars.items():
        lines += wrapped(printable(f"{name}: {json.dumps(value, ensure_ascii=False)}"), width)
    return lines


_WORD = re.compile(r"\s*\S+\s*")  # as rich splits a text into words


def wrapped(text: str, width: int) -> list:
    """``text`` (one line) in lines of at most ``width`` cells, broken where rich breaks it (a word goes to
    the next line when it does not fit, a word wider than a line is cut), in time linear in the text."""
    if text.isascii() and not _OTHER_SPACE.search(text):
        return _wrapped_plain(text, width)
    lines, line, used = [], [], 0
    cell_len = cells
    for match in _WORD.finditer(text):
        word = match.group()
        size = cell_len(word.rstrip())
        if size <= width - used:
            line.append(word)
            used += cell_len(word)
            continue
        if line:
            lines.append("".join(line).rstrip())
            line, used = [], 0
        while cell_len(word.rstrip()) > width:  # a word wider than the line: cut into lines
            head = chop_cells(word, width)[0]
            lines.append(head)
            word = word[len(head):]
        line, used = [word], cell_len(word)
    if line or not lines:
        lines.append("".join(line).rstrip())
    return lines


_OTHER_SPACE = re.compile(r"[\t\n\r\x0b\x0c]")
_NOT_SPACE = re.compile(r"[^ ]")


def _wrapped_plain(text: str, width: int) -> list:
    """``wrapped`` for ASCII text whose only blanks are spaces (one cell a letter): a line at a time, from
    the last space that lets it fit, found in C."""
    lines, start, end = [], 0, len(text)
    while start < end:
        if end - start <= width or text[start + width:start + width + 1] == " " and text[start:start + width].strip():
            cut = end if end - start <= width else start + width
        else:
            cut = text.rfind(" ", start, start + width + 1)
            if cut <= start or not text[start:cut].strip():  # one word wider than the line: cut it
                cut = start + width
                lines.append(text[start:cut])
                start = cut
                continue
        lines.append(text[start:cut].rstrip())
        found = _NOT_SPACE.search(text, cut)
        start = found.start() if found else end
    return lines or [""]


def _print(console: Console, sc: Screen, with_vars: bool, with_turn_note: bool) -> None:
    """The screen on ``console``: rich draws the parts, the variables are written as lines (see _vars)."""
    for part in renderable(sc, with_vars, with_turn_note, console.width).renderables:
        if type(part) is list:
            console.file.write("".join(line + "\n" for line in part))
        else:
            console.print(part)


def screen_text(state, viewer: Optional[int] = None, with_vars: bool = False, width: int = WIDTH,
                colour: bool = False, with_turn_note: bool = True) -> str:
    """The screen as text (ANSI colours if ``colour``), for the prompt, `show` and tests; without the
    closing line (whose move it is, or the outcome) when the caller says it its own way."""
    limits.fresh(state)  # the display runs the rules' expressions: bounded like a move
    sc = build(state, viewer)
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system="standard" if colour else None,
                      force_terminal=colour, highlight=False, emoji=False, legacy_windows=False)
    _print(console, sc, with_vars, with_turn_note)
    return "\n".join(line.rstrip() for line in buffer.getvalue().splitlines())


def print_screen(stream, state, viewer: Optional[int] = None, with_vars: bool = False,
                 with_turn_note: bool = True) -> None:
    """The screen as a person reads it on ``stream``: coloured and as wide as the terminal at one,
    plain text otherwise (cli/output.py's terminal_console)."""
    limits.fresh(state)  # the display runs the rules' expressions: bounded like a move
    _print(terminal_console(stream), build(state, viewer), with_vars, with_turn_note)
