"""The house by role, read from the code's own imports: the library (`ldsopt/`) imports no pass
and no tool, the passes do not import each other, no module imports itself back through
others, no module outgrows 600 lines, and the library's top level stays small (its modules
live in subpackages named for their role)."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The installed package's subpackages and the folders they come from (pyproject.toml).
PACKAGES = {"ldsopt": "ldsopt", "ldsopt.passes": "passes", "ldsopt.tools": "tools", "ldsopt.models": "models"}
MAX_LINES = 600
MAX_TOP_LEVEL = 12


def _modules() -> dict[str, pathlib.Path]:
    out = {}
    for package, folder in PACKAGES.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            parts = parts[:-1] if parts[-1] == "__init__" else parts
            out[".".join((package, *parts))] = path
    return out


MODULES = _modules()


def _imports(path: pathlib.Path) -> set[str]:
    """The ldsopt modules `path` imports, at any depth of its code."""
    deps = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ldsopt"):
            for alias in node.names:
                name = f"{node.module}.{alias.name}"
                deps.add(name if name in MODULES else node.module)
        elif isinstance(node, ast.Import):
            deps.update(a.name for a in node.names if a.name.startswith("ldsopt"))
    return {d for d in deps if d in MODULES}


GRAPH = {name: _imports(path) - {name} for name, path in MODULES.items()}


def _layer(name: str) -> str:
    for sub in ("passes", "tools", "models"):
        if name == f"ldsopt.{sub}" or name.startswith(f"ldsopt.{sub}."):
            return sub
    return "library"


def test_the_library_imports_no_pass_and_no_tool():
    wrong = sorted((m, d) for m, deps in GRAPH.items() if _layer(m) == "library"
                   for d in deps if _layer(d) in ("passes", "tools"))
    assert not wrong, wrong


def test_passes_do_not_import_each_other():
    wrong = sorted((m, d) for m, deps in GRAPH.items() if _layer(m) == "passes" and m != "ldsopt.passes"
                   for d in deps if _layer(d) == "passes")
    assert not wrong, wrong


def test_no_import_circles():
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while not component or component[-1] != v:
                component.append(stack.pop())
            if len(component) > 1:
                circles.append(sorted(component))

    for v in GRAPH:
        if v not in index:
            visit(v)
    assert not circles, circles


def test_modules_stay_small():
    large = {str(p.relative_to(ROOT)): n for p in MODULES.values() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not large, large


def test_the_library_top_level_is_small():
    top = sorted(n for n, p in MODULES.items() if n.count(".") == 1 and _layer(n) == "library"
                 and p.name != "__init__.py")
    assert len(top) <= MAX_TOP_LEVEL, top


def test_the_graph_sees_the_imports():
    """The checks above read real edges (a broken reader would find nothing to refuse)."""
    assert "ldsopt.registry" in GRAPH["ldsopt.pipeline"]
    assert "ldsopt.matmul.options" in GRAPH["ldsopt.passes.matmul_lds"]
    assert any(d.startswith("ldsopt.run") for d in GRAPH["ldsopt.tools.lds_run"])
