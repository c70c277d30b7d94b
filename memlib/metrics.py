"""How close a trained net is to the identity and to the constant map (paper 1), and friends: a net's outputs scored
against its inputs and its training set, by paper (seed bands, borders and sharpness, attractors, point maps,
Appendix D's rows). What happens inside a net layer by layer is `layerwise`; the Pearson correlation is `pearson`.
"""
from __future__ import annotations

import torch

from . import linalg
from .dynamics import iterate, nearest, untrained_bar
from .images import unit_range
# inside the networks, layer by layer (`layerwise`), and the Pearson correlation (`pearson`) live apart; `metrics.x`
# reaches each of their public names, as the notebooks, widgets and tests read them
from .layerwise import (RepeatChannels, cap_shaped, channel_summaries, intermediate_maps, layer_activations,
                        layer_input_correlation, layer_maps, layer_modules, layerwise_error, most_correlated_channel,
                        preactivation_spreads, relative_weight_change, top_singular_map, upper_layer_maps,
                        upper_subnetwork)
from .pearson import correlation, unit_centred
from .runtime import MemlibError


def nearest_train_scores(outputs: torch.Tensor, x_train: torch.Tensor, *, chunk: int = 4096
                         ) -> tuple[torch.Tensor, torch.Tensor]:
    """For each output (N, ...): its highest Pearson correlation with any training image (M, ...) and
    that image's index (paper 3, Fig 8: every output is one of the training images; paper 1, App. J:
    memorization of several examples). Training images are taken `chunk` at a time (60k MNIST fits)."""
    out = unit_centred(outputs.cpu())                                                # (N, d)
    best = torch.full((len(out),), -float("inf"), dtype=torch.float64)
    idx = torch.zeros(len(out), dtype=torch.long)
    for i in range(0, len(x_train), chunk):
        b, j = (out @ unit_centred(x_train[i:i + chunk].cpu()).T).max(1)             # (N,), (N,)
        better = b > best
        best, idx = torch.where(better, b, best), torch.where(better, j + i, idx)
    return best.float(), idx


@torch.no_grad()
def predict(model: torch.nn.Module, x: torch.Tensor, *, batch_size: int = 256) -> torch.Tensor:
    """`model(x)` in eval mode, in batches, on the model's device; returns a CPU tensor."""
    dev = next(model.parameters()).device
    model.eval()
    return torch.cat([model(x[i:i + batch_size].to(dev)).cpu() for i in range(0, len(x), batch_size)])


@torch.no_grad()
def reconstruction_mse(model: torch.nn.Module, x: torch.Tensor, *, batch_size: int = 1024) -> float:
    """Mean squared error of `model(x)` against `x` (N, ...) over all of `x`: the fit of a net trained on
    minibatches, whose last logged loss is one minibatch's."""
    out = predict(model, x, batch_size=batch_size)
    return (out - x.cpu()).pow(2).mean().item()


@torch.no_grad()
def identity_constant_scores(model: torch.nn.Module, probes: torch.Tensor, x_train: torch.Tensor) -> dict:
    """Mean correlation and MSE of the predictions on `probes` to the identity (the probe itself)
    and to the constant map (the training image), paper 1, Fig 8/9/31-33."""
    out = predict(model, probes)
    target_const = x_train.reshape(1, *probes.shape[1:]).cpu()
    return {
        "corr_identity": correlation(out, probes).mean().item(),
        "corr_constant": correlation(out, target_const).mean().item(),
        "mse_identity": (out - probes).pow(2).mean().item(),
        "mse_constant": (out - target_const).pow(2).mean().item(),
    }


@torch.no_grad()
def recovery_probability(f, train: torch.Tensor, starts: torch.Tensor, *, steps, eps: float) -> torch.Tensor:
    """Paper 2, Sec 3.3: R_t = P_{x0 ~ train}{ min_{x in starts} ||f^t(x) - x0|| < eps }, the fraction
    of training examples (M, ...) that some start (N, ...) reaches within `eps` after t iterations.

    `steps` an int: returns R_t for t = 0..steps, shape (steps + 1,); a sequence of ints: R_t at
    those t, shape (len(steps),).
    """
    wanted = list(range(steps + 1)) if isinstance(steps, int) else [int(t) for t in steps]
    ref = train.reshape(len(train), -1).double().cpu()                   # (M, d)
    x, at, r = starts, 0, {}
    for t in sorted(set(wanted)):                                         # memory: one iterate at a time
        x = iterate(f, x, t - at, record=[t - at])[0]                     # (N, ...)
        at = t
        r[t] = (torch.cdist(ref, x.reshape(len(x), -1).double().cpu()).min(dim=1).values < eps).double().mean()
    return torch.stack([r[t] for t in wanted]).float()


