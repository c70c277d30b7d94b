"""Paper-style figures of numbers: curves, bars and heatmaps (one annotated `heatmap`, which the seed-band panels
and `operator_heatmaps` draw through), and paper 2's markdown tables. The image grids are `memlib.plot.plot_grids`;
this module re-exports them (and `images.unit_range`), so every name the notebooks, widgets and tour read as
`plot.<name>` (`plot.image_grid`, `plot.trajectory_grid`, `plot.unit_range`, ...) stays here.

Plotting draws what it is given: the scores and records a figure shows are computed by the caller or by the
computing modules (`metrics.band_scores`, `rho.run_ends`, `linalg.numerical_rank`).
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import torch

from ..images import unit_range  # noqa: F401 - also plot.unit_range (notebooks 02 and 03 call it)
from .plot_grids import (
    eigenvector_rows, image_grid, intermediate_grid, layer_maps_side_by_side, trajectory_grid, trajectory_rows_grid,
    upper_layers_grid)


def heatmap(values, *, xlabels, ylabels, xlabel="", ylabel="", title=None, ax=None, vmin=0.0, vmax=1.0,
            cmap="viridis", fmt=".2f", spread=None, cbar: bool = True, square: bool = False, title_size: float = 10):
    """A heatmap with the value written in each cell; `spread` (same shape) adds "±s" per cell. The one annotated
    heatmap: the seed-band panels (`band_heatmap_panels`, `band_heatmaps`) and `operator_heatmaps` draw with it.
    `cbar=False` leaves out the colour bar (panels that share one: the mesh is `ax.collections[0]`); `square`
    makes the cells square."""
    import seaborn as sns
    values = np.asarray(values, dtype=float)
    annot = np.vectorize(lambda v: format(v, fmt))(values)
    if spread is not None:
        annot = np.char.add(np.char.add(annot, "\n±"), np.vectorize(lambda v: format(v, fmt))(np.asarray(spread)))
    if ax is None:
        _, ax = plt.subplots(figsize=(0.6 * len(xlabels) + 2, 0.42 * len(ylabels) + 1.2))
    sns.heatmap(values, ax=ax, vmin=vmin, vmax=vmax, cmap=cmap, annot=annot, fmt="", xticklabels=xlabels,
                yticklabels=ylabels, annot_kws={"fontsize": 7}, cbar=cbar, square=square)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title, fontsize=title_size)
    return ax


# ---------------------------------------------------------------- paper 1: identity vs constant
# -- worker A (FCNs, heatmaps, several examples)

def band_bars(groups: dict, *, metrics=("corr_identity", "corr_constant"), ax=None, title=None,
              ylabel="correlation", ylim=(-0.1, 1.05)):
    """Grouped bars with error bars: `groups` maps a label to a `metrics.band_scores` dict
    (mean under each metric name, spread under name + "_std"); one bar colour per metric."""
    labels = list(groups)
    if ax is None:
        _, ax = plt.subplots(figsize=(0.9 * len(labels) * len(metrics) / 2 + 2.5, 3.2))
    width = 0.8 / len(metrics)
    pos = np.arange(len(labels))
    for i, m in enumerate(metrics):
        ax.bar(pos + (i - (len(metrics) - 1) / 2) * width, [groups[g][m] for g in labels], width,
               yerr=[groups[g].get(m + "_std", 0.0) for g in labels], capsize=3, label=m.replace("_", " "))
    ax.set_xticks(pos, labels, fontsize=8, rotation=20 if len(labels) > 4 else 0)
    ax.set_ylabel(ylabel)
    ax.set_ylim(*ylim)
    ax.axhline(0, color="k", lw=0.5)
    ax.legend(fontsize=8)
    if title:
        ax.set_title(title, fontsize=10)
    return ax


def band_heatmap_panels(panels, *, row_labels, col_labels, xlabel="", ylabel="", title=None, ncols=2):
    """Several heatmaps of seed bands side by side (paper 1, Fig 8 / 31 / 32): `panels` is a list of
    (panel title, bands, score name, vmax) with `bands[i][j]` a `metrics.band_scores` dict; each
    cell reads "mean ± std". vmax=None uses the largest mean across that panel."""
    nrows = (len(panels) + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, squeeze=False,
                             figsize=(ncols * (0.75 * len(col_labels) + 2.4), nrows * (0.5 * len(row_labels) + 1.4)))
    for ax, (label, bands, name, vmax) in zip(axes.flat, panels):
        vals = [[b[name] for b in row] for row in bands]
        heatmap(vals, spread=[[b[f"{name}_std"] for b in row] for row in bands], xlabels=col_labels,
                ylabels=row_labels, xlabel=xlabel, ylabel=ylabel, title=label, ax=ax,
                vmax=vmax if vmax is not None else max(1e-9, float(np.max(vals))))
    for ax in list(axes.flat)[len(panels):]:
        ax.axis("off")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig

# -- worker B (ConvNet sweeps)

BAND_PANELS = (("corr_identity", "correlation to the identity"), ("corr_constant", "correlation to the constant map"))


def band_heatmaps(bands, *, row_labels, col_labels, xlabel="", ylabel="", title=None):
    """Paper 1's Fig 9-style pair of heatmaps (correlation to the identity | to the constant map)
    of seed bands: `bands[i][j]` is a `metrics.band_scores` dict; each cell reads "mean ± std"."""
    return band_heatmap_panels([(label, bands, name, 1.0) for name, label in BAND_PANELS], row_labels=row_labels,
                               col_labels=col_labels, xlabel=xlabel, ylabel=ylabel, title=title)


def band_curves(xs, bands, *, ax=None, label="", linestyle="-", marker="o", xlabel="", title=None, logx=False):
    """Correlation to the identity (blue) and to the constant map (orange) versus a swept variable `xs`:
    the seed band's mean as a line, mean ± std as a shaded band. `bands[i]` is a `metrics.band_scores`
    dict for `xs[i]`. Call once per series (different `label` / `linestyle`) on the same `ax`."""
    if ax is None:
        _, ax = plt.subplots(figsize=(5, 3.4))
    xs = np.asarray(xs, dtype=float)
    for (name, what), color in zip(BAND_PANELS, ("C0", "C1")):
        mean = np.array([b[name] for b in bands])
        std = np.array([b[f"{name}_std"] for b in bands])
        short = "identity" if name == "corr_identity" else "constant"
        ax.plot(xs, mean, linestyle=linestyle, marker=marker, color=color, markersize=4,
                label=f"{label} {short}".strip())
        ax.fill_between(xs, mean - std, mean + std, color=color, alpha=0.18, linewidth=0)
    if logx:
        ax.set_xscale("log", base=2)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("correlation (mean ± std over seeds)")
    ax.set_ylim(-0.05, 1.05)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    if title:
        ax.set_title(title, fontsize=10)
    return ax

# -- worker C (inside the ConvNets)

def layer_curves(ax, curves: dict, *, xlabel="layer", ylabel="", title=None, logy=False, reference=None,
                 first_layer: int = 0):
    """One curve per entry of `curves` (label -> (S, L) array: S seeds of a per-layer quantity, or (L,)),
    against the layer index `first_layer .. first_layer + L - 1`: the seeds' mean as a line, mean ± std
    shaded when S > 1. `reference` (label, (S, L) or (L,)) is drawn as paper 1 Fig 10's thick
    semi-transparent red line."""
    items = list(curves.items()) + ([reference] if reference is not None else [])
    for i, (label, values) in enumerate(items):
        v = np.atleast_2d(np.asarray(values, dtype=float))
        mean, std = np.nanmean(v, 0), (np.nanstd(v, 0) if len(v) > 1 else None)
        xs = np.arange(first_layer, first_layer + v.shape[1])
        is_ref = reference is not None and i == len(items) - 1
        style = dict(color="red", lw=6, alpha=0.35) if is_ref else dict(color=plt.cm.viridis(i / max(1, len(curves) - 1)),
                                                                        lw=1.4, marker="o", markersize=3)
        seeds = f" ({len(v)} seeds)" if len(v) > 1 else ""
        ax.plot(xs, mean, label=f"{label}{seeds}", **style)
        if std is not None:
            ax.fill_between(xs, mean - std, mean + std, color=style["color"], alpha=0.2, linewidth=0)
    if logy:
        ax.set_yscale("log")
    ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, ncol=1 + len(items) // 8)
    if title:
        ax.set_title(title, fontsize=10)
    return ax


# ---------------------------------------------------------------- paper 2: attractors

def spectrum_table(rows, columns) -> str:
    """A markdown table from a list of dicts (paper 2, Tables 1-2: measured beside the paper)."""
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(str(r[c]) for c in columns) + " |" for r in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------- paper 3: downsampling

def operator_heatmaps(mats: dict, *, title=None, ncols: int = 3, ranks: dict | None = None):
    """Small operator matrices (name -> (d, d)) side by side, red/blue in [-1, 1], values written in
    (paper 3, Fig 4: A_X of Network DS); `ranks` (name -> numerical rank, e.g. `linalg.numerical_rank`) adds
    each matrix's rank to its title."""
    n = len(mats)
    nrows = -(-n // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.3 * ncols, 3.1 * nrows), squeeze=False,
                             constrained_layout=True)
    for ax, (name, A) in zip(axes.flat, mats.items()):
        a = np.asarray(A, dtype=float)
        label = name if ranks is None else f"{name}: rank {ranks[name]}"
        heatmap(a, xlabels=range(a.shape[1]), ylabels=range(a.shape[0]), vmin=-1, vmax=1, cmap="RdBu_r",
                title=label, title_size=9, ax=ax, cbar=False, square=True)
        ax.tick_params(axis="y", labelrotation=0)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    fig.colorbar(axes.flat[0].collections[0], ax=axes, shrink=0.6)
    if title:
        fig.suptitle(title)
    return fig


