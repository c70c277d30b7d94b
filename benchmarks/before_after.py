"""Issue 42's before/after table: each claim whose test changed since the reading of accc49b, its outcome then and
its outcomes now on every seed band of the quick envelope.

    python benchmarks/before_after.py [--paper 1] [--all]

"Before" is accc49b's `baselines/quick-cpu.json` (its claim rows hold the metric, comparison, threshold and fit
gates each claim was judged by). "Now" is the committed `baselines/quick-cpu.json`: its envelope's outcome per
variation. A row is shown when the claim's test changed (its metric, comparison, threshold or fit gates differ from
accc49b's row, or it is new) or its outcome did; the "changed" column also says where a control was added. The seed bands each variation trains are disjoint since the envelope's 2026-11-27
rebuild (base 0-2, seeds+10 10-12, seeds+20 20-22): a notebook whose part was built before then shows the old
overlapping bands (seed+1, seed+2), and the table says so. `--all` lists every claim, changed or not.

Nothing is trained: both files are read (the old one with `git show`).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "accc49b"               # the commit issues 40-43 read the package at
FRESH = ("seeds+10", "seeds+20")  # the disjoint bands (memlib.harness.envelope.SEED_STRIDE)
SHORT = {"reproduced": "R", "not reproduced": "NR", "unstable": "U", "not run": "-"}


def _before() -> dict[str, dict]:
    text = subprocess.run(["git", "show", f"{BEFORE}:baselines/quick-cpu.json"], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout
    return {r["id"]: r for r in json.loads(text)["claims"]}


def _test(row: dict) -> tuple:
    return (row.get("metric"), row.get("op"), row.get("threshold"), tuple(row.get("fit") or ()),
            row.get("control"), row.get("control_threshold"))


def table(paper: int | None = None, everything: bool = False) -> str:
    sys.path.insert(0, str(ROOT))
    from memlib import claims                         # the claims as the code states them now

    before = _before()
    now = json.loads((ROOT / "baselines" / "quick-cpu.json").read_text())
    env = now["envelope"]
    variations = [v["name"] for v in env["variations"]]
    shown = {c.id for c in claims.CLAIMS if paper is None or c.paper == paper}
    variations = [v for v in variations if any(v in env.get("outcomes", {}).get(i, {}) for i in shown)]
    lines = ["| claim | rule | changed | before (accc49b) | " + " | ".join(variations) + " | ledger at quick |",
             "|---|---|---|---|" + "---|" * len(variations) + "---|"]
    n = 0
    for c in claims.CLAIMS:
        if c.about == "sanity" or (paper is not None and c.paper != paper):
            continue
        old = before.get(c.id)
        current = (c.metric, c.op, c.threshold, tuple(str(g) for g in c.gates), c.control or None,
                   c.control_threshold if c.control else None)
        changed = old is None or _test(old)[:4] != current[:4]
        control = "control" if current[4] and not (old or {}).get("control") else ""
        was = "new" if old is None else SHORT.get(old.get("outcome"), old.get("outcome"))
        took = env.get("outcomes", {}).get(c.id, {})
        ledger = SHORT.get(c.expect.get("quick"), c.expect.get("quick"))
        if not (changed or was != ledger or everything):
            continue
        cells = [SHORT.get(took.get(v), "") for v in variations]
        what = ", ".join(x for x in ("new" if old is None else ("test" if changed else ""), control) if x) or "-"
        lines.append(f"| {c.id} | {c.rule or '-'} | {what} | {was} | " + " | ".join(cells) + f" | {ledger} |")
        n += 1
    built = env.get("built", {})
    head = [f"{n} claims; envelope parts built: " + ", ".join(f"{nb[:2]} {d}" for nb, d in sorted(built.items()))
            + f"; fresh seed bands: {', '.join(v for v in variations if v in FRESH) or 'none yet'}"]
    return "\n".join(head + [""] + lines)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paper", type=int)
    ap.add_argument("--all", action="store_true")
    a = ap.parse_args()
    print(table(a.paper, a.all))
