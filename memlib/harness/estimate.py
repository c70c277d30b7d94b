"""How long a notebook's training will take, measured before it starts (paper 1's 2,000,000 steps).

A *job* (`plan.Job`, also importable as `estimate.Job`) is one `fit_cached_seeds` call: a model builder,
its data, the number of steps, the seeds and the other `fit` arguments. `step_time` trains a throw-away
model for a few steps on the current device and returns seconds per step; `estimate_runtime` sums `step time x steps x uncached seeds`
over the jobs (cached seeds cost nothing), so a notebook can print "about 41 h on cuda" before it
commits to the paper profile.
"""
from __future__ import annotations

import functools
import time

import torch

from .. import models
from .cachekey import NOT_KEYED
from .modes import planning
from .plan import Job
from .progress import progress_bar
from ..runtime import get_device, thread_numerics
from .store import build_model, cache_key, is_cached
from ..train import TrainingDiverged, fit


def train_together(jobs, *, workers: int | None = None, progress: bool = True) -> None:
    """Train every job of `jobs` the cache lacks, several at once on a CPU; afterwards each job's
    `train`/`band` reads the cache, so a notebook calls this before the loop that uses the jobs.

    Small models use a core badly: on a CPU with `workers` (default: the intra-op threads) > 1 the jobs
    run in that many Python threads with one intra-op thread each (PyTorch releases the GIL inside its
    kernels). Each job trains exactly as its own `train` would (its models are built under a lock, its
    arithmetic is one thread's). On a GPU, or with one job to train, this does nothing: the jobs train
    one after another where they are used. While planning it records the jobs with one thread each."""
    from concurrent.futures import ThreadPoolExecutor
    workers = workers or torch.get_num_threads()
    todo, seen = [], set()
    for j in jobs:
        keys = tuple(cache_key(j.build, j.x, j.target, seed=s, steps=j.steps, **j.fit_kwargs) for s in j.seeds)
        if keys not in seen and not all(is_cached(j.build, j.x, j.target, seed=s, steps=j.steps, **j.fit_kwargs)
                                        for s in j.seeds):
            todo.append(j)                        # a job asked for twice (a sweep's shared model) trains once
        seen.add(keys)
    if get_device().type != "cpu" or workers < 2 or len(todo) < 2:
        return
    saved = torch.get_num_threads()
    if planning():             # record the jobs now, with the one intra-op thread each will train with here,
        torch.set_num_threads(1)   # so that a Ray worker repeats this arithmetic bit for bit (memlib.harness.engine)
        try:
            for job in todo:
                job.train(progress=False)
        finally:
            torch.set_num_threads(saved)
        return
    bar = progress_bar(total=len(todo), desc=f"training {len(todo)} jobs, {workers} at a time", disable=not progress)

    def one(job):
        torch.set_num_threads(1)                                  # this thread's intra-op threads
        thread_numerics()                                         # and its floating-point state
        try:
            job.train(progress=False)
        except TrainingDiverged:   # met again where the notebook uses the job (`train`, `train_until_stable`)
            pass
        bar.update(1)
        bar.set_postfix_str(job.name)

    torch.set_num_threads(1)
    try:
        with ThreadPoolExecutor(workers) as pool:
            list(pool.map(one, sorted(todo, key=lambda j: -j.steps * len(j.seeds))))   # longest first
    finally:
        torch.set_num_threads(saved)
        bar.close()


def convnet_job(depth: int, *, x: torch.Tensor, steps: int, seeds, channels: int, kernel: int = 5, name: str = "",
                fit_kwargs=None, **overrides) -> Job:
    """A plain ConvNet's seed band as a `Job` (paper 1's sweeps around Fig 3a's nets):
    `models.convnet(depth, channels=channels)` (with `kernel=` only when it is not the default 5, so
    the cache key is the one of the same net built without it), trained with `fit_kwargs` updated
    by `overrides` (e.g. `optimizer="adam", lr=1e-4`)."""
    kw = {"channels": channels} if kernel == 5 else {"channels": channels, "kernel": kernel}
    return Job(name or f"ConvNet depth {depth}", functools.partial(models.convnet, depth, **kw), x, steps,
               list(seeds), fit_kwargs={**(fit_kwargs or {}), **overrides})


