"""Pictures from the rules alone: faces ('face card c:'), entries drawn 'as cards', 'as tokens', 'as
pile', 'as track', and 'paths' on the board (tests/rules/pictures.rules uses every one). What a
picture draws comes from the viewer's Screen: a face-down card is its back, and no picture for one
player holds another player's secret (checked over every shipped game)."""
from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import rulewright
from rulewright.dsl.errors import RulesError
from rulewright.interpreter.api import load_rules, option_values, player_range, shipped_games
from rulewright.interpreter.present.screen import build
from rulewright.interpreter.present.svg import render_svg
from rulewright.interpreter.present.views import visible_vars

RULES = Path(__file__).parent / "rules" / "pictures.rules"
SVG = "{http://www.w3.org/2000/svg}"


def _game(moves=("play a card", "play Sun 2", "bid a chip", "bid a chip")):
    st = rulewright.load(str(RULES)).new_state(seed=1)
    for m in moves:
        st.apply(m)
    return st


def _pictures(sc, label, owner=None):
    return [p for p in sc.pictures if p.label == label and p.owner == owner]


def test_a_face_draws_each_card_of_its_table_and_a_rivals_cards_are_backs():
    st = _game()
    sc = build(st, 1)
    (mine,) = _pictures(sc, "Hand", 1)
    (theirs,) = _pictures(sc, "Hand", 2)
    (card,) = st.vars["hand"][0]
    assert [(f.title, f.corner, f.lines, f.colour) for f in mine.items] == [
        (card, str(rulewright.load(str(RULES)).compiled.rows["card"][card]["points"]), (
            rulewright.load(str(RULES)).compiled.rows["card"][card]["words"], "moon" if "Moon" in card else "sun"),
         "blue" if "Moon" in card else "yellow")]
    assert len(theirs.items) == len(st.vars["hand"][1]) and all(f.down and not f.title for f in theirs.items)


def test_a_face_down_field_draws_a_back_a_pile_its_top_a_track_each_players_mark():
    st = _game()
    sc = build(st, 1)
    (bids,) = _pictures(sc, "Bids")
    assert [f.down for f in bids.items] == [True]          # player 2's bid: its value is theirs
    (bids_2,) = _pictures(build(st, 2), "Bids")
    assert [(f.down, f.title, f.colour) for f in bids_2.items] == [(False, str(st.vars["bids"][0]["value"]), "blue")]
    (deck,) = _pictures(sc, "Deck")
    assert deck.count == len(st.vars["deck"]) and deck.items[0].down
    (discard,) = _pictures(sc, "Discard")
    assert discard.count == 1 and discard.items[0].title == st.vars["discard"][-1]
    (score,) = _pictures(sc, "Score")
    assert score.kind == "track" and score.marks == ((1, st.vars["score"][0]), (2, st.vars["score"][1]))
    assert (score.low, score.high) == (0, 10)
    (kites,) = _pictures(sc, "Kites")
    assert [f.gauges for f in kites.items] == [(("Height", 1, 5), ("Wear", 0, 3))] * 2


def test_the_text_screen_says_what_the_pictures_draw():
    st = _game()
    sc = build(st, 1)
    table = dict(sc.table)
    assert table["Deck"] == f"{len(st.vars['deck'])} face down"
    assert table["Bids"] == "1 face down"
    assert table["Kites"].startswith("kite of player 1 [A1] (Height 1/5, Wear 0/3)")
    assert dict(zip(sc.columns, dict(sc.players)[2]))["Hand"] == "2 face down"


def test_paths_are_drawn_as_curves_on_the_board():
    st = _game()
    sc = build(st, 1)
    assert sc.paths == (("A1", "B1", "B2"), ("A2", "B2", "B3"), ("A3", "B3", "B4"))
    root = ET.fromstring(render_svg(st, 1))
    curves = [p.get("d") for p in root.iter(SVG + "path") if " Q " in (p.get("d") or "")]
    assert len(curves) == 3
    # every space keeps its data-space rect (the browser table's clicks)
    assert {r.get("data-space") for r in root.iter(SVG + "rect") if r.get("data-space")} == set(st.game.board.spaces)


def test_the_picture_holds_the_viewers_cards_and_only_backs_of_the_others():
    st = _game()
    mine, theirs = st.vars["hand"]
    svg_1 = render_svg(st, 1)
    assert all(f">{c}<" in svg_1 for c in mine) and not any(f">{c}<" in svg_1 for c in theirs)
    referee = render_svg(st, None)
    assert all(f">{c}<" in referee for c in mine + theirs)


def _rules(tmp_path, display: str) -> str:
    path = tmp_path / "g.rules"
    path.write_text('game "G"\nplayers 2\ntable card(name, points):\n    "a", 1\n    "b", 2\n'
                    "record chip(owner, value)\nvar deck = [] hidden\nplayer var hand = [] secret\n"
                    "player var score = 0\ndisplay:\n" + display + "\nturn:\n    end game\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("display, message", [
    ('    table "Deck" = deck as heap', "a picture cannot draw an entry as 'heap'"),
    ('    table "Deck" = deck as cards 0..3', "only a track has a range of numbers"),
    ('    table "Deck" = deck as track plane', "a track has no face"),
    ('    face card c:\n        titel = c\n    table "Deck" = deck as pile', "a face has no part 'titel'"),
    ('    face card c:\n        title = c\n        title = c\n', "the face says its 'title' twice"),
    ('    face card c:\n        title = c\n    face card d:\n        title = d\n', "a second face for 'card'"),
])
def test_a_misdrawn_entry_is_a_clear_syntax_error(tmp_path, display, message):
    with pytest.raises(RulesError) as err:
        load_rules(_rules(tmp_path, display))
    assert message in str(err.value)


