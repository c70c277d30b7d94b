"""The rule from the papers' words to tests: which statistic and which threshold each kind of statement maps to.

A claim quotes a sentence and turns it into a comparison (`core.Claim`). The same words must become the same test
everywhere, and the test must be chosen from the words, before any run is looked at. This table is that choice,
written once (docs/CLAIM_RULES.md explains each row with examples). Every claim names the row it applies
(`Claim.rule`), and the report shows it beside the claim.

Scores. Most of the papers' statements are about *how much a prediction looks like* something: the input (the
identity map), the training image (the constant map / a point map / an attractor). The score of that is Pearson's
correlation r on [-1, 1] (`memlib.pearson`), whose square is the share of the prediction's variance the map
explains. The levels below are therefore stated in r with their r^2:

* r >= 0.8 (r^2 >= 0.64: the map explains about two thirds of the variance): the prediction **is** the map;
* r >= 0.5 (r^2 >= 0.25): a **strong** bias towards the map;
* r < 0.5 on both maps: neither: **random** / unstructured.

A gap between two scores on [0, 1] counts as **much / drastically** different at 0.3 or more, and a ratio of two
positive unbounded quantities at a factor of 2 or more, judged on the log scale.

Seeds and items. A statement about the items of a set (test inputs, probes, images) is judged per seed on the items
first (the rows `every`, `most`, `some`, `more per item`); the per-seed values are then judged over seeds.

Verdicts over seeds (`ESTIMANDS`, `ALPHA`, `LOOKS`, `margin`; docs/CLAIM_RULES.md, "Verdicts over seeds"). Each row
names its *estimand*: the mean over seeds of the per-seed statistic's distance past the threshold, on the claim's
scale, or, for a per-seed yes/no, the share of seeds on which the statement holds, against the row's share bar.
Every seed the evidence holds is pooled (a re-run of one seed on another machine is that seed again, not a new one),
and one-sided 95 % bounds give one of four outcomes: reproduced (past the bar), not reproduced (short of it), at the
bar (the interval within the row's margin of the bar) or undecided (none of these by the profile's seed cap). Seeds
are added in bands, only where a claim is undecided, at looks fixed in advance, with the error split over the looks.
`memlib.claims.verdict` applies it with scipy.stats.

This module only states the rule; `core` and `verdict` apply it, and `core` validates that a claim's rule names a
row here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

# the levels of a correlation score (Pearson's r), shared by every row that names one
IS_MAP = 0.8          # "is / learns / behaves like / approximates" the map: r^2 >= 0.64
STRONG = 0.5          # "strong bias towards": r^2 >= 0.25
RANDOM_BELOW = 0.5    # "random": r below this on every map the paper names
MUCH_GAP = 0.3        # "much / drastically / very different" on a [0, 1] score
MUCH_FACTOR = 2.0     # "much larger / orders of" on a positive unbounded quantity: a factor, on the log scale
EVERY_FRACTION = 0.9  # "every / all / always" over the items of a set: at least this fraction of them, per seed
MOST_FRACTION = 0.5   # "most": more than half
NONZERO_SHARE = 0.01  # "non-zero": more than 1 % of the reference quantity the paper compares it with
BEGINS_GAP = 0.1      # "begins to": moved at least this far (on a [0, 1] score) from the control, towards the map
NEAR_SCORE = 0.2      # "near / close to" on a [0, 1] score: within this of the value
NEAR_RELATIVE = 0.1   # "near / close to / approximately" for an unbounded quantity: within 10 % of it
SIGN_TEST_P = 0.05    # "more / less" compared item by item: one-sided sign test, p below this, per seed


# ------------------------------------------------------------------ verdicts over seeds (written before any run)
ALPHA = 0.05           # the one-sided error of a verdict, over all its looks: P(reproduced | at or short of the bar)
MEAN, SHARE = "mean", "share"   # the two estimands a row may name
ESTIMANDS = {
    MEAN: "the mean over seeds of the per-seed statistic's distance past the threshold, on the claim's scale (the "
          "log for ratios); bounds from Student's t",
    SHARE: "the share q of seeds on which the per-seed statement holds (a yes/no or a count per seed), against the "
           "row's share bar; bounds from Clopper-Pearson",
}
# The share a yes/no statement must hold on. The papers show one run and call it typical: "typically" is more than
# half of the seeds. A sentence saying "always" or "every run" over runs would ask for 0.9, which a seed cap of 12
# cannot confirm at the 5 % level (12 of 12 seeds give a lower bound of 0.71 with three looks); no claim quotes one.
SHARE_BAR = {"typically": 0.5, "always": 0.9}
# "At the bar": the interval lies within this of the bar, on the claim's scale; the statement's effect is too small
# to call either way. A twentieth of a [0, 1] score (a quarter of the 0.2 at which the papers' figures show a score,
# `NEAR_SCORE`); a factor of 1.1 on the log scale (the papers' figures' 10 %, `NEAR_RELATIVE`); 0.1 of a share of
# seeds. A row may set its own (`Rule.margin`): `exact` has none (a theorem holds or not), `nonzero` half its bar.
MARGIN = {"linear": 0.05, "log": math.log(1.1), SHARE: 0.1}
# The looks of the sequential rule: after how many seed bands (cumulative) a verdict is taken, per profile; the last
# is the cap. A band is a notebook's own seed band (3 or 5 seeds at quick), so quick looks at 3, 6 and 12 seeds of a
# 3-seed band. Seeds are added only to notebooks that hold an undecided claim. The error is split equally over the
# looks (alpha spending, Bonferroni's bound): each look's bounds are one-sided at ALPHA / len(looks), so the chance of
# a false reproduction over every look is at most ALPHA, however the looks fall.
LOOKS = {"smoke": (1,), "quick": (1, 2, 4), "full": (1, 2, 4), "paper": (1, 2)}
# Fit gates per seed: a seed whose net missed its gate is left out of the pool and counted; a claim keeps its verdict
# only while at least this many seeds, and at least this share of them, fitted (else "not reproduced: did not fit").
MIN_FITTED = 3
FITTED_SHARE = 0.5
# Across the claims: the expected number of false reproductions is at most ALPHA times the number of claims judged;
# the report also gives the claims that Benjamini-Hochberg keeps at this false discovery rate (scipy.stats).
FDR = 0.05


def looks(profile: str) -> tuple:
    """The looks (cumulative seed bands) of `profile`; a profile the table does not name takes quick's."""
    return LOOKS.get(profile, LOOKS["quick"])


