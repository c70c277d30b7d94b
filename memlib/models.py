"""Network builders with the papers' defaults, and initialization helpers.

Each builder's signature carries its paper's defaults, so a figure's variation is one keyword:
`convnet(20)` is paper 1's 20-layer ConvNet; `convnet(5, channels=3)` is Fig 4b's 3-channel one.
"""
from __future__ import annotations

import torch
from torch import nn

from .runtime import check_choice

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


def fcn(in_features: int, hidden_layers: int, *, width: int = 2048,  # paper 1, App. B: 2,048
        activation: str = "relu", bias: bool = True) -> nn.Module:
    """Fully connected net `in_features -> width x hidden_layers -> in_features`.

    `hidden_layers=0` is the 1-layer linear map `Wx` of paper 1, eq. 1.
    Accepts images: the input is flattened and the output reshaped like the input.
    """
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
    if layers < 1:
        raise ValueError("a ConvNet needs at least one layer")
    act = _activation(activation)
    dims = [in_channels] + [channels] * (layers - 1) + [in_channels]
    mods = []
    for i, (a, b) in enumerate(zip(dims[:-1], dims[1:])):
        mods.append(nn.Conv2d(a, b, kernel, stride=1, padding=kernel // 2, bias=bias))
        if act is not None and i < layers - 1:
            mods.append(act())
    return nn.Sequential(*mods)


def weight_layers(model: nn.Module) -> list[nn.Module]:
    """The Linear and Conv layers of `model`, input to output."""
    return [m for m in model.modules() if isinstance(m, (nn.Linear, nn.Conv1d, nn.Conv2d, nn.ConvTranspose2d))]


INIT_SCHEMES = ("default", "xavier_normal", "xavier_uniform", "kaiming_normal", "kaiming_uniform",
                "constant")


@torch.no_grad()
def initialize_(model: nn.Module, scheme: str = "default", *, value: float | None = None) -> nn.Module:
    """Re-initialize every weight layer in place (paper 1, App. H.3 / Fig 29; paper 2, Fig 12).

    "default" is PyTorch's own initialization (uniform, bound 1/sqrt(fan_in)); "constant" sets
    every weight to `value` (biases to 0). Biases are zeroed by the non-default schemes.
    """
    check_choice(scheme, INIT_SCHEMES, "initialization scheme")
    if scheme == "constant" and value is None:
        raise ValueError("initialize_(..., 'constant') needs value=")
    for layer in weight_layers(model):
        if scheme == "default":
            layer.reset_parameters()
            continue
        w = layer.weight
        if scheme == "constant":
            nn.init.constant_(w, value)
        elif scheme == "xavier_normal":
            nn.init.xavier_normal_(w)
        elif scheme == "xavier_uniform":
            nn.init.xavier_uniform_(w)
        elif scheme == "kaiming_normal":
            nn.init.kaiming_normal_(w, nonlinearity="relu")
        elif scheme == "kaiming_uniform":
            nn.init.kaiming_uniform_(w, nonlinearity="relu")
        if layer.bias is not None:
            nn.init.zeros_(layer.bias)
    return model


@torch.no_grad()
def set_frobenius_norms_(model: nn.Module, norm: float) -> nn.Module:
    """Rescale every weight layer so that its Frobenius norm equals `norm` (paper 4)."""
    for layer in weight_layers(model):
        layer.weight.mul_(norm / layer.weight.norm())
    return model


def count_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


def receptive_field(layers: int, kernel: int = 5) -> int:
    """Side of the receptive field of a stack of stride-1 convolutions."""
    return 1 + layers * (kernel - 1)
