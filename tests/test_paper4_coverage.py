"""Paper 4's coverage metrics (issue 27) against closed forms: neural collapse NC2 .. NC4 and Observation 2's margins."""
import math

import numpy as np
import pytest
import torch

from memlib import models
from memlib import rho as R
from memlib.train import fit


def _etf(k: int, d: int, scale: float = 3.0, gen=None) -> torch.Tensor:
    """A simplex ETF by hand: the K standard basis vectors minus their mean, rotated into R^d (K, d)."""
    e = torch.eye(k, dtype=torch.float64) - 1.0 / k                           # rows sum to zero, equal norms
    q, _ = torch.linalg.qr(torch.randn(d, k, dtype=torch.float64, generator=gen))   # orthonormal columns
    return scale * e @ q.T


def _collapsed(means: torch.Tensor, per_class: int, noise: float = 0.0, gen=None):
    """Features h (K n, d) around `means`, labels 0..K-1; with noise the class means move, so NC2 > 0."""
    k, d = means.shape
    labels = torch.arange(k).repeat_interleave(per_class)
    h = means[labels] + noise * torch.randn(k * per_class, d, dtype=torch.float64, generator=gen)
    return h, labels


@pytest.mark.parametrize("k", [2, 3, 5])
def test_nc2_is_zero_for_a_simplex_etf_and_positive_off_it(k):
    gen = torch.Generator().manual_seed(k)
    means = _etf(k, 12, gen=gen) + torch.randn(12, dtype=torch.float64, generator=gen)   # any common offset
    h, labels = _collapsed(means, 4)
    assert R.nc2(h, labels) == pytest.approx(0.0, abs=1e-12)
    h2, _ = _collapsed(means, 4, noise=0.5, gen=gen)                       # noise moves the class means off the ETF
    if k >= 3:
        assert R.nc2(h2, labels) > 1e-3
    else:
        assert R.nc2(h2, labels) == pytest.approx(0.0, abs=1e-12)        # K = 2: true by construction
    # a hand-made non-ETF: K = 3 means at 0, 60 and 90 degrees in a plane; its centred means have unequal norms
    pts = torch.tensor([[1.0, 0.0], [0.5, math.sqrt(3) / 2], [0.0, 1.0]], dtype=torch.float64)
    assert R.nc2(*_collapsed(pts, 2)) > 0.1


def test_nc2_closed_form_of_an_isoceles_triangle():
    # centred means of (0, 0), (2, 0), (1, h): equinorm std/mean and the largest |cos + 1/2| by hand
    hgt = 3.0
    pts = torch.tensor([[0.0, 0.0], [2.0, 0.0], [1.0, hgt]], dtype=torch.float64)
    c = pts - pts.mean(0)
    n = c.norm(dim=1)
    cos = [float(c[i] @ c[j] / (n[i] * n[j])) for i, j in ((0, 1), (0, 2), (1, 2))]
    expected = float(n.std(unbiased=False) / n.mean()) + max(abs(x + 0.5) for x in cos)
    assert R.nc2(*_collapsed(pts, 3)) == pytest.approx(expected, rel=1e-12)


def test_nc3_zero_when_the_classifiers_are_the_class_means_up_to_scale():
    gen = torch.Generator().manual_seed(0)
    means = _etf(4, 10, gen=gen) + 2.0                                     # offset: NC3 reads the centred means
    h, labels = _collapsed(means, 3, noise=0.1, gen=gen)
    centred = torch.stack([h[labels == c].mean(0) for c in range(4)])
    centred = centred - centred.mean(0)
    assert R.nc3(h, labels, 7.0 * centred) == pytest.approx(0.0, abs=1e-12)
    assert R.nc3(h, labels, -centred) == pytest.approx(4.0, rel=1e-12)     # the opposite: the largest value
    other = torch.randn(4, 10, dtype=torch.float64, generator=gen)
    w, m = other / other.norm(), centred / centred.norm()
    assert R.nc3(h, labels, other) == pytest.approx(float(((w - m) ** 2).sum()), rel=1e-12)


def test_nc3_of_a_one_output_binary_net_is_two_minus_twice_the_cosine():
    gen = torch.Generator().manual_seed(1)
    net = models.classifier(6, width=5, batchnorm=False, init_norm=1.0)
    cls = R.binary_classifier(net)
    w = models.weight_layers(net)[-1].weight.detach().reshape(-1)
    assert torch.equal(cls, torch.stack([-w, w]))                          # rows: class -1, class +1
    h = torch.randn(20, 5, dtype=torch.float64, generator=gen)
    y = torch.where(torch.arange(20) < 8, 1.0, -1.0)
    d = h[y > 0].mean(0) - h[y < 0].mean(0)
    cos = float(w.double() @ d / (w.double().norm() * d.norm()))
    assert R.nc3(h, y, cls) == pytest.approx(2 - 2 * cos, rel=1e-9)
    # the classifier along mu_+ - mu_- (any positive scale): NC3 = 0
    assert R.nc3(h, y, torch.stack([-3 * d, 3 * d])) == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(Exception, match="one-output"):
        R.binary_classifier(torch.nn.Sequential(torch.nn.Linear(3, 2, bias=False)))


