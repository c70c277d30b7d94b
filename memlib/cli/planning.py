"""The notebooks executed in planning mode (memlib.harness.plan): each training the cache lacks is written down as a job
file instead of run; used by `plan` and by each round of `run --engine ray`."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..harness.paths import workdir
from .common import notebook_parameters, notebook_source
from .kernels import manager_class


def plan_notebooks(names, args, results: Path, cache: Path, plan_dir: Path, kernel: str, cell_timeout) -> list[str]:
    """Execute the notebooks in planning mode (memlib.harness.plan): every training not in `cache` is written
    under `plan_dir`/jobs instead of run. Their outputs are thrown away. Returns the notebooks that failed."""
    import papermill as pm   # papermill (and the Jupyter stack under it) loads only for the commands that run notebooks
    failed = []
    backend = os.environ.get("MPLBACKEND")    # matplotlib's own setting, for the kernel: its figures are thrown
    os.environ["MPLBACKEND"] = "agg"          # away, none is rendered at the end of a cell
    try:
        for i, name in enumerate(names, 1):
            with tempfile.TemporaryDirectory(prefix=f"memlib-plan-{name}-") as stage:
                params = notebook_parameters(args, results, cache, stage, plan_dir=plan_dir)
                print(f"  planning [{i}/{len(names)}] {name}", flush=True)
                try:
                    # as `run` executes it: every part but those the profile leaves to full (harness.deferred)
                    source, _ = notebook_source(name, args.profile, getattr(args, "part", None),
                                                getattr(args, "skip_part", None))
                    pm.execute_notebook(source, str(Path(stage) / f"{name}.ipynb"),
                                        parameters=params, kernel_name=kernel, cwd=str(workdir()),
                                        execution_timeout=cell_timeout, progress_bar=False, log_output=False,
                                        kernel_manager_class=manager_class())   # as `run`'s: over IPC
                except pm.PapermillExecutionError as e:
                    failed.append(name)
                    print(f"  {name}: planning stopped in cell {e.exec_count} ({e.ename}: "
                          f"{(str(e.evalue).strip().splitlines() or [''])[0][:200]}); its later trainings are not "
                          "planned", flush=True)
    finally:
        if backend is None:                   # as it was before planning
            os.environ.pop("MPLBACKEND", None)
        else:
            os.environ["MPLBACKEND"] = backend
    return failed
