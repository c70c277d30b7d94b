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
"""
from __future__ import annotations

import contextlib
import os
import random
import re
import shutil
from pathlib import Path

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
    if hasattr(torch.backends, "fp32_precision"):      # torch >= 2.9: one switch for every backend
        torch.backends.fp32_precision = "ieee"          # (the legacy allow_tf32 flags must not be mixed in)
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
        tf32 = "tf32" in (out["matmul_fp32"], out["conv_fp32"])
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


def max_steps() -> int | None:
    """The cap `MEMLIB_MAX_STEPS` puts on every training (None: no cap). `python -m memlib run --untrained`
    sets it to 0: every net keeps its initial weights, and no claim about a trained net may hold then.
    While `planning()` every training is capped at 0 steps too (its job is recorded instead)."""
    if planning():
        return 0
    value = os.environ.get("MEMLIB_MAX_STEPS", "")
    return int(value) if value.strip() else None


def planning() -> str | None:
    """The folder trainings are listed into instead of run (`MEMLIB_PLAN_DIR`, set by `python -m memlib plan`
    and `run --engine ray` for the kernel; see memlib.plan), or None: the ordinary run."""
    return os.environ.get("MEMLIB_PLAN_DIR") or None


def planning_sample(x, dim: int = 0):
    """While `planning()`, the first of the N inputs along `dim` (the evaluation of a planning pass is thrown
    away: one input stands for all, so planning the paper profile does not evaluate untrained nets on 60,000
    images); else `x` itself. `planning_expand` gives the result back its N."""
    if planning() and torch.is_tensor(x) and x.dim() > dim and x.shape[dim] > 1:
        return x.narrow(dim, 0, 1)
    return x


def planning_expand(out, n: int, dim: int = 0):
    """`out` computed on `planning_sample`'s one input, repeated to `n` along `dim` (a no-op when it already
    has `n`, and whenever not planning)."""
    if planning() and torch.is_tensor(out) and out.dim() > dim and out.shape[dim] == 1 and n != 1:
        return out.expand(*out.shape[:dim], n, *out.shape[dim + 1:]).clone()
    return out


def headless() -> bool:
    """True inside a notebook executed by `python -m memlib run` (papermill): no one is watching, so
    progress bars are plain text and explorers draw one static figure instead of live widgets
    (ipywidgets' comm traffic can stall nbclient's execution: jupyter/nbclient#312)."""
    return os.environ.get("MEMLIB_HEADLESS") == "1"


_progress_sink = None   # set by `progress_to`: where bars report instead of printing (an explorer's widget)


@contextlib.contextmanager
def progress_to(sink):
    """`with progress_to(sink): ...` sends every `progress_bar` opened inside to `sink(n, total, text)`
    (text: the bar as tqdm prints it; a closed bar reports total None) instead of printing it.

    An explorer's figure is drawn in a widget callback or in a call deferred past its cell, whose printed
    output reaches no page (JupyterLab routes it to the Log Console, Voila nowhere); a widget it updates
    (ipywidgets state) reaches the page wherever the call runs."""
    global _progress_sink
    outer, _progress_sink = _progress_sink, sink
    try:
        yield sink
    finally:
        _progress_sink = outer


def progress_bar(**kwargs):
    """A tqdm progress bar: the notebook widget interactively, plain text when `headless()`, reported to
    the sink of an enclosing `progress_to` when there is one."""
    if _progress_sink is not None:
        return _sink_bar(_progress_sink, **kwargs)
    if headless():
        from tqdm.std import tqdm
        kwargs["mininterval"] = max(kwargs.get("mininterval", 0.1), 30.0)   # a few lines per run, not thousands
    else:
        from tqdm.auto import tqdm
    return tqdm(**kwargs)


def _sink_bar(sink, **kwargs):
    """A plain tqdm bar that prints nothing and reports each refresh to `sink(n, total, text)`."""
    import io

    from tqdm.std import tqdm

    class SinkBar(tqdm):
        def display(self, msg=None, pos=None):
            if not getattr(self, "_sink_closed", False):
                sink(self.n, self.total, self.__str__() if msg is None else msg)
            return True

        def close(self):
            if not self.disable and not getattr(self, "_sink_closed", False):
                self._sink_closed = True
                sink(self.n, None, self.__str__())
            super().close()

    kwargs.setdefault("mininterval", 0.5)
    return SinkBar(file=io.StringIO(), **kwargs)


def atomic_write_text(path, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder and a rename, so a reader
    never sees half a file and a failed write (a full disk) leaves the old one intact and no stray file."""
    atomic_write_bytes(path, text.encode())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_bytes(path, data: bytes) -> None:
    """`atomic_write_text` for bytes."""
    import tempfile
    from pathlib import Path
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = None
    try:
        # the writer's pid in the name: a writer killed mid-write (SIGKILL, or an interrupt inside mkstemp)
        # leaves a file that `remove_orphaned_temporaries` can tell from one still being written
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o666 & ~_umask())          # mkstemp makes 0600: give the file the usual permissions
        os.replace(tmp, path)
    except BaseException:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
        raise


def _writer_pid(tmp) -> int | None:
    """The pid in an `atomic_write_bytes` temporary's name (`.NAME.PID.RANDOM.tmp`), or None."""
    parts = tmp.name.rsplit(".", 3)
    return int(parts[1]) if len(parts) == 4 and parts[1].isdigit() else None


def _alive(pid: int) -> bool:
    """Whether process `pid` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


def _parent(pid: int) -> int | None:
    try:
        return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def remove_orphaned_temporaries(folder, wait_for_children_s: float = 0.0) -> int:
    """Delete the half-written temporaries in `folder` whose writer has died (a kernel killed while it wrote a
    cache entry); those of live writers (another run) stay. A writer that is a child of this process (the
    kernel a run just interrupted) is waited for up to `wait_for_children_s`. The number deleted."""
    import time
    from pathlib import Path
    deadline = time.monotonic() + wait_for_children_s
    removed = 0
    for tmp in sorted(Path(folder).glob(".*.tmp")):
        pid = _writer_pid(tmp)
        if pid is None or pid == os.getpid():
            continue
        while _alive(pid) and _parent(pid) == os.getpid() and time.monotonic() < deadline:
            time.sleep(0.1)
        if not _alive(pid):
            tmp.unlink(missing_ok=True)
            removed += 1
    return removed


def remove_dead_run_folders(folder) -> list[str]:
    """Delete the folders `python -m memlib run` stages a notebook in (`.NAME.running-PID`, and `.NAME.old-PID`
    mid-swap) that a run which died left in a profile's results `folder` (SIGKILL, a power cut, a full disk);
    those of live runs stay. Judged by the pid on this machine, as `remove_orphaned_temporaries` is. The names
    deleted."""
    removed = []
    folder = Path(folder)
    if not folder.is_dir():
        return removed
    for d in sorted(folder.glob(".*")):
        m = re.fullmatch(r"\..+\.(?:running|old)-(\d+)", d.name)
        if not m or not d.is_dir() or int(m.group(1)) == os.getpid() or _alive(int(m.group(1))):
            continue
        shutil.rmtree(d, ignore_errors=True)
        if not d.exists():
            removed.append(d.name)
    return removed
