"""The editor server: a real LSP session with `rulewright lsp` over stdio (pygls's own client speaks
JSON-RPC to it), and the answers it gives: diagnostics as the text changes, hover, go-to-definition
into a variant's base, completion of names and keywords."""
from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
from lsprotocol import types as t  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path, to_fs_path  # noqa: E402

from rulewright.cli.lsp import Document  # noqa: E402
from rulewright.interpreter.api import shipped_games  # noqa: E402

GOOD = '''\
game "Race"
players 2
option goal: 10 | 20

# How far a player has come.
player var position = 0
record token(owner, at)

# Twice the roll: how far a token moves.
def stride(n) = 2 * n

turn:
    choose n in [1, 2, 3] as "move {n}"
    position[me] += stride(n)
    if position[me] >= goal:
        win me
        end game
'''

DOTS = "    me.\n    let first = [t in [token(me, 0)]: t.\n"  # being typed: 'me.' then a record's '.'
BAD = GOOD.replace("stride(n)\n    if", "strde(n)\n    if")  # line 14: a misspelled def
BROKEN = GOOD.replace("turn:", "turn")  # a syntax error: the block header lacks ':'


def position_of(text: str, word: str, nth: int = 0) -> t.Position:
    """The position of the nth occurrence of word (0-based line and character)."""
    lines = text.split("\n")
    seen = 0
    for i, line in enumerate(lines):
        start = 0
        while (k := line.find(word, start)) >= 0:
            if seen == nth:
                return t.Position(line=i, character=k + 1)
            seen += 1
            start = k + 1
    raise AssertionError(f"{word!r} not found")


async def session(tmp_path: Path) -> dict:
    """Open a file, change it, hover, jump and complete, as an editor would; what the server answered."""
    client = LanguageClient("test-client", "1")
    published: list = []
    arrived = asyncio.Event()

    @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: t.PublishDiagnosticsParams):
        published.append(params)
        arrived.set()

    async def diagnostics_after(send) -> t.PublishDiagnosticsParams:
        arrived.clear()
        send()
        await asyncio.wait_for(arrived.wait(), 60)
        return published[-1]

    await client.start_io(sys.executable, "-m", "rulewright.cli", "lsp")
    answers: dict = {}
    try:
        init = await asyncio.wait_for(client.initialize_async(t.InitializeParams(
            capabilities=t.ClientCapabilities(), process_id=None, root_uri=from_fs_path(str(tmp_path)))), 60)
        answers["capabilities"] = init.capabilities
        client.initialized(t.InitializedParams())
        path = tmp_path / "race.rules"
        path.write_text(BAD, encoding="utf-8")
        uri = from_fs_path(str(path))
        doc = t.TextDocumentIdentifier(uri=uri)
        answers["bad"] = await diagnostics_after(lambda: client.text_document_did_open(t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(uri=uri, language_id="rulewright", version=1, text=BAD))))

        def change(text, version):
            return lambda: client.text_document_did_change(t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[t.TextDocumentContentChangeWholeDocument(text=text)]))
        answers["broken"] = await diagnostics_after(change(BROKEN, 2))
        # names still complete while the text does not parse: those of the last text that did
        answers["complete_broken"] = await client.text_document_completion_async(t.CompletionParams(
            text_document=doc, position=t.Position(line=13, character=18)))
        answers["good"] = await diagnostics_after(change(GOOD, 3))
        # typing 'me.' and a record's 'x.': the server completes from the text being typed
        typed = GOOD + DOTS
        client.text_document_did_change(t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=4),
            content_changes=[t.TextDocumentContentChangeWholeDocument(text=typed)]))
        for name, line in (("complete_me", -3), ("complete_record", -2)):
            at = typed.split("\n")[line]
            answers[name] = await client.text_document_completion_async(t.CompletionParams(
                text_document=doc, position=t.Position(line=len(typed.split("\n")) + line, character=len(at))))
        await diagnostics_after(change(GOOD, 5))  # back to the good text, checked
        answers["hover_def"] = await client.text_document_hover_async(t.HoverParams(
            text_document=doc, position=position_of(GOOD, "stride", 1)))
        answers["hover_builtin"] = await client.text_document_hover_async(t.HoverParams(
            text_document=doc, position=position_of(GOOD, "win")))
        answers["definition"] = await client.text_document_definition_async(t.DefinitionParams(
            text_document=doc, position=position_of(GOOD, "goal", 1)))
        answers["complete"] = await client.text_document_completion_async(t.CompletionParams(
            text_document=doc, position=t.Position(line=13, character=4)))
        # a variant: the definition of a name it does not declare is in the base, a shipped game
        variant = tmp_path / "more.rules"
        text = 'extends "tic-tac-toe"\ngame "More"\n\ndef symbol(p) = "X" if p == 1 else "O"\n'
        variant.write_text(text, encoding="utf-8")
        vuri = from_fs_path(str(variant))
        answers["variant"] = await diagnostics_after(lambda: client.text_document_did_open(
            t.DidOpenTextDocumentParams(text_document=t.TextDocumentItem(
                uri=vuri, language_id="rulewright", version=1, text=text + "display s = symbol(marks[s])\n"))))
        answers["variant_definition"] = await client.text_document_definition_async(t.DefinitionParams(
            text_document=t.TextDocumentIdentifier(uri=vuri), position=t.Position(line=4, character=21)))
        await asyncio.wait_for(client.shutdown_async(None), 60)
        client.exit(None)
    finally:
        await asyncio.wait_for(client.stop(), 60)
    return answers


