"""`python -m memlib bench`: model-steps per second, naive baseline versus memlib, side by side, and the FLOP
rate each reaches as a share of the machine's measured peak.

The baseline is what a paper's author would write: one torch optimizer per model (`torch.optim.SGD`, `Adam` or
`RMSprop`, the case's learning rate, schedule and clipping), eager, one model after another. memlib
trains the same models with `fit` (one model) or `fit` on the list (several: one grouped computation where
`auto` picks it). Both run after a warm-up, in one process, alternating. A rate is the difference of two runs of
n and 3n steps (model-steps over seconds), so what a run pays once (building the models and the optimizer,
capturing a CUDA graph) is not counted as steps; best of `repeats`.

The cases (`CASES`): paper 1's 5-layer, 32-channel ConvNet and 3 x 2048 FCN on one 28x28 image at SGD lr 0.01,
momentum 0.9 (App. B), for each of `--models`; and the trainings the quick profile spends most time on, with
their own recipes and model counts: paper 1's 20-layer, 32-channel ConvNet (the depth sweep's
recipe `recipes.paper1.DEPTH_FIT`, Fig 30's RMSprop; one model and the 3-seed band), paper 2's
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

Each case against its own roofline: the bench also measures the machine's memory bandwidth (`memory_bandwidth`: a
large float32 copy, bytes read and written per second) and a step's fixed cost (`dispatch_cost`: a whole SGD step of
a one-weight model, over the operators it dispatches), and counts, for each way of training a case, the operators one
model-step dispatches and the bytes they move (`step_traffic`, see `Traffic`). A model-step cannot take less than
the largest of FLOPs / peak (compute), bytes / bandwidth (memory) and dispatches x fixed cost (dispatch); that one
binds, and `%roof` is the measured rate over the rate it allows (`roofline`).

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
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves
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
                         note="paper 1's deepest quick ConvNet, its recipe (Fig 30's RMSprop); x3: the seed band"),
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
COPY_BYTES = 1 << 28    # the bandwidth probe copies a float32 tensor of 256 MiB, far beyond any cache it might sit in
TINY_STEPS = 200        # the fixed cost: timed runs of this many steps of the one-weight model
TRAFFIC_STEPS = 4       # dispatches and bytes per step: runs of this many steps and twice as many, counted
LIMITS = ("compute", "memory", "dispatch")
BYTES_COUNTED = ("a TorchDispatchMode over the case's own training (naive loop or fit): every operator's tensor "
                 "arguments read once and its results written once (an in-place operator's tensor both), views moving "
                 "nothing; no cache reuse, so a working set that stays in cache moves fewer bytes than counted")
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


def _best_time(op, repeats: int) -> tuple[float, int]:
    """(seconds per call of `op`, calls per timing): one warm-up call, one timed call to size the timings (each
    averaging enough calls to last ~50 ms, 1 to 100), then the best of `repeats` timings."""
    op()
    _sync()
    t = time.perf_counter()
    op()
    _sync()
    inner = max(1, min(100, math.ceil(0.05 / max(time.perf_counter() - t, 1e-9))))
    best = math.inf
    for _ in range(repeats):
        t = time.perf_counter()
        for _ in range(inner):
            op()
        _sync()
        best = min(best, (time.perf_counter() - t) / inner)
    return best, inner


def matmul_peak(size: int = PEAK_SIZE, repeats: int = PEAK_REPEATS) -> dict:
    """The machine's float32 matrix-product rate: (size, size) @ (size, size), 2 size^3 FLOP, after one
    warm-up product, best of `repeats` timings (on a GPU each timing averages enough products to last ~50 ms)."""
    device = get_device()
    g = torch.Generator().manual_seed(0)
    a, b = (torch.randn(size, size, generator=g).to(device) for _ in range(2))
    c = torch.empty(size, size, device=device)
    best, inner = _best_time(lambda: torch.mm(a, b, out=c), repeats)
    flop = 2 * size ** 3
    return dict(op=f"float32 matmul ({size} x {size}) @ ({size} x {size})", flop=flop, seconds=best,
                gflop_per_s=float(f"{flop / best / 1e9:.4g}"), best_of=repeats, products_per_timing=inner,
                threads=torch.get_num_threads())


def memory_bandwidth(nbytes: int = COPY_BYTES, repeats: int = PEAK_REPEATS) -> dict:
    """The machine's memory bandwidth: a float32 tensor of `nbytes` copied into another (read once, written once:
    2 x nbytes moved), after one warm-up copy, best of `repeats` timings (each averaging enough copies to last
    ~50 ms)."""
    device = get_device()
    src = torch.ones(max(1, nbytes // 4), device=device)
    dst = torch.empty_like(src)
    best, inner = _best_time(lambda: dst.copy_(src), repeats)
    moved = 2 * src.nbytes
    return dict(op=f"float32 copy of {src.nbytes / 2 ** 20:.0f} MiB", bytes=moved, seconds=best,
                gb_per_s=float(f"{moved / best / 1e9:.4g}"), best_of=repeats, copies_per_timing=inner,
                threads=torch.get_num_threads())


class Traffic(TorchDispatchMode):
    """Counts, while active, the operators dispatched (`dispatches`: each about one kernel launch) and the bytes they
    move (`bytes`: BYTES_COUNTED)."""

    def __init__(self):
        super().__init__()
        self.dispatches, self.bytes = 0, 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        self.dispatches += 1
        if not func.is_view:
            self.bytes += sum(t.nbytes for t in tree_leaves((args, kwargs or {}, out)) if isinstance(t, torch.Tensor))
        return out


def step_traffic(run: Callable, m: int, steps: int = TRAFFIC_STEPS) -> dict:
    """Dispatches and bytes per model-step of `run(m, steps)` (a case's naive loop or fit on m models): counted over
    runs of `steps` and 2 x `steps` steps, their difference over steps x m, so that what a run does once (building
    the models and the optimizer) is not counted; a band trained as one computation shares its dispatches."""
    counts = []
    for n in (steps, 2 * steps):
        with Traffic() as t:
            run(m, n)
        counts.append(t)
    per = lambda a, b: max((b - a) / (steps * m), 0.0)
    return dict(dispatches=per(counts[0].dispatches, counts[1].dispatches), bytes=per(counts[0].bytes, counts[1].bytes))


def dispatch_cost(steps: int = TINY_STEPS, repeats: int = PEAK_REPEATS) -> dict:
    """A step's fixed cost: an SGD step (momentum 0.9) of Linear(1, 1) on one number, whose arithmetic and bytes are
    nothing, timed over `steps` steps after a warm-up, best of `repeats`, over the operators it dispatches (counted
    by `Traffic`): seconds per dispatch, everything a step pays per operator (Python, the dispatcher, a launch)."""
    device = get_device()
    torch.manual_seed(0)
    net = torch.nn.Linear(1, 1).to(device)
    x = torch.ones(1, 1, device=device)
    opt = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)

    def step():
        opt.zero_grad()
        torch.nn.functional.mse_loss(net(x), x).backward()
        opt.step()

    for _ in range(3):
        step()
    with Traffic() as t:
        step()
    best = math.inf
    for _ in range(repeats):
        _sync()
        t0 = time.perf_counter()
        for _ in range(steps):
            step()
        _sync()
        best = min(best, (time.perf_counter() - t0) / steps)
    return dict(op="an SGD step of Linear(1, 1) on one number", seconds_per_step=best, dispatches_per_step=t.dispatches,
                seconds_per_dispatch=best / t.dispatches, best_of=repeats, steps_per_timing=steps)


def roofline(rate: float, flop: float, nbytes: float, dispatches: float, *, gflop_per_s: float, bytes_per_s: float,
             seconds_per_dispatch: float) -> dict:
    """A case's rate (model-steps/s) against its own roofline: the seconds a model-step needs at least for its FLOPs
    at the matmul's peak (compute), its bytes at the copy's bandwidth (memory) and its dispatches at the fixed cost
    (dispatch); the largest binds (`bound`), and `share` is the rate over the 1 / that many model-steps/s it allows."""
    seconds = {"compute": flop / (gflop_per_s * 1e9), "memory": nbytes / bytes_per_s,
               "dispatch": dispatches * seconds_per_dispatch}
    bound = max(LIMITS, key=lambda k: seconds[k])
    return dict(bound=bound, share=rate * seconds[bound], seconds=seconds)


NAIVE_OPTIMIZERS = {"adam": torch.optim.Adam, "rmsprop": torch.optim.RMSprop, "adagrad": torch.optim.Adagrad,
                    "adamax": torch.optim.Adamax}   # the baseline's torch optimizer for a recipe's `optimizer`


def naive(build, x, n_models: int, steps: int, recipe: dict = SGD, init: str = "default") -> float:
    """Seconds for the baseline: each model with its own optimizer, eager, one after another."""
    nets = [build_model(build, seed=s, init=init).to(get_device()) for s in range(n_models)]
    x = x.to(get_device())
    name, lr, clip = recipe.get("optimizer", "sgd"), recipe["lr"], recipe.get("clip_grad_norm")
    factor = SCHEDULE_FACTORS[recipe.get("schedule", "constant")]
    _sync()
    t = time.perf_counter()
    for net in nets:
        opt = (torch.optim.SGD(net.parameters(), lr=lr, momentum=recipe.get("momentum", 0.0)) if name == "sgd"
               else NAIVE_OPTIMIZERS[name](net.parameters(), lr=lr))
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
    group = f"{'model-steps/s':>13} {'GFLOP/s':>8} {'%peak':>6} {'bound':>8} {'%roof':>6}"
    return (f"{'case':<{w['case']}} {'optimizer':<{w['opt']}} {'models':>6} {'strategy':<{w['how']}} {'MFLOP/':>8} |"
            f" {'naive':^{len(group)}} | {'memlib':^{len(group)}} | ratio\n"
            f"{pad}{'step':>8} | {group} | {group} |")


def _row(case, recipe, m, how, n_steps, flop, a, b, peak, w, traffic=None, machine=None) -> dict:
    """One table row (printed) and its bench.json entry; a: the naive (or eager) rate, b: memlib's; `traffic`:
    {"naive"|"memlib": step_traffic}, `machine`: roofline's limits (both or neither)."""
    gflops = lambda r: r * flop / 1e9
    pct = lambda r: 100 * gflops(r) / peak["gflop_per_s"]
    row = dict(case=case, models=m, strategy=how, steps=n_steps, naive_model_steps_per_s=round(a, 1),
               memlib_model_steps_per_s=round(b, 1), ratio=round(b / a, 2), optimizer=recipe_label(recipe),
               fit=recipe, flop_per_model_step=flop, naive_gflop_per_s=round(gflops(a), 4),
               memlib_gflop_per_s=round(gflops(b), 4), naive_pct_of_peak=round(pct(a), 3),
               memlib_pct_of_peak=round(pct(b), 3))
    roof = {}
    for who, rate in (("naive", a), ("memlib", b)):
        if traffic is None:
            roof[who] = f" {'':>8} {'':>6}"
            continue
        t = traffic[who]
        r = roofline(rate, flop, t["bytes"], t["dispatches"], **machine)
        row.update({f"{who}_bytes_per_model_step": round(t["bytes"]), f"{who}_dispatches_per_model_step":
                    round(t["dispatches"], 2), f"{who}_bound": r["bound"],
                    f"{who}_pct_of_roofline": round(100 * r["share"], 2),
                    f"{who}_roofline_seconds": {k: float(f"{v:.4g}") for k, v in r["seconds"].items()}})
        roof[who] = f" {r['bound']:>8} {100 * r['share']:6.1f}"
    print(f"{case:<{w['case']}} {row['optimizer']:<{w['opt']}} {'x' + str(m):>6} {how:<{w['how']}} {flop / 1e6:8.1f} |"
          f" {a:13.1f} {gflops(a):8.2f} {pct(a):6.1f}{roof['naive']} | {b:13.1f} {gflops(b):8.2f} {pct(b):6.1f}"
          f"{roof['memlib']} | {b / a:5.2f}", flush=True)
    return row


def run_bench(*, model_counts=(1, 8, 32), steps: int = 60, warmup: int = 5, repeats: int = 3,
              results_dir="results", cases=None, peak_size: int = PEAK_SIZE, target_s: float = TARGET_S,
              copy_bytes: int = COPY_BYTES) -> dict:
    """Time every case; print a table and write `results_dir/bench.json`."""
    start = time.perf_counter()
    rows = []
    cuda = get_device().type == "cuda"
    peak = matmul_peak(peak_size)
    print(f"peak: {peak['op']}: {peak['gflop_per_s']:.1f} GFLOP/s (best of {peak['best_of']}, "
          f"{peak['threads']} threads, {get_device()})", flush=True)
    memory = memory_bandwidth(copy_bytes)
    dispatch = dispatch_cost()
    print(f"memory: {memory['op']}: {memory['gb_per_s']:.1f} GB/s moved (best of {memory['best_of']}); "
          f"a step's fixed cost: {1e6 * dispatch['seconds_per_dispatch']:.2f} us per dispatch ({dispatch['op']}: "
          f"{1e6 * dispatch['seconds_per_step']:.0f} us, {dispatch['dispatches_per_step']} dispatches)", flush=True)
    machine = dict(gflop_per_s=peak["gflop_per_s"], bytes_per_s=memory["bytes"] / memory["seconds"],
                   seconds_per_dispatch=dispatch["seconds_per_dispatch"])
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
            # counted eagerly: a captured CUDA graph replays the same kernels, launched as one
            traffic = {"naive": step_traffic(naive_run, m),
                       "memlib": step_traffic(lambda k, s: memlib_run(k, s, **({"cuda_graph": False} if cuda else {})),
                                              m)}
            rows.append(_row(name, case.recipe, m, how, n, flop, a, b, peak, w, traffic, machine))
        if cuda and case.models is None:   # the single-model CUDA-graph step against the same fit, eager
            a, b, n = _measure(lambda k, s: memlib_run(k, s, cuda_graph=False),
                               lambda k, s: memlib_run(k, s, cuda_graph=True), 1, steps * 4, warmup, repeats)
            eager = step_traffic(lambda k, s: memlib_run(k, s, cuda_graph=False), 1)
            rows.append(_row(f"{name} cuda-graph vs eager", case.recipe, 1, "graph", n, flop, a, b, peak, w,
                             {"naive": eager, "memlib": eager}, machine))
    print("naive / memlib: model-steps/s, GFLOP/s (FLOP per model-step x model-steps/s) and its % of the peak; "
          "bound: the limit that binds the case (the largest of FLOPs / peak, bytes moved / bandwidth, dispatches x "
          "fixed cost, per model-step) and %roof the rate as a share of the rate it allows; for 'cuda-graph vs "
          "eager' the naive columns are the eager fit (both counted eagerly)", flush=True)
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
           "memory": memory, "dispatch": dispatch, "bytes_counted": BYTES_COUNTED,
           "bench_wall_time_s": round(wall, 1)}
    atomic_write_text(Path(results_dir) / "bench.json", json.dumps(out, indent=1))
    print(f"bench: {wall:.0f} s; wrote {Path(results_dir) / 'bench.json'}")
    return out
