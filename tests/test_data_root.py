"""Where the papers' datasets and the results are looked for: `data_root="auto"` (data/ in the repo) with
the embedded sets as the fallback, said and recorded; an explicit root or the paper profile strict; a
relative results folder taken from the repo whatever the working folder (one cache for batch and JupyterLab)."""
import json

import pytest

from memlib import claims, data
from memlib.harness import store
from memlib.harness.run import Run
from memlib.claims import report as claims_report


def _fake_mnist(root):
    base = root / "MNIST" / "raw"
    base.mkdir(parents=True)
    for stem in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"):
        (base / stem).write_bytes(b"")          # presence is all `holds` checks
    return root


def test_auto_reads_the_environment_then_the_repo_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMLIB_DATA_ROOT", str(tmp_path))
    assert data.resolve_root("auto") == (tmp_path.resolve(), False)
    monkeypatch.delenv("MEMLIB_DATA_ROOT")
    expected = data.REPO / "data" if (data.REPO / "data").is_dir() else None
    assert data.resolve_root("auto") == (expected, False)
    assert data.resolve_root(None) == (None, False)
    assert data.resolve_root(str(tmp_path)) == (tmp_path.resolve(), True)
    with pytest.raises(data.DatasetMissing, match="is not a directory"):
        data.resolve_root(str(tmp_path / "nope"))


def test_auto_falls_back_to_the_embedded_set_and_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MEMLIB_DATA_ROOT", str(tmp_path))             # an empty data root
    run = Run("02_attractors", profile="smoke", device="cpu", results_dir=tmp_path / "r", data_root="auto")
    assert run.dataset("mnist", fallback="digits", used_for="Fig 3") == "digits"
    out = capsys.readouterr().out
    assert "mnist is not under" in out and "Fig 3 reads the embedded 'digits'" in out and "data fetch mnist" in out
    _fake_mnist(tmp_path)
    assert run.dataset("mnist", fallback="digits") == "mnist"
    assert run.sources == {"mnist": "mnist"}


@pytest.mark.parametrize("profile, data_root", [("smoke", "EXPLICIT"), ("paper", "auto")])
def test_an_explicit_root_or_the_paper_profile_must_hold_the_set(tmp_path, monkeypatch, profile, data_root):
    monkeypatch.setenv("MEMLIB_DATA_ROOT", str(tmp_path))
    root = str(tmp_path) if data_root == "EXPLICIT" else data_root
    run = Run("02_attractors", profile=profile, device="cpu", results_dir=tmp_path / "r", data_root=root)
    with pytest.raises(data.DatasetMissing, match=r"lacks mnist: expected .*train-images-idx3-ubyte"):
        run.dataset("mnist", fallback="digits")


def test_the_report_names_the_data_and_does_not_blame_other_data_on_the_ledger(tmp_path):
    nb = claims.NOTEBOOKS[2]
    d = tmp_path / "quick" / nb
    d.mkdir(parents=True)
    (d / "metrics.json").write_text(json.dumps({}))
    prov = {"notebook": nb, "resolved_device": "cpu", "parameters": {"resolved_data_root": None},
            "sources": {"mnist": "digits", "cifar10": "photos"}}
    (d / "provenance.json").write_text(json.dumps(prov))
    rep = claims.check(tmp_path, "quick")
    rows = [r for r in rep["claims"] if r["notebook"] == nb and r["expected"] == claims.REPRODUCED
            and r["about"] != "sanity"]
    assert rows and not any(r["regression"] for r in rows)               # metrics absent: NR, but other data
    assert all("on other data (read digits where the ledger's column read mnist)" in r["reason"] for r in rows)
    md = claims_report.render(rep)
    assert "Data: the embedded photos in place of cifar10; the embedded digits in place of mnist (no data root)." in md
    prov["sources"] = {"mnist": "mnist", "cifar10": "photos"}              # the ledger's own data: regressions count
    (d / "provenance.json").write_text(json.dumps(prov))
    rep = claims.check(tmp_path, "quick")
    assert any(r["regression"] for r in rep["claims"] if r["notebook"] == nb)


def test_a_relative_results_folder_is_the_repos_whatever_the_working_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert store.results_root("results") == (data.REPO / "results").resolve()
    assert store.results_root(tmp_path / "x") == tmp_path / "x"


def test_a_notebook_whose_ledger_column_was_measured_on_other_data(tmp_path, monkeypatch):
    nb = claims.NOTEBOOKS[2]
    monkeypatch.setitem(claims.core.LEDGER_DATA_BY_NOTEBOOK, "quick", {nb: {"mnist": "digits"}})
    assert claims.core.ledger_data("quick", nb)["mnist"] == "digits"
    assert claims_report.off_ledger_data({"sources": {"mnist": "mnist"}}, "quick", nb).startswith("read mnist where the ledger's column read digits")
    assert claims_report.off_ledger_data({"sources": {"mnist": "digits"}}, "quick", nb) == ""


def test_a_baseline_measured_on_other_data_is_not_compared():
    nb = claims.NOTEBOOKS[2]
    row = {"id": "p2.x", "notebook": nb, "outcome": claims.REPRODUCED, "metric": "m", "fit": [], "threshold": 0.5}
    now = {nb: {"metrics": {"m": 0.9}, "provenance": {"datasets": ["mnist", "photos"]}}}
    base = {"claims": [{**row, "outcome": claims.NOT_REPRODUCED}],
            "notebooks": {nb: {"metrics": {"m": 0.1}, "provenance": {"datasets": ["digits", "photos"]}}}}
    comp = claims_report.compare([row], now, base)
    assert comp["flips"] == [] and comp["drifts"] == [] and comp["other_data"][nb]["baseline"] == ["digits", "photos"]
    base["notebooks"][nb]["provenance"]["datasets"] = ["mnist", "photos"]            # same data: compared
    comp = claims_report.compare([row], now, base)
    assert [f["id"] for f in comp["flips"]] == ["p2.x"] and [d["metric"] for d in comp["drifts"]] == ["m"]
