"""Moves that explain themselves (interpreter/present/explain.py): a decision's prompt from the rules, the rules
text of the items a move plays (a table's `says` column), which rule offers a move (file:line), and
`listed()`; each as the player may see it, never a secret of another."""
from __future__ import annotations

import textwrap

import pytest

from rulewright.dsl import ast
from rulewright.dsl.errors import IllegalMoveError, RulesRuntimeError
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import Game
from rulewright.interpreter.check.checker import check
from rulewright.interpreter.check.secrecy import secrecy_diagnostics
from rulewright.interpreter.testing import game_from_text

# A small card game: each player drops one of three cards in secret, then plays the rest in the open,
# and the next player answers each play.
KEEP = textwrap.dedent('''\
    game "Keep"
    players 2
    table card(name, cost, says):
        gift, 2, "Take 2 coins from the bank"
        swap, 1, "Swap a card with a rival"
        rest, 0, "Do nothing"
        loan, 1, "Take a coin; give it back at the end"
        bet, 1, "Bet a coin on the next card"
        tax, 3, "Every rival pays you a coin"
    player var hand = [] secret
    player var coins = 0
    var deck = [] hidden

    def left(p) = len(p.hand)

    setup:
        deck = shuffled(card)
        for p in players:
            repeat 3 times:
                draw c from deck
                add c to p.hand
        each p in players secretly choose c in p.hand prompt "drop 1 of your {left(p)} cards: {listed(p.hand)}" as "drop {c}" shown "drops a card":
            remove c from p.hand

    turn:
        choose c in me.hand prompt "play one of your {len(me.hand)} cards" as "play {c}"
        remove c from me.hand
        log "player {me} plays {c}"
        choose by next_player(me) prompt "answer player {me}":
            "cheer":
                me.coins += 1
            "boo":
                pass
    end when all(p in players: len(p.hand) == 0) after turn
    ''')
SAYS = {"gift": "Take 2 coins from the bank", "swap": "Swap a card with a rival", "rest": "Do nothing",
        "loan": "Take a coin; give it back at the end", "bet": "Bet a coin on the next card",
        "tax": "Every rival pays you a coin"}
DROP_LINE = KEEP.split("\n").index(next(line for line in KEEP.split("\n") if "secretly choose" in line)) + 1
PLAY_LINE = KEEP.split("\n").index(next(line for line in KEEP.split("\n") if "prompt \"play" in line)) + 1


def game_of(text: str = KEEP, players: int = 2) -> Game:
    return game_from_text(text, players, filename="keep.rules")


@pytest.fixture(scope="module")
def keep():
    return game_of()


# ----------------------------------------------------------------------------- parsing and checking
def test_a_prompt_parses_on_each_kind_of_decision():
    rules = parse(KEEP, "keep.rules")
    nodes = [n for n in ast.walk(rules.decls) if isinstance(n, (ast.Choose, ast.ChooseBlock))]
    prompts = [n.prompt for n in nodes]
    assert all(isinstance(p, ast.Template) for p in prompts) and len(prompts) == 3
    assert prompts[2].parts[0] == "answer player "


def test_an_unknown_name_in_a_prompt_is_reported_at_its_place():
    text = KEEP.replace('prompt "play one of your {len(me.hand)} cards"', 'prompt "play one of {len(me.hnd)}"')
    errors = [d for d in check(parse(text, "keep.rules")) if d.severity == "error"]
    column = text.split("\n")[PLAY_LINE - 1].index("hnd") + 1
    assert [(d.file, d.line, d.column) for d in errors] == [("keep.rules", PLAY_LINE, column)]
    assert "hnd" in errors[0].message


def test_the_chosen_value_is_unknown_in_its_own_prompt():
    text = KEEP.replace('prompt "play one of your {len(me.hand)} cards"', 'prompt "play {c}"')
    errors = [d for d in check(parse(text, "keep.rules")) if d.severity == "error"]
    assert [(d.line, d.message) for d in errors][:1] == [(PLAY_LINE, "unknown name 'c'")]


def test_a_prompt_showing_another_players_secret_is_refused_by_the_secrecy_check():
    assert secrecy_diagnostics(parse(KEEP, "keep.rules")) == []
    leak = KEEP.replace('prompt "play one of your {len(me.hand)} cards"',
                        'prompt "your rival holds {listed(next_player(me).hand)}"')
    found = [(d.line, d.message) for d in secrecy_diagnostics(parse(leak, "keep.rules"))]
    assert found == [(PLAY_LINE, "the prompt of player me's decision shows the secret 'hand' of player "
                                 "next_player(me)")]
    block = KEEP.replace('prompt "answer player {me}"', 'prompt "player {me} holds {listed(me.hand)}"')
    found = [d.message for d in secrecy_diagnostics(parse(block, "keep.rules"))]
    assert found == ["the prompt of player next_player(me)'s decision shows the secret 'hand' of player me"]


