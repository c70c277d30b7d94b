"""A run against a baseline report: how far each metric may move (`TOLERANCES`, `tolerance`), whether a metric
drifted (`drifted`) or left a variation envelope (`outside`), the comparison itself (`compare`: flipped outcomes,
drifted and absent metrics, claims the envelope saw move that the ledger does not call unstable) and the report's
list of regressions (`regressions`). `claims.report` builds the report with them and re-exports their names.
"""
from __future__ import annotations

import fnmatch
import math

from .core import UNSTABLE
from .text import fmt
from .verdict import contradictions

# How far a metric may move from the baseline before it counts as drifted: |new - old| <= atol + rtol |old|,
# first matching pattern wins. Correlations and fractions live on [0, 1]; losses and eigenvalue errors are
# small numbers whose relative size matters; counts (ranks) must agree.
TOLERANCES = [
    ("*rank*", 0.5, 0.0),
    ("*near1*", 0.5, 0.0),
    ("*stored*", 0.5, 0.0),
    ("*loss*", 1e-4, 0.5),
    ("*err*", 1e-3, 0.2),
    ("*resid*", 1e-3, 0.2),
    ("*", 0.02, 0.05),
]


def tolerance(metric: str) -> tuple[float, float]:
    for pattern, atol, rtol in TOLERANCES:
        if fnmatch.fnmatchcase(metric, pattern):
            return atol, rtol
    return 0.0, 0.0


def _mean(v):
    if isinstance(v, (list, tuple)):
        vals = [float(x) for x in v]
        return sum(vals) / len(vals) if vals else math.nan
    return float(v)


def drifted(metric: str, new, old) -> bool:
    """Whether `new` moved from `old` beyond the metric's tolerance (seed bands: their means)."""
    return outside(metric, new, _mean(old), _mean(old))


def outside(metric: str, new, lo: float, hi: float, nan_inside: bool = False) -> bool:
    """Whether `new` (its mean, for a seed band) lies outside the envelope [lo, hi] widened by the metric's
    tolerance: atol + rtol x the larger of |lo|, |hi|. NaN is inside when the envelope saw NaN
    (`nan_inside`, or lo and hi NaN)."""
    a = _mean(new)
    lo, hi = float(lo), float(hi)
    if math.isnan(a):
        return not (nan_inside or (math.isnan(lo) and math.isnan(hi)))
    if math.isnan(lo) or math.isnan(hi):
        return True
    if not (math.isfinite(a) and math.isfinite(lo) and math.isfinite(hi)):
        return not (lo <= a <= hi)
    atol, rtol = tolerance(metric)
    tol = atol + rtol * max(abs(lo), abs(hi))
    return a < lo - tol or a > hi + tol