def spectrum_panels(panels: dict, *, title=None, ylim=(1e-4, 3)):
    """Magnitudes of eigenvalues (already sorted by magnitude), log scale, one panel per entry of
    `panels` = {panel title: {curve label: eigenvalues}}, a gray line at 1 (paper 3, Fig 6)."""
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 3.4), squeeze=False, constrained_layout=True)
    for ax, (name, curves) in zip(axes[0], panels.items()):
        for label, vals in curves.items():
            v = torch.as_tensor(vals).abs().cpu().numpy()
            ax.semilogy(np.arange(1, len(v) + 1), np.maximum(v, 1e-8), label=label)
        ax.axhline(1, color="gray", lw=0.5)
        ax.set(xlabel="eigenvalue index", ylabel="|eigenvalue|", title=name, ylim=ylim)
        ax.legend()
    if title:
        fig.suptitle(title)
    return fig


# ---------------------------------------------------------------- paper 4: rho dynamics
# `runs` below is {initial norm: records} with records as memlib.rho.RhoRecorder writes them
# (None for a diverged run, skipped).

def init_label(norm: float) -> str:
    return f"init norm {norm:g}"


def rho_curves(ax, runs: dict, key: str, *, logy: bool = False, ylabel: str | None = None, style: str = "-",
               legend: bool = True):
    """One recorded series against the epoch per initial norm (colour C0, C1, ... by position)."""
    for i, (norm, r) in enumerate(runs.items()):
        if r is not None:
            ax.plot(r["epoch"], r[key], style, color=f"C{i}", label=init_label(norm), lw=1.2)
    ax.set_xlabel("epoch")
    ax.set_ylabel(ylabel or key)
    if logy:
        ax.set_yscale("log")
    if legend:
        ax.legend(fontsize=8)


