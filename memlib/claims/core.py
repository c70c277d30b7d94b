"""What a claim is, and how one measurement becomes one of three outcomes.

A `Claim` is one statement of a paper, quoted, turned into a test on the numbers a notebook logs
(`metrics.json`): a metric, a comparison and a threshold (a number, or another metric). Each claim
has three outcomes:

* **reproduced** — measured, and the statement holds (with margin across seeds for seed bands);
* **not reproduced** — measured, and the statement is false at this scale: the value and the reason
  are shown (the comparison failed, or the net did not fit the data it was trained on);
* **not run** — this profile does not run the experiment (the metric is absent).

A claim about a trained network carries a *fit gate*: conditions that the net reached its stated
loss. Unfitted, the claim is *not reproduced: did not fit*, whatever the comparison says, so no claim
passes for a net that learnt nothing. Claims about initialization (`about="init"`) need no gate.

A claim whose outcome moves inside the variation envelope (seeds, thread counts, instruction sets: the
report's baseline) is expected **unstable** in the ledger: a run shows the outcome it took, as *unstable*,
never counted as reproduced.

A claim's `why` holds no measured number as text: `{metric.key}` placeholders are filled from the run's
metrics when it is evaluated (`text.render_text`), so an explanation cannot quote a stale run.

Each claim also records the outcome **expected** at each profile (the ledger, like a strict xfail):
an outcome that differs from its expectation, in either direction, is a *regression*. The smoke
profile checks code paths, not claims: there every claim is *not run* unless its ledger says otherwise.

Seed bands: a metric may be logged as a list (one value per seed). A band claim holds only when the
statement holds for every seed *and* the band's mean is two standard errors past the threshold, so a
change of device or thread count cannot flip it.
"""
from __future__ import annotations

import math
import operator
import re
from dataclasses import asdict, dataclass, field, replace

from ..harness import deferred as _deferred
from .rules import RULES
from .text import fmt, render_text, stated_numbers

NOTEBOOKS = {1: "01_identity_vs_constant", 2: "02_attractors", 3: "03_downsampling_eigenvectors",
             4: "04_rho_dynamics"}
OPS = {">": operator.gt, ">=": operator.ge, "<": operator.lt, "<=": operator.le}
# Two values within float32 rounding of each other are a tie (docs/CLAIM_RULES.md, step 3): a strict comparison fails
# on a tie and a non-strict one holds, so no outcome turns on rounding that another machine, device or thread count
# could flip (float32's epsilon is 1.2e-7; a metric is many operations deep).
TIE_RTOL = 1e-6


def tie(a: float, b: float, *, logs: bool = False) -> bool:
    """Whether `a` and `b` are equal to within float32 rounding: TIE_RTOL of the larger magnitude, or, for the logs
    of two values (`logs`), TIE_RTOL itself (a relative difference of the values is an absolute one of their logs)."""
    return abs(a - b) <= TIE_RTOL * (1.0 if logs else max(abs(a), abs(b)))


def holds_one(v: float, op: str, t: float, *, logs: bool = False) -> bool:
    """`v op t`, a tie (`tie`) counting as equal: `>` and `<` fail on it, `>=` and `<=` hold."""
    return op in (">=", "<=") if tie(v, t, logs=logs) else OPS[op](v, t)


REPRODUCED, NOT_REPRODUCED, NOT_RUN = "reproduced", "not reproduced", "not run"
OUTCOMES = (REPRODUCED, NOT_REPRODUCED, NOT_RUN)
# A fourth outcome, for the ledger and the report: a claim whose outcome moves inside the variation envelope
# (other seeds, thread counts, instruction sets: `python -m memlib envelope`). Never counted as reproduced.
UNSTABLE = "unstable"
EXPECTABLE = OUTCOMES + (UNSTABLE,)
LEDGER_PROFILES = ("quick", "paper")      # every claim states its expected outcome for each of these
LEDGER_COLUMNS = ("quick", "full", "paper")   # full: its own entry where given, else the paper's (measured on a GPU)
# The datasets each ledger column was measured on (paper's set -> the set read): a run whose notebook
# read others (provenance "sources", e.g. the embedded digits where MNIST was not fetched) is judged as
# usual, but its ledger mismatches are listed as data-dependent, not as regressions.
LEDGER_DATA = {"quick": {"mnist": "mnist", "cifar10": "photos"}, "full": {"mnist": "mnist", "cifar10": "cifar10"},
               "paper": {"mnist": "mnist", "cifar10": "cifar10"}}
