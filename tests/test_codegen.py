"""Rules compiled to generated Python source (interpreter/compile/codegen.py): a rules file can never inject
Python, the source keeps the rules' meaning, errors still point at the rule at fault, and
`rulewright compile --emit` prints it."""
from __future__ import annotations

import ast as pyast
import random
import re

import pytest
from typer.testing import CliRunner

from rulewright.cli.main import app
from rulewright.dsl.errors import RulesRuntimeError
from rulewright.interpreter.compile import codegen
from rulewright.interpreter.engine.builtins import BUILTINS, without_one_step
from rulewright.interpreter.api import Game, load
from rulewright.interpreter.testing import game_from_text

HEAD = 'game "T"\nplayers 2\n'


def game_of(text: str, players: int = 2) -> Game:
    return game_from_text(text, players, filename="x.rules")


def source_of(game: Game) -> str:
    return game.compiled.exprs.module.source()


def identifiers(source: str) -> set:
    """Every name the generated Python uses (variables, attributes, arguments, functions)."""
    names = set()
    for node in pyast.walk(pyast.parse(source)):
        if isinstance(node, pyast.Name):
            names.add(node.id)
        elif isinstance(node, pyast.Attribute):
            names.add(node.attr)
        elif isinstance(node, pyast.arg):
            names.add(node.arg)
        elif isinstance(node, pyast.FunctionDef):
            names.add(node.name)
    return names


def strings(source: str) -> list:
    return [n.value for n in pyast.walk(pyast.parse(source)) if isinstance(n, pyast.Constant) and type(n.value) is str]


# ----------------------------------------------------------------------------- no injection
HOSTILE_TEXTS = [
    r'a\"b', "it's", r"x')\nimport os\nos.system('echo pwned')\n('", "{{braces}}", r"back\\slash",
    "naïve ünïcödé ✈ 飛行機", "'''triple'''", r'\"\"\"', "%s %d", "__import__('os')",
]


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_a_hostile_text_stays_text(text):
    """Quotes, newlines, braces, backslashes and unicode in the rules' texts end up as data: the
    generated source holds them only as string constants, and the game uses them as written."""
    rules = HEAD + f'var said = ""\nturn:\n    said = "{text}" + "!"\n    choose c in ["{text}", "ok"]\n    end game\n'
    game = game_of(rules)
    st = game.new_state(seed=1)
    moves = [m.text for m in st.legal_moves()]
    assert moves[1] == "ok" and st.vars["said"] == moves[0] + "!"
    source = source_of(game)
    used = identifiers(source)
    assert "import" not in used and "os" not in used and "system" not in used
    assert moves[0] + "!" in strings(source)  # the sum folded to one constant, written as data


DUNDER_NAMES = ["__import__", "__builtins__", "__class__", "eval", "exec", "os", "st", "env", "me_", "_c0", "_d0",
                "_t0", "_v0", "_missing", "_game", "_copy_value", "items", "inner", "i", "xs", "v", "target", "n",
                "kept", "values", "out", "open", "type", "len", "None", "globals"]


@pytest.mark.parametrize("name", DUNDER_NAMES)
def test_every_name_of_the_rules_is_mangled(name):
    """A name the rules choose (a local, a def, its parameter, a quantifier's variable, a game variable)
    never becomes a Python identifier: the game runs as with any other name."""
    def rules_naming(name):
        return (HEAD + f"var {name}_v = 1\n"
                f"def {name}({name}_p) = {name}_p + count({name} in [1, 2, 3] where {name} > {name}_p)\n"
                f"turn:\n    let {name}_l = {name}({name}_v)\n    {name}_v = {name}_l + 1\n"
                f"    choose c in [{name}_v, 7]\n    end game\n")
    rules = rules_naming(name)
    if name in ("None",):  # not a name of the language: the parser refuses it, nothing to compile
        return
    game = game_of(rules)
    st = game.new_state(seed=1)
    assert [m.text for m in st.legal_moves()] == ["4", "7"]  # 1 + count(x > 1) = 3, plus 1
    # the same rules with other names compile to the same identifiers: no name of the rules is one
    plain = game_of(rules_naming("zz"))
    assert identifiers(source_of(game)) == identifiers(source_of(plain))


def test_huge_numbers_are_constants_not_source():
    """A number folded while compiling, however large, is a constant of the namespace, not source."""
    big = "1000000000 * 1000000000 * 1000"
    game = game_of(HEAD + f"var n = 0\nturn:\n    n = {big} + n\n    n = n - {big} + 5\n    choose c in [n, 1]\n"
                          "    end game\n")
    st = game.new_state(seed=1)
    assert [m.text for m in st.legal_moves()] == ["5", "1"]
    assert str(10 ** 21) not in source_of(game)


