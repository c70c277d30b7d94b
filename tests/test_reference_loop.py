"""The fast training paths equal the reference loop (memlib.reference_loop, issue 43).

`fit` on one model gives the reference's losses and weights bit for bit; the batched ensemble
(`fit_many`: grouped convolutions in channels-last layout, or vmap) and the CUDA graph (a CPU
stand-in here, the real one under `pytest --device cuda`) give them to float32 rounding. Tiny nets
and few steps: the file runs in seconds on 2 cores."""
import functools

import pytest
import torch

from memlib import cuda_graph, ensemble, models, runtime, train
from memlib.reference_loop import train_reference
from memlib.harness.store import build_model
from test_cuda_graph import fake_cuda, replaying_cuda  # noqa: F401 - the CPU stand-in for graphs

CONVNET = functools.partial(models.convnet, 3, channels=4)    # paper 1's ConvNet: 3 layers x 4
FCN = functools.partial(models.fcn, 16, 1, width=16)          # paper 1's FCN: one hidden layer
IMAGE = torch.rand(1, 1, 8, 8, generator=torch.Generator().manual_seed(0))    # (1, 1, 8, 8)
VECTORS = torch.rand(6, 16, generator=torch.Generator().manual_seed(1))      # (6, 16)
PAPER1 = dict(lr=0.01, momentum=0.9, schedule="stagewise")    # App. B (fit's defaults differ)

# Float32 rounding, for the paths that compute in another order than one model's eager step: the
# grouped convolution and vmap's batched matrix products sum the same products in another order,
# and the graph's capturable SGD is not the fused CPU kernel the reference uses (its update rounds
# differently). A few float32 ulps (eps 1.2e-7) per step, which training carries on. Measured on
# these nets (2-core CPU, torch 2.13): at most 4e-7 relative in the losses, 6e-8 absolute in the
# weights (the vmap-ed FCN here: equal). The tolerances are ~20x that, and `_moved_beyond` checks
# that training moved each model's weights by over 1,000 times the weight tolerance.
ROUNDING = dict(rtol=1e-5, atol=1e-6)


@pytest.fixture(autouse=True)
def _one_thread():
    """One intra-op thread: these nets are too small to gain from more, and two threads contending
    with a busy machine's other work made each step ~50x slower (measured beside a notebook run
    on the 2-core CPU). Both sides of each comparison run with it."""
    saved = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(saved)


def _weights(model):
    return [p.detach().cpu().clone() for p in model.parameters()]


def _moved_beyond(before, model, tol):
    """Training changed the weights far beyond `tol`: equality within it is not between untrained
    nets."""
    return max((a - b).abs().max().item() for a, b in zip(before, _weights(model))) > 1000 * tol


def _counting_replays(monkeypatch) -> list:
    """One entry per graphed step from now on: True where it replayed (or captured) a graph."""
    replays = []
    real_call = cuda_graph.GraphedStep.__call__

    def counting(self):
        out = real_call(self)
        replays.append(self.graph is not None)
        return out
    monkeypatch.setattr(cuda_graph.GraphedStep, "__call__", counting)
    return replays


@pytest.mark.parametrize("build,x,kw", [
    (CONVNET, IMAGE, dict(PAPER1, steps=40)),
    (CONVNET, IMAGE, dict(PAPER1, steps=40, lr=0.05, clip_grad_norm=0.1)),
    (FCN, VECTORS, dict(PAPER1, steps=40, lr=0.05, batch_size=4, seed=3)),   # batches of 4, 2
    (FCN, VECTORS, dict(steps=40, lr=1e-3, optimizer="adam", weight_decay=1e-3,
                        schedule="final_decay")),
], ids=["convnet-paper1", "convnet-clipped", "fcn-minibatches", "fcn-adam"])
def test_fit_on_one_model_is_the_reference_loop_bit_for_bit(build, x, kw):
    """Exactly equal, not close: fit runs the same modules on the same tensors in the same order
    (its loss is the reference's reshaped to (1,); the sum of one element backpropagates the same
    gradient), with the same optimizer (`make_optimizer`: the fused kernel on a CPU; a plain
    torch.optim.SGD rounds differently) and the same schedule function."""
    fast, plain = build_model(build, seed=0), build_model(build, seed=0)
    before = _weights(plain)
    h_fast = train.fit(fast, x, log_every=1, progress=False, **kw)
    h_plain = train_reference(plain, x, **kw)
    assert h_fast.steps == h_plain.steps == list(range(kw["steps"] + 1))
    assert h_fast.loss == h_plain.loss and h_fast.lr == h_plain.lr
    assert all(torch.equal(p, q) for p, q in zip(_weights(fast), _weights(plain)))
    assert _moved_beyond(before, plain, 0.0)
    assert h_plain.loss[-1] < 0.9 * h_plain.loss[0]                 # it trained
    assert not fast.training and not plain.training                 # both leave it in eval mode


