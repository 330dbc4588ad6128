"""The functions the machine runs: a procedure's instructions (instructions.py) joined into straight-line
stretches of generated Python, and the generated loops that gather a decision's options.

From each place a jump, a return from a call or a decision can land on, the instructions that follow
one another (both ways of a branch while the stretch is small) become one function ``_sN(st, env)``
returning the next pc; each instruction alone is the same kind of function, a stretch of one, made when
the machine first single-steps it (near the step limit). Every way out of a stretch is an ``Out`` of an
instruction's lines, written once the most instructions a path runs is known (machine.REFUND_SHIFT).
"""
from __future__ import annotations

from rulewright.interpreter.compile.codegen import Module, hoisted_lines
from rulewright.interpreter.compile.instructions import ForNext, Jump, JumpUnless, Out
from rulewright.interpreter.engine.failed_operation import ITEMS
from rulewright.interpreter.engine.machine import REFUND_SHIFT, with_refund


class Writer:
    """What an instruction needs to write itself as Python: ``constant(x)``, a namespace name for
    ``x``; the compiled game (its 'end when' conditions) and its player count."""

    def __init__(self, module: Module, game):
        self.module = module
        self.constant = module.constant
        self.game = game
        self.player_count = game.player_count


_STRETCH_MOST = 200  # instructions on one path of a stretch at most (a long procedure is several)
# A stretch follows both ways of a branch while it has taken fewer than this many instructions in all and
# has fewer paths than _PATHS_MOST (each path may still run to _STRETCH_MOST): beyond, a branch not taken
# leaves the stretch, as a loop's end does.
_BRANCHING_MOST = 48
_PATHS_MOST = 4


class Alone:
    """Each instruction of a procedure as a function of its own (a stretch of one), compiled the first
    time it is asked for: the machine single-steps only near the step limit (and coverage, always)."""

    def __init__(self, proc, w: Writer):
        self._proc, self._w = proc, w
        self._made: dict = {}

    def __len__(self) -> int:
        return len(self._proc.instructions)

    def __getitem__(self, pc: int):
        fn = self._made.get(pc)
        if fn is None:
            if not 0 <= pc < len(self):
                raise IndexError(pc)
            fn = self._made[pc] = _define(self._proc, self._w, pc, _STRETCH_MOST, alone=True)[0]
        return fn

    def __iter__(self):
        return (self[pc] for pc in range(len(self)))

    def waiting(self, pc: int):
        """A function that makes instruction ``pc`` alone when first run."""
        return lambda st, env: self[pc](st, env)


def add_stretches(proc, w: Writer) -> None:
    """Give ``proc`` its functions: ``proc.code[pc]`` instruction ``pc`` alone, ``proc.fast[pc]`` the
    stretch from each landing place, ``proc.costs[pc]`` the most instructions it runs on any path (the
    machine counts steps exactly: a path that runs fewer gives the rest back, see machine.REFUND_SHIFT),
    ``proc.lines_of`` each function's code to the pc of each line (the machine locates an error at the
    instruction that failed)."""
    instructions = proc.instructions
    n = len(instructions)
    alone = Alone(proc, w)
    proc.code = alone
    if n >= 1 << REFUND_SHIFT:  # a procedure this long is left to run instruction by instruction
        proc.fast, proc.costs = tuple(alone.waiting(pc) for pc in range(n)), (1,) * n
        return
    landings = {0}
    for pc, ins in enumerate(instructions):
        if isinstance(ins, (Jump, JumpUnless)):
            landings.add(ins.target.pc)
        elif isinstance(ins, ForNext):
            landings.add(ins.end.pc)
        if not ins.falls_through:
            landings.add(pc + 1)
    fast, costs = [alone.waiting(pc) for pc in range(n)], [1] * n
    for start in sorted(p for p in landings if p < n):
        fast[start], costs[start] = _define(proc, w, start, _STRETCH_MOST)
    proc.fast, proc.costs = tuple(fast), tuple(costs)


def _define(proc, w: Writer, start: int, most: int, alone: bool = False) -> tuple:
    """The stretch from ``start`` compiled: (its function, the most instructions it runs)."""
    stretch = _Stretch(proc, w, 1 if alone else most, branching=not alone)
    stretch.path(start, 0, set(), "")
    name = w.module.fresh("_s")
    fn = w.module.define(f"def {name}(st, env):\n" + "\n".join(stretch.finished()), name)
    code = getattr(fn, "__code__", None)
    if code is not None:
        proc.lines_of[code] = {i + 2: p for i, p in enumerate(stretch.line_pcs)}  # line 1 is the 'def'
    return fn, stretch.most


