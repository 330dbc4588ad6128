"""The interpreter's stages import one another one way only: no import circle, and the engine below the
stages that read it (docs/architecture.md). Every import counts, the lazy ones inside functions too:
each is read from the source with ``ast``, nothing is imported."""
from __future__ import annotations

import ast
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


def _graph() -> dict:
    """{module: the modules it imports}, names short ('engine.state')."""
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


def test_the_engine_imports_no_stage_above_it():
    """The engine runs a compiled game; it never reaches up to the checker, the compiler, the pictures,
    the agents or the facade (what shows and saves a state takes it as an argument: interpreter/state.py)."""
    above = ("check.", "compile.", "present.", "play.", "api", "variants", "saves", "chance", "state", "shipped")
    wrong = sorted(f"{m} -> {t}" for m, targets in _graph().items() if m.startswith("engine.")
                   for t in targets if t.startswith(above))
    assert wrong == []


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
