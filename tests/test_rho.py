"""memlib.rho against direct computations on small hand-made networks (paper 4)."""
import math

import numpy as np
import pytest
import torch
from scipy.optimize import minimize_scalar
from torch import nn

from memlib import models, rho as R
from memlib.runtime import set_device
from memlib.train import fit


@pytest.fixture(autouse=True)
def _cpu():
    set_device("cpu")


def hand_net(batchnorm=False):
    torch.manual_seed(0)
    w1 = torch.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 1.0], [2.0, 0.0, -1.0], [1.0, 1.0, 1.0]])  # (4, 3)
    w2 = torch.tensor([[0.5, -1.0, 2.0, 0.25]])                                                    # (1, 4)
    mods = [nn.Linear(3, 4, bias=False)] + ([nn.BatchNorm1d(4, affine=False)] if batchnorm else [])
    net = nn.Sequential(*mods, nn.ReLU(), nn.Linear(4, 1, bias=False))
    with torch.no_grad():
        net[0].weight.copy_(w1)
        net[-1].weight.copy_(w2)
    return net, w1, w2


def test_rho_and_layer_norms_are_frobenius_products():
    net, w1, w2 = hand_net()
    n1, n2 = np.sqrt((w1.numpy() ** 2).sum()), np.sqrt((w2.numpy() ** 2).sum())
    assert R.layer_norms(net) == pytest.approx([n1, n2], rel=1e-6)
    assert R.rho(net) == pytest.approx(n1 * n2, rel=1e-6)
    assert R.rho(net, reading="bn") == pytest.approx(n1 * n2, rel=1e-6)   # no BN: readings coincide
    bn, _, _ = hand_net(batchnorm=True)
    assert R.rho(bn) == pytest.approx(n1 * n2, rel=1e-6)
    assert R.rho(bn, reading="bn") == pytest.approx(n2, rel=1e-6)        # BN fixes rho_1 = 1


def test_margins_match_direct_computation_without_bn():
    net, w1, w2 = hand_net()
    x = torch.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.3, -0.4, 0.5], [-1.0, 0.2, 0.1]])
    y = torch.tensor([1.0, -1.0, 1.0, -1.0])
    g = (np.maximum(x.numpy() @ w1.numpy().T, 0) @ w2.numpy().T)[:, 0]
    expected = y.numpy() * g / (np.linalg.norm(w1.numpy()) * np.linalg.norm(w2.numpy()))
    np.testing.assert_allclose(R.margins(net, x, y).numpy(), expected, rtol=1e-5, atol=1e-7)


def test_margins_with_bn_are_the_normalized_network():
    net, w1, w2 = hand_net(batchnorm=True)
    x = torch.randn(16, 3, generator=torch.Generator().manual_seed(1))
    y = torch.where(torch.arange(16) % 2 == 0, 1.0, -1.0)
    h = x.numpy() @ w1.numpy().T
    h = (h - h.mean(0)) / np.sqrt(h.var(0) + 1e-5)                      # BatchNorm, full batch
    g = (np.maximum(h, 0) @ w2.numpy().T)[:, 0]
    expected = y.numpy() * g / np.linalg.norm(w2.numpy())
    m = R.margins(net, x, y)
    np.testing.assert_allclose(m.numpy(), expected, rtol=1e-4, atol=1e-6)
    with torch.no_grad():                                                # scale invariance: rho_1 irrelevant,
        net[0].weight.mul_(7.0)                                          # rho_L divides out
        net[-1].weight.mul_(3.0)
    np.testing.assert_allclose(R.margins(net, x, y).numpy(), expected, rtol=1e-3, atol=1e-5)
    assert net[1].running_mean.abs().max() == 0                         # running statistics untouched


