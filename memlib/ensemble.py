"""Many same-architecture models as one computation: how to stack them, and when that is faster.

Seed bands and depth-fixed sweeps train dozens of tiny, independent models on the same input. Done
one after another, each step pays Python and kernel-launch overhead per model; here the models'
parameters are stacked (`torch.func.stack_module_state`) and one `vmap`-ed `functional_call` runs all of
them at once (a batched matmul underneath); plain ConvNets run as one wide network of grouped
convolutions (`grouped_forward`), in channels-last layout on a CPU, which is faster than vmap's.
`Stacked` is that computation as a trainable for `memlib.train`'s one loop (`fit` on a list of models):
the optimizers of memlib are all elementwise, so one optimizer over the stacked tensors updates each
model exactly as its own would; gradient clipping is done per model, and a model whose loss falls below
`until_loss` is frozen at that step, as its own `fit` would stop. The result agrees with serial `fit`
runs to floating-point tolerance (tests/test_ensemble.py). Big models that are faster one at a time run
as whole `fit`s one after another.

`strategy="auto"` picks per case what `python -m memlib bench` measured faster: batched for small
models, serial `fit` calls for big ones (on a CPU, vmap-ed matrix-vector products of a 3 x 2048 FCN
run ~5x slower than one model after another), and serial, with the reason stated once, for what
cannot be stacked (BatchNorm running statistics, minibatches, callbacks, partial training).
"""
from __future__ import annotations

import copy
import os

import torch
from torch import nn
from torch.func import functional_call, stack_module_state, vmap

from .runtime import MemlibError, check_choice, get_device

STRATEGIES = ("auto", "batched", "serial")
# When "auto" trains batched, by device type. Models that go through vmap: the largest model (parameters)
# and the most parameters in Linear layers. Measured on the 2-core CPU, 8 models, one image (model-steps/s,
# serial -> batched): FCN 2x64 (12k) 805 -> 1980, FCN 3x256 (534k) 374 -> 173, FCN 3x2048 (11.6M) 5x
# slower batched: vmap turns one-example Linear layers into batched matrix-vector products, slow on a CPU.
# Plain ConvNets (is_plain_convnet) are batched as one grouped convolution per layer (grouped_forward),
# channels-last on a CPU; measured on the 2-core CPU, 3 models on one 28x28 image, serial -> batched:
# 5x32 246 -> 303, 10x32 110 -> 135, 20x32 53 -> 63, 10x64 41.7 -> 39.3, 5x128 30.9 -> 24.1 (8 x 5x32:
# 222 -> 382, vmap 321). Hence `conv_channels`: the widest such ConvNet "auto" batches.
# `group`: at most this many models per batched computation (32 ConvNets 5x32, model-steps/s against
# naive: all at once 1.04-1.17x; in groups of 4 / 8 / 16: 1.41 / 1.48 / 1.33x).
BATCHED_LIMITS = {"cpu": dict(params=400_000, linear_params=100_000, conv_channels=32, group=8),
                  "cuda": dict(params=50_000_000, linear_params=50_000_000, conv_channels=4096, group=1024)}
_warned: set = set()


def serial_reason(models, *, batch_size=None, parameters=None, callbacks=()) -> str | None:
    """Why these models/arguments cannot be trained batched (None: they can)."""
    if any(isinstance(m, nn.modules.batchnorm._BatchNorm) for m in models[0].modules()):
        return "BatchNorm running statistics are per-model state"
    shapes = [[(n, tuple(p.shape)) for n, p in m.named_parameters()] for m in models]
    if any(s != shapes[0] for s in shapes[1:]):
        return "the models differ in architecture"
    if batch_size is not None:
        return "minibatch orders are per-model (seeded by each model's seed)"
    if parameters is not None:
        return "only some parameters are trained"
    if callbacks:
        return "callbacks see one model at a time"
    return None


