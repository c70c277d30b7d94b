"""Many same-architecture models trained as one computation, or one after another when that is faster.

Seed bands and depth-fixed sweeps train dozens of tiny, independent models on the same input. Done
one after another, each step pays Python and kernel-launch overhead per model; here the models'
parameters are stacked (`torch.func.stack_module_state`) and one `vmap`-ed `functional_call` runs all of
them at once (a batched matmul underneath); plain ConvNets run as one wide network of grouped
convolutions (`grouped_forward`), in channels-last layout on a CPU, which is faster than vmap's. Big
models that are faster one at a time run as whole `fit`s in parallel threads on a CPU (`_fit_threads`). The optimizers of memlib are all
elementwise, so one optimizer over the stacked tensors updates each model exactly as its own would;
gradient clipping is done per model, and a model whose loss falls below `until_loss` is frozen at
that step, as its own `fit` would stop. The result agrees with serial `fit` runs to floating-point
tolerance (tests/test_ensemble.py).

`strategy="auto"` picks per case what `python -m memlib bench` measured faster: batched for small
models, serial `fit` calls for big ones (on a CPU, vmap-ed matrix-vector products of a 3 x 2048 FCN
run ~5x slower than one model after another), and serial, with the reason stated once, for what
cannot be stacked (BatchNorm running statistics, minibatches, callbacks, partial training).
"""
from __future__ import annotations

import copy
import math
import os
import time
import warnings

import torch
from torch import nn
from torch.func import functional_call, stack_module_state, vmap

from .cuda_graph import GraphedStep, graph_blocker
from .runtime import MemlibError, check_choice, get_device, max_steps, progress_bar
from .train import History, diverged, fit, make_optimizer, resolve_schedule_and_loss, scheduled_lr

STRATEGIES = ("auto", "batched", "serial")
# When "auto" trains batched, by device type. Models that go through vmap: the largest model (parameters)
# and the most parameters in Linear layers. Measured on the 2-core CPU, 8 models, one image (model-steps/s,
# serial -> batched): FCN 2x64 (12k) 805 -> 1980, FCN 3x256 (534k) 374 -> 173, FCN 3x2048 (11.6M) 5x
# slower batched: vmap turns one-example Linear layers into batched matrix-vector products, slow on a CPU.
# Plain ConvNets (is_plain_convnet) are batched as one grouped convolution per layer (grouped_forward),
# channels-last on a CPU; measured on the 2-core CPU, 3 models on one 28x28 image, serial -> batched:
# 5x32 246 -> 303, 10x32 110 -> 135, 20x32 53 -> 63, 10x64 41.7 -> 39.3, 5x128 30.9 -> 24.1 (8 x 5x32:
# 222 -> 382, vmap 321). Hence `conv_channels`: the widest such ConvNet "auto" batches.
# `group`: at most this many models per batched computation (32 ConvNets 5x32, model-steps/s against
# naive: all at once 1.04-1.17x; in groups of 4 / 8 / 16: 1.41 / 1.48 / 1.33x).
BATCHED_LIMITS = {"cpu": dict(params=400_000, linear_params=100_000, conv_channels=32, group=8),
                  "cuda": dict(params=50_000_000, linear_params=50_000_000, conv_channels=4096, group=1024)}
_warned: set = set()


def serial_reason(models, *, batch_size=None, parameters=None, callbacks=()) -> str | None:
    """Why these models/arguments cannot be trained batched (None: they can)."""
    if any(isinstance(m, nn.modules.batchnorm._BatchNorm) for m in models[0].modules()):
        return "BatchNorm running statistics are per-model state"
    shapes = [[(n, tuple(p.shape)) for n, p in m.named_parameters()] for m in models]
    if any(s != shapes[0] for s in shapes[1:]):
        return "the models differ in architecture"
    if batch_size is not None:
        return "minibatch orders are per-model (seeded by each model's seed)"
    if parameters is not None:
        return "only some parameters are trained"
    if callbacks:
        return "callbacks see one model at a time"
    return None


