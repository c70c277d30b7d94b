"""Trainings as data: every training a notebook will ask for, listed before anything is trained.

`python -m memlib plan` (and `run --engine ray`) executes the notebooks with `MEMLIB_PLAN_DIR` set. In
that mode `store.fit_cached` / `fit_cached_seeds` read the cache as usual, but a miss is not trained: it
is written here as a *job* (its kind, builder, data, seeds, initialization and `fit` arguments, and the
cache keys of its entries) and the notebook goes on with the untrained model (0 steps, nothing cached).
A job file holds everything needed to train it anywhere (memlib.engine.train_job): no shared filesystem.

Trainings whose arguments depend on other trainings' results are found in *rounds*: after round 1's
jobs are trained and cached, planning again lists what the notebooks ask for given the real results
(the cached models are read, not placeholders), until a round lists nothing.

This module only records and reads jobs (store imports it); costs and running are memlib.engine's.
"""
from __future__ import annotations

import io
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import torch

from .runtime import atomic_write_bytes, atomic_write_text, planning

NOT_KEYED = ("progress", "desc")     # `fit` arguments that change how a training shows, not what it computes


@dataclass
class Job:
    """One planned training: `kind` "one" (a `fit_cached` call) or "band" (the missing seeds of a
    `fit_cached_seeds` call, trained together as `fit_many` trains them)."""
    key: str                  # the first entry's cache key: the job's name
    keys: list                # one cache key per seed
    notebook: str
    kind: str
    builder: str              # e.g. "memlib.models.convnet(5, channels=32)"
    seeds: list
    steps: int
    n_params: int             # parameters of one model
    x_shape: list
    file: str                 # the job file (torch.save of everything `train_job` needs)
    shippable: bool = True    # False: its arguments could not be written (trained by the notebook itself)
    why_not: str = ""

    @property
    def n_models(self) -> int:
        return len(self.seeds)

    @property
    def model_steps(self) -> int:
        return self.steps * len(self.seeds)


def _builder_text(build) -> str:
    import functools
    if isinstance(build, functools.partial):
        args = [repr(a) for a in build.args] + [f"{k}={v!r}" for k, v in build.keywords.items()]
        return f"{_builder_text(build.func)}({', '.join(args)})"
    return f"{build.__module__}.{getattr(build, '__qualname__', build)}"


def record(kind: str, build, x: torch.Tensor, target, seeds, init: str, fit_kwargs: dict, configs: list,
           key, n_params: int) -> Job | None:
    """Write the job for a training that missed the cache while planning (called by store). `key` maps a
    config to its cache key; `n_params`: one model's parameter count. A job already written (the notebook
    asked twice) is not written again."""
    root = Path(planning())
    keys = [key(c) for c in configs]
    path = root / "jobs" / f"{keys[0]}.pt"
    if path.exists():
        return None
    notebook = os.environ.get("MEMLIB_PLAN_NOTEBOOK", "")
    job = Job(key=keys[0], keys=keys, notebook=notebook, kind=kind, builder=_builder_text(build), seeds=list(seeds),
              steps=int(fit_kwargs.get("steps", 0)), n_params=int(n_params), x_shape=list(x.shape), file=path.name)
    payload = {"kind": kind, "build": build, "x": x.detach().cpu(),
               "target": None if target is None else target.detach().cpu(), "seeds": list(seeds), "init": init,
               "fit_kwargs": {k: v for k, v in fit_kwargs.items() if k not in NOT_KEYED},
               "desc": fit_kwargs.get("desc"), "configs": configs, "keys": keys,
               "threads": torch.get_num_threads(), "job": job.__dict__}
    buf = io.BytesIO()
    try:
        torch.save(payload, buf)
    except Exception as e:  # noqa: BLE001 - e.g. a callback that cannot be pickled: the notebook trains it
        job.shippable, job.why_not = False, f"{type(e).__name__}: {e}"[:200]
        payload = {"job": job.__dict__}
        buf = io.BytesIO()
        torch.save(payload, buf)
    atomic_write_bytes(path, buf.getvalue())
    return job


def load_payload(path) -> dict:
    return torch.load(path, map_location="cpu", weights_only=False)


