"""Inside a network, layer by layer (paper 1, worker C: inside the ConvNets): each layer's output (`layer_activations`),
how well it already predicts the target (`layerwise_error`), how far its weights moved, its channels summarized as
one image, the top layers fed the input directly (`upper_subnetwork`), and the maps paper 1's layer-by-layer
figures show (`intermediate_maps`, `layer_maps`, `upper_layer_maps`; `plot.intermediate_grid`,
`plot.layer_maps_side_by_side`, `plot.upper_layers_grid` draw them): each (N, H, W), min-max scaled per image
(`images.unit_range`).

A "layer" is a weight layer (Conv/Linear) together with the activation that follows it; its output is what the next
layer reads. Layer 0 is the input itself (paper 1, App. F's raw baseline). `metrics` re-exports every public name.
"""
from __future__ import annotations

import torch

from .images import unit_range
from .pearson import correlation, unit_centred
from .runtime import MemlibError
from .models.weights import WEIGHT_TYPES, weight_layers


def layer_modules(model: torch.nn.Module) -> list[torch.nn.Module]:
    """For each weight layer of `model`, the module whose output is that layer's output (the last
    leaf module before the next weight layer: the ReLU after a hidden conv, the last conv itself)."""
    leaves = [m for m in model.modules() if not list(m.children())]
    groups: list[list] = []
    for m in leaves:
        if isinstance(m, WEIGHT_TYPES):
            groups.append([m])
        elif groups:                       # modules before the first weight layer are not layers
            groups[-1].append(m)
    if not groups:
        raise MemlibError(f"{type(model).__name__} has no Linear/Conv layer to inspect")
    return [g[-1] for g in groups]


@torch.no_grad()
def layer_activations(model: torch.nn.Module, x: torch.Tensor, *, reduce=None, batch_size: int = 256) -> list:
    """Every layer's output for inputs `x` (N, C, H, W), captured with forward hooks.

    Returns a list with one entry per weight layer, input to output: the (N, C_l, H, W) output
    (CPU), or, with `reduce`, `reduce(output_of_a_batch)` concatenated over batches when it is a
    tensor (so a caller can keep only a summary of a large representation).
    """
    mods = layer_modules(model)
    dev = next(model.parameters()).device
    parts: list[list] = [[] for _ in mods]
    hooks = [m.register_forward_hook(lambda _m, _i, out, k=k: parts[k].append(
        (out if reduce is None else reduce(out)))) for k, m in enumerate(mods)]
    model.eval()
    try:
        for i in range(0, len(x), batch_size):
            model(x[i:i + batch_size].to(dev))
    finally:
        for h in hooks:
            h.remove()
    if reduce is not None:      # summaries of batches
        return [torch.cat([p.cpu() for p in ps]) if torch.is_tensor(ps[0]) else ps for ps in parts]
    return [torch.cat([p.cpu() for p in ps]) for ps in parts]


@torch.no_grad()
def preactivation_spreads(model: torch.nn.Module, x: torch.Tensor) -> list[float]:
    """The standard deviation of each weight layer's own output (before its activation) on inputs `x`, input to
    output: where an input's signal dies in a deep net at initialization. Paper 1's default init N(0, 1/(f_i f_o))
    (App. H.3) scales a 32-channel 5x5 layer's signal by about sqrt(f_i / (f_i f_o)) = 1/sqrt(f_o) ~ 1/28."""
    spreads: list[float] = []
    hooks = [m.register_forward_hook(lambda _m, _i, out: spreads.append(float(out.double().std())))
             for m in model.modules() if isinstance(m, WEIGHT_TYPES)]
    try:
        model(x.to(next(model.parameters()).device))
    finally:
        for h in hooks:
            h.remove()
    return spreads


