"""What the cards say and what each decision asks: every card carries its rules text, shown with the
move that plays it; a prompt names only the decider's own cards."""
from __future__ import annotations

import rulewright

from rulewright.interpreter.testing import play

from .helpers import game
from .test_cards import scene

CARD_TABLES = ("stunt", "tactic", "expertise", "request")


def test_every_card_has_a_short_rules_text():
    for name in ("barnstormers", "barnstormers-extra-stunts"):
        compiled = rulewright.load(name, players=2).compiled
        says = compiled.columns["says"]
        for table in CARD_TABLES:
            for card in compiled.tables[table]:
                assert 20 <= len(says[card]) <= 130, (name, card, says[card])
        # a stunt's text tells its shape and its points, as the table has them
        for card in compiled.tables["stunt"]:
            assert compiled.columns["shape"][card] in says[card]
            assert says[card].endswith(f" {compiled.columns['value'][card]} CP.")


def test_a_card_played_shows_its_text_and_the_decider_is_asked():
    st, p = scene(players=2, hand=["Dispatch a Plane"])
    play(st, "play a Skill and Tactic card")
    assert st.prompt(p) == "choose a Skill and Tactic card to play"
    move = next(m for m in st.legal_moves(p) if m.text == "play Dispatch a Plane")
    told = st.explain(move, p)
    assert told.prompt == "choose a Skill and Tactic card to play"
    assert told.cards == (("Dispatch a Plane", "Dispatch a plane facing the heading you choose, without rolling the wind."),)
    assert st.explain(move, 3 - p).prompt is None   # a rival is never told the prompt


def test_the_secret_request_prompt_names_only_the_deciders_offers():
    st = game(2, requests="open_and_secret").new_state(seed=5)
    offers = {p: list(st.vars["request_offer"][p - 1]) for p in (1, 2)}
    for p in (1, 2):
        asked = st.prompt(p)
        assert asked == f"keep 1 of your 2 requests as a secret objective: {offers[p][0]} and {offers[p][1]}"
        assert not any(r in asked for r in offers[3 - p])
