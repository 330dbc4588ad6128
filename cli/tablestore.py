"""The web tables kept in SQLite (`rulewright web --db`, `--list`, `--resume`): every table, its seats (their
links' tokens, who plays them, their names) and every move of every game dealt at it, each move committed
before the page that made it is answered, so a server killed at any moment resumes its tables as they were.

A game is kept as a save is (interpreter/saves.py): its seed and its moves, played again from the seed
when the table resumes; a move the rules no longer allow refuses the whole table, never half of it. The file
holds every seed and secret move: it is made readable by its owner only, in a folder only its owner can
enter, and nothing of it is served to a page."""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Optional

import attrs

from rulewright.dsl.errors import SaveError

SCHEMA = 1  # the layout below; a file of another version is refused, never half-read
LAYOUT = """
CREATE TABLE schema (version INTEGER NOT NULL);
CREATE TABLE tables (id INTEGER PRIMARY KEY, rules TEXT NOT NULL, players INTEGER NOT NULL,
                     options TEXT NOT NULL, agents TEXT, hint TEXT NOT NULL, base_seed INTEGER,
                     port INTEGER, created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE seats (table_id INTEGER NOT NULL, player INTEGER NOT NULL, token TEXT, who TEXT NOT NULL,
                    name TEXT, PRIMARY KEY (table_id, player));
CREATE TABLE games (table_id INTEGER NOT NULL, game INTEGER NOT NULL, seed INTEGER NOT NULL,
                    PRIMARY KEY (table_id, game));
CREATE TABLE moves (table_id INTEGER NOT NULL, game INTEGER NOT NULL, n INTEGER NOT NULL,
                    player INTEGER NOT NULL, move TEXT NOT NULL, PRIMARY KEY (table_id, game, n));
"""
KINDS = {"schema", "tables", "seats", "games", "moves"}


def default_path() -> Path:
    """$XDG_DATA_HOME/rulewright/tables.sqlite (~/.local/share when unset; a relative one is ignored, as
    the XDG spec says)."""
    data = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data) if data and os.path.isabs(data) else Path.home() / ".local" / "share"
    return base / "rulewright" / "tables.sqlite"


@attrs.define
class Record:
    """One table as kept: what its games are dealt from, its seats, and its current game's seed and moves."""
    id: int
    rules: str
    players: int
    options: dict
    agents: Optional[str]
    hint: str
    base_seed: Optional[int]
    port: Optional[int]
    seats: list            # [(player, token or None, who, name or None)], by player
    game: int              # the number of the current game (0: the first dealt at the table)
    seed: int
    moves: list            # [(player, text)] of the current game, in the order they were made
    updated: float = 0.0


