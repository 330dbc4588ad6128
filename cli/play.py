"""Driving one game from the command line: a script, an agent and people at a prompt share the seats.

Each decision goes, in this order, to: the next script line; the agent, if the player to move is an
agent's seat; the prompt, if it is a person's seat. When none of them can move, play stops (the
script ran out) and the game stays unfinished, which --save and --log still record."""
from __future__ import annotations

import shutil
import sys
from collections import deque
from typing import Optional

import attrs

from rulewright.dsl.errors import IllegalMoveError
from rulewright.interpreter.api import seen_by
from rulewright.interpreter.present.explain import move_notes
from rulewright.interpreter.present.views import seen_to_move
from rulewright.cli.hints import DEFAULT_HINT, hint_lines
from rulewright.cli.output import err, json_line, out
from rulewright.cli.screen import print_screen, wrapped
from rulewright.cli.script import ScriptLine, split_player


@attrs.define
class Seats:
    script: deque                      # ScriptLine, still to play
    agent: object = None               # plays every seat in `auto`
    auto: frozenset = frozenset()
    humans: frozenset = frozenset()    # seats played at the prompt
    caught_up: dict = attrs.field(factory=dict)  # hot seat: seat -> events of the history it has seen
    asked: dict = attrs.field(factory=dict)  # seat -> state.moves_made at each prompt that seat answered
    hint_agent: str = DEFAULT_HINT     # the agent that answers ':hint' (cli/hints.py)


@attrs.define
class Result:
    status: str                 # "over" | "stopped" | "refused" | "failed" (the rules failed; message: why)
                                # | "broken" (play --check: an invariant does not hold; message: which)
    message: str = ""
    refused: Optional[dict] = None


def legal_summary(state) -> str:
    """The legal moves, with the player who may make each when several players decide at once."""
    moves = state.legal_moves()
    waiting = state.to_move()
    if len(waiting) > 1:
        shown = [f"{m.player}: {m.text}" for m in moves[:40]]
        head = "legal moves"
    else:
        shown = [m.text for m in moves[:40]]
        head = f"legal moves (player {waiting[0]})" if waiting else "legal moves"
    return f"{head}: " + (", ".join(shown) + (" ..." if len(moves) > 40 else "") if moves else "none")


# The viewer of a shared screen in hot-seat play: nobody's secrets (each seat catches up at its turn).
SPECTATOR = 0


class Reporter:
    """Prints the game's events as they happen, as one viewer sees them: the referee (None, every
    move in full), a player, or SPECTATOR; one JSON object per line, or readable lines."""

    def __init__(self, as_json: bool, quiet: bool = False, viewer: Optional[int] = None,
                 with_legal: bool = False, seed: Optional[int] = None):
        self.as_json = as_json
        self.quiet = quiet           # record the moves, print nothing (show)
        self.viewer = viewer
        self.with_legal = with_legal  # --legal: the last event of each move carries what is legal next
        self.seed = seed
        self.moves: list[dict] = []  # every move applied, for the log (the referee's record)
        self.held: list[dict] = []   # events not printed yet

    def header(self) -> None:
        """A JSON stream's first line says whose it is."""
        if self.quiet:
            return
        if self.viewer is None:
            line = {"event": "stream", "as": "referee",
                    "note": "every move in full, secret ones too; use --as P for what player P may see"}
        elif self.viewer == SPECTATOR:
            line = {"event": "stream", "as": "table", "note": "what every player may see; secrets are masked"}
        else:
            line = {"event": "stream", "as": self.viewer, "note": f"what player {self.viewer} may see"}
        if self.seed is not None:
            line["seed"] = self.seed
        if self.as_json:
            json_line(line)

    def flush(self, state, force: bool = False) -> None:
        for event in state.drain_events():
            if event.get("event") == "move":
                self.moves.append({"player": event["player"], "move": event["move"]})
            seen = seen_by(event, self.viewer)
            if seen is not None:
                self.held.append(seen)
        pend = state.pending
        if not force and pend is not None and pend.simultaneous and pend.chosen:
            return  # a secret choice stays hidden until everyone has chosen
        if self.with_legal and self.held:
            self.held[-1] = {**self.held[-1], **self.legal_now(state)}
        if not self.quiet:
            for event in self.held:
                self._print(event)
        self.held = []

    def legal_now(self, state) -> dict:
        """Who is to move and the legal moves this viewer may see: all of them for the referee, a player's
        own, none for the table (the others' options are their secrets)."""
        waiting = state.to_move()
        if self.viewer is None:
            moves = state.legal_moves()
        elif self.viewer in waiting:
            moves = state.legal_moves(self.viewer)
        else:
            moves = []
        return {"to_move": waiting, "legal_moves": [{"number": i, "player": m.player, "text": m.text}
                                                    for i, m in enumerate(moves, 1)]}

    def _print(self, event: dict) -> None:
        if self.as_json:
            json_line(event)
        else:
            readable(out, sys.stdout)(describe_event(event))


