"""serve: one process plays whole games for a program, over stdin and stdout (docs/cli.md, "serve").

Each request is one JSON object on one line, ``{"cmd": "apply", "move": "A1"}``; each reply is one JSON
object on one line, ``{"ok": true, ...}`` or ``{"ok": false, "error": "..."}``, with the request's "id"
copied back when it has one. Every request line gets exactly one reply: a bad one (not UTF-8, not
JSON, too long, a lone surrogate, a wrong type) an error reply, never a traceback, and a refused request
changes nothing. ``--text`` speaks the same commands as plain lines, GTP style: ``apply A1`` answers
``= ...`` or ``? why``, then an empty line. ``--as P`` seats the client as player P (seat.py says what
a seat may ask and be told)."""
from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Callable, Iterator, Optional

from rulewright.dsl.errors import OptionError, RulesError, suggest
from rulewright.dsl.texts import holds_lone_surrogate, json_lone_surrogate, shown
from rulewright.cli.errors import MAX_JSON_BYTES, describe
from rulewright.cli.output import json_text, printable
from rulewright.cli.seat import Seat, SeatRefusal
from rulewright.interpreter.api import given_options

MAX_LINE = MAX_JSON_BYTES  # the longest request: a 'load' with its save in the line

COMMANDS = {
    "help": "the commands, with what each takes",
    "new": "start a game: game (a shipped name or a .rules file; default: serve's GAME), players, "
           "options (an object), seed",
    "legal": "the players to move and the legal moves, numbered from 1: player (only that player's)",
    "apply": "make a move: move (its text, or its number in 'legal'), player (in a simultaneous decision), "
             "legal (true: the legal moves after it in the reply)",
    "explain": "which rule offers a move (file:line), what its decider is asked and what the cards it plays "
               "say: move (its text, or its number in 'legal'), player (as whom: default the session's)",
    "events": "the events since the last reply that carried events",
    "undo": "take back the last move",
    "view": "what a player may see, as data: player (default: everything, the referee's view)",
    "render": "the same as text: player",
    "outcome": "whether the game is over and, if it is, its outcome",
    "save": "the game as a save: file (written there; without it the save is in the reply)",
    "load": "resume a save: file or save (the save itself), force (true: load a save that diverges on "
            "edited rules where it diverges)",
    "quit": "end the session",
}


class Request(Exception):
    """A request the server refuses: the reply's error message."""


