"""Paper 3's networks: the identity initialization of Network DS (App. A) and the architectures."""
import math

import pytest
import torch
from torch import nn

from memlib import linalg, models


def test_identity_init_ds_is_the_identity():
    model = models.identity_init_ds_(models.network_ds())
    A = linalg.operator_matrix(model, (1, 2, 2))
    assert (A - torch.eye(4, dtype=torch.float64)).abs().max() < 1e-6


def test_default_ds_has_rank_at_most_4_and_matches_jacobian():
    torch.manual_seed(0)
    model = models.network_ds()
    A = linalg.operator_matrix(model, (1, 2, 2))
    assert torch.allclose(A, linalg.jacobian(model, torch.randn(1, 2, 2)).double(), atol=1e-6)


def _count(model, kind):
    return sum(isinstance(m, kind) for m in model.modules())


def test_conv_autoencoder_architecture():
    x = torch.randn(2, 3, 32, 32)
    d = models.conv_autoencoder(4, 6)
    nd = models.conv_autoencoder(4, 6, downsample=False)
    nld = models.conv_autoencoder(4, 6, nonlinear=True)
    for m in (d, nd, nld):
        assert m(x).shape == x.shape
    assert [c.stride for c in d if isinstance(c, nn.Conv2d)][:3] == [(2, 2)] * 3
    assert _count(d, nn.Upsample) == 1 and _count(nd, nn.Upsample) == 0
    assert _count(nld, nn.LeakyReLU) == _count(nld, nn.Conv2d) == 7
    assert all(c.bias is None for c in d if isinstance(c, nn.Conv2d))
    # downsampled code of D_{a,b} on 32x32 is b x 4 x 4
    assert d[:3](x).shape == (2, 6, 4, 4)


def test_network_d_and_nd():
    x = torch.randn(1, 3, 32, 32)
    d, nd = models.network_d(filters=8), models.network_d(False, filters=8)
    assert d(x).shape == nd(x).shape == x.shape
    assert d[:2](x).shape[-1] == 4        # paper 3, Sec. 3: 32x32 -> 4x4
    assert _count(nd, nn.Upsample) == 0


def test_narrowest_layer_bounds_rank():
    # D_{a,b} on 3x32x32: the 4x4 code holds 16 b numbers; with b = 192 it is 3072 = the image
    assert linalg.narrowest_layer(models.conv_autoencoder(8, 192), (3, 32, 32)) == 3072
    assert linalg.narrowest_layer(models.conv_autoencoder(8, 16), (3, 32, 32)) == 256
    assert linalg.narrowest_layer(models.network_ds(), (1, 2, 2)) == 4


def test_appendix_c_ranks_small_budget():
    """Appendix C (Proposition): DS trained on the dependent set {e1, e2, e3, e1+e2} (dim span 3) has
    rank 3 with 3 eigenvalues 1 and their eigenvectors in span X (the notebook checks all five sets)."""
    from memlib import metrics, train
    E = torch.eye(4).reshape(4, 1, 2, 2)
    for xs, k in ((torch.cat([E[:3], E[:1] + E[1:2]]), 3),):
        torch.manual_seed(0)
        model = models.network_ds()
        # Adam at lr 1e-2 reaches loss ~1e-14 in 400 steps (the notebook: 2000 steps at 1e-3, same ranks)
        train.fit(model, xs, steps=400, lr=1e-2, optimizer="adam", progress=False)
        row = metrics.conjecture_row(model, xs)
        assert row["span"] == k and row["r_min"] == 4
        assert row["rank"] == k and row["stored"] == k
        assert row["top_err"] < 0.01 and row["resid"] < 0.05
        assert row["rank_excess"] < 0.05                          # sigma_4 / sigma_1: rank 3 at the 5 % cutoff


def test_unet_shapes_and_skips():
    x = torch.rand(2, 3, 16, 16)
    for skip in (0, 4):
        net = models.unet(levels=3, channels=8, skip=skip)
        y = net(x)
        assert y.shape == x.shape and 0 <= y.min() and y.max() <= 1          # sigmoid output
    assert _count(models.unet(levels=3, channels=8, skip=0), nn.BatchNorm2d) == 3 * 4