def describe_event(event: dict) -> str:
    """One event as a readable line."""
    kind = event.get("event")
    if kind == "move":
        shown = f"player {event['player']}: {event['move']}"
        if "shown" in event:  # the referee's copy of a secret move
            shown += f"   (the others see: {event['shown']})"
        return shown
    if kind == "log":
        to = event.get("to")
        return f"  {event.get('text', '')}" + (f"   (to {', '.join(f'player {p}' for p in to)})" if to else "")
    if kind == "reveal":
        return f"  {event.get('text', '')}"
    if kind == "game over":
        return "game over"
    return str(event)


def drive(state, seats: Seats, reporter: Reporter, watch=None) -> Result:
    """Play until the game ends or no seat can move. ``watch`` (play --check, interpreter/play/invariants.py):
    the rules' invariants checked at the start and after every move; the first that fails stops play."""
    reporter.flush(state)
    broken = _broken(state, watch)
    while not state.is_over() and broken is None:
        if watch is not None:
            watch.before(state)
        if seats.script:
            line = seats.script.popleft()
            refusal = _apply_script_line(state, line, reporter.viewer)
            if refusal is not None:
                return refusal
        else:
            waiting = state.to_move()
            auto = [p for p in waiting if p in seats.auto]
            if auto:
                state.apply(seats.agent.choose(state, auto[0]), player=auto[0])
            elif waiting[0] in seats.humans:
                went = _prompt(state, waiting[0], reporter, seats)
                if went is not True:
                    return Result("stopped", "you quit (:quit)" if went == QUIT else "end of input")
            else:
                return Result("stopped", "the script ran out of moves")
        reporter.flush(state)
        broken = _broken(state, watch)
    return broken or Result("over")


def _broken(state, watch) -> Optional[Result]:
    found = watch.broken(state) if watch is not None else None
    if found is None:
        return None
    decl, why = found
    return Result("broken", f"{decl.span.file}:{decl.span.line}: invariant \"{decl.name}\" is broken after move "
                            f"{state.moves_made}: {why}")


def _apply_script_line(state, line: ScriptLine, viewer: Optional[int] = None) -> Optional[Result]:
    player, text = split_player(state, line.text)
    try:
        state.apply(text, player=player)
        return None
    except IllegalMoveError as exc:
        if viewer is not None:
            # other seats' options are their secrets: name the viewer's own moves only
            mine = [m.text for m in state.legal_moves(viewer)] if viewer in state.to_move() else []
            error = "not a legal move now" + (f"; your legal moves: {', '.join(mine)}" if mine else "")
            return Result("refused", f"{line.where}: refused {line.text!r}: {error}",
                          {"event": "refused", "where": line.where, "move": line.text, "error": error,
                           "to_move": seen_to_move(state, viewer), "legal_moves": mine})
        message = f"{line.where}: refused {line.text!r}: {exc}"
        legal = legal_summary(state)
        if "legal moves" not in str(exc) or len(state.to_move()) > 1:
            message += f"\n{legal}"
        return Result("refused", message, {"event": "refused", "where": line.where, "move": line.text,
                                           "error": str(exc), "to_move": state.to_move(),
                                           "legal_moves": [m.text for m in state.legal_moves()]})


def _handover(state, player: int, seats: Seats, say) -> bool:
    """Hot seat: before a seat's secrets are shown, the screen is cleared and the seat handed over.
    Then the seat catches up with what only it may see (its own secret moves, logs written to it).
    False on end of input."""
    if len(seats.humans) < 2:
        return True
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    if interactive:
        sys.stdout.write("\x1b[2J\x1b[H")  # clear the screen: the last seat's secrets go with it
    say(f"=== pass the seat to player {player}; press Enter when only player {player} can see the screen ===")
    if interactive and not sys.stdin.readline():
        return False
    caught_up = _private_since(state, player, seats.caught_up)
    if caught_up:
        say(f"only you (player {player}) saw:")
        for line in caught_up:
            say(line)
    return True


