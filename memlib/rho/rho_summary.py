"""Paper 4's runs summarized: a run's recorded series (`rho.RhoRecorder`'s records) reduced to end values, drops and
ratios, and the metrics a notebook logs from a group of runs (`run_metrics`, `init_band_metrics`, `band_metrics`).
Numbers in, numbers out: nothing here trains or reads a model. `rho` re-exports every public name here.
"""
from __future__ import annotations


def init_band_metrics(tag: str, bands: dict) -> dict:
    """Per-seed lists (seed bands) of the dependence on the initial norm, from `train_init_bands`' {norm: [records
    per seed]}: for each seed, over its runs from every norm, "<tag>.rho_end_spread" and "<tag>.mean_abs_f_end_spread"
    (`init_spread`), "<tag>.margin_small_over_large" (`margin_small_over_large`, nan where a run diverged), Observation
    2's "<tag>.obs2_mean_margin_ratio" and, where the runs recorded margin_min, "<tag>.obs2_min_margin_ratio"
    (`margin_by_rho_eq`) and "<tag>.min_margin_small_over_large" (the smallest margin, Fig 11), and the fit
    of the worst run: "<tag>.train_errors_end", "<tag>.loss_ratio" (inf for a diverged run)."""
    n_seeds = len(next(iter(bands.values())))
    out = {f"{tag}.{k}": [] for k in ("rho_end_spread", "mean_abs_f_end_spread", "margin_small_over_large",
                                      "obs2_mean_margin_ratio", "train_errors_end", "loss_ratio")}
    with_min = all(r is None or "margin_min" in r for recs in bands.values() for r in recs)
    if with_min:
        out.update({f"{tag}.obs2_min_margin_ratio": [], f"{tag}.min_margin_small_over_large": []})
    for i in range(n_seeds):
        runs = {n: recs[i] for n, recs in bands.items()}
        ok = {n: r for n, r in runs.items() if r is not None}
        ends = [end_metrics(r) for r in ok.values()]
        whole = len(ok) == len(runs)
        out[f"{tag}.rho_end_spread"].append(init_spread(ok) if whole else float("nan"))
        out[f"{tag}.mean_abs_f_end_spread"].append(init_spread(ok, "mean_abs_f") if whole and all(
            "mean_abs_f" in r for r in ok.values()) else float("nan"))
        out[f"{tag}.margin_small_over_large"].append(margin_small_over_large(ok) if whole else float("nan"))
        out[f"{tag}.obs2_mean_margin_ratio"].append(margin_by_rho_eq(ok) if whole else float("nan"))
        if with_min:
            out[f"{tag}.obs2_min_margin_ratio"].append(margin_by_rho_eq(ok, "margin_min") if whole else float("nan"))
            out[f"{tag}.min_margin_small_over_large"].append(
                margin_small_over_large(ok, "margin_min") if whole else float("nan"))
        out[f"{tag}.train_errors_end"].append(max(e["train_errors_end"] for e in ends) if whole else float("inf"))
        out[f"{tag}.loss_ratio"].append(max(e["loss_ratio"] for e in ends) if whole else float("inf"))
    return out


def tail_mean(series, frac: float = 0.1) -> float:
    """Mean of the last `frac` of a recorded series (at least one entry): SGD's noise averaged out."""
    s = list(series)
    return float(sum(s[-max(1, int(len(s) * frac)):]) / max(1, int(len(s) * frac)))