def test_generated_source_is_made_of_ascii_only():
    game = game_of(HEAD + 'turn:\n    log "héllo ✈ {1 + 1}"\n    choose c in ["é"]\n    end game\n')
    assert source_of(game).isascii()
    st = game.new_state(seed=1)
    assert st.legal_moves()[0].text == "é"


# ----------------------------------------------------------------------------- same meaning
def test_a_def_runs_as_a_python_function_with_positional_arguments():
    game = game_of(HEAD + "def add3(a, b, c) = a + b * c\nturn:\n    choose c in [add3(1, 2, 3)]\n    end game\n")
    assert "def _d0(st, me, _a0, _a1, _a2):" in source_of(game)
    assert game.new_state(seed=1).legal_moves()[0].text == "7"


def test_quantifiers_become_loops_and_keep_their_meaning():
    rules = HEAD + ("var xs = [3, 1, 2, 3]\nvar res = []\n"
                    "turn:\n"
                    "    res = [count(x in xs where x > 1), sum(x in xs: x * 2), all(x in xs: x > 0),"
                    " any(x in xs: x > 5), min(x in xs: -x), first(x in xs where x < 3), sorted(x in xs: -x),"
                    " highest(x in xs: x), [x in xs where x != 3: x + 1]]\n"
                    "    choose c in [1]\n    end game\n")
    game = game_of(rules)
    st = game.new_state(seed=1)
    assert st.vars["res"] == [3, 18, True, False, -3, 1, [3, 3, 2, 1], [3, 3], [2, 3]]
    assert "for _v" in source_of(game)


def test_a_def_that_calls_defs_counts_its_calls_as_work():
    # two different calls (the same call twice is computed once: see the common subexpressions below)
    game = game_of(HEAD + "def f(n) = 1 if n < 2 else f(n - 1) + f(n - 2)\n"
                          "turn:\n    choose c in [f(30)]\n    end game\n")
    with pytest.raises(RulesRuntimeError) as info:
        game.new_state(seed=1)
    assert "items of work" in str(info.value) and "x.rules:" in str(info.value)


def test_a_def_called_twice_on_one_path_is_computed_once():
    """'f(x) if len(f(x)) > 0 else ...': the test runs first, so the value reuses its result."""
    game = game_of(HEAD + "var xs = [3, 1, 2]\ndef over(n) = [x in xs where x > n]\n"
                          "def pick(n) = over(n) if len(over(n)) > 0 else [0]\n"
                          "turn:\n    choose c in pick(1) + pick(5)\n    end game\n")
    pick = next(u for u in game.compiled.exprs.module.units if u.startswith("def _d1("))
    assert pick.count("_d0(") == 1
    assert [m.text for m in game.new_state(seed=1).legal_moves()] == ["3", "2", "0"]


def test_a_call_made_on_one_branch_only_is_made_again_after_it():
    """A value computed inside one branch of 'if ... else' (or after 'and') is not there on the other
    path: a later call computes it again."""
    game = game_of(HEAD + "var xs = [3, 1, 2]\nvar flag = false\ndef over(n) = [x in xs where x > n]\n"
                          "turn:\n    let a = (len(over(1)) if flag else 0) + len(over(1))\n"
                          "    let b = (flag and len(over(2)) > 0) or len(over(2)) == 1\n"
                          "    let m = match { if flag: over(0), else: [] } + over(0)\n"
                          "    choose c in [a, b, len(m)]\n    end game\n")
    assert [m.text for m in game.new_state(seed=1).legal_moves()] == ["2", "yes", "3"]


def test_a_short_def_is_written_out_where_it_is_called(monkeypatch):
    """A def with no loop and no def call of its own runs inline, its arguments each computed once;
    an error inside it reads exactly as when it runs as a function."""
    rules = (HEAD + "var xs = [5, 6]\ndef at(ys, i) = ys[i] * 2\ndef twice(n) = n + n\n"
             "turn:\n    choose c in [at(xs, 1), twice(len(xs) + 1)]\n    let bad = at(xs, len(xs) + 5)\n"
             "    end game\n")
    game = game_of(rules)
    options = next(u for u in game.compiled.exprs.module.units if u.startswith("def _o"))
    assert "_d0(" not in options and "_d1(" not in options
    assert [m.text for m in game.new_state(seed=1).legal_moves()] == ["10", "6"]
    with pytest.raises(RulesRuntimeError) as inlined:
        game.new_state(seed=1).apply("10")
    monkeypatch.setattr(codegen.ExprSource, "_INLINE_MOST", 0)
    called = game_of(rules)
    assert "_d0(" in next(u for u in called.compiled.exprs.module.units if u.startswith("def _o"))
    with pytest.raises(RulesRuntimeError) as as_function:
        called.new_state(seed=1).apply("10")
    # the error points into the def's body, and says where the def was called
    assert str(inlined.value) == str(as_function.value) and "called at line 8" in str(inlined.value)


