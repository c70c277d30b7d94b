"""Verdicts over seeds: how the per-seed values of a claim, pooled over every seed the evidence holds, become one of
four outcomes (docs/CLAIM_RULES.md, "Verdicts over seeds"; the settings are `claims.rules`).

* **reproduced**: the one-sided bound of the claim's estimand lies past the bar;
* **not reproduced**: the opposite bound lies short of it (or too few seeds fitted: "did not fit");
* **at the bar**: neither, and the interval lies within the row's margin of the bar;
* **undecided**: none of these by the profile's cap of seeds (`more_seeds` says whether a further band is due).

The estimand is the row's (`rules.Rule.estimand`): the mean over seeds of d = the per-seed distance past the
threshold on the claim's scale (Student's t bounds), or the share of seeds on which the per-seed statement holds
(Clopper-Pearson bounds) against the row's share bar. Seeds come in bands (a notebook run's seed band); verdicts are
taken at the profile's looks (`rules.looks`: cumulative bands), each at `rules.look_alpha`, and the first decided look
stands. The unit is the seed: a seed run again on another machine is averaged into one (`pool`).

Pure statistics: scipy.stats does the tails; nothing here trains or reads files.
"""
from __future__ import annotations

import math
import sys
from dataclasses import asdict, dataclass, field

from scipy import stats

from . import rules
from .core import holds_one, tie

REPRODUCED, NOT_REPRODUCED, AT_BAR, UNDECIDED = "reproduced", "not reproduced", "at the bar", "undecided"
VERDICTS = (REPRODUCED, NOT_REPRODUCED, AT_BAR, UNDECIDED)
DECIDED = (REPRODUCED, NOT_REPRODUCED, AT_BAR)


@dataclass(frozen=True)
class Seed:
    """One seed's observation of a claim: its value and threshold (the claim's metric and threshold at this seed),
    whether its nets passed the claim's fit gates, and its control's value and threshold (None: no control)."""
    seed: object                 # the seed's identity (its number); None where unknown (each observation its own)
    value: float
    threshold: float
    fitted: bool = True
    control: float | None = None
    control_threshold: float | None = None


@dataclass
class Verdict:
    """A claim's verdict over its pooled seeds: the outcome, the estimand's estimate and one-sided bounds at the look
    that decided (or the last), the bar they are read against, and the evidence behind them."""
    outcome: str
    estimand: str = rules.MEAN
    estimate: float | None = None
    lo: float | None = None
    hi: float | None = None
    bar: float = 0.0
    margin: float = 0.0
    n: int = 0                    # fitted seeds the verdict used
    unfitted: int = 0             # seeds left out: missed a fit gate, or a value that is no finite number
    look: int = 0                 # which look decided (1-based; 0: none was taken)
    looks: int = 0                # looks the profile allows
    more_seeds: bool = False      # undecided with the cap not reached: a further band is due
    p: float = 1.0                # the p-value of "past the bar", over the looks (Bonferroni: the smallest times K)
    reason: str = ""
    control: dict | None = field(default=None)

    def as_dict(self) -> dict:
        return asdict(self)

    def interval(self) -> str:
        """The estimate and its interval, in words, on the estimand's own scale."""
        if self.estimate is None:
            return "no estimate"
        what = "share of seeds" if self.estimand == rules.SHARE else "mean past the threshold"
        return (f"{what} {self.estimate:.3g} [{self.lo:.3g}, {self.hi:.3g}] against {self.bar:g} "
                f"(+-{self.margin:g} at the bar), {self.n} seeds" + (f", {self.unfitted} left out" if self.unfitted
                                                                       else ""))


# ---------------------------------------------------------------------------------------------------- statistics

def mean_bounds(d: list[float], alpha: float) -> tuple[float, float, float, float]:
    """(mean, lower, upper, p) of the mean of `d`: one-sided Student's t bounds at `alpha` each, and the one-sided
    p-value of "the mean is above 0". A band of one value, or of equal values, is its own interval."""
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
    if sd == 0.0:
        return mean, mean, mean, 0.0 if mean > 0 else 1.0
    se = sd / math.sqrt(n)
    q = float(stats.t.ppf(1 - alpha, n - 1))
    return mean, mean - q * se, mean + q * se, float(stats.t.sf(mean / se, n - 1))


