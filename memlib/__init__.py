"""memlib: the thin library behind the memorization-repro notebooks.

One module per concept (see DESIGN.md): data, models, train (the one training loop), metrics,
theory, plot, run (a notebook's run context: results, metrics, provenance), store (the model cache),
claims, runtime (device, seed, profiles).
Nothing is downloaded or trained at import.
"""
from .history import History
from .runtime import MemlibError, get_device, pick, seed_everything, set_device
from .run import Run
from .store import fit_cached
from .train import TrainingDiverged, fit

__version__ = "0.1.0"
__all__ = ["MemlibError", "Run", "History", "TrainingDiverged", "fit", "fit_cached", "get_device", "pick",
           "seed_everything", "set_device"]
