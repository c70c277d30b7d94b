"""`python -m memlib bench`: model-steps per second, naive baseline versus memlib, side by side.

The baseline is what a paper's author would write: one `torch.optim.SGD` per model, eager, one
model after another. memlib trains the same models with `fit` (one model) or `fit_many` (several).
Both run after a warm-up, in one process, alternating, on paper 1's ConvNet (5 layers, 32 channels, one
28x28 image) and FCN (3 hidden layers x 2048). A rate is the difference of two runs of n and 3n steps
(model-steps over seconds), so what a run pays once (building the models and the optimizer, capturing a
CUDA graph) is not counted as steps. On a GPU also: the single-model `fit` with its CUDA graph against the
same `fit` run eagerly (cuda_graph=False).
Also reported: each notebook's wall time, read from results/<profile>/*/provenance.json.
"""
from __future__ import annotations

import functools
import json
import platform
import time
from pathlib import Path

import torch

from . import models
from .cuda_graph import graph_blocker
from .ensemble import choose_strategy
from .runtime import atomic_write_text, get_device
from .store import build_model
from .train import fit

CASES = {  # name: (builder, input shape)
    "convnet5x32": (functools.partial(models.convnet, 5, channels=32), (1, 1, 28, 28)),  # paper 1, Fig 3a
    "fcn3x2048": (functools.partial(models.fcn, 784, 3, width=2048), (1, 1, 28, 28)),    # paper 1, Fig 7
}
SGD = dict(lr=0.01, momentum=0.9)   # paper 1, App. B


def _sync():
    if get_device().type == "cuda":
        torch.cuda.synchronize()


def naive(build, x, n_models: int, steps: int) -> float:
    """Seconds for the baseline: each model with its own optimizer, eager, one after another."""
    nets = [build_model(build, seed=s).to(get_device()) for s in range(n_models)]
    x = x.to(get_device())
    _sync()
    t = time.perf_counter()
    for net in nets:
        opt = torch.optim.SGD(net.parameters(), **SGD)
        for _ in range(steps):
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(net(x), x)
            loss.backward()
            opt.step()
    _sync()
    return time.perf_counter() - t


def memlib_way(build, x, n_models: int, steps: int, **fit_kwargs) -> float:
    """Seconds for memlib: `fit` on one model, or on the list (batched or serial, as `auto` picks)."""
    nets = [build_model(build, seed=s) for s in range(n_models)]
    _sync()
    t = time.perf_counter()
    fit(nets[0] if n_models == 1 else nets, x, steps=steps, progress=False, **SGD, **fit_kwargs)
    _sync()
    return time.perf_counter() - t


def _measure(first, second, m, n_steps, warmup, repeats):
    """Model-steps/s of `first` and `second`, each timed for n and 3n steps, alternating, best of `repeats`:
    rate = 2n m / (t(3n) - t(n))."""
    first(m, warmup), second(m, warmup)
    times = {(f, k): [] for f in (0, 1) for k in (1, 3)}
    for _ in range(repeats):
        for k in (1, 3):
            for f, run in enumerate((first, second)):
                times[f, k].append(run(m, k * n_steps))
    rate = lambda f: m * 2 * n_steps / max(min(times[f, 3]) - min(times[f, 1]), 1e-9)
    return rate(0), rate(1)


def run_bench(*, model_counts=(1, 8, 32), steps: int = 60, warmup: int = 5, repeats: int = 3,
              results_dir="results", cases=None) -> dict:
    """Time every case; print a table and write `results_dir/bench.json`."""
    rows = []
    cuda = get_device().type == "cuda"
    for name, (build, shape) in CASES.items():
        if cases and name not in cases:
            continue
        x = torch.randn(*shape, generator=torch.Generator().manual_seed(0))
        for m in model_counts:
            # the big FCN is ~100x slower per step on a CPU: fewer steps keep the bench short
            n_steps = max(3, steps // 4 // max(1, m // 8)) if name.startswith("fcn") and not cuda else steps
            how = "single" if m == 1 else choose_strategy([build()] * m)[0]
            if cuda:
                how += ", graph" if graph_blocker(get_device(), optimizer="sgd", static_shapes=True) is None else ", eager"
            a, b = _measure(lambda k, s: naive(build, x, k, s), lambda k, s: memlib_way(build, x, k, s),
                            m, n_steps, warmup, repeats)
            rows.append(dict(case=name, models=m, strategy=how, steps=n_steps, naive_model_steps_per_s=round(a, 1),
                             memlib_model_steps_per_s=round(b, 1), ratio=round(b / a, 2)))
            print(f"{name:>12} x{m:<3} {how:>8}  naive {a:9.1f}  memlib {b:9.1f} model-steps/s  ratio {b / a:5.2f}",
                  flush=True)
        if cuda:   # the single-model CUDA-graph step against the same fit, eager; long enough to replay
            a, b = _measure(lambda k, s: memlib_way(build, x, k, s, cuda_graph=False),
                            lambda k, s: memlib_way(build, x, k, s, cuda_graph=True), 1, steps * 4, warmup, repeats)
            rows.append(dict(case=f"{name} cuda-graph vs eager", models=1, strategy="graph", steps=steps * 4,
                             naive_model_steps_per_s=round(a, 1), memlib_model_steps_per_s=round(b, 1),
                             ratio=round(b / a, 2)))
            print(f"{name:>12} graph vs eager  {a:9.1f} -> {b:9.1f} steps/s  ratio {b / a:5.2f}", flush=True)
    walls = {}
    for prov in sorted(Path(results_dir).glob("*/*/provenance.json")):
        p = json.loads(prov.read_text())
        walls[f"{prov.parent.parent.name}/{p['notebook']}"] = p["wall_time_s"]
    for k, v in walls.items():
        print(f"notebook {k}: {v:.0f} s")
    out = {"date": time.strftime("%Y-%m-%d"), "device": str(get_device()), "torch": torch.__version__,
           "threads": torch.get_num_threads(), "machine": platform.processor() or platform.machine(),
           "cases": rows, "notebook_wall_time_s": walls}
    atomic_write_text(Path(results_dir) / "bench.json", json.dumps(out, indent=1))
    print(f"wrote {Path(results_dir) / 'bench.json'}")
    return out
