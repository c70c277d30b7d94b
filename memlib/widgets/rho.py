"""Paper 4's explorer: rho(t), mean |f_n| and the margins for a chosen regime and initial norm.

`render_rho(batchnorm, weight_decay, init_norm, x=..., y=..., ...)` returns the figure (tests call it
directly); `rho_explorer(x, y, ...)` puts BN on/off, weight decay and initial norm in ipywidgets.
A run trained by the notebook with the same data and settings is read from the cache; any other
is trained with fit's progress bar (and cached for next time).
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from .. import rho as R
from ..recipes import paper4 as recipe
from . import explorer, status_line

# The explorer's defaults: notebook 04's runs at the quick profile (memlib.recipes.paper4), so the bare explorer's
# first view is a run the notebook's quick run cached. The notebook and the tour pass their profile's values.
EPOCHS, WIDTH, CHANNELS = recipe.EPOCHS["quick"], recipe.WIDTH["quick"], recipe.CHANNELS["quick"]
NORMS = tuple(recipe.norms("quick"))
WEIGHT_DECAYS = (0.0, recipe.WD)
LR_BNWD = recipe.LR_WD["quick"]


def paper_lr(batchnorm: bool, weight_decay: float) -> float:
    """The paper's learning rate for a regime (memlib.recipes.paper4): 0.01 with BN and no weight decay (Fig 5),
    else 0.1 (Fig 1: BN + WD; Fig 9: neither)."""
    if batchnorm:
        return recipe.LR_BN if weight_decay == 0 else recipe.LR_WD["paper"]
    return recipe.LR_NONE


def run_settings(batchnorm: bool, weight_decay: float, init_norm: float, *, epochs: int, width: int,
                 channels: int, conv: bool | None = None, lr: float | None = None) -> dict:
    """Keywords for `rho.train_classifier` as the notebook uses them: the convolutional net (with
    `channels`, the recipe's ConvNet epochs: `recipe.conv_epochs`) for BN without weight decay (Fig 5), the fully
    connected one (with `width`; BatchNorm affine with weight decay, as the recipe's BN_AFFINE_WD) otherwise."""
    conv = (batchnorm and weight_decay == 0) if conv is None else conv
    affine = {"bn_affine": True} if batchnorm and weight_decay > 0 and recipe.BN_AFFINE_WD else {}
    return dict(init_norm=init_norm, epochs=recipe.conv_epochs(epochs) if conv else epochs, weight_decay=weight_decay,
                batchnorm=batchnorm, lr=paper_lr(batchnorm, weight_decay) if lr is None else lr,
                width=channels if conv else width, **({"conv": True} if conv else {}), **affine)


def render_rho(batchnorm: bool, weight_decay: float, init_norm: float, *, x, y, epochs: int, width: int = WIDTH,
               channels: int = CHANNELS, conv: bool | None = None, lr: float | None = None, seed: int = 0,
               x_test=None, y_test=None) -> plt.Figure:
    """Figure of one run: rho(t) with eq. 5's rho_eq, mean |f_n| over training, final margin histogram.

    x (N, ...) inputs of unit norm, y (N, 1) labels +-1 (`rho.binary_task`)."""
    kw = run_settings(batchnorm, weight_decay, init_norm, epochs=epochs, width=width, channels=channels,
                      conv=conv, lr=lr)
    build, fit_kwargs = R.classifier_run(x, y, x_test=x_test, y_test=y_test, **kw)
    status = status_line(build, x, y, seed=seed, **fit_kwargs)
    _, r = R.train_classifier(x, y, seed=seed, x_test=x_test, y_test=y_test,
                              desc=f"rho(0)={init_norm:g}, wd={weight_decay:g}", **kw)
    regime = ("BN" if batchnorm else "no BN") + (f" + WD {weight_decay:g}" if weight_decay else ", no WD")
    arch = "ConvNet" if kw.get("conv") else "fully connected"
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.4))
    if r is None:
        for ax in axes:
            ax.text(0.5, 0.5, "training diverged", ha="center", va="center", transform=ax.transAxes)
    else:
        ax = axes[0]
        ax.plot(r["epoch"], r["rho_bn"], label="rho = ||W_L||" if batchnorm else "rho (all layers)")
        ax.plot(r["epoch"], r["rho_eq"], "k:", lw=1, label="rho_eq (eq. 5)")
        ax.set_yscale("log")
        ax.set_xlabel("epoch"), ax.set_ylabel("rho"), ax.legend(fontsize=8)
        ax = axes[1]
        ax.plot(r["epoch"], r["mean_abs_f"], color="C1")
        ax.set_xlabel("epoch"), ax.set_ylabel("mean |f_n|")
        ax = axes[2]
        m = np.asarray(r["last_margins"])
        ax.hist(m, bins=30, color="C2")
        ax.axvline(0, color="gray", lw=0.8)
        ax.set_xlabel("margin y_n f_n at the end"), ax.set_ylabel("training samples")
        ax.set_title(f"train acc {r['acc'][-1]:.0%}, spread std/mean {np.std(m, ddof=1) / np.mean(m):.2f}",
                     fontsize=9)
    fig.suptitle(f"{regime}, {arch}, initial norm {init_norm:g}, lr {kw['lr']:g}, {epochs} epochs — {status}",
                 fontsize=10)
    fig.tight_layout()
    return fig


def rho_explorer(x, y, *, epochs: int = EPOCHS, width: int = WIDTH, channels: int = CHANNELS, norms=NORMS,
                 weight_decays=WEIGHT_DECAYS, x_test=None, y_test=None, seed: int = 0,
                 lr_bnwd: float | None = LR_BNWD):
    """ipywidgets: BN on/off, weight decay, initial norm -> `render_rho` (starts at BN + WD 0.01, norm 0.1).
    `lr_bnwd`: the lr for BN + weight decay (default: the notebook's quick profile's, the paper's 0.1).
    The defaults are notebook 04's quick profile (memlib.recipes.paper4)."""
    import ipywidgets as w
    controls = {
        "batchnorm": w.Checkbox(value=True, description="BatchNorm"),
        "weight_decay": w.Dropdown(options=list(weight_decays), value=0.01 if 0.01 in weight_decays
                                   else weight_decays[0], description="weight decay"),
        "init_norm": w.Dropdown(options=list(norms), value=norms[0], description="initial norm"),
    }

    def render(batchnorm, weight_decay, init_norm):
        lr = lr_bnwd if batchnorm and weight_decay > 0 else None
        return render_rho(batchnorm, weight_decay, init_norm, x=x, y=y, epochs=epochs, width=width,
                          channels=channels, seed=seed, x_test=x_test, y_test=y_test, lr=lr)

    return explorer(controls, render, title="Paper 4: rho dynamics under the square loss")
