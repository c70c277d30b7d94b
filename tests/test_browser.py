"""The teaching tour as a person meets it: `python -m memlib serve` (Voila) driven by a headless Chromium through
playwright: the page loads, every explorer draws its figure, a control changed redraws it and the status says done.
And, without a browser: an explorer opened after a batch run reads the batch run's models from its cache.

Browser: Debian's `chromium` where installed (`apt-get install chromium`; .ci/run installs it when it can), else
playwright's own build (`python -m playwright install chromium`, needs the network), else the browser test is
skipped with one line saying so. On failure a screenshot is saved under the test's results folder (named in the
failure message).
"""
import contextlib
import functools
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from memlib import data, models, store, tour

ROOT = Path(__file__).resolve().parent.parent
INSTALL_HINT = ("install Debian's chromium (`apt-get install chromium`) or playwright's build "
                "(`python -m playwright install chromium`)")


def _chromium() -> str:
    """The Chromium executable to drive, or pytest.skip naming what is missing and how to install it."""
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    for name in ("chromium", "chromium-browser"):
        if shutil.which(name):
            return shutil.which(name)
    from playwright.sync_api import sync_playwright

    def bundled():
        with sync_playwright() as p:
            path = p.chromium.executable_path
        return path if Path(path).exists() else None
    if bundled() is None:
        try:
            subprocess.run([sys.executable, "-m", "playwright", "install", "chromium"], capture_output=True,
                           timeout=120)
        except (OSError, subprocess.SubprocessError):
            pass
    path = bundled()
    if path is None:
        pytest.skip(f"no Chromium for the browser test: {INSTALL_HINT}")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def _server(cmd, *, url: str, cwd: Path, env: dict, log_path: Path, what: str):
    """Start `cmd` (a web server, in its own session) and yield once `url` answers; on exit SIGTERM its process
    group (SIGKILL after 20 s). A server that exits or does not answer in 90 s fails the test with its log."""
    log = open(log_path, "w")
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(url, timeout=5).close()   # noqa: S310 - our own server on the loopback
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"{what} did not answer at {url}:\n{log_path.read_text()[-3000:]}")
                time.sleep(0.5)
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)  # the server; it shuts down the kernels it started
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        log.close()


@pytest.fixture(scope="module")
def tour_url(tmp_path_factory):
    """`python -m memlib serve --profile smoke` on a free port with its own cache; the URL once it answers."""
    pytest.importorskip("voila", reason="voila is not installed (pip install voila)")
    tmp = tmp_path_factory.mktemp("tour")
    port = _free_port()
    env = {**os.environ, "MEMLIB_CACHE": str(tmp / "cache"), "PYTHONPATH": str(ROOT)}
    env.pop("MEMLIB_HEADLESS", None)
    url = f"http://127.0.0.1:{port}/"
    with _server([sys.executable, "-m", "memlib", "serve", "--port", str(port), "--no-browser", "--profile", "smoke"],
                 url=url, cwd=tmp, env=env, log_path=tmp / "serve.log", what="the tour server"):
        yield url
    assert "memlib tour (smoke explorers" in (tmp / "serve.log").read_text()


IMAGES = "img.widget-image"
EXPLORERS = 4
DRAWN = f"""() => {{ const imgs = [...document.querySelectorAll('{IMAGES}')];
    return imgs.length >= {EXPLORERS} && imgs.every(i => i.src && i.naturalWidth > 0); }}"""


def test_tour_page_renders_every_explorer_and_a_control_redraws(tour_url, tmp_path):
    from playwright.sync_api import sync_playwright
    shots = tmp_path / "results" / "browser"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_chromium(), args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        try:
            page.goto(tour_url, timeout=120_000)
            page.wait_for_selector("text=A tour of memorization", timeout=120_000)      # after "Reading ..."
            assert "tour.identity()" not in page.inner_text("body")                 # no code shown
            page.wait_for_function(DRAWN, timeout=600_000)                          # smoke models train here
            imgs = page.locator(IMAGES)
            assert imgs.count() == EXPLORERS
            for i in range(EXPLORERS):
                assert imgs.nth(i).get_attribute("src").startswith(("blob:", "data:image/png"))
            text = page.inner_text("body")
            assert text.count("done in") == EXPLORERS, text[-2000:]               # every status: done
            assert "Error" not in text and "Traceback" not in text

            # paper 4's explorer: initial norm 0.1 -> 5.0 (select_option: a closed <select> ignores keys)
            box = page.locator(".widget-vbox", has=page.locator("text=Paper 4: rho dynamics")).last
            before = box.locator(IMAGES).get_attribute("src")
            box.locator(".widget-dropdown", has_text="initial norm").locator("select").select_option(label="5.0")
            page.wait_for_function("([sel, old]) => { const i = document.querySelectorAll(sel)[3];"
                                   " return i.src !== old && i.naturalWidth > 0; }", arg=[IMAGES, before],
                                   timeout=300_000)
            page.wait_for_function("() => document.body.innerText.split('Paper 4:')[1].includes('done in')",
                                   timeout=60_000)
            status = box.locator(".widget-html").all_inner_texts()
            assert any("done in" in s for s in status), status
        except Exception:
            shots.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shots / "tour.png"), full_page=True)
            print(f"screenshot of the failing page: {shots / 'tour.png'}")
            raise
        finally:
            browser.close()


def test_explorer_after_a_batch_run_reads_its_models_from_the_cache(tmp_path, monkeypatch):
    """A batch run (store.Run in the repo, working folder the repo) caches notebook 01's smoke ConvNet; the tour's
    paper 1 explorer opened from notebooks/ (JupyterLab's and Voila's working folder) finds it: one hit, no miss."""
    pytest.importorskip("ipywidgets")
    repo = tmp_path / "repo"
    (repo / "notebooks").mkdir(parents=True)
    (repo / "run_all.sh").write_text("")
    monkeypatch.setattr(data, "REPO", repo)                  # store.results_root resolves from this checkout
    monkeypatch.delenv("MEMLIB_CACHE", raising=False)        # as the batch run and the notebooks: results/cache
    monkeypatch.delenv("MEMLIB_HEADLESS", raising=False)
    monkeypatch.setenv("MEMLIB_TOUR_PROFILE", "smoke")
    monkeypatch.chdir(repo)
    run = store.Run("01_identity_vs_constant", profile="smoke", device="cpu", results_dir="results")
    x_img, _ = data.training_digit(size=28)
    store.fit_cached(functools.partial(models.convnet, 3, channels=4), data.standardize(x_img), seed=0, steps=40,
                     lr=0.01, momentum=0.9, schedule="stagewise", clip_grad_norm=1.0, progress=False)   # notebook 01
    assert (run.cache.hits, run.cache.misses) == (0, 1)
    assert run.cache.root == repo / "results" / "cache"

    monkeypatch.chdir(repo / "notebooks")                    # the explorer, opened later from the notebooks
    store.set_default_cache(None)
    tour.identity()
    cache = store.default_cache()
    assert cache.root == repo / "results" / "cache"
    assert (cache.hits, cache.misses) == (1, 0)
