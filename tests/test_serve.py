"""`python -m memlib serve` before it opens the page: it finds the models the tour's explorers draw their first views
from and the cache lacks, says which and about how long each trains, and trains them at the terminal (or, with
`--no-train`, leaves them to the page); the Voila it starts runs a page's execution beside the page's pings.
Voila itself is not started here (its exec is replaced); tests/test_browser.py opens the page."""
import os
import re
import subprocess
import sys

import pytest

import memlib.cli.serve as cli
from memlib.cli.main import main
from memlib.harness import store
from memlib.harness.context import RunContext, active
from memlib.widgets import tour


def _serve(monkeypatch, capsys, *args) -> tuple[str, list]:
    """`main(["serve", "--no-browser", *args])` up to the exec of Voila: (what it printed, Voila's command line)."""
    monkeypatch.setattr(cli, "ensure_kernel", lambda: "memlib")
    started = []

    def fake_execve(path, cmd, env):
        started.append(cmd)
        raise SystemExit(0)
    monkeypatch.setattr(os, "execve", fake_execve)
    with pytest.raises(SystemExit):
        main(["serve", "--no-browser", *args])
    return capsys.readouterr().out, started[0]


def _first_views_from(cache_dir) -> store.Cache:
    """The tour's four explorers' first views drawn (headless) as the page's kernel draws them, reading `cache_dir`."""
    import matplotlib.pyplot as plt
    cache = store.Cache(cache_dir)
    store.set_default_cache(cache)
    with active(RunContext(headless=True)):
        for build in tour.EXPLORERS.values():
            plt.close(build("smoke"))
    return cache


def test_serve_says_what_the_first_views_lack_and_trains_it_before_the_page_opens(tmp_path, monkeypatch, capsys):
    """An empty cache: `--no-train` names the four explorers' models with a time each and trains nothing; `serve`
    then trains them before Voila starts, so that the page's first views read all four from the cache; and the
    next `serve` finds nothing missing."""
    monkeypatch.chdir(tmp_path)                          # serve changes folder before it execs Voila
    monkeypatch.delenv("MEMLIB_CACHE")
    results = tmp_path / "results"
    out, _ = _serve(monkeypatch, capsys, "--profile", "smoke", "--results-dir", str(results), "--no-train")
    assert "4 models the cache lacks" in out and "they train in the page" in out, out
    for paper in tour.EXPLORERS:                         # one line each: the model, its steps, about how long here
        assert re.search(rf"^  {paper}: .+, [\d,]+ steps\): (at most )?about [\d.]+ (s|min)", out, re.M), out
    assert not list((results / "cache").glob("*.pt"))    # nothing trained

    out, cmd = _serve(monkeypatch, capsys, "--profile", "smoke", "--results-dir", str(results))
    assert "4 models the cache lacks" in out and "training them now, before the page opens" in out, out
    assert out.index("training them now") < out.index("open http://127.0.0.1:")
    cache = _first_views_from(results / "cache")
    assert (cache.hits, cache.misses) == (4, 0)          # the page trains nothing

    out, _ = _serve(monkeypatch, capsys, "--profile", "smoke", "--results-dir", str(results))
    assert "every one is in the cache" in out and "lacks" not in out, out


# a page's execute request for another kernel, sent to Voila's execution handler as `serve` starts Voila (after the
# launcher's own lines) or as `python -m voila` does: what on_message returns, and what the handler wrote after
EXECUTE = """
import asyncio, inspect, json
from voila.tornado.execution_request_handler import ExecutionRequestHandler
handler, written = object.__new__(ExecutionRequestHandler), []
handler._kernel_id = "this kernel"
async def write_message(message):
    written.append(message["action"])
handler.write_message = write_message
async def page():
    returned = handler.on_message(json.dumps({"action": "execute", "payload": {"kernel_id": "another"}}))
    kind = "coroutine" if inspect.isawaitable(returned) else repr(returned)
    if inspect.isawaitable(returned):
        await returned
    await asyncio.sleep(0.1)
    print(kind, written)
asyncio.run(page())
"""


def test_the_voila_serve_starts_runs_a_pages_execution_as_a_task(tmp_path, monkeypatch, capsys):
    """Voila's page execution handler, as `serve` starts Voila: its `on_message` returns at once and the execution
    goes on as a task (so tornado reads the page's pongs while the cells run); `python -m voila`'s returns the
    execution for tornado to await before it reads the next frame."""
    pytest.importorskip("voila", reason="voila is not installed (pip install voila)")
    monkeypatch.chdir(tmp_path)
    _, cmd = _serve(monkeypatch, capsys, "--profile", "smoke", "--results-dir", str(tmp_path), "--no-train")
    assert cmd[1] == "-c" and cmd[3].endswith("00_tour.ipynb")
    launcher, start = cmd[2].rsplit("from voila.app import main", 1)
    assert start.strip() == "sys.exit(main())"

    def page(code):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr[-2000:]
        return out.stdout.strip()
    assert page(EXECUTE) == "coroutine ['execution_error']"              # Voila's own
    assert page(launcher + EXECUTE) == "None ['execution_error']"        # serve's: a task, which still answers
