"""Many same-architecture models trained as one computation.

Seed bands and depth-fixed sweeps train dozens of tiny, independent models on the same input. Done
one after another, each step pays Python and kernel-launch overhead per model; here the models'
parameters are stacked (`torch.func.stack_module_state`) and one `vmap`-ed `functional_call` runs all of
them at once (a grouped convolution / batched matmul underneath). The optimizers of memlib are all
elementwise, so one optimizer over the stacked tensors updates each model exactly as its own would;
gradient clipping is done per model. The result agrees with serial `fit` runs to floating-point
tolerance (tests/test_ensemble.py).
"""
from __future__ import annotations

import copy
import math
import time

import torch
from torch import nn
from torch.func import functional_call, stack_module_state, vmap
from tqdm.auto import tqdm

from .runtime import MemlibError, get_device
from .train import History, TrainingDiverged, make_optimizer, resolve_schedule_and_loss, scheduled_lr


def _check_batchable(models):
    if not models:
        raise MemlibError("fit_many needs at least one model")
    if any(isinstance(m, nn.modules.batchnorm._BatchNorm) for m in models[0].modules()):
        raise MemlibError("fit_many does not batch BatchNorm nets (their running statistics are state); "
                          "train them one by one with fit")
    shapes = [[(n, tuple(p.shape)) for n, p in m.named_parameters()] for m in models]
    if any(s != shapes[0] for s in shapes[1:]):
        raise MemlibError("fit_many needs models of one architecture (same parameter names and shapes)")


def fit_many(models: list[nn.Module], x: torch.Tensor, target: torch.Tensor | None = None, *,
             steps: int, lr: float, optimizer: str = "sgd", momentum: float = 0.0,
             weight_decay: float = 0.0, schedule="constant", loss="mse", until_loss=None,
             clip_grad_norm: float | None = None, log_every: int | None = None, progress: bool = True,
             desc: str | None = None) -> list[History]:
    """Train every model in `models` on the same full batch, as `fit` would train each one.

    The trained weights are written back into the given modules; returns one History per model.
    `until_loss` stops when every model is below it (each keeps training until then, unlike `fit`).
    """
    _check_batchable(models)
    factor, loss_fn = resolve_schedule_and_loss(schedule, loss)
    device = get_device()
    x = x.to(device)
    target = x if target is None else target.to(device)
    for m in models:
        m.to(device)
    params, buffers = stack_module_state(models)                 # name -> (M, *shape)
    params = {k: v.detach().clone().requires_grad_(True) for k, v in params.items()}
    base = copy.deepcopy(models[0]).to("meta")

    def one_loss(p, b):
        return loss_fn(functional_call(base, (p, b), (x,)), target)

    all_losses = vmap(one_loss)                                   # -> (M,)
    opt = make_optimizer(list(params.values()), optimizer, lr=lr, momentum=momentum, weight_decay=weight_decay)
    n_models = len(models)
    log_every = log_every or max(1, steps // 200)
    hists = [History() for _ in models]
    current_lr = lr
    bar = tqdm(total=steps, desc=desc or f"fit x{n_models}", leave=False, disable=not progress, mininterval=0.5)
    start = time.perf_counter()
    try:
        for step in range(steps + 1):
            current_lr = scheduled_lr(opt, lr, factor, step, steps, current_lr)
            with torch.set_grad_enabled(step < steps):
                losses = all_losses(params, buffers)               # (M,)
            if step % log_every == 0 or step == steps:
                vals = losses.detach().cpu().tolist()
                bad = [i for i, v in enumerate(vals) if not math.isfinite(v)]
                if bad:
                    raise TrainingDiverged(f"training diverged: model {bad[0]} of {n_models} reached loss {vals[bad[0]]} "
                                           f"by step {step} of {steps} (optimizer={optimizer}, lr={current_lr:g}); "
                                           "lower the learning rate")
                for h, v in zip(hists, vals):
                    h.steps.append(step), h.loss.append(v), h.lr.append(current_lr)
                bar.set_postfix(loss=f"{max(vals):.3g}", refresh=False)
                if until_loss is not None and max(vals) < until_loss:
                    for h in hists:
                        h.stopped_at = step
                    break
            if step == steps:
                break
            opt.zero_grad(set_to_none=True)
            losses.sum().backward()                                # models are independent: sum = each its own
            if clip_grad_norm is not None:
                clip_per_model_(list(params.values()), clip_grad_norm)
            opt.step()
            bar.update(1)
    finally:
        bar.close()
    wall = time.perf_counter() - start
    with torch.no_grad():
        for i, m in enumerate(models):
            for name, p in m.named_parameters():
                p.copy_(params[name][i])
            m.eval()
    for h in hists:
        h.wall_time = wall / n_models
    return hists


@torch.no_grad()
def clip_per_model_(stacked: list[torch.Tensor], max_norm: float) -> torch.Tensor:
    """`torch.nn.utils.clip_grad_norm_` applied to each model's slice (dim 0) of stacked parameters."""
    norms = torch.stack([p.grad.flatten(1).pow(2).sum(1) for p in stacked if p.grad is not None]).sum(0).sqrt()
    coef = (max_norm / (norms + 1e-6)).clamp(max=1.0)            # (M,), as clip_grad_norm_ computes it
    for p in stacked:
        if p.grad is not None:
            p.grad.mul_(coef.view(-1, *([1] * (p.grad.ndim - 1))))
    return norms