def choose_strategy(models, strategy: str = "auto", **fit_kwargs) -> tuple[str, str | None]:
    """("batched" | "serial", reason for serial or None)."""
    check_choice(strategy, STRATEGIES, "strategy")
    if strategy == "auto" and os.environ.get("MEMLIB_STRATEGY") == "serial":
        strategy = "serial"     # measuring what batching saves: MEMLIB_STRATEGY=serial python -m memlib run
    reason = serial_reason(models, **{k: fit_kwargs.get(k) for k in ("batch_size", "parameters")},
                           callbacks=fit_kwargs.get("callbacks") or ())
    if strategy == "batched" and reason:
        raise MemlibError(f"these models cannot be trained batched: {reason}; use strategy='serial' or 'auto'")
    if strategy == "serial" or reason:
        return "serial", reason
    if strategy == "batched":
        return "batched", None
    if len(models) == 1:
        return "serial", None
    limits = batched_limits()
    if is_plain_convnet(models[0]):
        widest = max(m.out_channels for m in models[0] if isinstance(m, nn.Conv2d))
        return ("batched", None) if widest <= limits["conv_channels"] else ("serial", None)
    size = sum(p.numel() for p in models[0].parameters())
    linear = sum(p.numel() for m in models[0].modules() if isinstance(m, nn.Linear) for p in m.parameters())
    if size > limits["params"] or linear > limits["linear_params"]:
        return "serial", None   # measured faster (see BATCHED_LIMITS); not worth a warning
    return "batched", None


def batched_limits() -> dict:
    """`BATCHED_LIMITS` for the current device."""
    return BATCHED_LIMITS.get(get_device().type, BATCHED_LIMITS["cpu"])


def say_serial(reason: str | None, n_models: int) -> None:
    """Say once per reason, as information (a line, not a warning box), that `n_models` models are trained
    one after another rather than as one batched computation."""
    if reason and n_models > 1 and reason not in _warned:
        _warned.add(reason)
        print(f"(training {n_models} models one after another: {reason})", flush=True)


class Stacked:
    """M same-architecture models as one trainable for `memlib.train`'s loop: their parameters stacked
    along a new first dimension (name -> (M, *shape)), the losses of all M computed at once (`losses()`
    -> (M,)) by one grouped-convolution network (plain ConvNets) or one `vmap`-ed `functional_call`.
    `finish()` writes each model's trained weights back into its module."""
    static_shapes = True               # full batch: the same shapes every step
    steps_per_epoch = 1

    def __init__(self, models: list[nn.Module], x: torch.Tensor, target: torch.Tensor | None, loss_fn):
        device = get_device()
        self.models = models
        self.n_models = len(models)
        self.x = x.to(device)                                      # (N, ...)
        self.target = self.x if target is None else target.to(device)
        if len(self.target) != len(self.x):
            raise MemlibError(f"x has {len(self.x)} examples but target has {len(self.target)}")
        for m in models:
            m.to(device)
        params, self.buffers = stack_module_state(models)          # name -> (M, *shape)
        self.base = copy.deepcopy(models[0]).to("meta")
        self.grouped = is_plain_convnet(self.base)
        lay_out = channels_last_weight if self.grouped and device.type == "cpu" else torch.Tensor.clone
        self.named = {k: lay_out(v.detach()).requires_grad_(True) for k, v in params.items()}
        self.params = list(self.named.values())
        self.mse = loss_fn is torch.nn.functional.mse_loss
        self.loss_fn = loss_fn
        if not self.grouped:
            def one_loss(p, b):
                return loss_fn(functional_call(self.base, (p, b), (self.x,)), self.target)
            self._vmapped = vmap(one_loss)

    def select_batch(self, step: int, in_place: bool) -> None:
        pass

    def losses(self) -> torch.Tensor:                              # (M,)
        if not self.grouped:
            return self._vmapped(self.named, self.buffers)
        out = grouped_forward(self.base, self.named, self.x, self.n_models)   # (N, M, C, H, W)
        if self.mse:                                               # every model's mean over its own outputs
            return (out - self.target.unsqueeze(1)).pow(2).mean(dim=[0, *range(2, out.ndim)])
        return torch.stack([self.loss_fn(out[:, i], self.target) for i in range(self.n_models)])

    def clip_(self, max_norm: float) -> None:
        clip_per_model_(self.params, max_norm)

    @staticmethod
    def per_model(mask: torch.Tensor, p: torch.Tensor) -> torch.Tensor:
        """(M,) -> broadcastable against the stacked parameter `p` (M, ...)."""
        return mask.view(-1, *([1] * (p.ndim - 1)))

    def snapshot(self, i: int) -> dict:
        """Model i's parameters now (name -> a contiguous CPU copy of its slice of the stacked tensor)."""
        return {n: p[i].detach().to("cpu", copy=True).contiguous() for n, p in self.named.items()}

    def finish(self) -> None:
        with torch.no_grad():
            for i, m in enumerate(self.models):
                for name, p in m.named_parameters():
                    p.copy_(self.named[name][i])
                m.eval()


