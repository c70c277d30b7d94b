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


def wide_two_layer_eigenvalue(x_norm: float) -> float:
    """Paper 2, Theorem 3: the Jacobian eigenvalue at the training example x of a wide 2-layer
    autoencoder with W1 fixed and W2 trained from zero tends to ||x||² / (||x||² + 1) < 1."""
    return x_norm ** 2 / (x_norm ** 2 + 1)