def share_bounds(k: int, n: int, alpha: float, bar: float) -> tuple[float, float, float, float]:
    """(share, lower, upper, p) of k successes in n: Clopper-Pearson one-sided bounds at `alpha` each (the exact
    two-sided interval at 1 - 2 alpha), and the exact binomial p-value of "the share is above `bar`"."""
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=1 - 2 * alpha, method="exact")
    p = stats.binomtest(k, n, bar, alternative="greater").pvalue
    return k / n, float(ci.low), float(ci.high), float(p)


def distance(value: float, op: str, threshold: float, scale: str) -> float:
    """The per-seed distance past the threshold: > 0 where the statement holds (value above a '>' threshold, below a
    '<' one), on the claim's scale (the logs for 'log'); a tie (`core.tie`) is 0."""
    logs = scale == "log"
    v, t = (math.log(value), math.log(threshold)) if logs else (value, threshold)
    if tie(v, t, logs=logs):
        return 0.0
    return v - t if op in (">", ">=") else t - v


def decide(estimand: str, est: float, lo: float, hi: float, bar: float, margin: float, op: str) -> str:
    """The outcome one look's bounds give: past the bar, short of it, within its margin, or none of these."""
    strict = op in (">", "<")
    if lo > bar or (lo == bar and not strict and estimand == rules.MEAN):
        return REPRODUCED
    if hi < bar or (hi == bar and strict and estimand == rules.MEAN):
        return NOT_REPRODUCED
    if margin > 0 and bar - margin <= lo and hi <= bar + margin:
        return AT_BAR
    return UNDECIDED


# ---------------------------------------------------------------------------------------------------- evidence

def pool(seeds: list[Seed]) -> list[Seed]:
    """One observation per seed: a seed observed more than once (another machine, thread count or kernel set) has
    its values and thresholds averaged, fitted only where every run of it fitted; seeds of unknown identity stay
    apart. Order: each seed where it first appears."""
    by: dict = {}
    order: list = []
    for s in seeds:
        key = ("own", len(order)) if s.seed is None else ("seed", s.seed)
        if key not in by:
            order.append(key)
        by.setdefault(key, []).append(s)

    def avg(xs):
        xs = [x for x in xs if x is not None]
        return sum(xs) / len(xs) if xs else None
    out = []
    for key in order:
        group = by[key]
        if len(group) == 1:
            out.append(group[0])
            continue
        out.append(Seed(group[0].seed, avg([g.value for g in group]), avg([g.threshold for g in group]),
                        all(g.fitted for g in group), avg([g.control for g in group]),
                        avg([g.control_threshold for g in group])))
    return out


def _finite(*xs) -> bool:
    return all(x is not None and math.isfinite(float(x)) for x in xs)


def _paired_look(claim, seeds: list[Seed], alpha: float) -> Verdict:
    """One look at the per-seed difference between the claim and its control: the claim's distance past its
    threshold minus the control's (for a share row, whether the statement holds on the seed minus whether it holds
    for its control), its mean judged against 0 with no margin: does the claim beat its control seed by seed?"""
    logs = claim.scale == "log"
    kept = [s for s in seeds if s.fitted and _finite(s.value, s.threshold, s.control, s.control_threshold)
            and (not logs or min(s.value, s.threshold, s.control, s.control_threshold) > 0)]
    base = dict(estimand=rules.MEAN, bar=0.0, margin=0.0, n=len(kept), unfitted=len(seeds) - len(kept))
    if len(kept) < 2:
        return Verdict(UNDECIDED, reason="fewer than two seeds with both the claim and its control", **base)
    if (rules.RULES.get(claim.rule) or rules.RULES["seeds"]).estimand == rules.SHARE:
        def one(v, t):
            return float(holds_one(math.log(v) if logs else v, claim.op, math.log(t) if logs else t, logs=logs))
    else:
        def one(v, t):
            return distance(v, claim.op, t, claim.scale)
    d = [one(s.value, s.threshold) - one(s.control, s.control_threshold) for s in kept]
    est, lo, hi, p = mean_bounds(d, alpha)
    return Verdict(decide(rules.MEAN, est, lo, hi, 0.0, 0.0, ">"), estimate=est, lo=lo, hi=hi, p=p, **base)


