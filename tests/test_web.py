"""`rulewright web`: the table in the browser. The server runs in this process (uvicorn in a thread, on a
free port); Debian's Chromium, driven by playwright, plays by clicks as people would: a whole game of
tic-tac-toe, a few turns of a card game in which seat 1's page and everything it received is searched for
seat 2's card and the seed, a reload, an agent's seat. The rest (refusals, --watch) speak to the server
over a WebSocket without a browser. The browser tests skip, saying why, where Chromium or playwright is
absent (.ci/run installs Chromium)."""
from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
websockets_client = pytest.importorskip("websockets.sync.client")

from typer.testing import CliRunner  # noqa: E402

from rulewright.cli.main import app  # noqa: E402
from rulewright.cli.table import Refused, Table, seat_specs  # noqa: E402
from rulewright.cli.web import WebTable, listening_socket, uvicorn_server  # noqa: E402
from rulewright.interpreter.api import shipped_games  # noqa: E402

WAIT_MS = 15_000  # the longest a page may take to show what it must (a bound, not a measure)


@contextlib.contextmanager
def serving(table: Table, watch: bool = False, **options):
    """The table served on a free port of 127.0.0.1 until the block ends; yields its address."""
    server = uvicorn_server(WebTable(table, watch=watch, agent_pause=0, **options))
    sock = listening_socket("127.0.0.1", 0)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:  # polled: ready once uvicorn says so (the socket listens from the start)
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        sock.close()


def link(base: str, table: Table, player: int) -> str:
    return f"{base}/seat/{table.places[player - 1].token}"


@contextlib.contextmanager
def seat_socket(base: str, table: Table, player: int):
    url = link(base, table, player).replace("http://", "ws://") + "/ws"
    with websockets_client.connect(url, open_timeout=10) as ws:
        yield ws


def receive(ws, until, bound: float = 15.0) -> dict:
    """The first message from the server that ``until`` accepts (every message is read in turn)."""
    deadline = time.monotonic() + bound
    while True:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if until(message):
            return message


# ------------------------------------------------------------------------------------- without a browser
def test_seat_specs():
    assert seat_specs(None, 2) == [None, None]
    assert seat_specs("human,mcts:iterations=5,depth=3", 2) == [None, "mcts:iterations=5,depth=3"]
    runner = CliRunner()
    for args, expected in ((["--agents", "random,random"], "every seat is an agent's"),
                           (["--agents", "human"], "names 1 seat for 2 players"),
                           (["--agents", "human,robot"], "unknown agent 'robot'"),
                           (["--hint", "mcts"], "searches only what its seat may see")):
        result = runner.invoke(app, ["web", "tic-tac-toe", "--port", "0", *args])
        assert result.exit_code == 2 and expected in result.output, result.output


