"""Closed forms the notebooks compare trained networks against."""
from __future__ import annotations

import torch


def one_layer_solution(w0: torch.Tensor, x_train: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    """Paper 1, eq. 1 / App. D: the prediction on `x` (N, d) of the 1-layer linear net `Wx`
    trained from `W0` (d, d) to convergence on the single example `x_train` (d,):

        f(x) = (x̂ᵀx / ||x̂||²) x̂ + W0 (x − (x̂ᵀx / ||x̂||²) x̂)
    """
    xh = x_train.reshape(-1).double()
    x = x.reshape(len(x), -1).double()
    coef = (x @ xh) / (xh @ xh)                      # (N,)
    parallel = coef[:, None] * xh[None]              # (N, d)
    return (parallel + (x - parallel) @ w0.double().T).float()
