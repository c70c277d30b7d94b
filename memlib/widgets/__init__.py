"""ipywidgets explorers used by the notebooks (one module per paper, shared machinery here).

An explorer is two parts:

- a *render* function, plain Python: takes the chosen values (architecture, depth, ...) and returns a
  matplotlib Figure, reading trained models from the cache (`store.fit_cached`) or training them
  with fit's progress bar when they are not there. Tests call it directly, without a browser.
- `explorer(controls, render)`: lays the ipywidgets controls above an Output area and re-renders on
  every change. ipywidgets is imported only here, when an explorer is shown.

Per-paper explorers: `memlib.widgets.identity` (paper 1), `.attractors` (paper 2), `.downsampling`
(paper 3), `.rho` (paper 4).
"""
from __future__ import annotations

from typing import Callable

import matplotlib.pyplot as plt

from ..store import is_cached


def status_line(build, x, target=None, *, seed: int = 0, init: str = "default", **fit_kwargs) -> str:
    """'from the cache' or 'training (not in the cache yet)' for the model `fit_cached` would return."""
    hit = is_cached(build, x, target, seed=seed, init=init, **fit_kwargs)
    return "from the cache" if hit else "training (not in the cache yet) ..."


def explorer(controls: dict, render: Callable[..., "plt.Figure"], *, title: str | None = None,
             continuous_update: bool = False):
    """An ipywidgets box: `controls` (name -> widget) above an Output showing `render(**values)`.

    `render` is called once at start and again whenever a control changes; its figure is shown and
    closed (so figures do not pile up). Errors from `render` are shown as one line in the output,
    never raised into the widget machinery. Returns the box (display it, or leave it last in a cell).
    """
    import ipywidgets as w
    from IPython.display import display

    out = w.Output()
    status = w.HTML()

    def refresh(_change=None):
        values = {name: c.value for name, c in controls.items()}
        status.value = "<i>working ...</i>"
        with out:
            out.clear_output(wait=True)
            try:
                fig = render(**values)
            except Exception as e:  # noqa: BLE001 - an explorer must survive a bad combination
                status.value = f"<b>{type(e).__name__}</b>: {str(e).splitlines()[0] if str(e) else ''}"
                return
            display(fig)
            plt.close(fig)
        status.value = ""

    for c in controls.values():
        if hasattr(c, "continuous_update"):
            c.continuous_update = continuous_update
        c.observe(refresh, names="value")
    header = [w.HTML(f"<b>{title}</b>")] if title else []
    box = w.VBox(header + [w.HBox(list(controls.values()), layout=w.Layout(flex_flow="row wrap")), status, out])
    refresh()
    return box
