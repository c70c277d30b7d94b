"""The papers' claims as data, and the check that turns metrics.json files into the report.

A claim names a metric a notebook logs, a comparison and a threshold (a number, or another
metric's name), and the profiles in which it is checked. Under other profiles (the smoke
profile's tiny models) it is listed as "not checked", never as passed.
"""
from __future__ import annotations

import json
import operator
from dataclasses import asdict, dataclass
from pathlib import Path

NOTEBOOKS = {1: "01_identity_vs_constant", 2: "02_attractors", 3: "03_downsampling_eigenvectors",
             4: "04_rho_dynamics"}
OPS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}


@dataclass(frozen=True)
class Claim:
    id: str
    paper: int
    figure: str
    statement: str
    metric: str                       # key in the notebook's metrics.json
    op: str                           # one of OPS
    threshold: float | str            # a number, or the key of another metric
    profiles: tuple = ("quick", "paper")

    @property
    def notebook(self) -> str:
        return NOTEBOOKS[self.paper]


CLAIMS: list[Claim] = [
    # ---- paper 1 (Zhang et al.): identity vs constant map from one training example
    Claim("p1.eq1_closed_form", 1, "Fig 2 / eq. 1",
          "A 1-layer linear net Wx trained on one digit equals the closed form of eq. 1 on every probe",
          "fig2.linear1_vs_eq1_rel_err", "<", 1e-3, ("smoke", "quick", "paper")),
    Claim("p1.linear1_random_on_orthogonal", 1, "Fig 2 / eq. 1",
          "The 1-layer linear net neither copies nor memorizes inputs orthogonal to the digit (corr to identity < 0.5)",
          "fig2.linear1.rho0.corr_identity", "<", 0.5),
    Claim("p1.deep_linear_more_constant", 1, "Fig 2",
          "A 6-layer linear FCN is biased towards the constant map more than the 1-layer linear net",
          "fig2.linear6.corr_constant", ">", "fig2.linear1.corr_constant"),
    Claim("p1.deep_relu_fcn_constant", 1, "Fig 2",
          "A deep ReLU FCN predicts the training digit for every test input (corr to constant > 0.9)",
          "fig2.relu6.corr_constant", ">", 0.9),
    Claim("p1.shallow_convnet_identity", 1, "Fig 3a / Fig 9",
          "Shallow ConvNets (up to 3 layers) learn a good approximation to the identity (corr > 0.8 on test inputs)",
          "fig3a.shallow.corr_identity", ">", 0.8),
    Claim("p1.shallow_convnet_not_constant", 1, "Fig 3a / Fig 9",
          "Shallow ConvNets do not memorize: corr to the constant map < 0.3 on probes orthogonal to the digit",
          "fig9.shallow.rho0.corr_constant", "<", 0.3),
    Claim("p1.deep_convnet_constant", 1, "Fig 3a / Fig 9",
          "The deepest ConvNet drifts to the constant map: corr to the training digit > 0.8 on orthogonal probes",
          "fig9.deepest.rho0.corr_constant", ">", 0.8),
    Claim("p1.deep_convnet_not_identity", 1, "Fig 3a / Fig 9",
          "The deepest ConvNet no longer approximates the identity (corr to identity < 0.3 on orthogonal probes)",
          "fig9.deepest.rho0.corr_identity", "<", 0.3),
    Claim("p1.depth_trend", 1, "Fig 9",
          "Correlation to the identity falls with depth: the deepest ConvNet scores below the 1-layer one",
          "fig9.deepest.corr_identity", "<", "fig9.depth1.corr_identity"),
]


def _value(metrics: dict, ref):
    return metrics.get(ref) if isinstance(ref, str) else ref


def evaluate(claim: Claim, metrics: dict | None, profile: str) -> dict:
    """One report row: the claim with its measured value, threshold and status."""
    row = {**asdict(claim), "notebook": claim.notebook, "value": None, "threshold_value": None}
    row["profiles"] = list(claim.profiles)
    if metrics is None:
        return {**row, "status": "not run"}
    value, thr = metrics.get(claim.metric), _value(metrics, claim.threshold)
    row.update(value=value, threshold_value=thr)
    if profile not in claim.profiles:
        return {**row, "status": "not checked"}
    if value is None or thr is None:
        return {**row, "status": "missing"}
    return {**row, "status": "pass" if OPS[claim.op](value, thr) else "fail"}


def evaluate_notebook(notebook: str, metrics: dict, profile: str) -> list[dict]:
    return [evaluate(c, metrics, profile) for c in CLAIMS if c.notebook == notebook]


def _fmt(v):
    if v is None:
        return "—"
    return f"{v:.3g}" if isinstance(v, float) else str(v)


def markdown(rows: list[dict]) -> str:
    lines = ["| status | claim | paper | figure | statement | measured | test |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        thr = r["threshold"] if not isinstance(r["threshold"], str) else f"{r['threshold']} ({_fmt(r['threshold_value'])})"
        lines.append(f"| **{r['status']}** | `{r['id']}` | {r['paper']} | {r['figure']} | {r['statement']} | "
                     f"{_fmt(r['value'])} | {r['op']} {_fmt(thr) if not isinstance(thr, str) else thr} |")
    return "\n".join(lines)


class ClaimTable(list):
    """A notebook's checked claims; renders as a table in Jupyter."""

    def _repr_markdown_(self):
        return markdown(self)

    def __repr__(self):
        return "\n".join(f"{r['status']:>11}  {r['id']}: {_fmt(r['value'])} {r['op']} {_fmt(r['threshold_value'])}"
                         for r in self)


def check(results_dir, profile: str) -> dict:
    """Read every notebook's metrics.json under results/<profile>/ and write report.md/.json."""
    base = Path(results_dir) / profile
    rows = []
    for c in CLAIMS:
        path = base / c.notebook / "metrics.json"
        metrics = json.loads(path.read_text()) if path.exists() else None
        rows.append(evaluate(c, metrics, profile))
    counts = {s: sum(r["status"] == s for r in rows) for s in ("pass", "fail", "missing", "not checked", "not run")}
    report = {"profile": profile, "counts": counts, "claims": rows}
    base.mkdir(parents=True, exist_ok=True)
    (base / "report.json").write_text(json.dumps(report, indent=1))
    summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    text = [f"# Reproduction report — profile `{profile}`", "", f"{summary}.", ""]
    for paper, nb in NOTEBOOKS.items():
        prow = [r for r in rows if r["paper"] == paper]
        if prow:
            text += [f"## Paper {paper} — `{nb}`", "", markdown(prow), ""]
    (base / "report.md").write_text("\n".join(text))
    return report
