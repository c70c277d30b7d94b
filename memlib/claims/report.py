"""The report: every claim's outcome at a profile, regressions against the ledger and a baseline.

`check(results_dir, profile)` reads `results/<profile>/<notebook>/metrics.json` (and provenance.json),
evaluates every claim and writes `report.md` and `report.json`. The report opens with each paper's
statements reproduced / not reproduced / not run and the regressions:

* an outcome that differs from the claim's expected outcome at this profile (the ledger), and
* with `against=` a committed baseline report of the same profile: outcomes that flipped, and metrics
  that drifted beyond their tolerance (`TOLERANCES`). A drift of a metric that a claim reads (its value,
  threshold or fit gate) is a regression; other drifts are listed for information. A baseline built by
  `python -m memlib envelope` carries the *variation envelope* (the profile run under other seeds, thread
  counts and instruction sets): a metric drifts only outside its envelope widened by its tolerance, and an
  outcome flips only when it leaves the set of outcomes the envelope saw. A claim that took several outcomes
  there must be expected *unstable* by the ledger (a regression otherwise).

`report.json` carries every notebook's metrics and provenance, so a report is itself a baseline.

This module reads the results, evaluates the claims and builds, renders and writes the report. The comparison
with a baseline (`TOLERANCES`, `tolerance`, `drifted`, `outside`, `compare`, `regressions`) is
`claims.comparison`; those names stay importable from here.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..harness.fileio import atomic_write_text
from ..runtime import MemlibError
from ..harness import machine
from ..harness import deferred as _deferred
from ..harness import parts as _parts
from .comparison import TOLERANCES, drifted, outside, tolerance  # noqa: F401 - also report's names
from .comparison import compare, regressions
from .core import (LEDGER_COLUMNS, NOT_REPRODUCED, NOT_RUN, NOTEBOOKS, REPRODUCED, UNSTABLE, evaluate, ledger_data)
from .text import fmt
from . import verdict as _verdict

COUNTED = (REPRODUCED, NOT_REPRODUCED, UNSTABLE, NOT_RUN)      # the report's columns

def _read_json(path: Path, *, obj: bool = False):
    """The JSON in `path`, None when there is no file; with `obj`, a JSON object or a MemlibError naming the file."""
    try:
        value = json.loads(path.read_text())
    except FileNotFoundError:
        return None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise MemlibError(f"{path} is not valid JSON ({e}); re-run that notebook or delete the file") from None
    if obj and not isinstance(value, dict):
        raise MemlibError(f"{path} holds {_json_kind(value)}, not a JSON object; re-run that notebook or delete the file")
    return value


def _json_kind(v) -> str:
    """What a JSON value is, in words (for one-line errors)."""
    if v is None or isinstance(v, bool):
        return json.dumps(v)
    kind = {dict: "an object", list: "a list", str: "a string"}.get(type(v))
    return f"{kind} ({json.dumps(v)[:60]})" if kind else f"the number {v}"


def load_results(results_dir, profile: str) -> dict:
    """{notebook: {"metrics": dict | None, "provenance": dict | None}} for a profile's results folder.

    A notebook's metrics count only when its provenance says the run finished; a metrics file without
    one (a failed or interrupted run) is treated as no run, and `failed.json` (written by `run`) says why."""
    base = Path(results_dir) / profile
    out = {}
    for nb in NOTEBOOKS.values():
        prov = _read_json(base / nb / "provenance.json", obj=True)
        path = base / nb / "metrics.json"
        metrics = _read_json(path) if prov is not None else None
        failed = _read_json(base / nb / "failed.json", obj=True)
        out[nb] = {"metrics": None if metrics is None else decode(metrics, where=path), "provenance": prov,
                   "failed": None if failed is None else failed.get("reason", "failed"),
                   "parts": _read_json(base / nb / "parts.json", obj=True)}   # a run of some parts (run --part)
    return out


def decode(metrics: dict, where="metrics.json") -> dict:
    """metrics.json keeps NaN and infinities as the strings "nan", "inf", "-inf" (valid JSON): as floats.
    Anything else than an object of numbers and lists of numbers (a seed band) is a MemlibError naming the
    file (`where`) and the first bad key."""
    fix = "re-run that notebook or delete the file"
    if not isinstance(metrics, dict):
        raise MemlibError(f"{where} holds {_json_kind(metrics)}, not an object of named metrics; {fix}")

    def one(k, v):
        if isinstance(v, str) and v in ("nan", "inf", "-inf"):
            return float(v)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return v
        raise MemlibError(f"{where}: metric {k!r} is {_json_kind(v)}, not a number or a list of numbers (one per "
                          f"seed); {fix}")

    out = {}
    for k, v in metrics.items():
        if isinstance(v, list):
            out[k] = [one(k, x) for x in v]
        else:
            out[k] = one(k, v)
    return out


def evaluate_all(claims, results: dict, profile: str) -> list[dict]:
    rows = []
    for c in claims:
        entry = results.get(c.notebook, {})
        row = evaluate(c, entry.get("metrics"), profile)
        row["verdict"] = run_verdict(c, entry, profile)
        if entry.get("failed") and entry.get("metrics") is None:
            row["reason"] = f"the notebook failed: {entry['failed']}"
        if entry.get("metrics") is not None:
            row = skipped_part(row, entry.get("parts"), c.notebook)
        off = off_ledger_data(entry.get("provenance"), profile, c.notebook)
        if off and row["regression"]:
            row["regression"] = False
            row["reason"] = (row["reason"] + "; " if row["reason"] else "") + \
                f"the ledger expects {row['expected']} on other data ({off}): not counted as a regression"
        rows.append(row)
    return rows


def run_verdict(claim, entry: dict, profile: str) -> dict | None:
    """The claim's verdict over this run's own seeds (docs/CLAIM_RULES.md, "Verdicts over seeds"): its band at the
    profile's first look, the seeds numbered from the run's seed. None where the run did not measure it."""
    seed0 = (((entry.get("provenance") or {}).get("parameters") or {}).get("seed"))
    band = _verdict.band_of(claim, entry.get("metrics"), seed0=seed0 if isinstance(seed0, int) else None)
    if not band:
        return None
    v = _verdict.judge(claim, [band], profile)
    return {**v.as_dict(), "interval": v.interval()}


def skipped_part(row: dict, parts: dict | None, notebook: str) -> dict:
    """A claim that a run of some parts (`run --part`, its parts.json as `parts`) did not measure because its section
    was left out on purpose: not run, and not a regression. Only a claim whose missing metric belongs to a skipped
    part (harness.parts.METRICS) is excused; one lost from a section that ran stays a regression."""
    missing = row.get("metric") if row.get("value") is None else row.get("threshold")
    section = _parts.part_of_metric(notebook, missing) if isinstance(missing, str) else None
    if parts and row["outcome"] == NOT_RUN and row["regression"] and section in (parts.get("skipped") or []):
        row["regression"] = False
        row["reason"] = (f"not measured: this run executed only the part(s) {', '.join(parts.get('parts', []))} "
                         f"of {notebook} (run --part; skipped: {', '.join(parts.get('skipped', [])) or 'none'})")
    return row


def off_ledger_data(provenance: dict | None, profile: str, notebook: str) -> str:
    """'' when a notebook read the datasets its profile's ledger was measured on, else what it read instead."""
    ledger = ledger_data(profile, notebook)
    sources = (provenance or {}).get("sources") or {}
    return ", ".join(f"read {got} where the ledger's column read {ledger[want]}"
                     for want, got in sorted(sources.items())
                     if want in ledger and ledger[want] != got)


