"""memlib: the thin library behind the memorization-repro notebooks.

One module per concept (docs/ARCHITECTURE.md). The top level is the science a reader imports: data, models,
train (the one training loop), metrics, linalg, dynamics, rho, theory, plot, runtime (device, seed, profiles).
What runs it lives apart in memlib.harness: run (a notebook's run: results, metrics, provenance, claims), store
(the model cache), plan, engine, envelope, bench, fetch; the claims are memlib.claims, the command line memlib.cli.
`import memlib` is the training API: it loads neither the claims nor plotting. A notebook's `Run` is
`from memlib.harness.run import Run` (it evaluates the claims at `finish`). Nothing is downloaded or trained at
import.
"""
from .history import History
from .harness.store import fit_cached
from .runtime import MemlibError, get_device, pick, seed_everything, set_device
from .train import TrainingDiverged, fit

__version__ = "0.1.0"
__all__ = ["MemlibError", "History", "TrainingDiverged", "fit", "fit_cached", "get_device", "pick",
           "seed_everything", "set_device"]
