"""Verdicts over seeds (memlib/claims/verdict.py, docs/CLAIM_RULES.md "Verdicts over seeds"): simulated bands show that
the rule converges as seeds are added, where the seed-band rule it replaces could not; the bounds against closed forms
and brute force; pooling, fit gates and controls per seed."""
import json
import math
import random
from pathlib import Path

import pytest

from memlib.claims import core, rules, verdict
from memlib.claims.verdict import AT_BAR, NOT_REPRODUCED, REPRODUCED, UNDECIDED, Seed

ROOT = Path(__file__).resolve().parents[1]


def _claim(**kw):
    base = dict(id="t.x", paper=1, figure="Fig 1", quote="a sentence of the paper, quoted in full here",
                statement="what is measured", metric="m", op=">", threshold=0.8, rule="is",
                expect={"quick": core.REPRODUCED, "paper": core.REPRODUCED}, fit=("g.loss_ratio < 0.05",))
    return core.Claim(**{**base, **kw})


def _bands(rng, mean, sd, bands=4, size=3, bar=0.8, start=0):
    """`bands` seed bands of `size` seeds, value ~ N(bar + mean, sd), seed ids as a notebook's bands give them."""
    return [[Seed(start + 10 * b + i, rng.gauss(bar + mean, sd), bar) for i in range(size)] for b in range(bands)]


def _sequential(claim, bands, profile="quick"):
    """What the sequential rule does: judge after each look's bands and add bands only while undecided."""
    for b in rules.looks(profile):
        v = verdict.judge(claim, bands[:b], profile)
        if not v.more_seeds:
            return v
    return v


# ------------------------------------------------------------------------ the done-when properties, simulated

def test_a_claim_one_and_a_half_standard_deviations_past_its_bar_is_reproduced_by_the_cap():
    rng = random.Random(1)
    outcomes = [_sequential(_claim(), _bands(rng, 1.5 * 0.05, 0.05)).outcome for _ in range(2000)]
    assert outcomes.count(REPRODUCED) / len(outcomes) >= 0.95
    assert outcomes.count(NOT_REPRODUCED) == 0


def test_a_claim_exactly_at_its_bar_is_at_the_bar_or_undecided_and_rarely_reproduced():
    rng = random.Random(2)
    for sd in (0.01, 0.05, 0.2):          # spreads well inside, about at and far beyond the margin (0.05)
        outcomes = [_sequential(_claim(), _bands(rng, 0.0, sd)).outcome for _ in range(2000)]
        assert outcomes.count(REPRODUCED) / len(outcomes) <= 0.05, sd
        assert outcomes.count(NOT_REPRODUCED) / len(outcomes) <= 0.05, sd
        if sd == 0.01:                    # a tight spread settles at the bar
            assert outcomes.count(AT_BAR) / len(outcomes) >= 0.9


def test_the_share_of_undecided_claims_falls_as_seeds_are_added():
    """A population of claims whose effects lie from 2 standard deviations short of the bar to 2 past it: the more
    bands a profile may add, the fewer stay undecided; under the seed-band rule the unstable share rose instead."""
    rng = random.Random(3)
    effects = [rng.uniform(-2, 2) * 0.05 for _ in range(400)]
    population = [_bands(rng, e, 0.05, bands=8) for e in effects]
    undecided = {}
    for cap in (1, 2, 4, 8):
        profile = {1: "smoke", 2: "paper", 4: "quick"}.get(cap)
        if profile is None:
            rules.LOOKS["_test8"] = (1, 2, 4, 8)
            profile = "_test8"
        try:
            undecided[cap] = sum(_sequential(_claim(), b, profile).outcome == UNDECIDED for b in population)
        finally:
            rules.LOOKS.pop("_test8", None)
    assert undecided[1] > undecided[2] > undecided[4] > undecided[8]
    # the rule it replaces: a band holds when every seed holds and its mean is 2 standard errors past the bar; a claim
    # is unstable when its bands disagree. More bands, more unstable claims.
    unstable = {}
    for bands in (1, 2, 4, 8):
        unstable[bands] = sum(len({core.band_holds([s.value for s in band], ">", 0.8)[0] for band in b[:bands]}) > 1
                              for b in population)
    assert unstable[1] < unstable[2] < unstable[4] < unstable[8]


