"""Paper cuts of issue 42 (item 6) that have a test of their own outside the web's: `list` shows an option's
default once, and the README names the adapters by the public paths docs/adapters.md uses. (The web's:
tests/test_web_tables.py; ':quit' saying so: tests/test_cli.py and tests/test_terminal.py.)"""
from __future__ import annotations

import re
from pathlib import Path

from rulewright.cli.listing import format_games

ROOT = Path(__file__).resolve().parent.parent


def test_list_shows_each_option_value_once():
    # connect-four's rows: its default first, then every value it allows, the default among them
    games = [{"name": "connect-four", "title": "Connect Four", "players": [2, 2],
              "options": {"rows": [6, 4, 5, 6, 7], "skill": ["0", "1", "2"]},
              "option_descriptions": {"rows": "rows of the frame"}}]
    lines = format_games(games)
    assert lines[1].strip() == "option rows: 4 | 5 | 6 | 7 (default 6): rows of the frame"
    assert lines[2].strip() == "option skill: 0 | 1 | 2 (default 0)"


def test_readme_names_the_adapters_by_their_public_paths():
    readme = (ROOT / "README.md").read_text()
    adapters = (ROOT / "docs" / "adapters.md").read_text()
    assert "from rulewright import pettingzoo" in adapters and "rulewright.pettingzoo.env(" in readme
    assert not re.search(r"rulewright\.interpreter\.play\.\w+_adapter", readme)
    import rulewright.pettingzoo  # noqa: F401  (the path the README names imports)


def test_a_players_heading_takes_the_colour_the_rules_give_the_seat():
    """PLANES gives each seat a colour in a 'players' column (red, yellow, blue): player 2's heading in the
    picture and its row on the terminal are yellow, not the fixed round's blue."""
    import re

    import rulewright
    from rulewright.cli.screen import screen_text
    from rulewright.interpreter.present.screen import build
    from rulewright.interpreter.present.svg import picture
    from rulewright.interpreter.present.svg_text import INK
    state = rulewright.load("planes", players=3).new_state(seed=1)
    screen = build(state, 1)
    assert [screen.seat_colour(p) for p in (1, 2, 3)] == ["red", "yellow", "blue"]
    assert re.findall(r'<text[^>]*fill="([^"]+)"[^>]*>player 2', picture(screen)) == [INK["yellow"]]
    coloured = screen_text(state, 1, colour=True)
    row = next(line for line in coloured.splitlines() if re.match(r"\x1b\[[0-9;]*m\s*2\s", line))
    assert row.startswith("\x1b[33m") and "yellow" in row  # yellow, as its Colour column says


def test_a_card_title_is_never_split_mid_word_nor_drawn_on_its_corners_line():
    from rulewright.interpreter.present.screen import Face
    from rulewright.interpreter.present.svg_components import CARD_W, _wrapped
    # a word too long beside the corner goes under it, whole: the first line (the corner's) stays empty
    assert _wrapped(Face("Workshop", "2 VP"), CARD_W)[0] == ["", "Workshop"]
    assert _wrapped(Face("Maintenance Crew", "2 VP"), CARD_W)[0] == ["", "Maintenance", "Crew"]
    assert _wrapped(Face("Press Office", "2 VP"), CARD_W)[0] == ["Press", "Office"]
    assert _wrapped(Face("Workshop"), CARD_W)[0] == ["Workshop"]  # no corner: nothing to clear


LONG_LINES = '''game "Long lines"
players 2
player var score = 0
turn:
    log "the judges of the air show applaud the daring barrel roll of player {me} over the grandstand while the band plays and the crowd counts the seconds"
    choose x in ["go"]
    me.score += 1
end when round_number == 2 after round
'''


