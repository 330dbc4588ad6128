"""The syntax tree of a rules file: frozen attrs nodes, each carrying the span it came from.

Nodes are plain data so that the checker and the compiler can walk them and every later
error can point back at ``file:line:col``. What a node is and the walks over any node: dsl/nodes.py;
what each statement binds, holds and writes (declared here with ``@statement``): dsl/statement_facts.py.
Both are read through this module too (``ast.walk``, ``ast.bound``).
"""
from __future__ import annotations

from typing import Any, Optional

import attrs

from rulewright.dsl.nodes import (  # noqa: F401 (read as ast.walk, ast.Span...)
    Span, node, parts, places_field, put_back, rewrite, span_field, walk)
from rulewright.dsl.statement_facts import (  # noqa: F401 (read as ast.bound, ast.BLOCK...)
    ALTERNATIVES, BLOCK, PAIRS, STATEMENTS, blocks_of, bound, changed, statement, statements, with_blocks)


# ----------------------------------------------------------------------------- expressions
@node
class Name:
    id: str
    span: Span = span_field()


@node
class Literal:
    value: Any
    span: Span = span_field()


@node
class Template:
    """A string with ``{expr}`` holes; parts are strings and expressions in order."""
    parts: tuple
    span: Span = span_field()


@node
class ListLit:
    items: tuple
    span: Span = span_field()


@node
class MapLit:
    items: tuple  # pairs (key, value)
    span: Span = span_field()


@node
class Binder:
    """``x in source where cond : body`` inside a quantifier or a list comprehension."""
    BINDS = (("var", "item"),)
    var: str
    source: Any
    where: Any
    body: Any
    descending: bool = False  # 'sorted(x in xs: key descending)': the highest key first
    span: Span = span_field()


@node
class ListComp:
    binder: Binder
    span: Span = span_field()


@node
class Quantifier:
    func: str
    binder: Binder
    span: Span = span_field()


@node
class Attr:
    obj: Any
    name: str
    span: Span = span_field()


@node
class Index:
    obj: Any
    index: Any
    span: Span = span_field()


@node
class Call:
    func: Any
    args: tuple
    kwargs: tuple  # pairs (name, expr): a record's fields by name, after the positional ones
    span: Span = span_field()
    names_at: tuple = places_field()  # the span of each named argument's name, as kwargs


@node
class BinOp:
    op: str
    left: Any
    right: Any
    span: Span = span_field()


@node
class Compare:
    op: str  # == != < <= > >= in notin
    left: Any
    right: Any
    span: Span = span_field()


@node
class BoolOp:
    op: str  # and / or
    left: Any
    right: Any
    span: Span = span_field()


@node
class Not:
    operand: Any
    span: Span = span_field()


@node
class Neg:
    operand: Any
    span: Span = span_field()


@node
class Cond:
    test: Any
    then: Any
    orelse: Any
    span: Span = span_field()


@node
class Match:
    """``match x { a: 1, b | c: 2, else: 3 }`` (arms: (patterns, value), the first pattern equal to x
    wins) or, with no subject, ``match { if c: 1, else: 3 }`` (arms: ((condition,), value))."""
    subject: Any  # None: each arm's one pattern is a condition
    arms: tuple
    orelse: Any = None  # no 'else' and no arm fits: a run-time error
    span: Span = span_field()


@node
class LetIn:
    """A def's ``let name = value`` line, scoping over the rest of its body."""
    BINDS = (("name", "local"),)
    name: str
    value: Any
    body: Any
    span: Span = span_field()


