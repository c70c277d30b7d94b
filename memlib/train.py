"""The one training loop. Every experiment in the package is `fit` plus arguments and callbacks.

Paper 1's recipe is the default shape of a call (App. B):
`fit(net, x, steps=..., lr=0.01, momentum=0.9, schedule="stagewise")` trains `net` to map `x` to
itself with the MSE loss. A callback is any `cb(state) -> bool | None` called every `log_every`
steps and at the end; returning True stops training.

`fit` on a list of same-architecture models trains them as one computation where that is faster
(memlib.ensemble: stacked parameters, one grouped or vmap-ed forward), one after another otherwise;
the loop below is the same in both cases: a *trainable* gives the losses of its M models (M = 1 for
one model) and the loop steps, logs, stops and schedules them.

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
from dataclasses import dataclass, field
from typing import Callable

import torch
import torch.nn.functional as F

from . import ensemble
from .cuda_graph import GraphedStep, graph_blocker
from .modes import max_steps
from .progress import progress_bar
from .runtime import MemlibError, check_choice, get_device

OPTIMIZERS = ("sgd", "adam", "adagrad", "rmsprop", "adamax")
LOSSES = {"mse": F.mse_loss}
SYNC_EVERY = 256   # graphed training reads its losses on the host once per this many steps


class TrainingDiverged(MemlibError):
    """The loss became NaN or infinite."""


@dataclass
class History:
    """What a run leaves behind: the logged loss curve and anything callbacks recorded."""
    steps: list = field(default_factory=list)      # optimizer steps at which the loss was logged
    loss: list = field(default_factory=list)       # loss before that step's update
    lr: list = field(default_factory=list)
    records: dict = field(default_factory=dict)    # callbacks' own series, by name
    wall_time: float = 0.0
    stopped_at: int | None = None                  # the step at which until_loss/a callback stopped it

    @property
    def final_loss(self) -> float:
        return self.loss[-1] if self.loss else math.nan

    def as_dict(self) -> dict:
        return dict(steps=self.steps, loss=self.loss, lr=self.lr, records=self.records,
                    wall_time=self.wall_time, stopped_at=self.stopped_at)

    @classmethod
    def from_dict(cls, d: dict) -> "History":
        return cls(**d)


@dataclass
class State:
    """What a callback sees."""
    step: int
    model: torch.nn.Module
    loss: float
    history: History
    optimizer: torch.optim.Optimizer
    steps_per_epoch: int

    @property
    def epoch(self) -> float:
        return self.step / self.steps_per_epoch


def stagewise(step: int, steps: int) -> float:
    """Paper 1, App. B: the learning rate decays by x0.2 at 30 %, 60 % and 80 % of the steps."""
    return 0.2 ** sum(step >= f * steps for f in (0.3, 0.6, 0.8))


def final_decay(step: int, steps: int) -> float:
    """Constant, then x0.1 for the last 10 % of the steps. Full-batch Adam at a constant rate keeps moving
    after the loss has reached float32's floor, and that motion is what makes paper 2's digit autoencoders
    contractive at their training digits (notebook 02, Fig 3); the decay lets the iterates settle at the end."""
    return 0.1 if step >= 0.9 * steps else 1.0


SCHEDULE_FACTORS = {"constant": None, "stagewise": stagewise, "final_decay": final_decay}   # name -> lr factor
SCHEDULES = tuple(SCHEDULE_FACTORS)


def resolve_schedule_and_loss(schedule, loss):
    """(lr factor(step, steps) or None, loss function) from `fit`'s `schedule` and `loss` arguments."""
    factor = schedule if callable(schedule) else SCHEDULE_FACTORS[check_choice(schedule, SCHEDULES, "schedule")]
    loss_fn = loss if callable(loss) else LOSSES[check_choice(loss, tuple(LOSSES), "loss")]
    return factor, loss_fn


def make_optimizer(params, name: str, *, lr: float, momentum: float = 0.0, weight_decay: float = 0.0,
                   capturable: bool = False):
    """The optimizer `name` over `params` (`capturable`: a step that a CUDA graph can capture)."""
    check_choice(name, OPTIMIZERS, "optimizer")
    params = list(params)
    # one fused kernel per step instead of a loop over the parameters: ~4 % more steps/s for paper 1's
    # ConvNet (79k parameters) on the 2-core CPU, but 10-20 % fewer for the 3 x 2048 FCN (11.6M), whose
    # update is memory-bound and which the fused CPU kernel runs slower (python -m memlib bench)
    small = sum(p.numel() for p in params) <= 1_000_000
    fused = {"fused": True} if small and not capturable and params and all(p.device.type == "cpu" for p in params) else {}
    if name == "sgd":
        return torch.optim.SGD(params, lr=lr, momentum=momentum, weight_decay=weight_decay, **fused)
    if name == "adam":
        return torch.optim.Adam(params, lr=lr, weight_decay=weight_decay, capturable=capturable, **fused)
    cls = {"adagrad": torch.optim.Adagrad, "rmsprop": torch.optim.RMSprop, "adamax": torch.optim.Adamax}[name]
    return cls(params, lr=lr, weight_decay=weight_decay)


