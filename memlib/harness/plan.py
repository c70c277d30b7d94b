"""Trainings as data: the `Job` (one seed band to train), and the plan of every training the notebooks ask for.

A notebook writes a `Job` for a seed band it trains (`estimate.Job` is this class): `job.train()` / `job.band()`
call `store.fit_cached_seeds`, and memlib.harness.estimate times or trains several jobs together.

`python -m memlib plan` (and `run --engine ray`) executes the notebooks with a `plan_dir` parameter (in the run
context: `memlib.harness.context`). In that mode `store.fit_cached` / `fit_cached_seeds` read the cache as usual, but a
miss is not trained: it is written as a job file (memlib.harness.jobfile: its kind, builder, data, seeds,
initialization and `fit` arguments, and the cache keys of its entries) and the notebook goes on with the
untrained model (0 steps, nothing cached).
`jobs(plan_dir)` reads them back as `Job`s that carry the plan's record (keys, notebook, builder text,
parameters, shapes) and no tensors; memlib.harness.engine trains each from its file, anywhere: no shared filesystem.

Trainings whose arguments depend on other trainings' results are found in *rounds*: after round 1's
jobs are trained and cached, planning again lists what the notebooks ask for given the real results
(the cached models are read, not placeholders), until a round lists nothing.

Besides the `Job`, this module sums plans (`totals`, `write_json`) and keeps the committed totals
(`record_totals`, `recorded_estimate`); costs and running are memlib.harness.engine's.
"""
from __future__ import annotations

import functools
import inspect
import json
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import torch

from .. import dynamics, layerwise, metrics
from . import jobfile
from .fileio import atomic_write_text
from .modes import planning, planning_expand, planning_sample
from .paths import BASELINES
from ..train import TrainingDiverged
from .store import fit_cached_seeds

RECORD = ("key", "keys", "notebook", "kind", "builder", "seeds", "steps", "n_params", "x_shape", "file", "shippable",
          "why_not")      # a planned job's record: its job file's "job" entry and its row in plan.json, in this order


@dataclass
class Job:
    """One seed band to train: `store.fit_cached_seeds(build, x, target, seeds=seeds, steps=steps, **fit_kwargs)`.

    A notebook writes `Job(name, build, x, steps, seeds, fit_kwargs=...)` and calls `train` or `band`. A job
    read back from a plan (`jobs(plan_dir)`, `from_record`) has no builder or tensors (`build`, `x` are None;
    its file holds them) and carries the plan's record in the fields after `fit_kwargs`: `kind` "one" (a
    `fit_cached` call) or "band" (the missing seeds of a `fit_cached_seeds` call, trained together as
    `fit_many` trains them), one cache key per seed, and what its costs are estimated from."""
    name: str
    build: object
    x: torch.Tensor | None
    steps: int
    seeds: list = field(default_factory=lambda: [0])
    target: torch.Tensor | None = None
    fit_kwargs: dict = field(default_factory=dict)
    kind: str = "band"
    keys: list = field(default_factory=list)    # planned: one cache key per seed; the first names the job
    notebook: str = ""
    builder: str = ""                           # planned: e.g. "memlib.models.convnet(5, channels=32)"
    n_params: int = 0                           # planned: parameters of one model
    x_shape: list = field(default_factory=list)
    file: str = ""                              # planned: the job file under <plan dir>/jobs/
    shippable: bool = True                      # False: its arguments could not be written (the notebook trains it)
    why_not: str = ""

    @property
    def key(self) -> str:
        """A planned job's name: its first entry's cache key."""
        return self.keys[0] if self.keys else self.name

    @property
    def n_models(self) -> int:
        return len(self.seeds)

    @property
    def model_steps(self) -> int:
        return self.steps * len(self.seeds)

    def train(self, **extra) -> list:
        """Train (or read from the cache) every seed: [(model, history), ...] in `seeds` order.

        `store.fit_cached_seeds` trains the missing seeds together where that is faster and one
        after another where it must (minibatches, callbacks, partial training); `extra` (e.g. desc)
        is not part of the cache key."""
        return fit_cached_seeds(self.build, self.x, self.target, seeds=self.seeds, steps=self.steps,
                                **self.fit_kwargs, **extra)

    def train_until_stable(self, *, halvings: int = 3, **extra) -> tuple[list, float]:
        """`train`, and where the training diverges, the same job again at half the learning rate, at most
        `halvings` times: ([(model, history), ...], the rate that trained). Gradient descent is stable only below
        2 / (the loss's largest curvature), which grows with the inputs' scale, so one draw of random inputs can
        take a net at a fixed rate past it (paper 2, Table 1: at lr 0.05 the 128-filter 2-layer net diverged on one
        of 18 draws, seed 203). The halved training is its own cache entry; the last divergence is raised."""
        job = self
        for _ in range(halvings):
            try:
                return job.train(**extra), job.fit_kwargs["lr"]
            except TrainingDiverged as e:
                print(f"{job.name}: {e}; again at half the rate ({job.fit_kwargs['lr'] / 2:g})")
                job = replace(job, fit_kwargs={**job.fit_kwargs, "lr": job.fit_kwargs["lr"] / 2})
        return job.train(**extra), job.fit_kwargs["lr"]

    def band(self, **extra) -> tuple[list, list]:
        """`train`, split: ([model per seed], [History per seed]) in `seeds` order."""
        fitted = self.train(**extra)
        return [m for m, _ in fitted], [h for _, h in fitted]

    def record(self) -> dict:
        """The plan's record of this job ({field: value} for `RECORD`)."""
        return {name: getattr(self, name) for name in RECORD}

    @classmethod
    def from_record(cls, record: dict) -> "Job":
        """A planned job from its record (a job file's "job" entry)."""
        rest = {k: v for k, v in record.items() if k not in ("key", "steps", "seeds")}
        return cls(record["key"], None, None, record["steps"], list(record["seeds"]), **rest)


