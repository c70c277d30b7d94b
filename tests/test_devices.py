"""Device placement, checked without a GPU: memlib's functions on nets whose weights live on "cuda".

`tests/simulated_gpu.py` gives the CPU a second device: tensors that claim cuda:0, hold real values, and
raise PyTorch's "Expected all tensors to be on the same device" error when an operation mixes them with CPU
tensors, as a real GPU would. The functions here are the ones the notebooks call on trained models, and
training itself; the inputs stay on the CPU, as the notebooks hold them. Each result is compared with the
same call on the CPU. `./run_all.sh test --device cuda` runs the suite's GPU tests on a real GPU.
"""
import functools

import pytest
import torch

from memlib import dynamics, linalg, metrics, models, plot, rho, runtime, train
from memlib.ensemble import Stacked
from memlib.store import build_model
from simulated_gpu import OnGPU, move_to_simulated_gpu, simulated_gpu_session


@pytest.fixture
def gpu(monkeypatch):
    """The session's device is the simulated cuda:0 (no CUDA graphs: nothing to capture on a CPU);
    returns a function that moves a model there."""
    monkeypatch.setattr(torch.cuda, "_lazy_init", lambda: None)      # a CPU-only build would refuse "cuda"
    monkeypatch.setattr(train, "graph_blocker", lambda *a, **k: "simulated GPU")
    monkeypatch.setattr(runtime, "_device", torch.device("cuda"))
    with simulated_gpu_session():
        yield move_to_simulated_gpu


@pytest.fixture
def on_cpu(monkeypatch):
    """`with on_cpu():` a plain CPU session inside a test that simulates a GPU (for reference numbers)."""
    import contextlib

    @contextlib.contextmanager
    def session():
        from torch.overrides import _pop_mode_temporarily
        saved = runtime.get_device()
        runtime._device = torch.device("cpu")
        try:
            with _pop_mode_temporarily():
                yield
        finally:
            runtime._device = saved
    return session


def _cpu(t):
    return t.cpu() if isinstance(t, torch.Tensor) else t


def test_the_simulated_gpu_catches_a_forgotten_move(gpu):
    w = torch.randn(3, 3, device="cuda")
    assert isinstance(w, OnGPU) and w.device.type == "cuda"
    with pytest.raises(RuntimeError, match="same device"):
        w @ torch.ones(3, 2)
    assert torch.equal((w @ torch.ones(3, 2).to("cuda")).cpu(), w.cpu() @ torch.ones(3, 2))   # values are real
    assert (w.sum() * torch.tensor(2.0)).item() == pytest.approx(2 * w.cpu().sum().item())      # 0-dim CPU mixes
    assert type(w.cpu()) is torch.Tensor and isinstance(w.to(torch.float64), OnGPU)


def _convnet(seed=0):
    return build_model(functools.partial(models.convnet, 3, channels=4), seed=seed)


X = torch.rand(6, 1, 12, 12, generator=torch.Generator().manual_seed(0))
Y = torch.tensor([0, 1, 2, 0, 1, 2])


@pytest.mark.parametrize("name,call", [
    ("layerwise_error (Fig 10; failed on an H100)", lambda m: metrics.layerwise_error(m, X, Y, X[:4], Y[:4])),
    ("predict", lambda m: metrics.predict(m, X)),
    ("identity_constant_scores", lambda m: metrics.identity_constant_scores(m, X, X[:1])),
    ("band_scores", lambda m: metrics.band_scores([m, m], X, X[:1])),
    ("multi_example_scores", lambda m: metrics.multi_example_scores(m, X, X[:2])),
    ("layer_activations", lambda m: metrics.layer_activations(m, X)),
    ("layer_input_correlation", lambda m: metrics.layer_input_correlation(m, X)),
    ("layer_input_correlation to a reference", lambda m: metrics.layer_input_correlation(m, X, reference=X[:1])),
    ("upper_subnetwork", lambda m: metrics.predict(metrics.upper_subnetwork(m, 2), X)),
    ("point_map_scores", lambda m: metrics.point_map_scores(m, X, X[:1])),
    ("nearest_train_corr", lambda m: metrics.nearest_train_corr(metrics.predict(m, X), X)),
    ("recovery_probability", lambda m: metrics.recovery_probability(m, X[:2], X, steps=2, eps=0.1)),
    ("iterate", lambda m: dynamics.iterate(m, X, 3)),
    ("nearest", lambda m: dynamics.nearest(dynamics.iterate(m, X, 1)[-1], X)),
    ("jacobian", lambda m: linalg.jacobian(m, X[0])),
    ("spectral_radius", lambda m: linalg.spectral_radius(m, X[0, :, :6, :6])),
    # (the Arnoldi path's jvp is not simulated: forward-mode AD makes primal views below the dispatcher)
    ("jacobian_radii", lambda m: dynamics.jacobian_radii(m, X[:2, :, :5, :5])),
    ("narrowest_layer", lambda m: linalg.narrowest_layer(m, X.shape[1:])),
    ("relative_weight_change", lambda m: metrics.relative_weight_change(_convnet(seed=1), m)),
])
def test_functions_on_a_trained_net_give_the_cpus_numbers(gpu, on_cpu, name, call):
    with on_cpu():
        ref = call(_convnet())                                         # the same call on a CPU model
    got = call(gpu(_convnet()))
    for a, b in zip(torch.utils._pytree.tree_leaves(got), torch.utils._pytree.tree_leaves(ref)):
        if isinstance(b, torch.Tensor):
            torch.testing.assert_close(_cpu(a), b, rtol=1e-5, atol=1e-6)
        else:
            assert a == pytest.approx(b, rel=1e-5, abs=1e-6)


