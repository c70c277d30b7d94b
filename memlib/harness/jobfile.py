"""A planned training's file: written when a planning pass meets a cache miss, read to train it anywhere.

While planning (the run context's `plan_dir` set), `store.fit_cached` / `fit_cached_seeds` call `write` for each miss
instead of training. The file (`<plan dir>/jobs/<first cache key>.pt`, a `torch.save`) holds everything needed
to train the job in another process or on another machine (memlib.harness.engine.train_job): its kind, builder, data,
seeds, initialization, `fit` arguments, the cache configurations and keys of its entries, the planning
kernel's thread count, and under "job" the record that `plan.Job.from_record` reads back (the builder as
text, parameters, shapes). A job whose arguments cannot be pickled (e.g. a callback holding a lock) gets a
record alone, marked not shippable: the notebook trains it itself.

This module only writes and reads the files; it imports nothing of memlib's but `fileio`, `modes` and `context`,
so `store` can call it and `plan` (which holds the `Job` class) can read what it wrote.
"""
from __future__ import annotations

import functools
import io
from pathlib import Path

import torch

from .context import current
from .fileio import atomic_write_bytes
from .modes import planning


def builder_text(build) -> str:
    """A builder as one line of text, e.g. "memlib.models.convnet(5, channels=32)" for a functools.partial."""
    if isinstance(build, functools.partial):
        args = [repr(a) for a in build.args] + [f"{k}={v!r}" for k, v in build.keywords.items()]
        return f"{builder_text(build.func)}({', '.join(args)})"
    return f"{build.__module__}.{getattr(build, '__qualname__', build)}"


def write(kind: str, build, x: torch.Tensor, target, seeds, init: str, fit_kwargs: dict, desc, configs: list,
          keys: list, n_params: int) -> dict | None:
    """Write the job file of a training that missed the cache while planning (called by store) and return its
    record; None when the job was written already (the notebook asked twice). `fit_kwargs`: the arguments the
    training computes with (store leaves out those that only change how it shows; `desc` is kept for the
    progress bar); `keys`: one cache key per entry of `configs`; `n_params`: one model's parameter count."""
    path = Path(planning()) / "jobs" / f"{keys[0]}.pt"
    if path.exists():
        return None
    record = {"key": keys[0], "keys": list(keys), "notebook": current().notebook,
              "kind": kind, "builder": builder_text(build), "seeds": list(seeds),
              "steps": int(fit_kwargs.get("steps", 0)), "n_params": int(n_params), "x_shape": list(x.shape),
              "file": path.name, "shippable": True, "why_not": ""}
    payload = {"kind": kind, "build": build, "x": x.detach().cpu(),
               "target": None if target is None else target.detach().cpu(), "seeds": list(seeds), "init": init,
               "fit_kwargs": dict(fit_kwargs), "desc": desc, "configs": configs, "keys": list(keys),
               "threads": torch.get_num_threads(), "job": record}
    buf = io.BytesIO()
    try:
        torch.save(payload, buf)
    except Exception as e:  # noqa: BLE001 - e.g. a callback that cannot be pickled: the notebook trains it
        record.update(shippable=False, why_not=f"{type(e).__name__}: {e}"[:200])
        buf = io.BytesIO()
        torch.save({"job": record}, buf)
    atomic_write_bytes(path, buf.getvalue())
    return record


def load_payload(path) -> dict:
    """A job file's contents (tensors on the CPU)."""
    return torch.load(path, map_location="cpu", weights_only=False)


def files(plan_dir) -> list[Path]:
    """The job files of `plan_dir`, in the order they were written (file times)."""
    return sorted((Path(plan_dir) / "jobs").glob("*.pt"), key=lambda f: (f.stat().st_mtime_ns, f.name))
