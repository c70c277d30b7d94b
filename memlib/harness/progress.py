"""Progress bars: a tqdm bar (the notebook widget interactively, plain text when `modes.headless()`), or one
reported to an explorer's widget inside `progress_to(sink)`."""
from __future__ import annotations

import contextlib

from .modes import headless


_progress_sink = None   # set by `progress_to`: where bars report instead of printing (an explorer's widget)


@contextlib.contextmanager
def progress_to(sink):
    """`with progress_to(sink): ...` sends every `progress_bar` opened inside to `sink(n, total, text)`
    (text: the bar as tqdm prints it; a closed bar reports total None) instead of printing it.

    An explorer's figure is drawn in a widget callback or in a call deferred past its cell, whose printed
    output reaches no page (JupyterLab routes it to the Log Console, Voila nowhere); a widget it updates
    (ipywidgets state) reaches the page wherever the call runs."""
    global _progress_sink
    outer, _progress_sink = _progress_sink, sink
    try:
        yield sink
    finally:
        _progress_sink = outer


def progress_bar(**kwargs):
    """A tqdm progress bar: the notebook widget interactively, plain text when `headless()`, reported to
    the sink of an enclosing `progress_to` when there is one."""
    if _progress_sink is not None:
        return _sink_bar(_progress_sink, **kwargs)
    if headless():
        from tqdm.std import tqdm
        kwargs["mininterval"] = max(kwargs.get("mininterval", 0.1), 30.0)   # a few lines per run, not thousands
    else:
        from tqdm.auto import tqdm
    return tqdm(**kwargs)


def _sink_bar(sink, **kwargs):
    """A plain tqdm bar that prints nothing and reports each refresh to `sink(n, total, text)`."""
    import io

    from tqdm.std import tqdm

    class SinkBar(tqdm):
        def display(self, msg=None, pos=None):
            if not getattr(self, "_sink_closed", False):
                sink(self.n, self.total, self.__str__() if msg is None else msg)
            return True

        def close(self):
            if not self.disable and not getattr(self, "_sink_closed", False):
                self._sink_closed = True
                sink(self.n, None, self.__str__())
            super().close()

    kwargs.setdefault("mininterval", 0.5)
    return SinkBar(file=io.StringIO(), **kwargs)
