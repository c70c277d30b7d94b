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
import json
import shutil
from pathlib import Path

from ..runtime import MemlibError
from .fileio import atomic_write_text

TAG = "part:"
RECORD = "parts.json"          # in a run's folder: {"parts": [chosen], "skipped": [the others]}


# The metric prefixes each part's cells log, by notebook: a claim whose metric a run lacks is excused as "not run"
# only when that metric belongs to a part the run skipped. A metric that no prefix matches is logged by the set-up or
# an untagged section, which every run executes, so its absence is a regression. The longest matching prefix decides
# ("fig6.text_init." is fig6_text_init's, every other "fig6." fig5_6's). harness.deferred's prefixes of the sections
# quick leaves to full agree with these (tests/test_parts.py).
METRICS = {
    "01_identity_vs_constant": {"fig34_36": ("fig34.", "fig35.", "fig36."), "fig4a": ("fig4a.",)},
    "02_attractors": {"fig3": ("fig3a.", "fig3b.", "thm2.fig3a.", "thm2.fig3b."), "fig4": ("fig4.",),
                      "fig7_8": ("fig7.", "fig8."), "fig5": ("fig5a.", "fig5b."), "fig11": ("fig11.",)},
    "03_downsampling_eigenvectors": {"fig2_3": ("fig2.", "fig3."), "fig5_6": ("fig6.",),
                                     "fig6_text_init": ("fig6.text_init.",), "appD": ("appD.",),
                                     "sec6": ("fig7.", "fig8.", "fig11."), "unet": ("fig1.unet.",)},
}


def part_of_metric(notebook: str, metric: str) -> str | None:
    """The part whose cells log `metric` in `notebook` (METRICS, the longest matching prefix wins); None for a metric
    of the set-up or an untagged section (every run logs it)."""
    best, length = None, -1
    for part, prefixes in METRICS.get(notebook, {}).items():
        for p in prefixes:
            if metric.startswith(p) and len(p) > length:
                best, length = part, len(p)
    return best


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


def check_parts(nb, chosen: list[str], name: str, option: str = "--part") -> None:
    """One line (MemlibError), naming `option` (`--part` or `--skip-part`), when a chosen part is not one of the
    notebook's, or `all` (`--part` only: skipping all would run the whole notebook and call it partial)."""
    known = parts_of(nb)
    has = f"the parts {', '.join(known)}" if known else "no parts (it runs whole)"
    if option != "--part" and ALL in chosen:
        raise MemlibError(f"{option} {ALL}: name the parts to skip (notebook {name} has {has}); to run only the "
                          "set-up and some parts use --part")
    unknown = [p for p in chosen if p not in known and p != ALL]
    if unknown:
        raise MemlibError(f"{option} {', '.join(unknown)}: notebook {name} has {has}")


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


EARLIER = "{name}.earlier-{n}.ipynb"    # an earlier run's executed notebook, kept beside a run of some parts joined to it
_OWN = ("metrics.json", "provenance.json", RECORD, "failed.json")   # a run's own files, merged here, never copied


def earlier_run(folder: Path) -> dict | None:
    """The finished run in a notebook's results `folder` that a run of some parts would add to: {"metrics",
    "provenance", "record"} (its parts.json, None for a whole run), or None (no run, or a failed or unfinished one)."""
    folder = Path(folder)
    try:
        prov = json.loads((folder / "provenance.json").read_text())
        metrics = json.loads((folder / "metrics.json").read_text())
        record_ = json.loads((folder / RECORD).read_text()) if (folder / RECORD).exists() else None
    except (OSError, ValueError):
        return None
    if (folder / "failed.json").exists() or not isinstance(prov, dict) or not isinstance(metrics, dict):
        return None
    return {"metrics": metrics, "provenance": prov, "record": record_ if isinstance(record_, dict) else None}


def differs(earlier: dict, provenance: dict) -> str:
    """'' when a run (its `provenance`) measured what an `earlier_run` did (the same seed and datasets), else how they
    differ, in words: their parts' results cannot be joined then."""
    a, b = earlier["provenance"], provenance
    out = []
    if (a.get("parameters") or {}).get("seed") != (b.get("parameters") or {}).get("seed"):
        out.append(f"seed {(a.get('parameters') or {}).get('seed')} there, {(b.get('parameters') or {}).get('seed')} here")
    if (a.get("sources") or {}) != (b.get("sources") or {}):
        out.append(f"datasets {a.get('sources') or {}} there, {b.get('sources') or {}} here")
    return "; ".join(out)


