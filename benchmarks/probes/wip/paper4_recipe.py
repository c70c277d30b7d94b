"""Probe for notebook 04's recipe choices (issue 41, paper 4), on seeds no claim uses (100-102).

Each choice of memlib/recipes/paper4.py that was made by looking at training results is made here, on these seeds,
before any claim's seed band (0-2, 10-12, 20-22, 40-42) ran with it:

* `bnwd_affine`: BN + weight decay (Fig 1-4) at the paper's lr 0.1, with BatchNorm affine (PyTorch's default: Fig 1
  does not state it) and affine=False (stated for Fig 5 only): does it separate the training set, and how far does
  rho fall below its running maximum (Observation 1's reading)?
* `none_norms`: no BN, no weight decay (Fig 9-11) at lr 0.1 from the paper's initial norms 5 / 15 / 30, at widths 64
  and 256 (the paper states no width): which runs train (no divergence, training set separated)?
* `conv`: BN without weight decay (Fig 5-8, ConvNet, lr 0.01) from 0.1 and 5: does it train?

Run: `.venv/bin/python benchmarks/probes/paper4_recipe.py [part ...]` (parts: bnwd_affine none_norms conv; default
all). It trains into its own cache (results/probe-p4/cache) and prints one line per run.
"""
from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("MEMLIB_CACHE", "results/probe-p4/cache")

import torch  # noqa: E402

from memlib import data, rho as R  # noqa: E402
from memlib.recipes import paper4 as recipe  # noqa: E402

SEEDS = (100, 101, 102)          # probe seeds: no claim's band uses them
PROFILE = "quick"


def task():
    """quick's data: MNIST's two classes at the recipe's side, the recipe's training subset, the whole test split."""
    x, y = recipe.binary_data("mnist", PROFILE, root="data")
    xt, yt = recipe.binary_data("mnist", PROFILE, root="data", split="test")
    return x, y, xt, yt


def one(x, y, xt, yt, label, **kw):
    t = time.time()
    _, rec = R.train_classifier(x, y, x_test=xt, y_test=yt, desc=label, **kw)
    if rec is None:
        print(f"{label}: diverged ({time.time() - t:.0f} s)", flush=True)
        return
    e = R.end_metrics(rec)
    print(f"{label}: train errors {e['train_errors_end']:.0f}, loss ratio {e['loss_ratio']:.3g}, test error "
          f"{e['test_error_end']:.4f}, rho end {e['rho_end']:.3g}, rho max drop {e['rho_max_drop']:.3f}, "
          f"rise before rho_eq {R.rise_before_equilibrium(rec['rho_bn'], rec['rho_eq'])[0]:.3f}, margin mean "
          f"{e['margin_mean_end']:.3g}, min {e['margin_min_end']:.3g} ({time.time() - t:.0f} s)", flush=True)


def main(parts):
    torch.set_num_threads(1)
    x, y, xt, yt = task()
    print(f"{len(x)} training, {len(xt)} test images of shape {tuple(x.shape[1:])}", flush=True)
    ep, ep_conv = recipe.EPOCHS["quick"], recipe.CONV_EPOCHS["quick"]
    if "bnwd_affine" in parts:
        for affine in (True,) if "affine_only" in parts else (True, False):
            for norm in (0.1, 5.0):
                one(x, y, xt, yt, f"BN+WD affine={affine} norm {norm:g} seed {SEEDS[0]}", init_norm=norm, epochs=ep,
                    lr=0.1, weight_decay=recipe.WD, width=recipe.WIDTH["quick"], batchnorm=True, bn_affine=affine,
                    seed=SEEDS[0])
    if "none_norms" in parts:
        for width in (64,) if "width64" in parts else (64, 256):
            for norm in (5.0, 15.0, 30.0):
                one(x, y, xt, yt, f"none width {width} norm {norm:g} seed {SEEDS[0]}", init_norm=norm, epochs=ep,
                    lr=0.1, width=width, batchnorm=False, seed=SEEDS[0])
    if "conv" in parts:
        for norm in (0.1, 5.0):
            one(x, y, xt, yt, f"conv BN norm {norm:g} seed {SEEDS[0]}", init_norm=norm, epochs=ep_conv, lr=0.01,
                width=recipe.CHANNELS["quick"], batchnorm=True, conv=True, seed=SEEDS[0])


if __name__ == "__main__":
    main(sys.argv[1:] or ["bnwd_affine", "none_norms", "conv"])
