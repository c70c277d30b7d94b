"""Probe: which reading of paper 1's depth-sweep recipe trains its nets, by the rule written before it ran
(memlib/recipes/paper1.py, DEPTH_READINGS and the comment above them), and what the recipe as written does to them.

    .venv/bin/python benchmarks/probes/paper1_depth_reading.py [--data-root data] [--out FILE] [--finding-only | --rule-only]

Two measurements, on the probe seeds (recipes.paper1.DEPTH_READING_SEEDS, which no claim uses), quick's 32 channels and
one MNIST "7" standardized; no claim's statistic is looked at:

* **the finding** (App. B + H.3 as written, the 20-layer net): the spread (standard deviation) of each layer's
  pre-activation on the training digit at initialization under H.3's three inits (default N(0, 1/(f_i f_o)), Xavier
  and Kaiming, normal), the first layer's weight gradient at the first step, and, over the training, the loss (over the
  zero prediction's) and the layers whose every ReLU is dead on the training digit, at logged steps;
* **the rule**: each candidate in DEPTH_READINGS, depths deepest first, seeds in order, trained as the sweep trains (the
  depth's budget, App. B's x0.2 stages over it); rejected at its first seed whose loss ends at or above the fit gate
  (or is not finite). The first that fits every depth on every seed is the reading; for it, each seed's first logged
  step below the gate.

Writes benchmarks/probes/measured/paper1_depth_reading.json (atomically) after every training and prints as it goes;
run again, it resumes an interrupted run from that file (the same seeds and data), training only what is missing.
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

CHANNELS = 32                                   # quick's (recipes.paper1.CHANNELS)
DEPTHS = recipe.DEPTHS["quick"]                 # quick's sweep: 1, 2, 3, 5, 8, 14, 20
INITS = ("paper_default", "xavier_normal", "kaiming_normal")   # H.3's three schemes (normal variants)
LOG_POINTS = 40                                 # logged steps per training


def net(depth: int, init: str, seed: int) -> torch.nn.Sequential:
    torch.manual_seed(seed)
    m = models.convnet(depth, channels=CHANNELS)
    weights.initialize_(m, init)
    return m


def spreads(m: torch.nn.Sequential, x: torch.Tensor) -> list[float]:
    """The standard deviation of each convolution's output (the pre-activation) on `x`, layer by layer."""
    out, h = [], x
    with torch.no_grad():
        for mod in m:
            h = mod(h)
            if isinstance(mod, torch.nn.Conv2d):
                out.append(float(h.std()))
    return out


def dead_layers(m: torch.nn.Sequential, x: torch.Tensor) -> list[int]:
    """The layers (1-based, counting convolutions) whose every ReLU output is zero on `x`: no gradient passes them."""
    dead, h, layer = [], x, 0
    with torch.no_grad():
        for mod in m:
            h = mod(h)
            if isinstance(mod, torch.nn.Conv2d):
                layer += 1
            elif isinstance(mod, torch.nn.ReLU) and not bool((h > 0).any()):
                dead.append(layer)
    return dead


