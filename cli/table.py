"""A table: one game that several seats play together, each seat a person (behind a link holding an
unguessable token) or an agent; what each seat is shown, its moves, a hint, and the rules reloaded when
their file changes (`web --watch`). The web server (web.py) carries it to the browsers.

What a seat may ask and be told is seat.py's rule, applied through serve's protocol: each seat's moves go
through a serve.Server seated as its player, sharing the table's one game. Everything a seat is shown is
worked out from that player's view (views.py, screen.py): never the seed, nor another seat's secrets.

Not thread-safe: the web server calls a table from one thread only (its engine thread); a hint's search
and a reload's loading run beside it on what was taken from the table there (hint_search, reload_job)."""
from __future__ import annotations

import json
import re
import secrets
import unicodedata
from pathlib import Path
from typing import Callable, Optional

import attrs

from rulewright.dsl import ast
from rulewright.dsl.errors import IllegalMoveError, OptionError, RulesError, SaveError
from rulewright.cli.errors import describe
from rulewright.cli.play import describe_event, describe_outcome
from rulewright.cli.serve import Server
from rulewright.interpreter.present.explain import explanation_lines, move_spaces
from rulewright.cli.session import Session, open_session
from rulewright.cli.tablestore import Record, TableStore
from rulewright.interpreter.api import fresh_seed, shipped_games
from rulewright.cli.watch import Job, Outcome
from rulewright.interpreter.play.agents import AGENTS, PARAMETERS, AgentSpecError, agents_for, parse_spec

PERSON = "human"  # in --agents, a seat a person plays
# A hint searches only what its seat may see: these agents deal what the seat cannot see again at
# random (determinize.py) or look at nothing; 'mcts' would search the real hands and deck.
HINT_AGENTS = ("ismcts", "greedy", "random", "first")
DEFAULT_HINT = "ismcts:iterations=300,seconds=3"
HINT_SECONDS = 10  # the longest a hint searches: it runs beside the game, one at a time per seat
NOTES_KEPT = 8
MAX_NAME = 24  # the letters of a seat's name
# letters that draw nothing (Hangul fillers, the blank Braille pattern): a name of them alone would show blank
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


@attrs.define(eq=False)
class Place:
    """One seat at the table."""
    player: int
    server: Server             # serve's protocol seated as this player: seat.py's rule
    token: Optional[str]       # the secret part of the seat's link; None for an agent's seat
    agent: object = None       # plays the seat, or None: a person does
    who: str = PERSON          # what every seat is told of who plays it: 'human' or the agent's spec


def seat_specs(spec: Optional[str], players: int) -> list:
    """Who plays each seat: None (a person) or an agent spec. ``spec`` names one per seat, 'human' for a
    person's, e.g. 'human,mcts:iterations=400'; without it every seat is a person's."""
    if spec is None:
        return [None] * players
    seats: list = []
    for part in spec.split(","):
        head, sep, _ = part.partition(":")
        if "=" in head and not sep and seats:  # a parameter of the agent before (as parse_spec reads it)
            seats[-1] += "," + part.strip()
        else:
            seats.append(part.strip())
    if len(seats) != players:
        raise AgentSpecError(f"--agents names {len(seats)} seat{'' if len(seats) == 1 else 's'} for {players} "
                             f"players: name one for every seat, '{PERSON}' for a person's "
                             f"(e.g. '{PERSON},random'; agents: {', '.join(AGENTS)})")
    out = [None if s == PERSON else s for s in seats]
    for s in out:
        if s is not None:
            parse_spec(s)  # a clear error for an unknown agent or parameter
    if all(s is not None for s in out):
        raise AgentSpecError(f"every seat is an agent's: name '{PERSON}' for the seats people play")
    return out


def check_hint(spec: str) -> str:
    parsed = parse_spec(spec)
    if len(parsed) != 1 or parsed[0][0] not in HINT_AGENTS:
        raise AgentSpecError(f"a hint is one agent that searches only what its seat may see "
                             f"({', '.join(HINT_AGENTS)}), not {spec!r}")
    return spec


