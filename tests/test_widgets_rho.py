"""Paper 4's explorer: the render function without a browser, and the ipywidgets box."""
import matplotlib
import pytest
import torch

matplotlib.use("Agg")

from memlib import rho as R
from memlib.runtime import set_device
from memlib.widgets import rho as W


@pytest.fixture(autouse=True)
def _cpu():
    set_device("cpu")


def tiny_task():
    gen = torch.Generator().manual_seed(0)
    x = torch.rand(24, 1, 5, 5, generator=gen)
    return R.binary_task(x, torch.arange(24) % 2, (0, 1))


def test_run_settings_follow_the_paper():
    s = W.run_settings(True, 0.0, 0.1, epochs=2, width=8, channels=4)
    assert s["conv"] and s["lr"] == 0.01 and s["width"] == 4          # Fig 5: ConvNet, lr 0.01
    s = W.run_settings(True, 0.01, 5.0, epochs=2, width=8, channels=4)
    assert "conv" not in s and s["lr"] == 0.1 and s["width"] == 8      # Fig 1: FC, lr 0.1
    assert W.run_settings(False, 0.0, 5.0, epochs=2, width=8, channels=4)["lr"] == 0.1   # Fig 9


def _closed(fig):
    """(suptitle, number of axes) of a figure, which is closed: the callers own what render_rho returns."""
    out = fig._suptitle.get_text(), len(fig.axes)
    matplotlib.pyplot.close(fig)
    return out


def test_render_trains_then_reads_the_cache():
    x, y = tiny_task()
    kw = dict(x=x, y=y, epochs=2, width=8, channels=4)
    opened = len(matplotlib.pyplot.get_fignums())
    fig = W.render_rho(True, 0.01, 1.0, **kw)
    assert len(matplotlib.pyplot.get_fignums()) == opened + 1             # only the figure it returns
    assert fig.axes[0].get_ylabel() == "rho" and fig.axes[2].get_xlabel().startswith("margin")
    title, n_axes = _closed(fig)
    assert n_axes == 3 and "trained just now" in title
    assert "from the cache" in _closed(W.render_rho(True, 0.01, 1.0, **kw))[0]
    for bn, wd in ((True, 0.0), (False, 0.0)):                          # conv net, no-BN net
        assert _closed(W.render_rho(bn, wd, 1.0, **kw))[1] == 3
    assert len(matplotlib.pyplot.get_fignums()) == opened


def test_explorer_builds():
    pytest.importorskip("ipywidgets")
    x, y = tiny_task()
    box = W.rho_explorer(x, y, epochs=1, width=8, channels=4, norms=(0.5, 1.0))
    assert len(box.children[1].children) == 3          # title, controls, status, image
    assert bytes(box.children[-1].value)[:4] == b"\x89PNG"                 # the first view is drawn
    matplotlib.pyplot.close("all")
