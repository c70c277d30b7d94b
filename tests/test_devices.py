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
from memlib.harness.store import build_model
from simulated_gpu import OnGPU, move_to_simulated_gpu, simulated_gpu_session


pytestmark = pytest.mark.device          # under `pytest --device cuda` these run on the real GPU


@pytest.fixture
def gpu(monkeypatch, suite_device):
    """The session's device is cuda: the real one under `pytest --device cuda`, else the simulated cuda:0 (no
    CUDA graphs: nothing to capture on a CPU). Returns a function that moves a model there."""
    if suite_device == "cuda":
        yield lambda model: model.to("cuda")
        return
    monkeypatch.setattr(torch.cuda, "_lazy_init", lambda: None)      # a CPU-only build would refuse "cuda"
    monkeypatch.setattr(train, "graph_blocker", lambda *a, **k: "simulated GPU")
    monkeypatch.setattr(runtime, "_device", torch.device("cuda"))
    with simulated_gpu_session():
        yield move_to_simulated_gpu


@pytest.fixture
def on_cpu(suite_device):
    """`with on_cpu():` a plain CPU session inside a test on the (real or simulated) GPU, for reference numbers."""
    import contextlib

    @contextlib.contextmanager
    def session():
        saved = runtime.get_device()
        runtime._device = torch.device("cpu")
        try:
            if suite_device == "cuda":
                yield
            else:
                from torch.overrides import _pop_mode_temporarily
                with _pop_mode_temporarily():
                    yield
        finally:
            runtime._device = saved
    return session


def _is_on_gpu(t):
    return t.device.type == "cuda"


@pytest.fixture
def tol(suite_device):
    """How close the GPU's numbers must be to the CPU's: the simulated GPU computes on the CPU (only the
    optimizer's kernels differ from the CPU's fused one), a real GPU's kernels round differently."""
    return dict(rtol=1e-5, atol=1e-6) if suite_device == "cpu" else dict(rtol=2e-3, atol=1e-4)


def _cpu(t):
    return t.cpu() if isinstance(t, torch.Tensor) else t


def test_the_simulated_gpu_catches_a_forgotten_move(gpu, suite_device):
    if suite_device == "cuda":
        pytest.skip("the real GPU needs no simulation")
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
    ("hidden_roughness (Fig 25)", lambda m: metrics.hidden_roughness(m, X)),
    ("border_energy_ratio (Fig 19)", lambda m: metrics.border_energy_ratio(metrics.predict(m, X), 3)),
    ("fixed_point_distance", lambda m: dynamics.fixed_point_distance(m, X)),
])
def test_functions_on_a_trained_net_give_the_cpus_numbers(gpu, on_cpu, tol, name, call):
    with on_cpu():
        ref = call(_convnet())                                         # the same call on a CPU model
    got = call(gpu(_convnet()))
    for a, b in zip(torch.utils._pytree.tree_leaves(got), torch.utils._pytree.tree_leaves(ref)):
        if isinstance(b, torch.Tensor):
            torch.testing.assert_close(_cpu(a), b, **tol)
        else:
            assert a == pytest.approx(b, rel=tol["rtol"], abs=tol["atol"])


