"""The CUDA-graph step's control flow, checked on the CPU with stand-ins for the CUDA objects."""
import pytest
import torch

from memlib import cuda_graph
from memlib.cuda_graph import WARMUP, GraphedStep, graph_blocker


def test_graph_blocker_reasons():
    cuda, cpu = torch.device("cuda"), torch.device("cpu")
    assert graph_blocker(cuda, optimizer="sgd", static_shapes=True) is None
    assert graph_blocker(cuda, optimizer="adam", static_shapes=True) is None
    assert "CUDA" in graph_blocker(cpu, optimizer="sgd", static_shapes=True)
    assert "capturable" in graph_blocker(cuda, optimizer="adagrad", static_shapes=True)
    assert "multiple" in graph_blocker(cuda, optimizer="sgd", static_shapes=False)
    assert "until_loss" in graph_blocker(cuda, optimizer="sgd", static_shapes=True, until_loss=1e-3)


class _FakeGraph:
    """Counts captures and replays (a real graph replays kernels, never the Python step function)."""
    captured = []

    def __init__(self):
        self.replays = 0

    def replay(self):
        self.replays += 1


class _FakeCapture:
    def __init__(self, graph):
        self.graph = graph

    def __enter__(self):
        _FakeGraph.captured.append(self.graph)

    def __exit__(self, *exc):
        return False


class _NullStream:
    def wait_stream(self, other):
        pass


@pytest.fixture
def fake_cuda(monkeypatch):
    import contextlib
    _FakeGraph.captured = []
    monkeypatch.setattr(torch.cuda, "CUDAGraph", _FakeGraph)
    monkeypatch.setattr(torch.cuda, "graph", _FakeCapture)
    monkeypatch.setattr(torch.cuda, "Stream", _NullStream)
    monkeypatch.setattr(torch.cuda, "current_stream", _NullStream)
    monkeypatch.setattr(torch.cuda, "stream", lambda s: contextlib.nullcontext())
    monkeypatch.setattr(torch.cuda, "synchronize", lambda: None)


def test_warmup_capture_replay_and_recapture(fake_cuda):
    calls = []

    def step():
        calls.append(len(calls))
        return torch.tensor(float(len(calls)))

    g = GraphedStep(step)
    for _ in range(WARMUP):
        g()
    assert len(calls) == WARMUP and g.graph is None                   # eager warm-up steps
    out = g()                                                          # capture (step traced once), replay
    assert g.captures == 1 and len(_FakeGraph.captured) == 1 and g.graph.replays == 1
    assert out is g.static_loss and len(calls) == WARMUP + 1
    g(), g()
    assert g.graph.replays == 3 and g.captures == 1 and len(calls) == WARMUP + 1   # replays only
    g.invalidate()
    g()
    assert g.captures == 2                                             # the lr changed: captured again


def test_capture_failure_falls_back_to_eager_once(fake_cuda, monkeypatch):
    def broken_capture(graph):
        raise RuntimeError("operation not permitted when stream is capturing")
    monkeypatch.setattr(torch.cuda, "graph", broken_capture)
    calls = []
    g = GraphedStep(lambda: calls.append(1) or torch.tensor(0.0))
    for _ in range(WARMUP):
        g()
    with pytest.warns(UserWarning, match="CUDA graph capture failed.*continues eagerly"):
        g()
    assert not g.enabled and len(calls) == WARMUP + 1
    g()
    assert len(calls) == WARMUP + 2


def test_disabled_graph_is_the_plain_step():
    calls = []
    g = GraphedStep(lambda: calls.append(1) or torch.tensor(1.0), enabled=False)
    for _ in range(5):
        g()
    assert len(calls) == 5 and g.captures == 0 and cuda_graph.WARMUP >= 1