def data_line(provenance: dict | None) -> str:
    """'Data: mnist (the paper's); photos in place of cifar10' from a notebook's provenance."""
    sources = (provenance or {}).get("sources") or {}
    if not sources:
        return ""
    parts = [f"{got} (the paper's)" if got == want else f"the embedded {got} in place of {want}"
             for want, got in sorted(sources.items())]
    root = ((provenance or {}).get("parameters") or {}).get("resolved_data_root")
    return "Data: " + "; ".join(parts) + (f" (data root {root})" if root else " (no data root)")


def departures_markdown(departures: list[dict], profile: str) -> str:
    """The departures of a run (`Run.departure`) as a Markdown table."""
    if not departures:
        return f"*No departure from the paper's settings is recorded at the {profile} profile.*"
    cell = lambda t: str(t).replace("|", "\\|").replace("\n", " ")   # noqa: E731 - a "|" would split the row
    rows = [f"| {cell(d['setting'])} | {cell(d['paper'])} | {cell(d['ours'])} | {cell(d['why'])} |" for d in departures]
    return "\n".join([f"**Departures from the paper at the {profile} profile**", "",
                      "| setting | paper | here | why |", "|---|---|---|---|", *rows])


def counts(rows) -> dict:
    return {o: sum(r["outcome"] == o for r in rows) for o in COUNTED}


