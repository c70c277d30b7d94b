"""Every notebook executes headlessly under the smoke profile, through the same CLI as run_all.sh."""
import json
import subprocess
import sys

import nbformat
import pytest
import torch

from memlib.cli.common import NOTEBOOK_DIR, notebooks
from memlib.claims.report import decode
from memlib import runtime
from memlib.harness import deferred

NAMES = notebooks()


def test_notebooks_are_stripped_and_parameterized():
    assert NAMES, "no notebooks found"
    for name in NAMES:
        nb = nbformat.read(NOTEBOOK_DIR / f"{name}.ipynb", as_version=4)
        code = [c for c in nb.cells if c.cell_type == "code"]
        assert not any(c.outputs or c.execution_count for c in code), f"{name}: outputs not stripped"
        params = [c for c in code if "parameters" in c.metadata.get("tags", [])]
        assert len(params) == 1, f"{name}: needs exactly one cell tagged 'parameters'"
        setup = code[code.index(params[0]) + 1].source                     # the cell that builds Run(...)
        for p in ("profile", "device", "data_root", "seed", "results_dir"):
            assert f"{p} =" in params[0].source
        for p in ("run_dir", "cache_dir", "plan_dir", "max_steps", "headless"):   # the run context's (memlib.harness.context)
            assert f"\n{p} =" in params[0].source and f"{p}={p}" in setup, f"{name}: {p} not passed to Run"


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
    assert prov["numerics"]["policy"] == runtime.NUMERICS
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


@pytest.mark.device
def test_smoke_logs_the_controls_of_paper_2(smoke_results):
    """Issue 42, item 2: where notebook 02 measures a claim, it measures the claim's control (tests/test_controls_paper23.py)."""
    from test_controls_paper23 import missing_controls
    out, _ = smoke_results
    metrics = decode(json.loads((out / "smoke" / "02_attractors" / "metrics.json").read_text()))
    assert not missing_controls(metrics)


@pytest.mark.device
def test_smoke_logs_the_controls_of_paper_3(smoke_results):
    """Issue 42, item 2: where notebook 03 measures a claim, it measures the claim's control (tests/test_controls_paper23.py)."""
    from test_controls_paper23 import missing_controls
    out, _ = smoke_results
    metrics = decode(json.loads((out / "smoke" / "03_downsampling_eigenvectors" / "metrics.json").read_text()))
    assert not missing_controls(metrics, paper=3)


@pytest.mark.device
def test_smoke_logs_the_controls_of_paper_1(smoke_results):
    """Issue 42, item 2: where notebook 01 measures a claim, it measures the claim's control (tests/test_controls_paper1.py)."""
    from test_controls_paper1 import missing_controls
    out, _ = smoke_results
    metrics = decode(json.loads((out / "smoke" / "01_identity_vs_constant" / "metrics.json").read_text()))
    assert missing_controls(metrics) == {}


def test_tour_is_stripped_short_and_not_a_reproduction():
    """notebooks/00_tour.ipynb (`python -m memlib serve`): never executed by `run` nor counted by the report,
    stored without outputs, on the memlib kernel, every code cell one or two lines of memlib calls."""
    from memlib.widgets.tour import TOUR
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


