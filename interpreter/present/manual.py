"""A game's manual, written from its rules file: what the game is, its players and options, its components
(every table with its rows), the set-up, the round and the turn step by step with each decision's prompt
and choices in the rules' own words, the end and the scoring, every procedure, the declared assumptions;
then what play shows (pictures, an example turn, notes from self-play: made by
interpreter/play/showcase.py, handed in as plain data). For a variant, a first section says what it
changes. The manual is a document (document.py), written as Markdown and as HTML.

The rules' comments are the author's account of each declaration (where the rulebook says it): the
comment lines just above a declaration or a step, and the one at the end of its line, are shown with it
as notes, set apart from what the manual says itself. Nothing here knows a game.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Optional

from rulewright.dsl import ast
from rulewright.interpreter.check.secrecy.messages import unparse
from rulewright.interpreter.check.symbols import symbols
from rulewright.interpreter.present.document import Code, Heading, Item, Items, Link, Para, Picture, Source, Strong, \
    Table, Words, line
from rulewright.interpreter.variants import decl_key
from rulewright.interpreter.engine.builtin_names import ME

BLOCK_TITLES = {"setup": "Set-up", "round": "A round", "turn": "A turn", "scoring": "Scoring"}
GOES_ON = "Goes on in "  # the line naming the procedures a block calls
STEP_LINES_MOST = 12  # a step's rules are shown beside it up to this many lines


# ----------------------------------------------------------------------------------------- the rules' words
def words(node) -> str:
    """A text of the rules as they write it: a template's letters, its holes as {expression}."""
    if isinstance(node, ast.Template):
        return "".join(p if isinstance(p, str) else "{" + unparse(p) + "}" for p in node.parts)
    if isinstance(node, ast.Literal) and isinstance(node.value, str):
        return node.value
    return unparse(node) if node is not None else ""


def humane(name: str) -> str:
    """A declared name as words: deal_cards -> deal cards."""
    return name.replace("_", " ")


def anchor(kind: str, name: str) -> str:
    return f"{kind}-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


class RulesText:
    """The rules' files as text: the comments just above a line and at its end, an expression's source."""

    _RULE = re.compile(r"^\s*[-=#*~]{3,}\s*")  # a comment's rule of dashes before its heading

    def __init__(self, rules: ast.RulesFile):
        self.lines = {name: text.split("\n") for name, text in rules.sources.items()}

    def about(self, span) -> str:
        """The comment block just above the line of ``span`` and the comment at that line's end, as one text."""
        lines = self.lines.get(span.file, [])
        found, n = [], span.line - 2
        while 0 <= n < len(lines) and lines[n].strip().startswith("#"):
            found.append(self._text(lines[n].strip()))
            n -= 1
        found.reverse()
        if 0 < span.line <= len(lines):
            found.append(self._text(_end_comment(lines[span.line - 1])))
        return " ".join(t for t in found if t)

    def opening(self, file: str) -> str:
        """The comment that opens a file (before its first declaration)."""
        found = []
        for text in self.lines.get(file, []):
            if not text.strip().startswith("#"):
                break
            found.append(self._text(text.strip()))
        return " ".join(t for t in found if t)

    def code(self, node) -> str:
        """An expression as the rules write it (its lines joined), or rebuilt from the tree when its place
        is unknown."""
        span = node.span
        lines = self.lines.get(span.file)
        if not lines or not span.end_line or span.end_line > len(lines) or span.end_line - span.line > 20:
            return unparse(node)
        if span.end_line == span.line:
            text = lines[span.line - 1][span.column - 1:span.end_column - 1]
        else:
            text = " ".join([lines[span.line - 1][span.column - 1:]] + lines[span.line:span.end_line - 1]
                            + [lines[span.end_line - 1][:span.end_column - 1]])
        return " ".join(text.replace(" \\ ", " ").split()) or unparse(node)  # a line's continuation joined

    def body(self, span, most: int) -> str:
        """The lines under a statement's head (its block), dedented, without the comments that open the
        next statement; '' when they are more than ``most``."""
        lines = self.lines.get(span.file, [])
        head = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
        indent = len(head) - len(head.lstrip())
        body = []
        for text in lines[span.line:]:  # the block: the lines indented deeper than its head
            if text.strip() and len(text) - len(text.lstrip()) <= indent:
                break
            body.append(text)
        while body and (not body[-1].strip() or body[-1].strip().startswith("#")):
            body.pop()
        if not body or len(body) > most:
            return ""
        cut = min(len(x) - len(x.lstrip()) for x in body if x.strip())
        return "\n".join(x[cut:].rstrip() for x in body)

    def _text(self, comment: str) -> str:
        """A comment's words; a heading (after a rule of dashes) ends with a full stop, so that the words
        that follow it read apart."""
        text = comment.lstrip("#").strip()
        words = self._RULE.sub("", text).strip()
        return words + "." if words != text and words and words[-1] not in ".:;!?" else words


