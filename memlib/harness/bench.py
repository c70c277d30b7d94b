"""`python -m memlib bench`: model-steps per second, naive baseline versus memlib, side by side, and the FLOP
rate each reaches as a share of the machine's measured peak.

The baseline is what a paper's author would write: one torch optimizer per model (`torch.optim.SGD` or
`torch.optim.Adam`, the case's learning rate, schedule and clipping), eager, one model after another. memlib
trains the same models with `fit` (one model) or `fit` on the list (several: one grouped computation where
`auto` picks it). Both run after a warm-up, in one process, alternating. A rate is the difference of two runs of
n and 3n steps (model-steps over seconds), so what a run pays once (building the models and the optimizer,
capturing a CUDA graph) is not counted as steps; best of `repeats`.

The cases (`CASES`): paper 1's 5-layer, 32-channel ConvNet and 3 x 2048 FCN on one 28x28 image at SGD lr 0.01,
momentum 0.9 (App. B), for each of `--models`; and the trainings the quick profile spends most time on, with
their own recipes and model counts: paper 1's 20-layer, 32-channel ConvNet (the depth sweep's
recipe `recipes.paper1.DEPTH_FIT`, the paper's SGD since session 16; one model and the 3-seed band), paper 2's
7 x 128 leaky-ReLU autoencoder on 100 784-pixel images, full-batch Adam (notebook 02's Fig 3a), and paper 1's
1-hidden-layer FCN of width 256 on one digit (notebook 01's FCN bands: one model and 3), paper 2's 7 x 512
autoencoder on one minibatch of 100 digits (Fig 11) and Table 1's 8-convolution linear autoencoder on two 3x3 images
(one model and 3: the tables' nets are the smallest quick trains, thousands of steps each).

FLOPs: `torch.utils.flop_counter.FlopCounterMode` over one forward + backward of one model of the case (counted
once; a model-step of a band costs the same), so GFLOP/s = FLOP per model-step x model-steps/s. It counts the
matrix products and convolutions only (a Linear layer's 2 x in x out per example forward, its weight gradient and,
but for the first layer, its input gradient backward), not the elementwise work, the loss or the optimizer.
Peak: a float32 (2048 x 2048) @ (2048 x 2048) product (2 x 2048^3 FLOP), timed after a warm-up, best of 5, in
the same run, on the same device and threads. `% peak` is a case's rate over it.

On a CPU a timed run of n steps is sized to last about `TARGET_S` (from the warm-up's time, at most the
case's steps), which keeps the whole bench to a few minutes. On a GPU also: the single-model `fit` with its CUDA
graph against the same `fit` run eagerly (cuda_graph=False). Also reported: each notebook's wall time, read
from results/<profile>/*/provenance.json.
"""
from __future__ import annotations

import functools
import json
import math
import platform
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import torch
from torch.utils.flop_counter import FlopCounterMode

from .. import models
from ..cuda_graph import graph_blocker
from ..ensemble import choose_strategy
from .fileio import atomic_write_text
from ..optim import SCHEDULE_FACTORS
from ..recipes import paper1, paper2
from ..runtime import get_device
from .store import build_model
from ..train import fit

SGD = dict(lr=0.01, momentum=0.9)   # paper 1, App. B
FCN_SGD = dict(lr=0.01, momentum=0.9, schedule="stagewise")                  # notebook 01's FCN_SGD (not clipped)
AE_ADAM = dict(optimizer="adam", lr=1e-3, schedule="final_decay")            # notebook 02's F3_FIT (Fig 3a / 3b)


@dataclass(frozen=True)
class Case:
    build: Callable                   # the model's builder
    shape: tuple                      # the training data (N, ...)
    recipe: dict                      # fit's optimizer keywords; the naive loop trains with the same
    models: tuple | None = None       # numbers of models; None: the bench's `model_counts` (--models)
    steps_scale: int = 1              # a timed run may take up to steps x this (cheap steps: time them longer)
    data: str = "randn"               # "randn": N(0, 1); "rand": U(0, 1), like pixel intensities
    init: str = "default"             # weights.initialize_'s scheme; paper 1's ConvNets: its App. H.3 init
    note: str = ""


