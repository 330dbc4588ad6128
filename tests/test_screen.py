"""The play screen: every shipped game's screen at 80 columns (snapshots), built from the viewer's view
only, and the 'display:' section's parts and mistakes on their own."""
from __future__ import annotations


import pytest

import rulewright
from rulewright.cli.screen import screen_text
from rulewright.dsl.errors import RulesError
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import shipped_games
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.present.screen import build
from rulewright.interpreter.testing import played

GAMES = sorted(shipped_games())


@pytest.mark.parametrize("name", GAMES)
def test_screen_snapshot(name, snapshot):
    st = played(name)
    viewer = st.to_move()[0] if st.to_move() else 1
    text = screen_text(st, viewer)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert text == snapshot


@pytest.mark.parametrize("name", GAMES)
def test_every_shipped_game_declares_its_screen(name):
    """A person plays without reading a variable name: each game has a board or players' rows."""
    sc = build(played(name, moves=0), 1)
    assert sc.board is not None or sc.columns
    assert "variables:" not in screen_text(played(name, moves=0), 1)


def _twin_with_other_secrets_changed(name, st, viewer):
    """A copy of ``st`` in which every list ``viewer`` may not see holds other items (same sizes)."""
    twin = rulewright.load(name).load_state(st.to_json(), verify=False)
    g = st.game
    for var, visibility in g.visibility.items():
        if visibility == "public":
            continue
        value = twin.vars[var]
        if var in g.player_vars:
            for p, entry in enumerate(value, 1):
                if p != viewer or visibility == "hidden":
                    value[p - 1] = _scrambled(entry)
        else:
            twin.vars[var] = _scrambled(value)
    return twin, twin.to_json() != st.to_json()


def _scrambled(value):
    """Other items, the same counts (a list of lists, such as one deck per level, shows each size)."""
    if type(value) is not list or not value:
        return value
    if all(type(v) is list for v in value):
        return [_scrambled(v) for v in value]
    return [value[-1]] * len(value)


@pytest.mark.parametrize("name", ["biplane", "barnstormers", "air-show", "magnificent-flying-machines", "planes"])
def test_screen_shows_only_the_viewers_view(name):
    """Changing what player 1 may not see changes nothing on player 1's screen."""
    st = played(name, moves=20)
    twin, changed = _twin_with_other_secrets_changed(name, st, 1)
    assert changed
    assert twin.view(1) == st.view(1)
    assert screen_text(twin, 1, with_vars=True) == screen_text(st, 1, with_vars=True)
    assert screen_text(twin, None, with_vars=True) != screen_text(st, None, with_vars=True)  # the referee sees it


def test_own_hand_shown_to_its_owner_only():
    st = played("planes", moves=0)
    hand_1, hand_2 = st.vars["hand"]
    mine = dict(build(st, 1).own)["Hand"]  # each card by its face, a line each: 'To Gift Shop [2 VP]: goal: ...'
    assert hand_1 and [c.split(" [")[0] for c in mine.split("\n")] == hand_1
    ((label, theirs),) = build(st, 2).own
    assert label == "Hand" and [c.split(" [")[0] for c in theirs.split("\n")] == hand_2
    assert build(st, 0).own == ()  # the table has no hand


RULES = '''game "Marks"
players 2
board b: grid 3 by 3
var marks = {}
var pool = [1, 2, 3] hidden
player var hand = [7, 8] secret
player var score = 0
rank by score descending
display:
    board s = "." if marks[s] == none else text(marks[s])
    legend "1" = "player 1's mark", "." = "empty"
    colours "1" = "red", "2" = "blue"
    own "Hand" = hand
    players "Score" = score, "Cards" = hand, "Marks" = count(s in b where marks[s] == me)
    table "Pool" = pool
turn:
    choose cell in b where marks[cell] == none
    marks[cell] = me
    score[me] += 1
    if len(marks) == 9:
        end game
'''


