"""The editor server (`rulewright lsp`): the Language Server Protocol over stdio, built on pygls.

As you type it publishes the checker's diagnostics (the same ones `validate` prints, each at its line
and column); on a name it gives a hover (what the name is, its declaration and the comment above it),
go-to-definition (into a variant's base file too), and completion of declared names, built-in functions
and the language's keywords. Every name comes from the symbol table (interpreter/check/symbols.py) and every
keyword from the grammar (dsl/grammar.py: keywords()); this module only finds the word under the cursor
and answers in LSP's terms.

``Document`` does the work and knows nothing of LSP; ``serve`` wires it to pygls (an optional
dependency: ``pip install 'rulewright[lsp]'``).
"""
from __future__ import annotations

import asyncio
import queue
import re
import threading
from pathlib import Path
from typing import Optional

from rulewright.dsl import ast
from rulewright.dsl.errors import Diagnostic, RulesError
from rulewright.dsl.parser import parse
from rulewright.interpreter.api import shipped_games
from rulewright.interpreter.language import BUILTINS, NAMES, RESERVED, apply_extends, board_functions, check, keywords, symbols

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MAX_SHOWN_LINES = 12  # of a declaration in a hover: a long table or procedure is cut
PAUSE = 0.25  # seconds without a change before the text is checked again


