"""What every part of a picture shares: the colours as ink and as paper, the fonts, and texts made safe
for SVG (escaped, wrapped)."""
from __future__ import annotations

from xml.sax.saxutils import escape

from rulewright.dsl.texts import xml_safe

# the screen's colour names as ink on white paper
INK = {"red": "#c62828", "green": "#2e7d32", "yellow": "#b58900", "blue": "#1565c0", "magenta": "#ad1457",
       "cyan": "#00838f", "white": "#9e9e9e", "grey": "#616161"}
# the same colours as the paper of a card or token
PAPER = {"red": "#ffebee", "green": "#e8f5e9", "yellow": "#fff8e1", "blue": "#e3f2fd", "magenta": "#fce4ec",
         "cyan": "#e0f7fa", "white": "#ffffff", "grey": "#f5f5f5"}
FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif"
MONO = "DejaVu Sans Mono, Liberation Mono, monospace"
TEXT_WIDTH = 96   # characters in a line of the text under the board


def wrap(text: str, width: int) -> list:
    lines, line = [], ""
    for word in text.split(" "):
        while len(word) > width:  # a word longer than a line is cut
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:width])
            word = word[width:]
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + ([line] if line else [])


def xml(text: str) -> str:
    """A rules text as XML character data: escaped, and what XML forbids even escaped replaced."""
    return escape(xml_safe(text))


def attribute(text: str) -> str:
    """A text as an XML attribute's value (in double quotes)."""
    return escape(xml_safe(str(text)), {'"': "&quot;"})


def text(x, y, text, size=12, anchor="start", weight="normal", fill="#212121", family=FONT) -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-family="{family}" font-size="{size}" '
            f'text-anchor="{anchor}" font-weight="{weight}" fill="{fill}">{xml(text)}</text>')
