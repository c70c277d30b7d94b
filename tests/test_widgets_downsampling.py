"""Paper 3's explorer: the render function without a browser, and the ipywidgets box."""
import matplotlib
import pytest
import torch

matplotlib.use("Agg")

from memlib import linalg
from memlib.widgets import downsampling as W

TINY = dict(size=8, ab=(2, 4), nd_ab=(2, 2), nl_ab=(2, 4), steps=3, nl_steps=3, n_eig=3)
TINY_LR = W.NL_LR   # render_downsampling's default nl_lr (notebook 03's quick NL_LR, memlib.recipes.paper3)


def test_training_set_takes_one_image_per_class():
    x = W.training_set(3, 8)
    assert x.shape == (3, 3, 8, 8) and x.min() >= 0 and x.max() <= 1
    assert linalg.span_dimension(x) == 3
    with pytest.raises(ValueError, match="n_images"):
        W.training_set(0, 8)


def test_builders_follow_the_paper():
    d = W.network_builder("D", ab=(2, 4))()
    nld = W.network_builder("NLD", nl_ab=(2, 4))()
    assert sum(isinstance(m, torch.nn.Upsample) for m in d) == 1
    assert any(isinstance(m, torch.nn.LeakyReLU) for m in nld)
    assert not any(isinstance(m, torch.nn.Upsample) for m in W.network_builder("NLND")())
    with pytest.raises(Exception, match="network"):
        W.network_builder("X")


def test_render_linear_then_cache_and_nonlinear():
    fig = W.render_downsampling("D", 2, "noise", **TINY)
    # 4 images on top (2 train, probe, output) + spectrum + 2 x 3 eigenvector images
    assert len(fig.axes) == 4 + 1 + 6
    assert "operator A_X" in fig.axes[4].get_title()
    assert "trained just now" in fig._suptitle.get_text()
    assert "from the cache" in W.render_downsampling("D", 2, "photo", **TINY)._suptitle.get_text()
    fig = W.render_downsampling("NLND", 1, "square", **TINY)
    assert "Jacobian" in fig.axes[3].get_title()
    # nonlinear nets train at nl_lr: the same lr hits the cache, another one trains anew
    assert "from the cache" in W.render_downsampling("NLND", 1, "noise", nl_lr=TINY_LR, **TINY)._suptitle.get_text()
    assert "trained just now" in W.render_downsampling("NLND", 1, "noise", nl_lr=5e-3, **TINY)._suptitle.get_text()


def test_probe_kinds():
    x = W.training_set(1, 8)
    for kind in W.PROBES:
        assert W.probe_image(kind, 8, x_train=x).shape == (1, 3, 8, 8)
    assert torch.equal(W.probe_image("training image", 8, x_train=x), x)


def test_explorer_builds():
    pytest.importorskip("ipywidgets")
    box = W.downsampling_explorer(**TINY)
    assert len(box.children) >= 3


def test_render_passes_the_initialization_to_the_cache_key():
    # the text's formula (Sec. 3's DEFAULT_INIT): another initialization is another net (trained anew), the same one is cached
    kw = dict(TINY, init="uniform_per_layer_params")
    assert "trained just now" in W.render_downsampling("ND", 1, "noise", **kw)._suptitle.get_text()
    assert "from the cache" in W.render_downsampling("ND", 1, "photo", **kw)._suptitle.get_text()
