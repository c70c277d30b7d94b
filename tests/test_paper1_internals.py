"""Paper 1, App. F-H: layer-wise analysis of trained ConvNets, against brute-force computations."""
import re

import numpy as np
import pytest
import torch

from memlib import metrics, models
from memlib.runtime import MemlibError


def _manual_layer_outputs(net: torch.nn.Sequential, x):
    """Run a convnet module by module; keep the output after each conv's activation (or the last conv)."""
    outs, h = [], x
    mods = list(net)
    for i, m in enumerate(mods):
        h = m(h)
        nxt = mods[i + 1] if i + 1 < len(mods) else None
        if not isinstance(nxt, torch.nn.ReLU):
            outs.append(h)
    return outs


def test_layer_activations_match_a_manual_forward():
    torch.manual_seed(0)
    net = models.convnet(4, channels=3).eval()
    x = torch.randn(5, 1, 9, 9)
    acts = metrics.layer_activations(net, x, batch_size=2)
    want = _manual_layer_outputs(net, x)
    assert [a.shape for a in acts] == [(5, 3, 9, 9)] * 3 + [(5, 1, 9, 9)]
    for a, b in zip(acts, want):
        torch.testing.assert_close(a, b.detach())
    assert (acts[0] >= 0).all()                           # after the ReLU
    fc = models.fcn(16, 2, width=7)
    assert [a.shape for a in metrics.layer_activations(fc, torch.randn(3, 1, 4, 4))] == [(3, 7), (3, 7), (3, 16)]


def _brute_force_error(reps_ref, y_ref, reps_test, y_test, k):
    wrong = 0
    for t, yt in zip(reps_test, y_test):
        weights = metrics.correlation(reps_ref, t[None]).double()             # corr with each reference
        mean_onehot = sum(w * torch.nn.functional.one_hot(y, k).double() for w, y in zip(weights, y_ref)) / len(y_ref)
        wrong += int(mean_onehot.argmax().item() != yt.item())
    return wrong / len(y_test)


def test_layerwise_error_matches_brute_force():
    torch.manual_seed(1)
    net = models.convnet(3, channels=4).eval()
    # two classes of images that differ in where their mass sits, plus noise
    base = torch.zeros(2, 1, 8, 8)
    base[0, :, :4] = 1.0
    base[1, :, :, :4] = 1.0
    y_ref, y_test = torch.randint(0, 2, (13,)), torch.randint(0, 2, (9,))
    x_ref = base[y_ref] + 0.8 * torch.randn(13, 1, 8, 8)
    x_test = base[y_test] + 0.8 * torch.randn(9, 1, 8, 8)
    err = metrics.layerwise_error(net, x_ref, y_ref, x_test, y_test, batch_size=4)
    assert err.shape == (4,)
    acts_ref = [x_ref] + metrics.layer_activations(net, x_ref)
    acts_test = [x_test] + metrics.layer_activations(net, x_test)
    want = [_brute_force_error(a, y_ref, b, y_test, 2) for a, b in zip(acts_ref, acts_test)]
    np.testing.assert_allclose(err.numpy(), want, atol=1e-6)
    assert metrics.layerwise_error(None, x_ref, y_ref, x_test, y_test).item() == pytest.approx(want[0])


