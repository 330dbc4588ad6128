"""Paper cuts of issue 42 (item 6) that have a test of their own outside the web's: `list` shows an option's
default once, and the README names the adapters by the public paths docs/adapters.md uses. (The web's:
tests/test_web_tables.py; ':quit' saying so: tests/test_cli.py and tests/test_terminal.py.)"""
from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from rulewright.cli.main import app

ROOT = Path(__file__).resolve().parent.parent


def test_list_shows_each_option_value_once():
    out = CliRunner().invoke(app, ["list"]).output
    line = next(line for line in out.splitlines() if "option rows:" in line)
    assert line.strip().startswith("option rows: 4 | 5 | 6 | 7") and "(default 6)" in line
    for line in out.splitlines():
        if line.strip().startswith("option "):
            values = line.split(":", 1)[1].split("(default")[0].split("|")
            assert len(values) == len({v.strip() for v in values}), line


def test_readme_names_the_adapters_by_their_public_paths():
    readme = (ROOT / "README.md").read_text()
    adapters = (ROOT / "docs" / "adapters.md").read_text()
    assert "from rulewright import pettingzoo" in adapters and "rulewright.pettingzoo.env(" in readme
    assert not re.search(r"rulewright\.interpreter\.play\.\w+_adapter", readme)
    import rulewright.pettingzoo  # noqa: F401  (the path the README names imports)
