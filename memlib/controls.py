"""Paper 1's controls (issue 42) and the statistics of the rule from the papers' words to tests that notebook 01 logs
for its claims (memlib/claims/paper1*.py; the rule: claims/rules.py, docs/CLAIM_RULES.md).

A control is a run that shows nothing the claim states, put through the claim's own comparison (`Claim.control`),
which it must fail: the same nets untrained (`twins`: the same architecture, seeds and initial weights; notebook 01's
keys end in `.untrained`), an untrained band of other seeds in the place of the trained nets (`twins(job,
offset=OTHER_SEEDS)`, keys `untrained_other`), another net of the paper's comparison, or other inputs. Every function
returns one value per seed (a seed band), as the claims read them.
"""
from __future__ import annotations

import numpy as np

from . import metrics
from .dynamics import untrained_bar   # noqa: F401  (the twins' bar, re-exported for notebook 01)
from .harness.store import untrained

UNTRAINED = ".untrained"   # the suffix of a metric measured on a band's untrained twins
OTHER_SEEDS = 100          # an untrained band of other seeds: each seed + 100 (no claim's band uses those)


def twins(job, *, init: str | None = None, offset: int = 0) -> list:
    """The nets a seed band (`job`: a `plan.Job`) starts from, untrained, one per seed: its builder, its seeds and its
    initialization (`job.fit_kwargs["init"]` unless `init` is given), so each is the trained net's initial weights.
    `offset` > 0: the nets of seeds `seed + offset` instead, an untrained band that shares no weights with the
    trained one (the control of a comparison of the trained nets with their own initial weights)."""
    init = init or job.fit_kwargs.get("init", "default")
    return [untrained(job.build, seed=s + offset, init=init) for s in job.seeds]


def suffixed(values: dict, suffix: str = UNTRAINED) -> dict:
    """`values` with `suffix` appended to every key (the untrained twins' metrics under the trained nets' names)."""
    return {f"{k}{suffix}": v for k, v in values.items()}


def untrained_scores(prefix: str, nets, probes, x_train) -> dict:
    """The identity / constant scores of `nets` (untrained twins) on `probes`, per seed, under the trained band's
    names with `.untrained` appended: {f"{prefix}.corr_identity.untrained": [per seed], ...}."""
    return suffixed(metrics.seed_metrics(prefix, metrics.band_scores(nets, probes, x_train)))


def _seeds(values, key) -> np.ndarray:
    return np.asarray(values[key], dtype=float)


def max_abs_corr(values: dict, prefix: str) -> dict:
    """The row `random`'s statistic (rules.RANDOM_BELOW): per seed, the larger of |corr to the identity| and |corr to
    the constant map|, read from `values` (a run's metrics) at `prefix`: {f"{prefix}.max_abs_corr": [per seed]}."""
    ci, cc = (np.abs(_seeds(values, f"{prefix}.{k}")) for k in ("corr_identity", "corr_constant"))
    return {f"{prefix}.max_abs_corr": np.maximum(ci, cc).tolist()}


def strong_bias_bar(values: dict, prefix: str, level: float) -> dict:
    """The row `strong_bias`'s bar for the constant map (r >= `level`, rules.STRONG, and above the alternative's r):
    per seed, the larger of `level` and the corr to the identity at `prefix`: {f"{prefix}.corr_constant.bar": [...]}."""
    return {f"{prefix}.corr_constant.bar": np.maximum(level, _seeds(values, f"{prefix}.corr_identity")).tolist()}


def lead_over_twins(values: dict, name: str, ahead: str, behind: str) -> dict:
    """The row `more` measured against the initialization: per seed, `ahead` minus `behind` (two keys of a run's
    metrics, `values`) as `name`, and `name.untrained` / `name.bar`, the same lead of the untrained twins (the keys
    with `.untrained`) and the stricter of 0 and that lead moved `dynamics.UNTRAINED_MARGIN` past it. A claim
    `name > name.bar` then fails for nets whose order their random initialization already had."""
    lead = lambda sfx: (_seeds(values, ahead + sfx) - _seeds(values, behind + sfx)).tolist()
    return {name: lead(""), **untrained_bar(name, lead(UNTRAINED), 0.0)}


DRAW_STRIDE = 1000   # Fig 25's initializations of seed s: s, s + 1000, s + 2000, ... (no band reaches 1000)


