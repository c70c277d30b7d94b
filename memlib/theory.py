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


def conv_operator_support(size: int, layers: int, kernel: int = 3) -> torch.Tensor:
    """Paper 2, Theorem 5 / the forced-zero lemma: which entries of the (size², size²) matrix of a linear
    convolutional autoencoder (`layers` convolutions of `kernel` x `kernel`, stride 1, zero padding
    (kernel - 1) / 2, any number of filters) can be non-zero. Output pixel p reads input pixel q only when
    q lies within `layers` * (kernel - 1) / 2 of p in each coordinate (the receptive field), so every
    other entry is a forced zero whatever the weights. (size², size²) bool, row = output pixel."""
    reach = layers * (kernel // 2)
    idx = torch.arange(size)
    near = (idx[:, None] - idx[None, :]).abs() <= reach                  # (size, size): rows, then columns
    return (near[:, None, :, None] & near[None, :, None, :]).reshape(size * size, size * size)


def min_layers_without_forced_zeros(size: int, kernel: int = 3) -> int:
    """Paper 2, Theorem 5: the fewest convolutions whose product has no forced zero on size x size images,
    so that it can be a projection onto an arbitrary image (the lemma): s - 1 for kernel 3."""
    return -(-(size - 1) // (kernel // 2))
