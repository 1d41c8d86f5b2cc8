"""The shape of the code (docs/architecture.md): no import cycle anywhere, no module over 650
lines, no private name imported from another module.  (The layers themselves are the
import-linter contracts of pyproject.toml, checked by ``lint-imports``.)"""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import grimp

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ("pnp", "preview", "generator", "validator", "model")
#: The most lines a module of the project may have (packages, tests and benchmarks alike).
MAX_LINES = 650


def modules() -> list[Path]:
    folders = (*PACKAGES, "tests", "bench")
    return sorted(p for folder in folders for p in (REPO / folder).rglob("*.py") if "__pycache__" not in p.parts)


def cycles(graph) -> list[list[str]]:
    """The strongly connected components of more than one module: each an import cycle
    (Tarjan's algorithm, with a stack of its own rather than recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> tuple[str, object]:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        return module, iter(sorted(graph.find_modules_directly_imported_by(module)))

    for start in sorted(graph.modules):
        if start in index:
            continue
        work = [visit(start)]
        while work:
            module, imported = work[-1]
            for other in imported:
                if other not in index:
                    work.append(visit(other))
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == index[module]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == module:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


class Graph:
    """Just enough of a grimp graph for ``cycles``."""

    def __init__(self, edges: dict[str, set[str]]):
        self.edges = edges
        self.modules = set(edges) | {m for targets in edges.values() for m in targets}

    def find_modules_directly_imported_by(self, module: str) -> set[str]:
        return self.edges.get(module, set())


def test_the_cycle_finder_finds_each_cycle_and_nothing_else():
    graph = Graph({"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"}, "g": set()})
    assert sorted(cycles(graph)) == [["a", "b", "c"], ["d", "e"]]
    assert cycles(Graph({"a": {"b"}, "b": {"c"}})) == []


def test_no_import_cycle_anywhere():
    """Every import counts, those made inside a function too: a cycle is a cycle whenever it is walked."""
    graph = grimp.build_graph(*PACKAGES)
    assert cycles(graph) == []


def test_no_module_over_650_lines():
    long = {p.relative_to(REPO).as_posix(): n for p in modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def compile_warnings(path: Path) -> list[str]:
    """What compiling a module warns of (an invalid escape in a string, say: Python 3.12 prints a
    SyntaxWarning for it to every user whose interpreter compiles the module)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compile(path.read_text(encoding="utf-8"), str(path), "exec")
    return [f"{path.name}:{w.lineno}: {w.message}" for w in caught]


def test_compile_warnings_are_found(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('"""a ``Range``\\ s, \\d"""\nx = r"\\d"\n', encoding="utf-8")
    assert {line.split(": ")[0] for line in compile_warnings(probe)} == {"probe.py:1"}


def test_every_module_compiles_without_a_warning():
    assert [line for p in modules() for line in compile_warnings(p)] == []


def private_imports(path: Path) -> list[str]:
    """``from x import _name`` in a module, x being another module of the project."""
    with warnings.catch_warnings():  # a module's own invalid escapes are not this test's business
        warnings.simplefilter("ignore")
        tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else path.name
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 0 and (node.module or "").split(".")[0] not in (*PACKAGES, "helpers"):
            continue
        for alias in node.names:
            if alias.name.startswith("_") and not alias.name.startswith("__"):
                found.append(f"{where}:{node.lineno}: {alias.name}")
    return found


def test_private_imports_are_found(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("from .pictures import _stat_key, SOURCES\nfrom os import _exit\n"
                     "from generator.stages.keys import __doc__, _key_base\n", encoding="utf-8")
    assert private_imports(probe) == ["probe.py:1: _stat_key", "probe.py:3: _key_base"]


def test_no_private_name_imported_across_modules():
    assert [line for p in modules() for line in private_imports(p)] == []


def test_the_rendering_code_digest_reads_files_that_exist():
    """``keys.RENDER_MODULES`` names files by their paths: a moved module must not drop out of every design key."""
    from generator.stages import keys

    assert [name for name in keys.RENDER_MODULES if not (keys.GENERATOR / name).is_file()] == []
