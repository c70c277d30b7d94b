"""Paper 1's explorer: its render function (no browser) and that the ipywidgets box builds."""
import functools

import matplotlib
import pytest
import torch

from memlib import models
from memlib.harness import store
from memlib.runtime import MemlibError
from memlib.widgets import identity

matplotlib.use("Agg")


@pytest.fixture()
def tiny(tmp_path):
    store.set_default_cache(store.Cache(tmp_path / "cache"))
    torch.manual_seed(0)
    x = torch.randn(1, 1, 8, 8)
    probes = torch.cat([x, torch.randn(3, 1, 8, 8)])
    yield dict(x_train=x, probes=probes, steps={"convnet": 3, "fcn": 3}, names=["train", "a", "b", "c"])
    store.set_default_cache(None)


def _title(fig):
    return fig._suptitle.get_text()


def test_render_trains_then_reads_the_cache(tiny):
    fig = identity.render_identity("convnet", 2, 2, **tiny)
    assert "trained just now" in _title(fig) and "corr to identity" in _title(fig)
    assert len(fig.axes) == 2 * 4                                   # inputs row + predictions row
    fig2 = identity.render_identity("convnet", 2, 2, **tiny)
    assert "from the cache" in _title(fig2)


def test_render_hits_the_notebooks_own_configuration(tiny):
    """The notebook trains `fit_cached(partial(convnet, d, channels=c), x, steps=, lr=0.01, momentum=0.9,
    schedule="stagewise", clip_grad_norm=...)`: the explorer's SGD setting must be that exact entry."""
    build = functools.partial(models.convnet, 2, channels=3)
    store.fit_cached(build, tiny["x_train"], seed=0, steps=3, lr=0.01, momentum=0.9, schedule="stagewise",
                     clip_grad_norm=1.0, progress=False)
    fig = identity.render_identity("convnet", 2, 3, clip_grad_norm=1.0, **tiny)
    assert "from the cache" in _title(fig)
    fc = functools.partial(models.fcn, 64, 1, width=5, activation="relu", bias=True)
    store.fit_cached(fc, tiny["x_train"], seed=0, steps=3, lr=0.01, momentum=0.9, schedule="stagewise",
                     clip_grad_norm=None, progress=False)
    assert "from the cache" in _title(identity.render_identity("fcn", 2, 5, **tiny))


def test_render_options_and_errors(tiny):
    fig = identity.render_identity("fcn", 3, 4, init="xavier_normal", optimizer="adam", **tiny)
    assert "xavier_normal" in _title(fig) and "adam" in _title(fig)
    kw = identity.fit_arguments("adagrad", steps=5)
    assert kw["optimizer"] == "adagrad" and kw["lr"] == 0.001 and "momentum" not in kw
    for bad in (dict(architecture="rnn"), dict(init="nope"), dict(optimizer="lbfgs"), dict(depth=0)):
        with pytest.raises(MemlibError):
            identity.render_identity(**{**dict(architecture="convnet", depth=1, channels=2), **bad}, **tiny)


def test_explorer_builds(tiny):
    pytest.importorskip("ipywidgets")
    box = identity.identity_explorer(tiny["x_train"], tiny["probes"], steps=tiny["steps"], depth=1, channels=2,
                                     names=tiny["names"])
    controls = box.children[1].children
    assert [c.description for c in controls] == ["net", "layers", "channels/width", "init", "optimizer"]
    controls[1].value = 2                                         # a change re-renders (trains depth 2)
    assert "<b>" not in box.children[2].value                     # no error shown