def init_roughness(build, seeds, x, *, draws: int, offset: int = 0) -> list:
    """Paper 1, Fig 25 (an initialization claim, issue 42): per seed s, the mean `metrics.hidden_roughness` on the
    inputs `x` over `draws` untrained nets of `build`, seeded s + offset + DRAW_STRIDE * j (j < draws; j = 0 is the
    band's own net). One initialization is a draw whose roughness scatters (a 3-channel net's hidden maps are three
    channels' top singular vector); the mean over draws estimates what the architecture gives, which the sentence
    is about."""
    return [float(np.mean([metrics.hidden_roughness(untrained(build, seed=s + offset + DRAW_STRIDE * j), x)
                           for j in range(draws)])) for s in seeds]


def relative_error(nets, x, targets) -> list:
    """Per net, ||net(x) - target|| / ||target|| over all of `x` (eq. 1's check, for the untrained twins)."""
    out = []
    for m, t in zip(nets, targets):
        p = metrics.predict(m, x).reshape(len(x), -1)
        t = t.reshape(len(x), -1).to(p.dtype)
        out.append(((p - t).norm() / t.norm()).item())
    return out


def mean_corr(nets, x, references) -> list:
    """Per net, the mean over the inputs `x` of the correlation of its output with `references[i]` (another band's
    predictions on the same inputs, seed by seed)."""
    return [metrics.correlation(metrics.predict(m, x), r).mean().item() for m, r in zip(nets, references)]


def frac_copied(nets, inputs: list, level: float) -> list:
    """The row `most` (or `every`) over the row `is` for the identity: per net, the fraction of the items (every input
    of every tensor in `inputs`, e.g. each test input at each size) whose prediction correlates at least `level`
    (rules.IS_MAP) with its input."""
    return [float(np.mean(np.concatenate([metrics.correlation(metrics.predict(m, x), x).numpy() for x in inputs])
                          >= level)) for m in nets]


def frac_nearer_train(nets, probes, x_train) -> list:
    """The row `every` for 'always predicting a mixture of the training samples': per net, the fraction of `probes`
    whose output correlates more with its nearest training example (`x_train`) than with the probe itself."""
    out = []
    for m in nets:
        pred = metrics.predict(m, probes)
        nearest, _ = metrics.nearest_train_scores(pred, x_train)
        out.append(float((nearest.double() > metrics.correlation(pred, probes).double()).double().mean()))
    return out


def constant_minus_identity(scores: list) -> list:
    """The row `bias` towards the constant map over several probe sets (band scores, e.g. one per rho): per seed, the
    mean over the sets of corr to the constant map minus corr to the identity."""
    return np.mean([_seeds(s, "corr_constant_seeds") - _seeds(s, "corr_identity_seeds") for s in scores], 0).tolist()


def depth_summary(rho0: dict, test: dict, shallow: list, deepest: int) -> dict:
    """Notebook 01's summaries over Fig 3a / 9 / 33's depths (band scores by depth: `rho0` on the rho = 0 probes, `test`
    on the test inputs), per seed: the shallow nets' smallest corr to the identity (test inputs; rho = 0), their
    largest MSE to the identity minus to the constant map, and the deepest net's MSE to the constant minus to the
    identity, under the notebook's keys (for its untrained twins: `suffixed`)."""
    s = _seeds
    return {"fig3a.shallow.test.corr_identity": np.min([s(test[k], "corr_identity_seeds") for k in shallow], 0).tolist(),
            "fig9.shallow.rho0.corr_identity": np.min([s(rho0[k], "corr_identity_seeds") for k in shallow], 0).tolist(),
            "fig33.shallow.rho0.mse_identity_minus_constant":
                np.max([s(rho0[k], "mse_identity_seeds") - s(rho0[k], "mse_constant_seeds") for k in shallow], 0).tolist(),
            "fig33.deepest.rho0.mse_constant_minus_identity":
                (s(rho0[deepest], "mse_constant_seeds") - s(rho0[deepest], "mse_identity_seeds")).tolist()}