@pytest.mark.parametrize("wd", [0.0, 0.01, 0.3])
def test_rho_equilibrium_minimizes_the_loss_along_rho(wd):
    gen = torch.Generator().manual_seed(2)
    f = torch.randn(50, generator=gen, dtype=torch.float64) * 0.1
    y = torch.where(torch.rand(50, generator=gen) < 0.5, 1.0, -1.0).double()
    f = f + 0.05 * y                                                     # average separability
    # PyTorch: mean MSE + SGD weight decay wd  <=>  mean_n (r f_n - y_n)^2 + wd/2 r^2
    best = minimize_scalar(lambda r: np.mean((r * f.numpy() - y.numpy()) ** 2) + wd / 2 * r ** 2,
                           bounds=(0, 1e3), method="bounded", options=dict(xatol=1e-10)).x
    assert R.rho_equilibrium(f, y, wd) == pytest.approx(best, rel=1e-5)
    lam = R.paper_lambda(wd, 50)                                         # the paper's eq. 5 verbatim
    assert R.rho_equilibrium(f, y, wd) == pytest.approx(float((y * f).sum() / (lam + (f * f).sum())))


def test_rho_equilibrium_is_where_the_network_gradient_along_rho_vanishes():
    net, _, _ = hand_net(batchnorm=True)
    x = torch.randn(32, 3, generator=torch.Generator().manual_seed(3))
    y = torch.where(x[:, 0] > 0, 1.0, -1.0)
    wd = 0.05
    f = R.normalized_outputs(net, x)
    r_eq = R.rho_equilibrium(f, y, wd)
    with torch.no_grad():
        net[-1].weight.mul_(r_eq / net[-1].weight.norm())
    net.train()
    loss = ((net(x)[:, 0] - y) ** 2).mean() + wd / 2 * sum((p ** 2).sum() for p in net.parameters())
    (grad,) = torch.autograd.grad(loss, net[-1].weight)
    assert abs((grad * net[-1].weight).sum().item()) < 1e-6             # d loss / d log(rho_L) = 0


def test_nc1_matches_pseudo_inverse_formula():
    gen = torch.Generator().manual_seed(4)
    labels = torch.tensor([0] * 30 + [1] * 20)
    h = torch.randn(50, 6, generator=gen, dtype=torch.float64) + 3 * labels[:, None].double()
    mu = h.mean(0)
    means = [h[labels == c].mean(0) for c in (0, 1)]
    sw = sum(torch.outer(h[i] - means[labels[i]], h[i] - means[labels[i]]) for i in range(50)) / 50
    sb = sum(torch.outer(m - mu, m - mu) for m in means) / 2
    expected = torch.trace(sw @ torch.linalg.pinv(sb)).item() / 2
    assert R.nc1(h, labels) == pytest.approx(expected, rel=1e-6)
    collapsed = torch.stack([means[c] for c in labels])
    assert R.nc1(collapsed, labels) == pytest.approx(0.0, abs=1e-12)


def test_classifier_shapes_and_initial_norms():
    for conv, shape in ((False, (1, 8, 8)), (True, (1, 25, 25)), (True, (3, 32, 32))):
        net = models.classifier(shape, width=8, conv=conv, init_norm=0.1)
        assert net(torch.randn(5, *shape)).shape == (5, 1)
        assert R.layer_norms(net) == pytest.approx([0.1] * 4, rel=1e-5)
        assert not any(m.bias is not None for m in models.weight_layers(net))
    assert R.rho(models.classifier(64, init_norm=5.0, batchnorm=False)) == pytest.approx(5.0 ** 4, rel=1e-5)


def test_binary_task_and_recorder_in_fit():
    gen = torch.Generator().manual_seed(5)
    x_all = torch.rand(40, 1, 4, 4, generator=gen)
    lab = torch.arange(40) % 3
    x, y = R.binary_task(x_all, lab, classes=(0, 2))
    assert len(x) == len(y) == 27 and set(y[:, 0].tolist()) == {1.0, -1.0}
    assert torch.allclose(x.flatten(1).norm(dim=1), torch.ones(len(x)))
    net = models.classifier((1, 4, 4), width=8, init_norm=1.0)
    rec = R.RhoRecorder(x, y, weight_decay=0.01, max_snapshots=4)
    hist = fit(net, x, y, steps=30, lr=0.1, momentum=0.9, weight_decay=0.01, batch_size=8,
               log_every=4, callbacks=[rec], progress=False)
    r = hist.records
    assert len(r["rho"]) == len(hist.steps) and len(r["layer_norms"][0]) == 4
    assert len(r["snapshots"]) <= 5 and len(r["last_margins"]) == 27
    assert r["rho_bn"][-1] == pytest.approx(R.rho(net, reading="bn"), rel=1e-6)
    np.testing.assert_allclose(r["last_margins"], R.margins(net, x, y).numpy(), rtol=1e-5)
    with pytest.raises(Exception, match="not both present"):
        R.binary_task(x_all, lab, classes=(0, 7))


