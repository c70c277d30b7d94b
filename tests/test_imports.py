"""memlib's import structure (issue 29): every import of a memlib module sits at the top of its module, never
inside a function (where it would hide an import cycle), but in the command line's entry points (ENTRY_POINTS,
issue 43), and the graph of those imports has no cycle. Read from the source with `ast`: nothing is imported.
Imports of optional third-party packages inside functions (ipywidgets, papermill, ray, ...) are allowed."""
from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "memlib"


def _modules() -> dict[str, Path]:
    """Every module of memlib by its dotted name ("memlib.claims" for memlib/claims/__init__.py)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ("memlib",) + path.relative_to(PACKAGE).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


MODULES = _modules()

# The one exception to "at the top": the command line's entry points, the public top-level functions of this module
# (the functions cli.main.COMMANDS dispatches to; tests/test_cli.py checks they are exactly those). Each imports the
# memlib code its command needs when the command runs, so that `python -m memlib data fetch` loads neither the
# notebooks' stack nor the tour and its widgets (issue 43). Only in an entry point's own body (not in a helper nor in
# a function nested in it), and those imports join the graph the cycle check reads: nothing is hidden from it.
ENTRY_POINTS = "memlib.cli.commands"


def _targets(node: ast.Import | ast.ImportFrom, name: str, path: Path) -> list[str]:
    """The memlib modules an import statement in module `name` loads (none for a third-party import)."""
    if isinstance(node, ast.Import):
        return [_existing(a.name) for a in node.names if a.name == "memlib" or a.name.startswith("memlib.")]
    if node.level:
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        base = ".".join(package[:len(package) - (node.level - 1)] + ([node.module] if node.module else []))
    elif node.module == "memlib" or (node.module or "").startswith("memlib."):
        base = node.module
    else:
        return []
    # `from base import x`: the submodule base.x where there is one, else a name of base
    return sorted({f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else _existing(base) for a in node.names})


def _existing(name: str) -> str:
    """`name`, or the nearest enclosing module that exists (`import memlib.x.y` where y is no module)."""
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def _imports(name: str, path: Path, entry_points: str | None = ENTRY_POINTS):
    """(module-level targets and those of an entry point's body (in the module `entry_points`), [(line, function,
    target) of the other memlib imports inside a function])."""
    tree = ast.parse(path.read_text(), filename=str(path))
    top, lazy = set(), []

    def visit(node, function, entry):
        for child in ast.iter_child_nodes(node):
            inner, inner_entry = function, entry
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = child.name
                inner_entry = name == entry_points and node is tree and not child.name.startswith("_")
            elif isinstance(child, ast.Lambda):
                inner, inner_entry = function or "<lambda>", False
            elif isinstance(child, ast.ClassDef):
                inner_entry = False
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                for target in _targets(child, name, path):
                    if function is None or entry:
                        top.add(target)
                    else:
                        lazy.append((child.lineno, function, target))
            visit(child, inner, inner_entry)
    visit(tree, None, False)
    return top - {name}, lazy


def _graph(entry_points: str | None = ENTRY_POINTS) -> dict[str, set[str]]:
    """Each module's imports: at the top, and in the body of the entry points (None: at the top only, what
    importing the module loads)."""
    return {name: _imports(name, path, entry_points)[0] for name, path in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected component of more than one module (or a module importing itself)."""
    index, low, stack, on, comps = {}, {}, [], set(), []

    def connect(v):
        index[v] = low[v] = len(index)
        stack.append(v), on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            comps.append(set(comp))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    cycles = []
    for comp in comps:
        if len(comp) == 1 and not any(v in graph.get(v, ()) for v in comp):
            continue
        start = min(comp)                        # a shortest path back to `start` inside the component
        paths, seen = {start: [start]}, {start}
        frontier = [start]
        while frontier:
            nxt = []
            for v in frontier:
                for w in sorted(graph.get(v, ()) & comp):
                    if w == start:
                        cycles.append(paths[v] + [start])
                        nxt = frontier = []
                        break
                    if w not in seen:
                        seen.add(w)
                        paths[w] = paths[v] + [w]
                        nxt.append(w)
                if not frontier:
                    break
            frontier = nxt
    return cycles


