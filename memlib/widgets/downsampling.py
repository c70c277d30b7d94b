"""Paper 3's explorer: a (non)downsampling conv autoencoder trained on k images, its spectrum, its top
eigenvectors as images and its output on a chosen probe.

`render_downsampling(network, n_images, probe, ...)` returns the figure (tests call it directly);
`downsampling_explorer(...)` puts the network (D / ND / NLD / NLND), the number of training images and
the probe in ipywidgets. Linear nets (D, ND) show the eigenvalues and eigenvectors of their operator
A_X (paper 3, Sec. 4-5); nonlinear nets (NLD, NLND) those of the Jacobian at the probe (the local
linear map). A net the notebook trained with the same settings is read from the cache; any other is
trained with fit's progress bar (and cached).
"""
from __future__ import annotations

import functools

import matplotlib.pyplot as plt
import numpy as np
import torch

from .. import data, linalg, metrics, models
from ..plot import unit_range
from ..recipes import paper3 as recipe
from ..runtime import check_choice
from ..harness.store import fit_cached
from . import explorer, status_line

NETWORKS = ("D", "ND", "NLD", "NLND")
PROBES = ("photo", "square", "noise", "training image")
# The defaults: notebook 03's nets at the quick profile (memlib.recipes.paper3), so the bare explorer's first view is
# a net the notebook's quick run cached. The notebook and the tour pass their profile's values.
SIZE = recipe.SIZE["quick"]
AB, ND_AB, NL_AB = recipe.AB["quick"], recipe.ND_AB, recipe.NL_AB["quick"]
STEPS, NL_STEPS = recipe.AB_STEPS["quick"], recipe.NL_STEPS["quick"]
LR, NL_LR = recipe.AB_LR["quick"], recipe.NL_LR["quick"]
UNTIL, INIT = recipe.AB_UNTIL, recipe.SEC5_INIT


def training_set(n_images: int, size: int, *, pool=None) -> torch.Tensor:
    """The first image of each of the classes 0..n_images-1 of `pool` = (x, y) (default: the embedded
    photos), resized to `size` and clipped to [0, 1]: (n_images, 3, size, size). The notebook's
    one- and two-image training sets are `training_set(1, s)` and `training_set(2, s)`."""
    x, y = pool if pool is not None else data.load_images("photos")
    classes = y.unique()
    if not 1 <= n_images <= len(classes):
        raise ValueError(f"n_images must be between 1 and {len(classes)}, got {n_images}")
    return data.resize(x[data.first_of_each(y, classes[:n_images].tolist())], size).clamp(0, 1)


def probe_image(kind: str, size: int, *, x_train=None, test_pool=None, seed: int = 0) -> torch.Tensor:
    """One probe (1, 3, size, size): a held-out photo, a white square, N(0, 1) noise or training image 1."""
    check_choice(kind, PROBES, "probe")
    if kind == "photo":
        x = test_pool if test_pool is not None else data.load_images("photos", split="test")[0]
        return data.resize(x[:1], size).clamp(0, 1)
    if kind == "square":
        return data.probes("squares", 1, (3, size, size), seed=seed)
    if kind == "noise":
        return torch.randn(1, 3, size, size, generator=torch.Generator().manual_seed(seed))
    return x_train[:1]


def network_builder(network: str, *, ab=AB, nd_ab=ND_AB, nl_ab=NL_AB, field=None):
    """The builder for D_{a,b} / ND_{a,b} (paper 3, Fig 6: ND_{4,4}) / NLD_{a,b} / NLND_{a,b}, with notebook 03's
    layers: `field` (None: `recipes.paper3.AB_FIELD`, the layers as the text states them, ND_{a,b} being D_{a,b}
    without the strides and the upsampling; `recipes.paper3.AB_FIELD_GLOBAL`: the departure measured beside)."""
    check_choice(network, NETWORKS, "network")
    a, b = {"D": ab, "ND": nd_ab}.get(network, nl_ab)
    return functools.partial(models.conv_autoencoder, a, b, downsample=network in ("D", "NLD"),
                             nonlinear=network.startswith("NL"), **(field or recipe.AB_FIELD))


