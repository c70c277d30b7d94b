"""A notebook's run: `Run` builds the run context (`memlib.harness.context.RunContext`) from its arguments, fixes device
and seed, owns `results/<profile>/<notebook>/` (or the run folder it is given), collects named metrics, departures
from the paper and figures, and writes `metrics.json` and `provenance.json`; `finish` returns the notebook's claims
with their outcomes. It opens the model cache (`memlib.harness.store`) as the session's default.
"""
from __future__ import annotations

import json
import math
import platform
import subprocess
import sys
import time
from pathlib import Path

import torch

from .. import claims as _claims
from .. import data as _data
from . import machine as _machine
from .context import RunContext, activate, cache_folder
from .fileio import atomic_write_text
from .modes import planning
from .plan import substitute_evaluations
from ..runtime import MemlibError, PROFILES, check_choice, get_device, numerics, pick, seed_everything, set_device
from .store import Cache, results_root, set_default_cache


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


class Run:
    """One notebook's execution: parameters, device, seed, results directory, metrics, figures."""

    def __init__(self, notebook: str, *, profile: str = "quick", device: str = "auto", seed: int = 0,
                 results_dir="results", data_root=None, run_dir=None, cache_dir=None, plan_dir=None,
                 max_steps=None, headless: bool = False):
        """The notebook's parameters; the last five are what `python -m memlib run` / `plan` pass (None, False:
        an interactive session's defaults): `run_dir` (where this run writes; default
        `results_dir/profile/notebook`), `cache_dir` (the model cache; default `context.cache_folder`),
        `plan_dir` (planning: trainings become job files there), `max_steps` (a cap on every training) and
        `headless`. They make the session's `context.RunContext` (`self.context`)."""
        check_choice(profile, PROFILES, "profile")
        self.notebook, self.profile, self.seed = notebook, profile, seed
        # the papers' datasets: data_root="auto" reads data/ in the repo (or $MEMLIB_DATA_ROOT) where it holds them;
        # an explicit folder, or the paper profile, must hold every set the notebook asks for (run.dataset)
        self.data_root, explicit = _data.resolve_root(data_root)
        results_dir = results_root(results_dir)
        # `python -m memlib run` passes a fresh run_dir it swaps in when the notebook finishes
        self.context = activate(RunContext(
            notebook=notebook, profile=profile, device=device, seed=seed, results_dir=results_dir,
            run_dir=Path(run_dir) if run_dir else results_dir / profile / notebook,
            cache_dir=Path(cache_dir) if cache_dir else cache_folder(results_dir), data_root=self.data_root,
            plan_dir=Path(plan_dir) if plan_dir else None, max_steps=None if max_steps is None else int(max_steps),
            headless=bool(headless)))
        if plan_dir:          # a planning pass throws its evaluations away: one input stands for all
            substitute_evaluations()
        # (planning lists the trainings, so a stand-in's shapes do: the plan says which sets it read)
        self.data_strict = explicit or (profile == "paper" and not planning())
        self.sources: dict = {}                            # paper's dataset -> the one read (provenance, report)
        self.device = set_device(device)
        seed_everything(seed)
        _data.used.clear()                                 # provenance names the datasets this run loaded
        self.dir = self.context.run_dir
        self.dir.mkdir(parents=True, exist_ok=True)
        for stale in ("provenance.json", "metrics.json"):   # a run that fails from here on is no finished run
            (self.dir / stale).unlink(missing_ok=True)
        self.cache = Cache(self.context.cache_dir)
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
        A number in place of a History is that net's final MSE, measured (e.g. `metrics.reconstruction_mse`
        on the whole training set of a net trained on minibatches). Returns the ratios."""
        band = isinstance(hists, (list, tuple))
        losses = [float(h) if isinstance(h, (int, float)) else h.final_loss for h in (hists if band else [hists])]
        zero = target.detach().float().pow(2).mean().item()
        ratios = [loss / zero if zero > 0 else float("inf") for loss in losses]
        self.log(**{f"{prefix}.final_loss": losses if band else losses[0],
                    f"{prefix}.loss_ratio": ratios if band else ratios[0]})
        return ratios

    def say(self, text: str):
        """Result prose with its numbers from this run: `{metric.key}` (a band reads "a / b / c"),
        `{metric.key:%}` or `{metric.key:.2f}` placeholders filled from the metrics logged so far
        (`claims.text.render_text`). Returns Markdown, so a cell that ends with it shows the paragraph."""
        from IPython.display import Markdown
        return Markdown(_claims.text.render_text(text, self.metrics))

    def departure(self, setting: str, paper, ours, why: str) -> None:
        """Record a deliberate departure from the paper: the setting, the paper's value, this run's, and why
        (cost, or the paper's setting fails here). Listed in provenance.json, `departures_table` and the report."""
        if not why or not str(why).strip():
            raise MemlibError(f"departure {setting!r}: say why the run departs from the paper")
        self.departures = [d for d in self.departures if d["setting"] != setting]
        self.departures.append({"setting": setting, "paper": str(paper), "ours": str(ours), "why": str(why)})

    def departures_from(self, settings) -> None:
        """Record every departure of a recipe's registered settings at this run's profile (memlib.recipes.settings:
        ours against the paper's value, and why), in the recipe's order."""
        for d in settings.departures(self.profile):
            self.departure(d["setting"], d["paper"], d["ours"], d["why"])

    def departures_table(self):
        """This run's departures from the paper as a Markdown table (setting, paper, ours, why)."""
        from IPython.display import Markdown
        return Markdown(_claims.report.departures_markdown(self.departures, self.profile))

    def savefig(self, fig, name: str) -> None:
        """Save `fig` as `<name>.png` in this run's folder (listed in provenance). Returns None, so a cell that
        ends with it shows the figure, not a `PosixPath(...)` line; the path is `run.dir / f"{name}.png"`."""
        if planning():            # a planning pass (memlib.harness.plan) throws its outputs away: no PNG, no inline figure
            import matplotlib.pyplot as plt
            plt.close(fig)
            return
        path = self.dir / f"{name}.png"         # PNG, tight, 110 dpi: the figure saves itself (no matplotlib import here)
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=110, bbox_inches="tight")
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