def compare(rows: list[dict], results: dict, baseline: dict) -> dict:
    """Flips (outcome differs from the baseline's) and drifts (metrics beyond tolerance) against a baseline report;
    against an envelope (`baseline["envelope"]`): outcomes outside the set it saw, metrics outside its range."""
    # a notebook that read other datasets than the baseline's run (e.g. MNIST now, the embedded digits then) is
    # not compared: its numbers differ because its data do; the comparison lists it instead
    other_data = {nb: (_datasets(entry), _datasets(results.get(nb))) for nb, entry in baseline.get("notebooks", {}).items()
                  if (results.get(nb) or {}).get("metrics") is not None and _datasets(entry) != _datasets(results.get(nb))}
    env = baseline.get("envelope") or {}
    seen = env.get("outcomes") or {}
    base_rows = {r["id"]: r for r in baseline.get("claims", []) if r.get("notebook") not in other_data}
    flips = []
    for r in rows:
        if r["id"] not in base_rows:
            continue
        now = r.get("run_outcome", r["outcome"])
        if r["id"] in seen:
            took = sorted(set(seen[r["id"]].values()))
            if now not in took:
                flips.append({"id": r["id"], "baseline": " or ".join(took), "now": now})
        else:
            b = base_rows[r["id"]]
            was = b.get("run_outcome") if b.get("outcome") == UNSTABLE else b.get("outcome")
            if was != now:
                flips.append({"id": r["id"], "baseline": was, "now": now})
    claim_metrics = {}
    for r in rows:
        keys = [r["metric"], *(g.split()[0] for g in r["fit"])]
        if isinstance(r["threshold"], str):
            keys.append(r["threshold"])
        for g in r["fit"]:
            thr = g.split()[-1]
            if not _is_number(thr):
                keys.append(thr)
        for k in keys:
            claim_metrics.setdefault((r["notebook"], k), []).append(r["id"])
    ranges = env.get("metrics") or {}
    per_seed = env.get("values") or {}
    drifts, absent = [], []
    for nb, entry in baseline.get("notebooks", {}).items():
        if nb in other_data:
            continue
        old_metrics = entry.get("metrics") or {}
        new_metrics = (results.get(nb) or {}).get("metrics")
        if new_metrics is None:
            continue                                   # not run now: its claims show as "not run" (flips)
        for k, old in old_metrics.items():
            if k not in new_metrics:
                absent.append({"notebook": nb, "metric": k, "claims": claim_metrics.get((nb, k), [])})
                continue
            seen_seeds = _per_seed_range((per_seed.get(nb) or {}).get(k))
            if seen_seeds is not None:        # the envelope's per-seed values: each seed of this run against them
                lo, hi, *nan = seen_seeds
                if any(outside(k, x, lo, hi, nan_inside=bool(nan)) for x in _values(new_metrics[k])):
                    atol, rtol = tolerance(k)
                    drifts.append({"notebook": nb, "metric": k, "baseline": _mean(old), "now": new_metrics[k],
                                   "envelope": [lo, hi], "per_seed": True,
                                   "atol": atol, "rtol": rtol, "claims": claim_metrics.get((nb, k), [])})
                continue
            lo, hi, *nan = (ranges.get(nb) or {}).get(k) or (_mean(old), _mean(old))
            if outside(k, new_metrics[k], lo, hi, nan_inside=bool(nan)):
                atol, rtol = tolerance(k)
                drifts.append({"notebook": nb, "metric": k, "baseline": _mean(old), "now": _mean(new_metrics[k]),
                               "envelope": [lo, hi] if nb in ranges else None,
                               "atol": atol, "rtol": rtol, "claims": claim_metrics.get((nb, k), [])})
    # the ledger must call a claim unstable when the envelope saw it take more than one outcome
    ledger = {r["id"]: r.get("expected") for r in rows}
    moving = {cid: by for cid, by in seen.items() if len(set(by.values())) > 1}
    unexpected = [{"id": cid, "took": by, "ledger": ledger[cid]} for cid, by in sorted(moving.items())
                  if cid in ledger and ledger[cid] != UNSTABLE]
    return {"flips": flips, "drifts": drifts, "absent": absent, "unstable_not_in_ledger": unexpected,
            "contradictions": contradictions([r for r in rows if r["id"] in base_rows], baseline) if per_seed else [],
            "envelope": {"variations": [v.get("name") for v in env.get("variations", [])],
                         "moving": sorted(moving)} if env else None,
            "other_data": {nb: {"baseline": list(old), "now": list(new)} for nb, (old, new) in other_data.items()},
            "baseline_device": baseline.get("device"), "baseline_profile": baseline.get("profile")}


def _values(v) -> list:
    return [float(x) for x in v] if isinstance(v, (list, tuple)) else [float(v)]


def _per_seed_range(by_variation: dict | None) -> list | None:
    """[lo, hi] of every seed's value the envelope stores for a metric ([lo, hi, "nan"] where some seed measured NaN;
    None where it stores none)."""
    if not by_variation:
        return None
    xs = [x for v in by_variation.values() for x in _values(v)]
    real = [x for x in xs if x == x]
    if not real:
        return [math.nan, math.nan]
    return [min(real), max(real)] + (["nan"] if len(real) < len(xs) else [])


def _datasets(entry: dict | None) -> tuple:
    """The datasets a notebook's run loaded (provenance), as a comparable tuple ((), when not recorded)."""
    return tuple(sorted(((entry or {}).get("provenance") or {}).get("datasets") or ()))


def _is_number(s: str) -> bool:
    try:
        float(s)
        return True
    except ValueError:
        return False


def regressions(rows, comparison: dict | None) -> list[str]:
    """One line per regression: ledger mismatches, and with a baseline its flips and claim-metric drifts."""
    out = [f"{r['id']}: {r['outcome']}, the ledger expects {r['expected']} ({r['reason']})" for r in rows
           if r["regression"]]
    if comparison:
        out += [f"{f['id']}: {f['now']}, the baseline had {f['baseline']}" for f in comparison["flips"]]
        out += [f"{d['notebook']} {d['metric']}: {fmt(d['now'])}, "
                + (f"envelope {fmt(d['envelope'][0])} .. {fmt(d['envelope'][1])}" if d.get("envelope")
                   else f"baseline {fmt(d['baseline'])}")
                + f" (tolerance {d['atol']:g} + {d['rtol']:g} x |baseline|; read by {', '.join(d['claims'])})"
                for d in comparison["drifts"] if d["claims"]]
        out += [f"{u['id']}: took " + ", ".join(f"{o} ({v})" for v, o in u["took"].items())
                + f" across the baseline's envelope, but the ledger expects {u['ledger']}: expect it unstable"
                for u in comparison.get("unstable_not_in_ledger") or []]
        out += [f"{a['notebook']} {a['metric']}: in the baseline, not measured now (read by {', '.join(a['claims'])})"
                for a in comparison["absent"] if a["claims"]]
        out += [f"{c['id']}: {c['now']} over this run's seeds, where the envelope's seeds decided {c['envelope']} "
                f"({c['interval']})" for c in comparison.get("contradictions") or []]
    return out
