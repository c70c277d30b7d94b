"""Paper 4 (Poggio & Liao): the norm rho of a deep classifier, its margins, and eq. 5's equilibrium.

A ReLU network without biases is homogeneous: `g(x) = rho * f(x)` where `rho` is the product of
the Frobenius norms of the weight matrices and `f` is the same network with every matrix
normalized. Two readings of rho:

* ``"product"``: the product over *all* weight layers (paper 4, Sec 1.1; "rho from all layers").
* ``"bn"``: the paper's reading with BatchNorm (Sec 2): a BN layer after `W_k` makes the output
  invariant to the scale of `W_k`, i.e. it fixes `rho_k = 1`, so rho is the product over the
  layers *not* followed by BatchNorm, here the last one: `rho = ||W_L||`. Without BatchNorm both
  readings coincide.

`f = g / rho_bn` is then exactly the output of the network with normalized weights, whichever
architecture; `margins` uses it. Outputs are computed with BatchNorm normalizing over the whole
set given (full-batch statistics; running statistics are left untouched), which is the network
function the gradient-flow analysis talks about.
"""
from __future__ import annotations

import contextlib
import functools
import math

import torch
from torch import nn

from . import models
from .models import weight_layers
from .runtime import MemlibError, check_choice
from .store import fit_cached, tensor_digest
from .train import TrainingDiverged

READINGS = ("product", "bn")
BN_TYPES = (nn.BatchNorm1d, nn.BatchNorm2d)


def _bn_followed(model: nn.Module) -> list[bool]:
    """For each weight layer (input to output): is it followed by a BatchNorm before the next one?"""
    flags = []
    for m in model.modules():
        if isinstance(m, models.WEIGHT_TYPES):
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
def last_hidden(model: nn.Module, x: torch.Tensor) -> torch.Tensor:
    """The input of the last weight layer (N, D) with full-batch BatchNorm statistics."""
    store = {}
    handle = weight_layers(model)[-1].register_forward_hook(lambda m, inp, out: store.update(h=inp[0]))
    try:
        outputs(model, x)
    finally:
        handle.remove()
    return store["h"].flatten(1)


def _class_means(h: torch.Tensor, labels: torch.Tensor):
    """(classes sorted, their mean features (K, D) in float64) of features h (N, D)."""
    h = h.double()
    labels = labels.reshape(-1).to(h.device)
    classes = labels.unique()
    if len(classes) < 2:
        raise MemlibError("neural collapse needs at least two classes")
    return classes, torch.stack([h[labels == c].mean(0) for c in classes])