# ---------------------------------------------------------------- paper 1: identity vs constant
# -- worker A (FCNs, heatmaps, several examples)   (seed bands: band_scores in worker B's section)

def band_summary(per_model: list) -> dict:
    """Mean and spread of a seed band's score dicts (one dict of floats per model, same keys):
    {key: mean, key + "_std": population std, key + "_seeds": [the value of each model]}, the
    convention of `band_scores` (means and spreads for plots, per-seed lists for claims)."""
    if not per_model:
        raise ValueError("band_summary needs at least one score dict")
    out = {}
    for k in per_model[0]:
        v = torch.tensor([p[k] for p in per_model], dtype=torch.float64)
        out[k] = v.mean().item()
        out[f"{k}_std"] = v.std(unbiased=False).item()
        out[f"{k}_seeds"] = v.tolist()
    return out


def seed_metrics(prefix: str, scores: dict) -> dict:
    """The per-seed lists of a `band_summary` / `band_scores` dict as named metrics for `Run.log`:
    {f"{prefix}.{key}": [one value per seed]} (claims on a seed band read these lists)."""
    return {f"{prefix}.{k[:-len('_seeds')]}": v for k, v in scores.items() if k.endswith("_seeds")}


@torch.no_grad()
def multi_example_scores(model: torch.nn.Module, probes: torch.Tensor, x_train: torch.Tensor) -> dict:
    """Paper 1, App. J (Fig 1, 34-36): with several training examples (M, ...) the constant map is
    no longer defined; memorization shows as predictions that look like *some* training example.

    Returns the mean over probes of the correlation to the probe ("corr_identity") and of the
    largest correlation to any training example ("corr_nearest_train")."""
    out = predict(model, probes)                                                 # (N, ...)
    nearest, _ = nearest_train_scores(out, x_train)                              # (N,)
    return {"corr_identity": correlation(out, probes).mean().item(), "corr_nearest_train": nearest.mean().item()}

# -- worker B (ConvNet sweeps)

@torch.no_grad()
def band_scores(models, probes: torch.Tensor, x_train: torch.Tensor) -> dict:
    """`identity_constant_scores` over a seed band (the same configuration trained from several seeds).

    Returns each score's mean across `models` and, under `<score>_std`, its standard deviation
    across them (population std; 0 for a single model), so a sweep can show mean and spread.
    """
    models = list(models)
    if not models:
        raise ValueError("band_scores needs at least one model")
    return band_summary([identity_constant_scores(m, probes, x_train) for m in models])

def roughness(maps: torch.Tensor) -> torch.Tensor:
    """How far from smooth each image of (N, H, W) is: the mean squared difference of horizontally and
    vertically neighbouring pixels over twice the image's pixel variance (N,). White noise scores
    about 1, a slowly varying image near 0; a constant image scores 0 (paper 1, Fig 25/26: "behave
    more smoothly")."""
    m = maps.double()
    dx = (m[:, :, 1:] - m[:, :, :-1]).pow(2).flatten(1)
    dy = (m[:, 1:, :] - m[:, :-1, :]).pow(2).flatten(1)
    diff = torch.cat([dx, dy], 1).mean(1)
    var = m.flatten(1).var(1, unbiased=False)
    return torch.where(var > 0, diff / (2 * var).clamp_min(1e-300), torch.zeros_like(var)).float()