class Document:
    """One open rules file: its text, its diagnostics, and (from the last text that parsed) its symbols."""

    def __init__(self, path: str, text: str, previous: Optional["Document"] = None):
        self.path, self.text = path, text
        self.lines = text.split("\n")
        self.diagnostics: list[Diagnostic] = []
        self.rules: Optional[ast.RulesFile] = None
        try:
            own = parse(text, path)
        except RulesError as exc:  # a syntax error: keep the names of the last text that parsed
            self.diagnostics = list(getattr(exc, "diagnostics", []))
            self.rules = previous.rules if previous is not None else None
            return
        try:
            self.rules = apply_extends(own, Path(path), shipped_games)
        except RulesError as exc:  # a base that cannot be read or merged: named at the 'extends' line
            self.rules = own
            self.diagnostics = [self._here(d, own) for d in getattr(exc, "diagnostics", [])]
            return
        try:
            self.diagnostics = [self._here(d, own) for d in check(self.rules)]
        except RulesError as exc:
            self.diagnostics = [self._here(d, own) for d in getattr(exc, "diagnostics", [])]

    @classmethod
    def unchecked(cls, path: str, text: str) -> "Document":
        """A document whose first check is still running: words and keywords, no names yet."""
        doc = object.__new__(cls)
        doc.path, doc.text, doc.lines, doc.diagnostics, doc.rules = path, text, text.split("\n"), [], None
        return doc

    def typed(self, text: str) -> "Document":
        """This document with newer text not checked yet: words are read from the new text, names from
        the last check (which runs once typing pauses)."""
        doc = object.__new__(Document)
        doc.__dict__.update(self.__dict__)
        doc.text, doc.lines = text, text.split("\n")
        return doc

    def _here(self, d: Diagnostic, own: ast.RulesFile) -> Diagnostic:
        """A diagnostic of this file as it is; one of a base file, at this file's 'extends' line."""
        if d.file == self.path:
            return d
        extends = next((x for x in own.decls if isinstance(x, ast.Extends)), None)
        line = extends.span.line if extends is not None else 1
        return Diagnostic(f"in {Path(d.file).name}:{d.line}: {d.message}", self.path, line, 1,
                          self.lines[line - 1] if line <= len(self.lines) else "", d.hint, d.severity)

    # ------------------------------------------------------------------ what is under the cursor
    def word_at(self, line: int, character: int) -> tuple[str, str]:
        """The name at a 0-based position, and the text just before it (to see a '.')."""
        if not 0 <= line < len(self.lines):
            return "", ""
        text = self.lines[line]
        for m in _WORD.finditer(text):
            if m.start() <= character <= m.end():
                return m.group(), text[:m.start()]
        return "", text[:character]

    def prefix_at(self, line: int, character: int) -> tuple[str, str]:
        """The part of a name typed before the cursor, and the text before that part."""
        text = self.lines[line][:character] if 0 <= line < len(self.lines) else ""
        m = re.search(r"[A-Za-z_][A-Za-z0-9_]*$", text)
        return (m.group(), text[:m.start()]) if m else ("", text)

    # ------------------------------------------------------------------ declarations
    def declaration(self, name: str, after_dot: bool = False, line: Optional[int] = None):
        """(what the name is, in words; the node that declares it) or None. At a 0-based ``line`` of this
        file a local name (a parameter, 'let', 'for', 'choose', 'draw', a quantifier's item) comes first."""
        if self.rules is None:
            return None
        if line is not None and not after_dot:
            local = self._local(name, line + 1)
            if local is not None:
                return local
        sym = symbols(self.rules)
        if after_dot:
            owners = [d for d in sym.record_decls.values() if name in d.fields]
            tables = [sym.tables[t] for t in sym.columns.get(name, [])]
            for d in owners:
                return f"the field '{name}' of record '{d.name}'", d
            for t in tables:
                return f"the column '{name}' of table '{t.name}'", t
        found = sym.function(name)
        if found is not None:
            kind, spec = found
            if kind in ("def", "procedure"):
                return f"the {kind} '{name}'", spec
            if kind == "record":
                return f"the record '{name}'", sym.record_decls[name]
            return f"the {'built-in' if kind == 'builtin' else 'board'} function '{name}'", spec
        if name in sym.options:
            return f"the option '{name}'", sym.options[name]
        if name in sym.vars:
            return sym.describe(name), sym.vars[name]
        if name in sym.hands:  # declared by its parts' 'secret in': the first part's line
            return sym.describe(name), sym.vars[sym.hands[name][0]]
        if name in sym.tables:
            return f"the table '{name}'", sym.tables[name]
        for b in sym.boards:
            if b.name == name:
                return f"the board '{name}'", b
        if name in sym.members:
            where = self._member_decl(sym, name)
            return f"'{name}', {sym.members[name]}", where
        if name in sym.table_keys:
            table = sym.tables[sym.table_keys[name]]
            row = next((r for r in table.rows if r.values and isinstance(r.values[0], ast.Name)
                        and r.values[0].id == name), table)
            return f"'{name}', a key of table '{table.name}'", row
        if name in sym.columns:
            t = sym.tables[sym.columns[name][0]]
            return f"the column '{name}' of table '{t.name}'", t
        owners = [d for d in sym.record_decls.values() if name in d.fields]
        if owners:
            return f"the field '{name}' of record '{owners[0].name}'", owners[0]
        if name in RESERVED:
            return f"the built-in name '{name}'", None
        return None

    def _local(self, name: str, line: int):
        """The nearest binding of ``name`` at or above ``line`` in the declaration around that line."""
        found, where = None, 0
        for d in self.rules.decls:
            span = d.span
            if span.file != self.path or not span.line <= line <= max(span.end_line, span.line):
                continue
            if name in getattr(d, "params", ()):
                found, where = (f"the parameter '{name}'", d), span.line
            for n in ast.walk(d):  # the statements and expressions that give a local a value (ast: BINDS)
                for field, what in getattr(n, "BINDS", ()):
                    if getattr(n, field) == name and where <= n.span.line <= line:
                        found, where = (f"the {what} '{name}'", n), n.span.line
        return found

    @staticmethod
    def _member_decl(sym, name: str):
        for d in sym.enums.values():
            if name in d.members:
                return d
        for d in sym.options.values():
            if any(getattr(v, "id", None) == name for v in d.values):
                return d
        return sym.boards[0] if sym.boards else None

    def _source(self, span: ast.Span) -> list[str]:
        text = self.rules.sources.get(span.file, "") if self.rules is not None else ""
        return text.split("\n") if text else []

    def hover(self, line: int, character: int) -> Optional[str]:
        """Markdown: what the name under the cursor is, its declaration, and the comment above it."""
        word, before = self.word_at(line, character)
        if not word:
            return None
        found = self.declaration(word, before.rstrip().endswith("."), line)
        if found is None:
            return f"`{word}`: a keyword of the rules language" if word in keywords() else None
        what, decl = found
        out = [f"**{what}**"]
        spec = decl
        if hasattr(spec, "min_args") and hasattr(spec, "fn"):  # a built-in: it describes itself
            arity = str(spec.min_args) if spec.min_args == spec.max_args else f"{spec.min_args} to {spec.max_args}"
            out.append(f"takes {arity} argument{'s' if spec.max_args != 1 else ''}"
                       + (f"; gives a {spec.result}" if spec.result else ""))
            if spec.doc:
                out.append(spec.doc)
            return "\n\n".join(out)
        span = getattr(decl, "span", None)
        if span is None or span.line <= 0:
            return out[0]
        lines = self._source(span)
        # a span ends where the next token begins: at column 1 of the next line after a one-line declaration
        last = max((span.end_line - (span.end_column <= 1)) if span.end_line else span.line, span.line)
        while last > span.line and not lines[last - 1].strip():
            last -= 1
        shown = lines[span.line - 1:min(last, span.line - 1 + MAX_SHOWN_LINES)]
        if last - span.line + 1 > MAX_SHOWN_LINES:
            shown.append("    ...")
        doc = _comment_above(lines, span.line)
        where = "" if span.file == self.path else f" (in {Path(span.file).name})"
        out.append("```rules\n" + "\n".join(s.rstrip() for s in shown) + "\n```" + where)
        if doc:
            out.append(doc)
        return "\n\n".join(out)

    def definition(self, line: int, character: int) -> Optional[tuple[str, int, int, int]]:
        """(file, 0-based line, first and last column) of the name's declaration, or None."""
        word, before = self.word_at(line, character)
        found = self.declaration(word, before.rstrip().endswith("."), line) if word else None
        span = getattr(found[1], "span", None) if found else None
        if span is None or span.line <= 0 or span.file == "<none>":
            return None
        lines = self._source(span)
        text = lines[span.line - 1] if span.line <= len(lines) else ""
        m = re.compile(rf"(?<!\w){re.escape(word)}(?!\w)").search(text, max(span.column - 1, 0))
        start, end = (m.start(), m.end()) if m else (span.column - 1, span.column - 1)
        return span.file, span.line - 1, start, end

    def completions(self, line: int, character: int) -> list[tuple[str, str, str]]:
        """(label, kind, detail) for what may be typed at the cursor: after 'me.' the player variables,
        after another '.' the fields, columns and player variables, else keywords and every declared or
        built-in name; those starting with the typed prefix."""
        prefix, before = self.prefix_at(line, character)
        items: dict = {}
        sym = symbols(self.rules) if self.rules is not None else None
        if before.endswith("."):
            if sym is not None and re.search(r"(?<![A-Za-z0-9_.])me\s*\.$", before):  # 'me.': my variables
                for name in sorted(sym.player_vars):
                    items[name] = ("variable", sym.describe(name))
            elif sym is not None:  # a record, a table's row or a player: fields, columns, player variables
                for f in sorted(sym.fields):
                    items[f] = ("field", "a field of " + ", ".join(d.name for d in sym.record_decls.values()
                                                                 if f in d.fields))
                for c, tables in sorted(sym.columns.items()):
                    items.setdefault(c, ("field", "a column of " + ", ".join(tables)))
                for name in sorted(sym.player_vars):
                    items.setdefault(name, ("variable", sym.describe(name)))
        else:
            for k in sorted(keywords()):
                items[k] = ("keyword", "keyword")
            for name, b in sorted(BUILTINS.items()):
                items[name] = ("function", b.doc or "built-in function")
            for name in sorted(board_functions()):
                items.setdefault(name, ("function", "a board's function"))
            for name in (n for n in NAMES if n in RESERVED):
                items[name] = ("variable", "built-in")
            if sym is not None:
                for name in sym.defs:
                    items[name] = ("function", "def " + name + "(" + ", ".join(sym.defs[name].params) + ")")
                for name in sym.procs:
                    items[name] = ("function", "procedure " + name + "(" + ", ".join(sym.procs[name].params) + ")")
                for name in sym.records:
                    items[name] = ("class", "record " + name + "(" + ", ".join(sym.records[name]) + ")")
                for name in [*sym.vars, *sym.hands]:
                    items[name] = ("variable", sym.describe(name))
                for name in sym.options:
                    items[name] = ("constant", sym.describe(name))
                for name in sym.tables:
                    items[name] = ("struct", sym.describe(name))
                for name in sym.board_names:
                    items[name] = ("struct", sym.describe(name))
                for name, what in sym.members.items():
                    items.setdefault(name, ("enum member", what))
                for name, table in sym.table_keys.items():
                    items.setdefault(name, ("enum member", f"a key of table '{table}'"))
        return [(label, kind, detail) for label, (kind, detail) in sorted(items.items())
                if label.startswith(prefix)]