def _centred_means(h: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """The class means minus their own mean (K, D): a simplex ETF's vertices sum to zero. (Papyan et al. centre at
    the global mean of balanced classes, the same point; for unbalanced classes this keeps NC2 free of the class
    sizes.)"""
    means = _class_means(h, labels)[1]
    return means - means.mean(0)


def nc1(h: torch.Tensor, labels: torch.Tensor) -> float:
    """Neural collapse NC1 (Papyan, Han & Donoho 2020): tr(Sigma_W Sigma_B^+) / K of features h (N, D)."""
    h = h.double()
    labels = labels.reshape(-1).to(h.device)
    classes = labels.unique()
    mu = h.mean(0)
    means = torch.stack([h[labels == c].mean(0) for c in classes])              # (K, D)
    centered = h - means[torch.searchsorted(classes, labels)]
    sigma_w = centered.T @ centered / len(h)                                    # (D, D)
    m = (means - mu).T                                                          # (D, K)
    m_pinv = torch.linalg.pinv(m)                                               # (K, D)
    # Sigma_B = M M^T / K, so tr(Sigma_W Sigma_B^+) / K = tr(M^+ Sigma_W M^+^T)
    return torch.trace(m_pinv @ sigma_w @ m_pinv.T).item()


def nc2(h: torch.Tensor, labels: torch.Tensor) -> float:
    """Neural collapse NC2 (Papyan et al.): how far the centred class means of features h (N, D) are from a simplex
    equiangular tight frame: std / mean of their norms (equinorm) plus the largest |cos(mu_i, mu_j) + 1/(K-1)| over
    pairs i != j (equiangular, maximally apart); 0 exactly for a simplex ETF. With K = 2 it is 0 for any two distinct
    means (two centred means are antipodal and of equal norm): a binary task cannot test NC2."""
    m = _centred_means(h, labels)
    k, norms = len(m), m.norm(dim=1)
    cos = (m @ m.T) / torch.outer(norms, norms)
    off = ~torch.eye(k, dtype=torch.bool, device=m.device)
    equinorm = (norms.std(unbiased=False) / norms.mean()).item()
    return equinorm + (cos[off] + 1 / (k - 1)).abs().max().item()


def nc3(h: torch.Tensor, labels: torch.Tensor, classifier: torch.Tensor) -> float:
    """Neural collapse NC3 (Papyan et al.): ||W / ||W||_F - M / ||M||_F||_F^2 for the last layer's classifiers W (K, D),
    one row per class in sorted label order, and the centred class means M (K, D) of features h (N, D); 0 where the
    classifiers are the class means up to one scale, at most 4. For a one-output binary net see `binary_classifier`:
    there it is 2 - 2 cos(w, mu_+ - mu_-)."""
    m = _centred_means(h, labels)
    w = classifier.detach().double().to(m.device).reshape(len(m), -1)
    return ((w / w.norm() - m / m.norm()) ** 2).sum().item()


def binary_classifier(model: nn.Module) -> torch.Tensor:
    """The last layer of a one-output classifier (labels -1 / +1, decision sign(w . h)) as per-class classifiers
    (2, D): rows -w (class -1) and w (class +1), the sorted label order `nc3` reads."""
    w = weight_layers(model)[-1].weight.detach()
    if w.shape[0] != 1:
        raise MemlibError(f"binary_classifier needs a one-output last layer, got {w.shape[0]} outputs")
    w = w.reshape(-1)
    return torch.stack([-w, w])


def nc4(h: torch.Tensor, labels: torch.Tensor, decisions: torch.Tensor) -> float:
    """Neural collapse NC4 (Papyan et al.): the fraction of samples whose network decision (`decisions`, class labels
    (N,)) differs from the nearest class centre's (Euclidean distance of h (N, D) to the class means of h itself);
    0 where the classifier has collapsed to the nearest-class-centre rule."""
    classes, means = _class_means(h, labels)
    ncc = classes[torch.cdist(h.double(), means).argmin(1)]
    return (ncc != decisions.reshape(-1).to(ncc.device).to(ncc.dtype)).double().mean().item()


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
        g = outputs(model, x)                                                      # (N,)
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
            h = last_hidden(model, x)
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


# ---------------------------------------------------------------- training runs and their summaries

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
                       batch_size=batch_size, log_every=steps_per_epoch, callbacks=[recorder])


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


