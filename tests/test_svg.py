"""Pictures: every shipped game drawn as SVG, well formed, and shown by a real headless browser
(Chromium through playwright) like the stored reference, within a tolerance. The browser test skips,
saying why, where Chromium or playwright is absent."""
from __future__ import annotations

import base64
import io
import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rulewright.cli.main import app
from rulewright.interpreter.api import shipped_games
from rulewright.interpreter.present.svg import render_svg
from rulewright.interpreter.testing import played
from typer.testing import CliRunner

GAMES = sorted(shipped_games())
REFERENCES = Path(__file__).parent / "svg_references"
PICTURES = Path(__file__).parent / "rules" / "pictures.rules"  # every kind of component, drawn
CHROMIUM = "/usr/bin/chromium"
SVG = "{http://www.w3.org/2000/svg}"


def picture(name: str) -> str:
    st = played(name)
    return render_svg(st, st.to_move()[0] if st.to_move() else 1)


@pytest.mark.parametrize("name", GAMES)
def test_svg_is_well_formed_and_draws_the_board(name):
    st = played(name)
    root = ET.fromstring(picture(name))
    assert root.tag == SVG + "svg"
    texts = ["".join(t.itertext()) for t in root.iter(SVG + "text")]
    board = st.game.board
    if board is not None:
        spaces = [r.get("data-space") for r in root.findall(SVG + "rect") if r.get("data-space")]
        assert sorted(spaces) == sorted(board.spaces)  # one per space, named for the browser table's clicks
        if board.arrows():
            assert len([x for x in root.findall(SVG + "line") if x.get("marker-end")]) == len(board.arrows())
            assert set(board.spaces) <= set(texts)  # a graph's spaces are named
        else:
            assert "A" in texts and "1" in texts  # a grid's rows and columns
    assert any(t and t.startswith("player 1") for t in texts)


def test_svg_shows_only_the_viewers_view():
    st = played("planes", moves=0)
    hand_2 = set(st.vars["hand"][1]) - set(st.vars["hand"][0])
    def texts(svg):  # a card's title may take two lines
        return " ".join("".join(t.itertext()) for t in ET.fromstring(svg).iter(SVG + "text"))
    mine = texts(render_svg(st, 1))
    assert hand_2 and not any(card in mine for card in hand_2)
    assert all(card in texts(render_svg(st, 2)) for card in hand_2)


def test_show_svg_writes_the_picture(tmp_path):
    out = tmp_path / "t.svg"
    result = CliRunner().invoke(app, ["show", "tic-tac-toe", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    assert ET.parse(out).getroot().tag == SVG + "svg"
    bad = CliRunner().invoke(app, ["show", "tic-tac-toe", "--svg", str(tmp_path / "no" / "t.svg")])
    assert bad.exit_code == 1 and "cannot write" in bad.output and "Traceback" not in bad.output


def _browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)")
    try:
        from playwright.sync_api import sync_playwright  # noqa: F401
        from PIL import Image  # noqa: F401
    except ImportError as exc:
        pytest.skip(f"the browser test needs playwright and pillow ({exc.name} is missing)")


FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def _differs(shot: bytes, reference: Path) -> float:
    """The share of pixels that differ visibly from the reference (1.0 when the sizes differ)."""
    from PIL import Image, ImageChops
    a = Image.open(io.BytesIO(shot)).convert("L")
    b = Image.open(reference).convert("L")
    if a.size != b.size:
        return 1.0
    diff = ImageChops.difference(a, b).point(lambda v: 255 if v > 64 else 0)
    return sum(diff.histogram()[255:]) / (a.size[0] * a.size[1])


def test_every_picture_in_a_headless_browser(tmp_path):
    """Chromium parses each picture (a broken SVG shows as an image of no size) and draws it as the
    reference shows, but for at most 0.05% of the pixels (antialiasing may differ a little; one more
    move on a board changes about 0.1%). The references were drawn with the DejaVu fonts
    (fonts-dejavu-core). RULEWRIGHT_UPDATE_PICTURES=1 stores new references."""
    _browser()
    from playwright.sync_api import sync_playwright
    update = os.environ.get("RULEWRIGHT_UPDATE_PICTURES") == "1"
    failures = []
    with sync_playwright() as p:
        # playwright starts Chromium with a fresh profile of its own (a new --user-data-dir)
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 800, "height": 600})
            for name in GAMES + [str(PICTURES)]:
                data = base64.b64encode(picture(name).encode()).decode()
                page.set_content(f"<html><body style='margin:0'><img id='p' src='data:image/svg+xml;base64,{data}'>"
                                 "</body></html>")
                page.wait_for_function("document.getElementById('p').complete")
                assert page.evaluate("document.getElementById('p').naturalWidth") > 0, f"{name}: not drawn"
                shot = page.locator("#p").screenshot(timeout=20_000)
                name = Path(name).stem  # the small game of tests/rules drawing every component
                reference = REFERENCES / f"{name}.png"
                if update or not reference.exists():
                    reference.write_bytes(shot)
                    continue
                share = _differs(shot, reference)
                if share > 0.0005:
                    (tmp_path / f"{name}.png").write_bytes(shot)
                    failures.append(f"{name}: {share:.1%} of the pixels differ (see {tmp_path / name}.png)")
        finally:
            browser.close()
    assert not failures, "\n".join(failures)


def test_png_where_a_converter_exists(tmp_path):
    if not (shutil.which("rsvg-convert") or shutil.which("chromium")):
        pytest.skip("no SVG to PNG converter (rsvg-convert or chromium) on this machine")
    out = tmp_path / "t.png"
    result = CliRunner().invoke(app, ["show", "tic-tac-toe", "--png", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
