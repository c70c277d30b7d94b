"""memlib: the thin library behind the memorization-repro notebooks.

One module per concept (docs/ARCHITECTURE.md). The top level is the science a reader imports: data, models,
train (the one training loop), metrics, linalg, dynamics, rho, theory, plot, runtime (device, seed, profiles).
What runs it lives apart in memlib.harness: run (a notebook's run: results, metrics, provenance, claims), store
(the model cache), plan, engine, envelope, bench, fetch; the claims are memlib.claims, the command line memlib.cli.
`import memlib` is the training API: it loads neither the claims nor plotting. A notebook's `Run` is
`from memlib.harness.run import Run` (it evaluates the claims at `finish`). Nothing is downloaded or trained at
import.
"""
import sys as _sys

try:
    from .history import History
    from .harness.store import fit_cached
    from .runtime import MemlibError, get_device, pick, seed_everything, set_device
    from .train import TrainingDiverged, fit
except KeyboardInterrupt:
    if _sys.argv[:1] != ["-m"]:     # an `import memlib` of a program or kernel: its Ctrl-C is its own
        raise
    # `python -m memlib ...` (argv[0] is "-m" while the package loads): Ctrl-C while torch loads, before any work
    _sys.stderr.write("memlib: interrupted while loading (before anything ran); nothing was written\n")
    raise SystemExit(130) from None    # 128 + SIGINT, as the commands exit on a signal

__version__ = "0.1.0"
__all__ = ["MemlibError", "History", "TrainingDiverged", "fit", "fit_cached", "get_device", "pick",
           "seed_everything", "set_device"]
