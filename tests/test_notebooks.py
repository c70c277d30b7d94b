"""Every notebook executes headlessly under the smoke profile, through the same CLI as run_all.sh."""
import json
import subprocess
import sys

import nbformat
import pytest

from memlib.__main__ import NOTEBOOK_DIR, notebooks
from memlib.claims.report import decode

NAMES = notebooks()


def test_notebooks_are_stripped_and_parameterized():
    assert NAMES, "no notebooks found"
    for name in NAMES:
        nb = nbformat.read(NOTEBOOK_DIR / f"{name}.ipynb", as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert not any(c.outputs or c.execution_count for c in code), f"{name}: outputs not stripped"
        params = [c for c in code if "parameters" in c.metadata.get("tags", [])]
        assert len(params) == 1, f"{name}: needs exactly one cell tagged 'parameters'"
        for p in ("profile", "device", "data_root", "seed", "results_dir"):
            assert f"{p} =" in params[0].source


@pytest.fixture(scope="module")
def smoke_results(tmp_path_factory, suite_device):
    """Every notebook under smoke, on the suite's device (`pytest --device cuda`: the GPU)."""
    out = tmp_path_factory.mktemp("results")
    proc = subprocess.run([sys.executable, "-m", "memlib", "run", "--profile", "smoke", "--device", suite_device,
                           "--results-dir", str(out)], capture_output=True, text=True, timeout=900)
    return out, proc


@pytest.mark.device
def test_smoke_run_succeeds(smoke_results):
    out, proc = smoke_results
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.device
@pytest.mark.parametrize("name", NAMES)
def test_smoke_outputs(smoke_results, name):
    out, _ = smoke_results
    d = out / "smoke" / name
    assert (d / f"{name}.ipynb").exists(), f"{name} was not executed"
    assert list(d.glob("*.png")), f"{name} saved no figure"
    metrics = decode(json.loads((d / "metrics.json").read_text()))   # "nan"/"inf" strings as floats
    assert metrics and all(isinstance(v, float) or (isinstance(v, list) and all(isinstance(x, float) for x in v))
                           for v in metrics.values())
    prov = json.loads((d / "provenance.json").read_text())
    assert prov["parameters"]["profile"] == "smoke" and prov["wall_time_s"] > 0 and prov["versions"]["torch"]
    assert prov["numerics"]["policy"] == "float32, TF32 off"
    executed = nbformat.read(d / f"{name}.ipynb", as_version=4)
    assert any(o.get("output_type") == "display_data" for c in executed.cells if c.cell_type == "code"
               for o in c.get("outputs", [])), "figures were not rendered inline"


@pytest.mark.device
def test_smoke_report(smoke_results):
    out, _ = smoke_results
    report = json.loads((out / "smoke" / "report.json").read_text())
    assert report["profile"] == "smoke" and report["claims"]
    assert not report["regressions"], report["regressions"]
    assert (out / "smoke" / "report.md").read_text().startswith("# Reproduction report")


def test_tour_is_stripped_short_and_not_a_reproduction():
    """notebooks/00_tour.ipynb (`python -m memlib serve`): never executed by `run` nor counted by the report,
    stored without outputs, on the memlib kernel, every code cell one or two lines of memlib calls."""
    from memlib.__main__ import TOUR
    assert TOUR not in NAMES and all(n[:2] in ("01", "02", "03", "04") for n in NAMES)
    nb = nbformat.read(NOTEBOOK_DIR / f"{TOUR}.ipynb", as_version=4)
    assert nb.metadata["kernelspec"]["name"] == "memlib"
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert not any(c.outputs or c.execution_count for c in code), "00_tour: outputs not stripped"
    assert len(code) == 5 and all(len(c.source.strip().splitlines()) <= 2 for c in code)
    assert "parameters" in code[0].metadata.get("tags", []) and "profile = None" in code[0].source   # papermill
    assert all(c.source.strip().endswith("(profile)") for c in code[1:])             # each explorer at that profile
    for name in NAMES:                                   # each paper's section points at its full notebook
        assert f"notebooks/{name}.ipynb" in "".join(c.source for c in nb.cells if c.cell_type == "markdown")