def choose_strategy(models, strategy: str = "auto", **fit_kwargs) -> tuple[str, str | None]:
    """("batched" | "serial", reason for serial or None)."""
    check_choice(strategy, STRATEGIES, "strategy")
    if strategy == "auto" and os.environ.get("MEMLIB_STRATEGY") == "serial":
        strategy = "serial"     # measuring what batching saves: MEMLIB_STRATEGY=serial python -m memlib run
    reason = serial_reason(models, **{k: fit_kwargs.get(k) for k in ("batch_size", "parameters")},
                           callbacks=fit_kwargs.get("callbacks") or ())
    if strategy == "batched" and reason:
        raise MemlibError(f"these models cannot be trained batched: {reason}; use strategy='serial' or 'auto'")
    if strategy == "serial" or reason:
        return "serial", reason
    if strategy == "batched":
        return "batched", None
    if len(models) == 1:
        return "serial", None
    limits = BATCHED_LIMITS.get(get_device().type, BATCHED_LIMITS["cpu"])
    if is_plain_convnet(models[0]):
        widest = max(m.out_channels for m in models[0] if isinstance(m, nn.Conv2d))
        return ("batched", None) if widest <= limits["conv_channels"] else ("serial", None)
    size = sum(p.numel() for p in models[0].parameters())
    linear = sum(p.numel() for m in models[0].modules() if isinstance(m, nn.Linear) for p in m.parameters())
    if size > limits["params"] or linear > limits["linear_params"]:
        return "serial", None   # measured faster (see BATCHED_LIMITS); not worth a warning
    return "batched", None


def fit_many(models: list[nn.Module], x: torch.Tensor, target: torch.Tensor | None = None, *,
             steps: int, lr: float, optimizer: str = "sgd", momentum: float = 0.0,
             weight_decay: float = 0.0, schedule="constant", loss="mse", until_loss=None,
             clip_grad_norm: float | None = None, log_every: int | None = None, progress: bool = True,
             desc: str | None = None, seeds=None, seed: int = 0, batch_size=None, parameters=None,
             callbacks=(), cuda_graph: bool = True, strategy: str = "auto") -> list[History]:
    """Train every model in `models` on `x` as `fit` would train each one; one History per model.

    `seeds`: each model's `fit` seed (minibatch order), default `seed` for all. The trained
    weights are written into the given modules.
    """
    if not models:
        raise MemlibError("fit_many needs at least one model")
    if max_steps() is not None:
        steps = min(steps, max_steps())
    seeds = list(seeds) if seeds is not None else [seed] * len(models)
    if len(seeds) != len(models):
        raise MemlibError(f"{len(models)} models but {len(seeds)} seeds")
    kw = dict(steps=steps, lr=lr, optimizer=optimizer, momentum=momentum, weight_decay=weight_decay,
              schedule=schedule, loss=loss, until_loss=until_loss, clip_grad_norm=clip_grad_norm,
              log_every=log_every, progress=progress, cuda_graph=cuda_graph)
    how, reason = choose_strategy(models, strategy, batch_size=batch_size, parameters=parameters,
                                  callbacks=callbacks)
    if how == "serial":
        if reason and len(models) > 1 and reason not in _warned:
            _warned.add(reason)
            warnings.warn(f"training {len(models)} models one after another: {reason}", stacklevel=3)
        workers = torch.get_num_threads()
        if reason is None and get_device().type == "cpu" and workers > 1 and len(models) >= 2 * workers:
            return _fit_threads(models, seeds, x, target, workers, desc=desc, **kw)
        return [fit(m, x, target, seed=s, batch_size=batch_size, parameters=parameters, callbacks=callbacks,
                    desc=f"{desc or 'fit'} {i + 1}/{len(models)}", **kw)
                for i, (m, s) in enumerate(zip(models, seeds))]
    group = BATCHED_LIMITS.get(get_device().type, BATCHED_LIMITS["cpu"])["group"]
    hists = []
    for i in range(0, len(models), group):                      # independent models: chunks train alike
        hists += _fit_batched(models[i:i + group], x, target, desc=desc, **kw)
    return hists


