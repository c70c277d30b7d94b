"""Test set-up: every test on the CPU, seeded, with its own model cache; figures closed after it.

`pytest --device cuda` (`./run_all.sh test --device cuda`) is the suite's GPU mode: on a machine with a
CUDA GPU it runs only the device-sensitive tests (marked `device`) with memlib's device set to CUDA, and the
smoke notebooks with `--device cuda`.
"""
import sys

import pytest
import torch

from memlib.harness import context, store
from memlib import runtime


def pytest_addoption(parser):
    parser.addoption("--device", default="cpu", choices=("cpu", "cuda"),
                     help="cuda: run the device-sensitive tests and the smoke notebooks on a CUDA GPU")


def pytest_configure(config):
    config.addinivalue_line("markers", "device: device-sensitive; also run on a GPU by `pytest --device cuda`")
    config.addinivalue_line("markers", "cuda_only: needs a real CUDA GPU (runs only under `pytest --device cuda`)")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--device") == "cuda":
        if not torch.cuda.is_available():
            raise pytest.UsageError("--device cuda: torch sees no CUDA GPU on this machine")
        keep = [i for i in items if i.get_closest_marker("device") or i.get_closest_marker("cuda_only")]
        config.hook.pytest_deselected(items=[i for i in items if i not in keep])
        items[:] = keep
    else:
        skip = pytest.mark.skip(reason="needs a CUDA GPU: pytest --device cuda")
        for item in items:
            if item.get_closest_marker("cuda_only"):
                item.add_marker(skip)


@pytest.fixture(scope="session")
def suite_device(request):
    return request.config.getoption("--device")


@pytest.fixture(autouse=True)
def _device_seed_and_isolated_cache(tmp_path, monkeypatch, suite_device):
    """Every test on the suite's device (the CPU unless --device cuda), seeded, with its own model cache, in the
    default run context (memlib.harness.context: a `Run` or a test may change it)."""
    context.activate(context.RunContext())
    runtime.set_device(suite_device)
    torch.manual_seed(0)
    monkeypatch.setenv("MEMLIB_CACHE", str(tmp_path / "cache"))
    store.set_default_cache(None)
    yield
    runtime.set_device("cpu")
    store.set_default_cache(None)
    context.activate(context.RunContext())
    if "matplotlib.pyplot" in sys.modules:     # figures a test drew and dropped: never "more than 20 open"
        sys.modules["matplotlib.pyplot"].close("all")


@pytest.fixture
def full_disk(monkeypatch):
    """`full_disk(written=n)`: from now on every file opened through os.fdopen (fileio's atomic writes) takes the
    first `n` characters of a write and then raises ENOSPC, as a full disk does (the error names no file)."""
    import errno
    import os
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, f, written):
            self.f, self.written = f, written

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def write(self, data):
            self.f.write(data[:self.written])
            raise OSError(errno.ENOSPC, "No space left on device")

    def fill(written: int = 0):
        monkeypatch.setattr(os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode), written))
    return fill