@pytest.fixture(scope="module")
def answers(tmp_path_factory):
    return asyncio.run(session(tmp_path_factory.mktemp("lsp")))


def test_the_server_says_what_it_can_do(answers):
    caps = answers["capabilities"]
    assert caps.hover_provider and caps.definition_provider and caps.completion_provider
    assert "." in caps.completion_provider.trigger_characters


def test_diagnostics_as_you_type(answers):
    (bad,) = answers["bad"].diagnostics
    assert "strde" in bad.message and "did you mean 'stride'" in bad.message
    assert bad.severity == t.DiagnosticSeverity.Error and bad.source == "rulewright"
    line = BAD.split("\n")[bad.range.start.line]
    assert (bad.range.start.line, line[bad.range.start.character:bad.range.end.character]) == (13, "strde")
    (broken,) = answers["broken"].diagnostics
    assert broken.range.start.line == 11 and "':'" in broken.message
    assert list(answers["good"].diagnostics) == []  # fixed: the diagnostics are cleared


def test_hover_shows_the_declaration_and_its_comment(answers):
    text = answers["hover_def"].contents.value
    assert "the def 'stride'" in text and "def stride(n) = 2 * n" in text
    assert "Twice the roll: how far a token moves." in text
    assert "turn:" not in text  # only the declaration's own line
    assert answers["hover_builtin"] is None or "keyword" in answers["hover_builtin"].contents.value


def test_go_to_definition(answers):
    loc = answers["definition"]
    assert loc.range.start.line == 2 and loc.range.start.character == 7 and loc.range.end.character == 11
    base = answers["variant_definition"]
    assert Path(to_fs_path(base.uri)).resolve() == shipped_games()["tic-tac-toe"].resolve()
    base_text = shipped_games()["tic-tac-toe"].read_text().split("\n")
    assert base_text[base.range.start.line].startswith("var marks")
    assert list(answers["variant"].diagnostics) == []  # the variant's merged game checks clean


def test_completion_offers_names_and_keywords(answers):
    labels = {i.label: i for i in answers["complete"].items}
    assert {"stride", "position", "goal", "token", "len", "choose", "if", "players"} <= set(labels)
    assert labels["stride"].kind == t.CompletionItemKind.Function and labels["stride"].detail == "def stride(n)"
    assert labels["choose"].kind == t.CompletionItemKind.Keyword
    assert {i.label for i in answers["complete_broken"].items} >= {"stride", "position"}


def test_after_me_dot_the_player_variables_complete_and_after_a_records_dot_its_fields(answers):
    mine = {i.label: i for i in answers["complete_me"].items}
    assert set(mine) == {"position"} and mine["position"].kind == t.CompletionItemKind.Variable
    fields = {i.label for i in answers["complete_record"].items}
    assert {"owner", "at"} <= fields and "stride" not in fields and "turn" not in fields


# ---------------------------------------------------------------------------------------- Document alone
def test_fields_complete_after_a_dot_and_hover_names_them(tmp_path):
    text = GOOD + "def owner_of(x) = x.ow\n"
    doc = Document(str(tmp_path / "race.rules"), text)
    last = len(text.split("\n")) - 2
    labels = [label for label, _kind, _d in doc.completions(last, len(text.split("\n")[last]))]
    assert labels == ["owner"]
    hover = doc.hover(last, text.split("\n")[last].index("x.ow") + 3)
    assert hover is None or "field 'owner'" in hover  # 'ow' is no field: no hover, or the right one


