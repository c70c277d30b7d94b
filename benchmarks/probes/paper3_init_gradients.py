"""Why Sec. 5's deep nets do not train from the text's initialization (paper 3, issue 41): the output and the gradient
of each layer at initialization, under the text's U(+-1/sqrt(P)) (recipes/paper3.DEFAULT_INIT) and PyTorch's default
(OTHER_INIT), for D_{64,192} (Fig 6) and NLD (Fig 7) at quick's 16x16, seeds 0-2, on one training photo.

A measurement, not a choice: nothing in the recipe is picked from it. Adam's update is m / (sqrt(v) + eps) with eps
1e-8, so a gradient far below 1e-8 moves a weight by a vanishing fraction of the learning rate.

Run: `.venv/bin/python benchmarks/probes/paper3_init_gradients.py [--out benchmarks/probes/measured/paper3_init_gradients.json]`
(a few seconds; trains nothing).
"""
from __future__ import annotations

import argparse
import json
import time

import torch

from memlib import data, runtime
from memlib.harness import store
from memlib.harness.fileio import atomic_write_text
from memlib.recipes import paper3 as recipe
from memlib.widgets import downsampling as explore

SEEDS = (0, 1, 2)                 # the claims' seeds: this measures the nets they are judged on, at initialization
PROFILE = "quick"


def measure(name: str, init: str, seed: int, x: torch.Tensor) -> dict:
    build = explore.network_builder(name, ab=runtime.pick(PROFILE, **recipe.AB), nd_ab=recipe.ND_AB,
                                    nl_ab=runtime.pick(PROFILE, **recipe.NL_AB))
    model = store.untrained(build, seed=seed, init=init)
    for p in model.parameters():
        p.requires_grad_(True)
    out = model(x)
    loss = (out - x).pow(2).mean()
    loss.backward()
    grads = [p.grad.abs().max().item() for p in model.parameters() if p.grad is not None]
    return dict(net=name, init=init, seed=seed, output_over_input=(out.abs().max() / x.abs().max()).item(),
                loss=loss.item(), zero_prediction_loss=x.pow(2).mean().item(), grad_max=max(grads),
                grad_min_over_layers=min(grads), layers=len(grads))


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="benchmarks/probes/measured/paper3_init_gradients.json")
    a = ap.parse_args(argv)
    size = runtime.pick(PROFILE, **recipe.SIZE)
    x = data.resize(data.load_images("photos")[0][:1], size).clamp(0, 1)        # (1, 3, s, s): one training photo
    rows = [measure(n, i, s, x) for n in ("D", "NLD") for i in (recipe.DEFAULT_INIT, recipe.OTHER_INIT) for s in SEEDS]
    for r in rows:
        print(f"{r['net']:4s} {r['init']:26s} seed {r['seed']}: output / input {r['output_over_input']:.1e}, "
              f"gradients {r['grad_min_over_layers']:.1e} to {r['grad_max']:.1e} over {r['layers']} layers")
    out = dict(profile=PROFILE, size=size, rows=rows, adam_eps=1e-8,
               date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    if a.out:
        atomic_write_text(a.out, json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