def test_the_scan_sees_every_module_and_resolves_relative_imports():
    assert {"memlib", "memlib.harness.store", "memlib.plot", "memlib.claims.report", "memlib.cli.main"} <= set(MODULES)
    graph = _graph()
    assert "memlib.runtime" in graph["memlib.claims.report"]          # from ..runtime import ...
    assert "memlib.claims.core" in graph["memlib.claims.report"]      # from .core import ...
    assert "memlib.cli.main" in graph["memlib.__main__"]              # from .cli.main import main
    assert "memlib.claims" in graph["memlib.harness.envelope"]  # from .. import claims (a package)
    assert "memlib.runtime" in graph["memlib"]                        # the package's __init__
    assert "memlib.harness.fetch" in graph[ENTRY_POINTS]      # data_fetch's own import, in the graph


def test_only_the_entry_points_body_may_import_inside_a_function(tmp_path):
    """The exception (ENTRY_POINTS) covers an entry point's own body: not a private helper of that module, nor a
    function nested in an entry point, nor any function of another module."""
    source = ("from .common import writable\n"
              "def data_fetch(args):\n    from ..harness.fetch import fetch\n"
              "    def inner():\n        from ..plot import heatmap\n"
              "def _helper():\n    from ..claims import check\n")
    (tmp_path / "commands.py").write_text(source)
    top, lazy = _imports(ENTRY_POINTS, tmp_path / "commands.py")
    assert top == {"memlib.cli.common", "memlib.harness.fetch"}
    assert [(f, t) for _, f, t in lazy] == [("inner", "memlib.plot"), ("_helper", "memlib.claims")]
    top, lazy = _imports("memlib.cli.main", tmp_path / "commands.py")        # the same code anywhere else
    assert top == {"memlib.cli.common"} and len(lazy) == 3


def test_the_cycle_finder_names_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_memlib_module_is_imported_inside_a_function_but_an_entry_points():
    lazy = [f"{MODULES[name].relative_to(PACKAGE.parent)}:{line} in {function}(): imports {target}"
            for name, path in MODULES.items() for line, function, target in _imports(name, path)[1]]
    assert not lazy, "memlib modules imported inside functions (move them to the top):\n" + "\n".join(lazy)


def test_the_module_level_imports_have_no_cycle():
    cycles = _cycles(_graph())
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_import_memlib_loads_no_plotting_and_no_claims():
    """`import memlib` (the training API) loads neither `memlib.plot`, matplotlib nor `memlib.claims`; `memlib.harness.run`
    (a notebook's `Run`) loads the claims, which `Run.say`, `departures_table` and `finish` use, but no plotting:
    `Run.savefig` asks the figure to save itself. Run in fresh interpreters, the one place this test imports memlib."""
    import subprocess
    import sys
    shown = "print(sorted(m for m in sys.modules if m.startswith(('matplotlib', 'memlib.plot', 'memlib.widgets', 'memlib.claims'))))"
    out = {what: subprocess.run([sys.executable, "-c", f"import sys; {what}; {shown}"], capture_output=True, text=True,
                                check=True, cwd=PACKAGE.parent).stdout.strip()
           for what in ("import memlib; memlib.fit, memlib.fit_cached", "from memlib.harness.run import Run")}
    assert out["import memlib; memlib.fit, memlib.fit_cached"] == "[]", f"import memlib loaded: {out}"
    assert "'memlib.claims'" in out["from memlib.harness.run import Run"]
    assert not any(m in out["from memlib.harness.run import Run"] for m in ("matplotlib", "memlib.plot", "memlib.widgets")), out