def test_nc4_counts_the_disagreements_with_the_nearest_class_centre():
    h = torch.tensor([[0.0], [0.2], [1.0], [1.2], [0.45]], dtype=torch.float64)
    labels = torch.tensor([-1.0, -1.0, 1.0, 1.0, -1.0])      # class means 0.2167 and 1.1: 0.45 is nearer -1's
    ncc = torch.tensor([-1.0, -1.0, 1.0, 1.0, -1.0])
    assert R.nc4(h, labels, ncc) == 0.0
    assert R.nc4(h, labels, torch.tensor([-1.0, -1.0, 1.0, 1.0, 1.0])) == pytest.approx(0.2)
    assert R.nc4(h, labels, -ncc) == 1.0


def test_recorder_logs_nc1_to_nc4_and_the_band_metrics_read_them():
    gen = torch.Generator().manual_seed(3)
    x = torch.randn(30, 1, 4, 4, generator=gen)
    y = torch.where(torch.arange(30) % 2 == 0, 1.0, -1.0).unsqueeze(1)
    net = models.classifier((1, 4, 4), width=8, init_norm=1.0)
    rec = R.RhoRecorder(x, y, weight_decay=0.01)
    r = fit(net, x, y, steps=12, lr=0.1, batch_size=10, log_every=3, callbacks=[rec], progress=False).records
    h = R.last_hidden(net, x)
    g = R.outputs(net, x)
    assert r["nc2"][-1] == pytest.approx(0.0, abs=1e-9)                       # two classes: by construction
    assert r["nc3"][-1] == pytest.approx(R.nc3(h, y, R.binary_classifier(net)), rel=1e-6)
    assert r["nc4"][-1] == pytest.approx(R.nc4(h, y, torch.where(g > 0, 1.0, -1.0)))
    assert "v=2" in rec.cache_key
    b = R.band_metrics("b", [r, r])
    assert b["b.nc4_end"] == [R.tail_mean(r["nc4"])] * 2 and len(b["b.nc3_end_over_tpt"]) == 2
    assert R.end_metrics(r)["margin_min_end"] == R.tail_mean(r["margin_min"])


def _run(rho_eq, margin_mean, margin_min, n=10):
    return {"rho_eq": [rho_eq] * n, "rho_bn": [rho_eq] * n, "margin_mean": [margin_mean] * n,
            "margin_min": [margin_min] * n, "margin_std": [0.1] * n, "acc": [1.0] * n, "loss": [0.01] * n,
            "last_margins": [margin_min, margin_mean], "mean_abs_f": [margin_mean] * n}


def test_observation2_margin_ratios_order_the_runs_by_rho_eq():
    # the initial norm and rho_eq in opposite orders: the ratio follows rho_eq, not the norm
    runs = {0.1: _run(4.0, 0.25, 0.1), 1.0: _run(3.0, 0.3, 0.2), 5.0: _run(2.0, 0.5, 0.4)}
    assert R.margin_by_rho_eq(runs) == pytest.approx(0.5 / 0.25)
    assert R.margin_by_rho_eq(runs, "margin_min") == pytest.approx(0.4 / 0.1)
    assert R.margin_small_over_large(runs, "margin_min") == pytest.approx(0.1 / 0.4)
    assert np.isnan(R.margin_by_rho_eq({0.1: _run(1.0, 0.5, 0.3), 5.0: _run(2.0, 0.2, -0.1)}, "margin_min"))
    assert np.isnan(R.margin_by_rho_eq({0.1: _run(1.0, 0.5, 0.3), 5.0: None}))
    bands = {0.1: [_run(1.0, 1.0, 0.8), None], 5.0: [_run(2.0, 0.5, 0.2), _run(2.0, 0.5, 0.2)]}
    m = R.init_band_metrics("i", bands)
    assert m["i.obs2_mean_margin_ratio"][0] == pytest.approx(2.0) and np.isnan(m["i.obs2_mean_margin_ratio"][1])
    assert m["i.obs2_min_margin_ratio"][0] == pytest.approx(4.0)
    assert m["i.min_margin_small_over_large"][0] == pytest.approx(4.0)


def test_every_paper4_claim_names_its_rule_and_every_counted_one_a_control():
    """Issue 41 / 42: each claim applies a row of claims/rules.py; each counted claim (about="trained") names a control
    run of the same notebook that its comparison must fail (Claim.control, with what it is in words: the report shows
    it beside the claim); the sanity checks name none (claims/core.py refuses one)."""
    from memlib.claims import paper4 as P4
    from memlib.claims.rules import RULES
    for c in P4.CLAIMS:
        assert c.rule in RULES, f"{c.id} names no rule"
        if c.about == "trained":
            assert c.id in P4.CONTROLS, f"{c.id} has no control"
            assert c.control == P4.CONTROLS[c.id]["control"] and len(c.control_is) > 20, c.id
        else:
            assert not c.control, f"{c.id}: a sanity check with a control"
        if c.rule in ("much", "ratio") or (c.op in ("<", ">") and c.threshold == 1.0 and "over" in c.metric):
            assert c.scale == "log", f"{c.id}: a ratio is judged on the log scale"
