
import pytest
import torch

from memlib import models
from memlib.train import History, OPTIMIZERS, TrainingDiverged, final_decay, fit, stagewise

pytestmark = pytest.mark.device          # under `pytest --device cuda` these run on the GPU


def same(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bit-equal, wherever each lives (fit moves a model to the session's device; a clone taken before stays)."""
    return torch.equal(a.detach().cpu(), b.detach().cpu())


def test_stagewise_schedule_is_paper_1s():
    # x0.2 at 30 %, 60 % and 80 % of the steps (paper 1, App. B)
    assert [stagewise(s, 100) for s in (0, 29, 30, 59, 60, 79, 80, 99)] == pytest.approx(
        [1, 1, 0.2, 0.2, 0.04, 0.04, 0.008, 0.008])
    h = fit(models.fcn(4, 0), torch.randn(1, 4), steps=10, lr=0.5, schedule="stagewise", log_every=1, progress=False)
    assert h.lr[0] == 0.5 and h.lr[3] == pytest.approx(0.1) and h.lr[-1] == pytest.approx(0.5 * 0.008)


def test_final_decay_is_constant_then_a_tenth_for_the_last_tenth():
    assert [final_decay(s, 100) for s in (0, 50, 89, 90, 99)] == pytest.approx([1, 1, 1, 0.1, 0.1])
    h = fit(models.fcn(4, 0), torch.randn(1, 4), steps=20, lr=0.5, schedule="final_decay", log_every=1, progress=False)
    assert h.lr[:18] == [0.5] * 18 and h.lr[18:] == pytest.approx([0.05] * 3)     # steps 18, 19 and the final read


@pytest.mark.parametrize("opt,lr", [("sgd", 0.1), ("adam", 1e-2), ("adagrad", 1e-1), ("rmsprop", 1e-3), ("adamax", 1e-2)])
def test_every_optimizer_reduces_the_loss(opt, lr):
    assert set(OPTIMIZERS) == {"sgd", "adam", "adagrad", "rmsprop", "adamax"}
    torch.manual_seed(0)
    x = torch.randn(4, 1, 6, 6)
    h = fit(models.convnet(2, channels=4, kernel=3), x, steps=60, lr=lr, optimizer=opt, momentum=0.9, progress=False)
    assert h.loss[-1] < 0.7 * h.loss[0]


def test_divergence_names_the_step():
    x = torch.randn(2, 16) * 10
    with pytest.raises(TrainingDiverged, match=r"at step \d+ of 100.*lower the learning rate"):
        fit(models.fcn(16, 2, width=32), x, steps=100, lr=10.0, momentum=0.9, progress=False)


def test_until_loss_and_callbacks_stop_early():
    torch.manual_seed(0)
    x = torch.randn(1, 8)
    h = fit(models.fcn(8, 0, bias=False), x, steps=10_000, lr=0.2, until_loss=1e-6, progress=False)
    assert h.stopped_at is not None and h.stopped_at < 10_000 and h.final_loss < 1e-6
    seen = []

    def stop_at_5(state):
        seen.append(state.step)
        return state.step >= 5

    h = fit(models.fcn(8, 0), x, steps=100, lr=0.01, callbacks=[stop_at_5], log_every=1, progress=False)
    assert h.stopped_at == 5 and seen == list(range(6))


def test_target_and_frozen_parameters():
    torch.manual_seed(0)
    net = models.fcn(6, 1, width=12)
    before = {n: p.detach().clone() for n, p in net.named_parameters()}
    x, y = torch.randn(3, 6), torch.randn(3, 6)
    fit(net, x, y, steps=20, lr=0.1, parameters=["net.0.weight", "net.0.bias"], progress=False)
    after = dict(net.named_parameters())
    assert not same(after["net.0.weight"], before["net.0.weight"])
    assert same(after["net.2.weight"], before["net.2.weight"])   # the top layer stayed fixed
    assert all(p.requires_grad for p in net.parameters())               # and is trainable again afterwards
    with pytest.raises(ValueError, match="unknown parameter"):
        fit(net, x, steps=1, lr=0.1, parameters=["nope"], progress=False)


def test_minibatches_cover_each_epoch_and_are_seeded():
    seen = []

    class Spy(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = torch.nn.Parameter(torch.ones(1))

        def forward(self, x):
            if self.training:                     # (fit's shape check runs one example in eval mode first)
                seen.append(x[:, 0].tolist())
            return x * self.w

    x = torch.arange(10.0)[:, None]
    fit(Spy(), x, steps=5, lr=0.0, batch_size=4, seed=3, progress=False)
    first_epoch = sorted(v for b in seen[:3] for v in b)
    assert first_epoch == list(range(10)) and [len(b) for b in seen[:3]] == [4, 4, 2]
    again = list(seen)
    seen.clear()
    fit(Spy(), x, steps=5, lr=0.0, batch_size=4, seed=3, progress=False)
    assert seen == again


def test_same_seed_same_numbers():
    def run():
        torch.manual_seed(7)
        net = models.convnet(3, channels=4)
        fit(net, torch.ones(1, 1, 8, 8), steps=5, lr=0.01, momentum=0.9, progress=False)
        return torch.cat([p.flatten() for p in net.parameters()])
    assert torch.equal(run(), run())


def test_history_roundtrip():
    h = History(steps=[0, 1], loss=[1.0, 0.5], lr=[0.1, 0.1], records={"rho": [1.0, 2.0]}, wall_time=0.1)
    assert History.from_dict(h.as_dict()) == h


def test_models_shapes_and_inits():
    x = torch.randn(2, 1, 28, 28)
    assert models.fcn(784, 3, width=64)(x).shape == x.shape
    net = models.convnet(4, channels=8)
    assert net(x).shape == x.shape and net(torch.randn(1, 1, 40, 40)).shape == (1, 1, 40, 40)
    assert len(models.weight_layers(net)) == 4 and net[0].padding == (2, 2) and net[0].kernel_size == (5, 5)
    for scheme in models.INIT_SCHEMES:
        models.initialize_(net, scheme, value=0.01)
    models.initialize_(net, "constant", value=0.01)
    assert torch.all(net[0].weight == 0.01)
    models.initialize_(net, "kaiming_normal")
    fan_in = 8 * 25
    assert net[2].weight.std().item() == pytest.approx((2 / fan_in) ** 0.5, rel=0.1)
    models.set_frobenius_norms_(net, 3.0)
    assert all(abs(m.weight.norm().item() - 3.0) < 1e-4 for m in models.weight_layers(net))
    with pytest.raises(ValueError, match="xavier_normal"):
        models.initialize_(net, "orthogonal")


@pytest.mark.parametrize("x,target,kw,message", [
    (torch.zeros(0, 4), None, {}, "no examples"),
    (torch.randn(3, 4), None, {"batch_size": 0}, "batch_size must be a positive integer"),
    (torch.tensor([[1.0, float("nan"), 0.0, 0.0]]), None, {}, "x holds 1 NaN or infinite values"),
    (torch.randn(2, 4), torch.tensor([[1.0] * 4, [float("inf")] * 4]), {}, "target holds 4 NaN"),
    (torch.randn(3, 4), torch.randn(3), {}, r"output has shape \(4,\) per example but the target has \(\)"),
    (torch.randn(3, 4), torch.randn(2, 4), {}, "x has 3 examples but target has 2"),
])
def test_bad_training_data_is_one_clear_error_before_training(x, target, kw, message):
    net = models.fcn(4, 1, width=8)
    before = [p.detach().clone() for p in net.parameters()]
    with pytest.raises(ValueError, match=message):
        fit(net, x, target, steps=5, lr=0.1, progress=False, **kw)
    assert all(same(a, b) for a, b in zip(before, net.parameters()))      # nothing trained
    with pytest.raises(ValueError, match=message):
        fit([models.fcn(4, 1, width=8), models.fcn(4, 1, width=8)], x, target, steps=5, lr=0.1, progress=False,
            **kw)


def test_fit_on_a_numpy_array_says_it_must_be_a_tensor():
    """Issue 30: a numpy array (or a list) is not "no examples": the message names what to pass."""
    import numpy as np
    from memlib.runtime import MemlibError
    with pytest.raises(MemlibError, match=r"x must be a torch tensor, got a numpy.ndarray of shape \(3, 4\)"):
        fit(models.fcn(4, 0), np.zeros((3, 4), np.float32), steps=1, lr=0.1, progress=False)
    with pytest.raises(MemlibError, match="target must be a torch tensor, got a list"):
        fit(models.fcn(4, 0), torch.zeros(3, 4), [[0.0]] * 3, steps=1, lr=0.1, progress=False)


@pytest.mark.parametrize("n_models", [1, 3])
def test_weights_at_keeps_the_weights_a_shorter_training_ends_with(n_models):
    """Issue 40: `weights_at` snapshots are the weights after that many updates (the same, bit for bit, as a
    training stopped there, at a constant rate), one per model, and keeping them changes nothing."""
    import copy
    from memlib import models as _models
    torch.manual_seed(0)
    x = torch.randn(1, 1, 8, 8)
    nets = [_models.convnet(3, channels=4) for _ in range(n_models)]
    long, short, plain = ([copy.deepcopy(m) for m in nets] for _ in range(3))
    kw = dict(lr=0.01, momentum=0.9, progress=False)
    hs = fit(long if n_models > 1 else long[0], x, steps=12, weights_at=[0, 5, 12, 99], **kw)
    hs = hs if n_models > 1 else [hs]
    fit(short if n_models > 1 else short[0], x, steps=5, **kw)
    fit(plain if n_models > 1 else plain[0], x, steps=12, **kw)
    for h, m0, s, lg, pl in zip(hs, nets, short, long, plain):
        assert sorted(h.snapshots) == [0, 5, 12]                   # 99 is past the training: not kept
        for name, p in m0.named_parameters():
            assert same(h.snapshots[0][name], p)
        at5 = h.model_at(m0, 5)
        for (name, p), q in zip(s.named_parameters(), at5.parameters()):
            assert same(p, q), name
        for p, q, r in zip(lg.parameters(), pl.parameters(), h.model_at(m0, 12).parameters()):
            assert same(p, q) and same(p, r)
    with pytest.raises(KeyError, match="no snapshot"):
        hs[0].model_at(nets[0], 7)
    assert History.from_dict(hs[0].as_dict()).snapshots.keys() == hs[0].snapshots.keys()
