"""The variation envelope: a profile run under the variations a user's machine can bring, and what each
metric and claim did across them. The committed baseline (`baselines/quick-cpu.json`) is one.

Float32 training is chaotic in its last bits: another CPU's kernels (AVX2 or AVX-512, MKL or OpenBLAS),
another thread count (another summation order) or a GPU gives other numbers. A regression check must tell
those apart from a change of code, and a verdict must not depend on them. So the baseline records, for
every metric, its range over

* ``base``          the profile as `./run_all.sh` runs it (seed 0, the machine's threads and kernels);
* ``seeds+10``, ``seeds+20``  the same with every seed band shifted by SEED_STRIDE and twice it (seeds 10-12,
                    20-22 where base trains 0-2; every random draw follows), so that the three seed bands are
                    disjoint: three agreeing variations are three replications (issue 42; until 2026-11-27 the
                    shifts were 1 and 2, and the bands 0-2, 1-3, 2-4 shared seeds). They are also the proxy for
                    arithmetic we cannot pin, since a last-bit change in a long training moves its result about
                    as much as another seed does;
* ``1thread-avx2``  one intra-op thread and the kernels pinned to AVX2 (ATEN_CPU_CAPABILITY,
                    ONEDNN_MAX_CPU_ISA, MKL_CBWR), with its own model cache;

and, for every claim, the outcomes it took. `report.compare` then flags a metric only outside its range
widened by its tolerance and an outcome only when the envelope never took it; a claim that took more
than one outcome is *unstable* and the ledger must say so (`claims.core.UNSTABLE`).

A rebuild on fresh seeds need not throw the earlier bands away: `--join EARLIER` adds an earlier envelope of the
same code (other seed bands, another machine) to the new one's variations, named 'earlier NAME', and a claim is
unstable when it moved across all of them (`join`; session 32 joined the bands of sessions 25-30, measured on an
Intel Xeon and an AMD EPYC, to its own on the AMD EPYC).

Building it is several runs of the profile (about an hour for quick on 2 cores; `--only NB` builds one
notebook's part and merges it into the existing file; `--reuse` keeps the variations' finished runs
already in the working folder: use it only when they ran the code being recorded).
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import claims
from ..claims import comparison as _comparison, core as _core, report as _report, rules as _rules, verdict as _verdict
from . import deferred as _deferred
from .fileio import atomic_write_text
from .parts import parts_of, record
from .paths import NOTEBOOKS
from ..runtime import MemlibError

AVX2 = {"ATEN_CPU_CAPABILITY": "avx2", "ONEDNN_MAX_CPU_ISA": "AVX2", "MKL_CBWR": "AVX2"}
ONE_THREAD = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


@dataclass(frozen=True)
class Variation:
    """One run of the profile: seed offset, environment (threads, kernels) and which model cache it shares."""
    name: str
    seed_offset: int = 0
    env: dict = field(default_factory=dict)
    cache: str = "native"          # variations with the same arithmetic share trained models


SEED_STRIDE = 10    # larger than any seed band (quick's are 3-5 seeds): the variations' bands never overlap
VARIATIONS = {v.name: v for v in (
    Variation("base"),
    Variation(f"seeds+{SEED_STRIDE}", seed_offset=SEED_STRIDE),
    Variation(f"seeds+{2 * SEED_STRIDE}", seed_offset=2 * SEED_STRIDE),
    Variation("1thread-avx2", env={**ONE_THREAD, **AVX2}, cache="avx2-1t"),
)}
DEFAULT = tuple(VARIATIONS)


def run_variation(v: Variation, profile: str, names: list[str], workdir: Path, seed: int, reuse: bool) -> float:
    """`python -m memlib run` for one variation into workdir/<name>/ (its own cache per arithmetic). Returns
    the wall time in seconds (0 when reused)."""
    out = workdir / v.name
    if reuse and all(_finished(out / profile / nb) for nb in names):
        print(f"envelope: {v.name}: reusing the finished run in {out}", flush=True)
        return 0.0
    env = {**os.environ, **v.env, "MEMLIB_CACHE": str(workdir / f"cache-{v.cache}")}
    cmd = [sys.executable, "-m", "memlib", "run", "--profile", profile, "--seed", str(seed + v.seed_offset),
           "--results-dir", str(out), "--device", "cpu"]
    for nb in names:
        cmd += ["--only", nb]
    print(f"envelope: {v.name} (seed {seed + v.seed_offset}{', ' if v.env else ''}"
          f"{' '.join(f'{k}={x}' for k, x in v.env.items())}) -> {out}", flush=True)
    t0 = time.perf_counter()
    subprocess.run(cmd, env=env, check=False)     # exit 1 on a ledger mismatch: the envelope records it anyway
    wall = time.perf_counter() - t0
    failed = [nb for nb in names if not _finished(out / profile / nb)]
    if failed:
        raise MemlibError(f"envelope: variation {v.name} did not finish {', '.join(failed)} "
                          f"(see {out / profile}); nothing was written")
    return wall


def _finished(folder: Path) -> bool:
    return (folder / "provenance.json").exists() and not (folder / "failed.json").exists()


def seeds_held(row: dict) -> list | None:
    """[k, n]: on how many of a claim row's n seeds its statement holds seed by seed (`core.holds_one`, on the claim's
    scale), its fit gates and the band's margin aside; None where the row has no per-seed comparison (not measured,
    a single value, or a value that is not a finite number). Across the envelope's disjoint bands these counts say
    how often the statement holds on one run, which an unstable claim's outcome alone does not."""
    vs, ts = row.get("value"), row.get("threshold_value")
    if not isinstance(vs, (list, tuple)) or len(vs) < 2 or ts is None:
        return None
    ts = list(ts) if isinstance(ts, (list, tuple)) else [ts] * len(vs)
    try:
        pairs = [(float(v), float(t)) for v, t in zip(vs, ts, strict=True)]
    except (TypeError, ValueError):
        return None
    logs = row.get("scale") == "log"
    if logs:
        if any(not (v > 0 and t > 0) for v, t in pairs):
            return None
        pairs = [(math.log(v), math.log(t)) for v, t in pairs]
    if any(not (math.isfinite(v) and math.isfinite(t)) for v, t in pairs):
        return None
    return [sum(_core.holds_one(v, row["op"], t, logs=logs) for v, t in pairs), len(pairs)]