class Server:
    """The game a session plays and the commands that act on it."""

    def __init__(self, game: Optional[str], players: Optional[int], options: dict, seed: Optional[int],
                 as_player: Optional[int] = None):
        self.default = {"game": game, "players": players, "options": options, "seed": seed}
        self.viewer = as_player   # --as P: the events, views and moves P may see, nobody else's
        self.seat = None if as_player is None else Seat(as_player, dict(self.default))
        self.session = None
        self.done = False

    # ----------------------------------------------------------------- the protocol
    def handle(self, request) -> dict:
        """The reply to one request (a dict already read from JSON)."""
        has_id = isinstance(request, dict) and "id" in request  # copied back whatever it is, null too
        try:
            if not isinstance(request, dict):
                raise Request('a request is a JSON object such as {"cmd": "legal"}')
            cmd = request.get("cmd")
            if not isinstance(cmd, str):
                raise Request('the request names no command: add "cmd", for instance {"cmd": "help"}')
            method: Optional[Callable] = getattr(self, "cmd_" + cmd, None) if cmd in COMMANDS else None
            if method is None:
                hint = suggest(cmd, COMMANDS)
                raise Request(f"unknown command '{cmd}'" + (f"; {hint}" if hint else "")
                              + f" (commands: {', '.join(COMMANDS)})")
            if self.seat is not None:
                self.seat.check(cmd, request)
            reply = {"ok": True, "cmd": cmd, **method(request)}
        except (Request, SeatRefusal) as exc:
            reply = {"ok": False, "cmd": request.get("cmd") if isinstance(request, dict) else None,
                     "error": str(exc)}
        except (RulesError, OSError, UnicodeDecodeError) as exc:
            text = describe(exc).removeprefix("error: ")
            reply = {"ok": False, "cmd": request.get("cmd"),
                     "error": text if self.seat is None else self.seat.rules_error(exc, text)}
        except RecursionError:
            reply = {"ok": False, "cmd": request.get("cmd"), "error": "the request is nested too deep"}
        except Exception as exc:  # a bug of rulewright's own: the session goes on, and says what broke
            reply = {"ok": False, "cmd": request.get("cmd") if isinstance(request, dict) else None,
                     "error": f"internal error ({type(exc).__name__}: {exc}); please report it"
                     if self.seat is None else self.seat.internal_error(exc)}
        if has_id:
            reply["id"] = request["id"]
        return reply

    def cmd_help(self, _req) -> dict:
        return {"commands": dict(COMMANDS)}

    def cmd_new(self, req) -> dict:
        from rulewright.cli.session import open_session
        game = _arg(req, "game", str, self.default["game"])
        if game is None:
            raise Request('no game: give one, {"cmd": "new", "game": "NAME"}, or start serve with a GAME')
        players = _arg(req, "players", int, self.default["players"] if "game" not in req else None)
        options = _arg(req, "options", dict, self.default["options"] if "game" not in req else {})
        if not all(isinstance(v, (str, int)) for v in options.values()):
            raise Request("'options' maps each option's name to its value, a text or a number")
        seed = _arg(req, "seed", int, self.default["seed"] if "game" not in req else None)
        if self.seat is not None:  # the table's game, whatever the request repeated of it (seat.check)
            game, players, options = self.default["game"], self.default["players"], self.default["options"]
            seed = self.seat.next_seed()
        elif Path(game).exists() and not game.endswith(".rules"):  # never read (nor quote) another file
            raise Request(f"'{game}' is not a .rules file")
        self.session = open_session(game, players, {k: str(v) for k, v in options.items()}, seed)
        return self._started(None)

    def cmd_load(self, req) -> dict:
        from rulewright.cli.session import open_session, resume
        from rulewright.interpreter.api import fresh_seed
        force = _arg(req, "force", bool, False)
        path, data = _arg(req, "file", str, None), _arg(req, "save", dict, None)
        if (path is None) == (data is None):
            raise Request("give the save as 'file' (a path) or as 'save' (the object), one of them")
        if data is not None:  # rules the save names are looked for from the working folder
            self.session = resume(self.default["game"], None, {}, fresh_seed(), data, "./(the save sent)",
                                  force=force)
        else:
            self.session = open_session(None, None, {}, None, path, force=force)
        return self._started(self.session.note)

    def _started(self, note: Optional[str]) -> dict:
        s = self.session
        if self.viewer is not None and not 1 <= self.viewer <= s.game.player_count:
            count, self.session = s.game.player_count, None
            raise Request(f"this session plays as player {self.viewer}, and a {count}-player game has none")
        state = s.state
        reply = {"game": s.game.name, "rules": s.ref, "players": s.game.player_count,
                 "options": dict(s.game.options), "seed": state.seed}
        if note:
            reply["note"] = note
        if self.seat is not None:
            reply = self.seat.started(reply)
        return {**reply, **self._status(events=True)}

    def _state(self):
        if self.session is None:
            raise Request('no game yet: start one with {"cmd": "new"} or {"cmd": "load", "file": "..."}')
        return self.session.state

    def _player(self, req, name: str = "player") -> Optional[int]:
        player = _arg(req, name, int, self.viewer)
        count = self.session.game.player_count
        if player is not None and not 1 <= player <= count:
            raise Request(f"no player {player} in a {count}-player game")
        if self.seat is not None:
            self.seat.asks_for(player)
        return player

    def _status(self, events: bool = False, legal: bool = False) -> dict:
        state = self.session.state
        reply = {}
        if events:
            reply["events"] = state.drain_events(self.viewer)
        reply.update({"to_move": self._to_move(), "over": state.is_over()})
        if legal:
            reply["moves"] = self._moves(self.viewer)
        return reply

    def _to_move(self) -> list:
        """Who is to move, as the session may know it: a seat in a reaction window is told only whether it
        is asked itself (views.seen_to_move), never who else is."""
        from rulewright.interpreter.present.views import seen_to_move
        return seen_to_move(self.session.state, self.viewer)

    def _moves(self, player: Optional[int]) -> list[dict]:
        state = self.session.state
        if self.viewer is not None and self.viewer not in state.to_move():
            return []
        # numbered as apply takes a number: from 1, in the one list of this session (everyone's, or the
        # --as player's), whichever player's moves are asked for
        from rulewright.interpreter.present.explain import move_notes
        moves = state.legal_moves(self.viewer)
        says = move_notes(state, self.viewer)  # the rules text of what each move plays ('' for none)
        return [{"number": i, "player": m.player, "text": m.text, **({"says": note} if note else {})}
                for i, (m, note) in enumerate(zip(moves, says), 1) if player is None or m.player == player]

    def cmd_legal(self, req) -> dict:
        self._state()
        return {"to_move": self._to_move(), "moves": self._moves(self._player(req))}

    def cmd_apply(self, req) -> dict:
        state = self._state()
        move = req.get("move")
        if isinstance(move, bool) or not isinstance(move, (str, int)):
            raise Request("'move' is the move's text or its number in the legal moves")
        player = _arg(req, "player", int, self.viewer)
        if self.seat is not None:
            self.seat.asks_for(player)
        if isinstance(move, int):  # a number of 'legal': the same list, whoever's moves were asked for
            listed = state.legal_moves(self.viewer)
            if not 1 <= move <= len(listed):
                raise Request(f"no move {move}: " + (f"the legal moves are numbered 1 to {len(listed)}"
                                                     if listed else "no move is legal now"))
            if player is not None and listed[move - 1].player != player:
                raise Request(f"move {move} is player {listed[move - 1].player}'s, not player {player}'s")
            move = listed[move - 1]
        state.apply(move, player=player)  # refused, or the rules fail: raises, and nothing changed
        return self._status(events=True, legal=_arg(req, "legal", bool, False))

    def cmd_explain(self, req) -> dict:
        state = self._state()
        move = req.get("move")
        if isinstance(move, bool) or not isinstance(move, (str, int)):
            raise Request("'move' is the move's text or its number in the legal moves")
        player = self._player(req)  # a seat explains as its own player only (seat.py)
        if isinstance(move, int):  # a number of 'legal': the same list as apply's
            listed = state.legal_moves(self.viewer)
            if not 1 <= move <= len(listed):
                raise Request(f"no move {move}: " + (f"the legal moves are numbered 1 to {len(listed)}"
                                                     if listed else "no move is legal now"))
            move = listed[move - 1]
        # a text is looked up among the moves of 'player' (everyone's for the referee); another player's
        # move is told as 'player' may see it (a secret one, only its shown text)
        told = state.explain(move, player).to_dict()
        return {"explanation": told if self.seat is None else self.seat.explained(told)}

    def cmd_events(self, _req) -> dict:
        self._state()
        return self._status(events=True)

    def cmd_undo(self, _req) -> dict:
        state = self._state()
        state.undo()
        # the events left were all told before the move was made: none is told again
        state.drained = state.history_len
        return {**self._status(), "moves_made": state.moves_made}

    def cmd_view(self, req) -> dict:
        return {"view": self._state().view(self._player(req))}

    def cmd_render(self, req) -> dict:
        from rulewright.cli.screen import screen_text
        return {"text": screen_text(self._state(), self._player(req))}

    def cmd_outcome(self, _req) -> dict:
        state = self._state()
        return {"over": state.is_over(), "outcome": state.outcome().to_dict() if state.is_over() else None}

    def cmd_save(self, req) -> dict:
        state = self._state()  # a seat never gets here (seat.py): a save holds every secret
        path = _arg(req, "file", str, None)
        data = state.to_json()
        if path is None:
            return {"save": data}
        from rulewright.cli.errors import write_json
        write_json(path, data)
        return {"file": path}

    def cmd_quit(self, _req) -> dict:
        self.done = True
        return {}


