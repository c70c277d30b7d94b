"""Issue 42: one written rule from the papers' words to tests (memlib/claims/rules.py, docs/CLAIM_RULES.md), the
log scale for ratios and the sign test for item-by-item comparisons."""
import math
from pathlib import Path

import pytest

from memlib import pearson
from memlib.claims import core, rules

ROOT = Path(__file__).resolve().parents[1]


def _claim(**kw):
    base = dict(id="t.x", paper=1, figure="Fig 1", quote="a sentence of the paper, quoted in full here",
                statement="what is measured", metric="m", op=">", threshold=2.0,
                expect={"quick": core.REPRODUCED, "paper": core.REPRODUCED}, fit=("g.loss_ratio < 0.05",))
    return core.Claim(**{**base, **kw})


def test_the_docs_page_holds_the_table_as_the_code_states_it():
    page = (ROOT / "docs" / "CLAIM_RULES.md").read_text()
    assert rules.markdown() in page
    assert rules.verdict_markdown() in page          # the verdict rule's settings, as the code states them


def test_every_row_names_its_estimand_and_its_margin_at_the_bar():
    for r in rules.RULES.values():
        assert r.estimand in rules.ESTIMANDS, r.name
        assert (r.share_bar is not None) == (r.estimand == rules.SHARE), r.name
        assert r.margin_on("linear") >= 0 and r.margin_on("log") >= 0
    assert rules.RULES["exact"].margin_on("linear") == 0          # a theorem's statement holds or not
    assert rules.RULES["is"].margin_on("log") == pytest.approx(math.log(1.1))
    assert {n for n, r in rules.RULES.items() if r.estimand == rules.SHARE} == {"some", "more_per_item"}
    # the error is split over the looks, and the cap of quick is four bands
    assert rules.looks("quick")[-1] == 4 and rules.look_alpha("quick") * len(rules.looks("quick")) == rules.ALPHA


def test_every_row_says_words_statistic_threshold_and_why():
    assert {"is", "strong_bias", "random", "every", "most", "some", "much", "slightly", "nonzero", "begins",
            "near", "more_per_item", "ratio"} <= set(rules.RULES)
    for r in rules.RULES.values():
        assert all(len(t) > 5 for t in (r.words, r.statistic, r.threshold, r.why)), r.name
    with pytest.raises(KeyError, match="no rule"):
        rules.rule("nearly")


def test_a_claim_names_a_real_row_and_a_known_scale():
    assert _claim(rule="much").problems() == []
    assert any("no row" in p for p in _claim(rule="nearly").problems())
    assert any("scale" in p for p in _claim(scale="sqrt").problems())
    assert any("positive threshold" in p for p in _claim(scale="log", threshold=0.0).problems())
    every_claim_rule = [c.id for c in __import__("memlib.claims", fromlist=["CLAIMS"]).CLAIMS
                        if c.rule and c.rule not in rules.RULES]
    assert every_claim_rule == []


def test_a_heavy_tailed_ratio_band_is_judged_on_the_log_scale():
    gates = {"g.loss_ratio": [0.01, 0.01, 0.01]}
    band = [10.0, 23.0, 12.0]
    linear = core.evaluate(_claim(), {**gates, "m": [4.0, 40.0, 8.0]}, "quick")    # factors of 2 to 20 above 2
    logged = core.evaluate(_claim(scale="log"), {**gates, "m": [4.0, 40.0, 8.0]}, "quick")
    assert linear["outcome"] == core.NOT_REPRODUCED         # one huge seed inflates the standard error
    assert logged["outcome"] == core.REPRODUCED and "log scale" in logged["reason"]
    assert core.evaluate(_claim(scale="log"), {**gates, "m": band}, "quick")["outcome"] == core.REPRODUCED
    below = core.evaluate(_claim(scale="log"), {**gates, "m": [1.5, 1.9, 1.7]}, "quick")
    assert below["outcome"] == core.NOT_REPRODUCED
    negative = core.evaluate(_claim(scale="log"), {**gates, "m": [3.0, -1.0, 4.0]}, "quick")
    assert negative["outcome"] == core.NOT_REPRODUCED and "not positive" in negative["reason"]


def test_the_sign_test_against_the_binomial_tail_by_brute_force():
    import itertools
    d = [0.3, -0.1, 0.2, 0.5, 0.0, 0.4, 0.1]                 # 6 non-ties, 5 positive
    tail = sum(1 for signs in itertools.product([0, 1], repeat=6) if sum(signs) >= 5) / 2 ** 6
    assert pearson.sign_test_p(d) == pytest.approx(tail) == pytest.approx(7 / 64)
    assert pearson.sign_test_p([1.0] * 5) == pytest.approx(1 / 32)
    assert pearson.sign_test_p([0.0, 0.0]) == 1.0
    assert pearson.sign_test_p([-1.0] * 10) == pytest.approx(1.0)
    assert math.isnan(pearson.sign_test_p([1.0, float("nan")]))