# Where one notebook's column was measured on other data than the rest (profile -> notebook -> {paper's set: set
# read}). Paper 4's full column: MNIST where the paper reads CIFAR-10 (session 19; claims/paper4.MEASURED_FULL). Paper
# 3's: the embedded photos at 32x32, CIFAR-10 being on no machine that ran it (sessions 22-23; claims/paper3.HOW_FULL).
LEDGER_DATA_BY_NOTEBOOK: dict = {"full": {"04_rho_dynamics": {"cifar10": "mnist"},
                                          "03_downsampling_eigenvectors": {"cifar10": "photos"}}}


def ledger_data(profile: str, notebook: str) -> dict:
    """The datasets `profile`'s ledger column was measured on for `notebook` (paper's set -> the set read)."""
    return {**LEDGER_DATA.get(profile, {}), **LEDGER_DATA_BY_NOTEBOOK.get(profile, {}).get(notebook, {})}
CODE_PATH_PROFILES = ("smoke",)           # profiles that check code paths: claims "not run" by default
BASES = ("measured", "predicted", "expected not reproduced", "not run")   # what a ledger entry rests on
ABOUT = ("trained", "init", "sanity")   # sanity: true by construction or by a formula; reported, never counted
SCALES = ("linear", "log")
FIT_RATIO = 0.05   # "fitted": final MSE below 5 % of the zero prediction's (the notebooks' `loss_ratio` metrics)


def fitted(prefix: str, ratio: float = FIT_RATIO) -> str:
    """The standard fit gate of a net (or seed band) whose notebook logged `<prefix>.loss_ratio`."""
    return f"{prefix}.loss_ratio < {ratio:g}"


@dataclass(frozen=True)
class Gate:
    """`metric op threshold`, e.g. "fig3a.depth20.loss_ratio < 0.05"; for a list (seed band): every seed."""
    metric: str
    op: str
    threshold: float | str

    @classmethod
    def parse(cls, text: str) -> "Gate":
        m = re.fullmatch(r"\s*(\S+)\s*(<=|>=|<|>)\s*(\S+)\s*", text)
        if not m:
            raise ValueError(f"a fit gate reads 'metric < number' or 'metric < other.metric'; got {text!r}")
        thr = m.group(3)
        try:
            thr = float(thr)
        except ValueError:
            pass
        return cls(m.group(1), m.group(2), thr)

    def __str__(self):
        return f"{self.metric} {self.op} {fmt(self.threshold)}"


