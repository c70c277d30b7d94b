"""Network builders with the papers' defaults.

Each builder's signature carries its paper's defaults, so a figure's variation is one keyword:
`convnet(20)` is paper 1's 20-layer ConvNet; `convnet(5, channels=3)` is Fig 4b's 3-channel one.

The cache key names a builder by its module-qualified name (`cachekey.describe`: "memlib.models.convnet"), so a
builder moved out of this module keeps its old name as its `cache_key`: paper 3's networks live in
`memlib.models.downsampling_nets` and are re-exported here. What the builders do to a built model's weights is
`memlib.models.weights` (its names re-exported here).
"""
from __future__ import annotations

import math

import numpy as np
import torch
from torch.utils._python_dispatch import is_in_torch_dispatch_mode   # FlopCounterMode and the like
from torch import nn

from .downsampling_nets import UNet, conv_autoencoder, identity_init_ds_, network_d, network_ds, unet  # noqa: F401
from ..runtime import MemlibError, check_choice
from .weights import INIT_SCHEMES, WEIGHT_TYPES, count_parameters  # noqa: F401 - also models' names
from .weights import initialize_, set_frobenius_norms_, weight_layers

ACTIVATIONS = {"relu": nn.ReLU, "linear": None, "tanh": nn.Tanh, "sigmoid": nn.Sigmoid,
               "leaky_relu": nn.LeakyReLU}


class Flat(nn.Module):
    """Wrap a network on flat vectors so that it maps (N, *shape) to (N, *shape)."""

    def __init__(self, net: nn.Module):
        super().__init__()
        self.net = net

    def forward(self, x):
        return self.net(x.flatten(1)).view_as(x)


def _activation(name):
    check_choice(name, tuple(ACTIVATIONS), "activation")
    return ACTIVATIONS[name]


