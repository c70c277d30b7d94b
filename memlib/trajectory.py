"""Where a training goes: the map a net computes at the steps its training kept (`fit(..., weights_at=...)`).

Paper 1 trains its ConvNets for 2,000,000 steps and shows where they end: shallow nets copy the input (the
identity), deep ones paint the training digit whatever the input (the constant map). A profile that trains
fewer steps can only say what it measured at its own end, so notebook 01 also shows the road: at log-spaced
steps of one training, each net's correlation with the input and with the training digit, on the rho = 0
probes and on the natural test images (issue 40). A reader sees where the constant map appears, and whether
a profile's budget reaches it.

`log_steps` picks the steps, `map_trajectory` scores one trained net at each of them, `band_trajectory` a
seed band, `still_moving` says whether the last stretch of a trajectory still moves towards a map.
"""
from __future__ import annotations

import numpy as np
import torch

from .history import History
from .metrics import band_summary, identity_constant_scores


def log_steps(steps: int, per_decade: int = 3, first: int = 10) -> list[int]:
    """0, then about `per_decade` steps per factor of 10 from `first` up to `steps`, and `steps` itself:
    the steps at which a trajectory keeps the weights (e.g. 10,000 -> 0, 10, 22, 46, 100, ..., 4,642, 10,000)."""
    if steps <= 0:
        return [0]
    out = {0, int(steps)}
    if steps > first:
        n = int(np.floor(np.log10(steps / first) * per_decade)) + 1
        out |= {int(round(first * 10 ** (i / per_decade))) for i in range(n)}
    return sorted(s for s in out if s <= steps)


@torch.no_grad()
def map_trajectory(model: torch.nn.Module, history: History, probes: torch.Tensor, x_train: torch.Tensor) -> dict:
    """One trained net's map along its training: {"steps": [...], "corr_identity": [...], "corr_constant": [...]}
    at every step its `history` kept (`snapshots`), on `probes` (N, C, H, W) against the training image
    `x_train` (1, C, H, W): paper 1's two scores (`metrics.identity_constant_scores`)."""
    steps = sorted(history.snapshots)
    if not steps:
        raise ValueError("this training kept no weights: train it with fit(..., weights_at=trajectory.log_steps(n))")
    rows = [identity_constant_scores(history.model_at(model, s), probes, x_train) for s in steps]
    return {"steps": steps, "corr_identity": [r["corr_identity"] for r in rows],
            "corr_constant": [r["corr_constant"] for r in rows]}


def band_trajectory(band, probes: torch.Tensor, x_train: torch.Tensor) -> dict:
    """`map_trajectory` for each (model, history) of a seed band: {"steps": [...], "corr_identity": (seeds, steps),
    "corr_constant": (seeds, steps)} as nested lists (the steps every seed kept)."""
    each = [map_trajectory(m, h, probes, x_train) for m, h in band]
    steps = sorted(set.intersection(*(set(t["steps"]) for t in each)))
    pick = lambda t, key: [v for s, v in zip(t["steps"], t[key]) if s in steps]   # noqa: E731
    return {"steps": steps, "corr_identity": [pick(t, "corr_identity") for t in each],
            "corr_constant": [pick(t, "corr_constant") for t in each]}


def still_moving(steps, values, *, towards: float = 1.0, tolerance: float = 0.05) -> bool:
    """Whether a score's last stretch (its last two kept steps, the last factor of ~2 of the training) moved more
    than `tolerance` towards `towards` (1.0: towards the map scored): a trajectory that has not settled at the
    end of its budget. `values` may be one seed's list or a band's (seeds, steps); a band moves if any seed does."""
    v = np.atleast_2d(np.asarray(values, dtype=float))
    if v.shape[1] < 2:
        return False
    gain = (v[:, -1] - v[:, -2]) * np.sign(towards - v[:, -2])
    return bool(np.any(gain > tolerance))


def heatmap_rows(trajectories: dict) -> tuple[list, list]:
    """Seed-band trajectories by row label (e.g. depth -> `band_trajectory`) as the rows of `plot.band_heatmaps`:
    ([[a `metrics.band_summary` dict per step] per row], the columns). The columns are the steps every row kept; where
    the rows' budgets differ (the depth sweep's budget per depth), those below the smallest budget and then "end",
    each row's own last step."""
    steps = sorted(set.intersection(*(set(t["steps"]) for t in trajectories.values())))
    ends = {t["steps"][-1] for t in trajectories.values()}
    columns = steps if len(ends) == 1 else [s for s in steps if s < min(ends)] + ["end"]
    rows = []
    for t in trajectories.values():
        cols = [len(t["steps"]) - 1 if s == "end" else t["steps"].index(s) for s in columns]
        rows.append([band_summary([{"corr_identity": ci[j], "corr_constant": cc[j]}
                                   for ci, cc in zip(t["corr_identity"], t["corr_constant"])]) for j in cols])
    return rows, columns


def step_labels(columns: list) -> list[str]:
    """`heatmap_rows`'s columns as a heatmap's labels: "1,000" for a step, "end" as it is."""
    return [s if isinstance(s, str) else f"{s:,}" for s in columns]


def road_ends(roads: dict, prefix: str = "fig3a") -> dict:
    """The metrics of where each depth's trajectory stands at the end: `roads` is {probe set: {depth:
    band_trajectory}}. Per depth and probe set, each score one kept step before the end and at the end (per seed),
    the step before the end, and whether the band is still moving towards the constant map (`still_moving`, on the
    first probe set). A training that kept one step only (an untrained audit) has its end as its step before."""
    out = {}
    first = next(iter(roads))
    for depth in roads[first]:
        for name, by_depth in roads.items():
            road = by_depth[depth]
            for score in ("corr_constant", "corr_identity"):
                out[f"{prefix}.depth{depth}.road.{name}.{score}.before_end"] = [v[-2 if len(v) > 1 else -1]
                                                                                for v in road[score]]
                out[f"{prefix}.depth{depth}.road.{name}.{score}.end"] = [v[-1] for v in road[score]]
        steps = roads[first][depth]["steps"]
        out[f"{prefix}.depth{depth}.road.before_end_step"] = steps[-2 if len(steps) > 1 else -1]
        out[f"{prefix}.depth{depth}.road.still_moving_to_constant"] = float(
            still_moving(steps, roads[first][depth]["corr_constant"]))
    return out
