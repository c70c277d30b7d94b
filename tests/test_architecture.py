"""docs/ARCHITECTURE.md kept true (issue 43): what it asserts about memlib's modules is checked against the source,
read with `ast` (nothing is imported). The document states no line counts (they went stale); what it states is:

- the Modules table: one row per module, naming each file of memlib/ (path relative to memlib/) in its first cell;
  every module has a row, and a row names nothing that is not there;
- any file it names in backticks (`cli/main.py`, `memlib/harness/fetch.py`, `tests/test_cli.py`, `test_recipes.py`) exists;
- its import statements, in backticks, module names relative to memlib (`claims.report`; `widgets.*` for every
  module of a package): `a -> b, c` says a imports b and c (a chain `a -> b -> c`: each imports the next; the
  imports of the command line's entry points count, as in tests/test_imports.py); "`x` is a leaf" (or "`x`, a
  leaf", "`x` and `y` as leaves") says x imports no other memlib module; "`a` imports neither `b` nor `c`" and
  "`a` does not import `b`" say that importing a never loads b (no chain of module-level imports leads there)."""
from __future__ import annotations

import re
from pathlib import Path

from test_imports import MODULES, PACKAGE, _graph

ROOT = PACKAGE.parent
DOC = ROOT / "docs" / "ARCHITECTURE.md"


def _prose(text: str) -> str:
    """The document without its fenced code blocks (the layers' drawing), paragraphs (and list items) joined onto
    one line each, less those that name this test: they explain the notation with placeholders (`a -> b`)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    lines = re.sub(r"\n(?!\n|\s*(?:[-*] |\||#|\d+\. ))\s*", " ", text).splitlines()
    return "\n".join(line for line in lines if "tests/test_architecture.py" not in line)


TEXT = DOC.read_text()
PROSE = _prose(TEXT)
NAME = r"`((?:memlib\.)?[\w.*]+?)(?:\.py)?`"          # a module in backticks: `store`, `claims.report`, `images.py`


def _files() -> set[str]:
    return {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")}


def _table() -> list[list[str]]:
    """The Modules table's rows: the files each first cell names (relative to memlib/)."""
    section = TEXT.split("\n## Modules", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [re.findall(r"`([^`]+\.py)`", row.split(" | ")[0]) for row in rows]


def _module(name: str) -> list[str]:
    """The memlib modules a name in the document stands for (`widgets.*`: every module in memlib/widgets/)."""
    name = name if name == "memlib" or name.startswith("memlib.") else f"memlib.{name}"
    if name.endswith(".*"):
        found = [m for m in MODULES if m.startswith(name[:-1])]
    else:
        found = [name] if name in MODULES else []
    assert found, f"docs/ARCHITECTURE.md names the module {name}, which memlib does not have"
    return found


def _reaches(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for n in graph[todo.pop()] - seen:
            seen.add(n)
            todo.append(n)
    return seen


def test_the_modules_table_names_every_module_once_and_nothing_else():
    named = [f for row in _table() for f in row]
    assert len(_table()) > 40 and "cli/main.py" in named                        # the table was found
    twice = sorted({f for f in named if named.count(f) > 1})
    assert not twice, f"modules with more than one row in docs/ARCHITECTURE.md: {twice}"
    absent = sorted(set(named) - _files())
    assert not absent, f"docs/ARCHITECTURE.md's Modules table names files memlib/ does not have: {absent}"
    missing = sorted(_files() - set(named))
    assert not missing, f"modules without a row in docs/ARCHITECTURE.md's Modules table: {missing}"


def test_every_file_the_document_names_exists():
    names = set(re.findall(r"`([\w./-]+\.py)`", TEXT))
    basenames = {p.name for folder in (PACKAGE, ROOT / "tests") for p in folder.rglob("*.py")}
    absent = sorted(n for n in names if not (any((base / n).is_file() for base in (ROOT, PACKAGE, ROOT / "tests"))
                                             or ("/" not in n and n in basenames)))
    assert not absent, f"docs/ARCHITECTURE.md names files that do not exist: {absent}"


def _arrows() -> list[str]:
    return [span for span in re.findall(r"`([^`]+)`", PROSE) if " -> " in span]


def _leaves() -> list[str]:
    one = re.findall(NAME + r"(?: is|,) a leaf", PROSE)
    several = re.findall(r"((?:`[\w./*]+`(?:, | and ))+`[\w./*]+`) (?:as|are) leaves", PROSE)
    return one + [n for group in several for n in re.findall(NAME, group)]


def _never() -> list[tuple[str, str]]:
    neither = re.findall(NAME + r" imports neither " + NAME + " nor " + NAME, PROSE)
    return [(a, t) for a, b, c in neither for t in (b, c)] + re.findall(NAME + r" does not import " + NAME, PROSE)


def test_the_documents_import_statements_are_found():
    """The parsing above sees the statements the document makes (a rewording that hid them fails here)."""
    arrows, leaves, never = _arrows(), _leaves(), _never()
    assert len(arrows) >= 10 and any(a.startswith("cli.main -> ") for a in arrows), arrows
    assert {"harness.context", "cli.signals"} <= set(leaves), leaves
    assert ("harness.store", "plot") in never and ("harness.run", "plot") in never, never


def test_each_import_the_document_states_is_in_the_source():
    graph = _graph()
    wrong = []
    for span in _arrows():
        groups = [[m for n in g.split(",") for m in _module(n.strip())] for g in span.split(" -> ")]
        for sources, targets in zip(groups, groups[1:]):
            wrong += [f"{a} does not import {b} (`{span}`)" for a in sources for b in targets if b not in graph[a]]
    assert not wrong, "docs/ARCHITECTURE.md states imports the source does not make:\n" + "\n".join(wrong)


def test_each_leaf_the_document_names_imports_no_memlib_module():
    graph = _graph()
    wrong = [f"{m} imports {', '.join(sorted(graph[m]))}" for n in _leaves() for m in _module(n) if graph[m]]
    assert not wrong, "docs/ARCHITECTURE.md calls modules leaves that are not:\n" + "\n".join(wrong)


def test_what_the_document_says_a_module_never_loads_it_never_loads():
    graph = _graph(entry_points=None)             # what importing a module loads: its module-level imports
    wrong = [f"{m} loads {t} (through its imports)" for a, b in _never() for m in _module(a) for t in _module(b)
             if t in _reaches(graph, m)]
    assert not wrong, "docs/ARCHITECTURE.md says a module does not import what it does:\n" + "\n".join(wrong)


HARNESS = {"run", "context", "modes", "store", "cachekey", "plan", "jobfile", "engine", "estimate", "envelope",
           "bench", "fetch", "fileio", "machine", "paths", "progress", "parts", "deferred"}


def test_the_top_level_holds_the_science_and_the_harness_lives_apart():
    """Issue 43: memlib's top level is at most 25 modules, the science a reader imports; the harness (run, cache,
    plans, engine, envelope, bench, fetch and their plumbing) is memlib/harness/."""
    top = sorted(p.stem for p in PACKAGE.glob("*.py"))
    assert len(top) <= 25, f"memlib/ holds {len(top)} modules at its top level: {top}"
    assert not HARNESS & set(top), f"harness modules at memlib's top level: {sorted(HARNESS & set(top))}"
    assert {p.stem for p in (PACKAGE / "harness").glob("*.py")} == HARNESS | {"__init__"}
