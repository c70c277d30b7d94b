"""Probe: how often the depth sweep's chosen reading fits the 20-layer net, on seeds no claim uses.

    .venv/bin/python benchmarks/probes/paper1_depth20_fit_rate.py [--data-root data] [--seeds 103-110] [--out FILE]

The reading rule (memlib/recipes/paper1.py) chose Fig 30's RMSprop at lr 0.0001 because it fit every depth of quick's
sweep on the three probe seeds 100-102 within the probe's 4,000 steps. Quick's first run under it (seeds 0-2) fit the
20-layer net on one seed of three within its 10,800 steps. This probe measures the fit rate on more seeds, each net
trained exactly as notebook 01 trains its depth-20 band (`recipes.paper1.depth_fit` / `depth_steps` at quick, its seed
and init by `store.build_model`, 32 channels, one MNIST "7" standardized), the band trained as one computation as the
notebook does. It records each seed's loss at the end over the zero prediction's and its first logged step below the
fit gate (5 %). No claim's statistic is looked at; the verdicts are the envelope's, on its own seeds.

Writes benchmarks/probes/measured/paper1_depth20_fit_rate.json (atomically) and prints each seed.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from memlib import data, models, train  # noqa: E402
from memlib.harness.fileio import atomic_write_text  # noqa: E402
from memlib.harness.store import build_model  # noqa: E402
from memlib.recipes import paper1 as recipe  # noqa: E402
from memlib.runtime import pick  # noqa: E402

DEPTH = 20
LOG_POINTS = 108                                 # a logged loss every 100 steps of the 10,800


def seeds_of(text: str) -> list[int]:
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-root", default=str(ROOT / "data"))
    ap.add_argument("--seeds", default="103-110", help="a range of seeds no claim uses (default 103-110)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks/probes/measured/paper1_depth20_fit_rate.json"))
    args = ap.parse_args(argv)
    seeds = seeds_of(args.seeds)
    x_img, source = data.training_digit(size=recipe.SIZE, root=args.data_root)
    x = data.standardize(x_img)                                  # (1, 1, 28, 28)
    zero = float(x.pow(2).mean())                                # the zero prediction's loss
    steps = recipe.depth_steps("quick", DEPTH)
    kw = {k: v for k, v in recipe.depth_fit("quick", depth=DEPTH).items() if k not in ("init", "weights_at")}
    init = pick("quick", **recipe.DEPTH_INIT)
    channels = pick("quick", **recipe.CHANNELS)
    build = lambda: models.convnet(DEPTH, channels=channels)   # noqa: E731 - notebook 01's Fig 3a builder
    nets = [build_model(build, seed=s, init=init) for s in seeds]
    t0 = time.time()
    hists = train.fit(nets, x, steps=steps, log_every=steps // LOG_POINTS, progress=True, **kw)
    seconds = time.time() - t0
    runs = {}
    for s, h in zip(seeds, hists):
        ratios = [v / zero for v in h.loss]
        below = next((st for st, r in zip(h.steps, ratios) if r < recipe.DEPTH_READING_GATE), None)
        runs[s] = {"loss_ratio_end": h.final_loss / zero, "first_below_gate": below}
        print(f"seed {s}: loss at the end {h.final_loss / zero:.4f} of the zero prediction's; first below the gate at "
              f"step {below}", flush=True)
    fitted = sum(r["loss_ratio_end"] < recipe.DEPTH_READING_GATE for r in runs.values())
    print(f"{fitted} of {len(seeds)} seeds fit ({seconds:.0f} s for the band)", flush=True)
    atomic_write_text(Path(args.out), json.dumps(
        {"depth": DEPTH, "reading": recipe.DEPTH_READING, "steps": steps, "fit": kw, "init": init, "channels": channels,
         "source": source, "gate": recipe.DEPTH_READING_GATE, "torch": torch.__version__, "seeds": seeds,
         "runs": runs, "fitted": fitted, "seconds": round(seconds, 1)}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
