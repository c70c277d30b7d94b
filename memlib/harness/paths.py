"""Where memlib's own files are, whether it runs from a repository checkout or from an installed wheel.

From a checkout (an editable install, or the source tree on PYTHONPATH): the repository's `notebooks/` and
`baselines/`, and `results/` and `data/` beside them, whatever the working folder. Installed from a wheel: the
copies the wheel ships inside the package, `memlib/notebooks/*.ipynb` and `memlib/baselines/plan-*.json`
(pyproject.toml maps the repository's folders in at build time; the repository keeps one copy), and the
working folder for what the commands write and read by default (`results/`, `data/`).
"""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent   # memlib/ itself, above harness/ (a wheel installs it unzipped)
REPO = PACKAGE.parent                           # the checkout, when memlib runs from one
CHECKOUT = (REPO / "run_all.sh").is_file()       # the marker store.results_root has always used
NOTEBOOKS = REPO / "notebooks" if CHECKOUT else PACKAGE / "notebooks"
BASELINES = REPO / "baselines" if CHECKOUT else PACKAGE / "baselines"   # plan-<profile>.json: recorded estimates
TOUR = "00_tour"    # the teaching tour's notebook in NOTEBOOKS (memlib.widgets.tour, `serve`): never run nor reported


def workdir() -> Path:
    """Where `results/` and `data/` are by default: the checkout, else the working folder (read at each call)."""
    return REPO if CHECKOUT else Path.cwd()


def where() -> str:
    """memlib's origin in a few words, for error messages."""
    return f"the checkout {REPO}" if CHECKOUT else f"the package installed in {PACKAGE}"
