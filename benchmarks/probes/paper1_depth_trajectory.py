"""Probe (issue 40): paper 1's depth sweep under a recipe, on seeds no claim uses, with its trajectory.

Trains the ConvNets of Fig 3a (quick's depths, 32 channels, one MNIST "7" at 28x28, standardized) from the probe
seeds 100-102 for `--steps` steps and keeps their weights at log-spaced steps (`fit(..., weights_at=...)`). Prints,
per depth, the final loss (fraction of the zero prediction's) and the correlation of the predictions with the
training digit (the constant map) and with the input (the identity) on the rho = 0 probes and on the natural test
images, at every kept step. `--out FILE` writes the same as JSON.

The recipe is the paper's (App. B, App. H.3) unless a flag departs from it:
  init N(0, 1/(fan_in fan_out)) ("paper_default"), SGD lr 0.01, momentum 0.9, x0.2 at 30/60/80 % of the steps,
  no clipping, no early stop.
  --init default          PyTorch's U(+-1/sqrt(fan_in)) instead
  --clip 1                the gradient norm clipped at 1
  --optimizer adam --lr 1e-4   Fig 30's Adam
--device cuda trains on a GPU (memlib's numerical policy: float32, TF32 off); --channels 128 is full's width.

Run: .venv/bin/python benchmarks/probes/paper1_depth_trajectory.py --steps 3000 --out /tmp/p1.json
The numbers it printed for the budget and recipe choices are in benchmarks/RESULTS.md (session 16).
"""
from __future__ import annotations

import argparse
import json
import time

import torch

from memlib.harness.fileio import atomic_write_text
from memlib import data, models, runtime, train, trajectory
from memlib.models import weights

PROBE_SEEDS = (100, 101, 102)           # seeds no claim uses (the notebooks' bands are 0-2, the envelope's 10-12, 20-22)
DEPTHS = (1, 2, 3, 5, 8, 14, 20)        # quick's depths (recipes.paper1.DEPTHS)
CHANNELS = 32                           # quick's channels (recipes.paper1.CHANNELS)


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--depths", type=int, nargs="+", default=list(DEPTHS))
    ap.add_argument("--seeds", type=int, nargs="+", default=list(PROBE_SEEDS))
    ap.add_argument("--init", default="paper_default")
    ap.add_argument("--optimizer", default="sgd")
    ap.add_argument("--lr", type=float, default=0.01)
    ap.add_argument("--momentum", type=float, default=0.9)
    ap.add_argument("--clip", type=float, default=None)
    ap.add_argument("--data-root", default="data")
    ap.add_argument("--channels", type=int, default=CHANNELS)
    ap.add_argument("--device", default="cpu", choices=("cpu", "cuda", "auto"))
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    runtime.set_device(a.device)

    x_img, source = data.training_digit(root=a.data_root)
    x = data.standardize(x_img)                                          # (1, 1, 28, 28)
    panel_img, _ = data.probe_panel(x_img, root=a.data_root, seed=0)
    test = data.standardize(panel_img)[1:]                               # the natural test images and patterns
    rho0 = data.correlated_probes(x, 0.0, 16, seed=1)                    # (16, 1, 28, 28), uncorrelated with x
    zero = float(x.pow(2).mean())
    keep = trajectory.log_steps(a.steps)
    out = {"recipe": vars(a), "source": source, "device": str(runtime.get_device()), "steps": keep, "depths": {}}
    print(f"{source}; device {out['device']}; {a.steps} steps, keeping {keep}", flush=True)
    for k in a.depths:
        nets = []
        for s in a.seeds:
            torch.manual_seed(s)
            net = models.convnet(k, channels=a.channels)
            if a.init != "default":
                weights.initialize_(net, a.init)
            nets.append(net)
        t0 = time.perf_counter()
        try:
            hists = train.fit(nets, x, steps=a.steps, lr=a.lr, optimizer=a.optimizer, momentum=a.momentum,
                              schedule="stagewise", clip_grad_norm=a.clip, weights_at=keep, progress=False)
            diverged = None
        except train.TrainingDiverged as e:
            hists, diverged = None, str(e)
        wall = time.perf_counter() - t0
        row = {"wall_s": round(wall, 1), "diverged": diverged}
        if hists is not None:
            row["loss_ratio"] = [h.final_loss / zero for h in hists]
            row["loss_at"] = {s: [float(h.loss[h.steps.index(s)]) / zero if s in h.steps else None for h in hists]
                              for s in keep}
            row["rho0"] = trajectory.band_trajectory(list(zip(nets, hists)), rho0, x)
            row["test"] = trajectory.band_trajectory(list(zip(nets, hists)), test, x)
        out["depths"][k] = row
        _print(k, row)
        if a.out:                                   # after every depth: a run stopped by a time limit keeps its rows
            atomic_write_text(a.out, json.dumps(out, indent=1))   # a temporary name, then renamed
    return out


def _print(k, row):
    if row["diverged"]:
        print(f"depth {k:2d}: DIVERGED ({row['diverged']}) after {row['wall_s']} s", flush=True)
        return
    lr = " / ".join(f"{v:.2g}" for v in row["loss_ratio"])
    print(f"depth {k:2d}: loss ratio {lr} ({row['wall_s']} s)", flush=True)
    for name in ("rho0", "test"):
        t = row[name]
        cc = [sum(c[j] for c in t["corr_constant"]) / len(t["corr_constant"]) for j in range(len(t["steps"]))]
        ci = [sum(c[j] for c in t["corr_identity"]) / len(t["corr_identity"]) for j in range(len(t["steps"]))]
        print(f"   {name:5s} step   " + " ".join(f"{s:>6d}" for s in t["steps"]))
        print(f"   {name:5s} digit  " + " ".join(f"{v:6.2f}" for v in cc))
        print(f"   {name:5s} input  " + " ".join(f"{v:6.2f}" for v in ci), flush=True)


if __name__ == "__main__":
    main()
