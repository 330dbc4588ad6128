"""Air Show's moves explain themselves: the decisions' prompts, and the rules texts (the `says`
column) of the planes, air show cards, events and development tokens a move plays, told to whom
may see them."""
from __future__ import annotations

from rulewright.interpreter.testing import mover

from .helpers import QUIET, at_step, drive, game, ready

SHOW = ("show ",) + QUIET      # enter every undamaged plane in the show


def card_move(st, start):
    """The first legal move whose text starts with ``start``."""
    return next(m for m in st.legal_moves() if m.text.startswith(start))


def test_every_table_a_move_plays_has_its_rules_text():
    compiled = game(2).compiled
    for table in ("plane", "show_card", "event", "development"):
        keys = compiled.tables[table]
        assert keys and all(compiled.columns["says"].get(k) for k in keys), table


def test_a_card_played_on_a_group_is_explained_to_its_player_and_masked_to_the_rival():
    st = ready(2)
    drive(st, lambda s: s.step == "air show preparation" and any(m.text.startswith("play AS") for m in s.legal_moves()),
          prefer=SHOW)
    p = mover(st)
    move = card_move(st, "play AS")
    card = move.text.split()[1]
    group = move.text.split()[-1]
    told = st.explain(move, p)
    assert told.prompt == f"play at most one air show card face down on your {group} group"
    assert told.cards == ((card, st.game.columns["says"][card]),)
    assert told.cards[0][1].startswith("Weather ")
    rival = st.explain(move, 3 - p)      # a secret decision: the rival learns only the masked text
    assert rival.secret and rival.prompt is None and rival.cards == ()


def test_the_bidding_prompts_count_the_tokens_and_name_the_own_tokens():
    st = ready(2)
    p = mover(st)
    assert st.prompt(p) == "choose a card to place your bidding token 1 of 3 below"
    assert st.prompt(3 - p) is None                  # asked of the decider only
    st.apply(card_move(st, "bid on"))
    assert st.prompt(p).endswith(": you hold 0, 1, 1, 2 and 3")


def test_a_development_token_move_quotes_the_token_and_the_results_prompt_gives_both_rewards():
    st = at_step(ready(2), "buy development token")
    p = mover(st)
    st.vars["money"][p - 1] = 20
    assert st.prompt(p) == "buy one development token (0 of 5 squares of your airfield filled)"
    told = st.explain("build Workshop for 8K", p)
    assert told.cards == (("Workshop", "Worth 2 points; its green spanner gives 1 repair in each repairs phase."),)
    drive(st, lambda s: s.step == "air show results", prefer=SHOW)
    p = mover(st)
    group = st.legal_moves()[0].text.split()[-1]
    assert st.prompt(p).startswith(f"score your {group} group: ") and " prestige or " in st.prompt(p)