# ----------------------------------------------------------------------------- statements
@statement(binds=(("name", "local"),), blocks=(), changes=())
class Let:
    name: str
    value: Any
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=("target",))
class Assign:
    target: Any
    value: Any
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=("target",))
class AugAssign:
    target: Any
    op: str
    value: Any
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=())
class CallStmt:
    call: Call
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=())
class Pass:
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=())
class EndGame:
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=())
class Win:
    players: Any
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=())
class Log:
    message: Any  # Template or Literal
    to: Any = None  # who may read it (a player or a list of players); None: everyone
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=())
class Reveal:
    """Turn something face up on purpose: a local's value, a variable, or one player's entry."""
    what: Any
    text: Any = None  # Template: what the event says; None: the value's own text
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=("target",))
class Add:
    item: Any
    target: Any
    bottom: bool
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=("source",))
class Remove:
    item: Any
    source: Any
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=("source", "target"))
class MoveItem:
    item: Any
    source: Any
    target: Any
    bottom: bool
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=("target",))
class Shuffle:
    target: Any
    span: Span = span_field()


@statement(binds=(("name", "item drawn"),), blocks=(), changes=("source",))
class Draw:
    name: str
    source: Any
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=())
class Return:
    value: Any
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=())
class Break:
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=())
class Fail:
    message: Any
    span: Span = span_field()


@statement(binds=(), blocks=(), changes=())
class TakeTurn:
    player: Any
    span: Span = span_field()


@statement(binds=(), blocks=(("branches", PAIRS), ("orelse", BLOCK)), changes=())
class If:
    branches: tuple  # pairs (cond, body)
    orelse: tuple
    span: Span = span_field()


@statement(binds=(("var", "loop variable"),), blocks=(("body", BLOCK),), changes=())
class For:
    var: str
    source: Any
    body: tuple
    span: Span = span_field()


@statement(binds=(), blocks=(("body", BLOCK),), changes=())
class While:
    cond: Any
    body: tuple
    span: Span = span_field()


@statement(binds=(), blocks=(("body", BLOCK),), changes=())
class Repeat:
    count: Any
    body: tuple
    span: Span = span_field()


@statement(binds=(), blocks=(("body", BLOCK),), changes=())
class Step:
    label: str
    body: tuple
    span: Span = span_field()


@statement(binds=(("var", "choice"),), blocks=(), changes=())
class Choose:
    var: str
    source: Any
    where: Any = None
    by: Any = None
    text: Any = None      # Template
    optional: Any = None  # the text of declining, or None
    secret: bool = False  # the other players see only that a choice was made (or 'shown')
    shown: Any = None     # Template: what the other players see of the chosen move
    automatic: bool = False  # one option left: taken without asking
    prompt: Any = None    # Template: what the decider is asked (explain.py; shown to the decider only)
    span: Span = span_field()


@node
class Alternative:
    label: str
    guard: Any
    body: tuple
    # the name given with 'as NAME' (errata address the alternative by it), or None: no part of the game's
    # meaning once the errata are applied, so not in a save's fingerprint (repr)
    name: Any = attrs.field(default=None, repr=False)
    span: Span = span_field()


@statement(binds=(), blocks=(("alternatives", ALTERNATIVES),), changes=())
class ChooseBlock:
    by: Any
    alternatives: tuple
    secret: bool = False  # the others see only that a choice was made
    prompt: Any = None    # Template: what the decider is asked (explain.py; shown to the decider only)
    # the lines of a variant's errata that changed the alternatives (named when none can be taken)
    amended_at: tuple = attrs.field(default=(), eq=False, repr=False, kw_only=True)
    span: Span = span_field()


@statement(binds=(("player_var", "deciding player"),), blocks=(("body", BLOCK),), changes=())
class ChooseEach:
    player_var: str
    players: Any
    choice: Choose
    body: tuple
    window: bool = False  # 'each p in xs may choose': a reaction window
    span: Span = span_field()


# ----------------------------------------------------------------------------- declarations
@node
class GameDecl:
    name: str
    span: Span = span_field()


@node
class Extends:
    base: str
    span: Span = span_field()


@node
class StepOverlay:
    """In a variant: replace the base's step with this label, or put statements before or after it."""
    mode: str  # replace | before | after
    label: str
    place: Any  # the block or procedure holding the step, or None (anywhere, if the label is unique)
    body: tuple
    span: Span = span_field()


