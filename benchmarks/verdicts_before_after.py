"""Each claim's outcome under the seed-band rule and its verdict over seeds (docs/CLAIM_RULES.md, "Verdicts over seeds"),
side by side, from one envelope baseline; trains nothing.

    python benchmarks/verdicts_before_after.py [--envelope baselines/quick-cpu.json] [--profile quick] [--all]

"Before": the baseline's claim row (the seed-band rule: every seed and the band's mean two standard errors past the bar;
'unstable' where the envelope's variations disagreed) and, from its envelope, on how many of all its seeds the
statement held (k/n). "After": the verdict over seeds. An envelope that stores every seed's values (built since they are
kept) is judged on all of them, pooled, at the profile's looks (`claims.verdict.of_envelope`); an older one stores the
base band's values only, and is judged on that band at the first look: the table then says so. Prints a markdown table
of the claims whose outcome differs (all with --all) and the counts of each pair.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memlib import claims  # noqa: E402
from memlib.claims import verdict  # noqa: E402


def table(body: dict, profile: str) -> tuple[list[tuple], str]:
    """(rows, what the verdicts were judged on): each row (claim, before, held k/n, after, interval, sanity)."""
    env = body.get("envelope") or {}
    pooled = verdict.of_envelope(body, profile) if env.get("values") else {}
    basis = ("every seed the envelope stores, pooled, at the profile's looks" if pooled else
             "the base band the file stores (an envelope built before per-seed values were kept), at the first look")
    before = {r["id"]: r["outcome"] for r in body.get("claims", [])}
    rows = []
    for c in claims.CLAIMS:
        if c.id not in before:
            continue
        if pooled:
            v = pooled.get(c.id)
        else:
            entry = (body.get("notebooks") or {}).get(c.notebook) or {}
            seed0 = ((entry.get("provenance") or {}).get("parameters") or {}).get("seed")
            band = verdict.band_of(c, entry.get("metrics"), seed0=seed0)
            v = verdict.judge(c, [band], profile) if band else None
        held = (env.get("held") or {}).get(c.id, {})
        kn = f"{sum(k for k, _ in held.values())}/{sum(n for _, n in held.values())}" if held else "-"
        said = (v.interval() + (f"; {v.reason}" if v.reason else "")) if v else ""
        rows.append((c.id, before[c.id], kn, v.outcome if v else "not run", said, c.about == "sanity"))
    return rows, basis


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--envelope", default=str(ROOT / "baselines" / "quick-cpu.json"))
    ap.add_argument("--profile", default=None, help="whose looks (default: the envelope's profile)")
    ap.add_argument("--all", action="store_true", help="every claim, not only those whose outcome differs")
    args = ap.parse_args(argv)
    body = json.loads(Path(args.envelope).read_text())
    rows, basis = table(body, args.profile or body.get("profile", "quick"))
    print(f"Judged on {basis}.\n")
    pairs = collections.Counter((b, a) for _, b, _, a, _, sanity in rows if not sanity)
    print("| before (seed-band rule) | after (verdict over seeds) | counted claims |\n|---|---|---|")
    for (b, a), n in sorted(pairs.items()):
        print(f"| {b} | {a} | {n} |")
    print("\n| claim | before | statement held on (all seeds) | after | estimate [bounds], seeds; why |\n|---|---|---|---|---|")
    for cid, b, kn, a, interval, sanity in rows:
        if args.all or b != a:
            print(f"| `{cid}`{' (sanity)' if sanity else ''} | {b} | {kn} | {a} | {interval} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
