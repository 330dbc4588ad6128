"""The web tables kept in SQLite (cli/tablestore.py): a server killed with SIGKILL and started again on the
same database serves the same table to the same links, and the pages (Chromium) reconnect and play on; a
stopped server's pages say the table closed and take no clicks; a damaged, foreign or older database, or a
table whose moves no longer play, is refused whole; names, the rematch, and a turn the page makes plain."""
from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from typer.testing import CliRunner  # noqa: E402

from rulewright.cli.main import app  # noqa: E402
from rulewright.cli.table import Refused, Table  # noqa: E402
from rulewright.cli.tablestore import TableStore, default_path  # noqa: E402
from rulewright.dsl.errors import SaveError  # noqa: E402
from rulewright.interpreter.api import shipped_games  # noqa: E402

WAIT_MS = 20_000  # the longest a page may take to show what it must (a bound, not a measure)


# ------------------------------------------------------------------------------------- the store itself
def test_a_table_resumes_with_its_seats_names_and_moves_and_a_rematch_deals_anew(tmp_path):
    store = TableStore(tmp_path / "tables.sqlite")
    table = Table("tic-tac-toe", None, {}, 4, store=store)
    one, two = table.places
    table.name(one, "Ann")
    for place, number, text in ((one, 1, "A1"), (two, 3, "B1"), (one, 1, "A2")):
        table.play(place, number, text)
        # committed as the move returns: another connection (another process) reads it at once
        with contextlib.closing(sqlite3.connect(tmp_path / "tables.sqlite")) as other:
            assert other.execute("SELECT count(*) FROM moves").fetchone()[0] == len(table.kept)
    with pytest.raises(Refused, match="not over"):
        table.rematch(two)
    again = Table.resume(TableStore(tmp_path / "tables.sqlite"), table.id)
    assert [q.token for q in again.places] == [q.token for q in table.places] and again.names == {1: "Ann"}
    assert again.kept == [(1, "A1"), (2, "B1"), (1, "A2")]
    shown = again.shown_to(again.places[1])
    assert shown["log"] == ["Ann (player 1): A1", "player 2: B1", "Ann (player 1): A2"]
    for number, text, place in ((1, "B2", again.places[1]), (1, "A3", again.places[0])):
        again.play(place, next(m["number"] for m in again._moves(place.player) if m["text"] == text), text)
    assert again.session.state.is_over()
    again.rematch(again.places[1])
    third = Table.resume(TableStore(tmp_path / "tables.sqlite"), table.id)
    assert third.game_number == 1 and third.kept == [] and not third.session.state.is_over()
    assert third.session.seed == 4 + 1  # a seeded table deals game k by seed + k, as serve does
    assert "player 2 asked for a rematch: game 2 at this table is dealt" in again.notes[-1]


def test_names_are_checked(tmp_path):
    table = Table("tic-tac-toe", None, {}, 1)
    for name, why in ((7, "a text"), ("", "1 to 24"), ("x" * 25, "1 to 24"), ("a\x1b[2Jb", "control"),
                      ("\ud800", "half of a character")):
        with pytest.raises(Refused, match=why):
            table.name(table.places[0], name)
    table.name(table.places[0], "  Ann   Lee ")
    with pytest.raises(Refused, match="another seat has that name"):
        table.name(table.places[1], "ann lee")
    assert table.names == {1: "Ann Lee"}


def test_a_name_or_a_rematch_the_damaged_database_refuses_changes_nothing(tmp_path):
    db = tmp_path / "tables.sqlite"
    table = Table("tic-tac-toe", None, {}, 3, store=TableStore(db))
    for player, space in ((1, "A1"), (2, "B1"), (1, "A2"), (2, "B2"), (1, "A3")):
        place = table.places[player - 1]
        table.play(place, next(m["number"] for m in table._moves(player) if m["text"] == space), space)
    assert table.session.state.is_over()
    db.write_bytes(b"not a database " * 1000)  # damaged under the running server
    for ask in (lambda: table.name(table.places[0], "Ann"), lambda: table.rematch(table.places[1])):
        with pytest.raises(Refused, match="could not keep .* nothing changed"):
            ask()
    assert table.names == {} and table.game_number == 0 and table.session.state.outcome().winners == [1]
    assert "cannot be written" in table.failure  # the referee's terminal says why