def test_an_error_inside_a_stretch_points_at_its_own_line():
    """Several statements run as one generated function; the error still names the one that failed."""
    game_text = HEAD + "var xs = [1]\nturn:\n    let a = 1\n    let b = 2\n    let c = xs[a + b]\n    end game\n"
    with pytest.raises(RulesRuntimeError) as info:
        game_of(game_text).new_state(seed=1)
    assert str(info.value).startswith("x.rules:7:")
    assert "there is no item 3 in a list of 1 item" in str(info.value)


def test_stretches_count_every_instruction_as_a_step():
    game = game_of(HEAD + "var n = 0\nturn:\n    n += 1\n    n += 1\n    n += 1\n    choose c in [n]\n    end game\n")
    turn = game.compiled.procs["turn"]
    assert turn.costs[0] == 4 and turn.fast[0] is not turn.code[0]  # three Execs and the Choose that ends them


@pytest.mark.parametrize("name", ["biplane", "planes", "barnstormers", "tic-tac-toe"])
def test_shipped_games_play_the_same_twice_from_one_compile_cache(name):
    """A second compile of the same rules reuses the compiled code objects and plays the same game."""
    logs = []
    for _ in range(2):
        st, rng = load(name).new_state(seed=3), random.Random(3)
        for _ in range(60):
            if st.is_over():
                break
            moves = st.legal_moves()
            st.apply(moves[rng.randrange(len(moves))])
        logs.append([e.get("text") for e in st.events])
    assert logs[0] == logs[1] and logs[0]


def test_literal_writes_every_value_as_data():
    m = codegen.Module({"_copy_value": None})
    for value in ["a'b\"c\n", "x" * 500, 10 ** 40, -(10 ** 40), [1, [2]], {"k": 1}, None, True, 12]:
        code = m.literal(value)
        assert pyast.parse(code, mode="eval")
        if type(value) is str and len(value) < 200:
            assert pyast.literal_eval(code) == value
        if type(value) is int and abs(value) > 10 ** 15:
            assert str(value) not in code


# ----------------------------------------------------------------------------- the command
def test_compile_emit_prints_the_generated_python():
    result = CliRunner().invoke(app, ["compile", "tic-tac-toe", "--emit"])
    assert result.exit_code == 0, result.output
    assert "def _d0(" in result.output and "def _s" in result.output
    body = result.output.split("\n\n", 1)[1]
    pyast.parse(body)  # the whole emitted text is Python


def test_compile_without_emit_says_what_it_made():
    result = CliRunner().invoke(app, ["compile", "connect-four", "--players", "2"])
    assert result.exit_code == 0 and result.output.startswith("ok: ") and "Python functions" in result.output


def test_compile_of_a_bad_option_is_a_clear_error():
    result = CliRunner().invoke(app, ["compile", "biplane", "--option", "nope=1"])
    assert result.exit_code == 1 and "Traceback" not in result.output


# ----------------------------------------------------------------------------- generated decisions and stores
CHOICES = HEAD + """record box(k, seen)
var rows = [[1, "a"], [1, "a"], [2, "b"]]
var n = 0
var marks = {}
player var tally = 0
var rec = box(1, [])
turn:
    choose r in rows as "row {r[2]}"
    choose x in [3, 1, 3, 2, 5] where x != 2 as "n{x % 2}"
    choose y in ["p", "q", 4, none, true, [1, "z"]]
    choose z in [7, "w", 9] where z != n + 7 as "z{z}"
    marks[x] = x
    marks[x] += 1
    me.tally += x
    rec.k += x
    add y to rec.seen
    remove y from rec.seen
    choose:
        "take" if n < 2:
            n += 1
        "leave":
            pass
    if n >= 2:
        end game
"""


def _played(game, seed: int) -> list:
    st, rng, seen = game.new_state(seed=seed), random.Random(seed), []
    while not st.is_over() and len(seen) < 40:
        moves = st.legal_moves()
        seen.append([m.text for m in moves])
        st.apply(moves[rng.randrange(len(moves))])
    return seen + [st.vars]


def test_generated_options_and_stores_match_each_instruction_alone():
    """The generated loop that gathers a decision's options (texts, 'where', identical rows merged,
    equal texts numbered, a choose block's guards) and the stores written out (an item, a player's
    entry, a record's field, add, remove) do the same in a stretch as each instruction run alone."""
    fast = game_of(CHOICES)
    slow = game_of(CHOICES)
    for proc in slow.compiled.procs.values():  # each instruction alone: no stretches
        proc.fast, proc.costs = tuple(proc.code), (1,) * len(proc.code)
    source = source_of(fast)
    assert "opts.append(" in source and "_obj.append(_new)" in source and "_obj['k'] = " in source
    for seed in range(6):
        assert _played(fast, seed) == _played(slow, seed)
    first = _played(fast, 1)[0]
    assert first == ["row a", "row b"]  # the two identical rows are one move


