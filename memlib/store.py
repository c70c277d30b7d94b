"""Where results go, and a cache of trained models keyed by their full configuration.

A notebook opens a `Run`: it fixes device and seed, owns `results/<profile>/<notebook>/`, collects
named metrics and figures, and writes `metrics.json` and `provenance.json`. `fit_cached` trains
a model unless an identical configuration (builder and its arguments, initialization, seed, data,
training arguments) is already in the cache, so re-running a notebook or moving a widget does not
retrain. A corrupt cache entry is reported and recomputed, never trusted.
"""
from __future__ import annotations

import hashlib
import io
import json
import math
import os
import platform
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import torch

from . import claims as _claims
from . import data as _data
from . import machine as _machine
from . import jobfile
from .cachekey import NOT_KEYED, config as _config, describe, tensor_digest  # noqa: F401 - also store's names
from .models import count_parameters, initialize_
from .plot import savefig
from .runtime import (MemlibError, PROFILES, atomic_write_bytes, atomic_write_text, check_choice, get_device, numerics, pick,
                      planning, remove_orphaned_temporaries, seed_everything, set_device)
from .train import History, fit, fit_many

CACHE_VERSION = 2  # bump when a change to the training code (or the entry format) invalidates cached models
MAGIC = b"memlib-cache 2 sha256="  # an entry: MAGIC + hex digest of the payload + b"\n" + torch.save payload
_default_cache = None


class Cache:
    """Content-addressed store: `key(config) -> file` holding what `compute` returned."""

    def __init__(self, root):
        self.root = Path(root)
        self.hits = 0
        self.misses = 0
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
            message = f"cache entry {path} is corrupt ({type(e).__name__}: {reason}); recomputing it"
            warnings.warn(message, stacklevel=3)
            try:
                with open(self.root / "corrupt.log", "a") as log:
                    log.write(message + "\n")
            except OSError:
                pass
            path.unlink(missing_ok=True)
            return None

    def save(self, config: dict, value) -> None:
        """Write an entry atomically (temporary name, rename), with the checksum of its payload."""
        buf = io.BytesIO()
        torch.save({"config": json.loads(json.dumps(config, default=str)), "value": value}, buf)
        payload = buf.getvalue()
        atomic_write_bytes(self.path(config), MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload)

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
        _default_cache = Cache(os.environ.get("MEMLIB_CACHE") or results_root("results") / "cache")
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
    plan's engine (memlib.engine, on another process or machine) train, so their results are the same."""
    models = [build_model(build, seed=s, init=init) for s in seeds]
    if kind == "one":
        (seed,), (model,) = seeds, models
        return [_entry(model, fit(model, x, target, seed=seed, **fit_kwargs))]
    hists = fit_many(models, x, target, seeds=list(seeds), **fit_kwargs)
    return [_entry(m, h) for m, h in zip(models, hists)]


def _plan_miss(kind: str, build, x, target, seeds, init: str, fit_kwargs: dict, configs: list) -> None:
    """While planning: write the job of a training that missed the cache (memlib.jobfile, read by memlib.plan)."""
    jobfile.write(kind, build, x, target, seeds, init, {k: v for k, v in fit_kwargs.items() if k not in NOT_KEYED},
                  fit_kwargs.get("desc"), configs, [Cache.key(c) for c in configs], count_parameters(build()))


def fit_cached(build, x: torch.Tensor, target: torch.Tensor | None = None, *, seed: int = 0,
               init: str = "default", cache: Cache | None = None, **fit_kwargs):
    """Build `build()` from `seed` with initialization `init`, train it with `fit(..., **fit_kwargs)`
    and return `(model, history)`, reading both from the cache when this configuration is there.

    Callbacks' records are cached with the history (a hit does not call them again). While planning
    (memlib.plan) a miss is listed as a job and its model returned untrained.
    """
    cache = cache or default_cache()
    config = _config(build, x, target, seed, init, fit_kwargs)

    def compute():
        if planning():
            _plan_miss("one", build, x, target, [seed], init, fit_kwargs, [config])
        return train_entries("one", build, x, target, [seed], init, fit_kwargs)[0]
    value = cache.get_or_compute(config, compute, save=not planning())
    model = build_model(build, seed=seed, init=init)
    model.load_state_dict(value["state"])
    model.to(get_device()).eval()
    return model, History.from_dict(value["history"])


def cache_key(build, x: torch.Tensor, target: torch.Tensor | None = None, *, seed: int = 0, init: str = "default",
              **fit_kwargs) -> str:
    """The key `fit_cached` stores this training under (the same arguments, the same key)."""
    return Cache.key(_config(build, x, target, seed, init, fit_kwargs))