def test_a_seat_is_told_only_its_own_and_refused_requests_change_nothing():
    table = Table("kuhn-poker", None, {}, 271828)
    with serving(table) as base:
        page = urllib.request.urlopen(link(base, table, 1), timeout=10)
        assert "no-referrer" in page.headers["referrer-policy"]
        assert "script-src 'self'" in page.headers["content-security-policy"]
        for token in ("x" * 32, "%C3%A9" * 8):  # any character may stand in a link: still no seat, 404
            with pytest.raises(urllib.error.HTTPError) as missing:
                urllib.request.urlopen(f"{base}/seat/{token}", timeout=10)
            assert missing.value.code == 404
        from websockets.exceptions import InvalidStatus
        with pytest.raises(InvalidStatus) as refused:  # no seat: the WebSocket's handshake is refused
            websockets_client.connect(f"{base.replace('http', 'ws')}/seat/nobody/ws", open_timeout=10)
        assert refused.value.response.status_code == 403
        with seat_socket(base, table, 2) as ws:
            shown = receive(ws, lambda m: m["type"] == "table")
            assert "seed" not in shown and shown["rules"] == "kuhn-poker" and shown["moves"] == []
            assert "271828" not in json.dumps(shown)
            for request, error in (("not json", "a request is a JSON object"),
                                   (json.dumps({"cmd": "undo"}), "unknown request 'undo'"),
                                   (json.dumps({"cmd": "move", "number": 1, "text": "pass"}), "not your move"),
                                   (json.dumps({"cmd": "move", "number": True, "text": "pass"}), "its number"),
                                   (json.dumps({"cmd": "hint"}), "not your move")):
                ws.send(request)
                assert error in receive(ws, lambda m: m["type"] == "refused")["error"]
        with seat_socket(base, table, 1) as ws:
            shown = receive(ws, lambda m: m["type"] == "table")
            assert [m["text"] for m in shown["moves"]] == ["pass", "bet"]
            ws.send(json.dumps({"cmd": "move", "number": 2, "text": "pass"}))  # a stale number: refused
            assert "choose again" in receive(ws, lambda m: m["type"] == "refused")["error"]
            ws.send(json.dumps({"cmd": "explain", "number": 1, "text": "pass"}))
            explained = receive(ws, lambda m: m["type"] == "explain")["explanation"]
            assert "kuhn-poker.rules:" in explained and "offered by 'round'" in explained
            ws.send(json.dumps({"cmd": "hint"}))
            assert receive(ws, lambda m: m["type"] == "hint")["text"] in ("pass", "bet")
    assert table.session.state.moves_made == 0 and table.frames[2][0] == 1  # seat 2 saw no change


def test_watch_plays_the_moves_again_on_edited_rules(tmp_path):
    rules = tmp_path / "ttt.rules"
    source = (Path(shipped_games()["tic-tac-toe"])).read_text()
    rules.write_text(source)
    table = Table(str(rules), None, {}, 1)
    with serving(table, watch=True) as base, seat_socket(base, table, 1) as one, seat_socket(base, table, 2) as two:
        receive(one, lambda m: m["type"] == "table")
        one.send(json.dumps({"cmd": "move", "number": 9, "text": "C3"}))
        receive(two, lambda m: m["type"] == "table" and m["log"] == ["player 1: C3"])
        two.send(json.dumps({"cmd": "move", "number": 1, "text": "A1"}))
        receive(one, lambda m: m["type"] == "table" and len(m["log"]) == 2)
        # an edit that keeps every move: both are played again on the new rules
        rules.write_text(source.replace('else "o"', 'else "O"').replace('"o" =', '"O" ='))
        shown = receive(one, lambda m: m["type"] == "table" and m["notes"])
        assert "the 2 moves so far were played again" in shown["notes"][-1]
        assert shown["log"] == ["player 1: C3", "player 2: A1"] and ">O<" in shown["picture"]
        # an edit the moves do not fit: the table goes back to before the first move it refuses
        rules.write_text(source.replace("grid 3 by 3", "grid 2 by 2"))
        shown = receive(one, lambda m: m["type"] == "table" and "diverge" in "".join(m["notes"][-1:]))
        assert "diverge at move 1 of 2" in shown["notes"][-1] and shown["log"] == []
        assert [m["text"] for m in shown["moves"]] == ["A1", "A2", "B1", "B2"]
        # a broken edit: said, and the table plays on as it was
        rules.write_text(source.replace("turn:", "turn"))
        shown = receive(two, lambda m: m["type"] == "table" and "an error" in "".join(m["notes"][-1:]))
        assert "plays on as it was" in shown["notes"][-1] and table.session.game.player_count == 2
        # the file named as in the rules' folder, never by the server's folders
        assert "ttt.rules:" in shown["notes"][-1] and str(tmp_path) not in json.dumps(shown)
        # the file put back: the two moves the divergence dropped are played again (no move was made since)
        rules.write_text(source)
        shown = receive(one, lambda m: m["type"] == "table" and "dropped" in "".join(m["notes"][-1:]))
        assert "the 2 moves so far were played again, 2 of them dropped by an earlier edit" in shown["notes"][-1]
        assert shown["log"] == ["player 1: C3", "player 2: A1"] and len(shown["moves"]) == 7  # player 1 to move again


