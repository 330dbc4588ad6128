"""Every assumption a game's page declares rests on the rulebook: each item of its "Assumptions"
section quotes the sentence (or sentences) it reads, so a reader can check the reading against the
rulebook, and says why the rulebook leaves the point open ("Open: ...") or that the rulebook in fact
settles it ("Settled by the rulebook, not open") (issue 39, item 4)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

PAGES = sorted((Path(__file__).resolve().parents[1] / "docs" / "games").glob("*.md"))
ITEM = re.compile(r"^(?:\d+\.|-) ", re.M)
# a quoted sentence: words between straight or curly double quotes, across lines
QUOTE = re.compile(r"[\"“][^\"”]*?\w+[^\"”]*?\s\w+[^\"”]*?[\"”]", re.S)
# why the rulebook leaves the point open, or that the rulebook answers it
OPEN_OR_SETTLED = re.compile(r"\b[Oo]pen:|Settled by the rulebook, not open")


def assumptions(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    m = re.search(r"^## Assumptions[^\n]*\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert m, f"{page.name} has no Assumptions section"
    starts = [s.start() for s in ITEM.finditer(m.group(1))]
    return [m.group(1)[a:b].strip() for a, b in zip(starts, starts[1:] + [len(m.group(1))])]


def test_every_game_page_declares_assumptions():
    assert len(PAGES) == 5
    for page in PAGES:
        assert len(assumptions(page)) > 5, page.name


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_every_assumption_quotes_the_sentence_it_rests_on(page):
    missing = [item.splitlines()[0] for item in assumptions(page) if not QUOTE.search(item)]
    assert not missing, f"{page.name}: assumptions without a quoted sentence: {missing}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_every_assumption_says_why_the_rulebook_leaves_it_open_or_that_it_settles_it(page):
    missing = [item.splitlines()[0] for item in assumptions(page) if not OPEN_OR_SETTLED.search(item)]
    assert not missing, f"{page.name}: assumptions neither open nor settled: {missing}"
