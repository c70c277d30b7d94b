"""Issue 27 (faithful measurements), papers 1 and 4: the metrics whose definitions were fixed, each
checked against a closed form or an image whose answer is known."""
import math

import pytest
import torch

from memlib import data, metrics, models


def _digit():
    """A thin "7" on a 28x28 black background in [0, 1], standardized as MNIST (App. B): mostly negative
    pixels (background -0.42), summing < 0, like MNIST's training "7"."""
    x = torch.zeros(1, 1, 28, 28)
    x[0, 0, 6:8, 6:22] = 1.0                                   # the bar
    for r in range(8, 24):                                      # the stroke down to the left
        c = 21 - (r - 8) * 10 // 16
        x[0, 0, r, c - 1:c + 1] = 1.0
    return data.standardize(x)


def test_top_singular_map_keeps_the_sign_of_a_one_channel_layer():
    """A layer that IS the standardized training image (pixels mostly negative, so they sum < 0) maps to
    the image itself: correlation +1, not -1 (fig14.deepest.output_digit_corr read -0.8 for a net that
    paints the 7)."""
    x = _digit()
    assert x.sum() < 0
    m = metrics.top_singular_map(x)                                         # (1, 28, 28)
    assert metrics.correlation(m, x[:, 0]).item() == pytest.approx(1.0, abs=1e-6)
    torch.testing.assert_close(m[0], (x[0, 0] / x[0, 0].norm()).float(), atol=1e-6, rtol=0)


def test_top_singular_map_of_a_net_that_outputs_the_digit():
    """A one-channel output layer that emits the training digit (at any scale) for a batch of inputs, as a
    net painting the "7" does: its map correlates +1 with the digit; a net painting the negated digit
    correlates -1 (the sign is the layer's own, not forced towards the digit)."""
    x = _digit()
    for scale in (1.0, 3.0):
        act = (scale * x).expand(4, 1, 28, 28).clone()
        m = metrics.top_singular_map(act)
        assert (metrics.correlation(m, x[:, 0]) > 0.999).all()
    neg = -x                                                                  # a net painting the negative digit
    assert metrics.correlation(metrics.top_singular_map(neg), x[:, 0]).item() == pytest.approx(-1.0, abs=1e-6)


def test_top_singular_map_relu_layers_unchanged():
    """Non-negative (ReLU) channels: the top vector is non-negative (Perron), as before."""
    torch.manual_seed(3)
    act = torch.rand(3, 5, 4, 6)
    got = metrics.top_singular_map(act)
    assert (got >= -1e-6).all()


def test_layer_input_correlation_of_the_output_layer_is_signed():
    """A 1-layer ConvNet whose kernel is the identity (centre tap 1): its only layer is the output, a copy
    of the input; the output's map correlates +1 with the input (standardized digit, mostly negative)."""
    net = models.convnet(1, channels=4)
    conv = [m for m in net.modules() if isinstance(m, torch.nn.Conv2d)][0]
    with torch.no_grad():
        conv.weight.zero_()
        conv.weight[0, 0, 2, 2] = 1.0
        if conv.bias is not None:
            conv.bias.zero_()
    x = _digit()
    assert metrics.layer_input_correlation(net, x).item() == pytest.approx(1.0, abs=1e-5)
    assert metrics.layer_input_correlation(net, x, reference=x).item() == pytest.approx(1.0, abs=1e-5)


def test_centre_share_closed_forms():
    img = torch.zeros(3, 1, 10, 10)
    img[0, 0, 0, :] = 1.0                 # structure only on the top row (inside a 2 px border): share 0
    img[1, 0, 4:6, 4:6] = 1.0             # only in the centre: share 1
    s = metrics.centre_share(img, 2)
    assert s[0].item() == 0.0 and s[1].item() == 1.0 and math.isnan(s[2].item())   # constant: no structure
    g = torch.Generator().manual_seed(3)
    x = torch.randn(4, 12, 12, generator=g)
    r = metrics.border_energy_ratio(x, 3)
    torch.testing.assert_close(metrics.centre_share(x, 3), 1 / (1 + r), atol=1e-6, rtol=0)
    # white noise: the same energy per pixel everywhere, so about half in the centre
    big = torch.randn(64, 48, 48, generator=g)
    assert metrics.centre_share(big, 12).mean().item() == pytest.approx(0.5, abs=0.03)


def test_relative_sharpness_closed_forms():
    g = torch.Generator().manual_seed(0)
    noise = torch.randn(32, 1, 96, 96, generator=g)
    # a rescaled and shifted copy is as sharp as the input
    torch.testing.assert_close(metrics.relative_sharpness(3 * noise - 1, noise), torch.ones(32), atol=1e-5, rtol=0)
    # a 2-tap horizontal box blur of white noise: var 1/2, horizontal differences 1/2, vertical 1: 3/4
    box = (noise[..., 1:] + noise[..., :-1]) / 2
    r = metrics.relative_sharpness(box, noise[..., :-1]).mean().item()
    assert r == pytest.approx(0.75, abs=0.01)
    # Gaussian blurs of known width s: 1 - exp(-1 / (4 s^2)) (continuous limit), and blurrier for larger s
    vals = []
    for s in (1.5, 2.0, 3.0):
        k = torch.arange(-12, 13, dtype=torch.float64)
        k = torch.exp(-k ** 2 / (2 * s ** 2))
        k = (k / k.sum()).float()
        blurred = torch.nn.functional.conv2d(noise, k.view(1, 1, 1, -1))                # along x
        blurred = torch.nn.functional.conv2d(blurred, k.view(1, 1, -1, 1))              # along y
        ref = noise[..., 12:-12, 12:-12]
        v = metrics.relative_sharpness(blurred, ref).mean().item()
        assert v == pytest.approx(1 - math.exp(-1 / (4 * s ** 2)), rel=0.05)
        vals.append(v)
    assert vals[0] > vals[1] > vals[2]
    assert math.isnan(metrics.relative_sharpness(noise[:1], torch.ones(1, 1, 96, 96)).item())
