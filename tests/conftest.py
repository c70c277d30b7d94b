import pytest
import torch

from memlib import runtime, store


@pytest.fixture(autouse=True)
def _cpu_and_isolated_cache(tmp_path, monkeypatch):
    """Every test on the CPU, seeded, with its own model cache."""
    runtime.set_device("cpu")
    torch.manual_seed(0)
    monkeypatch.setenv("MEMLIB_CACHE", str(tmp_path / "cache"))
    store.set_default_cache(None)
    yield
    store.set_default_cache(None)