def test_numbered_texts_and_default_texts():
    st = game_of(CHOICES).new_state(seed=1)
    st.apply("row a")
    assert [m.text for m in st.legal_moves()] == ["n1", "n1 #2", "n1 #3"]  # 3, 1, 3 and 5 (3 twice: one move)
    st.apply("n1")
    assert [m.text for m in st.legal_moves()] == ["p", "q", "4", "none", "yes", "1 z"]


def test_a_local_set_on_every_way_is_read_without_its_check():
    """A local set on every way to a place (statements.ProcCompiler.known) is read there directly; one
    that may have no value keeps its check, and its error still says so."""
    game = game_of(HEAD + "var out = 0\nturn:\n    let a = 2\n    out = a + 1\n    if out > 5:\n        let b = 1\n"
                   "    out = b\n    end game\n")
    stretches = [u for u in game.compiled.exprs.module.units if u.startswith("def _s")]
    setting_a = next(u for u in stretches if "env['a'] = 2" in u)
    assert ":= env['a'])" in setting_a and "'a' in env" not in setting_a
    after_if = next(u for u in stretches if "st._vars['out'] = " in u and "'b'" in u and "env['b'] = 1" not in u)
    assert "'b' in env else _missing('b')" in after_if  # set on one path only: still checked there
    in_if = next(u for u in stretches if "env['b'] = 1" in u)  # the 'if' body goes on to 'out = b', written once
    assert "'b' in env else _missing('b')" in in_if
    with pytest.raises(RulesRuntimeError) as info:
        game.new_state(seed=1)
    assert "'b' has no value here" in str(info.value)


def test_a_local_set_before_a_loop_is_read_without_its_check_inside_it():
    """The analysis follows the jumps: a local set before a loop is set at the loop's head (the way in
    and the way back both set it), so the body, a stretch of its own, reads it directly; a local set
    only inside the body is not set at the head."""
    game = game_of(HEAD + "var out = 0\nturn:\n    let a = 2\n    for x in [1, 2, 3]:\n        out = out + a * x\n"
                   "        let c = x\n    choose n in [out]\n    end game\n")
    stretches = [u for u in game.compiled.exprs.module.units if u.startswith("def _s")]
    body = [u for u in stretches if "env['c'] = " in u]
    assert body and all("'a' in env" not in u and "'x' in env" not in u for u in body)
    assert all("env['a']" in u for u in body)
    st = game.new_state(seed=1)
    assert [m.text for m in st.legal_moves()] == ["12"]


BRANCHY = HEAD + """var n = 0
var odd = 0
turn:
    while n < 40:
        n += 1
        if n % 2 == 1:
            odd += 1
            if n % 3 == 0:
                odd += 1
        elif n % 5 == 0:
            odd -= 1
        else:
            pass
        for k in [1, 2, 3, 4]:
            if k == 3 and n % 7 == 0:
                break
            odd += k % 2
    choose c in [odd, n]
    end game
"""


def _fewest_steps(game) -> int:
    """The smallest step budget under which the game reaches its first decision."""
    from rulewright.interpreter.engine.limits import set_limits
    low, high = 1, 5_000
    old = set_limits(steps=high)
    try:
        while low < high:
            mid = (low + high) // 2
            set_limits(steps=mid)
            try:
                game.new_state(seed=1)
                high = mid
            except RulesRuntimeError as exc:
                assert "steps without asking for a decision" in str(exc)
                low = mid + 1
    finally:
        set_limits(**old)
    return low


def test_stretches_that_leave_at_a_branch_count_the_steps_exactly():
    """A stretch runs on past its branches and gives back the steps of the path it did not take: the
    fewest steps a game needs are the same as when every instruction runs alone."""
    fast = game_of(BRANCHY)
    stretches = [u for u in fast.compiled.exprs.module.units if u.startswith("def _s")]
    assert any("if not (" in u for u in stretches) and any("if i >= len(xs):" in u for u in stretches)
    slow = game_of(BRANCHY)
    for proc in slow.compiled.procs.values():
        proc.fast, proc.costs = proc.code, (1,) * len(proc.code)
    steps = _fewest_steps(slow)
    assert steps > 200 and _fewest_steps(fast) == steps
    assert [m.text for m in fast.new_state(seed=1).legal_moves()] == [m.text for m in slow.new_state(seed=1).legal_moves()]


GUARDED = HEAD + """var n = 0
var seen = []
procedure step(k):
    if k > 1000:
        return -1
    if k % 3 == 0:
        seen = seen + [k]
        return 3
    n += k
    return 1
turn:
    let total = 0
    for k in range(60):
        if k == 999:
            end game
        total += step(k)
    choose c in [total, n]
    end game
"""


