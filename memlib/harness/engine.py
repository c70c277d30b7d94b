"""Running a plan (memlib.harness.plan): what each job costs, and training the jobs on a Ray cluster.

`train_job(payload)` trains one job exactly as the notebook would have (`store.train_entries`, with the
planning kernel's thread count) and returns its cache entries; it runs in any process. `run_ray` sends
the jobs not yet in the cache to Ray as tasks (a small model takes a fraction of a GPU, so several share
one; one CPU each where there is no GPU), retries a task once when it fails or its worker dies, writes
each finished job's entries into the cache on the driver (no shared filesystem), and reports the jobs
that failed twice without stopping the others. Ray is optional (`pip install memlib[ray]`): nothing here
imports it before `run_ray` is called.

`costs` measures each distinct configuration's seconds per step on this machine (memlib.harness.estimate) and
estimates H100 GPU-hours from the step's FLOPs (one forward and backward pass counted by PyTorch).
"""
from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import torch

from . import jobfile
from . import plan as _plan
from .estimate import format_duration, step_time
from .modes import planning
from .progress import progress_bar
from ..runtime import MemlibError, set_device
from .store import Cache, build_model, train_entries

# H100 GPU-hours from FLOPs: an estimate until a GPU measures it (benchmarks/gpu_check.sh runs `plan` there).
H100_FP32_FLOPS = 25e12      # assumed sustained float32 rate with TF32 off, about half of the H100 SXM's 51 TFLOP/s peak
H100_MIN_STEP_S = 1 / 3335   # measured: paper 1's 5-layer 32-channel ConvNet, one whole step in one CUDA graph
GPU_SHARE = ((1e6, 0.25), (1e7, 0.5))   # (parameters below, fraction of a GPU per task); larger models: 1


def train_job(payload: dict, device: str = "cpu") -> list:
    """Train one job: [(config, entry) per seed], as `fit_cached` / `fit_cached_seeds` would store them."""
    if not payload.get("kind"):
        raise MemlibError(f"job {payload['job']['key']} cannot run outside its notebook: {payload['job']['why_not']}")
    if planning():
        raise MemlibError("a job cannot train while planning (the run context's plan_dir is set): it would train 0 steps")
    set_device(device)
    torch.set_num_threads(payload.get("threads") or torch.get_num_threads())   # the notebook's: the same arithmetic
    fit_kwargs = {**payload["fit_kwargs"], "progress": False}
    entries = train_entries(payload["kind"], payload["build"], payload["x"], payload["target"], payload["seeds"],
                            payload["init"], fit_kwargs)
    return list(zip(payload["configs"], entries))


def flops_per_step(build, x: torch.Tensor, batch_size: int | None = None) -> float:
    """FLOPs of one training step of one model (a forward and a backward pass) on a batch of `batch_size`
    images of `x` (None: all of `x`, full-batch), counted on at most 256 of them and scaled."""
    from torch.utils.flop_counter import FlopCounterMode
    n = min(batch_size or len(x), len(x))
    counted = min(n, 256)
    model = build_model(build, seed=0)
    with FlopCounterMode(display=False) as counter:
        model(x[:counted]).float().pow(2).mean().backward()
    return counter.get_total_flops() * n / counted


def costs(plan_dir, jobs: list, *, device: str = "cpu", probe_steps: int = 2, progress: bool = True) -> dict:
    """{job key: {"step_s", "est_s", "gflops_step", "h100_gpu_h"}}: seconds per step measured on `device`
    (configurations measured once) times steps times models, and the FLOP estimate for an H100."""
    set_device(device)
    measured, out = {}, {}
    bar = progress_bar(total=len(jobs), desc="measuring step rates", disable=not progress)
    for job in jobs:
        bar.update(1)
        if not job.shippable:
            continue
        p = jobfile.load_payload(Path(plan_dir) / "jobs" / job.file)
        kw = {k: v for k, v in p["fit_kwargs"].items() if k not in ("callbacks",)}
        sig = (job.builder, tuple(job.x_shape), None if p["target"] is None else tuple(p["target"].shape),
               repr(sorted((k, v) for k, v in kw.items() if k != "steps")))
        if sig not in measured:
            x = p["x"]
            measured[sig] = (step_time(p["build"], x, p["target"], probe_steps=probe_steps, **kw),
                             flops_per_step(p["build"], x, kw.get("batch_size")))
        step_s, flops = measured[sig]
        gpu_s = job.model_steps * max(flops / H100_FP32_FLOPS, H100_MIN_STEP_S)
        out[job.key] = {"step_s": step_s, "est_s": step_s * job.model_steps, "gflops_step": flops / 1e9,
                        "h100_gpu_h": gpu_s / 3600}
    bar.close()
    return out


