"""Random PLANES games to the end for 2, 3 and 4 players, both airports and every variant, checked
after every move: the 40 cubes are all somewhere, gates never hold a cube, planes hold at most 5,
the boarding track counts the boarded cubes, cones stand exactly on the spaces with 7+ party cubes,
the 60 cards (or each player's 15) are all somewhere, goals and the track only grow, the game ends
at the end of the round in which a trigger first held, and the outcome follows the scoring rule."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from rulewright.interpreter.testing import random_playout

from .helpers import ALL_CARDS, CARDS, COLOURS, CONFIGS, GREY_GATES, cards_everywhere, game

SEEDS = range(2)


class Watcher:
    def __init__(self, st, players, options):
        self.players = players
        self.options = options
        self.last = int(options.get("last_space", 12))
        self.track = 0
        self.goals = [0] * players
        self.trigger_round = None

    def triggered(self, v) -> bool:
        filled = {c: all(v["load"][g] >= 5 for g, pc in v["planes"].items() if pc == c) for c in COLOURS + ["grey"]}
        return any(filled.values()) or v["track"] >= self.last

    def __call__(self, st):
        v = st.vars
        on_floor = Counter(c for s in v["floor"] for c in v["cubes"][s])
        held = Counter(c for f in st.frames if f.proc == "make_move" for c in f.locals.get("held", []))
        for c in COLOURS:
            assert on_floor[c] + held[c] + v["boarded"][c] == 5, (c, on_floor, held, v["boarded"])
            assert 0 <= v["boarded"][c] <= 5
        assert on_floor["grey"] + held["grey"] + v["boarded"]["grey"] == 20
        for c in COLOURS + ["grey"]:            # each colour's count is the sum of its planes
            assert v["boarded"][c] == sum(v["load"][g] for g, pc in v["planes"].items() if pc == c)
        assert sorted(g for g, pc in v["planes"].items() if pc == "grey") == GREY_GATES
        assert all(0 <= n <= 5 for n in v["load"].values())
        assert all(v["cubes"][g] == [] for g in v["planes"])
        assert v["track"] == sum(v["boarded"].values()) >= self.track
        self.track = v["track"]
        party = {s: sum(c != "grey" for c in v["cubes"][s]) for s in v["floor"]}
        assert sorted(v["cones"]) == sorted(s for s, n in party.items() if n >= 7)
        if self.options.get("decks") == "player_decks":
            for i in range(self.players):
                mine = Counter(v["hand"][i] + v["goals"][i] + v["in_play"][i] + v["own_deck"][i]
                               + v["own_discard"][i])
                assert mine == Counter(list(CARDS)), i
            assert v["deck"] == [] and v["discard"] == []
        else:
            assert cards_everywhere(st) == ALL_CARDS
        for i in range(self.players):
            assert len(v["goals"][i]) >= self.goals[i]
            self.goals[i] = len(v["goals"][i])
        if self.triggered(v) and self.trigger_round is None:
            self.trigger_round = v["round_number"]
        if self.trigger_round is not None:
            assert v["round_number"] == self.trigger_round, "the game went on past the round of its trigger"

    def final(self, st):
        v = st.vars
        assert st.is_over() and self.triggered(v)
        out = st.outcome()
        for p in range(1, self.players + 1):
            own = v["boarded"][COLOURS[p - 1]]
            vp = sum(CARDS[c][1] for c in v["goals"][p - 1])
            assert out.scores[p] == vp + 5 * own
            assert v["own_cubes"][p - 1] == own and v["goal_count"][p - 1] == len(v["goals"][p - 1])
        key = {p: (-out.scores[p], -v["own_cubes"][p - 1], -v["goal_count"][p - 1])
               for p in range(1, self.players + 1)}
        flat = [p for group in out.ranking for p in group]
        assert [key[p] for p in flat] == sorted(key.values())
        for group in out.ranking:
            assert len({key[p] for p in group}) == 1
        assert out.winners == out.ranking[0]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("config", list(CONFIGS))
def test_random_playout_keeps_every_rule(config, seed):
    players, options = CONFIGS[config]
    st = game(players, **options).new_state(seed=seed)
    watch = Watcher(st, players, options)
    watch(st)
    random_playout(st, random.Random(seed), watch)
    watch.final(st)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("airport", ["flying_cloud", "zephyr"])
def test_many_seeds_end_with_a_scored_outcome(players, airport):
    """More seeds without the per-move checks: every game ends, scored, with a winner."""
    g = game(players, airport=airport)
    for seed in range(10, 13):
        st = g.new_state(seed=seed)
        random_playout(st, random.Random(seed))
        out = st.outcome()
        assert out.winners and set(out.scores) == set(range(1, players + 1))
        assert st.vars["track"] >= 12 or any(n == 5 for n in st.vars["boarded"].values()) \
            or st.vars["boarded"]["grey"] == 10


@pytest.mark.parametrize("config", ["3p", "2p-zephyr-player-decks", "4p-short-8"])
def test_saved_games_go_on_exactly_like_the_original(config):
    """A save taken mid-move (a JSON round trip) and a clone both finish like the game itself."""
    players, options = CONFIGS[config]
    g = game(players, **options)
    st = g.new_state(seed=4)
    rng = random.Random(4)
    for _ in range(150):
        st.apply(rng.choice(st.legal_moves()))
    while not any(f.locals.get("held") for f in st.frames):          # stop in the middle of a move
        st.apply(rng.choice(st.legal_moves()))
    saved = json.loads(json.dumps(st.to_json()))
    loaded = g.load_state(saved)
    copy = st.clone()
    assert [m.text for m in loaded.legal_moves()] == [m.text for m in st.legal_moves()]
    assert loaded.render() == st.render()
    ends = []
    for s in (st, loaded, copy):
        random_playout(s, random.Random(99))
        ends.append((s.vars["track"], s.vars["boarded"], s.outcome().to_dict()))
    assert ends[0] == ends[1] == ends[2]


@pytest.mark.parametrize("airport", ["flying_cloud", "zephyr"])
def test_grey_cubes_board_the_grey_planes_in_random_games(airport):
    """Random games board grey cubes at N1 and N2 (each boarding drew two cards); over a few seeds
    both grey planes take cubes, and never more than five each."""
    g = game(3, airport=airport)
    loads = Counter()
    for seed in range(4):
        st = g.new_state(seed=seed)
        random_playout(st, random.Random(seed))
        for gate in GREY_GATES:
            assert st.vars["load"][gate] <= 5
            loads[gate] += st.vars["load"][gate]
        assert st.vars["boarded"]["grey"] == loads_of(st)
    assert all(loads[gate] > 0 for gate in GREY_GATES), loads


def loads_of(st):
    return sum(st.vars["load"][gate] for gate in GREY_GATES)
