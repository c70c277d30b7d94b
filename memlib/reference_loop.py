"""The training loop written out for a reader: what `memlib.train.fit` does to one model.

`fit` is the loop every experiment of the package runs, and it is long because it is fast: it
trains many models as one (memlib.ensemble), replays a captured CUDA graph (memlib.cuda_graph)
and reads the loss on the host only when it must. `train_reference` is the same training with
none of that: each step sets the learning rate, zeroes the gradients, runs the forward pass and
the loss, the backward pass, the clipping and the optimizer's step. Open it to see what a
figure's network went through; the experiments themselves call `fit`.
tests/test_reference_loop.py keeps the two equal: `fit` on one model gives this loop's losses
and weights bit for bit, and the fast paths (the batched ensemble, the CUDA graph) give them to
float32 rounding.

The defaults are paper 1's recipe (App. B): SGD at learning rate 0.01 with momentum 0.9, the
rate x0.2 at 30, 60 and 80 % of the steps, the mean squared error of the network's output
against its input. Of `fit`'s options it takes the update rule, minibatches, gradient clipping
and `until_loss`; not `parameters` (training some of them), callbacks or `weights_at`. The
initial weights are the model's own: `memlib.harness.store.build_model(build, seed=..., init=...)`
builds them as `fit_cached` does.
"""
from __future__ import annotations

import math

import torch

from .history import History
from .optim import LOSSES, SCHEDULE_FACTORS, make_optimizer


def train_reference(model: torch.nn.Module, x: torch.Tensor, target: torch.Tensor | None = None,
                    *, steps: int, lr: float = 0.01, momentum: float = 0.9,  # paper 1, App. B
                    weight_decay: float = 0.0, optimizer: str = "sgd",
                    schedule: str = "stagewise", loss: str = "mse",
                    batch_size: int | None = None, seed: int = 0,
                    clip_grad_norm: float | None = None,
                    until_loss: float | None = None) -> History:
    """Train `model` in place, on the device it is on, to map `x` (N, ...) to `target` (N, ...;
    None: to x itself) with `steps` optimizer updates, as `fit(model, x, target, ...)` does with
    the same arguments. Returns a History of every step: `loss[s]` is the loss before update s
    (the last one, after all of them), `lr[s]` the learning rate of update s, `stopped_at` the
    step at which `until_loss` stopped the training (the model keeps its weights of that step).
    """
    device = next(model.parameters()).device
    x = x.to(device)                                        # (N, ...) the training examples
    target = x if target is None else target.to(device)     # (N, ...) autoencoding: x itself
    loss_fn = LOSSES[loss]                                  # "mse": the mean over every value
    lr_factor = SCHEDULE_FACTORS[schedule]                  # (step, steps) -> x; "constant": None
    # torch.optim.SGD (or Adam, ...) made as fit makes it: the fused kernel on a CPU
    opt = make_optimizer(model.parameters(), optimizer, lr=lr, momentum=momentum,
                         weight_decay=weight_decay)
    batch = len(x) if batch_size is None else min(batch_size, len(x))   # full batch by default
    batches_per_epoch = math.ceil(len(x) / batch)
    shuffle = torch.Generator().manual_seed(seed)           # minibatch order, drawn as fit does
    history = History()
    model.train()

    for step in range(steps + 1):                           # the last step reads the final loss
        # the learning rate; paper 1, App. B: 0.01, x0.2 at 30, 60 and 80 % of the steps
        step_lr = lr if lr_factor is None else lr * lr_factor(step, steps)
        for group in opt.param_groups:
            group["lr"] = step_lr

        # the examples of this step: all, or the next minibatch of a new permutation each epoch
        if batch == len(x):
            x_batch, target_batch = x, target               # (N, ...), (N, ...)
        else:
            k = step % batches_per_epoch
            if k == 0:
                order = torch.randperm(len(x), generator=shuffle).to(device)   # (N,)
            rows = order[k * batch:(k + 1) * batch]         # (batch,), fewer at an epoch's end
            x_batch, target_batch = x[rows], target[rows]   # (batch, ...), (batch, ...)

        opt.zero_grad(set_to_none=True)
        output = model(x_batch)                             # (batch, ...) like target_batch
        loss_now = loss_fn(output, target_batch)            # () before this step's update
        value = loss_now.item()
        history.steps.append(step)
        history.loss.append(value)
        history.lr.append(step_lr)
        if not math.isfinite(value):                        # fit raises TrainingDiverged here
            raise FloatingPointError(f"the loss became {value} at step {step} of {steps}")
        if until_loss is not None and value < until_loss:   # fitted: keep this step's weights
            history.stopped_at = step
            break
        if step == steps:
            break

        loss_now.backward()                                 # every parameter's .grad
        if clip_grad_norm is not None:                      # rescale the gradient to this norm
            torch.nn.utils.clip_grad_norm_(model.parameters(), clip_grad_norm)
        opt.step()                                          # the update, at step_lr

    model.eval()                                            # as fit leaves it
    return history