def claim_keys(notebook: str) -> set:
    """Every metric key the claims of `notebook` read: their metrics, thresholds, fit gates and controls."""
    keys: set = set()
    for c in claims.CLAIMS:
        if c.notebook != notebook:
            continue
        keys |= {c.metric, c.control} | {x for x in (c.threshold, c.control_threshold) if isinstance(x, str)}
        for g in c.gates:
            keys |= {g.metric} | ({g.threshold} if isinstance(g.threshold, str) else set())
    return keys - {""}


def summarize(per_variation: dict[str, dict], rows_by_variation: dict[str, list[dict]]) -> dict:
    """{"metrics": {nb: {key: [lo, hi]}}, "outcomes": {claim: {variation: outcome}}, "seeds": {nb: {key: n}},
    "held": {claim: {variation: [k, n]}}, "values": {nb: {key: {variation: value}}}} from each variation's results
    (`report.load_results`) and claim rows (outcomes before the ledger's 'unstable' is applied). "seeds": how many
    seeds each metric holds (1 for a number, its length for a seed band; the most any variation logged), so a test can
    ask every trained-net claim for a band (`claims.core.MIN_BAND`). "held": `seeds_held` of each claim row that has
    one. "values": every seed's value of every metric a claim reads (`claim_keys`), per variation, so a verdict over
    seeds (`verdicts`) can pool them and be judged again from the stored file."""
    values: dict = {}
    seeds: dict = {}
    per_seed: dict = {}
    for name, results in per_variation.items():
        for nb, entry in results.items():
            keys = claim_keys(nb)
            for k, v in (entry.get("metrics") or {}).items():
                if k in keys:
                    per_seed.setdefault(nb, {}).setdefault(k, {})[name] = v
                values.setdefault(nb, {}).setdefault(k, []).append(_comparison._mean(v))
                n = _core.seed_count(v)
                if n is not None:
                    seeds.setdefault(nb, {})[k] = max(n, seeds.get(nb, {}).get(k, 0))
    ranges = {nb: {k: _range(vs) for k, vs in m.items()} for nb, m in values.items()}
    outcomes: dict = {}
    held: dict = {}
    for name, rows in rows_by_variation.items():
        for r in rows:
            outcomes.setdefault(r["id"], {})[name] = r.get("run_outcome", r["outcome"])
            kn = seeds_held(r)
            if kn is not None:
                held.setdefault(r["id"], {})[name] = kn
    return {"metrics": ranges, "outcomes": outcomes, "seeds": seeds, "held": held, "values": per_seed}


evidence, verdicts = _verdict.evidence, _verdict.of_envelope     # pooled from the stored per-seed values