def _centre_and_border_energy(images: torch.Tensor, width: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Per image of (N, ..., H, W) (channels averaged), the mean squared deviation from the image's median over
    the centre and over the border band `width` px wide: ((N,), (N,)), float64."""
    x = images.double().reshape(len(images), -1, *images.shape[-2:]).mean(1)          # (N, H, W)
    h, w = x.shape[-2:]
    if not 0 < width < min(h, w) / 2:
        raise MemlibError(f"a border of {width} px leaves no centre in a {h}x{w} image")
    e = (x - x.flatten(1).median(1).values[:, None, None]).pow(2)
    centre = torch.zeros(h, w, dtype=torch.bool, device=x.device)          # on the images' device
    centre[width:h - width, width:w - width] = True
    return e[:, centre].mean(1), e[:, ~centre].mean(1)


def border_energy_ratio(images: torch.Tensor, width: int) -> torch.Tensor:
    """Where an image's structure lies (paper 1, Fig 3b / 19: a constant map "grown" from the borders):
    per image of (N, ..., H, W), the mean squared deviation from the image's median over the border
    band `width` pixels wide, divided by the same over the rest (the centre). (N,)."""
    inner, outer = _centre_and_border_energy(images, width)
    return torch.where(inner > 0, outer / inner.clamp_min(1e-300), torch.full_like(inner, float("inf"))).float()


def centre_share(images: torch.Tensor, width: int) -> torch.Tensor:
    """The share of an image's structure that lies in its centre (paper 1, Fig 3b / 19: the constant map
    "grown" inwards from the borders): mean energy over the centre / (that + the same over the border band)
    = 1 / (1 + `border_energy_ratio`). 0: all structure at the borders; 0.5: spread evenly; 1: all in the
    centre; nan for a constant image (no structure anywhere). (N,)."""
    inner, outer = _centre_and_border_energy(images, width)
    total = inner + outer
    return torch.where(total > 0, inner / total.clamp_min(1e-300), torch.full_like(total, float("nan"))).float()


def relative_sharpness(outputs: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    """How sharp a prediction is next to its input (paper 1, Fig 27/28: "the predictions become more and
    more blurry"): per pair of (N, ..., H, W) images (channels averaged), `roughness(output)` over
    `roughness(input)` — the mean squared difference of neighbouring pixels relative to the image's
    variance, so a rescaled or shifted copy of the input scores 1 and a blurred copy less (a 2-tap
    horizontal box blur of white noise: 3/4; a Gaussian blur of width s pixels: about 1 - exp(-1/(4 s^2))).
    Unlike a correlation or an MSE to the input, it does not mix blur with other errors. (N,); nan where
    the input is constant."""
    def flat(t):
        return t.double().reshape(len(t), -1, *t.shape[-2:]).mean(1)
    if outputs.shape[-2:] != inputs.shape[-2:] or len(outputs) != len(inputs):
        raise MemlibError(f"outputs {tuple(outputs.shape)} and inputs {tuple(inputs.shape)} differ in size")
    r_out, r_in = roughness(flat(outputs)).double(), roughness(flat(inputs)).double()
    return torch.where(r_in > 0, r_out / r_in.clamp_min(1e-300), torch.full_like(r_in, float("nan"))).float()


# -- worker C (inside the ConvNets: `layerwise`; here, how rough their hidden layers look)

@torch.no_grad()
def hidden_roughness(model: torch.nn.Module, x: torch.Tensor) -> float:
    """Paper 1, Fig 25/26: how rough a net's hidden layers look on inputs `x` — the mean `roughness`
    of each hidden layer's top-singular-vector map (`top_singular_map`), over the hidden layers (all
    but the output layer) and the inputs."""
    acts = layer_activations(model, x)[:-1]
    if not acts:
        raise MemlibError("a net with a single layer has no hidden layer")
    return torch.stack([roughness(top_singular_map(a)).mean() for a in acts]).mean().item()


# ---------------------------------------------------------------- paper 2: attractors

def nearest_train_corr(points: torch.Tensor, x_train: torch.Tensor) -> torch.Tensor:
    """Paper 2, Fig 5/6: for each point (N, ...), the Pearson correlation with its nearest (Euclidean)
    training example in `x_train` (M, ...): near 1 when the point "is" that training image (N,)."""
    idx, _ = nearest(points, x_train)
    return correlation(points.cpu(), x_train.cpu()[idx])


# ---------------------------------------------------------------- paper 3: downsampling

@torch.no_grad()
def point_map_scores(model: torch.nn.Module, probes: torch.Tensor, x_train: torch.Tensor, *,
                     signed: bool = False) -> torch.Tensor:
    """Per-probe |correlation| (N,) of `model(probe)` with `model(x_train[0])`.

    Paper 3, Sec. 2: a point map sends every input y to C_X(x0), a fixed element of span C_X(X);
    a score of 1 for every probe means a point map (up to sign for a linear net without biases;
    `signed=True` keeps the sign, for nonlinear nets)."""
    ref = predict(model, x_train[:1])
    r = correlation(predict(model, probes), ref)
    return r if signed else r.abs()


@torch.no_grad()
def autoencoder_scores(model: torch.nn.Module, probes: torch.Tensor, x_train: torch.Tensor, *,
                       realistic=slice(None), noise=slice(0)) -> dict:
    """Paper 3, Fig 2-3: point map or identity? A net trained on `x_train` (1, c, s, s), scored on
    `probes` (N, c, s, s) whose rows `realistic` are photos / squares and `noise` are N(0, 1) inputs.

    `point_map_corr` / `point_map_corr_noise`: mean |corr(C(y), C(x_train))| over the realistic /
    noise probes (`point_map_scores`); `abs_corr_to_input` / `abs_corr_to_input_all`: mean
    |corr(C(y), y)| over the realistic / all probes (the identity up to sign)."""
    pm = point_map_scores(model, probes, x_train)                               # (N,)
    ident = correlation(predict(model, probes), probes.cpu()).abs()             # (N,)
    return {"point_map_corr": pm[realistic].mean().item(), "point_map_corr_noise": pm[noise].mean().item(),
            "abs_corr_to_input": ident[realistic].mean().item(), "abs_corr_to_input_all": ident.mean().item()}


@torch.no_grad()
def predict_each_batchnorm(model: torch.nn.Module, x: torch.Tensor) -> torch.Tensor:
    """Outputs (N, ...) of a BatchNorm net used as in training on one image: each input alone, in
    train mode (normalized by its own statistics), on a copy so running statistics stay untouched."""
    import copy
    net = copy.deepcopy(model).train()
    dev = next(net.parameters()).device
    return torch.cat([net(xi[None].to(dev)).cpu() for xi in x])


def conjecture_row(model: torch.nn.Module, x: torch.Tensor, *, rank_rtol: float = 0.05,
                   near_tol: float = 0.1, value_tol: float = 0.05, resid_tol: float = 0.1) -> dict:
    """Paper 3's Conjecture measured on a trained linear net and its training set `x` (N, c, s, s).

    Returns the operator `A` (d, d), eigenvalues `vals` and eigenvector images `imgs` (sorted by
    magnitude), `span` = dim span X, `r_min` (narrowest representation), `rank` (singular values above
    `rank_rtol` of the largest), `near1` (eigenvalues with | |lambda| - 1 | < `near_tol`), `top_err`
    (max |lambda_i - 1| over the top dim-span-X eigenvalues), `resid` (relative distance of those
    eigenvectors from span X), `stored` (eigenpairs with |lambda - 1| < `value_tol` whose
    eigenvector lies within `resid_tol` of span X) and `rank_excess` = sigma_{m+1} / sigma_1 with
    m = min(dim span X, r_min): below `rank_rtol` exactly when rank <= m, the Conjecture's rank."""
    shape = tuple(x.shape[1:])
    A = linalg.operator_matrix(model, shape)
    vals, imgs = linalg.eigenimages(A, shape)
    k, r_min = linalg.span_dimension(x), linalg.narrowest_layer(model, shape)
    return dict(A=A, vals=vals, imgs=imgs, span=k, r_min=r_min,
                rank=linalg.numerical_rank(A, rtol=rank_rtol), near1=linalg.count_near(vals, tol=near_tol),
                top_err=(vals[:k] - 1).abs().max().item(),
                resid=linalg.span_residual(imgs[:k], x).max().item(),
                stored=linalg.stored_images(vals, imgs, x, value_tol=value_tol, resid_tol=resid_tol),
                rank_excess=linalg.singular_ratio(A, min(k, r_min)))


