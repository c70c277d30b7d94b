"""Paper 4 (Poggio & Liao): the norm rho of a deep classifier, its margins, and eq. 5's equilibrium.

A ReLU network without biases is homogeneous: `g(x) = rho * f(x)` where `rho` is the product of
the Frobenius norms of the weight matrices and `f` is the same network with every matrix
normalized. Two readings of rho:

* ``"product"``: the product over *all* weight layers (paper 4, Sec 1.1; "rho from all layers").
* ``"bn"``: the paper's reading with BatchNorm (Sec 2): a BN layer after `W_k` makes the output
  invariant to the scale of `W_k`, i.e. it fixes `rho_k = 1`, so rho is the product over the
  layers *not* followed by BatchNorm, here the last one: `rho = ||W_L||`. Without BatchNorm both
  readings coincide.

BatchNorm's own parameters (its scale and shift: PyTorch's default, which Fig 1-4's nets have, "Batch
normalization is used"; Fig 5's have none, "affine=False") enter neither reading. The text defines rho
as "the product of the Frobenius norms of the weight matrices of the L layers of the network" (Sec 1.1)
and, with BN in every layer but the last, assumes "rho_k = 1 for k < L and rho_L = rho" (Sec 2; its
footnote 2: BN normalizes each row of V_k, "assuming the normalization of each row is the same 1 for
all rows"): BN's scale is no weight matrix of the L layers, and the text does not count it. (Fig 6's
caption speaks of "the scaling factor of BN" starting from 0, for a net whose BN has no parameters;
the text's definition of rho does not include it.)

`f = g / rho_bn` is then exactly the output of the network with normalized weights, whichever
architecture, where BN has no parameters; `margins` uses it (with BN's parameters it is g / ||W_L||, the
text's f for its rho). Outputs are computed with BatchNorm normalizing over the whole
set given (full-batch statistics; running statistics are left untouched), which is the network
function the gradient-flow analysis talks about.
"""
from __future__ import annotations

import contextlib
import functools
import math

import torch
from torch import nn

from .. import models
# neural collapse (`collapse`) and the runs' summaries (`rho_summary`) live apart; `rho.x` reaches each of them
from .collapse import binary_classifier, nc1, nc2, nc3, nc4
from .rho_summary import (
    BAND_KEYS, band_metrics, drop_until_equilibrium, end_metrics, end_over_separable, equilibrium_reached,
    error_gap_by_rho, errors_series, first_separable, init_band_metrics, init_spread, margin_by_rho_eq, margin_cv,
    margin_small_over_large, max_drop, rise_before_equilibrium, run_ends, run_metrics, tail_mean,
    tail_median, terminal_phase_start)
from ..runtime import MemlibError, check_choice
from ..harness.store import fit_cached, tensor_digest
from ..train import TrainingDiverged
from ..models.weights import WEIGHT_TYPES, weight_layers

READINGS = ("product", "bn")
BN_TYPES = (nn.BatchNorm1d, nn.BatchNorm2d)


def _bn_followed(model: nn.Module) -> list[bool]:
    """For each weight layer (input to output): is it followed by a BatchNorm before the next one?"""
    flags = []
    for m in model.modules():
        if isinstance(m, WEIGHT_TYPES):
            flags.append(False)
        elif isinstance(m, BN_TYPES) and flags:
            flags[-1] = True
    return flags


def layer_norms(model: nn.Module) -> list[float]:
    """Frobenius norm `rho_k = ||W_k||_F` of each weight layer, input to output."""
    return [layer.weight.detach().norm().item() for layer in weight_layers(model)]


def rho(model: nn.Module, *, reading: str = "product") -> float:
    """Product of the Frobenius norms of the weight matrices (`reading="product"`), or of those not
    followed by BatchNorm (`reading="bn"`, paper 4, Sec 2: BN fixes rho_k = 1 for k < L)."""
    check_choice(reading, READINGS, "rho reading")
    norms, bn = layer_norms(model), _bn_followed(model)
    if not norms:
        raise MemlibError("rho() needs a model with Linear or Conv layers")
    out = 1.0
    for n, b in zip(norms, bn):
        if reading == "product" or not b:
            out *= n
    return out