def _row_md(r) -> str:
    thr = r["threshold"] if not isinstance(r["threshold"], str) else f"`{r['threshold']}` = {fmt(r['threshold_value'])}"
    thr = fmt(thr) if not isinstance(thr, str) else thr
    flag = " **REGRESSION** (ledger: " + r["expected"] + ")" if r["regression"] else ""
    n = r.get("seeds")
    flag += f" ({n} seed{'s' if n != 1 else ''})" if n is not None and r.get("about") == "trained" else ""
    cell = lambda text: str(text).replace("|", "\\|").replace("\n", " ")   # noqa: E731 - a "|" would split the row
    rule = f" (rule `{r['rule']}`)" if r.get("rule") else ""
    control = (f" Control: {r.get('control_is')}: {fmt(r.get('control_value'))}, {r['control_outcome']}."
               if r.get("control_outcome") else "")
    v = r.get("verdict")
    over = (f" Over seeds: *{v['outcome']}*, {v['interval']}" + (f" ({v['reason']})" if v.get("reason") else "")
            + "." if v else "")
    reading = f" Reading: {r['reading']}." if r.get("reading") else ""
    return (f"| **{r['outcome']}**{flag} | `{r['id']}` | {cell(r['figure'])} | “{cell(r['quote'])}” — "
            f"{cell(r['statement'])}{rule}{cell(control)}{cell(reading)} | {cell(fmt(r['value']))} {r['op']} {cell(thr)} | "
            f"{cell(r['reason'])}{cell(over)} |")


def markdown(rows: list[dict]) -> str:
    lines = ["| outcome | claim | figure | the paper says — tested here | measured | why |",
             "|---|---|---|---|---|---|"]
    return "\n".join(lines + [_row_md(r) for r in rows])


def _device_line(results: dict) -> str:
    seen = set()
    for nb, entry in results.items():
        prov = entry.get("provenance") or {}
        if prov:
            seen.add(f"{prov.get('resolved_device', '?')}"
                     + (f" ({prov['cuda_device']})" if prov.get("cuda_device") else "")
                     + f", {prov.get('numerics', {}).get('policy', 'numerical policy not recorded')}"
                     + f"; {machine.describe(prov.get('arithmetic'))}")
    return "; ".join(sorted(seen)) or "no finished run"


def build(claims, results_dir, profile: str, *, against=None) -> dict:
    """Evaluate every claim on a profile's results; compare with a baseline report when given."""
    results = load_results(results_dir, profile)
    rows = evaluate_all(claims, results, profile)
    comparison = None
    if against is not None:
        baseline = _read_json(Path(against))
        if baseline is None:
            raise MemlibError(f"baseline report {against} not found")
        if baseline.get("profile") != profile:
            raise MemlibError(f"baseline {against} is a {baseline.get('profile')!r} report, not {profile!r}; "
                              "compare reports of the same profile")
        comparison = compare(rows, results, baseline)
    counted = [r for r in rows if r["about"] != "sanity"]
    per_paper = {p: counts([r for r in counted if r["paper"] == p]) for p in NOTEBOOKS}
    regs = [f"notebook {nb} failed: {e['failed']}" for nb, e in results.items() if e.get("failed")]
    regs += regressions(rows, comparison)
    return {"profile": profile, "device": _device_line(results), "counts": counts(counted), "per_paper": per_paper,
            "sanity": counts([r for r in rows if r["about"] == "sanity"]), "regressions": regs,
            "comparison": comparison, "claims": rows,
            "notebooks": {nb: {"metrics": e["metrics"], "provenance": e["provenance"], "parts": e.get("parts")}
                          for nb, e in results.items()}}