def test_the_error_over_every_look_stays_within_five_percent_for_a_claim_just_short_of_its_bar():
    rng = random.Random(4)
    outcomes = [_sequential(_claim(), _bands(rng, -0.001, 0.05)).outcome for _ in range(3000)]
    assert outcomes.count(REPRODUCED) / len(outcomes) <= rules.ALPHA


# ------------------------------------------------------------------------ the bounds against independent references

def test_the_t_bound_of_two_seeds_is_cauchys_quantile():
    """Student's t with one degree of freedom is Cauchy's: its quantile is tan(pi (q - 1/2))."""
    d = [0.1, 0.3]
    mean, lo, hi, p = verdict.mean_bounds(d, 0.05)
    se = math.sqrt(((0.1 - 0.2) ** 2 + (0.3 - 0.2) ** 2) / 1) / math.sqrt(2)
    q = math.tan(math.pi * (0.95 - 0.5))
    assert mean == pytest.approx(0.2) and lo == pytest.approx(0.2 - q * se) and hi == pytest.approx(0.2 + q * se)
    assert p == pytest.approx(0.5 - math.atan(0.2 / se) / math.pi)      # Cauchy's upper tail
    assert verdict.mean_bounds([0.3, 0.3, 0.3], 0.05) == (pytest.approx(0.3), pytest.approx(0.3),
                                                          pytest.approx(0.3), 0.0)


def test_the_clopper_pearson_bounds_against_the_binomial_tails_by_brute_force():
    def tail_ge(k, n, q):
        return sum(math.comb(n, j) * q ** j * (1 - q) ** (n - j) for j in range(k, n + 1))
    k, n, a = 9, 12, 0.025
    share, lo, hi, p = verdict.share_bounds(k, n, a, 0.5)
    assert share == 0.75
    assert tail_ge(k, n, lo) == pytest.approx(a, rel=1e-6)              # P(X >= k | lo) = a
    assert 1 - tail_ge(k + 1, n, hi) == pytest.approx(a, rel=1e-6)      # P(X <= k | hi) = a
    assert p == pytest.approx(tail_ge(k, n, 0.5))
    # every seed holding: the lower bound is a^(1/n)
    assert verdict.share_bounds(12, 12, a, 0.5)[1] == pytest.approx(a ** (1 / 12))


def test_the_share_rows_judge_the_share_of_seeds_against_their_bar():
    claim = _claim(rule="more_per_item", op="<", threshold=0.05)
    every = [[Seed(i + 10 * b, 0.01, 0.05) for i in range(3)] for b in range(4)]
    assert verdict.judge(claim, every[:1], "quick").outcome == UNDECIDED     # 3 of 3 cannot confirm > half
    v = verdict.judge(claim, every, "quick")
    assert v.outcome == REPRODUCED and v.estimand == rules.SHARE and v.n == 6 and v.look == 2
    none = [[Seed(i + 10 * b, 0.3, 0.05) for i in range(3)] for b in range(2)]
    assert verdict.judge(claim, none, "quick").outcome == NOT_REPRODUCED


# ------------------------------------------------------------------------ pooling, fit gates, controls

def test_a_seed_run_again_on_another_machine_is_not_a_new_seed():
    a = [Seed(0, 0.90, 0.8), Seed(1, 0.92, 0.8), Seed(2, 0.91, 0.8)]
    again = [Seed(0, 0.94, 0.8), Seed(1, 0.90, 0.8), Seed(2, 0.91, 0.8)]      # the same seeds, other arithmetic
    assert verdict.distinct_bands([a, again]) == [a + again]
    pooled = verdict.pool(a + again)
    assert [s.seed for s in pooled] == [0, 1, 2] and pooled[0].value == pytest.approx(0.92)
    v = verdict.judge(_claim(), [a, again], "quick")
    assert v.n == 3 and v.look == 1


