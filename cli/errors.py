"""The one place a user's mistake becomes a message and an exit code instead of a traceback."""
from __future__ import annotations

import functools
import json

import typer

from rulewright.dsl.errors import RulesError
from rulewright.cli.output import err

OK, REFUSED, USAGE = 0, 1, 2  # exit codes: success; rules error or refused move; bad command line


def describe(exc: BaseException) -> str:
    """The message for an error the user caused (diagnostics come already rendered)."""
    if isinstance(exc, RulesError) and getattr(exc, "diagnostics", None):
        return "\n".join(d.render() for d in exc.diagnostics)
    if isinstance(exc, RulesError):
        return f"error: {exc}"
    if isinstance(exc, OSError):
        where = f"{exc.filename}: " if exc.filename else ""
        return f"error: {where}{exc.strerror or exc}"
    if isinstance(exc, UnicodeDecodeError):
        return f"error: not a text file ({exc.reason})"
    return f"error: {exc}"


def user_errors(command):
    """Wrap a command: rules errors, unreadable files and bad JSON exit 1 with a message."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except BrokenPipeError:
            raise  # the reader went away (| head): the framework exits quietly
        except (RulesError, OSError, UnicodeDecodeError) as exc:
            err(describe(exc))
            raise typer.Exit(REFUSED) from None
        except KeyboardInterrupt:
            err("interrupted")
            raise typer.Exit(130) from None
    return wrapper


# Saves and logs of long games stay under a few MB; the cap keeps /dev/zero or a huge file out of memory.
MAX_JSON_BYTES = 64_000_000


def read_json(path: str, what: str):
    """Read a JSON file the user gave; a file that is not JSON is a RulesError naming it."""
    from rulewright.dsl.errors import SaveError
    from rulewright.dsl.texts import json_lone_surrogate
    from rulewright.interpreter.api import read_bounded
    text = read_bounded(path, MAX_JSON_BYTES, f"a {what}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(f"{path}: not a valid {what} (bad JSON at line {exc.lineno} column {exc.colno})") from None
    except RecursionError:  # [[[[...]]]] nested deeper than Python's stack
        raise SaveError(f"{path}: not a valid {what} (nested too deep)") from None
    except ValueError:  # a number of more than 4,300 digits, which Python will not read
        raise SaveError(f"{path}: not a valid {what} (a number far too long)") from None
    if json_lone_surrogate(text, data) is not None:  # what enters is checked once, here
        raise SaveError(f"{path}: not a valid {what} (a text holds half of a character: an escape such as "
                        "\\ud800, a lone surrogate)")
    return data


def write_json(path: str, data) -> None:
    from rulewright.cli.output import json_text
    from rulewright.dsl.errors import SaveError
    try:
        text = json_text(data, indent=1) + "\n"
    except RecursionError:  # (the file is not opened, so an older one there is kept)
        raise SaveError(f"{path}: not written: lists in lists nested too deep to write") from None
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