def describe_verdicts(found: dict) -> str:
    """The verdicts over seeds, in a few lines: the counts, the error across claims, and each claim not decided."""
    if not found:
        return "verdicts over seeds: this envelope stores no per-seed values (built before they were kept)"
    counted = {c: v for c, v in found.items() if _claim_of(c).about != "sanity"}
    tally = {o: sum(v.outcome == o for v in counted.values()) for o in _verdict.VERDICTS}
    across = _verdict.across_claims(counted)
    lines = [f"verdicts over seeds ({len(counted)} counted claims): "
             + ", ".join(f"{n} {o}" for o, n in tally.items())
             + f"; expected false reproductions at most {across['expected_false_reproductions_at_most']}, "
               f"Benjamini-Hochberg keeps {len(across['kept_by_bh'])} of {across['reproduced']} reproduced"]
    for c, v in sorted(counted.items()):
        if v.outcome in (_verdict.UNDECIDED, _verdict.AT_BAR):
            lines.append(f"  {c}: {v.outcome}: {v.interval()}" + (f" ({v.reason})" if v.reason else "")
                         + ("; a further band is due" if v.more_seeds else ""))
    return "\n".join(lines)


def _claim_of(cid: str):
    return next(c for c in claims.CLAIMS if c.id == cid)


def _range(vs: list[float]) -> list:
    """[lo, hi] of the finite-or-infinite values; [lo, hi, "nan"] when some variation measured NaN (NaN is then
    inside the envelope); [nan, nan] when all did."""
    real = [v for v in vs if v == v]
    if not real:
        return [float("nan"), float("nan")]
    return [min(real), max(real)] + (["nan"] if len(real) < len(vs) else [])


def band(k: int) -> Variation:
    """The k-th seed band of a notebook (0: base, then seeds+10, seeds+20, ...: disjoint, SEED_STRIDE apart)."""
    return VARIATIONS["base"] if k == 0 else Variation(f"seeds+{k * SEED_STRIDE}", seed_offset=k * SEED_STRIDE)


def build(profile: str = "quick", *, names: list[str], variations=DEFAULT, workdir, out, seed: int = 0,
          reuse: bool = False, merge: bool = True) -> dict:
    """Run every variation for `names`, write the envelope baseline to `out` (merged with the notebooks it
    already holds when `merge`), and return it. The base variation's report is the baseline's body."""
    if "base" not in variations:
        raise MemlibError("an envelope needs the 'base' variation (its report is the baseline's body)")
    unknown = [v for v in variations if v not in VARIATIONS]
    if unknown:
        raise MemlibError(f"unknown variation {unknown[0]!r}; choose from {', '.join(VARIATIONS)}")
    workdir, out = Path(workdir).resolve(), Path(out)
    check_out(out)
    walls = {v: run_variation(VARIATIONS[v], profile, names, workdir, seed, reuse) for v in variations}
    body, env = _assemble(profile, {v: list(names) for v in variations}, {v: VARIATIONS[v] for v in variations},
                          workdir, seed, walls)
    return _write(body, env, profile, names, out, merge)


def build_sequential(profile: str = "quick", *, names: list[str], workdir, out, seed: int = 0, reuse: bool = False,
                     merge: bool = True) -> dict:
    """The envelope by sequential seeds (docs/CLAIM_RULES.md, "Verdicts over seeds"): every notebook's first band,
    then, at each of the profile's looks (`claims.rules.looks`: cumulative bands, the last the cap), further bands only
    for the notebooks that still hold a claim whose verdict is undecided with a band due. Writes the baseline to
    `out` with `envelope.sequential`: the looks, how many bands each notebook took, the claims that took more seeds
    than the first band (with their seeds) and what the added bands cost in seconds."""
    workdir, out = Path(workdir).resolve(), Path(out)
    check_out(out)
    schedule = _rules.looks(profile)
    ran: dict[str, list[str]] = {}
    vs: dict[str, Variation] = {}
    walls: dict[str, float] = {}
    bands_of = {nb: 0 for nb in names}
    due = list(names)
    history = []
    body = env = None
    for look, target in enumerate(schedule, 1):
        for k in range(min(bands_of[nb] for nb in due) if due else target, target):
            nbs = [nb for nb in due if bands_of[nb] <= k]
            if not nbs:
                continue
            v = band(k)
            walls[v.name] = walls.get(v.name, 0.0) + run_variation(v, profile, nbs, workdir, seed, reuse)
            ran.setdefault(v.name, []).extend(nb for nb in nbs if nb not in ran.get(v.name, []))
            vs[v.name] = v
            for nb in nbs:
                bands_of[nb] = k + 1
        body, env = _assemble(profile, ran, vs, workdir, seed, walls)
        found = verdicts({**body, "envelope": env}, profile)
        undecided = sorted(c for c, v in found.items() if v.more_seeds)
        history.append({"look": look, "bands": dict(bands_of), "undecided": undecided})
        print(f"envelope: look {look} ({', '.join(f'{nb[:2]} {n} band(s)' for nb, n in bands_of.items())}): "
              f"{len(undecided)} claims undecided with a band due", flush=True)
        due = sorted({_claim_of(c).notebook for c in undecided} & set(names))
        if not due:
            break
    first = {nb: [v["name"] for v in env["variations"] if nb in (v.get("seed_by_notebook") or {})]
             for nb in names}
    cost = {nb: round(sum((v.get("wall_s_by_notebook") or {}).get(nb) or 0.0 for v in env["variations"]
                          if v["name"] != "base" and nb in (v.get("seed_by_notebook") or {})), 1) for nb in names}
    found = verdicts({**body, "envelope": env}, profile)
    took_more = {c: v.n + v.unfitted for c, v in found.items()
                 if _claim_of(c).notebook in names and bands_of[_claim_of(c).notebook] > 1
                 and any(c in h["undecided"] for h in history)}
    env["sequential"] = {"looks": list(schedule), "history": history, "bands": bands_of, "variations": first,
                         "took_more_seeds": took_more, "added_bands_s": cost}
    return _write(body, env, profile, names, out, merge)


