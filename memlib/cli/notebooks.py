"""`run`: the notebooks executed headlessly with papermill under the "memlib" kernelspec (installed or repaired
here), each into a staging folder that is swapped in as a whole when it ends, finished or failed."""
from __future__ import annotations

import atexit
import contextlib
import importlib.util
import json
import os
import shutil
import sys
import time
from pathlib import Path

import torch

from .. import claims
from ..harness import parts as _parts
from ..harness import plan as _plan
from ..harness.context import RunContext, activate, cache_folder
from ..data import default_root, holds
from ..harness.fileio import (OWNER, atomic_write_text, dead_run_folders, mark_owner, remove_dead_run_folders,
                               remove_orphaned_temporaries)
from ..runtime import MemlibError
from ..harness.deferred import QUICK_BUDGET_S, left_out, per_claim_text
from ..harness.paths import workdir
from ..harness.store import Cache
from . import kernels, sections
from .common import (NOTEBOOK_DIR, cache_writable, notebook_parameters, notebook_source, notebooks, resolve_names,
                     writable)
from .ray_engine import train_on_ray
from .report import check_baseline, print_report, read_metrics, summary, untrained_audit
from .signals import interrupt_on_signals, signal_name, signal_status, signals_deferred, signals_resume

KERNEL = "memlib"


def runs_this_python(argv0: str) -> bool:
    """Whether a kernelspec's interpreter `argv0` is this environment's Python. A virtual environment's `python` is
    a symlink to the base interpreter, so resolving the file makes every venv of one base Python look alike (a
    kernelspec left by another venv would pass, and its notebooks run on that venv's packages); its folder is the
    venv's."""
    me = Path(sys.executable)
    return Path(argv0).is_absolute() and Path(argv0).parent.resolve() == me.parent.resolve() \
        and Path(argv0).resolve() == me.resolve()


def ensure_kernel() -> str:
    """Install (or repair) a Jupyter kernel named "memlib" that runs this very Python."""
    # the Jupyter stack loads only for the commands that start a kernel
    from ipykernel.kernelspec import install
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    try:
        spec = KernelSpecManager().get_kernel_spec(KERNEL)
        if spec.argv and runs_this_python(spec.argv[0]):
            return KERNEL
    except NoSuchKernel:
        pass
    install(kernel_name=KERNEL, display_name="Python (memlib)", prefix=sys.prefix)
    spec = KernelSpecManager().get_kernel_spec(KERNEL)
    if not runs_this_python(spec.argv[0]):
        raise MemlibError(f"a Jupyter kernel named {KERNEL!r} elsewhere ({spec.resource_dir}) shadows this "
                          f"environment's; remove it with `jupyter kernelspec remove {KERNEL}`")
    return KERNEL


def check_run_inputs(args) -> None:
    """Everything `run` can refuse, refused before a kernel starts (one line each)."""
    if args.data_root not in (None, "auto", "none") and not Path(args.data_root).expanduser().is_dir():
        raise MemlibError(f"--data-root {args.data_root} is not a directory")
    if args.profile in ("paper", "full"):
        root = (default_root() if args.data_root in (None, "auto") else
                None if args.data_root == "none" else Path(args.data_root).expanduser())
        if root is None or not holds(root, "mnist"):
            raise MemlibError(f"the {args.profile} profile trains on the papers' datasets: fetch MNIST into data/ "
                              "(python -m memlib data fetch mnist) or pass --data-root DIR holding MNIST/raw/ "
                              "(README: 'The papers' datasets')")
    if args.device == "cuda" and not torch.cuda.is_available():
        raise MemlibError("--device cuda: torch sees no GPU on this machine; use --device cpu or auto")
    engine = getattr(args, "engine", "notebook")
    if engine != "ray" and (getattr(args, "address", None) or getattr(args, "ray_cpus", None)):
        raise MemlibError("--address and --ray-cpus go with --engine ray")
    if engine == "ray":
        if importlib.util.find_spec("ray") is None:
            raise MemlibError("--engine ray needs Ray, an optional extra: MEMLIB_EXTRAS=ray ./run_all.sh (or "
                              "pip install -e '.[ray]')")
        if args.untrained:
            raise MemlibError("--untrained trains nothing: it has no plan for --engine ray to run")
    if args.against is not None:
        check_baseline(args.against, args.profile)
    if getattr(args, "part", None) and getattr(args, "skip_part", None):
        raise MemlibError("--part and --skip-part: give the parts to run or the parts to skip, not both")
    for option, chosen in (("--part", getattr(args, "part", None)), ("--skip-part", getattr(args, "skip_part", None))):
        if not chosen:
            continue
        names = resolve_names(args.only)
        if not args.only or len(names) != 1:
            raise MemlibError(f"{option} names a section of one notebook: give that notebook with --only (e.g. --only "
                              f"03 {option} sec6)")
        if engine == "ray" or args.untrained:
            raise MemlibError(f"{option} runs with the notebook engine and trains: leave out --engine ray and "
                              "--untrained")
        _parts.check_parts(read_notebook(names[0]), chosen, names[0], option)
        earlier = _parts.earlier_run(Path(args.results_dir).expanduser() / args.profile / names[0])
        seed = ((earlier or {}).get("provenance", {}).get("parameters") or {}).get("seed")
        if seed is not None and seed != args.seed and _parts.ALL not in chosen:
            raise MemlibError(f"{option}: the finished run of {names[0]} this run's parts join (in {args.results_dir}/"
                              f"{args.profile}) used --seed {seed}, this run {args.seed}: pass --seed {seed}, or "
                              "another --results-dir, or run the whole notebook (--part all)")