@dataclass(frozen=True)
class Claim:
    """One statement of a paper, as a test that can fail.

    quote      the paper's own sentence (verbatim, from ../shared/papers), the statement tested
    statement  what is measured here and how it is compared (the profile's scale stated where it differs)
    metric     key in the notebook's metrics.json; a float, or a list with one value per seed
    op, threshold   the comparison; threshold is a number or another metric's key (paired per seed)
    expect     expected outcome per profile (the ledger): {"quick": ..., "paper": ...}; smoke: "not run"
               unless given
    fit        fit gates (`Gate` texts) that must hold before the comparison counts; required for
               claims about trained nets (`about="trained"`)
    about      "trained"; "init" (a statement about networks at initialization: no fit gate); or "sanity"
               (true by construction or by a formula: shown in its own section, not counted as a claim)
    why        what was measured and tried where the ledger expects "not reproduced"
    basis      why the ledger expects what it does at a profile: {"full": "measured: ...", "paper": "predicted:
               ..."}; a text starting with one of BASES. Where absent, `basis_of` gives the default
    one_seed   for a claim about trained nets judged on one seed (its metric a number, not a seed band): why no
               band yet (e.g. its cost at quick) and what would give it one. Empty: judged on a seed band
    rule       the row of the rule from words to tests (`claims.rules.RULES`, docs/CLAIM_RULES.md) whose statistic and
               threshold this claim applies; shown in the report
    scale      "linear", or "log": the band is judged on log(value) against log(threshold) (the `ratio` and `much`
               rows for positive unbounded quantities: heavy-tailed ratios mean something only on the log scale)
    control    the metric of a run the statement must FAIL (docs/CLAIM_RULES.md, step 4): an untrained net, another
               image, the other arm of the comparison. It takes the place of `metric` in the claim's own comparison
               (`op`, `scale`, and `control_threshold` where given, else `threshold`). A claim whose control passes
               that comparison tests nothing: it is reported not reproduced, with the control's value
    control_threshold  the control's counterpart of a threshold that is another metric's key (None: `threshold`)
    control_is what the control is, in words (shown in the report)
    reading    the reading of the paper's text the claim is judged under, where the text as written is ambiguous or
               does not train (the chosen reading, and what the literal one showed); shown in the report beside the
               outcome. Empty: the text's settings as stated (or the departures table's)
    """
    id: str
    paper: int
    figure: str
    quote: str
    statement: str
    metric: str
    op: str
    threshold: float | str
    expect: dict = field(default_factory=dict)
    fit: tuple = ()
    about: str = "trained"
    why: str = ""
    basis: dict = field(default_factory=dict)
    one_seed: str = ""
    rule: str = ""
    scale: str = "linear"
    control: str = ""
    control_threshold: float | str | None = None
    control_is: str = ""
    reading: str = ""

    @property
    def notebook(self) -> str:
        return NOTEBOOKS[self.paper]

    @property
    def gates(self) -> list[Gate]:
        return [Gate.parse(g) if isinstance(g, str) else g for g in self.fit]

    def basis_of(self, profile: str) -> str:
        """The evidence behind the ledger's entry at `profile`: measured (profile, device, date), predicted (why),
        or expected not reproduced (the evidence). The quick column is measured by the committed envelope."""
        if profile in self.basis:
            return self.basis[profile]
        if profile == "full" and "full" not in self.expect and "paper" in self.basis:
            return self.basis["paper"]
        exp = self.expected(profile)
        if profile == "quick" or profile in CODE_PATH_PROFILES:
            return "measured: the quick profile's envelope on the 2-core CPU (baselines/quick-cpu.json)" \
                if profile == "quick" else "code paths only"
        if exp == NOT_RUN:
            return "not run: this profile does not measure it"
        if exp == REPRODUCED:
            return (f"predicted: the paper reports it at its own settings; the {profile} profile "
                    + ("runs the paper's settings" if profile == "paper" else "is sized towards them")
                    + ", and no run has measured it yet")
        return f"expected {exp}: the evidence is the claim's why (measured at quick)"

    def expected(self, profile: str) -> str:
        if profile == "full" and "full" not in self.expect:    # full is sized to reach the paper's outcomes
            return self.expect.get("paper", NOT_RUN)
        return self.expect.get(profile, NOT_RUN)

    def _gates_or_none(self) -> list[Gate]:
        try:
            return self.gates
        except ValueError:
            return []

    def problems(self) -> list[str]:
        """What is wrong with this claim as data (empty when well formed)."""
        out = []
        if self.op not in OPS:
            out.append(f"unknown comparison {self.op!r}")
        if self.paper not in NOTEBOOKS:
            out.append(f"unknown paper {self.paper}")
        if len(self.quote.strip()) < 20:
            out.append("no quote of the paper")
        if not self.statement.strip() or not self.figure.strip():
            out.append("no statement or figure")
        if self.about not in ABOUT:
            out.append(f"about must be one of {ABOUT}")
        if self.about == "trained" and not self.fit:
            out.append("a claim about a trained net needs a fit gate")
        for p in LEDGER_PROFILES:
            if p not in self.expect:
                out.append(f"no expected outcome for profile {p!r}")
        for p, o in self.expect.items():
            if o not in EXPECTABLE:
                out.append(f"expected outcome {o!r} for {p!r} is not one of {EXPECTABLE}")
        if any(o in (NOT_REPRODUCED, UNSTABLE) for o in self.expect.values()) and len(self.why.strip()) < 20:
            out.append("expects 'not reproduced' or 'unstable' somewhere but does not say why (what was measured)")
        settings = [self.threshold, *(g.threshold for g in self._gates_or_none())]
        bad = stated_numbers(self.why, settings=settings)
        if bad:
            out.append(f"its why states measured-looking numbers {bad} as text: write them as {{metric.key}} "
                       "placeholders, filled from the run's metrics (claims.text.render_text)")
        for p, b in self.basis.items():
            if p not in LEDGER_COLUMNS:
                out.append(f"a basis for {p!r}, which is no ledger column {LEDGER_COLUMNS}")
            elif not b.startswith(BASES):
                out.append(f"the basis for {p!r} must start with one of {BASES}: {b[:40]!r}")
        if self.rule and self.rule not in RULES:
            out.append(f"rule {self.rule!r} is no row of claims/rules.py ({', '.join(RULES)})")
        if self.scale not in SCALES:
            out.append(f"scale must be one of {SCALES}")
        if self.scale == "log" and not isinstance(self.threshold, str) and not float(self.threshold) > 0:
            out.append("a log-scale claim needs a positive threshold")
        if self.control and len(self.control_is.strip()) < 10:
            out.append("a control needs `control_is`: what the control run is, in words")
        if self.control_threshold is not None and not self.control:
            out.append("a control_threshold without a control")
        if self.control and self.about == "sanity":
            out.append("a sanity check needs no control (it is true by construction and never counted)")
        if self.one_seed and self.about != "trained":
            out.append("a one_seed reason on a claim not about trained nets (only those need a seed band)")
        if self.one_seed and len(self.one_seed.strip()) < 20:
            out.append("its one_seed reason is too short to say why no band and what would give one")
        try:
            self.gates
        except ValueError as e:
            out.append(str(e))
        return out


