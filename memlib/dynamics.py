"""A trained autoencoder as a discrete dynamical system x_{t+1} = f(x_t) (paper 2, Sec 3).

`iterate` follows trajectories (keeping only the iterations asked for, so a thousand steps of a
thousand points stays small); `nearest` names the training example a point ended up at;
`reach_eps` is the distance that counts as "reached a training example" and
`fixed_point_distance` says how far the training examples are from being fixed points;
`attractor_measures` puts these together into Fig 3's numbers for one trained autoencoder;
`trajectory_rows` are the images of Fig 3/5's trajectories (`plot.trajectory_rows_grid` draws them).
"""
from __future__ import annotations

import copy
from typing import Callable, Sequence

import torch

from .linalg import order_with, spectral_radius
from .pearson import correlation
from .runtime import MemlibError, get_device


def _record_set(steps: int, record) -> list[int]:
    if steps < 0:
        raise MemlibError(f"steps must be >= 0, got {steps}")
    if record is None:
        return list(range(steps + 1))
    keep = sorted(set(int(t) for t in record))
    if keep and (keep[0] < 0 or keep[-1] > steps):
        raise MemlibError(f"record asks for iterations {keep[0]}..{keep[-1]} but only 0..{steps} are computed")
    return keep


@torch.no_grad()
def iterate(f: Callable, x0: torch.Tensor, steps: int, *, record: Sequence[int] | None = None,
            batch_size: int = 4096) -> torch.Tensor:
    """The trajectories x_t = f^t(x0) of every start in `x0` (N, ...).

    Returns (T, N, ...) on the CPU: all iterations 0..steps (T = steps + 1) when `record` is None,
    else only the iteration indices in `record` (sorted, T = len(record)). `f` runs on the
    session's device (a module is put in eval mode).
    """
    keep = _record_set(steps, record)
    wanted = set(keep)
    if isinstance(f, torch.nn.Module):
        f.eval()
    dev = get_device()
    out = []
    for i in range(0, len(x0), batch_size):
        x = x0[i:i + batch_size].to(dev)
        kept = [x.cpu()] if 0 in wanted else []
        for t in range(1, (keep[-1] if keep else 0) + 1):
            x = f(x)
            if t in wanted:
                kept.append(x.cpu())
        out.append(torch.stack(kept) if kept else torch.empty(0, *x.shape))
    return torch.cat(out, dim=1)


def _flat(x: torch.Tensor) -> torch.Tensor:
    return x.reshape(len(x), -1).double()