def finding(x: torch.Tensor, zero: float) -> dict:
    """App. B + H.3 as written at depth 20: the signal at init, the first layer's gradient, dead layers over training."""
    init_spread = {init: {s: [round(v, 6) for v in spreads(net(20, init, s), x)] for s in recipe.DEPTH_READING_SEEDS}
                   for init in INITS}
    name, init, kw, _ = recipe.DEPTH_READINGS[0]
    steps = recipe.depth_reading_budget(20)
    runs = {}
    for s in recipe.DEPTH_READING_SEEDS:
        m = net(20, init, s)
        loss = ((m(x) - x) ** 2).mean()
        loss.backward()
        first_grad = float(m[0].weight.grad.abs().max())
        m.zero_grad(set_to_none=True)
        track = []

        def watch(state, track=track):
            track.append({"step": state.step, "loss_ratio": round(state.loss / zero, 6),
                          "dead_layers": dead_layers(state.model, x)})
            return False
        t0 = time.time()
        train.fit(m, x, steps=steps, log_every=steps // LOG_POINTS, progress=False, callbacks=[watch], **kw)
        with torch.no_grad():
            end = {"loss_ratio": round(float(((m(x) - x) ** 2).mean()) / zero, 6), "dead_layers": dead_layers(m, x)}
        runs[s] = {"first_layer_max_abs_grad_at_step_0": first_grad, "track": track, "end": end,
                   "seconds": round(time.time() - t0, 1)}
        first_dead = next((t["step"] for t in track if t["dead_layers"]), None)
        print(f"finding, seed {s}: first layer's largest |gradient| at step 0 {first_grad:.3g}; loss ratio at the end "
              f"{end['loss_ratio']:.4f}; first dead layer at step {first_dead} ({track[-1]['dead_layers'] if track else []} "
              f"dead at the last log)", flush=True)
    return {"reading": name, "depth": 20, "steps": steps, "init_spread": init_spread, "runs": runs}


def judge_candidates(x: torch.Tensor, zero: float, done: dict | None = None, save=lambda rule: None) -> dict:
    """The rule: each candidate until its first miss; the first that fits every depth on every seed. `done`: an
    earlier, interrupted run's rule (its finished trainings are kept, not trained again); `save(rule)` is called after
    every training, so an interruption loses at most one."""
    earlier = {r["name"]: r for r in (done or {}).get("candidates", [])}
    out = []
    chosen = None
    for name, init, kw, departs in recipe.DEPTH_READINGS:
        row = {"name": name, "init": init, "fit": kw, "departs": departs, "depths": {}, "fits": True}
        out.append(row)
        for depth in sorted(DEPTHS, reverse=True):
            steps = recipe.depth_reading_budget(depth)
            for s in recipe.DEPTH_READING_SEEDS:
                kept = (earlier.get(name, {}).get("depths", {}).get(str(depth)) or {}).get(str(s))
                if kept is not None and kept.get("steps") == steps:
                    row["depths"].setdefault(depth, {})[s] = kept
                    end = float(kept["loss_ratio_end"])
                    ok = math.isfinite(end) and end < recipe.DEPTH_READING_GATE
                    print(f"{name}: depth {depth}, seed {s}: kept from the earlier run ({end:.4g})", flush=True)
                    if not ok:
                        row["fits"] = False
                        row["rejected_at"] = {"depth": depth, "seed": s}
                        break
                    continue
                m = net(depth, init, s)
                t0 = time.time()
                try:
                    h = train.fit(m, x, steps=steps, log_every=max(1, steps // LOG_POINTS), progress=False,
                                  callbacks=[lambda st: not math.isfinite(st.loss)], **kw)
                    with torch.no_grad():
                        end = float(((m(x) - x) ** 2).mean()) / zero
                    ratios = [v / zero for v in h.loss]
                except train.TrainingDiverged:        # a loss that is not finite rejects the candidate at once
                    end, ratios, h = math.nan, [], None
                ok = math.isfinite(end) and end < recipe.DEPTH_READING_GATE
                below = next((st for st, r in zip(h.steps if h else [], ratios) if r < recipe.DEPTH_READING_GATE),
                             steps if ok else None)          # below only after the last logged step: the budget
                row["depths"].setdefault(depth, {})[s] = {"loss_ratio_end": end if math.isfinite(end) else str(end),
                                                          "first_below_gate": below, "steps": steps,
                                                          "seconds": round(time.time() - t0, 1)}
                print(f"{name}: depth {depth}, seed {s}: loss ratio at the end {end:.4g}"
                      f" ({'fits' if ok else 'misses'} the {recipe.DEPTH_READING_GATE:g} gate; first below it at step "
                      f"{below}), {time.time() - t0:.0f} s", flush=True)
                save({"candidates": out, "chosen": None, "budgets": {}, "complete": False})
                if not ok:
                    row["fits"] = False
                    row["rejected_at"] = {"depth": depth, "seed": s}
                    break
            if not row["fits"]:
                break
        if row["fits"]:
            chosen = name
            break
    budgets = {}
    if chosen is not None:
        for depth, by_seed in out[-1]["depths"].items():
            last = max(v["first_below_gate"] for v in by_seed.values())
            budget = recipe.depth_reading_budget(depth)
            budgets[depth] = budget if 3 * last <= budget else 3 * last
    print(f"the reading: {chosen}; budgets per depth at quick: {budgets}", flush=True)
    return {"candidates": out, "chosen": chosen, "budgets": budgets, "complete": True}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-root", default=str(ROOT / "data"))
    ap.add_argument("--out", default=str(ROOT / "benchmarks/probes/measured/paper1_depth_reading.json"))
    ap.add_argument("--finding-only", action="store_true", help="only the recipe as written at depth 20")
    ap.add_argument("--rule-only", action="store_true", help="only the rule's candidates")
    args = ap.parse_args(argv)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    x_img, source = data.training_digit(size=recipe.SIZE, root=args.data_root)
    x = data.standardize(x_img)                               # (1, 1, 28, 28)
    zero = float(x.pow(2).mean())                             # the zero prediction's loss
    result = {"seeds": list(recipe.DEPTH_READING_SEEDS), "channels": CHANNELS, "depths": DEPTHS, "source": source,
              "gate": recipe.DEPTH_READING_GATE, "torch": torch.__version__}
    out = Path(args.out)
    before = json.loads(out.read_text()) if out.exists() else {}
    if before.get("seeds") == result["seeds"] and before.get("source") == source:   # resume an interrupted run
        result = {**before, **result}

    def save(rule):
        atomic_write_text(out, json.dumps({**result, "rule": rule}, indent=1))
    if not args.finding_only:                                 # the rule first: it decides what the notebook trains
        result["rule"] = judge_candidates(x, zero, done=result.get("rule"), save=save)
        atomic_write_text(out, json.dumps(result, indent=1))
    if not args.rule_only and "finding" not in result:
        result["finding"] = finding(x, zero)
        atomic_write_text(out, json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