def hint_agent(spec: str):
    """A fresh agent of ``spec`` (check_hint's), its own generator, its search cut to HINT_SECONDS (a
    spec's own ``seconds`` above it, or none, gives HINT_SECONDS)."""
    name, params = parse_spec(spec)[0]
    if "seconds" in PARAMETERS[name]:
        params["seconds"] = min(params.get("seconds", HINT_SECONDS), HINT_SECONDS)
    return AGENTS[name](secrets.randbits(63), **params)


class Refused(Exception):
    """A request of a seat the table refuses: nothing changed; the message says why."""


class Table:
    def __init__(self, game: str, players: Optional[int], options: dict, seed: Optional[int],
                 agents: Optional[str] = None, hint: str = DEFAULT_HINT, store: Optional[TableStore] = None,
                 port: Optional[int] = None, resumed: Optional[Record] = None):
        """A new table of ``game`` (kept in ``store`` when given), or the table ``resumed`` from it."""
        self.hint_spec = check_hint(hint)
        self.agents_spec, self.base_seed = agents, seed  # game k at the table is dealt by seed + k, if given
        if resumed is not None:
            seed = resumed.seed
        self.session: Session = open_session(game, players, options, seed)
        count = self.session.game.player_count
        self.places = []
        for player, spec in enumerate(seat_specs(agents, count), 1):
            server = Server(game, players, options, seed, as_player=player)
            server.session = self.session
            # an agent's own generator, never derived from the game's seed: a seat that watched a seeded
            # agent's choices could work out its seed, and from it the game's (and so every hidden card)
            agent = None if spec is None else agents_for(spec, 1, secrets.randbits(63))[0]
            self.places.append(Place(player, server, None if spec else secrets.token_urlsafe(24), agent,
                                     spec or PERSON))
        # each seat's last frame (its content as JSON) and its version: a seat's version counts the changes
        # of what that seat sees, nothing else (a rival's answer in a window changes nobody else's frame)
        self.frames: dict = {}
        self.notes: list[str] = []  # what happened to the table as a whole (the rules reloaded), for every seat
        self.stuck: Optional[str] = None  # the rules failed on an agent's move: the table waits for an edit
        self.failure: Optional[str] = None  # how the rules or the database failed: the referee's terminal only
        self.names: dict = {}  # player -> the name the seat chose (public: every seat sees it)
        self.store, self.id, self.game_number = store, None, 0
        self.kept: list = []  # the current game's moves as the store holds them
        # --watch: the moves an edit's divergence dropped (the whole game as it was), played again when
        # rules that allow them are read (the file put back), until the table makes another move
        self.lost: list = []
        self.tried = 0  # the moves the last reload played again
        if resumed is not None:
            self._resume(resumed)
        elif store is not None:
            self.keep_in(store, port)

    def keep_in(self, store: TableStore, port: Optional[int] = None) -> None:
        """Keep this new table in ``store`` from now on (a table of its own there)."""
        self.store = store
        self.id = store.new_table(self.session.ref, len(self.places), dict(self.session.game.options),
                                  self.agents_spec, self.hint_spec, self.base_seed, port,
                                  [(q.player, q.token, q.who, None) for q in self.places], self.session.seed)
        self.kept = []
        self.keep()

    @classmethod
    def resume(cls, store: TableStore, tid) -> "Table":
        """The table ``tid`` of ``store`` as it was left, its seats' links the same; refused whole (a
        SaveError) when its record is damaged or its moves no longer play on its rules."""
        record = store.record(tid)
        if record.rules not in shipped_games() and not record.rules.endswith(".rules"):
            raise SaveError(f"{store.path}: table {record.id} names rules that are not a .rules file: not loaded")
        try:
            return cls(record.rules, record.players, record.options, record.base_seed, record.agents,
                       record.hint, store, resumed=record)
        except (OptionError, AgentSpecError) as exc:
            raise SaveError(f"{store.path}: table {record.id} cannot be dealt again ({exc}): not loaded") from None

    def _resume(self, record: Record) -> None:
        st, total = self.session.state, len(record.moves)
        for i, (player, text) in enumerate(record.moves, 1):
            try:
                if st.is_over():
                    raise IllegalMoveError("the game is already over")
                st.apply(text, player=player)
            except RulesError as exc:
                first = str(exc).split("\n", 1)[0][:200]
                raise SaveError(f"{self.store.path}: table {record.id}: its moves no longer play on its rules: "
                                f"move {i} of {total} (player {player}: '{text[:60]}') diverges: {first}; "
                                "nothing was loaded") from None
        for place, (_player, token, who, name) in zip(self.places, record.seats):
            if (place.token is None) != (token is None):
                raise SaveError(f"{self.store.path}: table {record.id}: its seats do not match its agents: "
                                "not loaded")
            place.token = token
            if name:
                self.names[place.player] = name
        self.id, self.game_number, self.kept = record.id, record.game, list(record.moves)

    # ------------------------------------------------------------------ the store
    def keep(self) -> None:
        """The store holds the current game's moves as they are now (committed when this returns)."""
        if self.store is None:
            return
        moves = moves_of(self.session.state)
        same = 0
        for mine, kept in zip(moves, self.kept):
            if mine != kept:
                break
            same += 1
        if same == len(moves) == len(self.kept):
            return
        self.store.moves_changed(self.id, self.game_number, same, moves[same:])
        self.kept = moves

    # ------------------------------------------------------------------ seats
    def place_of(self, token: str) -> Optional[Place]:
        """The seat whose link holds ``token`` (compared in constant time), or None."""
        found = None
        for place in self.places:
            # compared as bytes: a link may hold any character, compare_digest takes only ASCII text
            if place.token is not None and secrets.compare_digest(place.token.encode(),
                                                                  token.encode("utf-8", "replace")):
                found = place
        return found

    def _note(self, text: str) -> None:
        self.notes = (self.notes + [text])[-NOTES_KEPT:]

    # ------------------------------------------------------------------ what a seat is shown
    def frame(self, place: Place, here: frozenset = frozenset()) -> tuple:
        """The seat's table as its page gets it, with the seat's own version, and whether it differs from
        the last one the seat was shown (only then is it pushed: a page learns nothing from a change it
        cannot see, not even that there was one)."""
        shown = self.shown_to(place, here)
        content = json.dumps(shown, ensure_ascii=False, sort_keys=True)
        version, last = self.frames.get(place.player, (0, None))
        if content != last:
            version += 1
            self.frames[place.player] = (version, content)
        return {"type": "table", "version": version, **shown}, content != last

    def shown_to(self, place: Place, here: frozenset = frozenset()) -> dict:
        """Everything ``place``'s page shows, from that player's view only; ``here``: the players whose
        page is open now."""
        from rulewright.interpreter.engine import limits
        from rulewright.interpreter.present.screen import build
        from rulewright.interpreter.present.svg import picture
        st, game, p = self.session.state, self.session.game, place.player
        limits.fresh(st)  # the display runs the rules' expressions: bounded like a move
        counts: dict = {}  # player -> what every seat knows of its hands: (label, how many), 'as hand'
        try:
            screen = build(st, p)
            shown = {"picture": picture(screen, own_notes=False), "own": _own_things(game, screen, p),
                     "to_move": list(screen.to_move), "status": screen.turn_note}
            counts = {q.player: [list(pair) for pair in screen.counts(q.player)] for q in self.places}
        except RulesError as exc:  # the rules' display fails: the seat can still play, by the buttons
            self.failure = describe(exc)  # may name a hidden value: for the referee's terminal only
            shown = {"picture": "", "own": [], "to_move": st.view(p)["to_move"],
                     "status": "the rules' display fails here (the server's terminal says where)"}
        # the rules by name, never the seed: what seat.py lets a seat be told of its game
        told = place.server.seat.started({"game": game.name, "rules": self.session.ref,
                                          "players": game.player_count, "options": dict(game.options),
                                          "seed": st.seed})
        return {
            "you": p, **told,
            "seats": [{"player": q.player, "who": q.who, "here": q.player in here or q.agent is not None,
                       "name": self.names.get(q.player), "counts": counts.get(q.player, [])} for q in self.places],
            **shown,
            "status": self.named(shown["status"]),
            "moves": self._moves(p),
            "log": [self.named(describe_event(e)) for e in st.event_history(p)],
            "over": st.is_over(),
            "outcome": self.named(describe_outcome(st.outcome())) if st.is_over() else None,
            "game_number": self.game_number + 1,
            "history": _moves_seen(st, p),  # the past tables the seat may step back to (history)
            "notes": list(self.notes) + ([self.stuck] if self.stuck else []),
        }

    def history(self, place: Place, at) -> dict:
        """The table as the seat saw it after the ``at``-th move it saw (0: the deal): the game played again
        from its seed to there and drawn from that player's view then, never more. Only the moves the seat
        saw count (its log's), so stepping through tells nothing the log does not (not how many answers a
        window took)."""
        from rulewright.interpreter.engine import limits
        from rulewright.interpreter.present.screen import build
        from rulewright.interpreter.present.svg import picture
        st, p = self.session.state, place.player
        seen = _moves_seen(st, p)
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= seen:
            raise Refused(f"a past table is asked for by how many moves you saw since the deal: 0 to {seen}")
        past, told = self.session.game.new_state(seed=st.seed), 0
        try:
            for player, text in moves_of(st):
                if told >= at:
                    break
                past.apply(text, player=player)
                told += sum(1 for e in past.drain_events(p) if e.get("event") == "move")
            limits.fresh(past)  # the display runs the rules' expressions: bounded like a move
            screen = build(past, p)
            drawn, status = picture(screen), screen.turn_note
        except RulesError as exc:  # may name a hidden value: for the referee's terminal only
            self.failure = describe(exc)
            raise Refused("that past table cannot be drawn (the server's terminal says why)") from None
        # its game's number: a page dealt a rematch since drops it
        return {"type": "history", "at": at, "of": seen, "game": self.game_number + 1,
                "picture": drawn, "status": self.named(status),
                "log": [self.named(describe_event(e)) for e in past.event_history(p)]}

    def named(self, text: str) -> str:
        """``text`` with each 'player N' whose seat chose a name shown as 'Name (player N)'."""
        if not self.names or not text:
            return text
        return re.sub(r"\bplayer (\d+)\b",
                      lambda m: f"{self.names[int(m[1])]} ({m[0]})" if int(m[1]) in self.names else m[0], text)

    def _moves(self, player: int) -> list:
        """The player's legal moves as serve numbers them for the seat, with the spaces each one's value names."""
        st = self.session.state
        if player not in st.to_move():
            return []
        return [{"number": i, "text": m.text, "spaces": spaces}
                for i, (m, spaces) in enumerate(zip(st.legal_moves(player), move_spaces(st, player)), 1)]

    # ------------------------------------------------------------------ what a seat may do
    def _chosen(self, place: Place, number, text) -> tuple:
        """The move a page asked for: its number and text as the page was shown them, still legal."""
        if isinstance(number, bool) or not isinstance(number, int) or not isinstance(text, str):
            raise Refused("a move is asked for by its number and its text, as the page shows them")
        st = self.session.state
        if st.is_over():
            raise Refused("the game is over")
        moves = self._moves(place.player)
        if not moves:
            raise Refused("it is not your move")
        if not 1 <= number <= len(moves) or moves[number - 1]["text"] != text:
            raise Refused(f"'{text[:60]}' is not one of your moves now (the table changed): choose again")
        return number, text

    def play(self, place: Place, number, text) -> None:
        """Make the seat's move ``number`` (its ``text`` as the page showed it); raises Refused."""
        number, _ = self._chosen(place, number, text)
        reply = place.server.handle({"cmd": "apply", "move": number})  # serve's protocol: the seat's rule
        if not reply["ok"]:
            raise Refused(reply["error"])
        try:  # committed before the move is answered: a server killed now loses nothing
            self._kept_or_refused("your move", self.keep)
        except Refused:
            self.session.state.undo()  # (nothing changed, as the seat is told)
            raise

    def name(self, place: Place, name) -> None:
        """The seat's name, shown to every seat (names are public); raises Refused."""
        if not isinstance(name, str):
            raise Refused("a name is a text")
        name = " ".join(name.split())
        if not 1 <= len(name) <= MAX_NAME:
            raise Refused(f"a name is 1 to {MAX_NAME} characters")
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            raise Refused("a name holds half of a character") from None
        if any(unicodedata.category(c)[0] == "C" for c in name):
            raise Refused("a name holds a control character")
        name = unicodedata.normalize("NFC", name)  # 'e' and a combining accent is the 'é' another seat took
        if all(unicodedata.category(c)[0] == "Z" or c in BLANK_LETTERS for c in name):
            raise Refused("a name needs a letter or a sign that shows")
        if re.search(r"\bplayer\s*\d", _name_key(name)):  # 'player 2 (player 1)' in the log: who moved?
            raise Refused("a name may not read 'player N': every seat is called that already")
        if any(_name_key(other) == _name_key(name) for q, other in self.names.items() if q != place.player):
            raise Refused("another seat has that name: choose another")
        if self.store is not None:
            self._kept_or_refused("your name", lambda: self.store.name_seat(self.id, place.player, name))
        self.names[place.player] = name

    def _kept_or_refused(self, what: str, write: Callable[[], None]) -> None:
        """``write()`` to the store; when the disk refuses it, the seat is told so (the referee why)."""
        try:
            write()
        except SaveError as exc:
            self.failure = str(exc)
            raise Refused(f"the table could not keep {what} (the server's disk): nothing changed, "
                          "try again") from None

    def rematch(self, place: Place) -> None:
        """A new game for the same seats (their links stay theirs), once this one is over; raises Refused."""
        if not self.session.state.is_over():
            raise Refused("the game is not over: a rematch is dealt when it ends")
        number = self.game_number + 1
        seed = fresh_seed() if self.base_seed is None else self.base_seed + number
        if self.store is not None:  # kept first: a disk that refuses it leaves the game over as it was
            self._kept_or_refused("the new game", lambda: self.store.new_game(self.id, number, seed))
        self.game_number = number
        old = self.session
        self.session = Session(old.ref, old.game, old.game.new_state(seed=seed), seed)
        for q in self.places:
            q.server.session = self.session
        self.kept = []
        self.stuck = None
        who = self.names.get(place.player, f"player {place.player}")
        self._note(f"{who} asked for a rematch: game {self.game_number + 1} at this table is dealt")

    def hint_search(self, place: Place) -> Callable[[], tuple]:
        """A hint for the seat's move, to search off the engine thread: ``search() -> (number, text)``
        weighs the seat's moves on a copy of the state taken now (the table plays on meanwhile), on what
        the seat may see, for HINT_SECONDS at most. Then ``hint_told`` says it, if it still holds."""
        st, player = self.session.state, place.player
        if not self._moves(player):
            raise Refused("it is not your move: no hint to give")
        copy = st.clone()  # the search's own: nothing of the table's state is touched off this thread
        # a fresh agent each time: nothing it remembers of earlier searches (which saw other positions)
        agent = hint_agent(self.hint_spec)

        def search() -> tuple:
            move = agent.choose(copy, player)
            return next(i for i, m in enumerate(copy.legal_moves(player), 1) if m.text == move.text), move.text
        return search

    def hint_told(self, place: Place, number: int, text: str) -> dict:
        """The hint as the seat is told it: the move's number and text, if it is still the seat's move."""
        moves = self._moves(place.player)
        if not (1 <= number <= len(moves) and moves[number - 1]["text"] == text):
            raise Refused("the table changed while the hint was searched: ask again")
        return {"type": "hint", "number": number, "text": text, "by": self.hint_spec.partition(":")[0]}

    def explain(self, place: Place, number, text) -> dict:
        """Which rule offers the seat's move ``number``, what the seat is asked, and the rules text of the
        cards it plays: serve's 'explain', through the seat's rule (only what the seat may see)."""
        number, text = self._chosen(place, number, text)
        reply = place.server.handle({"cmd": "explain", "move": number})
        if not reply["ok"]:
            raise Refused(reply["error"])
        return {"type": "explain", "number": number, "text": text,
                "explanation": "\n".join(line.strip() for line in explanation_lines(reply["explanation"]))}

    def agent_move(self) -> bool:
        """One move by an agent whose seat is to move; False when no agent is to move."""
        st = self.session.state
        if st.is_over() or self.stuck:
            return False
        for p in st.to_move():
            place = self.places[p - 1]
            if place.agent is None:
                continue
            move = place.agent.choose(st, p)
            try:
                st.apply(move, player=p)
            except RulesError as exc:
                # the message may name a hidden value: the referee's terminal has it, the seats a summary
                self.stuck = (f"the rules failed on player {p}'s move (an agent's); the table waits for "
                              "the rules to be edited (the server's terminal says where)")
                self.failure = describe(exc)
                return False
            try:
                self.keep()
            except SaveError as exc:  # the move stands in memory: the table waits, as for failing rules
                self.stuck = "the table could not keep an agent's move (the server's disk); it waits"
                self.failure = str(exc)
                return False
            return True
        return False

    # ------------------------------------------------------------------ --watch
    def source_files(self) -> list:
        """The rules' files: the game's, and the bases it extends."""
        rules = self.session.game.rules
        return sorted({str(Path(f).resolve()) for f in list(rules.sources) or [rules.filename]
                       if Path(f).is_file()})

    def reload_job(self) -> Job:
        """What reading the rules again needs: taken on the engine thread, used off it (watch.py). The
        moves an earlier edit's divergence dropped are played again too, while the table has made no
        other move since."""
        st = self.session.state
        save, moves = st.to_json(), moves_of(st)
        if self.lost[:len(moves)] != moves:  # the table went another way: they are gone for good
            self.lost = []
        if len(self.lost) > len(moves):
            # the seed and every move, played again on the rules read (saves.py: rules that changed)
            save = {**save, "rules": "", "fingerprint": "",
                    "state": {**save["state"], "pending": None,
                              "history": [{"event": "move", "player": p, "move": text} for p, text in self.lost]}}
            moves = self.lost
        self.tried = len(moves)
        return Job(self.session.ref, self.session.game.player_count, dict(self.session.game.options),
                   save, (st.moves_made, st.history_len), tuple(self.source_files()))

    def reloaded(self, job: Job, outcome: Outcome, prepared) -> Optional[str]:
        """Take the rules read again (``prepared``: watch.load's, when ``outcome`` is 'ok'), or say why
        not. Returns the referee's note (for the server's terminal), or None when they loaded but the
        table moved on since ``job`` was taken (read again). The seats get a note of their own, which names no move
        (another player's could be secret) and no folder of the server's."""
        old = self.session
        if outcome.kind == "ok" and (old.state.moves_made, old.state.history_len) != job.moves:
            return None  # (rules that failed on the game as it was are said to have failed)
        if outcome.kind != "ok":
            if outcome.kind == "error":  # about the rules' text (or an option), no state in it
                self._note("the edited rules have an error; the table plays on as it was:\n" + outcome.message)
            elif outcome.kind == "slow":  # (its message says how long it was given)
                self._note(outcome.message + "; the table plays on as it was")
            else:  # the message may name a hidden value: the referee's terminal has it
                self._note("the edited rules fail while setting up the game; the table plays on as it was "
                           "(the server's terminal says where)")
            return "the edited rules were not loaded" + (f":\n{outcome.message}" if outcome.message
                                                         else f" ({outcome.kind})")
        game, loaded = prepared
        # the moves played again: the game's, or with them those an earlier edit dropped (reload_job)
        now, before = len(moves_of(old.state)), self.tried
        self.session = Session(old.ref, game, loaded.state, old.seed)
        for place in self.places:
            place.server.session = self.session
        self.stuck = None
        self.keep()
        after = len(moves_of(loaded.state))
        if after >= before:
            self.lost = []
        elif before == now:  # this edit drops moves: kept, for rules that allow them again
            self.lost = moves_of(old.state)
        if loaded.note is None:
            told = "the rules were read again: nothing that changes play changed"
        elif after < before:
            told = (f"the edited rules were read: they diverge at move {after + 1} of {before}, which they "
                    f"do not allow; the table goes on from before it (the moves after it come back if the "
                    f"rules allow them again before the next move)")
        else:
            told = f"the edited rules were read: the {before} move{'' if before == 1 else 's'} so far were played again"
            if before > now:
                told += f", {before - now} of them dropped by an earlier edit"
        self._note(told)
        return loaded.note or told