def worst_set(rows: dict) -> dict:
    """Paper 3, App. C: the worst over one seed's training sets ({set: `conjecture_row`}) of the rank error against
    min(dim span X, r_min), sigma_{k+1} / sigma_1 (`max_rank_excess`), the count of eigenvalues near 1 against
    dim span X, the top eigenvalues' distance from 1 and their eigenvectors' residual from span X; and, where every
    row holds one (a trained net's), the final loss over the images' mean square (`max_loss_ratio`)."""
    worst = lambda f: max(f(r) for r in rows.values())                             # noqa: E731
    out = {"max_rank_error": worst(lambda r: abs(r["rank"] - min(r["span"], r["r_min"]))),
           "max_rank_excess": worst(lambda r: r["rank_excess"]),
           "max_near1_error": worst(lambda r: abs(r["near1"] - r["span"])),
           "max_top_eig_error": worst(lambda r: r["top_err"]),
           "max_eigvec_resid": worst(lambda r: r["resid"])}
    if all("loss_ratio" in r for r in rows.values()):
        out["max_loss_ratio"] = worst(lambda r: r["loss_ratio"])
    return out


def conjecture_band(band, x: torch.Tensor, **conjecture_kw) -> list[dict]:
    """Paper 3, Fig 6 / App. C: `conjecture_row` for each (model, history) of a seed band trained on `x` (k images),
    with Fig 6's readings added: `loss` (the final loss), `top_eig_error`, `eigvec_resid`, `next_abs_eig`
    (|lambda_{k+1}|), `top2_*` (Fig 6b: are the top two eigenvalues a conjugate pair, `linalg.conjugate_pair_scores`)
    and, for one image, `top_eigvec_abs_corr` (|corr| of the top eigenvector with the image). One dict per seed."""
    k, rows = len(x), []
    for model, hist in band:
        r = conjecture_row(model, x, **conjecture_kw)
        r.update(loss=hist.final_loss, top_eig_error=r["top_err"], eigvec_resid=r["resid"],
                 next_abs_eig=r["vals"][k].abs().item(),
                 **{f"top2_{key}": v for key, v in linalg.conjugate_pair_scores(r["vals"]).items()})
        if k == 1:
            r["top_eigvec_abs_corr"] = correlation(r["imgs"][:1].real.float(), x[:1]).abs().item()
        rows.append(r)
    return rows


