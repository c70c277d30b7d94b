"""The shared explorer machinery: live widgets re-render on change; headless runs get one static figure."""
import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from memlib.harness.context import RunContext, active  # noqa: E402
from memlib.widgets import explorer  # noqa: E402


def _render_log():
    calls = []

    def render(depth, init):
        if depth == 99:
            raise ValueError("depth 99 is not trained\nsecond line")
        calls.append((depth, init))
        fig, ax = plt.subplots(figsize=(1, 1))
        ax.set_title(f"{depth} {init}")
        return fig
    return calls, render


def test_live_explorer_rerenders_on_change_and_reports_errors_in_one_line(monkeypatch):
    w = pytest.importorskip("ipywidgets")
    calls, render = _render_log()
    controls = {"depth": w.IntSlider(value=1, min=1, max=99, description="depth"),
                "init": w.Dropdown(options=["a", "b"], value="a", description="weight decay")}
    box = explorer(controls, render, title="t")
    image = box.children[-1]
    assert calls == [(1, "a")] and bytes(image.value)[:4] == b"\x89PNG"
    status, progress = box.children[-4], box.children[-2]
    assert "done in" in status.value                                # the status says the figure is drawn
    assert all(c.style.description_width == "initial" for c in controls.values())   # labels never cut
    controls["init"].value = "b"
    controls["depth"].value = 3
    assert calls == [(1, "a"), (1, "b"), (3, "b")]
    controls["depth"].value = 99
    assert "ValueError: depth 99 is not trained" in status.value and "second line" not in status.value
    assert isinstance(progress, w.Output)           # where anything a render prints shows


def test_a_training_the_explorer_starts_reports_its_bar_to_a_widget_not_to_the_console(monkeypatch, capsys):
    """Issue 18: a first view that trains (a call deferred past its cell in Voila) or a callback (JupyterLab)
    prints to no page; fit's progress bar must reach the explorer's own IntProgress instead."""
    import torch

    from memlib import train
    w = pytest.importorskip("ipywidgets")
    box, seen = [], []

    def render(steps):
        train.fit(torch.nn.Linear(3, 3), torch.ones(2, 3), steps=steps, lr=0.1, desc="training here")
        if box:     # the second view: read the bar while the render runs
            bars = [c for row in box[0].children if isinstance(row, w.HBox) for c in row.children]
            bar, text = [c for c in bars if isinstance(c, w.IntProgress)][0], [c for c in bars if isinstance(c, w.HTML)][0]
            seen.append((bar.value, bar.max, bar.layout.display, text.value))
        fig, ax = plt.subplots(figsize=(1, 1))
        return fig

    steps = w.IntSlider(value=5, min=1, max=100)
    box.append(explorer({"steps": steps}, render))
    steps.value = 37
    assert seen and seen[-1][:3] == (37, 37, None), seen             # all 37 steps, shown while rendering
    assert "training here" in seen[-1][3]
    assert "training here" not in capsys.readouterr().err           # and nothing printed to the console
    bar = [c for row in box[0].children if isinstance(row, w.HBox) for c in row.children if isinstance(c, w.IntProgress)][0]
    assert bar.layout.display == "none"                             # hidden once the figure is drawn


def test_headless_explorer_is_one_static_figure(monkeypatch):
    w = pytest.importorskip("ipywidgets")
    calls, render = _render_log()
    with active(RunContext(headless=True)):              # as Run(..., headless=True) in `python -m memlib run`
        out = explorer({"depth": w.IntSlider(value=2), "init": w.Dropdown(options=["a"], value="a")}, render, title="t")
    assert calls == [(2, "a")] and isinstance(out, plt.Figure)


def test_a_tour_explorer_draws_off_the_kernels_message_loop_and_a_waiting_redraw_is_drawn_once(monkeypatch):
    """In a live kernel (Voila) an explorer built inside `renders_in_background` (the tour's) draws on the render
    thread: the kernel's event loop keeps turning while its first view trains (held up, it leaves Voila's page
    connection unanswered), the figure and "done in" come when the training ends, and of two changes made while a
    render runs only the latest values are drawn, once. Its Output widget is never entered there (its state changing
    while Voila executes a later cell fails that cell in Voila's executor)."""
    import asyncio
    import threading
    import time

    import IPython.display

    import memlib.widgets as widgets
    w = pytest.importorskip("ipywidgets")
    shown = []
    monkeypatch.setattr(widgets, "_in_kernel", lambda: True)
    monkeypatch.setattr(IPython.display, "display", shown.append)
    release, calls, entered = threading.Event(), [], []
    enter = w.Output.__enter__

    def entering(self):
        entered.append(threading.current_thread().name)
        return enter(self)
    monkeypatch.setattr(w.Output, "__enter__", entering)

    def render(depth):
        calls.append((depth, threading.current_thread().name))
        release.wait(10)                                 # a training, until the test lets it end
        fig, ax = plt.subplots(figsize=(1, 1))
        ax.set_title(str(depth))
        return fig

    async def until(condition, what):
        deadline = time.monotonic() + 10
        while not condition():
            assert time.monotonic() < deadline, what
            await asyncio.sleep(0.01)

    async def kernel():
        depth = w.IntSlider(value=1, min=1, max=9, description="depth")
        with widgets.renders_in_background():
            assert widgets.explorer({"depth": depth}, render, title="t") is None
        (box,) = shown
        status, image = box.children[-4], box.children[-1]
        await until(lambda: calls, "the first view never started")
        t0 = time.monotonic()
        await asyncio.sleep(0.2)                         # the loop turns while the first view trains
        assert time.monotonic() - t0 < 2 and len(calls) == 1 and not image.value
        assert calls[0] == (1, "memlib-explorer-renders") and "working" in status.value
        depth.value = 2                                  # two changes while the first view trains
        depth.value = 3
        release.set()
        await until(lambda: len(calls) == 2 and "done in" in status.value, "the redraw never ended")
        await asyncio.sleep(0.3)
        assert calls == [(1, "memlib-explorer-renders"), (3, "memlib-explorer-renders")]   # 2 never drawn
        assert bytes(image.value)[:4] == b"\x89PNG"
    asyncio.run(kernel())
    assert entered == []
