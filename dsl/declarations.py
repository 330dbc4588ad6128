"""The tree builder of declarations: what a whole rules file holds at the top level (the game, its
options, tables, boards, variables, procedures and blocks, its 'display:' section, a variant's
changes), built on the builder of values and statements (dsl/builder.py).
"""
from __future__ import annotations

import attrs
from lark import Token, v_args

from rulewright.dsl import ast
from rulewright.dsl.builder import Builder
from rulewright.dsl.errors import Diagnostic, RulesSyntaxError, suggest

MAX_PLAYERS = 1000  # every player has their own copy of each 'player var'
# the colours a 'display:' section may give a space's text (rich's standard colours): a word of the
# display's language, which the checker holds the rules to and the screen draws
SCREEN_COLOURS = ("red", "green", "yellow", "blue", "magenta", "cyan", "white", "grey")


@attrs.frozen
class _About:
    """An option's description on its way from option_about to option_decl."""
    text: str


@attrs.frozen
class _Default:
    """A variant's new default for an option, on its way to add_values_decl."""
    value: ast.Literal


@v_args(meta=True)
class RulesBuilder(Builder):
    """Builds a rules file's declarations (the values and statements in them: Builder)."""

    def start(self, meta, c):
        return c

    def game_decl(self, meta, c):
        return ast.GameDecl(self._plain(c[0], "a game's name"), span=self._span(meta))

    def extends_decl(self, meta, c):
        return ast.Extends(self._plain(c[0], "the name of the base rules"), span=self._span(meta))

    def players_decl(self, meta, c):
        low = self._int(c[0])
        high = self._int(c[1]) if len(c) > 1 else low
        if high > MAX_PLAYERS:
            raise RulesSyntaxError(Diagnostic(f"a game has at most {MAX_PLAYERS} players, not {high:,}", self.filename,
                                              meta.line, meta.column, self._source_line(meta.line)))
        return ast.PlayersDecl(low, high, span=self._span(meta))

    def _fixed(self, value, what: str):
        """A literal in a declaration (an option's value, a table cell) is fixed: no {holes}."""
        if isinstance(value, ast.Template):
            raise RulesSyntaxError(Diagnostic(f"{what} is plain text: it cannot hold {{...}}", self.filename,
                                              value.span.line, value.span.column,
                                              self._source_line(value.span.line), "write {{ and }} for braces"))
        return value

    def option_decl(self, meta, c):
        values, about = [], ""
        for v in c[1:]:
            if isinstance(v, _About):
                about = v.text
                continue
            values.extend(v if isinstance(v, tuple) else [self._fixed(v, "an option's value")])
        return ast.OptionDecl(str(c[0]), tuple(values), span=self._span(meta), about=about)

    def option_about(self, meta, c):
        return _About(self._fixed(self._string(c[0]), "an option's description").value)

    def int_range(self, meta, c):
        low, high = self._int(c[0]), self._int(c[1])
        if high < low or high - low > 1000:
            raise RulesSyntaxError(Diagnostic(f"'{low}..{high}' is not a range of at most 1000 numbers",
                                              self.filename, meta.line, meta.column,
                                              self._source_line(meta.line)))
        span = self._span(meta)
        return tuple(ast.Literal(n, span=span) for n in range(low, high + 1))

    def require_decl(self, meta, c):
        return ast.Require(c[0], self._plain(c[1], "a requirement's message"), span=self._span(meta))

    def invariant_decl(self, meta, c):
        return ast.Invariant(self._plain(c[0], "an invariant's name"), c[1], span=self._span(meta))

    def enum_decl(self, meta, c):
        members = c[1:]
        return ast.EnumDecl(str(c[0]), tuple(m if isinstance(m, str) else m.name for m in members),
                            tuple(m for m in members if isinstance(m, ast.RecordDecl)), span=self._span(meta))

    def enum_member(self, meta, c):
        """A plain member's name, or a member with data as the record of its fields."""
        if len(c) == 1:
            return str(c[0])
        fields = tuple(name for name, _default in c[1:])
        defaults = tuple((name, default) for name, default in c[1:] if default is not None)
        return ast.RecordDecl(str(c[0]), fields, (), defaults, span=self._span(meta))

    def tag_field(self, meta, c):
        return (str(c[0]), c[1][1] if len(c) > 1 else None)

    def table_decl(self, meta, c):
        columns = tuple(str(x) for x in c[1:] if isinstance(x, Token))
        rows = tuple(x for x in c[1:] if isinstance(x, ast.TableRow))
        return ast.TableDecl(str(c[0]), columns, rows, span=self._span(meta))

    def table_row(self, meta, c):
        copies, copies_at = 1, ()
        values = list(c)
        if values and isinstance(values[-1], Token):
            tok = values.pop()
            copies = self._int(tok) if tok.type == "INT" else str(tok)
            copies_at = () if tok.type == "INT" else (self._tok_span(tok),)
        values = [self._fixed(v, "a table's value") for v in values]
        return ast.TableRow(tuple(values), copies, span=self._span(meta), copies_at=copies_at)

    def board_decl(self, meta, c):
        name, *rest = c
        guard = rest.pop(0) if not isinstance(rest[0], Token) else None
        kind, *words = rest
        edges = words.pop()[1] if words and isinstance(words[-1], tuple) else ()
        spec = ast.BoardSpec(str(kind), tuple(words), edges, span=self._tok_span(kind))
        return ast.BoardDecl(str(name), guard, spec, span=self._span(meta))

    def guard(self, meta, c):
        return c[0]

    def word(self, meta, c):
        tok = c[0]
        span = self._tok_span(tok)
        return ast.Literal(self._int(tok), span=span) if tok.type == "INT" else ast.Name(str(tok), span=span)

    def by_word(self, meta, c):
        return ast.Name("by", span=self._span(meta))

    def board_lines(self, meta, c):
        return ("lines", tuple(c))

    def edge(self, meta, c):
        return (str(c[0]), tuple(str(x) for x in c[1:]), self._span(meta))

    def var_decl(self, meta, c):
        vis = c[2] if len(c) > 2 else "public"
        if isinstance(vis, tuple):
            self._screen_error(vis[2], "only a 'player var' is a part of a player's hand ('secret in ...')",
                               f"write 'player var {c[0]} = ... secret in {vis[1]}', or 'secret'")
        return ast.VarDecl(str(c[0]), c[1], False, vis, span=self._span(meta))

    def player_var_decl(self, meta, c):
        vis = c[2] if len(c) > 2 else "public"
        if isinstance(vis, tuple):  # secret in HAND
            return ast.VarDecl(str(c[0]), c[1], True, "secret", vis[1], span=self._span(meta))
        return ast.VarDecl(str(c[0]), c[1], True, vis, span=self._span(meta))

    def hidden(self, meta, c):
        return "hidden"

    def secret(self, meta, c):
        return "secret"

    def secret_in(self, meta, c):
        return ("secret", str(c[0]), self._span(meta))

    def record_decl(self, meta, c):
        fields = tuple(name for name, _default, _vis in c[1:])
        visibility = tuple((name, vis) for name, _default, vis in c[1:] if vis is not None)
        defaults = tuple((name, default) for name, default, _vis in c[1:] if default is not None)
        return ast.RecordDecl(str(c[0]), fields, visibility, defaults, span=self._span(meta))

    def record_field(self, meta, c):
        """(name, default or None, visibility or None)."""
        default = next((x[1] for x in c[1:] if isinstance(x, tuple)), None)
        vis = next((x for x in c[1:] if isinstance(x, ast.FieldVisibility)), None)
        return (str(c[0]), default, vis)

    def field_default(self, meta, c):
        return ("default", c[0])

    def field_hidden(self, meta, c):
        return ast.FieldVisibility("hidden", None, c[0] if c else None, span=self._span(meta))

    def field_secret(self, meta, c):
        return ast.FieldVisibility("secret", str(c[0]), c[1] if len(c) > 1 else None, span=self._span(meta))

    def field_unless(self, meta, c):
        return str(c[0])

    def params(self, meta, c):
        return tuple(str(x) for x in c)

    def def_decl(self, meta, c):
        params = c[1] if len(c) == 3 else ()
        return ast.DefDecl(str(c[0]), params, c[-1], span=self._span(meta))

    def def_block(self, meta, c):
        name, *rest = c
        params = rest.pop(0) if isinstance(rest[0], tuple) and not isinstance(rest[0], ast.LetIn) else ()
        body = rest.pop()
        for let in reversed(rest):  # each 'let' scopes over the lines after it
            body = ast.LetIn(let.name, let.value, body, span=let.span)
        return ast.DefDecl(str(name), params, body, span=self._span(meta))

    def def_let(self, meta, c):
        return ast.LetIn(str(c[0]), c[1], None, span=self._span(meta))

    def proc_decl(self, meta, c):
        params = c[1] if len(c) == 3 else ()
        return ast.ProcDecl(str(c[0]), params, c[-1], span=self._span(meta))

    def block_name(self, meta, c):
        return str(c[0])

    def block_decl(self, meta, c):
        return ast.BlockDecl(c[0], c[1], span=self._span(meta))

    def end_decl(self, meta, c):
        timing = c[1] if len(c) > 1 else "turn"
        return ast.EndWhen(c[0], timing, span=self._span(meta))

    def after_round(self, meta, c):
        return "round"

    def after_turn(self, meta, c):
        return "turn"

    def rank_decl(self, meta, c):
        return ast.RankDecl(tuple(c), span=self._span(meta))

    def rank_key(self, meta, c):
        return (str(c[0]), str(c[1]) == "ascending")

    def teams_decl(self, meta, c):
        return ast.TeamsDecl(c[0], span=self._span(meta))

    def display_decl(self, meta, c):
        return ast.DisplayDecl(str(c[0]), c[1], span=self._span(meta))

    # the words a 'display:' line may start with besides 'board', 'players' and 'table'
    SCREEN_WORDS = ("legend", "colours", "own")

    # how a picture may draw an entry ('as cards'), and the parts of a face
    LOOKS = ("card", "cards", "tokens", "pile", "track", "hand")
    FACE_PARTS = ("title", "corner", "text", "colour")

    def screen_decl(self, meta, c):
        boards = [x for x in c if isinstance(x, ast.DisplayDecl)]
        if len(boards) > 1:
            self._screen_error(boards[1].span, "a 'display:' section has one 'board' line")
        paths = [x for x in c if isinstance(x, ast.PathsDecl)]
        if len(paths) > 1:
            self._screen_error(paths[1].span, "a 'display:' section has one 'paths' line")
        faces = tuple(x for x in c if isinstance(x, ast.FaceDecl))
        named: dict = {}
        for f in faces:
            if f.name in named:
                self._screen_error(f.span, f"a second face for '{f.name}' (the first is on line {named[f.name]})")
            named[f.name] = f.span.line
        return ast.ScreenDecl(boards[0] if boards else None,
                              tuple(x for x in c if isinstance(x, ast.ScreenLine)), faces,
                              paths[0] if paths else None, span=self._span(meta))

    def screen_board(self, meta, c):
        return ast.DisplayDecl(str(c[0]), c[1], span=self._span(meta))

    def screen_paths(self, meta, c):
        return ast.PathsDecl(str(c[0]), c[1], span=self._span(meta))

    def screen_entry(self, meta, c):
        look = c[2] if len(c) > 2 else None
        return ast.ScreenEntry(self._plain(c[0], "a label"), c[1], look, span=self._span(meta))

    def _look_kind(self, tok) -> str:
        kind = str(tok)
        if kind not in self.LOOKS:
            self._screen_error(self._tok_span(tok), f"a picture cannot draw an entry as '{kind}'",
                               suggest(kind, self.LOOKS) or "as " + ", ".join(self.LOOKS))
        return kind

    def screen_look(self, meta, c):
        kind = self._look_kind(c[0])
        face = str(c[1]) if len(c) > 1 else None
        if face is not None and kind == "track":
            self._screen_error(self._tok_span(c[1]), "a track has no face: it shows numbers",
                               "as track, or as track 0..30")
        return ast.ScreenLook(kind, face, span=self._span(meta))

    def screen_look_range(self, meta, c):
        kind = self._look_kind(c[0])
        low, high = self._int(c[1]), self._int(c[2])
        if kind != "track":
            self._screen_error(self._tok_span(c[1]), f"only a track has a range of numbers, not {kind}",
                               "as track 0..30")
        if high <= low or high - low > 1000:
            self._screen_error(self._tok_span(c[1]), f"'{low}..{high}' is not a track of 2 to 1000 numbers")
        return ast.ScreenLook(kind, None, low, high, span=self._span(meta))

    def screen_face(self, meta, c):
        name, param = str(c[0]), str(c[1])
        parts, gauges, seen = [], [], set()
        for part in c[2:]:
            if part[0] == "gauge":
                gauges.append(part[1:])
                continue
            word, expr, span = part
            if word not in self.FACE_PARTS:
                self._screen_error(span, f"a face has no part '{word}'",
                                   suggest(word, self.FACE_PARTS + ("gauge",))
                                   or "a face has " + ", ".join(self.FACE_PARTS) + ' and gauge "Label" = value of most')
            if word in seen:
                self._screen_error(span, f"the face says its '{word}' twice")
            seen.add(word)
            parts.append((word, expr))
        return ast.FaceDecl(name, param, tuple(parts), tuple(gauges), span=self._span(meta))

    def face_part(self, meta, c):
        return (str(c[0]), c[1], self._tok_span(c[0]))

    def face_gauge(self, meta, c):
        return ("gauge", self._plain(c[0], "a gauge's label"), c[1], c[2])

    def screen_players(self, meta, c):
        return ast.ScreenLine("players", tuple(c), span=self._span(meta))

    def screen_table(self, meta, c):
        return ast.ScreenLine("table", tuple(c), span=self._span(meta))

    def screen_words(self, meta, c):
        word = str(c[0])
        if word not in self.SCREEN_WORDS:
            words = ("board", "players", "table") + self.SCREEN_WORDS
            hint = suggest(word, words) or "a line of 'display:' starts with " + ", ".join(words)
            self._screen_error(self._tok_span(c[0]), f"'{word}' is not a line of 'display:'", hint)
        return ast.ScreenLine(word, tuple(c[1:]), span=self._span(meta))

    def observe_decl(self, meta, c):
        return ast.ObserveDecl(tuple(c), span=self._span(meta))

    def _screen_error(self, span, message, hint=""):
        raise RulesSyntaxError(Diagnostic(message, self.filename, span.line, span.column,
                                          self._source_line(span.line), hint))

    def _step_overlay(self, mode, meta, c):
        label = self._plain(c[0], "a step's label")
        place = c[1] if len(c) == 3 else None
        return ast.StepOverlay(mode, label, place, c[-1], span=self._span(meta))

    def replace_step(self, meta, c):
        return self._step_overlay("replace", meta, c)

    def before_step(self, meta, c):
        return self._step_overlay("before", meta, c)

    def after_step(self, meta, c):
        return self._step_overlay("after", meta, c)

    def step_place(self, meta, c):
        return str(c[0])

    def add_rows_decl(self, meta, c):
        return ast.AddRows(str(c[0]), tuple(c[1:]), span=self._span(meta))

    def add_values_decl(self, meta, c):
        values, default = [], None
        for v in c[1:]:
            if isinstance(v, _Default):
                default = v.value
                continue
            values.extend(v if isinstance(v, tuple) else [self._fixed(v, "an option's value")])
        return ast.AddValues(str(c[0]), tuple(values), default, span=self._span(meta))

    def option_default(self, meta, c):
        if isinstance(c[0], tuple):
            raise RulesSyntaxError(Diagnostic("a default is one value, not a range", self.filename, meta.line,
                                              meta.column, self._source_line(meta.line)))
        return _Default(self._fixed(c[0], "an option's default"))

    # -- errata: 'in PLACE, CHANGE' and 'retire ...'
    def amend_decl(self, meta, c):
        change, items, target = c[1]
        return ast.Amend(c[0], change, items, target, span=self._span(meta))

    def place_def(self, meta, c):
        return ("def", str(c[0]))

    def place_procedure(self, meta, c):
        return ("procedure", str(c[0]))

    def place_step(self, meta, c):
        return ("step", self._plain(c[0], "a step's label"), c[1] if len(c) > 1 else None)

    def place_block(self, meta, c):
        return ("block", str(c[0]))

    def add_arms(self, meta, c):
        if any(arm[0] == "else" for arm in c):
            raise RulesSyntaxError(Diagnostic("an erratum adds arms for values; the base's 'else' stays where it is",
                                              self.filename, meta.line, meta.column, self._source_line(meta.line),
                                              "name the values: v: ..., or replace the whole def"))
        return ("arms", tuple(arm[1:] for arm in c), None)

    def add_branches(self, meta, c):
        return ("branches", tuple(branch[1:] for branch in c), None)

    def add_alternatives(self, meta, c):
        before = c[0] if not isinstance(c[0], ast.Alternative) else None
        return ("add", tuple(x for x in c if isinstance(x, ast.Alternative)), before)

    def replace_alternative(self, meta, c):
        return ("replace", tuple(c[1:]), c[0])

    def remove_alternative(self, meta, c):
        return ("remove", (), c[0])

    def alt_ref(self, meta, c):
        """An alternative an erratum names: by its text as written (a str), or by its own name (a Name)."""
        tok = c[0]
        return ast.Name(str(tok), span=self._tok_span(tok)) if tok.type == "NAME" else self.alt_text(tok)

    def retire_step(self, meta, c):
        return ast.Retire("step", self._plain(c[0], "a step's label"), c[1] if len(c) > 1 else None,
                          span=self._span(meta))

    def retire_procedure(self, meta, c):
        return ast.Retire("procedure", str(c[0]), span=self._span(meta))

    def retire_def(self, meta, c):
        return ast.Retire("def", str(c[0]), span=self._span(meta))

    def add_members_decl(self, meta, c):
        return ast.AddMembers(str(c[0]), tuple(str(x) for x in c[1:]), span=self._span(meta))