@torch.no_grad()
def layerwise_error(model: torch.nn.Module | None, x_ref: torch.Tensor, y_ref: torch.Tensor,
                    x_test: torch.Tensor, y_test: torch.Tensor, *, num_classes: int | None = None,
                    batch_size: int = 256) -> torch.Tensor:
    """Paper 1, App. F / Fig 10: error rate of the correlation-weighted averaging classifier on
    every layer's representation. Returns (L + 1,): index 0 is the raw input, index l layer l.

    A test example's prediction is the argmax over classes of the mean of the one-hot labels of
    the reference set (x_ref, y_ref), weighted by the Pearson correlation between the test and each
    reference example's representation at that layer. Since the weighted mean is
    z_test . (sum of z_ref over class c) / N_ref with z the centred unit-norm representation, only
    the per-class sums are kept (K, D) per layer, so any number of examples fits in memory.
    `model=None` gives only the raw-input error (a 1-vector).
    """
    k = int(num_classes or int(max(y_ref.max(), y_test.max())) + 1)
    onehot = torch.nn.functional.one_hot(y_ref.long().cpu(), k).double()             # (N_ref, K)

    def class_sums(reps, labels_onehot):                                              # (K, D) on the CPU
        return (labels_onehot.to(reps.device).T @ unit_centred(reps)).cpu()

    sums = [class_sums(x_ref, onehot)]
    if model is not None:
        sums_layers = None
        for i in range(0, len(x_ref), batch_size):
            oh = onehot[i:i + batch_size]
            acts = layer_activations(model, x_ref[i:i + batch_size], reduce=lambda o, oh=oh: class_sums(o, oh)[None],
                                     batch_size=len(x_ref))
            acts = [a.sum(0) for a in acts]
            sums_layers = acts if sums_layers is None else [s + a for s, a in zip(sums_layers, acts)]
        sums += sums_layers
    y_test = y_test.long().cpu()
    wrong = torch.zeros(len(sums), dtype=torch.float64)
    for i in range(0, len(x_test), batch_size):
        xb = x_test[i:i + batch_size]
        reps = [xb] + (layer_activations(model, xb, batch_size=len(xb)) if model is not None else [])
        for layer, (r, s) in enumerate(zip(reps, sums)):
            scores = unit_centred(r.cpu()) @ s.T / len(x_ref)                        # (n, K)
            wrong[layer] += (scores.argmax(1) != y_test[i:i + batch_size]).sum()
    return (wrong / len(x_test)).float()


def cap_shaped(curve, margin: float) -> bool:
    """Paper 1, Fig 10's "concave" pattern: a layer-wise curve (input .. output) that rises above both of
    its ends and comes back, its largest interior value above the first and the last by more than
    `margin`. A curve with no interior point, or a monotone one, is not cap-shaped."""
    c = [float(v) for v in curve]
    if len(c) < 3:
        return False
    return max(c[1:-1]) > max(c[0], c[-1]) + margin


@torch.no_grad()
def relative_weight_change(initial_model: torch.nn.Module, trained_model: torch.nn.Module, *,
                           tensor: str = "weight") -> torch.Tensor:
    """Paper 1, App. G / Fig 15-17: d(W0, W*) = ||W0 - W*||_2 / ||W0||_2 for every weight layer
    (input to output), of its weight tensor (`tensor="weight"`) or its bias (`"bias"`); (L,).
    A layer whose initial tensor is zero (or absent) gives nan."""
    before, after = weight_layers(initial_model), weight_layers(trained_model)
    if len(before) != len(after):
        raise MemlibError(f"the models differ: {len(before)} vs {len(after)} weight layers")
    out = []
    for a, b in zip(before, after):
        w0, w1 = getattr(a, tensor), getattr(b, tensor)
        if w0 is None or w0.norm() == 0:
            out.append(float("nan"))
            continue
        w0, w1 = w0.detach().cpu().double(), w1.detach().cpu().double()
        out.append(((w1 - w0).norm() / w0.norm()).item())
    return torch.tensor(out)


def top_singular_map(act: torch.Tensor) -> torch.Tensor:
    """Paper 1, Fig 11-14: per example, the top right singular vector of the (C, H*W) matrix of a
    layer's channels, as an (H, W) image. (N, C, H, W) -> (N, H, W).

    A singular vector has no sign of its own; it is chosen so that the map has a non-negative inner
    product with the layer's own channel sum (sum_c act[c]). So a one-channel layer maps to the channel
    itself, normalized, whatever its pixels sum to (the output of a net on standardized MNIST is mostly
    negative background, and must not be negated), and a ReLU layer (non-negative channels: a
    non-negative top vector, Perron) keeps its sign. The anchor is the layer itself, not the input or the
    training digit, so a correlation of the map with either can still come out negative."""
    n, c, h, w = act.shape
    _, _, vh = torch.linalg.svd(act.reshape(n, c, h * w).double(), full_matrices=False)
    v = vh[:, 0]                                                                      # (N, H*W)
    anchor = act.double().sum(1).reshape(n, h * w)                                    # (N, H*W)
    dot = (v * anchor).sum(1, keepdim=True)
    tie = dot.abs() <= 1e-12 * anchor.norm(dim=1, keepdim=True)                      # orthogonal: pixels sum >= 0
    flip = torch.where(tie, v.sum(1, keepdim=True) < 0, dot < 0)
    v = v * torch.where(flip, -1.0, 1.0).to(v)
    return v.reshape(n, h, w).float()


