"""The one training loop. Every experiment in the package is `fit` plus arguments and callbacks.

Paper 1's recipe is the default shape of a call (App. B):
`fit(net, x, steps=..., lr=0.01, momentum=0.9, schedule="stagewise")` trains `net` to map `x` to
itself with the MSE loss. A callback is any `cb(state) -> bool | None` called every `log_every`
steps and at the end; returning True stops training.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

import torch
import torch.nn.functional as F

from .cuda_graph import GraphedStep, graph_blocker
from .runtime import MemlibError, check_choice, get_device, max_steps, progress_bar

OPTIMIZERS = ("sgd", "adam", "adagrad", "rmsprop", "adamax")
SCHEDULES = ("constant", "stagewise")
LOSSES = {"mse": F.mse_loss}


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


def resolve_schedule_and_loss(schedule, loss):
    """(lr factor(step, steps) or None, loss function) from `fit`'s `schedule` and `loss` arguments."""
    if not callable(schedule):
        check_choice(schedule, SCHEDULES, "schedule")
    factor = stagewise if schedule == "stagewise" else (schedule if callable(schedule) else None)
    loss_fn = loss if callable(loss) else LOSSES[check_choice(loss, tuple(LOSSES), "loss")]
    return factor, loss_fn


def scheduled_lr(opt, lr: float, factor, step: int, steps: int, current: float) -> float:
    """Set the optimizer's learning rate for `step` (only when it changes); return it."""
    if factor is None:
        return current
    new = lr * factor(step, steps)
    if new != current:
        for g in opt.param_groups:
            g["lr"] = new
    return new


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


def fit(model: torch.nn.Module, x: torch.Tensor, target: torch.Tensor | None = None, *,
        steps: int, lr: float, optimizer: str = "sgd", momentum: float = 0.0,
        weight_decay: float = 0.0, schedule: str | Callable = "constant",
        batch_size: int | None = None, loss: str | Callable = "mse",
        until_loss: float | None = None, callbacks=(), progress: bool = True,
        parameters=None, log_every: int | None = None, seed: int = 0,
        clip_grad_norm: float | None = None, desc: str | None = None, cuda_graph: bool = True) -> History:
    """Train `model` in place to map `x` (N, ...) to `target` (N, ...); `target=None` autoencodes x.

    `model` may be a list of same-architecture models: they are trained as one computation where
    that is faster (memlib.ensemble.fit_many) and a list of Histories is returned.

    `parameters`: names of the parameters to train (the rest stay fixed), e.g. paper 1's
    bottom-layer-only two-layer net; None trains all. `batch_size=None` is full-batch; otherwise
    minibatches are drawn without replacement each epoch from a generator seeded by `seed`.
    `clip_grad_norm` rescales the gradient to at most that norm (off by default: no paper clips).

    The loss is read (a host synchronisation on a GPU) only at the `log_every` steps, where it is
    logged and callbacks run, and every step when `until_loss` is set. On a CUDA device the
    steps in between replay one captured CUDA graph (memlib.cuda_graph) unless `cuda_graph=False`.
    """
    if isinstance(model, (list, tuple)):   # several same-architecture models: trained as one
        from .ensemble import fit_many
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
    device = get_device()
    model.to(device)
    x = x.to(device)
    target = x if target is None else target.to(device)
    if len(target) != len(x):
        raise MemlibError(f"x has {len(x)} examples but target has {len(target)}")

    named = dict(model.named_parameters())
    if parameters is not None:
        unknown = sorted(set(parameters) - set(named))
        if unknown:
            raise MemlibError(f"unknown parameter names {unknown}; the model has {sorted(named)}")
    trained = [p for n, p in named.items() if parameters is None or n in parameters]
    frozen = [p for p in named.values() if all(p is not q for q in trained)]
    saved_flags = [p.requires_grad for p in frozen]
    for p in frozen:
        p.requires_grad_(False)

    n = len(x)
    bs = n if batch_size is None else min(batch_size, n)
    steps_per_epoch = math.ceil(n / bs)
    blocker = graph_blocker(device, optimizer=optimizer, static_shapes=n % bs == 0, until_loss=until_loss)
    use_graph = cuda_graph and blocker is None
    opt = make_optimizer(trained, optimizer, lr=lr, momentum=momentum, weight_decay=weight_decay,
                         capturable=use_graph)
    gen = torch.Generator().manual_seed(seed)
    order = None
    idx = torch.arange(bs, device=device)          # (bs,) the current minibatch's rows (static for graphs)
    log_every = log_every or max(1, steps // 200)

    def batch():
        return (x, target) if bs == n else (x[idx], target[idx])

    def update(value):                             # backward and optimizer step for this step's loss
        value.backward()
        if clip_grad_norm is not None:
            torch.nn.utils.clip_grad_norm_(trained, clip_grad_norm)
        opt.step()

    def whole_step():                              # forward + update; the loss before the update
        opt.zero_grad(set_to_none=True)
        xb, tb = batch()
        value = loss_fn(model(xb), tb)
        update(value)
        return value

    graphed = GraphedStep(whole_step, enabled=use_graph)
    hist = History()
    bar = progress_bar(total=steps, desc=desc or "fit", leave=False, disable=not progress, mininterval=0.5)
    model.train()
    start = time.perf_counter()
    current_lr, last_read = lr, 0
    try:
        for step in range(steps + 1):
            if bs != n:
                k = step % steps_per_epoch
                if k == 0:
                    order = torch.randperm(n, generator=gen).to(device)
                rows = order[k * bs:(k + 1) * bs]
                if use_graph:
                    idx.copy_(rows)                # in place: the captured graph reads this tensor
                else:
                    idx = rows
            new_lr = scheduled_lr(opt, lr, factor, step, steps, current_lr)
            if new_lr != current_lr:
                graphed.invalidate()               # the learning rate is baked into a captured graph
            current_lr = new_lr
            logged = step % log_every == 0 or step == steps
            if not (logged or until_loss is not None):
                graphed()                          # forward, backward, step: no host synchronisation
                bar.update(1)
                continue
            opt.zero_grad(set_to_none=True)
            xb, tb = batch()
            with torch.set_grad_enabled(step < steps):
                value = loss_fn(model(xb), tb)
            v = value.item()
            if not math.isfinite(v):
                raise diverged(v, step, last_read, steps, optimizer, current_lr)
            last_read = step
            if until_loss is not None and v < until_loss:
                logged = True
            if logged:
                hist.steps.append(step)
                hist.loss.append(v)
                hist.lr.append(current_lr)
                state = State(step, model, v, hist, opt, steps_per_epoch)
                stop = any([bool(cb(state)) for cb in callbacks])
                bar.set_postfix(loss=f"{v:.3g}", refresh=False)
                if stop or (until_loss is not None and v < until_loss):
                    hist.stopped_at = step
                    break
            if step == steps:
                break
            update(value)
            bar.update(1)
    finally:
        bar.close()
        for p, flag in zip(frozen, saved_flags):
            p.requires_grad_(flag)
        model.eval()
    hist.wall_time = time.perf_counter() - start
    return hist
