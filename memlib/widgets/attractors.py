"""Paper 2's explorer: iterate a trained digit autoencoder from a chosen start image.

`render_attractors(model, start, index, step, ...)` returns the figure (tests call it directly):
the iterate f^t(x0) at the slider's step t, its distance to the nearest training digit along the
whole trajectory (a marker at t), and that nearest training digit. `attractors_explorer(...)` puts
the autoencoder, the start (test digit / noise / square), which one, and the step in ipywidgets.
The autoencoders are the notebook's Fig 3a / 3b nets: trained with the same settings they are read
from the cache; otherwise fit trains them (progress bar) and caches them.
"""
from __future__ import annotations

import functools

import matplotlib.pyplot as plt
import numpy as np
import torch

from .. import data, dynamics, models
from ..plot.plot_grids import _to_image
from ..recipes import paper2 as recipe
from ..runtime import check_choice
from ..harness.store import fit_cached
from . import explorer, status_line

# name -> (training digits, weight layers, width): paper 2, Fig 3a (7 x 128 on 100) and 3b (14 x 128 on 20)
AUTOENCODERS = {"Fig 3b: 14 x 128 on 20 digits": (20, 14, 128), "Fig 3a: 7 x 128 on 100 digits": (100, 7, 128)}
STARTS = ("test digit", "noise", "square")
ACTIVATION = recipe.FIG3_ACTIVATION                                # notebook 02's Fig 3 recipe (memlib.recipes.paper2)
FIT = recipe.FIG3_FIT
STEPS = recipe.FIG3_STEPS["quick"]


def start_image(kind: str, index: int, shape, *, test_pool=None) -> torch.Tensor:
    """One start (1, *shape): test digit number `index`, uniform noise or a white square (seed `index`)."""
    check_choice(kind, STARTS, "start")
    if kind == "test digit":
        x = test_pool if test_pool is not None else data.load_images("digits", split="test")[0]
        return x[index % len(x)].unsqueeze(0)
    return data.probes("noise" if kind == "noise" else "squares", 1, shape, seed=index)


def render_attractors(model: str = "Fig 3b: 14 x 128 on 20 digits", start: str = "test digit", index: int = 0,
                      step: int = 0, *, iterations: int = 50, steps: int = STEPS, seed: int = 0,
                      autoencoders=None, activation: str = ACTIVATION, fit=None, train_pool=None,
                      test_pool=None) -> plt.Figure:
    """Figure: f^step(x0) | distance to the nearest training digit over 0..iterations | that digit."""
    autoencoders = autoencoders or AUTOENCODERS
    check_choice(model, tuple(autoencoders), "autoencoder")
    if not 0 <= step <= iterations:
        raise ValueError(f"step must be between 0 and {iterations}, got {step}")
    n, layers, width = autoencoders[model]
    x_all = train_pool if train_pool is not None else data.load_images("digits")[0]
    x_train = x_all[:n]                                                     # (n, 1, h, w)
    d = int(np.prod(x_train.shape[1:]))
    build = functools.partial(models.autoencoder_fcn, d, layers, width=width, activation=activation)
    fit = fit or FIT
    status = status_line(build, x_train, seed=seed, steps=steps, **fit)
    net, hist = fit_cached(build, x_train, seed=seed, steps=steps, desc=model, **fit)
    x0 = start_image(start, index, tuple(x_train.shape[1:]), test_pool=test_pool)
    traj = dynamics.iterate(net, x0, iterations)[:, 0]                      # (T, 1, h, w)
    idx, dist = dynamics.nearest(traj, x_train)                             # (T,), (T,)

    fig, axes = plt.subplots(1, 3, figsize=(10, 3.2), gridspec_kw=dict(width_ratios=[1, 2.2, 1]))
    axes[0].imshow(np.clip(_to_image(traj[step]), 0, 1), cmap="gray", vmin=0, vmax=1)
    axes[0].set_title(f"f^{step}(x0)", fontsize=10)
    axes[1].semilogy(range(iterations + 1), dist.clamp_min(1e-12), "-", color="tab:blue")
    axes[1].semilogy([step], [max(dist[step].item(), 1e-12)], "o", color="tab:red")
    axes[1].set_xlabel("iteration t"), axes[1].set_ylabel("distance to nearest training digit")
    axes[1].set_title(f"t = {step}: distance {dist[step].item():.2e}", fontsize=10)
    axes[2].imshow(np.clip(_to_image(x_train[idx[step]]), 0, 1), cmap="gray", vmin=0, vmax=1)
    axes[2].set_title(f"nearest training digit #{idx[step].item()}", fontsize=10)
    for ax in (axes[0], axes[2]):
        ax.set_xticks([]), ax.set_yticks([])
    fig.suptitle(f"{model} (training loss {hist.final_loss:.1e}; {status}) — start: {start} {index}", fontsize=10)
    fig.tight_layout()
    return fig


def attractors_explorer(*, iterations: int = 50, steps: int = STEPS, seed: int = 0, autoencoders=None,
                        activation: str = ACTIVATION, fit=None, train_pool=None, test_pool=None):
    """ipywidgets: autoencoder, start kind, start number and the iteration slider. The notebook passes
    its own `autoencoders` (name -> (digits, layers, width)), `activation`, `fit` settings, `steps` and data
    so that it reads its cache."""
    import ipywidgets as w
    autoencoders = autoencoders or AUTOENCODERS
    controls = {
        "model": w.Dropdown(options=list(autoencoders), description="autoencoder"),
        "start": w.Dropdown(options=list(STARTS), description="start"),
        "index": w.IntSlider(value=0, min=0, max=49, description="which"),
        "step": w.IntSlider(value=0, min=0, max=iterations, description="iteration t"),
    }
    render = functools.partial(render_attractors, iterations=iterations, steps=steps, seed=seed,
                               autoencoders=autoencoders, activation=activation, fit=fit, train_pool=train_pool,
                               test_pool=test_pool)
    return explorer(controls, render,
                    title="Paper 2: iterate a trained autoencoder from a start image")