def _end_comment(text: str) -> str:
    """What follows a '#' that is no part of a text literal on a line of code ('' if none)."""
    quoted = escaped = False
    for i, ch in enumerate(text):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = quoted
        elif ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return "#" + text[i + 1:] if text[:i].strip() else ""
    return ""


# ----------------------------------------------------------------------------------------- the manual
class Manual:
    """The blocks of one rules file's manual. ``own``: the variant's own file as parsed (None for a game
    that extends nothing); ``base``: the game it extends, merged; ``shown``: what play shows (see
    showcase.py; None: nothing played); ``page``: where the game's assumptions are declared, if
    elsewhere than in the rules."""

    def __init__(self, rules: ast.RulesFile, own: Optional[ast.RulesFile] = None,
                 base: Optional[ast.RulesFile] = None, shown: Optional[dict] = None, page: Optional[str] = None):
        self.rules, self.own, self.base, self.shown, self.page = rules, own, base, shown, page
        self.sym = symbols(rules)
        self.text = RulesText(rules)
        self.out: list = []

    def blocks(self) -> list:
        sym = self.sym
        self.out = [Heading(1, sym.game_name),
                    Para(line(f"A manual written by rulewright from the rules file {Path(self.rules.filename).name}",
                              ", laid over its base" if self.own is not None else "",
                              ". Its words are the rules' own: read it beside the rulebook, section by section."))]
        if self.own is not None:
            self._variant()
        self._game()
        self._components()
        for kind in ("setup", "round", "turn"):
            block = sym.blocks.get(kind)
            if block is not None:
                self._section(2, BLOCK_TITLES[kind], anchor("block", kind), block)
        self._end()
        self._procedures()
        self._assumptions()
        if self.shown is not None:
            self.out += played(self.shown)
        return self.out

    def code(self, node) -> Code:
        return Code(self.text.code(node))

    def note(self, span) -> None:
        text = self.text.about(span)
        if text:
            self.out.append(Para(line(text), note=True))

    # -------------------------------------------------------------------- what the game is
    def _game(self) -> None:
        sym = self.sym
        self.out.append(Heading(2, "What the game is", "game"))
        # a variant's own opening comment is its change's: the game is the base's
        opening = self.text.opening(self.base.filename if self.base is not None else self.rules.filename)
        if opening:
            self.out.append(Para(line(opening), note=True))
        low, high = sym.player_range
        self.out.append(Para(line(Strong("Players:"), " ", f"{low}" if low == high else f"{low} to {high}", ".")))
        if sym.options:
            self.out.append(Heading(3, "Options", "options"))
            self.out.append(Para(line("Each option is chosen before play; its first value is the default.")))
            rows = []
            for name, decl in sym.options.items():
                values = sym.option_values[name]
                rows.append((line(Code(name)), line(" | ".join(map(_value_text, values))),
                             line(_value_text(values[0])), line(decl.about),
                             line(self.text.about(decl.span))))
            self.out.append(Table(("option", "values", "default", "what it does", "notes"), tuple(rows)))
        if sym.requires:
            self.out.append(Heading(3, "Requirements", "requirements"))
            self.out.append(Items(tuple(Item(line(Words(r.message), " (", self.code(r.cond), ")"))
                                        for r in sym.requires)))

    # -------------------------------------------------------------------- components
    def _components(self) -> None:
        sym = self.sym
        self.out.append(Heading(2, "Components", "components"))
        for b in sym.boards:
            self.out.append(Heading(3, f"Board {humane(b.name)}", anchor("board", b.name)))
            self.note(b.span)
            spec = " ".join([b.spec.kind] + [unparse(w) for w in b.spec.words])
            self.out.append(Para(line("A ", Code(spec), " board",
                                      *((" when ", self.code(b.guard)) if b.guard is not None else ()), ".")))
        for t in sym.tables.values():
            self.out.append(Heading(3, f"Table {humane(t.name)}", anchor("table", t.name)))
            self.note(t.span)
            copies = any(r.copies != 1 for r in t.rows)
            head = tuple(t.columns) + (("copies",) if copies else ())
            rows = tuple(tuple(line(_cell(v)) for v in r.values)
                         + ((line(_value_text(r.copies)),) if copies else ()) for r in t.rows)
            total = sum(r.copies for r in t.rows if isinstance(r.copies, int))
            self.out.append(Para(line(f"{len(t.rows)} rows", f", {total} items" if copies else "", ":")))
            self.out.append(Table(head, rows))

    # -------------------------------------------------------------------- blocks and procedures
    def _section(self, level: int, title: str, mark: str, decl) -> None:
        self.out.append(Heading(level, title, mark))
        self.note(decl.span)
        outline = self.outline(decl.body)
        self.out.append(Items(tuple(outline)) if outline else Para(line("Nothing here asks or names a step.")))

    def outline(self, body) -> list:
        """The steps, decisions and procedures called of a block, in the rules' order."""
        items: list = []
        for s in body:
            if isinstance(s, ast.Step):
                about = self.text.about(s.span)
                written = self.text.body(s.span, STEP_LINES_MOST)
                children = (((Para(line(about), note=True),) if about else ()) + _listed(self.outline(s.body))
                            + ((Source(written),) if written else ()))
                items.append(Item(line(Strong("Step"), " ", Words(s.label)), children))
            elif isinstance(s, (ast.Choose, ast.ChooseBlock, ast.ChooseEach)):
                items.append(self.decision(s))
            else:
                called = _procedures_called(s, self.sym.procs)
                if called:
                    items.append(Item(line(GOES_ON, *(Link(humane(c), anchor("procedure", c)) for c in called))))
                for inner in ast.blocks_of(s):
                    items += self.outline(inner)
        return _calls_joined(items)

    def decision(self, s) -> Item:
        if isinstance(s, ast.ChooseEach):
            head = line(Strong("Each"), " ", Code(s.player_var), " in ", self.code(s.players),
                        " may choose (a reaction window)" if s.window else " chooses")
            return Item(head + self._prompt(s.choice.prompt), _listed(self._choices(s.choice) + self.outline(s.body)))
        by = line(" by ", self.code(s.by) if s.by is not None else Code(ME))  # unnamed: the player to move
        head = line(Strong("Decision"), *by) + self._prompt(s.prompt)
        if isinstance(s, ast.ChooseBlock):
            alts = [Item(line(Words(a.label), *((" if ", self.code(a.guard)) if a.guard is not None else ())),
                         _listed(self.outline(a.body))) for a in s.alternatives]
            if s.secret:
                alts.append(Item(line("Secret: the others see only that a choice was made.")))
            return Item(head, _listed(alts))
        return Item(head, _listed(self._choices(s)))

    def _prompt(self, prompt) -> tuple:
        return line(": asks ", Words(words(prompt))) if prompt is not None else ()

    def _choices(self, c: ast.Choose) -> list:
        where = (" where ", self.code(c.where)) if c.where is not None else ()
        shown = (" written ", Words(words(c.text))) if c.text is not None else (" named by the value's own text",)
        items = [Item(line("Choices: each ", Code(c.var), " in ", self.code(c.source), *where, *shown, "."))]
        if c.optional is not None:
            items.append(Item(line("May decline: ", Words(words(c.optional)), ".")))
        if c.secret:
            items.append(Item(line("Secret: the others see ", Words(words(c.shown)), ".") if c.shown is not None
                              else line("Secret: the others see only that a choice was made.")))
        if c.automatic:
            items.append(Item(line("A single choice left is taken without asking.")))
        return items

    def _procedures(self) -> None:
        if not self.sym.procs:
            return
        self.out.append(Heading(2, "In detail: the procedures", "procedures"))
        self.out.append(Para(line("Each procedure of the rules, in the rules' order, with its steps and decisions.")))
        for name, proc in self.sym.procs.items():
            params = f"({', '.join(proc.params)})" if proc.params else ""
            self.out.append(Heading(3, f"{humane(name)}{params}", anchor("procedure", name)))
            self.note(proc.span)
            outline = self.outline(proc.body)
            if outline:
                self.out.append(Items(tuple(outline)))

    # -------------------------------------------------------------------- the end and the scoring
    def _end(self) -> None:
        sym = self.sym
        self.out.append(Heading(2, "The end and the scoring", "end"))
        ends = [Item(line("The game ends when ", self.code(e.cond), f", checked after each {e.timing}."),
                     _listed([Item(line(about))] if (about := self.text.about(e.span)) else []))
                for e in sym.end_conditions]
        ends.append(Item(line("It also ends where the rules say ", Code("end game"), ".")))
        self.out.append(Items(tuple(ends)))
        scoring = sym.blocks.get("scoring")
        if scoring is not None:
            self._section(3, BLOCK_TITLES["scoring"], anchor("block", "scoring"), scoring)
        self.out.append(Heading(3, "Who wins", "winner"))
        if sym.rank is not None:
            self.note(sym.rank.span)
        keys = sym.rank_keys or (("score", False),)
        ranked = _joined([line(Code(k), " (lowest first)" if ascending else " (highest first)")
                          for k, ascending in keys], flat=True)
        self.out.append(Para(line("The players are ranked by ", *ranked, "; the first wins, unless the rules name "
                                  "the winners (", Code("win"), ").")))
        if sym.teams is not None:
            self.out.append(Para(line("Teams: ", self.code(sym.teams.teams), ".")))

    # -------------------------------------------------------------------- assumptions
    def _assumptions(self) -> None:
        self.out.append(Heading(2, "Declared assumptions", "assumptions"))
        self.out.append(Para(line("The rules file declares its readings in its comments, shown above as notes "
                                  "beside what they explain.")))
        if self.page:
            self.out.append(Para(line("The readings where the rulebook is unclear, each with the sentences it "
                                      "rests on, are declared in ", Code(self.page), " (section ",
                                      Words("Assumptions"), ").")))

    # -------------------------------------------------------------------- a variant
    def _variant(self) -> None:
        self.out.append(Heading(2, "What this variant changes", "changes"))
        extends = next(d for d in self.own.decls if isinstance(d, ast.Extends))
        base_name = symbols(self.base).game_name if self.base is not None else extends.base
        self.out.append(Para(line("These rules extend ", Strong(base_name), f" ({extends.base}) and change it so:")))
        opening = self.text.opening(self.own.filename)
        if opening:
            self.out.append(Para(line(opening), note=True))
        base_keys = {decl_key(d, i) for i, d in enumerate(self.base.decls)} if self.base is not None else set()
        changes = [self._change(d, i, base_keys) for i, d in enumerate(self.own.decls)
                   if not isinstance(d, (ast.Extends, ast.GameDecl))]
        self.out.append(Items(tuple(changes)) if changes else Para(line("Nothing but its name.")))
        if self.shown and self.shown.get("effect"):
            self.out += effect(self.shown["effect"])

    def _change(self, d, i, base_keys) -> Item:
        at = f" (line {d.span.line})"
        if isinstance(d, ast.AddRows):
            names = [_cell(r.values[0]) for r in d.rows if r.values]
            return Item(line(f"Adds {len(d.rows)} rows to the table ", Link(humane(d.table), anchor("table", d.table)),
                             ": ", *_joined([Words(n) for n in names]), at, "."))
        if isinstance(d, ast.AddValues):
            return Item(line(f"Adds the values {' | '.join(map(_value_text, d.values))} to the option "
                             if d.values else "Changes the option ", Code(d.option),
                             f", whose default becomes {_value_text(d.default)}" if d.default is not None else "",
                             at, "."))
        if isinstance(d, ast.AddMembers):
            return Item(line(f"Adds the members {', '.join(d.members)} to the enum ", Code(d.enum), at, "."))
        if isinstance(d, ast.StepOverlay):
            verb = {"replace": "Replaces the step ", "before": "Does more before the step ",
                    "after": "Does more after the step "}[d.mode]
            holder = (" in ", Code(unparse(d.place) if not isinstance(d.place, str) else d.place)) if d.place else ()
            written = self.text.body(d.span, STEP_LINES_MOST)
            return Item(line(verb, Words(d.label), *holder, at, ":"),
                        _listed(self.outline(d.body)) + ((Source(written),) if written else ()))
        if isinstance(d, ast.Amend):
            return self._erratum(d, at)
        if isinstance(d, ast.Retire):
            return Item(line(f"Takes the {d.kind} ", Words(d.name) if d.kind == "step" else Code(d.name),
                             " out of the game", at, "."))
        kind, name = _kind_and_name(d)
        verb = "Replaces the base's " if decl_key(d, i) in base_keys else "Adds the "
        target = Link(humane(name), anchor("table", name)) if isinstance(d, ast.TableDecl) else Code(name)
        return Item(line(verb, kind, " ", target, at, "."),
                    _listed([Item(line(about))] if (about := self.text.about(d.span)) else []))

    def _erratum(self, d: ast.Amend, at: str) -> Item:
        kind, name = d.place[0], d.place[1]
        place = (line("the step ", Words(name)) if kind == "step" else line("the ", Code(f"{name}:"), " block")
                 if kind == "block" else line(f"the {kind} ", Code(name)))
        if d.change == "arms":
            return Item(line("In ", *place, f", adds {len(d.items)} arm(s) to a match", at, "."))
        if d.change == "branches":
            return Item(line("In ", *place, f", adds {len(d.items)} branch(es) to an if-chain", at, "."))
        alts = [Item(line(Words(a.label), *((" if ", self.code(a.guard)) if a.guard is not None else ())),
                     _listed(self.outline(a.body))) for a in d.items]
        target = (() if d.target is None else line(" named ", Code(d.target.id)) if isinstance(d.target, ast.Name)
                  else line(" ", Words(d.target)))  # an alternative addressed by its name, or by its text
        verb = {"add": "adds the courses of action" + (" before" if d.target is not None else ""),
                "replace": "replaces the course of action", "remove": "removes the course of action"}[d.change]
        if d.change == "add":
            return Item(line("In ", *place, ", ", verb, *target, at, ":"), _listed(alts))
        return Item(line("In ", *place, ", ", verb, *target, at, ":" if alts else "."), _listed(alts))