def test_the_ray_engine_trains_each_planned_job_once_and_renders_the_serial_runs_metrics(smoke_results, suite_device,
                                                                                         tmp_path):
    """`run --engine ray` (issue 17): the smoke profile, all four notebooks, on a local Ray of 2 CPUs with its
    first task's worker killed: every planned job trains once, the notebooks then train nothing and log exactly
    the serial run's metrics (`smoke_results`), and a second run plans and trains nothing."""
    pytest.importorskip("ray", reason="Ray is an optional extra: MEMLIB_EXTRAS=ray ./run_all.sh installs it")
    import os
    import re
    base = [sys.executable, "-m", "memlib", "run", "--profile", "smoke", "--device", "cpu"]
    env = {k: v for k, v in os.environ.items() if k != "MEMLIB_CACHE"}     # each run its own results/cache
    serial, proc = smoke_results
    assert proc.returncode == 0, proc.stdout[-2000:]
    if suite_device != "cpu":        # the Ray workers train on the CPU: compare with a serial run there
        serial = tmp_path / "serial"
        proc = subprocess.run(base + ["--results-dir", str(serial)], env=env, capture_output=True, text=True,
                              timeout=900)
        assert proc.returncode == 0, proc.stdout[-2000:]
    out, fault = tmp_path / "results", tmp_path / "killed-worker"
    cmd = base + ["--engine", "ray", "--ray-cpus", "2", "--results-dir", str(out)]
    first = subprocess.run(cmd, env={**env, "MEMLIB_FAULT_KILL_ONCE": str(fault)}, capture_output=True,
                           text=True, timeout=2400)
    log = first.stdout + first.stderr
    assert first.returncode == 0, log[-3000:]
    assert fault.exists(), "no task was killed"              # its worker died; the task was retried
    rounds = sorted((out / "plan" / "smoke").glob("round-*/plan.json"))
    planned = [j["key"] for r in rounds for j in json.loads(r.read_text())["jobs"]]
    assert planned and len(planned) == len(set(planned)), "a job was planned twice"
    assert {j["notebook"] for j in json.loads(rounds[0].read_text())["jobs"]} == set(NAMES)   # each notebook trains
    trained = [int(n) for n in re.findall(r"ray: round \d+: (\d+) job\(s\) trained, 0 failed", log)]
    assert sum(trained) == len(planned), log[-3000:]         # each planned job trained once, none failed
    assert not json.loads(rounds[-1].read_text())["jobs"]    # the last round found nothing left to train
    entries = sorted(p.name for p in (out / "cache").glob("*.pt"))
    assert entries == sorted(p.name for p in (serial / "cache").glob("*.pt"))   # the same trainings, by cache key
    for entry in entries:                                   # and the same weights and loss curves, bit for bit
        ours, theirs = (_cache_value(d / "cache" / entry) for d in (out, serial))
        if "diverged" in ours or "diverged" in theirs:      # a training cached as diverged: the same account
            assert ours == theirs, entry
            continue
        assert ours["history"]["loss"] == theirs["history"]["loss"], entry
        ours, theirs = _tensors(ours["state"]), _tensors(theirs["state"])
        assert ours.keys() == theirs.keys() and all(torch.equal(ours[k], theirs[k]) for k in ours), entry
    for name in NAMES:
        prov = json.loads((out / "smoke" / name / "provenance.json").read_text())
        assert prov["cache_misses"] == 0 and prov["cache_hits"] > 0, f"{name} trained {prov['cache_misses']} itself"
        ours = json.loads((out / "smoke" / name / "metrics.json").read_text())
        theirs = json.loads((serial / "smoke" / name / "metrics.json").read_text())
        # Equal weights give equal metrics up to the last bit of float64 LAPACK (eig, lstsq), which may round
        # differently from one process to the next (seen: 0.9628034559820814 vs ...813 in paper 3's Fig 6).
        differing = [k for k in theirs if not _close(ours.get(k), theirs[k])]
        assert ours.keys() == theirs.keys() and not differing, f"{name}: " + ", ".join(differing)[:500]
    second = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=1800)
    log2 = second.stdout + second.stderr
    assert second.returncode == 0 and "round 1 plans no training" in log2 and "trained, " not in log2, log2[-3000:]


@pytest.mark.device
@pytest.mark.parametrize("paper", ["identity", "attractors", "downsampling", "rho"])
def test_the_tours_explorers_are_the_notebooks_own(smoke_results, monkeypatch, paper):
    """No drift between memlib.widgets.tour and the notebooks' explorer cells: after the smoke batch run, each tour
    explorer's first view (smoke) reads every model it needs from that run's cache and trains none."""
    from memlib.harness import store
    from memlib.widgets import tour
    out, proc = smoke_results
    assert proc.returncode == 0, proc.stdout[-2000:]
    monkeypatch.setenv("MEMLIB_CACHE", str(out / "cache"))
    store.set_default_cache(None)
    try:
        getattr(tour, paper)("smoke")
        cache = store.default_cache()
        assert cache.hits >= 1 and cache.misses == 0, f"tour.{paper}: {cache.misses} model(s) not in the batch cache"
    finally:
        store.set_default_cache(None)


def _cache_value(path):
    """The stored value of one cache entry (its header line skipped)."""
    import io
    return torch.load(io.BytesIO(path.read_bytes().partition(b"\n")[2]), map_location="cpu", weights_only=True)["value"]


def _tensors(obj, prefix=""):
    """Every tensor in a nested value, by its path: {path: tensor}."""
    if isinstance(obj, torch.Tensor):
        return {prefix: obj}
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, (list, tuple)) else ()
    return {k: t for key, v in items for k, t in _tensors(v, f"{prefix}/{key}").items()}


