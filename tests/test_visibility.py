"""The hidden-information constructs on their own: face-down record fields, secret decisions with
masked texts, private logs, reveals, per-player event streams, information states, and saves."""
from __future__ import annotations

import pytest

import rulewright

BIDS = '''game "Bids"
players 3
record bid(owner, amount secret to owner unless shown, shown)
record tile(terrain hidden unless face_up, face_up)
record note(readers, words secret to readers)
var bids = []
var course = []
var notes = []
player var money = 10
player var score = 0
player var hand = ["ace", "king"] secret

setup:
    add tile("storm", false) to course
    add tile("meadow", true) to course
    add note([1, 3], "the storm is first") to notes

turn:
    choose n in range(1, 3) secretly as "bid {n}" shown "places a bid token"
    add bid(me, n, false) to bids
    log "you bid {n}" to me
    if len(bids) == player_count:
        for b in bids:
            b.shown = true
        reveal hand
        course[1].face_up = true
    if round_number == 2:
        reveal me.money as "player {me} shows {me.money} coins"
        end game
'''


@pytest.fixture
def game(load_file):
    return load_file(BIDS, "bids.rules")


def test_face_down_fields_show_to_the_player_they_name_and_to_all_once_turned(game):
    st = game.new_state(seed=1)
    st.apply("bid 2")
    st.apply("bid 1")
    bids = st.view(1)["vars"]["bids"]
    assert bids == [{"owner": 1, "amount": 2, "shown": False}, {"owner": 2, "amount": "?", "shown": False}]
    assert st.view(2)["vars"]["bids"][0]["amount"] == "?" and st.view(2)["vars"]["bids"][1]["amount"] == 1
    assert st.view(None)["vars"]["bids"][1]["amount"] == 1                       # the referee sees all
    course = st.view(1)["vars"]["course"]
    assert course == [{"terrain": "?", "face_up": False}, {"terrain": "meadow", "face_up": True}]
    # 'secret to readers' with a list of players
    assert st.view(1)["vars"]["notes"][0]["words"] == "the storm is first"
    assert st.view(2)["vars"]["notes"][0]["words"] == "?"
    assert st.view(3)["vars"]["notes"][0]["words"] == "the storm is first"
    st.apply("bid 3")                                                            # all bids turn over
    assert [b["amount"] for b in st.view(2)["vars"]["bids"]] == [2, 1, 3]
    assert st.view(2)["vars"]["course"][0]["terrain"] == "storm"
    assert "?" not in st.render(2).split("course:")[1].split("\n")[0]


def test_a_secret_decision_shows_its_masked_text_to_the_others_only(game):
    st = game.new_state(seed=1)
    st.apply("bid 2")
    referee = st.events
    assert referee[0] == {"event": "move", "player": 1, "move": "bid 2", "shown": "places a bid token",
                          "rule": "bids.rules:19"}  # the referee's copy names the decision
    assert st.drain_events(2) == [{"event": "move", "player": 1, "move": "places a bid token", "secret": True}]


def test_private_logs_reach_their_readers_only(game):
    st = game.new_state(seed=1)
    st.apply("bid 2")
    events = st.event_history()
    assert {"event": "log", "text": "you bid 2", "to": [1], "rule": "bids.rules:21"} in events
    assert "you bid 2" in str(st.event_history(1)) and "you bid 2" not in str(st.event_history(2))


def test_a_revealed_variable_is_face_up_for_good_and_a_revealed_entry_for_its_player(game):
    st = game.new_state(seed=1)
    assert st.view(2)["vars"]["hand"] == [{"hidden": 2}, ["ace", "king"], {"hidden": 2}]
    for text in ("bid 1", "bid 1", "bid 1"):
        st.apply(text)
    assert st.view(2)["vars"]["hand"] == [["ace", "king"]] * 3
    assert [r[:2] for r in st.revealed] == [["hand", 0]]
    reveal = [e for e in st.event_history(2) if e["event"] == "reveal"]
    assert reveal == [{"event": "reveal", "text": "hand: 1: ace king  2: ace king  3: ace king", "player": 3}]


def test_a_revealed_local_is_announced(game):
    st = game.new_state(seed=1)
    for _ in range(4):
        st.apply("bid 1")
    assert st.is_over()
    assert {"event": "reveal", "player": 1, "text": "player 1 shows 10 coins"} in st.event_history(2)
    assert ["money", 1] in [r[:2] for r in st.revealed]


def test_information_states_differ_exactly_where_the_player_saw_something(game):
    a = game.new_state(seed=1)
    b = game.new_state(seed=1)
    a.apply("bid 2")
    b.apply("bid 3")
    # player 2 cannot tell them apart; player 1 (who bid) and the referee can
    assert a.information_state(2) == b.information_state(2)
    assert a.information_state(1) != b.information_state(1)
    assert a.information_state() != b.information_state()


def test_saves_keep_the_history_the_reveals_and_the_masked_texts(game):
    st = game.new_state(seed=1)
    for text in ("bid 2", "bid 1", "bid 3"):
        st.apply(text)
    again = game.load_state(st.to_json())
    assert again.event_history() == st.event_history()
    assert again.revealed == st.revealed
    for p in (1, 2, 3):
        assert again.information_state(p) == st.information_state(p)
    again.apply("bid 1")
    assert [e for e in again.drain_events(3) if e["event"] == "move"][-1]["move"] == "places a bid token"


