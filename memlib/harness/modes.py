"""The modes of the session's run context (`memlib.harness.context.current()`, read at each call, never cached):
`max_steps` (the untrained audit caps every training), `planning` (trainings are listed, not run; the science's
costly evaluations are handed one input for all, `harness.plan.substitute_evaluations`) and `headless` (a notebook
executed by `python -m memlib run`, which no one watches). `python -m memlib run`, `plan` and `run --engine ray` pass them to
the notebook as parameters, and `Run(...)` puts them in the context.
"""
from __future__ import annotations

import torch

from .context import current


def max_steps() -> int | None:
    """The cap the run context puts on every training (None: no cap). `python -m memlib run --untrained`
    sets it to 0: every net keeps its initial weights, and no claim about a trained net may hold then.
    While `planning()` every training is capped at 0 steps too (its job is recorded instead)."""
    if planning():
        return 0
    return current().max_steps


def planning() -> str | None:
    """The folder trainings are listed into instead of run (the context's `plan_dir`, passed by `python -m memlib
    plan` and `run --engine ray` to the notebook; see memlib.harness.plan), or None: the ordinary run."""
    plan_dir = current().plan_dir
    return str(plan_dir) if plan_dir else None


def planning_sample(x, dim: int = 0):
    """While `planning()`, the first of the N inputs along `dim` (the evaluation of a planning pass is thrown
    away: one input stands for all, so planning the paper profile does not evaluate untrained nets on 60,000
    images); else `x` itself. `planning_expand` gives the result back its N."""
    if planning() and torch.is_tensor(x) and x.dim() > dim and x.shape[dim] > 1:
        return x.narrow(dim, 0, 1)
    return x


def planning_expand(out, n: int, dim: int = 0):
    """`out` computed on `planning_sample`'s one input, repeated to `n` along `dim` (a no-op when it already
    has `n`, and whenever not planning)."""
    if planning() and torch.is_tensor(out) and out.dim() > dim and out.shape[dim] == 1 and n != 1:
        return out.expand(*out.shape[:dim], n, *out.shape[dim + 1:]).clone()
    return out


def headless() -> bool:
    """True inside a notebook executed by `python -m memlib run` (papermill): no one is watching, so
    progress bars are plain text and explorers draw one static figure instead of live widgets
    (ipywidgets' comm traffic can stall nbclient's execution: jupyter/nbclient#312)."""
    return current().headless
