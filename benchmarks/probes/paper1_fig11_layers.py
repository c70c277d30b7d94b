"""Probe (issue 42): how an untrained 20-layer ConvNet loses the input, layer by layer (paper 1, Fig 11), on seeds no
claim uses.

Paper 1, Sec. 5.2: "the randomly initialized convolutional layers gradually smooth out the input images. The shape of
the input images are (visually) wiped out after around 8 layers of (random) convolution", read on the top singular
vector of each layer's channels. `p1.fig11_untrained_wipes_input` tests layers 9-20 below the row `random`'s 0.5; its
control, layers 1-8 of the same nets, passed that test on two of session 27's bands, so this probe asks what a
control could be: per layer, the correlation with the input (`metrics.layer_input_correlation`, notebook 01's Fig 11
inputs: the test digit, the pattern and the square) of the top-singular-vector view (`svd`, the paper's) and of the
channel most correlated with the input (`most_correlated`, Fig 12-14's second view), at quick's 32 channels and at
128 (Fig 25's), under the depth sweep's init (App. H.3's N(0, 1/(fan_in fan_out))).

A measurement on seeds 100-109 (`PROBE_SEEDS`; notebook 01's bands use 0-84); trains nothing (seconds).

Measured (session 29; measured/paper1_fig11_layers.json, --inputs fig11, and measured/paper1_fig11_layers_shapes.json,
--inputs shapes): the row `random` reads "every |r| < 0.5", i.e. the largest |corr| over layers 9-20. At 32 channels,
on the three Fig 11 inputs it is 0.28-0.47 and the same over layers 1-8 0.52-0.87; on the panel's shapes (its test
digits, images, patterns and square) 0.39-0.47 and 0.58-0.87: both spans separate on all ten seeds, the shapes with
more room on the control's side, so the claim reads the shapes.
Session 30, after notebook 01's fresh bands (300-322) found the claim unstable (the 2-SE margin missed on 320-322),
`--inputs shapes --channels 32 --seeds 500 ... 599` (measured/paper1_fig11_layers_shapes_500.json): over a hundred
untrained nets the largest |corr| beyond layer 8 has mean 0.422, standard deviation 0.049, range 0.255-0.506, and 3 of
the 100 reach 0.5; the control (layers 1-8) is 0.517 or more on all 100. Drawing bands from these hundred, a band of
3 passes the claim's test (every seed below 0.5, the mean 2 SE below it) 83 % of the time, of 5 85 %, of 10 73 %: at
32 channels the statement holds for most nets but not for every net, and more seeds per band do not settle it.

Run: .venv/bin/python benchmarks/probes/paper1_fig11_layers.py [--inputs fig11|shapes]
     [--out benchmarks/probes/measured/paper1_fig11_layers.json]
     .venv/bin/python benchmarks/probes/paper1_fig11_layers.py --summarize measured/paper1_fig11_layers_shapes_500.json
     (the spread of a stored measurement and how often a band drawn from it passes the claim's test)
"""
from __future__ import annotations

import argparse
import functools
import json
import random
import statistics
from pathlib import Path

from memlib import data, metrics, models
from memlib.claims import band_holds
from memlib.claims.rules import RANDOM_BELOW
from memlib.harness.fileio import atomic_write_text
from memlib.harness.store import build_model
from memlib.recipes import paper1 as recipe
from memlib.runtime import pick

PROBE_SEEDS = tuple(range(100, 110))
DEPTH = 20                                    # paper 1, Fig 11: a randomly initialized 20-layer ConvNet
WIPED_AFTER = recipe.FIG11_WIPED_AFTER
INPUTS = {"fig11": ("digit", "pattern", "square"), "shapes": recipe.FIG11_SHAPES}


BAND_SIZES = (3, 5, 10)       # quick's band, the five-seed figures' band, and twice that
DRAWS = 20_000                # bands drawn (without replacement) per size, from random.Random(0)