def test_an_edit_that_once_hung_fails_at_its_line_and_a_later_edit_recovers(tmp_path):
    """An edit whose setup compares two lists of 2^40 items (it hung the server for good before the work
    of comparisons was counted) is read in a process of its own: the table plays on meanwhile, says the
    edit fails, and takes the next edit."""
    rules = tmp_path / "ttt.rules"
    source = (Path(shipped_games()["tic-tac-toe"])).read_text()
    rules.write_text(source)
    endless = source.replace("turn:", "def d(x, n) = x if n == 0 else d([x, x], n - 1)\nvar same = false\n"
                                      "setup:\n    same = d([1], 40) == d([roll(1)], 40)\n\nturn:", 1)
    table = Table(str(rules), None, {}, 1)
    # (a bound far above the second or so the reading takes: a machine loaded by other work is slow)
    with serving(table, watch=True, reload_seconds=90) as base, seat_socket(base, table, 1) as one:
        receive(one, lambda m: m["type"] == "table")
        rules.write_text(endless)
        time.sleep(0.2)  # the edit seen, and being read
        one.send(json.dumps({"cmd": "move", "number": 5, "text": "B2"}))
        shown = receive(one, lambda m: m["type"] == "table" and m["log"], bound=5)
        assert shown["log"] == ["player 1: B2"]  # answered while the edit is read
        assert urllib.request.urlopen(link(base, table, 1), timeout=5).status == 200
        shown = receive(one, lambda m: m["type"] == "table" and m["notes"], bound=120)
        assert "the edited rules fail while setting up the game; the table plays on as it was" in shown["notes"][-1]
        rules.write_text(source.replace('else "o"', 'else "O"').replace('"o" =', '"O" ='))
        receive(one, lambda m: m["type"] == "table" and "1 move so far were played again" in m["notes"][-1], bound=30)
        with seat_socket(base, table, 2) as two:  # the table plays on, on the edited rules
            two.send(json.dumps({"cmd": "move", "number": 1, "text": "A1"}))
            shown = receive(one, lambda m: m["type"] == "table" and len(m["log"]) == 2)
            assert ">O<" in shown["picture"]


def test_an_edit_slower_to_load_than_allowed_is_given_up_and_the_table_plays_on(tmp_path):
    """The reading of an edit is bounded in time (reload_seconds; here shorter than starting the process
    that reads it): it is given up, the seats are told so, and the table plays on as it was."""
    rules = tmp_path / "ttt.rules"
    source = (Path(shipped_games()["tic-tac-toe"])).read_text()
    rules.write_text(source)
    table = Table(str(rules), None, {}, 1)
    with serving(table, watch=True, reload_seconds=0.05) as base, seat_socket(base, table, 1) as one:
        receive(one, lambda m: m["type"] == "table")
        rules.write_text(source.replace('else "o"', 'else "O"').replace('"o" =', '"O" ='))
        shown = receive(one, lambda m: m["type"] == "table" and m["notes"], bound=30)
        assert "took more than 0.05 seconds to load; the table plays on as it was" in shown["notes"][-1]
        one.send(json.dumps({"cmd": "move", "number": 5, "text": "B2"}))
        shown = receive(one, lambda m: m["type"] == "table" and m["log"], bound=5)
        assert shown["log"] == ["player 1: B2"] and ">O<" not in shown["picture"]


# ------------------------------------------------------------------------------------- in a browser


def open_seat(browser, url: str):
    """A page of its own browser context (its own person, its own storage) at the seat's link."""
    page = browser.new_context().new_page()
    page.set_default_timeout(WAIT_MS)
    page.goto(url)
    page.wait_for_selector("#status:not(:empty)")
    return page


