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


PARTS = {"01_identity_vs_constant": ["fig34_36", "fig4a"],
         "02_attractors": ["fig3", "fig4", "fig7_8", "fig5", "fig11"],
         "03_downsampling_eigenvectors": ["fig2_3", "fig5_6", "fig6_text_init", "appD", "sec6", "unet"]}


@pytest.mark.parametrize("name", sorted(PARTS))
def test_each_part_reads_only_the_set_up_and_its_own_cells(name):
    """Every name a cell reads is assigned earlier in a cell that runs whenever it runs (an untagged cell, or one
    whose parts are among its own): a run of some parts cannot meet a name another part defines."""
    nb = json.loads((NOTEBOOK_DIR / f"{name}.ipynb").read_text())
    assert parts.parts_of(nb) == PARTS[name]
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


def test_quick_leaves_to_full_the_parts_its_table_names_and_says_so():
    """harness.deferred: a quick run without --part executes every part but those quick leaves to full (parts.json
    names them under left_to_full); `--part all` and the other profiles run the whole notebook; each left-out
    section's claims are 'not run' in the ledger's quick column, with the reason and the command, and judged as ever
    where a run of the part measured them."""
    from memlib.claims import CLAIMS
    from memlib.harness import deferred
    from memlib.cli.common import notebook_source
    for name, sections in deferred.LEFT_TO_FULL["quick"].items():
        whole = json.loads((NOTEBOOK_DIR / f"{name}.ipynb").read_text())
        source, record = notebook_source(name, "quick")
        left = [p for p in PARTS[name] if p in {s.part for s in sections}]
        assert record == {"parts": [p for p in PARTS[name] if p not in left], "skipped": left, "left_to_full": left}
        kept = [c for c in source["cells"] if set(parts.cell_parts(c)) & set(left)]
        assert kept == [] and len(source["cells"]) < len(whole["cells"])
        assert notebook_source(name, "quick", ["all"])[1] is None and notebook_source(name, "smoke")[1] is None
        assert notebook_source(name, "smoke", None, left)[1] == {"parts": record["parts"], "skipped": left}
        for s in sections:
            assert s.prefixes and s.seconds > 0
            for c in [c for c in CLAIMS if c.notebook == name and s.holds(c.metric)]:
                assert c.expected("quick") == core.NOT_RUN and c.basis_of("quick").startswith("not run")
                row = core.evaluate(c, {}, "quick")
                assert row["outcome"] == core.NOT_RUN and not row["regression"]
                assert f"--part {s.part}" in row["reason"] and "full" in row["reason"]
                assert core.evaluate(c, {}, "paper")["reason"].endswith("was not measured at this profile")
    assert notebook_source("04_rho_dynamics", "quick")[1] is None                   # it leaves nothing out
    assert sum(s.seconds for v in deferred.LEFT_TO_FULL["quick"].values() for s in v) == 2788   # the rule's sum
    # a left-out part run on purpose is judged, and is no regression against the ledger's 'not run'
    c = next(c for c in CLAIMS if deferred.section_of(c, "quick") and c.threshold.__class__ is float
             and c.about == "sanity")
    row = core.evaluate(c, {c.metric: 0.0}, "quick")
    assert row["outcome"] != core.NOT_RUN and not row["regression"] and "leaves to full" in row["reason"]


def test_a_left_out_part_the_notebook_lacks_is_one_clear_line():
    nb = _nb(("setup", []), ("a", ["part:a"]))
    assert parts.default_parts(nb, []) is None and parts.default_parts(nb, ["a"]) == []
    with pytest.raises(MemlibError, match="leaves the parts b to full, which the notebook does not have"):
        parts.default_parts(nb, ["b"])