def look_alpha(profile: str) -> float:
    """The one-sided error of each look's bounds at `profile`: ALPHA split equally over its looks."""
    return ALPHA / len(looks(profile))


@dataclass(frozen=True)
class Rule:
    """One row: the words it covers, the statistic, the threshold, and why that threshold; then how its claims are
    judged over seeds: the estimand (MEAN or SHARE), the share bar of a SHARE row, and the margin of "at the bar"
    where the row sets its own (None: `MARGIN` by the claim's scale)."""
    name: str
    words: str
    statistic: str
    threshold: str
    why: str
    estimand: str = MEAN
    share_bar: float | None = None
    margin: float | None = None

    def margin_on(self, scale: str) -> float:
        """The margin of "at the bar" for a claim of this row judged on `scale`."""
        if self.margin is not None:
            return self.margin
        return MARGIN[SHARE] if self.estimand == SHARE else MARGIN[scale]

    def over_seeds(self) -> str:
        """The estimand and "at the bar" margin, in words (the table's last columns)."""
        if self.estimand == SHARE:
            return (f"share of seeds > {self.share_bar:g}", f"+-{self.margin_on('linear'):g} of the share")
        m = ("none (it holds or not)" if self.margin == 0 else f"+-{self.margin:g}" if self.margin is not None
             else f"+-{MARGIN['linear']:g}; log scale +-log {math.exp(MARGIN['log']):.1f}")
        return "mean past the threshold", m