def wait_log(page, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length >= {count}")


def test_two_seats_play_tic_tac_toe_by_clicks(browser):
    table = Table("tic-tac-toe", None, {}, 1)
    with serving(table) as base:
        pages = {1: open_seat(browser, link(base, table, 1)), 2: open_seat(browser, link(base, table, 2))}
        # player 1 takes row A; player 2 plays B1 and B2; each move a click on the board's space
        for made, (player, space) in enumerate([(1, "A1"), (2, "B1"), (1, "A2"), (2, "B2"), (1, "A3")], 1):
            page = pages[player]
            page.wait_for_selector(f"#picture [data-space='{space}'].playable")
            if made == 3:  # a reload reconnects: the page shows the table as it stands, and plays on
                page.reload()
                page.wait_for_selector("#status:not(:empty)")
                assert page.locator("#log li").all_inner_texts() == ["player 1: A1", "player 2: B1"]
            if made == 4:  # a move's button works as its space does
                page.get_by_role("button", name="B2", exact=True).click()
            else:
                page.click(f"#picture [data-space='{space}']")
            for other in pages.values():
                wait_log(other, made)
        for page in pages.values():
            page.wait_for_selector("#outcome:not([hidden])")
            assert "winner: player 1" in page.inner_text("#outcome")
            assert page.locator("#log li").all_inner_texts()[-1] == "game over"
            assert page.locator("button.move").count() == 0
    assert table.session.state.outcome().winners == [1]


NASTY_NAME = "<svg onload=pwned=1>&lt;"  # markup that would run, were it made HTML


def test_seat_1_never_receives_seat_2_card_nor_the_seed(browser, tmp_path):
    """Kuhn poker with card names that appear nowhere else, so any trace of seat 2's card is found."""
    source = Path(shipped_games()["kuhn-poker"]).read_text()
    names = {"J": "JACKOFCLUBS", "Q": "QUEENOFHEARTS", "K": "KINGOFSPADES"}
    for short, long in names.items():
        source = source.replace(f'"{short}", ', f'"{long}", ')
    rules = tmp_path / "kuhn.rules"
    rules.write_text(source)
    seed = 90817263
    table = Table(str(rules), None, {}, seed)
    mine, theirs = table.session.state.vars["hand"]  # the referee's view: both hands
    assert {mine, theirs} <= set(names.values())
    received: list = []   # every byte seat 1's page was sent: HTTP bodies and WebSocket frames
    with serving(table) as base:
        context = browser.new_context()
        one = context.new_page()
        one.set_default_timeout(WAIT_MS)
        responses = []
        one.on("response", lambda response: responses.append(response))
        one.on("websocket", lambda ws: ws.on("framereceived", lambda frame: received.append(frame)))
        one.goto(link(base, table, 1))
        one.wait_for_selector("#status:not(:empty)")
        two = open_seat(browser, link(base, table, 2))
        # a name is public, and shown as text: markup in it is never run nor made an element
        two.fill("#name", NASTY_NAME)
        two.click("#name-set")
        one.wait_for_function("() => document.getElementById('seats').textContent.includes('onload')")
        assert NASTY_NAME in one.inner_text("#seats") and one.locator("#seats svg").count() == 0
        two.wait_for_function("name => document.title.includes(name)", arg=NASTY_NAME)  # its own push may come later
        assert two.title() == f"Kuhn Poker: {NASTY_NAME} (player 2)"
        assert two.locator("header svg").count() == 0
        assert one.inner_text("#own .card") == mine
        one.get_by_role("button", name="pass", exact=True).click()
        wait_log(two, 1)
        two.get_by_role("button", name="bet", exact=True).click()
        wait_log(one, 2)
        one.click("#hint")
        one.wait_for_function("() => /suggests: (fold|call)/.test(document.getElementById('advice').textContent)")
        one.locator("button.explain").first.click()
        one.wait_for_function("() => document.getElementById('advice').textContent.includes('kuhn.rules:')")
        one.click("#back")  # the history's past tables reach the page too: searched below with the rest
        one.wait_for_function("() => document.getElementById('history-at').textContent.includes('as you saw it')")
        one.click("#now")
        one.get_by_role("button", name="fold", exact=True).click()  # a fold shows no card
        one.wait_for_selector("#outcome:not([hidden])")
        assert f"winner: {NASTY_NAME} (player 2)" in one.inner_text("#outcome")
        assert one.evaluate("() => window.pwned") is None
        received += [r.text() for r in responses]
        received.append(one.content())
    everything = "\n".join(f if isinstance(f, str) else f.decode("utf-8", "replace") for f in received)
    assert mine in everything and "fold" in everything  # what seat 1 may see did reach it
    assert theirs not in everything
    assert str(seed) not in everything


def test_an_agent_seat_moves_by_itself(browser):
    table = Table("tic-tac-toe", None, {}, 3, agents="human,first")
    with serving(table) as base:
        page = open_seat(browser, link(base, table, 1))
        assert "the agent first" in page.inner_text("#seats")
        page.click("#picture [data-space='B2']")
        wait_log(page, 2)  # the agent answered: its first legal move
        assert page.locator("#log li").all_inner_texts() == ["player 1: B2", "player 2: A1"]
        page.wait_for_selector("#picture [data-space='A2'].playable")


def test_rules_that_fail_on_an_agents_move_stop_the_table_and_say_so(tmp_path):
    source = Path(shipped_games()["tic-tac-toe"]).read_text()
    rules = tmp_path / "broken.rules"
    rules.write_text(source.replace("    marks[cell] = me\n", "    marks[cell] = me\n    let x = 6 / (me - 2)\n"))
    table = Table(str(rules), None, {}, 1, agents="human,first")
    with pytest.raises(Refused, match="not your move"):
        table.play(table.places[1], 1, "A1")  # player 2 is not to move
    table.play(table.places[0], 5, "B2")
    assert not table.agent_move()  # the rules fail on player 2's move: the table waits
    assert "division" in table.failure and table.session.state.moves_made == 1
    shown = table.shown_to(table.places[0])
    assert "the rules failed on player 2's move" in shown["notes"][-1]
    assert shown["log"] == ["player 1: B2"]


def in_a_loop(fn):
    """``await fn()`` in an event loop of its own thread (playwright's sync API holds this thread's)."""
    import asyncio
    result: list = []
    thread = threading.Thread(target=lambda: result.append(asyncio.run(fn())))
    thread.start()
    thread.join(timeout=60)
    assert result, "the coroutine failed or did not end"
    return result[0]


class Page:
    """A page's WebSocket as the web server sees it: keeps what it is sent."""

    def __init__(self):
        self.got: list = []

    async def send_text(self, text: str) -> None:
        self.got.append(text)


def test_a_seat_gets_the_same_frames_whoever_else_a_window_asks(asked_file):
    """Player 1's move opens a window that asks player 3, player 2, or both (ASKED_SEEDS); each asked
    player declines. Player 1 cannot tell the deals apart, and its page is sent the same frames, byte for
    byte: no push, and no new version, for an answer it cannot see."""
    path, seeds = asked_file
    sent = {}
    for seed, asked in seeds.items():
        table = Table(str(path), None, {}, seed)
        web = WebTable(table, agent_pause=0)
        pages = {p: Page() for p in (1, 2, 3)}

        async def play():
            for p, page in pages.items():
                web.pages[p].add(page)
            await web.tell_everyone()
            assert await web.answer(table.places[0], json.dumps({"cmd": "move", "number": 1, "text": "go"})) is None
            for p in asked:  # each asked player declines: nobody else sees it
                number = next(m["number"] for m in json.loads(pages[p].got[-1])["moves"] if m["text"] == "pass")
                assert await web.answer(table.places[p - 1], json.dumps({"cmd": "move", "number": number,
                                                                        "text": "pass"})) is None
            return await web.answer(table.places[0], json.dumps({"cmd": "table"}))
        try:
            last = in_a_loop(play)
        finally:
            web.engine.shutdown()
        assert table.session.state.to_move() == [2] and last["to_move"] == [2]  # the window closed
        sent[seed] = pages[1].got + [json.dumps(last)]
    first, *others = sent.values()
    assert all(frames == first for frames in others)
    assert [json.loads(f)["version"] for f in first] == [1, 2, 3, 3]  # here, after its move, after the window


AUCTION = '''game "Auction"
players 2
player var money = 10
player var bid = 0
var lots = 3

round:
    each p in players secretly choose amount in range(0, 10) where amount <= p.money as "bid {amount}":
        reveal amount as "player {p} bids {amount}"
        p.bid = amount
    let top = max(p in players: p.bid)
    let winner = first(p in turn_order() where p.bid == top)
    winner.money -= top
    lots -= 1
end when lots == 0 after round
rank by money descending
'''


def test_a_seat_flooding_hints_holds_up_no_other_seats_move(tmp_path):
    """Both seats bid at once. Seat 1 asks a hint from 8 pages at once (each search 2 s): one search
    runs, off the engine thread, and the 7 others are refused; meanwhile seat 2's bid is answered at once
    (the engine thread was held for 8 searches, 16 s, before)."""
    rules = tmp_path / "auction.rules"
    rules.write_text(AUCTION)
    table = Table(str(rules), None, {}, 5, hint="ismcts:iterations=100000000,seconds=2")
    with serving(table) as base, contextlib.ExitStack() as stack:
        pages = [stack.enter_context(seat_socket(base, table, 1)) for _ in range(8)]
        two = stack.enter_context(seat_socket(base, table, 2))
        receive(two, lambda m: m["type"] == "table" and m["moves"])
        for ws in pages:
            receive(ws, lambda m: m["type"] == "table")
            ws.send(json.dumps({"cmd": "hint"}))
        refused, deadline = {}, time.monotonic() + 10
        while len(refused) < 7 and time.monotonic() < deadline:  # the pages answered at once, in any order
            for i, ws in enumerate(pages):
                with contextlib.suppress(TimeoutError):
                    message = json.loads(ws.recv(timeout=0.02))
                    assert message["type"] in ("refused", "table"), message  # (a table: seat 2 came)
                    if message["type"] == "refused":
                        refused[i] = message["error"]
        assert len(refused) == 7 and all("being searched already" in e for e in refused.values()), refused
        began = time.monotonic()
        two.send(json.dumps({"cmd": "move", "number": 4, "text": "bid 3"}))
        receive(two, lambda m: m["type"] == "table" and not m["moves"])
        took = time.monotonic() - began
        searching = next(ws for i, ws in enumerate(pages) if i not in refused)
        hint = receive(searching, lambda m: m["type"] in ("hint", "refused"), bound=20)
        assert hint["type"] == "hint" and hint["text"].startswith("bid"), hint
    print(f"seat 2's move answered in {took:.3f} s while seat 1's hint searched")
    assert took < 1.5, f"seat 2's move took {took:.2f} s while seat 1's hint searched"


def test_a_page_gone_while_its_hint_is_searched_gets_no_reply_and_no_traceback(capfd):
    """The page's connection drops (no goodbye) while its hint is searched; a push to it fails meanwhile
    (its seat named from another page): the hint's reply goes nowhere, quietly, and the table plays on."""
    table = Table("tic-tac-toe", None, {}, 1, hint="ismcts:iterations=1000000,seconds=1")
    with serving(table) as base:
        url = link(base, table, 1).replace("http://", "ws://") + "/ws"
        with websockets_client.connect(url, open_timeout=10) as asking:
            receive(asking, lambda m: m["type"] == "table")
            asking.send(json.dumps({"cmd": "hint"}))
            time.sleep(0.2)  # the search has begun
            asking.socket.shutdown(socket.SHUT_RDWR)
            with seat_socket(base, table, 1) as other:
                receive(other, lambda m: m["type"] == "table")
                other.send(json.dumps({"cmd": "name", "name": "Ann"}))
                receive(other, lambda m: m["type"] == "table" and m["seats"][0]["name"] == "Ann")
                time.sleep(1.5)  # the hint is found, and its reply has nowhere to go
                other.send(json.dumps({"cmd": "move", "number": 1, "text": "A1"}))
                receive(other, lambda m: m["type"] == "table" and m["log"])
    assert "Traceback" not in capfd.readouterr().err


def test_a_hint_searches_no_longer_than_the_cap():
    from rulewright.cli.table import HINT_SECONDS, hint_agent
    assert hint_agent("ismcts:iterations=5,seconds=3600").seconds == HINT_SECONDS
    assert hint_agent("ismcts:iterations=100000000").seconds == HINT_SECONDS  # no seconds: the cap
    assert hint_agent("ismcts:seconds=2").seconds == 2


# ------------------------------------------------------------------------------------- history
REVEALED = '''
game "Revealed"
players 2
player var hand = [] secret
var deck = [] hidden
display:
    players "Hand" = hand as hand
    own "Hand" = hand as cards
setup:
    deck = shuffled(["KESTREL", "HERON", "OSPREY", "PLOVER"])
    for p in players:
        repeat 2 times:
            draw c from deck
            add c to p.hand
turn:
    choose c in me.hand as "play {c}"
    remove c from me.hand
end when round_number == 2 after round
'''


def test_history_shows_each_past_table_as_the_seat_saw_it_and_never_more(tmp_path):
    """Player 2 plays a card at move 2, face up: before it, in player 1's history, it is nowhere (a back in
    player 2's hand); from move 2 on it is in the log. The past is the seat's own view then."""
    rules = tmp_path / "revealed.rules"
    rules.write_text(REVEALED, encoding="utf-8")
    table = Table(str(rules), None, {}, 4)
    one, two = table.places
    table.play(one, 1, table._moves(1)[0]["text"])
    played = table._moves(2)[0]["text"]
    table.play(two, 1, played)
    card = played.removeprefix("play ")
    past = [table.history(one, at) for at in range(3)]
    assert [h["at"] for h in past] == [0, 1, 2] and {h["of"] for h in past} == {2}
    assert [len(h["log"]) for h in past] == [0, 1, 2]
    assert card not in json.dumps(past[:2]) and past[2]["log"][-1] == f"player 2: {played}"
    assert past[0]["picture"].count(">2 cards<") == 1  # player 2's hand as backs, its count
    assert table.history(two, 0)["picture"].count(card) >= 1  # its owner saw it in its hand
    for wrong in (3, -1, True, "1", None):
        with pytest.raises(Refused, match="0 to 2"):
            table.history(one, wrong)


def test_a_past_table_plays_nothing_and_a_rematch_ends_the_look_back(browser):
    """Looking back, a click on a space of the past picture plays nothing (the space was free then, it may
    be now); the moves' buttons still play. A rematch dealt while the page looks back shows the new game."""
    table = Table("tic-tac-toe", None, {}, 1)
    with serving(table) as base, seat_socket(base, table, 2) as two:
        page = open_seat(browser, link(base, table, 1))
        for made, space in enumerate(["A1", "B1", "A2", "B2"], 1):
            if made % 2:
                page.click(f"#picture [data-space='{space}'].playable")
            else:
                moves = receive(two, lambda m: m["type"] == "table" and m["moves"])["moves"]
                number = next(m["number"] for m in moves if m["text"] == space)
                two.send(json.dumps({"cmd": "move", "number": number, "text": space}))
            wait_log(page, made)
        for at in (3, 2, 1, 0):  # back to the deal
            page.click("#back")
            page.wait_for_function("at => document.getElementById('history-at').textContent.startsWith("
                                   "'after move ' + at + ' ')", arg=at)
        page.click("#picture [data-space='C3']")  # free at the deal, free now: still no move
        page.wait_for_selector("#message:has-text('a past table')")
        page.get_by_role("button", name="A3", exact=True).click()  # the buttons play the table now
        page.wait_for_selector("#outcome:not([hidden])")
        assert table.session.state.outcome().winners == [1]
        assert "C3" not in json.dumps(receive(two, lambda m: m["type"] == "table" and m["over"])["log"])
        assert "past" in page.get_attribute("#board", "class")  # still looking at the deal
        two.send(json.dumps({"cmd": "rematch"}))
        page.wait_for_function("() => document.getElementById('history-at').textContent === 'now (0 moves)'")
        assert "past" not in page.get_attribute("#board", "class")
        assert page.locator("#picture [data-space].playable").count() == 9  # the new game's empty board


PHONE = {"width": 390, "height": 844}


def test_on_a_phone_the_picture_pans_and_zooms_and_the_moves_and_history_stay_in_reach(browser):
    """At 390 pixels Air Show's picture (860 wide) keeps its own size, its text readable, in a frame that
    pans; the zoom buttons scale it; the page itself never scrolls sideways, so the moves are in reach;
    'earlier' shows a past table and 'now' the table again."""
    table = Table("air-show", 2, {}, 1, agents="human,first")
    with serving(table) as base:
        page = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(link(base, table, 1))
        page.wait_for_selector("button.move")
        size = page.evaluate("""() => {
            const svg = document.querySelector('#picture svg'), view = document.getElementById('viewport');
            return {drawn: svg.getBoundingClientRect().width, own: Number(svg.getAttribute('width')),
                    view: view.clientWidth, pans: view.scrollWidth, page: document.documentElement.scrollWidth};
        }""")
        assert size["drawn"] == size["own"] > size["view"] and size["pans"] >= size["own"]
        assert size["page"] <= PHONE["width"]  # nothing but the picture's frame scrolls sideways
        page.evaluate("() => { document.getElementById('viewport').scrollLeft = 300; }")
        assert page.evaluate("() => document.getElementById('viewport').scrollLeft") == 300
        page.click("#zoom-in")
        assert page.evaluate("() => document.querySelector('#picture svg').getBoundingClientRect().width") \
            == pytest.approx(size["own"] * 1.25, abs=1)
        page.click("#zoom-fit")
        assert page.evaluate("() => document.querySelector('#picture svg').getBoundingClientRect().width") \
            <= size["view"] + 1
        move = page.locator("button.move").first
        move.scroll_into_view_if_needed()
        box = move.bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"]
        before = page.locator("#log li").count()
        move.click()
        wait_log(page, before + 1)
        page.wait_for_function("() => !document.getElementById('back').disabled")
        page.click("#back")
        page.wait_for_function("() => document.getElementById('history-at').textContent.includes('as you saw it')")
        assert "past" in page.get_attribute("#board", "class")
        assert page.locator("#log li").count() < before + 1 or before == 0
        page.click("#now")
        page.wait_for_function("() => !document.getElementById('board').classList.contains('past')")


def test_on_a_phone_the_games_options_read_whole_in_the_header(browser):
    """The picture's title (game, players, options) is cut at 390 pixels until panned: the page's header
    says the players and options in text that wraps."""
    table = Table("biplane", 2, {}, 1, agents="human,first")
    with serving(table) as base:
        page = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(link(base, table, 1))
        page.wait_for_selector("button.move")
        options = page.locator("#options")
        said = options.inner_text()
        assert table.session.game.options and "2 players" in said
        assert all(f"{k}={v}" in said for k, v in table.session.game.options.items())
        box = options.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]