def zoom_row(axes, epochs, curves: dict, *, windows=(0.02, 0.2, 1.0), ylabel: str = ""):
    """Paper 4's zoomed panels (Fig 2/3/6/10): the same curves over growing epoch windows (fractions
    of training), each panel marking the previous panel's domain and range with a dashed rectangle.

    `curves`: {label: (series, plot kwargs)} sharing `epochs`; the y range follows the first curve
    (a reference curve such as rho_eq, which jumps where f_n ~ 0 early on, is clipped to it).
    """
    from matplotlib.patches import Rectangle
    epochs = np.asarray(epochs, dtype=float)
    prev = None
    for k, (ax, frac) in enumerate(zip(axes, windows)):
        keep = np.arange(len(epochs)) < max(2, int(np.ceil(frac * len(epochs))))   # >= 2 points each
        end = epochs[keep][-1]
        lo, hi = np.inf, -np.inf
        for c, (name, (series, kw)) in enumerate(curves.items()):
            s = np.asarray(series, dtype=float)
            ax.plot(epochs[keep], s[keep], label=name, **{"lw": 1.2, **kw})
            finite = s[keep][np.isfinite(s[keep])]
            if finite.size and c == 0:
                lo, hi = min(lo, finite.min()), max(hi, finite.max())
        pad = 0.05 * (hi - lo) if hi > lo else 0.05 * abs(hi) + 1e-12
        ax.set_xlim(epochs[0], end)
        ax.set_ylim(lo - pad, hi + pad)
        if prev is not None:
            (x0, x1), (y0, y1) = prev
            ax.add_patch(Rectangle((x0, y0), x1 - x0, y1 - y0, fill=False, ls="--", lw=0.9, color="gray"))
        prev = (ax.get_xlim(), ax.get_ylim())
        ax.set_title(f"first {frac:.0%} of training" if frac < 1 else "all of training", fontsize=8)
        ax.set_xlabel("epoch")
    axes[0].set_ylabel(ylabel)
    axes[-1].legend(fontsize=7)