class _Answered:
    """A request pygls could not read, answered already (with its error): pygls passes it over."""
    jsonrpc = None


_ANSWERED = _Answered()


class _Checks:
    """One thread that checks documents, one at a time, off the server's loop (a long file takes
    seconds); a daemon, so that the server exits without waiting for a check nobody wants."""

    def __init__(self):
        self.jobs: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._work, name="rulewright checks", daemon=True).start()

    def run(self, fn, *args) -> "asyncio.Future":
        """``fn(*args)`` in the thread; its result as a future of the calling loop."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.jobs.put((loop, future, fn, args))
        return future

    def _work(self):
        while True:
            loop, future, fn, args = self.jobs.get()
            try:
                result, error = fn(*args), None
            except BaseException as exc:  # handed to the loop, which reports it
                result, error = None, exc
            loop.call_soon_threadsafe(_settle, future, result, error)


def _settle(future, result, error) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def _comment_above(lines: list[str], line: int) -> str:
    """The comment lines just above a declaration (its documentation), and a comment at the end of it."""
    doc = []
    i = line - 2
    while i >= 0 and lines[i].lstrip().startswith("#"):
        doc.insert(0, lines[i].strip().lstrip("#").strip())
        i -= 1
    own = lines[line - 1] if line <= len(lines) else ""
    if "#" in own and own.count('"', 0, own.index("#")) % 2 == 0:
        doc.append(own[own.index("#") + 1:].strip())
    return " ".join(d for d in doc if d)


# ---------------------------------------------------------------------------------------- the server
def serve() -> None:
    """Speak LSP on stdin and stdout until the client says exit."""
    from lsprotocol import types as t
    from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest
    from pygls.lsp.server import LanguageServer
    from pygls.protocol import LanguageServerProtocol
    from pygls.uris import from_fs_path, to_fs_path

    import rulewright

    class AnsweringProtocol(LanguageServerProtocol):
        """pygls drops a request whose params do not read (a hover without a position, a line past
        2**31): JSON-RPC wants an answer to every request, so it gets its error here."""

        def structure_message(self, data):
            try:
                return super().structure_message(data)
            except JsonRpcException as error:
                if "method" not in data or "id" not in data:
                    raise  # a notification: nothing to answer
                msg_id = data["id"]
                if not (type(msg_id) is int or type(msg_id) is str):
                    msg_id, error = None, JsonRpcInvalidRequest()
                self._send_response(msg_id, None, error.to_response_error())
                return _ANSWERED

        def handle_message(self, message):
            # after 'shutdown' pygls passes requests over in silence: LSP wants them refused
            if self._shutdown and getattr(message, "method", "exit") != "exit" and \
                    getattr(message, "id", None) is not None and hasattr(message, "params"):
                self._send_response(message.id, None, JsonRpcInvalidRequest("the server is shutting down")
                                    .to_response_error())
                return
            super().handle_message(message)

    server = LanguageServer("rulewright", getattr(rulewright, "__version__", "0.1.0"),
                            text_document_sync_kind=t.TextDocumentSyncKind.Full, protocol_cls=AnsweringProtocol)
    docs: dict[str, Document] = {}
    severities = {"error": t.DiagnosticSeverity.Error, "warning": t.DiagnosticSeverity.Warning}
    kinds = {"keyword": t.CompletionItemKind.Keyword, "function": t.CompletionItemKind.Function,
             "variable": t.CompletionItemKind.Variable, "constant": t.CompletionItemKind.Constant,
             "struct": t.CompletionItemKind.Struct, "class": t.CompletionItemKind.Class,
             "field": t.CompletionItemKind.Field, "enum member": t.CompletionItemKind.EnumMember}
    versions: dict = {}  # uri -> the number of its newest text: a check of an older one is dropped
    pending: dict = {}   # uri -> the check of its newest text (waiting for typing to pause, or running)
    checks = _Checks()

    def document(uri: str, text: str, version: int) -> Optional[Document]:
        """Runs in the checking thread: the newest text only (a text typed over meanwhile is skipped)."""
        if versions.get(uri) != version:
            return None
        try:
            return Document(to_fs_path(uri) or uri, text, docs.get(uri))
        except Exception as exc:  # a fault of ours must not take the editor's server down
            doc = Document(to_fs_path(uri) or uri, "", docs.get(uri))
            doc.diagnostics = [Diagnostic(f"rulewright could not check this file: {exc!r}", doc.path, 1, 1)]
            return doc

    def publish(uri: str, doc: Document) -> None:
        found = []
        for d in doc.diagnostics:
            line = max(d.line - 1, 0)
            source = doc.lines[line] if line < len(doc.lines) else ""
            start = max(d.column - 1, 0)
            m = _WORD.match(source, start)
            end = m.end() if m else min(start + 1, max(len(source), start))
            found.append(t.Diagnostic(
                range=t.Range(t.Position(line, start), t.Position(line, end)),
                message=d.message + (f"\nhint: {d.hint}" if d.hint else ""),
                severity=severities.get(d.severity, t.DiagnosticSeverity.Information), source="rulewright"))
        server.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=found))

    def check_later(uri: str, pause: float) -> None:
        """Check the document's newest text after ``pause`` seconds without a change, in the checking
        thread, so that requests are answered meanwhile; a newer text cancels the check of this one."""
        versions[uri] = version = versions.get(uri, 0) + 1
        if uri in pending:
            pending.pop(uri).cancel()

        async def later():
            if pause:
                await asyncio.sleep(pause)
            text = server.workspace.get_text_document(uri).source
            doc = await checks.run(document, uri, text, version)
            if doc is None or versions.get(uri) != version:
                return  # typed over: the newer text's own check publishes
            pending.pop(uri, None)
            docs[uri] = doc
            publish(uri, doc)
        pending[uri] = asyncio.ensure_future(later())

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls, params: t.DidOpenTextDocumentParams):
        check_later(params.text_document.uri, 0)

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls, params: t.DidChangeTextDocumentParams):
        # Checking a long rules file takes a good fraction of a second: check once typing pauses,
        # not at every key (a newer change cancels the waiting check)
        check_later(params.text_document.uri, PAUSE)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls, params: t.DidSaveTextDocumentParams):
        check_later(params.text_document.uri, 0)

    def current(uri: str) -> Optional[Document]:
        """The document as the editor has it now (checked, or typed since the last check)."""
        doc = docs.get(uri)
        if uri in pending:
            text = server.workspace.get_text_document(uri).source
            doc = doc.typed(text) if doc is not None else Document.unchecked(to_fs_path(uri) or uri, text)
        return doc

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: t.DidCloseTextDocumentParams):
        if params.text_document.uri in pending:
            pending.pop(params.text_document.uri).cancel()
        versions.pop(params.text_document.uri, None)  # a check running for it is dropped
        docs.pop(params.text_document.uri, None)
        server.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                             diagnostics=[]))

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    def hover(ls, params: t.HoverParams):
        doc = current(params.text_document.uri)
        text = doc.hover(params.position.line, params.position.character) if doc else None
        if text is None:
            return None
        return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=text))

    @server.feature(t.TEXT_DOCUMENT_DEFINITION)
    def definition(ls, params: t.DefinitionParams):
        doc = current(params.text_document.uri)
        found = doc.definition(params.position.line, params.position.character) if doc else None
        if found is None:
            return None
        file, line, start, end = found
        uri = params.text_document.uri if file == doc.path else from_fs_path(str(Path(file).resolve()))
        return t.Location(uri=uri, range=t.Range(t.Position(line, start), t.Position(line, end)))

    @server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=["."]))
    def completion(ls, params: t.CompletionParams):
        doc = current(params.text_document.uri)
        if doc is None:
            return t.CompletionList(is_incomplete=False, items=[])
        items = [t.CompletionItem(label=label, kind=kinds.get(kind), detail=detail)
                 for label, kind, detail in doc.completions(params.position.line, params.position.character)]
        return t.CompletionList(is_incomplete=False, items=items)

    server.start_io()