def diverged(v: float, step: int, last_read: int, steps: int, optimizer: str, lr: float, who: str = "") -> TrainingDiverged:
    """The error for a non-finite loss first seen at `step` (the loss was last read, finite, at `last_read`)."""
    where = f"at step {step}" if step - last_read <= 1 else f"between steps {last_read + 1} and {step}"
    return TrainingDiverged(f"training diverged: {who}the loss became {v} {where} of {steps} "
                            f"(optimizer={optimizer}, lr={lr:g}); lower the learning rate")


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

    def finish(self) -> None:
        for p, flag in zip(self.frozen, self.saved_flags):
            p.requires_grad_(flag)
        self.model.eval()


def _loop(trainable, *, steps, lr, optimizer, momentum, weight_decay, factor, until_loss, clip_grad_norm,
          log_every, callbacks=(), progress=True, desc=None, cuda_graph=True, device_stop=None) -> list[History]:
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

    start = time.perf_counter()
    try:
        for step in range(steps + 1):
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


def scheduled_lr(opt, lr: float, factor, step: int, steps: int, current: float) -> float:
    """Set the optimizer's learning rate for `step` (only when it changes); return it."""
    if factor is None:
        return current
    new = lr * factor(step, steps)
    if new != current:
        for g in opt.param_groups:
            g["lr"] = new
    return new


def fit(model: torch.nn.Module, x: torch.Tensor, target: torch.Tensor | None = None, *,
        steps: int, lr: float, optimizer: str = "sgd", momentum: float = 0.0,
        weight_decay: float = 0.0, schedule: str | Callable = "constant",
        batch_size: int | None = None, loss: str | Callable = "mse",
        until_loss: float | None = None, callbacks=(), progress: bool = True,
        parameters=None, log_every: int | None = None, seed: int = 0,
        clip_grad_norm: float | None = None, desc: str | None = None, cuda_graph: bool = True) -> History:
    """Train `model` in place to map `x` (N, ...) to `target` (N, ...); `target=None` autoencodes x.

    `model` may be a list of same-architecture models: `fit_many` trains them (as one computation
    where that is faster) and a list of Histories is returned.

    `parameters`: names of the parameters to train (the rest stay fixed), e.g. paper 1's
    bottom-layer-only two-layer net; None trains all. `batch_size=None` is full-batch; otherwise
    minibatches are drawn without replacement each epoch from a generator seeded by `seed`.
    `clip_grad_norm` rescales the gradient to at most that norm (off by default: no paper clips).
    `until_loss` stops at the first step whose loss (before its update) is below it; the model keeps
    that step's weights. The loss is logged every `log_every` steps (default: 200 points per run).

    On a CUDA device the steps replay one captured CUDA graph (memlib.cuda_graph) unless
    `cuda_graph=False`; results equal the eager loop's (see the module's docstring).
    """
    if isinstance(model, (list, tuple)):
        return fit_many(list(model), x, target, steps=steps, lr=lr, optimizer=optimizer, momentum=momentum,
                        weight_decay=weight_decay, schedule=schedule, batch_size=batch_size, loss=loss,
                        until_loss=until_loss, callbacks=callbacks, progress=progress, parameters=parameters,
                        log_every=log_every, seed=seed, clip_grad_norm=clip_grad_norm, desc=desc,
                        cuda_graph=cuda_graph)
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
                 callbacks=callbacks, progress=progress, desc=desc, cuda_graph=cuda_graph)[0]


def fit_many(models: list[torch.nn.Module], x: torch.Tensor, target: torch.Tensor | None = None, *,
             steps: int, lr: float, optimizer: str = "sgd", momentum: float = 0.0,
             weight_decay: float = 0.0, schedule="constant", loss="mse", until_loss=None,
             clip_grad_norm: float | None = None, log_every: int | None = None, progress: bool = True,
             desc: str | None = None, seeds=None, seed: int = 0, batch_size=None, parameters=None,
             callbacks=(), cuda_graph: bool = True, strategy: str = "auto") -> list[History]:
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
              log_every=log_every, progress=progress, cuda_graph=cuda_graph)
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
