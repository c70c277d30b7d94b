"""Paper 1's explorer: train a net on the single digit and see its predictions on the standard probes.

`render_identity(...)` is the plain function (values -> matplotlib Figure); `identity_explorer(...)`
lays ipywidgets controls over it. A configuration the notebook already trained is read from the cache
(`store.fit_cached` with the notebook's exact arguments), anything else is trained with fit's progress
bar and cached, so moving back to it is instant.
"""
from __future__ import annotations

import functools

import torch

from .. import data, metrics, models, plot
from ..runtime import MemlibError, check_choice
from ..harness.store import fit_cached
from . import explorer, status_line

ARCHITECTURES = ("convnet", "fcn")
INITS = ("paper_default", "default", "xavier_normal", "xavier_uniform", "kaiming_normal", "kaiming_uniform")   # Fig 29
# paper 1, App. B: SGD lr 0.01, momentum 0.9; App. H.3 / Fig 30: Adagrad, Adamax 0.001, Adam, RMSprop 0.0001
OPTIMIZER_LR = {"sgd": 0.01, "adagrad": 0.001, "adamax": 0.001, "adam": 0.0001, "rmsprop": 0.0001}


def builder(architecture: str, depth: int, channels: int, shape) -> functools.partial:
    """The model builder the notebook uses for this choice: `convnet(depth, channels=channels)`, or a
    ReLU `fcn` with `depth` weight layers (depth - 1 hidden) of width `channels`."""
    check_choice(architecture, ARCHITECTURES, "architecture")
    if depth < 1:
        raise MemlibError(f"depth must be >= 1, got {depth}")
    if architecture == "convnet":
        return functools.partial(models.convnet, depth, channels=channels)
    d = int(torch.tensor(shape).prod())
    return functools.partial(models.fcn, d, depth - 1, width=channels, activation="relu", bias=True)


def fit_arguments(optimizer: str, *, steps: int, clip_grad_norm=None, schedule: str = "stagewise",
                  recipe: dict | None = None) -> dict:
    """`fit` keywords for `optimizer` at paper 1's learning rate. `recipe`: the notebook's fit keywords for
    this architecture (memlib.recipes.paper1); the optimizer it names gets exactly those, so the notebook's
    models are cache hits. Without one, SGD gets `lr=0.01, momentum=0.9` with no `optimizer=` key."""
    check_choice(optimizer, tuple(OPTIMIZER_LR), "optimizer")
    if recipe is not None and recipe.get("optimizer", "sgd") == optimizer:
        return {k: v for k, v in recipe.items() if k != "init"} | {"steps": steps}   # init: the explorer's own choice
    kw = dict(steps=steps, lr=OPTIMIZER_LR[optimizer], schedule=schedule, clip_grad_norm=clip_grad_norm)
    if optimizer == "sgd":
        kw["momentum"] = 0.9
    else:
        kw["optimizer"] = optimizer
    return kw


def render_identity(architecture: str = "convnet", depth: int = 5, channels: int = 32, init: str = "default",
                    optimizer: str = "sgd", *, x_train: torch.Tensor, probes: torch.Tensor, steps: dict,
                    clip_grad_norm=None, recipes: dict | None = None, seed: int = 0, names=None, scale: float = 0.9):
    """The prediction grid of one trained net on `probes` (N, 1, H, W, standardized like `x_train`):
    first row the probes, second the predictions; the title says whether the model came from the
    cache or was trained now, and its correlation to the identity / constant map on the probes.

    `steps`: training steps per architecture, e.g. {"convnet": 1500, "fcn": 600}; `recipes`: the notebook's
    fit keywords per architecture (e.g. {"convnet": recipes.paper1 CONVNET_FIT at the profile}), see `fit_arguments`.
    """
    check_choice(init, INITS, "initialization")
    build = builder(architecture, int(depth), int(channels), x_train.shape[1:])
    kw = fit_arguments(optimizer, steps=steps[architecture], clip_grad_norm=clip_grad_norm,
                       recipe=(recipes or {}).get(architecture))
    status = status_line(build, x_train, seed=seed, init=init, **kw)
    model, hist = fit_cached(build, x_train, seed=seed, init=init, desc=f"{architecture} depth {depth}", **kw)
    pred = metrics.predict(model, probes)
    s = metrics.identity_constant_scores(model, probes[1:], x_train)      # the probes but the training digit
    show = lambda t: data.unstandardize(t).clamp(0, 1)                    # noqa: E731
    label = f"{architecture}, {depth} layers, {channels} {'channels' if architecture == 'convnet' else 'units'}"
    title = (f"{label}, init {init}, {optimizer}: {status.rstrip(' .')}\n"
             f"final loss {hist.final_loss:.2g}; corr to identity {s['corr_identity']:.2f}, "
             f"to constant {s['corr_constant']:.2f}")
    return plot.image_grid([show(probes), show(pred)], row_labels=["input", "prediction"], col_labels=names,
                           title=title, scale=scale)


def identity_explorer(x_train: torch.Tensor, probes: torch.Tensor, *, steps: dict, clip_grad_norm=None,
                      recipes: dict | None = None, depth: int = 5, channels: int = 32, channel_choices=(4, 8, 16, 32, 64, 128),
                      max_depth: int = 20, seed: int = 0, names=None):
    """ipywidgets controls (architecture, depth, channels/width, init, optimizer) over `render_identity`.
    Starts at (`convnet`, `depth`, `channels`, the ConvNet recipe's init and optimizer (PyTorch's default and SGD
    without one)):
    pass a setting the notebook trained."""
    import ipywidgets as w
    choices = sorted(set(channel_choices) | {channels})
    controls = {
        "architecture": w.Dropdown(options=ARCHITECTURES, value="convnet", description="net"),
        "depth": w.IntSlider(value=depth, min=1, max=max_depth, description="layers"),
        "channels": w.Dropdown(options=choices, value=channels, description="channels/width"),
        "init": w.Dropdown(options=INITS, value=(recipes or {}).get("convnet", {}).get("init", "default"),
                           description="init"),
        "optimizer": w.Dropdown(options=tuple(OPTIMIZER_LR), description="optimizer",
                                value=(recipes or {}).get("convnet", {}).get("optimizer", "sgd")),
    }
    render = functools.partial(render_identity, x_train=x_train, probes=probes, steps=steps,
                               clip_grad_norm=clip_grad_norm, recipes=recipes, seed=seed, names=names)
    return explorer(controls, render, title="Paper 1: what does a net trained on one digit do to other inputs?")
