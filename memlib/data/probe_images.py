"""Generated test inputs, the papers' probes: images at an exact correlation with a training image (paper 1, App. E.3),
noise, squares and patterns (`probes`), and the swiss roll's points. Nothing is read from disk. `data` re-exports every
public name here (the notebooks call `data.probes`, `data.correlated_probes`, ...); `data.probe_panel` mixes them with
test images read from a data root.
"""
from __future__ import annotations

import numpy as np
import torch

from ..runtime import MemlibError, check_choice


PROBE_KINDS = ("noise", "squares", "patterns")


def correlated_probes(x_train: torch.Tensor, rho: float, n: int, *, seed: int = 0) -> torch.Tensor:
    """`n` random images whose Pearson correlation with `x_train` is exactly `rho` and whose
    Euclidean norm equals `x_train`'s (paper 1, App. E.3).

    Random pixels are centred and made orthogonal to the centred training image; then the
    parallel component is added to force correlation `rho`, and the mean and scale are set so the
    norm matches. Returns (n, *x_train.shape[-3:]).
    """
    if not -1.0 <= rho <= 1.0:
        raise MemlibError(f"rho must lie in [-1, 1], got {rho}")
    shape = x_train.shape[-3:]
    x = x_train.reshape(-1).double()
    if x.numel() != int(np.prod(shape)):
        raise MemlibError("correlated_probes takes one training image")
    d = x.numel()
    mean = x.mean()
    xc = x - mean
    if float(xc.norm()) == 0.0:
        raise MemlibError("correlated_probes needs an image that is not constant: a constant image has no "
                          "Pearson correlation with anything")
    u = xc / xc.norm()                                              # (d,) unit, zero mean
    z = torch.randn(n, d, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    z = z - z.mean(1, keepdim=True)
    z = z - (z @ u)[:, None] * u[None]
    v = z / z.norm(dim=1, keepdim=True)                             # (n, d) unit, zero mean, ⟂ u
    pc = rho * u[None] + (1 - rho ** 2) ** 0.5 * v                  # unit, zero mean, corr = rho
    probes = xc.norm() * pc + mean                                  # ||probe||² = ||xc||² + d·mean² = ||x||²
    assert probes.shape == (n, d)
    return probes.float().reshape(n, *shape)


def probes(kind: str, n: int, shape=(1, 28, 28), *, seed: int = 0) -> torch.Tensor:
    """Generated test images in [0, 1]: uniform "noise", white "squares" on black, or "patterns"
    (stripes, checkerboards, rings, crosses). Returns (n, *shape)."""
    check_choice(kind, PROBE_KINDS, "probe kind")
    c, h, w = shape
    g = torch.Generator().manual_seed(seed)
    if kind == "noise":
        return torch.rand(n, c, h, w, generator=g)
    out = torch.zeros(n, c, h, w)
    yy, xx = torch.meshgrid(torch.arange(h, dtype=torch.float32), torch.arange(w, dtype=torch.float32), indexing="ij")
    for i in range(n):
        r = torch.rand(4, generator=g)
        if kind == "squares":
            side = int(h * (0.25 + 0.5 * r[0]))
            top, left = int((h - side) * r[1]), int((w - side) * r[2])
            out[i, :, top:top + side, left:left + side] = 1.0
            continue
        period = 3 + 6 * r[0]
        pattern = i % 4
        if pattern == 0:    # stripes at a random angle
            a = np.pi * r[1]
            img = torch.sin(2 * np.pi * (xx * torch.cos(a) + yy * torch.sin(a)) / period) > 0
        elif pattern == 1:  # checkerboard
            img = ((xx // (period / 2)) + (yy // (period / 2))) % 2 == 0
        elif pattern == 2:  # rings around a random centre
            cy, cx = h * r[1], w * r[2]
            img = torch.sin(2 * np.pi * ((yy - cy) ** 2 + (xx - cx) ** 2).sqrt() / period) > 0
        else:               # a cross
            t = max(1, int(period / 2))
            cy, cx = int(h * (0.25 + 0.5 * r[1])), int(w * (0.25 + 0.5 * r[2]))
            img = ((yy - cy).abs() < t) | ((xx - cx).abs() < t)
        out[i] = img.float()
    return out


def swiss_roll(n: int, *, seed: int = 0, noise: float = 0.0) -> torch.Tensor:
    """`n` points on the 2-D Swiss roll (paper 2, Fig 2), scaled to [-1, 1]. Returns (n, 2)."""
    g = torch.Generator().manual_seed(seed)
    t = 1.5 * np.pi * (1 + 2 * torch.rand(n, generator=g))
    pts = torch.stack([t * torch.cos(t), t * torch.sin(t)], 1)
    pts = pts + noise * torch.randn(n, 2, generator=g)
    return pts / (1.5 * np.pi * 3)