def test_a_name_cannot_pass_for_another_seat_nor_show_blank():
    table = Table("tic-tac-toe", None, {}, 1)
    first, second = table.places
    for name, why in (("player 2", "may not read 'player N'"), ("Bob (Player 2)", "may not read 'player N'"),
                      ("\uff50\uff4c\uff41\uff59\uff45\uff52 2", "may not read 'player N'"),  # full-width
                      ("\u3164", "a sign that shows"), ("\u2800\u2800", "a sign that shows")):
        with pytest.raises(Refused, match=why):
            table.name(first, name)
    table.name(first, "Rene\u0301")  # an e and a combining accent: kept as the one letter it reads as
    assert table.names == {1: "Ren\u00e9"}
    # the same name in capitals, in full-width letters, with a Cyrillic or a Greek letter that looks the same
    for same in ("REN\u00c9", "\uff32en\u00e9", "R\u0435n\u00e9", "R\u0395N\u00c9"):
        with pytest.raises(Refused, match="another seat has that name"):
            table.name(second, same)
    assert table.names == {1: "Ren\u00e9"} and table.named("player 2 wins") == "player 2 wins"


def refused(db, *args) -> str:
    result = CliRunner().invoke(app, ["web", "--db", str(db), *args])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    return result.output


def test_a_damaged_foreign_or_older_database_is_refused_whole(tmp_path):
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is no database at all" * 100)
    assert "not a readable tables database" in refused(garbage, "--list")
    foreign = tmp_path / "foreign.sqlite"
    with contextlib.closing(sqlite3.connect(foreign)) as conn:
        conn.execute("CREATE TABLE songs (title TEXT)")
    assert "not a rulewright tables database" in refused(foreign, "--resume", "1")
    older = tmp_path / "older.sqlite"
    TableStore(older).close()
    with contextlib.closing(sqlite3.connect(older)) as conn, conn:
        conn.execute("UPDATE schema SET version = 0")
    assert "an older rulewright (schema version 0; this one reads version 1)" in refused(older, "--list")
    # a table row of the wrong type, and a table whose moves no longer play: refused, nothing loaded
    db = tmp_path / "tables.sqlite"
    store = TableStore(db)
    table = Table("tic-tac-toe", None, {}, 1, store=store)
    table.play(table.places[0], 5, "B2")
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("INSERT INTO moves VALUES (?, 0, 1, 2, 'B2')", (table.id,))  # B2 is taken already
    out = refused(db, "--resume", str(table.id))
    assert f"table {table.id}: its moves no longer play on its rules: move 2 of 2 (player 2: 'B2')" in out
    with contextlib.closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("UPDATE tables SET players = 'two'")
    assert "is damaged (its player count is not a count): it was not loaded" in refused(db, "--resume", "1")
    assert "no table 9 (tables: 1;" in refused(db, "--resume", "9")
    with pytest.raises(SaveError):
        Table.resume(store, table.id)


def test_the_default_database_is_in_the_data_folder_and_only_its_owner_reads_it(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "rulewright" / "tables.sqlite"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    assert default_path() == Path.home() / ".local" / "share" / "rulewright" / "tables.sqlite"
    TableStore(tmp_path / "data" / "rulewright" / "tables.sqlite").close()
    assert (tmp_path / "data" / "rulewright" / "tables.sqlite").stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "data" / "rulewright").stat().st_mode & 0o777 == 0o700


def test_usage_of_resume_and_list():
    runner = CliRunner()
    for args, why in ((["--resume", "1", "tic-tac-toe"], "GAME cannot be given with --resume"),
                      (["--list", "--resume", "1"], "--list and --resume go alone"),
                      ([], "name a game")):
        result = runner.invoke(app, ["web", *args])
        assert result.exit_code == 2 and why in result.output, result.output