NAMED = '''
game "Named"
players 2
board b: grid 3 by 3
record chip(owner, at secret to owner unless shown, shown)
setup:
    for p in players:
        choose d in ["B1", "B3"] by p as "draw a card blind"
turn:
    choose m in [["A1", "B2"], "B2 card", chip(2, "C3", false), chip(1, "C1", false), "A3"] as "take {m} (not C2)"
end when round_number == 2 after round
'''


def test_a_move_names_the_spaces_its_value_holds_as_the_seat_sees_them(tmp_path):
    """A move's spaces come from its value beside its text, never from the text's words: not C2, which
    only its text names, nor 'B2 card'; not the C3 a rival's face-down field holds, but the seat's own C1;
    none of a card drawn blind (its text does not show it)."""
    rules = tmp_path / "named.rules"
    rules.write_text(NAMED, encoding="utf-8")
    table = Table(str(rules), None, {}, 4)
    one, two = table.places
    assert [m["spaces"] for m in table._moves(1)] == [[], []]  # its text does not show the card drawn
    table.play(one, 1, table._moves(1)[0]["text"])
    table.play(two, 1, table._moves(2)[0]["text"])
    moves = table._moves(1)
    assert [m["spaces"] for m in moves] == [["A1", "B2"], [], [], ["C1"], ["A3"]]
    assert "C2" in moves[0]["text"] and "B2" in moves[1]["text"]  # words of the texts, not spaces named