def _assemble(profile: str, ran: dict[str, list[str]], vs: dict[str, Variation], workdir: Path, seed: int,
              walls: dict[str, float]) -> tuple[dict, dict]:
    """(the base run's report, the envelope) from the variations' finished runs in `workdir` (`ran`: variation ->
    the notebooks it ran)."""
    per_variation = {v: {nb: e for nb, e in _report.load_results(workdir / v, profile).items() if nb in nbs}
                     for v, nbs in ran.items()}
    rows = {v: _report.evaluate_all([c for c in claims.CLAIMS if c.notebook in nbs], per_variation[v], profile)
            for v, nbs in ran.items()}
    body = _report.build(claims.CLAIMS, workdir / "base", profile)
    summary = summarize(per_variation, rows)
    # each notebook's wall time as its run recorded it (provenance), so a reused run keeps its measured time and a
    # rebuilt notebook's time replaces its old one when merged (the variation's wall_s is their sum)
    by_nb = {v: {nb: (e.get("provenance") or {}).get("wall_time_s") or 0.0 for nb, e in per_variation[v].items()}
             for v in ran}
    env = {"variations": [{"name": v, "seed": seed + vs[v].seed_offset, "env": vs[v].env,
                           "seed_by_notebook": {nb: seed + vs[v].seed_offset for nb in per_variation[v]},
                           "wall_s": round(sum(by_nb[v].values()) or walls.get(v, 0.0), 1),
                           "wall_s_by_notebook": by_nb[v],
                           "arithmetic": {nb: (e.get("provenance") or {}).get("arithmetic")
                                          for nb, e in per_variation[v].items()}} for v in ran],
           **summary}
    return body, env


def _write(body: dict, env: dict, profile: str, names: list[str], out: Path, merge: bool) -> dict:
    """The envelope merged into `out`'s other notebooks (when `merge`), judged again and written atomically."""
    old = read_envelope(out, "--out") if merge and out.exists() else None
    if old and old.get("profile") == profile:
        seq = env.pop("sequential", None)
        body = _merge(old, body, names, env)
        if seq is not None:
            body["envelope"]["sequential"] = seq
    else:
        body["notebooks"] = {nb: e for nb, e in body["notebooks"].items() if nb in names}
        body["claims"] = [r for r in body["claims"] if r["notebook"] in names]
        body["envelope"] = {**env, "built": {nb: time.strftime("%Y-%m-%d") for nb in names}}
    body = rejudge(body)
    atomic_write_text(out, json.dumps(body, indent=1, default=str))
    return body


def rejudge_file(path) -> dict:
    """`python -m memlib envelope --rejudge`: the baseline at `path` judged again (`rejudge`) and rewritten; trains
    nothing. For after a claim or the ledger changed, so the committed rows say what the claims now say."""
    path = Path(path)
    body = rejudge(read_envelope(path, "--rejudge"))
    atomic_write_text(path, json.dumps(body, indent=1, default=str))
    return body


def rejudge(body: dict) -> dict:
    """`body` with every claim row judged again from the base metrics it stores, by the claims and ledger as they stand.

    A merge keeps the other notebooks' rows as their own builds judged them; since then a claim may have joined or
    left the unstable list, or read a metric its notebook's stored run never logged. Judged again, such a row says
    so ("not run", not judged in this baseline: the stored run predates the test) instead of showing an outcome the
    current code would not give."""
    body = leave_out(body)
    results = {nb: {"metrics": e.get("metrics"), "provenance": e.get("provenance"), "parts": e.get("parts"),
                    "failed": None} for nb, e in (body.get("notebooks") or {}).items()}
    kept = {nb for nb, e in results.items() if e["metrics"] is not None}
    rows = _report.evaluate_all([c for c in claims.CLAIMS if c.notebook in kept], results, body["profile"])
    order = list(claims.NOTEBOOKS.values())
    rows = sorted(rows, key=lambda r: order.index(r["notebook"]))
    built = (body.get("envelope") or {}).get("built", {})
    for r in rows:   # a test changed since the notebook's part was built: say so, not "this profile does not measure"
        if r["outcome"] == _core.NOT_RUN and r["expected"] != _core.NOT_RUN:
            missing = r["reason"].split(" was not measured")[0]
            r["reason"] = (f"not judged in this baseline: {missing} is not among its notebook's stored metrics (built "
                           f"{built.get(r['notebook'], 'earlier')}, before this test changed); "
                           f"`envelope --only {r['notebook'][:2]}` with fresh seeds judges it")
    counted = [r for r in rows if r["about"] != "sanity"]
    return {**body, "claims": rows, "counts": _report.counts(counted),
            "per_paper": {p: _report.counts([r for r in counted if r["paper"] == p]) for p in claims.NOTEBOOKS},
            "sanity": _report.counts([r for r in rows if r["about"] == "sanity"]), "regressions": [],
            "comparison": None}