@contextlib.contextmanager
def _full_batch_statistics(model: nn.Module):
    """BatchNorm normalizes over the batch given; running statistics and the mode are restored."""
    # The buffers are swapped for copies, never written in place: `fit` calls its callbacks between
    # the forward pass and backward, and autograd checks the version of the running statistics.
    bns = [m for m in model.modules() if isinstance(m, BN_TYPES)]
    saved = [dict(m.named_buffers(recurse=False)) for m in bns]
    for m, buf in zip(bns, saved):
        for k, v in buf.items():
            setattr(m, k, v.clone())
    was_training = model.training
    model.train()
    try:
        yield
    finally:
        for m, buf in zip(bns, saved):
            for k, v in buf.items():
                setattr(m, k, v)
        model.train(was_training)


@torch.no_grad()
def outputs(model: nn.Module, x: torch.Tensor, *, statistics: str = "batch") -> torch.Tensor:
    """The network's output g(x) (N,) with BatchNorm on full-batch (`"batch"`) or running statistics."""
    check_choice(statistics, ("batch", "running"), "BatchNorm statistics")
    x = x.to(next(model.parameters()).device)
    if statistics == "running":
        was = model.training
        model.eval()
        try:
            return model(x).reshape(len(x))
        finally:
            model.train(was)
    with _full_batch_statistics(model):
        return model(x).reshape(len(x))


def normalized_outputs(model: nn.Module, x: torch.Tensor, *, statistics: str = "batch") -> torch.Tensor:
    """f(x) = g(x) / rho_bn (N,): the output of the network with every weight matrix normalized."""
    return outputs(model, x, statistics=statistics) / rho(model, reading="bn")


def margins(model: nn.Module, x: torch.Tensor, y: torch.Tensor, *, statistics: str = "batch") -> torch.Tensor:
    """y_n f_n (N,) for labels y in {-1, +1} (any shape with N entries); f is the normalized network."""
    y = y.reshape(-1).float()
    if len(y) != len(x):
        raise MemlibError(f"x has {len(x)} examples but y has {len(y)} labels")
    f = normalized_outputs(model, x, statistics=statistics)
    return y.to(f.device) * f


def paper_lambda(weight_decay: float, n: int, *, reduction: str = "mean") -> float:
    """Paper 4's lambda for PyTorch's SGD weight decay.

    SGD's `weight_decay=wd` adds `wd/2 ||W||^2` to the loss. Paper 4 (eq. 2) minimizes
    `sum_n (rho f_n - y_n)^2 + lambda rho^2`; multiplying `mean_n (...)^2 + wd/2 rho^2` by N gives
    `lambda = N wd / 2` for the mean-reduced MSE (`reduction="mean"`), `wd / 2` for a summed one.
    """
    check_choice(reduction, ("mean", "sum"), "loss reduction")
    return weight_decay / 2 * (n if reduction == "mean" else 1)


def rho_equilibrium(f, y, weight_decay: float, *, reduction: str = "mean") -> float:
    """Paper 4, eq. 5: rho_eq = sum_n y_n f_n / (lambda + sum_n f_n^2), lambda = paper_lambda(...).

    `f`: normalized outputs (N,), `y`: labels +-1 (N,), `weight_decay`: the optimizer's coefficient.
    This is where the loss is stationary along the rho direction for fixed normalized weights.
    """
    f = torch.as_tensor(f, dtype=torch.float64).reshape(-1)
    y = torch.as_tensor(y, dtype=torch.float64).reshape(-1).to(f.device)
    lam = paper_lambda(weight_decay, len(f), reduction=reduction)
    return ((y * f).sum() / (lam + (f * f).sum())).item()


