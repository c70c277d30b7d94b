"""The notebooks executed in planning mode (memlib.plan): each training the cache lacks is written down as a job
file instead of run; used by `plan` and by each round of `run --engine ray`."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..paths import workdir
from .common import NOTEBOOK_DIR, data_root_parameter


def plan_notebooks(names, args, results: Path, plan_dir: Path, kernel: str, cell_timeout) -> list[str]:
    """Execute the notebooks in planning mode (memlib.plan): every training not in the cache is written
    under `plan_dir`/jobs instead of run. Their outputs are thrown away. Returns the notebooks that failed."""
    import papermill as pm   # papermill (and the Jupyter stack under it) loads only for the commands that run notebooks
    failed = []
    env = {"MEMLIB_PLAN_DIR": str(plan_dir),
           "MPLBACKEND": "agg"}     # its figures are thrown away: none is rendered at the end of a cell
    before = {k: os.environ.get(k) for k in (*env, "MEMLIB_RUN_DIR", "MEMLIB_PLAN_NOTEBOOK")}
    for i, name in enumerate(names, 1):
        with tempfile.TemporaryDirectory(prefix=f"memlib-plan-{name}-") as stage:
            os.environ.update(env, MEMLIB_RUN_DIR=stage, MEMLIB_PLAN_NOTEBOOK=name)
            params = dict(profile=args.profile, device=args.device, seed=args.seed, results_dir=str(results),
                          data_root=data_root_parameter(args.data_root))
            print(f"  planning [{i}/{len(names)}] {name}", flush=True)
            try:
                pm.execute_notebook(str(NOTEBOOK_DIR / f"{name}.ipynb"), str(Path(stage) / f"{name}.ipynb"),
                                    parameters=params, kernel_name=kernel, cwd=str(workdir()),
                                    execution_timeout=cell_timeout, progress_bar=False, log_output=False)
            except pm.PapermillExecutionError as e:
                failed.append(name)
                print(f"  {name}: planning stopped in cell {e.exec_count} ({e.ename}: "
                      f"{(str(e.evalue).strip().splitlines() or [''])[0][:200]}); its later trainings are not planned",
                      flush=True)
            finally:
                for k, v in before.items():      # as they were before planning
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v
    return failed
