"""The cache key (memlib.harness.cachekey, hashed by store.Cache.key): every configuration the notebooks train keeps the
key it had before callables were keyed by name (literal keys from the code before the change: the committed caches
and baselines depend on them), and a callable argument is keyed by its `cache_key` or module-qualified name, or
refused in one error that names the argument; never a key that no other process can reproduce (a function's text
holds its address)."""
import functools
import hashlib
import json
import math

import numpy as np
import pytest
import torch

from memlib.harness import cachekey, store
from memlib import models
from memlib.runtime import MemlibError


def _x(*shape):
    """Exact on every machine: small integers over a power of two."""
    return (torch.arange(math.prod(shape), dtype=torch.float32) % 97).reshape(shape) / 64


class Recorder:
    """Stands for rho.RhoRecorder: a callback keyed by its `cache_key`."""
    cache_key = ("RhoRecorder(x=9939ddf5b601e80c, y=8dd0cb0000000000, wd=0.0005, test=None, max_snapshots=64, "
                 "nc=True, v=2)")

    def __call__(self, state):
        pass


class Unkeyed:
    """A callback that does not say what it computes with."""

    def __call__(self, state):
        pass


def stop_early(state):
    """A module-level callback function."""


def halving(step, steps):
    """A module-level schedule function."""
    return 0.5 ** (step * 4 // steps)


X_IMG, X_VEC = _x(4, 1, 8, 8), _x(6, 64)
Y = (torch.arange(6) % 2 * 2 - 1).float().reshape(6, 1)
CONV5 = functools.partial(models.convnet, 5, channels=32)
SGD = dict(lr=0.01, momentum=0.9, schedule="stagewise")                    # paper 1's (memlib/recipes/paper1.py)
ADAM = dict(optimizer="adam", lr=0.0001, schedule="stagewise", clip_grad_norm=None)
# (name, build, x, target, seed, init, fit keywords, the key before this change): the kinds of configuration the
# notebooks train (every `fit` argument found in the committed caches' 1,466 entries: steps, lr, callbacks,
# schedule, optimizer, momentum, clip_grad_norm (a number or None), until_loss, parameters, batch_size,
# weight_decay, log_every), and values JSON lacks (a tuple, numpy scalars)
CASES = [
    ("p1 convnet band, quick SGD", CONV5, X_IMG, None, 0, "default",
     dict(steps=2000, **SGD, clip_grad_norm=1.0, progress=False, desc="Fig 3a"), "aebda84aeca8915336482592"),
    ("p1 convnet, paper SGD", CONV5, X_IMG, None, 2, "default", dict(steps=2_000_000, **SGD, clip_grad_norm=None),
     "810ccfcb9ebb4f618c12eaa7"),
    ("p1 depth sweep, Adam until_loss", functools.partial(models.convnet, 20, channels=32), X_IMG, None, 1,
     "default", dict(**ADAM, until_loss=0.0012345678901234567, steps=20_000), "dd39d0d3aaf1d6e95655c97d"),
    ("p1 convnet kernel 3", functools.partial(models.convnet, 5, channels=32, kernel=3), X_IMG, None, 0, "default",
     dict(steps=2000, **ADAM), "07a73dad72b1f656b322ec5c"),
    ("p1 fcn, top layer trained", functools.partial(models.fcn, 64, 6, width=1024), X_VEC, None, 0,
     "xavier_uniform", dict(steps=600, **SGD, clip_grad_norm=1.0, parameters=["net.2.weight"]),
     "16e78991ec05687e21344812"),
    ("numpy step count and rate", functools.partial(models.fcn, 64, 1, width=64), X_VEC, None, 0, "default",
     dict(steps=np.int64(40), lr=np.float64(0.01), momentum=0.9), "63d0ad5727748caf5bf50bcd"),
    ("p2 autoencoder, final_decay", functools.partial(models.autoencoder_fcn, 64, 7, width=128,
                                                      activation="leaky_relu"),
     X_VEC, None, 0, "default", dict(steps=40_000, optimizer="adam", lr=1e-3, schedule="final_decay"),
     "00d24cb2a5beeadff344863a"),
    ("p4 classifier with recorder", functools.partial(models.classifier, (64,), init_norm=3.0), X_VEC, Y, 0,
     "default", dict(steps=500, lr=0.1, momentum=0.9, weight_decay=5e-4, batch_size=128, log_every=1,
                     callbacks=[Recorder()], desc="rho"), "9731bd55f925831b87a72178"),
    ("tuple parameters", functools.partial(models.fcn, 64, 2, width=32), X_VEC, None, 3, "default",
     dict(steps=10, lr=0.5, parameters=("net.0.weight",), clip_grad_norm=1.0), "e6e97fa1e3f8e21d49f83d4c"),
]


def _key_before(build, x, target, seed, init, fit_kwargs) -> str:
    """The key as the code computed it before callables were keyed (store._config and Cache.key at 12f0f00)."""
    key_kwargs = {k: v for k, v in fit_kwargs.items() if k not in ("progress", "desc", "callbacks")}
    key_kwargs["callbacks"] = [getattr(cb, "cache_key", type(cb).__name__) for cb in fit_kwargs.get("callbacks", ())]
    b = {"fn": f"{build.func.__module__}.{build.func.__qualname__}", "args": list(build.args),
         "kwargs": dict(build.keywords)}
    config = {"build": b, "seed": seed, "init": init, "x": store.tensor_digest(x),
              "target": None if target is None else store.tensor_digest(target), "fit": key_kwargs}
    blob = json.dumps({"v": store.CACHE_VERSION, **config}, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


@pytest.mark.parametrize("name, build, x, target, seed, init, kw, before", CASES, ids=[c[0] for c in CASES])
def test_every_notebook_configuration_keeps_its_key(name, build, x, target, seed, init, kw, before):
    assert store.cache_key(build, x, target, seed=seed, init=init, **kw) == before
    assert _key_before(build, x, target, seed, init, kw) == before


def test_the_arguments_that_only_change_how_a_training_shows_are_not_keyed():
    key = store.cache_key(CONV5, X_IMG, steps=10, lr=0.1)
    assert store.cache_key(CONV5, X_IMG, steps=10, lr=0.1, progress=False, desc="a bar") == key
    assert set(cachekey.NOT_KEYED) == {"progress", "desc"}
    assert store.cache_key(CONV5, X_IMG, steps=10, lr=0.2) != key


def test_a_module_level_function_is_keyed_by_its_qualified_name_the_same_in_every_process():
    key = store.cache_key(CONV5, X_IMG, steps=10, lr=0.1, schedule=halving)
    config = store._config(CONV5, X_IMG, None, 0, "default", dict(steps=10, lr=0.1, schedule=halving))
    assert config["fit"]["schedule"] == f"{__name__}.halving"
    assert store.cache_key(CONV5, X_IMG, steps=10, lr=0.1, schedule=functools.partial(halving)) != key
    cb = store._config(CONV5, X_IMG, None, 0, "default", dict(steps=1, lr=0.1, callbacks=[stop_early]))
    assert cb["fit"]["callbacks"] == [f"{__name__}.stop_early"]          # no longer "function", shared by all
    builtin = store._config(CONV5, X_IMG, None, 0, "default", dict(steps=1, lr=0.1, loss=math.fsum))
    assert builtin["fit"]["loss"] == "math.fsum"


def test_a_cache_key_attribute_keys_a_callable_and_a_partial_is_keyed_by_its_parts():
    rec = store._config(CONV5, X_IMG, None, 0, "default", dict(steps=1, lr=0.1, callbacks=[Recorder()]))
    assert rec["fit"]["callbacks"] == [Recorder.cache_key]
    part = store._config(CONV5, X_IMG, None, 0, "default",
                         dict(steps=1, lr=0.1, schedule=functools.partial(halving, steps=4)))
    assert part["fit"]["schedule"] == {"fn": f"{__name__}.halving", "args": [], "kwargs": {"steps": 4}}
    relu = functools.partial(models.fcn, 64, 1, width=8, activation=torch.nn.functional.relu)
    sig = store._config(relu, X_VEC, None, 0, "default", dict(steps=1, lr=0.1))   # a builder's function, by name too
    assert sig["build"]["kwargs"]["activation"] == "torch.nn.functional.relu"


def test_a_callable_that_cannot_be_named_is_refused_naming_its_argument():
    with pytest.raises(MemlibError, match="fit argument 'schedule'.*lambda"):
        store.cache_key(CONV5, X_IMG, steps=10, lr=0.1, schedule=lambda step, steps: 1.0)

    def nested(step, steps):
        return 1.0
    with pytest.raises(MemlibError, match="fit argument 'schedule'"):
        store.is_cached(CONV5, X_IMG, steps=10, lr=0.1, schedule=nested)
    with pytest.raises(MemlibError, match=r"fit argument 'callbacks'\[1\].*Unkeyed.*cache_key"):
        store.cache_key(CONV5, X_IMG, steps=10, lr=0.1, callbacks=[Recorder(), Unkeyed()])
    with pytest.raises(MemlibError, match="fit argument 'loss'.*MSELoss"):    # its text omits `reduction`
        store.cache_key(CONV5, X_IMG, steps=10, lr=0.1, loss=torch.nn.MSELoss(reduction="sum"))
    with pytest.raises(MemlibError, match="the builder's keywords"):
        store.cache_key(functools.partial(models.fcn, 64, 1, width=8, activation=lambda t: t), X_VEC, steps=1, lr=0.1)
    with pytest.raises(MemlibError, match=r"fit argument 'parameters'\[0\]"):     # an object named by its address
        store.cache_key(CONV5, X_IMG, steps=10, lr=0.1, parameters=[object()])


X_RGB = _x(2, 3, 16, 16)
# Paper 3's builders moved from memlib.models to memlib.models.downsampling_nets (issue 29): their keys, computed at
# d185128 before the move, must not change (every cached notebook 03 model would retrain)
MOVED = [("D_{16,48} nonlinear", functools.partial(models.conv_autoencoder, 16, 48, nonlinear=True), X_RGB, 1, "default",
          dict(steps=3000, optimizer="adam", lr=1e-3, until_loss=1e-5), "d4ef4f9ad4ada70e5ac060fd"),
         ("ND, 32 filters", functools.partial(models.network_d, False, filters=32), X_RGB, 0, "xavier_uniform",
          dict(steps=2000, optimizer="adam", lr=1e-3), "b3d08133343c2fd347269c24"),
         ("DS, a bare function", models.network_ds, _x(5, 1, 2, 2), 0, "default",
          dict(steps=2000, optimizer="adam", lr=1e-3), "4c1a4a41a646384f5c367100"),
         ("U-Net", functools.partial(models.unet, levels=3, channels=32), X_RGB, 0, "default",
          dict(steps=2000, optimizer="adam", lr=1e-3), "06642bcc6c03f4128592ef1a")]


@pytest.mark.parametrize("name, build, x, seed, init, kw, before", MOVED, ids=[c[0] for c in MOVED])
def test_a_moved_builder_keeps_its_key(name, build, x, seed, init, kw, before):
    assert store.cache_key(build, x, seed=seed, init=init, **kw) == before
    fn = build.func if isinstance(build, functools.partial) else build
    assert fn.__module__ == "memlib.models.downsampling_nets" and fn.cache_key == f"memlib.models.{fn.__qualname__}"