@torch.no_grad()
def outputs_and_hidden(model: nn.Module, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(g(x) (N,), the input of the last weight layer (N, D)) from one forward pass with full-batch BatchNorm
    statistics."""
    store = {}
    handle = weight_layers(model)[-1].register_forward_hook(lambda m, inp, out: store.update(h=inp[0]))
    try:
        g = outputs(model, x)
    finally:
        handle.remove()
    return g, store["h"].flatten(1)


def last_hidden(model: nn.Module, x: torch.Tensor) -> torch.Tensor:
    """The input of the last weight layer (N, D) with full-batch BatchNorm statistics."""
    return outputs_and_hidden(model, x)[1]


def binary_task(x: torch.Tensor, labels: torch.Tensor, classes=(0, 1)):
    """Two classes of a labelled set as paper 4 uses them: inputs scaled to unit Frobenius norm
    (Fig 1 caption), labels +1 (first class) / -1 (second) as an (N, 1) float target."""
    a, b = classes
    keep = (labels == a) | (labels == b)
    if keep.sum() == 0 or (labels == a).sum() == 0 or (labels == b).sum() == 0:
        raise MemlibError(f"classes {classes} are not both present in the labels")
    x = x[keep].float()
    x = x / x.flatten(1).norm(dim=1).clamp_min(1e-12).view(-1, *[1] * (x.ndim - 1))
    y = torch.where(labels[keep] == a, 1.0, -1.0).unsqueeze(1)                # (N, 1)
    return x, y


class RhoRecorder:
    """`fit` callback: logs paper 4's quantities into `state.history.records` each time it is called
    (pass `log_every=steps_per_epoch` to fit for once per epoch).

    Series (one value per call): epoch, loss (full-data MSE), acc, test_acc, rho (product),
    rho_bn (paper's BN reading), layer_norms, mean_abs_f, margin_min/mean/std, rho_eq (eq. 5 from
    the current f_n), nc1 .. nc4 (neural collapse of the last hidden layer; nc4 against the net's decision
    sign(g_n)). Snapshots of all N margins are kept at most `max_snapshots` times
    (evenly thinned by halving), plus the latest in `last_margins`: memory stays bounded.
    """

    def __init__(self, x, y, *, weight_decay: float = 0.0, x_test=None, y_test=None,
                 max_snapshots: int = 64, nc: bool = True):
        self.x, self.y = x, y.reshape(-1).float()
        self.x_test, self.y_test = x_test, None if y_test is None else y_test.reshape(-1).float()
        self.weight_decay, self.max_snapshots, self.nc = weight_decay, max_snapshots, nc
        self.stride, self.calls = 1, 0
        test = None if x_test is None else (tensor_digest(x_test), tensor_digest(y_test))
        self.cache_key = (f"RhoRecorder(x={tensor_digest(x)}, y={tensor_digest(y)}, wd={weight_decay}, "
                          f"test={test}, max_snapshots={max_snapshots}, nc={nc}, v=2)")

    def __call__(self, state) -> None:
        model, rec = state.model, state.history.records
        dev = next(model.parameters()).device
        x, y = self.x.to(dev), self.y.to(dev)
        g, h = outputs_and_hidden(model, x)                                        # (N,), (N, D)
        r_bn = rho(model, reading="bn")
        f = g / r_bn
        m = y * f
        row = dict(epoch=state.epoch, step=state.step, loss=((g - y) ** 2).mean().item(),
                   acc=(m > 0).float().mean().item(), rho=rho(model), rho_bn=r_bn,
                   layer_norms=layer_norms(model), mean_abs_f=f.abs().mean().item(),
                   margin_min=m.min().item(), margin_mean=m.mean().item(), margin_std=m.std().item(),
                   rho_eq=rho_equilibrium(f, y, self.weight_decay))
        if self.x_test is not None:
            gt = outputs(model, self.x_test.to(dev), statistics="running")
            row["test_acc"] = ((gt * self.y_test.to(dev)) > 0).float().mean().item()
        if self.nc:
            row.update(nc1=nc1(h, y), nc2=nc2(h, y), nc3=nc3(h, y, binary_classifier(model)),
                       nc4=nc4(h, y, torch.where(g > 0, 1.0, -1.0)))
        for k, v in row.items():
            rec.setdefault(k, []).append(v)
        margins_now = m.cpu().tolist()
        rec["last_margins"] = margins_now
        if self.calls % self.stride == 0:
            rec.setdefault("snapshot_epochs", []).append(state.epoch)
            rec.setdefault("snapshots", []).append(margins_now)
            if len(rec["snapshots"]) > self.max_snapshots:      # thin: keep every other one
                rec["snapshot_epochs"] = rec["snapshot_epochs"][::2]
                rec["snapshots"] = rec["snapshots"][::2]
                self.stride *= 2
        self.calls += 1


# ---------------------------------------------------------------- training runs (their summaries: rho_summary)

MAX_RECORDS = 64    # a run records paper 4's quantities at most about this many times (every epoch up to 64 epochs)


def record_stride(epochs: int) -> int:
    """Epochs between two of the recorder's calls: 1 up to MAX_RECORDS epochs, then every ceil(epochs / MAX_RECORDS)
    (each call evaluates every training and test image: at 16 SGD steps an epoch it costs about ten steps)."""
    return max(1, math.ceil(epochs / MAX_RECORDS))


def classifier_run(x, y, *, init_norm: float, epochs: int, lr: float,
                   weight_decay: float = 0.0, momentum: float = 0.9,  # paper 4, Fig 1: momentum 0.9
                   batch_size: int = 128,  # paper 4, Fig 1: batch size 128
                   x_test=None, y_test=None, **classifier_kwargs) -> tuple:
    """(build, fit_kwargs) of one paper-4 training run: what `train_classifier` hands to
    `fit_cached`, and what `widgets.status_line` needs to say whether the run is cached."""
    build = functools.partial(models.classifier, tuple(x.shape[1:]), init_norm=init_norm, **classifier_kwargs)
    steps_per_epoch = math.ceil(len(x) / min(batch_size, len(x)))
    recorder = RhoRecorder(x, y, weight_decay=weight_decay, x_test=x_test, y_test=y_test)
    return build, dict(steps=epochs * steps_per_epoch, lr=lr, momentum=momentum, weight_decay=weight_decay,
                       batch_size=batch_size, log_every=steps_per_epoch * record_stride(epochs),
                       callbacks=[recorder])


def train_classifier(x, y, *, init_norm: float, epochs: int, lr: float, seed: int = 0, desc=None,
                     **kwargs):
    """Train `models.classifier(x.shape[1:], init_norm=..., **classifier_kwargs)` with the square
    loss on targets y (N, 1) in {-1, +1} through `fit_cached`, recording paper 4's quantities every
    epoch (keywords as `classifier_run`). Returns (model, records), or (None, None) if training
    diverged (reported, not raised)."""
    build, fit_kwargs = classifier_run(x, y, init_norm=init_norm, epochs=epochs, lr=lr, **kwargs)
    try:
        model, hist = fit_cached(build, x, y, seed=seed, desc=desc, **fit_kwargs)
    except TrainingDiverged as e:
        print(f"{desc or 'run'}: {e}")
        return None, None
    return model, hist.records


def train_seed_band(x, y, *, seeds, desc=None, **kwargs) -> list:
    """Records of `train_classifier(x, y, seed=s, **kwargs)` for each seed (diverged runs left out).

    Each seed goes through `train_classifier` (its own `fit_cached` entry, the key `fit_cached_seeds`
    would use) so that a diverged seed is reported and left out instead of stopping the band; BatchNorm
    nets with minibatches and a recorder train one at a time anyway."""
    out = []
    for s in seeds:
        _, rec = train_classifier(x, y, seed=s, desc=f"{desc or 'run'}, seed {s}", **kwargs)
        if rec is not None:
            out.append(rec)
    return out


def train_group(x, y, *, norms, seed: int = 0, desc=None, **kwargs) -> dict:
    """{initial norm: records} of `train_classifier(x, y, init_norm=norm, seed=seed, **kwargs)` for each
    norm of a figure group (None for a diverged run)."""
    return {n: train_classifier(x, y, init_norm=n, seed=seed, desc=f"{desc or 'run'}, init norm {n:g}",
                                **kwargs)[1] for n in norms}


def train_init_bands(x, y, *, norms, seeds, desc=None, **kwargs) -> dict:
    """{initial norm: [records per seed]} of `train_classifier` for each norm and seed (None for a diverged run,
    so the seeds stay paired across norms): the dependence on the initialization, judged seed by seed."""
    return {n: [train_classifier(x, y, init_norm=n, seed=s, desc=f"{desc or 'run'}, init norm {n:g}, seed {s}",
                                 **kwargs)[1] for s in seeds] for n in norms}