def size_depth_summary(prefix: str, by_size: dict) -> dict:
    """Fig 4a's summaries from band scores by training size, each a list over the depths (shallowest first), per seed:
    the mean corr to the constant map over the depths at each size, and over the sizes the smallest gain of the corr
    to the constant map and the smallest loss of the corr to the identity from the shallowest to the deepest net."""
    out = {f"{prefix}.size{s}.mean.corr_constant": np.mean([_seeds(sc, "corr_constant_seeds") for sc in row], 0).tolist()
           for s, row in by_size.items()}
    out[f"{prefix}.min_size.constant_gain"] = np.min(
        [_seeds(row[-1], "corr_constant_seeds") - _seeds(row[0], "corr_constant_seeds") for row in by_size.values()], 0).tolist()
    out[f"{prefix}.min_size.identity_loss"] = np.min(
        [_seeds(row[0], "corr_identity_seeds") - _seeds(row[-1], "corr_identity_seeds") for row in by_size.values()], 0).tolist()
    return out


def median_sharpness(nets, x) -> np.ndarray:
    """Per net, the median over the inputs `x` of its prediction's sharpness relative to the input
    (`metrics.relative_sharpness`; Fig 27/28's blur)."""
    return np.array([np.nanmedian(metrics.relative_sharpness(metrics.predict(m, x), x).numpy()) for m in nets])


def smallest_step(by_size: dict) -> list:
    """Per seed, the smallest fall of a per-seed score from one size (in the dict's order) to the next."""
    v = list(by_size.values())
    return np.min([np.asarray(a, float) - np.asarray(b, float) for a, b in zip(v, v[1:])], 0).tolist()


def spread_per_seed(scores: list, keys, n_seeds: int) -> list:
    """The row `much` between several bands trained from the same seeds (e.g. one per optimizer, each seed index
    starting from the same weights): per seed, the largest over `keys` (e.g. corr to the identity and to the constant
    map) of the largest minus the smallest band's score; nan for every seed where fewer than two bands are given."""
    if len(scores) < 2:
        return [float("nan")] * n_seeds
    return np.max([np.ptp([_seeds(s, f"{k}_seeds") for s in scores], 0) for k in keys], 0).tolist()


def band_mean_spread(scores: list, key: str) -> tuple[float, float]:
    """Between several bands: (the range of their band means of `key`, 3 times the largest band's standard deviation
    across its seeds); (nan, nan) for fewer than two bands."""
    if len(scores) < 2:
        return float("nan"), float("nan")
    means = [s[key] for s in scores]
    return max(means) - min(means), 3 * max(s[f"{key}_std"] for s in scores)


def over_fitted(values: dict, fitted: dict, schemes: list, exclude: list) -> list:
    """Per seed i, the smallest of `values[s][i]` over `schemes` divided by the largest over the other schemes that fit
    on that seed (`fitted[o][i]`, every scheme not in `exclude`); nan where none of those fits (Fig 29's 'heavy
    artifacts' as a factor, the row `much`)."""
    n = len(next(iter(values.values())))
    out = []
    for i in range(n):
        others = [values[o][i] for o in values if o not in exclude and fitted[o][i]]
        out.append(float(min(values[s][i] for s in schemes) / max(others)) if others else float("nan"))
    return out


def centre_shares(nets, x, width: int) -> np.ndarray:
    """(nets, layers): per layer, the median over the inputs `x` of the share of the layer's structure (its top
    singular map) that lies in the centre, inside a border `width` px wide (Fig 19, `metrics.centre_share`)."""
    return np.stack([[np.nanmedian(metrics.centre_share(metrics.top_singular_map(a), width).numpy())
                      for a in metrics.layer_activations(m, x)] for m in nets])


def layer_corr(nets, x, *, kind: str = "svd") -> np.ndarray:
    """(nets, layers): each layer's correlation with the input (`metrics.layer_input_correlation`, `kind`)."""
    return np.stack([metrics.layer_input_correlation(m, x, kind=kind).numpy() for m in nets])


def slightly(gain, gap: float) -> list:
    """The row `slightly` on a [0, 1] score: per seed min(gain, gap - gain), > 0 exactly where 0 < gain < gap
    (`gap`: rules.MUCH_GAP, where 'much' starts)."""
    g = np.asarray(gain, dtype=float)
    return np.minimum(g, gap - g).tolist()


def separation(corr: dict, near: list, far: list) -> list:
    """Fig 20's distinction: per seed, how far apart the scores of two groups of depths lie (`corr`: per-seed scores
    by depth); > 0 where the groups' ranges do not overlap, either way round."""
    lo_n, hi_n = np.min([corr[k] for k in near], 0), np.max([corr[k] for k in near], 0)
    lo_f, hi_f = np.min([corr[k] for k in far], 0), np.max([corr[k] for k in far], 0)
    return np.maximum(lo_n - hi_f, lo_f - hi_n).tolist()
