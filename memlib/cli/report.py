"""The report as the command line shows it: its headline and regressions printed after `run` and `check`, a
notebook's claim summary, the `--untrained` audit, the `--against` baseline checked before any work, and a
warning when torch or numpy differ from the versions the baseline was measured with (constraints.txt)."""
from __future__ import annotations

import importlib.metadata
import json
import re
from pathlib import Path

from .. import claims
from ..claims.report import decode
from ..runtime import MemlibError
from .common import ROOT

CONSTRAINTS = ROOT / "constraints.txt"   # the environment the quick baseline was measured in
WATCHED = ("torch", "numpy")           # the versions whose change moves numbers


def untrained_audit(results: Path, profile: str) -> int:
    """After a run with nothing trained: every claim about a trained net must be 'not reproduced' or
    'not run'. Returns 1 (and names them) when one holds for untrained nets."""
    report = claims.check(results, profile)
    wrong = [r for r in report["claims"] if r["about"] == "trained" and r["outcome"] == claims.REPRODUCED]
    init = [r for r in report["claims"] if r["about"] == "init"]
    print(f"untrained audit ({profile}): {len(wrong)} claims about trained nets hold with nothing trained"
          + "".join(f"\n  HOLDS UNTRAINED {r['id']}: {r['reason']}" for r in wrong))
    print(f"  ({len(init)} claims about initialization evaluated as usual; report: {results / profile / 'report.md'})")
    return 1 if wrong else 0


def read_metrics(out_dir: Path) -> dict:
    """A finished notebook's metrics.json, decoded ({} when it wrote none)."""
    p = out_dir / "metrics.json"
    return decode(json.loads(p.read_text()), where=p) if p.exists() else {}


def summary(rows) -> str:
    """One notebook's claims in a line: the count of each outcome, and its regressions."""
    counted = [r for r in rows if r["about"] != "sanity"]
    text = ", ".join(f"{sum(r['outcome'] == o for r in counted)} {o}" for o in claims.report.COUNTED)
    regs = sum(r["regression"] for r in rows)
    return text + (f"; {regs} REGRESSIONS" if regs else "; as the ledger expects")


def print_report(results: Path, profile: str, against, only=None) -> int:
    """Write the report, print its headline and regressions; 1 when there is a regression. With `only` (the
    notebooks `run --only` executed) the exit status and the list are about those notebooks: the others'
    claims are reported (often 'not run') but are not this run's regressions (`check` judges them all)."""
    report = claims.check(results, profile, against=against)
    regs = report["regressions"]
    if only:
        papers = [k for k, nb in claims.NOTEBOOKS.items() if nb in only]
        mine = lambda line: (any(line.startswith(f"p{k}.") for k in papers)   # noqa: E731 - a claim's line
                             or any(nb in line.split(":")[0] for nb in only))   # a failed notebook / a drift
        others = len([line for line in regs if not mine(line)])
        regs = [line for line in regs if mine(line)]
    c = report["counts"]
    if report.get("not_written"):       # a read-only results folder: the report here, not in a file
        print(claims.report.render(report), flush=True)
        print(f"note: {report['not_written']}; the report is printed above, not saved", flush=True)
    where = "printed above" if report.get("not_written") else results / profile / "report.md"
    print(f"report: {where} ({c['reproduced']} reproduced, {c['not reproduced']} "
          f"not reproduced, {c['unstable']} unstable, {c['not run']} not run; {len(regs)} regressions"
          + (f" against the ledger and {against}" if against else " against the ledger")
          + (f" in {', '.join(only)}; {others} more in notebooks not run now" if only and others else "") + ")")
    for line in regs:
        print(f"  REGRESSION {line}")
    comp = report["comparison"]
    if comp:
        print(f"  against {against}: {len(comp['flips'])} flipped, {len(comp['drifts'])} drifted "
              f"({sum(bool(d['claims']) for d in comp['drifts'])} read by claims), {len(comp['absent'])} absent")
    drift = environment_drift() if against else None
    if drift:
        print(f"  warning: {drift}")
    return 1 if regs else 0


def environment_drift(constraints: Path = CONSTRAINTS) -> str | None:
    """A line naming torch or numpy when the installed version (without a local tag such as +cpu) differs from
    the one `constraints` records; None when they agree or there is no such file."""
    try:
        pinned = {k.lower(): v for k, v in re.findall(r"^([A-Za-z0-9_.\-]+)==(\S+)", constraints.read_text(), re.M)}
    except OSError:
        return None
    differ = []
    for name in WATCHED:
        try:
            have = importlib.metadata.version(name).split("+")[0]
        except importlib.metadata.PackageNotFoundError:
            continue
        if name in pinned and have != pinned[name].split("+")[0]:
            differ.append(f"{name} {have} (constraints.txt: {pinned[name]})")
    if not differ:
        return None
    return ("installed " + ", ".join(differ) + "; the baseline was measured with the versions in constraints.txt, "
            "so a drift may come from the versions rather than the code")


def check_baseline(path, profile: str) -> None:
    """One clear line before any work when --against names no usable baseline report."""
    p = Path(path)
    if p.is_dir():
        raise MemlibError(f"--against {path} is a folder; name a report.json (e.g. {p / 'report.json'} or "
                          "baselines/quick-cpu.json)")
    try:
        base = json.loads(p.read_text())
    except FileNotFoundError:
        raise MemlibError(f"--against {path}: no such file; name a report.json (e.g. baselines/quick-cpu.json)") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise MemlibError(f"--against {path} is not a JSON report ({e})") from None
    except OSError as e:
        raise MemlibError(f"--against {path} cannot be read: {e.strerror or e}") from None
    if not isinstance(base, dict) or "claims" not in base:
        raise MemlibError(f"--against {path} is not a report.json written by `python -m memlib check`")
    if base.get("profile") != profile:
        raise MemlibError(f"--against {path} is a {base.get('profile')!r} report; this is the {profile!r} profile")
