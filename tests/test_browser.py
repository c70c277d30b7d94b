"""The teaching tour as a person meets it: `python -m memlib serve` (Voila) driven by a headless Chromium through
playwright: the page loads, every explorer draws its figure, a control changed redraws it and the status says done.
Each of the four notebooks as a person meets it in JupyterLab (its own server, results folder and cache): opened
under the smoke profile, Run > Run All Cells, every cell runs without a traceback, and each kind of control of its
explorer (checkbox, dropdown, slider) redraws the figure (other PNG bytes) with "done in" in the status. Slow: the
smoke notebooks' own run time (1.5 to 4 minutes each on a busy 2-core machine).
And, without a browser: an explorer opened after a batch run reads the batch run's models from its cache.

Browser: Debian's `chromium` where installed (`apt-get install chromium`; .ci/run installs it when it can), else
playwright's own build (`python -m playwright install chromium`, needs the network), else the browser tests are
skipped with one line saying so. On failure a screenshot is saved under the test's results folder (named in the
failure message).
"""
import contextlib
import functools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from memlib import data, models, runtime
from memlib.harness import store
from memlib.widgets import tour
from memlib.harness.run import Run
from memlib.recipes import paper1 as recipe

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
    """`python -m memlib serve --profile smoke --no-train` on a free port with its own (empty) cache: the first views
    train in the page; the URL once it answers."""
    pytest.importorskip("voila", reason="voila is not installed (pip install voila)")
    tmp = tmp_path_factory.mktemp("tour")
    port = _free_port()
    env = {**os.environ, "MEMLIB_CACHE": str(tmp / "cache"), "PYTHONPATH": str(ROOT)}
    url = f"http://127.0.0.1:{port}/"
    with _server([sys.executable, "-m", "memlib", "serve", "--port", str(port), "--no-browser", "--profile", "smoke",
                  "--no-train"], url=url, cwd=tmp, env=env, log_path=tmp / "serve.log", what="the tour server"):
        yield url
    assert "memlib tour (smoke explorers" in (tmp / "serve.log").read_text()


IMAGES = "img.widget-image"
EXPLORERS = 4
DRAWN = f"""() => {{ const imgs = [...document.querySelectorAll('{IMAGES}')];
    return imgs.length >= {EXPLORERS} && imgs.every(i => i.src && i.naturalWidth > 0); }}"""


# every progress-bar text the page ever showed (a smoke training's bar may be up for well under a second)
SEEN_BARS = """window.__memlibBars = [];
new MutationObserver(() => { for (const c of document.querySelectorAll('.widget-html code')) {
    const t = c.textContent; if (t.includes('%|') && !window.__memlibBars.includes(t)) window.__memlibBars.push(t); } })
  .observe(document, {subtree: true, childList: true, characterData: true});"""


def test_tour_page_renders_every_explorer_and_a_control_redraws(tour_url, tmp_path):
    from playwright.sync_api import sync_playwright
    shots = tmp_path / "results" / "browser"
    chromium = _chromium()          # before sync_playwright: finding playwright's own build starts another one
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        page.add_init_script(SEEN_BARS)
        try:
            page.goto(tour_url, timeout=120_000)
            page.wait_for_selector("text=A tour of memorization", timeout=120_000)      # after "Reading ..."
            assert "tour.identity()" not in page.inner_text("body")                 # no code shown
            page.wait_for_function(DRAWN, timeout=600_000)                          # smoke models train here
            imgs = page.locator(IMAGES)
            assert imgs.count() == EXPLORERS
            for i in range(EXPLORERS):
                assert imgs.nth(i).get_attribute("src").startswith(("blob:", "data:image/png"))
            # an explorer's image is set just before its status says "done in": wait for every status, not only images
            page.wait_for_function(f"() => document.body.innerText.split('done in').length - 1 >= {EXPLORERS}",
                                   timeout=120_000)
            text = page.inner_text("body")
            assert text.count("done in") == EXPLORERS, text[-2000:]               # every status: done
            bars = page.evaluate("() => window.__memlibBars")
            assert bars, "no training's progress bar showed in the page"           # the first views train (empty cache)
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


