"""Probe (issue 42, bug): why one seed of `p2.fig9_single_filter_4x4` scored 0, and what the float64 score gives.

Trains notebook 02's Fig 9 net at quick (29 single-filter 3x3 convolutions, each followed by LeakyReLU(0.01), every
weight 0.1, Adam 1e-4 on the 4x4 white-square image until the loss is below 1e-6 or for 5,000 steps). Its constant
initialization makes the net the same for every seed, so one net is trained (`fit`, not the notebook's band of three
identical nets: the same function up to rounding). It is scored on the notebook's N(0, 1) inputs (seeds 0-2, 20 each)
and on probe seeds 100-102 two ways:
  float32  `metrics.correlation(metrics.predict(net, p), x)` as notebook 02 scored it before the fix;
  float64  `dynamics.best_abs_corr(net, p, x)`: the net evaluated in float64 (the fix).
Prints per seed: how many float32 outputs are exactly zero, the smallest |corr| and the share above 0.9 each way.

Run: .venv/bin/python benchmarks/probes/paper2_fig9_underflow.py [--steps 5000]
"""
from __future__ import annotations

import argparse
import json
import time

import torch

from memlib.harness.fileio import atomic_write_text
from memlib import dynamics, fit, metrics, models
from memlib.recipes import paper2 as recipe

SEEDS = (0, 1, 2, 100, 101, 102)     # the notebook's band (its inputs) and probe seeds no claim uses


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=5000)            # notebook 02, quick: F9_STEPS
    ap.add_argument("--probes", type=int, default=20)             # notebook 02, quick: H_PROBES
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    x = torch.zeros(1, 1, 4, 4)
    x[..., :2, :2] = 1.0
    torch.manual_seed(0)
    net = models.single_filter_conv_ae(29)
    t0 = time.time()
    hist = fit(net, x, steps=a.steps, until_loss=recipe.PAPER_UNTIL, optimizer="adam", lr=1e-4, progress=False)
    out = {"steps_run": hist.steps[-1] if hist.steps else 0, "final_loss": hist.final_loss,
           "loss_ratio": hist.final_loss / x.pow(2).mean().item(), "train_s": round(time.time() - t0, 1), "seeds": {}}
    print(f"trained: final loss {hist.final_loss:.2e} (loss ratio {out['loss_ratio']:.2e}) in {out['train_s']} s")
    for s in SEEDS:
        p = torch.randn(a.probes, 1, 4, 4, generator=torch.Generator().manual_seed(s))
        y32 = metrics.predict(net, p)
        r32 = metrics.correlation(y32, x).abs()
        r64 = dynamics.best_abs_corr(net, p, x)
        row = {"zero_outputs_float32": int((y32.flatten(1).abs().max(1).values == 0).sum()),
               "min_abs_corr_float32": r32.min().item(), "fraction_float32": (r32 > 0.9).float().mean().item(),
               "min_abs_corr_float64": r64.min().item(), "fraction_float64": (r64 > 0.9).float().mean().item()}
        out["seeds"][s] = row
        print(s, json.dumps({k: round(v, 6) if isinstance(v, float) else v for k, v in row.items()}))
    if a.out:
        atomic_write_text(a.out, json.dumps(out, indent=1))   # a temporary name, then renamed
    return out


if __name__ == "__main__":
    main()