def leave_out(body: dict) -> dict:
    """`body` as its profile now runs: the sections the profile leaves to full (harness.deferred) taken out of the
    stored runs that still measured them (their metrics, in the base run and the envelope's ranges, and their claims'
    outcomes across the variations), each such notebook's `parts` saying so, as a run of the profile now writes it.
    What quick measured of them before stays in git and in each claim's quick basis ("before it was left out")."""
    profile = body.get("profile")
    notebooks = dict(body.get("notebooks") or {})
    env = dict(body.get("envelope") or {})
    gone: set = set()
    for nb, entry in notebooks.items():
        sections = _deferred.left_out(profile, nb)
        if not sections or entry.get("metrics") is None:
            continue
        prefixes = tuple(p for s in sections for p in s.prefixes)
        nbjson = json.loads((NOTEBOOKS / f"{nb}.ipynb").read_text())
        left = [s.part for s in sections]
        ran = (entry.get("parts") or {}).get("parts")                    # None: a whole run
        ran = parts_of(nbjson) if ran is None else ran
        notebooks[nb] = {**entry, "metrics": {k: v for k, v in entry["metrics"].items() if not k.startswith(prefixes)},
                         "parts": record([p for p in ran if p not in left], nbjson, left_to_full=left)}
        for key in ("metrics", "values"):
            if env.get(key, {}).get(nb):
                env[key] = {**env[key], nb: {k: v for k, v in env[key][nb].items() if not k.startswith(prefixes)}}
        gone |= {c.id for c in claims.CLAIMS if c.notebook == nb and _deferred.section_of(c, profile)}
    for key in ("outcomes", "held"):
        if key in env:
            env[key] = {cid: v for cid, v in env[key].items() if cid not in gone}
    return {**body, "notebooks": notebooks, **({"envelope": env} if body.get("envelope") is not None else {})}


def read_envelope(path, option: str) -> dict:
    """The envelope baseline at `path`, or one clear line saying what is wrong with it (absent, a folder, not JSON,
    not an object, no envelope) and what to do, for the option (`--join`, `--rejudge`, `--out`) that named it."""
    path = Path(path)
    if not path.exists():
        raise MemlibError(f"{option} {path}: not found; name an envelope baseline written by `envelope` "
                          "(e.g. baselines/quick-cpu.json)")
    if path.is_dir():
        raise MemlibError(f"{option} {path}: a folder, not a file; name an envelope baseline's JSON file")
    try:
        body = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise MemlibError(f"{option} {path}: not readable as JSON ({type(e).__name__}: {str(e)[:80]}); name an "
                          "envelope baseline written by `envelope`, or restore it from git") from None
    if not isinstance(body, dict):
        raise MemlibError(f"{option} {path}: holds a JSON {type(body).__name__}, not an envelope baseline (an "
                          "object); restore it from git or build one with `envelope`")
    if not body.get("envelope"):
        raise MemlibError(f"{option} {path}: holds no envelope (not a baseline written by `envelope`); build one first")
    return body


def check_out(out) -> None:
    """Before any training: `--out` can take the envelope (not a folder; an existing file an envelope baseline that
    a merge can read; its folder creatable), so hours of variations never end in a traceback."""
    out = Path(out)
    if out.is_dir():
        raise MemlibError(f"--out {out}: a folder, not a file; name the baseline's JSON file (e.g. {out / 'quick-cpu.json'})")
    if out.exists():
        read_envelope(out, "--out")
    parent = out.parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise MemlibError(f"--out {out}: cannot write into {parent}; choose a writable folder")


