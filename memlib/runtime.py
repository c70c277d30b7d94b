"""Device, dtype, seeds and profiles: chosen in one place.

Every other module asks `get_device()` for where tensors live; nothing calls `.cuda()`.
`pick(profile, smoke=..., quick=..., paper=...)` is how a notebook scales one experiment to a
profile without switching code.
"""
from __future__ import annotations

import os
import random

import numpy as np
import torch

PROFILES = ("smoke", "quick", "paper")
DEVICES = ("auto", "cpu", "cuda")

_device = torch.device("cpu")


class MemlibError(ValueError):
    """A problem with the user's input, reported as one line by the CLI and the notebooks."""


def check_choice(value, valid, what):
    """Raise a one-line MemlibError listing the valid choices when `value` is not one of them."""
    if value not in valid:
        raise MemlibError(f"unknown {what} {value!r}; choose one of: {', '.join(map(str, valid))}")
    return value


def set_device(name: str = "auto") -> torch.device:
    """Select the device for the whole session: "auto" takes CUDA when there is one."""
    global _device
    check_choice(name, DEVICES, "device")
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

    >>> pick("quick", smoke=100, quick=2_000, paper=2_000_000)
    2000
    """
    check_choice(profile, PROFILES, "profile")
    missing = [p for p in PROFILES if p not in by_profile]
    if missing:
        raise TypeError(f"pick() needs a value for every profile; missing {missing}")
    return by_profile[profile]


def default_threads() -> None:
    """Use every core for intra-op parallelism unless the user said otherwise."""
    if "OMP_NUM_THREADS" not in os.environ:
        torch.set_num_threads(max(1, os.cpu_count() or 1))


def headless() -> bool:
    """True inside a notebook executed by `python -m memlib run` (papermill): no one is watching, so
    progress bars are plain text and explorers draw one static figure instead of live widgets
    (ipywidgets' comm traffic can stall nbclient's execution: jupyter/nbclient#312)."""
    return os.environ.get("MEMLIB_HEADLESS") == "1"


def progress_bar(**kwargs):
    """A tqdm progress bar: the notebook widget interactively, plain text when `headless()`."""
    if headless():
        from tqdm.std import tqdm
        kwargs["mininterval"] = max(kwargs.get("mininterval", 0.1), 30.0)   # a few lines per run, not thousands
    else:
        from tqdm.auto import tqdm
    return tqdm(**kwargs)