def is_cached(build, x: torch.Tensor, target: torch.Tensor | None = None, *, seed: int = 0,
              init: str = "default", cache: Cache | None = None, **fit_kwargs) -> bool:
    """Whether `fit_cached` with these arguments would read the cache instead of training
    (explorers use it to say "from the cache" or "training ...")."""
    cache = cache or default_cache()
    return cache.path(_config(build, x, target, seed, init, fit_kwargs)).exists()


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


def _finite_json(obj):
    """NaN and infinities as the strings "nan", "inf", "-inf": metrics.json stays valid JSON for every reader
    (memlib.claims reads them back as floats)."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return "nan" if math.isnan(obj) else ("inf" if obj > 0 else "-inf")
    if isinstance(obj, dict):
        return {k: _finite_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite_json(v) for v in obj]
    return obj


def _git_commit() -> str | None:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5,
                              cwd=Path(__file__).parent).stdout.strip() or None
    except Exception:  # noqa: BLE001
        return None


def _versions() -> dict:
    out = {"python": platform.python_version(), "torch": torch.__version__}
    for mod in ("numpy", "scipy", "sklearn", "skimage", "matplotlib", "papermill"):
        try:
            out[mod] = __import__(mod).__version__
        except Exception:  # noqa: BLE001
            pass
    return out


def results_root(results_dir) -> Path:
    """`results_dir` as an absolute folder: a relative one is taken from the repo (where `./run_all.sh` writes
    `results/`) whatever the working folder, so a notebook opened in JupyterLab (working folder `notebooks/`)
    reads the models a batch run cached; outside a repo checkout, from the working folder."""
    path = Path(results_dir).expanduser()
    if path.is_absolute():
        return path
    return (_data.REPO / path if (_data.REPO / "run_all.sh").exists() else path).resolve()


class Run:
    """One notebook's execution: parameters, device, seed, results directory, metrics, figures."""

    def __init__(self, notebook: str, *, profile: str = "quick", device: str = "auto", seed: int = 0,
                 results_dir="results", data_root=None):
        check_choice(profile, PROFILES, "profile")
        self.notebook, self.profile, self.seed = notebook, profile, seed
        # the papers' datasets: data_root="auto" reads data/ in the repo (or $MEMLIB_DATA_ROOT) where it holds them;
        # an explicit folder, or the paper profile, must hold every set the notebook asks for (run.dataset)
        self.data_root, explicit = _data.resolve_root(data_root)
        # (planning lists the trainings, so a stand-in's shapes do: the plan says which sets it read)
        self.data_strict = explicit or (profile == "paper" and not planning())
        self.sources: dict = {}                            # paper's dataset -> the one read (provenance, report)
        self.device = set_device(device)
        seed_everything(seed)
        _data.used.clear()                                 # provenance names the datasets this run loaded
        # `python -m memlib run` points MEMLIB_RUN_DIR at a fresh folder it swaps in when the notebook finishes
        results_dir = results_root(results_dir)
        self.dir = Path(os.environ.get("MEMLIB_RUN_DIR") or results_dir / profile / notebook)
        self.dir.mkdir(parents=True, exist_ok=True)
        for stale in ("provenance.json", "metrics.json"):   # a run that fails from here on is no finished run
            (self.dir / stale).unlink(missing_ok=True)
        self.cache = Cache(Path(os.environ.get("MEMLIB_CACHE", Path(results_dir) / "cache")))
        set_default_cache(self.cache)
        self.metrics: dict = {}
        self.figures: list = []
        self.departures: list[dict] = []                    # where this run's settings differ from the paper's
        self.params = {"profile": profile, "device": device, "seed": seed, "results_dir": str(results_dir),
                       "data_root": None if data_root is None else str(data_root),
                       "resolved_data_root": None if self.data_root is None else str(self.data_root)}
        self._start = time.perf_counter()
        print(f"{notebook}: profile={profile}, device={self.device}, seed={seed}, results in {self.dir}")

    def dataset(self, paper_set: str, fallback: str, *, used_for: str = "this notebook") -> str:
        """The dataset to read where the paper reads `paper_set` (e.g. "mnist"): `paper_set` when the data
        root holds it, else the embedded `fallback` (e.g. "digits"), saying so in one line; with an explicit
        data root or the paper profile a missing set is an error, raised here, before any training.
        The choice is recorded in provenance.json and shown in the report."""
        chosen = paper_set
        if not _data.holds(self.data_root, paper_set):
            if self.data_strict:
                _data.require(self.data_root, paper_set)   # raises DatasetMissing naming the files
            chosen = fallback
            where = f"under {self.data_root}" if self.data_root else "available (no data root)"
            fetch = f" (`python -m memlib data fetch {paper_set}` puts it there)" if paper_set == "mnist" else ""
            print(f"{paper_set} is not {where}{fetch}: {used_for} reads the embedded {fallback!r} instead")
        self.sources[paper_set] = chosen
        return chosen

    def pick(self, **by_profile):
        """This run's value of a profile-dependent parameter: `run.pick(smoke=.., quick=.., paper=..)`."""
        return pick(self.profile, **by_profile)

    def log(self, **metrics) -> None:
        """Record named numbers (flat keys such as `fig2.closed_form_rel_err`) in metrics.json.

        A value is a number, or a sequence of numbers with one value per seed of a seed band (claims on
        it hold only when they hold for every seed, with margin: memlib.claims)."""
        for k, v in metrics.items():
            if isinstance(v, torch.Tensor):
                v = v.detach().cpu().tolist() if v.numel() != 1 else v.item()
            if hasattr(v, "__len__") and not isinstance(v, str):
                v = [float(x) for x in v]
            else:
                v = float(v)
            self.metrics[k] = v
        self._write("metrics.json", self.metrics)

    def log_fit(self, prefix: str, hists, target: torch.Tensor) -> list[float]:
        """Log how well a net (a History) or a seed band (a list of Histories) fitted `target`:
        `<prefix>.final_loss` and `<prefix>.loss_ratio` = final MSE / the MSE of predicting zero
        (one value per seed for a band). Claims about the net gate on the ratio (`claims.fitted(prefix)`).
        Returns the ratios."""
        band = isinstance(hists, (list, tuple))
        losses = [h.final_loss for h in (hists if band else [hists])]
        zero = target.detach().float().pow(2).mean().item()
        ratios = [loss / zero if zero > 0 else float("inf") for loss in losses]
        self.log(**{f"{prefix}.final_loss": losses if band else losses[0],
                    f"{prefix}.loss_ratio": ratios if band else ratios[0]})
        return ratios

    def say(self, text: str):
        """Result prose with its numbers from this run: `{metric.key}` (a band reads "a / b / c"),
        `{metric.key:%}` or `{metric.key:.2f}` placeholders filled from the metrics logged so far
        (`claims.core.render_text`). Returns Markdown, so a cell that ends with it shows the paragraph."""
        from IPython.display import Markdown
        return Markdown(_claims.core.render_text(text, self.metrics))

    def departure(self, setting: str, paper, ours, why: str) -> None:
        """Record a deliberate departure from the paper: the setting, the paper's value, this run's, and why
        (cost, or the paper's setting fails here). Listed in provenance.json, `departures_table` and the report."""
        if not why or not str(why).strip():
            raise MemlibError(f"departure {setting!r}: say why the run departs from the paper")
        self.departures = [d for d in self.departures if d["setting"] != setting]
        self.departures.append({"setting": setting, "paper": str(paper), "ours": str(ours), "why": str(why)})

    def departures_table(self):
        """This run's departures from the paper as a Markdown table (setting, paper, ours, why)."""
        from IPython.display import Markdown
        return Markdown(_claims.report.departures_markdown(self.departures, self.profile))

    def savefig(self, fig, name: str) -> None:
        """Save `fig` as `<name>.png` in this run's folder (listed in provenance). Returns None, so a cell that
        ends with it shows the figure, not a `PosixPath(...)` line; the path is `run.dir / f"{name}.png"`."""
        if planning():            # a planning pass (memlib.plan) throws its outputs away: no PNG, no inline figure
            import matplotlib.pyplot as plt
            plt.close(fig)
            return
        path = savefig(fig, self.dir / f"{name}.png")
        self.figures.append(path.name)

    def _write(self, name, obj):
        atomic_write_text(self.dir / name, json.dumps(_finite_json(obj), indent=1, sort_keys=True, allow_nan=False))

    def finish(self):
        """Write metrics.json and provenance.json (which marks the run as finished); return this
        notebook's claims with their outcomes."""
        wall = time.perf_counter() - self._start
        self._write("metrics.json", self.metrics)
        self._write("provenance.json", {
            "notebook": self.notebook, "parameters": self.params, "resolved_device": str(get_device()),
            "cuda_device": torch.cuda.get_device_name() if get_device().type == "cuda" else None,
            "numerics": numerics(), "arithmetic": _machine.arithmetic(), "departures": self.departures, "datasets": sorted(_data.used), "sources": self.sources,
            "wall_time_s": round(wall, 2), "git_commit": _git_commit(), "versions": _versions(),
            "cache_hits": self.cache.hits, "cache_misses": self.cache.misses, "figures": self.figures,
            "argv": sys.argv[:1], "finished": time.strftime("%Y-%m-%dT%H:%M:%S")})
        return _claims.ClaimTable(_claims.evaluate_notebook(self.notebook, self.metrics, self.profile))