def render(report: dict) -> str:
    rows = report["claims"]
    text = [f"# Reproduction report — profile `{report['profile']}`", "",
            f"Device and numerics: {report['device']}.", "",
            "| paper | reproduced | not reproduced | unstable | not run |", "|---|---|---|---|---|"]
    for p, c in report["per_paper"].items():
        text.append(f"| {p} `{NOTEBOOKS[p]}` | {c[REPRODUCED]} | {c[NOT_REPRODUCED]} | {c.get(UNSTABLE, 0)} | {c[NOT_RUN]} |")
    c = report["counts"]
    text.append(f"| all | {c[REPRODUCED]} | {c[NOT_REPRODUCED]} | {c.get(UNSTABLE, 0)} | {c[NOT_RUN]} |")
    text += ["", "*Unstable*: the claim took more than one outcome across the variation envelope (other seeds, "
             "thread counts, instruction sets: `python -m memlib envelope`); this run's outcome is shown, never counted "
             "as reproduced."]
    text += ["", verdict_summary(rows)]
    text += ["", f"**Regressions: {len(report['regressions'])}**" + (" (outcomes as the ledger expects"
             + (", no flips or drifts against the baseline" if report["comparison"] else "") + ")"
             if not report["regressions"] else "")]
    text += [f"- {line}" for line in report["regressions"]]
    comp = report["comparison"]
    if comp:
        info = [d for d in comp["drifts"] if not d["claims"]]
        if comp.get("envelope"):
            text += ["", f"The baseline is an envelope of {len(comp['envelope']['variations'])} runs "
                     f"({', '.join(comp['envelope']['variations'])}): a metric drifts only outside its range over them "
                     "widened by its tolerance; an outcome flips only when the envelope never took it."]
        text += ["", f"Against the baseline ({comp['baseline_device']}): {len(comp['flips'])} outcomes flipped, "
                 f"{len(comp['drifts'])} metrics drifted ({len(comp['drifts']) - len(info)} read by claims), "
                 f"{len(comp['absent'])} baseline metrics not measured."]
        for nb, d in (comp.get("other_data") or {}).items():
            text.append(f"Not compared: {nb} read {', '.join(d['now']) or 'nothing recorded'} now, the baseline "
                        f"{', '.join(d['baseline']) or 'nothing recorded'} (other data, other numbers).")
        if info:
            text.append("Other drifted metrics: " + ", ".join(f"`{d['metric']}` {fmt(d['baseline'])} -> {fmt(d['now'])}"
                                                              for d in info[:40]) + (" ..." if len(info) > 40 else ""))
    for p, nb in NOTEBOOKS.items():
        prow = [r for r in rows if r["paper"] == p and r["about"] != "sanity"]
        if not prow:
            continue
        text += ["", f"## Paper {p} — `{nb}`"]
        prov = (report.get("notebooks", {}).get(nb) or {}).get("provenance")
        if data_line(prov):
            text += ["", data_line(prov) + "."]
        parts = (report.get("notebooks", {}).get(nb) or {}).get("parts")
        headline = [s.what for s in _deferred.SECTIONS.get(nb, []) if _deferred.is_headline(nb, s)]
        said = (f" Its headline sections, never left out: {'; '.join(headline)}." if headline
                and report["profile"] in _deferred.LEFT_TO_FULL else "")
        if parts and parts.get("left_to_full"):
            cost = {s.part: s for s in _deferred.left_out(report["profile"], nb)}
            text += ["", f"The {report['profile']} profile leaves the parts "
                     + ", ".join(f"{p} ({cost[p].seconds} s, {_deferred.per_claim_text(cost[p])})" if p in cost else p
                                 for p in parts["left_to_full"])
                     + " to `full` (their training does not fit its budget beside the headline sections; the costliest "
                     "per claim decided leave first: memlib/harness/deferred.py); their claims are not run here "
                     f"(`run --only {nb[:2]} --part NAME` runs one).{said}"]
        elif said:
            text += ["", said.strip()]
        if parts and not parts.get("left_to_full") and not parts.get("runs"):
            text += ["", f"A run of some parts (`run --part`): {', '.join(parts.get('parts', []))}; skipped: "
                     f"{', '.join(parts.get('skipped', [])) or 'none'} (their claims are not run)."]
        if parts and parts.get("runs"):       # runs of some parts added to an earlier finished run (harness.parts)
            came = [(r, [p for p, i in (parts.get("from") or {}).items() if i == n])
                    for n, r in enumerate(parts["runs"])]
            text += ["", f"Joined from {len(parts['runs'])} runs (`run --part` adds to the earlier finished run): "
                     + "; ".join(f"{', '.join(ps)} from the run finished {r.get('finished')} ({r.get('notebook')})"
                                 for r, ps in came if ps)
                     + f"; not run: {', '.join(parts.get('skipped', [])) or 'none'}."]
        if (prov or {}).get("departures"):
            text += ["", departures_markdown(prov["departures"], report["profile"])]
        if off_ledger_data(prov, report["profile"], nb):
            text += ["", f"This run {off_ledger_data(prov, report['profile'], nb)}: outcomes that differ from the ledger are "
                     "data-dependent, not regressions."]
        for outcome in (NOT_REPRODUCED, UNSTABLE, REPRODUCED, NOT_RUN):
            sel = [r for r in prow if r["outcome"] == outcome]
            if sel:
                text += ["", f"### {outcome.capitalize()} ({len(sel)})", "", markdown(sel)]
    text += ["", "## The ledger: the outcome each claim is expected to have at each profile", "",
             "A run's outcome that differs from its profile's column is a regression. The `full` column is the claim's "
             "own entry where one is given, else the paper's. Each entry names its basis: *measured* (M: the quick "
             "column, by the committed envelope), *predicted* (P: the paper's result, not yet measured at that "
             "profile; benchmarks/gpu_check.sh measures `full` on a GPU) or *expected not reproduced* (E: the "
             "evidence is in the claim).", "",
             "| claim | " + " | ".join(LEDGER_COLUMNS) + " | basis of full / paper |", "|---|" + "---|" * (len(LEDGER_COLUMNS) + 1)]
    short = {REPRODUCED: "R", NOT_REPRODUCED: "NR", NOT_RUN: "not run", UNSTABLE: "unstable"}
    tag = lambda b: {"measured": "M", "predicted": "P", "expected not reproduced": "E", "not run": "—"}.get(   # noqa: E731
        next((k for k in ("measured", "predicted", "expected not reproduced", "not run") if b.startswith(k)), ""), "?")
    for r in rows:
        if r["about"] == "sanity":
            continue
        basis = r.get("basis") or {}
        marks = " | ".join(short[r["ledger"][p]] + (f" ({tag(basis.get(p, ''))})" if p != "quick" and basis else "")
                           for p in LEDGER_COLUMNS)
        special = "; ".join(f"{p}: {basis[p]}" for p in ("full", "paper")
                            if basis.get(p) and not basis[p].startswith(("predicted: the paper reports", "not run: this")))
        text.append(f"| `{r['id']}` | {marks} | {special.replace('|', '/') or '—'} |")
    sanity = [r for r in rows if r["about"] == "sanity"]
    if sanity:
        text += ["", "## Sanity checks (true by construction or by a formula; not counted as claims)", "",
                 markdown(sanity)]
    return "\n".join(text) + "\n"