def read_notebook(name: str) -> dict:
    """A reproduction notebook's JSON."""
    return json.loads((NOTEBOOK_DIR / f"{name}.ipynb").read_text())


def run(args) -> int:
    """Execute the notebooks. Each writes into a fresh folder beside its results, swapped in when it
    finishes: a notebook that fails (or is interrupted) replaces its old results with its executed notebook
    and `failed.json`, so the report shows it as failed, never with older numbers."""
    names = resolve_names(args.only)
    check_run_inputs(args)
    results = Path(args.results_dir).expanduser().resolve()
    writable(results / args.profile)
    # the cache the kernels use, absolute (a relative $MEMLIB_CACHE would land in the kernel's folder, the repo)
    cache = cache_folder(results)
    cache_writable(cache)
    for line in withdraw_dead_runs(results / args.profile, notebooks()):
        print(line, flush=True)
    interrupt_on_signals()        # from here on: SIGTERM while papermill and the kernel start is "interrupted" too
    import papermill as pm   # papermill (and the Jupyter stack under it) loads only for the commands that run notebooks
    kernel = ensure_kernel()
    kernel_manager = kernels.manager_class()   # each kernel's stderr relayed, dropped after a Ctrl-C or a SIGTERM
    activate(RunContext(headless=True))   # this process's progress bars (Ray's jobs) as the kernels': plain text
    if args.profile in ("full", "paper"):
        line = _plan.recorded_estimate(args.profile, names)
        print((line or f"{args.profile} profile: no recorded plan (python -m memlib plan --profile {args.profile} "
                        "estimates it)") + "; benchmarks/gpu_check.sh measures it. Notebook 01 prints estimates from "
              "measured step rates before its training blocks; every training shows its time left", flush=True)
    max_steps = 0 if args.untrained else None   # the audit: every net keeps its initial weights
    cell_timeout = {"smoke": 600, "quick": 3600}.get(args.profile)   # a stalled cell fails, never hangs CI
    if getattr(args, "engine", "notebook") == "ray":
        failed_jobs = train_on_ray(names, args, results, Cache(cache), kernel, cell_timeout)
        if failed_jobs:
            print(f"ray: {failed_jobs} job(s) failed twice (listed above); their notebooks train them", flush=True)
    # last at exit (atexit runs in reverse order: after papermill's own kernel clean-up, which an interrupt
    # leaves to atexit): the cache entries a killed kernel was writing go
    atexit.register(remove_orphaned_temporaries, cache, 15.0)
    failed = []
    for i, name in enumerate(names, 1):
        final = results / args.profile / name
        stage = results / args.profile / f".{name}.running-{os.getpid()}"
        shutil.rmtree(stage, ignore_errors=True)
        stage.mkdir(parents=True)
        mark_owner(stage)     # pid, start time and boot id: a pid reused after a reboot is not taken for this run
        # run.Run writes into the stage (its run_dir), swapped in when the notebook ends
        params = notebook_parameters(args, results, cache, stage, max_steps=max_steps)
        # its set-up and the chosen parts (--part), or every part but those the profile leaves to full
        # (harness.deferred); parts.json says which were skipped
        source, part_record = notebook_source(name, args.profile, getattr(args, "part", None),
                                              getattr(args, "skip_part", None))
        if part_record is not None:
            atomic_write_text(stage / _parts.RECORD, json.dumps(part_record, indent=1) + "\n")
        what = ("" if not part_record or part_record.get("left_to_full")
                else f"; parts {', '.join(part_record['parts'])} only" if getattr(args, "part", None)
                else f"; without the parts {', '.join(part_record['skipped'])}")
        print(f"[{i}/{len(names)}] {name} ({args.profile}, device={args.device}{what})", flush=True)
        if part_record and part_record.get("left_to_full"):
            print(f"  left to full (their training does not fit {args.profile}'s {QUICK_BUDGET_S // 60} minutes; "
                  "their claims are not run): " + "; ".join(f"{s.what} (part {s.part}, about {s.seconds} s on 2 cores, "
                                                           f"{per_claim_text(s)})"
                                                           for s in left_out(args.profile, name))
                  + f". `--only {name[:2]} --part NAME` runs one, `--part all` the whole notebook", flush=True)
        t0 = time.perf_counter()
        reason = None
        try:
            try:
                # the section and cell at the terminal (sections.py), with the time left by the last run's cells
                prior = sections.earlier_durations(final / f"{name}.ipynb")
                pm.execute_notebook(source, str(stage / f"{name}.ipynb"),
                                    parameters=params, kernel_name=kernel, cwd=str(workdir()),
                                    execution_timeout=cell_timeout, progress_bar=False,
                                    engine_name=sections.engine(
                                        lambda cells: sections.SectionProgress(cells, name, durations=prior)),
                                    kernel_manager_class=kernel_manager)   # its stderr quiet once stopped
                if not (stage / "provenance.json").exists():
                    reason = "the notebook ended without run.finish() (no provenance.json)"
            except pm.PapermillExecutionError as e:
                reason = f"failed in cell {e.exec_count}: {e.ename}: {(str(e.evalue).strip().splitlines() or [''])[0][:300]}"
            except Exception as e:  # noqa: BLE001 - e.g. a cell over its time limit: report, go on
                reason = f"failed: {type(e).__name__}: {(str(e).strip().splitlines() or [''])[0][:300]}"
            finally:
                print_cache_warnings(cache)
            # a run of some parts (--part, --skip-part) adds to the notebook's earlier finished run, never replaces it
            partial = part_record is not None and bool(getattr(args, "part", None) or getattr(args, "skip_part", None))
            final = swap_in(stage, final, reason, prepare=(lambda: _parts.join(stage, final, name, read_notebook(name)))
                            if partial else None)
            if partial and (final / _parts.RECORD).is_file():
                part_record = json.loads((final / _parts.RECORD).read_text())
        except KeyboardInterrupt as e:     # Ctrl-C, SIGTERM or SIGHUP (kill, timeout, a batch scheduler)
            how = signal_name(e)
            kernels.quiet_after_stop()
            try:                           # further signals are noted, not raised, until this is done
                if stage.exists():         # (else it came as the finished notebook was swapped in: that stays)
                    swap_in(stage, final, f"interrupted ({how})")
                    print(f"  {name} interrupted ({how}); marked as failed", flush=True)
                print_report(results, args.profile, args.against, names if args.only else None)
            finally:
                signals_resume()
            return signal_status(e)
        if reason:
            failed.append(name)
            print(f"  {name} {reason}\n  full traceback in {final / (name + '.ipynb')}", flush=True)
            continue
        rows = claims.evaluate_notebook(name, read_metrics(final), args.profile)
        rows = [claims.report.skipped_part(r, part_record, name) for r in rows]   # a skipped part's: not regressions
        print(f"  done in {time.perf_counter() - t0:.0f} s; claims: {summary(rows)}", flush=True)
    if args.untrained:
        return untrained_audit(results, args.profile) or (1 if failed else 0)
    return print_report(results, args.profile, args.against, names if args.only else None) or (1 if failed else 0)


