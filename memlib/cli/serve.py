"""`serve`: the teaching tour (notebooks/00_tour.ipynb) in Voila on 127.0.0.1, reading and filling the batch
run's model cache; this process becomes the Voila server."""
from __future__ import annotations

import os
import socket
import sys

from ..harness.context import cache_folder
from ..runtime import MemlibError, check_choice
from ..harness.store import results_root
from ..widgets.tour import PROFILES as TOUR_PROFILES
from ..widgets.tour import TOUR
from .common import NOTEBOOK_DIR
from .notebooks import ensure_kernel


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
    port = args.port if args.port is not None else _free_port(8866)
    url = f"http://127.0.0.1:{port}/"
    cmd = [sys.executable, "-m", "voila", str(NOTEBOOK_DIR / f"{TOUR}.ipynb"), f"--port={port}",
           "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", "--VoilaConfiguration.progressive_rendering=True",
           # a page closed for 10 minutes gives its kernel back (one kernel per page opened)
           "--MappingKernelManager.cull_idle_timeout=600", "--MappingKernelManager.cull_interval=60",
           ] + (["--no-browser"] if args.no_browser else [])
    print(f"memlib tour ({args.profile} explorers, models cached in {cache}): open {url}\n"
          "  (models not in the cache train in the page with a progress bar; Ctrl-C stops the server)", flush=True)
    os.chdir(NOTEBOOK_DIR)
    os.execve(sys.executable, cmd, voila_env)   # Voila in this process: Ctrl-C or a SIGTERM stops it and its kernels