# ---------------------------------------------------------------- paper 4: rho dynamics


def seed_band(prefix: str, rows: list[dict], keys) -> dict:
    """`{prefix}.{key}`: one value per seed (a seed band, `Run.log`) of each `key` of the per-seed dicts `rows`;
    a plain number where `rows` holds one seed."""
    return {f"{prefix}.{k}": [r[k] for r in rows] if len(rows) > 1 else rows[0][k] for k in keys}


def nonlinear_point_map_scores(model: torch.nn.Module, probes: torch.Tensor, x_train: torch.Tensor, *,
                               realistic=slice(None), noise=slice(0), is_map: float = 0.8) -> dict:
    """Paper 3, Fig 7: signed correlations of a nonlinear autoencoder's outputs on `probes` (N, c, s, s) with the
    training image `x_train` (1, c, s, s) — mean (`corr_to_train`), worst input (`min_corr_to_train`), over the
    `realistic` rows and the `noise` rows, the share of inputs whose output "is" the image (`frac_is_train`:
    correlation >= `is_map`) — and with the inputs themselves (`corr_to_input`)."""
    out = predict(model, probes)
    to_train, to_input = correlation(out, x_train), correlation(out, probes)      # (N,), (N,)
    return {"corr_to_train": to_train.mean().item(), "min_corr_to_train": to_train.min().item(),
            "corr_to_train_realistic": to_train[realistic].mean().item(),
            "corr_to_train_noise": to_train[noise].mean().item(), "corr_to_input": to_input.mean().item(),
            "frac_is_train": (to_train >= is_map).float().mean().item()}