def test_a_stretch_follows_both_ways_of_a_branch():
    """A guard whose body is not run (the common way through rules) stays in the stretch: the stretch
    from the start of the procedure holds the way past each guard, and the steps of the way not taken
    come back, also on a way that leaves with a return value."""
    fast = game_of(GUARDED)
    step = fast.compiled.procs["step"]
    calls = []

    def counted(stretch):
        return lambda st, env: calls.append(1) or stretch(st, env)
    step.fast = tuple(counted(f) for f in step.fast)
    state = fast.new_state(seed=1)
    assert len(calls) == 60  # one stretch a call: no way through the procedure leaves it
    slow = game_of(GUARDED)
    for proc in slow.compiled.procs.values():
        proc.fast, proc.costs = proc.code, (1,) * len(proc.code)
    assert [m.text for m in state.legal_moves()] == [m.text for m in slow.new_state(seed=1).legal_moves()]
    steps = _fewest_steps(slow)
    assert steps > 300 and _fewest_steps(game_of(GUARDED)) == steps


# ----------------------------------------------------------------------------- procedures as calls
PLAIN = HEAD + """var log_ = []
procedure put(x):
    log_ = log_ + [x]
    return len(log_)
procedure stop_if(n):
    if n >= 3:
        end game
    let k = put(n * 10)
procedure ask():
    choose c in [1, 2]
    put(c)
procedure deep(n):
    if n > 0:
        deep(n - 1)
turn:
    let a = put(1)
    stop_if(a)
    ask()
    log_ = log_ + ["after"]
scoring:
    log_ = log_ + ["scored"]
"""


def test_procedures_that_never_decide_run_as_calls():
    game = game_of(PLAIN)
    assert game.compiled.plain_procs == frozenset({"put", "stop_if"})  # ask decides, deep calls itself
    st = game.new_state(seed=1)
    assert st.frames[-1].proc == "ask" and len(st.frames) == 4  # __main__, round, turn, ask: no frame of put
    st.apply("1")  # then player 2's put gives 5: stop_if ends the game from inside a call, ask never runs
    assert st.is_over() and st.vars["log_"] == [1, 10, 1, "after", 1, "scored"]


def test_an_error_inside_a_procedure_run_as_a_call_names_it():
    game = game_of(HEAD + "var xs = []\nprocedure bad(n):\n    let y = xs[n]\nprocedure outer():\n    bad(2)\n"
                          "turn:\n    outer()\n    end game\n")
    assert game.compiled.plain_procs == {"bad", "outer"}
    with pytest.raises(RulesRuntimeError) as info:
        game.new_state(seed=1)
    assert str(info.value).startswith("x.rules:5:13: error: in 'bad': there is no item 2 in an empty list")


def test_a_procedure_that_calls_itself_still_runs_with_frames():
    game = game_of(HEAD + "procedure deep(n):\n    if n > 0:\n        deep(n - 1)\nturn:\n    deep(1000)\n    end game\n")
    assert game.compiled.plain_procs == frozenset()
    with pytest.raises(RulesRuntimeError) as info:
        game.new_state(seed=1)
    assert "procedures called 500 deep" in str(info.value)


def _function(source: str, *marks: str) -> str:
    """The one generated function whose text holds every mark."""
    found = [u for u in source.split("\n\n") if all(m in u for m in marks)]
    assert len(found) == 1, found
    return found[0]


def test_a_loop_over_a_whole_list_reads_each_game_variable_once_before_it():
    """A filter or a sum goes through its whole list: the game variables it reads are taken into
    locals before the loop (an expression never changes them). any/all/first, which may stop at the
    first item, read them where they are used."""
    game = game_of(HEAD + "var owner = {\"a\": 1, \"b\": 2, \"c\": 1}\nvar bonus = [5, 7]\nvar res = []\n"
                          "turn:\n    res = [[s in [\"a\", \"b\", \"c\", \"d\"] where owner[s] == me],"
                          " sum(s in [\"a\", \"b\", \"c\"]: bonus[owner[s]]), any(s in [\"a\", \"b\"]: owner[s] == 3)]\n"
                          "    owner[\"d\"] = 1\n    res = res + [[s in [\"a\", \"b\", \"c\", \"d\"] where owner[s] == me]]\n"
                          "    choose c in [1]\n    end game\n")
    st = game.new_state(seed=1)
    assert st.vars["res"] == [["a", "c"], 17, False, ["a", "c", "d"]]  # the second filter sees 'd' set
    source = source_of(game)
    summed = _function(source, "def _q", "'bonus'")
    head, _, loop = summed.partition("for ")
    assert "st._vars['owner']" in head and "st._vars['bonus']" in head and "st._vars" not in loop
    stops_early = _function(source, "def _q", "return True")  # the any
    assert "st._vars['owner']" in stops_early.partition("for ")[2]


