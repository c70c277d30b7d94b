"""A run's context: one frozen `RunContext`, the one place library code reads what a run was started with.

`python -m memlib run` (and `plan`, `run --engine ray`) passes its settings to each notebook as papermill
parameters (the notebook's parameters cell: `profile`, `device`, `seed`, `results_dir`, `data_root`, and
`run_dir`, `cache_dir`, `plan_dir`, `max_steps`, `headless`); the notebook hands them to `Run(...)`, which builds
the `RunContext` and makes it the session's (`activate`). Library code asks `current()` (through `memlib.harness.modes`:
`planning`, `max_steps`, `headless`) instead of reading environment variables. A session without a `Run` (the
tour, a test, a Python prompt) has the default context: no run folder, not planning, no cap, interactive.

The one environment variable read here is `MEMLIB_CACHE`, a user's setting (README): the model cache's folder
where none is given (`cache_folder`).
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class RunContext:
    """What one run was started with. Built by `Run(...)` from its arguments (the notebook's parameters)."""
    notebook: str = ""                 # the notebook's name (a planned job records it)
    profile: str = "quick"
    device: str = "auto"               # as asked ("auto" too); the device chosen is runtime.get_device()
    seed: int = 0
    results_dir: Path | None = None    # the results root, absolute (store.results_root)
    run_dir: Path | None = None        # where this run writes: results_dir/profile/notebook, or the CLI's staging folder
    cache_dir: Path | None = None      # the model cache (`cache_folder`)
    data_root: Path | None = None      # the resolved data root (None: the embedded sets only)
    plan_dir: Path | None = None       # planning (memlib.harness.plan): each training the cache lacks becomes a job file here
    max_steps: int | None = None       # a cap on every training (`run --untrained`: 0); None: no cap
    headless: bool = False             # executed by `python -m memlib run`: text progress bars, static explorers


_current = RunContext()


def current() -> RunContext:
    """The session's context: the last `Run`'s, else the default (no run, not planning, no cap, interactive)."""
    return _current


def activate(ctx: RunContext) -> RunContext:
    """Make `ctx` the session's context (what `Run(...)` does); returns it."""
    global _current
    _current = ctx
    return ctx


@contextlib.contextmanager
def active(ctx: RunContext):
    """`with active(ctx): ...`: `ctx` is the session's context inside, the previous one after (tests, the CLI)."""
    before = current()
    activate(ctx)
    try:
        yield ctx
    finally:
        activate(before)


def cache_folder(results_dir) -> Path:
    """The model cache's folder where none is given: `$MEMLIB_CACHE` (a user's setting; relative to the working
    folder), else `results_dir/cache`; absolute."""
    return Path(os.environ.get("MEMLIB_CACHE") or Path(results_dir) / "cache").expanduser().resolve()


def cache_advice() -> str:
    """What to do about a model cache that cannot be written, by where its folder came from (`cache_folder`)."""
    if os.environ.get("MEMLIB_CACHE"):
        return "set MEMLIB_CACHE to another folder (or unset it: the cache is then RESULTS_DIR/cache)"
    return "choose another --results-dir (the cache is its cache/) or set MEMLIB_CACHE to another folder"