def nearest_train_summary(outputs: torch.Tensor, x_train: torch.Tensor, *, is_map: float = 0.8) -> dict:
    """Paper 3, Fig 8: of each output (N, ...) its best correlation with a training image (`nearest_train_scores`):
    the mean (`nearest_train_corr`), the worst (`min_nearest_train_corr`), how many distinct training images are
    nearest (`distinct_train_images`) and the share of outputs that "are" a training image (`frac_is_a_train_image`:
    best correlation >= `is_map`)."""
    best, idx = nearest_train_scores(outputs, x_train)                              # (N,), (N,)
    return {"nearest_train_corr": best.mean().item(), "min_nearest_train_corr": best.min().item(),
            "distinct_train_images": len(idx.unique()),
            "frac_is_a_train_image": (best >= is_map).float().mean().item()}


def fig6_rank_metrics(ranks: dict, ranks_untrained: dict, dim: int, *, much: float) -> dict:
    """Paper 3, Fig 6's rank readings and their controls, keys under `fig6.`, from `ranks` {"D" / "ND": (2, seeds)
    numerical ranks of the trained net on one and on two images} and `ranks_untrained` {"D" / "ND": per seed, the
    same nets untrained (an untrained net's operator does not depend on k)}:
    `k{k}.nd_over_d_rank` (ND's rank over D's, paired by seed; its untrained twin and bar: the rule's factor `much`
    or the twin's ratio moved dynamics.UNTRAINED_MARGIN past it), `{net}.rank.untrained`, `ND.min_rank_fraction`
    (ND's smaller rank over the full dimension `dim` = c s^2, and the untrained ND's) and `{net}.rank_change`
    (|rank_2 - rank_1| / rank_1)."""
    ranks = {n: torch.as_tensor(r, dtype=torch.float64) for n, r in ranks.items()}                 # (2, seeds)
    ranks_u = {n: torch.as_tensor(r, dtype=torch.float64) for n, r in ranks_untrained.items()}     # (seeds,)
    ratio_u = (ranks_u["ND"] / ranks_u["D"].clamp(min=1)).tolist()
    out = {}
    for k in (1, 2):
        out[f"fig6.k{k}.nd_over_d_rank"] = (ranks["ND"][k - 1] / ranks["D"][k - 1].clamp(min=1)).tolist()
        out.update(untrained_bar(f"fig6.k{k}.nd_over_d_rank", ratio_u, much))
    out.update({f"fig6.{n}.rank.untrained": ranks_untrained[n] for n in ("D", "ND")})
    out["fig6.ND.min_rank_fraction"] = (ranks["ND"].min(0).values / dim).tolist()
    out["fig6.ND.min_rank_fraction.untrained"] = (ranks_u["ND"] / dim).tolist()
    out.update({f"fig6.{n}.rank_change": ((r[1] - r[0]).abs() / r[0]).tolist() for n, r in ranks.items()})
    return out


def appendix_d_row(row: dict, x: torch.Tensor, *, near_tol: float) -> dict:
    """Paper 3, App. D's numbers of one trained D_{a,b} from its `conjecture_row` on the one-per-class set `x`
    (n, c, s, s): eigenvalues near 1 (`near1`, and `near1_error` = |count - dim span X|), `stored`, `rank`,
    `rank_excess`, and Table 1's training MSE after min-max scaling with the operator truncated to its top
    dim-span-X (`mse_ratio`) or numerical-rank (`mse_ratio_at_numerical_rank`) singular values."""
    U, S, Vh = torch.linalg.svd(row["A"])
    X = x.reshape(len(x), -1).double()                                             # (n, d)
    mse = lambda A: ((unit_range(X @ A.T) - unit_range(X)) ** 2).mean().item()     # noqa: E731
    truncated = lambda j: U[:, :j] @ torch.diag(S[:j]) @ Vh[:j]                    # noqa: E731
    k, full = row["span"], mse(row["A"])
    return {"near1": linalg.count_near(row["vals"], tol=near_tol),
            "near1_error": linalg.near_one_error(row["vals"], k, tol=near_tol), "stored": row["stored"],
            "rank": row["rank"], "rank_excess": row["rank_excess"], "mse_all": full, "mse_top_span": mse(truncated(k)),
            "mse_ratio": mse(truncated(k)) / max(full, 1e-12),
            "mse_ratio_at_numerical_rank": mse(truncated(row["rank"])) / max(full, 1e-12)}