CASES = {
    # paper 1's ConvNets from the paper's init (App. H.3): from PyTorch's, seeds 5 and 14 of the 32 diverge under
    # SGD 0.01 / 0.9 on N(0, 1) data within 250 steps (measured on the CPU and, for seed 5, on an H100, session 17)
    "convnet5x32": Case(functools.partial(models.convnet, 5, channels=32), (1, 1, 28, 28), SGD,
                        init=paper1.DEPTH_INIT["quick"], note="paper 1, Fig 3a"),
    "fcn3x2048": Case(functools.partial(models.fcn, 784, 3, width=2048), (1, 1, 28, 28), SGD,
                      note="paper 1, Fig 7 (App. B width)"),
    "convnet20x32": Case(functools.partial(models.convnet, 20, channels=32), (1, 1, 28, 28),
                         paper1.DEPTH_FIT["quick"], models=(1, 3), init=paper1.DEPTH_INIT["quick"],
                         note="paper 1's deepest quick ConvNet, its recipe (the paper's SGD); x3: the seed band"),
    "ae7x128": Case(functools.partial(models.autoencoder_fcn, 784, 7, width=128, activation="leaky_relu"),
                    (100, 1, 28, 28), AE_ADAM, models=(1,), data="rand",
                    note="paper 2, Fig 3a: 100 digits, full-batch Adam"),
    "fcn1x256": Case(functools.partial(models.fcn, 784, 1, width=256), (1, 1, 28, 28), FCN_SGD, models=(1, 3),
                     steps_scale=10, note="paper 1, Fig 5/7/8 at quick width; x3: the seed band"),
    "ae7x512": Case(functools.partial(models.autoencoder_fcn, 784, 7, width=512, activation="leaky_relu"),
                    (100, 1, 28, 28), AE_ADAM, models=(1,), data="rand",
                    note="paper 2, Fig 11: one minibatch of 100 digits per step, Adam (the recipe of Fig 3)"),
    "tableconv8x1": Case(functools.partial(models.linear_conv_ae, 8, 1, init_std=0.2), (2, 1, 3, 3),
                         dict(lr=paper2.TAB_GD_LR), models=(1, 3), steps_scale=10,
                         note="paper 2, Table 1: 8 linear 3x3 convolutions, 1 filter, two 3x3 images, gradient "
                              "descent; x3: three models on shared images"),
}
TARGET_S = 0.3          # CPU: a timed run of n steps lasts about this long (3n: three times)
PEAK_SIZE = 2048        # the peak: a (PEAK_SIZE, PEAK_SIZE) @ (PEAK_SIZE, PEAK_SIZE) float32 product
PEAK_REPEATS = 5
FLOPS_COUNTED = ("torch.utils.flop_counter.FlopCounterMode over one forward + backward of one model: matrix "
                 "products and convolutions; elementwise ops, the loss and the optimizer are not counted")


def _sync():
    if get_device().type == "cuda":
        torch.cuda.synchronize()


def recipe_label(recipe: dict) -> str:
    """'adam 0.0001', 'sgd 0.01 m0.9 clip1': the optimizer, its rate, momentum and clipping."""
    out = f"{recipe.get('optimizer', 'sgd')} {recipe['lr']:g}"
    if recipe.get("momentum"):
        out += f" m{recipe['momentum']:g}"
    if recipe.get("clip_grad_norm"):
        out += f" clip{recipe['clip_grad_norm']:g}"
    return out


def case_data(case: Case) -> torch.Tensor:
    g = torch.Generator().manual_seed(0)
    return (torch.rand if case.data == "rand" else torch.randn)(*case.shape, generator=g)


def flops_per_step(build, x: torch.Tensor) -> int:
    """FLOPs of one forward + backward (MSE to x) of one model from `build`, as FlopCounterMode counts them,
    on the CPU (the count does not depend on the device)."""
    net = build()
    with FlopCounterMode(display=False) as counter:
        torch.nn.functional.mse_loss(net(x), x).backward()
    return int(counter.get_total_flops())


def matmul_peak(size: int = PEAK_SIZE, repeats: int = PEAK_REPEATS) -> dict:
    """The machine's float32 matrix-product rate: (size, size) @ (size, size), 2 size^3 FLOP, after one
    warm-up product, best of `repeats` timings (on a GPU each timing averages enough products to last ~50 ms)."""
    device = get_device()
    g = torch.Generator().manual_seed(0)
    a, b = (torch.randn(size, size, generator=g).to(device) for _ in range(2))
    c = torch.empty(size, size, device=device)
    torch.mm(a, b, out=c)
    _sync()
    t = time.perf_counter()
    torch.mm(a, b, out=c)
    _sync()
    inner = max(1, min(100, math.ceil(0.05 / max(time.perf_counter() - t, 1e-9))))
    best = math.inf
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(inner):
            torch.mm(a, b, out=c)
        _sync()
        best = min(best, (time.perf_counter() - t) / inner)
    flop = 2 * size ** 3
    return dict(op=f"float32 matmul ({size} x {size}) @ ({size} x {size})", flop=flop, seconds=best,
                gflop_per_s=float(f"{flop / best / 1e9:.4g}"), best_of=repeats, products_per_timing=inner,
                threads=torch.get_num_threads())


