"""ipywidgets explorers used by the notebooks (one module per paper, shared machinery here).

An explorer is two parts:

- a *render* function, plain Python: takes the chosen values (architecture, depth, ...) and returns a
  matplotlib Figure, reading trained models from the cache (`store.fit_cached`) or training them
  with fit's progress bar when they are not there. Tests call it directly, without a browser.
- `explorer(controls, render)`: lays the ipywidgets controls above the figure and re-renders on
  every change. The figure is an ipywidgets Image (PNG bytes), not an Output widget: nbclient can
  stall on Output widgets' captured output (jupyter/nbclient#312); an Output widget holds only what a
  render prints interactively, and is never created headless. A training's progress bar is a widget
  (an IntProgress fed by `progress.progress_to`), since printed output of a widget callback or of a call
  deferred past its cell reaches no page (JupyterLab's Log Console; nowhere in Voila). In a headless run
  (`python -m memlib run`, see `modes.headless`) it draws the figure for the initial values once,
  statically, so the stored notebook shows it and no widget traffic reaches papermill. Inside a live
  kernel (JupyterLab, Voila) the box is displayed *before* the first figure is drawn, so a first view that
  trains says "working ..." with its progress bar in the page (the first figure is drawn just after the cell ends); `explorer`
  then returns None (nothing is displayed twice).
- Explorers built inside `renders_in_background()` (the tour's, `memlib.widgets.tour`) draw on the kernel's one render
  thread instead, off its message loop: a training of minutes in the first view does not hold up the kernel, so Voila's
  execution of the next cells (one websocket whose pings go unanswered while a cell waits for the kernel: Jupyter
  server's `ws_ping_timeout`, 90 s by default, then closes it and the page never finishes) ends in seconds, and the
  figure and the progress bar reach the page through the widgets. One thread for all, so renders run one at a time
  in the order asked; a render asked for while another of the same explorer waits is not queued twice (it reads the
  controls when it starts); what a render prints there reaches no page (the bars do: widgets). Notebooks 01-04 keep
  drawing on the message loop: their later cells draw from the global RNG (notebook 02), which a render beside them
  would disturb.

Per-paper explorers: `memlib.widgets.identity` (paper 1), `.attractors` (paper 2), `.downsampling`
(paper 3), `.rho` (paper 4).
"""
from __future__ import annotations

import asyncio
import contextlib
import io
import queue
import threading
import time
from typing import Callable

import matplotlib.pyplot as plt

from ..harness.modes import headless
from ..harness.progress import progress_to
from ..harness.store import is_cached


def status_line(build, x, target=None, *, seed: int = 0, init: str = "default", **fit_kwargs) -> str:
    """Where the model `fit_cached` is about to return comes from, for the figure's title: 'from the cache',
    or 'trained just now (was not in the cache)'. Asked before `fit_cached`, read after it: the figure is
    drawn once the model is there, so the title says what happened, never "training ..." (a stale title)."""
    hit = is_cached(build, x, target, seed=seed, init=init, **fit_kwargs)
    return "from the cache" if hit else "trained just now (was not in the cache)"


def figure_png(fig, dpi: int = 90) -> bytes:
    """The figure as PNG bytes (and closed, so figures do not pile up)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    return buf.getvalue()


_in_background = False      # set by `renders_in_background`: explorers built now draw on the render thread
_render_queue: "queue.Queue | None" = None
_render_lock = threading.Lock()


@contextlib.contextmanager
def renders_in_background():
    """`with renders_in_background(): explorer(...)`: a live explorer built inside draws its figures on the kernel's
    render thread (`render_in_background`), off the kernel's message loop (the tour, served by Voila)."""
    global _in_background
    outer, _in_background = _in_background, True
    try:
        yield
    finally:
        _in_background = outer


def render_in_background(job: Callable[[], None]) -> None:
    """Run `job()` on the kernel's one render thread (started at the first call; a daemon, so a kernel shut down
    mid-training exits), after the jobs queued before it."""
    global _render_queue
    with _render_lock:
        if _render_queue is None:
            _render_queue = queue.Queue()
            threading.Thread(target=_render_loop, args=(_render_queue,), name="memlib-explorer-renders",
                             daemon=True).start()
    _render_queue.put(job)


def _render_loop(jobs: "queue.Queue") -> None:
    while True:
        job = jobs.get()
        try:
            job()
        except BaseException:  # noqa: BLE001 - a job reports its own errors; the thread serves the next one
            pass


def _one_line(e: Exception) -> str:
    text = str(e).strip()
    return f"{type(e).__name__}: {text.splitlines()[0] if text else ''}"