@pytest.mark.parametrize("name,call", [
    ("intermediate_grid", lambda m: plot.intermediate_grid(metrics.intermediate_maps(m, X[:2], kinds=("svd", "most_correlated", "random")))),
    ("upper_layers_grid", lambda m: plot.upper_layers_grid(X[:2], metrics.upper_layer_maps([("net", m, 2)], X[:2]))),
    ("layer_maps_side_by_side", lambda m: plot.layer_maps_side_by_side(metrics.layer_maps({"a": m}, X[:2]))),
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
def test_training_on_the_gpu_gives_the_cpus_weights(gpu, on_cpu, tol, kw):
    """fit moves a CPU-built model to the device itself, as in the notebooks."""
    x = torch.rand(4, 1, 6, 6, generator=torch.Generator().manual_seed(1))
    make = lambda: build_model(functools.partial(models.convnet, 2, channels=3), seed=0)
    kw = {**dict(steps=30, lr=0.05, momentum=0.9 if "optimizer" not in kw else 0.0, progress=False), **kw}
    with on_cpu():
        ref = make()
        h_ref = train.fit(ref, x, **kw)
    net = make()
    h = train.fit(net, x, **kw)
    assert h.steps == h_ref.steps and h.stopped_at == h_ref.stopped_at
    torch.testing.assert_close(torch.tensor(h.loss), torch.tensor(h_ref.loss), **tol)
    for p, q in zip(net.parameters(), ref.parameters()):
        assert _is_on_gpu(p)
        torch.testing.assert_close(p.cpu(), q, **tol)


@pytest.mark.parametrize("device_stop", [False, True])
def test_batched_training_on_the_gpu(gpu, on_cpu, tol, device_stop):
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
            torch.testing.assert_close(torch.tensor(a.loss), torch.tensor(b.loss), **tol)
        for m, r in zip(on, ref):
            for p, q in zip(m.parameters(), r.parameters()):
                assert _is_on_gpu(p)
                torch.testing.assert_close(p.cpu(), q, **tol)


def test_the_cpu_flushes_denormals_in_the_session_thread_and_in_training_threads():
    """set_device's policy flushes denormals to zero on the CPU (x86 FTZ/DAZ: Adam's decayed second moments no
    longer crawl), also in a worker thread that calls thread_numerics (the bit is per thread); a thread that
    does not keeps them."""
    import threading
    if not torch.set_flush_denormal(True):
        pytest.skip("this CPU cannot flush denormals")
    torch.set_flush_denormal(False)
    tiny = torch.tensor([1e-39])                                  # a float32 denormal (made while kept)
    assert (tiny * 1.0).item() != 0.0                             # kept: the check below can fail
    runtime.set_device("cpu")
    assert (tiny * 1.0).item() == 0.0
    seen = {}

    def worker(call):
        torch.set_flush_denormal(False)                           # a thread whose state is not the session's
        if call:
            runtime.thread_numerics()
        seen[call] = (tiny * 1.0).item()

    for call in (True, False):
        t = threading.Thread(target=worker, args=(call,))
        t.start(), t.join()
    assert seen == {True: 0.0, False: pytest.approx(1e-39, rel=1e-3)}
    assert (tiny * 1.0).item() == 0.0                             # this thread is untouched


@pytest.mark.parametrize("pool_first", [False, True])
def test_provenance_says_which_threads_flush_denormals(pool_first):
    """numerics() measures it: intra-op threads started after set_device inherit the flush; a pool started
    before keeps denormals in its other threads, and provenance says so (fresh processes, 2 threads)."""
    import subprocess
    import sys
    code = ("import torch; torch.set_num_threads(2)\n"
            + ("(torch.ones(1 << 21) * 2).sum()\n" if pool_first else "")
            + "from memlib import runtime; runtime.set_device('cpu'); print(runtime.numerics()['cpu_denormals'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == ("kept by some intra-op threads" if pool_first else "flushed to zero")


# ---- on a real GPU only (`pytest --device cuda`) ---------------------------------------------------------

@pytest.mark.cuda_only
def test_numerical_policy_on_the_gpu_is_full_float32():
    """set_device("cuda") turns TF32 off: a convolution and a matrix product in float32 agree with float64 to
    float32 rounding (TF32's 10-bit mantissa errs ~1e-3), and a deep linear ConvNet passes check_linear."""
    runtime.set_device("cuda")
    assert runtime.numerics()["policy"] == runtime.NUMERICS
    g = torch.Generator().manual_seed(0)
    x, w = torch.randn(4, 32, 28, 28, generator=g), torch.randn(32, 32, 5, 5, generator=g)
    ref = torch.nn.functional.conv2d(x.double(), w.double(), padding=2)
    got = torch.nn.functional.conv2d(x.cuda(), w.cuda(), padding=2).cpu().double()
    assert ((got - ref).norm() / ref.norm()).item() < 1e-5
    a, b = torch.randn(512, 512, generator=g), torch.randn(512, 512, generator=g)
    assert (((a.cuda() @ b.cuda()).cpu().double() - a.double() @ b.double()).norm() / (a.double() @ b.double()).norm()).item() < 1e-5
    net = build_model(functools.partial(models.linear_conv_ae, 8, filters=16), seed=0).cuda()
    linalg.check_linear(net, (1, 16, 16))


@pytest.mark.cuda_only
@pytest.mark.parametrize("until", [None, 1e-3])
@pytest.mark.parametrize("n_models", [1, 4])
def test_graphed_training_on_the_gpu_equals_eager_and_replays(monkeypatch, until, n_models):
    """fit with its CUDA graph (replayed, losses read every SYNC_EVERY steps, until_loss on the device) gives
    the eager loop's stopping steps and, to rounding, its losses and weights."""
    from memlib import cuda_graph
    replays = []
    real_replay = cuda_graph.GraphedStep.__call__

    def counting(self):
        out = real_replay(self)
        replays.append(self.graph is not None)
        return out
    monkeypatch.setattr(cuda_graph.GraphedStep, "__call__", counting)
    runtime.set_device("cuda")
    x = torch.rand(1, 1, 28, 28, generator=torch.Generator().manual_seed(0))
    make = lambda: [build_model(functools.partial(models.convnet, 5, channels=8), seed=s) for s in range(n_models)]
    kw = dict(steps=600, lr=0.01, momentum=0.9, schedule="stagewise", clip_grad_norm=1.0, until_loss=until,
              progress=False)
    eager, graphed = make(), make()
    h_e = train.fit(eager if n_models > 1 else eager[0], x, cuda_graph=False, **kw)
    replays.clear()
    h_g = train.fit(graphed if n_models > 1 else graphed[0], x, **kw)
    assert sum(replays) > 400, f"the graph replayed {sum(replays)} of 600 steps"
    h_e, h_g = (h_e, h_g) if n_models > 1 else ([h_e], [h_g])
    for a, b in zip(h_e, h_g):
        assert a.steps == b.steps and a.stopped_at == b.stopped_at
        torch.testing.assert_close(torch.tensor(b.loss), torch.tensor(a.loss), rtol=1e-3, atol=1e-6)
    for m, r in zip(graphed, eager):
        for p, q in zip(m.parameters(), r.parameters()):
            torch.testing.assert_close(p, q, rtol=1e-3, atol=1e-5)


def test_set_device_turns_tf32_off_in_every_backend_by_name():
    """torch 2.11 on an H100 kept cuDNN's convolutions at "tf32" after the generic fp32_precision switch (session 17:
    notebook 03's linearity check failed there): set_device sets each backend's operations itself, and numerics()
    names a TF32 left on anywhere it reads."""
    b = torch.backends
    if not hasattr(b, "fp32_precision"):
        pytest.skip("torch < 2.9: the legacy allow_tf32 flags")
    b.cudnn.conv.fp32_precision = "tf32"
    b.cudnn.rnn.fp32_precision = "tf32"
    assert runtime.numerics()["policy"].startswith("NOT ")
    runtime.set_device("cpu")
    assert (b.cudnn.conv.fp32_precision, b.cudnn.rnn.fp32_precision, b.cuda.matmul.fp32_precision) == ("ieee",) * 3
    assert runtime.numerics()["policy"] == runtime.NUMERICS