def moves_of(state) -> list:
    """The game's moves [(player, text)], as a save keeps them: played again from its seed they give it
    (the choices already made in a simultaneous decision last)."""
    moves = [(e["player"], e["move"]) for e in state.event_history() if e["event"] == "move"]
    if state.pending is not None:
        moves += [(int(p), told[0]) for p, told in state.pending.texts.items() if told is not None]
    return moves


# Letters of other scripts that read as a Latin letter (casefolded; after Unicode's confusables, TR39):
# 'Аnn' with a Cyrillic A reads as 'Ann'.
_LOOK_ALIKES = str.maketrans("авеѕіјкмнһорԛстуүхԁԝӏαβεζηικμνορτυχϲ", "abesijkmhhopqctyyxdwlabezhikmnoptuxc")


def _name_key(name: str) -> str:
    """What a name reads as, for telling two apart: 'Ａnn' (full-width), 'ANN' and 'Аnn' (a Cyrillic A)
    read as 'ann'."""
    return unicodedata.normalize("NFKC", name).casefold().translate(_LOOK_ALIKES)


def _moves_seen(state, player: int) -> int:
    """How many moves ``player`` saw made (its log's moves): the past tables it may step back to."""
    return sum(1 for e in state.event_history(player) if e.get("event") == "move")