def naive(build, x, n_models: int, steps: int, recipe: dict = SGD, init: str = "default") -> float:
    """Seconds for the baseline: each model with its own optimizer, eager, one after another."""
    nets = [build_model(build, seed=s, init=init).to(get_device()) for s in range(n_models)]
    x = x.to(get_device())
    name, lr, clip = recipe.get("optimizer", "sgd"), recipe["lr"], recipe.get("clip_grad_norm")
    factor = SCHEDULE_FACTORS[recipe.get("schedule", "constant")]
    _sync()
    t = time.perf_counter()
    for net in nets:
        opt = (torch.optim.Adam(net.parameters(), lr=lr) if name == "adam"
               else torch.optim.SGD(net.parameters(), lr=lr, momentum=recipe.get("momentum", 0.0)))
        for i in range(steps):
            if factor is not None:
                for group in opt.param_groups:
                    group["lr"] = lr * factor(i, steps)
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(net(x), x)
            loss.backward()
            if clip:
                torch.nn.utils.clip_grad_norm_(net.parameters(), clip)
            opt.step()
    _sync()
    return time.perf_counter() - t


def memlib_way(build, x, n_models: int, steps: int, recipe: dict = SGD, init: str = "default", **fit_kwargs) -> float:
    """Seconds for memlib: `fit` on one model, or on the list (batched or serial, as `auto` picks)."""
    nets = [build_model(build, seed=s, init=init) for s in range(n_models)]
    _sync()
    t = time.perf_counter()
    fit(nets[0] if n_models == 1 else nets, x, steps=steps, progress=False, **recipe, **fit_kwargs)
    _sync()
    return time.perf_counter() - t


def _measure(first, second, m, n_steps, warmup, repeats, target_s=None):
    """(model-steps/s of `first`, of `second`, n): each timed for n and 3n steps, alternating, best of
    `repeats`: rate = 2n m / (t(3n) - t(n)). `target_s`: n such that the slower run of n steps lasts about that
    long by the warm-up's time (at least 3, at most `n_steps`)."""
    t_warm = max(first(m, warmup), second(m, warmup))
    if target_s is not None:
        n_steps = min(n_steps, max(3, int(target_s * warmup / max(t_warm, 1e-9))))
    times = {(f, k): [] for f in (0, 1) for k in (1, 3)}
    for _ in range(repeats):
        for k in (1, 3):
            for f, run in enumerate((first, second)):
                times[f, k].append(run(m, k * n_steps))
    rate = lambda f: m * 2 * n_steps / max(min(times[f, 3]) - min(times[f, 1]), 1e-9)
    return rate(0), rate(1), n_steps


def _widths(names, labels, cuda: bool) -> dict:
    """Column widths of the table: the longest case name and optimizer label printed, the strategy."""
    return dict(case=max([len(n) + (len(" cuda-graph vs eager") if cuda else 0) for n in names] + [4]),
                opt=max([len(lb) for lb in labels] + [9]), how=14 if cuda else 8)


def header(w: dict) -> str:
    pad = " " * (w["case"] + w["opt"] + w["how"] + 10)
    return (f"{'case':<{w['case']}} {'optimizer':<{w['opt']}} {'models':>6} {'strategy':<{w['how']}} {'MFLOP/':>8} |"
            f" {'naive':^29} | {'memlib':^29} | ratio\n"
            f"{pad}{'step':>8} | {'model-steps/s':>13} {'GFLOP/s':>8} {'%peak':>6} |"
            f" {'model-steps/s':>13} {'GFLOP/s':>8} {'%peak':>6} |")