def test_a_hand_of_parts_hovers_jumps_and_completes(tmp_path):
    # 'secret in held' declares no variable of its own: the hand is found at its first part
    text = GOOD.replace("record token", "player var kept = [] secret in held\nplayer var drawn = [] secret in held\n"
                        "display:\n    players \"Held\" = held as hand\nrecord token")
    doc = Document(str(tmp_path / "race.rules"), text)
    use = position_of(text, "held as")
    assert doc.hover(use.line, use.character).startswith("**the hand 'held' (kept and drawn counted together")
    assert doc.definition(use.line, use.character)[1:] == (position_of(text, "held").line, 31, 35)
    labels = [label for label, _kind, _d in doc.completions(use.line, use.character + 2)]
    assert labels == ["held"]


def test_a_diagnostic_of_the_base_is_shown_at_the_extends_line(tmp_path):
    (tmp_path / "base.rules").write_text(GOOD.replace("stride(n)\n    if", "strde(n)\n    if"), encoding="utf-8")
    variant = tmp_path / "v.rules"
    doc = Document(str(variant), 'game "V"\nextends "base.rules"\n')
    (d,) = doc.diagnostics
    assert d.line == 2 and d.message.startswith("in base.rules:14:") and "strde" in d.message


def test_every_prefix_and_every_word_gets_an_answer_never_an_exception():
    # as a file is typed, each state of it is checked; at every word a hover, a definition and
    # completions are asked for: none may raise
    path = shipped_games()["tic-tac-toe"]
    text = path.read_text(encoding="utf-8")
    previous = None
    for end in range(0, len(text) + 1, 7):
        previous = Document(str(path), text[:end], previous)
        assert all(d.line >= 1 and d.column >= 1 for d in previous.diagnostics)
    for name in ("tic-tac-toe", "biplane-more-ammo", "planes"):
        path = shipped_games()[name]
        doc = Document(str(path), path.read_text(encoding="utf-8"))
        assert [d for d in doc.diagnostics if d.severity == "error"] == []
        for i, line in enumerate(doc.lines):
            for m in re.finditer(r"\w+", line):
                doc.hover(i, m.start())
                doc.definition(i, m.start())
            doc.completions(i, len(line))


def test_local_names_hover_and_jump_to_where_they_are_bound(tmp_path):
    doc = Document(str(tmp_path / "race.rules"), GOOD)
    use = position_of(GOOD, "stride(n)", 1)  # in the turn: 'n' is the choice made on the line above
    line = GOOD.split("\n")[use.line]
    col = line.index("stride(n)") + len("stride(")
    assert "the choice 'n'" in doc.hover(use.line, col)
    file, target, start, end = doc.definition(use.line, col)
    assert (target, GOOD.split("\n")[target][start:end]) == (12, "n")
    assert GOOD.split("\n")[target].lstrip().startswith("choose n in")
    # in the def, 'n' is its parameter, not the turn's choice
    body = position_of(GOOD, "2 * n")
    hover = doc.hover(body.line, body.character + 3)
    assert hover.startswith("**the parameter 'n'**") and "def stride(n)" in hover
    assert doc.definition(body.line, body.character + 3)[1:] == (body.line, 11, 12)