@node
class AddRows:
    """In a variant: more rows for a table of the base."""
    table: str
    rows: tuple
    span: Span = span_field()


@node
class AddValues:
    """In a variant: more values for an option of the base, and perhaps another default (a value of it)."""
    option: str
    values: tuple
    default: Any = None
    span: Span = span_field()


@node
class AddMembers:
    """In a variant: more members for an enum of the base."""
    enum: str
    members: tuple
    span: Span = span_field()


@node
class Amend:
    """In a variant, an erratum: ``in PLACE, CHANGE`` amends one part of a base declaration in place."""
    place: tuple    # ("def", name) | ("procedure", name) | ("step", label, holder or None) | ("block", kind)
    change: str     # arms | branches | add | replace | remove
    items: tuple    # match arms (patterns, value), elif branches (cond, body), or Alternatives
    target: Any = None  # the alternative replaced, removed, or added before: its text, or a Name it was given
    span: Span = span_field()


@node
class Retire:
    """In a variant: a base step, procedure or def taken out of the game."""
    kind: str       # step | procedure | def
    name: str       # the step's label, or the name
    place: Any = None  # a step's holder, when its label repeats
    span: Span = span_field()


@node
class PlayersDecl:
    low: int
    high: int
    span: Span = span_field()


@node
class OptionDecl:
    name: str
    values: tuple
    span: Span = span_field()
    # what the option does, for people (`rulewright list`): no part of the rules' meaning
    about: str = attrs.field(default="", eq=False, repr=False, kw_only=True)


@node
class Require:
    cond: Any
    message: str
    span: Span = span_field()


@node
class Invariant:
    """What must hold after every move: checked by the tools that play the game for its author, never
    in plain play unless asked (interpreter/play/invariants.py)."""
    name: str
    cond: Any
    span: Span = span_field()


@node
class EnumDecl:
    name: str
    members: tuple
    # the members that carry data, each a RecordDecl of its fields: made as 'discard(c)', a record
    # whose field "is" holds the member's name (see docs/language.md, "Members with data")
    tagged: tuple = ()
    span: Span = span_field()


@node
class TableRow:
    values: tuple
    copies: Any  # how many copies: a number, or the name of an option of numbers
    span: Span = span_field()
    copies_at: tuple = places_field()  # (the span of the copies' option name,) when an option says


@node
class TableDecl:
    name: str
    columns: tuple
    rows: tuple
    span: Span = span_field()


@node
class BoardSpec:
    """What follows 'board NAME:': the kind's word, the words after it (Name or Literal nodes) and the
    indented lines under it; the board kind (interpreter/boards/base.py) gives them their meaning."""
    kind: str
    words: tuple
    edges: tuple = ()  # the indented lines: (from, (to, ...), span)
    span: Span = span_field()
    # the options' values, for a kind that lets a word name an option ('grid rows by columns'): set by
    # boards.with_options for the game being checked or compiled, never by the parser
    options: dict = attrs.field(factory=dict, eq=False, repr=False, kw_only=True, metadata={"place": True})


@node
class BoardDecl:
    name: str
    guard: Any
    spec: Any
    span: Span = span_field()


@node
class VarDecl:
    name: str
    value: Any
    per_player: bool
    visibility: str  # public | hidden | secret
    hand: Optional[str] = None  # 'secret in HAND': a part of the player's hand of that name
    span: Span = span_field()


@node
class FieldVisibility:
    """Who sees one field of every record of a kind: nobody ('hidden') or the player held in
    ``owner`` ('secret to owner'); everyone once the field ``unless`` is true."""
    kind: str            # hidden | secret
    owner: Any = None    # the field naming the player who sees it (secret)
    unless: Any = None   # the field that turns it face up
    span: Span = span_field()


