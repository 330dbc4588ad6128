"""`rulewright manual GAME --out DIR`: a game's manual written from its rules file (interpreter/present/manual.py,
interpreter/play/showcase.py, cli/manual.py). Each shipped game's manual names what its rules declare, in
the rules' order; a manual written by the command carries its pictures, its example turn and its notes
from self-play; a variant's says first what it changes; names and texts from a rules file are escaped,
and nothing secret reaches the page."""
from __future__ import annotations

import html
import re

import pytest

from rulewright.dsl import ast
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import find_rules, load_rules
from rulewright.interpreter.check.symbols import symbols
from rulewright.interpreter.present.document import to_html
from rulewright.interpreter.present.manual import Manual, anchor, words
from rulewright.interpreter.shipped import shipped_games
from rulewright.interpreter.variants import base_file


def plain(page: str) -> str:
    """What a reader of the HTML page reads: its text, tags taken out, entities read; each heading's
    anchor kept as a mark, ⟦anchor⟧, where the heading begins."""
    text = re.sub(r"<style>.*?</style>", " ", page, flags=re.S)
    text = re.sub(r'<h\d id="([^"]+)">', r" ⟦\1⟧ ", text)
    text = re.sub(r"</?(?:span|strong|code|a)\b[^>]*>", "", text)  # inline: no space between words
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def manual_text(name: str) -> str:
    """The manual of a shipped game as the page reads, without play (the rules' part only)."""
    path = find_rules(name)
    rules = load_rules(name)
    text = path.read_text(encoding="utf-8")
    own = parse(text, str(path)) if "\nextends " in text else None  # a long game's file is not parsed again
    extends = next((d for d in own.decls if isinstance(d, ast.Extends)), None) if own else None
    base = load_rules(str(base_file(extends.base, path, shipped_games()))) if extends else None
    blocks = Manual(rules, own if extends else None, base).blocks()
    return plain(to_html(blocks, "manual"))


class InOrder:
    """Finds texts in a page one after another, each after the one found before."""

    def __init__(self, text: str, start: str):
        self.text = " ".join(text.split())
        self.at = self.text.find(start)
        assert self.at >= 0, f"no {start!r} in the manual"

    def next(self, wanted: str, what: str) -> None:
        wanted = " ".join(str(wanted).split())
        found = self.text.find(wanted, self.at)
        assert found >= 0, f"{what}: {wanted!r} is not in the manual after place {self.at} (or out of order)"
        self.at = found + len(wanted)


def _named_in_order(page: InOrder, body, what: str) -> int:
    """Every step and decision of a block, in the rules' order, the AST walked statement by statement:
    a step by its label, a choose by its words (its 'as' text, else its prompt), a choose block by each
    alternative, each followed by what it holds."""
    found = 0
    for s in body:
        if isinstance(s, ast.Step):
            page.next(f"Step “{s.label}”", what)
            found += 1 + _named_in_order(page, s.body, what)
        elif isinstance(s, ast.ChooseBlock):
            for alt in s.alternatives:
                page.next(f"“{alt.label}”", f"{what}, a choice")
                found += _named_in_order(page, alt.body, what)
            found += 1
        elif isinstance(s, (ast.Choose, ast.ChooseEach)):
            c = s.choice if isinstance(s, ast.ChooseEach) else s
            page.next(f"“{words(c.text if c.text is not None else c.prompt)}”" if c.text or c.prompt else c.var,
                      f"{what}, a decision")
            found += 1 + (_named_in_order(page, s.body, what) if isinstance(s, ast.ChooseEach) else 0)
        else:
            for inner in ast.blocks_of(s):
                found += _named_in_order(page, inner, what)
    return found