def render_downsampling(network: str = "D", n_images: int = 1, probe: str = "noise", *, size: int = SIZE,
                        ab=AB, nd_ab=ND_AB, nl_ab=NL_AB, steps: int = STEPS, nl_steps: int = NL_STEPS,
                        lr: float = LR, nl_lr: float | None = NL_LR, until_loss: float = UNTIL, n_eig: int = 6,
                        seed: int = 0, init: str = INIT, pool=None, test_pool=None) -> plt.Figure:
    """Figure: training images, probe and the net's output (top left), |eigenvalues| (top right),
    the top `n_eig` eigenvectors' real and imaginary parts as images (bottom). Adam with `lr` for the
    linear nets and `nl_lr` (None: `lr`) for the nonlinear ones; `init` is the `models.initialize_`
    scheme (the notebook's SEC5_INIT, so its nets come from the cache). The defaults are notebook 03's
    quick profile (memlib.recipes.paper3)."""
    x = training_set(n_images, size, pool=pool)                                # (k, 3, s, s)
    build = network_builder(network, ab=ab, nd_ab=nd_ab, nl_ab=nl_ab)
    nonlinear = network.startswith("NL")
    fit_kw = dict(steps=nl_steps if nonlinear else steps, lr=(nl_lr or lr) if nonlinear else lr,
                  until_loss=until_loss, optimizer=recipe.OPTIMIZER)
    status = status_line(build, x, seed=seed, init=init, **fit_kw)
    model, hist = fit_cached(build, x, seed=seed, init=init, desc=f"{network} on {n_images} image(s)", **fit_kw)
    p = probe_image(probe, size, x_train=x, test_pool=test_pool, seed=seed)  # (1, 3, s, s)
    out = metrics.predict(model, p)
    if nonlinear:
        A, what = linalg.jacobian(model, p[0]).double().cpu(), "Jacobian at the probe"
    else:
        A, what = linalg.operator_matrix(model, tuple(x.shape[1:])), "operator A_X"
    vals, imgs = linalg.eigenimages(A, tuple(x.shape[1:]), k=n_eig)
    all_vals = linalg.spectrum(A).abs().numpy()

    n_top = len(x) + 2
    fig = plt.figure(figsize=(max(9.0, 1.25 * max(n_top, n_eig) + 4), 5.6))
    grid = fig.add_gridspec(3, max(n_top, n_eig) + 3)
    shown = [(xi, f"train {i + 1}") for i, xi in enumerate(x)] + [(p[0], f"probe: {probe}"), (out[0], "output")]
    for j, (img, label) in enumerate(shown):
        ax = fig.add_subplot(grid[0, j])
        ax.imshow(unit_range(img[None])[0].permute(1, 2, 0).numpy()), ax.set_xticks([]), ax.set_yticks([])
        ax.set_title(label, fontsize=8)
    ax = fig.add_subplot(grid[0, -3:])
    ax.semilogy(np.arange(1, len(all_vals) + 1), np.maximum(all_vals, 1e-8), ".", ms=3)
    ax.axhline(1, color="gray", lw=0.5)
    ax.set(xlabel="index", ylabel="|eigenvalue|", ylim=(1e-4, max(3.0, all_vals.max() * 1.2)))
    ax.set_title(f"spectrum of the {what}", fontsize=8)
    for row, (part, name) in enumerate(((imgs.real, "Re"), (imgs.imag, "Im")), start=1):
        for j in range(len(imgs)):
            ax = fig.add_subplot(grid[row, j])
            ax.imshow(unit_range(part[j:j + 1].float())[0].permute(1, 2, 0).numpy())
            ax.set_xticks([]), ax.set_yticks([])
            if row == 1:
                ax.set_title(f"|l{j + 1}|={abs(vals[j]):.2f}", fontsize=7)
            if j == 0:
                ax.set_ylabel(name)
    corr = metrics.correlation(out, x[:1]).item()
    fig.suptitle(f"{network} trained on {n_images} image(s): loss {hist.final_loss:.1e}, corr(output, train 1) "
                 f"{corr:+.2f}; top eigenvectors (min-max scaled)  [{status.split(' (')[0]}]", fontsize=9)
    return fig


def downsampling_explorer(**settings):
    """ipywidgets: network, number of training images (1 to the number of classes) and probe;
    `settings` go to `render_downsampling` (size, ab, steps, pool, ... as the notebook trained them)."""
    import ipywidgets as w
    pool = settings.get("pool")
    n_classes = len((pool if pool is not None else data.load_images("photos"))[1].unique())
    controls = {"network": w.Dropdown(options=NETWORKS, value="D", description="network"),
                "n_images": w.IntSlider(value=1, min=1, max=n_classes, description="# images"),
                "probe": w.Dropdown(options=PROBES, value="noise", description="probe")}
    return explorer(controls, functools.partial(render_downsampling, **settings),
                    title="Paper 3: downsampling and the eigenvectors of A_X")