def explorer(controls: dict, render: Callable[..., "plt.Figure"], *, title: str | None = None,
             continuous_update: bool = False):
    """An ipywidgets box: `controls` (name -> widget) above the figure `render(**values)`.

    `render` is called once at start and again whenever a control changes. Errors from `render`
    are shown as one line above the figure, never raised into the widget machinery; the status line
    says "done in N s" once a figure is drawn. Returns the box (display it, or leave it last in a cell);
    inside a live kernel the box is displayed before the first render and None is returned. Headless:
    returns the initial figure instead.
    """
    values = {name: c.value for name, c in controls.items()}
    background = _in_background and _in_kernel()
    if headless():
        fig = render(**values)
        fig.text(0.5, 0.0, f"{title + ': ' if title else ''}static view of a headless run; open the notebook "
                 "in Jupyter to explore", ha="center", va="top", fontsize=8, color="0.4")
        return fig
    import ipywidgets as w

    image, status = w.Image(format="png"), w.HTML()
    progress = w.Output()   # anything render prints, in the page (a callback's own output goes to the Log Console)
    bar, bar_text = progress_widgets()

    def refresh(_change=None):
        values = {name: c.value for name, c in controls.items()}
        status.value = WORKING
        if not background:
            progress.clear_output()
        t0 = time.perf_counter()
        try:
            # training's bars go to a widget: its state reaches the page from a callback and from the deferred
            # first view alike, where printed output reaches no page in Voila. On the render thread the
            # Output widget is left alone: entered there, its state changes while Voila executes a later cell, and
            # Voila's executor (nbclient) fails that cell on an Output widget it did not see entered.
            with (contextlib.nullcontext() if background else progress), progress_to(widget_sink(bar, bar_text)):
                fig = render(**values)
        except Exception as e:  # noqa: BLE001 - an explorer must survive a bad combination
            status.value = f"<b>{_one_line(e)}</b>"
            return
        finally:
            bar.layout.display = bar_text.layout.display = "none"
        image.value = figure_png(fig)
        if not background:
            progress.clear_output()
        status.value = f"<i>done in {time.perf_counter() - t0:.1f} s</i>"

    waiting = []     # a background render asked for and not started yet (it reads the controls when it starts)

    def draw():
        waiting.clear()
        try:
            refresh()
        except Exception as e:  # noqa: BLE001 - e.g. the PNG: said in the status, the thread goes on
            status.value = f"<b>{_one_line(e)}</b>"

    def request(_change=None):
        status.value = WORKING
        if not waiting:
            waiting.append(True)
            render_in_background(draw)

    for c in controls.values():
        if hasattr(c, "continuous_update"):
            c.continuous_update = continuous_update
        if isinstance(c, w.DOMWidget) and getattr(c, "description", ""):
            c.style.description_width = "initial"          # full labels ("weight decay", not "weight de...")
        c.observe(request if background else refresh, names="value")
    header = [w.HTML(f"<b>{title}</b>")] if title else []
    box = w.VBox(header + [w.HBox(list(controls.values()), layout=w.Layout(flex_flow="row wrap")), status,
                           w.HBox([bar, bar_text]), progress, image])
    if _in_kernel():
        # shown first, drawn just after the cell ends: frontends (Voila) show a cell's outputs when it ends, so a
        # first view that trains shows the box, "working ..." and its progress bar (a widget) at once
        from IPython.display import display
        display(box)
        if background:           # the thread starts at once: the cell ends without waiting for the figure
            request()
            return None
        status.value = WORKING
        try:
            asyncio.get_running_loop().call_later(0.2, refresh)
        except RuntimeError:     # no event loop running this cell: draw now
            refresh()
        return None
    refresh()
    return box


WORKING = "<i>working ... (a model not in the cache trains here, with its progress bar)</i>"


def progress_widgets():
    """The explorer's progress bar: an IntProgress and the bar's text beside it, hidden until a bar reports."""
    import ipywidgets as w
    bar = w.IntProgress(value=0, min=0, max=1, layout=w.Layout(width="40%", display="none"))
    text = w.HTML(layout=w.Layout(display="none"))
    return bar, text


def widget_sink(bar, text):
    """A `progress.progress_to` sink that shows the latest bar (steps of a training, models of a band) in the
    widgets `progress_widgets` made."""
    import html

    def sink(n, total, line):
        bar.layout.display = text.layout.display = None          # shown
        if total:
            bar.max = max(int(total), 1)
        bar.value = min(int(n), bar.max)
        text.value = f"<code>{html.escape(line)}</code>"
    return sink


def _in_kernel() -> bool:
    """True inside a live Jupyter kernel (JupyterLab, Voila), False in plain Python and pytest."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None
