"""`serve`: the teaching tour (notebooks/00_tour.ipynb) in Voila on 127.0.0.1, reading and filling the batch
run's model cache; this process becomes the Voila server.

Before it opens the page it checks each explorer's first view against the cache (`first_views_missing`: the first
views drawn once, headless, in planning mode, so that a miss is listed instead of trained), says which models are
missing and about how long they take to train here, and trains them with a progress bar at the terminal
(`--no-train`: they train in the page instead, where the explorers draw on the kernel's render thread so that the
page's connection stays alive, `memlib.widgets.renders_in_background`).

Voila is started through `VOILA`, which runs each page's execution of the tour as a task of its own (see there), so
the page's connection answers its pings however long the cells take."""
from __future__ import annotations

import os
import socket
import sys
import tempfile
from pathlib import Path

from ..harness import jobfile
from ..harness.context import RunContext, active, cache_folder
from ..harness.estimate import format_duration, step_time
from ..harness.progress import progress_to
from ..runtime import MemlibError, check_choice
from ..harness.store import Cache, results_root, set_default_cache, train_entries
from ..widgets.tour import EXPLORERS as TOUR_EXPLORERS
from ..widgets.tour import PROFILES as TOUR_PROFILES
from ..widgets.tour import TOUR
from .common import NOTEBOOK_DIR
from .notebooks import ensure_kernel


# The Voila server, started with `python -c VOILA ARGS...` (as `python -m voila ARGS...`). A Voila page executes its
# notebook over one websocket whose handler awaits the whole execution inside `on_message`
# (voila/tornado/execution_request_handler.py); tornado reads no frame of that connection meanwhile, the browser's
# pongs included, so Jupyter server's ping check (`ws_ping_interval` 30 s, `ws_ping_timeout` 90 s: Voila's
# `tornado_settings`, e.g. in a voila.json) closes it once the cells take longer, and the page never shows the rest.
# Here `on_message` starts that execution as a task and returns: the pongs are read while the cells run.
VOILA = """\
import asyncio, sys
from voila.tornado import execution_request_handler as execution
execute = getattr(execution.ExecutionRequestHandler, "on_message", None)
running = set()
def on_message(self, message):
    task = asyncio.ensure_future(execute(self, message))
    running.add(task)
    def done(task):
        running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.log.error("the page's execution stopped: %s: %s", type(task.exception()).__name__, task.exception())
    task.add_done_callback(done)
if execute is not None:
    execution.ExecutionRequestHandler.on_message = on_message
from voila.app import main
sys.exit(main())
"""


def _free_port(preferred: int) -> int:
    """`preferred` when nothing listens there on 127.0.0.1, else a free port the system picks."""
    for port in (preferred, 0):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise MemlibError("no free port on 127.0.0.1")


def first_views_missing(profile: str, plan_dir: Path) -> tuple[list[tuple[str, dict]], list[str]]:
    """The trainings the tour's explorers draw their first views from (at `profile`) and the default model cache
    lacks: ([(the explorer's paper, its job file's contents)], [a line for each explorer that could not be checked]).
    Each first view is drawn once, headless, in planning mode (memlib.harness.plan): a miss is written as a job file
    under `plan_dir` and its model drawn untrained, so nothing trains here."""
    import matplotlib
    matplotlib.use("Agg")                  # this process draws nothing on screen (it becomes the Voila server)
    import matplotlib.pyplot as plt
    found, unchecked = [], []
    planning = RunContext(notebook=TOUR, profile=profile, plan_dir=Path(plan_dir), headless=True)
    with active(planning), progress_to(lambda n, total, line: None):     # the untrained models' 0-step bars: unshown
        for paper, build in TOUR_EXPLORERS.items():
            before = set(jobfile.files(plan_dir))
            try:
                plt.close(build(profile))
            except Exception as e:  # noqa: BLE001 - one explorer that cannot be checked leaves its models to the page
                text = str(e).strip().splitlines()
                unchecked.append(f"{paper}: not checked ({type(e).__name__}: {text[0] if text else ''}); what it "
                                 "lacks trains in the page")
            found += [(paper, jobfile.load_payload(f)) for f in jobfile.files(plan_dir) if f not in before]
    return found, unchecked


def _estimate(job: dict) -> float | None:
    """Seconds a job (a job file's contents) takes to train here: its step time measured over a few steps, times its
    steps and seeds (memlib.harness.estimate.step_time); None when it cannot be measured."""
    kwargs = {**job["fit_kwargs"], "init": job["init"]}
    try:
        step_s = step_time(job["build"], job["x"], job["target"], probe_steps=2, **kwargs)
    except Exception:  # noqa: BLE001 - an estimate only
        return None
    return step_s * int(job["fit_kwargs"].get("steps", 0)) * len(job["seeds"])


def _describe(paper: str, job: dict, seconds: float | None) -> str:
    record = job["job"]
    what = f"{job['desc']} ({record['builder']}" if job.get("desc") else f"({record['builder']}"
    seeds = f", {len(record['seeds'])} seeds" if len(record["seeds"]) > 1 else ""
    if seconds is None:
        when = "time not estimated"
    else:
        bound = "at most " if job.get("fit_kwargs", {}).get("until_loss") is not None else ""   # stops once fitted
        when = f"{bound}about {format_duration(seconds)} here"
    return f"  {paper}: {what}, {record['steps']:,} steps{seeds}): {when}"


