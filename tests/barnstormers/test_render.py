"""What Barnstormers looks like: the air show drawn from the rules' display (each plane as its
colour's letter and an arrow for its heading, '~' for an empty space in the clouds), and what one
player may see of the others' cards."""
from __future__ import annotations

import pytest

from rulewright.interpreter.present.render import render_board

from .helpers import clear, game, put, ready

ARROWS = {"E": "→", "NE": "↗", "N": "↑", "NW": "↖", "W": "←", "SW": "↙", "S": "↓", "SE": "↘"}
LETTERS = "BRGY"


def cells(text):
    """{space: what the board shows there}, read back from the drawing."""
    out = {}
    for line in text.splitlines()[1:]:
        row, *shown = line.split()
        for col, s in enumerate(shown, start=1):
            out[f"{row}{col}"] = s
    return out


@pytest.mark.parametrize("players, board", [(2, "standard"), (3, "standard"), (4, "standard"),
                                            (2, "advanced"), (3, "advanced"), (4, "advanced")])
def test_start_of_the_air_show(players, board, snapshot):
    st = game(players, board=board).new_state(seed=1)
    text = render_board(st)
    shown = cells(text)
    for x, plane in st.vars["air"].items():
        assert shown[x] == LETTERS[plane["owner"] - 1] + ARROWS[plane["heading"]]
    empty = {x: s for x, s in shown.items() if x not in st.vars["air"]}
    if players == 2:
        assert set(empty.values()) == {"."}                # the clouds are off the 5x5 board
    else:
        assert {x for x, s in empty.items() if s == "~"} == {
            x for x in empty if x[0] in "AG" or x[1:] in ("1", "7")}
    assert text == snapshot


def test_every_heading_has_its_arrow(snapshot):
    st = ready(4)
    clear(st)
    for i, (h, owner) in enumerate(zip(ARROWS, (1, 2, 3, 4, 1, 2, 3, 4)), start=0):
        put(st, f"{'BCDEF'[i % 5]}{2 + i // 5 * 3 + i % 2}", owner, h)
    text = render_board(st)
    shown = cells(text)
    assert sorted(s[1] for s in shown.values() if s not in ("~", ".")) == sorted(ARROWS.values())
    assert text == snapshot


def test_full_render_for_one_player(snapshot):
    st = game(3, requests="open_and_secret", specialist="on").new_state(seed=2)
    for p in (1, 2, 3):
        st.apply(st.legal_moves(p)[0], player=p)
    text = st.render(1)
    assert "hand: 1: [" in text and '2: {"hidden": 2}' in text
    assert text == snapshot