def init_band_metrics(tag: str, bands: dict) -> dict:
    """Per-seed lists (seed bands) of the dependence on the initial norm, from `train_init_bands`' {norm: [records
    per seed]}: for each seed, over its runs from every norm, "<tag>.rho_end_spread" and "<tag>.mean_abs_f_end_spread"
    (`init_spread`), "<tag>.margin_small_over_large" (`margin_small_over_large`, nan where a run diverged), Observation
    2's "<tag>.obs2_mean_margin_ratio" and, where the runs recorded margin_min, "<tag>.obs2_min_margin_ratio"
    (`margin_by_rho_eq`) and "<tag>.min_margin_small_over_large" (the smallest margin, Fig 11), and the fit
    of the worst run: "<tag>.train_errors_end", "<tag>.loss_ratio" (inf for a diverged run)."""
    n_seeds = len(next(iter(bands.values())))
    out = {f"{tag}.{k}": [] for k in ("rho_end_spread", "mean_abs_f_end_spread", "margin_small_over_large",
                                      "obs2_mean_margin_ratio", "train_errors_end", "loss_ratio")}
    with_min = all(r is None or "margin_min" in r for recs in bands.values() for r in recs)
    if with_min:
        out.update({f"{tag}.obs2_min_margin_ratio": [], f"{tag}.min_margin_small_over_large": []})
    for i in range(n_seeds):
        runs = {n: recs[i] for n, recs in bands.items()}
        ok = {n: r for n, r in runs.items() if r is not None}
        ends = [end_metrics(r) for r in ok.values()]
        whole = len(ok) == len(runs)
        out[f"{tag}.rho_end_spread"].append(init_spread(ok) if whole else float("nan"))
        out[f"{tag}.mean_abs_f_end_spread"].append(init_spread(ok, "mean_abs_f") if whole and all(
            "mean_abs_f" in r for r in ok.values()) else float("nan"))
        out[f"{tag}.margin_small_over_large"].append(margin_small_over_large(ok) if whole else float("nan"))
        out[f"{tag}.obs2_mean_margin_ratio"].append(margin_by_rho_eq(ok) if whole else float("nan"))
        if with_min:
            out[f"{tag}.obs2_min_margin_ratio"].append(margin_by_rho_eq(ok, "margin_min") if whole else float("nan"))
            out[f"{tag}.min_margin_small_over_large"].append(
                margin_small_over_large(ok, "margin_min") if whole else float("nan"))
        out[f"{tag}.train_errors_end"].append(max(e["train_errors_end"] for e in ends) if whole else float("inf"))
        out[f"{tag}.loss_ratio"].append(max(e["loss_ratio"] for e in ends) if whole else float("inf"))
    return out


def tail_mean(series, frac: float = 0.1) -> float:
    """Mean of the last `frac` of a recorded series (at least one entry): SGD's noise averaged out."""
    s = list(series)
    return float(sum(s[-max(1, int(len(s) * frac)):]) / max(1, int(len(s) * frac)))


def rise_before_equilibrium(rho_series, rho_eq_series) -> tuple[float, int | None]:
    """Observation 1's test: (largest relative drop of rho below its running maximum before rho first
    reaches rho_eq, index of that first crossing or None if it never does)."""
    running, drop = -float("inf"), 0.0
    for i, (r, r_eq) in enumerate(zip(rho_series, rho_eq_series)):
        running = max(running, r)
        drop = max(drop, (running - r) / running)
        if r_eq > 0 and r >= r_eq:
            return drop, i
    return drop, None


def max_drop(series) -> float:
    """Largest relative fall of a series below its running maximum, over the whole series (0 for a
    non-decreasing one): Observation 1 over a run, `max_t (max_{s<=t} rho_s - rho_t) / max_{s<=t} rho_s`."""
    running, drop = -float("inf"), 0.0
    for r in series:
        running = max(running, r)
        if running > 0:
            drop = max(drop, (running - r) / running)
    return drop


def _ratio(a: float, b: float) -> float:
    return a / b if b != 0 else float("nan")     # a dead network (all f_n = 0) has no margins


def margin_cv(records) -> list[float]:
    """Spread of the training margins per epoch: std / mean of y_n f_n (0 at exact interpolation)."""
    return [_ratio(s, m) for s, m in zip(records["margin_std"], records["margin_mean"])]


def first_separable(records) -> int | None:
    """Index of the first recorded epoch with every training sample classified correctly, or None."""
    return next((i for i, a in enumerate(records["acc"]) if a >= 1.0), None)