def test_a_seed_that_missed_its_fit_gate_is_left_out_and_counted_and_too_many_do_not_fit():
    band = [Seed(i, 0.95, 0.8, fitted=i != 1) for i in range(6)]
    v = verdict.judge(_claim(), [band[:3], band[3:]], "quick")
    assert v.n == 5 and v.unfitted == 1 and v.outcome == REPRODUCED
    most = [Seed(i, 0.95, 0.8, fitted=i == 0) for i in range(3)]
    v = verdict.judge(_claim(), [most], "quick")
    assert v.outcome == NOT_REPRODUCED and "did not fit" in v.reason
    # from a run's metrics: the gate judged per seed
    metrics = {"m": [0.95, 0.96, 0.97, 0.95], "g.loss_ratio": [0.01, 0.2, 0.01, 0.01]}
    seeds = verdict.band_of(_claim(), metrics, seed0=100)
    assert [s.fitted for s in seeds] == [True, False, True, True] and [s.seed for s in seeds] == [100, 101, 102, 103]


def test_a_claim_is_reproduced_only_where_its_control_is_decided_to_fail():
    claim = _claim(control="m.untrained", control_is="the same nets untrained")
    def band(c):
        return [[Seed(i + 10 * b, 0.95, 0.8, control=c, control_threshold=0.8) for i in range(3)] for b in range(2)]
    assert verdict.judge(claim, band(0.1)).outcome == REPRODUCED
    passes = verdict.judge(claim, band(0.95))
    assert passes.outcome == NOT_REPRODUCED and "tells nothing" in passes.reason
    rng = random.Random(5)
    near = [[Seed(i + 10 * b, 0.95, 0.8, control=0.8 + rng.gauss(0, 0.2), control_threshold=0.8)
             for i in range(3)] for b in range(1)]
    undecided = verdict.judge(claim, near)
    assert undecided.outcome == UNDECIDED and "seed by seed" in undecided.reason and undecided.more_seeds
    # a control at its bar (a 'more' claim's untrained twin showing no difference): the claim beats it seed by seed
    at_bar = [[Seed(i + 10 * b, 0.95 + 0.01 * i, 0.8, control=0.8 + 0.002 * (i - 1), control_threshold=0.8)
               for i in range(3)] for b in range(2)]
    v = verdict.judge(claim, at_bar)
    assert v.outcome == REPRODUCED and v.control["outcome"] == AT_BAR and v.control["paired"].startswith(REPRODUCED)
    # the per-seed difference against its closed form: (0.95 - 0.8) - (0.8 - 0.8) on every seed
    assert verdict.judge(claim, band(0.8), paired=True).estimate == pytest.approx(0.15)


def test_figure_11s_probe_of_a_hundred_untrained_nets_is_decided():
    """The probe the seed-band rule left unstable forever (mean 0.42 against the bar 0.5, 97 of 100 seeds below)."""
    measured = json.loads((ROOT / "benchmarks/probes/measured/paper1_fig11_layers_shapes_500.json").read_text())
    values = [r["svd_max_beyond"] for r in measured["rows"] if r["channels"] == 32]
    claim = _claim(op="<", threshold=0.5, rule="random", about="init", fit=())
    bands = [[Seed(r, v, 0.5) for r, v in enumerate(values[i:i + 3], start=i)] for i in range(0, len(values), 3)]
    v = verdict.judge(claim, bands, "quick")
    assert v.outcome == REPRODUCED and v.look == 1                    # the first band already decides it
    every = verdict.judge(claim, [[Seed(r, x, 0.5) for r, x in enumerate(values)]], "quick")
    assert every.outcome == REPRODUCED and every.n == len(values) and every.estimate == pytest.approx(0.5 - 0.422,
                                                                                                      abs=0.01)


