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


# ---- the training loop's device mode and graphed path, on the CPU --------------------------------------

import functools                                                        # noqa: E402
import sys                                                               # noqa: E402

from torch.overrides import TorchFunctionMode                           # noqa: E402

from memlib import models, train                                         # noqa: E402
from memlib.ensemble import Stacked                                      # noqa: E402
from memlib.harness.store import build_model                                     # noqa: E402


class NoHostSync(TorchFunctionMode):
    """Fails on any operation that reads a tensor's value on the host (a CUDA synchronisation, forbidden
    inside a captured graph) or whose output shape depends on values."""
    BANNED = {"item", "tolist", "__bool__", "__int__", "__float__", "__index__", "numpy", "cpu", "nonzero",
              "masked_select", "unique", "argwhere"}

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name in self.BANNED:
            raise AssertionError(f"host synchronisation inside the graphed step: Tensor.{name}")
        return func(*args, **(kwargs or {}))


class _ReplayingGraph:
    """A stand-in CUDA graph on the CPU: capture runs the step once (a real capture records it, and the
    replay right after runs it), later replays run the captured step again. The step runs under
    NoHostSync while "captured"."""

    def __init__(self):
        self.fn, self.fresh, self.replays = None, False, 0

    def replay(self):
        self.replays += 1
        if self.fresh:                                  # the capture already did this step's work
            self.fresh = False
            return
        with NoHostSync():
            self.fn()


class _ReplayCapture:
    def __init__(self, graph):
        self.graph = graph

    def __enter__(self):
        owner = sys._getframe(1).f_locals["self"]       # the GraphedStep capturing
        self.graph.fn, self.graph.fresh = owner.step_fn, True
        self.mode = NoHostSync()
        self.mode.__enter__()

    def __exit__(self, *exc):
        self.mode.__exit__(*exc)
        return False


@pytest.fixture
def replaying_cuda(monkeypatch, fake_cuda):
    monkeypatch.setattr(torch.cuda, "CUDAGraph", _ReplayingGraph)
    monkeypatch.setattr(torch.cuda, "graph", _ReplayCapture)
    monkeypatch.setattr(train, "graph_blocker", lambda *a, **k: None)   # "a CUDA device" for the loop


def _run(trainable_of, *, device_stop=None, graph=False, **kw):
    loss_fn = torch.nn.functional.mse_loss
    trainable = trainable_of(loss_fn)
    kw = {**dict(steps=120, lr=0.05, optimizer="sgd", momentum=0.9, weight_decay=0.0, factor=train.stagewise,
                 until_loss=None, clip_grad_norm=None, log_every=7, progress=False), **kw}
    hists = train._loop(trainable, device_stop=device_stop, cuda_graph=graph, **kw)
    params = [p.detach().clone() for p in trainable.params]
    return hists, params


def _same(a, b, exact=True):
    (ha, pa), (hb, pb) = a, b
    for x, y in zip(ha, hb):
        assert (x.steps, x.stopped_at, x.lr) == (y.steps, y.stopped_at, y.lr)
        if exact:
            assert x.loss == y.loss
        else:
            torch.testing.assert_close(torch.tensor(x.loss), torch.tensor(y.loss), rtol=1e-4, atol=1e-8)
    for x, y in zip(pa, pb):
        if exact:
            assert torch.equal(x, y)
        else:
            torch.testing.assert_close(x, y, rtol=1e-4, atol=1e-6)


def _single(seed=0):
    x = torch.randn(1, 8, generator=torch.Generator().manual_seed(5))
    return lambda loss_fn: train.Single(build_model(functools.partial(models.fcn, 8, 1, width=16), seed=seed), x,
                                        None, loss_fn)


def _stacked():
    x = torch.randn(1, 1, 6, 6, generator=torch.Generator().manual_seed(5))
    nets = lambda: [build_model(functools.partial(models.convnet, 2, channels=3), seed=s) for s in range(3)]
    return lambda loss_fn: Stacked(nets(), x, None, loss_fn)


@pytest.mark.parametrize("make", [_single, _stacked])
@pytest.mark.parametrize("until", [None, 0.02])
def test_device_mode_equals_host_mode(monkeypatch, make, until):
    """Losses buffered on the device and until_loss decided there give the host loop's histories,
    stopping steps and weights (buffer flushed every 16 steps here, to cross several flushes)."""
    monkeypatch.setattr(train, "SYNC_EVERY", 16)
    host = _run(make(), until_loss=until)
    dev = _run(make(), until_loss=until, device_stop=True)
    _same(host, dev)
    if until is not None:
        stops = [h.stopped_at for h in host[0]]
        assert all(s is not None for s in stops), stops                 # the test exercises stopping
        if make is _stacked:
            assert len(set(stops)) > 1                                    # at different steps per model


@pytest.mark.parametrize("make", [_single, _stacked])
@pytest.mark.parametrize("until", [None, 0.02])
def test_graphed_loop_equals_eager_and_never_syncs_inside_the_step(monkeypatch, replaying_cuda, make, until):
    monkeypatch.setattr(train, "SYNC_EVERY", 16)
    eager = _run(make(), until_loss=until)
    graphed = _run(make(), until_loss=until, graph=True)                # stagewise: recaptured at each lr change
    _same(eager, graphed, exact=False)        # a capturable optimizer is not the fused CPU kernel: rounding only


def test_graphed_minibatches_use_the_static_index(monkeypatch, replaying_cuda):
    x = torch.randn(8, 6, generator=torch.Generator().manual_seed(1))
    make = lambda: (lambda loss_fn: train.Single(build_model(functools.partial(models.fcn, 6, 1, width=8), seed=0),
                                                 x, None, loss_fn, batch_size=4, seed=3))
    _same(_run(make(), steps=40), _run(make(), steps=40, graph=True), exact=False)


def test_graphed_divergence_is_reported(monkeypatch, replaying_cuda):
    x = torch.randn(2, 16) * 10
    make = lambda: (lambda loss_fn: train.Single(build_model(functools.partial(models.fcn, 16, 2, width=32), seed=0),
                                                 x, None, loss_fn))
    with pytest.raises(train.TrainingDiverged, match=r"at step \d+ of 100"):
        _run(make(), steps=100, lr=10.0, graph=True, factor=None)


@pytest.mark.parametrize("make", [_single, _stacked])
def test_graphed_rmsprop_equals_eager(monkeypatch, replaying_cuda, make):
    """Paper 1's depth sweep trains with RMSprop (Fig 30's row): its capturable step, recaptured at each of the
    stagewise rate's changes, gives the eager loop's losses and weights up to rounding."""
    monkeypatch.setattr(train, "SYNC_EVERY", 16)
    import torch.optim.rmsprop as rmsprop          # its capturable step asserts a CUDA device: the CPU stands in here
    monkeypatch.setattr(rmsprop, "_get_capturable_supported_devices", lambda *a, **k: ["cpu", "cuda"])
    kw = dict(optimizer="rmsprop", lr=0.001, momentum=0.0)
    eager = _run(make(), **kw)
    graphed = _run(make(), graph=True, **kw)
    _same(eager, graphed, exact=False)
    assert graph_blocker(torch.device("cuda"), optimizer="rmsprop", static_shapes=True) is None