def end_metrics(records) -> dict:
    """End-of-training numbers of one run (noisy series averaged over the last 10 % of epochs):
    rho (BN reading), eq. 5's rho_eq, their relative gap, margin mean and spread, mean |f_n|, the largest
    fall of rho below its running maximum over the run (`max_drop`), the training accuracy and the number
    of misclassified training samples at the last epoch, the loss (averaged, and `loss_ratio`: the last epoch's
    MSE over that of predicting zero, which is 1 for labels +-1: the fit gate `claims.fitted`), the test error
    (averaged), and where recorded the smallest margin and NC1 .. NC4 (averaged)."""
    rho_end, rho_eq_end = tail_mean(records["rho_bn"]), tail_mean(records["rho_eq"])
    out = dict(rho_end=rho_end, rho_eq_end=rho_eq_end,
               eq5_rel_err=_ratio(abs(rho_end - rho_eq_end), abs(rho_eq_end)),
               margin_mean_end=tail_mean(records["margin_mean"]), margin_cv_end=tail_mean(margin_cv(records)),
               rho_max_drop=max_drop(records["rho_bn"]),
               train_acc_end=records["acc"][-1],
               train_errors_end=float(sum(m <= 0 for m in records["last_margins"])),
               loss_end=tail_mean(records["loss"]),
               loss_ratio=records["loss"][-1])   # labels +-1: predicting zero has MSE 1
    if "mean_abs_f" in records:
        out["mean_abs_f_end"] = tail_mean(records["mean_abs_f"])
    if "test_acc" in records:
        out["test_acc_end"] = records["test_acc"][-1]
        out["test_error_end"] = tail_mean([1 - a for a in records["test_acc"]])
    if "margin_min" in records:
        out["margin_min_end"] = tail_mean(records["margin_min"])
    for k in ("nc1", "nc2", "nc3", "nc4"):
        if k in records:
            out[f"{k}_end"] = tail_mean(records[k])
    return out


def end_over_separable(records, key: str) -> float:
    """Series `key` ("margin_cv" or a recorded one) at the end (last 10 % averaged) divided by its value
    at the first epoch with all samples separated (terminal phase of training begins, Papyan et al.);
    inf if the run never separates the training set."""
    series = margin_cv(records) if key == "margin_cv" else records[key]
    i = first_separable(records)
    return float("inf") if i is None else _ratio(tail_mean(series), series[i])


def init_spread(runs: dict, key: str = "rho_bn") -> float:
    """max / min of the final value of a recorded series (default rho, BN reading; "mean_abs_f" for Fig 3)
    over runs {init_norm: records} (None entries skipped)."""
    ends = [tail_mean(r[key]) for r in runs.values() if r is not None]
    return max(ends) / min(ends) if ends and min(ends) > 0 else float("nan")


def margin_small_over_large(runs: dict, key: str = "margin_mean") -> float:
    """Final mean margin (`key="margin_min"`: smallest margin) of the smallest initial norm over that of the largest
    (runs {norm: records}); nan when the large-initialization run's is not positive."""
    ok = [n for n, r in runs.items() if r is not None]
    small, large = (tail_mean(runs[n][key]) for n in (min(ok), max(ok)))
    return small / large if large > 0 else float("nan")


def margin_by_rho_eq(runs: dict, key: str = "margin_mean") -> float:
    """Observation 2 over runs {init_norm: records} (None skipped): the final mean margin (`key="margin_min"`: the
    smallest margin, min_n y_n f_n) of the run ending with the smallest eq. 5 rho_eq over that of the run ending with
    the largest (last 10 % of epochs averaged); > 1 where the smaller rho_eq has the larger margin; nan when the
    latter is not positive or fewer than two runs are left."""
    ok = sorted((r for r in runs.values() if r is not None), key=lambda r: tail_mean(r["rho_eq"]))
    if len(ok) < 2:
        return float("nan")
    small, large = tail_mean(ok[0][key]), tail_mean(ok[-1][key])
    return small / large if large > 0 else float("nan")