def test_across_claims_counts_the_expected_false_reproductions_and_benjamini_hochberg():
    strong = verdict.Verdict(REPRODUCED, n=12, p=1e-6)
    weak = verdict.Verdict(REPRODUCED, n=6, p=0.04)
    out = verdict.across_claims({"a": strong, "b": weak, **{f"c{i}": verdict.Verdict(UNDECIDED, n=3, p=0.6)
                                                            for i in range(8)}})
    assert out["judged"] == 10 and out["expected_false_reproductions_at_most"] == pytest.approx(0.5)
    assert out["kept_by_bh"] == ["a"] and out["dropped_by_bh"] == ["b"]


# ------------------------------------------------------------------------ regressions under the verdict rule

def _numeric_claim():
    from memlib import claims
    return next(c for c in claims.CLAIMS if c.notebook == claims.NOTEBOOKS[4] and not isinstance(c.threshold, str)
                and c.fit and not c.control and c.rule not in ("some", "more_per_item") and c.scale == "linear"
                and all(not isinstance(g.threshold, str) for g in c.gates))


def _run_metrics(c, values):
    m = {c.metric: list(values)}
    for g in c.gates:
        m[g.metric] = [g.threshold / 2 if g.op in ("<", "<=") else g.threshold * 2 + 1] * len(values)
    return m


def test_a_run_whose_decided_verdict_contradicts_the_envelopes_or_whose_seed_leaves_its_seeds_is_a_regression():
    from memlib.claims import comparison, report
    c = _numeric_claim()
    t, up = float(c.threshold), 1 if c.op in (">", ">=") else -1
    past = [t + up * x for x in (0.30, 0.31, 0.32)]
    short = [t - up * x for x in (0.30, 0.31, 0.32)]
    bands = {"base": past, "seeds+10": [t + up * x for x in (0.28, 0.33, 0.30)]}
    base_metrics = _run_metrics(c, past)
    baseline = {"profile": "quick", "notebooks": {c.notebook: {"metrics": base_metrics}},
                "claims": report.evaluate_all([c], {c.notebook: {"metrics": base_metrics}}, "quick"),
                "envelope": {"outcomes": {}, "metrics": {},
                             "variations": [{"name": "base", "seed_by_notebook": {c.notebook: 0}},
                                            {"name": "seeds+10", "seed_by_notebook": {c.notebook: 10}}],
                             "values": {c.notebook: {c.metric: bands,
                                                     **{g.metric: {v: base_metrics[g.metric] for v in bands}
                                                        for g in c.gates}}}}}
    assert verdict.of_envelope(baseline)[c.id].outcome == REPRODUCED

    def compare(values):
        results = {c.notebook: {"metrics": _run_metrics(c, values), "provenance": {"parameters": {"seed": 100}}}}
        rows = report.evaluate_all([c], results, "quick")
        return rows[0], comparison.compare(rows, results, baseline)
    row, same = compare([t + up * x for x in (0.29, 0.32, 0.31)])
    assert row["verdict"]["outcome"] == REPRODUCED and same["contradictions"] == []
    assert not [d for d in same["drifts"] if d["metric"] == c.metric]
    row, flipped = compare(short)
    assert row["verdict"]["outcome"] == NOT_REPRODUCED
    assert [x["id"] for x in flipped["contradictions"]] == [c.id]
    assert any(c.id in line and "envelope's seeds decided reproduced" in line
               for line in comparison.regressions([], flipped))
    assert [d for d in flipped["drifts"] if d["metric"] == c.metric and d.get("per_seed")]
    # one seed inside the envelope's per-seed values but whose band's mean is not: no drift (per seed, not means)
    _, spread = compare([t + up * 0.28, t + up * 0.33, t + up * 0.33])
    assert not [d for d in spread["drifts"] if d["metric"] == c.metric]