def test_layerwise_error_extremes():
    """Identical representations for every input (the constant map) score the majority class;
    the identity map scores like the raw input."""
    y_ref = torch.tensor([0, 0, 0, 1, 2])
    x_ref = torch.randn(5, 1, 6, 6)
    y_test = torch.tensor([0, 1, 2, 1])
    x_test = torch.randn(4, 1, 6, 6)
    const = torch.nn.Conv2d(1, 1, 3, padding=1)
    with torch.no_grad():
        const.weight.zero_()
        const.bias.fill_(0.0)
    seven = torch.randn(1, 1, 6, 6)

    class Constant(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = const

        def forward(self, x):
            return self.conv(x) + seven

    err = metrics.layerwise_error(Constant(), x_ref, y_ref, x_test, y_test)
    assert err[1].item() == pytest.approx(3 / 4)           # always predicts class 0
    ident = torch.nn.Conv2d(1, 1, 3, padding=1)
    with torch.no_grad():
        ident.weight.zero_()
        ident.weight[0, 0, 1, 1] = 2.0                     # 2x: correlations are scale-free
        ident.bias.fill_(0.5)
    err = metrics.layerwise_error(ident, x_ref, y_ref, x_test, y_test)
    assert err[1].item() == pytest.approx(err[0].item())


def test_relative_weight_change():
    torch.manual_seed(2)
    a = models.convnet(3, channels=2)
    b = models.convnet(3, channels=2)
    b.load_state_dict(a.state_dict())
    with torch.no_grad():
        b[2].weight.mul_(1.5)                              # the middle conv changes by 50 %
        b[4].bias.add_(1.0)
    w = metrics.relative_weight_change(a, b)
    np.testing.assert_allclose(w.numpy(), [0.0, 0.5, 0.0], atol=1e-6)
    bias = metrics.relative_weight_change(a, b, tensor="bias")
    np.testing.assert_allclose(bias[2].item(), (1.0 / a[4].bias.norm()).item(), rtol=1e-5)
    with pytest.raises(MemlibError):
        metrics.relative_weight_change(a, models.convnet(2, channels=2))


def test_cap_shaped_reads_fig10s_concave_pattern():
    """Fig 10's "concave" curves: a rise above both ends and a fall back, by more than the margin."""
    assert metrics.cap_shaped([0.4, 0.7, 0.6, 0.45], margin=0.1)          # peak 0.7 > 0.45 + 0.1
    assert not metrics.cap_shaped([0.4, 0.52, 0.45], margin=0.1)          # 0.52 < 0.45 + 0.1: too flat
    assert not metrics.cap_shaped([0.4, 0.6, 0.8, 0.86], margin=0.0)      # the untrained net's: only rises
    assert not metrics.cap_shaped([0.9, 0.7, 0.5], margin=0.0)            # only falls
    assert not metrics.cap_shaped([0.4, 0.9], margin=0.0)                 # no interior layer
    assert metrics.cap_shaped(np.array([0.4, 0.9, 0.4]), margin=0.49)     # numpy rows, as the notebook passes
    assert not metrics.cap_shaped(np.array([0.4, 0.9, 0.4]), margin=0.5)  # the margin is strict


def test_top_singular_map_matches_numpy():
    torch.manual_seed(3)
    act = torch.rand(3, 5, 4, 6)                           # nonnegative, like ReLU outputs
    got = metrics.top_singular_map(act)
    assert got.shape == (3, 4, 6)
    for n in range(3):
        _, s, vt = np.linalg.svd(act[n].reshape(5, -1).double().numpy())
        v = vt[0] * np.sign(vt[0].sum())
        np.testing.assert_allclose(got[n].reshape(-1).numpy(), v, atol=1e-5)
        assert (got[n] >= -1e-6).all()                     # Perron: a positive matrix has a positive top vector
    one = torch.randn(2, 1, 4, 4)                          # one channel: the channel itself, normalized,
    got = metrics.top_singular_map(one)                    # with its own sign whatever its pixels sum to
    for n in range(2):
        c = one[n, 0] / one[n, 0].norm()
        torch.testing.assert_close(got[n], c, atol=1e-5, rtol=0)
        torch.testing.assert_close(metrics.top_singular_map(-one)[n], -c, atol=1e-5, rtol=0)


def test_most_correlated_channel_and_summaries():
    torch.manual_seed(4)
    x = torch.randn(4, 1, 5, 5)
    act = torch.randn(4, 6, 5, 5)
    act[0, 3] = 2 * x[0, 0] + 1                            # exact copies (up to affine maps)
    act[2, 5] = -x[2, 0] + 0.01 * torch.randn(5, 5) + 3 * x[2, 0]
    maps, idx = metrics.most_correlated_channel(act, x)
    for n in range(4):
        corrs = [metrics.correlation(act[n, c][None], x[n])[0].item() for c in range(6)]
        assert idx[n].item() == int(np.argmax(corrs))
        torch.testing.assert_close(maps[n], act[n, idx[n]])
    assert idx[0].item() == 3 and idx[2].item() == 5
    s = metrics.channel_summaries(act, x, channel=1)
    assert set(s) == {"svd", "most_correlated", "random"} and all(v.shape == (4, 5, 5) for v in s.values())
    torch.testing.assert_close(s["random"], act[:, 1])
    with pytest.raises(MemlibError):
        metrics.most_correlated_channel(act, torch.randn(4, 1, 6, 6))


def test_upper_subnetwork_runs_the_top_layers_on_repeated_input():
    torch.manual_seed(5)
    net = models.convnet(5, channels=3).eval()
    x = torch.randn(2, 1, 7, 7)
    for k in (1, 2, 4):
        up = metrics.upper_subnetwork(net, k)
        assert len(models.weight_layers(up)) == k
        h = x.repeat(1, 3, 1, 1)
        mods = list(net)
        start = [i for i, m in enumerate(mods) if isinstance(m, torch.nn.Conv2d)][-k]
        for m in mods[start:]:
            h = m(h)
        torch.testing.assert_close(up(x), h)
    assert metrics.upper_subnetwork(net, 5)[0].channels == 1
    with pytest.raises(MemlibError):
        metrics.upper_subnetwork(net, 6)


def test_layer_figures():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from memlib import plot
    torch.manual_seed(6)
    t = torch.randn(3, 4, 4) * 5 + 2
    u = plot.unit_range(t)
    assert torch.allclose(u.flatten(1).min(1).values, torch.zeros(3)) and torch.allclose(u.flatten(1).max(1).values, torch.ones(3))
    net = models.convnet(3, channels=2).eval()
    x = torch.rand(2, 1, 6, 6)
    fig = plot.intermediate_grid(metrics.intermediate_maps(net, x, kinds=("svd", "most_correlated", "random")), title="t")
    assert len(fig.axes) == (1 + 3) * (3 * 2)                  # rows: input + 3 layers; columns: 3 kinds x 2
    fig = plot.upper_layers_grid(x.clamp(0, 1), metrics.upper_layer_maps([("a", net, 2), ("b", net, 1)], x), title="t")
    assert len(fig.axes) == (1 + 2 + 1) * 2
    fig, ax = plt.subplots()
    plot.layer_curves(ax, {"a": np.ones((3, 4)), "b": np.arange(4.0)}, reference=("r", np.zeros((2, 4))))
    assert len(ax.lines) == 3
    plt.close("all")


def test_fig14_output_correlations_read_every_test_input():
    """Issue 42 (bug): Fig 14's output correlations were the mean over vis[1:] (three images: digit, pattern, square);
    they are read over `test`, the whole panel but the training digit."""
    import json
    from pathlib import Path
    nb = Path(__file__).resolve().parent.parent / "notebooks" / "01_identity_vs_constant.ipynb"
    src = "".join("".join(c["source"]) for c in json.loads(nb.read_text())["cells"] if c["cell_type"] == "code")
    src = re.sub(r"\s+", " ", src)                      # a statement may span lines (lines of at most 100 characters)
    assert "out_corr = lambda m, ref=None: metrics.layer_input_correlation(m, test, reference=ref)" in src
    assert "digit_corr = " not in src and '"fig14.deepest.output_digit_corr": np.array([out_corr(m, x_train)' in src


def test_preactivation_spreads_against_a_closed_form():
    """A layer whose 5x5 kernel is the centre tap c passes its input scaled by c (with zero padding at the border): its
    output's spread is c times its input's; a ReLU between halves nothing of a positive signal. Under paper 1's default
    init N(0, 1/(f_i f_o)) a 32-channel net's spread falls by tens per layer."""
    import torch
    from memlib import metrics, models
    from memlib.models import weights
    net = models.convnet(3, channels=1)
    for m, c in zip([m for m in net if isinstance(m, torch.nn.Conv2d)], (2.0, 0.5, 3.0)):
        torch.nn.init.zeros_(m.weight)
        torch.nn.init.zeros_(m.bias)
        m.weight.data[0, 0, 2, 2] = c
    x = torch.rand(1, 1, 28, 28) + 0.1                      # positive: the ReLUs pass it whole
    spreads = metrics.preactivation_spreads(net, x)
    s0 = float(x.double().std())
    assert spreads == pytest.approx([2.0 * s0, 1.0 * s0, 3.0 * s0], rel=1e-5)
    torch.manual_seed(0)
    deep = weights.initialize_(models.convnet(6, channels=32), "paper_default")
    falls = metrics.preactivation_spreads(deep, torch.randn(1, 1, 28, 28))
    assert len(falls) == 6 and all(b < a / 10 for a, b in zip(falls[1:-1], falls[2:-1]))
