"""Device, numerical policy, seeds and profiles: chosen in one place.

Every other module asks `get_device()` for where tensors live; nothing calls `.cuda()`.
`set_device` also sets the one numerical policy (`NUMERICS`): float32 everywhere, TF32 off for matrix
products and convolutions. PyTorch's default lets cuDNN run float32 convolutions in TF32 on Ampere and
Hopper GPUs (10-bit mantissa), which breaks the exact linear-operator checks of papers 2 and 3 and moves
claims; the claims and the CPU baseline assume full float32. On the CPU, denormal numbers (below 1.2e-38)
are flushed to zero: x86 arithmetic on them is 10-100x slower, and Adam's moments of dead ReLU units decay
into them (a 7 x 128 ReLU autoencoder on 100 MNIST digits, 20,000 full-batch Adam steps: 71 s kept, 39 s
flushed, the same loss to the last digit). The quick profile's metrics are bit for bit the same either way
(all four notebooks, 2026-11-24); it ran 3 % faster. `numerics()` records what is in force (written into
every notebook's provenance.json).
`pick(profile, smoke=..., quick=..., full=..., paper=...)` is how a notebook scales one experiment to
a profile without switching code. The profiles: smoke (code paths, seconds), quick (a laptop CPU,
minutes), full (the papers' data, architectures and optimizers with step counts sized for one GPU
in an hour), paper (the papers' own scale: a cluster).

What is not device, numerics, seeds or profiles lives beside it, in the harness: the run context
(`memlib.harness.context`) and its modes (`memlib.harness.modes`), progress bars (`memlib.harness.progress`), atomic
writes and the clean-up of dead writers' files (`memlib.harness.fileio`).
"""
from __future__ import annotations

import random

import numpy as np
import torch

PROFILES = ("smoke", "quick", "full", "paper")
FULL_DEFAULTS_TO = "paper"   # a pick() without full= takes the paper value: full is the paper but for what it lowers
DEVICES = ("auto", "cpu", "cuda")

_device = torch.device("cpu")


class MemlibError(ValueError):
    """A problem with the user's input, reported as one line by the CLI and the notebooks."""


def check_choice(value, valid, what):
    """Raise a one-line MemlibError listing the valid choices when `value` is not one of them."""
    if value not in valid:
        raise MemlibError(f"unknown {what} {value!r}; choose one of: {', '.join(map(str, valid))}")
    return value


NUMERICS = "float32, TF32 off, CPU denormals flushed to zero"
_flushes_denormals = False      # what set_numerics could set (False on a CPU without FTZ/DAZ)


def set_numerics() -> None:
    """Full float32 for matrix products and convolutions on every backend (TF32 off); the CPU flushes
    denormals to zero (in this thread and the threads it starts: see `thread_numerics`)."""
    global _flushes_denormals
    _flushes_denormals = torch.set_flush_denormal(True)
    torch.set_default_dtype(torch.float32)
    if hasattr(torch.backends, "fp32_precision"):      # torch >= 2.9 (the legacy allow_tf32 flags must not be mixed in)
        torch.backends.fp32_precision = "ieee"
        # each backend and operation by name as well: torch 2.11 kept cuDNN's convolutions at their default "tf32"
        # after the generic switch (measured on an H100, session 17: notebook 03's linearity check failed on it)
        for backend, ops in (("cuda", ("matmul",)), ("cudnn", ("conv", "rnn")), ("mkldnn", ("matmul", "conv", "rnn"))):
            b = getattr(torch.backends, backend, None)
            if b is None or not hasattr(b, "fp32_precision"):
                continue
            b.fp32_precision = "ieee"
            for op in ops:
                if hasattr(getattr(b, op, None), "fp32_precision"):
                    setattr(getattr(b, op), "fp32_precision", "ieee")
    else:
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.set_float32_matmul_precision("highest")


def thread_numerics() -> None:
    """The policy's per-thread part, in a worker thread that trains: the flush of denormals is a bit of each
    thread's floating-point state (x86 MXCSR), which a thread started before `set_numerics` lacks."""
    if _flushes_denormals:
        torch.set_flush_denormal(True)


def _cpu_denormals() -> str:
    """What the CPU's threads do with denormals, measured: an intra-op thread started before `set_numerics`
    (the pool starts with the first parallel operation) keeps its own floating-point state."""
    with torch.no_grad():
        kept = (torch.full((1 << 20,), 1e-30) * 1e-9).ne(0)      # (2^20,) split over the intra-op threads
    return "kept" if kept.all() else "flushed to zero" if not kept.any() else "kept by some intra-op threads"


def numerics() -> dict:
    """The numerical settings in force, read back from torch (for provenance.json)."""
    policy = NUMERICS if _flushes_denormals else "float32, TF32 off (this CPU keeps denormals)"
    out = {"policy": policy, "default_dtype": str(torch.get_default_dtype()).replace("torch.", ""),
           "threads": torch.get_num_threads(), "cpu_denormals": _cpu_denormals()}
    if hasattr(torch.backends, "fp32_precision"):
        out.update(matmul_fp32=torch.backends.cuda.matmul.fp32_precision,
                   conv_fp32=torch.backends.cudnn.conv.fp32_precision)
        tf32 = "tf32" in (out["matmul_fp32"], out["conv_fp32"], torch.backends.cudnn.rnn.fp32_precision)
    else:
        out.update(matmul_tf32=torch.backends.cuda.matmul.allow_tf32, cudnn_tf32=torch.backends.cudnn.allow_tf32)
        tf32 = out["matmul_tf32"] or out["cudnn_tf32"]
    if tf32 or out["default_dtype"] != "float32":
        out["policy"] = "NOT " + policy + " (changed after set_device)"
    return out


def set_device(name: str = "auto") -> torch.device:
    """Select the device for the whole session ("auto" takes CUDA when there is one) and set the
    numerical policy (`NUMERICS`) that every claim assumes."""
    global _device
    check_choice(name, DEVICES, "device")
    set_numerics()
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise MemlibError("device 'cuda' was asked for but torch sees no GPU; use --device cpu or auto")
    _device = torch.device(name)
    return _device


def get_device() -> torch.device:
    return _device


def seed_everything(seed: int) -> None:
    """Seed Python, NumPy and torch (all devices); the same seed on CPU gives the same numbers."""
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)


def pick(profile: str, **by_profile):
    """Return the value for `profile` from keyword arguments named after the profiles.

    `full` may be left out: it then takes the `paper` value (full is the paper's setting except for the
    step counts and sizes it lowers, each given with `full=`).

    >>> pick("quick", smoke=100, quick=2_000, paper=2_000_000)
    2000
    >>> pick("full", smoke=100, quick=2_000, full=50_000, paper=2_000_000)
    50000
    """
    check_choice(profile, PROFILES, "profile")
    missing = [p for p in PROFILES if p not in by_profile and p != "full"]
    if missing:
        raise TypeError(f"pick() needs a value for every profile; missing {missing}")
    unknown = sorted(set(by_profile) - set(PROFILES))
    if unknown:
        raise TypeError(f"pick() got values for unknown profiles {unknown}; the profiles are {PROFILES}")
    if profile == "full" and "full" not in by_profile:
        return by_profile[FULL_DEFAULTS_TO]
    return by_profile[profile]
