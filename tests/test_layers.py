"""The interpreter's stages import one another one way only: no import circle, each floor only its own and
those below (the engine at the bottom), and the command line only the public modules (docs/architecture.md).
Every import counts, the lazy ones inside functions too: each is read from the source with ``ast``, nothing
is imported."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

import rulewright

PACKAGE = Path(rulewright.__file__).resolve().parent
INTERPRETER = "rulewright.interpreter"


def _modules() -> dict:
    """Each module of rulewright.interpreter, by its dotted name, with its file."""
    out = {}
    for path in (PACKAGE / "interpreter").rglob("*.py"):
        name = ".".join(("rulewright",) + path.relative_to(PACKAGE).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = path
    return out


def _imported(module: str, path: Path, modules: dict) -> set:
    """The interpreter's modules that ``module`` imports, anywhere in its file."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # a relative import: from its package up
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + ([base] if base else []))
            # 'from pkg import mod' imports pkg.mod; 'from pkg.mod import func', pkg.mod
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        else:
            continue
        for name in names:
            while name and name not in modules:  # 'import pkg.mod.x' or a name outside the interpreter
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


@functools.lru_cache(maxsize=1)
def _graph() -> dict:
    """{module: the modules it imports}, names short ('engine.state'); read once for the tests here."""
    modules = _modules()
    short = {m: m.removeprefix(INTERPRETER + ".") for m in modules}
    return {short[m]: {short[t] for t in _imported(m, p, modules)} for m, p in modules.items()}


def _circle(graph: dict):
    """One import circle as a list of modules (the first repeated last), or None."""
    done: set = set()
    for start in sorted(graph):
        path, on_path = [], set()
        todo = [(start, iter(sorted(graph[start])))]
        if start in done:
            continue
        path.append(start)
        on_path.add(start)
        while todo:
            node, rest = todo[-1]
            nxt = next(rest, None)
            if nxt is None:
                todo.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
            elif nxt in on_path:
                return path[path.index(nxt):] + [nxt]
            elif nxt not in done:
                todo.append((nxt, iter(sorted(graph[nxt]))))
                path.append(nxt)
                on_path.add(nxt)
    return None


def test_the_interpreter_has_no_import_circle():
    circle = _circle(_graph())
    assert circle is None, "an import circle: " + " -> ".join(circle)


def test_the_graph_is_read_whole(tmp_path):
    """The reading finds imports inside functions and relative ones, a circle is found when there is
    one."""
    modules = _modules()
    source = tmp_path / "probe.py"
    source.write_text("def later():\n    from rulewright.interpreter.engine.state import State\n"
                      "    from ..present import views\n", encoding="utf-8")
    assert _imported(INTERPRETER + ".engine.probe", source, modules) == {
        INTERPRETER + ".engine.state", INTERPRETER + ".present.views"}
    assert _circle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert _circle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


# ----------------------------------------------------------------------------- the floors and the door
# Each floor imports its own and those below it, never one above (docs/architecture.md, "Layers"): the
# runtime at the bottom, then the board kinds, the checker, the loading of variants (it reads the
# checker's symbols), the compiler, what shows a state, the facade, what plays, and the test kit.
FLOORS = (("engine",), ("boards",), ("check",), ("variants", "errata", "shipped", "option_pairs"), ("compile",),
          ("present",), ("api", "state", "saves", "chance", "language"), ("play",), ("testing",))


def _floor(module: str) -> int:
    first = module.split(".")[0]
    found = [i for i, names in enumerate(FLOORS) if first in names]
    assert found, f"{module} stands on no floor: add it to FLOORS and to docs/architecture.md"
    return found[0]


def upward(graph: dict) -> list:
    """Each import of ``graph`` that reaches a floor above its module's, as 'module -> imported'."""
    return sorted(f"{m} -> {t}" for m, targets in graph.items() if m != INTERPRETER
                  for t in targets if _floor(t) > _floor(m))


def test_each_stage_imports_only_its_floor_and_those_below():
    assert upward(_graph()) == []


def test_an_import_up_a_floor_is_named():
    assert upward({"compile.statements": {"present.prompts", "engine.runtime"}, "present.screen": {"check.types"}}) \
        == ["compile.statements -> present.prompts"]


# The modules the command line, the adapters and the test kit may import (docs/architecture.md, "The
# public modules"): the facade (api.py, language.py), the limits of a run, what shows a state and what
# plays, and the parser's tree, errors and texts. Everything else of the interpreter is reached through them.
PUBLIC = ("rulewright.interpreter.api", "rulewright.interpreter.language", "rulewright.interpreter.engine.limits",
          "rulewright.interpreter.present.", "rulewright.interpreter.play.", "rulewright.dsl.errors",
          "rulewright.dsl.ast", "rulewright.dsl.parser", "rulewright.dsl.texts", "rulewright.cli.")


def _names_imported(path: Path) -> list:
    """(line, dotted name) for each module or name of rulewright that ``path`` imports, anywhere in it
    ('from pkg import mod' gives pkg.mod, so that a module reached through its package is seen)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
        elif isinstance(node, ast.ImportFrom):  # relative: inside cli/ itself
            found += [(node.lineno, f"rulewright.cli.{node.module or ''}")]
    return [(line, name) for line, name in found if name.startswith("rulewright")]


def through_the_door(paths) -> list:
    """Each import of ``paths`` that goes past the public modules, as 'file:line imports name'."""
    return [f"{p.name}:{line} imports {name}" for p in paths for line, name in _names_imported(p)
            if name != "rulewright" and not name.startswith(PUBLIC)
            and name.split(".")[1] in ("dsl", "interpreter")]  # (not the package's own: 'from rulewright import load')


def test_the_command_line_the_adapters_and_the_test_kit_import_only_the_public_modules():
    users = [*(PACKAGE / "cli").glob("*.py"), *(PACKAGE / "interpreter" / "play").glob("*_adapter.py"),
             PACKAGE / "interpreter" / "testing.py"]
    assert len(users) > 20 and through_the_door(sorted(users)) == []


def test_an_import_past_the_door_is_named(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import rulewright\nfrom rulewright import load\nfrom rulewright.interpreter.api import Game\n"
                     "from rulewright import interpreter\n"
                     "def later():\n    from rulewright.interpreter.engine import events\n"
                     "    from rulewright.interpreter.play import agents\n", encoding="utf-8")
    assert through_the_door([probe]) == ["probe.py:4 imports rulewright.interpreter",
                                         "probe.py:6 imports rulewright.interpreter.engine.events"]
