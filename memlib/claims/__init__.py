"""The papers' claims as data, and the report that judges them.

`core` defines a claim (quote, test, fit gate, expected outcome per profile) and its outcomes;
`text` fills a claim's `why` from a run's metrics; `report` turns a profile's metrics into `report.md` / `report.json` with regressions against the
ledger and, optionally, a baseline report (`comparison`: tolerances, drifts, flips). `paper1` .. `paper4` hold
each paper's claims (papers 1-3 each in two modules: `paper1` / `paper1_convnets`, `paper2` / `paper2_conv`, `paper3` /
`paper3_sec5`).
"""
from __future__ import annotations

from .core import (CODE_PATH_PROFILES, FIT_RATIO, LEDGER_PROFILES, NOT_REPRODUCED, NOT_RUN, NOTEBOOKS, OPS,
                   OUTCOMES, REPRODUCED, UNSTABLE, Claim, Gate, band_holds, evaluate, fitted, leave_to_full)
from .paper1 import CLAIMS as _PAPER1_FCN
from .paper1_convnets import CLAIMS as _PAPER1_CONVNETS
from .paper2 import CLAIMS as _PAPER2_FC
from .paper2_conv import CLAIMS as _PAPER2_CONV
from .paper3 import CLAIMS as _PAPER3_SEC4
from .paper3_sec5 import CLAIMS as _PAPER3_SEC5
from .paper4 import CLAIMS as PAPER4
from . import report as _report
from . import unstable as _unstable

PAPER1 = _PAPER1_FCN + _PAPER1_CONVNETS
PAPER2 = _PAPER2_FC + _PAPER2_CONV
PAPER3 = _PAPER3_SEC4 + _PAPER3_SEC5
# the ledger's quick column says 'unstable' for the claims the quick envelope saw move (claims/unstable.py), and
# 'not run' for those of the sections quick leaves to full (harness/deferred.py)
CLAIMS: list[Claim] = leave_to_full(_unstable.apply(PAPER1 + PAPER2 + PAPER3 + PAPER4))


def evaluate_notebook(notebook: str, metrics: dict, profile: str) -> list[dict]:
    return [evaluate(c, metrics, profile) for c in CLAIMS if c.notebook == notebook]


def check(results_dir, profile: str, *, against=None) -> dict:
    """Evaluate every claim on `results_dir/<profile>/`, write report.md and report.json, return the report. A folder
    that cannot be written (read-only, full) keeps no report: `report["not_written"]` says why, for the caller to
    show the report instead."""
    report = _report.build(CLAIMS, results_dir, profile, against=against)
    try:
        _report.write(report, results_dir, profile)
    except OSError as e:                # the file it could not write, never its temporary (fileio names it)
        report["not_written"] = f"cannot write {e.filename or results_dir}: {e.strerror or e}"
    return report


markdown = _report.markdown


class ClaimTable(list):
    """A notebook's claims with their outcomes; renders as a table in Jupyter."""

    def _repr_markdown_(self):
        counted = [r for r in self if r["about"] != "sanity"]
        head = ", ".join(f"{sum(r['outcome'] == o for r in counted)} {o}" for o in _report.COUNTED)
        regs = [r for r in self if r["regression"]]
        head += f"; {len(regs)} regressions against the ledger" + (": " + ", ".join(r["id"] for r in regs) if regs else "")
        return f"**{head}**\n\n" + markdown(list(self))

    def __repr__(self):
        return "\n".join(f"{r['outcome']:>15}{' (REGRESSION: ledger ' + r['expected'] + ')' if r['regression'] else ''}"
                         f"  {r['id']}: {r['reason']}" for r in self)


__all__ = ["CLAIMS", "Claim", "ClaimTable", "Gate", "NOTEBOOKS", "OPS", "OUTCOMES", "REPRODUCED", "NOT_REPRODUCED",
           "NOT_RUN", "UNSTABLE", "LEDGER_PROFILES", "CODE_PATH_PROFILES", "FIT_RATIO", "band_holds", "check", "evaluate",
           "evaluate_notebook", "fitted", "markdown"]