def test_run_summaries_on_hand_made_records():
    rec = {"acc": [0.5, 1.0, 1.0, 1.0], "margin_mean": [0.1, 0.2, 0.4, 0.4], "margin_std": [0.1, 0.2, 0.1, 0.1],
           "rho_bn": [1.0, 2.0, 3.0, 4.0], "rho_eq": [2.0, 2.0, 5.0, 5.0], "loss": [1, 1, 1, 0.5],
           "nc1": [1.0, 0.8, 0.3, 0.2], "last_margins": [0.3, 0.5, -0.1]}
    assert R.margin_cv(rec) == [1.0, 1.0, 0.25, 0.25]
    assert R.first_separable(rec) == 1 and R.first_separable({"acc": [0.9]}) is None
    end = R.end_metrics(rec)                                             # last 10 % of 4 entries: the last one
    assert end["rho_end"] == 4.0 and end["eq5_rel_err"] == pytest.approx(0.2) and end["nc1_end"] == 0.2
    # the fit gate reads the tail (here the last record): 0 errors by its accuracy, 1 by the last margins
    assert end["train_errors_end"] == 0 and end["train_errors_last"] == 1 and end["loss_ratio"] == 0.5
    assert R.end_over_separable(rec, "margin_cv") == pytest.approx(0.25)
    assert R.end_over_separable(rec, "nc1") == pytest.approx(0.25)
    assert R.end_over_separable({**rec, "acc": [0.5] * 4}, "nc1") == float("inf")
    runs = {0.1: rec, 5.0: {**rec, "rho_bn": [8.0], "margin_mean": [0.1]}, 9.0: None}
    assert R.init_spread(runs) == pytest.approx(2.0)
    assert R.margin_small_over_large({0.1: rec, 5.0: {**rec, "margin_mean": [0.1]}}) == pytest.approx(4.0)


def test_paper4_plot_helpers_draw_synthetic_records():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from memlib import plot as P
    gen = np.random.default_rng(0)
    ep = list(range(20))
    rec = {"epoch": ep, "rho_bn": list(np.linspace(0.1, 2, 20)), "rho_eq": [2.0] * 20, "loss": [1.0] * 20,
           "snapshots": [list(gen.normal(size=10)) for _ in range(8)], "snapshot_epochs": list(range(0, 16, 2)),
           "last_margins": list(gen.normal(size=10))}
    fig, axes = plt.subplots(2, 3)
    P.rho_curves(axes[0][0], {0.1: rec, 5.0: None}, "loss")
    P.zoom_row(axes[1], ep, {"rho": (rec["rho_bn"], {}), "rho_eq": (rec["rho_eq"], dict(ls=":"))})
    assert axes[1][0].get_xlim() == (0, 1) and len(axes[1][1].patches) == 1      # >= 2 points; rectangle
    assert axes[1][2].get_ylim()[1] == pytest.approx(2 + 0.05 * 1.9)              # y range of the first curve
    P.sorted_margins(axes[0][1], rec, title="t")
    P.abs_f_histograms(axes[0][2], rec)
    P.seed_band(axes[0][0], ep, [rec["rho_bn"], rec["rho_eq"]], label="x", color="C0")
    plt.close(fig)


def test_max_drop_over_the_whole_run():
    assert R.max_drop([0.1, 0.2, 0.3, 0.3]) == 0.0                       # non-decreasing
    assert R.max_drop([0.1, 0.5, 0.4, 0.45, 0.2, 0.6]) == pytest.approx(0.6)   # (0.5 - 0.2) / 0.5, not the last
    # Observation 1 before the first crossing only would miss a fall after it
    assert R.rise_before_equilibrium([0.1, 0.5, 0.4], [0.3, 0.3, 0.3])[0] == 0.0


