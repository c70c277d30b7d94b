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
    fig = plot.layer_maps_side_by_side(nets, x, col_names=["p", "q"], title="t")
    assert len(fig.axes) == (1 + 3) * (2 * 2)                # input + 3 layers, 2 nets x 2 inputs
    assert fig.axes[0].get_title() == "a\np"
    with pytest.raises(ValueError):
        plot.layer_maps_side_by_side({"a": models.convnet(2), "b": models.convnet(3)}, x)
    matplotlib.pyplot.close("all")
