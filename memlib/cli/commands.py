"""Each command's entry point, the functions `cli.main.COMMANDS` dispatches to: `run` and `serve` (their modules,
cli/notebooks.py and cli/serve.py), `check` (the report), `plan` (every training with its cost), `envelope` (the
baseline), `bench` (model-steps/s) and `data fetch` (a dataset into a data root).

Each entry point imports the memlib code its command needs when it runs (issue 43), the one place in memlib where
a memlib module is imported inside a function (tests/test_imports.py allows it here and nowhere else): `data fetch`
loads the fetcher, not the notebooks' stack (papermill, the claims, the engine) nor the tour and its widgets. What
every command shares (memlib.harness.paths, memlib.runtime, memlib.harness.context, cli.common; `import memlib` itself) is imported
above."""
from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

import torch       # loaded by `import memlib` in any case

from ..harness.context import RunContext, activate, cache_folder
from ..harness.paths import CHECKOUT, where, workdir
from ..runtime import PROFILES, MemlibError, check_choice, set_device
from .common import cache_writable, notebooks, resolve_names, writable


def run(args) -> int:
    """`run`: the notebooks executed headlessly (cli/notebooks.py)."""
    from .notebooks import run as run_notebooks
    return run_notebooks(args)


def serve(args) -> int:
    """`serve`: the teaching tour in Voila (cli/serve.py)."""
    from .serve import serve as serve_tour
    return serve_tour(args)


def check(args) -> int:
    """`check`: the report of a results folder's notebooks (cli/report.py)."""
    from ..harness.fileio import live_run_folders
    from .notebooks import withdraw_dead_runs
    from .report import check_baseline, print_report
    if args.against is not None:
        check_baseline(args.against, args.profile)
    results = Path(args.results_dir).expanduser()
    if not results.is_dir():            # a mistyped folder: never created and reported as "every claim not run"
        raise MemlibError(f"no results in {results}: " + ("it is a file, not a folder" if results.exists() else
                          "no such folder") + "; pass the --results-dir a run wrote (default results/)")
    base = results / args.profile
    if base.exists() and not base.is_dir():
        raise MemlibError(f"no results in {base}: it is a file, not a folder")
    for line in withdraw_dead_runs(base, notebooks()):    # a run killed with SIGKILL: its older results withdrawn
        print(f"warning: {line}", flush=True)
    for _stage, name, pid in live_run_folders(base):       # alive by pid, start time and boot id
        if name in notebooks():                            # its results will replace what is reported now
            print(f"note: {name}: a run (pid {pid}) is in progress; until it ends, what is shown for {name} is the "
                  "earlier run's", flush=True)
    if not any(_has_files(base / name) for name in notebooks()):
        raise MemlibError(f"no run found in {base}: no notebook has results there at the {args.profile} profile"
                          + _other_profiles(results, args.profile) + "; run them first (python -m memlib run "
                          f"--profile {args.profile} --results-dir {results}) or pass the --results-dir and --profile "
                          "a run wrote")
    return print_report(results, args.profile, args.against)


def _has_files(folder: Path) -> bool:
    return folder.is_dir() and any(p.is_file() for p in folder.iterdir())


def _other_profiles(results: Path, profile: str) -> str:
    """" (RESULTS holds runs of the smoke profile)" when other profiles there have results, else "" (for `check`)."""
    others = [p for p in PROFILES if p != profile and any(_has_files(results / p / n) for n in notebooks())]
    return f" ({results} holds runs of the {' and '.join(others)} profile{'s' if len(others) > 1 else ''})" \
        if others else ""


