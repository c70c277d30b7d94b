"""What the commands share: the folders (the repository's, or an installed wheel's: memlib.harness.paths), the
reproduction notebooks' names, the notebooks' parameters (`data_root` from --data-root, and the run context's),
and a check that a results folder can be written."""
from __future__ import annotations

import json
import os
from pathlib import Path

from ..harness import deferred as _deferred, parts as _parts
from ..harness.context import cache_advice
from ..harness.fileio import write_problem
from ..harness.paths import NOTEBOOKS, REPO, TOUR, where    # TOUR: the teaching tour, never run by `run` nor reported
from ..runtime import MemlibError

ROOT = REPO                  # the checkout memlib runs from (constraints.txt); see paths.workdir() for defaults
NOTEBOOK_DIR = NOTEBOOKS     # the repository's notebooks/, or the copies an installed wheel ships in memlib/


def notebooks() -> list[str]:
    """The reproduction notebooks (01_..04_), in order: what `run` executes and the report counts."""
    return sorted(p.stem for p in NOTEBOOK_DIR.glob("[0-9]*.ipynb") if p.stem != TOUR)


def resolve_names(only: list[str] | None) -> list[str]:
    names = notebooks()
    if not names:
        raise MemlibError(f"no notebooks in {NOTEBOOK_DIR} (memlib runs from {where()}): reinstall memlib from a wheel "
                          "built by `pip wheel .` in a checkout (it ships them), or run from the repository")
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


def notebook_source(name: str, profile: str, requested: list[str] | None = None, skipped: list[str] | None = None):
    """What `run` (and planning) executes of notebook `name` at `profile`: (the notebook, as its path or as a
    selection of its cells; the `parts.json` record, None for the whole notebook). `requested`: `--part`'s names
    (`all`: the whole notebook); `skipped`: `--skip-part`'s (every other part). Without either: every part but those
    the profile leaves to full (memlib.harness.deferred: quick's sections whose training does not fit its 45
    minutes)."""
    path = NOTEBOOK_DIR / f"{name}.ipynb"
    if requested and _parts.ALL in requested:
        return str(path), None
    nb = json.loads(path.read_text())
    left: list[str] = []
    if requested:
        chosen = list(requested)
    elif skipped:
        chosen = [p for p in _parts.parts_of(nb) if p not in skipped]
    else:
        left = [s.part for s in _deferred.left_out(profile, name)]
        chosen = _parts.default_parts(nb, left)
        if chosen is None:
            return str(path), None
    import nbformat
    return nbformat.from_dict(_parts.select(nb, chosen)), _parts.record(chosen, nb, left_to_full=left)


def data_root_parameter(option):
    """--data-root as the notebooks' `data_root`: absent or "auto" -> "auto" (data/ in the repo, or in the
    working folder outside a checkout, or $MEMLIB_DATA_ROOT, where it holds a set); "none" -> None (the embedded
    sets only); else the folder."""
    if option in (None, "auto"):
        return "auto"
    return None if option == "none" else str(Path(option).expanduser().resolve())


def notebook_parameters(args, results: Path, cache: Path, run_dir, *, plan_dir=None, max_steps=None) -> dict:
    """What a command passes to a notebook through papermill (its parameters cell, then `Run(...)`, which makes them
    the run context, memlib.harness.context): the command line's profile, device, seed, results folder and data root, and
    the run folder, the model cache, the plan folder (planning), the cap on every training, headless."""
    return dict(profile=args.profile, device=args.device, seed=args.seed, results_dir=str(results),
                data_root=data_root_parameter(args.data_root), run_dir=str(run_dir), cache_dir=str(cache),
                plan_dir=None if plan_dir is None else str(plan_dir), max_steps=max_steps, headless=True)


def writable(folder: Path, *, what: str = "", instead: str = "choose another --results-dir") -> None:
    """One clear line (MemlibError) when `folder` cannot be created or written: what it is (`what`, e.g. "the
    model cache"), why (a file in the way, a full disk, a read-only folder) and what to do (`instead`)."""
    label = f"{what} {folder}" if what else str(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".write-probe-{os.getpid()}"
        probe.write_text("ok")
        probe.unlink()
    except OSError as e:
        blocker = next((p for p in (folder, *folder.parents) if p.exists() and not p.is_dir()), None)
        if blocker is not None:          # mkdir says "File exists" or "Not a directory"
            raise MemlibError(f"cannot write to {label}: {blocker} is a file, not a folder; {instead}") from None
        raise MemlibError(f"cannot write to {label}: {write_problem(e, instead)}") from None


def cache_writable(cache: Path) -> None:
    """The model cache checked before any kernel starts, as the results folder is (`writable`): a file in its
    place, a full disk or a read-only folder is one line naming it, not an error inside a notebook's cell."""
    writable(cache, what="the model cache", instead=cache_advice())
