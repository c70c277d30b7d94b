"""Probe (issue 40, session 16): the depth sweep's candidate recipes side by side on the probe seeds 100-102, by the
fit alone (the loss over the zero prediction's, printed every tenth / twentieth of the budget): no claim's statistic
is looked at. Quick's ConvNets (32 channels), one MNIST "7" at 28x28, standardized, the x0.2 stages over each budget.

Cases (depth, steps, recipe): the paper's (App. H.3 init, App. B SGD), the same clipped at 1, Fig 30's Adam 1e-4 from
the paper's init and from PyTorch's, Adam 1e-3; at depths 1, 5 and 20. What it printed is in benchmarks/RESULTS.md
(session 16). Run: .venv/bin/python benchmarks/probes/paper1_depth_recipes.py
"""
import time

import torch

from memlib import data, models, train
from memlib.models import weights

PROBE_SEEDS = (100, 101, 102)     # seeds no claim uses
SGD = dict(lr=0.01, momentum=0.9)                 # paper 1, App. B
ADAM = dict(optimizer="adam", lr=1e-4)            # paper 1, App. H.3 / Fig 30
CASES = [  # (depth, steps, name, init, fit keywords)
    (20, 1000, "paper init, SGD unclipped", "paper_default", SGD),
    (20, 1000, "paper init, SGD clip 1", "paper_default", {**SGD, "clip_grad_norm": 1.0}),
    (20, 1000, "paper init, Adam 1e-4", "paper_default", ADAM),
    (20, 1000, "PyTorch init, Adam 1e-4", "default", ADAM),
    (20, 1000, "paper init, Adam 1e-3", "paper_default", {**ADAM, "lr": 1e-3}),
    (1, 4000, "paper init, Adam 1e-4", "paper_default", ADAM),
    (1, 4000, "paper init, SGD", "paper_default", SGD),
    (1, 1000, "paper init, Adam 1e-3", "paper_default", {**ADAM, "lr": 1e-3}),
    (5, 1000, "paper init, SGD", "paper_default", SGD),
    (5, 1000, "paper init, Adam 1e-4", "paper_default", ADAM),
]


def main():
    x_img, _ = data.training_digit(root="data")
    x = data.standardize(x_img)                                   # (1, 1, 28, 28)
    zero = float(x.pow(2).mean())
    for depth, steps, name, init, kw in CASES:
        nets = []
        for s in PROBE_SEEDS:
            torch.manual_seed(s)
            net = models.convnet(depth, channels=32)
            if init != "default":
                weights.initialize_(net, init)
            nets.append(net)
        t0 = time.time()
        hists = train.fit(nets, x, steps=steps, schedule="stagewise", log_every=steps // 10, progress=False, **kw)
        print(f"depth {depth}, {steps} steps, {name}: {time.time() - t0:.0f} s; loss / zero prediction's, "
              f"every {steps // 10} steps, per seed:", flush=True)
        for h in hists:
            print("   ", " ".join(f"{v / zero:.3f}" for v in h.loss), flush=True)


if __name__ == "__main__":
    main()