def _train(paper: str, job: dict, cache: Cache) -> None:
    """Train a job (a job file's contents) as `fit_cached` would, with its progress bar here, into `cache`."""
    entries = train_entries(job["kind"], job["build"], job["x"], job["target"], job["seeds"], job["init"],
                            {**job["fit_kwargs"], "desc": f"{paper}: {job.get('desc') or job['job']['builder']}",
                             "progress": True})
    for config, entry in zip(job["configs"], entries):
        cache.save(config, entry)


def prepare_first_views(profile: str, cache_dir: Path, *, train: bool = True) -> list[str]:
    """Say which models the explorers' first views need and the cache at `cache_dir` lacks, with about how long each
    takes to train here, and train them now with a progress bar (`train`), or say that they train in the page.
    Returns the cache keys of the models still missing (those left to the page)."""
    cache = Cache(cache_dir)
    set_default_cache(cache)
    print(f"memlib tour ({profile} explorers): checking the models the explorers' first views show against the "
          "cache ...", flush=True)
    with tempfile.TemporaryDirectory(prefix="memlib-tour-plan-") as plan_dir:
        found, unchecked = first_views_missing(profile, Path(plan_dir))
        for line in unchecked:
            print(f"  {line}", flush=True)
        if not found:
            print(f"  every one{' checked' if unchecked else ''} is in the cache: the page draws "
                  f"{'them' if unchecked else 'all four'} at once", flush=True)
            return []
        todo = [(paper, job, None if "build" not in job else _estimate(job)) for paper, job in found]
        total = sum(s for _, _, s in todo if s is not None)
        n = len(todo)
        print(f"  {n} model{'s' if n > 1 else ''} the cache lacks (about {format_duration(total)} of training here):",
              flush=True)
        for paper, job, seconds in todo:
            print(_describe(paper, job, seconds), flush=True)
        shippable = [(paper, job) for paper, job, _ in todo if "build" in job]
        if not train or not shippable:
            print(f"  {'they train' if n > 1 else 'it trains'} in the page when the tour opens, with a progress "
                  "bar there", flush=True)
            return [job["job"]["key"] for _, job in found]
        left = [(paper, job) for paper, job in found if "build" not in job]
        for paper, job in left:
            print(f"  {paper}: {job['job']['builder']} trains in the page ({job['job']['why_not']})", flush=True)
        m = len(shippable)
        print(f"  training {'them' if m > 1 else 'it'} now, before the page opens (`serve --no-train` leaves "
              f"{'them' if m > 1 else 'it'} to the page)", flush=True)
        for paper, job in shippable:
            _train(paper, job, cache)
        return [job["job"]["key"] for _, job in left]


def serve(args) -> int:
    """The tour in Voila on 127.0.0.1 (code hidden; cells shown as they run, so a training's progress bar is
    seen): the batch run's cache (`--results-dir`/cache, or $MEMLIB_CACHE), the quick or smoke explorers."""
    check_choice(args.profile, TOUR_PROFILES, "tour profile")
    if args.port is not None and not 1 <= args.port <= 65535:
        raise MemlibError(f"--port {args.port}: a TCP port is 1..65535 (leave it out for 8866, or a free one)")
    try:
        import voila  # noqa: F401 - the optional extra [serve]: only checked for here, it runs in its own process
    except ImportError:
        raise MemlibError("voila is not installed: `./run_all.sh serve` installs it, or pip install voila") from None
    cache = cache_folder(results_root(args.results_dir))
    # Voila passes no parameters to a kernel, so the Voila process's environment is the one channel to the tour's
    # kernels: they inherit these two (memlib.widgets.tour and memlib.harness.context read them; the kernel's run context is the
    # default one: interactive, live widgets). This process's own environment is left as it is.
    voila_env = {**os.environ, "MEMLIB_CACHE": str(cache), "MEMLIB_TOUR_PROFILE": args.profile}
    ensure_kernel()                                    # the tour's kernelspec: "memlib", this Python
    prepare_first_views(args.profile, cache, train=not args.no_train)
    port = args.port if args.port is not None else _free_port(8866)
    url = f"http://127.0.0.1:{port}/"
    cmd = [sys.executable, "-c", VOILA, str(NOTEBOOK_DIR / f"{TOUR}.ipynb"), f"--port={port}",
           "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", "--VoilaConfiguration.progressive_rendering=True",
           # a page closed for 10 minutes gives its kernel back (one kernel per page opened)
           "--MappingKernelManager.cull_idle_timeout=600", "--MappingKernelManager.cull_interval=60",
           ] + (["--no-browser"] if args.no_browser else [])
    print(f"memlib tour ({args.profile} explorers, models cached in {cache}): open {url}\n"
          "  (a setting whose model is not in the cache trains in the page with a progress bar; Ctrl-C stops the "
          "server)", flush=True)
    os.chdir(NOTEBOOK_DIR)
    os.execve(sys.executable, cmd, voila_env)   # Voila in this process: Ctrl-C or a SIGTERM stops it and its kernels