ELEMENTWISE = (nn.ReLU, nn.LeakyReLU, nn.Tanh, nn.Sigmoid, nn.Identity, nn.ELU, nn.GELU, nn.Softplus)


def is_plain_convnet(model: nn.Module) -> bool:
    """A Sequential of ungrouped, zero-padded Conv2d layers and parameter-free elementwise activations
    (paper 1's ConvNets): what `grouped_forward` computes."""
    return isinstance(model, nn.Sequential) and len(model) > 0 and isinstance(model[0], nn.Conv2d) and all(
        (isinstance(m, nn.Conv2d) and m.groups == 1 and m.padding_mode == "zeros") or isinstance(m, ELEMENTWISE)
        for m in model)


def channels_last_weight(w: torch.Tensor) -> torch.Tensor:
    """A copy of `w` in the memory layout `grouped_forward` computes in on a CPU: a stacked convolution weight
    (M, C_out, C_in, k, k) stored as (M, C_out, k, k, C_in), so that its (M * C_out, C_in, k, k) view is
    channels-last like the activations; any other tensor is cloned as it is. The values and their logical
    order are the same (so are every result, bit for bit: tests/test_ensemble.py); what changes is that
    the convolutions no longer convert the weight to channels-last and its gradient back: two of the three
    weight copies per layer and step go (oneDNN's backward still makes one). Measured on the 2-core CPU:
    benchmarks/RESULTS.md, session 15."""
    if w.ndim != 5:
        return w.clone()
    return w.permute(0, 1, 3, 4, 2).contiguous().permute(0, 1, 4, 2, 3)      # (M, C_out, C_in, k, k), strided


def grouped_forward(base: nn.Sequential, params: dict, x: torch.Tensor, n_models: int) -> torch.Tensor:
    """All `n_models` ConvNets (stacked `params`: name -> (M, *shape)) applied to `x` (N, C, H, W) as one
    wide network: the first convolution maps the shared input to M x C channels, every later one is a
    convolution with `groups=M`, so model i only ever sees its own channels. Returns (N, M, C_out, H', W').

    Same arithmetic as M separate convolutions; on a CPU in channels-last layout the grouped
    convolution runs ~1.4x faster than vmap's (measured: 8 x 32 channels, 28x28: 2.4 vs 3.5 ms for
    forward + backward), which is what makes batched ConvNets pay on 2 cores.
    """
    h = x.to(memory_format=torch.channels_last) if x.device.type == "cpu" else x
    for i, m in enumerate(base):                                    # base[0] is a Conv2d (is_plain_convnet)
        if not isinstance(m, nn.Conv2d):
            h = m(h)
            continue
        w = params[f"{i}.weight"]                                   # (M, C_out, C_in, k, k)
        b = params.get(f"{i}.bias")                                 # (M, C_out) or None
        h = torch.nn.functional.conv2d(h, w.reshape(-1, *w.shape[2:]), None if b is None else b.reshape(-1),
                                       m.stride, m.padding, m.dilation, 1 if i == 0 else n_models)
    return h.reshape(h.shape[0], n_models, -1, *h.shape[2:])


@torch.no_grad()
def clip_per_model_(stacked: list[torch.Tensor], max_norm: float) -> torch.Tensor:
    """`torch.nn.utils.clip_grad_norm_` applied to each model's slice (dim 0) of stacked parameters."""
    norms = torch.stack([p.grad.flatten(1).pow(2).sum(1) for p in stacked if p.grad is not None]).sum(0).sqrt()
    coef = (max_norm / (norms + 1e-6)).clamp(max=1.0)            # (M,), as clip_grad_norm_ computes it
    for p in stacked:
        if p.grad is not None:
            p.grad.mul_(coef.view(-1, *([1] * (p.grad.ndim - 1))))
    return norms
