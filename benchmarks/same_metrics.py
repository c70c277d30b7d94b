"""Whether two runs of a notebook logged the same numbers: the 0-drift check of a change that must change no result
(issue 43's package split, the planner's substitution), run from the same model cache before and after.

    python benchmarks/same_metrics.py OLD_RUN_DIR NEW_RUN_DIR      # each holds a metrics.json

Prints how many metrics the two runs share, how many are bit-identical, the largest absolute difference of the others
(with their names), and the keys only one run logged. Exits 1 when a shared metric differs.
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path


def _leaves(value, prefix=""):
    """(dotted key, number) for every number in a metrics.json value (lists by index)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, f"{prefix}.{k}" if prefix else str(k))
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            yield from _leaves(v, f"{prefix}[{i}]")
    elif isinstance(value, bool) or value is None or isinstance(value, str):
        yield prefix, value
    elif isinstance(value, (int, float)):
        yield prefix, float(value)


def compare(old: Path, new: Path) -> dict:
    a = dict(_leaves(json.loads((old / "metrics.json").read_text())))
    b = dict(_leaves(json.loads((new / "metrics.json").read_text())))
    shared = sorted(set(a) & set(b))
    differ = []
    for k in shared:
        x, y = a[k], b[k]
        same = x == y or (isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y))
        if not same:
            gap = abs(x - y) if isinstance(x, float) and isinstance(y, float) else math.inf
            differ.append((gap, k, x, y))
    return {"shared": len(shared), "differ": sorted(differ, reverse=True),
            "only_old": sorted(set(a) - set(b)), "only_new": sorted(set(b) - set(a))}


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    old, new = map(Path, argv)
    for d in (old, new):
        if not (d / "metrics.json").is_file():
            print(f"{d}: no metrics.json there; pass a notebook's run folder (results/PROFILE/NOTEBOOK)", file=sys.stderr)
            return 2
    r = compare(old, new)
    print(f"{r['shared']} metrics in both runs; {r['shared'] - len(r['differ'])} identical, {len(r['differ'])} differ")
    for gap, k, x, y in r["differ"][:20]:
        print(f"  {k}: {x} -> {y} (|diff| {gap:.3g})")
    for what in ("only_old", "only_new"):
        if r[what]:
            print(f"{len(r[what])} only in the {what[5:]} run, e.g. {', '.join(r[what][:6])}")
    return 1 if r["differ"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
