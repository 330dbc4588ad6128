"""docs/architecture.md's "Where to change what" is true: every file it cites exists.

A path with a folder is read from the project's root or from interpreter/; a bare file name from the
folder of the path cited last before it in the same row ("`interpreter/check/statement_checks.py` or
`structure_checks.py`"), as a reader takes it."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
CITED = re.compile(r"(?<![\w./-])((?:[\w-]+/)*[\w-]+\.(?:py|lark|md))\b")


def _rows() -> list:
    text = DOC.read_text(encoding="utf-8")
    table = text.split("## Where to change what", 1)[1].split("\n## ", 1)[0]
    return [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| to add")]


def missing_files(rows: list, root: Path) -> list:
    """The files cited in ``rows`` that do not exist under ``root``, each with the row's first words."""
    missing = []
    for row in rows:
        folder = None
        for name in CITED.findall(row):
            if "/" in name:
                found = next((base / name for base in (root, root / "interpreter") if (base / name).is_file()), None)
                folder = found.parent if found else None
            else:
                found = folder / name if folder and (folder / name).is_file() else None
            if found is None:
                missing.append((name, row.split("|")[1].strip()))
    return missing


def test_where_to_change_what_cites_only_files_that_exist():
    rows = _rows()
    assert len(rows) >= 20 and sum(len(CITED.findall(r)) for r in rows) >= 60  # the table was found and read
    assert missing_files(rows, ROOT) == []


def test_a_file_that_does_not_exist_is_found():
    rows = ["| a board kind | `interpreter/boards/base.py`, `grid_board.py`, `engine/nowhere.py` |",
            "| a check | `interpreter/check/checker.py` or `structure_checks.py` |"]
    assert missing_files(rows, ROOT) == [("grid_board.py", "a board kind"), ("engine/nowhere.py", "a board kind")]
