"""Pearson correlations of images, the measure most of the papers' scores are built from: per pair of samples
(`correlation`) and as rows of centred unit vectors, whose products are the correlations (`unit_centred`).
`metrics` and `layerwise` read them; `metrics.correlation` is the same function.
"""
from __future__ import annotations

import torch


def correlation(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Per-sample Pearson correlation over all pixels: (N, ...) x (N or 1, ...) -> (N,).

    A constant sample has no defined correlation; it scores 0.
    """
    a = a.reshape(len(a), -1).double()
    b = b.reshape(len(b), -1).double().expand_as(a)
    ac = a - a.mean(1, keepdim=True)
    bc = b - b.mean(1, keepdim=True)
    denom = ac.norm(dim=1) * bc.norm(dim=1)
    r = (ac * bc).sum(1) / denom.clamp_min(1e-300)
    return torch.where(denom > 0, r, torch.zeros_like(r)).float()


def unit_centred(z: torch.Tensor) -> torch.Tensor:
    """Rows of (N, ...) flattened, centred and scaled to unit norm (a constant row becomes 0), so
    that `a @ b.T` is the matrix of Pearson correlations."""
    z = z.reshape(len(z), -1).double()
    z = z - z.mean(1, keepdim=True)
    n = z.norm(dim=1, keepdim=True)
    return torch.where(n > 0, z / n.clamp_min(1e-300), torch.zeros_like(z))