def test_fits_logged_points_are_the_reference_losses_at_those_steps():
    """fit's default log (every steps // 200 steps, here 2, and the last) is the reference's."""
    fast, plain = build_model(CONVNET, seed=1), build_model(CONVNET, seed=1)
    h_fast = train.fit(fast, IMAGE, steps=401, progress=False, **PAPER1)
    h_plain = train_reference(plain, IMAGE, steps=401, **PAPER1)
    assert h_fast.steps == list(range(0, 401, 2)) + [401]
    assert h_fast.loss == [h_plain.loss[s] for s in h_fast.steps]


def test_the_stagewise_schedule_is_paper_1s_and_it_matters():
    """App. B: lr 0.01, x0.2 at 30, 60 and 80 % of the steps; of 40 steps, from 12, 24 and 32."""
    fast, plain, constant = (build_model(CONVNET, seed=0) for _ in range(3))
    h_fast = train.fit(fast, IMAGE, steps=40, log_every=1, progress=False, **PAPER1)
    h_plain = train_reference(plain, IMAGE, steps=40, **PAPER1)
    paper = [0.01] * 12 + [0.01 * 0.2] * 12 + [0.01 * 0.2 ** 2] * 8 + [0.01 * 0.2 ** 3] * 9
    assert h_plain.lr == pytest.approx(paper, rel=1e-12) and h_fast.lr == h_plain.lr
    train_reference(constant, IMAGE, steps=40, **{**PAPER1, "schedule": "constant"})
    assert not any(torch.equal(p, q) for p, q in zip(_weights(constant), _weights(fast)))


def test_until_loss_stops_both_at_the_same_step_with_that_steps_weights():
    """fit stops at the first step whose loss (before its update) is below `until_loss` and keeps
    that step's weights: those after `stopped_at` updates, a run of `stopped_at` steps' weights
    (at a constant rate, which does not depend on the number of steps)."""
    kw = dict(lr=0.05, momentum=0.9, schedule="constant")
    fast, plain, short = (build_model(CONVNET, seed=1) for _ in range(3))
    h_fast = train.fit(fast, IMAGE, steps=200, until_loss=0.08, log_every=1, progress=False, **kw)
    h_plain = train_reference(plain, IMAGE, steps=200, until_loss=0.08, **kw)
    stop = h_plain.stopped_at
    assert stop is not None and 0 < stop < 200 and h_fast.stopped_at == stop
    assert h_plain.loss[-1] < 0.08 <= min(h_plain.loss[:-1]) and h_fast.loss == h_plain.loss
    assert all(torch.equal(p, q) for p, q in zip(_weights(fast), _weights(plain)))
    train_reference(short, IMAGE, steps=stop, **kw)
    assert all(torch.equal(p, q) for p, q in zip(_weights(short), _weights(plain)))


class _CountingStacked(ensemble.Stacked):
    made = 0

    def __init__(self, *args, **kwargs):
        type(self).made += 1
        super().__init__(*args, **kwargs)