def withdraw(body: dict, notebook: str, keys, why: str) -> dict:
    """`body` with the metrics `keys` of `notebook` withdrawn from every stored run (the base run's metrics, the
    envelope's ranges and per-seed values) and the claims that read them from the envelope's outcomes and counts, for
    metrics whose meaning changed with the code (a net rebuilt as the text states it): a claim reading one is then
    'not judged in this baseline' until its notebook's part is built again, instead of judged on numbers of another
    net. `why` is kept in the envelope (`withdrawn`), with the keys."""
    keys = set(keys)
    notebooks = dict(body.get("notebooks") or {})
    entry = dict(notebooks.get(notebook) or {})
    if entry.get("metrics") is not None:
        entry["metrics"] = {k: v for k, v in entry["metrics"].items() if k not in keys}
        notebooks[notebook] = entry
    env = dict(body.get("envelope") or {})
    for key in ("metrics", "values"):
        if (env.get(key) or {}).get(notebook):
            env[key] = {**env[key], notebook: {k: v for k, v in env[key][notebook].items() if k not in keys}}
    reading = {c.id for c in claims.CLAIMS if c.notebook == notebook
               and keys & ({c.metric, c.control} | {x for x in (c.threshold, c.control_threshold) if isinstance(x, str)})}
    for key in ("outcomes", "held"):
        if key in env:
            env[key] = {cid: v for cid, v in env[key].items() if cid not in reading}
    env["withdrawn"] = {**env.get("withdrawn", {}),
                        notebook: {"keys": sorted(keys | set((env.get("withdrawn") or {}).get(notebook, {})
                                                             .get("keys", []))), "why": why}}
    return {**body, "notebooks": notebooks, "envelope": env}


def join_file(path, earlier_path, *, across_code: bool = False) -> dict:
    """`python -m memlib envelope --join EARLIER`: the baseline at `path` with EARLIER's variations joined (`join`),
    judged again (`rejudge`) and rewritten; trains nothing."""
    path, earlier_path = Path(path), Path(earlier_path)
    body, earlier = read_envelope(path, "--out"), read_envelope(earlier_path, "--join")
    if earlier.get("profile") != body.get("profile"):
        raise MemlibError(f"--join {earlier_path}: profile {earlier.get('profile')!r}, but {path} is "
                          f"{body.get('profile')!r}; join envelopes of one profile")
    body = rejudge(join(body, earlier, across_code=across_code))
    atomic_write_text(path, json.dumps(body, indent=1, default=str))
    return body


def _fingerprint(v: dict, nb: str) -> tuple:
    """What identifies one variation's run of a notebook: its seed, its recorded wall time and its arithmetic."""
    return ((v.get("seed_by_notebook") or {}).get(nb, v.get("seed")), (v.get("wall_s_by_notebook") or {}).get(nb),
            json.dumps((v.get("arithmetic") or {}).get(nb), sort_keys=True, default=str))


def _commits(body: dict) -> dict:
    return {nb: (e.get("provenance") or {}).get("git_commit") for nb, e in (body.get("notebooks") or {}).items()}


