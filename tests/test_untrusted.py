"""Rules files, saves, logs and moves from a stranger (issue 13): each hostile input gives our own clear
error, through the command line and the Python API: no file of the machine is disclosed, no traceback,
no hang and no unbounded memory."""
from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

import rulewright
from rulewright.cli.main import app
from rulewright.dsl.errors import RulesError

runner = CliRunner()

BASE = '''\
game "Count"
players 2

var total = 0

turn:
    choose c in range(3) as "{c}"
    total += c
    if total > 5:
        win me
        end game
'''


def run(*args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def api_error(fn, *args, **kwargs) -> str:
    """The RulesError ``fn`` raises (any other exception fails the test)."""
    with pytest.raises(RulesError) as info:
        fn(*args, **kwargs)
    return str(info.value)


# ----------------------------------------------------------------------------- files: extends and logs
SECRET = "TOP-SECRET-LINE"


@pytest.fixture
def secret(tmp_path) -> Path:
    """A file outside the folder of the rules under test, whose content must never be shown."""
    path = tmp_path / "outside" / "secret.rules"
    path.parent.mkdir()
    path.write_text(SECRET + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("target", ["/etc/passwd", "/proc/self/environ", "/dev/zero", "/dev/stdin",
                                    "../outside/secret.rules", "sub/../../outside/secret.rules",
                                    "SECRET_ABS"])
def test_extends_reads_no_file_outside_the_variants_folder(tmp_path, secret, target):
    target = str(secret) if target == "SECRET_ABS" else target
    variant = write(tmp_path, "game/variant.rules", f'extends "{target}"\n')
    result = run("validate", variant)
    assert result.exit_code == 1
    assert SECRET not in result.stdout and "root:" not in result.stdout and "PATH=" not in result.stdout
    assert "variant.rules:1:1: error:" in result.stdout
    message = api_error(rulewright.load, str(variant))
    assert SECRET not in message and "root:" not in message


def test_extends_refuses_a_link_leading_outside_and_a_device_or_pipe(tmp_path, secret):
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "link.rules").symlink_to(secret)
    os.mkfifo(folder / "pipe.rules")  # opening it would wait for a writer for ever
    for name, why in (("link.rules", "leads outside"), ("pipe.rules", "not a regular file")):
        variant = write(tmp_path, f"game/v-{name}", f'extends "{name}"\n')
        result = run("validate", variant)
        assert result.exit_code == 1 and why in result.stdout and SECRET not in result.stdout


def test_extends_beside_and_below_the_variant_and_shipped_names_still_work(tmp_path):
    write(tmp_path, "game/bases/count.rules", BASE)
    variant = write(tmp_path, "game/v.rules", 'extends "bases/count.rules"\nvar total = 1\n')
    assert run("validate", variant).exit_code == 0
    shipped = write(tmp_path, "game/fast.rules", 'extends "biplane"\n')
    assert run("validate", shipped).exit_code == 0


def test_a_file_named_on_the_command_line_must_be_a_bounded_regular_file(tmp_path):
    from rulewright.interpreter.variants import MAX_RULES_BYTES
    result = run("validate", "/dev/zero")
    assert result.exit_code == 1 and "not a regular file" in result.stdout + result.stderr
    big = tmp_path / "big.rules"
    big.write_text("# " + "x" * MAX_RULES_BYTES + "\n")
    result = run("validate", big)
    assert result.exit_code == 1 and "too large" in result.stdout + result.stderr
    for option in ("--moves", "--load"):
        result = run("play", "tic-tac-toe", option, "/dev/zero")
        assert result.exit_code == 1 and "not a regular file" in result.stderr


def _log(tmp_path: Path, game: str) -> Path:
    path = tmp_path / "logs" / "log.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps({"format": "rulewright-log", "version": 1, "game": game, "players": 2,
                                "options": {}, "seed": 1, "moves": [], "outcome": None}))
    return path


@pytest.mark.parametrize("game", ["/etc/passwd", "/proc/self/environ", "/dev/zero", "SECRET_ABS",
                                  "../outside/secret.rules"])
def test_replay_reads_only_shipped_games_and_rules_beside_the_log(tmp_path, secret, game):
    log = _log(tmp_path, str(secret) if game == "SECRET_ABS" else game)
    result = run("replay", log)
    assert result.exit_code == 1 and result.stderr.startswith("error: ")
    assert SECRET not in result.output and "root:" not in result.output and "--rules" in result.stderr


def test_replay_of_rules_beside_the_log_or_named_on_the_command_line(tmp_path, secret):
    rules = write(tmp_path, "logs/count.rules", BASE)
    assert run("replay", _log(tmp_path, str(rules))).exit_code == 0
    assert run("replay", _log(tmp_path, "count.rules")).exit_code == 0
    elsewhere = write(tmp_path, "elsewhere/count.rules", BASE)
    log = _log(tmp_path, str(elsewhere))
    assert run("replay", log).exit_code == 1
    assert run("replay", log, "--rules", elsewhere).exit_code == 0