@pytest.mark.parametrize("name,call", [
    ("intermediate_grid", lambda m: plot.intermediate_grid(m, X[:2], kinds=("svd", "most_correlated", "random"))),
    ("upper_layers_grid", lambda m: plot.upper_layers_grid([("net", m, 2)], X[:2], show=lambda t: t)),
    ("layer_maps_side_by_side", lambda m: plot.layer_maps_side_by_side({"a": m}, X[:2])),
])
def test_figures_of_a_trained_net_draw_on_the_gpu(gpu, name, call):
    import matplotlib.pyplot as plt
    plt.close(call(gpu(_convnet())))


def test_linear_operator_of_a_gpu_net(gpu, on_cpu):
    make = lambda: build_model(functools.partial(models.linear_conv_ae, 3, filters=2), seed=0)
    with on_cpu():
        ref = linalg.operator_matrix(make(), (1, 4, 4))
    torch.testing.assert_close(linalg.operator_matrix(gpu(make()), (1, 4, 4)), ref)
    ds = models.network_ds()
    models.identity_init_ds_(ds)
    torch.testing.assert_close(linalg.operator_matrix(gpu(ds), (1, 2, 2)), torch.eye(4, dtype=torch.float64))


def test_paper4_quantities_on_a_gpu_classifier(gpu, on_cpu):
    x, y = torch.rand(8, 1, 4, 4), torch.tensor([1., -1.] * 4)
    make = lambda: build_model(functools.partial(models.classifier, 16, layers=3, width=8), seed=0)

    def quantities(net):
        f = rho.normalized_outputs(net, x)
        return [rho.margins(net, x, y).cpu(), rho.rho(net), rho.nc1(rho.last_hidden(net, x), (y > 0).long()),
                rho.rho_equilibrium(f, y, 5e-4)]
    with on_cpu():
        ref = quantities(make())
    got = quantities(gpu(make()))
    torch.testing.assert_close(got[0], ref[0])
    assert got[1:] == pytest.approx(ref[1:])


@pytest.mark.parametrize("kw", [dict(), dict(until_loss=0.05), dict(batch_size=2, optimizer="adam", lr=1e-3),
                                dict(clip_grad_norm=0.1, weight_decay=1e-3)])
def test_training_on_the_gpu_gives_the_cpus_weights(gpu, on_cpu, kw):
    """fit moves a CPU-built model to the device itself, as in the notebooks."""
    x = torch.rand(4, 1, 6, 6, generator=torch.Generator().manual_seed(1))
    make = lambda: build_model(functools.partial(models.convnet, 2, channels=3), seed=0)
    kw = {**dict(steps=30, lr=0.05, momentum=0.9 if "optimizer" not in kw else 0.0, progress=False), **kw}
    with on_cpu():
        ref = make()
        h_ref = train.fit(ref, x, **kw)
    net = make()
    h = train.fit(net, x, **kw)
    assert h.steps == h_ref.steps and h.stopped_at == h_ref.stopped_at          # (rounding: the GPU path uses the
    torch.testing.assert_close(torch.tensor(h.loss), torch.tensor(h_ref.loss), rtol=1e-5, atol=1e-7)  # foreach,
    for p, q in zip(net.parameters(), ref.parameters()):                        # not the fused CPU optimizer)
        assert isinstance(p, OnGPU)
        torch.testing.assert_close(p.cpu(), q, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("device_stop", [False, True])
def test_batched_training_on_the_gpu(gpu, on_cpu, device_stop):
    """fit on a list (grouped ConvNets and vmap-ed FCNs), in the loop's host and device modes."""
    x = torch.rand(2, 1, 6, 6, generator=torch.Generator().manual_seed(2))
    for build in (functools.partial(models.convnet, 2, channels=3), functools.partial(models.fcn, 36, 1, width=8)):
        nets = lambda: [build_model(build, seed=s) for s in range(3)]
        kw = dict(steps=40, lr=0.05, optimizer="sgd", momentum=0.9, weight_decay=0.0, factor=None, until_loss=0.05,
                  clip_grad_norm=1.0, log_every=5, progress=False)
        loss = torch.nn.functional.mse_loss
        xs = x.reshape(2, -1) if build.func is models.fcn else x
        with on_cpu():
            ref = nets()
            h_ref = train._loop(Stacked(ref, xs, None, loss), **kw)
        on = nets()
        h = train._loop(Stacked(on, xs, None, loss), device_stop=device_stop, **kw)
        for a, b in zip(h, h_ref):
            assert a.steps == b.steps and a.stopped_at == b.stopped_at
            torch.testing.assert_close(torch.tensor(a.loss), torch.tensor(b.loss), rtol=1e-5, atol=1e-7)
        for m, r in zip(on, ref):
            for p, q in zip(m.parameters(), r.parameters()):
                assert isinstance(p, OnGPU)
                torch.testing.assert_close(p.cpu(), q, rtol=1e-5, atol=1e-6)