# ----------------------------------------------------------------------------------------- what play shows
def _setting(shown: dict) -> str:
    options = ", ".join(f"{k}={v}" for k, v in shown["options"].items())
    return f"{shown['players']} players" + (f", options {options}" if options else "") + f", seed {shown['seed']}"


def played(shown: dict) -> list:
    """The pictures, the example turn and the notes from self-play (showcase.py's figures)."""
    at = shown["positions"]
    out = [Heading(2, "The table in pictures", "pictures"),
           Para(line(f"A seeded game ({_setting(shown)}), as every player sees the table: nobody's secrets.")),
           Picture(shown["pictures"]["start"], "The table at the start."),
           Picture(shown["pictures"]["mid"], f"The table in the middle of the game: round {at['mid_round']}, "
                                             f"step {at['mid_step']!s}, after {at['mid_decisions']} of the game's "
                                             f"{at['length']} decisions.")]
    out += [Heading(2, "An example turn", "example"),
            Para(line("The same game from the second picture on: each move of the player to move, as the table sees "
                      "it, with what it made happen."))]
    rows = tuple((line(str(i)), line(f"player {m['player']}"), line(m["step"] or ""),
                  line(Words(m["move"])) if m["move"] else line("a secret choice, told when everyone has chosen"),
                  line("; ".join(m["events"]) if m["events"] else "—"))
                 for i, m in enumerate(at["moves"], 1))
    if rows:
        out.append(Table(("#", "who", "step", "move", "what it did"), rows))
        if at["cut"]:
            out.append(Para(line(f"The turn goes on; the first {len(rows)} moves are shown.")))
    else:
        out.append(Para(line("The game was over: no move was left to show.")))
    if shown.get("notes"):
        out += _notes(shown["notes"])
    return out