def _one_look(claim, seeds: list[Seed], alpha: float, control: bool = False) -> Verdict:
    """The verdict one look gives on `seeds` (pooled), or on their control values where `control`."""
    row = rules.RULES.get(claim.rule) or rules.RULES["seeds"]
    margin = row.margin_on(claim.scale)
    estimand = row.estimand
    bar = row.share_bar if estimand == rules.SHARE else 0.0
    pairs = [((s.control, s.control_threshold) if control else (s.value, s.threshold), s.fitted) for s in seeds]
    kept = [(v, t) for (v, t), ok in pairs if ok and _finite(v, t)]
    unfitted = len(pairs) - len(kept)
    base = dict(estimand=estimand, bar=bar, margin=margin, n=len(kept), unfitted=unfitted)
    fitted = sum(ok for _, ok in pairs)
    if not control and pairs and fitted < rules.FITTED_SHARE * len(pairs):
        return Verdict(NOT_REPRODUCED, reason=f"did not fit: {fitted} of {len(pairs)} seeds passed the fit gate",
                       **base)
    if claim.scale == "log" and any(not (v > 0 and t > 0) for v, t in kept):
        return Verdict(NOT_REPRODUCED, reason="a ratio judged on the log scale is not positive", **base)
    if not kept:
        return Verdict(UNDECIDED, reason="no seed to judge", **base)
    if not control and len(kept) < rules.MIN_FITTED and claim.about != "sanity" and len(kept) < len(pairs):
        return Verdict(UNDECIDED, reason=f"{len(kept)} fitted seeds, fewer than {rules.MIN_FITTED}", **base)
    if estimand == rules.SHARE:
        k = sum(holds_one(math.log(v) if claim.scale == "log" else v, claim.op,
                          math.log(t) if claim.scale == "log" else t, logs=claim.scale == "log") for v, t in kept)
        est, lo, hi, p = share_bounds(k, len(kept), alpha, bar)
    else:
        d = [distance(v, claim.op, t, claim.scale) for v, t in kept]
        if len(d) == 1 and claim.about != "sanity":      # a trained net's single value: no interval yet
            return Verdict(UNDECIDED, estimate=d[0], lo=-math.inf, hi=math.inf,
                           reason="one seed: no interval yet", **base)
        est, lo, hi, p = mean_bounds(d, alpha)
    return Verdict(decide(estimand, est, lo, hi, bar, margin, claim.op), estimate=est, lo=lo, hi=hi, p=p, **base)


def distinct_bands(bands: list[list[Seed]]) -> list[list[Seed]]:
    """The bands that bring new seeds, in order: a band whose seeds were all seen in an earlier band (a re-run on
    another machine or thread count) joins that band's observations (`pool` averages them) instead of counting as
    a band of its own; empty bands are dropped."""
    held: list[list[Seed]] = []
    seen: dict = {}
    for band in bands:
        if not band:
            continue
        ids = [s.seed for s in band]
        if None not in ids and all(i in seen for i in ids):
            for s in band:
                held[seen[s.seed]].append(s)
            continue
        held.append(list(band))
        for i in ids:
            if i is not None:
                seen.setdefault(i, len(held) - 1)
    return held