@torch.no_grad()
def nearest(x: torch.Tensor, train: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """For each point of `x` (N, ...), the index (N,) of its nearest training example in `train`
    (M, ...) and the Euclidean distance (N,) to it."""
    if x.shape[1:] != train.shape[1:]:
        raise MemlibError(f"points of shape {tuple(x.shape[1:])} cannot be compared with training "
                          f"examples of shape {tuple(train.shape[1:])}")
    dist = torch.cdist(_flat(x.cpu()), _flat(train.cpu()))      # (N, M)
    d, idx = dist.min(dim=1)
    return idx, d.float()


def trajectory_rows(f: Callable, x_train: torch.Tensor, x0: torch.Tensor, iters) -> list[torch.Tensor]:
    """Paper 2, Fig 3/5 (`plot.trajectory_rows_grid` draws them): one row per start in `x0` (N, C, H, W): its
    iterates f^t(x0) at the iteration counts `iters` (sorted), then the training example of `x_train`
    nearest to the last iterate."""
    iters = sorted(int(t) for t in iters)
    traj = iterate(f, x0, iters[-1], record=iters)                     # (T, N, C, H, W)
    idx, _ = nearest(traj[-1], x_train)
    return [torch.cat([traj[:, i], x_train[idx[i]].unsqueeze(0).cpu()]) for i in range(len(x0))]


def jacobian_radii(f: Callable, points: torch.Tensor) -> torch.Tensor:
    """The largest |eigenvalue| of the Jacobian of `f` at each point (N,) of `points` (N, ...):
    paper 2, Theorem 2's attractor test (a fixed point with radius < 1 is an attractor)."""
    if isinstance(f, torch.nn.Module):
        f.eval()
    return torch.tensor([spectral_radius(f, p) for p in points])   # each p: ONE input, no batch dim


def reach_eps(train: torch.Tensor, *, scale: float = 0.1) -> float:
    """The distance within which a point "has reached" a training example: `scale` x the median
    distance between a training example (M, ...) and its nearest other one (paper 2 gives no epsilon)."""
    if len(train) < 2:
        raise MemlibError("reach_eps needs at least two training examples")
    flat = _flat(train.cpu())
    dd = torch.cdist(flat, flat).fill_diagonal_(float("inf"))
    return scale * dd.min(dim=1).values.median().item()


@torch.no_grad()
def fixed_point_distance(f: Callable, train: torch.Tensor) -> torch.Tensor:
    """||f(x_i) - x_i|| for each training example (N,): all below `reach_eps` means every training
    example is a fixed point at the resolution used for "reached" (a precondition for attractors)."""
    out = iterate(f, train, 1, record=[1])[0]
    return (_flat(out) - _flat(train.cpu())).norm(dim=1).float()


def attractor_measures(f: Callable, train: torch.Tensor, starts: torch.Tensor, iterations: Sequence[int],
                       ) -> tuple[dict[str, float], torch.Tensor]:
    """Paper 2, Fig 3's measures of an autoencoder `f` fitted to `train` (M, ...), iterated from
    `starts` (N, ...): the metrics

    - ``eps``: the distance that counts as "reached a training example" (`reach_eps`),
    - ``train_max_dist``: the worst ||f(x_i) - x_i|| over the training examples (fitted: below eps),
    - ``iter{t}.converged_fraction`` for each t in `iterations`, and ``last.converged_fraction``
      (the largest t): the share of trajectories within eps of a training example after t steps,

    and the Jacobian spectral radius (M,) at every training example (Theorem 2: < 1 is an attractor).
    """
    iterations = sorted(set(int(t) for t in iterations))
    eps = reach_eps(train)
    measures = {"eps": eps, "train_max_dist": fixed_point_distance(f, train).max().item()}
    for t, points in zip(iterations, iterate(f, starts, iterations[-1], record=iterations)):
        measures[f"iter{t}.converged_fraction"] = (nearest(points, train)[1] < eps).float().mean().item()
    measures["last.converged_fraction"] = measures[f"iter{iterations[-1]}.converged_fraction"]
    return measures, jacobian_radii(f, train)


def attractor_band_measures(name: str, nets: Sequence[Callable], train: torch.Tensor, starts: torch.Tensor,
                            iterations: Sequence[int]) -> tuple[dict, torch.Tensor]:
    """`attractor_measures` for each net of a seed band trained on `train`, as metrics named for figure `name`:
    ``{name}.<measure>`` (one value per net, a band) and ``{name}.eps`` (once: it depends on `train` only), with
    Theorem 2's test at every training example: ``thm2.{name}.attractor_fraction`` (Jacobian radius < 1),
    ``thm2.{name}.median_radius`` and ``thm2.{name}.max_radius``. Also returns the radii of every net,
    concatenated ((len(nets) * M,))."""
    band, radii_all = {}, []
    for f in nets:
        measures, radii = attractor_measures(f, train, starts, iterations)
        eps = measures.pop("eps")
        measures = {**{f"{name}.{k}": v for k, v in measures.items()},
                    f"thm2.{name}.attractor_fraction": (radii < 1).float().mean().item(),
                    f"thm2.{name}.median_radius": radii.median().item(), f"thm2.{name}.max_radius": radii.max().item()}
        for key, value in measures.items():
            band.setdefault(key, []).append(value)
        radii_all.append(radii)
    return {**band, f"{name}.eps": eps}, torch.cat(radii_all)


# ---------------------------------------------------------------- the untrained twin (issue 27)

UNTRAINED_MARGIN = 0.05   # a trained net's point-map / attractor score must beat its untrained twin's by this much
#                           (correlations and fractions, both in [0, 1]; fixed before measuring, 2026-11-25)


def untrained_bar(key: str, untrained_score, paper_bar: float, *, higher: bool = True,
                  margin: float = UNTRAINED_MARGIN) -> dict:
    """The metrics `{key}.untrained` (the untrained twin's score, measured as `key` is) and `{key}.bar`: the
    paper's bar or the untrained score moved `margin` past it, whichever is stricter (per seed for a list), so a
    claim `key > {key}.bar` (`<` when `higher` is False) fails for a net that beats the paper's bar only because
    its untrained twin already does."""
    def one(u):
        u = float(u)
        return max(paper_bar, u + margin) if higher else min(paper_bar, u - margin)
    if isinstance(untrained_score, (list, tuple)):
        bar = [one(u) for u in untrained_score]
        untrained_score = [float(u) for u in untrained_score]
    else:
        bar, untrained_score = one(untrained_score), float(untrained_score)
    return {f"{key}.untrained": untrained_score, f"{key}.bar": bar}


def untrained_bars(prefix: str, untrained_rows: list[dict], bars: dict, *, higher: bool = True,
                   also: tuple = ()) -> dict:
    """`untrained_bar` for each `{prefix}.{key}` of `bars` ({key: the paper's bar}), its untrained score read from
    the per-seed dicts `untrained_rows` (one per seed, measured as the trained nets' rows are), and
    `{prefix}.{key}.untrained` alone for each key of `also` (a control with no bar)."""
    out = {}
    for key, paper_bar in bars.items():
        out.update(untrained_bar(f"{prefix}.{key}", [r[key] for r in untrained_rows], paper_bar, higher=higher))
    out.update({f"{prefix}.{key}.untrained": [float(r[key]) for r in untrained_rows] for key in also})
    return out


@torch.no_grad()
def converged_fraction(f: Callable, train: torch.Tensor, starts: torch.Tensor, steps: int, eps: float) -> float:
    """The share of `starts` (N, ...) whose iterate f^steps(x) lies within `eps` of a training example."""
    end = iterate(f, starts, steps, record=[steps])[0]
    return (nearest(end, train)[1] < eps).float().mean().item()


def convergence(f: Callable, train: torch.Tensor, starts: torch.Tensor, steps: int, eps: float, *,
                also: Sequence[int] = ()) -> dict:
    """Iterating `f` `steps` times from `starts` (N, ...), in one pass: `converged_fraction`, the share of the starts
    whose iterate f^steps(x) lies within `eps` of a training example (as `converged_fraction`), the same share after
    each count t in `also` (`converged_fraction_it{t}`), `last_move`, the largest |f^steps(x) - f^(steps-1)(x)| over
    the starts (near 0 where the iterates have stopped: the count reached convergence), and `ends`, f^steps(starts)."""
    counts = sorted({*also, steps - 1, steps})
    at = dict(zip(counts, iterate(f, starts, steps, record=counts)))
    share = lambda x: (nearest(x, train)[1] < eps).float().mean().item()   # noqa: E731
    out = {"converged_fraction": share(at[steps]), "ends": at[steps],
           "last_move": (_flat(at[steps]) - _flat(at[steps - 1])).abs().max().item()}
    out.update({f"converged_fraction_it{t}": share(at[t]) for t in also})
    return out


def _pearson(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """Per-row Pearson correlation of (N, ...) with (N, ...), as `metrics.correlation` computes it (0 for a constant row)."""
    a, b = a.reshape(len(a), -1).double(), b.reshape(len(b), -1).double()
    ac, bc = a - a.mean(1, keepdim=True), b - b.mean(1, keepdim=True)
    denom = ac.norm(dim=1) * bc.norm(dim=1)
    r = (ac * bc).sum(1) / denom.clamp_min(1e-300)
    return torch.where(denom > 0, r, torch.zeros_like(r)).float()


@torch.no_grad()
def nearest_corr_medians(f: Callable, starts: torch.Tensor, train: torch.Tensor, steps: int) -> tuple[float, float]:
    """Paper 2, Fig 5: the median over `starts` (N, ...) of the correlation of f(x), and of f^steps(x), with its
    nearest (Euclidean) training example in `train` (M, ...) (`metrics.nearest_train_corr`): near 1 when the
    iterate "is" a training image. Returns (after one application, after `steps`)."""
    out = []
    for points in iterate(f, starts, steps, record=[1, steps]):
        idx, _ = nearest(points, train)
        out.append(_pearson(points.cpu(), train.cpu()[idx]).median().item())
    return out[0], out[-1]


@torch.no_grad()
def best_abs_corr(f: torch.nn.Module, inputs: torch.Tensor, images: torch.Tensor) -> torch.Tensor:
    """Paper 2, Fig 9 / 10: for each input (N, ...), the largest |Pearson r| of f(x) with one of `images` (M, ...),
    "the output is a multiple of that training image" when near 1. (N,) on the CPU.

    `f` is evaluated in float64 on the CPU (a copy; `f` is untouched). Fig 9's net is 29 layers of LeakyReLU(0.01):
    an input whose signal turns negative in an early layer is multiplied by about 0.01 at every later layer, and
    its float32 output underflows to exactly 0 (0.01^29 = 1e-58, below float32's smallest 1.4e-45), a constant
    that has no correlation. The net is positively homogeneous (no biases), so that output is a tiny multiple of
    what float64 computes; float64 (down to 1e-308) keeps it. An output constant even in float64 scores NaN
    (`pearson.correlation(..., undefined=nan)`), never 0: it is reported, not read as "uncorrelated"."""
    net = copy.deepcopy(f).cpu().double().eval()
    out = net(inputs.detach().cpu().double())
    r = torch.stack([correlation(out, t.unsqueeze(0).double(), undefined=float("nan")).abs()
                     for t in images.detach().cpu()])          # (M, N)
    return r.max(0).values if not torch.isnan(r).any() else torch.where(torch.isnan(r).any(0), torch.nan, r.max(0).values)


# ---------------------------------------------------------------- controls (issue 42, item 2)

def attractor_fraction(f: Callable, train: torch.Tensor, eps: float) -> float:
    """Paper 2, Theorem 2 with its precondition: the share of training examples (M, ...) that are attractors of `f`,
    i.e. fixed points within `eps` (`fixed_point_distance`) at which the Jacobian's largest |eigenvalue| is below 1.
    For a net whose every training example is a fixed point (the claims' fit gate) this is the logged
    `thm2.<net>.attractor_fraction`; for the untrained twin it is the claim's control (the radius alone is no
    attractor test at a point that is not a fixed point). Radii are computed only at the fixed points."""
    fixed = fixed_point_distance(f, train) < eps
    if not fixed.any():
        return 0.0
    return (jacobian_radii(f, train[fixed]) < 1).sum().item() / len(train)


def relative_rest(magnitudes, n: int) -> float:
    """Paper 2's memorization spectrum (Tables 1-2, Fig 7-8) made free of the operator's scale: the (n+1)-th largest
    |eigenvalue| over the n-th. A fitted net's n largest are its images' (1), so this is its "rest"
    (`linalg.memorization_spectrum`); an untrained net's scale is its initialization's, so its rest is read against
    its own n largest: a spectrum shaped 1, ..., 1, [small] before any training scores small here."""
    v = magnitudes if torch.is_tensor(magnitudes) else torch.tensor(magnitudes, dtype=torch.float64)
    v = v.abs().double().flatten().sort(descending=True).values     # complex eigenvalues: their magnitudes
    if not 0 < n < len(v):
        raise MemlibError(f"relative_rest needs 0 < n < {len(v)} eigenvalues, got n={n}")
    return (v[n] / v[n - 1]).item() if v[n - 1] > 0 else float("nan")


def table1_summary(eig3: dict, eig3_untrained: dict, final_loss: dict, depths: Sequence, filters: Sequence) -> dict:
    """Paper 2's Table 1 as metrics, from {(layers, filters): [value per seed]} of the trained nets' third |eigenvalue|,
    the untrained twins' third against their second (`relative_rest`) and the final losses.

    "Falls with depth" (the `order` row of claims/rules.py): per seed and filter count, Spearman's rank correlation of
    the third eigenvalue with depth, values within 1e-3 (relative) counted as ties (linalg.order_with); the share of
    filter counts where it is negative, trained and untrained (the control). The spread across filter counts at one
    depth (the claim "filters do not matter") and across depths at one filter count (its control), per seed."""
    n = len(next(iter(eig3.values())))

    def falls(e: dict, k: int) -> float:          # per seed: the share of filter counts where it falls with depth
        return float(sum(order_with([e[L, f][k] for L in depths]) < 0 for f in filters) / len(filters))

    def spread(values) -> float:
        values = list(values)
        return max(values) - min(values)

    return {
        **{f"table1.L{L}.f{f}.eig3": eig3[L, f] for L in depths for f in filters},
        **{f"table1.L{L}.f{f}.final_loss": final_loss[L, f] for L in depths for f in filters},
        **{f"table1.f{f}.depth_order": [order_with([eig3[L, f][k] for L in depths]) for k in range(n)]
           for f in filters},
        "table1.depth_order_fraction": [falls(eig3, k) for k in range(n)],
        "table1.depth_order_fraction.untrained": [falls(eig3_untrained, k) for k in range(n)],
        "table1.max_filter_spread": [max(spread(eig3[L, f][k] for f in filters) for L in depths) for k in range(n)],
        "table1.max_depth_spread": [max(spread(eig3[L, f][k] for L in depths) for f in filters) for k in range(n)],
        "table1.min_eig3": [min(v[k] for v in eig3.values()) for k in range(n)],
        "table1.max_final_loss": [max(v[k] for v in final_loss.values()) for k in range(n)],
    }