def join(body: dict, earlier: dict, *, across_code: bool = False) -> dict:
    """`body`'s envelope with `earlier`'s variations added, for the notebooks both judge: an earlier build of the
    same code on other seed bands or another machine (their outcomes, held counts, metric ranges and per-seed values,
    each variation renamed 'earlier NAME' and marked `earlier`), so a rebuild on fresh seeds adds evidence instead of
    replacing it. Evidence is never counted twice: a run `body` already holds (the same notebook's seed, wall time
    and arithmetic) is refused. Builds of other code are refused unless `across_code`, the error naming the commits
    (each notebook's provenance records its own): a join across code changes must be asked for."""
    env, old = dict(body["envelope"]), earlier["envelope"]
    now_nbs = {c.notebook for c in claims.CLAIMS if c.id in env.get("outcomes", {})}
    mine = {(nb, _fingerprint(v, nb)) for v in env.get("variations", []) for nb in (v.get("seed_by_notebook") or {})}
    twice = sorted({f"{v['name']} ({nb})" for v in old.get("variations", []) for nb in (v.get("seed_by_notebook") or {})
                    if nb in now_nbs and (nb, _fingerprint(v, nb)) in mine})
    if twice:
        raise MemlibError(f"--join: the earlier envelope's runs {', '.join(twice[:4])}{' ...' if len(twice) > 4 else ''} "
                          "are already in this one (same seed, wall time and arithmetic): joined again they would "
                          "count the same evidence twice; nothing was written")
    differ = {nb: (a, _commits(earlier).get(nb)) for nb, a in _commits(body).items()
              if nb in now_nbs and _commits(earlier).get(nb) and a and a != _commits(earlier).get(nb)}
    if differ and not across_code:
        raise MemlibError("--join: the earlier envelope ran other code ("
                          + "; ".join(f"{nb}: {b[:8]} there, {a[:8]} here" for nb, (a, b) in sorted(differ.items()))
                          + "); check that the change does not touch what it measures (git diff), then pass "
                            "--across-code to join it; nothing was written")
    notebook = {c.id: c.notebook for c in claims.CLAIMS}
    judged_now = {notebook.get(c) for c in env.get("outcomes", {})}
    taken = {v["name"] for v in env.get("variations", [])}
    names: dict = {}
    for v in old.get("variations", []):
        label, i = f"earlier {v['name']}", 2
        while label in taken:
            label, i = f"earlier {v['name']} ({i})", i + 1
        taken.add(label)
        names[v["name"]] = label
    outcomes = {c: dict(o) for c, o in env.get("outcomes", {}).items()}
    held = {c: dict(h) for c, h in env.get("held", {}).items()}
    joined: set = set()
    for key, into in (("outcomes", outcomes), ("held", held)):
        for cid, by_variation in old.get(key, {}).items():
            if cid in outcomes and notebook.get(cid) in judged_now:
                into.setdefault(cid, {}).update({names[v]: x for v, x in by_variation.items() if v in names})
                joined.add(notebook.get(cid))
    metrics = {nb: dict(m) for nb, m in env.get("metrics", {}).items()}
    for nb in joined:
        for k, r in (old.get("metrics", {}).get(nb) or {}).items():
            if k in metrics.get(nb, {}):
                metrics[nb][k] = _union(metrics[nb][k], r)
    seeds = {nb: {k: max(n, (old.get("seeds", {}).get(nb) or {}).get(k, 0)) for k, n in m.items()}
             if nb in joined else m for nb, m in env.get("seeds", {}).items()}
    values = {nb: {k: dict(by) for k, by in m.items()} for nb, m in env.get("values", {}).items()}
    for nb in joined:
        for k, by in (old.get("values", {}).get(nb) or {}).items():
            values.setdefault(nb, {}).setdefault(k, {}).update({names[v]: x for v, x in by.items() if v in names})
    variations = list(env.get("variations", [])) + [{**v, "name": names[v["name"]], "earlier": True}
                                                   for v in old.get("variations", [])]
    built = old.get("built", {})
    return {**body, "envelope": {**env, "variations": _judging(variations, outcomes), "outcomes": outcomes,
                                 "held": held, "metrics": metrics, "seeds": seeds, "values": values,
                                 "across_code": {**env.get("across_code", {}),
                                                 **{nb: list(ab) for nb, ab in differ.items()}},
                                 "joined": {**env.get("joined", {}),
                                            **{nb: built.get(nb, "earlier") for nb in sorted(joined)}}}}


def _union(a: list, b: list) -> list:
    """The range holding both `_range`s (NaN inside it where either holds NaN)."""
    real = [x for x in (*a[:2], *b[:2]) if x == x]
    nan = "nan" in a or "nan" in b or len(real) < 4
    if not real:
        return [float("nan"), float("nan")]
    return [min(real), max(real)] + (["nan"] if nan else [])


def _merge(old: dict, new: dict, names: list[str], env: dict) -> dict:
    """`old`'s notebooks other than `names`, with `new`'s for `names` (claims, metrics, envelope)."""
    keep = lambda nb: nb not in names                                   # noqa: E731
    merged = dict(new)
    merged["notebooks"] = {**{nb: e for nb, e in old.get("notebooks", {}).items() if keep(nb)},
                           **{nb: e for nb, e in new["notebooks"].items() if nb in names}}
    order = list(claims.NOTEBOOKS.values())
    rows = [r for r in old.get("claims", []) if keep(r["notebook"])] + [r for r in new["claims"] if r["notebook"] in names]
    merged["claims"] = sorted(rows, key=lambda r: order.index(r["notebook"]))
    oe = old["envelope"]
    by_name = {v["name"]: v for v in oe.get("variations", [])}
    for v in env["variations"]:
        prev = by_name.get(v["name"], {**v, "arithmetic": {}, "wall_s_by_notebook": {}})
        walls = {**prev.get("wall_s_by_notebook", {}), **v["wall_s_by_notebook"]}   # a rebuilt notebook's replaces
        # each notebook's base seed (a part may be built with --seed: fresh bands for changed tests); older entries
        # without it ran at the variation's own seed
        seeds = {**{nb: prev.get("seed", v["seed"]) for nb in prev.get("arithmetic", {})},
                 **prev.get("seed_by_notebook", {}), **v["seed_by_notebook"]}
        by_name[v["name"]] = {**v, "seed": prev.get("seed", v["seed"]),
                              "arithmetic": {**prev.get("arithmetic", {}), **v["arithmetic"]},
                              "seed_by_notebook": seeds, "wall_s_by_notebook": walls}   # wall_s: _judging
    ids = {c.id for c in claims.CLAIMS if c.notebook in names}
    known = {c.id for c in claims.CLAIMS}        # a claim since removed leaves the envelope with its notebook's rebuild
    outcomes = {**{c: o for c, o in oe.get("outcomes", {}).items() if c in known and c not in ids}, **env["outcomes"]}
    held = {**{c: h for c, h in oe.get("held", {}).items() if c in known and c not in ids}, **env.get("held", {})}
    merged["envelope"] = {
        "variations": _judging(list(by_name.values()), outcomes),
        "metrics": {**{nb: m for nb, m in oe.get("metrics", {}).items() if keep(nb)}, **env["metrics"]},
        "outcomes": outcomes, "held": held,
        "seeds": {**{nb: m for nb, m in oe.get("seeds", {}).items() if keep(nb)}, **env["seeds"]},
        "values": {**{nb: m for nb, m in oe.get("values", {}).items() if keep(nb)}, **env.get("values", {})},
        "built": {**oe.get("built", {}), **{nb: time.strftime("%Y-%m-%d") for nb in names}}}
    return merged


