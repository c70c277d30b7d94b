"""How close a trained net is to the identity and to the constant map (paper 1), and friends."""
from __future__ import annotations

import torch

from .dynamics import iterate


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


@torch.no_grad()
def predict(model: torch.nn.Module, x: torch.Tensor, *, batch_size: int = 256) -> torch.Tensor:
    """`model(x)` in eval mode, in batches, on the model's device; returns a CPU tensor."""
    dev = next(model.parameters()).device
    model.eval()
    return torch.cat([model(x[i:i + batch_size].to(dev)).cpu() for i in range(0, len(x), batch_size)])


@torch.no_grad()
def identity_constant_scores(model: torch.nn.Module, probes: torch.Tensor, x_train: torch.Tensor) -> dict:
    """Mean correlation and MSE of the predictions on `probes` to the identity (the probe itself)
    and to the constant map (the training image), paper 1, Fig 8/9/31-33."""
    out = predict(model, probes)
    target_const = x_train.reshape(1, *probes.shape[1:]).cpu()
    return {
        "corr_identity": correlation(out, probes).mean().item(),
        "corr_constant": correlation(out, target_const).mean().item(),
        "mse_identity": (out - probes).pow(2).mean().item(),
        "mse_constant": (out - target_const).pow(2).mean().item(),
    }


@torch.no_grad()
def recovery_probability(f, train: torch.Tensor, starts: torch.Tensor, *, steps, eps: float) -> torch.Tensor:
    """Paper 2, Sec 3.3: R_t = P_{x0 ~ train}{ min_{x in starts} ||f^t(x) - x0|| < eps }, the fraction
    of training examples (M, ...) that some start (N, ...) reaches within `eps` after t iterations.

    `steps` an int: returns R_t for t = 0..steps, shape (steps + 1,); a sequence of ints: R_t at
    those t, shape (len(steps),).
    """
    wanted = list(range(steps + 1)) if isinstance(steps, int) else [int(t) for t in steps]
    ref = train.reshape(len(train), -1).double().cpu()                   # (M, d)
    x, at, r = starts, 0, {}
    for t in sorted(set(wanted)):                                         # memory: one iterate at a time
        x = iterate(f, x, t - at, record=[t - at])[0]                     # (N, ...)
        at = t
        r[t] = (torch.cdist(ref, x.reshape(len(x), -1).double().cpu()).min(dim=1).values < eps).double().mean()
    return torch.stack([r[t] for t in wanted]).float()


# ---------------------------------------------------------------- paper 1: identity vs constant
# -- worker A (FCNs, heatmaps, several examples)

# -- worker B (ConvNet sweeps)

# -- worker C (inside the ConvNets)


# ---------------------------------------------------------------- paper 2: attractors


# ---------------------------------------------------------------- paper 3: downsampling


# ---------------------------------------------------------------- paper 4: rho dynamics