# the test's Voila pings every page connection every PING_MS and closes one that answered none for 2 * PING_MS
# (Jupyter server's ws_ping_interval / ws_ping_timeout, in a voila.json; by default 30 s and 90 s)
PING_MS = 500


def test_tour_page_outlives_in_page_trainings_longer_than_its_connections_ping_timeout(chromium, tmp_path):
    """The tour against a results folder whose cache holds none of the explorers' first models (smoke: the quick
    models' trainings cut short to seconds), served with `--no-train` by a Voila whose connections time out after a
    second without a pong: every figure appears on the first open, the page's trainings took longer than that
    timeout, and Voila's log shows no ping timeout, no write to a closed connection and no cell that failed there."""
    from playwright.sync_api import sync_playwright
    pytest.importorskip("voila", reason="voila is not installed (pip install voila)")
    config = tmp_path / "jupyter"
    config.mkdir()
    (config / "voila.json").write_text(json.dumps(
        {"Voila": {"tornado_settings": {"ws_ping_interval": PING_MS, "ws_ping_timeout": 2 * PING_MS}}}))
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("MEMLIB_")},
           "MEMLIB_CACHE": str(tmp_path / "results" / "cache"), "PYTHONPATH": str(ROOT),
           "JUPYTER_CONFIG_DIR": str(config)}
    port = _free_port()
    url, log = f"http://127.0.0.1:{port}/", tmp_path / "serve.log"
    with sync_playwright() as p, _server(
            [sys.executable, "-m", "memlib", "serve", "--port", str(port), "--no-browser", "--profile", "smoke",
             "--no-train", "--results-dir", str(tmp_path / "results")],
            url=url, cwd=tmp_path, env=env, log_path=log, what="the tour server"):
        text = log.read_text()
        assert "4 models the cache lacks" in text and "train in the page" in text, text   # said before the page opens
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1300, "height": 900})
        page.add_init_script(SEEN_BARS)
        try:
            with _screenshot_on_failure(page, tmp_path / "browser" / "tour-short-ping.png"):
                page.goto(url, timeout=120_000)
                page.wait_for_function(DRAWN, timeout=120_000)
                page.wait_for_function(f"() => document.body.innerText.split('done in').length - 1 >= {EXPLORERS}",
                                       timeout=60_000)
                body = page.inner_text("body")
                assert page.evaluate("() => window.__memlibBars"), "no training's progress bar showed in the page"
                took = [float(t) for t in re.findall(r"done in ([\d.]+) s", body)]
                assert len(took) == EXPLORERS and "Error" not in body, body[-2000:]
                # the first views trained one after another in the page, for longer than a connection's timeout
                print(f"the first views were drawn in the page in {took} s")
                assert sum(took) > 2 * PING_MS / 1000, took
        finally:
            browser.close()
    text = log.read_text()
    assert not any(e in text for e in ("ping timeout", "WebSocketClosedError", "Error at server")), text[-3000:]


def test_explorer_after_a_batch_run_reads_its_models_from_the_cache(tmp_path, monkeypatch):
    """A batch run (memlib.Run in the repo, working folder the repo) caches notebook 01's smoke ConvNet; the tour's
    paper 1 explorer opened from notebooks/ (JupyterLab's and Voila's working folder) finds it: one hit, no miss."""
    pytest.importorskip("ipywidgets")
    repo = tmp_path / "repo"
    (repo / "notebooks").mkdir(parents=True)
    (repo / "run_all.sh").write_text("")
    monkeypatch.setattr(data, "REPO", repo)                  # store.results_root resolves from this checkout
    monkeypatch.delenv("MEMLIB_CACHE", raising=False)        # as the batch run and the notebooks: results/cache
    monkeypatch.setenv("MEMLIB_TOUR_PROFILE", "smoke")
    monkeypatch.chdir(repo)
    run = Run("01_identity_vs_constant", profile="smoke", device="cpu", results_dir="results")
    x_img, _ = data.training_digit(size=28)
    x = data.standardize(x_img)
    store.fit_cached(functools.partial(models.convnet, 3, channels=4), x, seed=0, progress=False,   # notebook 01's
                     steps=runtime.pick("smoke", **recipe.DEPTH_STEPS), **recipe.depth_fit("smoke", x))   # depth sweep
    assert (run.cache.hits, run.cache.misses) == (0, 1)
    assert run.cache.root == repo / "results" / "cache"

    monkeypatch.chdir(repo / "notebooks")                    # the explorer, opened later from the notebooks
    store.set_default_cache(None)
    tour.identity()
    cache = store.default_cache()
    assert cache.root == repo / "results" / "cache"
    assert (cache.hits, cache.misses) == (1, 0)