def _rate(r: dict) -> str:
    return f"{100 * r['rate']:.0f}% (95% interval {100 * r['low']:.0f}-{100 * r['high']:.0f}%)"


def _spread(s: Optional[dict], unit: str) -> str:
    if not s:
        return "—"
    return f"{s['mean']:.0f} {unit} on average (median {s['median']}, {s['min']} to {s['max']})"


def _notes(n: dict) -> list:
    first = n["first_player"]
    out = [Heading(2, "Notes from self-play", "self-play"),
           Para(line(f"{n['games']} seeded games (seeds from {n['seed']}) played by {n['agents']} agents; "
                     f"{n['finished']} finished. Few games say little: the intervals say how little.")),
           Items((Item(line(Strong("First seat:"), f" the player who decides first wins {_rate(first)}; a fair "
                            f"share is {100 * first['fair']:.0f}%.")),
                  Item(line(Strong("Length:"), " ", _spread(n["length"], "decisions"),
                            *(("; ", _spread(n["rounds"], "rounds")) if n["rounds"] else ()), ".")),
                  Item(line(Strong("Wins by seat:"), " ",
                            "; ".join(f"seat {p} {_rate(r)}" for p, r in n["wins"].items()),
                            f"; draws {_rate(n['draws'])}."))))]
    if n["cards"]:
        out += _winners("What winners played", "winners-cards", "The table keys (cards, rows of the tables) named "
                        "in winners' moves most often", ("name", "table"),
                        [(line(Words(c["name"])), line(c["table"]), c) for c in n["cards"]])
    if n["choices"]:
        out += _winners("What winners chose", "winners-choices", "The decisions and courses of action winners "
                        "took most often (the rules' words, holes as …)", ("choice", "rule"),
                        [(line(Words(c["name"])), line(c["rule"]), c) for c in n["choices"]])
    return out