RULES: dict[str, Rule] = {r.name: r for r in [
    # ------------------------------------------------------------------ what a prediction is
    Rule("is", "is / learns / implements / behaves like / approximates / maps to <a map>; 'fails to' is its negation",
         "Pearson's r between the prediction and the map's output (the input for the identity, the training image "
         "for the constant or a point map), mean over the test inputs, per seed",
         f"r >= {IS_MAP} for the statement, r < {IS_MAP} for its negation ('fails to', 'no longer')",
         f"r^2 >= {IS_MAP ** 2:.2f}: the map explains about two thirds of the prediction's variance"),
    Rule("bias", "a bias / tends / drifts / moves towards <a map> (no adjective)",
         "the score of the named map against the score of the alternative the paper names (the identity against "
         "the constant), per seed", "the named map's r above the alternative's",
         "the words say which of two maps the net is nearer, not how near"),
    Rule("strong_bias", "a strong bias towards / strongly biased to <a map>",
         "Pearson's r with the named map, per seed, and with the alternative",
         f"r >= {STRONG} and above the alternative's r",
         f"r^2 >= {STRONG ** 2:.2f}: the map explains at least a quarter of the variance; 'is' ({IS_MAP}) is "
         "stronger than the words"),
    Rule("random", "random / unstructured / completely random / no recognisable map",
         "Pearson's r with every map the paper names (identity, constant), per seed",
         f"every |r| < {RANDOM_BELOW}",
         f"neither map explains a quarter of the variance (the negation of 'strong_bias')"),
    # ------------------------------------------------------------------ quantifiers over items and seeds
    Rule("every", "every / all / always / each, over the items of a set (test inputs, probes, images)",
         "per seed, the fraction of items for which the item's statement holds",
         f"at least {EVERY_FRACTION:.0%} of the items, per seed (the worst item alone decides nothing)",
         "a finite test set and float arithmetic give outliers; the worst item is a statistic of the tail, "
         "not of the statement"),
    Rule("most", "most / the majority / generally / typically, over items",
         "per seed, the fraction of items for which the item's statement holds", f"more than {MOST_FRACTION:.0%}",
         "the word's meaning"),
    Rule("some", "some / can / may / there exist, over items",
         "per seed, the number of items for which the item's statement holds", "at least one item, on a typical seed",
         "an existence statement; a typical seed, so that one lucky seed is not the finding",
         estimand=SHARE, share_bar=SHARE_BAR["typically"]),
    Rule("seeds", "a statement about trained nets with no quantifier (the paper shows one run)",
         "the statistic per seed, pooled over every seed the evidence holds",
         "the mean over seeds past the threshold, by its one-sided bound",
         "the paper's one run is one draw from the seeds; its statement is about the typical net"),
    # ------------------------------------------------------------------ comparatives
    Rule("more", "more / less / higher / lower / better / worse / grows / drops / increases with <a variable>",
         "the paired difference (or, along a variable, the difference between its ends) per seed",
         "> 0, the mean over seeds by its one-sided bound; no size is asked",
         "the words state a direction, not a size"),
    Rule("more_per_item", "more / less, compared item by item (per test input, per image, per layer)",
         "per seed, a one-sided sign test over the items' paired differences",
         f"p < {SIGN_TEST_P} on a typical seed", "a direction over many items; the sign test asks no distribution",
         estimand=SHARE, share_bar=SHARE_BAR["typically"]),
    Rule("much", "much / far / drastically / very different / vastly / dramatically / a large gap",
         "the difference of two [0, 1] scores, or the log of the ratio of two positive quantities, per seed",
         f"a gap >= {MUCH_GAP} on a [0, 1] score; a factor >= {MUCH_FACTOR:g} (log ratio >= log {MUCH_FACTOR:g}) "
         "otherwise, over seeds",
         f"{MUCH_GAP} is a third of the range of a score the papers read by eye; a factor of 2 is the least "
         "that reads as 'much' on a log axis"),
    Rule("slightly", "slightly / a little / somewhat",
         "the same difference as 'more'", f"> 0 and, for a [0, 1] score, below {MUCH_GAP}",
         "the direction of 'more', short of 'much'"),
    Rule("ratio", "X times / orders of magnitude / proportional to, between positive unbounded quantities",
         "the log of the ratio, per seed (Claim.scale = 'log')",
         "the stated factor, on the log scale, over seeds",
         "ratios of norms, errors and eigenvalues are heavy-tailed: their mean and standard error mean something "
         "only on the log scale"),
    # ------------------------------------------------------------------ degrees of change
    Rule("nonzero", "non-zero / still / do get updates / moves",
         "the quantity against the reference the paper compares it with (the largest layer's change, the "
         "untrained value)", f"> {NONZERO_SHARE:.0%} of the reference, per seed",
         "above any rounding, and far below anything the paper would call large", margin=NONZERO_SHARE / 2),
    Rule("begins", "begins to / starts to / emerges",
         "the score at the point named, against the same score of the control (shallower net, earlier step, "
         "untrained net)", f"moved >= {BEGINS_GAP} towards the map, over seeds",
         "a start, not an arrival: 'is' would be stricter than the words"),
    Rule("near", "near / close to / approximately / about <a value>",
         "the distance to the value",
         f"within {NEAR_SCORE} on a [0, 1] score, within {NEAR_RELATIVE:.0%} (relative) otherwise",
         "the papers' figures show their values to about this precision"),
    Rule("fit", "converges / fits / reaches the loss / reconstructs the training set",
         "the final loss against the zero prediction's loss (loss_ratio); where training runs at a constant learning "
         "rate and the loss at any one epoch is a noisy sample (paper 4), its mean over the last 10 % of recorded "
         "epochs, and the misclassified training count as its median there",
         "below the stated loss, else 5 %",
         "the fit gate's own level (core.FIT_RATIO); one epoch of a noisy series is a draw, not the net's state "
         "(amended 2026-11-28)"),
    # ------------------------------------------------------------------ exact statements
    Rule("exact", "equals / is rank k / is an eigenvector / lies in the span (a statement of linear algebra)",
         "the residual or count the statement names, computed in float64", "the stated value, within a tolerance "
         "set by float32 training (1e-3 relative for residuals, the numerical rank for ranks)",
         "a theorem's statement holds exactly; only the arithmetic is approximate", margin=0.0),
    Rule("order", "ordering along a variable the paper varies (with depth, with width, with rho)",
         "Spearman's rank correlation of the statistic with the variable, or the ends' difference, per seed",
         "the stated sign, over seeds", "the words give the order, not its size"),
]}


