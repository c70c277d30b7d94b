"""Probe for notebook 04's training-set size at quick (issue 41, paper 4: "the training-set size not probed"), on
the probe seeds 100-102, which no claim's band (0-2, 10-12, 20-22, 40-42) uses. Rule written before the grid ran
(session 19, 2026-11-27); the rest of the recipe is benchmarks/probes/paper4_recipe.py's choice.

Paper 4 trains on two classes of CIFAR-10: every training image of the two, 10,000 (Fig 1, 5, 9). Quick reads MNIST
at 28x28 and trains on the first 640 images of its two digits (recipes/paper4.TRAIN_SIZE), a size chosen in session
16 for cost and never probed.

* Sizes: 640 (quick's) and 2,560: the paper's ratio of training images to input dimensions (10,000 / 3,072) at
  MNIST's 784, about 2,552, rounded up to whole batches of 128 (20).
* Everything else as quick trains it: side 28, width 64, BatchNorm affine=False with weight decay, the paper's
  lr / weight decay / momentum / batch 128 / initial norms, and quick's 4,000 SGD updates for both sizes (800 epochs
  of 5 batches, 200 epochs of 20), so the size changes the data and not the training time.
* Runs: BN + WD from norms 0.1 / 1 / 5 (Fig 1) and neither BN nor WD from 5 / 15 / 30 (Fig 9), seeds 100-102: 18 a
  size. A run *passes* when it does not diverge and ends with its training set separated (0 training errors), as in
  paper4_recipe.py.
* **Rule**: 2,560 if it passes at least as many of its 18 runs as 640 does (a tie goes to the size nearer the
  paper's 10,000); else 640. The test errors are reported, not selected on.

Run: `.venv/bin/python benchmarks/probes/paper4_train_size.py [--out benchmarks/probes/measured/paper4_train_size.json]`
(its own cache, results/probe-p4/cache, shared with paper4_recipe.py).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import time

os.environ.setdefault("MEMLIB_CACHE", "results/probe-p4/cache")

import torch  # noqa: E402

from memlib import rho as R  # noqa: E402
from memlib.harness.fileio import atomic_write_text  # noqa: E402
from memlib.recipes import paper4 as recipe  # noqa: E402

SEEDS = (100, 101, 102)          # probe seeds: no claim's band uses them
SIZES = (640, 2560)              # quick's; the paper's images-to-dimensions ratio at 784 inputs, whole batches
UPDATES = 4000                   # quick's SGD updates (recipes/paper4.EPOCHS: 800 epochs of 5 batches)
SIDE, WIDTH, AFFINE = 28, 64, False   # paper4_recipe.py's choice (measured/paper4_recipe.json)
NORMS_BNWD = (0.1, 1.0, 5.0)     # paper 4, Fig 2
NORMS_NONE = (5.0, 15.0, 30.0)   # paper 4, Fig 9
BATCH = 128                      # paper 4, Fig 1


def task(size):
    """MNIST 3 vs 8 at 28x28 (quick's digits), the first `size` training images, the whole test split."""
    old, recipe.TRAIN_SIZE = recipe.TRAIN_SIZE, {**recipe.TRAIN_SIZE, "quick": size}
    try:
        x, y = recipe.binary_data("mnist", "quick", root="data")
        xt, yt = recipe.binary_data("mnist", "quick", root="data", split="test")
    finally:
        recipe.TRAIN_SIZE = old
    assert len(x) == size, f"MNIST's two digits hold {len(x)} training images, fewer than {size}"
    return x, y, xt, yt


def one(rows, data, *, regime, size, norm, seed, **kw):
    x, y, xt, yt = data
    epochs = UPDATES // math.ceil(size / BATCH)
    label = f"{regime} size {size} norm {norm:g} seed {seed} ({epochs} epochs)"
    t = time.time()
    _, rec = R.train_classifier(x, y, x_test=xt, y_test=yt, desc=label, init_norm=norm, epochs=epochs, seed=seed,
                                width=WIDTH, batch_size=BATCH, **kw)
    row = dict(regime=regime, size=size, norm=norm, seed=seed, updates=UPDATES, diverged=rec is None,
               wall_s=round(time.time() - t, 2))
    if rec is not None:
        e = R.end_metrics(rec)
        row.update(train_errors=int(round(e["train_errors_end"])), loss_ratio=float(e["loss_ratio"]),
                   test_error=float(e["test_error_end"]), rho_end=float(e["rho_end"]))
    row["passes"] = (not row["diverged"]) and row.get("train_errors", 1) == 0
    print(f"{label}: " + ("diverged" if row["diverged"] else
                          f"train errors {row['train_errors']}, test error {row['test_error']:.4f}")
          + f" ({row['wall_s']:.0f} s)", flush=True)
    rows.append(row)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="benchmarks/probes/measured/paper4_train_size.json")
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    t0, rows = time.time(), []
    for size in SIZES:
        data = task(size)
        for s in SEEDS:
            for n in NORMS_BNWD:
                one(rows, data, regime="bnwd", size=size, norm=n, seed=s, lr=recipe.LR_WD["quick"],
                    weight_decay=recipe.WD, batchnorm=True, bn_affine=AFFINE)
            for n in NORMS_NONE:
                one(rows, data, regime="none", size=size, norm=n, seed=s, lr=recipe.LR_NONE, batchnorm=False)
    summary = {}
    for size in SIZES:
        sel = [r for r in rows if r["size"] == size]
        fitted = [r["test_error"] for r in sel if r["passes"]]
        summary[size] = dict(passes=sum(r["passes"] for r in sel), runs=len(sel),
                             bnwd_passes=sum(r["passes"] for r in sel if r["regime"] == "bnwd"),
                             none_passes=sum(r["passes"] for r in sel if r["regime"] == "none"),
                             diverged=sum(r["diverged"] for r in sel),
                             mean_test_error_passing=sum(fitted) / len(fitted) if fitted else None,
                             wall_s=round(sum(r["wall_s"] for r in sel), 1))
    small, large = SIZES
    choice = large if summary[large]["passes"] >= summary[small]["passes"] else small
    for size, s in summary.items():
        print(f"size {size}: {s['passes']}/{s['runs']} pass (BN + WD {s['bnwd_passes']}, no BN {s['none_passes']}, "
              f"diverged {s['diverged']}), mean test error of the passing runs {s['mean_test_error_passing']}, "
              f"{s['wall_s']:.0f} s")
    print(f"choice: train size {choice}; total {time.time() - t0:.0f} s")
    out = dict(seeds=list(SEEDS), rule=__doc__, runs=rows, summary=summary, choice=dict(train_size=choice),
               total_s=round(time.time() - t0, 1), torch_threads=torch.get_num_threads(),
               date=time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    if a.out:
        atomic_write_text(a.out, json.dumps(out, indent=1))
    return out


if __name__ == "__main__":
    main()
