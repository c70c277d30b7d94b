"""A built model's weights: its weight layers (`weight_layers`, `WEIGHT_TYPES`), their re-initialization by scheme
(`initialize_`, `INIT_SCHEMES`: the `init` that `store.fit_cached` applies after the builder, keyed by its name),
their Frobenius norms set (`set_frobenius_norms_`, paper 4) and their count (`count_parameters`).

The builders (`memlib.models`, which re-exports these names) call them; the cache key names a builder by its
module path, never these functions.
"""
from __future__ import annotations

import torch
from torch import nn

from ..runtime import check_choice


WEIGHT_TYPES = (nn.Linear, nn.Conv1d, nn.Conv2d, nn.ConvTranspose2d)


def weight_layers(model: nn.Module) -> list[nn.Module]:
    """The Linear and Conv layers of `model`, input to output."""
    return [m for m in model.modules() if isinstance(m, WEIGHT_TYPES)]


INIT_SCHEMES = ("default", "xavier_normal", "xavier_uniform", "kaiming_normal", "kaiming_uniform",
                "constant", "paper_default", "uniform_per_layer_params")


@torch.no_grad()
def initialize_(model: nn.Module, scheme: str = "default", *, value: float | None = None) -> nn.Module:
    """Re-initialize every weight layer in place (paper 1, App. H.3 / Fig 29; paper 2, Fig 12).

    "default" is PyTorch's own initialization (uniform, bound 1/sqrt(fan_in)); "constant" sets
    every weight to `value` (biases to 0). "paper_default" is what paper 1 (App. H.3) calls its
    default: N(0, 1/(fan_in * fan_out)). "uniform_per_layer_params" is how paper 3 (Sec. 3) describes
    PyTorch's default: U(-a, a) with a = 1/sqrt(P), P the number of weights in the layer (for a
    conv, c_out * c_in * k * k: sqrt(c_out) times smaller than the real default's 1/sqrt(fan_in)).
    Biases are zeroed by the non-default schemes.
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
        elif scheme == "paper_default":   # paper 1, App. H.3: "default" N(0, 1/(f_i f_o))
            fan_in, fan_out = nn.init._calculate_fan_in_and_fan_out(w)
            nn.init.normal_(w, 0.0, (fan_in * fan_out) ** -0.5)
        elif scheme == "uniform_per_layer_params":   # paper 3, Sec. 3: U(-a, a), a = 1/sqrt(P)
            bound = w.numel() ** -0.5
            nn.init.uniform_(w, -bound, bound)
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
