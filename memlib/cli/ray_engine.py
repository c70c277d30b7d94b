"""`run --engine ray`: plan the notebooks' trainings, train each round's jobs on Ray (memlib.harness.engine, written into
the driver's cache), and plan again with their results until a round plans nothing."""
from __future__ import annotations

import shutil
from pathlib import Path

from ..harness import engine
from ..harness import plan as _plan
from ..harness.store import Cache
from .planning import plan_notebooks

MAX_ROUNDS = 5     # planning rounds of `run --engine ray` (trainings that depend on others' results)


def train_on_ray(names, args, results: Path, cache: Cache, kernel: str, cell_timeout) -> int:
    """`run --engine ray`: plan, train the round's jobs on Ray (written into `cache`, the notebooks' model
    cache, by this driver), plan again with their results, until a round plans nothing; the notebooks then
    render from the cache. A round re-plans only the notebooks that planned trainings in the round before.
    Returns the number of jobs that failed twice."""
    failed_jobs: dict = {}
    todo = list(names)
    for round_ in range(1, MAX_ROUNDS + 1):
        plan_dir = results / "plan" / args.profile / f"round-{round_}"
        shutil.rmtree(plan_dir, ignore_errors=True)
        print(f"ray: planning round {round_}" + (f" ({', '.join(todo)})" if round_ > 1 else ""), flush=True)
        plan_notebooks(todo, args, results, cache.root, plan_dir, kernel, cell_timeout)
        jobs = [j for j in _plan.jobs(plan_dir) if j.key not in failed_jobs]
        # a notebook that planned nothing read every model from the cache: another round can find nothing new in it
        todo = [n for n in todo if any(j.notebook == n for j in jobs)]
        _plan.write_json(plan_dir / "plan.json", jobs, profile=args.profile)
        if not jobs:
            print(f"ray: round {round_} plans no training: every model is in the cache", flush=True)
            break
        out = engine.run_ray(plan_dir, jobs, cache, address=args.address, num_cpus=args.ray_cpus)
        failed_jobs.update(out["failed"])
        print(f"ray: round {round_}: {len(out['trained'])} job(s) trained, {len(out['failed'])} failed", flush=True)
        if not out["trained"]:
            break
    else:
        print(f"ray: still planning trainings after {MAX_ROUNDS} rounds; the notebooks train the rest", flush=True)
    return len(failed_jobs)
