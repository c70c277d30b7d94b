"""The one training loop. Every experiment in the package is `fit` plus arguments and callbacks.

Paper 1's recipe is the default shape of a call (App. B):
`fit(net, x, steps=..., lr=0.01, momentum=0.9, schedule="stagewise")` trains `net` to map `x` to
itself with the MSE loss. A callback is any `cb(state) -> bool | None` called every `log_every`
steps and at the end; returning True stops training.

`fit` on a list of same-architecture models trains them as one computation where that is faster
(memlib.ensemble: stacked parameters, one grouped or vmap-ed forward), one after another otherwise;
the loop below is the same in both cases: a *trainable* gives the losses of its M models (M = 1 for
one model) and the loop steps, logs, stops and schedules them.

To read what the loop does to one model without its modes, open `memlib.reference_loop`
(`train_reference`: the same training in plain steps); tests/test_reference_loop.py keeps `fit`,
batched `fit_many` and the CUDA graph equal to it.

This module is the loop and its entry points (`fit`, `fit_many`, `_loop`, `TrainingDiverged`). What the loop uses
lives beside it: one model as a trainable and the data check (`memlib.trainable`), optimizers, learning-rate
schedules and losses (`memlib.optim`), the history and a callback's state (`memlib.history`). Their names stay
importable from here (`History`, `Single`, `OPTIMIZERS`, `SCHEDULE_FACTORS`, `stagewise`, `final_decay`, ...).

On a CUDA device the step (forward, backward, clipping, optimizer) is captured once in a CUDA graph
and replayed (memlib.cuda_graph), and the loss is read on the host only every `SYNC_EVERY` steps:
each step writes its losses into a device buffer, and `until_loss` is decided on the device (a model
whose loss falls below it keeps the weights of that step, exactly as when the host checks every
step). So the loss curves, the stopping steps and the weights equal the eager loop's; what a graph
saves is the per-step launch overhead and the host synchronisations. Callbacks still see the model at
their logged steps (those steps run eagerly).
"""
from __future__ import annotations

import math
import time
from typing import Callable

import torch

from . import ensemble
from .cuda_graph import GraphedStep, graph_blocker
from .history import History, State
from .harness.modes import max_steps
from .optim import LOSSES, OPTIMIZERS, SCHEDULE_FACTORS, SCHEDULES, final_decay, stagewise  # noqa: F401 - train's too
from .optim import make_optimizer, resolve_schedule_and_loss, scheduled_lr
from .harness.progress import progress_bar
from .runtime import MemlibError, get_device
from .trainable import Single, check_inputs

SYNC_EVERY = 256   # graphed training reads its losses on the host once per this many steps


class TrainingDiverged(MemlibError):
    """The loss became NaN or infinite."""


def diverged(v: float, step: int, last_read: int, steps: int, optimizer: str, lr: float, who: str = "") -> TrainingDiverged:
    """The error for a non-finite loss first seen at `step` (the loss was last read, finite, at `last_read`)."""
    where = f"at step {step}" if step - last_read <= 1 else f"between steps {last_read + 1} and {step}"
    return TrainingDiverged(f"training diverged: {who}the loss became {v} {where} of {steps} "
                            f"(optimizer={optimizer}, lr={lr:g}); lower the learning rate")


