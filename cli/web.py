"""`rulewright web`: a table in the browser (docs/cli.md, "web").

Starlette serves one page of plain HTML and a little JavaScript (web_static/), the same for every seat;
the seat is the token in its address. The page speaks over a WebSocket: the server pushes the seat's
table (table.py: what that player may see) whenever anything changes, and the page sends the seat's
requests, one small JSON object each: {"cmd": "move", "number": 3, "text": "B2"}, {"cmd": "hint"},
{"cmd": "explain", "number": 3, "text": "B2"}. A refused request changes nothing and gets
{"type": "refused", "error": "..."}; no traceback reaches a page.

The game runs in one engine thread (the table is touched by nothing else), so the server stays
responsive while an agent searches; a hint searches in a thread of its own, on a copy of the state."""
from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import socket
import sys
import traceback
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Optional

from rulewright.dsl.errors import OptionError, RulesError
from rulewright.cli.errors import describe
from rulewright.cli.seat import Seat
from rulewright.cli.table import HINT_SECONDS, Refused, Table
from rulewright.cli.watch import RELOAD_SECONDS, Outcome, probe, stamps
from rulewright.cli.watch import load as load_rules_again

STATIC = Path(__file__).parent / "web_static"
MAX_REQUEST = 16384       # bytes of one request from a page (a move's text and number)
WATCH_EVERY = 0.4         # seconds between two looks at the rules' files (--watch)
AGENT_PAUSE = 0.6         # seconds between two agents' moves, so the people can follow them
HINT_GRACE = 5            # seconds a hint may run past HINT_SECONDS (an agent checks its clock between
                          # simulations) before the seat is told it failed
