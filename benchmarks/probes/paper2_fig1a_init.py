"""Probe (issue 41): Fig 1a's 1-D autoencoders from a small and a large initialization, on seeds no claim uses.

Notebook 02's Fig 1a recipe (two training points 0.3 and 0.7; `models.autoencoder_fcn(1, layers, width=64)`, ReLU;
plain gradient descent, lr 0.05, x0.2 at 30/60/80 % of 3,000 steps; `store.fit_cached_seeds`, as the notebook trains)
from each initialization scheme given, for 2 and 6 weight layers. Prints per (init, layers) and seed: the loss ratio,
max |f'(x_i)| at the two training points, and the share of a 200-point grid in [0, 1] within 0.01 of a training point
after 100 iterations (the untrained twin's share beside it).

Schemes (memlib.models.weights.initialize_): "paper_default" N(0, 1/(fan_in fan_out)), biases 0 (the smallest of the
library's schemes: the paper asks for every parameter "as close to zero as possible (while allowing for training)",
App. I.2); "default" PyTorch's U(+-1/sqrt(fan_in)) (what the notebook trained before issue 41); "kaiming_normal"
N(0, 2/fan_in), biases 0 (the scheme App. I.2 names as the larger one).

Run: .venv/bin/python benchmarks/probes/paper2_fig1a_init.py [--seeds 100 101 102] [--out FILE]
"""
from __future__ import annotations

import argparse
import functools
import json
import tempfile

import torch

from memlib.harness.fileio import atomic_write_text
from memlib import dynamics, linalg, models
from memlib.recipes import paper2 as recipe
from memlib.harness.store import Cache, fit_cached_seeds, set_default_cache, untrained

PROBE_SEEDS = (100, 101, 102)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=list(PROBE_SEEDS))
    ap.add_argument("--inits", nargs="+", default=["paper_default", "default", "kaiming_normal"])
    ap.add_argument("--layers", type=int, nargs="+", default=[2, 6])
    ap.add_argument("--steps", type=int, default=3000)             # notebook 02, quick: F1_STEPS
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    set_default_cache(Cache(tempfile.mkdtemp(prefix="p2_fig1a_")))
    x1d = torch.tensor([[0.3], [0.7]])
    grid = torch.linspace(0, 1, 200).unsqueeze(1)
    out = {}
    for init in a.inits:
        for layers in a.layers:
            build = functools.partial(models.autoencoder_fcn, 1, layers, width=64)
            band = fit_cached_seeds(build, x1d, seeds=a.seeds, init=init, steps=a.steps, progress=False,
                                    **recipe.F1_GD)
            rows = []
            for s, (net, hist) in zip(a.seeds, band):
                rows.append({"seed": s, "loss_ratio": hist.final_loss / x1d.pow(2).mean().item(),
                             "max_slope": max(linalg.jacobian(net, p).abs().item() for p in x1d),
                             "converged_fraction": dynamics.converged_fraction(net, x1d, grid, 100, 0.01),
                             "untrained_converged_fraction": dynamics.converged_fraction(
                                 untrained(build, seed=s, init=init), x1d, grid, 100, 0.01)})
            out[f"{init}.layers{layers}"] = rows
            print(init, layers, json.dumps([{k: round(v, 4) if isinstance(v, float) else v for k, v in r.items()}
                                            for r in rows]), flush=True)
    if a.out:
        atomic_write_text(a.out, json.dumps(out, indent=1))   # a temporary name, then renamed
    return out


if __name__ == "__main__":
    main()
