"""Pearson correlations of images, the measure most of the papers' scores are built from: per pair of samples
(`correlation`) and as rows of centred unit vectors, whose products are the correlations (`unit_centred`).
`metrics` and `layerwise` read them; `metrics.correlation` is the same function.
"""
from __future__ import annotations

import torch


def correlation(a: torch.Tensor, b: torch.Tensor, *, undefined: float = 0.0) -> torch.Tensor:
    """Per-sample Pearson correlation over all pixels: (N, ...) x (N or 1, ...) -> (N,).

    A constant sample has no defined correlation; it scores `undefined`: 0 by default (the score the papers'
    point-map and identity measures give an output that carries no image), `float("nan")` where a caller must not
    read a constant output as "uncorrelated" (paper 2, Fig 9: `dynamics.best_abs_corr`).
    """
    a = a.reshape(len(a), -1).double()
    b = b.reshape(len(b), -1).double().expand_as(a)
    ac = a - a.mean(1, keepdim=True)
    bc = b - b.mean(1, keepdim=True)
    denom = ac.norm(dim=1) * bc.norm(dim=1)
    r = (ac * bc).sum(1) / denom.clamp_min(1e-300)
    return torch.where(denom > 0, r, torch.full_like(r, undefined)).float()


def unit_centred(z: torch.Tensor) -> torch.Tensor:
    """Rows of (N, ...) flattened, centred and scaled to unit norm (a constant row becomes 0), so
    that `a @ b.T` is the matrix of Pearson correlations."""
    z = z.reshape(len(z), -1).double()
    z = z - z.mean(1, keepdim=True)
    n = z.norm(dim=1, keepdim=True)
    return torch.where(n > 0, z / n.clamp_min(1e-300), torch.zeros_like(z))


def sign_test_p(differences) -> float:
    """One-sided sign test: the probability, under "each paired difference is as likely positive as negative",
    of at least as many positive differences as observed (ties dropped). The `more_per_item` row of the rule from
    the papers' words to tests (claims/rules.py): "more, compared item by item" holds for a seed when this is
    below 0.05. The exact binomial tail (scipy.stats.binomtest); 1.0 when every difference is a tie."""
    import math as _math

    from scipy import stats
    d = [float(v) for v in differences]
    if any(not _math.isfinite(v) for v in d):
        return float("nan")
    pos, n = sum(v > 0 for v in d), sum(v != 0 for v in d)
    if n == 0:
        return 1.0
    return float(stats.binomtest(pos, n, 0.5, alternative="greater").pvalue)