@pytest.mark.parametrize("field,value,message", [
    ("history", ["not an event"], r"state\.history\[0\]: not an event"),
    ("history", [{"event": "move", "move": "bid 1"}], r"state\.history\[0\]: a move without its 'player'"),
    ("history", [{"event": "log", "text": "x", "to": 5}], r"state\.history\[0\]\.to: not a list"),
    ("revealed", [1, 2], r"state\.revealed\[0\]: not a revealed variable"),
    ("revealed", [["bids"]], r"state\.revealed\[0\]: not a revealed variable"),
    ("revealed", [["nope", 0, 1]], "not a revealed variable"),
    ("revealed", [["bids", 2, []]], "not a revealed variable"),                    # not a player var
])
def test_a_save_with_a_bad_history_or_reveal_is_refused(game, field, value, message):
    data = game.new_state(seed=1).to_json()
    data["state"][field] = value
    with pytest.raises(rulewright.SaveError, match=message):
        game.load_state(data)


def test_a_revealed_entry_goes_face_down_again_when_it_changes(tmp_path):
    path = tmp_path / "show.rules"
    path.write_text('''game "Show"
players 2
player var hand = [] secret
turn:
    add "card {round_number}" to me.hand
    choose x in ["show", "keep"] as "{x}"
    if x == "show":
        reveal me.hand
end when round_number == 3 after round
''', encoding="utf-8")
    st = rulewright.load(str(path)).new_state(seed=1)
    st.apply("show")
    assert st.view(2)["vars"]["hand"][0] == ["card 1"]
    st.apply("keep")
    st.apply("keep")                                   # player 1 draws "card 2" and keeps it hidden
    assert st.view(2)["vars"]["hand"][0] == {"hidden": 2}


def test_each_player_drains_their_own_stream(game):
    st = game.new_state(seed=1)
    st.apply("bid 2")
    first = st.drain_events(1)
    assert first and st.drain_events(2)                # player 2 is not starved by player 1's drain
    assert st.drain_events(1) == [] and st.drain_events(2) == []
    assert st.drain_events() != []                     # nor the referee


EACH = '''game "Each"
players 2
player var picked = 0 secret
round:
    each p in players secretly choose n in [1, 2] as "pick {n}":
        p.picked = n
end when round_number == 1 after round
'''


@pytest.fixture
def each_game(load_file):
    return load_file(EACH, "each.rules")


def test_a_player_knows_their_own_half_made_simultaneous_choice(each_game):
    g = each_game
    a, b = g.new_state(seed=1), g.new_state(seed=1)
    a.apply("pick 1", player=1)
    b.apply("pick 2", player=1)
    assert a.information_state(1) != b.information_state(1)
    assert a.information_state(2) == b.information_state(2)


def test_simultaneous_moves_are_masked_by_default(each_game):
    st = each_game.new_state(seed=1)
    st.apply("pick 2", player=1)
    assert st.drain_events(2) == []                                    # nothing until both have chosen
    st.apply("pick 1", player=2)
    assert [e["move"] for e in st.drain_events(2) if e["event"] == "move"] == ["makes a secret choice", "pick 1"]


def test_a_face_down_field_must_name_fields_of_its_record(tmp_path):
    path = tmp_path / "bad.rules"
    path.write_text('''game "Bad"
players 2
record bid(owner, amount secret to ownr)
turn:
    end game
''', encoding="utf-8")
    with pytest.raises(rulewright.RulesCompileError) as err:
        rulewright.load(str(path))
    assert "record 'bid' has no field 'ownr' to say who sees 'amount'" in str(err.value)
    assert "did you mean 'owner'?" in err.value.diagnostics[0].render()


@pytest.mark.parametrize("fields", ["owner hidden, v secret to owner", "v hidden unless up, up secret to owner, owner"])
def test_the_field_that_says_who_sees_another_is_seen_by_all(tmp_path, fields):
    """A face-down owner (or 'unless' field) would tell what it hides by what the other field shows; and a
    search dealing it again would change what a player sees."""
    path = tmp_path / "bad.rules"
    path.write_text(f'''game "Bad"
players 2
record card({fields})
turn:
    end game
''', encoding="utf-8")
    with pytest.raises(rulewright.RulesCompileError) as err:
        rulewright.load(str(path))
    assert "so everyone must see it: it is face down itself" in str(err.value)


def test_a_record_printed_whole_and_the_board_keep_face_down_fields_face_down(tmp_path):
    path = tmp_path / "tiles.rules"
    path.write_text('''game "Tiles"
players 2
board sky: grid 1 by 2
record tile(terrain hidden unless face_up, face_up)
var tiles = {}
display s = tiles[s].terrain if tiles[s] != none else "."
setup:
    tiles["A1"] = tile("storm", false)
    tiles["A2"] = tile("meadow", true)
turn:
    choose t in [tiles["A1"], tiles["A2"]]
    log "{t}"
    end game
''', encoding="utf-8")
    st = rulewright.load(str(path)).new_state(seed=1)
    assert [m.text for m in st.legal_moves()] == ["? no", "meadow yes"]     # the default move texts
    assert "A       ? meadow" in st.render(2) and "storm" not in st.render(2)
    assert "storm" in st.render()                                            # the referee's board
    st.apply("? no")
    assert [e["text"] for e in st.event_history(2) if e["event"] == "log"] == ["? no"]


def test_two_records_with_the_same_fields_cannot_differ_in_what_is_face_down(tmp_path):
    path = tmp_path / "twins.rules"
    path.write_text('''game "Twins"
players 2
record bid(owner, amount secret to owner)
record coin(owner, amount)
turn:
    end game
''', encoding="utf-8")
    with pytest.raises(rulewright.RulesCompileError, match="records 'bid' and 'coin' have the same fields"):
        rulewright.load(str(path))
