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
                       statement="s", metric="appD.absent", op=">", threshold=2.0,
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


def test_parts_json_excuses_only_the_claims_of_the_parts_it_skipped(tmp_path):
    """A run of some parts lacks the skipped parts' metrics, and only those: a metric of a section that ran (an
    untagged one, or a part that ran) missing from its results is a regression even where parts.json exists, as
    every quick run of notebooks 01-03 writes one."""
    nb = "03_downsampling_eigenvectors"
    folder = tmp_path / "quick" / nb
    folder.mkdir(parents=True)
    (folder / "metrics.json").write_text(json.dumps({"g.loss_ratio": [0.0, 0.0, 0.0]}))
    (folder / "provenance.json").write_text(json.dumps({"profile": "quick"}))

    def claim(metric):
        return core.Claim(id=f"p3.{metric}", paper=3, figure="Fig 1", quote="a sentence of the paper, quoted in "
                          "full here", statement="s", metric=metric, op=">", threshold=2.0,
                          expect={"quick": core.REPRODUCED, "paper": core.REPRODUCED}, fit=("g.loss_ratio < 0.05",))

    def regression(metric, record):
        (folder / "parts.json").write_text(json.dumps(record))
        row = report.evaluate_all([claim(metric)], report.load_results(tmp_path, "quick"), "quick")[0]
        assert row["outcome"] == core.NOT_RUN
        return row["regression"]

    from memlib.cli.common import notebook_source
    quick = notebook_source(nb, "quick")[1]                 # what a quick run without --part writes
    assert quick["skipped"] == ["fig6_text_init"]
    assert regression("fig4.default.corr", quick)           # an untagged section's metric, lost
    assert regression("fig7.NLD.frac_is_train", quick)      # a part quick ran
    assert regression("fig6.D.k1.rank", quick)              # fig5_6 ran: only fig6.text_init.* is skipped
    some = {"parts": ["sec6"], "skipped": ["fig2_3", "fig5_6", "fig6_text_init", "appD", "unet"]}
    assert not regression("fig1.unet.point_map_corr", some) and not regression("appD.rank", some)
    assert regression("fig7.NLD.frac_is_train", some) and regression("propC.max_rank_error", some)
    assert parts.part_of_metric(nb, "fig6.text_init.D.k1.rank") == "fig6_text_init"
    assert parts.part_of_metric(nb, "fig11.min_corr_to_train") == "sec6" and parts.part_of_metric(nb, "fig4.x") is None


def test_the_parts_metric_table_agrees_with_the_notebooks_and_with_what_quick_leaves_to_full():
    """harness.parts.METRICS names every part of each notebook, and a section quick leaves to full
    (harness.deferred) holds exactly the metrics its prefixes name."""
    from memlib.harness import deferred
    for name, known in PARTS.items():
        assert sorted(parts.METRICS[name]) == sorted(known)
    for name, sections in deferred.LEFT_TO_FULL["quick"].items():
        for s in sections:
            for p in s.prefixes:
                assert parts.part_of_metric(name, p + "x") == s.part, (name, p)


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
    rule = deferred.decide(CLAIMS)
    to_tag = sum(s.seconds for _, s, _ in rule.left if not s.part)                  # left by the rule, not yet parts
    assert sum(s.seconds for v in deferred.LEFT_TO_FULL["quick"].values() for s in v) == \
        rule.total_s - rule.estimate_s - to_tag                                         # the rule's sum
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


@pytest.mark.parametrize("argv,expect", [
    (["--skip-part", "all"], "--skip-part all: name the parts to skip (notebook 03_downsampling_eigenvectors has the "
                             "parts fig2_3, fig5_6, fig6_text_init, appD, sec6, unet)"),
    (["--skip-part", "sec6", "--skip-part", "nope"],
     "--skip-part nope: notebook 03_downsampling_eigenvectors has the parts fig2_3,"),
    (["--part", "nope"], "--part nope: notebook 03_downsampling_eigenvectors has the parts fig2_3,"),
])
def test_a_skip_part_that_is_all_or_unknown_is_one_line_naming_skip_part_before_any_run(tmp_path, capsys, argv, expect):
    """`--skip-part all` would skip nothing (every part runs) and the report would still call the run partial: it is
    refused; an unknown name is refused under the option it came with."""
    from memlib.cli.main import main
    before = set(tmp_path.rglob("*"))
    assert main(["run", "--profile", "smoke", "--only", "03", "--device", "cpu", "--results-dir", str(tmp_path),
                 *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert expect in err and len(err.splitlines()) == 1, err
    assert set(tmp_path.rglob("*")) == before                           # refused before a kernel or a folder
    with pytest.raises(MemlibError, match="--skip-part all: "):
        parts.check_parts(_nb(("a", ["part:a"])), ["all"], "nb", "--skip-part")
    parts.check_parts(_nb(("a", ["part:a"])), ["all"], "nb")             # `--part all` is the whole notebook