def _row(case, recipe, m, how, n_steps, flop, a, b, peak, w) -> dict:
    """One table row (printed) and its bench.json entry; a: the naive (or eager) rate, b: memlib's."""
    gflops = lambda r: r * flop / 1e9
    pct = lambda r: 100 * gflops(r) / peak["gflop_per_s"]
    row = dict(case=case, models=m, strategy=how, steps=n_steps, naive_model_steps_per_s=round(a, 1),
               memlib_model_steps_per_s=round(b, 1), ratio=round(b / a, 2), optimizer=recipe_label(recipe),
               fit=recipe, flop_per_model_step=flop, naive_gflop_per_s=round(gflops(a), 4),
               memlib_gflop_per_s=round(gflops(b), 4), naive_pct_of_peak=round(pct(a), 3),
               memlib_pct_of_peak=round(pct(b), 3))
    print(f"{case:<{w['case']}} {row['optimizer']:<{w['opt']}} {'x' + str(m):>6} {how:<{w['how']}} {flop / 1e6:8.1f} |"
          f" {a:13.1f} {gflops(a):8.2f} {pct(a):6.1f} | {b:13.1f} {gflops(b):8.2f} {pct(b):6.1f} | {b / a:5.2f}",
          flush=True)
    return row


def run_bench(*, model_counts=(1, 8, 32), steps: int = 60, warmup: int = 5, repeats: int = 3,
              results_dir="results", cases=None, peak_size: int = PEAK_SIZE, target_s: float = TARGET_S) -> dict:
    """Time every case; print a table and write `results_dir/bench.json`."""
    start = time.perf_counter()
    rows = []
    cuda = get_device().type == "cuda"
    peak = matmul_peak(peak_size)
    print(f"peak: {peak['op']}: {peak['gflop_per_s']:.1f} GFLOP/s (best of {peak['best_of']}, "
          f"{peak['threads']} threads, {get_device()})", flush=True)
    chosen = {name: case for name, case in CASES.items() if not cases or name in cases}
    w = _widths(chosen, [recipe_label(c.recipe) for c in chosen.values()], cuda)
    print(header(w), flush=True)
    for name, case in chosen.items():
        x = case_data(case)
        flop = flops_per_step(case.build, x)
        opt_name = case.recipe.get("optimizer", "sgd")
        naive_run = lambda k, s, c=case, x=x: naive(c.build, x, k, s, c.recipe, c.init)
        memlib_run = lambda k, s, c=case, x=x, **kw: memlib_way(c.build, x, k, s, c.recipe, c.init, **kw)
        for m in case.models or model_counts:
            how = "single" if m == 1 else choose_strategy([case.build()] * m)[0]
            if cuda:
                how += ", graph" if graph_blocker(get_device(), optimizer=opt_name, static_shapes=True) is None else ", eager"
            a, b, n = _measure(naive_run, memlib_run, m, steps * case.steps_scale, warmup, repeats,
                               None if cuda else target_s)
            rows.append(_row(name, case.recipe, m, how, n, flop, a, b, peak, w))
        if cuda and case.models is None:   # the single-model CUDA-graph step against the same fit, eager
            a, b, n = _measure(lambda k, s: memlib_run(k, s, cuda_graph=False),
                               lambda k, s: memlib_run(k, s, cuda_graph=True), 1, steps * 4, warmup, repeats)
            rows.append(_row(f"{name} cuda-graph vs eager", case.recipe, 1, "graph", n, flop, a, b, peak, w))
    print("naive / memlib: model-steps/s, GFLOP/s (FLOP per model-step x model-steps/s) and its % of the peak; "
          "for 'cuda-graph vs eager' the naive columns are the eager fit", flush=True)
    walls = {}
    for prov in sorted(Path(results_dir).glob("*/*/provenance.json")):
        p = json.loads(prov.read_text())
        walls[f"{prov.parent.parent.name}/{p['notebook']}"] = p["wall_time_s"]
    for k, v in walls.items():
        print(f"notebook {k}: {v:.0f} s")
    wall = time.perf_counter() - start
    out = {"date": time.strftime("%Y-%m-%d"), "device": str(get_device()), "torch": torch.__version__,
           "threads": torch.get_num_threads(), "machine": platform.processor() or platform.machine(),
           "cases": rows, "notebook_wall_time_s": walls, "peak": peak, "flops_counted": FLOPS_COUNTED,
           "bench_wall_time_s": round(wall, 1)}
    atomic_write_text(Path(results_dir) / "bench.json", json.dumps(out, indent=1))
    print(f"bench: {wall:.0f} s; wrote {Path(results_dir) / 'bench.json'}")
    return out