def swap_in(stage: Path, final: Path, failure: str | None, prepare=None) -> Path:
    """Replace `final` by `stage` as a whole. A failed run keeps no provenance (it is no finished run) and
    says why in failed.json. When the swap itself fails (a full disk), the old results are withdrawn all the
    same (`_withdraw`) and the error goes on. `prepare` (a finished run only): called under the swap's lock
    before the swap, it may add to `stage` and returns the folder to put it in (None: `final`). That folder."""
    with signals_deferred():
        old = final.with_name(f".{final.name}.old-{os.getpid()}")
        try:
            if failure:
                (stage / "provenance.json").unlink(missing_ok=True)
                atomic_write_text(stage / "failed.json", json.dumps({"reason": failure,
                                                                     "time": time.strftime("%Y-%m-%dT%H:%M:%S")}))
            (stage / OWNER).unlink(missing_ok=True)     # the staging folder's, not the results'
            with swap_lock(final.parent):     # two runs of one notebook finishing at once: one swap after the other
                if prepare is not None and not failure:
                    final = prepare() or final
                    old = final.with_name(f".{final.name}.old-{os.getpid()}")
                if final.exists():
                    os.replace(final, old)
                os.replace(stage, final)
        except OSError as e:
            _withdraw(stage, final, old, failure, e)
            raise
        shutil.rmtree(old, ignore_errors=True)
    return final