def verdict_summary(rows: list[dict]) -> str:
    """One paragraph: the verdicts over this run's seeds (docs/CLAIM_RULES.md, "Verdicts over seeds"), counted, with
    the error across claims; each row shows its own."""
    counted = [r for r in rows if r["about"] != "sanity" and r.get("verdict")]
    if not counted:
        return "*Verdicts over seeds*: no claim was measured on a seed band in this run."
    tally = {o: sum(r["verdict"]["outcome"] == o for r in counted) for o in _verdict.VERDICTS}
    found = {r["id"]: _verdict.Verdict(r["verdict"]["outcome"], n=r["verdict"]["n"], p=r["verdict"]["p"])
             for r in counted}
    across = _verdict.across_claims(found)
    return ("*Verdicts over seeds* (docs/CLAIM_RULES.md: the mean or share over this run's seeds by its one-sided "
            "bounds, at the profile's first look; the envelope pools every band): "
            + ", ".join(f"{n} {o}" for o, n in tally.items())
            + f" of {len(counted)} counted claims measured; at most {across['expected_false_reproductions_at_most']} "
              f"false reproductions expected, and Benjamini-Hochberg keeps {len(across['kept_by_bh'])} of the "
              f"{across['reproduced']} reproduced. The ledger moves to these verdicts when the envelope is rebuilt "
              "under them.")


def write(report: dict, results_dir, profile: str) -> Path:
    base = Path(results_dir) / profile
    atomic_write_text(base / "report.json", json.dumps(report, indent=1, default=str))
    atomic_write_text(base / "report.md", render(report))
    return base / "report.md"
