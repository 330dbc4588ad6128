"""Observations as numbers (the rules' 'observe:' section, interpreter/present/observation.py): the classic games'
tensors equal OpenSpiel's at every state, a secret of another player cannot be observed (refused by the
check, and unchanged when the others' secrets are dealt again), and a value that is not a number or an
entry that changes size is a located error."""
from __future__ import annotations

import itertools
import random

import pytest

import rulewright
from rulewright.dsl.errors import RulesError, RulesRuntimeError
from rulewright.interpreter.api import shipped_games
from rulewright.interpreter.play.determinize import determinize
from rulewright.interpreter.present.observation import declares_observation, observation_layout
from rulewright.interpreter.check.symbols import symbols
from rulewright.interpreter.testing import line_of

pyspiel = pytest.importorskip("pyspiel")


def same_as_openspiel(ours, theirs):
    for p in (1, 2):
        assert ours.observation_tensor(p) == list(theirs.observation_tensor(p - 1)), (p, str(theirs))


@pytest.mark.parametrize("name,their_name,to_text", [
    ("tic-tac-toe", "tic_tac_toe", lambda a: f"{chr(ord('A') + a // 3)}{a % 3 + 1}"),
    ("connect-four", "connect_four", lambda a: str(a + 1)),
])
def test_board_games_observe_what_openspiel_observes(name, their_name, to_text):
    ours_game, their_game = rulewright.load(name), pyspiel.load_game(their_name)
    for seed in range(8):
        rng = random.Random(seed)
        ours, theirs = ours_game.new_state(seed=seed), their_game.new_initial_state()
        same_as_openspiel(ours, theirs)
        while not theirs.is_terminal():
            action = rng.choice(theirs.legal_actions())
            ours.apply(to_text(action))
            theirs.apply_action(action)
            same_as_openspiel(ours, theirs)
        assert ours.is_over()


def kuhn_histories():
    """Every betting sequence of Kuhn poker, as our move texts and OpenSpiel's actions (0 pass, 1 bet)."""
    for moves in (["pass", "pass"], ["pass", "bet", "fold"], ["pass", "bet", "call"], ["bet", "fold"],
                  ["bet", "call"]):
        yield moves, [0 if m in ("pass", "fold") else 1 for m in moves]


def test_kuhn_poker_observes_what_openspiel_observes_for_every_deal_and_bet():
    game, their_game = rulewright.load("kuhn-poker"), pyspiel.load_game("kuhn_poker")
    rank = {"J": 0, "Q": 1, "K": 2}
    deals = set()
    for path in itertools.product(range(3), range(2)):  # the shuffle's draws, chosen (explicit chance)
        for moves, actions in kuhn_histories():
            ours = game.new_state(seed=0, chance="explicit")
            for outcome in path:
                ours.apply_chance(outcome)
            while ours.is_chance():
                ours.apply_chance(0)
            hands = ours.view(None)["vars"]["hand"]
            deal = (rank[hands[0]], rank[hands[1]])
            deals.add(deal)
            theirs = their_game.new_initial_state()
            theirs.apply_action(deal[0])
            theirs.apply_action(deal[1])
            same_as_openspiel(ours, theirs)
            for move, action in zip(moves, actions):
                ours.apply(move)
                theirs.apply_action(action)
                same_as_openspiel(ours, theirs)
            assert ours.is_over() and theirs.is_terminal()
    assert len(deals) == 6  # every deal was met


def test_the_layout_names_each_entry_with_its_size():
    st = rulewright.load("kuhn-poker").new_state(seed=1)
    assert observation_layout(st) == (("player", 2), ("private card", 3), ("pot contribution", 2))
    assert declares_observation(rulewright.load("kuhn-poker"))
    assert not declares_observation(rulewright.load("planes"))


def test_a_game_without_observe_says_so():
    st = rulewright.load("planes").new_state(seed=1)
    with pytest.raises(RulesRuntimeError, match="no 'observe:' section"):
        st.observation_tensor(1)


