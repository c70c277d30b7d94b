"""A finished `python -m memlib run --profile quick` (its results dir) as a one-variation envelope file, for
`python -m memlib envelope --join FILE`: how session 32 joined session 31's cold run (seeds 0-4 on the AMD EPYC,
the quick code path of 8a6cfb6) to the baseline as a machine variation (`machine_variation`: at notebooks 03 and 04
the Xeon's seeds on another CPU, so no seed replication).

    python benchmarks/run_as_envelope.py RESULTS_DIR NAME OUT.json [--seed S]
"""
import argparse
import json
from pathlib import Path

from memlib import claims
from memlib.claims import report as _report
from memlib.harness import envelope
from memlib.harness.fileio import atomic_write_text

ap = argparse.ArgumentParser()
ap.add_argument("results_dir")
ap.add_argument("name")
ap.add_argument("out")
ap.add_argument("--seed", type=int, default=0)
a = ap.parse_args()
results = _report.load_results(Path(a.results_dir), "quick")
names = list(results)
rows = {a.name: _report.evaluate_all([c for c in claims.CLAIMS if c.notebook in names], results, "quick")}
prov = {nb: (e.get("provenance") or {}) for nb, e in results.items()}
v = {"name": a.name, "seed": a.seed, "env": {}, "machine_variation": True,
     "seed_by_notebook": {nb: a.seed for nb in names},
     "wall_s_by_notebook": {nb: p.get("wall_time_s") or 0.0 for nb, p in prov.items()},
     "arithmetic": {nb: p.get("arithmetic") for nb, p in prov.items()}}
body = {"profile": "quick", "envelope": {"variations": [v], **envelope.summarize({a.name: results}, rows)}}
atomic_write_text(Path(a.out), json.dumps(body, default=str))
print(f"wrote {a.out}: {a.name}, {', '.join(names)}")
