"""Which options each def, procedure and block may read: `validate` compiles the rules for every player
count and option value, and a part generated with the same constants is generated the same way, so it
needs generating (and checking) only once per player count and values of the options it reads.

Over-approximated on purpose (a wrong "reads nothing" would hide an error): a part reads every option
whose name is any word of its own syntax tree or of a def or procedure it names, transitively; and every
option named anywhere outside the defs, procedures and blocks (a board's 'when', a table's rows, a
record's default...; not its own declaration nor a 'require') may change what any part means, so
every part reads it. The player count is not
tracked: code generation reads it in many places, so a variant with another player count is generated
whole (cli/validate.py).
"""
from __future__ import annotations

from rulewright.dsl import ast
from rulewright.interpreter.check.symbols import symbols


def _words(node) -> set:
    """Every text held anywhere in a syntax tree (names, fields, texts): a superset of the names it reads."""
    out: set = set()
    pending = [node]
    while pending:
        n = pending.pop()
        if isinstance(n, str):
            out.add(n)
        elif isinstance(n, dict):
            pending.extend(n.keys())
            pending.extend(n.values())
        elif isinstance(n, (tuple, list, set, frozenset)):
            pending.extend(n)
        else:
            pending.extend(ast.parts(n))
    return out


def option_reads(rules: ast.RulesFile) -> dict:
    """Each part (def, procedure, block, by name) -> the frozenset of the options it may read."""
    sym = symbols(rules)
    options = set(sym.option_values)
    bodies: dict = {}
    for table in (sym.defs, sym.procs, sym.blocks):
        for name, d in table.items():
            bodies.setdefault(name, []).append(d)
    part_decls = {id(d) for ds in bodies.values() for d in ds}
    everywhere = set()
    for d in rules.decls:
        # an option's own declaration, and a 'require' (worked out apart, Game._check_requirements)
        if id(d) not in part_decls and not isinstance(d, (ast.OptionDecl, ast.Require)):
            everywhere |= _words(d) & options
    words = {name: set().union(*(_words(d) for d in ds)) for name, ds in bodies.items()}
    reads = {}
    for name in bodies:
        seen, pending, found = {name}, [name], set(everywhere)
        while pending:  # the options of this part and of every part it names
            here = words[pending.pop()]
            found |= here & options
            for other in here & bodies.keys() - seen:
                seen.add(other)
                pending.append(other)
        reads[name] = frozenset(found)
    return reads
