"""A notebook's parts: the sections one run may execute alone (`python -m memlib run --only 03 --part sec6`).

A long profile on a small machine can outlast a session whose model cache does not survive it (notebook 03 at `full`
on two CPU cores takes about 2 h 16 min, measured part by part in sessions 23-24); `--part` runs the set-up and the
named sections only, so the sections a stopped run did not reach are measured on their own. A code or markdown cell
tagged `part:NAME` belongs to part NAME; an untagged cell (parameters, set-up, data, the cheap first sections, the
claims) runs in every run. A cell with several part tags reads several sections (a summary) and runs only when every
one of them is chosen.

The parts are chosen so that a part's numbers do not depend on which other parts ran: nothing a part computes is read
by another part or by an untagged cell (tests/test_parts.py reads every cell's syntax tree), and a random stream the
set-up draws from is drawn by one part only, after the set-up's last draw (tests/test_notebooks.py runs notebook 03's
`sec6` and `unet` parts alone at smoke and compares their metrics with the whole run's). A run of some parts writes
`parts.json` (what ran, what was skipped) into its folder; the report shows the skipped parts' claims as not run,
not as regressions.

A profile may also leave parts out on its own: quick leaves the sections whose training does not fit its 45 minutes to
`full` (memlib.harness.deferred). A run without `--part` then executes every other part (`default_parts`), its
`parts.json` naming the left-out ones under "left_to_full"; `--part all` runs the whole notebook at any profile.
"""
from __future__ import annotations

import copy

from ..runtime import MemlibError

TAG = "part:"
RECORD = "parts.json"          # in a run's folder: {"parts": [chosen], "skipped": [the others]}


def cell_parts(cell) -> list[str]:
    """The parts a cell belongs to (its `part:NAME` tags); [] for a cell every run executes."""
    return [t[len(TAG):] for t in (cell.get("metadata", {}).get("tags") or []) if t.startswith(TAG)]


def parts_of(nb) -> list[str]:
    """A notebook's parts, in the order they first appear."""
    out: list[str] = []
    for cell in nb["cells"]:
        out += [p for p in cell_parts(cell) if p not in out]
    return out


ALL = "all"                    # `--part all`: every part, the whole notebook (nothing left to full)


def check_parts(nb, chosen: list[str], name: str) -> None:
    """One line (MemlibError) when a chosen part is not one of the notebook's (or `all`)."""
    known = parts_of(nb)
    unknown = [p for p in chosen if p not in known and p != ALL]
    if unknown:
        raise MemlibError(f"--part {', '.join(unknown)}: notebook {name} has "
                          + (f"the parts {', '.join(known)}" if known else "no parts (it runs whole)"))


def select(nb, chosen: list[str]):
    """A copy of the notebook holding the untagged cells and those whose parts are all in `chosen`."""
    out = copy.deepcopy(nb)
    out["cells"] = [c for c in out["cells"] if all(p in chosen for p in cell_parts(c))]
    return out


def record(chosen: list[str], nb, *, left_to_full=()) -> dict:
    """What `parts.json` holds for a run of `chosen`; `left_to_full`: the parts the profile left out on its own."""
    out = {"parts": list(chosen), "skipped": [p for p in parts_of(nb) if p not in chosen]}
    if left_to_full:
        out["left_to_full"] = [p for p in parts_of(nb) if p in left_to_full]       # in the notebook's order
    return out


def default_parts(nb, left_to_full: list[str]) -> list[str] | None:
    """The parts a run without `--part` executes: every part but those its profile leaves to full (None: the whole
    notebook, where it leaves none). A left-out name that is not one of the notebook's parts is an error."""
    if not left_to_full:
        return None
    known = parts_of(nb)
    unknown = [p for p in left_to_full if p not in known]
    if unknown:
        raise MemlibError(f"the profile leaves the parts {', '.join(unknown)} to full, which the notebook does not have "
                          f"(its parts: {', '.join(known) or 'none'}): memlib/harness/deferred.py and the notebook's "
                          "part:NAME tags disagree")
    return [p for p in known if p not in left_to_full]
