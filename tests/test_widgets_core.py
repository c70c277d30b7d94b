"""The shared explorer machinery: live widgets re-render on change; headless runs get one static figure."""
import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

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
    monkeypatch.delenv("MEMLIB_HEADLESS", raising=False)
    calls, render = _render_log()
    controls = {"depth": w.IntSlider(value=1, min=1, max=99, description="depth"),
                "init": w.Dropdown(options=["a", "b"], value="a", description="weight decay")}
    box = explorer(controls, render, title="t")
    image = box.children[-1]
    assert calls == [(1, "a")] and bytes(image.value)[:4] == b"\x89PNG"
    assert "done in" in box.children[-3].value                      # the status says the figure is drawn
    assert all(c.style.description_width == "initial" for c in controls.values())   # labels never cut
    controls["init"].value = "b"
    controls["depth"].value = 3
    assert calls == [(1, "a"), (1, "b"), (3, "b")]
    controls["depth"].value = 99
    status, progress = box.children[-3], box.children[-2]
    assert "ValueError: depth 99 is not trained" in status.value and "second line" not in status.value
    assert isinstance(progress, w.Output)           # where a training started from the explorer shows its bar


def test_headless_explorer_is_one_static_figure(monkeypatch):
    w = pytest.importorskip("ipywidgets")
    monkeypatch.setenv("MEMLIB_HEADLESS", "1")
    calls, render = _render_log()
    out = explorer({"depth": w.IntSlider(value=2), "init": w.Dropdown(options=["a"], value="a")}, render, title="t")
    assert calls == [(2, "a")] and isinstance(out, plt.Figure)
