"""The package's modules import one way: no module imports one that imports it back.

Every import counts, wherever it stands: at a module's top, inside a function
(the usual way to break a loop at run time, which leaves the loop in the
design) and under ``if TYPE_CHECKING:``. Importing ``basra.a.b`` also runs
``basra/a/__init__.py``, so an import of a module in another package counts as
an import of that package's face too (``basra.belief.features`` importing
``basra.bots.sim`` runs ``basra/bots/__init__.py``, which imports every bot).
The browser's modules (``server/static/**/*.js``) are held to the same rule.

Run the file to print the loops it finds, with the lines that make them:
``python tests/test_layers.py``.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "basra"
STATIC = PACKAGE / "server" / "static"

Graph = dict[str, dict[str, str]]
"""Module -> the modules it imports -> where (``file:line``)."""


def python_modules(root: Path) -> dict[str, Path | None]:
    """Every module under ``root`` (a package folder) by dotted name; compiled modules
    (``.pyx`` with their ``.pyi``) are names without a Python file."""
    out: dict[str, Path | None] = {}
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pyi") or "pyodide" in path.parts:
            continue
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        name = ".".join(parts)
        if path.suffix == ".py":
            out[name] = path
        else:
            out.setdefault(name, None)
    return out


def _imported(
    node: ast.Import | ast.ImportFrom, package: str, known: Mapping[str, object]
) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parts = package.split(".")
        parts = parts[: len(parts) - node.level + 1]
        base = ".".join([*parts, base] if base else parts)
    return [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]


def python_graph(root: Path) -> Graph:
    """Who imports whom among the modules under ``root``, every import counted."""
    modules = python_modules(root)
    graph: Graph = {name: {} for name in modules}

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    for name, path in modules.items():
        if path is None:
            continue
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        file = path.relative_to(root.parent).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            for target in _imported(node, package, modules):
                found = known(target)
                while found:
                    # the target and the packages above it that are not the importer's own
                    # (those are running already when it runs)
                    if found != name and not f"{name}.".startswith(f"{found}."):
                        graph[name].setdefault(found, f"{file}:{node.lineno}")
                    found = known(found.rpartition(".")[0])
    return graph


_JS_IMPORT = re.compile(
    r"""(?:^|[;\s])(?:import|export)\s*(?:[\w*{}\s,]*?\sfrom\s*)?["'](\.{1,2}/[^"']+)["']"""
    r"""|import\(\s*["'](\.{1,2}/[^"']+)["']\s*\)"""
)


def javascript_graph(root: Path) -> Graph:
    """Who imports whom among the ES modules under ``root`` (static and dynamic imports
    of relative paths)."""
    graph: Graph = {}
    for path in sorted(root.rglob("*.js")):
        name = path.relative_to(root).as_posix()
        out = graph.setdefault(name, {})
        text = path.read_text(encoding="utf-8")
        for match in _JS_IMPORT.finditer(text):
            group = 1 if match.group(1) else 2
            relative = match.group(group)
            target = (path.parent / relative).resolve()
            if target.is_file() and root in target.parents:
                line = text.count("\n", 0, match.start(group)) + 1
                out.setdefault(target.relative_to(root).as_posix(), f"{name}:{line}")
    return graph


def loops(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # Tarjan's algorithm, with an explicit stack of (module, its imports left)
        work: list[tuple[str, Iterator[str]]] = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, targets = work[-1]
            for target in targets:
                if target not in graph:
                    continue
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(graph[target])))
                    break
                if target in on_stack:
                    low[module] = min(low[module], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
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

    for module in graph:
        if module not in index:
            visit(module)
    return found


def described(graph: Graph, found: list[list[str]]) -> str:
    """The loops with the imports that close them, one per line."""
    lines = []
    for component in found:
        lines.append(" <-> ".join(component))
        members = set(component)
        for module in component:
            for target, where in graph[module].items():
                if target in members:
                    lines.append(f"    {module} -> {target} ({where})")
    return "\n".join(lines)


def test_no_python_module_imports_one_that_imports_it_back() -> None:
    graph = python_graph(PACKAGE)
    assert graph.get("basra.bots.ismcts")
    found = loops(graph)
    assert not found, "import loops among basra's modules:\n" + described(graph, found)


def test_no_browser_module_imports_one_that_imports_it_back() -> None:
    graph = javascript_graph(STATIC)
    assert graph.get("learn.js")
    found = loops(graph)
    assert not found, "import loops among the page's modules:\n" + described(graph, found)


def test_the_search_stands_on_the_belief_not_the_other_way() -> None:
    """The learned belief reads plays with the simulator (:mod:`basra.sim`), below the
    bots: nothing of it imports a bot, not even the bots' package face (what plays the
    bots to train it is in :mod:`basra.train`)."""
    graph = python_graph(PACKAGE)
    below = ["basra.sim", *(m for m in graph if m.split(".")[:2] == ["basra", "belief"])]
    assert "basra.belief.features" in below and "basra.belief.model" in below
    for module in below:
        assert not [t for t in graph[module] if t.startswith("basra.bots")], module
    assert "basra.belief.model" in graph["basra.bots.ismcts"]
    for low in ("basra.bots.reward", "basra.bots.settings"):
        assert not {"basra.bots.solve", "basra.bots.pure", "basra.bots.ismcts"} & set(graph[low])


def test_every_kind_of_import_closes_a_loop(tmp_path: Path) -> None:
    """The walker sees a loop closed inside a function, under ``TYPE_CHECKING``, by a
    relative import and through another package's face."""
    root = tmp_path / "pkg"
    files = {
        "__init__.py": "",
        "a.py": "def f():\n    from pkg.b import x\n",
        "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n",
        "low/__init__.py": "from pkg.low import high\n",
        "low/base.py": "",
        "low/high.py": "def g():\n    import pkg.c\n",
        "c.py": "from pkg.low.base import y\n",
        "apart.py": "import pkg.a\n",
    }
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    found = loops(python_graph(root))
    assert sorted(found) == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.low", "pkg.low.high"]]


def test_javascript_imports_are_read(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text('import { x } from "./b.js";\nexport const y = 1;\n')
    (tmp_path / "b.js").write_text('export const x = 2;\nconst later = () => import("./a.js");\n')
    (tmp_path / "c.js").write_text('import "./a.js";\nexport * from "./b.js";\n')
    graph = javascript_graph(tmp_path)
    assert graph["c.js"] == {"a.js": "c.js:1", "b.js": "c.js:2"}
    assert loops(graph) == [["a.js", "b.js"]]


if __name__ == "__main__":
    for graph in (python_graph(PACKAGE), javascript_graph(STATIC)):
        print(described(graph, loops(graph)) or "no loops")
    sys.exit(0)