def test_observing_another_players_secret_is_refused_at_the_line(make_game, cards_rules):
    rules = cards_rules + ('observe:\n    "mine" = me.hand\n'
                           '    "theirs" = [p in players where p != me : sum(c in p.hand: c)]\n')
    with pytest.raises(RulesError) as info:
        make_game(rules)
    d, = info.value.diagnostics
    assert d.message == "the observation 'theirs' of player me shows the secret 'hand' of player p"
    assert (d.line, d.column) == (line_of(rules, '"theirs"'), 16)
    with pytest.raises(RulesError, match="the observation 'deck' of player me shows the hidden 'deck'"):
        make_game(cards_rules + 'observe:\n    "deck" = [c in deck : c]\n')
    # the number of cards in a hidden deck is public; one's own hand is one's own
    st = make_game(cards_rules + 'observe:\n    "deck size" = len(deck)\n    "mine" = sum(c in me.hand: c)\n'
                   '    "score" = [p in players : p.score]\n').new_state(seed=4)
    hands = st.view(None)["vars"]["hand"]
    assert st.observation_tensor(1) == [2.0, float(hands[0][0]), 0.0, 0.0]
    assert st.observation_tensor(2) == [2.0, float(hands[1][0]), 0.0, 0.0]


def test_an_observation_that_is_not_numbers_is_a_located_error(make_game, cards_rules):
    rules = cards_rules + 'observe:\n    "move" = "x"\n'
    st = make_game(rules).new_state(seed=1)
    with pytest.raises(RulesRuntimeError) as info:
        st.observation_tensor(1)
    assert info.value.message == "the observation 'move' is numbers, not 'x'"
    assert info.value.diagnostic.line == line_of(rules, '"move"')


def test_an_observation_keeps_its_size(make_game, cards_rules):
    rules = cards_rules + 'observe:\n    "scores so far" = [k in range(me.score) : 1]\n'
    st = make_game(rules).new_state(seed=1)
    assert st.observation_tensor(1) == []
    st.apply("a")
    with pytest.raises(RulesRuntimeError, match="gives 1 values here and gave 0 before") as info:
        st.observation_tensor(1)
    assert info.value.diagnostic.line == line_of(rules, '"scores so far"')


def test_a_variant_keeps_or_replaces_the_observation(tmp_path, cards_rules):
    base = tmp_path / "base.rules"
    base.write_text(cards_rules + 'observe:\n    "score" = me.score\n', encoding="utf-8")
    kept = tmp_path / "kept.rules"
    kept.write_text('extends "base.rules"\ngame "Kept"\n', encoding="utf-8")
    changed = tmp_path / "changed.rules"
    changed.write_text('extends "base.rules"\ngame "Changed"\nobserve:\n    "cards" = len(me.hand)\n    "score" = me.score\n',
                       encoding="utf-8")
    assert observation_layout(rulewright.load(str(kept)).new_state(seed=1)) == (("score", 1),)
    assert observation_layout(rulewright.load(str(changed)).new_state(seed=1)) == (("cards", 1), ("score", 1))


OBSERVING = sorted(name for name in shipped_games() if declares_observation(rulewright.load(name)))


def test_the_games_that_observe():
    assert {"tic-tac-toe", "connect-four", "kuhn-poker", "biplane", "biplane-more-ammo", "barnstormers", "air-show",
            "magnificent-flying-machines", "barnstormers-short-show"} <= set(OBSERVING)


# every observing game at its smallest table, and the options and player counts that hide the most
SETTINGS = [(name, None, {}) for name in OBSERVING] + [
    ("barnstormers", 4, {"mystery": "on", "requests": "open_and_secret"}),
    ("barnstormers", 3, {"specialist": "on", "board": "advanced"}),
    ("magnificent-flying-machines", 4, {"race": "standard", "team_play": "pairs"}),
    ("air-show", 5, {}),
    ("biplane", 4, {"mode": "two_on_two", "skill": "2"}),
]


@pytest.mark.parametrize("name,players,options", SETTINGS)
def test_an_observation_is_the_same_in_every_world_the_player_cannot_tell_apart(name, players, options):
    # Another player's secrets dealt again (what information-set search does) change nothing a player
    # observes: the observation reads only what its player may see. Its size stays the same all game.
    game = rulewright.load(name, players=players, options=options)
    rng = random.Random(5)
    dealt_again = 0
    for seed in range(2):
        st = game.new_state(seed=seed)
        size = None
        for step in range(160):
            if st.is_over():
                break
            if step % 16 == 0:
                for p in range(1, game.player_count + 1):
                    seen = st.observation_tensor(p)
                    size = size or len(seen)
                    assert len(seen) == size
                    for _ in range(2):
                        world = determinize(st, p, rng)
                        dealt_again += world.view(None)["vars"] != st.view(None)["vars"]
                        assert world.observation_tensor(p) == seen, (name, seed, step, p)
            st.apply(rng.choice(st.legal_moves()))
    hides = any(d.visibility != "public" for d in symbols(game.rules).vars.values())
    assert dealt_again > 0 or not hides  # the worlds did differ where the game hides something
