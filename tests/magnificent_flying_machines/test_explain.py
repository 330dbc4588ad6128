"""Moves that explain themselves: the rules text of the cards, pilots, equipment and dashboards a move
plays (the 'says' column), and the prompt of each decision, shown to its decider only."""
from __future__ import annotations

from .helpers import dashboard, game, others, ready, rolled, until


def test_playing_a_card_shows_its_rules_text_and_the_prompt():
    st = ready(3)
    bob = st.to_move()[0]
    dashboard(st, bob, "Biplane", gauge=1)
    st.vars["hand"][bob - 1] = ["Field Repairs (landing)"]
    st.ask_again()
    st.apply("play a card")
    assert st.prompt(bob) == "play which card? You hold 1"
    told = st.explain("play Field Repairs (landing)", bob)
    assert [item for item, _ in told.cards] == ["Field Repairs (landing)"]
    assert "damage marker" in told.cards[0][1]
    assert st.view(bob)["prompt"] == "play which card? You hold 1"


def test_every_card_of_one_title_says_the_same():
    columns = game(3).compiled.columns
    by_title = {}
    for name, title in columns["title"].items():
        if name in columns["frame"]:        # a trick and boost card (pilots have titles too)
            by_title.setdefault(title, set()).add(columns["says"][name])
    assert len(by_title) == 16 and all(len(texts) == 1 for texts in by_title.values())


def test_each_dashboard_says_its_own_dice_and_storage():
    """The dashboards' texts repeat their numbers for the player choosing one: they must agree."""
    c = game(3).compiled.columns
    for m in ("Monoplane", "Biplane", "Seaplane", "Pusher Plane", "Triplane", "Helicopter"):
        says = c["says"][m]
        t, f, la = c["takeoff"][m], c["flying"][m], c["landing"][m]
        dice = f"Rolls {t} dice for take-off, {f} for flying and {la} for landing tests"
        assert dice in says or (t == f == la and f"Rolls {t} dice for each kind of test" in says), m
        inside, outside = c["internal"][m], c["external"][m]
        assert f"{inside} internal and {outside} external storage space" in says, m
        assert f"{c['slots'][m]} equipment slots" in says and ("a passenger seat" in says) == (c["seats"][m] == 1), m


def test_the_rescue_prompt_counts_the_symbols_of_the_roll():
    st = ready(3)
    bob = st.to_move()[0]
    dashboard(st, bob, "Biplane", at=2, fuel=4)
    st.ask_again()
    short = until(st, ["take off"], lambda s, lines: rolled(lines)[0][1] < rolled(lines)[0][2])
    _n, got, need = rolled(short.lines)[0]
    asked = short.prompt(bob)
    assert asked.startswith(f"{got} of {need} takeoff symbols for the Biplane of player {bob}'s take-off test")


def test_a_window_prompt_is_told_to_the_player_asked_alone():
    st = ready(3)
    bob = st.to_move()[0]
    paul, kim = others(st, bob)
    dashboard(st, bob, "Biplane", at=2)
    st.vars["hand"][paul - 1] = ["Sabotage (cad)"]
    st.ask_again()
    st.apply("take off")
    asked = (f"the Biplane of player {bob} is about to take its take-off test: "
             "play a cad symbol or a dirty trick against it?")
    assert st.to_move() == [paul] and st.view(paul)["prompt"] == asked
    assert "prompt" not in st.view(bob) and "prompt" not in st.view(kim)
    told = st.explain("play Sabotage (cad) against the tester", paul)
    assert told.prompt == asked and told.cards[0][0] == "Sabotage (cad)"