def _arg(req: dict, name: str, kind: type, default):
    """The request's ``name``, of type ``kind`` (a bool is no number), or ``default`` when absent."""
    if name not in req or req[name] is None:
        return default
    value = req[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        what = {int: "a whole number", str: "a text", dict: "an object", bool: "true or false"}[kind]
        raise Request(f"'{name}' must be {what}")
    return value


# --------------------------------------------------------------------- the two ways of speaking
def request_lines(stdin, limit: int = MAX_LINE) -> Iterator[Optional[bytes]]:
    """Each line of ``stdin`` (bytes), or None for one longer than ``limit`` bytes: read through to
    its end, never held whole."""
    while line := stdin.readline(limit + 1):
        if len(line) > limit and not line.endswith(b"\n"):
            while (rest := stdin.readline(limit)) and not rest.endswith(b"\n"):
                pass
            yield None
        else:
            yield line


def _refused(error: str) -> dict:
    return {"ok": False, "cmd": None, "error": error}


def _decoded(raw: Optional[bytes], limit: int) -> str:
    """A request line as text; raises Request when it is too long or not UTF-8."""
    if raw is None:
        raise Request(f"the request is longer than {limit:,} bytes")
    try:
        return raw.decode("utf-8").strip(" \t\r\n")  # JSON's white space: any other character is a request
    except UnicodeDecodeError as exc:
        raise Request(f"not UTF-8: byte {exc.start + 1} of the line") from None


class _NoJsonNumber(ValueError):
    """NaN, Infinity or -Infinity: Python's reader takes them, JSON has no such number."""


def _no_constant(name: str):
    raise _NoJsonNumber(name)


def json_reply(server: Server, raw: Optional[bytes], limit: int = MAX_LINE) -> Optional[dict]:
    """The one reply to one request line (None for a blank line, which is no request)."""
    try:
        line = _decoded(raw, limit)
    except Request as exc:
        return _refused(str(exc))
    if not line:
        return None
    try:
        request = json.loads(line, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        return _refused(f"not JSON: {exc.msg} at column {exc.colno}")
    except _NoJsonNumber as exc:
        return _refused(f"not JSON: {exc} is no JSON number")
    except (RecursionError, ValueError):
        return _refused("not JSON that can be read (nested too deep or a number far too long)")
    bad = json_lone_surrogate(line, request)
    if bad is not None:  # the only texts no reply could write back: refused here, once
        reply = _refused(f"a text of the request holds half of a character, a lone surrogate ({shown(bad)}): "
                         "escape a character above U+FFFF as a pair, \\ud83d\\ude00")
        if isinstance(request, dict) and "id" in request and holds_lone_surrogate(request["id"]) is None:
            reply["id"] = request["id"]
        return reply
    return server.handle(request)


def serve_json(server: Server, stdin, stdout, limit: int = MAX_LINE) -> None:
    """JSON lines: ``stdin`` and ``stdout`` are binary streams (a line that is not UTF-8 is refused, not
    fatal)."""
    for raw in request_lines(stdin, limit):
        reply = json_reply(server, raw, limit)
        if reply is None:
            continue
        stdout.write((json_text(reply) + "\n").encode("utf-8"))
        stdout.flush()
        if server.done:
            return


def text_reply(server: Server, raw: Optional[bytes], limit: int = MAX_LINE) -> Optional[str]:
    """The one reply to one text-mode line, its empty line after it not included (None: no request)."""
    try:
        line = _decoded(raw, limit)
        if not line or line.startswith("#"):
            return None
        reply = server.handle(_text_request(line))
    except Request as exc:
        reply = {"ok": False, "error": str(exc)}
    return _text_reply(reply)


def serve_text(server: Server, stdin, stdout, limit: int = MAX_LINE) -> None:
    """GTP style: 'command args' in; '= answer' or '? error', then an empty line, out (binary streams)."""
    for raw in request_lines(stdin, limit):
        reply = text_reply(server, raw, limit)
        if reply is None:
            continue
        stdout.write((reply + "\n\n").encode("utf-8"))
        stdout.flush()
        if server.done:
            return


def _text_request(line: str) -> dict:
    """'apply pick 2' -> {"cmd": "apply", "move": "pick 2"}; 'new my-game players=3 seed=7 skill=1'."""
    cmd, _, rest = line.partition(" ")
    rest = rest.strip()
    if cmd in ("apply", "explain"):
        player, sep, move = rest.partition(":")
        if sep and player.strip().isdigit():
            return {"cmd": cmd, "move": move.strip(), "player": int(player)}
        return {"cmd": cmd, "move": rest}
    if cmd in ("legal", "view", "render") and rest:
        if not rest.isdigit():
            raise Request(f"'{cmd}' takes a player number")
        return {"cmd": cmd, "player": int(rest)}
    if cmd in ("save", "load") and rest:
        words = rest.split()
        return {"cmd": cmd, "file": words[0], **({"force": True} if words[1:] == ["force"] else {})}
    if cmd == "new":
        try:
            words = shlex.split(rest)
        except ValueError as exc:
            raise Request(f"cannot read the arguments: {exc}") from None
        request: dict = {"cmd": cmd}
        for word in words:
            if "=" not in word:
                request["game"] = word
        try:
            options = given_options(w for w in words if "=" in w)
        except OptionError as exc:
            raise Request(str(exc)) from None
        for name in ("players", "seed"):
            if name in options:
                value = options.pop(name)
                if not value.isdigit():
                    raise Request(f"'{name}' takes a whole number")
                request[name] = int(value)
        if options:
            request["options"] = options
        return request
    return {"cmd": cmd}


def _text_reply(reply: dict) -> str:
    if not reply["ok"]:
        return _one_block("? " + reply["error"])
    lines = []
    if "text" in reply:
        lines.append(reply["text"])
    for event in reply.get("events", []):
        from rulewright.cli.play import describe_event
        lines.append(describe_event(event))
    if "commands" in reply:
        lines += [f"{name}: {what}" for name, what in reply["commands"].items()]
    if "moves" in reply:
        if reply["cmd"] == "legal":
            lines.append(_to_move_line(reply["to_move"]))
        lines += [f"{m['number']}. {m['player']}: {m['text']}" for m in reply["moves"]]
    if "game" in reply:  # a seat is not told the seed
        lines.insert(0, f"{reply['game']}, {reply['players']} players"
                        + (f", seed {reply['seed']}" if "seed" in reply else ""))
    if "note" in reply:
        lines.append(f"note: {reply['note']}")
    if "outcome" in reply:
        from rulewright.cli.play import describe_outcome
        from rulewright.interpreter.api import Outcome
        o = reply["outcome"]
        lines.append("not over" if o is None else describe_outcome(
            Outcome({int(k): v for k, v in o["scores"].items()}, o["ranking"], o["winners"], o["teams"])))
    elif "over" in reply:
        lines.append("game over" if reply["over"] else _to_move_line(reply["to_move"]))
    if "view" in reply:
        lines.append(json_text(reply["view"]))
    if "explanation" in reply:
        from rulewright.interpreter.present.explain import explanation_lines
        lines += explanation_lines(reply["explanation"])
    if "file" in reply and reply["cmd"] == "save":
        lines.append(f"saved to {reply['file']}")
    if "save" in reply:
        lines.append(json_text(reply["save"]))
    return _one_block("= " + "\n".join(lines))


def _to_move_line(to_move: list) -> str:
    # nobody to move in a game not over: a seat in a reaction window it is not asked in (who is, it may
    # not know)
    return "to move: " + (", ".join(f"player {p}" for p in to_move) or "not you (the game waits)")


def _one_block(text: str) -> str:
    """A reply's text as the client can frame it: control characters escaped, and no empty line inside
    (an empty line ends the reply)."""
    return "\n".join(line for line in printable(text).rstrip().split("\n") if line.strip())


def serve(game: Optional[str], players: Optional[int], options: dict, seed: Optional[int], text: bool,
          as_player: Optional[int]) -> None:
    if as_player is not None and game is None:
        raise OptionError("--as needs a GAME: a seated player plays only the game serve was started with")
    server = Server(game, players, options, seed, as_player)
    if game is not None:  # a first game at once, so a client can ask 'legal' straight away
        first = server.handle({"cmd": "new"})
        if not first["ok"]:
            raise OptionError(first["error"])
    (serve_text if text else serve_json)(server, sys.stdin.buffer, sys.stdout.buffer)
