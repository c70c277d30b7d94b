"""A cache of trained models keyed by their full configuration, and the models' store.

`fit_cached` trains a model unless an identical configuration (builder and its arguments, initialization, seed,
data, training arguments) is already in the cache, so re-running a notebook or moving a widget does not retrain;
`fit_cached_seeds` does so for a seed band, training the missing seeds together. `build_model` / `untrained`
rebuild a model from its seed, `train_entries` is the one place a cache entry is trained (notebooks and a plan's
engine alike). A corrupt cache entry is reported and recomputed, never trusted. The notebook's run context
(results folder, metrics, provenance) is `memlib.harness.run.Run`.
"""
from __future__ import annotations

import hashlib
import io
import json
import shutil
import threading
import warnings
from pathlib import Path

import torch

from .. import data as _data
from . import jobfile
from .cachekey import NOT_KEYED, config as _config, describe, tensor_digest  # noqa: F401 - also store's names
from .context import cache_advice, cache_folder
from .fileio import atomic_write_bytes, remove_orphaned_temporaries, write_problem
from ..history import History
from .modes import planning
from ..runtime import MemlibError, get_device
from ..train import TrainingDiverged, fit, fit_many
from ..models.weights import count_parameters, initialize_

CACHE_VERSION = 2  # bump when a change to the training code (or the entry format) invalidates cached models
MAGIC = b"memlib-cache 2 sha256="  # an entry: MAGIC + hex digest of the payload + b"\n" + torch.save payload
_default_cache = None


class CacheUnwritable(MemlibError, OSError):
    """The model cache's folder cannot be written (a file in its place, a full disk, a read-only folder): one line
    naming the folder and what to do."""


