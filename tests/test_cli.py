"""The command line's layout (memlib/cli/): small modules by concern, no import cycle, no memlib import hidden in
a function but in a command's entry point (cli/commands.py), `python -m memlib` a thin call that loads only what
its command needs; and the warning when torch or numpy differ from constraints.txt."""
import ast
import subprocess
import sys
from pathlib import Path

import numpy as np

from memlib import data
from memlib.harness import fetch
from memlib.cli import report

ROOT = Path(__file__).resolve().parent.parent
CLI = ROOT / "memlib" / "cli"


def _memlib_imports(tree: ast.AST) -> set[str]:
    """The memlib.cli modules a module imports (relative `from .x import` / `from . import x` inside cli)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            out |= {node.module} if node.module else {a.name for a in node.names}
    return out


def test_cli_modules_are_small_documented_and_acyclic():
    graph = {}
    for path in sorted(CLI.glob("*.py")):
        tree = ast.parse(path.read_text())
        assert ast.get_docstring(tree), f"{path.name} has no module docstring"
        assert len(path.read_text().splitlines()) <= 350, f"{path.name} is over 350 lines"
        entry = {fn.name for fn in tree.body if path.name == "commands.py" and isinstance(fn, ast.FunctionDef)
                 and not fn.name.startswith("_")}   # the entry points: each imports its command's code when it runs
        for fn in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
            own = {id(n) for n in fn.body} if fn.name in entry else set()   # an entry point's own statements
            for node in ast.walk(fn):      # inside functions: optional or heavy third-party packages only
                assert not (isinstance(node, ast.ImportFrom) and node.level > 0 and id(node) not in own), \
                    f"{path.name}: {fn.name} imports memlib code inside the function"
        graph[path.stem] = _memlib_imports(tree) - {"__init__"}
    seen, done = set(), set()

    def visit(m, chain):
        assert m not in seen - done, f"import cycle: {' -> '.join(chain + [m])}"
        if m in done:
            return
        seen.add(m)
        for n in graph.get(m, ()):
            visit(n, chain + [m])
        done.add(m)
    for m in graph:
        visit(m, [])
    assert len((ROOT / "memlib" / "__main__.py").read_text().splitlines()) <= 10


def test_python_m_memlib_help_lists_every_command():
    out = subprocess.run([sys.executable, "-m", "memlib", "--help"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "{run,check,plan,envelope,bench,serve,data}" in out.stdout
    out = subprocess.run([sys.executable, "-m", "memlib", "nope"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 2 and "invalid choice" in out.stderr


def test_environment_drift_names_torch_or_numpy_only_when_they_differ(tmp_path):
    from importlib.metadata import version
    numpy, torch = version("numpy"), version("torch").split("+")[0]
    same = tmp_path / "same.txt"
    same.write_text(f"# comment\nnumpy=={numpy}\ntorch=={torch}+cpu\nscipy==0.1\n")
    assert report.environment_drift(same) is None                  # scipy is not watched; +cpu is ignored
    other = tmp_path / "other.txt"
    other.write_text(f"numpy==1.0.0\ntorch=={torch}\n")
    line = report.environment_drift(other)
    assert line.startswith(f"installed numpy {numpy} (constraints.txt: 1.0.0)") and "torch" not in line
    assert report.environment_drift(tmp_path / "absent.txt") is None
    assert report.CONSTRAINTS == ROOT / "constraints.txt" and report.CONSTRAINTS.exists()


def test_every_command_is_dispatched_from_one_table_after_its_choices_are_checked(tmp_path, capsys):
    """`cli.main.COMMANDS` names each subcommand's function and the options checked before it runs: a profile or
    device that is not one of the choices is refused in one line (exit 2), before the command does anything."""
    from memlib.cli import commands, main as cli_main
    sub = next(a for a in cli_main.parser()._actions if a.dest == "command")
    assert set(cli_main.COMMANDS) == set(sub.choices)
    entry = {name for name, f in vars(commands).items() if callable(f) and getattr(f, "__module__", "") ==
             commands.__name__ and not name.startswith("_")}     # the entry points (tests/test_imports.py)
    assert {f.__name__ for f, _ in cli_main.COMMANDS.values()} == entry
    assert all(f.__module__ == commands.__name__ for f, _ in cli_main.COMMANDS.values())
    out = ["--results-dir", str(tmp_path)]
    refused = [["run", "--profile", "nope", *out], ["run", "--device", "nope", *out],
               ["check", "--profile", "nope", *out], ["envelope", "--profile", "nope", "--workdir", str(tmp_path)],
               ["plan", "--device", "nope", *out], ["bench", "--device", "nope", *out]]
    for argv in refused:
        assert cli_main.main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1 and "nope" in err, (argv, err)
    assert not any(tmp_path.iterdir())                                      # nothing ran


# what a command that neither runs a notebook nor draws must not load (issue 43: `data fetch` loaded 75 of memlib's
# modules, the widgets and matplotlib among them, because the command line imported every command's code up front)
NOT_FOR_DATA_FETCH = ("matplotlib", "ipywidgets", "papermill", "jupyter_client", "memlib.widgets", "memlib.widgets.tour",
                      "memlib.plot", "memlib.claims", "memlib.harness.engine", "memlib.cli.notebooks", "memlib.cli.serve")


def test_data_fetch_loads_only_what_the_fetch_needs(tmp_path):
    """`python -m memlib data fetch mnist` into a data root that already holds a (small, valid) MNIST: nothing to
    fetch, no network; the fresh interpreter's sys.modules afterwards hold none of NOT_FOR_DATA_FETCH."""
    raw = tmp_path / "MNIST" / "raw"
    raw.mkdir(parents=True)
    for split in data.SPLITS:
        images, labels = data._IDX_FILES[split]
        (raw / images).write_bytes(fetch.idx_bytes(np.zeros((20, 28, 28), np.uint8)))
        (raw / labels).write_bytes(fetch.idx_bytes(np.arange(20, dtype=np.uint8) % 10))
    probe = ("import runpy, sys\n"
             "try:\n    runpy.run_module('memlib', run_name='__main__', alter_sys=True)\n"
             "finally:\n    print('\\nMODULES', *sorted(sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", probe, "data", "fetch", "mnist", "--data-root", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0 and "nothing to fetch" in out.stdout, out.stdout + out.stderr
    loaded = set(out.stdout.rsplit("\nMODULES ", 1)[1].split())
    assert "memlib.harness.fetch" in loaded                                             # the probe saw the command run
    wrong = [w for w in NOT_FOR_DATA_FETCH if any(m == w or m.startswith(w + ".") for m in loaded)]
    assert not wrong, f"python -m memlib data fetch loaded what it does not need: {', '.join(wrong)}"