# ---- every notebook in JupyterLab: Run All Cells under smoke, no error, its explorer redraws on each kind of control

# notebook -> (its explorer's title, the controls changed in turn: (kind, the control's label, the new value)):
# one of each kind the explorer has; the values are cache hits of the smoke notebook or small smoke trainings
LAB_NOTEBOOKS = {
    "01_identity_vs_constant": ("Paper 1:", [("dropdown", "init", "xavier_normal"), ("slider", "layers", 2)]),
    "02_attractors": ("Paper 2:", [("dropdown", "start", "noise"), ("slider", "iteration t", 10)]),
    "03_downsampling_eigenvectors": ("Paper 3:", [("dropdown", "network", "ND"), ("slider", "# images", 2)]),
    "04_rho_dynamics": ("Paper 4:", [("checkbox", "BatchNorm", False), ("dropdown", "initial norm", "5.0")]),
}
LAB_SETTINGS = {      # JupyterLab user settings for the test's server (its own settings folder)
    # every cell in the page (no windowing), so the checks below see every output
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    # no news / update toasts over the notebook
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false",
                                                                        "checkForUpdates": False},
}


def _smoke_copy(name: str, folder: Path, results: Path) -> Path:
    """notebooks/<name>.ipynb copied into `folder` with its tagged `parameters` cell set to the smoke profile,
    `results` as results_dir and the embedded datasets (data_root None, whatever data/ holds)."""
    import nbformat
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    (cell,) = [c for c in nb.cells if c.cell_type == "code" and "parameters" in c.metadata.get("tags", [])]
    for key, value in (("profile", "smoke"), ("results_dir", str(results)), ("data_root", None)):
        cell.source, n = re.subn(rf"^{key}\s*=.*$", f"{key} = {value!r}", cell.source, flags=re.M)
        assert n == 1, f"{name}: the parameters cell sets {key} {n} times:\n{cell.source}"
    path = folder / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


@pytest.fixture
def chromium():
    """The Chromium to drive (or a one-line skip), found before any server starts."""
    return _chromium()


@pytest.fixture
def lab(tmp_path):
    """JupyterLab (no token, a free loopback port, no browser) serving a folder of its own, with a fresh
    results folder and model cache (`tmp_path/results`, `$MEMLIB_CACHE` = results/cache) and its own Jupyter
    settings; yields (url, notebook folder, results folder)."""
    pytest.importorskip("jupyterlab", reason="jupyterlab is not installed (pip install jupyterlab)")
    from memlib.cli.notebooks import ensure_kernel
    ensure_kernel()                                       # the notebooks' kernelspec: "memlib", this Python
    folder, results, jup = tmp_path / "notebooks", tmp_path / "results", tmp_path / "jupyter"
    folder.mkdir()
    results.mkdir()
    for rel, settings in LAB_SETTINGS.items():
        (jup / "settings" / rel).parent.mkdir(parents=True, exist_ok=True)
        (jup / "settings" / rel).write_text(json.dumps(settings))
    # no MEMLIB_* of the caller's (e.g. MEMLIB_TOUR_PROFILE, MEMLIB_STRATEGY)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("MEMLIB_")},
           "MEMLIB_CACHE": str(results / "cache"), "PYTHONPATH": str(ROOT),
           "JUPYTER_CONFIG_DIR": str(jup / "config"), "JUPYTER_RUNTIME_DIR": str(jup / "runtime"),
           "JUPYTERLAB_SETTINGS_DIR": str(jup / "settings"), "JUPYTERLAB_WORKSPACES_DIR": str(jup / "workspaces")}
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with _server([sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
                  f"--ServerApp.port={port}", "--ServerApp.port_retries=0", "--IdentityProvider.token=",
                  "--ServerApp.allow_root=True",
                  "--ServerApp.password=", f"--ServerApp.root_dir={folder}"],
                 url=f"{url}/api", cwd=folder, env=env, log_path=tmp_path / "lab.log", what="JupyterLab"):
        yield url, folder, results


