"""docs/tutorial.md runs as written: its files are written, its fixes applied and its commands run in
an empty folder, in order, and each command's output holds the lines the tutorial shows.

In the tutorial: a block fenced ```LANG file=NAME writes NAME; ```diff file=NAME replaces its '-'
lines in NAME by its '+' lines; in a ```console block, '$ ' starts a command ('< FILE' feeds it that
file, '# exits N' is its exit code, 0 otherwise) and the lines under it appear in its output in
that order ('...' stands for any lines; the folder before a file's name is left out)."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from rulewright.cli.main import app

DOC = Path(__file__).resolve().parent.parent / "docs" / "tutorial.md"
FENCE = re.compile(r"^```(\w+)(?: file=(\S+))?[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


def steps() -> list:
    return [(lang, name, body) for lang, name, body in FENCE.findall(DOC.read_text(encoding="utf-8"))]


def _commands(body: str) -> list:
    """(command, expected exit code, expected lines) for each '$ ' line of a console block."""
    out = []
    for line in body.splitlines():
        if line.startswith("$ "):
            command, _, comment = line[2:].partition("#")
            code = int(comment.split()[-1]) if "exits" in comment else 0
            out.append((command.strip(), code, []))
        else:
            out[-1][2].append(line.rstrip())
    return out


def _in_order(expected: list, output: str) -> str:
    """'' if the expected lines appear in the output in order, else the first one missing."""
    lines = [line.rstrip() for line in output.splitlines()]
    at = 0
    for want in expected:
        if want in ("...", ""):
            continue
        while at < len(lines) and lines[at] != want:
            at += 1
        if at == len(lines):
            return want
        at += 1
    return ""


def _run(command: str, folder: Path):
    words = shlex.split(command)
    given = None
    if "<" in words:
        i = words.index("<")
        given = (folder / words[i + 1]).read_text(encoding="utf-8")
        words = words[:i] + words[i + 2:]
    if words[0] == "rulewright":
        result = CliRunner().invoke(app, words[1:], input=given)
        return result.exit_code, result.output
    assert words[0] == "python", f"the tutorial runs only rulewright and python, not {words[0]}"
    done = subprocess.run([sys.executable, *words[1:]], cwd=folder, capture_output=True, text=True,
                          input=given, timeout=120)
    return done.returncode, done.stdout + done.stderr


def test_the_tutorial_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    kinds = [lang for lang, _name, _body in steps()]
    assert {"rules", "diff", "console", "python"} <= set(kinds)
    ran = 0
    for lang, name, body in steps():
        if name and lang != "diff":
            (tmp_path / name).write_text(body, encoding="utf-8")
        elif lang == "diff":
            path = tmp_path / name
            old = "\n".join(line[1:] for line in body.splitlines() if line.startswith("-"))
            new = "\n".join(line[1:] for line in body.splitlines() if line.startswith("+"))
            text = path.read_text(encoding="utf-8")
            assert text.count(old) == 1, f"the fix for {name} does not match the file once"
            path.write_text(text.replace(old, new), encoding="utf-8")
        elif lang == "console":
            for command, code, expected in _commands(body):
                exit_code, output = _run(command, tmp_path)
                output = output.replace(f"{tmp_path}/", "")  # messages name files by their full path
                assert exit_code == code, f"$ {command}\nexited {exit_code}, not {code}:\n{output}"
                missing = _in_order(expected, output)
                assert not missing, f"$ {command}\nthe output lacks (in order): {missing!r}\n{output}"
                ran += 1
    assert ran >= 8


def test_the_tutorial_meets_an_error_before_its_fix():
    """The story: the first validate fails, the fix comes after it, then validate passes."""
    order = [(lang, name, body) for lang, name, body in steps() if lang in ("console", "diff")]
    first_check = next(i for i, (lang, _n, body) in enumerate(order) if "validate pig.rules" in body)
    assert "exits 1" in order[first_check][2] and order[first_check + 1][0] == "diff"