def _winners(title: str, mark: str, about: str, head: tuple, rows: list) -> list:
    """A table of what winners did most, per winner and game, beside the other players'."""
    return [Heading(3, title, mark), Para(line(about, ", per winner and game, beside the other players'.")),
            Table(head + ("winners", "others"),
                  tuple((name, place, line(f"{c['winners']:g}"), line(f"{c['others']:g}")) for name, place, c in rows))]


def effect(e: dict) -> list:
    """A variant's measured effect against its base, side by side."""
    base, variant, diff = e["base"], e["variant"], e["differences"]
    rows = [("games finished", f"{base['finished']} of {base['games']}", f"{variant['finished']} of {variant['games']}",
             ""),
            ("length (decisions)", _spread(base["length"], ""), _spread(variant["length"], ""), ""),
            ("rounds", _spread(base["rounds"], ""), _spread(variant["rounds"], ""), ""),
            ("first seat wins", _rate(base["first_player"]), _rate(variant["first_player"]),
             _change(diff["first player"]))]
    rows += [(f"seat {p} wins", _rate(base["wins"][p]), _rate(variant["wins"][p]), _change(diff[f"seat {p}"]))
             for p in variant["wins"] if p in base["wins"]]
    return [Heading(3, "Its measured effect", "effect"),
            Para(line(f"The base and the variant played on the same {variant['games']} seeds by the same agents "
                      f"({variant['agents']}).")),
            Table(("", "base", "variant", "change (p)"), tuple(tuple(line(c) for c in r) for r in rows))]


