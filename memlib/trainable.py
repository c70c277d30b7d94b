"""What `memlib.train`'s loop trains, one model's side of it: `Single`, one model as a *trainable* (the parameters
it trains, its minibatches, its losses, gradient clipping; `ensemble.Stacked` is M models as one), and
`check_inputs`, the one check of the data before any training. `memlib.train` re-exports both.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F

from .runtime import MemlibError, get_device


@torch.no_grad()
def check_inputs(model: torch.nn.Module, x: torch.Tensor, target: torch.Tensor | None, *, batch_size=None,
                 loss_fn=None) -> None:
    """One clear MemlibError, before any training, for data `fit` cannot train on: no examples, a batch
    size below 1, NaN or infinite values, a target whose shape is not the model's output's (MSE would
    broadcast it silently), or as many targets as examples."""
    for name, t in (("x", x), ("target", target)):
        if t is not None and not isinstance(t, torch.Tensor):
            shape = f" of shape {tuple(t.shape)}" if hasattr(t, "shape") else ""
            kind = type(t).__name__ if type(t).__module__ == "builtins" else f"{type(t).__module__}.{type(t).__name__}"
            raise MemlibError(f"{name} must be a torch tensor, got a {kind}{shape}; "
                              f"convert it with torch.as_tensor({name}, dtype=torch.float32)")
    if x.ndim == 0 or len(x) == 0:
        raise MemlibError(f"x has no examples (shape {tuple(x.shape)}): nothing to train on")
    if batch_size is not None and (not isinstance(batch_size, int) or batch_size < 1):
        raise MemlibError(f"batch_size must be a positive integer or None (full batch), got {batch_size!r}")
    for name, t in (("x", x), ("target", target)):
        if t is not None and t.is_floating_point() and not bool(torch.isfinite(t).all()):
            bad = int((~torch.isfinite(t)).sum())
            raise MemlibError(f"{name} holds {bad} NaN or infinite values of {t.numel()}; clean the data first")
    if target is not None and len(target) != len(x):
        raise MemlibError(f"x has {len(x)} examples but target has {len(target)}")
    if loss_fn is F.mse_loss:
        was = model.training
        model.eval()                                 # one example through it: BatchNorm must not count it
        try:
            out = model(x[:1].to(next(model.parameters()).device))
        finally:
            model.train(was)
        want = tuple((x if target is None else target).shape[1:])
        if tuple(out.shape[1:]) != want:
            raise MemlibError(f"the model's output has shape {tuple(out.shape[1:])} per example but the "
                              f"{'input (autoencoding)' if target is None else 'target'} has {want}; "
                              "the MSE would broadcast them silently")


class Single:
    """One model as a trainable: its own parameters (those named in `parameters`), full-batch or
    minibatches drawn without replacement each epoch from a generator seeded by `seed`."""
    n_models = 1

    def __init__(self, model, x, target, loss_fn, *, parameters=None, batch_size=None, seed=0):
        device = get_device()
        self.model = model.to(device)
        self.x = x.to(device)
        self.target = self.x if target is None else target.to(device)
        if len(self.target) != len(self.x):
            raise MemlibError(f"x has {len(self.x)} examples but target has {len(self.target)}")
        named = dict(model.named_parameters())
        if parameters is not None:
            unknown = sorted(set(parameters) - set(named))
            if unknown:
                raise MemlibError(f"unknown parameter names {unknown}; the model has {sorted(named)}")
        self.params = [p for n, p in named.items() if parameters is None or n in parameters]
        self.frozen = [p for p in named.values() if all(p is not q for q in self.params)]
        self.saved_flags = [p.requires_grad for p in self.frozen]
        for p in self.frozen:
            p.requires_grad_(False)
        self.loss_fn = loss_fn
        self.n = len(self.x)
        self.bs = self.n if batch_size is None else min(batch_size, self.n)
        self.steps_per_epoch = math.ceil(self.n / self.bs)
        self.static_shapes = self.n % self.bs == 0
        self.gen = torch.Generator().manual_seed(seed)
        self.idx = torch.arange(self.bs, device=device)   # (bs,) the minibatch's rows (static for graphs)
        self.order = None
        self.model.train()

    def select_batch(self, step: int, in_place: bool) -> None:
        """Choose step's minibatch (`in_place`: into the static index tensor a graph reads)."""
        if self.bs == self.n:
            return
        k = step % self.steps_per_epoch
        if k == 0:
            self.order = torch.randperm(self.n, generator=self.gen).to(self.idx.device)
        rows = self.order[k * self.bs:(k + 1) * self.bs]
        if in_place:
            self.idx.copy_(rows)
        else:
            self.idx = rows

    def losses(self) -> torch.Tensor:                                # (1,)
        xb, tb = (self.x, self.target) if self.bs == self.n else (self.x[self.idx], self.target[self.idx])
        return self.loss_fn(self.model(xb), tb).reshape(1)

    def clip_(self, max_norm: float) -> None:
        torch.nn.utils.clip_grad_norm_(self.params, max_norm)

    @staticmethod
    def per_model(mask: torch.Tensor, p: torch.Tensor) -> torch.Tensor:
        return mask.reshape(())

    def snapshot(self, i: int = 0) -> dict:
        """The model's parameters now (name -> a CPU copy): `fit(..., weights_at=...)` keeps them in its History."""
        return {n: p.detach().to("cpu", copy=True) for n, p in self.model.named_parameters()}

    def finish(self) -> None:
        for p, flag in zip(self.frozen, self.saved_flags):
            p.requires_grad_(flag)
        self.model.eval()