def summarize(measured: dict, channels: int = 32) -> dict:
    """The statement's values (the largest |corr| beyond layer 8, `svd` view) over a stored measurement's seeds at
    `channels`: their spread, how many reach the row `random`'s bar, the control's smallest value, and the share of
    bands of BAND_SIZES seeds drawn from them that pass the claim's test as the report applies it
    (`claims.band_holds`: every seed below the bar and the band's mean two standard errors below it)."""
    rows = [r for r in measured["rows"] if r["channels"] == channels]
    beyond, upto = [r["svd_max_beyond"] for r in rows], [r["svd_max_upto"] for r in rows]
    rng = random.Random(0)
    passes = {n: sum(band_holds(rng.sample(beyond, n), "<", RANDOM_BELOW)[0] for _ in range(DRAWS)) / DRAWS
              for n in BAND_SIZES if n <= len(beyond)}
    return {"channels": channels, "seeds": len(rows), "mean": statistics.mean(beyond),
            "sd": statistics.stdev(beyond), "min": min(beyond), "max": max(beyond),
            "at_or_above_bar": sum(v >= RANDOM_BELOW for v in beyond), "control_min": min(upto),
            "band_pass_share": passes}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=list(PROBE_SEEDS))
    ap.add_argument("--channels", type=int, nargs="+", default=[pick("quick", **recipe.CHANNELS), 128])
    ap.add_argument("--root", default="data")
    ap.add_argument("--inputs", choices=tuple(INPUTS), default="fig11",
                    help="fig11: notebook 01's three Fig 11 inputs; shapes: every test image of the panel but the "
                         "noise (nothing to wipe out there)")
    ap.add_argument("--out", default=None)
    ap.add_argument("--summarize", metavar="JSON", help="train nothing: summarize a stored measurement (summarize())")
    a = ap.parse_args(argv)
    if a.summarize:
        summary = summarize(json.loads(Path(a.summarize).read_text()), channels=a.channels[0])
        print(json.dumps(summary, indent=1))
        return summary
    init = pick("quick", **recipe.DEPTH_INIT)
    x_img, source = data.training_digit(size=28, root=a.root)                 # (1, 1, 28, 28)
    out = {"init": init, "depth": DEPTH, "source": source, "seeds": a.seeds, "inputs": INPUTS[a.inputs], "rows": []}
    for ch in a.channels:
        for seed in a.seeds:
            panel_img, names = data.probe_panel(x_img, root=a.root, seed=seed)
            panel = data.standardize(panel_img)
            if a.inputs == "fig11":   # the first image of each kind, as the notebook
                pick_idx = [names.index(n) for n in INPUTS[a.inputs]]
            else:
                pick_idx = [i for i, n in enumerate(names) if n in INPUTS[a.inputs]]
            vis = panel[pick_idx]                                                     # (n, 1, 28, 28)
            net = build_model(functools.partial(models.convnet, DEPTH, channels=ch), seed=seed, init=init)
            row = {"channels": ch, "seed": seed}
            for kind in ("svd", "most_correlated"):
                row[kind] = [round(float(v), 4) for v in metrics.layer_input_correlation(net, vis, kind=kind)]
                # the row `random` (docs/CLAIM_RULES.md): every |r| < 0.5, so the largest over the layers
                row[kind + "_max_beyond"] = max(abs(v) for v in row[kind][WIPED_AFTER:])
                row[kind + "_max_upto"] = max(abs(v) for v in row[kind][:WIPED_AFTER])
            out["rows"].append(row)
            print(ch, seed, {k: [round(v, 2) for v in row[k]] for k in ("svd", "most_correlated")},
                  {k: round(v, 3) for k, v in row.items() if k.endswith(("_beyond", "_upto"))}, flush=True)
    if a.out:
        atomic_write_text(a.out, json.dumps(out, indent=1))   # a temporary name, then renamed
    return out


if __name__ == "__main__":
    main()
