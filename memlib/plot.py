"""Paper-style figures: image grids (first row inputs, then one row per model), heatmaps, curves."""
from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import torch


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
    if title:
        fig.suptitle(title, fontsize=11)
    return fig


def heatmap(values, *, xlabels, ylabels, xlabel="", ylabel="", title=None, ax=None, vmin=0.0, vmax=1.0,
            cmap="viridis", fmt=".2f", spread=None):
    """A heatmap with the value written in each cell; `spread` (same shape) adds "±s" per cell."""
    import seaborn as sns
    values = np.asarray(values, dtype=float)
    annot = np.vectorize(lambda v: format(v, fmt))(values)
    if spread is not None:
        annot = np.char.add(np.char.add(annot, "\n±"), np.vectorize(lambda v: format(v, fmt))(np.asarray(spread)))
    if ax is None:
        _, ax = plt.subplots(figsize=(0.6 * len(xlabels) + 2, 0.42 * len(ylabels) + 1.2))
    sns.heatmap(values, ax=ax, vmin=vmin, vmax=vmax, cmap=cmap, annot=annot, fmt="", xticklabels=xlabels,
                yticklabels=ylabels, annot_kws={"fontsize": 7}, cbar=True)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def savefig(fig, path) -> Path:
    """Save as PNG (tight, 110 dpi), creating the folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    return path


# ---------------------------------------------------------------- paper 1: identity vs constant
# -- worker A (FCNs, heatmaps, several examples)

# -- worker B (ConvNet sweeps)

# -- worker C (inside the ConvNets)


# ---------------------------------------------------------------- paper 2: attractors


# ---------------------------------------------------------------- paper 3: downsampling


# ---------------------------------------------------------------- paper 4: rho dynamics