def _judging(variations: list[dict], outcomes: dict) -> list[dict]:
    """The variations with only the notebooks whose claims they still judge (an outcome names them): a notebook's part
    rebuilt without a variation leaves it, and a variation that judges nothing leaves the envelope. A variation's
    total time is None where a notebook it judges has no time kept."""
    notebook = {c.id: c.notebook for c in claims.CLAIMS}
    judged: dict = {}
    for cid, by_variation in outcomes.items():
        for name in by_variation:
            judged.setdefault(name, set()).add(notebook.get(cid))
    out = []
    for v in variations:
        nbs = judged.get(v["name"], set())
        if not nbs:
            continue
        walls = {nb: w for nb, w in (v.get("wall_s_by_notebook") or {}).items() if nb in nbs}
        out.append({**v, "arithmetic": {nb: a for nb, a in (v.get("arithmetic") or {}).items() if nb in nbs},
                    "seed_by_notebook": {nb: x for nb, x in (v.get("seed_by_notebook") or {}).items() if nb in nbs},
                    "wall_s_by_notebook": walls,
                    "wall_s": round(sum(walls.values()), 1) if set(walls) >= nbs else None})
    return out


def describe(body: dict, top: int = 12) -> str:
    """What the envelope shows: the claims that moved, and the metrics that moved most (relative width)."""
    env = body.get("envelope") or {}
    lines = [f"envelope of {len(env.get('variations', []))} variations: "
             + ", ".join(f"{v['name']} ({v['wall_s']:.0f} s)" if v.get("wall_s") is not None
                         else f"{v['name']} (time not kept)" for v in env.get("variations", []))]
    ledger = {r["id"]: r["expected"] for r in body.get("claims", [])}
    moving = {c: o for c, o in env.get("outcomes", {}).items() if len(set(o.values())) > 1}
    lines.append(f"{len(moving)} claims took more than one outcome (unstable):")
    held = env.get("held", {})
    for c, o in sorted(moving.items()):
        kn = [held.get(c, {}).get(v) for v in o]
        pooled = (f"; the statement per seed: {sum(k for k, _ in kn)} of {sum(n for _, n in kn)} seeds"
                  if kn and all(kn) else "")
        lines.append(f"  {c}: " + ", ".join(f"{v} {x}" for v, x in o.items()) + pooled
                     + ("" if ledger.get(c) == claims.UNSTABLE else f"  [ledger: {ledger.get(c)}]"))
    widths = []
    for nb, m in env.get("metrics", {}).items():
        for k, (lo, hi, *_) in m.items():
            if lo == lo and hi == hi and abs(hi - lo) < float("inf"):
                atol, rtol = _comparison.tolerance(k)
                tol = atol + rtol * max(abs(lo), abs(hi))
                widths.append(((hi - lo) / tol if tol > 0 else float("inf"), nb, k, lo, hi))
    widths.sort(reverse=True)
    lines.append(f"the {top} metrics that moved most, in units of their drift tolerance (without the envelope, "
                 "a width above 1 could be flagged on another machine):")
    lines += [f"  {nb} {k}: {lo:.4g} .. {hi:.4g} ({w:.1f} tolerances)" for w, nb, k, lo, hi in widths[:top]]
    lines.append(f"{sum(w > 1 for w, *_ in widths)} of {len(widths)} metrics moved by more than their tolerance")
    if env.get("values"):
        lines.append(describe_verdicts(verdicts(body)))
    seq = env.get("sequential")
    if seq:
        lines.append(f"sequential seeds: bands per notebook {seq['bands']}; "
                     f"{len(seq['took_more_seeds'])} claims took more than the first band: "
                     + (", ".join(f"{c} ({n} seeds)" for c, n in sorted(seq["took_more_seeds"].items())) or "none")
                     + "; the added bands cost " + ", ".join(f"{nb[:2]} {s:.0f} s" for nb, s in
                                                             seq["added_bands_s"].items()))
    return "\n".join(lines)