def _shown(cell) -> str:
    """A table's cell or an option's value as the manual shows it: a name or a text as written, yes and no
    as the rules write them, none as none."""
    if isinstance(cell, ast.Name):
        return cell.id
    v = cell.value
    return "none" if v is None else ("true" if v else "false") if isinstance(v, bool) else str(v)


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_each_shipped_manual_names_every_option_table_row_step_and_decision_in_the_rules_order(name):
    text = manual_text(name)
    sym = symbols(load_rules(name))
    page = InOrder(text, "⟦options⟧") if sym.options else None
    for option, values in sym.option_values.items():
        page.next(option, "option")
        for v in values:
            page.next(_shown(ast.Literal(v)), f"option {option}'s values")
    rows = 0
    for table in sym.tables.values():
        page = InOrder(text, f"⟦{anchor('table', table.name)}⟧")
        for row in table.rows:
            for cell in row.values:  # every cell of every row, across each row and down the table
                if isinstance(cell, (ast.Literal, ast.Name)):
                    page.next(_shown(cell), f"table {table.name}")
            rows += 1
    named = 0
    for kind, block in sym.blocks.items():
        named += _named_in_order(InOrder(text, f"⟦{anchor('block', kind)}⟧"), block.body, f"the {kind} block")
    for proc_name, proc in sym.procs.items():
        named += _named_in_order(InOrder(text, f"⟦{anchor('procedure', proc_name)}⟧"), proc.body,
                                 f"procedure {proc_name}")
    assert named > 0  # the walk met decisions (and rows, for a game with tables)


def test_the_manual_of_magnificent_flying_machines_names_every_card_with_pictures(tmp_path, command):
    result = command("manual", "magnificent-flying-machines", "--out", tmp_path / "man", "--games", "4",
                     "--workers", "1")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "man"
    page = (folder / "magnificent-flying-machines.html").read_text(encoding="utf-8")
    markdown = (folder / "magnificent-flying-machines.md").read_text(encoding="utf-8")
    text = plain(page)
    sym = symbols(load_rules("magnificent-flying-machines"))
    for table in ("pilot", "equipment", "card"):
        names = [r.values[0].value for r in sym.tables[table].rows]
        assert len(names) > 10
        for n in names:
            assert n in text, f"{table} {n!r} is not named"
    for picture in ("magnificent-flying-machines-start.svg", "magnificent-flying-machines-mid.svg"):
        drawn = (folder / picture).read_text(encoding="utf-8")
        assert drawn.lstrip().startswith("<svg") and "Dashboards" in drawn
        assert f'src="{picture}"' in page and f"]({picture})" in markdown
    # the example turn: moves of one player, each with what it did; the notes: 4 games, the first seat
    example = text[text.find("An example turn"):text.find("Notes from self-play")]
    assert re.search(r"1 player \d ", example), example[:400]
    notes = text[text.find("Notes from self-play"):]
    assert "4 seeded games" in notes and "First seat:" in notes and "95% interval" in notes


def test_a_variant_manual_says_first_what_it_changes_and_its_effect(tmp_path, command):
    result = command("manual", "biplane-more-ammo", "--out", tmp_path, "--games", "4", "--workers", "1")
    assert result.exit_code == 0, result.output
    text = plain((tmp_path / "biplane-more-ammo.html").read_text(encoding="utf-8"))
    changes = text.find("What this variant changes")
    assert 0 < changes < text.find("What the game is")
    section = text[changes:text.find("What the game is")]
    assert "Adds 4 rows to the table card" in section and "“Shoot D3”" in section
    assert "Its measured effect" in section and "base variant change" in section
    assert re.search(r"first seat wins \d+% \(95% interval", section)


def test_a_changed_default_is_said_and_the_base_plays_at_its_own():
    text = manual_text("planes-short-track")
    assert "Changes the option last_space, whose default becomes 8" in text
    assert "What this variant changes" not in manual_text("planes")


BASE = '''# A small game to be amended.
game "Base"
players 2

option pace: slow | fast

def bonus() = 1

player var score = 0

procedure rest(p):
    p.score += bonus()

turn:
    step "act":
        choose by me prompt "what now?":
            "gain":
                me.score += 2
            "lose":
                me.score -= 1
            "rest":
                rest(me)

end when round_number >= 3 after round
'''