# ------------------------------------------------------------------------------------- a server killed
def start(args, env) -> tuple:
    """`rulewright web ARGS` in a process of its own; its process, address, table id and seat links."""
    proc = subprocess.Popen([sys.executable, "-m", "rulewright", "web", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    lines = []
    deadline = time.monotonic() + 60
    while not lines or not lines[-1].startswith("Each link"):
        line = proc.stdout.readline()
        assert line and time.monotonic() < deadline, f"the server did not start: {lines} {proc.stderr.read()}"
        lines.append(line.strip())
    head = re.search(r"table (\d+) at (http://\S+)", lines[0])
    links = {int(m[1]): m[2] for m in (re.match(r"player (\d+): (http://\S+)", line) for line in lines) if m}
    return proc, head[2], int(head[1]), links




def wait_log(page, count: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length >= {count}")


def test_a_table_survives_kill_9_and_its_pages_play_on(browser, tmp_path):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}  # the default database, in the data folder
    proc, base, tid, links = start(["tic-tac-toe", "--port", "0", "--seed", "3"], env)
    try:
        assert urllib.request.urlopen(f"{base}/favicon.ico", timeout=10).headers["content-type"] == "image/svg+xml"
        pages = {}
        for player in (1, 2):
            pages[player] = browser.new_context().new_page()
            pages[player].set_default_timeout(WAIT_MS)
            pages[player].goto(links[player])
            pages[player].wait_for_selector("#status:not(:empty)")
        one, two = pages[1], pages[2]
        # the turn is plain: the title, the icon and the Turn box of the seat to move, not of the other
        assert one.title().startswith("Your turn - Tic-Tac-Toe") and not two.title().startswith("Your turn")
        assert one.get_attribute("#favicon", "href") == "/static/favicon-turn.svg"
        assert two.get_attribute("#favicon", "href") == "/static/favicon.svg"
        assert one.locator("#turn.yours").count() == 1 and two.locator("#turn.yours").count() == 0
        # waiting is a sentence, not a numbered move
        assert two.locator("#moves li").count() == 0 and two.inner_text("#no-moves") == "none now: wait for your turn"
        one.fill("#name", "Ann")
        one.click("#name-set")
        two.wait_for_function("() => document.getElementById('seats').textContent.includes('player 1 (Ann)')")
        one.click("#picture [data-space='A1']")
        wait_log(two, 1)
        two.click("#picture [data-space='B1']")
        wait_log(one, 2)
        proc.send_signal(signal.SIGKILL)  # the moves were committed before they were answered
        proc.wait(timeout=10)
        for page in pages.values():
            page.wait_for_function("() => document.getElementById('connection').textContent.includes('reconnecting')")
        assert one.locator("button.move:enabled").count() == 0  # nothing to click while the table is away
        proc, again, same, relinks = start(["--resume", str(tid)], env)  # its port and links as they were
        assert (again, same, relinks) == (base, tid, links)
        for page in pages.values():
            page.wait_for_function("() => document.getElementById('connection').textContent === 'connected'")
        assert one.locator("#log li").all_inner_texts() == ["Ann (player 1): A1", "player 2: B1"]
        for made, (page, space) in enumerate([(one, "A2"), (two, "B2"), (one, "A3")], 3):
            page.wait_for_selector(f"#picture [data-space='{space}'].playable")
            page.click(f"#picture [data-space='{space}']")
            for other in pages.values():
                wait_log(other, made)
        two.wait_for_selector("#outcome:not([hidden])")
        assert "winner: Ann (player 1)" in two.inner_text("#outcome")
        two.click("#rematch")  # a new game, the same seats
        one.wait_for_function("() => document.querySelectorAll('#log li').length === 0")
        one.wait_for_selector("#picture [data-space='A1']")
        # a server stopped on purpose: its pages say the table closed, and take no clicks
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
        for page in pages.values():
            page.wait_for_function("() => document.getElementById('connection').textContent.includes('closed')")
        assert one.locator("button.move:enabled").count() == 0 and one.is_disabled("#rematch")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    db = tmp_path / "data" / "rulewright" / "tables.sqlite"
    result = CliRunner().invoke(app, ["web", "--list", "--db", str(db)])
    assert f"{tid}: Tic-Tac-Toe, 2 players (Ann, player 2): game 2, 0 moves, in play" in result.output
    store = TableStore(db)
    with contextlib.closing(sqlite3.connect(db)) as conn:  # the first game's five moves, kept
        assert conn.execute("SELECT count(*) FROM moves WHERE game = 0").fetchone()[0] == 5
    assert Table.resume(store, tid).places[0].token == links[1].rsplit("/", 1)[1]


def test_the_page_shows_the_seats_own_things_once_beside_the_picture():
    """The picture a seat's page draws leaves the viewer's own things to 'Yours' (shown once); the
    picture of `show --svg` keeps them, having no panel beside it."""
    from rulewright.interpreter.present.screen import build
    from rulewright.interpreter.present.svg import picture
    table = Table("biplane", 2, {}, 11)
    shown = table.shown_to(table.places[0])
    own = {thing["label"]: thing["cards"] for thing in shown["own"]}
    assert own["Permanent hand"] == table.session.state.vars["perm"][0]
    assert "yours:" not in shown["picture"]
    assert "yours: Permanent hand" in picture(build(table.session.state, 1))