@pytest.mark.parametrize("build,until", [
    (CONVNET, 0.08),                                         # grouped convolutions, channels-last
    (functools.partial(models.fcn, 64, 1, width=16), 0.01),  # vmap-ed functional_call
], ids=["grouped-convnet", "vmap-fcn"])
def test_batched_fit_many_is_the_reference_loop_per_model(monkeypatch, build, until):
    """Three seeds as one stacked computation: each model's stopping step exactly, its losses and
    weights to float32 rounding (ROUNDING), as the reference trains it alone. The models stop at
    different steps (one of the FCNs never)."""
    monkeypatch.setattr(ensemble, "Stacked", _CountingStacked)
    _CountingStacked.made = 0
    kw = dict(PAPER1, steps=100, lr=0.05, until_loss=until, clip_grad_norm=1.0)
    fast = [build_model(build, seed=s) for s in range(3)]
    h_fast = train.fit_many(fast, IMAGE, strategy="batched", log_every=1, progress=False, **kw)
    assert _CountingStacked.made == 1                        # one batched computation trained them
    stops = []
    for seed, (model, h) in enumerate(zip(fast, h_fast)):
        plain = build_model(build, seed=seed)
        before = _weights(plain)
        h_plain = train_reference(plain, IMAGE, **kw)
        assert (h.steps, h.stopped_at, h.lr) == (h_plain.steps, h_plain.stopped_at, h_plain.lr)
        torch.testing.assert_close(torch.tensor(h.loss), torch.tensor(h_plain.loss), **ROUNDING)
        for p, q in zip(_weights(model), _weights(plain)):
            torch.testing.assert_close(p, q, **ROUNDING)
        assert _moved_beyond(before, plain, ROUNDING["atol"])
        stops.append(h.stopped_at)
    assert len(set(stops)) > 1, stops                        # per-model stopping is exercised


@pytest.mark.parametrize("until", [None, 0.08])
def test_graphed_fit_is_the_reference_loop(monkeypatch, replaying_cuda, until):
    """fit's CUDA-graph path on the CPU stand-in of tests/test_cuda_graph.py: the step captured
    and replayed (captured again at each learning-rate change), the losses read from a device
    buffer every SYNC_EVERY steps (16 here, to cross flushes), `until_loss` decided inside the
    step. Its capturable SGD is not the reference's fused CPU kernel: equal to rounding
    (ROUNDING), the stopping step exactly."""
    replays = _counting_replays(monkeypatch)
    monkeypatch.setattr(train, "SYNC_EVERY", 16)
    kw = dict(PAPER1, steps=60, lr=0.05, clip_grad_norm=1.0, until_loss=until)
    fast, plain = build_model(CONVNET, seed=1), build_model(CONVNET, seed=1)
    h_fast = train.fit(fast, IMAGE, log_every=1, progress=False, **kw)
    assert len(replays) >= 30 and sum(replays) == len(replays) - cuda_graph.WARMUP
    h_plain = train_reference(plain, IMAGE, **kw)
    assert (h_fast.steps, h_fast.stopped_at, h_fast.lr) == (h_plain.steps, h_plain.stopped_at,
                                                            h_plain.lr)
    if until is not None:
        assert h_plain.stopped_at is not None and h_plain.stopped_at > 16   # after a flush
    torch.testing.assert_close(torch.tensor(h_fast.loss), torch.tensor(h_plain.loss), **ROUNDING)
    for p, q in zip(_weights(fast), _weights(plain)):
        torch.testing.assert_close(p, q, **ROUNDING)


@pytest.mark.cuda_only
@pytest.mark.parametrize("until", [None, 2.0 ** -7])   # a power of 2: float32 and float64 agree
def test_graphed_fit_on_the_gpu_is_the_reference_loop(monkeypatch, until):
    """On a real GPU (`pytest --device cuda`): fit replays its captured step, the reference runs
    eagerly on the same GPU. To the tolerance tests/test_devices.py allows graphed against eager
    training: cuDNN may choose other convolution algorithms for the captured step, and some
    accumulate in a nondeterministic order."""
    replays = _counting_replays(monkeypatch)
    runtime.set_device("cuda")
    x = torch.rand(1, 1, 28, 28, generator=torch.Generator().manual_seed(0))
    build = functools.partial(models.convnet, 5, channels=8)
    kw = dict(PAPER1, steps=600, clip_grad_norm=1.0, until_loss=until)
    fast, plain = build_model(build, seed=0), build_model(build, seed=0).cuda()
    h_fast = train.fit(fast, x, log_every=1, progress=False, **kw)
    # at least SYNC_EVERY (256) steps run before the host reads a loss; all replay but the warm-up
    assert len(replays) >= 256 and sum(replays) == len(replays) - cuda_graph.WARMUP, replays
    h_plain = train_reference(plain, x, **kw)
    assert h_fast.steps == h_plain.steps and h_fast.stopped_at == h_plain.stopped_at
    torch.testing.assert_close(torch.tensor(h_fast.loss), torch.tensor(h_plain.loss),
                               rtol=1e-3, atol=1e-6)
    for p, q in zip(fast.parameters(), plain.parameters()):
        torch.testing.assert_close(p, q, rtol=1e-3, atol=1e-5)