# ---- issue 42, item 2: a control for every claim, which the claim's comparison must fail

def test_a_claim_whose_control_passes_the_same_test_is_not_reproduced():
    gates = {"g.loss_ratio": [0.01, 0.01, 0.01]}
    claim = _claim(control="m.untrained", control_is="the same nets untrained")
    passes = {**gates, "m": [3.0, 3.1, 3.2], "m.untrained": [0.1, 0.2, 0.1]}
    row = core.evaluate(claim, passes, "quick")
    assert row["outcome"] == core.REPRODUCED and row["control_outcome"] == core.CONTROL_FAILS
    tests_nothing = core.evaluate(claim, {**passes, "m.untrained": [3.0, 3.1, 3.2]}, "quick")
    assert tests_nothing["outcome"] == core.NOT_REPRODUCED and "control passes" in tests_nothing["reason"]
    assert tests_nothing["control_outcome"] == core.CONTROL_HOLDS
    unmeasured = core.evaluate(claim, {**gates, "m": [3.0, 3.1, 3.2]}, "quick")
    assert unmeasured["outcome"] == core.REPRODUCED and unmeasured["control_outcome"] == core.CONTROL_MISSING
    nan = core.evaluate(claim, {**passes, "m.untrained": [0.1, float("nan"), 0.1]}, "quick")
    assert nan["control_outcome"] == core.CONTROL_MISSING          # NaN is no measurement, not a failing control
    # a threshold that is another metric: the control is compared with its own counterpart of it
    paired = _claim(threshold="t", control="m.untrained", control_threshold="t.untrained", control_is="untrained")
    both = {**gates, "m": [3.0, 3.1, 3.2], "t": [1.0, 1.0, 1.0], "m.untrained": [1.0, 1.0, 1.0],
            "t.untrained": [0.0, 0.0, 0.0]}
    assert core.evaluate(paired, both, "quick")["control_outcome"] == core.CONTROL_HOLDS
    assert core.evaluate(paired, {**both, "t.untrained": [2.0, 2.0, 2.0]}, "quick")["control_outcome"] \
        == core.CONTROL_FAILS
    # the log scale applies to the control too: [1.5, 1.9, 1.7] is not a factor of 2
    logged = _claim(scale="log", control="c", control_is="the other arm")
    row = core.evaluate(logged, {**gates, "m": [10.0, 23.0, 12.0], "c": [1.5, 1.9, 1.7]}, "quick")
    assert row["outcome"] == core.REPRODUCED and row["control_outcome"] == core.CONTROL_FAILS


def test_a_control_is_named_in_words_and_never_on_a_sanity_check():
    assert any("control_is" in p for p in _claim(control="m.untrained").problems())
    assert any("without a control" in p for p in _claim(control_threshold="t").problems())
    assert any("sanity" in p for p in _claim(control="c", control_is="untrained", about="sanity").problems())
    assert _claim(control="c", control_is="the same nets untrained").problems() == []


def test_values_equal_to_rounding_are_a_tie_that_a_strict_comparison_fails():
    """Two nets that differ only by the scale of their initial weights have the same scale-free statistic up to
    float32 rounding (paper 3's untrained Kaiming and Xavier DS: 0.739594170 against 0.739594063): neither is
    'above' the other, whatever the rounding on this machine."""
    k, x = [0.739594170159895, 0.3781513740414281, 0.8183904152303295], [0.7395940625854727, 0.3781513464035973,
                                                                         0.8183903487668394]
    assert not core.band_holds(k, ">", x)[0] and not core.band_holds(x, ">", k)[0]
    assert core.band_holds(k, ">=", x)[0] and core.band_holds(k, "<=", x)[0]
    assert core.band_holds([0.75, 0.39, 0.83], ">", x)[0]            # a real difference still decides
    assert core.tie(1.0, 1.0 + 5e-7) and not core.tie(1.0, 1.0 + 5e-6)
    assert not core.band_holds([1.0], ">", 1.0 - 1e-7)[0] and core.band_holds([1.0], ">", 1.0 - 1e-5)[0]
    # on the log scale the tolerance is on the logs' difference (a relative one of the values), also near 1
    assert core.tie(0.0, 5e-7, logs=True) and not core.tie(0.0, 5e-7)