def test_an_item_of_a_constant_list_is_read_from_the_list_itself():
    game = game_of(HEAD + "def pick(i) = [10, 20, 30][i]\nvar res = []\nturn:\n"
                          "    res = [pick(1), pick(3), pick(-1)]\n    res = res + [pick(4)]\n    end game\n")
    assert "[:]" not in _function(source_of(game), "def _d0(")
    with pytest.raises(RulesRuntimeError) as info:
        game.new_state(seed=1)
    assert "there is no item 4 in a list of 3 items" in str(info.value)
    game = game_of(HEAD + "def pick(i) = [10, 20, 30][i]\nvar res = []\nturn:\n"
                          "    res = [pick(1), pick(3), pick(-1)]\n    choose c in [1]\n    end game\n")
    assert game.new_state(seed=1).vars["res"] == [10, 30, 30]


def test_a_comparison_with_none_is_an_identity_test_with_the_same_answers():
    values = '[0, 1, "", "x", false, true, [], [none], {}, none]'
    game = game_of(HEAD + f"var vs = {values}\nvar res = []\nturn:\n"
                          "    res = [v in vs : [v == none, v != none, none == v, none != v]]\n"
                          "    choose c in [1]\n    end game\n")
    assert " is None" in source_of(game) and " is not None" in source_of(game)
    expect = [[False, True, False, True]] * 9 + [[True, False, True, False]]
    assert game.new_state(seed=1).vars["res"] == expect


def test_a_procedure_reads_its_parameters_without_a_check_from_its_start():
    game = game_of(HEAD + "var res = 0\nprocedure put(n):\n    res = n + n\nturn:\n    put(4)\n"
                          "    choose c in [res]\n    end game\n")
    stretch = _function(source_of(game), "def _s", "st._vars['res'] = ")
    assert "'n' in env" not in stretch and "env['n']" in stretch
    assert game.new_state(seed=1).legal_moves()[0].text == "8"


def test_the_texts_of_a_constant_list_of_options_are_made_once():
    """Options drawn from a constant list of numbers and texts, with texts that read only the item and
    are all different, take their texts from a list made when the game is compiled; equal texts (to
    number) or a text that reads anything else are made as the decision is asked."""
    game = game_of(HEAD + "var n = 1\nturn:\n    choose a in [1, 2, 3] where a != n as \"a{a}\"\n"
                          "    choose b in [1, 2, 3] as \"b{b % 2}\"\n    choose c in [1, 2] as \"c{c + n}\"\n"
                          "    choose d in range(3)\n    n += 1\n    if n > 5:\n        end game\n")
    source = source_of(game)
    assert "for x, t in _c" in _function(source, "def _o", "x != _h")    # a: its where reads n, not its text
    assert "seen = {}" in _function(source, "def _o", "_mod(x, 2)")     # b: b1, b0, b1 #2
    assert "seen = {}" in _function(source, "def _o", "_add(")          # c: its text reads n
    assert source.count("for x, t in _c") == 2                           # a and d
    st = game.new_state(seed=1)
    assert [m.text for m in st.legal_moves()] == ["a2", "a3"]
    st.apply("a3")
    assert [m.text for m in st.legal_moves()] == ["b1", "b0", "b1 #2"]
    st.apply("b1 #2")
    assert [m.text for m in st.legal_moves()] == ["c2", "c3"]
    st.apply("c3")
    assert [m.text for m in st.legal_moves()] == ["1", "2", "3"]
    st.apply("2")
    assert [m.text for m in st.legal_moves()] == ["a1", "a3"] and st.vars["n"] == 2


def test_adding_a_constant_gives_what_the_helpers_give():
    """'+' and '-' with one constant side write the likely case inline (a number, a short text) and
    leave the rest to the helpers: the same values, the same errors, the same limits."""
    long_text = "x" * 40
    game = game_of(HEAD + f'var ns = [3, -4]\nvar ts = ["ab", "", "{long_text}"]\nvar res = []\nturn:\n'
                          '    res = [[n in ns : [n + 1, 1 + n, n - 2, 10 - n]], [t in ts : [t + "t", "t" + t]],'
                          ' [1] + [2], ts + ["z"], [t in ts : t + t], ns + ns, ts + ts]\n'
                          '    choose c in [1]\n    end game\n')
    assert "len(" in _function(source_of(game), "def _q", "'t' +")
    res = game.new_state(seed=1).vars["res"]
    assert res == [[[4, 4, 1, 7], [-3, -3, -6, 14]], [["abt", "tab"], ["t", "t"], [long_text + "t", "t" + long_text]],
                   [1, 2], ["ab", "", long_text, "z"], ["abab", "", long_text * 2], [3, -4, 3, -4],
                   ["ab", "", long_text] * 2]
    for text, message in [('"t" + m["n"]', "cannot add text and a number"), ('m["t"] - 2', "cannot subtract a number from text"),
                          ('1 + m["l"]', "cannot add a number and a list")]:
        bad = game_of(HEAD + 'var m = {"n": 5, "t": "t", "l": []}\nvar x = 0\nturn:\n'
                             f"    x = {text}\n    end game\n")
        with pytest.raises(RulesRuntimeError) as info:
            bad.new_state(seed=1)
        assert message in str(info.value) and "x.rules:6:" in str(info.value), str(info.value)


