"""Image tensors scaled for showing or comparing: min-max per image (`unit_range`).

A leaf module: the computing modules (`metrics`) and the drawing one (`plot`) both import it at the top.
"""
from __future__ import annotations

import torch


def unit_range(t: torch.Tensor) -> torch.Tensor:
    """Scale each image of (N, ...) to [0, 1] (min-max), for showing maps of arbitrary range."""
    flat = t.reshape(len(t), -1).float()
    lo, hi = flat.min(1, keepdim=True).values, flat.max(1, keepdim=True).values
    return ((flat - lo) / (hi - lo).clamp_min(1e-12)).reshape(t.shape)