def _change(d: dict) -> str:
    p = "" if d["p"] is None else f" (p={d['p']:.2g})"
    return f"{100 * d['change']:+.0f} points{p}"


# ----------------------------------------------------------------------------------------- helpers
def _calls_joined(items: list) -> list:
    """The outline with each run of procedure calls in a row as one line: 'Goes on in a, b and c.' (an
    item of calls holds the GOES_ON word and a link for each procedure, until joined here)."""
    out: list = []
    run: list = []

    def close():
        if run:
            links = list({p.anchor: p for p in run}.values())
            out.append(Item(line(GOES_ON, *_joined(links), ".")))
            run.clear()
    for item in items:
        if item.line and item.line[0] == GOES_ON:
            run.extend(p for p in item.line if isinstance(p, Link))
        else:
            close()
            out.append(item)
    close()
    return out


def _listed(items: list) -> tuple:
    return (Items(tuple(items)),) if items else ()


def _joined(pieces: list, flat: bool = False) -> list:
    """Pieces joined with commas and a last 'and' (``flat``: each piece is itself a tuple of pieces)."""
    out: list = []
    for i, p in enumerate(pieces):
        if i:
            out.append(" and " if i == len(pieces) - 1 else ", ")
        out += list(p) if flat else [p]
    return out


def _value_text(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (ast.Name, ast.Literal)):
        return v.id if isinstance(v, ast.Name) else _value_text(v.value)
    return str(v)