@pytest.mark.parametrize("display, message", [
    ('    table "Deck" = deck as cards plain', "no face is called 'plain'"),
    ('    face cards c:\n        title = c\n    table "Deck" = deck as pile', "the face 'cards' draws nothing"),
    ('    face card c:\n        title = text(len(deck))\n    table "Deck" = deck as pile',
     "a face is drawn for every viewer alike, so it cannot show the hidden variable 'deck'"),
    ('    face chip t:\n        title = t.value\n        gauge "Hand" = len(t.owner.hand) of 5\n',
     "cannot show the secret player variable 'hand'"),
    ('    paths s = [[s, s]]', "'paths' draws lines on the board, but the game has no board"),
    ('    legend "a" = "b" as cards', "a legend entry is text: it is not drawn"),
])
def test_a_misdrawn_entry_is_a_clear_check_error(tmp_path, display, message):
    with pytest.raises(RulesError) as err:
        load_rules(_rules(tmp_path, display))
    assert message in str(err.value)


def test_a_face_of_an_unknown_colour_is_a_clear_error(tmp_path):
    path = _rules(tmp_path, '    face card c:\n        title = c\n        colour = "purple" if c == "a" else "red"\n'
                            '    players "Hand" = hand as cards')
    st = rulewright.load(path).new_state(seed=1)
    st.vars["hand"][0].append("a")
    with pytest.raises(RulesError) as err:
        build(st, 1)
    assert "'purple', not a colour the screen knows" in str(err.value) and "g.rules:" in str(err.value)


# ------------------------------------------------------------------ no picture shows another's secret
def _strings(value, out):
    if type(value) is str:
        out.add(value)
    elif type(value) is list:
        for v in value:
            _strings(v, out)
    elif type(value) is dict:
        for v in value.values():
            _strings(v, out)
    return out


def _unseen(st, viewer) -> set:
    """The texts the referee sees in the variables and ``viewer`` nowhere (cards in others' hands, in
    hidden decks, face-down fields): a picture for ``viewer`` must not hold any of them."""
    seen = _strings(visible_vars(st, viewer), set())
    return {s for s in _strings(visible_vars(st, None), set()) - seen if len(s) > 1 and not s.isdigit()}


def _pieces(svg: str) -> set:
    """The texts of a picture cut where lists and labels are joined (", ", ": ", " [corner]"), and
    each two texts in a row joined (a card's title on two lines)."""
    texts = ["".join(t.itertext()) for t in ET.fromstring(svg).iter(SVG + "text")]
    out = set()
    for text in texts + [f"{a} {b}" for a, b in zip(texts, texts[1:])]:
        out.add(text.strip())
        out.update(piece.strip() for piece in re.split(r"[,;:\[\]()]", text))
    return out


def _labels(game) -> set:
    """The rules' own texts on the screen (labels, legends): they name no secret."""
    return {label for _word, entries in game.compiled.screen for label, *_rest in entries}


def _settings():
    """Each shipped game at its fewest and most players, then with each option's other values."""
    for name in sorted(shipped_games()):
        rules = load_rules(name)
        low, high = player_range(rules)
        yield name, low, {}
        if high != low:
            yield name, high, {}
        for option, values in option_values(rules).items():
            for value in values[1:2]:
                yield name, None, {option: value}


@pytest.mark.parametrize("name, players, options", list(_settings()),
                         ids=lambda v: v if isinstance(v, str) else (f"{v}p" if isinstance(v, int) else None))
def test_no_picture_holds_a_secret_its_viewer_may_not_see(name, players, options):
    try:
        game = rulewright.load(name, players=players, options=options)
    except RulesError:
        pytest.skip("these options do not go together at this player count")
    for seed in (1, 2):
        st = game.new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(12 * seed):
            if st.is_over():
                break
            st.apply(rng.choice(st.legal_moves()))
        for viewer in [0] + list(range(1, game.player_count + 1)):
            leaked = (_unseen(st, viewer) - _labels(game)) & _pieces(render_svg(st, viewer))
            assert not leaked, f"{name} seed {seed}: the picture for {viewer or 'the table'} shows {sorted(leaked)[:5]}"


def test_the_secret_check_finds_a_secret_in_the_referees_picture():
    """The check above can fail: the referee's picture holds what player 1 may not see."""
    game = rulewright.load("biplane")
    st = game.new_state(seed=1)
    theirs = set(st.vars["perm"][1]) - set(st.vars["perm"][0])
    assert theirs and theirs <= (_unseen(st, 1) - _labels(game)) & _pieces(render_svg(st, None))


def test_biplanes_paths_are_every_loop_a_card_may_fly_each_once():
    """4.1.2: a quarter circle leaves every other space (row + column even) for a diagonal neighbour,
    turning at the space ahead; the picture draws each such curve once, whichever way it is flown."""
    st = rulewright.load("biplane").new_state(seed=1)
    board = st.game.board
    flown = set()
    for s in board.spaces:
        if (board.row(s) + board.col(s)) % 2:
            continue
        for h in board.headings:
            ahead = board.step(s, h)
            for r in (1, -1):
                end = board.step(ahead, board.rotate(h, r)) if ahead is not None else None
                if end is not None:
                    flown.add((frozenset((s, end)), ahead))
    drawn = [(frozenset((a, c)), b) for a, b, c in build(st, 1).paths]
    assert len(drawn) == len(set(drawn)) and set(drawn) == flown