ERRATA = '''# The base with its errata: a new course of action, one fewer, more pace.
extends "base.rules"
game "Base: errata"

add to option pace: frantic default frantic
def bonus() = 2

table prize(name, points):
    "cup", 3

in step "act", add before "rest":
    "double" if me.score > 0:
        me.score += me.score

in step "act", remove "lose"

after step "act":
    log "{me} has {me.score}"
'''


def test_a_variant_manual_says_each_piece_and_erratum_in_words(tmp_path, command):
    (tmp_path / "base.rules").write_text(BASE, encoding="utf-8")
    (tmp_path / "errata.rules").write_text(ERRATA, encoding="utf-8")
    result = command("manual", tmp_path / "errata.rules", "--out", tmp_path / "out", "--games", "0")
    assert result.exit_code == 0, result.output
    text = plain((tmp_path / "out" / "errata.html").read_text(encoding="utf-8"))
    changes = text[text.find("What this variant changes"):text.find("What the game is")]
    page = InOrder(changes, "These rules extend Base (base.rules)")
    for said in ("The base with its errata", "Adds the values frantic to the option pace, whose default becomes "
                 "frantic (line 5)", "Replaces the base's def bonus (line 6)", "Adds the table prize (line 8)",
                 "In the step “act”, adds the courses of action before “rest” (line 11): “double” if me.score > 0",
                 "In the step “act”, removes the course of action “lose” (line 15)",
                 "Does more after the step “act” (line 17): log \"{me} has {me.score}\""):
        page.next(said, "a change")
    assert "A small game to be amended." in text[text.find("What the game is"):]
    assert "“gain”" in text and "“double”" in text and "“lose”" not in text[text.find("What the game is"):]


HOSTILE = '''# A game whose names and texts would be markup: <b>bold</b> and **stars**
game "<script>alert(1)</script> & co"
players 2..2

option mood: calm | wild "<img src=x onerror=alert(2)>"

table card(name, says):
    "<i>Ace</i>", "| a pipe | and `ticks` and [a](javascript:alert(3))"

player var score = 0
player var pick = 0 secret

round:
    step "<em>choose</em>":
        each p in players secretly choose x in [7, 8, 9] as "keep {x}" shown "keeps a number" \\
            prompt "which number? <u>secret</u>":
            p.pick = x
            log "you keep {x}" to p
    for p in turn_order():
        turn p

turn:
    step "score":
        choose c in card as "score {c}" optional "pass"
        if c != none:
            me.score += 1

end when round_number >= 2 after round
'''


def test_names_and_texts_are_escaped_and_no_secret_reaches_the_page(tmp_path, command):
    rules = tmp_path / "hostile.rules"
    rules.write_text(HOSTILE, encoding="utf-8")
    result = command("manual", rules, "--out", tmp_path / "out", "--games", "2", "--workers", "1")
    assert result.exit_code == 0, result.output
    page = (tmp_path / "out" / "hostile.html").read_text(encoding="utf-8")
    markdown = (tmp_path / "out" / "hostile.md").read_text(encoding="utf-8")
    prose = re.sub(r"(?ms)^( *)```.*?^\1```", "", markdown)  # a fenced block of the rules shows them as code
    for raw in ("<script>", "<img src=x", "<i>Ace", "<em>choose", "<u>secret", "<b>bold"):
        assert raw not in page and raw not in prose, raw
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert "[a](javascript" not in markdown  # a text's brackets are no link
    text = plain(page)
    assert "<i>Ace</i>" in text and "“keep {x}”" in text
    # the secret picks: named by the rules' words only, never as a value chosen or a private log
    assert not re.search(r"keep [789]\b", text) and "you keep" not in text.replace("you keep {x}", "")
    assert "keeps a number" in text
    # the example turn begins at a secret choice: the table sees only that it was made
    example = text[text.find("An example turn"):text.find("Notes from self-play")]
    assert "a secret choice, told when everyone has chosen" in example