def step_time(build, x: torch.Tensor, target: torch.Tensor | None = None, *, probe_steps: int = 3,
              **fit_kwargs) -> float:
    """Seconds per training step of `build()` on `x`: after a warm-up step, `fit` is timed for
    `probe_steps` and for `2 * probe_steps` steps and the difference is divided by `probe_steps`, so
    the per-call overhead (optimizer set-up, the final loss evaluation) is not counted as steps."""
    kw = {k: v for k, v in fit_kwargs.items()
          if k not in (*NOT_KEYED, "steps", "until_loss", "callbacks", "init", "weights_at")}
    kw.setdefault("lr", 0.01)
    model = build_model(build, seed=0, init=fit_kwargs.get("init", "default"))   # the job's init: its arithmetic
    n = max(int(probe_steps), 1)

    def timed(steps):
        if get_device().type == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        fit(model, x, target, steps=steps, progress=False, **kw)
        if get_device().type == "cuda":
            torch.cuda.synchronize()
        return time.perf_counter() - start
    try:
        timed(1)                                                         # warm-up (allocations, kernels)
        short, long = timed(n), timed(2 * n)
    except TrainingDiverged:
        # a configuration that diverges within a few steps (paper 4's large initial norms at lr 0.1) costs the
        # same per step: time it at step size 0 (the same arithmetic), from fresh weights
        if kw.get("lr") == 0.0:
            raise
        return step_time(build, x, target, probe_steps=probe_steps, **{**fit_kwargs, "lr": 0.0})
    return max(long - short, 0.25 * long) / n                            # noise can make the difference tiny


def estimate_runtime(jobs, *, probe_steps: int = 3, timer=step_time) -> dict:
    """Estimated training seconds of `jobs` (a list of `Job`): {job name: seconds, "total": seconds}.

    Seeds already in the cache cost 0; jobs that share a builder, data and arguments are timed once.
    """
    out, measured = {}, {}
    for job in jobs:
        todo = [s for s in job.seeds if not is_cached(job.build, job.x, job.target, seed=s, steps=job.steps,
                                                        **job.fit_kwargs)]
        if not todo:
            out[job.name] = 0.0
            continue
        key = (repr(job.build), tuple(job.x.shape), None if job.target is None else tuple(job.target.shape),
               repr(sorted(job.fit_kwargs.items())))
        if key not in measured:
            measured[key] = timer(job.build, job.x, job.target, probe_steps=probe_steps, **job.fit_kwargs)
        out[job.name] = measured[key] * job.steps * len(todo)
    out["total"] = sum(out.values())
    return out


def format_duration(seconds: float) -> str:
    """`3725` -> "1 h 02 min", `75` -> "1 min 15 s", `4.2` -> "4.2 s", `200000` -> "2.3 days"."""
    if seconds >= 2 * 86400:
        return f"{seconds / 86400:.1f} days"
    if seconds >= 3600:
        return f"{int(seconds // 3600)} h {int(seconds % 3600 // 60):02d} min"
    if seconds >= 60:
        return f"{int(seconds // 60)} min {int(seconds % 60):02d} s"
    return f"{seconds:.1f} s"


def print_estimate(jobs, *, label: str = "training", probe_steps: int = 3) -> dict:
    """Measure, print one line per costly job and the total, and return `estimate_runtime`'s dict.
    A planning pass (memlib.harness.plan) measures its jobs itself: nothing is timed here then."""
    if planning():
        print(f"{label}: not estimated in a planning pass (python -m memlib plan measures each job)")
        return {"total": 0.0}
    est = estimate_runtime(jobs, probe_steps=probe_steps)
    total = est["total"]
    budgets = {job.name for job in jobs if job.fit_kwargs.get("until_loss") is not None and est.get(job.name, 0) > 0}
    costly = sorted(((v, k) for k, v in est.items() if k != "total" and v > 0.05 * total), reverse=True)
    bound = "at most " if budgets else ""          # a job that stops once fitted may use a fraction of its budget
    print(f"estimated {label} time on {get_device()}: {bound}{format_duration(total)} "
          f"(uncached seeds only; measured from {probe_steps} steps per configuration"
          + (f"; {len(budgets)} configuration(s) stop once they fit, timed here at their whole step budget: the "
             "lines marked 'at most'" if budgets else "") + ")")
    for v, k in costly[:8]:
        print(f"  {k}: {'at most ' if k in budgets else ''}{format_duration(v)}")
    return est