def _positive_int(name: str, value, *, minimum: int = 1) -> int:
    """`value` as a builder's size argument, or one clear MemlibError (not a deep torch error)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise MemlibError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def fcn(in_features: int, hidden_layers: int, *, width: int = 2048,  # paper 1, App. B: 2,048
        activation: str = "relu", bias: bool = True) -> nn.Module:
    """Fully connected net `in_features -> width x hidden_layers -> in_features`.

    `hidden_layers=0` is the 1-layer linear map `Wx` of paper 1, eq. 1.
    Accepts images: the input is flattened and the output reshaped like the input.
    """
    _positive_int("in_features", in_features)
    _positive_int("width", width)
    _positive_int("hidden_layers", hidden_layers, minimum=0)
    act = _activation(activation)
    dims = [in_features] + [width] * hidden_layers + [in_features]
    layers = []
    for i, (a, b) in enumerate(zip(dims[:-1], dims[1:])):
        layers.append(nn.Linear(a, b, bias=bias))
        if act is not None and i < len(dims) - 2:
            layers.append(act())
    return Flat(nn.Sequential(*layers))


def convnet(layers: int, *, channels: int = 128,  # paper 1, App. B: 128 channels
            kernel: int = 5,  # paper 1, App. B: 5x5 kernels, stride 1, padding 2
            in_channels: int = 1, bias: bool = True, activation: str = "relu") -> nn.Sequential:
    """Paper 1's ConvNet: `layers` convolutions (stride 1, "same" padding), ReLU between them.

    The first maps `in_channels -> channels`, the last `channels -> in_channels`; `layers=1` is a
    single `in_channels -> in_channels` convolution. The geometry never changes, so a trained net
    applies to inputs of any size (Fig 3b).
    """
    for name, v in (("layers", layers), ("channels", channels), ("kernel", kernel), ("in_channels", in_channels)):
        _positive_int(name, v)
    act = _activation(activation)
    dims = [in_channels] + [channels] * (layers - 1) + [in_channels]
    mods = []
    for i, (a, b) in enumerate(zip(dims[:-1], dims[1:])):
        mods.append(nn.Conv2d(a, b, kernel, stride=1, padding=kernel // 2, bias=bias))
        if act is not None and i < layers - 1:
            mods.append(act())
    return nn.Sequential(*mods)


# ---------------------------------------------------------------- paper 2: autoencoders

def autoencoder_fcn(in_features: int, layers: int = 10, *, width: int = 512,  # paper 2, Fig 2: 10 x 512
                    activation: str = "relu") -> nn.Module:
    """Paper 2's deep fully connected autoencoder: `layers` weight layers, `width` hidden units
    (Fig 2: 10 x 512 on the Swiss roll; Fig 3a: 7 x 128, Fig 3b: 14 x 128 on digits)."""
    if layers < 2:
        raise ValueError("a deep autoencoder needs at least 2 weight layers")
    return fcn(in_features, layers - 1, width=width, activation=activation)


def single_layer_ae(in_features: int, *, activation: str = "sigmoid") -> nn.Module:
    """Paper 2, Theorem 1: f(x) = phi(A x) with A (d, d) initialized at zero, no bias."""
    act = _activation(activation)
    if act is None:
        raise ValueError("single_layer_ae needs a nonlinearity (sigmoid or tanh)")
    lin = nn.Linear(in_features, in_features, bias=False)
    nn.init.zeros_(lin.weight)
    return Flat(nn.Sequential(lin, act()))


def two_layer_fixed_ae(in_features: int, width: int, *, std: float = 1.0) -> nn.Module:
    """Paper 2, Theorem 3: f(x) = W2 relu(W1 x + b) with W1 (k, d) and b (k,) i.i.d. N(0, std^2)
    (to stay fixed: train only `net.2.weight`) and W2 (d, k) initialized at zero."""
    first, second = nn.Linear(in_features, width), nn.Linear(width, in_features, bias=False)
    with torch.no_grad():
        first.weight.normal_(0.0, std)
        first.bias.normal_(0.0, std)
        second.weight.zero_()
    return Flat(nn.Sequential(first, nn.ReLU(), second))


def small_conv2d(x: torch.Tensor, conv: nn.Conv2d) -> torch.Tensor:
    """`conv(x)`, on a CPU by PyTorch's own convolution kernel (`thnn_conv2d`: unfold and one matrix product)
    instead of oneDNN's. For paper 2's conv nets on 2x2 to 4x4 images oneDNN's fixed cost per call is most of a
    training step, and the native kernel is faster there (measured per net: benchmarks/RESULTS.md, session 15);
    it gives, bit for bit, what `conv(x)` gives with oneDNN switched off. Inside a torch.func transform (a
    vmap-ed band, jacrev, jvp: the native kernel has no forward-mode derivative), under a dispatch mode (torch's
    FlopCounterMode counts `thnn_conv2d` with the wrong signature and raises), on a GPU, or for a convolution it
    does not cover, this is `conv(x)`."""
    wrapped = torch._C._functorch.is_functorch_wrapped_tensor
    if (x.device.type != "cpu" or wrapped(x) or wrapped(conv.weight) or is_in_torch_dispatch_mode()
            or conv.groups != 1
            or conv.padding_mode != "zeros" or isinstance(conv.padding, str) or any(d != 1 for d in conv.dilation)):
        return conv(x)
    return torch._C._nn.thnn_conv2d(x, conv.weight, conv.kernel_size, conv.bias, conv.stride, conv.padding)


class LinearConvAE(nn.Module):
    """A stack of bias-free 3x3 convolutions (stride 1, zero padding 1), by default without activations.

    With `skip_every=k`, the input of every block of k convolutions whose channels match is added
    to the block's output (paper 2, App. F: skip connections every 10 layers past 100 layers).
    Without `activation` the network is linear, so `linalg.operator_matrix` reads it as one matrix;
    `activation` (a module class, e.g. nn.LeakyReLU) follows every convolution (paper 2, Fig 9-10).
    """

    def __init__(self, convs: list, skip_every: int | None = None, activation=None):
        super().__init__()
        self.convs = nn.ModuleList(convs)
        self.skip_every = skip_every
        self.act = activation() if activation is not None else None

    def forward(self, x):
        block_in = x
        for i, conv in enumerate(self.convs):
            x = small_conv2d(x, conv)                          # tiny images: PyTorch's kernel, not oneDNN's
            if self.act is not None:
                x = self.act(x)
            if self.skip_every and (i + 1) % self.skip_every == 0 and x.shape == block_in.shape:
                x = x + block_in
                block_in = x
            elif self.skip_every and (i + 1) % self.skip_every == 0:
                block_in = x
        return x


def linear_conv_ae(layers: int, filters: int = 1, *,  # paper 2, Tables 1-2: 1 / 16 / 128 filters
                   kernel: int = 3,  # paper 2, App. F: kernel 3, padding 1, stride 1
                   in_channels: int = 1, init_std: float | None = None,
                   init_value: float | None = None,
                   skip_every: int | None = None) -> LinearConvAE:
    """Paper 2, Theorem 4/5 and Tables 1-2: a linear convolutional autoencoder of `layers`
    convolutions (`in_channels -> filters -> ... -> filters -> in_channels`; `layers=1` maps
    `in_channels -> in_channels`), no biases, no activations.

    `init_std`: every weight drawn from N(0, init_std^2 / c_in) ("initialized close to zero"; the
    1 / c_in keeps nets with more filters equally close to zero); None keeps PyTorch's default.
    `init_value`: every weight set to this constant instead (as paper 2 initializes its other conv
    nets, Fig 8: 1.8e-3, Fig 9: 1e-1); give at most one of `init_std` and `init_value`.
    `skip_every`: see `LinearConvAE`.
    """
    if layers < 1:
        raise ValueError("a linear conv autoencoder needs at least one layer")
    if init_std is not None and init_value is not None:
        raise ValueError("give init_std or init_value, not both")
    dims = [in_channels] + [filters] * (layers - 1) + [in_channels]
    convs = [nn.Conv2d(a, b, kernel, stride=1, padding=kernel // 2, bias=False) for a, b in zip(dims[:-1], dims[1:])]
    if init_std is not None:
        with torch.no_grad():
            for c in convs:
                c.weight.normal_(0.0, init_std / math.sqrt(c.in_channels))
    model = LinearConvAE(convs, skip_every)
    return model if init_value is None else initialize_(model, "constant", value=init_value)


def single_filter_conv_ae(layers: int, *, activation: str = "leaky_relu",  # paper 2, Fig 9-10: leaky ReLU
                          init: str = "constant", value: float = 0.1,  # paper 2, Fig 9: every parameter 1e-1
                          skip_every: int | None = None) -> LinearConvAE:
    """Paper 2, Fig 9-10 (App. H): `layers` single-filter 3x3 convolutions (zero padding 1, stride 1,
    no biases), each followed by `activation`. `init`: "constant" sets every weight to `value`
    (Fig 9); any other `initialize_` scheme, e.g. "xavier_uniform" (Fig 10). `skip_every`: Fig 10
    uses skip connections every 2 layers."""
    convs = [nn.Conv2d(1, 1, 3, stride=1, padding=1, bias=False) for _ in range(layers)]
    model = LinearConvAE(convs, skip_every, _activation(activation))
    return initialize_(model, init, value=value if init == "constant" else None)


def downsampling_d1(*, channels: int = 64, size: int = 32, in_channels: int = 3,  # paper 2, Fig 7: 32x32 CIFAR
                    nonlinear: bool = False) -> nn.Sequential:
    """Paper 2, Fig 7a (App. G): Network D1, stride-2 convolutions down to a 1x1 representation and back.

    log2(`size`) bias-free 3x3 convolutions of stride 2 (`in_channels -> channels -> ...`, 32x32 -> 1x1),
    then as many bias-free 4x4 transposed convolutions of stride 2 (1x1 -> 32x32, the last one to
    `in_channels`). The figure's image is not in the text: channel count and the transposed
    convolutions for the way up are our choice. Linear (one matrix, `linalg.operator_matrix`) unless
    `nonlinear`, which puts a LeakyReLU after every layer (paper 2, Fig 5b / Fig 6).
    """
    levels = int(math.log2(size))
    if 2 ** levels != size:
        raise ValueError(f"downsampling_d1 needs a power-of-two image side, got {size}")
    dims = [in_channels] + [channels] * levels
    mods = [nn.Conv2d(a, b, 3, stride=2, padding=1, bias=False) for a, b in zip(dims[:-1], dims[1:])]
    ups = [channels] * levels + [in_channels]
    mods += [nn.ConvTranspose2d(a, b, 4, stride=2, padding=1, bias=False) for a, b in zip(ups[:-1], ups[1:])]
    if not nonlinear:
        return nn.Sequential(*mods)
    return nn.Sequential(*[m for layer in mods for m in (layer, nn.LeakyReLU())])


def downsampling_d2(*, layers: int = 29,  # paper 2, Fig 8: ceil(4^4/9) = 29 layers at 4x4
                    channels: int = 1, factor: int = 8,  # paper 2, Fig 8: 32x32 -> 4x4 after layer 1
                    in_channels: int = 3, value: float | None = 1.8e-3,  # paper 2, Fig 8: every parameter 1.8e-3
                    jitter: float = 0.0) -> nn.Sequential:
    """Paper 2, Fig 8a (App. G): Network D2, linear, bias-free.

    Layer 1 downsamples by `factor` (an 8x8 convolution of stride 8: 32x32 -> 4x4, `channels`
    filters), `layers - 2` `channels`-filter 3x3 convolutions (padding 1) act on the 4x4
    representation, and an 8x8 transposed convolution of stride 8 brings it back to 32x32:
    `layers` weight layers in all. The figure's image is not in the text: the kernel sizes of the
    first and last layers and `channels` are our choice. `value`: every weight set to this constant
    (None: PyTorch's default initialization). `jitter`: each constant weight then multiplied by
    1 + jitter * N(0, 1) (drawn from the build's seed). With `jitter=0` every channel receives the same
    gradient and stays equal to the others at every step, so the net acts as if it had one channel.
    """
    if layers < 3:
        raise ValueError("downsampling_d2 needs at least 3 layers (down, one at 4x4, up)")
    mods = [nn.Conv2d(in_channels, channels, factor, stride=factor, bias=False)]
    mods += [nn.Conv2d(channels, channels, 3, padding=1, bias=False) for _ in range(layers - 2)]
    mods.append(nn.ConvTranspose2d(channels, in_channels, factor, stride=factor, bias=False))
    model = nn.Sequential(*mods)
    if value is None:
        return model
    initialize_(model, "constant", value=value)
    if jitter:
        with torch.no_grad():
            for m in mods:
                m.weight.mul_(1 + jitter * torch.randn_like(m.weight))
    return model


# ---------------------------------------------------------------- paper 4: classifiers


def classifier(in_features, *, layers: int = 4,  # paper 4, Fig 1/5/9: 4 layers
               width: int = 512,  # paper 4 does not state the width: our choice
               batchnorm: bool = True, conv: bool = False, kernel: int = 3,
               init_norm: float | None = None, bn_affine: bool = False) -> nn.Sequential:
    """Paper 4's binary classifier: `layers` weight layers without biases, ReLU, one output (N, 1).

    Fully connected (`in_features` an int, or a (C, H, W) shape that is flattened) or convolutional
    (`conv=True`, `in_features=(C, H, W)`: `layers - 1` stride-2 convolutions with `width` channels,
    then one convolution covering the remaining map). `batchnorm=True` puts BatchNorm after every layer but the
    last: without parameters (affine=False, Fig 5 caption) unless `bn_affine` (PyTorch's default, which Fig 1 leaves
    unstated; its scale and shift are trained, with weight decay where the optimizer has one). `init_norm`: weights drawn
    zero-mean normal, then scaled to that Frobenius norm per layer (Fig 1 caption: 0.1 / 1 / 5).
    """
    if layers < 2:
        raise ValueError("a classifier needs at least 2 layers")
    shape = (in_features,) if isinstance(in_features, int) else tuple(in_features)
    if conv and len(shape) != 3:
        raise ValueError(f"conv=True needs in_features=(C, H, W), got {in_features}")
    mods: list[nn.Module] = []
    if conv:
        c, h, w = shape
        for _ in range(layers - 1):
            mods.append(nn.Conv2d(c, width, kernel, stride=2, padding=kernel // 2, bias=False))
            if batchnorm:
                mods.append(nn.BatchNorm2d(width, affine=bn_affine))
            mods.append(nn.ReLU())
            c, h, w = width, (h - 1) // 2 + 1, (w - 1) // 2 + 1
        mods += [nn.Conv2d(c, 1, (h, w), bias=False), nn.Flatten()]   # (N, 1)
    else:
        d = math.prod(shape)
        mods.append(nn.Flatten())
        for _ in range(layers - 1):
            mods.append(nn.Linear(d, width, bias=False))
            if batchnorm:
                mods.append(nn.BatchNorm1d(width, affine=bn_affine))
            mods.append(nn.ReLU())
            d = width
        mods.append(nn.Linear(d, 1, bias=False))
    model = nn.Sequential(*mods)
    if init_norm is not None:
        with torch.no_grad():
            for layer in weight_layers(model):
                nn.init.normal_(layer.weight)
        set_frobenius_norms_(model, init_norm)
    return model
