"""Probe: how much of a depth-sweep training step on the CPU is subnormal arithmetic.

    .venv/bin/python benchmarks/probes/paper1_subnormals.py [--steps 10] [--seeds 100 ...] [--out FILE]

Paper 1's default init N(0, 1/(f_i f_o)) (App. H.3) shrinks a 32-channel 5x5 layer's signal about 28-fold, so by
layer 20 the activations are near float32's smallest normal number (1.2e-38) and some gradients may fall below it:
subnormal numbers, which some x86 cores compute far more slowly than normal ones. This probe times a 20-layer,
32-channel ConvNet's training steps on one MNIST "7" (quick's sweep net, seeds 100-102, which no claim uses) under H.3's
three inits and two optimizers (App. B's SGD and Fig 30's Adam), with subnormals kept (IEEE, the project's numerical
policy) and flushed to zero (`torch.set_flush_denormal(True)`), the two alternated in one run, and counts how many of
the first layer's gradient entries are subnormal or zero after the first step. It reports seconds per step; time it on an
idle machine. Writes JSON (atomically) when --out is given.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from memlib import data, models, train  # noqa: E402
from memlib.harness.fileio import atomic_write_text  # noqa: E402
from memlib.models import weights  # noqa: E402
from memlib.recipes import paper1 as recipe  # noqa: E402

TINY = torch.finfo(torch.float32).tiny          # the smallest normal float32
OPTIMIZERS = {"App. B's SGD": dict(lr=0.01, momentum=0.9), "Fig 30's Adam": dict(optimizer="adam", lr=1e-4)}


def one(init: str, opt: dict, seed: int, x: torch.Tensor, steps: int, flush: bool) -> dict:
    torch.set_flush_denormal(flush)
    try:
        torch.manual_seed(seed)
        m = weights.initialize_(models.convnet(20, channels=32), init)
        loss = ((m(x) - x) ** 2).mean()
        loss.backward()
        g = m[0].weight.grad.abs()
        sub = int(((g > 0) & (g < TINY)).sum())
        zero = int((g == 0).sum())
        m.zero_grad(set_to_none=True)
        out = {"first_grad_subnormal": sub, "first_grad_zero": zero, "first_grad_entries": g.numel()}
        try:
            train.fit(m, x, steps=2, progress=False, **opt)             # warm-up
            t0 = time.perf_counter()
            train.fit(m, x, steps=steps, progress=False, **opt)
        except train.TrainingDiverged as e:                             # Kaiming's init under App. B's SGD
            return {**out, "s_per_step": None, "diverged": str(e).splitlines()[0]}
        return {**out, "s_per_step": (time.perf_counter() - t0) / steps}
    finally:
        torch.set_flush_denormal(False)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--data-root", default=str(ROOT / "data"))
    ap.add_argument("--out", default=None)
    ap.add_argument("--seeds", type=int, nargs="+", default=list(recipe.DEPTH_READING_SEEDS))
    args = ap.parse_args(argv)
    x = data.standardize(data.training_digit(size=recipe.SIZE, root=args.data_root)[0])
    rows = []
    for name, init in recipe.H3_INITS.items():
        for opt_name, opt in OPTIMIZERS.items():
            for seed in args.seeds:
                # alternating, twice each, the faster of each pair: a second job on the cores slows one timing
                pairs = [one(init, opt, seed, x, args.steps, f) for _ in range(2) for f in (False, True)]
                kept, flushed = (min(pairs[i::2], key=lambda r: r["s_per_step"] or math.inf) for i in (0, 1))
                if kept["s_per_step"] is None or flushed["s_per_step"] is None:
                    rows.append({"init": name, "optimizer": opt_name, "seed": seed, "ieee": kept, "flushed": flushed})
                    print(f"{name:8s} {opt_name:13s} seed {seed}: {kept.get('diverged') or flushed.get('diverged')}",
                          flush=True)
                    continue
                rows.append({"init": name, "optimizer": opt_name, "seed": seed, "ieee": kept, "flushed": flushed,
                             "ratio": kept["s_per_step"] / flushed["s_per_step"]})
                print(f"{name:8s} {opt_name:13s} seed {seed}: {kept['s_per_step']:.3f} s/step with subnormals, "
                      f"{flushed['s_per_step']:.3f} flushed ({rows[-1]['ratio']:.1f}x); first layer's gradient: "
                      f"{kept['first_grad_subnormal']} subnormal, {kept['first_grad_zero']} zero of "
                      f"{kept['first_grad_entries']}", flush=True)
    if args.out:
        atomic_write_text(Path(args.out), json.dumps({"steps": args.steps, "threads": torch.get_num_threads(),
                                                      "torch": torch.__version__, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
