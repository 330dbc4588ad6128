"""The checker's display checks: the lines of 'display:' (legend, colours, faces, paths, entries), and
that what is drawn for every viewer alike (the board's spaces, a face, an entry worked out from an
expression, 'paths') shows only public variables."""
from __future__ import annotations

from rulewright.dsl import ast
from rulewright.dsl.errors import suggest
from rulewright.dsl.declarations import SCREEN_COLOURS
from rulewright.interpreter.engine.builtin_names import ME


class ScreenChecks:
    """The display's checks; a part of Checker (checker.py)."""

    def _display_is_public(self):
        """The board is drawn for every player alike, so it may show only public variables."""
        if len(self.sym.displays) > 1:
            self.error(self.sym.displays[1].span, "the board's spaces are drawn twice: by 'display NAME =' "
                       "and by the 'board' line of 'display:'", "keep one of them")
        for d in self.sym.displays:
            self._public_only(d.expr, {d.name}, d.span, "'display' draws the board for every player")
        screen = self.sym.screen
        for line in screen.lines if screen is not None else ():
            for e in line.entries:
                expr, span = e.expr, e.span
                if line.word in ("legend", "colours") or self._view_entry(line, expr):
                    continue  # a view entry is shown as the viewer sees it: secrets stay masked
                self._public_only(expr, {ME}, span, "a 'display:' entry worked out from an expression")
        for f in screen.faces if screen is not None else ():
            for _word, expr in f.parts:
                self._public_only(expr, {f.param}, f.span, "a face is drawn for every viewer alike")
            for _label, value, most in f.gauges:
                self._public_only(value, {f.param}, f.span, "a face is drawn for every viewer alike")
                self._public_only(most, {f.param}, f.span, "a face is drawn for every viewer alike")
        if screen is not None and screen.paths is not None:
            p = screen.paths
            self._public_only(p.expr, {p.name}, p.span, "'paths' draws the board for every player")

    def _view_entry(self, line, expr) -> bool:
        """An entry that names a variable is taken from the viewer's view (others' secrets masked)."""
        if isinstance(expr, ast.Name) and expr.id in self.sym.hands:
            return line.word != "table"
        if not isinstance(expr, ast.Name) or expr.id not in self.sym.vars:
            return False
        return line.word == "table" or self.sym.vars[expr.id].per_player

    def _public_only(self, expr, bound: set, span, what: str):
        seen_defs: set = set()
        pending = [expr]
        while pending:
            for n in ast.walk(pending.pop()):
                if not isinstance(n, ast.Name):
                    continue
                if n.id in self.sym.defs and n.id not in seen_defs:
                    seen_defs.add(n.id)
                    pending.append(self.sym.defs[n.id].body)
                decl = self.sym.vars.get(n.id)
                if decl is not None and decl.visibility != "public" and n.id not in bound:
                    self.error(span, f"{what}, so it cannot show the {decl.visibility} variable '{n.id}'",
                               "make the variable public, or leave it out of the display"
                               + ("; an entry that is just a variable's name shows it as each viewer sees it"
                                  if "entry" in what else ""))
                    return
        for n in _attr_names(expr, self.sym.defs):
            decl = self.sym.vars.get(n)
            if decl is not None and decl.per_player and decl.visibility != "public":
                self.error(span, f"{what}, so it cannot show the {decl.visibility} player variable '{n}'",
                           "make it public, or leave it out")
                return

    def _screen(self, d: ast.ScreenDecl):
        """The lines of 'display:': legend and colour entries are plain text; 'own' and 'players' entries
        are about a player ('me'); 'table' entries about the table."""
        if d.board is not None:
            self._refused_local(d.board.name, d.board.span)
            self.expr(d.board.expr, {d.board.name})
        if d.paths is not None:
            self.expr(d.paths.expr, {d.paths.name})
            if not self.sym.boards:
                self.error(d.paths.span, "'paths' draws lines on the board, but the game has no board")
        faces = {f.name for f in d.faces}
        named = set()
        for line in d.lines:
            for e in line.entries:
                if e.look is not None and e.look.face is not None:
                    named.add(e.look.face)
                    if e.look.face not in faces:
                        self.error(e.span, f"no face is called '{e.look.face}'",
                                   suggest(e.look.face, faces) or "declare it in 'display:': face NAME x: title = ...")
        for f in d.faces:
            for _word, expr in f.parts:
                self.expr(expr, {f.param})
            for _label, value, most in f.gauges:
                self.expr(value, {f.param})
                self.expr(most, {f.param})
            if f.name not in self.sym.tables and f.name not in self.sym.records and f.name not in named:
                self.error(f.span, f"the face '{f.name}' draws nothing: it is not a table's or a record's name, "
                           "and no entry says 'as cards " + f.name + "'",
                           suggest(f.name, list(self.sym.tables) + list(self.sym.records))
                           or "name the table or record it draws")
        for line in d.lines:
            for e in line.entries:
                label, expr, span = e.label, e.expr, e.span
                if e.look is not None and line.word in ("legend", "colours"):
                    self.error(span, f"a {line.word} entry is text: it is not drawn",
                               f"leave out 'as {e.look.kind}'")
                    continue
                if line.word in ("legend", "colours"):
                    if not (isinstance(expr, ast.Literal) and isinstance(expr.value, str)):
                        self.error(span, f"a {line.word} entry is \"text\" = \"text\"",
                                   'for example: legend "~" = "clouds"' if line.word == "legend"
                                   else 'for example: colours "~" = "blue"')
                    elif line.word == "colours" and expr.value not in SCREEN_COLOURS:
                        self.error(span, f"'{expr.value}' is not a colour the screen knows",
                                   self.hint(expr.value, SCREEN_COLOURS) or "colours: " + ", ".join(SCREEN_COLOURS))
                    continue
                if isinstance(expr, ast.Name) and expr.id in self.sym.hands and expr.id not in self.sym.vars:
                    if line.word == "table":
                        self.error(span, f"'{expr.id}' is a player's hand: it belongs on an 'own' or a "
                                   "'players' line", f'for example: players "{label}" = {expr.id} as hand')
                    continue
                part_of = self.sym.vars[expr.id].hand if isinstance(expr, ast.Name) and expr.id in self.sym.vars \
                    else None
                if part_of is not None and line.word == "players" and e.look is not None:
                    # a rival's part is '?' (views.visible_vars): drawn, it would count one card whatever it holds
                    self.error(span, f"'{expr.id}' is a part of the hand '{part_of}': the others see it only as "
                               "'?', so a 'players' line does not draw it",
                               f'draw the hand (players "Hand" = {part_of} as {e.look.kind}) and the part on an '
                               f'\'own\' line')
                self.expr(expr, set() if line.word == "table" else {ME})
                if (line.word == "table" and isinstance(expr, ast.Name) and expr.id in self.sym.vars
                        and self.sym.vars[expr.id].per_player):
                    self.error(span, f"'{expr.id}' is a player variable: it belongs on an 'own' or a "
                               "'players' line", f'for example: players "{label}" = {expr.id}')


def _attr_names(node, defs: dict) -> set:
    """Every '.field' name in an expression and in the defs it calls."""
    out: set = set()
    seen: set = set()
    pending = [node]
    while pending:
        n = pending.pop()
        if isinstance(n, ast.Attr):
            out.add(n.name)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in defs and n.func.id not in seen:
            seen.add(n.func.id)
            pending.append(defs[n.func.id].body)
        pending.extend(ast.parts(n))
    return out