def judge(claim, bands: list[list[Seed]], profile: str = "quick", *, control: bool = False,
          paired: bool = False) -> Verdict:
    """The claim's verdict on its seed `bands` (in the order they were run), read at the profile's looks: the first
    look that decides stands; where none does, undecided, with `more_seeds` while the cap is not reached. Evidence
    beyond the cap is read at the last look. The claim's control (its `control` values) is judged alike (`control`)
    and combined: a reproduced claim stays reproduced where its control is decided not reproduced, or, where the
    control's own verdict is at the bar or undecided, where the claim beats its control seed by seed (`paired`: the
    per-seed difference decided past 0); a control decided reproduced makes it not reproduced."""
    schedule = rules.looks(profile)
    alpha = rules.look_alpha(profile)
    held = distinct_bands(bands)
    if not held:
        return Verdict(UNDECIDED, looks=len(schedule), more_seeds=True, reason="no seed measured yet")
    # the looks: the schedule's, those beyond the bands held read at all of them (at most as many looks as the
    # schedule allows, so the error split over them still bounds the whole)
    taken = sorted({min(b, len(held)) for b in schedule[:-1]} | {len(held)})
    best_p, out = 1.0, None
    for i, b in enumerate(taken, 1):
        seeds = pool([s for band in held[:b] for s in band])
        out = _paired_look(claim, seeds, alpha) if paired else _one_look(claim, seeds, alpha, control=control)
        best_p = min(best_p, out.p)
        out.look = i
        if out.outcome != UNDECIDED:
            break
    out.looks = len(schedule)
    out.p = min(1.0, best_p * len(schedule))
    out.more_seeds = out.outcome == UNDECIDED and len(held) < schedule[-1]
    if control or paired or not claim.control:
        return out
    c = judge(claim, bands, profile, control=True)
    out.control = {"outcome": c.outcome, "estimate": c.estimate, "lo": c.lo, "hi": c.hi, "n": c.n,
                   "interval": c.interval()}
    if out.outcome == REPRODUCED:
        if c.outcome == REPRODUCED:
            out.outcome, out.reason = NOT_REPRODUCED, (f"its control passes the same test ({claim.control_is}: "
                                                       f"{c.interval()}): the test tells nothing")
        elif c.outcome != NOT_REPRODUCED:
            d = judge(claim, bands, profile, paired=True)
            out.control["paired"] = f"{d.outcome}: the claim minus its control per seed, {d.interval()}"
            if d.outcome != REPRODUCED:
                out.outcome = UNDECIDED
                out.reason = (f"its control is {c.outcome} ({c.interval()}) and the claim does not yet beat it seed "
                              f"by seed (the difference {d.interval()})")
                out.more_seeds = c.more_seeds or d.more_seeds
    return out


# ---------------------------------------------------------------------------------------------------- from runs

def _as_list(v) -> list:
    return list(v) if isinstance(v, (list, tuple)) else [v]


def _per_seed(v, n: int) -> list | None:
    """`v` as n per-seed values: a band of n as it is, one number for every seed; None where it cannot be."""
    if v is None:
        return None
    xs = _as_list(v)
    if len(xs) == n:
        return xs
    return xs * n if len(xs) == 1 else None


def _gate_per_seed(claim, metrics: dict, n: int) -> list[bool]:
    """Whether each of the n seeds passed every fit gate of the claim; a gate band of another length holds for a
    seed only where it holds on all of its own seeds (the stricter reading)."""
    ok = [True] * n
    for g in claim.gates:
        gv = metrics.get(g.metric)
        gt = metrics.get(g.threshold) if isinstance(g.threshold, str) else g.threshold
        if gv is None or gt is None:
            return [False] * n
        vs, ts = _per_seed(gv, n), _per_seed(gt, n)
        if vs is None or ts is None:
            every = all(_finite(v, t) and holds_one(float(v), g.op, float(t))
                        for v in _as_list(gv) for t in _as_list(gt))
            ok = [o and every for o in ok]
            continue
        ok = [o and _finite(v, t) and holds_one(float(v), g.op, float(t)) for o, v, t in zip(ok, vs, ts)]
    return ok


def band_of(claim, metrics: dict | None, seed0=None) -> list[Seed]:
    """The claim's observations in one run's `metrics`, one per seed of its band: seed ids seed0, seed0 + 1, ... (a
    notebook's band starts at its run's seed), or None where `seed0` is None. Empty where the metric is absent."""
    if not metrics:
        return []
    value = metrics.get(claim.metric)
    thr = metrics.get(claim.threshold) if isinstance(claim.threshold, str) else claim.threshold
    if value is None or thr is None:
        return []
    n = len(_as_list(value))
    vs, ts = _per_seed(value, n), _per_seed(thr, n)
    if ts is None:
        return []
    fitted = _gate_per_seed(claim, metrics, n)
    cv = ct = [None] * n
    if claim.control:
        c = metrics.get(claim.control)
        cthr = thr if claim.control_threshold is None else (
            metrics.get(claim.control_threshold) if isinstance(claim.control_threshold, str)
            else claim.control_threshold)
        cvs, cts = _per_seed(c, n), _per_seed(cthr, n)
        if cvs is not None and cts is not None:
            cv, ct = cvs, cts
    return [Seed(None if seed0 is None else seed0 + i, _num(v), _num(t), f, _num(a), _num(b))
            for i, (v, t, f, a, b) in enumerate(zip(vs, ts, fitted, cv, ct))]


