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

Seeds and items. A seed band is judged by `core.band_holds`: the statement holds for every seed and the band's mean
is two standard errors past the threshold. A statement about the items of a set (test inputs, probes, images) is
judged per seed on the items first (the rows `every`, `most`, `some`, `more per item`) and then as a band.

This module only states the rule; `core` applies the statistics (`Claim.scale` "log" for ratios) and validates that a
claim's rule names a row here.
"""
from __future__ import annotations

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


@dataclass(frozen=True)
class Rule:
    """One row: the words it covers, the statistic, the threshold, and why that threshold."""
    name: str
    words: str
    statistic: str
    threshold: str
    why: str


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
         f"at least {EVERY_FRACTION:.0%} of the items, on every seed (the worst item alone decides nothing)",
         "a finite test set and float arithmetic give outliers; the worst item is a statistic of the tail, "
         "not of the statement"),
    Rule("most", "most / the majority / generally / typically, over items",
         "per seed, the fraction of items for which the item's statement holds", f"more than {MOST_FRACTION:.0%}",
         "the word's meaning"),
    Rule("some", "some / can / may / there exist, over items",
         "per seed, the number of items for which the item's statement holds", "at least one item on every seed",
         "an existence statement; every seed, so that one lucky seed is not the finding"),
    Rule("seeds", "a statement about trained nets with no quantifier (the paper shows one run)",
         "the statistic per seed, judged as a band (core.band_holds)",
         "holds on every seed and the band's mean is 2 standard errors past the threshold",
         "the paper's one run is one draw; a band that holds with margin does not flip on another machine"),
    # ------------------------------------------------------------------ comparatives
    Rule("more", "more / less / higher / lower / better / worse / grows / drops / increases with <a variable>",
         "the paired difference (or, along a variable, the difference between its ends) per seed",
         "> 0 as a band (every seed, mean 2 standard errors past 0); no size is asked",
         "the words state a direction, not a size"),
    Rule("more_per_item", "more / less, compared item by item (per test input, per image, per layer)",
         "per seed, a one-sided sign test over the items' paired differences",
         f"p < {SIGN_TEST_P} on every seed", "a direction over many items; the sign test asks no distribution"),
    Rule("much", "much / far / drastically / very different / vastly / dramatically / a large gap",
         "the difference of two [0, 1] scores, or the log of the ratio of two positive quantities, per seed",
         f"a gap >= {MUCH_GAP} on a [0, 1] score; a factor >= {MUCH_FACTOR:g} (log ratio >= log {MUCH_FACTOR:g}) "
         "otherwise, as a band",
         f"{MUCH_GAP} is a third of the range of a score the papers read by eye; a factor of 2 is the least "
         "that reads as 'much' on a log axis"),
    Rule("slightly", "slightly / a little / somewhat",
         "the same difference as 'more'", f"> 0 and, for a [0, 1] score, below {MUCH_GAP}",
         "the direction of 'more', short of 'much'"),
    Rule("ratio", "X times / orders of magnitude / proportional to, between positive unbounded quantities",
         "the log of the ratio, per seed (Claim.scale = 'log')",
         "the stated factor, on the log scale, as a band",
         "ratios of norms, errors and eigenvalues are heavy-tailed: their mean and standard error mean something "
         "only on the log scale"),
    # ------------------------------------------------------------------ degrees of change
    Rule("nonzero", "non-zero / still / do get updates / moves",
         "the quantity against the reference the paper compares it with (the largest layer's change, the "
         "untrained value)", f"> {NONZERO_SHARE:.0%} of the reference, per seed",
         "above any rounding, and far below anything the paper would call large"),
    Rule("begins", "begins to / starts to / emerges",
         "the score at the point named, against the same score of the control (shallower net, earlier step, "
         "untrained net)", f"moved >= {BEGINS_GAP} towards the map, per seed, as a band",
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
         "(rule of 2026-11-28, issue 42)"),
    # ------------------------------------------------------------------ exact statements
    Rule("exact", "equals / is rank k / is an eigenvector / lies in the span (a statement of linear algebra)",
         "the residual or count the statement names, computed in float64", "the stated value, within a tolerance "
         "set by float32 training (1e-3 relative for residuals, the numerical rank for ranks)",
         "a theorem's statement holds exactly; only the arithmetic is approximate"),
    Rule("order", "ordering along a variable the paper varies (with depth, with width, with rho)",
         "Spearman's rank correlation of the statistic with the variable, or the ends' difference, per seed",
         "the stated sign, as a band", "the words give the order, not its size"),
]}


def rule(name: str) -> Rule:
    """The row `name`; a clear error for an unknown one."""
    if name not in RULES:
        raise KeyError(f"no rule {name!r} in memlib/claims/rules.py; the rows are: {', '.join(RULES)}")
    return RULES[name]


def markdown() -> str:
    """The table as markdown (docs/CLAIM_RULES.md is checked against it: tests/test_rules.py)."""
    head = "| rule | the paper's words | statistic | threshold | why |\n|---|---|---|---|---|\n"
    return head + "\n".join(f"| `{r.name}` | {r.words} | {r.statistic} | {r.threshold} | {r.why} |"
                            for r in RULES.values()) + "\n"