def rule(name: str) -> Rule:
    """The row `name`; a clear error for an unknown one."""
    if name not in RULES:
        raise KeyError(f"no rule {name!r} in memlib/claims/rules.py; the rows are: {', '.join(RULES)}")
    return RULES[name]


def markdown() -> str:
    """The table as markdown (docs/CLAIM_RULES.md is checked against it: tests/test_rules.py)."""
    head = ("| rule | the paper's words | statistic | threshold | why | over seeds | at the bar |\n"
            "|---|---|---|---|---|---|---|\n")
    return head + "\n".join(f"| `{r.name}` | {r.words} | {r.statistic} | {r.threshold} | {r.why} | "
                            + " | ".join(r.over_seeds()) + " |" for r in RULES.values()) + "\n"


def verdict_markdown() -> str:
    """The verdict rule's settings as markdown (docs/CLAIM_RULES.md holds it: tests/test_rules.py)."""
    rows = [("error of a verdict over all its looks", f"{ALPHA:g}, one-sided"),
            *((f"looks at `{p}` (cumulative seed bands; the last is the cap)",
               f"{', '.join(map(str, v))}: each look at {ALPHA / len(v):.4g} one-sided") for p, v in LOOKS.items()),
            ("share bars", "; ".join(f"{k} > {v:g}" for k, v in SHARE_BAR.items())),
            ("at the bar, by scale", f"linear +-{MARGIN['linear']:g}; log +-log {math.exp(MARGIN['log']):.1f}; "
                                     f"share +-{MARGIN[SHARE]:g}"),
            ("fit gates per seed", f"did not fit below {MIN_FITTED} fitted seeds or {FITTED_SHARE:.0%} of them"),
            ("across claims", f"expected false reproductions <= {ALPHA:g} x claims judged; Benjamini-Hochberg at "
                              f"{FDR:g} reported")]
    return ("| setting | value |\n|---|---|\n" + "\n".join(f"| {a} | {b} |" for a, b in rows) + "\n\n"
            + "\n".join(f"- `{k}`: {v}" for k, v in ESTIMANDS.items()) + "\n")
