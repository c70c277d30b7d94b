"""Images transformed: resized (`resize`), and standardized with MNIST's mean and standard deviation as paper 1 does
(`standardize`, `unstandardize`). `data` re-exports every name here.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F

MNIST_MEAN, MNIST_STD = 0.1307, 0.3081  # paper 1, App. B: standardization of every input


def resize(x: torch.Tensor, size: int) -> torch.Tensor:
    """Resize (N, C, H, W) images to size x size (bilinear, antialiased when shrinking)."""
    return F.interpolate(x, size=(size, size), mode="bilinear", align_corners=False,
                         antialias=size < x.shape[-1])


def standardize(x: torch.Tensor, mean: float = MNIST_MEAN, std: float = MNIST_STD) -> torch.Tensor:
    return (x - mean) / std


def unstandardize(x: torch.Tensor, mean: float = MNIST_MEAN, std: float = MNIST_STD) -> torch.Tensor:
    return x * std + mean
