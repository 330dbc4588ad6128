"""The disk cache of checked rules and of `list` (dsl/cache.py): a hit only for the same text of the file
and of every file it extends, and any damage is a miss, never an error."""
from __future__ import annotations

import pytest

from rulewright.dsl import cache
from rulewright.interpreter.variants import read_rules


class Rules:
    """What checked_rules keeps: the texts of every file it came from (and, here, which build made it)."""
    def __init__(self, sources, version):
        self.sources, self.version = sources, version


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_built_once_then_read_back_until_a_base_file_changes(folder, tmp_path):
    base = tmp_path / "base.rules"
    base.write_text("first", encoding="utf-8")
    built = []

    def build():
        built.append(1)
        return Rules({str(base): base.read_text(encoding="utf-8"), "v.rules": "text"}, len(built))
    assert cache.checked_rules("v.rules", "text", build, read_rules).version == 1
    assert cache.checked_rules("v.rules", "text", build, read_rules).version == 1  # read back, not built
    base.write_text("second", encoding="utf-8")
    assert cache.checked_rules("v.rules", "text", build, read_rules).version == 2  # the base changed
    assert cache.checked_rules("v.rules", "other text", build, read_rules).version == 3  # so did the file


def test_damaged_entries_and_an_unusable_folder_are_misses(folder, monkeypatch):
    cache.put("list", "k", [1, 2])
    assert cache.get("list", "k") == [1, 2]
    (folder / "list" / "k.pickle").write_bytes(b"not a pickle")
    assert cache.get("list", "k") is None
    monkeypatch.setenv("RULEWRIGHT_CACHE", "off")
    cache.put("list", "k", [3])
    assert cache.get("list", "k") is None
    monkeypatch.setenv("RULEWRIGHT_CACHE", "/proc/no-such-folder")
    cache.put("list", "k", [3])  # cannot be written: no error
    assert cache.get("list", "k") is None


def test_list_is_the_same_from_the_cache(folder):
    from rulewright.cli import listing
    first = listing.describe_games()
    assert list((folder / "list").iterdir())
    assert listing.describe_games() == first
    assert [g["name"] for g in first] == sorted(g["name"] for g in first)
    biplane = next(g for g in first if g["name"] == "biplane")
    assert biplane["option_descriptions"]["skill"] == "more cards for skilled players"