def sorted_margins(ax, records, *, title: str, n_snapshots: int = 5):
    """All training margins y_n f_n, sorted, at a few snapshot epochs (darker = earlier) and at the end.

    At an exactly interpolating solution every margin is 1/rho_eq: the curve would be horizontal."""
    snaps, epochs = records["snapshots"], records["snapshot_epochs"]
    pick = sorted(set(np.linspace(0, len(snaps) - 1, n_snapshots).astype(int)))
    for j, k in enumerate(pick):
        ax.plot(np.sort(snaps[k]), color=plt.cm.viridis(j / max(1, len(pick) - 1)), lw=1.2,
                label=f"epoch {epochs[k]:.0f}")
    ax.plot(np.sort(records["last_margins"]), "k--", lw=1.2, label=f"end (epoch {records['epoch'][-1]:.0f})")
    ax.axhline(0, color="gray", lw=0.5)
    ax.set_xlabel("training samples, sorted")
    ax.set_ylabel("margin y_n f_n")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)


def abs_f_histograms(ax, records, *, bins: int = 40, ylabel: str = "|f_n|"):
    """Paper 4, Fig 8: histogram of |f_n| (the normalized outputs) at every margin snapshot, as an
    image: x = epoch, y = |f_n|, brightness = number of training samples (log scale)."""
    f_abs = np.abs(np.asarray(records["snapshots"], dtype=float))           # (snapshots, N)
    edges = np.linspace(0, f_abs.max() * 1.02 + 1e-12, bins + 1)
    counts = np.stack([np.histogram(row, edges)[0] for row in f_abs], 1)    # (bins, snapshots)
    ep = np.asarray(records["snapshot_epochs"], dtype=float)
    im = ax.pcolormesh(np.append(ep, ep[-1] + (ep[-1] - ep[-2] if len(ep) > 1 else 1)), edges,
                       np.log1p(counts), cmap="magma", shading="flat")
    ax.set_xlabel("epoch")
    ax.set_ylabel(ylabel)
    return im


def seed_band(ax, epochs, series_list, *, label: str, color: str, logy: bool = False):
    """Mean over seeds as a line, min..max over seeds shaded; `series_list` one series per seed."""
    n = min(len(s) for s in series_list)
    a = np.asarray([np.asarray(s[:n], dtype=float) for s in series_list])  # (seeds, epochs)
    x = np.asarray(epochs[:n], dtype=float)
    ax.plot(x, a.mean(0), color=color, lw=1.3, label=f"{label} ({len(a)} seeds)")
    ax.fill_between(x, a.min(0), a.max(0), color=color, alpha=0.25, lw=0)
    ax.set_xlabel("epoch")
    if logy:
        ax.set_yscale("log")


def error_vs_rho(ax, groups: dict, *, title: str | None = None):
    """Paper 4, Observation 3: test error (last 10 % of epochs averaged) against the final rho, one point
    per run; `groups` {label: `rho.run_ends(records)`, a list of `rho.end_metrics` dicts}, one colour per label."""
    for i, (label, ends) in enumerate(groups.items()):
        ax.scatter([e["rho_end"] for e in ends], [e["test_error_end"] for e in ends], color=f"C{i}",
                   label=label, s=22)
    ax.set_xscale("log")
    ax.set_xlabel("final rho")
    ax.set_ylabel("test error")
    if title:
        ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