def test_a_def_argument_every_call_gives_one_step_is_compared_with_no_test():
    """A def's argument that every call in the rules gives a constant number or short text (or passes on
    from a def whose own argument is one) compares as Python does, with no test as it runs
    (param_kinds.py); one call giving a list anywhere, even through another def, keeps the test."""
    rules = HEAD + ('var xs = [1, 2, 3, 2]\n'
                    'def hits(x) = count(y in xs where y == x)\n'
                    'def twice(x) = hits(x) * 2\n'
                    'def seen(x) = count(y in xs where y == x)\n'
                    'def passed(x) = seen(x)\n'
                    'var n = 0\nvar m = 0\nturn:\n    n = hits(2) + twice(3)\n    m = seen(2) + passed([2])\n'
                    '    choose c in [1]\n    end game\n')
    game = game_of(rules)
    st = game.new_state(seed=1)
    assert (st.vars["n"], st.vars["m"]) == (2 + 2, 2)
    loops = [f for f in ("\n" + source_of(game)).split("\ndef ") if f.startswith("_q")]
    hits, seen = loops  # (in the order of the defs)
    assert "type(_a0)" not in hits and "_eq(" not in hits, hits
    assert "type(_a0)" in seen, seen  # passed([2]) reaches seen's x


def test_a_def_argument_given_a_board_space_is_compared_with_no_test():
    """A loop's variable over a board's spaces (``next(s)``, through a def or a condition) is one step
    while every space is a short text: a def every call gives one compares as Python does, and so does
    the loop; a board with a space named by a long text keeps the tests (param_kinds.flat_list)."""
    def game(space):
        return game_of(HEAD + f'board course: graph\n    a -> b, {space}\n    b -> a\n    {space}\n'
                              'var taken = ["b"]\ndef free(t) = count(x in taken where x == t) == 0\n'
                              'def around(s) = [t in next(s) where t != s] + previous(s)\n'
                              'def ways(s) = [t in (around(s) if len(taken) > 0 else next(s)) where free(t)]\n'
                              'var w = []\nturn:\n    w = ways("a")\n    choose c in [1]\n    end game\n')
    short, long = game("c"), game("c" * 40)
    assert short.new_state(seed=1).vars["w"] == ["c"] and long.new_state(seed=1).vars["w"] == ["c" * 40]
    loops = [f for f in ("\n" + source_of(short)).split("\ndef ") if f.startswith("_q")]
    assert loops and not any("type(_a0)" in f or "_ONE_STEP_TYPES" in f for f in loops), loops
    assert "_ONE_STEP_TYPES" in source_of(long)


def test_a_local_of_a_procedure_that_never_decides_known_one_step():
    """A local of a procedure that never decides, given only a board's space or none (``step``), a number
    or another such local, is set into a record's field and compared with no test (local_kinds.py);
    the same local in a procedure that decides (a save holds its frame), or given a list anywhere, keeps
    the tests."""
    rules = HEAD + ('board sky: grid 2 by 2 headings e n w s\nrecord shot(at)\nvar x = shot("A1")\nvar n = 0\n'
                    'procedure fly(h):\n    let ahead = step(x.at, h)\n    let other = ahead\n    if other != none:\n'
                    '        x.at = other\n        n += 1\n'
                    'procedure fly_back(h):\n    let back = step(x.at, h)\n    if back != none:\n'
                    '        x.at = back\n    back = [back]\n'
                    'procedure ask(h):\n    let there = step(x.at, h)\n    choose c in [1]\n    x.at = there\n'
                    'turn:\n    fly("e")\n    fly("e")\n    fly_back("w")\n    ask("n")\n    end game\n')
    game = game_of(rules)
    st = game.new_state(seed=1)
    assert st.vars["x"] == {"at": "A1"} and st.vars["n"] == 1
    st.apply("1")
    assert st.vars["x"] == {"at": "B1"}
    functions = ("\n" + source_of(game)).split("\ndef ")
    tested = {name for name in ("other", "back", "there")
              if any(f"_new = env['{name}']" in f and "_set_in(" in f for f in functions)}
    assert tested == {"back", "there"}, functions
    assert not any("type(env['other'])" in f for f in functions)


def test_a_def_written_out_to_a_constant_reads_no_local():
    """A short def whose body is a constant (the player count is fixed while compiling), written out where it is
    called with a local certainly set, is the constant: the local's read cannot fail, so nothing of the
    call runs; a local perhaps not set is still read (its error where it is missing)."""
    rules = HEAD + ('def big(s) = player_count == 5 and s > 1\nvar n = 0\nturn:\n'
                    '    let k = 2\n    if big(k):\n        n = 1\n    if n == 0:\n        let m = 3\n'
                    '    if big(m):\n        n = 2\n    choose c in [1]\n    end game\n')
    game = game_of(rules)
    assert game.new_state(seed=1).vars["n"] == 0
    source = source_of(game)
    assert "env['k']" not in source.split("env['k'] = 2", 1)[1], source
    assert "_missing('m')" in source, source