class _Stretch:
    """The lines of one stretch, path by path. Every way out is written once the most instructions any
    path runs is known: a path that ran fewer returns its pc with the rest to give back in its high bits
    (machine.REFUND_SHIFT)."""

    def __init__(self, proc, w: Writer, most: int, branching: bool):
        self.proc, self.w, self.path_most, self.branching = proc, w, most, branching
        self.lines: list = []      # a line, or (indent, pc to return, instructions run by then)
        self.line_pcs: list = []
        self.most = 0              # the most instructions a path runs
        self.taken = 0             # instructions taken on all paths so far
        self.paths = 1

    def add(self, line, pc) -> None:
        self.lines.append(line)
        self.line_pcs.append(pc)

    def leave(self, indent: str, to: int, ran: int, pc) -> None:
        self.add((indent, to, ran), pc)
        self.most = max(self.most, ran)

    def path(self, pc: int, count: int, seen: set, indent: str) -> None:
        """The lines from ``pc`` on, ``count`` instructions run before it on this path, to its end."""
        instructions, w, n = self.proc.instructions, self.w, len(self.proc.instructions)
        # A path goes on through the places others land on and along plain jumps (an 'if' body's jump
        # past its 'else', a loop's jump back to its head). It stops at a call (of a procedure that may
        # decide), a decision, a return (each ends it), or where it would come back to an instruction
        # it has already run.
        while pc < n and pc not in seen and count < self.path_most:
            seen.add(pc)
            ins = instructions[pc]
            count += 1
            self.taken += 1
            if type(ins) is Jump:
                pc = ins.target.pc
                continue
            if type(ins) is JumpUnless and ins.target.pc != pc + 1:
                # a branch: on when it holds; when not, the other way is followed too while the stretch is
                # small, else the stretch leaves there
                self.add(f"{indent}if not ({ins.cond.source}):", pc)
                if self.branching and self.taken < _BRANCHING_MOST and self.paths < _PATHS_MOST:
                    self.paths += 1
                    self.path(ins.target.pc, count, set(seen), indent + "    ")
                else:
                    self.leave(indent + "    ", ins.target.pc, count, pc)
                pc += 1
                continue
            if type(ins) is JumpUnless:  # a branch whose two ways meet at once: its condition still runs
                self.add(f"{indent}{ins.cond.source}", pc)
                pc += 1
                continue
            goes_on = None
            for line in ins.lines(pc, w):
                if type(line) is not Out:
                    self.add(indent + line, pc)
                elif line.indent or line.pc != pc + 1:
                    self.leave(indent + line.indent, line.pc, count, pc)
                else:  # the instruction's own way on, at its end: the path goes on there
                    goes_on = pc + 1
            pc += 1
            if not ins.falls_through and goes_on is None:
                return
        self.leave(indent, pc, count, self.line_pcs[-1] if self.line_pcs else pc)

    def finished(self) -> list:
        """The function's body: every way out written with what it gives back."""
        out = []
        for line in self.lines:
            if type(line) is tuple:
                indent, to, ran = line
                line = f"{indent}return {with_refund(to, self.most - ran)}"
            out.append("    " + line)
        return out


# ----------------------------------------------------------------------------- decisions
def options_function(module: Module, source, var: str, where, text, visibility: bool, option: str,
                     numbered: str, leaves_var: bool = True, hoisted=None, tests=(), text_reads_item_only: bool = False):
    """The options of a decision as one generated function ``(st, env) -> options``: each item of
    ``source`` (a generated source, expressions.Code; bound to ``x`` and to ``env[var]``, ``var`` written
    with ascii()) that passes ``where`` becomes an Option with ``text`` (else the item's own text), a text
    already taken numbered by ``numbered``. ``where`` and ``text`` are generated sources or None,
    ``hoisted`` the game variables they read (ExprSource.hoisting), ``tests`` the lines testing those
    once (Comparisons.tests_hoisted); ``text_reads_item_only``: the text
    reads nothing but the item. ``leaves_var``: the caller reads ``env[var]`` afterwards (the last item);
    else it is set only when ``where`` or ``text`` reads a local."""
    name = module.fresh("_o")
    if text is None:
        text_reads_item_only = not visibility
        text = ("x if type(x) is str else _public_text(st.game, x)" if visibility
                else "x if type(x) is str else str(x) if type(x) is int else _to_text(x, st)")
    pairs = _constant_texts(module, source, text) if text_reads_item_only else None
    lines = [f"def {name}(st, env):", *("    " + line for line in hoisted_lines(hoisted) + list(tests)), "    opts = []"]
    if pairs is not None:  # each item's text known before the game: no text made, none taken twice
        lines.append(f"    for x, t in {pairs}:")
    else:
        items = source.read_only(module)
        lines += ["    seen = {}", "    " + module.operation((ITEMS,), f"for x in {items}:", items)]
    if leaves_var or "env" in (where or "") + (text or ""):
        lines.append(f"        env[{var}] = x")
    if where is not None:
        lines += [f"        if not {where}:", "            continue"]
    if pairs is None:
        lines += [f"        t = {text}", "        if t in seen:", f"            t = {numbered}(seen, t, x, st)",
                  "            if t is None:", "                continue", "        seen[t] = x"]
    lines += [f"        opts.append({option}(t, x))", "    return opts"]
    module.define("\n".join(lines), name)
    return name


_TEXTS_MADE_MOST = 1000  # items of a list whose texts are made when the game is compiled, at most


def _constant_texts(module: Module, source, text: str):
    """The name of a constant list of (item, its text) when ``source`` is a constant list of numbers and
    texts (the caller knows ``text`` reads nothing but the item), the texts all different and short (no
    work to count): worked out here, once, by the same code. Else None."""
    values = source.value if source.is_const else None
    if type(values) is not list or not values or len(values) > _TEXTS_MADE_MOST:
        return None
    if any(type(v) is not int and type(v) is not str for v in values):
        return None
    fname = module.fresh("_x")
    fn = module.define(f"def {fname}(x, st=None):\n    return {text}", fname)
    try:
        texts = [fn(v) for v in values]
    except Exception:  # left to fail when it runs, where the machine names the rule's line
        return None
    if any(type(t) is not str or len(t) > 1000 for t in texts) or len(set(texts)) < len(texts):
        return None
    return module.constant(list(zip(values, texts)))
