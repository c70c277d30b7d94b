"""A training's update rule, by the names `fit` takes: the optimizers (`make_optimizer`, `OPTIMIZERS`), the
learning-rate schedules (`stagewise`, `final_decay`, `SCHEDULE_FACTORS`; `scheduled_lr` applies one at a step) and
the losses (`LOSSES`). `memlib.train`'s loop uses them and re-exports their names.

A schedule reaches the cache key by its name (a string) or, passed as a function, by its module-qualified name
(`cachekey.keyed`): every configuration the notebooks train names its schedule by a string.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F

from .runtime import check_choice

OPTIMIZERS = ("sgd", "adam", "adagrad", "rmsprop", "adamax")
LOSSES = {"mse": F.mse_loss}


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
    if name == "rmsprop":        # paper 1's depth sweep (Fig 30's row): its step too is replayed from a CUDA graph
        return torch.optim.RMSprop(params, lr=lr, weight_decay=weight_decay, capturable=capturable)
    cls = {"adagrad": torch.optim.Adagrad, "adamax": torch.optim.Adamax}[name]
    return cls(params, lr=lr, weight_decay=weight_decay)


def scheduled_lr(opt, lr: float, factor, step: int, steps: int, current: float) -> float:
    """Set the optimizer's learning rate for `step` (only when it changes); return it."""
    if factor is None:
        return current
    new = lr * factor(step, steps)
    if new != current:
        for g in opt.param_groups:
            g["lr"] = new
    return new
