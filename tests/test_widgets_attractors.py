"""Paper 2's explorer: the render function without a browser, and the ipywidgets box."""
import matplotlib
import pytest
import torch

matplotlib.use("Agg")

from memlib.widgets import attractors as W

TINY = dict(autoencoders={"tiny": (3, 2, 8)}, steps=5, iterations=4)


def _pools():
    g = torch.Generator().manual_seed(0)
    return torch.rand(5, 1, 4, 4, generator=g), torch.rand(6, 1, 4, 4, generator=g)


def test_start_images():
    _, test = _pools()
    assert torch.equal(W.start_image("test digit", 7, (1, 4, 4), test_pool=test), test[1:2])
    assert W.start_image("noise", 0, (1, 4, 4)).shape == (1, 1, 4, 4)
    assert W.start_image("square", 1, (1, 4, 4)).max() == 1
    with pytest.raises(Exception, match="start"):
        W.start_image("cat", 0, (1, 4, 4))


def test_render_then_cache():
    train, test = _pools()
    fig = W.render_attractors("tiny", "test digit", 2, 3, train_pool=train, test_pool=test, **TINY)
    assert len(fig.axes) == 3
    assert "f^3" in fig.axes[0].get_title() and "nearest training digit" in fig.axes[2].get_title()
    assert len(fig.axes[1].lines[0].get_xdata()) == 5                      # iterations 0..4
    assert "trained just now" in fig._suptitle.get_text()
    fig = W.render_attractors("tiny", "noise", 0, 0, train_pool=train, test_pool=test, **TINY)
    assert "from the cache" in fig._suptitle.get_text()
    with pytest.raises(ValueError, match="step"):
        W.render_attractors("tiny", "noise", 0, 9, train_pool=train, test_pool=test, **TINY)


def test_explorer_builds():
    pytest.importorskip("ipywidgets")
    import memlib.widgets.attractors as mod
    calls = []
    orig = mod.render_attractors
    mod.render_attractors = lambda **kw: calls.append(kw) or matplotlib.pyplot.figure()
    try:
        box = mod.attractors_explorer(iterations=4)
    finally:
        mod.render_attractors = orig
    assert calls and set(calls[0]) >= {"model", "start", "index", "step"}
    assert box is not None