class TableStore:
    """The tables' database. Used from one thread at a time (the web table's engine thread, and the
    command line before the server starts): a lock makes sure of it."""

    def __init__(self, path):
        self.path = Path(path)
        self.lock = threading.Lock()
        self.conn = _open(self.path)

    def close(self) -> None:
        with self.lock:
            self.conn.close()

    def _write(self, statements) -> None:
        """Run ``statements`` [(sql, args)] in one transaction, committed when this returns."""
        with self.lock:
            try:
                with self.conn:
                    for sql, args in statements:
                        self.conn.execute(sql, args)
            except sqlite3.Error as exc:
                raise SaveError(f"{self.path}: the tables' database cannot be written ({exc})") from None

    # ------------------------------------------------------------------ writing
    def new_table(self, rules: str, players: int, options: dict, agents: Optional[str], hint: str,
                  base_seed: Optional[int], port: Optional[int], seats: list, seed: int) -> int:
        now = time.time()
        with self.lock:
            try:
                with self.conn:
                    cur = self.conn.execute(
                        "INSERT INTO tables (rules, players, options, agents, hint, base_seed, port, created, "
                        "updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (rules, players, json.dumps(options), agents, hint, base_seed, port, now, now))
                    tid = cur.lastrowid
                    self.conn.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
                                          [(tid, *seat) for seat in seats])
                    self.conn.execute("INSERT INTO games VALUES (?, 0, ?)", (tid, seed))
            except sqlite3.Error as exc:
                raise SaveError(f"{self.path}: the tables' database cannot be written ({exc})") from None
        return tid

    def moves_changed(self, tid: int, game: int, kept: int, added: list) -> None:
        """The current game's moves from the ``kept``-th on are now ``added`` [(player, text)]."""
        self._write([("DELETE FROM moves WHERE table_id = ? AND game = ? AND n >= ?", (tid, game, kept))]
                    + [("INSERT INTO moves VALUES (?, ?, ?, ?, ?)", (tid, game, kept + i, p, text))
                       for i, (p, text) in enumerate(added)]
                    + [("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), tid))])

    def new_game(self, tid: int, game: int, seed: int) -> None:
        self._write([("INSERT INTO games VALUES (?, ?, ?)", (tid, game, seed)),
                     ("UPDATE tables SET updated = ? WHERE id = ?", (time.time(), tid))])

    def name_seat(self, tid: int, player: int, name: str) -> None:
        self._write([("UPDATE seats SET name = ? WHERE table_id = ? AND player = ?", (name, tid, player))])

    def set_port(self, tid: int, port: int) -> None:
        self._write([("UPDATE tables SET port = ? WHERE id = ?", (port, tid))])

    # ------------------------------------------------------------------ reading
    def ids(self) -> list:
        with self.lock:
            return [row[0] for row in self.conn.execute("SELECT id FROM tables ORDER BY id")]

    def record(self, tid) -> Record:
        """Table ``tid`` as kept, every field checked (a refusal names the table and the field)."""
        with self.lock:
            try:
                row = self.conn.execute("SELECT id, rules, players, options, agents, hint, base_seed, port, "
                                        "updated FROM tables WHERE id = ?", (tid,)).fetchone()
                if row is None:
                    known = ", ".join(str(r[0]) for r in self.conn.execute("SELECT id FROM tables ORDER BY id"))
                    raise SaveError(f"{self.path}: no table {tid} (tables: {known or 'none yet'}; "
                                    "rulewright web --list)")
                seats = self.conn.execute("SELECT player, token, who, name FROM seats WHERE table_id = ? "
                                          "ORDER BY player", (tid,)).fetchall()
                game = self.conn.execute("SELECT game, seed FROM games WHERE table_id = ? ORDER BY game DESC "
                                         "LIMIT 1", (tid,)).fetchone()
                moves = [] if game is None else self.conn.execute(
                    "SELECT n, player, move FROM moves WHERE table_id = ? AND game = ? ORDER BY n",
                    (tid, game[0])).fetchall()
            except sqlite3.Error as exc:
                raise SaveError(f"{self.path}: the tables' database cannot be read ({exc})") from None
        return _checked(self.path, row, seats, game, moves)


def _open(path: Path) -> sqlite3.Connection:
    """The database at ``path``, made when absent (its folder too: only its owner may enter it, and read
    the file); refused clearly when it is not one of ours, is damaged, or is of another schema."""
    fresh = not path.exists()
    if fresh:
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except FileExistsError:
            fresh = False
        except OSError as exc:
            raise SaveError(f"{path}: cannot make the tables' database ({exc.strerror or exc})") from None
    elif not path.is_file():
        raise SaveError(f"{path}: not a file (the tables' database is a SQLite file)")
    try:
        conn = sqlite3.connect(path, timeout=10, check_same_thread=False)
    except sqlite3.Error as exc:
        raise SaveError(f"{path}: cannot open the tables' database ({exc})") from None
    try:
        kinds = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not kinds:
            with conn:
                conn.executescript(LAYOUT)
                conn.execute("INSERT INTO schema VALUES (?)", (SCHEMA,))
            return conn
        if "schema" not in kinds or not {"tables", "seats"} <= kinds:
            raise SaveError(f"{path}: not a rulewright tables database (it holds the tables "
                            f"{', '.join(sorted(kinds)[:5])}): give another file with --db")
        versions = [row[0] for row in conn.execute("SELECT version FROM schema")]
        if versions != [SCHEMA]:
            shown = versions[0] if len(versions) == 1 else versions
            age = "an older" if len(versions) == 1 and isinstance(shown, int) and shown < SCHEMA else "another"
            raise SaveError(f"{path}: a tables database of {age} rulewright (schema version {shown}; this one "
                            f"reads version {SCHEMA}): nothing was loaded from it; give another file with --db")
        if kinds != KINDS:
            raise SaveError(f"{path}: a damaged tables database (it lacks the tables "
                            f"{', '.join(sorted(KINDS - kinds)) or '-'}): nothing was loaded from it")
        damage = conn.execute("PRAGMA quick_check").fetchone()[0]
        if damage != "ok":
            raise SaveError(f"{path}: a damaged tables database ({str(damage)[:200]}): nothing was loaded from it")
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise SaveError(f"{path}: not a readable tables database ({exc}): nothing was loaded from it") from None
    except SaveError:
        conn.close()
        raise
    return conn


def _checked(path, row, seats, game, moves) -> Record:
    """A Record of the rows read, each field of the type the layout gives it, or a clear refusal."""
    tid = row[0]

    def refuse(what: str):
        raise SaveError(f"{path}: table {tid} is damaged ({what}): it was not loaded")

    def need(ok: bool, what: str):
        if not ok:
            refuse(what)
    _tid, rules, players, options, agents, hint, base_seed, port, updated = row
    need(isinstance(rules, str) and rules != "", "its rules are not named")
    need(type(players) is int and 1 <= players <= 1000, "its player count is not a count")
    try:
        options = json.loads(options) if isinstance(options, str) else None
    except ValueError:
        options = None
    need(isinstance(options, dict) and all(isinstance(k, str) and isinstance(v, (str, int)) and type(v) is not bool
                                           for k, v in options.items()), "its options are not a map of values")
    need(agents is None or isinstance(agents, str), "its agents are not a text")
    need(isinstance(hint, str), "its hint agent is not a text")
    need(base_seed is None or type(base_seed) is int, "its seed is not a number")
    need(port is None or (type(port) is int and 0 <= port <= 65535), "its port is not a port")
    need([s[0] for s in seats] == list(range(1, players + 1)), f"its seats are not players 1 to {players}")
    for player, token, who, name in seats:
        need(token is None or (isinstance(token, str) and 16 <= len(token) <= 200),
             f"seat {player}'s link is not a token")
        need(isinstance(who, str) and (token is None) != (who == "human"), f"seat {player}'s player is unclear")
        need(name is None or (isinstance(name, str) and len(name) <= 200), f"seat {player}'s name is not a text")
    need(game is not None and type(game[0]) is int and type(game[1]) is int, "it has no game dealt")
    need([m[0] for m in moves] == list(range(len(moves))), "its moves are not numbered in order")
    for n, player, text in moves:
        need(type(player) is int and 1 <= player <= players and isinstance(text, str),
             f"move {n + 1} is not a player's move")
    return Record(tid, rules, players, options, agents, hint, base_seed, port, [tuple(s) for s in seats],
                  game[0], game[1], [(p, text) for _n, p, text in moves],
                  updated if isinstance(updated, (int, float)) else 0.0)