def test_display_section_parts(load_file):
    st = load_file(RULES, "marks.rules").new_state(1)
    st.apply("A1")
    sc = build(st, 2)
    assert sc.spaces["A1"] == "1" and sc.spaces["B2"] == "."
    assert sc.legend == (("1", "player 1's mark"), (".", "empty"))
    assert sc.colour_of("1") == "red" and sc.colour_of(".") is None
    assert sc.columns == ("Score (high wins)", "Cards", "Marks")
    assert sc.players == ((1, ("1", "2 face down", "1")), (2, ("0", "7, 8", "0")))
    assert sc.own == (("Hand", "7, 8"),)
    assert sc.table == (("Pool", "3 face down"),)
    assert sc.ranking == "highest score wins"
    text = screen_text(st, 2)
    assert "legend: 1 player 1's mark  . empty" in text and "to move: player 2" in text
    assert "variables:" not in text and "variables:" in screen_text(st, 2, with_vars=True)
    assert "\x1b[" in screen_text(st, 2, colour=True) and "\x1b[" not in text


@pytest.mark.parametrize("line, message", [
    ('    players "Cards" = len(hand[me])', "cannot show the secret variable 'hand'"),
    ('    table "Pool" = len(pool)', "cannot show the hidden variable 'pool'"),
    ('    table "Score" = score', "'score' is a player variable"),
    ('    colours "1" = "purple"', "'purple' is not a colour the screen knows"),
    ('    legend "1" = 1', 'a legend entry is "text" = "text"'),
    ('    own "Hand" = hands', "hands"),
])
def test_display_section_mistakes(line, message):
    text = RULES.replace('    table "Pool" = pool\n', line + "\n")
    errors = [d.render() for d in check(parse(text, "t.rules")) if d.severity == "error"]
    assert errors and message in errors[0]


def test_display_section_unknown_word():
    with pytest.raises(RulesError) as info:
        parse(RULES.replace("    own ", "    mine "), "t.rules")
    assert "'mine' is not a line of 'display:'" in str(info.value)


def test_board_drawn_twice_is_an_error():
    text = RULES.replace("display:\n", 'display s = "."\ndisplay:\n')
    assert any("drawn twice" in d.render() for d in check(parse(text, "t.rules")))


def test_without_a_display_section_the_variables_are_shown(load_file):
    text = RULES[:RULES.index("display:")] + RULES[RULES.index("turn:"):]
    st = load_file(text, "marks.rules").new_state(1)
    shown = screen_text(st, 1)
    assert "variables:" in shown and "score: [0, 0]" in shown


def test_variants_inherit_the_display_section():
    base, variant = build(played("biplane", 0), 1), build(played("biplane-more-ammo", 0), 1)
    assert base.columns == variant.columns and base.legend == variant.legend


def test_prompt_shows_the_screen_and_vars_on_request():
    from typer.testing import CliRunner
    from rulewright.cli.main import app
    result = CliRunner().invoke(app, ["play", "tic-tac-toe", "--seed", "1"], input=":vars\nB2\n:quit\n")
    assert result.exit_code == 0, result.output
    before_vars, after_vars = result.output.split("move> :vars", 1)
    assert "legend: x player 1's mark  o player 2's mark" in before_vars
    assert "variables:" not in before_vars and "marks: {}" not in before_vars
    assert "variables:\nmarks: {}" in after_vars  # the prompt asks again, the move still to make
    assert "player 1: B2" in after_vars and ":help for more" in before_vars


def test_texts_from_the_rules_bring_no_escape_code_or_markup_to_the_terminal(load_file, monkeypatch):
    """The styles are ours: a value holding an escape sequence (retitle the window, clear the screen) or
    rich markup (a link) is shown as text, escaped, while the screen keeps its own colours."""
    import io
    import re
    from rulewright.cli.screen import print_screen
    monkeypatch.setenv("FORCE_COLOR", "1")  # a terminal, as rich sees it
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    st = load_file(RULES, "marks.rules").new_state(1)
    st.apply("A1")
    st.vars["marks"]["B2"] = "\x1b]0;pwned\x07\x1b[2J"
    st.vars["marks"]["C3"] = "[link=https://example.com]click[/link]"
    stream = io.StringIO()
    print_screen(stream, st, 2)
    shown = stream.getvalue()
    assert "\x1b[1;31m1\x1b[0m" in shown  # player 1's mark in its colour: the screen's own styling
    assert "\\x1b]0;pwned\\x07\\x1b[2J" in shown and "[link=https://example.com]click[/link]" in shown
    assert "\x1b]" not in shown and "\x07" not in shown
    assert "\x1b" not in re.sub(r"\x1b\[[0-9;]*m", "", shown)  # nothing but colour codes
