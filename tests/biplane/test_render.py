"""What Biplane looks like: the board drawn from the rules' display (planes with their facing,
yellow and orange shots, the tree) and what one player may see of the others' hands."""
from __future__ import annotations

import json

from .helpers import game, place, program_all, quiet, ready, shot

SEED, MOVES = 11, 16      # two answers to the deal's question, then the discards and first programs


def after_a_few_moves():
    st = game(2).new_state(seed=SEED)
    for _ in range(MOVES):
        st.apply(st.legal_moves()[0])
    return st


def board_rows(text):
    return {line[0]: line[3:].split() for line in text.splitlines() if line[:1] in "ABCDEFG" and line[1:3] == "  "}


def test_render_after_a_few_moves(snapshot):
    st = after_a_few_moves()
    text = st.render()
    rows = board_rows(text)
    v = st.vars
    for p, (space, heading) in enumerate(zip(v["at"], v["heading"]), 1):
        arrow = {"right": ">", "up": "^", "left": "<", "down": "v"}[heading]
        assert rows[space[0]][int(space[1:]) - 1] == f"{p}{arrow}"
    assert text == snapshot


def test_player_view_masks_the_other_hands(snapshot):
    st = after_a_few_moves()
    view = st.view(1)
    mine, theirs = view["vars"]["perm"]
    assert mine == st.vars["perm"][0]
    # the two hands' cards are counted together: which hand a card left stays its owner's
    assert theirs == "?" and view["vars"]["temp"][1] == "?"
    assert view["vars"]["hand"] == [st.vars["perm"][0] + st.vars["temp"][0],
                                    {"hidden": len(st.vars["perm"][1]) + len(st.vars["temp"][1])}]
    assert view["vars"]["owned"][1] == {"hidden": len(st.vars["owned"][1])}
    assert view["vars"]["programmed"][1] == "?"
    assert view["vars"]["deck"] == {"hidden": len(st.vars["deck"])}
    assert view["vars"]["shown"] == st.vars["shown"]          # face-up cards are public
    assert view["vars"]["shots"] == st.vars["shots"]
    assert "legal_moves" not in view                          # player 2 is the one deciding
    hidden = st.vars["perm"][1] + st.vars["temp"][1]
    dumped = json.dumps(view)
    assert not [c for c in hidden if c != "Shoot" and f'"{c}"' in dumped]
    assert view == snapshot
    assert st.render(1) == snapshot


def test_secret_first_programs_stay_hidden_until_all_have_chosen():
    st = ready(2, seed=SEED)
    choice = st.legal_moves(2)[0]
    st.apply(choice, player=2)
    card = choice.text.removeprefix("program ")
    view = st.view(1)
    assert view["chosen"] == [2]
    assert card not in json.dumps(view)
    assert card not in st.render(1)
    assert view["legal_moves"] == [m.text for m in st.legal_moves(1)]
    assert card in json.dumps(st.view(2))                     # its owner still sees the hand


def test_board_shows_shots_by_colour_and_heading_and_the_tree():
    st = ready(2, board="tree")
    quiet(st)
    place(st, 1, "E5", "up")
    place(st, 2, "C9", "left")
    st.vars["shots"] = [shot(1, "F2", "right"), shot(2, "B11", "down", "orange")]
    rows = board_rows(st.render())
    assert rows["E"][4] == "1^" and rows["C"][8] == "2<"
    assert rows["F"][1] == "y>" and rows["B"][10] == "ov"
    assert rows["A"][6] == "T"
    assert sum(cell != "." for row in rows.values() for cell in row) == 5
    place(st, 1, "E5", "left")
    program_all(st, {})   # the shots move: F2 -> F5, B11 -> A11 and off; then 1 flies to E4
    rows = board_rows(st.render())
    assert rows["F"][4] == "y>" and rows["F"][1] == "." and rows["E"][3] == "1<"
    assert sum(cell != "." for row in rows.values() for cell in row) == 4