# ---------------------------------------------------------------------------------------- raw JSON-RPC
class RawClient:
    """`rulewright lsp` spoken to byte for byte, to send what pygls's client would refuse to: every
    message the server writes is kept in order."""

    def __init__(self):
        import subprocess
        self.proc = subprocess.Popen([sys.executable, "-m", "rulewright.cli", "lsp"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.received: list = []
        self._buffer = b""

    def send(self, message: dict) -> None:
        import json
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def until(self, done, limit: float = 120) -> None:
        """Read the server's messages until ``done(received)`` (a state, not a time; ``limit`` only ends
        a test that would hang)."""
        import json
        import os
        import select
        import time
        end = time.monotonic() + limit
        while not done(self.received):
            assert time.monotonic() < end, f"no such answer; received {self.received}"
            ready, _w, _x = select.select([self.proc.stdout], [], [], 1)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
                assert chunk, "the server closed its output"
                self._buffer += chunk
            while b"\r\n\r\n" in self._buffer:
                head, rest = self._buffer.split(b"\r\n\r\n", 1)
                size = int(re.search(rb"Content-Length: *(\d+)", head, re.I).group(1))
                if len(rest) < size:
                    break
                self.received.append(json.loads(rest[:size]))
                self._buffer = rest[size:]

    def replies(self, msg_id) -> list:
        return [m for m in self.received if m.get("id") == msg_id and "method" not in m]

    def close(self) -> None:
        self.send({"method": "exit"})
        try:
            self.proc.wait(60)
        finally:
            self.proc.kill()


@pytest.fixture
def raw():
    client = RawClient()
    client.send({"id": 0, "method": "initialize", "params": {"capabilities": {}, "processId": None, "rootUri": None}})
    client.until(lambda got: client.replies(0))
    client.send({"method": "initialized", "params": {}})
    yield client
    client.close()


def test_every_request_gets_exactly_one_answer(raw, tmp_path):
    uri = from_fs_path(str(tmp_path / "g.rules"))
    raw.send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "rulewright", "version": 1, "text": GOOD}}})
    raw.until(lambda got: any(m.get("method") == "textDocument/publishDiagnostics" for m in got))
    doc, far = {"uri": uri}, 2 ** 40
    requests = {
        1: ("textDocument/hover", {}),                                                   # no params inside
        2: ("textDocument/hover", None),                                                 # no params at all
        3: ("textDocument/hover", {"textDocument": doc, "position": {"line": 999, "character": 999}}),
        4: ("textDocument/hover", {"textDocument": doc, "position": {"line": -1, "character": -5}}),
        5: ("textDocument/definition", {"textDocument": doc, "position": {"line": far, "character": far}}),
        6: ("textDocument/completion", {"textDocument": doc, "position": {"line": "a", "character": None}}),
        7: ("textDocument/hover", {"textDocument": {"uri": "file:///never/opened.rules"},
                                   "position": {"line": 0, "character": 0}}),
        8: ("textDocument/noSuchThing", {}),
        "nine": ("textDocument/completion", {"textDocument": doc, "position": {"line": 13, "character": 4}}),
    }
    for msg_id, (method, params) in requests.items():
        raw.send({"id": msg_id, "method": method, **({"params": params} if params is not None else {})})
    raw.send({"id": 10, "method": "shutdown"})
    raw.send({"id": 11, "method": "textDocument/hover", "params": {"textDocument": doc,
                                                                   "position": {"line": 0, "character": 0}}})
    ids = [*requests, 10, 11]
    raw.until(lambda got: all(raw.replies(i) for i in ids))
    assert all(len(raw.replies(i)) == 1 for i in ids)
    errors = {i: raw.replies(i)[0].get("error", {}).get("code") for i in ids}
    assert [i for i, code in errors.items() if code == -32602] == [1, 2, 4, 5, 6]  # invalid params, said so
    assert errors[8] == -32601 and errors[11] == -32600  # no such method; asked after shutdown
    assert raw.replies(3)[0]["result"] is None and raw.replies(7)[0]["result"] is None
    assert any(item["label"] == "stride" for item in raw.replies("nine")[0]["result"]["items"])


def test_the_server_answers_while_it_checks_and_publishes_only_the_newest_text(raw, tmp_path):
    # 140 kB of nested quantifiers: seconds of parsing and checking, in the server's checking thread
    slow = 'game "Slow"\nplayers 2\nvar score = 0\nturn:\n' + "".join(
        f"    score = sum(x in [1, 2] : sum(y in [x] : x + y + {i}))\n" for i in range(2200)) + "    end game\n"
    uri = from_fs_path(str(tmp_path / "slow.rules"))
    raw.send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "rulewright", "version": 1, "text": slow}}})
    raw.send({"id": 1, "method": "textDocument/completion",
              "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}})
    raw.until(lambda got: raw.replies(1))
    published = [m for m in raw.received if m.get("method") == "textDocument/publishDiagnostics"]
    assert published == []  # answered while the check of the open file still ran: keywords, no names yet
    assert {"turn", "choose"} <= {item["label"] for item in raw.replies(1)[0]["result"]["items"]}
    # typed over before its check is done: only the new text's diagnostics are published
    raw.send({"method": "textDocument/didChange", "params": {
        "textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": BAD}]}})
    raw.until(lambda got: any(m.get("method") == "textDocument/publishDiagnostics" for m in got))
    raw.send({"id": 2, "method": "shutdown"})
    raw.until(lambda got: raw.replies(2))
    published = [m["params"] for m in raw.received if m.get("method") == "textDocument/publishDiagnostics"]
    assert len(published) == 1
    assert [d["message"].split("\n")[0] for d in published[0]["diagnostics"]] == ["unknown function 'strde'"]