def _cell(node) -> str:
    """A table's cell as its text: a text as written, a name or a number as itself."""
    if isinstance(node, ast.Literal):
        return _value_text(node.value)
    return unparse(node)


_KINDS = {"DefDecl": "def", "ProcDecl": "procedure", "VarDecl": "variable", "OptionDecl": "option",
          "TableDecl": "table", "RecordDecl": "record", "EnumDecl": "enum", "BoardDecl": "board",
          "Require": "requirement", "EndWhen": "end condition", "RankDecl": "ranking", "TeamsDecl": "teams",
          "DisplayDecl": "display", "ScreenDecl": "display", "ObserveDecl": "observation",
          "PlayersDecl": "player count"}


def _kind_and_name(d) -> tuple:
    if isinstance(d, ast.BlockDecl):
        return "block", f"{d.kind}:"
    kind = _KINDS.get(type(d).__name__, type(d).__name__)
    name = getattr(d, "name", None) or getattr(d, "message", None) or kind
    return kind, name


def _procedures_called(s, procs: dict) -> list:
    """The procedures a statement calls, in order, but in the blocks it holds (outlined on their own)."""
    held = {id(b) for b in ast.blocks_of(s)}
    found: list = []
    pending = list(ast.parts(s))
    while pending:
        n = pending.pop(0)
        if isinstance(n, (tuple, list)):
            if id(n) not in held:
                pending[0:0] = list(n)
            continue
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in procs and n.func.id not in found:
            found.append(n.func.id)
        if hasattr(n, "__attrs_attrs__"):
            pending[0:0] = ast.parts(n)
    return found
