"""benchmarks/gpu_check.sh's summary: the numbers beside issue 13's targets, and its verdict."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _folder(tmp_path, ratio32, wall, regressions=()):
    (tmp_path / "device.txt").write_text("NVIDIA H100 80GB HBM3, 81559 MiB, 580\ntorch 2.11 cuda 13.0 NVIDIA H100")
    (tmp_path / "test-cuda.log").write_text("....\n40 passed in 61.2s\n")
    cases = [dict(case="convnet5x32", models=1, strategy="single, graph", naive_model_steps_per_s=475,
                  memlib_model_steps_per_s=3000, ratio=6.3),
             dict(case="convnet5x32", models=32, strategy="batched, graph", naive_model_steps_per_s=470,
                  memlib_model_steps_per_s=470 * ratio32, ratio=ratio32),
             dict(case="fcn3x2048", models=32, strategy="batched, graph", naive_model_steps_per_s=980,
                  memlib_model_steps_per_s=4000, ratio=4.08),
             dict(case="convnet5x32 cuda-graph vs eager", models=1, strategy="graph", naive_model_steps_per_s=480,
                  memlib_model_steps_per_s=3100, ratio=6.46)]
    (tmp_path / "bench.json").write_text(json.dumps({"cases": cases}))
    (tmp_path / "quick_wall_s").write_text(str(wall))
    rep = tmp_path / "results" / "quick"
    rep.mkdir(parents=True)
    rep.joinpath("report.json").write_text(json.dumps({
        "counts": {"reproduced": 80, "not reproduced": 40, "not run": 5}, "regressions": list(regressions),
        "comparison": {"flips": [], "drifts": []},
        "notebooks": {"01_identity_vs_constant": {"provenance": {"wall_time_s": 90.0}}}}))
    return subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gpu_summary.py"), str(tmp_path)],
                          capture_output=True, text=True)


def test_summary_meets_the_targets(tmp_path):
    out = _folder(tmp_path, ratio32=31.0, wall=200)
    assert out.returncode == 0, out.stdout
    assert "All targets met: yes" in out.stdout and "| convnet5x32 | 32 |" in out.stdout and ">= 25 met" in out.stdout


def test_summary_names_a_missed_target_and_a_regression(tmp_path):
    out = _folder(tmp_path, ratio32=12.0, wall=300, regressions=["p2.x: not reproduced, the ledger expects reproduced"])
    assert out.returncode == 1
    assert ">= 25 **missed**" in out.stdout and "(target <= 240 s: **missed**)" in out.stdout
    assert "REGRESSION p2.x" in out.stdout


def test_summary_writes_the_measured_full_column(tmp_path):
    """With a full run's report, measured-full.txt holds one `MEASURED_FULL` entry per claim the run reached (what
    issue 27's full column needs from a GPU run), grouped by paper; claims not run are left out."""
    full = tmp_path / "results" / "full"
    full.mkdir(parents=True)
    claims = [dict(id="p3.fig6_d_top", paper=3, run_outcome="reproduced", reason="seeds [0.99, 1.0] vs 0.9"),
              dict(id="p3.fig7_nld", paper=3, run_outcome="not reproduced", reason="seeds [0.5] vs 0.9"),
              dict(id="p4.nc1", paper=4, run_outcome="not run", reason="")]
    full.joinpath("report.json").write_text(json.dumps({
        "counts": {"reproduced": 1, "not reproduced": 1, "not run": 1}, "regressions": [], "device": "cuda",
        "per_paper": {"3": {"reproduced": 1, "not reproduced": 1}}, "claims": claims}))
    (tmp_path / "full_wall_s").write_text("1800")
    _folder(tmp_path, ratio32=31.0, wall=200)
    text = (tmp_path / "measured-full.txt").read_text()
    assert '"p3.fig6_d_top": (R, \'seeds [0.99, 1.0] vs 0.9\'),' in text and '"p3.fig7_nld": (NR,' in text
    assert "p4.nc1" not in text and "paper 4" not in text and "# paper 3: MEASURED_FULL" in text



def test_summary_of_a_short_lease_judges_only_the_steps_run(tmp_path):
    """MEMLIB_GPU_STEPS="test bench" (a GPU lent for minutes): no quick report is then no failure, and the summary
    names the steps not run; a step that was run and left nothing still fails."""
    import shutil
    _folder(tmp_path, ratio32=31.0, wall=200)
    shutil.rmtree(tmp_path / "results")
    (tmp_path / "steps.txt").write_text("test bench\n")
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gpu_summary.py"), str(tmp_path)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout
    assert "not run (MEMLIB_GPU_STEPS): quick, full, plan" in out.stdout and "All targets met: yes" in out.stdout
    (tmp_path / "bench.json").unlink()
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gpu_summary.py"), str(tmp_path)],
                         capture_output=True, text=True)
    assert out.returncode == 1 and "no bench.json" in out.stdout