@node
class RecordDecl:
    name: str
    fields: tuple
    visibility: tuple = ()  # (field, FieldVisibility) for the fields that are not public
    defaults: tuple = ()  # (field, expr): the value a field takes when a construction leaves it out
    span: Span = span_field()


@node
class DefDecl:
    name: str
    params: tuple
    body: Any
    span: Span = span_field()


@node
class ProcDecl:
    name: str
    params: tuple
    body: tuple
    span: Span = span_field()


@node
class BlockDecl:
    kind: str  # setup | round | turn | scoring
    body: tuple
    span: Span = span_field()


@node
class EndWhen:
    cond: Any
    timing: str  # turn | round
    span: Span = span_field()


@node
class RankDecl:
    keys: tuple  # pairs (per-player variable, ascending?)
    span: Span = span_field()


@node
class TeamsDecl:
    teams: Any
    span: Span = span_field()


@node
class DisplayDecl:
    name: str
    expr: Any
    span: Span = span_field()


@node
class ScreenLook:
    """``as cards``: how a picture draws a ``display:`` entry (card, cards, tokens, pile, track, hand), with
    the face that draws each item (None: the face of the item's table or record) and a track's range."""
    kind: str
    face: Any = None       # a face's name, or None
    low: Any = None        # a track's first and last numbers (None: from the values shown)
    high: Any = None
    span: Span = span_field()


@node
class ScreenEntry:
    label: str
    expr: Any
    look: Any = None  # ScreenLook, or None: shown as text only
    span: Span = span_field()


@node
class FaceDecl:
    """``face card c:`` in ``display:``: how an item looks in a picture. ``name`` is a table or a
    record (its items are drawn so) or a name of its own (named by ``as cards NAME``); ``param`` stands
    for the item; ``parts`` are (part, expression) for title, corner, text and colour; ``gauges`` are
    (label, value, maximum) expressions."""
    name: str
    param: str
    parts: tuple
    gauges: tuple
    span: Span = span_field()


@node
class PathsDecl:
    """``paths s = ...`` in ``display:``: the lines drawn on the board from space ``s``, each a list of
    spaces (two: a straight line; three: a curve bent towards the middle one)."""
    name: str
    expr: Any
    span: Span = span_field()


@node
class ScreenLine:
    """One line of a ``display:`` section: its word (legend, colours, own, players, table) and its
    ``"Label" = expression`` entries (ScreenEntry)."""
    word: str
    entries: tuple
    span: Span = span_field()


@node
class ScreenDecl:
    """``display:``, how the play screen looks: the board's spaces (``board s = ...``, a DisplayDecl)
    and the other lines in order."""
    board: Any  # DisplayDecl or None
    lines: tuple
    faces: tuple = ()    # FaceDecl
    paths: Any = None    # PathsDecl or None
    span: Span = span_field()


@node
class ObserveDecl:
    """``observe:``, what each player observes as numbers: ``"Label" = expression`` entries (ScreenEntry)
    worked out for the observing player ``me``, flattened into one list (the observation tensor)."""
    entries: tuple
    span: Span = span_field()


@node
class RulesFile:
    filename: str
    source: str
    decls: tuple
    # every file the declarations came from (a variant and its bases), by name: errors quote their lines
    sources: dict = attrs.field(factory=dict, eq=False, repr=False)
    # what is worked out once from the declarations (the symbol table), kept with them
    derived: dict = attrs.field(factory=dict, eq=False, repr=False)

    def __attrs_post_init__(self):
        self.sources.setdefault(self.filename, self.source)

    def source_line(self, span: Span) -> str:
        """The line a span points at, in whichever file it comes from ('' if unknown)."""
        split = self.derived.setdefault("lines", {})  # split once per file: a file may have thousands of errors
        lines = split.get(span.file)
        if lines is None:
            lines = split[span.file] = self.sources.get(span.file, "").split("\n")
        return lines[span.line - 1].rstrip("\r") if 0 < span.line <= len(lines) else ""
