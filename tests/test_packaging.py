"""What an installed (not editable) rulewright holds: every package of the source tree is listed in
pyproject.toml, or a wheel would leave it out and `import` fail only after installing."""
from __future__ import annotations

import tomllib
from pathlib import Path

import rulewright

ROOT = Path(rulewright.__file__).resolve().parent


def test_every_package_of_the_tree_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(config["packages"])
    found = {"rulewright"}
    for top in ("dsl", "interpreter", "cli", "games"):
        for init in (ROOT / top).rglob("__init__.py"):
            found.add(".".join(("rulewright",) + init.parent.relative_to(ROOT).parts))
    assert found - listed == set()
    assert listed - found == set()