def test_point_map_and_nearest_train_scores():
    from memlib import metrics
    torch.manual_seed(0)
    v = torch.randn(1, 1, 3, 3)
    point = nn.Linear(9, 9, bias=False)                       # rank-1 map y -> <u, y> v: a point map
    with torch.no_grad():
        point.weight.copy_(v.reshape(9, 1) @ torch.randn(1, 9))
    net = nn.Sequential(nn.Flatten(), point, nn.Unflatten(1, (1, 3, 3)))
    probes, x = torch.randn(5, 1, 3, 3), torch.randn(1, 1, 3, 3)
    assert torch.allclose(metrics.point_map_scores(net, probes, x), torch.ones(5), atol=1e-5)
    ident = nn.Identity()
    ident.register_parameter("w", nn.Parameter(torch.zeros(1)))   # predict() needs a parameter
    assert metrics.point_map_scores(ident, probes, x).abs().max() < 1
    train = torch.randn(3, 1, 3, 3)
    best, idx = metrics.nearest_train_scores(2 * train[[2, 0, 2]] + 1, train)
    assert idx.tolist() == [2, 0, 2] and torch.allclose(best, torch.ones(3), atol=1e-6)


def test_predict_each_batchnorm_is_per_image_and_leaves_stats():
    from memlib import metrics
    net = models.unet(levels=2, channels=4, skip=0).eval()
    x = torch.rand(3, 3, 8, 8)
    before = net.down[0][1].running_mean.clone()
    out = metrics.predict_each_batchnorm(net, x)
    alone = metrics.predict_each_batchnorm(net, x[1:2])
    assert torch.allclose(out[1:2], alone, atol=1e-6)
    assert torch.equal(net.down[0][1].running_mean, before) and not net.training


def test_uniform_per_layer_params_init_bound_is_one_over_sqrt_weight_count():
    # paper 3, Sec. 3: U(-a, a) with a = 1/sqrt(P), P the layer's number of weights
    torch.manual_seed(0)
    net = models.initialize_(models.conv_autoencoder(8, 12), "uniform_per_layer_params")
    for layer in models.weight_layers(net):
        c_out, c_in, k, _ = layer.weight.shape
        bound = 1.0 / math.sqrt(c_out * c_in * k * k)
        w = layer.weight
        assert w.abs().max().item() <= bound
        assert w.abs().max().item() > 0.9 * bound                 # fills the interval
        assert w.std().item() == pytest.approx(bound / math.sqrt(3), rel=0.15)   # std of U(-a, a)


def test_singular_ratio_is_the_continuous_numerical_rank():
    """sigma_{k+1} / sigma_1 against a diagonal matrix's known singular values, and its agreement with
    numerical_rank: below rtol exactly when the rank at rtol is at most k."""
    U, _ = torch.linalg.qr(torch.randn(5, 5, dtype=torch.float64, generator=torch.Generator().manual_seed(1)))
    s = torch.tensor([4.0, 2.0, 0.1, 0.02, 0.0], dtype=torch.float64)
    A = U @ torch.diag(s) @ U.T.flip(0)                      # singular values s, in a rotated basis
    for k, want in enumerate([1.0, 0.5, 0.025, 0.005, 0.0]):
        assert linalg.singular_ratio(A, k) == pytest.approx(want, abs=1e-12)
        for rtol in (0.01, 0.03, 0.3):
            assert (linalg.singular_ratio(A, k) < rtol) == (linalg.numerical_rank(A, rtol=rtol) <= k)
    assert linalg.singular_ratio(A, 5) == 0.0 and linalg.singular_ratio(torch.zeros(3, 3), 0) == 0.0


def test_autoencoder_scores_tell_the_identity_from_a_point_map():
    from memlib import metrics
    torch.manual_seed(0)
    probes, x = torch.randn(6, 1, 3, 3), torch.randn(1, 1, 3, 3)
    ident = nn.Conv2d(1, 1, 1, bias=False)
    with torch.no_grad():
        ident.weight.fill_(-2.0)                              # the identity up to sign and scale
    s = metrics.autoencoder_scores(ident, probes, x, realistic=slice(0, 4), noise=slice(4, 6))
    assert s["abs_corr_to_input"] == pytest.approx(1.0) and s["abs_corr_to_input_all"] == pytest.approx(1.0)
    point = nn.Linear(9, 9, bias=False)                       # y -> <u, y> v: a point map
    with torch.no_grad():
        point.weight.copy_(torch.randn(9, 1) @ torch.randn(1, 9))
    net = nn.Sequential(nn.Flatten(), point, nn.Unflatten(1, (1, 3, 3)))
    s = metrics.autoencoder_scores(net, probes, x, realistic=slice(0, 4), noise=slice(4, 6))
    assert s["point_map_corr"] == pytest.approx(1.0) and s["point_map_corr_noise"] == pytest.approx(1.0)
    assert s["abs_corr_to_input_all"] < 0.9