def _recs(rho_end, test_acc, errors_end=0, loss_end=0.001):
    n = 20
    # the fit gate reads the last 10 % of the records (here the last two): errors_end and loss_end hold there
    n_train = 5 + errors_end
    return {"last_margins": [0.1] * 5 + [-0.1] * errors_end, "rho_bn": [rho_end] * n, "rho_eq": [rho_end] * n,
            "margin_mean": [1.0] * n, "margin_std": [0.1] * n, "mean_abs_f": [1 / rho_end] * n,
            "acc": [0.5] + [1.0] * (n - 3) + [1 - errors_end / n_train] * 2,
            "loss": [1.0] * (n - 2) + [loss_end] * 2, "test_acc": [test_acc] * n}


def test_group_fit_and_band_metrics():
    runs = {0.1: _recs(0.5, 0.9), 5.0: _recs(2.0, 0.8, errors_end=2, loss_end=0.02), 7.0: None}
    m = R.run_metrics("g", runs)
    assert m["g.train_errors_end"] == float("inf") and m["g.loss_ratio"] == float("inf")   # diverged: unfitted
    m = R.run_metrics("g", {k: v for k, v in runs.items() if v})
    assert m["g.train_errors_end"] == 2 and m["g.loss_ratio"] == pytest.approx(0.02)
    assert m["g.norm0.1.test_error_end"] == pytest.approx(0.1) and m["g.norm5.mean_abs_f_end"] == 0.5
    assert R.init_spread(runs, "mean_abs_f") == pytest.approx(4.0)
    b = R.band_metrics("b", [_recs(0.5, 0.9), _recs(0.6, 0.95)], seeds=3)      # one seed diverged
    assert b["b.rho_end"] == [0.5, 0.6] and b["b.train_errors_end"] == [0, 0, float("inf")]
    assert b["b.cv_end_over_tpt"] == pytest.approx([1.0, 1.0]) and "b.nc1_end_over_tpt" not in b


def test_init_band_metrics_pair_the_initial_norms_seed_by_seed():
    bands = {0.1: [_recs(0.5, 0.9), _recs(0.5, 0.9)], 5.0: [_recs(2.0, 0.8, errors_end=1), None]}   # seed 1 diverged at 5
    m = R.init_band_metrics("i", bands)
    assert m["i.rho_end_spread"][0] == pytest.approx(4.0) and np.isnan(m["i.rho_end_spread"][1])
    assert m["i.mean_abs_f_end_spread"][0] == pytest.approx(4.0)
    assert m["i.train_errors_end"] == [1, float("inf")] and m["i.loss_ratio"] == [pytest.approx(0.001), float("inf")]
    assert len(m["i.margin_small_over_large"]) == 2


def test_error_gap_orders_runs_by_their_final_rho():
    small = [_recs(0.5, 0.95), _recs(3.0, 0.80)]      # seed 1: the "small init" run ends with the larger rho
    large = [_recs(2.0, 0.90), _recs(1.0, 0.90)]
    assert R.error_gap_by_rho(small, large) == pytest.approx([0.05, 0.10])
    assert all(np.isnan(R.error_gap_by_rho(small, large[:1])))


# ---------------------------------------------------------------- Observation 1 and the terminal phase (issue 42)
def _records(rho, rho_eq, acc=None, nc3=None):
    n = len(rho)
    out = dict(rho_bn=list(rho), rho_eq=list(rho_eq), margin_mean=[1.0] * n, margin_std=[0.1] * n,
               acc=list(acc or [1.0] * n), last_margins=[1.0, 1.0], loss=[0.01] * n)
    if nc3 is not None:
        out["nc3"] = list(nc3)
    return out


def test_observation_1_reads_the_rise_until_rho_reaches_rho_eq_not_the_whole_run():
    # rho rises to rho_eq, which is reached at index 4; then both fall together by 8 % (the net keeps moving at the
    # minimum): "grows monotonically until a minimum is reached" holds. Until session 16 the whole run's fall was read.
    rho = [0.1, 0.5, 1.0, 1.5, 2.0, 1.95, 1.9, 1.84]
    rho_eq = [3.0, 2.5, 2.2, 2.1, 2.0, 1.95, 1.9, 1.84]
    end = R.end_metrics(_records(rho, rho_eq))
    assert end["rho_max_drop"] == 0.0
    assert end["rho_max_drop_run"] == pytest.approx(0.08)
    assert R.equilibrium_reached(rho, rho_eq) == 4
    # the control: from a large initialization rho falls to rho_eq, and that fall is before the minimum is reached
    big = R.end_metrics(_records([5.0, 4.0, 3.0, 2.2, 2.0, 2.0], [2.0] * 6))
    assert big["rho_max_drop"] == pytest.approx(0.6)
    # a fall before the minimum counts; a run that never reaches rho_eq is read whole
    assert R.drop_until_equilibrium([0.1, 1.0, 0.8, 1.5, 2.0], [2.0] * 5) == pytest.approx(0.2)
    assert R.drop_until_equilibrium([0.1, 1.0, 0.8, 1.0], [2.0] * 4) == pytest.approx(0.2)
    assert R.equilibrium_reached([0.1, 1.0], [2.0, 2.0]) is None


