"""'as hand' (docs/language.md, "Pictures: faces and components"): a rival's hand drawn as its cards'
backs with how many there are, in the picture, the terminal's rows and the web table's seats; never a
card's face the viewer may not see, so two deals that differ only in a rival's cards look the same to the
seat, byte for byte. Every shipped game draws each rival's hand so for player 1."""
from __future__ import annotations

import json
import random
import re

import pytest

from rulewright.dsl.errors import RulesError
from rulewright.interpreter.present.screen import build
from rulewright.interpreter.present.svg import picture
from rulewright.interpreter.testing import shipped

HANDS = '''
game "Hands"
players 3
player var hand = [] secret
var deck = [] hidden
display:
    players "Hand" = hand as hand
    own "Hand" = hand as cards
setup:
    deck = shuffled(["KESTREL", "HERON", "OSPREY", "PLOVER", "CURLEW", "SISKIN", "TWITE", "DUNLIN"])
    for p in players:
        if p == 1:
            add "JOKER" to p.hand
        else:
            repeat 4 - p times:
                draw c from deck
                add c to p.hand
turn:
    choose x in ["go", "wait"]
end when round_number == 1 after round
'''


@pytest.fixture(scope="module")
def hands(tmp_path_factory):
    path = tmp_path_factory.mktemp("hands") / "hands.rules"
    path.write_text(HANDS, encoding="utf-8")
    return path


def backs_of(svg: str) -> list:
    """How many cards each hand drawn as backs holds: the text under its fan of backs."""
    return re.findall(r">(\d+ cards?|none)</text>", svg)


def test_a_rival_hand_is_drawn_as_backs_with_its_count_and_the_viewers_own_face_up(hands):
    import rulewright
    st = rulewright.load(str(hands)).new_state(seed=1)
    screen = build(st, 1)
    drawn = {(pic.owner, pic.kind): pic for pic in screen.pictures}
    assert drawn[(2, "hand")].count == 2 and drawn[(3, "hand")].count == 1
    assert all(face.down for face in drawn[(2, "hand")].items + drawn[(3, "hand")].items)
    # the viewer's own hand is left to its 'own' entry, face up
    assert (1, "hand") not in drawn and [f.title for f in drawn[(1, "cards")].items] == ["JOKER"]
    svg = picture(screen)
    assert backs_of(svg) == ["2 cards", "1 card"]
    assert svg.count('fill="#546e7a"') == 3  # three backs drawn: two of player 2's, one of player 3's
    assert [values for _p, values in screen.players] == [("1 card",), ("2 cards",), ("1 card",)]
    assert screen.counts(2) == (("Hand", "2 cards"),)
    # the referee sees every hand: face up, counted in its label
    referee = picture(build(st, None))
    assert all(card in referee for card in st.vars["hand"][1]) and "Hand (2 cards)" in referee


def test_an_unknown_look_names_hand_among_the_looks(make_game):
    with pytest.raises(RulesError) as caught:
        make_game(HANDS.replace('"Hand" = hand as hand', '"Hand" = hand as hnd'))
    assert "as 'hnd'" in str(caught.value) and "hand" in str(caught.value)


def test_two_deals_differing_only_in_a_rivals_cards_look_the_same_to_the_seat(hands):
    from rulewright.cli.table import Table
    tables = {}
    for seed in range(40):  # two deals in which player 2 holds other cards (and player 1 the same)
        table = Table(str(hands), None, {}, seed)
        tables.setdefault(tuple(sorted(table.session.state.vars["hand"][1])), table)
        if len(tables) == 2:
            break
    first, second = tables.values()
    assert first.session.state.vars["hand"][0] == second.session.state.vars["hand"][0] == ["JOKER"]
    shown = [json.dumps(t.shown_to(t.places[0]), sort_keys=True) for t in (first, second)]
    assert shown[0] == shown[1]  # the picture, the panel (own things, seats with their counts), the log
    seats = json.loads(shown[0])["seats"]
    assert [seat["counts"] for seat in seats] == [[["Hand", "1 card"]], [["Hand", "2 cards"]], [["Hand", "1 card"]]]
    for card in tables:  # and the rival's cards are nowhere in it
        assert not any(c in shown[0] for c in card)


# each shipped game's hands: the variables its 'players' line draws 'as hand'
SHIPPED_HANDS = {
    "air-show": ["hand"],
    "barnstormers": ["hand"],
    "biplane": ["hand"],  # the Permanent and Temporary Hands, one count ('secret in hand')
    "magnificent-flying-machines": ["hand"],
    "planes": ["hand"],
}


@pytest.mark.parametrize("name", sorted(SHIPPED_HANDS))
def test_player_1_sees_each_rivals_hand_as_backs_with_its_count(name):
    st = shipped(name).new_state(3)  # compiled once per process: other tests' copy
    rng = random.Random(3)
    for _ in range(12):  # a few random moves in
        st.apply(rng.choice(st.legal_moves()))
    screen = build(st, 1)
    backs = {(pic.owner, pic.label): pic.count for pic in screen.pictures if pic.kind == "hand"}
    rivals = range(2, st.game.player_count + 1)
    labelled = [pic.label for pic in screen.pictures if pic.kind == "hand" and pic.owner == 2]
    referee = st.view()["vars"]  # the state's variables, and each hand's parts together
    assert len(labelled) == len(SHIPPED_HANDS[name])
    for p in rivals:
        for label, var in zip(labelled, SHIPPED_HANDS[name]):
            assert backs[(p, label)] == len(referee[var][p - 1])  # the referee's count
            assert all(face.down for pic in screen.pictures if pic.owner == p and pic.label == label
                       for face in pic.items)
    assert not any(owner == 1 for owner, _label in backs)  # player 1's own are drawn face up, in 'own'
    svg = picture(screen)
    for p in rivals:
        for label in labelled:
            count = backs[(p, label)]
            assert (f"{count} card{'' if count == 1 else 's'}" if count else "none") in backs_of(svg)