def merge(stage: Path, earlier_folder: Path, name: str, nb, new: dict) -> dict:
    """Add the finished run in `earlier_folder` to the run of some parts in `stage` (parts.json `new`), in `stage`,
    so that a run of some parts adds its sections' verdicts to a notebook's results and removes none: the earlier
    run's metrics of the parts this run did not execute (METRICS), its figures and other files this run did not
    write, its executed notebook as `NAME.earlier-N.ipynb`; parts.json records which run each part's metrics came
    from ("from": part -> index into "runs") and provenance.json the earlier runs ("merged"). The untagged cells'
    metrics are this run's (every run logs them). The merged parts.json, also written to `stage`."""
    stage, earlier_folder = Path(stage), Path(earlier_folder)
    old = earlier_run(earlier_folder)
    prov = json.loads((stage / "provenance.json").read_text())
    metrics = json.loads((stage / "metrics.json").read_text())
    known = parts_of(nb)
    old_record = old["record"] or {"parts": known, "skipped": []}
    ran_now = list(new["parts"])
    kept = {k: v for k, v in old["metrics"].items()
            if part_of_metric(name, k) is not None and part_of_metric(name, k) not in ran_now and k not in metrics}
    runs = [dict(r) for r in old_record.get("runs") or
            [{"parts": list(old_record.get("parts", [])), "finished": old["provenance"].get("finished"),
              "git_commit": old["provenance"].get("git_commit"), "notebook": f"{name}.ipynb"}]]
    for i, r in enumerate(runs, 1):      # the latest earlier run's executed notebook, kept under a name of its own
        if r.get("notebook") == f"{name}.ipynb":
            r["notebook"] = EARLIER.format(name=name, n=i)
            if (earlier_folder / f"{name}.ipynb").is_file():
                shutil.copy2(earlier_folder / f"{name}.ipynb", stage / r["notebook"])
    for f in sorted(earlier_folder.iterdir()):     # figures and files of the parts this run did not execute
        if f.name in _OWN or f.name == f"{name}.ipynb" or f.name.startswith(".") or (stage / f.name).exists():
            continue
        if f.is_dir():
            shutil.copytree(f, stage / f.name)
        elif f.is_file():
            shutil.copy2(f, stage / f.name)
    runs.append({"parts": ran_now, "finished": prov.get("finished"), "git_commit": prov.get("git_commit"),
                 "notebook": f"{name}.ipynb"})
    source = dict(old_record.get("from") or {p: 0 for p in old_record.get("parts", [])})
    source.update({p: len(runs) - 1 for p in ran_now})
    done = [p for p in known if p in source]
    out = {"parts": done, "skipped": [p for p in known if p not in source]}
    left = [p for p in (old_record.get("left_to_full") or []) if p in out["skipped"]]
    if left:
        out["left_to_full"] = left
    out.update({"from": {p: source[p] for p in done}, "runs": runs})
    figures = list(prov.get("figures") or [])
    figures += [f for f in old["provenance"].get("figures") or [] if f not in figures and (stage / f).exists()]
    departures = list(prov.get("departures") or [])
    departures += [d for d in old["provenance"].get("departures") or [] if d not in departures]
    earlier = [{k: r.get(k) for k in ("parts", "finished", "git_commit")} for r in runs[:-1]]
    prov.update(figures=figures, departures=departures, merged={
        "note": f"this run executed the part(s) {', '.join(ran_now)}; the metrics and figures of the other parts come "
                f"from the earlier finished run(s) listed here (parts.json's 'from' names each part's run)",
        "earlier": earlier})
    atomic_write_text(stage / "metrics.json", json.dumps({**kept, **metrics}, indent=1, sort_keys=True))
    atomic_write_text(stage / RECORD, json.dumps(out, indent=1) + "\n")
    atomic_write_text(stage / "provenance.json", json.dumps(prov, indent=1, sort_keys=True))
    return out


def join(stage: Path, final: Path, name: str, nb) -> Path:
    """Where a finished run of some parts in `stage` goes (`run`, under the swap's lock): `final`, joined with the
    notebook's earlier finished run there (`merge`), or, where that run measured other things (another seed or other
    datasets: `differs`), a folder beside it, `NAME.parts-A+B`, so that none of the earlier verdicts is removed.
    One line says which."""
    earlier = earlier_run(final)
    if earlier is None:
        return final
    record_ = json.loads((Path(stage) / RECORD).read_text())
    other = differs(earlier, json.loads((Path(stage) / "provenance.json").read_text()))
    if other:
        beside = Path(final).with_name(f"{name}.parts-{'+'.join(record_['parts'])}")
        print(f"  {name}: the earlier finished run in {final} measured other things ({other}), so this run of the "
              f"part(s) {', '.join(record_['parts'])} is written beside it, in {beside}; the earlier results stay",
              flush=True)
        return beside
    merged = merge(stage, final, name, nb, record_)
    kept = [p for p in merged["parts"] if p not in record_["parts"]]
    print(f"  {name}: added to the earlier finished run in {final}: parts {', '.join(record_['parts'])} from this run"
          + (f", {', '.join(kept)} kept from the earlier one" if kept else "")
          + (f"; not run: {', '.join(merged['skipped'])}" if merged["skipped"] else ""), flush=True)
    return final