# ----------------------------------------------------------------------------- at run time
def test_the_decider_is_told_the_rule_the_prompt_and_the_cards(keep):
    st = keep.new_state(seed=3)
    hand = st.vars["hand"][0]
    move = st.legal_moves(1)[0]
    told = st.explain(1, player=1)
    assert (told.player, told.text, told.rule, told.file, told.line) == (1, move.text, "setup", "keep.rules",
                                                                           DROP_LINE)
    assert told.source == KEEP.split("\n")[DROP_LINE - 1]
    listed = ", ".join(hand[:-1]) + " and " + hand[-1]
    assert told.prompt == f"drop 1 of your 3 cards: {listed}"
    says = SAYS
    card = move.text.removeprefix("drop ")
    assert told.cards == ((card, says[card]),)
    assert told.to_dict() == {"player": 1, "move": move.text, "rule": {
        "name": "setup", "file": "keep.rules", "line": DROP_LINE, "source": told.source},
        "prompt": told.prompt, "cards": [{"item": card, "says": says[card]}]}
    assert st.view(1)["prompt"] == told.prompt and "prompt" not in st.view(None)  # two decide at once
    assert st.prompt(2).startswith("drop 1 of your 3 cards: ")


def test_a_rival_is_told_nothing_of_a_secret_move(keep):
    st = keep.new_state(seed=3)
    secret_move = st.legal_moves(1)[0]
    told = st.explain(secret_move, player=2)
    assert told.to_dict() == {"player": 1, "move": "drops a card", "secret": True}
    assert told.lines() == ["player 1: drops a card", "  a secret choice: nothing more is shown"]
    # each seat's view holds its own prompt, which names its own cards only
    mine = st.vars["hand"][1]
    assert st.view(2)["prompt"] == st.prompt(2) == "drop 1 of your 3 cards: " + ", ".join(mine[:2]) + " and " + mine[2]


def test_a_public_move_explained_later_in_the_game(keep):
    st = keep.new_state(seed=3)
    st.apply(1, player=1)
    st.apply(1, player=2)
    told = st.explain(2, player=1)
    assert (told.rule, told.line, told.prompt) == ("turn", PLAY_LINE, "play one of your 2 cards")
    assert told.cards and told.text.startswith("play ")
    with pytest.raises(IllegalMoveError, match="player 2 has no decision to make now"):
        st.explain(1, player=2)
    first = st.legal_moves(1)[0]
    rival = st.explain(first, player=2)  # a public move: its rule and cards, but no prompt (the decider's)
    assert (rival.prompt, rival.line, rival.cards) == (None, PLAY_LINE, st.explain(first, player=1).cards)
    st.apply(1)
    answer = st.explain("cheer", player=2)
    assert (answer.player, answer.prompt, answer.cards) == (2, "answer player 1", ())


def test_a_prompt_that_fails_is_located_at_the_prompt():
    text = KEEP.replace('prompt "play one of your {len(me.hand)} cards"', 'prompt "play {me.hand[9]}"')
    st = game_of(text).new_state(seed=3)
    st.apply(1, player=1)
    st.apply(1, player=2)
    with pytest.raises(RulesRuntimeError) as caught:
        st.explain(1, player=1)
    assert (caught.value.diagnostic.line, caught.value.diagnostic.message) == (
        PLAY_LINE, "in 'turn': there is no item 9 in a list of 2 items")


def test_listed_lists_as_a_reader_does(make_game):
    game = make_game('''
        game "L"
        players 1
        turn:
            let xs = ["a", ["b", "c"], "d"]
            log "{listed([])} / {listed([7])} / {listed([1, 2])} / {listed(xs)}"
            end game
        ''')
    st = game.new_state(seed=1)
    assert [e["text"] for e in st.events if e["event"] == "log"] == ["nothing / 7 / 1 and 2 / a, b c and d"]


# ----------------------------------------------------------------------------- the interfaces
@pytest.fixture
def keep_file(tmp_path):
    path = tmp_path / "keep.rules"
    path.write_text(KEEP, encoding="utf-8")
    return path