def jobs(plan_dir) -> list[Job]:
    """The jobs planned into `plan_dir`, in the order they were asked for (file times)."""
    return [Job.from_record(jobfile.load_payload(f)["job"]) for f in jobfile.files(plan_dir)]


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
    rows = [{**j.record(), **costs.get(j.key, {})} for j in jobs_]
    atomic_write_text(path, json.dumps({"profile": profile, "date": _today(), "note": note,
                                        "totals": totals(jobs_, costs), "jobs": rows}, indent=1, default=str))


def _today() -> str:
    return time.strftime("%Y-%m-%d", time.gmtime())


RECORDED = BASELINES   # plan-<profile>.json: totals of a committed plan (the repository's, or the wheel's copy)


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


# The science's evaluations whose cost grows with their inputs, and what a planning pass hands them instead
# (issue 43: no science module knows of planning; the planner substitutes their inputs). Each row: the module,
# the function, the arguments narrowed to their first element, and the dimension along which the result gets its
# N back (None: the result has no N, e.g. a probability, an error rate per layer, or `layer_activations`' summaries).
PLANNED_EVALUATIONS = (
    (metrics, "predict", ("x",), 0),                   # paper 1's probes, paper 3's 60,000 digits
    (metrics, "predict_each_batchnorm", ("x",), 0),    # one image at a time: N forward passes
    (metrics, "recovery_probability", ("starts",), None),
    (layerwise, "layer_activations", ("x",), 0),      # a list: each layer's (N, C, H, W), or summaries
    (layerwise, "layerwise_error", ("x_ref", "y_ref", "x_test", "y_test"), None),  # Fig 10: 60,000 refs
    (dynamics, "iterate", ("x0",), 1),                 # (T, N, ...)
)


def _planned(original, narrowed: tuple[str, ...], dim):
    """`original`, which while `planning()` is called with the arguments `narrowed` cut to their first element and
    whose result is repeated back to the N of the first of them (`planning_sample`, `planning_expand`)."""
    signature = inspect.signature(original)

    @functools.wraps(original)
    def planned(*args, **kwargs):
        if not planning():
            return original(*args, **kwargs)
        bound = signature.bind(*args, **kwargs)
        n = len(bound.arguments[narrowed[0]])
        for name in narrowed:
            bound.arguments[name] = planning_sample(bound.arguments[name])
        out = original(*bound.args, **bound.kwargs)
        if dim is None or bound.arguments.get("reduce") is not None:       # summaries: as many as were evaluated
            return out
        return [planning_expand(o, n, dim) for o in out] if isinstance(out, list) else planning_expand(out, n, dim)
    planned.__planned__ = original
    return planned


def substitute_evaluations() -> None:
    """Put `PLANNED_EVALUATIONS`' planned versions where the science's modules (and every memlib module that
    imported the name) hold them; they call the original unchanged whenever not `planning()`. `Run(...)` calls it
    when it starts a planning context: a planning pass throws its evaluations away, so one input stands for all
    (planning the paper profile must not evaluate untrained nets on 60,000 images at every layer of 105 nets).
    Idempotent."""
    for module, name, narrowed, dim in PLANNED_EVALUATIONS:
        original = getattr(module, name)
        if hasattr(original, "__planned__"):
            continue
        planned = _planned(original, narrowed, dim)
        for mod in [m for k, m in list(sys.modules.items()) if k == "memlib" or k.startswith("memlib.")]:
            for attr, value in list(vars(mod).items()):
                if value is original:
                    setattr(mod, attr, planned)
