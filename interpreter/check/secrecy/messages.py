"""The words of the secrecy check: how a secret is named, the hint of each rule, and the short source
text of an expression (a player's key in a message)."""
from __future__ import annotations

from rulewright.dsl import ast

HINT_STORE = "make '{name}' secret or hidden, or 'reveal' what the rules turn face up"
HINT_CONDITION = ("decide it on what every player can see, or 'reveal' the condition first (or wrap what "
                  "the rulebook itself shows in revealed(...))")
HINT_LOG = "log it only to its owner (log \"...\" to p), or 'reveal' it first"
HINT_MOVE_TEXT = ("announce only the chosen value and what every player sees, or choose secretly "
                  "(choose ... secretly as \"...\" shown \"...\")")
HINT_ANNOUNCED = "choose it secretly (choose ... secretly as \"...\" shown \"...\")"
HINT_ASKED = ("ask uniformly (offer the decision every time, with only a decline when there is nothing to "
              "choose), or wrap a condition the rulebook itself reveals in revealed(...)")
HINT_AUTOMATIC = ("drop 'automatic' (ask even when only one option is legal), or make the list public: one "
                  "whose length every player sees, with no 'where' that reads a secret")
HINT_EACH = "list the players from what every player can see"
HINT_OPTIONS = "offer player {who} only public values and their own secrets"
HINT_SHOWN = "the 'shown' text may use the chosen value and what every player sees"
HINT_REVEAL = "the 'as' text of a reveal may use the value revealed and what every player sees"
HINT_END = "end the game on what every player can see, or 'reveal' it first"
HINT_TEAMS = "build the teams from what every player can see"
HINT_RANK = ("rank by public variables, or 'reveal' them at the start of 'scoring:' ('reveal v', or every "
             "player's entry: 'for p in players: reveal p.v')")
HINT_OBSERVE = "observe only what every player sees and the observing player's ('me') own secrets"

# what a store into a public variable does, by statement (rule 1)
STORES = {"assign": "the public variable '{name}' is computed from",
          "add": "the item added to the public variable '{name}' comes from",
          "remove": "the item removed from the public variable '{name}' comes from",
          "move_in": "the item moved into the public variable '{name}' comes from",
          "move_out": "the item moved out of the public variable '{name}' comes from"}


def secret_words(t: tuple, variables: dict) -> str:
    """The words for one secret (a tag of a label); ``variables``: the declared variables by name."""
    if t[0] == "own":
        what = t[2]
        if isinstance(what, tuple):
            return f"the secret choice '{what[1]}' of player {t[1]}"
        return f"the secret '{what}' of player {t[1]}"
    if t[0] == "item":
        return f"the face-down field '{t[2]}' of a '{t[1]}'"
    decl = variables.get(t[1])
    if decl is not None and decl.per_player and decl.visibility == "secret":
        return f"the secret '{t[1]}' of every player"
    if decl is not None and decl.visibility == "hidden":
        return f"the hidden '{t[1]}'"
    return f"the secret '{t[1]}'"


def unparse(node) -> str:
    """A short source text for an expression (a player's key in messages)."""
    if node is None:
        return ""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Literal):
        v = node.value
        if isinstance(v, bool):
            return "true" if v else "false"
        if v is None:
            return "none"
        return f'"{v}"' if isinstance(v, str) else str(v)
    if isinstance(node, ast.Template):
        return '"' + "".join(p if isinstance(p, str) else "{" + unparse(p) + "}" for p in node.parts) + '"'
    if isinstance(node, ast.ListLit):
        return "[" + ", ".join(unparse(i) for i in node.items) + "]"
    if isinstance(node, ast.MapLit):
        return "{" + ", ".join(f"{unparse(k)}: {unparse(v)}" for k, v in node.items) + "}"
    if isinstance(node, ast.Attr):
        return f"{_operand(node.obj)}.{node.name}"
    if isinstance(node, ast.Index):
        return f"{_operand(node.obj)}[{unparse(node.index)}]"
    if isinstance(node, ast.Call):
        args = [unparse(a) for a in node.args] + [f"{k}: {unparse(v)}" for k, v in node.kwargs]
        return f"{unparse(node.func)}({', '.join(args)})"
    if isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp)):
        return f"{_operand(node.left)} {node.op} {_operand(node.right)}"
    if isinstance(node, ast.Not):
        return f"not {_operand(node.operand)}"
    if isinstance(node, ast.Neg):
        return f"-{_operand(node.operand)}"
    if isinstance(node, ast.Cond):
        return f"{_operand(node.then)} if {_operand(node.test)} else {_operand(node.orelse)}"
    if isinstance(node, ast.Match):
        if node.subject is None:
            arms = [f"if {unparse(ps[0])}: {unparse(v)}" for ps, v in node.arms]
        else:
            arms = [f"{' | '.join(_operand(p) for p in ps)}: {unparse(v)}" for ps, v in node.arms]
        if node.orelse is not None:
            arms.append(f"else: {unparse(node.orelse)}")
        head = "match" if node.subject is None else f"match {unparse(node.subject)}"
        return f"{head} {{{', '.join(arms)}}}"
    if isinstance(node, ast.Quantifier):
        return f"{node.func}({_binder_text(node.binder)})"
    if isinstance(node, ast.ListComp):
        return f"[{_binder_text(node.binder)}]"
    return "?"


def _operand(node) -> str:
    text = unparse(node)
    return f"({text})" if isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp, ast.Cond, ast.Not, ast.Neg)) else text


def _binder_text(b: ast.Binder) -> str:
    out = f"{b.var} in {unparse(b.source)}"
    if b.where is not None:
        out += f" where {unparse(b.where)}"
    if b.body is not None:
        out += f" : {unparse(b.body)}"
    return out