DEFAULT_PORT = 8765
HEADERS = [  # every HTTP reply: the page loads only its own files, and never tells another site its address
    (b"content-security-policy", b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                 b"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"cache-control", b"no-store"),
]


def say(text: str) -> None:
    """A line on the server's terminal: the referee's (it may name what the seats may not see)."""
    print(text, file=sys.stderr, flush=True)


class WebTable:
    """The table on the web: its engine thread, the pages connected to each seat, the agents' turns, and
    the watch on the rules' files."""

    def __init__(self, table: Table, watch: bool = False, agent_pause: float = AGENT_PAUSE,
                 reload_seconds: float = RELOAD_SECONDS):
        self.table = table
        self.watch = watch
        self.reload_seconds = reload_seconds
        self.agent_pause = agent_pause
        self.engine = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rulewright-table")
        # hints search beside the game, on copies of its state: one at a time per seat (self.hinting), so a
        # seat asking from many pages holds up nobody's move
        self.hints = ThreadPoolExecutor(max_workers=len(table.places), thread_name_prefix="rulewright-hint")
        self.hinting: set = set()  # the seats whose hint is being searched
        self.pages: dict = defaultdict(set)  # player -> the WebSockets of the pages open at that seat
        self.agents_busy = False
        self.telling = asyncio.Lock()
        self.app = self._app()

    async def run(self, fn, *args):
        """``fn(*args)`` in the engine thread, the only one that touches the game."""
        return await asyncio.get_running_loop().run_in_executor(self.engine, functools.partial(fn, *args))

    # ------------------------------------------------------------------ pushing the table to the pages
    def here(self) -> frozenset:
        return frozenset(p for p, sockets in self.pages.items() if sockets)

    async def tell_everyone(self) -> bool:
        """Push each seat its table if what it sees changed (table.frame); True if any page was told."""
        async with self.telling:  # one at a time: a page gets the tables in the order they were made
            told = await self._tell_everyone()
        self.tell_referee()
        return told

    async def _tell_everyone(self) -> bool:
        here, told = self.here(), False
        for player, sockets in list(self.pages.items()):
            if not sockets:
                continue
            frame, changed = await self.run(self.table.frame, self.table.places[player - 1], here)
            if not changed:  # nothing this seat sees changed: no push, no new version (a window's answers)
                continue
            told = True
            shown = json.dumps(frame, ensure_ascii=False)
            for ws in list(sockets):
                try:
                    await ws.send_text(shown)
                except Exception:  # the page went away meanwhile: its own loop forgets it
                    sockets.discard(ws)
        return told

    def tell_referee(self) -> None:
        """How the rules (or the tables' database) failed, if they did since the last time: on the server's
        terminal; each message says which it was (a rules error names its file, a database error its path)."""
        if self.table.failure:
            say(f"the seats were told only that this failed:\n{self.table.failure}")
            self.table.failure = None

    async def agents_play(self) -> None:
        """Let the agents move while one of their seats is to move (one such loop at a time)."""
        if self.agents_busy:
            return
        self.agents_busy = True
        try:
            while await self.run(self.table.agent_move):
                # a pause only after a move someone saw: an answer in a window that changes no page takes no
                # time a page could measure (who else the window asks stays unknown)
                if await self.tell_everyone() and self.agent_pause:
                    await asyncio.sleep(self.agent_pause)
            if self.table.stuck:
                await self.tell_everyone()
        finally:
            self.agents_busy = False

    async def watch_rules(self) -> None:
        """--watch: when a rules file changes, read it again and play the moves so far on it (watch.py:
        first in a process of its own, under the limits and for reload_seconds at most, so an edit whose
        loading never ends holds up nothing; a later edit is read in its place)."""
        files = await self.run(self.table.source_files)
        seen = stamps(files)
        while True:
            await asyncio.sleep(WATCH_EVERY)
            if stamps(files) == seen:
                continue
            seen = stamps(files)
            try:
                note = await self.reload(files)
            except Exception:  # a bug of rulewright's own: said on the terminal, and the watch goes on
                say(f"while reading the rules again:\n{traceback.format_exc()}")
                continue
            if note is None:  # edited again meanwhile, or the table moved on: read again
                seen = None
                continue
            say(note)
            now = await self.run(self.table.source_files)
            if now != files:  # a base file came or went
                files, seen = now, stamps(now)
            await self.tell_everyone()
            asyncio.get_running_loop().create_task(self.agents_play())

    async def reload(self, files) -> Optional[str]:
        """The rules read again off the serving thread; the referee's note, or None: read them again."""
        job = await self.run(self.table.reload_job)
        before = stamps(files)
        outcome = await asyncio.to_thread(probe, job, self.reload_seconds, lambda: stamps(files) != before)
        if outcome.kind == "again":
            return None
        prepared = None
        if outcome.kind == "ok":  # they load, within the time: loaded here too, beside the game
            try:
                prepared = await asyncio.to_thread(load_rules_again, job, outcome.digest)
            except RulesError as exc:
                outcome = Outcome("failed", describe(exc))
            else:
                if prepared is None:  # not the text the probe loaded: edited again
                    return None
                prepared = prepared[:2]
        return await self.run(self.table.reloaded, job, outcome, prepared)

    # ------------------------------------------------------------------ a seat's requests
    async def answer(self, place, raw) -> Optional[dict]:
        """The reply to one request of a page (None: the table changed, every page is told)."""
        if not isinstance(raw, str) or len(raw.encode("utf-8", "surrogatepass")) > MAX_REQUEST:
            return _refused(f"a request is a JSON object of at most {MAX_REQUEST} bytes, sent as text")
        try:
            request = json.loads(raw)
        except (ValueError, RecursionError):
            return _refused("a request is a JSON object such as {\"cmd\": \"hint\"}")
        if not isinstance(request, dict):
            return _refused("a request is a JSON object such as {\"cmd\": \"hint\"}")
        cmd = request.get("cmd")
        try:
            if cmd == "move":
                await self.run(self.table.play, place, request.get("number"), request.get("text"))
                await self.tell_everyone()
                asyncio.get_running_loop().create_task(self.agents_play())
                return None
            if cmd in ("name", "rematch"):
                if cmd == "name":
                    await self.run(self.table.name, place, request.get("name"))
                else:
                    await self.run(self.table.rematch, place)
                await self.tell_everyone()
                if cmd == "rematch":
                    asyncio.get_running_loop().create_task(self.agents_play())
                return None
            if cmd == "hint":
                return await self.hint(place)
            if cmd == "explain":
                return await self.run(self.table.explain, place, request.get("number"), request.get("text"))
            if cmd == "table":
                return (await self.run(self.table.frame, place, self.here()))[0]
            if cmd == "history":
                return await self.run(self.table.history, place, request.get("at"))
            return _refused(f"unknown request {str(cmd)[:40]!r} (requests: move, hint, explain, name, rematch, "
                            "table, history)")
        except Refused as exc:
            return _refused(str(exc))
        except Exception as exc:  # a bug of rulewright's own: the referee sees it, the seat a summary
            say(f"while answering player {place.player}:\n{traceback.format_exc()}")
            return _refused(Seat.internal_error(exc))

    async def hint(self, place) -> dict:
        """A hint for the seat, searched off the engine thread (table.hint_search), HINT_SECONDS at most."""
        if place.player in self.hinting:
            return _refused("a hint for you is being searched already: it comes in a moment")
        self.hinting.add(place.player)
        try:
            search = await self.run(self.table.hint_search, place)  # the copy, taken on the engine thread
            future = asyncio.get_running_loop().run_in_executor(self.hints, search)
        except BaseException:
            self.hinting.discard(place.player)
            raise
        future.add_done_callback(lambda _done: self.hinting.discard(place.player))  # not before it ends
        try:
            number, text = await asyncio.wait_for(asyncio.shield(future), HINT_SECONDS + HINT_GRACE)
        except asyncio.TimeoutError:
            return _refused(f"no hint: the search took more than {HINT_SECONDS} seconds")
        return await self.run(self.table.hint_told, place, number, text)

    async def seat_socket(self, websocket) -> None:
        place = self.table.place_of(websocket.path_params["token"])
        if place is None:
            await websocket.close(code=1008)  # before accepting: the handshake is refused (403)
            return
        from starlette.websockets import WebSocketDisconnect
        await websocket.accept()
        self.pages[place.player].add(websocket)
        try:
            async with self.telling:  # this page its table, changed or not (in order with the pushes)
                frame, _ = await self.run(self.table.frame, place, self.here())
                await websocket.send_text(json.dumps(frame, ensure_ascii=False))
            await self.tell_everyone()  # the others, that this seat is here
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                reply = await self.answer(place, message.get("text"))
                if websocket not in self.pages[place.player]:  # a push failed meanwhile: the page is gone
                    break
                if reply is not None:
                    await websocket.send_text(json.dumps(reply, ensure_ascii=False))
        except WebSocketDisconnect:
            pass
        finally:
            self.pages[place.player].discard(websocket)
            with contextlib.suppress(Exception):
                await self.tell_everyone()

    # ------------------------------------------------------------------ the HTTP side
    def _app(self):
        from starlette.applications import Starlette
        from starlette.responses import FileResponse, HTMLResponse
        from starlette.routing import Mount, Route, WebSocketRoute
        from starlette.staticfiles import StaticFiles

        async def home(_request):
            return HTMLResponse(_PLAIN.format(title="rulewright table",
                                              text="A rulewright table. Open the link of your seat, which the "
                                                   "server printed when it started."))

        async def seat_page(request):
            if self.table.place_of(request.path_params["token"]) is None:
                return HTMLResponse(_PLAIN.format(title="no such seat",
                                                  text="No seat has this link: check it with the server's host."),
                                    status_code=404)
            return FileResponse(STATIC / "table.html", media_type="text/html; charset=utf-8")

        async def favicon(_request):  # browsers ask for it whatever the page links
            return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

        @contextlib.asynccontextmanager
        async def lifespan(_app):
            tasks = [asyncio.get_running_loop().create_task(self.agents_play())]
            if self.watch:
                tasks.append(asyncio.get_running_loop().create_task(self.watch_rules()))
            try:
                yield
            finally:
                for task in tasks:
                    task.cancel()
                self.engine.shutdown(wait=False, cancel_futures=True)
                self.hints.shutdown(wait=False, cancel_futures=True)

        app = Starlette(routes=[
            Route("/", home),
            Route("/favicon.ico", favicon),
            Route("/seat/{token}", seat_page),
            WebSocketRoute("/seat/{token}/ws", self.seat_socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ], lifespan=lifespan)
        return _with_headers(app)


_PLAIN = ("<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{title}</title></head>"
          "<body><p>{text}</p></body></html>")


def _refused(error: str) -> dict:
    return {"type": "refused", "error": error}


def _with_headers(app):
    """``app`` with HEADERS added to every HTTP reply."""
    async def wrapped(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": list(message.get("headers", [])) + HEADERS}
            await send(message)
        await app(scope, receive, send_with_headers)
    return wrapped


# --------------------------------------------------------------------- starting it
def listening_socket(host: str, port: int) -> socket.socket:
    """A socket listening on host:port (port 0: a free one); a clear error when it cannot."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(64)
    except OSError as exc:
        raise OptionError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return sock


def uvicorn_server(web: WebTable):
    import uvicorn
    config = uvicorn.Config(web.app, log_level="warning", access_log=False, ws_max_size=MAX_REQUEST,
                            lifespan="on")
    return uvicorn.Server(config)


def table_port(store, tid) -> int:
    record = store.record(tid)
    return DEFAULT_PORT if not record.port else record.port


def address(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def open_store(db: Optional[str]):
    from rulewright.cli.tablestore import TableStore, default_path
    return TableStore(db or default_path())


def list_tables(db: Optional[str]) -> None:
    """`web --list`: every table kept, newest last: its game, seats, moves and whether it is over (no
    link: they are the seats' secrets, printed when the table is served)."""
    store = open_store(db)
    ids = store.ids()
    print(f"{len(ids)} table{'' if len(ids) == 1 else 's'} in {store.path}" + (":" if ids else ""))
    for tid in ids:
        try:
            table = Table.resume(store, tid)
        except RulesError as exc:
            print(f"  {tid}: cannot be resumed: {str(exc).split(chr(10))[0]}")
            continue
        st, g = table.session.state, table.session.game
        seats = ", ".join(table.names.get(q.player) or (f"player {q.player}" if q.agent is None else q.who)
                          for q in table.places)
        made = len(table.kept)
        print(f"  {tid}: {g.name}, {g.player_count} players ({seats}): game {table.game_number + 1}, {made} "
              f"move{'' if made == 1 else 's'}, {'over' if st.is_over() else 'in play'}; "
              f"rulewright web --resume {tid}")
    store.close()


def run_web(game: Optional[str], players: Optional[int], options: dict, seed: Optional[int],
            agents: Optional[str], hint: str, host: str, port: Optional[int], watch: bool,
            db: Optional[str] = None, resume: Optional[int] = None) -> None:
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        raise OptionError("the web table needs starlette and uvicorn: pip install 'rulewright[web]'") from None
    if resume is not None:
        store = open_store(db)
        table = Table.resume(store, resume)
        port = table_port(store, resume) if port is None else port
    else:
        table = Table(game, players, options, seed, agents, hint)  # its errors before a file is made
        store = open_store(db)
        table.keep_in(store, port)
        port = DEFAULT_PORT if port is None else port
    sock = listening_socket(host, port)
    store.set_port(table.id, sock.getsockname()[1])  # --resume listens there again: the pages come back
    base = address(host, sock.getsockname()[1])
    g = table.session.game
    made = len(table.kept)
    print(f"{g.name}, {g.player_count} players: table {table.id} at {base} (Ctrl-C ends it; "
          f"rulewright web --resume {table.id} serves it again)")
    if resume is not None:
        print(f"  resumed: game {table.game_number + 1} at this table, {made} move{'' if made == 1 else 's'} "
              f"played again")
    for place in table.places:
        if place.token is None:
            print(f"  player {place.player}: the agent {place.who}")
        else:
            print(f"  player {place.player}: {base}/seat/{place.token}")
    print("Each link is its seat's alone: give it to that player only (it lets whoever holds it play the seat).")
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"Listening on {host}: other machines may connect; the links travel unencrypted (plain HTTP).")
    if watch:
        print("Watching " + ", ".join(table.source_files()) + ": an edit is played again at the table.")
    sys.stdout.flush()
    uvicorn_server(WebTable(table, watch)).run(sockets=[sock])
