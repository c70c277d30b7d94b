"""The teaching tour (`notebooks/00_tour.ipynb`, served by `python -m memlib serve`): one explorer per paper.

Each function here builds a paper's explorer with exactly the arguments its notebook's explorer cell passes
under the tour's profile (`smoke` or `quick`: the tour notebook's `profile` parameter, else `$MEMLIB_TOUR_PROFILE`, else quick), on the data the
notebook reads with `data_root="auto"` (MNIST where `data/` holds it, else the embedded sets: offline). Same
arguments, same data: the models a batch run (`./run_all.sh --profile quick`) cached are cache hits here, and
what is missing trains in the page with its progress bar. The cache is the batch run's
(`store.results_root("results") / "cache"`, or `$MEMLIB_CACHE`).

The tour is no reproduction: `python -m memlib run` never executes it and the report never counts it
(`memlib.cli.common.notebooks()` leaves out `TOUR`).

Its explorers draw on the kernel's render thread (`memlib.widgets.renders_in_background`): a first view that trains
for minutes neither holds up the next cells nor lets Voila's connection time out. `EXPLORERS` lists them for
`python -m memlib serve`, which finds the models their first views lack before it opens the page.
"""
from __future__ import annotations

import functools
import os

from .. import data
from ..harness.paths import TOUR   # noqa: F401 - its notebook's name, kept in paths so the command line need not load the tour
from ..recipes import paper1 as R1
from ..recipes import paper2 as R2
from ..recipes import paper3 as R3
from ..recipes import paper4 as R4
from ..runtime import MemlibError, pick
from . import identity as W1   # the explorers' modules: their functions read at each call
from . import attractors as W2
from . import downsampling as W3
from . import rho as W4
from . import renders_in_background

PROFILES = ("smoke", "quick")


def profile(chosen: str | None = None) -> str:
    """The tour's profile: `chosen` (the tour notebook's `profile` parameter) when given, else
    `$MEMLIB_TOUR_PROFILE` (what `memlib serve --profile` sets), else quick (the batch run's default)."""
    p = chosen or os.environ.get("MEMLIB_TOUR_PROFILE", "quick")
    if p not in PROFILES:
        raise MemlibError(f"tour profile {p!r}: the tour runs the smoke or the quick profile's explorers")
    return p


def _drawn_in_background(build):
    """A tour explorer's builder whose explorer draws on the kernel's render thread (nothing else runs in the
    tour's kernel, so a render beside its cells disturbs nothing)."""
    @functools.wraps(build)
    def built(*args, **kwargs):
        with renders_in_background():
            return build(*args, **kwargs)
    return built


def _digits_root():
    """As the notebooks' `run.dataset("mnist", fallback="digits")` with data_root="auto": (name, root)."""
    root, _ = data.resolve_root("auto")
    return ("mnist", root) if data.holds(root, "mnist") else ("digits", None)


@_drawn_in_background
def identity(profile_name: str | None = None):
    """Paper 1's explorer as notebook 01 builds it (its settings from memlib.recipes.paper1)."""
    p = profile(profile_name)
    _, root = _digits_root()
    x_img, _ = data.training_digit(size=28, root=root)
    panel, names = data.probe_panel(x_img, root=root, seed=0)
    depths, width, x_train = pick(p, **R1.DEPTHS), pick(p, **R1.WIDTH), data.standardize(x_img)
    return W1.identity_explorer(x_train, data.standardize(panel),
                                steps={"convnet": pick(p, **R1.DEPTH_STEPS), "fcn": pick(p, **R1.FCN_STEPS)},
                                recipes={"convnet": R1.depth_fit(p, x_train)},
                                clip_grad_norm=pick(p, **R1.SGD_FIT)["clip_grad_norm"],   # the FCNs' SGD
                                depth=5 if 5 in depths else depths[-1],
                                channels=pick(p, **R1.CHANNELS), max_depth=max(20, max(depths)),
                                channel_choices=(4, 8, 16, 32, 64, 128, width), names=names)


@_drawn_in_background
def attractors(profile_name: str | None = None):
    """Paper 2's explorer as notebook 02 builds it (the Fig 3a / 3b digit autoencoders, recipe: memlib.recipes.paper2):
    its first view is the first net of the notebook's Fig 3 band (seed 0 + the band's first offset)."""
    p = profile(profile_name)
    name, root = _digits_root()
    x_train_all, _ = data.load_images(name, root=root)
    x_test_all, _ = data.load_images(name, split="test", root=root)
    nets = pick(p, **R2.FIG3_NETS)
    label = {"fig3a": "Fig 3a", "fig3b": "Fig 3b"}
    return W2.attractors_explorer(iterations=50, steps=pick(p, **R2.FIG3_STEPS), seed=R2.fig3_seeds(p, 0)[0],
                                  activation=R2.FIG3_ACTIVATION, fit=R2.FIG3_FIT,
                                  autoencoders={f"{label[k]}: {layers} x {width} on {n} digits": (n, layers, width)
                                                for k, (n, layers, width) in sorted(nets.items(), reverse=True)},
                                  train_pool=x_train_all, test_pool=x_test_all)


@_drawn_in_background
def downsampling(profile_name: str | None = None):
    """Paper 3's explorer as notebook 03 builds it (recipe: memlib.recipes.paper3; smoke and quick train on the
    embedded photos)."""
    p = profile(profile_name)
    return W3.downsampling_explorer(size=pick(p, **R3.SIZE), ab=pick(p, **R3.AB), nd_ab=R3.ND_AB,
                                    nl_ab=pick(p, **R3.NL_AB), steps=pick(p, **R3.AB_STEPS),
                                    nl_steps=pick(p, **R3.NL_STEPS), lr=pick(p, **R3.AB_LR),
                                    nl_lr=pick(p, **R3.NL_LR), until_loss=R3.AB_UNTIL, seed=0,
                                    init=R3.SEC5_INIT, pool=data.load_images("photos"),
                                    test_pool=data.load_images("photos", split="test")[0])


@_drawn_in_background
def rho(profile_name: str | None = None):
    """Paper 4's explorer as notebook 04 builds it (recipe: memlib.recipes.paper4): the same binary task
    (`recipe.binary_data`: MNIST at recipe.SIDE where `data/` holds it, else the embedded digits)."""
    p = profile(profile_name)
    name, root = _digits_root()
    x, y = R4.binary_data(name, p, root=root)                                  # (N, C, H, W), (N, 1)
    x_test, y_test = R4.binary_data(name, p, root=root, split="test")
    return W4.rho_explorer(x, y, epochs=pick(p, **R4.EPOCHS), width=pick(p, **R4.WIDTH),
                           channels=pick(p, **R4.CHANNELS), x_test=x_test, y_test=y_test, seed=0,
                           norms=R4.norms(p), lr_bnwd=pick(p, **R4.LR_WD))


# the tour's explorers in its order, by the title of their paper (`python -m memlib serve` checks their first views)
EXPLORERS = {"Paper 1": identity, "Paper 2": attractors, "Paper 3": downsampling, "Paper 4": rho}
