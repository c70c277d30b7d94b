"""Paper 3's nets can represent a point map at the paper's 32x32 (issue 41): every output pixel of D, ND, D_{a,b}
and NLD (and ND_{a,b}, NLND) depends on every input pixel, and D's stride-8 layer reads every pixel.

With every weight set positive a net's Jacobian has a positive entry wherever an output pixel depends on an input
pixel (a LeakyReLU passes positive values unchanged, so NLD's Jacobian at a non-negative input is its linear
backbone's): the dependence pattern is the Jacobian's sparsity pattern, computed by pushing the 1024 basis images of
a one-channel 32x32 input through the net in float64. The earlier reading of Fig 2a / Fig 5 (the builders' defaults:
kernel 3 at stride 8, one or no convolution on the 4x4 grid) fails it; notebook 03 builds the recipe's."""
import functools

import pytest
import torch
from torch import nn

from memlib import models
from memlib.recipes import paper3 as recipe

SIDE = 32                                                 # paper 3, Sec. 3, 5: 32x32 images


def dependence(build) -> torch.Tensor:
    """(output pixels, input pixels) bool: where an output pixel depends on an input pixel, at 32x32."""
    net = build().double().eval()
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, nn.Conv2d):
                m.weight.fill_(0.1)                           # every weight positive
        basis = torch.eye(SIDE * SIDE, dtype=torch.float64).reshape(-1, 1, SIDE, SIDE)
        out = torch.cat([net(chunk) for chunk in basis.split(256)])          # (inputs, 1, 32, 32)
    return (out.reshape(SIDE * SIDE, -1) > 0).T


D = functools.partial(models.network_d, filters=2, in_channels=1)
AB = functools.partial(models.conv_autoencoder, 2, 2, in_channels=1)
NETS = {"D": functools.partial(D, True, **recipe.D_FIELD), "ND": functools.partial(D, False, **recipe.D_FIELD),
        "D_ab": functools.partial(AB, **recipe.AB_FIELD), "ND_ab": functools.partial(AB, downsample=False, **recipe.AB_FIELD),
        "NLD": functools.partial(AB, nonlinear=True, **recipe.AB_FIELD),
        "NLND": functools.partial(AB, downsample=False, nonlinear=True, **recipe.AB_FIELD)}
EARLIER = {"D": functools.partial(D, True), "ND": functools.partial(D, False), "D_ab": AB,
           "NLD": functools.partial(AB, nonlinear=True)}


@pytest.mark.parametrize("name", list(NETS))
def test_every_output_pixel_depends_on_every_input_pixel_at_32(name):
    dep = dependence(NETS[name])
    assert dep.all(), f"{name}: {int((~dep).sum())} of {dep.numel()} (output, input) pixel pairs are independent"
    assert dep[0, -1] and dep[-1, 0]                      # the corners, named: top-left output, bottom-right input


@pytest.mark.parametrize("name", list(EARLIER))
def test_the_earlier_reading_does_not(name):
    """The builders' defaults (the reading before issue 41): the top-left output ignores the bottom-right input."""
    assert not dependence(EARLIER[name])[0, -1]


def test_the_stride8_layer_reads_every_pixel():
    """D's first layer (stride 8) reads every input pixel; a 3x3 filter at stride 8 reads 9 of every 64."""
    def read(first):
        with torch.no_grad():
            first.weight.fill_(1.0)
            x = torch.eye(SIDE * SIDE).reshape(-1, 1, SIDE, SIDE)
            return first(x).reshape(SIDE * SIDE, -1).abs().sum(1) > 0          # (input pixels,) read at all
    assert read(NETS["D"]()[0]).all()
    assert read(EARLIER["D"]()[0]).sum() == 11 * 11      # 4x4 cells of 3x3 pixels, the first hanging over the padding


def test_the_field_keeps_the_shapes():
    x = torch.randn(2, 3, SIDE, SIDE)
    for down in (True, False):
        net = models.network_d(down, filters=4, **recipe.D_FIELD)
        assert net(x).shape == x.shape
    assert models.network_d(filters=4, **recipe.D_FIELD)[:1](x).shape[-1] == 4      # paper 3, Sec. 3: 32 -> 4
    for kw in ({}, {"downsample": False}, {"nonlinear": True}):
        assert models.conv_autoencoder(4, 6, **kw, **recipe.AB_FIELD)(x).shape == x.shape
    assert models.conv_autoencoder(4, 6, **recipe.AB_FIELD)[:3](x).shape == (2, 6, 4, 4)


def test_the_atrous_convolution_is_the_dilated_one():
    """AtrousConv2d computes PyTorch's dilated convolution on sub-grids (faster on a CPU): the same function."""
    from memlib.models.downsampling_nets import AtrousConv2d
    torch.manual_seed(0)
    for d, side in ((2, 16), (4, 16), (8, 16), (8, 32)):
        conv = AtrousConv2d(3, 5, 3, padding=d, dilation=d, bias=False)
        x = torch.randn(2, 3, side, side)
        ref = nn.functional.conv2d(x, conv.weight, None, 1, d, d)
        assert torch.allclose(conv(x), ref, atol=1e-5)
