"""Probe (issue 41): Fig 12's output norm before training on paper 2's net (the nonlinear D1) and on paper 3's
D_{16,48} (notebook 02's net before issue 41), on seeds no claim uses.

For each initialization scheme of Fig 12 (Xavier uniform / normal, Kaiming uniform / normal) and each seed, the l2 norm
of the untrained net's output for one training photo (notebook 02: the first photo of `data.load_images(PHOTOS)`),
built as notebook 02 builds it (`store.build_model(..., init=scheme)`). Prints the median over the seeds per scheme
and net, beside the paper's (.0087 / .0079 / 9.67 / 17.64), and whether the smallest Kaiming median exceeds the
largest Xavier median (`p2.fig12_kaiming_larger_norm`).

Run: .venv/bin/python benchmarks/probes/paper2_fig12_net.py [--seeds 100 ... 106] [--out FILE]
"""
from __future__ import annotations

import argparse
import functools
import json

import numpy as np
import torch

from memlib.harness.fileio import atomic_write_text
from memlib import data, models
from memlib.harness.store import build_model

PAPER = {"xavier_uniform": 0.0087, "xavier_normal": 0.0079, "kaiming_uniform": 9.67, "kaiming_normal": 17.64}
NETS = {"d1": functools.partial(models.downsampling_d1, channels=64, nonlinear=True),     # notebook 02: F5_CHANNELS
        "dab": functools.partial(models.conv_autoencoder, 16, 48, nonlinear=True)}      # notebook 02 before: F12_AB


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=list(range(100, 107)))
    ap.add_argument("--photos", default="auto", help="'auto': CIFAR-10 under data/ when there, else the embedded photos")
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    name = "photos" if a.photos == "auto" else a.photos
    x = data.load_images(name)[0][:1]
    out = {}
    with torch.no_grad():
        for net_name, build in NETS.items():
            med = {s: float(np.median([build_model(build, seed=k, init=s)(x).norm().item() for k in a.seeds]))
                   for s in PAPER}
            kaiming, xavier = min(med["kaiming_uniform"], med["kaiming_normal"]), max(med["xavier_uniform"], med["xavier_normal"])
            out[net_name] = {"median_norm": med, "kaiming_min_over_xavier_max": kaiming / xavier}
            print(net_name, json.dumps({k: round(v, 4) for k, v in med.items()}),
                  f"kaiming min / xavier max = {kaiming / xavier:.1f}", flush=True)
    if a.out:
        atomic_write_text(a.out, json.dumps(out, indent=1))   # a temporary name, then renamed
    return out


if __name__ == "__main__":
    main()