# all code cells run (a number in every prompt; a failed cell stops Run All and leaves the next ones unnumbered)
PROMPTS = "() => [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')].map(p => p.innerText.trim())"
KERNEL_IDLE = """() => [...document.querySelectorAll('.jp-StatusBar-TextItem')].some(
    e => e.innerText.trim() === 'Python (memlib) | Idle')
    && !!document.querySelector('.jp-Notebook-ExecutionIndicator[data-status="idle"]')"""
TRACEBACKS = """() => [...document.querySelectorAll(
    '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')]
    .map(o => o.innerText).filter(t => t.includes('Traceback'))"""
# the explorer box's state: its image's bytes (length and FNV-1a hash; null until drawn) and its status line
EXPLORER_STATE = """async (box) => {
    const htmls = box.querySelectorAll(':scope > .widget-html'), img = box.querySelector('img.widget-image');
    let image = null;
    if (img && img.src && img.naturalWidth > 0) {
        try {
            const bytes = new Uint8Array(await (await fetch(img.src)).arrayBuffer());
            let h = 2166136261;
            for (const b of bytes) h = Math.imul(h ^ b, 16777619) >>> 0;
            image = bytes.length + ':' + h;
        } catch (e) { image = null; }      // a blob URL revoked by the next image under way
    }
    return {image, status: htmls.length ? htmls[htmls.length - 1].innerText.trim() : ''};
}"""


def _wait_explorer(box, *, old_image, timeout_s: float, what: str) -> dict:
    """Wait until the explorer shows an image other than `old_image` and its status says "done in"; fail at
    once with the status when it shows an error (a bold one-line message instead of "working"/"done")."""
    deadline = time.monotonic() + timeout_s
    while True:
        state = box.evaluate(EXPLORER_STATE)
        if state["image"] and state["image"] != old_image and "done in" in state["status"]:
            return state
        if state["status"] and not state["status"].startswith(("working", "done in")):
            pytest.fail(f"{what}: the explorer says {state['status']!r}")
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: no new image with 'done in' after {timeout_s:.0f} s (status {state['status']!r}, "
                        f"image {'unchanged' if state['image'] == old_image else state['image']})")
        time.sleep(0.5)


def _control(box, kind: str, label: str):
    """The explorer's control of this kind and label: its <select>, checkbox <input> or slider readout."""
    inner = {"dropdown": "select", "checkbox": "input[type=checkbox]", "slider": ".widget-readout"}[kind]
    return box.locator(f".widget-{kind}", has_text=label).locator(inner)


def _change(box, kind: str, label: str, value) -> None:
    """Change one ipywidgets control of the explorer `box`, found by its label, as a person would, and check
    that it shows the new value."""
    control = _control(box, kind, label)
    if kind == "dropdown":        # select_option: a closed <select> ignores keys in headless Chromium
        control.select_option(label=str(value))
        shown = control.evaluate("s => s.options[s.selectedIndex].text")
    elif kind == "checkbox":
        control.set_checked(value)
        shown = control.is_checked()
    else:                         # the slider's editable readout: type the value, Enter
        control.click()
        control.fill(str(value))
        control.press("Enter")
        shown = control.inner_text().strip()
    assert shown == (value if kind == "checkbox" else str(value)), f"{kind} {label!r} shows {shown!r}, not {value!r}"


@contextlib.contextmanager
def _screenshot_on_failure(page, path: Path):
    """On any failure inside (pytest.fail's too), save a screenshot of `page` at `path`, say where, re-raise."""
    try:
        yield
    except BaseException:
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path))
        print(f"screenshot of the failing page: {path}")
        raise