def plan(args) -> int:
    """`python -m memlib plan`: list every training the notebooks will ask for (round 1: what the cache lacks
    before anything is trained), measure what each costs, print the totals, write the plan as JSON."""
    from ..claims import CLAIMS
    from ..harness import deferred as _deferred
    from ..harness import engine
    from ..harness import plan as _plan
    from .notebooks import ensure_kernel
    from .planning import plan_notebooks
    names = resolve_names(args.only)
    if args.record and not CHECKOUT:      # the recorded totals are the repository's baselines/plan-PROFILE.json
        raise MemlibError(f"--record writes baselines/plan-{args.profile}.json of a repository checkout, and memlib runs "
                          f"from {where()}: run `plan --record` in a checkout, or leave --record out")
    results = Path(args.results_dir).expanduser().resolve()
    writable(results)
    out = Path(args.out).expanduser() if args.out else results / f"plan-{args.profile}.json"
    if out.is_dir():                        # said before planning, not after it
        raise MemlibError(f"--out {out}: a folder, not a file; name the plan's JSON file (e.g. "
                          f"{out / f'plan-{args.profile}.json'})")
    cache = cache_folder(results)           # the kernels' model cache, absolute
    cache_writable(cache)
    activate(RunContext(headless=True))    # this process's progress bars (step rates) as the kernels': plain text
    kernel = ensure_kernel()
    if args.profile in _deferred.LEFT_TO_FULL:     # where the profile's time goes, and what it leaves to full
        print(_deferred.table(CLAIMS, args.profile), flush=True)
    plan_dir = results / "plan" / args.profile / "round-1"
    shutil.rmtree(plan_dir, ignore_errors=True)
    t0 = time.perf_counter()
    failed = plan_notebooks(names, args, results, cache, plan_dir, kernel, None)
    jobs = _plan.jobs(plan_dir)
    print(f"planned in {time.perf_counter() - t0:.0f} s: {len(jobs)} job(s) not in the cache", flush=True)
    device = "cuda" if args.device == "auto" and torch.cuda.is_available() else ("cpu" if args.device == "auto" else args.device)
    costs = engine.costs(plan_dir, jobs, device=device, progress=sys.stderr.isatty()) if not args.no_costs else {}
    engine.print_plan(jobs, costs, device=device, profile=args.profile)
    note = ("round 1: trainings whose arguments depend on other trainings' results are planned after those train "
            "(run --engine ray plans in rounds); est_s measured on " + device + "; h100_gpu_h estimated from FLOPs")
    _plan.write_json(out, jobs, profile=args.profile, costs=costs, note=note)
    print(f"plan written to {out} (job files in {plan_dir / 'jobs'})", flush=True)
    if args.record:
        path = _plan.record_totals(args.profile, jobs, costs, notebooks=names, note=note)
        print(f"totals recorded in {path} (run --profile {args.profile} prints its estimate from them)", flush=True)
    return 1 if failed else 0


def envelope(args) -> int:
    """`envelope`: the profile under other seeds, threads and instruction sets, written as a baseline."""
    from ..harness import envelope as _envelope
    names = resolve_names(args.only)
    out = Path(args.out or workdir() / "baselines" / f"{args.profile}-cpu.json")
    if getattr(args, "verdicts", False):
        body = _envelope.read_envelope(out, "--out")
        print(_envelope.describe_verdicts(_envelope.verdicts(body, args.profile)))
        return 0
    if getattr(args, "join", None):
        body = _envelope.join_file(out, Path(args.join), across_code=getattr(args, "across_code", False))
        print(_envelope.describe(body))
        print(f"envelope: joined {args.join}'s variations into {out}: {body['counts']}")
        return 0
    if getattr(args, "rejudge", False):
        stored = _envelope.read_envelope(out, "--rejudge").get("profile")
        if stored != args.profile:          # --profile defaults to quick: a full envelope is judged as full, or said
            raise MemlibError(f"--rejudge {out}: an envelope of the {stored!r} profile, not --profile "
                              f"{args.profile!r}; pass --profile {stored} to judge it again")
        body = _envelope.rejudge_file(out)
        print(f"envelope: judged {out} again: {body['counts']}")
        return 0
    if getattr(args, "sequential", False):
        if args.variation:
            raise MemlibError("--sequential adds seed bands by itself; leave out --variation (join machine variations "
                              "with --join)")
        body = _envelope.build_sequential(args.profile, names=names, workdir=Path(args.workdir), out=out,
                                          seed=args.seed, reuse=args.reuse)
    else:
        body = _envelope.build(args.profile, names=names, variations=tuple(args.variation or _envelope.DEFAULT),
                               workdir=Path(args.workdir), out=out, seed=args.seed, reuse=args.reuse)
    print(_envelope.describe(body))
    print(f"envelope: wrote {out}")
    return 0


def bench(args) -> int:
    """`bench`: model-steps/s of the naive loop and of memlib (memlib.harness.bench)."""
    from ..harness.bench import CASES, run_bench
    for case in args.case or []:
        check_choice(case, tuple(CASES), "bench case")
    if any(m < 1 for m in args.models) or args.steps < 1:
        raise MemlibError(f"--models and --steps must be at least 1 (got --models {' '.join(map(str, args.models))}, "
                          f"--steps {args.steps})")
    if args.device == "cuda" and not torch.cuda.is_available():
        raise MemlibError("--device cuda: torch sees no GPU on this machine; use --device cpu or auto")
    writable(Path(args.results_dir))
    set_device(args.device)
    run_bench(model_counts=args.models, steps=args.steps, results_dir=args.results_dir, cases=args.case)
    return 0


def data_fetch(args) -> int:
    """`data fetch NAME`: a dataset's standard files into --data-root (memlib.harness.fetch)."""
    from ..harness.fetch import FETCHABLE, fetch
    check_choice(args.name, FETCHABLE, "dataset")
    try:
        fetch(args.name, args.data_root, progress=lambda line: print(line, flush=True))
    except KeyboardInterrupt:
        print("interrupted: nothing was written under the final file names", file=sys.stderr)
        return 130
    return 0
