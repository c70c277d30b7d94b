"""Summarize a `benchmarks/gpu_check.sh` folder as markdown (stdout); exit 1 when a target is missed.

The targets are issue 13's: the quick profile of all four notebooks in at most 4 minutes on one H100 with the
CPU's claim outcomes; bench: one ConvNet at least 4x the naive loop, 32 ConvNets at least 25x, 32 FCNs at
least 3.5x (the memory-bandwidth ceiling is about 4.2x), the CUDA graph at least 3x the eager step.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from memlib.harness.fileio import atomic_write_text

TARGETS = {("convnet5x32", 1): 4.0, ("convnet5x32", 32): 25.0, ("fcn3x2048", 32): 3.5,
           ("convnet5x32 cuda-graph vs eager", 1): 3.0}
QUICK_WALL_TARGET_S = 240


FULL_WALL_TARGET_S = 3600   # issue 15: all four notebooks at the full profile in at most 60 minutes on one H100


def measured_column(report: dict, profile: str) -> tuple[str, int]:
    """A run's outcomes as `MEASURED_FULL` entries (`claims.core.with_measured`: claim id -> (outcome, what the run
    showed)), grouped by paper, for pasting into memlib/claims/paperN.py, and how many; claims the run did not
    reach are left out (they keep their predicted basis)."""
    short = {"reproduced": "R", "not reproduced": "NR"}
    measured = [c for c in report.get("claims", []) if c.get("run_outcome") in short]
    lines = [f"# the {profile} profile's measured outcomes ({report.get('device', '?')}), from its report.json"]
    for paper in sorted({c["paper"] for c in measured}):
        lines += ["", f"# paper {paper}: MEASURED_FULL in memlib/claims/paper{paper}.py"]
        lines += [f'    "{c["id"]}": ({short[c["run_outcome"]]}, {c.get("reason", "")!r}),'
                  for c in measured if c["paper"] == paper]
    return "\n".join(lines) + "\n", len(measured)


def main(out: Path) -> int:
    ok = True
    lines = [f"## {time.strftime('%Y-%m-%d')} — GPU check (`benchmarks/gpu_check.sh`)", ""]
    device = (out / "device.txt").read_text().strip().splitlines() if (out / "device.txt").exists() else ["?"]
    lines += [f"Device: {' / '.join(device)}.", ""]
    steps = ((out / "steps.txt").read_text().split() if (out / "steps.txt").exists()
             else ["test", "bench", "quick", "full", "plan"])
    skipped = [s for s in ("test", "bench", "quick", "full", "plan") if s not in steps]
    if skipped:
        lines += [f"Steps run: {', '.join(steps)}; not run (MEMLIB_GPU_STEPS): {', '.join(skipped)}: their targets "
                  "are not judged here.", ""]
    test_log = (out / "test-cuda.log")
    if test_log.exists():
        last = (test_log.read_text().strip().splitlines() or ["(empty)"])[-1]
        lines += [f"Suite, GPU mode (`./run_all.sh test --device cuda`): {last}", ""]
        ok &= " failed" not in last and " error" not in last
    bench = out / "bench.json"
    if bench.exists():
        b = json.loads(bench.read_text())
        lines += ["| bench case | models | strategy | naive | memlib | ratio | target |", "|---|---|---|---|---|---|---|"]
        for r in b["cases"]:
            target = TARGETS.get((r["case"], r["models"]))
            met = "" if target is None else (f">= {target:g} " + ("met" if r["ratio"] >= target else "**missed**"))
            ok &= target is None or r["ratio"] >= target
            lines.append(f"| {r['case']} | {r['models']} | {r['strategy']} | {r['naive_model_steps_per_s']} | "
                         f"{r['memlib_model_steps_per_s']} | {r['ratio']} | {met} |")
        lines.append("")
    elif "bench" in steps:
        ok = False
        lines += ["Bench: no bench.json (see bench.log).", ""]
    report = out / "results" / "quick" / "report.json"
    if report.exists():
        rep = json.loads(report.read_text())
        wall = {nb: (e.get("provenance") or {}).get("wall_time_s") for nb, e in rep["notebooks"].items()}
        total = float((out / "quick_wall_s").read_text()) if (out / "quick_wall_s").exists() else float("nan")
        c = rep["counts"]
        lines += [f"Quick profile on CUDA, cold cache: {total:.0f} s for the four notebooks (target <= "
                  f"{QUICK_WALL_TARGET_S} s: {'met' if total <= QUICK_WALL_TARGET_S else '**missed**'}); per notebook "
                  + ", ".join(f"{nb} {w:.0f} s" if w else f"{nb} —" for nb, w in wall.items()) + ".",
                  f"Claims: {c['reproduced']} reproduced, {c['not reproduced']} not reproduced, {c['not run']} not run; "
                  f"{len(rep['regressions'])} regressions (ledger and CPU baseline)."]
        comp = rep.get("comparison") or {}
        lines += [f"Against the CPU baseline: {len(comp.get('flips', []))} outcomes flipped, "
                  f"{len(comp.get('drifts', []))} metrics drifted beyond tolerance "
                  f"({sum(bool(d['claims']) for d in comp.get('drifts', []))} read by claims)."]
        lines += [f"- flipped: `{f['id']}` {f['baseline']} -> {f['now']}" for f in comp.get("flips", [])]
        lines += [f"- REGRESSION {r}" for r in rep["regressions"][:40]]
        ok &= total <= QUICK_WALL_TARGET_S and not rep["regressions"]
    elif "quick" in steps:
        ok = False
        lines += ["Quick profile: no report (see quick-cuda.log)."]
    full = out / "results" / "full" / "report.json"
    if full.exists():   # issue 15: the full profile, at most 60 minutes on one H100, the papers' outcomes
        rep = json.loads(full.read_text())
        total = float((out / "full_wall_s").read_text()) if (out / "full_wall_s").exists() else float("nan")
        c, pp = rep["counts"], rep["per_paper"]
        lines += ["", f"Full profile on CUDA: {total:.0f} s (target <= {FULL_WALL_TARGET_S} s: "
                  f"{'met' if total <= FULL_WALL_TARGET_S else '**missed**'}); claims {c['reproduced']} reproduced, "
                  f"{c['not reproduced']} not reproduced, {c['not run']} not run (per paper R/NR: "
                  + ", ".join(f"{p}: {v['reproduced']}/{v['not reproduced']}" for p, v in pp.items())
                  + f"); {len(rep['regressions'])} differ from the ledger's full column (a prediction until measured: "
                  "update the ledger's `full` entries from this run)."]
        lines += [f"- differs: {r}" for r in rep["regressions"][:60]]
        measured, n_measured = measured_column(rep, "full")
        atomic_write_text(out / "measured-full.txt", measured)
        lines += [f"The ledger's `full` column as this run measured it, {n_measured} claims, one "
                  "`MEASURED_FULL` entry per line for each paper's `memlib/claims/paperN.py`: measured-full.txt."]
        ok &= total <= FULL_WALL_TARGET_S
    elif (out / "full-cuda.log").exists():
        ok = False
        lines += ["", "Full profile: no report (see full-cuda.log)."]
    plan = out / "plan" / "plan-paper.json"
    if plan.exists():   # issue 17: the paper profile's trainings, step rates measured on this GPU
        doc = json.loads(plan.read_text())
        hours = {nb: t["est_s"] / 3600 for nb, t in doc["totals"].items()}
        lines += ["", f"Paper profile plan (round 1, measured on CUDA): {sum(t['jobs'] for t in doc['totals'].values())}"
                  f" jobs, {sum(hours.values()):.1f} GPU-hours (" + ", ".join(f"{nb}: {h:.1f}" for nb, h in hours.items())
                  + "); the README states the total."]
    lines += ["", f"All targets met: {'yes' if ok else 'no'}."]
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