def run_metrics(tag: str, runs: dict) -> dict:
    """Flat metrics of a figure group {init_norm: records}: `end_metrics` of each run as
    "<tag>.norm<norm>.<name>" (a diverged run logs "<tag>.norm<norm>.diverged" = 1), the worst eq. 5 gap
    over the group, "<tag>.eq5_max_rel_err", and the group's fit: "<tag>.train_errors_end" (the most
    misclassified training samples at the end: 0 when every run separates its training set) and
    "<tag>.loss_ratio" (the highest; a diverged run counts as unfitted, inf for both)."""
    out, gaps, errs, ratios = {}, [], [], []
    for norm, r in runs.items():
        if r is None:
            out[f"{tag}.norm{norm:g}.diverged"] = 1.0
            errs.append(float("inf")), ratios.append(float("inf"))
            continue
        end = end_metrics(r)
        out.update({f"{tag}.norm{norm:g}.{k}": float(v) for k, v in end.items()})
        gaps.append(end["eq5_rel_err"]), errs.append(end["train_errors_end"]), ratios.append(end["loss_ratio"])
    if gaps:
        out[f"{tag}.eq5_max_rel_err"] = max(gaps)
    if errs:
        out[f"{tag}.train_errors_end"], out[f"{tag}.loss_ratio"] = max(errs), max(ratios)
    return out


def run_ends(records: list) -> list[dict]:
    """`end_metrics` of each run of `records` (None, a diverged run, skipped): what `plot.error_vs_rho` draws."""
    return [end_metrics(r) for r in records if r is not None]


BAND_KEYS = ("train_errors_end", "loss_ratio", "rho_end", "rho_max_drop", "margin_mean_end", "test_error_end",
             "nc2_end", "nc3_end", "nc4_end")


def band_metrics(tag: str, records: list, *, seeds: int | None = None) -> dict:
    """Per-seed lists (seed bands, `Run.log`) of a run trained over seeds: `end_metrics` values named in
    BAND_KEYS as "<tag>.<name>", and the terminal-phase ratios "<tag>.cv_end_over_tpt" (margin spread) and
    "<tag>.nc1_end_over_tpt", "<tag>.nc3_end_over_tpt" (`end_over_separable`; NC2 and NC4 at the end are in
    BAND_KEYS). With `seeds` (the number trained), each seed that
    `train_seed_band` left out (diverged) adds an unfitted entry to the fit lists (errors and ratio inf)."""
    ends = [end_metrics(r) for r in records]
    out = {f"{tag}.{k}": [e[k] for e in ends if k in e] for k in BAND_KEYS}
    missing = max(0, (seeds or 0) - len(records))
    out[f"{tag}.train_errors_end"] += [float("inf")] * missing
    out[f"{tag}.loss_ratio"] += [float("inf")] * missing
    out[f"{tag}.cv_end_over_tpt"] = [end_over_separable(r, "margin_cv") for r in records]
    for k in ("nc1", "nc3"):
        if records and all(k in r for r in records):
            out[f"{tag}.{k}_end_over_tpt"] = [end_over_separable(r, k) for r in records]
    return {k: v for k, v in out.items() if v}


def error_gap_by_rho(records_a: list, records_b: list) -> list[float]:
    """Observation 3 per seed: for the i-th run of two bands (same network and data, e.g. two initial
    norms, paired by seed), the test error (`end_metrics`' test_error_end) of the run that ends with the
    larger rho minus that of the run with the smaller rho; > 0 where the smaller rho generalizes better.
    nan where the bands do not pair up (a diverged seed)."""
    if len(records_a) != len(records_b):
        return [float("nan")] * max(len(records_a), len(records_b))
    out = []
    for ra, rb in zip(records_a, records_b):
        ea, eb = end_metrics(ra), end_metrics(rb)
        small, large = (ea, eb) if ea["rho_end"] <= eb["rho_end"] else (eb, ea)
        out.append(large["test_error_end"] - small["test_error_end"])
    return out
