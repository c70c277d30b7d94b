"""Probe (issue 41): Fig 6's "epoch" read two ways, on seeds no claim uses.

Notebook 02's Fig 6 recipe at quick: the nonlinear D1 (`models.downsampling_d1(channels=64, nonlinear=True)`) on the
first photo of 3 sources (`recipes.paper2.F6_N`), Adam 1e-4 (`F56_OPT`), stopped after 100 and after 1,000 epochs, where
an epoch is
  full   one full-batch step (notebook 02's earlier reading, measured beside as fig6.full_batch.*): 100 / 1,000 steps;
  b1     one pass in mini-batches of 1 (each photo once per epoch, order drawn per epoch; notebook 02's reading,
         recipes.paper2.F6_BATCH): 300 / 3,000 steps.
The paper states neither the batch size nor Fig 6's training set. Scored as notebook 02 scores it: per input of Fig 6's
16 (4 white squares, 4 uniform-noise images, 8 new photos), the correlation of f(x) with its nearest training photo;
the median over the inputs (`...one_step.median_corr`, claim bar 0.9) and the loss on the whole training set over the
zero prediction's (`loss_ratio`). The 100-epoch nets are snapshots of the 1,000-epoch trainings (Adam at a constant
rate: the same weights as a training stopped there).

Run: .venv/bin/python benchmarks/probes/paper2_fig6_epochs.py [--seeds 100 101 102] [--readings full b1] [--out FILE]
"""
from __future__ import annotations

import argparse
import functools
import json
import time

import torch

from memlib.harness.fileio import atomic_write_text
from memlib import data, fit, metrics, models
from memlib.recipes import paper2 as recipe
from memlib.harness.store import build_model

PROBE_SEEDS = (100, 101, 102)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=list(PROBE_SEEDS))
    ap.add_argument("--readings", nargs="+", default=["full", "b1"])
    ap.add_argument("--epochs", type=int, nargs="+", default=[100, 1000])
    ap.add_argument("--n", type=int, default=recipe.F6_N["quick"])
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    x_photos, y_photos = data.load_images("photos")
    x_test, _ = data.load_images("photos", split="test")
    x6 = x_photos[data.first_of_each(y_photos)[:a.n]]
    base = 0                                                            # notebook 02's probes at its seed 0
    probes = torch.cat([data.probes("squares", 4, (3, 32, 32), seed=base),
                        torch.rand(4, 3, 32, 32, generator=torch.Generator().manual_seed(base)), x_test[:8]])
    build = functools.partial(models.downsampling_d1, channels=64, nonlinear=True)
    zero = x6.pow(2).mean().item()
    out = {}
    for reading in a.readings:
        batch = None if reading == "full" else int(reading[1:])
        per_epoch = 1 if batch is None else -(-len(x6) // batch)
        steps = max(a.epochs) * per_epoch
        nets = [build_model(build, seed=s) for s in a.seeds]
        t0 = time.time()
        hists = fit(nets, x6, steps=steps, batch_size=batch, progress=False,
                    weights_at=[e * per_epoch for e in a.epochs if e != max(a.epochs)], **recipe.F56_OPT) \
            if batch is None else [fit(n, x6, steps=steps, batch_size=batch, seed=s, progress=False,
                                       weights_at=[e * per_epoch for e in a.epochs if e != max(a.epochs)],
                                       **recipe.F56_OPT) for n, s in zip(nets, a.seeds)]
        for e in a.epochs:
            step = e * per_epoch
            row = []
            for n, h in zip(nets, hists):
                m = n if e == max(a.epochs) else h.model_at(n, step)
                m.eval()
                pred = metrics.predict(m, probes)
                row.append({"one_step_median_corr": metrics.nearest_train_corr(pred, x6).median().item(),
                            "loss_ratio": (metrics.predict(m, x6) - x6).pow(2).mean().item() / zero})
            out[f"{reading}.epochs{e}"] = {"steps": step, "seeds": a.seeds, "rows": row}
            print(reading, e, "epochs =", step, "steps:", json.dumps([{k: round(v, 4) for k, v in r.items()} for r in row]),
                  f"({time.time() - t0:.0f} s)", flush=True)
    if a.out:
        atomic_write_text(a.out, json.dumps(out, indent=1))   # a temporary name, then renamed
    return out


if __name__ == "__main__":
    main()