class Cache:
    """Content-addressed store: `key(config) -> file` holding what `compute` returned."""

    def __init__(self, root):
        self.root = Path(root)
        self.hits = 0
        self.misses = 0
        if self.root.exists() and not self.root.is_dir():
            raise CacheUnwritable(f"the model cache {self.root} is a file, not a folder; {cache_advice()}")
        remove_orphaned_temporaries(self.root)      # entries a killed writer left half-written

    @staticmethod
    def key(config: dict) -> str:
        """sha256 of the configuration as JSON (a value JSON lacks, e.g. a numpy integer, as its text; `_config`
        has made every callable keyable or refused it), with `CACHE_VERSION`."""
        blob = json.dumps({"v": CACHE_VERSION, **config}, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()[:24]

    def path(self, config: dict) -> Path:
        return self.root / f"{self.key(config)}.pt"

    def load(self, config: dict):
        """The stored value for `config`, or None when absent or untrustworthy: an entry whose checksum does
        not match its bytes, or that does not load, is deleted, recomputed and reported (a warning, and a
        line in `corrupt.log` that `python -m memlib run` prints)."""
        path = self.path(config)
        if not path.exists():
            return None
        if path.is_dir() and not path.is_symlink():
            return self._replace_folder(path)
        try:
            raw = path.read_bytes()
            head, sep, payload = raw.partition(b"\n")
            if not (sep and head.startswith(MAGIC)):
                raise ValueError("not a memlib cache entry of this version")
            if hashlib.sha256(payload).hexdigest().encode() != head[len(MAGIC):]:
                raise ValueError("checksum mismatch: the file's bytes changed after it was written")
            entry = torch.load(io.BytesIO(payload), map_location="cpu", weights_only=True)
            if json.dumps(entry["config"], sort_keys=True, default=str) != json.dumps(config, sort_keys=True, default=str):
                raise ValueError("stored configuration differs")
            return entry["value"]
        except Exception as e:  # noqa: BLE001 - any failure to read means: do not trust it
            reason = (str(e).strip().splitlines() or [""])[0][:120]
            self._report_corrupt(f"cache entry {path} is corrupt ({type(e).__name__}: {reason}); recomputing it",
                                 stacklevel=4)
            path.unlink(missing_ok=True)
            return None

    def _replace_folder(self, path: Path):
        """A folder where an entry's file belongs (made by hand, or by a tool): it holds no entry, so it is reported
        as a corrupt entry and removed, and the entry is recomputed into its place; a folder that cannot be removed
        is one line naming it (CacheUnwritable), before anything trains."""
        message = f"cache entry {path} is corrupt (a folder, not a memlib cache file); removing it and recomputing it"
        try:
            shutil.rmtree(path)
        except OSError as e:
            raise CacheUnwritable(f"cache entry {path} is a folder, not a memlib cache file, and it cannot be "
                                  f"removed ({type(e).__name__}: {e.strerror or e}): remove it (rm -r {path}) "
                                  "and run again") from None
        self._report_corrupt(message, stacklevel=5)
        return None

    def _report_corrupt(self, message: str, *, stacklevel: int) -> None:
        """A corrupt entry said once as a warning (at the caller `stacklevel` frames up) and kept in corrupt.log."""
        warnings.warn(message, stacklevel=stacklevel)
        try:
            with open(self.root / "corrupt.log", "a") as log:
                log.write(message + "\n")
        except OSError:
            pass

    def save(self, config: dict, value) -> None:
        """Write an entry atomically (temporary name, rename), with the checksum of its payload."""
        buf = io.BytesIO()
        torch.save({"config": json.loads(json.dumps(config, default=str)), "value": value}, buf)
        payload = buf.getvalue()
        try:
            atomic_write_bytes(self.path(config), MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)
        except OSError as e:      # a full disk, a read-only folder: the cache named, and what to do
            raise CacheUnwritable(f"cannot write the model cache {self.root} ({self.path(config).name}): "
                                  f"{write_problem(e, cache_advice())}") from None

    def get_or_compute(self, config: dict, compute, *, save: bool = True):
        """The entry for `config`: read (a hit), else `compute()` (a miss), stored unless `save` is False."""
        value = self.load(config)
        if value is not None:
            self.hits += 1
            return value
        self.misses += 1
        value = compute()
        if save:
            self.save(config, value)
        return value


def default_cache() -> Cache:
    global _default_cache
    if _default_cache is None:
        # the batch run's cache whatever the working folder (notebooks/ in JupyterLab and Voila)
        _default_cache = Cache(cache_folder(results_root("results")))
    return _default_cache


def set_default_cache(cache: Cache | None) -> None:
    global _default_cache
    _default_cache = cache


_BUILD_LOCK = threading.Lock()     # the global RNG: trainings in parallel threads (estimate.train_together)


def build_model(build, *, seed: int = 0, init: str = "default") -> torch.nn.Module:
    """Build a model from `seed` exactly as `fit_cached` does (same seed, same initial weights)."""
    with _BUILD_LOCK:                 # seeding and drawing the initial weights is one step, whatever the thread
        torch.manual_seed(seed)
        model = build()
        if init != "default":
            initialize_(model, init)
    return model


def untrained(build, *, seed: int = 0, init: str = "default") -> torch.nn.Module:
    """The net `fit_cached(build, ..., seed=seed, init=init)` starts from, not trained, on the session's device
    in eval mode: the same architecture, seed and initial weights (the untrained twin whose score a point-map or
    attractor claim must beat, `dynamics.untrained_bar`)."""
    return build_model(build, seed=seed, init=init).to(get_device()).eval()


def _entry(model, hist) -> dict:
    return {"state": {k: v.detach().cpu() for k, v in model.state_dict().items()}, "history": hist.as_dict()}


def train_entries(kind: str, build, x, target, seeds, init: str, fit_kwargs: dict) -> list[dict]:
    """The cache entries of one training, [entry per seed]: `fit_cached`'s ("one": `fit` of one model) or
    `fit_cached_seeds`'s ("band": `fit_many` of the seeds' models). The one place both the notebooks and a
    plan's engine (memlib.harness.engine, on another process or machine) train, so their results are the same."""
    models = [build_model(build, seed=s, init=init) for s in seeds]
    if kind == "one":
        (seed,), (model,) = seeds, models
        try:
            return [_entry(model, fit(model, x, target, seed=seed, **fit_kwargs))]
        except TrainingDiverged as e:     # a result like any other: cached, so no run trains it again, and a plan's
            return [{"diverged": str(e)}]  # engine counts the job done; `fit_cached` raises it again on reading
    hists = fit_many(models, x, target, seeds=list(seeds), **fit_kwargs)
    return [_entry(m, h) for m, h in zip(models, hists)]


def _plan_miss(kind: str, build, x, target, seeds, init: str, fit_kwargs: dict, configs: list) -> None:
    """While planning: write the job of a training that missed the cache (memlib.harness.jobfile, read by memlib.harness.plan)."""
    jobfile.write(kind, build, x, target, seeds, init, {k: v for k, v in fit_kwargs.items() if k not in NOT_KEYED},
                  fit_kwargs.get("desc"), configs, [Cache.key(c) for c in configs], count_parameters(build()))


def fit_cached(build, x: torch.Tensor, target: torch.Tensor | None = None, *, seed: int = 0,
               init: str = "default", cache: Cache | None = None, **fit_kwargs):
    """Build `build()` from `seed` with initialization `init`, train it with `fit(..., **fit_kwargs)`
    and return `(model, history)`, reading both from the cache when this configuration is there.

    Callbacks' records are cached with the history (a hit does not call them again). While planning
    (memlib.harness.plan) a miss is listed as a job and its model returned untrained.
    """
    cache = cache or default_cache()
    config = _config(build, x, target, seed, init, fit_kwargs)

    def compute():
        if planning():
            _plan_miss("one", build, x, target, [seed], init, fit_kwargs, [config])
        return train_entries("one", build, x, target, [seed], init, fit_kwargs)[0]
    hits = cache.hits
    value = cache.get_or_compute(config, compute, save=not planning())
    _raise_if_diverged(value, from_cache=cache.hits > hits)
    model = build_model(build, seed=seed, init=init)
    model.load_state_dict(value["state"])
    model.to(get_device()).eval()
    return model, History.from_dict(value["history"])


def _raise_if_diverged(value: dict, *, from_cache: bool) -> None:
    """A training that diverged (`train_entries`' {"diverged": message}) raises TrainingDiverged, saying whether
    the message was read from the cache (a hit: nothing trained) or comes from the training just run."""
    if "diverged" in value:
        raise TrainingDiverged(value["diverged"] + (" (read from the model cache)" if from_cache else ""))


def cache_key(build, x: torch.Tensor, target: torch.Tensor | None = None, *, seed: int = 0, init: str = "default",
              **fit_kwargs) -> str:
    """The key `fit_cached` stores this training under (the same arguments, the same key)."""
    return Cache.key(_config(build, x, target, seed, init, fit_kwargs))


def is_cached(build, x: torch.Tensor, target: torch.Tensor | None = None, *, seed: int = 0,
              init: str = "default", cache: Cache | None = None, **fit_kwargs) -> bool:
    """Whether `fit_cached` with these arguments would read the cache instead of training
    (explorers use it to say "from the cache" or "training ...")."""
    cache = cache or default_cache()
    return cache.path(_config(build, x, target, seed, init, fit_kwargs)).is_file()   # a folder there is no entry


def fit_cached_seeds(build, x: torch.Tensor, target: torch.Tensor | None = None, *, seeds, init: str = "default",
                     cache: Cache | None = None, **fit_kwargs) -> list:
    """`fit_cached` for each seed in `seeds` (a seed band): returns [(model, history), ...].

    Cached seeds are read; the missing ones are trained together as one computation (`fit` on a
    list of models) and each is stored under the same key `fit_cached` uses.
    """
    cache = cache or default_cache()
    out, todo = {}, []
    for seed in seeds:
        config = _config(build, x, target, seed, init, fit_kwargs)
        value = cache.load(config)
        if value is None:
            todo.append((seed, config))
            continue
        cache.hits += 1
        _raise_if_diverged(value, from_cache=True)
        model = build_model(build, seed=seed, init=init)
        model.load_state_dict(value["state"])
        out[seed] = (model.to(get_device()).eval(), History.from_dict(value["history"]))
    if todo:
        cache.misses += len(todo)
        todo_seeds, configs = [s for s, _ in todo], [c for _, c in todo]
        if planning():
            _plan_miss("band", build, x, target, todo_seeds, init, fit_kwargs, configs)
            # a planning pass throws its outputs away: the first missing seed's untrained model stands for every
            # missing seed (paper 1's 1024-channel bands of 5 seeds held 6 GB each; its plan ran out of 23 GB)
            (entry,) = train_entries("band", build, x, target, todo_seeds[:1], init, fit_kwargs)
            model = build_model(build, seed=todo_seeds[0], init=init)
            model.load_state_dict(entry["state"])
            model.to(get_device()).eval()
            out.update((seed, (model, History.from_dict(entry["history"]))) for seed in todo_seeds)
            return [out[s] for s in seeds]
        entries = train_entries("band", build, x, target, todo_seeds, init, fit_kwargs)
        for (seed, config), entry in zip(todo, entries):
            cache.save(config, entry)
            model = build_model(build, seed=seed, init=init)
            model.load_state_dict(entry["state"])
            out[seed] = (model.to(get_device()).eval(), History.from_dict(entry["history"]))
    return [out[s] for s in seeds]


def results_root(results_dir) -> Path:
    """`results_dir` as an absolute folder: a relative one is taken from the repo (where `./run_all.sh` writes
    `results/`) whatever the working folder, so a notebook opened in JupyterLab (working folder `notebooks/`)
    reads the models a batch run cached; outside a repo checkout, from the working folder."""
    path = Path(results_dir).expanduser()
    if path.is_absolute():
        return path
    return (_data.REPO / path if (_data.REPO / "run_all.sh").exists() else path).resolve()