def _close(a, b, rel=1e-9):
    """Metrics equal up to float64 rounding: numbers within `rel`, lists elementwise, NaN equal to NaN."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, rel) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or abs(a - b) <= rel * max(abs(a), abs(b)) or (a != a and b != b)
    return a == b


@pytest.mark.device
def test_a_run_of_some_parts_measures_them_as_the_whole_notebook_does(smoke_results, suite_device, tmp_path):
    """`run --only 03 --part sec6 --part unet` (memlib.harness.parts): the set-up and those two sections only, trained
    from its own empty cache, log exactly the whole smoke run's numbers for them and nothing of the skipped sections;
    parts.json says what ran, and the report names the run as partial."""
    import os
    whole, proc = smoke_results
    assert proc.returncode == 0, proc.stdout[-2000:]
    name = "03_downsampling_eigenvectors"
    out = tmp_path / "parts"
    env = {k: v for k, v in os.environ.items() if k != "MEMLIB_CACHE"}     # its own cache: it trains what it needs
    part = subprocess.run([sys.executable, "-m", "memlib", "run", "--profile", "smoke", "--device", suite_device,
                           "--only", "03", "--part", "sec6", "--part", "unet", "--results-dir", str(out)],
                          env=env, capture_output=True, text=True, timeout=900)
    assert part.returncode == 0, part.stdout[-2000:] + part.stderr[-2000:]
    ours = decode(json.loads((out / "smoke" / name / "metrics.json").read_text()))
    theirs = decode(json.loads((whole / "smoke" / name / "metrics.json").read_text()))
    sections = ("fig7.", "fig8.", "fig11.", "fig1.")
    mine = {k: v for k, v in ours.items() if k.startswith(sections)}
    assert mine and mine == {k: v for k, v in theirs.items() if k.startswith(sections)}
    assert not any(k.startswith(("fig2.", "fig3.", "fig6.", "appD.")) for k in ours)      # the skipped parts
    assert json.loads((out / "smoke" / name / "parts.json").read_text()) == {
        "parts": ["sec6", "unet"], "skipped": ["fig2_3", "fig5_6", "fig6_text_init", "appD"]}
    assert "A run of some parts (`run --part`): sec6, unet" in (out / "smoke" / "report.md").read_text()
    bad = subprocess.run([sys.executable, "-m", "memlib", "run", "--profile", "smoke", "--only", "03", "--part",
                          "fig9", "--results-dir", str(tmp_path / "bad")], capture_output=True, text=True, timeout=300)
    assert bad.returncode != 0 and "fig9" in bad.stderr and "sec6" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.device
@pytest.mark.parametrize("name", [nb for nb in ("01_identity_vs_constant", "02_attractors",
                                                "03_downsampling_eigenvectors")
                                  if deferred.left_out("quick", nb)])
def test_the_parts_quick_leaves_to_full_take_nothing_else_with_them(smoke_results, suite_device, tmp_path, name):
    """harness.deferred: notebooks 01-03 run without the parts quick leaves to full (here at smoke, `--skip-part`,
    from an empty cache) log the whole smoke run's numbers bit for bit for everything else, and lack exactly
    the left-out sections' metrics (the prefixes by which the report finds their claims)."""
    import os
    from memlib.harness import deferred
    from memlib.harness import parts as _parts
    whole, proc = smoke_results
    assert proc.returncode == 0, proc.stdout[-2000:]
    left = deferred.left_out("quick", name)
    nb = json.loads((NOTEBOOK_DIR / f"{name}.ipynb").read_text())
    assert {s.part for s in left} <= set(_parts.parts_of(nb))
    env = {k: v for k, v in os.environ.items() if k != "MEMLIB_CACHE"}     # its own cache: it trains what it needs
    args = [a for s in left for a in ("--skip-part", s.part)]
    run = subprocess.run([sys.executable, "-m", "memlib", "run", "--profile", "smoke", "--device", suite_device,
                          "--only", name[:2], *args, "--results-dir", str(tmp_path)],
                         env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    ours = decode(json.loads((tmp_path / "smoke" / name / "metrics.json").read_text()))
    theirs = decode(json.loads((whole / "smoke" / name / "metrics.json").read_text()))
    prefixes = tuple(p for s in left for p in s.prefixes)
    assert set(theirs) - set(ours) == {k for k in theirs if k.startswith(prefixes)} != set()
    assert set(ours) <= set(theirs)
    unequal = [k for k in ours if not _close(ours[k], theirs[k], rel=0)]     # bit for bit, NaN equal to NaN
    assert unequal == []
    record = json.loads((tmp_path / "smoke" / name / "parts.json").read_text())
    assert record["skipped"] == [p for p in _parts.parts_of(nb) if p in {s.part for s in left}]