def jobs(plan_dir) -> list[Job]:
    """The jobs planned into `plan_dir`, in the order they were asked for (file times)."""
    files = sorted((Path(plan_dir) / "jobs").glob("*.pt"), key=lambda f: (f.stat().st_mtime_ns, f.name))
    return [Job(**load_payload(f)["job"]) for f in files]


NO_JOBS = {"jobs": 0, "models": 0, "model_steps": 0, "est_s": 0.0, "h100_gpu_h": 0.0}   # a notebook's totals row


def totals(jobs_: list[Job], costs: dict | None = None) -> dict:
    """{notebook: {"jobs", "models", "model_steps", "est_s", "h100_gpu_h"}} summed over `jobs_` (costs by job key)."""
    costs = costs or {}
    out: dict = {}
    for j in jobs_:
        c = costs.get(j.key, {})
        t = out.setdefault(j.notebook, dict(NO_JOBS))
        for name, value in (("jobs", 1), ("models", j.n_models), ("model_steps", j.model_steps),
                            ("est_s", c.get("est_s", 0.0)), ("h100_gpu_h", c.get("h100_gpu_h", 0.0))):
            t[name] += value
    return out


def write_json(path, jobs_: list[Job], *, profile: str, costs: dict | None = None, note: str = "") -> None:
    """The plan as JSON: its jobs (with `costs[key]` where measured) and the totals per notebook."""
    costs = costs or {}
    rows = [{**j.__dict__, **costs.get(j.key, {})} for j in jobs_]
    atomic_write_text(path, json.dumps({"profile": profile, "date": _today(), "note": note,
                                        "totals": totals(jobs_, costs), "jobs": rows}, indent=1, default=str))


def _today() -> str:
    return time.strftime("%Y-%m-%d", time.gmtime())


RECORDED = Path(__file__).resolve().parent.parent / "baselines"   # plan-<profile>.json: totals of a committed plan


def _recorded(profile: str, folder=None) -> tuple[Path, dict | None]:
    """The path of `profile`'s recorded totals and what it holds ({"date", "totals", ...}; None: nothing readable)."""
    path = Path(folder or RECORDED) / f"plan-{profile}.json"
    try:
        recorded = json.loads(path.read_text())
        return path, (recorded if isinstance(recorded.get("totals"), dict) else None)
    except (OSError, ValueError, AttributeError):
        return path, None


def record_totals(profile: str, jobs_: list[Job], costs: dict, *, notebooks: list[str], note: str = "",
                  folder=None) -> Path:
    """Write the totals of a plan to baselines/plan-<profile>.json (committed; `run --profile <profile>` prints
    its estimate from it). The notebooks planned now replace their rows and keep the others', so a profile can
    be planned notebook by notebook. Plan with an empty cache: jobs already cached are not in a plan."""
    path, recorded = _recorded(profile, folder)
    rows = recorded["totals"] if recorded else {}
    now = totals(jobs_, costs)
    rows.update({nb: now.get(nb, NO_JOBS) for nb in notebooks})
    atomic_write_text(path, json.dumps({"profile": profile, "date": _today(), "note": note,
                                        "totals": dict(sorted(rows.items()))}, indent=1) + "\n")
    return path


def recorded_estimate(profile: str, notebooks: list[str], *, folder=None) -> str | None:
    """One line: the training GPU-hours that the committed plan of `profile` (baselines/plan-<profile>.json,
    written by `python -m memlib plan`) estimates for `notebooks`, per notebook; None where none is recorded."""
    path, recorded = _recorded(profile, folder)
    if recorded is None:
        return None
    rows = {nb: recorded["totals"][nb] for nb in notebooks if nb in recorded["totals"]}
    if not rows:
        return None
    hours = sum(t["h100_gpu_h"] for t in rows.values())
    each = ", ".join(f"{nb[:2]} {_minutes(t['h100_gpu_h'])} ({t['models']:,} model{'s' * (t['models'] != 1)})" for nb, t in rows.items())
    return (f"{profile} profile: training estimated at {_minutes(hours)} on one H100 ({each}; FLOPs of the plan in "
            f"{path.parent.name}/{path.name}, {recorded.get('date', 'undated')}; evaluation not counted)")


def _minutes(hours: float) -> str:
    if hours * 60 < 0.5:
        return "under 1 min"
    return f"{hours * 60:.0f} min" if hours < 10 else f"{hours:,.0f} h"