def most_correlated_channel(act: torch.Tensor, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Paper 1, Fig 12-14: per example, the channel of `act` (N, C, H, W) with the largest Pearson
    correlation to the input `x` (N, C_in, H, W; channels averaged). Returns ((N, H, W), index (N,))."""
    if act.shape[-2:] != x.shape[-2:] or len(act) != len(x):
        raise MemlibError(f"activations {tuple(act.shape)} and inputs {tuple(x.shape)} differ in size")
    n, c = act.shape[:2]
    a = unit_centred(act.reshape(n * c, -1)).reshape(n, c, -1)                     # (N, C, HW)
    xi = unit_centred(x.double().mean(1))                                            # (N, HW)
    idx = (a @ xi[:, :, None])[..., 0].argmax(1)                                      # (N,)
    return act[torch.arange(n), idx], idx


def channel_summaries(act: torch.Tensor, x: torch.Tensor, *, channel: int = 0) -> dict:
    """The three one-image views of a multi-channel layer output of paper 1, Fig 12-14:
    {"svd": top singular vector, "most_correlated": the channel most correlated with the input,
    "random": channel `channel` (the paper's "random channel (channel 0)")}, each (N, H, W)."""
    return {"svd": top_singular_map(act), "most_correlated": most_correlated_channel(act, x)[0],
            "random": act[:, min(channel, act.shape[1] - 1)]}


@torch.no_grad()
def layer_input_correlation(model: torch.nn.Module, x: torch.Tensor, *, kind: str = "svd",
                            reference: torch.Tensor | None = None) -> torch.Tensor:
    """Mean Pearson correlation, per layer, between a one-image view of the layer's output
    (`channel_summaries` kind) and the input `x` (N, C, H, W), or `reference` (1 or N images:
    e.g. the training digit, to see a constant map being built). Returns (L,)."""
    target = (x if reference is None else reference).mean(1)                          # (N or 1, H, W)
    return torch.stack([correlation(channel_summaries(a, x)[kind], target).mean()
                        for a in layer_activations(model, x)])


class RepeatChannels(torch.nn.Module):
    """(N, 1, H, W) -> (N, channels, H, W) by repetition (paper 1, App. H.2, footnote 3)."""

    def __init__(self, channels: int):
        super().__init__()
        self.channels = channels

    def forward(self, x):
        return x.expand(-1, self.channels, -1, -1) if x.shape[1] == 1 else x


def upper_subnetwork(model: torch.nn.Sequential, layers: int) -> torch.nn.Sequential:
    """Paper 1, Fig 20-22: the top `layers` layers of a ConvNet, taking a grayscale image directly
    (repeated across the channels the first kept layer expects). Shares the model's weights."""
    starts = [i for i, m in enumerate(model) if isinstance(m, WEIGHT_TYPES)]
    if not 1 <= layers <= len(starts):
        raise MemlibError(f"the model has {len(starts)} layers; cannot take the top {layers}")
    first = starts[-layers]
    return torch.nn.Sequential(RepeatChannels(model[first].in_channels), *list(model)[first:])


def intermediate_maps(model: torch.nn.Module, x: torch.Tensor, *, kinds=("svd",)) -> dict:
    """Paper 1, Fig 11-14: for each of `kinds` ("svd", "most_correlated", "random": `channel_summaries`),
    [the inputs `x` (N, 1, H, W), then every layer's output of `model` as that one-image view]."""
    acts = layer_activations(model, x)
    summaries = [channel_summaries(a, x) for a in acts]
    return {k: [unit_range(x[:, 0])] + [unit_range(s[k]) for s in summaries] for k in kinds}


def layer_maps(nets: dict, x: torch.Tensor) -> dict:
    """Paper 1, Fig 25/26: for each net of `nets` (label -> model, all of one depth), [the inputs `x`
    (N, 1, H, W), then each layer's output as its top singular vector across channels]."""
    acts = {label: layer_activations(m, x) for label, m in nets.items()}
    depths = {len(a) for a in acts.values()}
    if len(depths) != 1:
        raise ValueError(f"layer_maps needs nets of one depth, got {sorted(depths)} layers")
    return {label: [unit_range(x[:, 0])] + [unit_range(top_singular_map(a)) for a in layers]
            for label, layers in acts.items()}


def upper_layer_maps(nets, x: torch.Tensor, *, all_layers: bool = True) -> list:
    """Paper 1, Fig 20-22: the inputs `x` (N, 1, H, W) fed straight into the top layers of trained ConvNets.
    `nets`: (label, model, k) triples, k = how many top layers. Returns [(row label, maps)]: one row per layer
    of each top-k subnetwork (`all_layers`; multi-channel outputs as their top singular map), or its final
    output only; every map min-max scaled on its own (the subnetworks' outputs are not calibrated to the
    probes' range)."""
    rows = []
    for label, model, k in nets:
        acts = layer_activations(upper_subnetwork(model, k), x)
        for i, a in enumerate(acts if all_layers else acts[-1:]):
            n_layers = len(layer_modules(model))
            layer = n_layers - k + 1 + (i if all_layers else k - 1)
            rows.append((f"{label}: layer {layer}/{n_layers}" if all_layers else label,
                         unit_range(a[:, 0] if a.shape[1] == 1 else top_singular_map(a))))
    return rows
