"""The Freak cards and Immunity to Freak Events at real positions (issue 39, item 2): seeded games are
played by random legal moves, and wherever a Freak card drawn asks a player to act, each choice is
made on a copy and the air show after it is compared with the card (Appendix B), worked out here:

- Freak Thunderstorm: "each player with planes in the air sends one back to the hangar";
- Freak Windstorm: the wind is rolled, and from the drawer clockwise each player turns one plane of the
  next player to it and flies it one space (pushing on as in a chain);
- Immunity to Freak Events: "When a Freak card hits you, play this to escape its penalty" (used, it
  goes face up under the level 1 deck)."""
from __future__ import annotations

from rulewright.interpreter.testing import offers, positions

from .helpers import game
from .test_flights import Show

IMMUNITY = "Immunity to Freak Events"


def _mine(st, q):
    return sorted(x for x, plane in st.vars["air"].items() if plane is not None and plane["owner"] == q)


def test_freak_thunderstorm_sends_one_plane_of_each_player_home():
    seen = 0
    for at in positions(game(4), offers("^return .* to your hangar$"), seeds=(1, 5), each=4):
        st = at.state
        q = st.to_move()[0]
        texts = [m.text for m in st.legal_moves()]
        assert sorted(texts) == [f"return {x} to your hangar" for x in _mine(st, q)], at
        for text in texts:
            after, show = st.clone(), Show(st)
            after.apply(text)
            show.enter(show.air.pop(text.split()[1]), None)        # home to its owner's hangar
            assert show.same_as(after), (at, text)
        seen += 1
    assert seen


def test_freak_windstorm_turns_a_plane_of_the_next_player_to_the_wind_and_flies_it():
    seen = set()
    for at in positions(game(4), offers(r"^turn \S+ to \S+ and move it$"), seeds=(1, 5), each=4):
        st = at.state
        q = st.to_move()[0]
        texts = [m.text for m in st.legal_moves()]
        wind = texts[0].split()[3]
        rival = q % st.game.player_count + 1                     # the next player clockwise
        assert sorted(texts) == [f"turn {x} to {wind} and move it" for x in _mine(st, rival)], at
        for text in texts:
            after, show = st.clone(), Show(st)
            after.apply(text)
            seen.add("pushes" if show.fly(text.split()[1], wind) > 1 else "flies")
            assert show.same_as(after), (at, text)
    assert "flies" in seen, seen


def test_immunity_to_freak_events_escapes_the_penalty_or_is_kept():
    """Seed 6 of two-player Extreme games: a Freak card hits the holder of the Immunity card (found by
    a search over seeds 0-11)."""
    at = next(positions(game(2, level="extreme"), offers(f"^play {IMMUNITY}$"), seeds=(6,)))
    st = at.state
    q, v = st.to_move()[0], st.vars
    assert sorted(m.text for m in st.legal_moves()) == [f"play {IMMUNITY}", "take the penalty"]
    immune = st.clone()
    immune.apply(f"play {IMMUNITY}")
    assert IMMUNITY not in immune.vars["bonuses"][q - 1] and immune.vars["expertise_used"][0][-1] == IMMUNITY
    assert _mine(immune, q) == _mine(st, q) and immune.vars["hangar"][q - 1] == v["hangar"][q - 1]
    assert not (immune.to_move() == [q] and any(" to your hangar" in m.text for m in immune.legal_moves()))
    hit = st.clone()
    hit.apply("take the penalty")
    assert IMMUNITY in hit.vars["bonuses"][q - 1]
    assert any(m.text.endswith((" to your hangar", " and move it")) for m in hit.legal_moves())
