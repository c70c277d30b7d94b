"""memlib: the thin library behind the memorization-repro notebooks.

One module per concept (docs/ARCHITECTURE.md): data, models, train (the one training loop), metrics,
theory, plot, run (a notebook's run: results, metrics, provenance, claims), store (the model cache),
claims, runtime (device, seed, profiles).
`import memlib` is the training API: it loads neither the claims nor plotting. A notebook's `Run` is
`from memlib.run import Run` (it evaluates the claims at `finish`). Nothing is downloaded or trained at import.
"""
from .history import History
from .runtime import MemlibError, get_device, pick, seed_everything, set_device
from .store import fit_cached
from .train import TrainingDiverged, fit

__version__ = "0.1.0"
__all__ = ["MemlibError", "History", "TrainingDiverged", "fit", "fit_cached", "get_device", "pick",
           "seed_everything", "set_device"]