def test_the_prompt_screen_shows_the_prompt_the_card_texts_and_explains(keep_file, monkeypatch):
    from typer.testing import CliRunner
    from rulewright.cli.main import app
    monkeypatch.chdir(keep_file.parent)
    result = CliRunner().invoke(app, ["play", "keep.rules", "--seed", "3"],
                                input=":explain 1\n:explain\n:help\n:quit\n", env={"COLUMNS": "80"})
    st = game_of().new_state(seed=3)
    out = result.stdout
    moves = st.legal_moves(1)
    says = SAYS
    header = out.index("player 1 to move (a move or its number; :help for more):\n")
    column = max(len(m.text) for m in moves)  # the rules texts line up
    listing = [f"  {st.prompt(1)}"] + [f"    {i}. {m.text:<{column}}   {says[m.text[5:]]}"
                                        for i, m in enumerate(moves, 1)]
    assert out[header:].split("\n")[1:1 + len(listing)] == listing
    explained = "\n".join(st.explain(1, player=1).lines())
    assert explained in out and f"offered by 'setup' at keep.rules:{DROP_LINE}" in explained
    assert "say which move: :explain N (its number) or :explain TEXT" in out
    assert ":explain N  which rule offers move N" in out


def test_serve_explains_and_a_seat_explains_its_own_moves_only(keep_file):
    from rulewright.cli.serve import Server, text_reply
    st = game_of().new_state(seed=3)
    referee = Server(str(keep_file), 2, {}, 3)
    assert referee.handle({"cmd": "new"})["ok"]
    reply = referee.handle({"cmd": "explain", "move": 1})
    told = st.explain(st.legal_moves()[0]).to_dict()
    told["rule"]["file"] = str(keep_file)  # the referee is told where the rules are
    assert reply == {"ok": True, "cmd": "explain", "explanation": told}
    assert reply["explanation"]["prompt"] == st.prompt(1)
    legal = referee.handle({"cmd": "legal"})["moves"]
    assert [(m["text"], m["says"]) for m in legal] == [(m.text, SAYS[m.text[5:]]) for m in st.legal_moves()]
    # the referee asking as player 2 about player 1's secret move is told what player 2 sees of it
    assert referee.handle({"cmd": "explain", "move": 1, "player": 2})["explanation"] == {
        "player": 1, "move": "drops a card", "secret": True}
    assert text_reply(referee, b"explain 1").split("\n")[:2] == [
        f"= player 1: {st.legal_moves()[0].text}", f"  offered by 'setup' at keep.rules:{DROP_LINE}"]

    seat = Server(str(keep_file), 2, {}, 3, as_player=2)
    assert seat.handle({"cmd": "new"})["ok"]
    mine = seat.handle({"cmd": "explain", "move": 1})["explanation"]
    assert mine == st.explain(1, player=2).to_dict() and mine["player"] == 2  # the rules by name, not path
    assert seat.handle({"cmd": "explain", "move": 1, "player": 1}) == {
        "ok": False, "cmd": "explain", "error": "this session plays as player 2: it sees no other player's "
                                                "view or moves, and makes no other player's move"}
    # every text of player 1's moves is looked up among the seat's own: never player 1's prompt
    for m in st.legal_moves(1):
        reply = seat.handle({"cmd": "explain", "move": m.text})
        assert st.prompt(1) not in str(reply) and (not reply["ok"] or reply["explanation"]["player"] == 2)


def test_a_says_column_holds_texts():
    text = KEEP.replace('rest, 0, "Do nothing"', "rest, 0, 0")
    found = [(d.severity, d.line, d.message) for d in check(parse(text, "keep.rules")) if "says" in d.message]
    assert found == [("warning", 6, "the column 'says' of 'card' holds each item's rules text, and this row's "
                                    "is not a text")]


def test_a_prompt_given_twice_is_refused():
    from rulewright.dsl.errors import RulesSyntaxError
    for twice in ('prompt "a" prompt "b"', 'by 1 prompt "a" by 2'):
        with pytest.raises(RulesSyntaxError, match="is given twice in this choice"):
            parse(f'game "G"\nplayers 2\nsetup:\n    choose {twice}:\n        "x":\n            pass\n', "g.rules")
    with pytest.raises(RulesSyntaxError, match="'prompt' is given twice in this choice"):
        parse('game "G"\nplayers 2\nturn:\n    choose c in [1] prompt "a" prompt "b"\n', "g.rules")


def test_a_move_names_the_spaces_of_the_fields_its_text_shows():
    from rulewright.interpreter.present.explain import move_spaces
    game = game_from_text('game "Hops"\nplayers 2\nboard b: grid 3 by 3\nrecord hop(origin, to)\nturn:\n'
                          '    choose h in [hop("A1", "B2"), hop("C3", "C1")] as "hop from {h.origin}"\n'
                          'end when round_number == 2 after round\n')
    st = game.new_state(seed=1)
    assert move_spaces(st, 1) == [["A1"], ["C3"]]  # not where each hop goes: its text does not show it
