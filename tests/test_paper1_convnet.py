"""Paper 1, ConvNet sweeps (worker B): seed-band scores, the paper's "default" init, band plots."""
import math

import matplotlib
import pytest
import torch
from torch import nn

from memlib import data, metrics, models, plot

matplotlib.use("Agg")


class _Const(nn.Module):
    """Always predicts `image`: the constant map."""

    def __init__(self, image):
        super().__init__()
        self.image = nn.Parameter(image.clone())

    def forward(self, x):
        return self.image.expand(len(x), *self.image.shape[1:])


def _identity_conv():
    net = models.convnet(1, kernel=5)
    with torch.no_grad():
        net[0].weight.zero_()
        net[0].weight[0, 0, 2, 2] = 1.0
        net[0].bias.zero_()
    return net


def test_band_scores_mean_and_std_closed_form():
    x = torch.rand(1, 1, 12, 12)
    probes = data.correlated_probes(x, 0.0, 5, seed=3)      # orthogonal to x: corr(x, probe) = 0
    band = metrics.band_scores([_identity_conv(), _Const(x)], probes, x)
    # identity scores 1 to the identity and 0 to the constant; the constant map the reverse
    assert band["corr_identity"] == pytest.approx(0.5, abs=1e-5)
    assert band["corr_identity_std"] == pytest.approx(0.5, abs=1e-5)
    assert band["corr_constant"] == pytest.approx(0.5, abs=1e-5)
    mse_const_of_identity = (probes - x).pow(2).mean().item()
    assert band["mse_constant"] == pytest.approx(mse_const_of_identity / 2, rel=1e-5)
    assert band["mse_constant_std"] == pytest.approx(mse_const_of_identity / 2, rel=1e-5)


def test_band_scores_single_model_has_zero_spread():
    x = torch.rand(1, 1, 10, 10)
    band = metrics.band_scores([_identity_conv()], torch.rand(3, 1, 10, 10), x)
    assert band["corr_identity"] == pytest.approx(1.0, abs=1e-5)
    assert band["corr_identity_std"] == 0.0 and band["mse_identity"] == pytest.approx(0.0, abs=1e-10)
    with pytest.raises(ValueError):
        metrics.band_scores([], x, x)


def test_paper_default_init_variance_is_one_over_fan_product():
    torch.manual_seed(0)
    net = models.initialize_(models.convnet(3, channels=16, kernel=5), "paper_default")
    for layer in models.weight_layers(net):
        c_out, c_in, kh, kw = layer.weight.shape
        expected = 1.0 / math.sqrt((c_in * kh * kw) * (c_out * kh * kw))
        assert layer.weight.std().item() == pytest.approx(expected, rel=0.15)
        assert layer.weight.mean().abs().item() < 3 * expected / math.sqrt(layer.weight.numel()) + 1e-12
        assert torch.count_nonzero(layer.bias) == 0


def test_band_plots_build():
    band = {"corr_identity": 0.7, "corr_identity_std": 0.1, "corr_constant": 0.2, "corr_constant_std": 0.05}
    fig = plot.band_heatmaps([[band, band], [band, band]], row_labels=[3, 8], col_labels=["0", "1"],
                             xlabel="rho", ylabel="channels", title="t")
    assert len(fig.axes) == 4                                # two heatmaps, two colour bars
    ax = plot.band_curves([1, 2, 4], [band] * 3, label="28 px", xlabel="depth", logx=True)
    assert len(ax.lines) == 2 and len(ax.collections) == 2
    matplotlib.pyplot.close("all")


def test_layer_maps_side_by_side_layout():
    x = torch.rand(2, 1, 9, 9)
    nets = {"a": models.convnet(3, channels=3), "b": models.convnet(3, channels=5)}
    fig = plot.layer_maps_side_by_side(metrics.layer_maps(nets, x), col_names=["p", "q"], title="t")
    assert len(fig.axes) == (1 + 3) * (2 * 2)                # input + 3 layers, 2 nets x 2 inputs
    assert fig.axes[0].get_title() == "a\np"
    with pytest.raises(ValueError):
        metrics.layer_maps({"a": models.convnet(2), "b": models.convnet(3)}, x)
    matplotlib.pyplot.close("all")


def test_band_summary_keeps_every_seed_and_seed_metrics_names_them():
    per = [{"corr_identity": 0.9, "mse_identity": 0.1}, {"corr_identity": 0.7, "mse_identity": 0.3}]
    s = metrics.band_summary(per)
    assert s["corr_identity_seeds"] == pytest.approx([0.9, 0.7]) and s["corr_identity"] == pytest.approx(0.8)
    logged = metrics.seed_metrics("fig9.depth5.rho0", s)
    assert logged == {"fig9.depth5.rho0.corr_identity": pytest.approx([0.9, 0.7]),
                      "fig9.depth5.rho0.mse_identity": pytest.approx([0.1, 0.3])}


def test_roughness_against_closed_forms():
    g = torch.Generator().manual_seed(0)
    noise = torch.randn(4, 64, 64, generator=g)
    assert metrics.roughness(noise).mean().item() == pytest.approx(1.0, abs=0.05)   # white noise: E(a-b)^2 = 2 var
    ramp = torch.arange(64.0).expand(64, 64)[None]                                   # a linear ramp along x
    # half the neighbour differences are 1 (along x), half 0; the variance of 0..63 is (64^2 - 1) / 12
    expected = 0.5 / (2 * (64 ** 2 - 1) / 12)
    assert metrics.roughness(ramp).item() == pytest.approx(expected, rel=1e-5)
    assert metrics.roughness(torch.ones(1, 8, 8)).item() == 0.0


def test_border_energy_ratio_brute_force():
    img = torch.zeros(2, 1, 10, 10)
    img[0, 0, 0, :] = 1.0                 # structure only on the top row (inside a 2 px border)
    img[1, 0, 4:6, 4:6] = 1.0             # structure only in the centre
    r = metrics.border_energy_ratio(img, 2)
    assert r[0].item() == float("inf") and r[1].item() == 0.0
    g = torch.Generator().manual_seed(3)
    x = torch.randn(1, 12, 12, generator=g)
    e = (x[0] - x[0].flatten().median()) ** 2
    inner = e[3:9, 3:9].mean()
    outer = (e.sum() - e[3:9, 3:9].sum()) / (144 - 36)
    assert metrics.border_energy_ratio(x, 3).item() == pytest.approx((outer / inner).item(), rel=1e-5)
    with pytest.raises(Exception):
        metrics.border_energy_ratio(x, 6)


def test_hidden_roughness_averages_the_hidden_layers():
    net = models.convnet(3, channels=4)
    x = torch.randn(2, 1, 12, 12, generator=torch.Generator().manual_seed(5))
    acts = metrics.layer_activations(net, x)
    brute = sum(metrics.roughness(metrics.top_singular_map(a)).mean().item() for a in acts[:2]) / 2
    assert metrics.hidden_roughness(net, x) == pytest.approx(brute, rel=1e-6)
