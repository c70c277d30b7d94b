"""Image grids: images in rows and columns (`image_grid`: paper 1's figures, the first row the inputs, then one row
per model), and the paper figures laid out as one: a net's maps layer by layer (`intermediate_grid`,
`layer_maps_side_by_side`, `upper_layers_grid`), iterates of an autoencoder (`trajectory_rows_grid`), eigenvector
images (`eigenvector_rows` builds the rows). `memlib.plot` re-exports every name here.

They draw what they are given (maps from `metrics`, trajectories from `dynamics.trajectory_rows`). The one
exception is `trajectory_grid`, kept with its signature for notebook 02 (it iterates the map through
`dynamics.trajectory_rows`).
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import torch

from ..dynamics import trajectory_rows
from ..images import unit_range


def _to_image(t: torch.Tensor) -> np.ndarray:
    t = t.detach().cpu().float()
    if t.ndim == 3 and t.shape[0] in (1, 3):
        t = t.permute(1, 2, 0)
    if t.ndim == 3 and t.shape[-1] == 1:
        t = t[..., 0]
    return t.numpy()


def image_grid(rows, *, row_labels=None, col_labels=None, title=None, scale: float = 1.0,
               clip=(0.0, 1.0)):
    """A grid with one row per entry of `rows` (each (N, C, H, W) or (N, H, W)).

    Paper 1's figures: the first row holds the inputs, each further row one model's predictions.
    Images are clipped to `clip` (None: each image scaled to its own range).
    """
    rows = [r if r.ndim == 4 else r.unsqueeze(1) for r in rows]
    n_rows, n_cols = len(rows), max(len(r) for r in rows)
    fig, axes = plt.subplots(n_rows, n_cols, figsize=(scale * 1.1 * n_cols + 0.8, scale * 1.1 * n_rows),
                             squeeze=False, gridspec_kw=dict(wspace=0.04, hspace=0.04))
    for i, r in enumerate(rows):
        for j in range(n_cols):
            ax = axes[i][j]
            ax.set_xticks([]), ax.set_yticks([])
            for s in ax.spines.values():
                s.set_visible(False)
            if j >= len(r):
                continue
            img = _to_image(r[j])
            kw = dict(vmin=clip[0], vmax=clip[1]) if clip is not None else {}
            ax.imshow(np.clip(img, *clip) if clip is not None else img, cmap="gray", interpolation="nearest", **kw)
            if i == 0 and col_labels is not None:
                ax.set_title(col_labels[j], fontsize=8)
        if row_labels is not None:
            axes[i][0].set_ylabel(row_labels[i], rotation=0, ha="right", va="center", fontsize=9)
    if title:   # room above the column labels for every line of the title, so it never overlaps them
        height, lines = fig.get_figheight(), title.count("\n") + 1
        fig.set_figheight(height + 0.21 * (lines - 1))        # each further line: more room, same image size
        height = fig.get_figheight()
        fig.subplots_adjust(top=1 - (0.06 + 0.21 * lines + (0.28 if col_labels is not None else 0.08)) / height)
        fig.suptitle(title, fontsize=11, y=1 - 0.06 / height, va="top")
    return fig


# ---------------------------------------------------------------- paper 1: inside the nets

def layer_maps_side_by_side(maps: dict, *, col_names=None, title=None, scale: float = 0.75):
    """Paper 1, Fig 25/26: nets of one depth side by side, layer by layer. `maps` is `metrics.layer_maps(nets, x)`:
    {net label (e.g. "3 ch, init"): [the inputs, then each layer's top singular map], each (N, H, W) in [0, 1]}.
    Rows: the input, then each layer; columns: for each net, the N inputs."""
    depths = {len(m) for m in maps.values()}
    if len(depths) != 1:
        raise ValueError(f"layer_maps_side_by_side needs nets of one depth, got {sorted(d - 1 for d in depths)} layers")
    rows = [torch.cat([m[i] for m in maps.values()]) for i in range(depths.pop())]
    n = len(next(iter(maps.values()))[0])
    names = col_names or [str(i) for i in range(n)]
    cols = [f"{label}\n{name}" for label in maps for name in names]
    return image_grid(rows, row_labels=["input"] + [f"layer {i}" for i in range(1, len(rows))],
                      col_labels=cols, scale=scale, title=title)


def intermediate_grid(maps: dict, *, col_names=None, title=None, scale: float = 0.55):
    """Paper 1, Fig 11-14: rows = the input then every layer of a net, columns = its N inputs under each kind
    of channel summary. `maps` is `metrics.intermediate_maps(model, x, kinds=...)`: {kind ("svd",
    "most_correlated", "random"): [the inputs, then each layer's map], each (N, H, W) in [0, 1]}."""
    kinds = list(maps)
    n_rows, n = len(maps[kinds[0]]), len(maps[kinds[0]][0])
    rows = [torch.cat([maps[k][i] for k in kinds]) for i in range(n_rows)]
    names = col_names or [str(i) for i in range(n)]
    short = {"svd": "SV", "most_correlated": "max-corr", "random": "ch. 0"}
    cols = [f"{short[k]}\n{name}" if len(kinds) > 1 else name for k in kinds for name in names]
    return image_grid(rows, row_labels=["input"] + [f"layer {i}" for i in range(1, n_rows)],
                      col_labels=cols, scale=scale, title=title)


def upper_layers_grid(inputs: torch.Tensor, layers, *, col_labels=None, title=None, scale: float = 0.55):
    """Paper 1, Fig 20-22: probes fed straight into the top layers of trained ConvNets. The first row shows
    `inputs` (the probes as displayable [0, 1] images); then one row per (label, maps) of `layers`, which is
    `metrics.upper_layer_maps(nets, x, all_layers=...)`."""
    rows, labels = [inputs], ["input"]
    for label, m in layers:
        rows.append(m)
        labels.append(label)
    return image_grid(rows, row_labels=labels, col_labels=col_labels, scale=scale, title=title)


# ---------------------------------------------------------------- paper 2: attractors

def trajectory_rows_grid(rows, iters, *, title=None, scale: float = 0.8):
    """Paper 2, Fig 3/5: `rows` from `dynamics.trajectory_rows(f, x_train, x0, iters)`, one per start: its
    iterates at the iteration counts `iters`, then the training example nearest to the last iterate."""
    iters = sorted(int(t) for t in iters)
    return image_grid(rows, col_labels=[f"t={t}" for t in iters] + ["NN train"], title=title, scale=scale)


def trajectory_grid(f, x_train: torch.Tensor, x0: torch.Tensor, iters, *, title=None, scale: float = 0.8):
    """`trajectory_rows_grid` of `dynamics.trajectory_rows(f, x_train, x0, iters)`: the one figure here that
    computes what it draws, kept with this signature for notebook 02 (new callers use the two parts)."""
    return trajectory_rows_grid(trajectory_rows(f, x_train, x0, iters), iters, title=title, scale=scale)


# ---------------------------------------------------------------- paper 3: downsampling

def eigenvector_rows(named: dict, n: int = 4) -> tuple[list, list]:
    """Rows and row labels for `image_grid`: the real and imaginary parts (each min-max scaled) of the
    first `n` eigenvector images of each entry of `named` = {label: complex images (k, c, s, s)}."""
    rows, labels = [], []
    for name, imgs in named.items():
        rows += [unit_range(imgs[:n].real.float()), unit_range(imgs[:n].imag.float())]
        labels += [f"{name}: Re", f"{name}: Im"]
    return rows, labels