def _loop(trainable, *, steps, lr, optimizer, momentum, weight_decay, factor, until_loss, clip_grad_norm,
          log_every, callbacks=(), progress=True, desc=None, cuda_graph=True, device_stop=None,
          weights_at=()) -> list[History]:
    """Train `trainable` (M models) for `steps` optimizer steps; one History per model.

    Host mode (no graph): the losses are read at every logged step and, with `until_loss`, every step.
    Device mode (a CUDA graph, or `device_stop=True` in tests): the graphed step records its losses in a
    device buffer and applies `until_loss` itself; the host reads the buffer every SYNC_EVERY steps.
    """
    device = get_device()
    M = trainable.n_models
    blocker = graph_blocker(device, optimizer=optimizer, static_shapes=trainable.static_shapes)
    use_graph = cuda_graph and blocker is None
    device_mode = use_graph if device_stop is None else device_stop
    opt = make_optimizer(trainable.params, optimizer, lr=lr, momentum=momentum, weight_decay=weight_decay,
                         capturable=use_graph)
    log_every = log_every or max(1, steps // 200)
    hists = [History() for _ in range(M)]
    stopped: dict[int, int] = {}                                    # model -> step at which it stopped
    saved: dict[int, list] = {}                                     # host mode, M > 1: stopped models' weights
    params = trainable.params

    if device_mode:                                                 # state the graphed step reads and writes
        buf = torch.zeros(SYNC_EVERY, M, device=device)             # (SYNC_EVERY, M) losses before each update
        slot = torch.zeros((), dtype=torch.long, device=device)     # next row of buf
        if until_loss is not None:
            stopped_d = torch.zeros(M, dtype=torch.bool, device=device)
            snaps = [p.detach().clone() for p in params]            # weights at each model's stopping step

    def update(losses):
        losses.sum().backward()                                     # models are independent: each its own gradient
        if clip_grad_norm is not None:
            trainable.clip_(clip_grad_norm)
        opt.step()

    def whole_step():                                               # capturable: no host reads in here
        opt.zero_grad(set_to_none=True)
        losses = trainable.losses()                                 # (M,)
        if device_mode:
            buf.index_copy_(0, slot.reshape(1), losses.detach().reshape(1, M))
            slot.add_(1)
            if until_loss is not None:
                with torch.no_grad():
                    now = (losses.detach() < until_loss) & ~stopped_d
                    stopped_d.logical_or_(now)
                    for p, s in zip(params, snaps):
                        s.copy_(torch.where(trainable.per_model(now, p), p, s))
        update(losses)
        if device_mode and until_loss is not None:
            with torch.no_grad():
                for p, s in zip(params, snaps):
                    p.copy_(torch.where(trainable.per_model(stopped_d, p), s, p))
        return losses

    graphed = GraphedStep(whole_step, enabled=use_graph)
    bar = progress_bar(total=steps, desc=desc or ("fit" if M == 1 else f"fit x{M}"), leave=False,
                       disable=not progress, mininterval=0.5)
    current_lr, last_read = lr, 0
    pending: list[tuple[int, float]] = []                           # device mode: (step, lr) of unread buffer rows

    def record(i, step, v, lr_at):
        h = hists[i]
        h.steps.append(step), h.loss.append(v), h.lr.append(lr_at)

    # the device compares float32 losses with float32(until_loss); the host, reading them, must agree
    limit = None if until_loss is None else (float(torch.tensor(until_loss, dtype=torch.float32)) if device_mode
                                             else until_loss)

    def read(step, vals, lr_at) -> None:
        """The host has the losses `vals` (before the update) of `step`: check, log, stop."""
        nonlocal last_read
        bad = [i for i, v in enumerate(vals) if not math.isfinite(v) and i not in stopped]
        if bad:
            raise diverged(vals[bad[0]], step, last_read, steps, optimizer, lr_at,
                           who=f"model {bad[0]} of {M}: " if M > 1 else "")
        last_read = step
        logged = step % log_every == 0 or step == steps
        for i, v in enumerate(vals):
            if i in stopped:
                continue
            stops = limit is not None and v < limit
            if logged or stops:
                record(i, step, v, lr_at)
            if stops:
                stopped[i] = step

    def flush() -> None:
        """Device mode: read the buffered losses of the pending steps (one host synchronisation)."""
        if not pending:
            return
        rows = buf[:len(pending)].cpu().tolist()
        for (step, lr_at), vals in zip(pending, rows):
            read(step, vals, lr_at)
        pending.clear()
        slot.zero_()

    keep_at = {int(k) for k in weights_at if 0 <= int(k) <= steps}
    start = time.perf_counter()
    try:
        for step in range(steps + 1):
            if step in keep_at:                                     # the weights after `step` updates
                for i in range(M):
                    if i not in stopped:
                        hists[i].snapshots[step] = trainable.snapshot(i)
            trainable.select_batch(step, in_place=use_graph)
            new_lr = scheduled_lr(opt, lr, factor, step, steps, current_lr)
            if new_lr != current_lr:
                graphed.invalidate()                                # the learning rate is baked into a graph
            current_lr = new_lr
            logged = step % log_every == 0 or step == steps
            if device_mode and step < steps and not (logged and callbacks):
                graphed()                                           # forward, backward, step: no host read
                pending.append((step, current_lr))
                if len(pending) == SYNC_EVERY:
                    flush()
                    if len(stopped) == M:
                        break
                bar.update(1)
                continue
            if device_mode:
                flush()
                if len(stopped) == M:
                    break
            if not (logged or until_loss is not None or device_mode):
                graphed()                                           # host mode, eager: nothing to read
                bar.update(1)
                continue
            opt.zero_grad(set_to_none=True)
            with torch.set_grad_enabled(step < steps):
                losses = trainable.losses()                         # (M,)
            vals = losses.detach().cpu().tolist()
            before = set(stopped)
            read(step, vals, current_lr)
            if callbacks and (logged or stopped.get(0) == step):   # one model (ensemble.serial_reason)
                state = State(step, trainable.model, vals[0], hists[0], opt, trainable.steps_per_epoch)
                if any([bool(cb(state)) for cb in callbacks]) and 0 not in stopped:
                    stopped[0] = step
            bar.set_postfix(loss=f"{max([v for i, v in enumerate(vals) if i not in before] or vals):.3g}",
                            refresh=False)
            if len(stopped) == M or step == steps:
                break
            # host mode only from here (device mode runs eagerly only for M = 1, which stopped above, or at the end)
            for i in set(stopped) - before:                         # M > 1: keep a stopped model's weights
                saved[i] = [p[i].detach().clone() for p in params]
            update(losses)
            if saved:
                with torch.no_grad():
                    for i, ws in saved.items():
                        for p, w in zip(params, ws):
                            p[i].copy_(w)
            bar.update(1)
        if device_mode:
            flush()
    finally:
        bar.close()
        trainable.finish()
    wall = time.perf_counter() - start
    for i, h in enumerate(hists):
        h.stopped_at = stopped.get(i)
        h.wall_time = wall / M
    return hists


def fit(model: torch.nn.Module, x: torch.Tensor, target: torch.Tensor | None = None, *,
        steps: int, lr: float, optimizer: str = "sgd", momentum: float = 0.0,
        weight_decay: float = 0.0, schedule: str | Callable = "constant",
        batch_size: int | None = None, loss: str | Callable = "mse",
        until_loss: float | None = None, callbacks=(), progress: bool = True,
        parameters=None, log_every: int | None = None, seed: int = 0,
        clip_grad_norm: float | None = None, desc: str | None = None, cuda_graph: bool = True,
        weights_at=()) -> History:
    """Train `model` in place to map `x` (N, ...) to `target` (N, ...); `target=None` autoencodes x.

    `model` may be a list of same-architecture models: `fit_many` trains them (as one computation
    where that is faster) and a list of Histories is returned.

    `parameters`: names of the parameters to train (the rest stay fixed), e.g. paper 1's
    bottom-layer-only two-layer net; None trains all. `batch_size=None` is full-batch; otherwise
    minibatches are drawn without replacement each epoch from a generator seeded by `seed`.
    `clip_grad_norm` rescales the gradient to at most that norm (off by default: no paper clips).
    `until_loss` stops at the first step whose loss (before its update) is below it; the model keeps
    that step's weights. The loss is logged every `log_every` steps (default: 200 points per run).

    `weights_at`: steps at which the History keeps a copy of the weights (after that many updates; `snapshots`,
    `History.model_at`): a training's trajectory without a second training. Keeping them changes no result.

    On a CUDA device the steps replay one captured CUDA graph (memlib.cuda_graph) unless
    `cuda_graph=False`; results equal the eager loop's (see the module's docstring).
    """
    if isinstance(model, (list, tuple)):
        return fit_many(list(model), x, target, steps=steps, lr=lr, optimizer=optimizer, momentum=momentum,
                        weight_decay=weight_decay, schedule=schedule, batch_size=batch_size, loss=loss,
                        until_loss=until_loss, callbacks=callbacks, progress=progress, parameters=parameters,
                        log_every=log_every, seed=seed, clip_grad_norm=clip_grad_norm, desc=desc,
                        cuda_graph=cuda_graph, weights_at=weights_at)
    if steps < 0:
        raise MemlibError(f"steps must be >= 0, got {steps}")
    if max_steps() is not None:
        steps = min(steps, max_steps())
    factor, loss_fn = resolve_schedule_and_loss(schedule, loss)
    model.to(get_device())
    check_inputs(model, x, target, batch_size=batch_size, loss_fn=loss_fn)
    trainable = Single(model, x, target, loss_fn, parameters=parameters, batch_size=batch_size, seed=seed)
    return _loop(trainable, steps=steps, lr=lr, optimizer=optimizer, momentum=momentum, weight_decay=weight_decay,
                 factor=factor, until_loss=until_loss, clip_grad_norm=clip_grad_norm, log_every=log_every,
                 callbacks=callbacks, progress=progress, desc=desc, cuda_graph=cuda_graph, weights_at=weights_at)[0]


def fit_many(models: list[torch.nn.Module], x: torch.Tensor, target: torch.Tensor | None = None, *,
             steps: int, lr: float, optimizer: str = "sgd", momentum: float = 0.0,
             weight_decay: float = 0.0, schedule="constant", loss="mse", until_loss=None,
             clip_grad_norm: float | None = None, log_every: int | None = None, progress: bool = True,
             desc: str | None = None, seeds=None, seed: int = 0, batch_size=None, parameters=None,
             callbacks=(), cuda_graph: bool = True, strategy: str = "auto", weights_at=()) -> list[History]:
    """Train every model in `models` on `x` as `fit` would train each one; one History per model.

    `strategy` "auto" (memlib.ensemble.choose_strategy: batched where measured faster), "batched" or
    "serial". `seeds`: each model's `fit` seed (minibatch order), default `seed` for all. The trained
    weights are written into the given modules.
    """
    if not models:
        raise MemlibError("fit_many needs at least one model")
    if steps < 0:
        raise MemlibError(f"steps must be >= 0, got {steps}")
    if max_steps() is not None:
        steps = min(steps, max_steps())
    seeds = list(seeds) if seeds is not None else [seed] * len(models)
    if len(seeds) != len(models):
        raise MemlibError(f"{len(models)} models but {len(seeds)} seeds")
    kw = dict(steps=steps, lr=lr, optimizer=optimizer, momentum=momentum, weight_decay=weight_decay,
              schedule=schedule, loss=loss, until_loss=until_loss, clip_grad_norm=clip_grad_norm,
              log_every=log_every, progress=progress, cuda_graph=cuda_graph, weights_at=weights_at)
    how, reason = ensemble.choose_strategy(models, strategy, batch_size=batch_size, parameters=parameters,
                                           callbacks=callbacks)
    if how == "serial":
        ensemble.say_serial(reason, len(models))
        # One after another, each with all intra-op threads. Two one-thread fits side by side were tried
        # for the 3 x 2048 FCN: 1.33x the naive loop on 2026-11-23, 0.77-0.84x on 11-24/25 (one thread
        # 44 model-steps/s, two threads on one model 92, two one-thread models at once 70): not kept.
        return [fit(m, x, target, seed=s, batch_size=batch_size, parameters=parameters, callbacks=callbacks,
                    desc=f"{desc or 'fit'} {i + 1}/{len(models)}", **kw)
                for i, (m, s) in enumerate(zip(models, seeds))]
    factor, loss_fn = resolve_schedule_and_loss(schedule, loss)
    models[0].to(get_device())
    check_inputs(models[0], x, target, loss_fn=loss_fn)
    group = ensemble.batched_limits()["group"]
    hists = []
    for i in range(0, len(models), group):                     # independent models: chunks train alike
        trainable = ensemble.Stacked(models[i:i + group], x, target, loss_fn)
        hists += _loop(trainable, factor=factor, desc=desc, **{k: v for k, v in kw.items()
                                                               if k not in ("schedule", "loss")})
    return hists