def test_the_terminal_phase_starts_where_the_training_error_stays_zero():
    # training error vanishes at an early dip (index 1), comes back, and vanishes for good at index 4
    acc = [0.9, 1.0, 0.99, 0.99, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    nc3 = [2.0, 0.1, 0.5, 0.6, 0.4, 0.35, 0.3, 0.3, 0.3, 0.2]
    rec = _records([1.0] * 10, [1.0] * 10, acc=acc, nc3=nc3)
    assert R.terminal_phase_start(rec) == 4 and R.first_separable(rec) == 1
    assert R.end_over_separable(rec, "nc3") == pytest.approx(0.2 / 0.4)     # from the dip it would read 0.2 / 0.1
    assert R.terminal_phase_start(_records([1.0] * 3, [1.0] * 3, acc=[1.0, 1.0, 0.5])) is None
    assert R.end_over_separable(_records([1.0] * 3, [1.0] * 3, acc=[1.0, 1.0, 0.5], nc3=[1, 1, 1]), "nc3") == float("inf")


def test_observation_3s_control_reads_the_untrained_pair():
    def rec(rho_end, acc0, acc_end):
        r = _records([rho_end] * 10, [rho_end] * 10)
        r["test_acc"] = [acc0] + [acc_end] * 9
        return r
    small, large = [rec(1.0, 0.5, 0.9)], [rec(3.0, 0.6, 0.8)]
    assert R.error_gap_by_rho(small, large) == pytest.approx([0.1])
    assert R.error_gap_by_rho(small, large, at_start=True) == pytest.approx([-0.1])
    assert all(math.isnan(v) for v in R.error_gap_by_rho(small, []))


def test_the_fit_gate_reads_the_tail_of_a_noisy_series_not_its_last_epoch():
    # docs/CLAIM_RULES.md, the `fit` row (amended 2026-11-28): at paper 4's constant lr one epoch's loss is a draw.
    # 20 records: the last 10 % are the last two. A net that sat at 1 % and spiked at its last epoch is fitted ...
    n = 20
    spike = {**_records([1.0] * n, [1.0] * n), "loss": [0.01] * (n - 1) + [0.6], "acc": [1.0] * (n - 1) + [0.5],
             "last_margins": [1.0, -1.0, 1.0, -1.0]}
    end = R.end_metrics(spike)
    assert end["loss_ratio"] == pytest.approx(0.305) and end["loss_ratio_last"] == pytest.approx(0.6)
    assert end["train_errors_end"] == 2.0 and end["train_errors_last"] == 2.0   # median of [0, 2]: the upper one
    # ... its gate reads the two-record tail's mean, so one spike in two still fails it (0.305 > 0.05)
    calm = {**spike, "loss": [0.3] * (n - 2) + [0.01, 0.04], "acc": [0.9] * (n - 2) + [1.0, 1.0]}
    end = R.end_metrics(calm)
    assert end["loss_ratio"] == pytest.approx(0.025) and end["train_errors_end"] == 0.0
    # a loss that ends just below the gate after a tail above it is not fitted: the last epoch alone would pass it
    late = {**calm, "loss": [0.3] * (n - 2) + [0.09, 0.03]}
    end = R.end_metrics(late)
    assert end["loss_ratio_last"] < 0.05 < end["loss_ratio"]
    assert R.tail_median([5, 0, 0, 7, 1], frac=1.0) == 1.0 and R.errors_series({"acc": [0.75, 1.0],
                                                                             "last_margins": [1] * 4}) == [1.0, 0.0]