def print_plan(jobs: list, costs_: dict, *, device: str, profile: str) -> None:
    """One line per notebook (jobs, models, model-steps, estimated time here and H100 GPU-hours), the total."""
    cols = ("jobs", "models", "model_steps", "est_s", "h100_gpu_h")
    by_nb = _plan.totals(jobs, costs_)
    by_nb["total"] = {c: sum(t[c] for t in by_nb.values()) for c in cols}
    print(f"plan ({profile}): {'notebook':<28} {'jobs':>5} {'models':>7} {'model-steps':>13} "
          f"{'time on ' + device:>16} {'H100 GPU-h':>11}")
    for nb, t in by_nb.items():
        print(f"{'':15}{nb:<28} {t['jobs']:>5} {t['models']:>7} {t['model_steps']:>13,} "
              f"{format_duration(t['est_s']):>16} {t['h100_gpu_h']:>11.2f}")
    unship = [j for j in jobs if not j.shippable]
    if unship:
        print(f"  {len(unship)} job(s) can only train inside their notebook: " + "; ".join(
            f"{j.notebook} {j.builder}: {j.why_not}" for j in unship[:3]))


def _gpu_share(n_params: int) -> float:
    return next((share for below, share in GPU_SHARE if n_params < below), 1.0)


def _remote_train(job_bytes: bytes, device: str) -> bytes:
    """A Ray task's body: a job file's bytes in, the torch.save of its [(config, entry)] out."""
    fault = os.environ.get("MEMLIB_FAULT_KILL_ONCE")       # fault injection for the tests: the first task dies
    if fault and not os.path.exists(fault):
        Path(fault).write_text(str(os.getpid()))
        os._exit(1)
    # onto the worker's device: tensors a callback holds (written on the planning kernel's device) go with the model
    payload = torch.load(io.BytesIO(job_bytes), map_location=device, weights_only=False)
    buf = io.BytesIO()
    torch.save(train_job(payload, device), buf)
    return buf.getvalue()


def run_ray(plan_dir, jobs: list, cache: Cache, *, address: str | None = None, num_cpus: int | None = None,
            retries: int = 1, progress: bool = True) -> dict:
    """Train the jobs whose entries are not all in `cache` as Ray tasks; write each result into `cache`.
    Returns {"trained": [keys], "failed": {key: reason}, "skipped": n (already cached or not shippable)}."""
    try:
        import ray
    except ImportError:
        raise MemlibError("--engine ray needs Ray: pip install 'memlib[ray]' (or ./run_all.sh --extras ray)") from None
    todo = [j for j in jobs if j.shippable and not all((cache.root / f"{k}.pt").exists() for k in j.keys)]
    out = {"trained": [], "failed": {}, "skipped": len(jobs) - len(todo)}
    if not todo:
        return out
    env = {k: v for k, v in os.environ.items() if k.startswith("MEMLIB_FAULT")}
    runtime_env = {"env_vars": env} if env else {}
    if address:          # a cluster: ship memlib itself (its nodes need torch, not this checkout)
        runtime_env["py_modules"] = [str(Path(__file__).parent.parent)]    # memlib/, not memlib/harness/
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=None if address else num_cpus, include_dashboard=False,
                 logging_level="ERROR", log_to_driver=False, runtime_env=runtime_env or None)
    gpus = ray.cluster_resources().get("GPU", 0)
    device = "cuda" if gpus else "cpu"
    task = ray.remote(_remote_train)
    refs = {}
    for j in todo:
        opts = {"num_cpus": 1, "num_gpus": _gpu_share(j.n_params) if gpus else 0, "max_retries": retries,
                "retry_exceptions": True}
        blob = (Path(plan_dir) / "jobs" / j.file).read_bytes()
        refs[task.options(**opts).remote(blob, device)] = j
    print(f"ray: {len(todo)} job(s) on {ray.cluster_resources().get('CPU', 0):.0f} CPU(s), {gpus:.0f} GPU(s)"
          f" ({out['skipped']} already cached)", flush=True)
    bar = progress_bar(total=len(todo), desc="jobs", unit="job", disable=not progress)
    pending = list(refs)
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        j = refs[done[0]]
        try:
            results = torch.load(io.BytesIO(ray.get(done[0])), map_location="cpu", weights_only=False)
            for config, entry in results:
                cache.save(config, entry)
            out["trained"].append(j.key)
        except Exception as e:  # noqa: BLE001 - reported by job; the others go on
            reason = (str(e).strip().splitlines() or [type(e).__name__])[-1][:300]
            out["failed"][j.key] = f"{j.notebook} {j.builder} seeds {j.seeds}: {reason}"
            print(f"  job {j.key} failed twice: {out['failed'][j.key]}", file=sys.stderr, flush=True)
        bar.update(1)
    bar.close()
    return out