def _num(x):
    try:
        return None if x is None else float(x)
    except (TypeError, ValueError):
        return float("nan")


# ---------------------------------------------------------------------------------------------------- from an envelope

def evidence(body: dict, claim) -> list[list]:
    """The claim's seed bands in `body`'s envelope, one per variation that stored its values, in the variations'
    order (the order they were run; joined earlier ones after): each a list of `verdict.Seed`, their ids the
    variation's seed for the notebook plus the index in its band, so a seed run again on another machine is
    recognised as the same seed (`verdict.pool`)."""
    env = body.get("envelope") or {}
    stored = (env.get("values") or {}).get(claim.notebook) or {}
    bands = []
    for v in env.get("variations", []):
        name = v["name"]
        if name not in (stored.get(claim.metric) or {}):
            continue
        metrics = {k: by[name] for k, by in stored.items() if name in by}
        seed0 = (v.get("seed_by_notebook") or {}).get(claim.notebook, v.get("seed"))
        bands.append(band_of(claim, metrics, seed0=seed0))
    return bands


def of_envelope(body: dict, profile: str | None = None, claims: list | None = None) -> dict:
    """Every claim's verdict over the seeds `body`'s envelope stores (`claims.verdict.judge` at the profile's looks):
    {claim id: Verdict}; claims with no stored values are left out."""
    profile = profile or body.get("profile") or "quick"
    out = {}
    for c in claims if claims is not None else _all_claims():
        bands = evidence(body, c)
        if any(bands):
            out[c.id] = judge(c, bands, profile)
    return out


def _all_claims() -> list:
    """Every claim of the package (`memlib.claims.CLAIMS`), read from the loaded package: this module is one of its
    modules, so it cannot import the package at its top."""
    return sys.modules["memlib.claims"].CLAIMS


def contradictions(rows: list[dict], baseline: dict, claims: list | None = None) -> list[dict]:
    """The claims whose verdict over this run's seeds is decided (reproduced or not reproduced) and contradicts the
    verdict the baseline's envelope decided over its stored seeds: a regression under the verdict rule. A verdict at
    the bar or undecided on either side contradicts nothing."""
    found = of_envelope(baseline, baseline.get("profile"), claims)
    out = []
    for r in rows:
        now, was = (r.get("verdict") or {}).get("outcome"), getattr(found.get(r["id"]), "outcome", None)
        if {now, was} == {REPRODUCED, NOT_REPRODUCED}:
            out.append({"id": r["id"], "now": now, "envelope": was, "interval": found[r["id"]].interval()})
    return out


# ---------------------------------------------------------------------------------------------------- across claims

def across_claims(verdicts: dict[str, Verdict]) -> dict:
    """What the verdicts of many claims say together: how many were judged, the expected number of false
    reproductions (at most ALPHA for each claim judged), and the reproduced claims Benjamini-Hochberg keeps at FDR
    (scipy.stats.false_discovery_control on every judged claim's p-value)."""
    judged = {c: v for c, v in verdicts.items() if v.n > 0}
    ids = sorted(judged)
    kept: list = []
    if ids:
        adjusted = stats.false_discovery_control([judged[c].p for c in ids], method="bh")
        kept = [c for c, q in zip(ids, adjusted) if q <= rules.FDR and judged[c].outcome == REPRODUCED]
    reproduced = [c for c in ids if judged[c].outcome == REPRODUCED]
    return {"judged": len(ids), "reproduced": len(reproduced),
            "expected_false_reproductions_at_most": round(rules.ALPHA * len(ids), 2),
            "kept_by_bh": kept, "dropped_by_bh": sorted(set(reproduced) - set(kept))}