# ---------------------------------------------------------------------------------------------------
# evaluation

def with_measured(claims: list, table: dict, profile: str, how: str) -> list:
    """The ledger's `profile` column where a run measured it: each claim in `table` (claim id -> (outcome, what the
    run showed)) expects the measured outcome, with the basis "measured: <how>: <what it showed>". A claim measured
    not reproduced keeps its why, or gains one pointing to the basis. Ids not in `claims` are an error."""
    unknown = set(table) - {c.id for c in claims}
    if unknown:
        raise ValueError(f"measured outcomes for claims that do not exist: {sorted(unknown)}")

    def one(c: Claim) -> Claim:
        if c.id not in table:
            return c
        outcome, shown = table[c.id]
        why = c.why or (f"the {profile} profile measured it {outcome} (the ledger's basis says what it showed)"
                        if outcome != REPRODUCED else "")
        return replace(c, expect={**c.expect, profile: outcome}, why=why,
                       basis={**c.basis, profile: f"measured: {how}: {shown}"})
    return [one(c) for c in claims]


UNTRAINED_BAR = ("the same nets at their initial weights, measured alike (the bar already holds it: it fails by "
                 "construction)")


def with_control(c: Claim, controls: dict, *, twins: tuple | None = None) -> Claim:
    """The claim with its control (docs/CLAIM_RULES.md, step 4): its entry in `controls` (the `control`,
    `control_threshold` and `control_is` keywords), else, where its threshold is `<metric>.bar` (the paper's bar or the
    untrained score moved past it), the untrained twin `<metric>.untrained`: a control that fails by construction,
    shown beside the claim. `twins`: the claims whose twin the notebook logs (None: every `.bar` claim)."""
    if c.id in controls:
        return replace(c, **controls[c.id])
    if c.threshold == f"{c.metric}.bar" and c.about != "sanity" and (twins is None or c.id in twins):
        return replace(c, control=f"{c.metric}.untrained", control_is=UNTRAINED_BAR)
    return c


def _lookup(metrics: dict, ref):
    """A threshold or gate operand: a number as it is, a metric key's value (None when absent)."""
    return metrics.get(ref) if isinstance(ref, str) else ref


def _as_list(v) -> list:
    return list(v) if isinstance(v, (list, tuple)) else [v]


def seed_count(value) -> int | None:
    """How many seeds a metric's value holds: 1 for a number, its length for a seed band (a list), None when
    absent. The report shows it beside each claim; `one_seed` must say why a trained-net claim has 1."""
    if value is None:
        return None
    return len(value) if isinstance(value, (list, tuple)) else 1


MIN_BAND = 3    # a claim about trained nets is judged on at least this many seeds, or says why not (`one_seed`)


