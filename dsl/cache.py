"""A disk cache of what is slow to work out from a rules file and never changes for the same text: the
checked syntax tree (parsing and checking every shipped game takes seconds; reading a pickle, a few
milliseconds), and the summary `rulewright list` prints.

Entries are keyed by the content they come from and by a stamp of the code that made them, so an edit
of a rules file or an upgrade of rulewright misses the cache instead of reading something stale. The
folder is $RULEWRIGHT_CACHE, else $XDG_CACHE_HOME/rulewright, else ~/.cache/rulewright;
RULEWRIGHT_CACHE=off turns the cache off. Any problem with the cache (no folder, no space, a damaged
entry) is a miss, never an error."""
from __future__ import annotations

import functools
import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any, Optional

_MISS = object()
_CODE = ("dsl", "interpreter")  # the code whose output is cached: the parser, the checker, the symbol table


def folder() -> Optional[Path]:
    chosen = os.environ.get("RULEWRIGHT_CACHE")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "0", "no") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rulewright"


@functools.cache
def code_stamp() -> str:
    """Changes whenever a source file of the parser or the interpreter does (its size or time)."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for part in _CODE:
        for path in sorted((root / part).rglob("*")):
            if path.suffix in (".py", ".lark"):
                stat = path.stat()
                digest.update(f"{path.relative_to(root)}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return digest.hexdigest()[:16]


def key(*parts: str | bytes) -> str:
    digest = hashlib.sha256(code_stamp().encode())
    for part in parts:
        digest.update(part if isinstance(part, bytes) else part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def get(kind: str, entry: str) -> Any:
    """The value stored under ``entry``, or None."""
    where = folder()
    if where is None:
        return None
    try:
        with open(where / kind / f"{entry}.pickle", "rb") as f:
            return pickle.load(f)
    except Exception:  # missing, unreadable, damaged or from another Python: a miss
        return None


def put(kind: str, entry: str, value: Any) -> None:
    """Store ``value`` (atomically: a reader never sees half an entry)."""
    where = folder()
    if where is None:
        return
    try:
        target = where / kind
        target.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, target / f"{entry}.pickle")
        except BaseException:
            os.unlink(tmp)
            raise
    except Exception:  # a read-only home, a full disk, a value that does not pickle: no cache, no error
        return


def checked_rules(path: str, text: str, build, read):
    """The checked syntax tree of the rules file at ``path`` holding ``text``: from the cache when the file
    and every file it extends are as they were, else ``build()`` (and kept). ``read(path)`` reads a file
    the way the rules are read."""
    entry = key("rules", path, text)
    found = get("rules", entry)
    if found is not None:
        try:
            if all(read(name) == source for name, source in found.sources.items() if name != path):
                return found
        except Exception:  # a base file gone or unreadable: build, and let that report it
            pass
    built = build()
    put("rules", entry, built)
    return built