def _fit_threads(models, seeds, x, target, workers: int, *, desc=None, progress=True, **kw) -> list[History]:
    """Big models on a CPU: `workers` Python threads, each running whole `fit`s with one intra-op thread
    (PyTorch releases the GIL inside its kernels). For a memory-bound 3 x 2048 FCN two one-thread fits
    at once beat one two-thread fit after another by ~1.3x (measured: 4 models 75 -> 100 model-steps/s);
    the arithmetic of each fit is its own, as serial."""
    from concurrent.futures import ThreadPoolExecutor
    saved = torch.get_num_threads()
    bar = progress_bar(total=len(models), desc=f"{desc or 'fit'} x{len(models)} ({workers} threads)", leave=False,
                       disable=not progress)

    def one(i):
        torch.set_num_threads(1)                                  # this thread's OpenMP setting
        h = fit(models[i], x, target, seed=seeds[i], progress=False, **kw)
        bar.update(1)
        return h

    torch.set_num_threads(1)                                      # the shared intra-op pool
    try:
        with ThreadPoolExecutor(workers) as pool:
            return list(pool.map(one, range(len(models))))
    finally:
        torch.set_num_threads(saved)
        bar.close()


def _fit_batched(models, x, target, *, steps, lr, optimizer, momentum, weight_decay, schedule, loss,
                 until_loss, clip_grad_norm, log_every, progress, desc, cuda_graph) -> list[History]:
    if steps < 0:
        raise MemlibError(f"steps must be >= 0, got {steps}")
    factor, loss_fn = resolve_schedule_and_loss(schedule, loss)
    device = get_device()
    x = x.to(device)
    target = x if target is None else target.to(device)
    if len(target) != len(x):
        raise MemlibError(f"x has {len(x)} examples but target has {len(target)}")
    for m in models:
        m.to(device)
    params, buffers = stack_module_state(models)                 # name -> (M, *shape)
    params = {k: v.detach().clone().requires_grad_(True) for k, v in params.items()}
    stacked = list(params.values())
    base = copy.deepcopy(models[0]).to("meta")

    if is_plain_convnet(base):                                    # one wide grouped convolution per layer
        def all_losses(p, b):                                     # -> (M,)
            out = grouped_forward(base, p, x, len(models))        # (N, M, C, H, W)
            return torch.stack([loss_fn(out[:, i], target) for i in range(len(models))])
    else:
        def one_loss(p, b):
            return loss_fn(functional_call(base, (p, b), (x,)), target)
        all_losses = vmap(one_loss)                               # -> (M,)
    use_graph = cuda_graph and graph_blocker(device, optimizer=optimizer, static_shapes=True,
                                             until_loss=until_loss) is None
    opt = make_optimizer(stacked, optimizer, lr=lr, momentum=momentum, weight_decay=weight_decay,
                         capturable=use_graph)
    n_models = len(models)
    log_every = log_every or max(1, steps // 200)
    hists = [History() for _ in models]
    stopped: dict[int, dict] = {}                                 # model -> its parameters when it stopped

    def update(losses):
        losses.sum().backward()                                   # models are independent: sum = each its own
        if clip_grad_norm is not None:
            clip_per_model_(stacked, clip_grad_norm)
        opt.step()

    def whole_step():
        opt.zero_grad(set_to_none=True)
        losses = all_losses(params, buffers)
        update(losses)
        return losses

    graphed = GraphedStep(whole_step, enabled=use_graph)
    current_lr, last_read = lr, 0
    bar = progress_bar(total=steps, desc=desc or f"fit x{n_models}", leave=False, disable=not progress, mininterval=0.5)
    start = time.perf_counter()
    try:
        for step in range(steps + 1):
            new_lr = scheduled_lr(opt, lr, factor, step, steps, current_lr)
            if new_lr != current_lr:
                graphed.invalidate()
            current_lr = new_lr
            logged = step % log_every == 0 or step == steps
            if not (logged or until_loss is not None):
                graphed()
                bar.update(1)
                continue
            opt.zero_grad(set_to_none=True)
            with torch.set_grad_enabled(step < steps):
                losses = all_losses(params, buffers)               # (M,)
            vals = losses.detach().cpu().tolist()
            bad = [i for i, v in enumerate(vals) if not math.isfinite(v) and i not in stopped]
            if bad:
                raise diverged(vals[bad[0]], step, last_read, steps, optimizer, current_lr,
                               who=f"model {bad[0]} of {n_models}: ")
            last_read = step
            for i, (h, v) in enumerate(zip(hists, vals)):
                if i in stopped:
                    continue
                now_stops = until_loss is not None and v < until_loss
                if logged or now_stops:
                    h.steps.append(step), h.loss.append(v), h.lr.append(current_lr)
                if now_stops:                                      # as fit stops: keep these weights
                    h.stopped_at = step
                    stopped[i] = {k: p[i].detach().clone() for k, p in params.items()}
            live = [v for i, v in enumerate(vals) if i not in stopped]
            bar.set_postfix(loss=f"{max(live or vals):.3g}", refresh=False)
            if len(stopped) == n_models or step == steps:
                break
            update(losses)
            if stopped:
                with torch.no_grad():
                    for i, saved in stopped.items():
                        for k, p in params.items():
                            p[i].copy_(saved[k])
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


ELEMENTWISE = (nn.ReLU, nn.LeakyReLU, nn.Tanh, nn.Sigmoid, nn.Identity, nn.ELU, nn.GELU, nn.Softplus)


def is_plain_convnet(model: nn.Module) -> bool:
    """A Sequential of ungrouped, zero-padded Conv2d layers and parameter-free elementwise activations
    (paper 1's ConvNets): what `grouped_forward` computes."""
    return isinstance(model, nn.Sequential) and len(model) > 0 and isinstance(model[0], nn.Conv2d) and all(
        (isinstance(m, nn.Conv2d) and m.groups == 1 and m.padding_mode == "zeros") or isinstance(m, ELEMENTWISE)
        for m in model)


def grouped_forward(base: nn.Sequential, params: dict, x: torch.Tensor, n_models: int) -> torch.Tensor:
    """All `n_models` ConvNets (stacked `params`: name -> (M, *shape)) applied to `x` (N, C, H, W) as one
    wide network: the first convolution maps the shared input to M x C channels, every later one is a
    convolution with `groups=M`, so model i only ever sees its own channels. Returns (N, M, C_out, H', W').

    Same arithmetic as M separate convolutions; on a CPU in channels-last layout the grouped
    convolution runs ~1.4x faster than vmap's (measured: 8 x 32 channels, 28x28: 2.4 vs 3.5 ms for
    forward + backward), which is what makes batched ConvNets pay on 2 cores.
    """
    h = x.to(memory_format=torch.channels_last) if x.device.type == "cpu" else x
    for i, m in enumerate(base):                                    # base[0] is a Conv2d (is_plain_convnet)
        if not isinstance(m, nn.Conv2d):
            h = m(h)
            continue
        w = params[f"{i}.weight"]                                   # (M, C_out, C_in, k, k)
        b = params.get(f"{i}.bias")                                 # (M, C_out) or None
        h = torch.nn.functional.conv2d(h, w.reshape(-1, *w.shape[2:]), None if b is None else b.reshape(-1),
                                       m.stride, m.padding, m.dilation, 1 if i == 0 else n_models)
    return h.reshape(h.shape[0], n_models, -1, *h.shape[2:])


@torch.no_grad()
def clip_per_model_(stacked: list[torch.Tensor], max_norm: float) -> torch.Tensor:
    """`torch.nn.utils.clip_grad_norm_` applied to each model's slice (dim 0) of stacked parameters."""
    norms = torch.stack([p.grad.flatten(1).pow(2).sum(1) for p in stacked if p.grad is not None]).sum(0).sqrt()
    coef = (max_norm / (norms + 1e-6)).clamp(max=1.0)            # (M,), as clip_grad_norm_ computes it
    for p in stacked:
        if p.grad is not None:
            p.grad.mul_(coef.view(-1, *([1] * (p.grad.ndim - 1))))
    return norms