def _private_since(state, player: int, caught_up: dict) -> list[str]:
    """The events since this seat's last turn that it sees differently from the table."""
    history = state.event_history()
    start = caught_up.get(player, 0)
    caught_up[player] = len(history)
    lines = []
    for e in history[start:]:
        mine, table = seen_by(e, player), seen_by(e, SPECTATOR)
        if mine is not None and mine != table:
            lines.append(describe_event(mine))
    return lines


PROMPT_HELP = """type a move (its text, the start of it, or its number), or:
  :moves    the legal moves again
  :vars     the rules' variables, as you may see them
  :hint     an agent's suggestion, and why (it searches the game as you see it)
  :explain N  which rule offers move N (file:line), what it asks, what the cards it plays say
  :undo     take back your last move (and every move made since)
  :help     this help
  :quit     stop (with --save, the game is saved as it stands)
Tab completes a move; the arrow keys edit the line and go through what you typed before."""


QUIT = ":quit"  # what _prompt returns when the person quit (not the input ending)


def _prompt(state, player: int, reporter: Reporter, seats: Seats):
    """Ask the person at ``player``'s seat until a move is legal (or taken back): True; False on end of
    input, QUIT on ':quit'."""
    as_json = reporter.as_json
    say = readable(err, sys.stderr) if as_json else readable(out, sys.stdout)  # with --json, stdout: only JSON
    say("")
    if not _handover(state, player, seats, say):
        return False
    screen = sys.stderr if as_json else sys.stdout  # with --json, stdout carries only JSON
    print_screen(screen, state, player)
    moves = state.legal_moves(player)
    notes = move_notes(state, player)  # the rules text of what each move plays
    asked = seats.asked.setdefault(player, [])
    asked.append(state.moves_made)

    column = min(max((len(m.text) for m, note in zip(moves, notes) if note), default=0), 32)

    def list_moves():
        for i, (m, note) in enumerate(zip(moves, notes), 1):
            for line in _move_lines(i, m.text, note, column):
                say(line)
    say(f"player {player} to move (a move or its number; :help for more):")
    question = state.prompt(player)  # what the rules ask: "keep 4 of your 6 cards"
    if question is not None:
        say(f"  {question}")
    list_moves()
    ask = _line_reader(as_json, [m.text for m in moves])
    while True:
        line = ask("move> ")
        if line is None:
            say("")
            return False
        text = line.strip()
        if not sys.stdin.isatty():
            say(text)  # piped input is not echoed by a terminal; keep the transcript readable
        if not text:
            continue
        command = text.lower()
        if command in (":quit", ":q"):
            return QUIT
        if command in (":vars", ":v"):  # the rules' variables, as this player may see them
            print_screen(screen, state, player, with_vars=True)
            continue
        if command in (":help", ":h", ":?", "?"):
            say(PROMPT_HELP)
            continue
        if command in (":moves", ":m"):
            list_moves()
            continue
        if command == ":hint":
            for hint in hint_lines(state, player, seats.hint_agent):
                say(hint)
            continue
        if command == ":explain" or command.startswith(":explain "):
            which = text[len(":explain"):].strip()
            try:
                if not which:
                    raise IllegalMoveError("say which move: :explain N (its number) or :explain TEXT")
                for line in state.explain(which, player=player).lines():
                    say(line)
            except IllegalMoveError as exc:
                say(str(exc))
            continue
        if command in (":undo", ":u"):
            if len(asked) < 2:
                say("you have made no move to take back")
                continue
            asked.pop()  # this prompt; the one before is where the seat's last move was asked
            taken = _undo_to(state, asked.pop(), reporter)
            say(f"took back {taken} move" + ("" if taken == 1 else "s"))
            return True
        if text.startswith(":"):
            say(f"unknown command {text}; :help lists the commands")
            continue
        try:
            state.apply(text, player=player)
            return True
        except IllegalMoveError as exc:
            say(str(exc))


def _move_lines(number: int, text: str, note: str, column: int) -> list[str]:
    """A numbered move, with the rules text of what it plays beside it (from ``column`` letters on, so the
    texts line up), shortened to the screen's width (under it when the move leaves too little room)."""
    line = f"  {number:>3}. {text:<{column}}" if note else f"  {number:>3}. {text}"
    if not note:
        return [line]
    width = shutil.get_terminal_size((80, 24)).columns
    room = width - len(line) - 4
    if room >= 24:
        return [f"{line}   {_shortened(note, room)}"]
    return [line, "        " + _shortened(note, width - 9)]


