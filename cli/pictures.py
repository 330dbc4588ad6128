"""`show --svg FILE` and `--png FILE`: the screen as a picture (interpreter/present/svg.py), and a PNG made from
it by the first converter this machine has (rsvg-convert, or a headless Chromium)."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from rulewright.dsl.errors import OptionError

CHROMIUMS = ("chromium", "chromium-browser", "google-chrome")


def write_svg(path: str, svg: str) -> None:
    try:
        Path(path).write_text(svg, encoding="utf-8")
    except OSError as exc:
        raise OptionError(f"cannot write {path}: {exc.strerror or exc}") from None


def write_png(path: str, svg: str) -> None:
    """A PNG of the picture; a clear error when no converter is installed."""
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "picture.svg"
        source.write_text(svg, encoding="utf-8")
        rsvg = shutil.which("rsvg-convert")
        chromium = next((c for c in map(shutil.which, CHROMIUMS) if c), None)
        if rsvg:
            command = [rsvg, "-o", str(Path(path).resolve()), str(source)]
        elif chromium:
            width, height = _size(svg)
            command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                       "--disable-background-networking", "--disable-component-update", "--disable-sync",
                       f"--user-data-dir={Path(tmp) / 'profile'}", "--hide-scrollbars",
                       f"--window-size={width},{height}", f"--screenshot={Path(path).resolve()}", source.as_uri()]
        else:
            raise OptionError("no converter from SVG to PNG is installed (rsvg-convert or chromium); "
                              "use --svg FILE instead")
        try:
            done = subprocess.run(command, capture_output=True, timeout=120, env={**os.environ, "HOME": tmp})
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise OptionError(f"the PNG converter failed: {exc}") from None
        if done.returncode != 0 or not Path(path).exists():
            raise OptionError(f"the PNG converter failed: {done.stderr.decode(errors='replace').strip()[-300:]}")


def _size(svg: str) -> tuple:
    import re
    m = re.search(r'width="(\d+)" height="(\d+)"', svg)
    return (int(m.group(1)), int(m.group(2))) if m else (800, 600)