def test_min_max_and_without_made_lean_while_compiling():
    """min and max of arguments that surely give numbers (a constant, a count, arithmetic) call Python's
    own, and without() of an item compared in one step (a loop's over a constant list) the builtin
    with no test of it, with the same answers; a text or a variable among them keeps the counted one."""
    game = game_of(HEAD + 'var xs = [4, 7]\nvar t = "b"\nvar r = []\nturn:\n'
                          '    r = [max(0, len(xs) - 5), min(len(xs), 7 % 4, xs[1] - 1), max(xs[1], len(xs)), max(t, "a"),'
                          ' [c in [7, 1] : without([7, 1, 7], c)], without(xs, t)]\n'
                          '    choose c in [1]\n    end game\n')
    assert game.new_state(seed=1).vars["r"] == [0, 2, 4, "b", [[1, 7], [7, 7]], [4, 7]]
    source = source_of(game)
    named = {id(v): k for k, v in game.compiled.exprs.module.ns.items() if k.startswith("_c")}
    python_min, python_max, counted_max, lean, counted_without = (
        named.get(id(f)) for f in (min, max, BUILTINS["max"].fn, without_one_step, BUILTINS["without"].fn))
    assert f"{python_max}(0, " in source and f"{python_min}(" in source, source
    assert source.count(f"{counted_max}(st, ") == 2, source  # max(xs[1], ...) and max(t, "a")
    assert source.count(f"{lean}(st, ") == 1 and source.count(f"{counted_without}(st, ") == 1, source


def test_a_field_given_a_number_tells_flatness_nothing():
    """A record's field set to a constant or a number, '-=' anything or '+=' a number, keeps the game's
    records flat (compare.Flatness): no test is written; a field set to anything else is tested."""
    rules = HEAD + ('record box(n, s)\nvar b = box(1, "a")\nvar t = "x"\nturn:\n    b.n -= 1\n    b.n += 2\n'
                    '    b.s = "b"\n    choose c in [1]\n    b.s = t\n    end game\n')
    game = game_of(rules)
    st = game.new_state(seed=1)
    assert st.vars["b"] == {"n": 2, "s": "b"}
    source = source_of(game)
    assert source.count("_set_in(") == 1, source  # b.s = t only
    st.apply("1")
    assert st.vars["b"]["s"] == "x"


def test_a_loop_over_the_players_reads_their_entries_directly():
    """A loop's variable over the players (a constant list of their numbers) reads a player variable's
    entry with no test of what it holds, and the loop counts the list's known length."""
    rules = HEAD + ('player var score = 0\nvar best = 0\nvar n = 0\nturn:\n    score[2] = 5\n'
                    '    best = first(q in players where q.score == 5)\n    n = count(q in players where q.score < 5)\n'
                    '    choose c in [1]\n    end game\n')
    game = game_of(rules)
    st = game.new_state(seed=1)
    assert (st.vars["best"], st.vars["n"]) == (2, 1)
    loops = [f for f in ("\n" + source_of(game)).split("\ndef ") if f.startswith("_q")]
    assert len(loops) == 2 and all(re.search(r"\[_v\d+ - 1\]", f) and "_player_index" not in f for f in loops), loops
    assert all("st._work_left -= 2\n" in f for f in loops), loops


def test_a_loop_tests_once_what_stays_the_same_through_it():
    """In a loop's function a name from outside (a def's argument) is tested once, before the loop, and a
    variable over a constant list of numbers needs no test: the loop compares as Python does. A record or
    a list there still gives Python's answer (the counted comparison)."""
    rules = HEAD + ('record box(v)\nvar xs = [1, 2, 3, 2]\n'
                    'def hits(x) = count(y in xs where y == x)\n'
                    'def small(x) = count(k in [1, 2, 3] where k < x)\n'
                    'var n = 0\nvar m = 0\nvar b = 0\nturn:\n    n = hits(2)\n    m = small(3)\n'
                    '    b = hits(box(2)) + hits([2])\n    choose c in [1]\n    end game\n')
    game = game_of(rules)
    st = game.new_state(seed=1)
    assert (st.vars["n"], st.vars["m"], st.vars["b"]) == (2, 2, 0)
    loops = [f for f in ("\n" + source_of(game)).split("\ndef ") if f.startswith("_q")]
    hits = next(f for f in loops if "['xs']" in f)
    before, _, inside = hits.partition("\n    for ")
    assert "type(_a0)" in before and "type(_a0)" not in inside, hits  # tested once, before the loop
    small = next(f for f in loops if " < _a0" in f)
    assert "type(" not in small.partition("\n    for ")[2], small  # the constant list's items: no test
