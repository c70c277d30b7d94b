"""A run of some parts (`run --only NN --part NAME`) adds to the notebook's earlier finished run: the earlier run's
metrics and figures of the parts it did not execute stay, parts.json says which run each part came from, and no
verdict disappears. Papermill's execution is replaced by a fake that writes what the chosen parts would log."""
import json
import subprocess
import sys
from pathlib import Path

NB3 = "03_downsampling_eigenvectors"
OLD = {"fig4.default.corr": 0.1, "fig7.NLD.frac_is_train": [1.0, 1.0, 1.0], "fig2.D.point_map_corr": [0.9, 0.9, 0.9],
       "appD.rank": [3.0, 3.0, 3.0], "fig1.unet.point_map_corr": [0.5, 0.5, 0.5]}


def _earlier_whole_run(tmp_path: Path, seed=0, sources=None) -> Path:
    final = tmp_path / "smoke" / NB3
    final.mkdir(parents=True)
    (final / "metrics.json").write_text(json.dumps(OLD))
    (final / "provenance.json").write_text(json.dumps({
        "notebook": NB3, "parameters": {"seed": seed}, "sources": sources or {"mnist": "digits"},
        "figures": ["fig7_nonlinear.png", "fig1_unet.png"], "finished": "2020-01-01T00:00:00"}))
    (final / "fig7_nonlinear.png").write_text("old fig7")
    (final / "fig1_unet.png").write_text("old unet")
    (final / f"{NB3}.ipynb").write_text("the whole run's notebook")
    return final


# what `--part unet` logs: the set-up's metrics and Fig 1's
UNET_RUN = ("import json\nd = Path(out).parent\n"
            "(d / 'metrics.json').write_text(json.dumps({'fig4.default.corr': 0.2, "
            "'fig1.unet.point_map_corr': [0.99, 0.99, 0.99]}))\n"
            "(d / 'fig1_unet.png').write_text('new unet')\n"
            "(d / 'provenance.json').write_text(json.dumps({'notebook': 'x', 'parameters': {'seed': kw['parameters']"
            "['seed']}, 'sources': {'mnist': 'digits'}, 'figures': ['fig1_unet.png'], "
            "'finished': '2021-01-01T00:00:00'}))\n"
            "Path(out).write_text('the part run notebook')\n")


def _run(tmp_path: Path, argv: list, notebook: str = UNET_RUN) -> subprocess.CompletedProcess:
    code = ("import os, sys\nfrom pathlib import Path\nimport papermill\nfrom memlib.cli import main, notebooks as m\n"
            "m.ensure_kernel = lambda: 'memlib'\n"
            "def execute(inp, out, **kw):\n" + "".join(f"    {line}\n" for line in notebook.splitlines()) +
            "papermill.execute_notebook = execute\n"
            f"sys.exit(main.main({argv!r}))\n")
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)


def _part_run(tmp_path, *extra):
    return _run(tmp_path, ["run", "--profile", "smoke", "--only", "03", "--part", "unet", "--device", "cpu",
                           "--results-dir", str(tmp_path), *extra])


def test_a_run_of_one_part_adds_to_the_earlier_whole_run_and_removes_no_verdict(tmp_path):
    final = _earlier_whole_run(tmp_path)
    out = _part_run(tmp_path)
    assert "Traceback" not in out.stderr, out.stdout + out.stderr
    assert "added to the earlier finished run" in out.stdout, out.stdout + out.stderr
    metrics = json.loads((final / "metrics.json").read_text())
    assert metrics == {**OLD, "fig4.default.corr": 0.2, "fig1.unet.point_map_corr": [0.99, 0.99, 0.99]}
    assert (final / "fig7_nonlinear.png").read_text() == "old fig7" and (final / "fig1_unet.png").read_text() == "new unet"
    record = json.loads((final / "parts.json").read_text())
    assert record["skipped"] == [] and "unet" in record["parts"] and "sec6" in record["parts"]
    assert record["from"]["unet"] == 1 and record["from"]["sec6"] == 0 and record["from"]["appD"] == 0
    assert [r["finished"] for r in record["runs"]] == ["2020-01-01T00:00:00", "2021-01-01T00:00:00"]
    assert (final / record["runs"][0]["notebook"]).read_text() == "the whole run's notebook"
    assert (final / f"{NB3}.ipynb").read_text() == "the part run notebook"
    prov = json.loads((final / "provenance.json").read_text())
    assert sorted(prov["figures"]) == ["fig1_unet.png", "fig7_nonlinear.png"]
    assert prov["merged"]["earlier"][0]["finished"] == "2020-01-01T00:00:00" and "unet" in prov["merged"]["note"]
    assert "Joined from 2 runs" in (tmp_path / "smoke" / "report.md").read_text()
    assert not list((tmp_path / "smoke").glob(".*"))                           # no staging folder left
    # a second part on top: the first part's and the whole run's stay, each from its own run
    sec6 = UNET_RUN.replace("'fig1.unet.point_map_corr'", "'fig7.NLD.frac_is_train'").replace("2021", "2022")
    out = _run(tmp_path, ["run", "--profile", "smoke", "--only", "03", "--part", "sec6", "--device", "cpu",
                          "--results-dir", str(tmp_path)], sec6)
    assert "Traceback" not in out.stderr, out.stdout + out.stderr
    record = json.loads((final / "parts.json").read_text())
    assert record["from"]["unet"] == 1 and record["from"]["sec6"] == 2 and record["from"]["appD"] == 0
    assert [(final / r["notebook"]).read_text() for r in record["runs"]] == [
        "the whole run's notebook", "the part run notebook", "the part run notebook"]
    metrics = json.loads((final / "metrics.json").read_text())
    assert metrics["fig1.unet.point_map_corr"] == [0.99] * 3 and metrics["fig7.NLD.frac_is_train"] == [0.99] * 3
    assert metrics["appD.rank"] == [3.0] * 3


def test_a_run_of_some_parts_with_another_seed_is_refused_before_it_starts(tmp_path):
    final = _earlier_whole_run(tmp_path, seed=0)
    out = _part_run(tmp_path, "--seed", "5")
    err = out.stderr.strip()
    assert out.returncode == 2 and len(err.splitlines()) == 1 and "--seed 0" in err and "Traceback" not in err, err
    assert json.loads((final / "metrics.json").read_text()) == OLD


def test_a_run_of_some_parts_on_other_data_is_written_beside_the_earlier_run(tmp_path):
    final = _earlier_whole_run(tmp_path, sources={"mnist": "mnist"})
    out = _part_run(tmp_path)
    assert "Traceback" not in out.stderr and "written beside it" in out.stdout, out.stdout + out.stderr
    assert json.loads((final / "metrics.json").read_text()) == OLD and not (final / "parts.json").exists()
    beside = tmp_path / "smoke" / f"{NB3}.parts-unet"
    assert json.loads((beside / "metrics.json").read_text())["fig1.unet.point_map_corr"] == [0.99] * 3


def test_a_run_of_some_parts_after_a_failed_run_replaces_it(tmp_path):
    """A failed run holds no verdict: a run of some parts takes its place as it always did."""
    final = tmp_path / "smoke" / NB3
    final.mkdir(parents=True)
    (final / "failed.json").write_text(json.dumps({"reason": "killed"}))
    out = _part_run(tmp_path)
    assert "Traceback" not in out.stderr, out.stdout + out.stderr
    assert not (final / "failed.json").exists()
    assert json.loads((final / "parts.json").read_text())["parts"] == ["unet"]