def readable(write, stream):
    """``write`` for lines a person reads at ``stream``: at a terminal, each line longer than the terminal
    is broken between words, its next lines under its own indent (the terminal would cut it mid-word);
    elsewhere (a pipe, a file) lines are written whole."""
    if not stream.isatty():
        return write
    width = shutil.get_terminal_size((80, 24)).columns

    def fitted(text: str) -> None:
        lines = []
        for line in text.split("\n"):
            indent = " " * min(len(line) - len(line.lstrip(" ")), width // 2) + "  "
            parts = wrapped(line, width) if len(line) > width else [line]
            lines += parts[:1] + [indent + part for part in _rewrapped(parts[1:], width - len(indent))]
        write("\n".join(lines))
    return fitted


def _rewrapped(parts: list, width: int) -> list:
    """The rest of a broken line, broken again to fit beside its indent."""
    return wrapped(" ".join(parts), max(width, 20)) if parts else []


def _shortened(text: str, most: int) -> str:
    return text if len(text) <= most else text[:max(most - 3, 1)].rstrip() + "..."


def _undo_to(state, depth: int, reporter: Reporter) -> int:
    """Take back moves until ``state.moves_made`` is ``depth`` again (or no more can be); the count."""
    def moves_told():
        return sum(1 for e in state.event_history() if e.get("event") == "move")
    before, taken = moves_told(), 0
    while state.moves_made > depth and state.undoable:
        state.undo()
        taken += 1
    undone = before - moves_told()
    if undone:
        del reporter.moves[max(0, len(reporter.moves) - undone):]  # the log keeps only the moves that stand
    state.drained = state.history_len  # what is left was all told before
    return taken


def _line_reader(as_json: bool, completions: list[str]):
    """A function that reads one line (None at end of input). At a terminal, through readline: line
    editing, history and Tab completion of the move texts and the prompt's commands."""
    stream = sys.stderr if as_json else sys.stdout
    if not (sys.stdin.isatty() and stream.isatty()):
        def read(prompt: str):
            stream.write(prompt)
            stream.flush()
            return sys.stdin.readline() or None
        return read
    try:
        import readline
    except ImportError:  # Windows without pyreadline: input() still reads a line
        readline = None
    words = completions + [":help", ":moves", ":hint", ":explain ", ":vars", ":undo", ":quit"]
    if readline is not None:
        def complete(prefix, index):
            found = [w for w in words if w.lower().startswith(prefix.lower())]
            return found[index] if index < len(found) else None
        readline.set_completer(complete)
        readline.set_completer_delims("")  # a move text may hold spaces: complete the whole line
        readline.parse_and_bind("tab: complete")

    def read_tty(prompt: str):
        saved = sys.stdout
        try:
            sys.stdout = stream  # input() writes its prompt to stdout; with --json that is stderr
            return input(prompt)
        except EOFError:
            return None
        finally:
            sys.stdout = saved
    return read_tty


def describe_outcome(outcome) -> str:
    if outcome.draw:
        head = "draw"
    else:
        head = "winner" + ("s" if len(outcome.winners) > 1 else "") + ": " + ", ".join(
            f"player {p}" for p in outcome.winners)
    if outcome.scores:
        head += " (scores: " + ", ".join(f"{p}: {s}" for p, s in outcome.scores.items()) + ")"
    return head


def finish(state, result: Result, as_json: bool, viewer: Optional[int] = None) -> None:
    """The closing lines of play: the outcome, or why play stopped."""
    if result.status == "refused":
        if as_json:
            json_line(result.refused)
        err(result.message)
        return
    if result.status in ("failed", "broken"):
        if as_json:
            json_line({"event": "error" if result.status == "failed" else "invariant", "error": result.message,
                       "to_move": seen_to_move(state, viewer)})
        err(result.message)
        return
    if as_json:
        if state.is_over():
            json_line({"event": "outcome", **state.outcome().to_dict()})
        else:
            json_line({"event": "stopped", "reason": result.message, "to_move": seen_to_move(state, viewer)})
        return
    out("")
    print_screen(sys.stdout, state, viewer, with_turn_note=False)
    out("")
    if state.is_over():
        out("outcome: " + describe_outcome(state.outcome()))
    else:
        to_move = ", ".join(f"player {p}" for p in seen_to_move(state, viewer)) or "not you"
        out(f"stopped: {result.message}; the game is not over ({to_move} to move)")