def band_holds(value, op: str, threshold, *, logs: bool = False) -> tuple[bool, str]:
    """Whether `value op threshold` holds; for seed bands (lists) for every seed and with the mean two
    standard errors past the threshold (paired per seed when the threshold is a band too).
    Returns (holds, a short account of the numbers). An empty seed band (`[]`, which `Run.log` accepts) holds
    nothing: (False, saying so), never a division by zero."""
    vs, ts = _as_list(value), _as_list(threshold)
    empty = [what for what, xs in (("the metric", vs), ("the threshold", ts)) if not xs]
    if empty:
        return False, (f"{' and '.join(empty)} holds no value (an empty list): no seed was measured; "
                       "re-run that notebook")
    if len(ts) == 1:
        ts = ts * len(vs)
    if len(vs) == 1 and len(ts) > 1:
        vs = vs * len(ts)
    if len(vs) != len(ts):
        return False, f"{len(vs)} seeds against {len(ts)} threshold values"
    if any(v is None or not math.isfinite(float(v)) for v in vs + ts):
        return False, "a value is not a finite number"
    every = all(holds_one(float(v), op, float(t), logs=logs) for v, t in zip(vs, ts))
    if len(vs) == 1:
        return every, f"{fmt(vs[0])} {op} {fmt(ts[0])} is {'true' if every else 'false'}"
    # > 0 means "above the threshold"; a tie is 0
    d = [0.0 if tie(float(v), float(t), logs=logs) else float(v) - float(t) for v, t in zip(vs, ts)]
    n = len(d)
    mean = sum(d) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n)
    margin = mean - 2 * se if op in (">", ">=") else -(mean + 2 * se)
    ok = every and (margin > 0 or (op in (">=", "<=") and margin >= 0))   # ">= 1" holds for a band all at 1
    parts = [f"seeds {fmt(vs)} vs {fmt(ts if len(set(map(float, ts))) > 1 else ts[0])}"]
    if not every:
        parts.append(f"fails for {sum(not holds_one(float(v), op, float(t), logs=logs) for v, t in zip(vs, ts))} of "
                     f"{n} seeds")
    elif not ok:
        parts.append(f"the band's mean is not 2 standard errors past the threshold (mean gap {mean:+.3g}, se {se:.2g})")
    return ok, "; ".join(parts)


def evaluate(claim: Claim, metrics: dict | None, profile: str) -> dict:
    """One report row: the claim, its measured value, outcome, expected outcome and the reason."""
    row = {**asdict(claim), "notebook": claim.notebook, "fit": [str(g) for g in claim.gates],
           "value": None, "threshold_value": None, "gate_values": {}, "reason": "", "seeds": None,
           "control_value": None, "control_threshold_value": None, "control_outcome": ""}
    expected = claim.expected(profile)
    row["expected"] = expected
    row["ledger"] = {p: claim.expected(p) for p in LEDGER_COLUMNS}
    row["basis"] = {p: claim.basis_of(p) for p in LEDGER_COLUMNS}

    row["why"] = render_text(claim.why, metrics)

    left = _deferred.section_of(claim, profile)    # a section this profile leaves to full (harness.deferred)

    def done(outcome, reason=""):
        row["run_outcome"] = outcome          # this run's own outcome, before the ledger's 'unstable' is applied
        if expected == UNSTABLE and outcome in (REPRODUCED, NOT_REPRODUCED):
            # the envelope saw this claim take both outcomes: this run's one is shown, never counted
            reason = f"{outcome} in this run, but its outcome moves across seeds and machines (the ledger): {reason}"
            outcome = UNSTABLE
        regression = outcome != expected
        if left is not None and outcome != NOT_RUN:   # run on purpose (`--part`), though the profile leaves it out
            regression = False
            reason = f"{reason} (measured by a run of its part, which {profile} leaves to full)"
        row.update(outcome=outcome, reason=reason, regression=regression)
        return row

    if metrics is None:
        return done(NOT_RUN, "the notebook has no finished run at this profile")
    value, thr = metrics.get(claim.metric), _lookup(metrics, claim.threshold)
    row.update(value=value, threshold_value=thr, seeds=seed_count(value))
    if profile in CODE_PATH_PROFILES and expected == NOT_RUN:
        return done(NOT_RUN, f"the {profile} profile checks code paths, not claims")
    if value is None or thr is None:
        if left is not None:
            return done(NOT_RUN, _deferred.reason(left, claim.notebook, profile))
        missing = claim.metric if value is None else claim.threshold
        return done(NOT_RUN, f"{missing} was not measured at this profile")
    for g in claim.gates:
        gv, gt = metrics.get(g.metric), _lookup(metrics, g.threshold)
        row["gate_values"][g.metric] = gv
        if gv is None or gt is None:
            return done(NOT_REPRODUCED, f"fit not measured: {g.metric if gv is None else g.threshold} is missing")
        ok, account = band_holds(gv, g.op, gt)
        if not ok:
            return done(NOT_REPRODUCED, f"did not fit: {g.metric} {fmt(gv)}, needs {g.op} {fmt(gt)}")
    ok, account = compare(claim, value, thr)
    if ok is None:
        return done(NOT_REPRODUCED, account + (f" — {row['why']}" if row["why"] else ""))
    control = control_result(claim, metrics, thr)
    row.update(control)
    if ok and control["control_outcome"] == CONTROL_HOLDS:
        return done(NOT_REPRODUCED, f"{account}; but its control passes the same test ({claim.control_is}: "
                                    f"{fmt(control['control_value'])}), so the test does not tell this result from "
                                    "a run that shows nothing")
    if ok:
        return done(REPRODUCED, account)
    return done(NOT_REPRODUCED, account + (f" — {row['why']}" if row["why"] else ""))


