"""`web --watch`: the rules read again after an edit, off the serving thread and under a time limit.

An edit may hold anything: rules whose setup or a replayed move runs for hours (work the limits do not
count yet, in C where no thread can be stopped), or a file too large to check quickly. So the edited
rules are first read, compiled and the moves so far played on them in a process of their own (the
*probe*), under the engine's limits, for at most RELOAD_SECONDS, and killed as soon as the files change
again (the newer edit is what counts). Only rules that loaded there are loaded in the server, in a thread
beside the game, and only if they are the very text the probe loaded; the table takes them on its engine
thread (table.py, ``reloaded``). The seats are told files by their path in the rules' folder, never the
server's folders."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Optional

import attrs

RELOAD_SECONDS = 30.0  # the longest the edited rules may take to load with the moves so far played again


@attrs.frozen
class Job:
    """What a reload needs, taken from the table on its engine thread."""
    ref: str          # the rules: a shipped name or an absolute path
    players: int
    options: dict
    save: dict        # the game so far, as a save (its seed and moves)
    moves: int        # the table's moves when it was taken: a reload of an older game is not taken
    files: tuple      # the rules' files, to see a newer edit


@attrs.frozen
class Outcome:
    """What the probe found: ``kind`` 'ok' (``digest``: of the rules' text it loaded), 'error' (the rules'
    text or an option is wrong: ``message``, which names files in the rules' folder only), 'failed' (the
    rules failed while running: no message for the seats, it may name a hidden value; ``message`` is the
    referee's), 'slow' (past RELOAD_SECONDS), 'again' (the files changed meanwhile) or 'crashed'."""
    kind: str
    message: str = ""
    digest: str = ""


def digest(rules) -> str:
    """The rules' text, every file of it (a base it extends too), as a digest."""
    h = hashlib.sha256()
    for name, text in sorted(rules.sources.items() or [(rules.filename, "")]):
        h.update(f"{name}\0{text}\0".encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def in_folder(text: str, files, ref: str) -> str:
    """``text`` with each of ``files`` named by its path in the folder of the rules ``ref`` (never the
    server's own folders): the operator's 'game.rules', 'bases/base.rules'."""
    folder = Path(ref).parent if os.path.isabs(ref) else None
    for f in sorted({f for f in files if f}, key=len, reverse=True):
        path = Path(f)
        shown = path.name
        if folder is not None:
            try:
                shown = path.resolve().relative_to(folder.resolve()).as_posix()
            except (ValueError, OSError):
                pass
        text = text.replace(f, shown)
    return text


def load(job: Job, expected: Optional[str] = None):
    """The rules of ``job`` and the game so far played again on them: (game, loaded), or None when the
    rules' text is not the ``expected`` one (edited again since the probe). Raises RulesError."""
    from rulewright.interpreter.api import Game, load_rules
    rules = load_rules(job.ref)
    if expected is not None and digest(rules) != expected:
        return None
    game = Game(rules, job.players, dict(job.options))
    return game, game.load_save(job.save, verify=False, force=True), digest(rules)


def _probe_main() -> None:
    """The probe's process (``python -m rulewright.cli.watch``): the job and the limits as JSON on
    standard input, the Outcome as JSON on standard output."""
    from rulewright.dsl.errors import RulesCompileError, RulesError, RulesRuntimeError
    from rulewright.cli.errors import describe
    from rulewright.interpreter.engine import limits
    given = json.loads(sys.stdin.buffer.read())
    limits.set_limits(**given["limits"])
    job = Job(**{**given["job"], "files": tuple(given["job"]["files"]), "moves": tuple(given["job"]["moves"])})
    try:
        _game, _loaded, found = load(job)
        outcome = Outcome("ok", digest=found)
    except RulesError as exc:
        message = describe(exc)
        if isinstance(exc, RulesCompileError) or not isinstance(exc, RulesRuntimeError):
            diagnostics = [getattr(exc, "diagnostic", None)] + list(getattr(exc, "diagnostics", None) or ())
            files = [d.file for d in diagnostics if d is not None] + list(job.files)
            outcome = Outcome("error", in_folder(message, files, job.ref))
        else:
            outcome = Outcome("failed", message)
    except BaseException as exc:  # MemoryError, a bug of rulewright's own: the referee's terminal says
        outcome = Outcome("crashed", f"{type(exc).__name__}: {exc}")
    sys.stdout.write(json.dumps(attrs.asdict(outcome)))


def probe(job: Job, seconds: float, changed: Callable[[], bool]) -> Outcome:
    """Load ``job``'s rules in a process of their own (a fresh interpreter: nothing of the server's is
    in it); kill it past ``seconds`` or as soon as ``changed()``."""
    from rulewright.interpreter.engine import limits
    given = json.dumps({"job": attrs.asdict(job), "limits": limits.current()}).encode()
    process = subprocess.Popen([sys.executable, "-m", "rulewright.cli.watch"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + seconds
    try:
        while True:
            try:
                out, err = process.communicate(given, timeout=0.1)
                break
            except subprocess.TimeoutExpired:
                given = None  # sent: a retry goes on reading
            if changed():
                return Outcome("again")
            if time.monotonic() > deadline:
                return Outcome("slow", f"the edited rules took more than {seconds:g} seconds to load")
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    try:
        return Outcome(**json.loads(out))
    except (ValueError, TypeError):
        why = err.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit code {process.returncode}"]
        return Outcome("crashed", f"the process reading the rules ended: {why[0]}")


def stamps(files) -> dict:
    """Each file's modification time and size (None for one gone): an edit changes them."""
    out = {}
    for f in files:
        try:
            stat = Path(f).stat()
            out[f] = (stat.st_mtime_ns, stat.st_size)
        except OSError:
            out[f] = None
    return out


if __name__ == "__main__":
    _probe_main()