def test_a_line_longer_than_the_terminal_breaks_between_words(terminals, tmp_path):
    """At a 120-column terminal a log line of 150 letters goes on two lines, each word whole (the terminal
    cut it mid-word), its second line indented under the first."""
    rules = tmp_path / "long.rules"
    rules.write_text(LONG_LINES, encoding="utf-8")
    term = terminals("play", str(rules), "--seed", "1", "--auto", "first", "--human", "1")
    term.prompt()
    term.send("1")
    term.prompt()
    lines = term.shown().splitlines()
    first = next(i for i, line in enumerate(lines) if "the judges of the air show" in line)
    words = LONG_LINES.split('log "')[1].split('"')[0].replace("{me}", "1").split()
    assert lines[first].split() + lines[first + 1].split() == words
    assert lines[first + 1].startswith("    ") and len(lines[first]) <= 120


def test_the_terminal_says_an_empty_drawn_entry_as_the_picture_does_and_ones_own_cards_with_their_text():
    """Air Show: 'Events held' (drawn as cards, none held) reads 'none' on the terminal as in the picture
    (it read '-'), and the hand shows each card's text beside its code (it read 'AS06 [P2]' alone)."""
    from rulewright.cli.screen import screen_text
    from rulewright.interpreter.present.screen import build
    from rulewright.interpreter.present.svg import picture
    from rulewright.interpreter.testing import shipped
    state = shipped("air-show").new_state(seed=1)
    text = screen_text(state, 1, width=120)
    assert re.search(r"^Events held +none$", text, re.M)
    assert ">Events held</text>" in picture(build(state, 1))
    assert re.search(r'>Events held</text>\s*<text[^>]*>none</text>', picture(build(state, 1)))
    while not state.vars["hand"][0]:  # until player 1 holds air show cards
        state.apply(state.legal_moves()[0])
    card = state.vars["hand"][0][0]
    row = next(line for line in screen_text(state, 1, width=120).splitlines() if card in line)
    assert re.search(rf"{card} \[P\d\]: (sunny|bad) \d, \w+ spanner \d, EX\d", row), row


def test_path_marks_draw_lines_and_quarter_circles_between_a_grids_spaces():
    from rulewright.interpreter.boards.grid import grid_space_name, path_marks
    coords = {grid_space_name(r, c): (r, c) for r in range(3) for c in range(3)}
    # a quarter circle from A1 to B2 is drawn in their corner by the space it bends at
    assert path_marks(coords, [["A1", "B1", "B2"]]) == {("corner", 0, 0): "╭"}
    assert path_marks(coords, [["A1", "A2", "B2"]]) == {("corner", 0, 0): "╯"}
    assert path_marks(coords, [["B1", "B2", "A2"]]) == {("corner", 0, 0): "╮"}
    assert path_marks(coords, [["B1", "A1", "A2"]]) == {("corner", 0, 0): "╰"}
    # both ways round (Biplane's loops): the diagonal they join; both diagonals: a cross
    assert path_marks(coords, [["A1", "B1", "B2"], ["A1", "A2", "B2"]]) == {("corner", 0, 0): "╱"}
    assert path_marks(coords, [["A1", "B2"], ["B1", "A2"]]) == {("corner", 0, 0): "╳"}
    # straight lines between neighbours; a path whose spaces are not neighbours (a wrapped edge) is left out
    assert path_marks(coords, [["A1", "A2"], ["B3", "C3"], ["A1", "A3"]]) == \
        {("row", 0, 0): "─", ("column", 1, 2): "│"}


def test_the_terminal_draws_biplanes_loops_as_the_picture_does(terminals):
    """Biplane's 'paths' (every loop a card may fly) at a real terminal: a line between each two rows
    marks the diagonal each pair of loops joins, as the picture's curves do, with a note saying so."""
    term = terminals("play", "biplane", "--players", "2", "--seed", "5", "--auto", "random", "--human", "1")
    term.prompt()
    lines = term.shown().splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("G  "))
    between = [lines[top + 2 * k + 1].strip() for k in range(6)]  # the lines between rows G..A
    assert between[0] == "  ".join("╲╱" * 6)[:len(between[0])] and len(between[0].split()) == 11
    assert between[1] == "  ".join("╱╲" * 6)[:len(between[1])]
    assert [lines[top + 2 * k][0] for k in range(7)] == list("GFEDCBA")
    assert "paths: ╱ ╲ join the spaces beside them" in term.shown()
    term.send(":quit")
    term.finish()