def test_spectrum_panels_and_eigenvector_rows():
    from memlib import plot
    vals = torch.tensor([1.0 + 0j, 0.5j, 1e-3])
    fig = plot.spectrum_panels({"a": {"k=1": vals}, "b": {"k=1": vals, "k=2": vals.abs()}}, title="t")
    assert len(fig.axes) == 2 and len(fig.axes[1].lines) == 3          # two curves and the line at 1
    imgs = torch.randn(5, 3, 4, 4, dtype=torch.complex64)
    rows, labels = plot.eigenvector_rows({"D": imgs}, n=4)
    assert labels == ["D: Re", "D: Im"] and rows[0].shape == (4, 3, 4, 4)
    assert rows[1].min() == 0 and rows[1].max() == 1


# ---- the control helpers of notebook 03 (issue 42): against numbers worked out by hand

def test_untrained_bars_give_each_key_its_twin_and_bar():
    from memlib import dynamics
    rows = [{"corr": 0.5, "near1": 9}, {"corr": 0.9, "near1": 7}]
    out = dynamics.untrained_bars("fig7.NLD", rows, {"corr": 0.8}, also=("near1",))
    assert out["fig7.NLD.corr.untrained"] == [0.5, 0.9]
    assert out["fig7.NLD.corr.bar"] == pytest.approx([0.8, 0.95])        # max(paper's 0.8, twin + 0.05)
    assert out["fig7.NLD.near1.untrained"] == [9.0, 7.0] and "fig7.NLD.near1.bar" not in out
    low = dynamics.untrained_bars("appD", [{"r": 0.02}, {"r": 0.3}], {"r": 0.05}, higher=False)
    assert low["appD.r.bar"] == pytest.approx([-0.03, 0.05])             # min(paper's 0.05, twin - 0.05)


def test_nearest_train_summary_on_outputs_that_are_and_are_not_training_images():
    from memlib import metrics
    g = torch.Generator().manual_seed(0)
    train = torch.randn(3, 1, 4, 4, generator=g)
    outputs = torch.cat([train[1:2], 2 * train[1:2] + 1, train[2:3], -train[0:1]])   # three training images (one
    # scaled and shifted: correlation 1) and one that is none (minus a training image)
    s = metrics.nearest_train_summary(outputs, train, is_map=0.8)
    best = metrics.nearest_train_scores(outputs, train)[0]
    assert best[:3].tolist() == pytest.approx([1, 1, 1], abs=1e-5) and best[3] < 0.8
    assert s["nearest_train_corr"] == pytest.approx(best.mean().item())
    assert s["min_nearest_train_corr"] == pytest.approx(best[3].item())
    assert s["frac_is_a_train_image"] == 0.75
    assert s["distinct_train_images"] == len(metrics.nearest_train_scores(outputs, train)[1].unique())


def test_fig6_rank_metrics_against_ranks_worked_by_hand():
    from memlib import metrics
    ranks = {"D": [[1, 1, 2], [2, 2, 2]], "ND": [[100, 90, 80], [100, 95, 80]]}    # (k = 1, 2) x seeds
    untrained = {"D": [4, 5, 8], "ND": [76, 54, 64]}
    out = metrics.fig6_rank_metrics(ranks, untrained, 768, much=2.0)
    assert out["fig6.k1.nd_over_d_rank"] == pytest.approx([100, 90, 40])
    assert out["fig6.k2.nd_over_d_rank"] == pytest.approx([50, 47.5, 40])
    assert out["fig6.k1.nd_over_d_rank.untrained"] == pytest.approx([19, 10.8, 8])
    assert out["fig6.k2.nd_over_d_rank.bar"] == pytest.approx([19.05, 10.85, 8.05])
    assert out["fig6.ND.min_rank_fraction"] == pytest.approx([100 / 768, 90 / 768, 80 / 768])
    assert out["fig6.ND.min_rank_fraction.untrained"] == pytest.approx([76 / 768, 54 / 768, 64 / 768])
    assert out["fig6.D.rank_change"] == pytest.approx([1, 1, 0])
    assert out["fig6.ND.rank_change"] == pytest.approx([0, 5 / 90, 0])
    assert out["fig6.D.rank.untrained"] == [4, 5, 8]


def test_worst_set_takes_the_worst_row_and_the_loss_only_where_every_row_has_one():
    from memlib import metrics
    row = dict(rank=2, span=1, r_min=4, rank_excess=0.3, near1=1, top_err=0.01, resid=0.2)
    other = dict(rank=1, span=2, r_min=4, rank_excess=0.01, near1=4, top_err=0.5, resid=0.0)
    w = metrics.worst_set({"a": row, "b": other})
    assert w == dict(max_rank_error=1, max_rank_excess=0.3, max_near1_error=2, max_top_eig_error=0.5,
                     max_eigvec_resid=0.2)
    assert metrics.worst_set({"a": {**row, "loss_ratio": 0.1}, "b": {**other, "loss_ratio": 0.02}})[
        "max_loss_ratio"] == 0.1