def tail_median(series, frac: float = 0.1) -> float:
    """Median of the last `frac` of a recorded series (at least one entry; the upper middle of an even count)."""
    s = list(series)
    tail = sorted(s[-max(1, int(len(s) * frac)):])
    return float(tail[len(tail) // 2])


def errors_series(records) -> list[float]:
    """The misclassified training count at each recorded epoch: (1 - accuracy) x N, N the training set's size."""
    n = len(records["last_margins"])
    return [float(round((1.0 - a) * n)) for a in records["acc"]]


def rise_before_equilibrium(rho_series, rho_eq_series) -> tuple[float, int | None]:
    """Observation 1's test: (largest relative drop of rho below its running maximum before rho first
    reaches rho_eq, index of that first crossing or None if it never does)."""
    running, drop = -float("inf"), 0.0
    for i, (r, r_eq) in enumerate(zip(rho_series, rho_eq_series)):
        running = max(running, r)
        drop = max(drop, (running - r) / running)
        if r_eq > 0 and r >= r_eq:
            return drop, i
    return drop, None


EQ_TOLERANCE = 0.1   # "rho = rho_eq" within 10 % (p4.eq5_bnwd's reading of "ends at")


def equilibrium_reached(rho_series, rho_eq_series, tol: float = EQ_TOLERANCE) -> int | None:
    """Index of the first record from which rho stays within `tol` (relative) of eq. 5's rho_eq to the end of the
    run: where Observation 1's "minimum ... at which rho = rho_eq" is reached. None where the last record is not
    there (the run never reached it)."""
    at = None
    for i, (r, r_eq) in enumerate(zip(rho_series, rho_eq_series)):
        near = r_eq > 0 and abs(r - r_eq) <= tol * r_eq
        at = (i if at is None else at) if near else None
    return at


def drop_until_equilibrium(rho_series, rho_eq_series, tol: float = EQ_TOLERANCE) -> float:
    """Observation 1 ("rho grows monotonically until a minimum is reached at which rho = rho_eq"): the largest relative
    fall of rho below its running maximum from the start up to the record where the equilibrium is reached
    (`equilibrium_reached`), over the whole run where it never is. A fall after the minimum is reached (rho following
    rho_eq as the net keeps moving) is not part of the statement."""
    rho_series = list(rho_series)
    end = equilibrium_reached(rho_series, rho_eq_series, tol)
    return max_drop(rho_series if end is None else rho_series[:end + 1])


def max_drop(series) -> float:
    """Largest relative fall of a series below its running maximum, over the whole series (0 for a
    non-decreasing one): Observation 1 over a run, `max_t (max_{s<=t} rho_s - rho_t) / max_{s<=t} rho_s`."""
    running, drop = -float("inf"), 0.0
    for r in series:
        running = max(running, r)
        if running > 0:
            drop = max(drop, (running - r) / running)
    return drop


def _ratio(a: float, b: float) -> float:
    return a / b if b != 0 else float("nan")     # a dead network (all f_n = 0) has no margins


def margin_cv(records) -> list[float]:
    """Spread of the training margins per epoch: std / mean of y_n f_n (0 at exact interpolation)."""
    return [_ratio(s, m) for s, m in zip(records["margin_std"], records["margin_mean"])]


def terminal_phase_start(records) -> int | None:
    """Index of the first record from which every training sample stays classified correctly to the end of the run
    (Papyan et al.: the terminal phase of training, during which "the training error stays effectively zero"), or
    None where the last record misclassifies one. A run whose training error vanishes at an early dip and comes back
    starts its terminal phase after the last error, not at the dip."""
    at = None
    for i, a in enumerate(records["acc"]):
        at = (i if at is None else at) if a >= 1.0 else None
    return at


def first_separable(records) -> int | None:
    """Index of the first recorded epoch with every training sample classified correctly, or None."""
    return next((i for i, a in enumerate(records["acc"]) if a >= 1.0), None)


def end_metrics(records) -> dict:
    """End-of-training numbers of one run (noisy series averaged over the last 10 % of epochs):
    rho (BN reading), eq. 5's rho_eq, their relative gap, margin mean and spread, mean |f_n|, the largest
    fall of rho below its running maximum until it reaches rho_eq (`drop_until_equilibrium`, Observation 1) and over
    the whole run (`max_drop`, "rho_max_drop_run"), the training accuracy at the last epoch, the number of
    misclassified training samples (`train_errors_end`: the median over the same tail; `train_errors_last`: at the
    last epoch), the loss (`loss_end`, averaged; `loss_ratio`: that mean over the MSE of predicting zero, which is 1
    for labels +-1: the fit gate `claims.fitted`; `loss_ratio_last`: the last epoch's), the test error (averaged),
    and where recorded the smallest margin and NC1 .. NC4 (averaged). The fit gate reads the tail, not the last
    epoch: at paper 4's constant learning rate one epoch's loss is a draw from a noisy series (docs/CLAIM_RULES.md,
    the `fit` row, amended 2026-11-28)."""
    rho_end, rho_eq_end = tail_mean(records["rho_bn"]), tail_mean(records["rho_eq"])
    out = dict(rho_end=rho_end, rho_eq_end=rho_eq_end,
               eq5_rel_err=_ratio(abs(rho_end - rho_eq_end), abs(rho_eq_end)),
               margin_mean_end=tail_mean(records["margin_mean"]), margin_cv_end=tail_mean(margin_cv(records)),
               rho_max_drop=drop_until_equilibrium(records["rho_bn"], records["rho_eq"]),
               rho_max_drop_run=max_drop(records["rho_bn"]),
               train_acc_end=records["acc"][-1],
               train_errors_end=tail_median(errors_series(records)),
               train_errors_last=float(sum(m <= 0 for m in records["last_margins"])),
               loss_end=tail_mean(records["loss"]),
               loss_ratio=tail_mean(records["loss"]),   # labels +-1: predicting zero has MSE 1
               loss_ratio_last=records["loss"][-1])
    if "mean_abs_f" in records:
        out["mean_abs_f_end"] = tail_mean(records["mean_abs_f"])
    if "test_acc" in records:
        out["test_acc_end"] = records["test_acc"][-1]
        out["test_error_end"] = tail_mean([1 - a for a in records["test_acc"]])
    if "margin_min" in records:
        out["margin_min_end"] = tail_mean(records["margin_min"])
    for k in ("nc1", "nc2", "nc3", "nc4"):
        if k in records:
            out[f"{k}_end"] = tail_mean(records[k])
    return out


def end_over_separable(records, key: str) -> float:
    """Series `key` ("margin_cv" or a recorded one) at the end (last 10 % averaged) divided by its value
    where the terminal phase of training begins (`terminal_phase_start`: the first record from which the training error
    stays zero); inf if the run ends with a misclassified training sample."""
    series = margin_cv(records) if key == "margin_cv" else records[key]
    i = terminal_phase_start(records)
    return float("inf") if i is None else _ratio(tail_mean(series), series[i])


def init_spread(runs: dict, key: str = "rho_bn") -> float:
    """max / min of the final value of a recorded series (default rho, BN reading; "mean_abs_f" for Fig 3)
    over runs {init_norm: records} (None entries skipped)."""
    ends = [tail_mean(r[key]) for r in runs.values() if r is not None]
    return max(ends) / min(ends) if ends and min(ends) > 0 else float("nan")


def margin_small_over_large(runs: dict, key: str = "margin_mean") -> float:
    """Final mean margin (`key="margin_min"`: smallest margin) of the smallest initial norm over that of the largest
    (runs {norm: records}); nan when the large-initialization run's is not positive."""
    ok = [n for n, r in runs.items() if r is not None]
    small, large = (tail_mean(runs[n][key]) for n in (min(ok), max(ok)))
    return small / large if large > 0 else float("nan")


def margin_by_rho_eq(runs: dict, key: str = "margin_mean") -> float:
    """Observation 2 over runs {init_norm: records} (None skipped): the final mean margin (`key="margin_min"`: the
    smallest margin, min_n y_n f_n) of the run ending with the smallest eq. 5 rho_eq over that of the run ending with
    the largest (last 10 % of epochs averaged); > 1 where the smaller rho_eq has the larger margin; nan when the
    latter is not positive or fewer than two runs are left."""
    ok = sorted((r for r in runs.values() if r is not None), key=lambda r: tail_mean(r["rho_eq"]))
    if len(ok) < 2:
        return float("nan")
    small, large = tail_mean(ok[0][key]), tail_mean(ok[-1][key])
    return small / large if large > 0 else float("nan")


def run_metrics(tag: str, runs: dict) -> dict:
    """Flat metrics of a figure group {init_norm: records}: `end_metrics` of each run as
    "<tag>.norm<norm>.<name>" (a diverged run logs "<tag>.norm<norm>.diverged" = 1), the worst eq. 5 gap
    over the group, "<tag>.eq5_max_rel_err", and the group's fit: "<tag>.train_errors_end" (the most
    misclassified training samples at the end: 0 when every run separates its training set) and
    "<tag>.loss_ratio" (the highest; a diverged run counts as unfitted, inf for both)."""
    out, gaps, errs, ratios = {}, [], [], []
    for norm, r in runs.items():
        if r is None:
            out[f"{tag}.norm{norm:g}.diverged"] = 1.0
            errs.append(float("inf")), ratios.append(float("inf"))
            continue
        end = end_metrics(r)
        out.update({f"{tag}.norm{norm:g}.{k}": float(v) for k, v in end.items()})
        gaps.append(end["eq5_rel_err"]), errs.append(end["train_errors_end"]), ratios.append(end["loss_ratio"])
    if gaps:
        out[f"{tag}.eq5_max_rel_err"] = max(gaps)
    if errs:
        out[f"{tag}.train_errors_end"], out[f"{tag}.loss_ratio"] = max(errs), max(ratios)
    return out


def run_ends(records: list) -> list[dict]:
    """`end_metrics` of each run of `records` (None, a diverged run, skipped): what `plot.error_vs_rho` draws."""
    return [end_metrics(r) for r in records if r is not None]


BAND_KEYS = ("train_errors_end", "loss_ratio", "rho_end", "rho_max_drop", "rho_max_drop_run", "margin_mean_end", "test_error_end",
             "nc2_end", "nc3_end", "nc4_end")


def band_metrics(tag: str, records: list, *, seeds: int | None = None) -> dict:
    """Per-seed lists (seed bands, `Run.log`) of a run trained over seeds: `end_metrics` values named in
    BAND_KEYS as "<tag>.<name>", and the terminal-phase ratios "<tag>.cv_end_over_tpt" (margin spread) and
    "<tag>.nc1_end_over_tpt", "<tag>.nc3_end_over_tpt" (`end_over_separable`; NC2 and NC4 at the end are in
    BAND_KEYS). With `seeds` (the number trained), each seed that
    `train_seed_band` left out (diverged) adds an unfitted entry to the fit lists (errors and ratio inf)."""
    ends = [end_metrics(r) for r in records]
    out = {f"{tag}.{k}": [e[k] for e in ends if k in e] for k in BAND_KEYS}
    missing = max(0, (seeds or 0) - len(records))
    out[f"{tag}.train_errors_end"] += [float("inf")] * missing
    out[f"{tag}.loss_ratio"] += [float("inf")] * missing
    out[f"{tag}.cv_end_over_tpt"] = [end_over_separable(r, "margin_cv") for r in records]
    for k in ("nc1", "nc3"):
        if records and all(k in r for r in records):
            out[f"{tag}.{k}_end_over_tpt"] = [end_over_separable(r, k) for r in records]
    return {k: v for k, v in out.items() if v}


def error_gap_by_rho(records_a: list, records_b: list, *, at_start: bool = False) -> list[float]:
    """Observation 3 per seed: for the i-th run of two bands (same network and data, e.g. two initial
    norms, paired by seed), the test error (`end_metrics`' test_error_end) of the run that ends with the
    larger rho minus that of the run with the smaller rho; > 0 where the smaller rho generalizes better.
    `at_start`: the same pair's test errors at the first record (the untrained nets: the control, which no training
    has biased). nan where the bands do not pair up (a diverged seed)."""
    if len(records_a) != len(records_b) or not records_a:
        return [float("nan")] * max(len(records_a), len(records_b), 1)
    out = []
    for ra, rb in zip(records_a, records_b):
        ea, eb = end_metrics(ra), end_metrics(rb)
        (small, rs), (large, rl) = sorted(((ea, ra), (eb, rb)), key=lambda p: p[0]["rho_end"])
        if at_start:
            out.append((1 - rl["test_acc"][0]) - (1 - rs["test_acc"][0]))
        else:
            out.append(large["test_error_end"] - small["test_error_end"])
    return out
