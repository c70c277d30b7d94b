"""A notebook's parts (memlib.harness.parts, `run --part`): which cells a run of some parts executes, that notebook
03's parts read nothing another part computes, and how the report shows the claims of the parts left out."""
import ast
import builtins
import json

import pytest

from memlib.claims import core, report
from memlib.cli.common import NOTEBOOK_DIR
from memlib.harness import parts
from memlib.runtime import MemlibError


def _nb(*cells):
    return {"cells": [{"cell_type": "code", "source": src, "metadata": {"tags": tags}} for src, tags in cells]}


def test_a_run_of_some_parts_keeps_the_untagged_cells_and_the_cells_all_of_whose_parts_it_chose():
    nb = _nb(("setup", ["parameters"]), ("a", ["part:a"]), ("b", ["part:b"]), ("ab", ["part:a", "part:b"]),
             ("claims", []))
    assert parts.parts_of(nb) == ["a", "b"]
    assert [c["source"] for c in parts.select(nb, ["a"])["cells"]] == ["setup", "a", "claims"]
    assert [c["source"] for c in parts.select(nb, ["b", "a"])["cells"]] == ["setup", "a", "b", "ab", "claims"]
    assert len(nb["cells"]) == 5                                  # the notebook itself is left as it was
    assert parts.record(["b"], nb) == {"parts": ["b"], "skipped": ["a"]}
    with pytest.raises(MemlibError, match="--part c: notebook nb has the parts a, b"):
        parts.check_parts(nb, ["a", "c"], "nb")


def _names(src: str) -> tuple[set, set]:
    """(names a cell assigns, names it reads) by its syntax tree."""
    tree = ast.parse(src)
    stored, loaded = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (stored if isinstance(node.ctx, (ast.Store, ast.Del)) else loaded).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            stored.add(node.name)
        elif isinstance(node, ast.arg):
            stored.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            stored |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return stored, loaded


def test_each_part_of_notebook_03_reads_only_the_set_up_and_its_own_cells():
    """Every name a cell reads is assigned earlier in a cell that runs whenever it runs (an untagged cell, or one
    whose parts are among its own): a run of some parts cannot meet a name another part defines."""
    nb = json.loads((NOTEBOOK_DIR / "03_downsampling_eigenvectors.ipynb").read_text())
    assert parts.parts_of(nb) == ["fig2_3", "fig5_6", "appD", "sec6", "unet"]
    assigned: list[tuple[set, set]] = []                          # (the cell's parts, the names it assigns)
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        mine = set(parts.cell_parts(cell))
        stored, loaded = _names("".join(cell["source"]))
        visible = set(dir(builtins)) | stored
        for theirs, names in assigned:
            if theirs <= mine:
                visible |= names
        assert loaded <= visible, (sorted(mine), sorted(loaded - visible), "".join(cell["source"])[:120])
        assigned.append((mine, stored))


def test_the_report_shows_the_left_out_parts_claims_as_not_run_not_as_regressions(tmp_path):
    nb = "03_downsampling_eigenvectors"
    folder = tmp_path / "quick" / nb
    folder.mkdir(parents=True)
    (folder / "metrics.json").write_text(json.dumps({"m": [3.0, 3.0, 3.0], "g.loss_ratio": [0.0, 0.0, 0.0]}))
    (folder / "provenance.json").write_text(json.dumps({"profile": "quick"}))
    claim = core.Claim(id="p3.t", paper=3, figure="Fig 1", quote="a sentence of the paper, quoted in full here",
                       statement="s", metric="absent", op=">", threshold=2.0,
                       expect={"quick": core.REPRODUCED, "paper": core.REPRODUCED}, fit=("g.loss_ratio < 0.05",))
    whole = report.evaluate_all([claim], report.load_results(tmp_path, "quick"), "quick")[0]
    assert whole["outcome"] == core.NOT_RUN and whole["regression"]          # a whole run that lost a metric
    (folder / "parts.json").write_text(json.dumps({"parts": ["sec6"], "skipped": ["appD"]}))
    row = report.evaluate_all([claim], report.load_results(tmp_path, "quick"), "quick")[0]
    assert row["outcome"] == core.NOT_RUN and not row["regression"] and "--part" in row["reason"]
    measured = core.Claim(**{**{f: getattr(claim, f) for f in ("id", "paper", "figure", "quote", "statement", "op",
                                                                 "threshold", "expect", "fit")}, "metric": "m"})
    assert report.evaluate_all([measured], report.load_results(tmp_path, "quick"), "quick")[0]["outcome"] == \
        core.REPRODUCED                                                       # a part that ran is judged as ever