def _open_and_run_all(page, url: str, name: str) -> float:
    """Open <name>.ipynb in JupyterLab, wait for its kernel (the memlib one), Run > Run All Cells and wait until
    no cell is queued or running and the kernel is idle; the seconds the run took."""
    page.goto(f"{url}/lab/tree/{name}.ipynb", timeout=120_000)
    # the status bar names the kernel once it is connected (the toolbar's indicator says idle before: "No Kernel")
    page.wait_for_function(KERNEL_IDLE, timeout=180_000, polling=500)
    page.locator(".jp-NotebookPanel .jp-Cell").first.click()           # the notebook is the current widget
    page.locator(".lm-MenuBar-item", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()   # not "Restart ... and"
    t0 = time.monotonic()
    page.wait_for_function(f"() => ({PROMPTS})().some(t => /[*\\d]/.test(t))", timeout=60_000, polling=500)
    page.wait_for_function(f"() => {{ const p = ({PROMPTS})(); return /\\[\\d+\\]/.test(p[0])"
                           " && !p.some(t => t.includes('*')); }", timeout=600_000, polling=1000)
    page.wait_for_function(KERNEL_IDLE, timeout=60_000, polling=500)
    return time.monotonic() - t0


def _failures(page) -> tuple[list, list]:
    """(the tracebacks shown in any output, the prompts of the code cells that did not run)."""
    return page.evaluate(TRACEBACKS), [t for t in page.evaluate(PROMPTS) if not re.fullmatch(r"\[\d+\]:", t)]


@pytest.mark.parametrize("name", LAB_NOTEBOOKS)
def test_notebook_runs_in_jupyterlab_and_its_explorer_redraws(name, chromium, lab):
    """notebooks/<name>.ipynb (smoke) opened in JupyterLab and run with Run > Run All Cells: every cell runs, no
    traceback in any output; then each kind of control of its explorer changed in turn redraws the figure (other
    PNG bytes) and the status says "done in". On failure: a screenshot under results/browser (named in the log)."""
    from playwright.sync_api import sync_playwright
    url, folder, results = lab
    _smoke_copy(name, folder, results)
    title, changes = LAB_NOTEBOOKS[name]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            with _screenshot_on_failure(page, results / "browser" / f"{name}.png"):
                print(f"{name}: Run All Cells took {_open_and_run_all(page, url, name):.0f} s")
                tracebacks, not_run = _failures(page)
                assert not tracebacks, f"{name}: a cell failed:\n" + "\n\n".join(tracebacks)[-4000:]
                assert not not_run, f"{name}: {len(not_run)} cells did not run"

                box = page.locator(".widget-vbox", has=page.locator(f"text={title}")).last
                box.scroll_into_view_if_needed()                # in the screenshot if it fails
                state = _wait_explorer(box, old_image=None, timeout_s=300, what=f"{name}'s first figure")
                for kind, label, value in changes:
                    t0 = time.monotonic()
                    _change(box, kind, label, value)
                    state = _wait_explorer(box, old_image=state["image"], timeout_s=300,
                                           what=f"{name}: {kind} {label!r} -> {value!r}")
                    print(f"{name}: {kind} {label!r} -> {value!r} redrawn in {time.monotonic() - t0:.1f} s "
                          f"({state['status']})")
                assert _failures(page) == ([], [])
        finally:
            browser.close()


def test_jupyterlab_checks_see_a_failed_cell(chromium, lab):
    """The checks above are not vacuous: in a notebook whose third cell raises, Run All Cells leaves one traceback
    (a plain stderr line is none) and the fourth cell unrun; a failure inside `_screenshot_on_failure` saves one."""
    import nbformat
    from playwright.sync_api import sync_playwright
    url, folder, results = lab
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in (
        "print('one')", "import sys; print('a warning', file=sys.stderr)", "1 / 0", "print('four')")])
    nb.metadata["kernelspec"] = {"name": "memlib", "display_name": "Python (memlib)", "language": "python"}
    nbformat.write(nb, folder / "fails.ipynb")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            _open_and_run_all(page, url, "fails")
            tracebacks, not_run = _failures(page)
            assert len(tracebacks) == 1 and "ZeroDivisionError" in tracebacks[0], tracebacks
            assert len(not_run) == 1, page.evaluate(PROMPTS)
            shot = results / "browser" / "fails.png"
            with pytest.raises(AssertionError), _screenshot_on_failure(page, shot):
                assert not tracebacks
            assert shot.stat().st_size > 0
        finally:
            browser.close()