def _own_things(game, screen, player: int) -> list:
    """The rules' 'own' entries of the screen (the viewer's hand...), each a list of cards when it names a
    variable holding a list, else its text; from the viewer's view only (screen.vars)."""
    from rulewright.interpreter.present.screen import value_text
    entries = [entry for word, items in game.compiled.screen if word == "own" for _label, entry, _fn in items]
    drawn = {pic.label: pic for pic in screen.pictures if pic.owner == player and pic.kind in ("card", "cards", "tokens")}
    out = []
    for (label, text), entry in zip(screen.own, entries):
        cards = None
        expr = entry.expr
        if label in drawn:  # drawn 'as cards': each as the picture draws it (its title, corner and text)
            cards = [{"title": f.title, "corner": f.corner, "lines": list(f.lines)} if not f.down else "face down"
                     for f in drawn[label].items]
        elif isinstance(expr, ast.Name) and expr.id in screen.vars:
            value = screen.vars[expr.id]
            if expr.id in game.compiled.player_vars:
                value = value[player - 1]
            if type(value) is list:
                cards = [value_text(v) for v in value]
            elif value is not None and not (type(value) is dict and set(value) == {"hidden"}):
                cards = [value_text(value)]
        out.append({"label": label, "text": text, "cards": cards})
    return out