def withdraw_dead_runs(folder: Path, known) -> list[str]:
    """The runs in a profile's results `folder` that died without finishing (SIGKILL, out of memory, a power cut):
    each `.NAME.running-PID` staging folder whose process is gone is swapped in marked failed, as an interrupted
    run's is, so the older results it was to replace are never reported as current; then the other folders dead
    runs left go (`remove_dead_run_folders`). One line for each (`run` prints them at its start, `check` as
    warnings). `known`: the notebooks' names (a folder of another name is only removed)."""
    lines = []
    for stage, name, pid in dead_run_folders(folder, "running"):
        if name not in known:
            continue
        reason = f"killed: its run (pid {pid}) died before it finished (SIGKILL, out of memory or a power cut)"
        try:
            swap_in(stage, folder / name, reason)
        except OSError as e:            # a read-only or full folder: said, and the older results named as such
            lines.append(f"{name}: a run (pid {pid}) died before it finished, leaving {stage}, and it could not be "
                         f"marked failed ({e.strerror or e}): the results shown for {name} may be older than that run; "
                         f"delete {folder / name} or run it again")
            continue
        lines.append(f"{name}: a run (pid {pid}) died before it finished (SIGKILL, out of memory or a power cut), "
                     f"leaving {stage.name}: marked failed, so the older results are no longer shown as current; "
                     f"run it again (--only {name.split('_')[0]})")
    stale = remove_dead_run_folders(folder)
    if stale:
        lines.append(f"removed {len(stale)} folder(s) left in {folder} by runs that died: {', '.join(stale)}")
    return lines


def _withdraw(stage: Path, final: Path, old: Path, failure: str | None, error: OSError) -> None:
    """The new results could not be put in place: the staging folder goes (freeing its space), and the old
    results stop being a finished run (their provenance.json removed: `check` never reports them as current,
    even once space is freed), with a failed.json saying why where one can still be written."""
    shutil.rmtree(stage, ignore_errors=True)
    if old.exists():                          # moved aside before the failure: back in place, or gone
        if final.exists():
            shutil.rmtree(old, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                os.replace(old, final)
    for f in ("provenance.json", "failed.json"):
        with contextlib.suppress(OSError):
            (final / f).unlink(missing_ok=True)
    reason = (f"{failure}; " if failure else "") + f"its results could not be saved ({error.strerror or error})"
    with contextlib.suppress(OSError):
        final.mkdir(parents=True, exist_ok=True)
        atomic_write_text(final / "failed.json", json.dumps({"reason": reason,
                                                             "time": time.strftime("%Y-%m-%dT%H:%M:%S")}))


@contextlib.contextmanager
def swap_lock(folder: Path):
    """An exclusive lock on the folder itself (flock on its descriptor: no lock file; POSIX, elsewhere none)."""
    try:
        import fcntl             # POSIX only: imported here so that elsewhere the swap goes on without a lock
    except ImportError:          # not POSIX
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)             # releases the lock


def print_cache_warnings(cache: Path) -> None:
    """Corrupt cache entries found inside the kernel (store.Cache logs them in `cache`) reach the command line
    too; the entries a dead kernel was writing are removed."""
    remove_orphaned_temporaries(cache)
    log = Path(cache) / "corrupt.log"
    if log.exists():
        for line in log.read_text().splitlines():
            print(f"  warning: {line}", flush=True)
        log.unlink(missing_ok=True)