CONTROL_FAILS, CONTROL_HOLDS, CONTROL_MISSING = "fails (as it must)", "passes (the test tests nothing)", "not measured"


def compare(claim: Claim, value, thr) -> tuple[bool | None, str]:
    """The claim's comparison of `value` with `thr` on its scale: (holds, account); holds is None where a
    log-scale value is not positive (no comparison can be made)."""
    if claim.scale == "log":
        if any(v is None or not float(v) > 0 for v in _as_list(value) + _as_list(thr)):
            return None, f"a ratio judged on the log scale is not positive: {fmt(value)} against {fmt(thr)}"
        ok, account = band_holds([math.log(float(v)) for v in _as_list(value)], claim.op,
                                 [math.log(float(t)) for t in _as_list(thr)], logs=True)
        return ok, f"on the log scale: {fmt(value)} against {fmt(thr)}; " + account
    return band_holds(value, claim.op, thr)


def control_result(claim: Claim, metrics: dict, thr) -> dict:
    """The claim's control run through the claim's own comparison: its value, threshold and outcome
    (CONTROL_FAILS, as it must; CONTROL_HOLDS; CONTROL_MISSING; "" for a claim without a control)."""
    if not claim.control:
        return {"control_value": None, "control_threshold_value": None, "control_outcome": ""}
    value = metrics.get(claim.control)
    cthr = thr if claim.control_threshold is None else _lookup(metrics, claim.control_threshold)
    out = {"control_value": value, "control_threshold_value": cthr}
    if value is None or cthr is None or any(v is None or math.isnan(float(v)) for v in _as_list(value) + _as_list(cthr)):
        return {**out, "control_outcome": CONTROL_MISSING}     # a NaN (an underflowed net) measures nothing
    ok, _ = compare(claim, value, cthr)
    return {**out, "control_outcome": CONTROL_HOLDS if ok else CONTROL_FAILS}


def leave_to_full(claims: list[Claim]) -> list[Claim]:
    """`claims` with the ledger's entry 'not run' at each profile for the claims of the sections that profile leaves to
    full (memlib.harness.deferred: quick's sections whose training does not fit its 45 minutes), the basis saying why
    and what the profile measured before (the entry it replaces); a claim already 'not run' there keeps its own basis.
    An 'Unstable at quick' in its why becomes the history it is."""
    out = []
    for c in claims:
        for profile in _deferred.LEFT_TO_FULL:
            section = _deferred.section_of(c, profile)
            if section is not None and c.expected(profile) != NOT_RUN:
                before = c.expected(profile)
                c = replace(c, expect={**c.expect, profile: NOT_RUN},
                            why=c.why.replace(f"Unstable at {profile}: ",
                                              f"Unstable at {profile} until {profile} left it to full: "),
                            basis={**c.basis, profile: _deferred.reason(section, c.notebook, profile)
                                   + f"; before it was left out, the {profile} envelope gave: {before}"})
        out.append(c)
    return out
