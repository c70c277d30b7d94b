"""Paper 2's builders and theorems at toy scale, against closed forms."""
import warnings

import pytest
import torch

from memlib import dynamics, fit, linalg, metrics, models, pearson


def test_autoencoder_fcn_layers():
    net = models.autoencoder_fcn(2, 10, width=8)
    assert len(models.weight_layers(net)) == 10
    assert net(torch.zeros(3, 2)).shape == (3, 2)


def test_theorem1_min_norm_solution():
    """sigmoid(A x) from A = 0 by gradient descent -> min-norm solution of A x_i = logit(x_i)."""
    g = torch.Generator().manual_seed(0)
    x = 0.05 + 0.4 * torch.rand(2, 6, generator=g)                   # (n, d), below sigmoid(0)
    net = models.single_layer_ae(6)
    assert net.net[0].weight.abs().max() == 0
    fit(net, x, steps=3000, lr=60.0, progress=False)
    A = net.net[0].weight.detach().double()
    A_star = (torch.linalg.pinv(x.double()) @ torch.logit(x.double())).T
    assert (A - A_star).norm() / A_star.norm() < 1e-3
    assert linalg.numerical_rank(A, rtol=1e-3) == 2


def test_theorem3_min_norm_w2_and_eigenvalue():
    """With W1 fixed and W2 from 0, W2 = x phi^T / ||phi||^2 and the Jacobian at x is rank one
    whose spectral radius matches the dense closed-form Jacobian W2 diag(relu') W1."""
    torch.manual_seed(0)
    d, k = 5, 64
    net = models.two_layer_fixed_ae(d, k)
    x = torch.randn(1, d)
    phi = net.net[:2](x).detach()                                      # (1, k)
    fit(net, x, steps=30, lr=0.5 * d / phi.pow(2).sum().item(), parameters=["net.2.weight"], progress=False)
    W2 = x.T @ phi / phi.pow(2).sum()                                  # (d, k) min-norm solution
    torch.testing.assert_close(net.net[2].weight.detach(), W2, rtol=1e-4, atol=1e-6)
    W1 = net.net[0].weight.detach()
    J = W2 @ torch.diag((phi[0] > 0).float()) @ W1                     # (d, d)
    assert abs(linalg.spectral_radius(net, x[0]) - torch.linalg.eigvals(J).abs().max().item()) < 1e-4


# paper 2, Tables 1-2: (convolutions, filters) -> the "# of Params" column
PAPER_PARAMS = {(3, 1): 27, (3, 16): 2592, (3, 128): 149760, (5, 1): 45, (5, 16): 7200, (5, 128): 444672,
                (8, 1): 72, (8, 16): 14112, (8, 128): 887040, (9, 1): 81, (29, 1): 261, (70, 1): 630, (10, 1): 90}


def test_linear_conv_ae_parameter_counts_match_the_paper():
    for (convs, filters), params in PAPER_PARAMS.items():
        assert models.count_parameters(models.linear_conv_ae(convs, filters)) == params


def test_linear_conv_ae_operator_is_the_convolution_matrix():
    """One 3x3 convolution with zero padding on a 3x3 image, as a 9x9 matrix built by hand."""
    net = models.linear_conv_ae(1, init_std=1.0)
    k = net.convs[0].weight.detach()[0, 0].double()                    # (3, 3)
    A = torch.zeros(9, 9, dtype=torch.float64)
    for r in range(3):
        for c in range(3):
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if 0 <= r + dr < 3 and 0 <= c + dc < 3:
                        A[3 * r + c, 3 * (r + dr) + (c + dc)] = k[dr + 1, dc + 1]
    torch.testing.assert_close(linalg.operator_matrix(net, (1, 3, 3)), A)
    # Theorem 5: one 3x3 layer on a 3x3 image forces zeros (corner to opposite corner)
    assert A[0, 8] == 0


@pytest.mark.filterwarnings("ignore:TF32 acceleration")
def test_small_conv2d_is_pytorchs_own_kernel_outside_transforms():
    """models.small_conv2d: on a CPU the native kernel (what conv2d computes with oneDNN off), bit for bit, for
    strided and padded convolutions with and without bias; inside vmap and jvp (which it has no rule for) and
    for what it does not cover, exactly conv(x)."""
    g = torch.Generator().manual_seed(0)
    x = torch.randn(3, 2, 5, 5, generator=g)
    for conv in (torch.nn.Conv2d(2, 4, 3, padding=1, bias=False), torch.nn.Conv2d(2, 3, 3, stride=2, padding=1),
                 torch.nn.Conv2d(2, 2, 1)):
        with torch.backends.mkldnn.flags(enabled=False):
            native = conv(x)
        assert torch.equal(models.small_conv2d(x, conv), native)
    net = models.linear_conv_ae(2, 2, in_channels=2)
    conv = net.convs[0]
    params = {k: torch.stack([v.detach(), 2 * v.detach()]) for k, v in net.named_parameters()}
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # the native kernel under vmap would warn (no batching rule)
        batched = torch.func.vmap(lambda p: torch.func.functional_call(net, p, (x,)))(params)   # (2, 3, 2, 5, 5)
    torch.testing.assert_close(batched[1], 4 * batched[0])
    _, tangent = torch.func.jvp(lambda v: models.small_conv2d(v, conv), (x,), (torch.ones_like(x),))
    torch.testing.assert_close(tangent, conv(torch.ones_like(x)) - conv(torch.zeros_like(x)))
    grouped = torch.nn.Conv2d(2, 2, 3, padding=1, groups=2)
    assert torch.equal(models.small_conv2d(x, grouped), grouped(x))


@pytest.mark.filterwarnings("ignore:TF32 acceleration")
def test_linear_conv_ae_trains_on_the_native_kernel(monkeypatch):
    """A Table 1 net trained 30 steps equals, bit for bit, the same training with oneDNN switched off (the kernel
    small_conv2d picks on a CPU); where oneDNN is there, its own arithmetic (conv(x) with oneDNN on) differs, so
    the equality says which kernel trained the net."""
    x = torch.randn(2, 1, 3, 3, generator=torch.Generator().manual_seed(1))

    def trained(mkldnn: bool) -> torch.Tensor:
        torch.manual_seed(0)
        net = models.linear_conv_ae(5, 16, init_std=0.2)
        with torch.backends.mkldnn.flags(enabled=mkldnn):
            fit(net, x, steps=30, lr=0.05, progress=False)
        return torch.cat([p.detach().flatten() for p in net.parameters()])

    memlib_weights, native = trained(True), trained(False)
    assert torch.equal(memlib_weights, native)
    if torch.backends.mkldnn.is_available():
        monkeypatch.setattr(models, "small_conv2d", lambda x_, conv: conv(x_))
        assert not torch.equal(trained(True), native)


def test_linear_conv_ae_skip_connections_and_init():
    torch.manual_seed(0)
    net = models.linear_conv_ae(4, 2, skip_every=2, init_std=0.1)
    x = torch.randn(3, 1, 4, 4)
    c = net.convs                          # blocks 1 -> 2 -> 2 and 2 -> 2 -> 1: shapes differ, no skips
    torch.testing.assert_close(net(x), c[3](c[2](c[1](c[0](x)))))
    same = models.linear_conv_ae(5, 1, skip_every=2)
    y = same.convs[1](same.convs[0](x)) + x
    y = same.convs[3](same.convs[2](y)) + y
    torch.testing.assert_close(same(x), same.convs[4](y))
    big = models.linear_conv_ae(3, 64, init_std=0.1)
    assert abs(big.convs[1].weight.std().item() - 0.1 / 8) < 2e-3      # N(0, std^2 / c_in)
    with pytest.raises(ValueError):
        linalg.operator_matrix(torch.nn.Sequential(models.linear_conv_ae(2), torch.nn.ReLU()), (1, 3, 3))


def test_trajectory_grid_rows_and_columns():
    import matplotlib
    matplotlib.use("Agg")
    from memlib import plot
    train = torch.eye(4).reshape(4, 1, 2, 2)
    fig = plot.trajectory_grid(lambda x: 0.5 * x + 0.5 * train[:1], train, torch.rand(2, 1, 2, 2), [0, 3, 1])
    assert len(fig.axes) == 2 * 4                                      # 2 starts x (3 iterates + NN)
    assert fig.axes[2].get_title() == "t=3" and fig.axes[3].get_title() == "NN train"


def test_single_filter_conv_ae_follows_fig9_and_fig10():
    fig9 = models.single_filter_conv_ae(29)                            # paper 2, Fig 9
    assert models.count_parameters(fig9) == 29 * 9
    assert all((c.weight == 0.1).all() for c in fig9.convs)
    assert isinstance(fig9.act, torch.nn.LeakyReLU)
    x = torch.full((1, 1, 4, 4), -1.0)
    assert fig9(x).shape == x.shape
    fig10 = models.single_filter_conv_ae(5, init="xavier_uniform", skip_every=2)   # paper 2, Fig 10
    assert fig10.skip_every == 2 and fig10.convs[0].weight.std() > 0


def test_fig12_kaiming_init_gives_larger_output_norm_than_xavier():
    """Paper 2, App. I.2 / Fig 12: per layer Kaiming's weight variance is 2 / fan_in, Xavier's
    2 / (fan_in + fan_out) (half of it for square layers), so over the nonlinear D_{a,b}'s seven
    convolutions the output norm at initialization is several times larger under Kaiming."""
    import functools
    import statistics
    from memlib.harness.store import build_model
    x = torch.rand(1, 3, 16, 16, generator=torch.Generator().manual_seed(0))
    med = {}
    for scheme in ("xavier_uniform", "xavier_normal", "kaiming_uniform", "kaiming_normal"):
        with torch.no_grad():
            med[scheme] = statistics.median(
                build_model(functools.partial(models.conv_autoencoder, 4, 12, nonlinear=True), seed=s, init=scheme)(x).norm().item()
                for s in range(7))
    assert min(med["kaiming_uniform"], med["kaiming_normal"]) > 3 * max(med["xavier_uniform"], med["xavier_normal"])


def test_low_rank_spectrum_matches_the_full_eigendecomposition():
    g = torch.Generator().manual_seed(0)
    a = torch.randn(60, 5, generator=g, dtype=torch.float64) @ torch.randn(5, 60, generator=g, dtype=torch.float64)
    full = linalg.spectrum(a)
    fast = linalg.low_rank_spectrum(a, 8)                              # rank bound above the true rank
    assert fast.shape == full.shape
    assert torch.allclose(fast.abs()[:5], full.abs()[:5], rtol=1e-8)
    assert fast.abs()[5:].max() < 1e-9 and full.abs()[5:].max() < 1e-9


def test_downsampling_d1_reaches_1x1_and_is_linear():
    net = models.downsampling_d1(channels=4, size=8)                   # paper 2, Fig 7a, small
    x = torch.randn(2, 3, 8, 8)
    h = net[:3](x)                                                     # after log2(8) = 3 stride-2 convs
    assert h.shape == (2, 4, 1, 1) and net(x).shape == x.shape
    A = linalg.operator_matrix(net, (3, 8, 8))                         # raises unless linear
    assert linalg.numerical_rank(A, rtol=1e-5) <= 4                    # through a 4-unit bottleneck
    nl = models.downsampling_d1(channels=4, size=8, nonlinear=True)
    assert sum(isinstance(m, torch.nn.LeakyReLU) for m in nl) == 6
    with pytest.raises(ValueError):
        models.downsampling_d1(size=12)


def test_downsampling_d2_constant_init_and_4x4_representation():
    net = models.downsampling_d2(layers=29, channels=2)                # paper 2, Fig 8a
    assert len(models.weight_layers(net)) == 29
    assert all((m.weight == 1.8e-3).all() for m in models.weight_layers(net))
    x = torch.randn(1, 3, 32, 32)
    assert net[0](x).shape == (1, 2, 4, 4) and net(x).shape == x.shape


def test_downsampling_d2_equal_channels_stay_equal_unless_jittered():
    """Why Fig 8's D2 jitters its constant init: with every weight equal, every channel receives the same gradient,
    so after any number of steps the channels are still equal (the net acts as one channel); a 1 % jitter breaks it."""
    from memlib.train import fit
    x = torch.randn(1, 3, 32, 32, generator=torch.Generator().manual_seed(0))
    for jitter, equal in ((0.0, True), (0.01, False)):
        torch.manual_seed(0)
        net = models.downsampling_d2(layers=4, channels=3, jitter=jitter)
        w0 = net[0].weight.detach().clone()
        assert torch.allclose(w0, torch.full_like(w0, 1.8e-3), rtol=0.1, atol=0)   # within 10 % of the paper's value
        fit(net, x, steps=20, lr=1e-3, optimizer="adam", progress=False)
        w = net[1].weight.detach()                                   # (c_out, c_in, 3, 3) of a 4x4 layer
        gap = max((w[0] - w[1]).abs().max().item(), (w[:, 0] - w[:, 2]).abs().max().item())
        # equal to float32's rounding (bit for bit on the Xeon; on an AMD EPYC with AVX2 the kernels sum the channels
        # in another order, session 16), against the jitter's gap, orders of magnitude larger
        assert (gap < 1e-7) == equal and (gap > 1e-6) == (not equal), gap


def test_linear_conv_ae_constant_init_value():
    net = models.linear_conv_ae(3, 1, init_value=0.01)                 # paper 2, Table 2: every weight = c
    assert all((c.weight == 0.01).all() for c in net.convs)
    x = torch.randn(1, 1, 2, 2)
    # on a 2x2 image a 3x3 kernel with padding 1 sees every pixel: each layer maps x to c * sum(x) everywhere
    expected = 0.01 * (4 * 0.01) * (4 * 0.01) * x.sum() * torch.ones_like(x)
    torch.testing.assert_close(net(x), expected)
    with pytest.raises(ValueError):
        models.linear_conv_ae(3, init_std=0.1, init_value=0.1)


def test_nearest_train_corr_uses_the_euclidean_nearest_example():
    from memlib import metrics
    train = torch.tensor([[1.0, 0.0, 0.0], [0.0, 0.0, 5.0]])
    points = torch.tensor([[2.0, 0.0, 0.1], [0.0, 0.1, 4.0]])          # nearest: example 0, example 1
    expected = torch.stack([metrics.correlation(points[:1], train[:1])[0],
                            metrics.correlation(points[1:], train[1:])[0]])
    torch.testing.assert_close(metrics.nearest_train_corr(points, train), expected)


def test_fig9_scores_an_input_whose_float32_output_underflows_by_what_the_net_computes():
    """Issue 42 (bug): notebook 02 scored Fig 9's outputs with float32 `metrics.correlation`, and an input whose signal
    turns negative early leaves the 29 LeakyReLU(0.01) layers as exactly 0 (0.01^29 = 1e-58 underflows float32), a
    constant scored 0. The net has no biases, so it is positively homogeneous: for s >= 0, f(-s) = -(0.01^29) f(s),
    and |corr(f(-s), x)| = |corr(f(s), x)|. `dynamics.best_abs_corr` (float64) gives -s the score of s."""
    net = models.single_filter_conv_ae(29)                             # Fig 9: every weight 0.1
    x = torch.zeros(1, 1, 4, 4)
    x[..., :2, :2] = 1.0
    s = torch.rand(3, 1, 4, 4, generator=torch.Generator().manual_seed(0)) + 0.1    # positive inputs
    with torch.no_grad():
        assert torch.all(net(-s) == 0)                                 # the float32 underflow itself
        assert torch.all(metrics.correlation(net(-s), x) == 0)          # what the notebook's score was
    score = dynamics.best_abs_corr(net, torch.cat([s, -s]), x)         # (6,)
    import copy
    twin = copy.deepcopy(net).double()                                  # the reference: f(s) in float64, by hand
    with torch.no_grad():
        out = twin(s.double()).reshape(3, -1)
    ref = torch.stack([torch.corrcoef(torch.stack([o, x.double().reshape(-1)]))[0, 1].abs() for o in out])
    torch.testing.assert_close(score[:3].double(), ref, rtol=1e-4, atol=0)
    assert not torch.isnan(score).any()
    torch.testing.assert_close(score[3:], score[:3])                    # -s scored as s, not as a constant
    assert net.convs[0].weight.dtype == torch.float32                  # the net itself is left in float32


def test_correlation_of_a_constant_sample_is_0_or_what_the_caller_asks():
    a, b = torch.ones(2, 5), torch.randn(2, 5)
    assert torch.all(metrics.correlation(a, b) == 0)
    assert torch.all(torch.isnan(pearson.correlation(a, b, undefined=float("nan"))))


def _table2_jobs(rows, seeds):
    """Notebook 02's Table 2 training sets as its cell builds them: the cell's `x_tab2` and `tab2_jobs` statements,
    executed on `rows` (the recipe's T2_ROWS) and `seeds`, nothing trained."""
    import ast
    import functools
    import json
    from pathlib import Path

    from memlib.harness import estimate
    nb = json.loads((Path(__file__).resolve().parents[1] / "notebooks" / "02_attractors.ipynb").read_text())
    cell = next(s for s in ("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
                if "tab2_jobs = " in s)
    wanted = [n for n in ast.parse(cell).body
              if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) in ("x_tab2", "tab2_jobs")]
    assert [ast.unparse(n.targets[0]) for n in wanted] == ["x_tab2", "tab2_jobs"]
    space = dict(torch=torch, functools=functools, estimate=estimate, models=models, T2_ROWS=rows,
                 TAB_SEEDS=seeds, TAB_STEPS=10, TAB_UNTIL=1e-7,
                 TAB_OPT={"gd": dict(optimizer="sgd", lr=0.05), "adam": dict(optimizer="adam", lr=1e-4)})
    exec(compile(ast.Module(body=wanted, type_ignores=[]), "02_attractors.ipynb", "exec"), space)
    return space["tab2_jobs"]


@pytest.mark.parametrize("profile", ["quick", "paper"])
def test_table2_each_row_trains_on_its_own_number_of_images(profile):
    """Table 2 has two 3x3 rows, one example (9 layers) and three examples (10 layers). The one-example net must
    train on one image: its spectrum is read as "one eigenvalue 1, the rest small" (table2.s3.n1.*, the sanity
    claim p2.table2_one_eigenvalue), which a net fitted to three images does not have."""
    from memlib.recipes import paper2 as recipe
    rows, seeds = recipe.T2_ROWS[profile], [1, 2, 3]
    jobs = _table2_jobs(rows, seeds)
    assert set(jobs) == {(s_, n_, s) for s_, n_, *_ in rows for s in seeds}
    for (s_, n_, s), job in jobs.items():
        assert tuple(job.x.shape) == (n_, 1, s_, s_), f"Table 2 row {s_}x{s_} with {n_} example(s), seed {s}"
    for s in seeds:
        one, three = jobs[3, 1, s].x, jobs[3, 3, s].x
        assert one.shape[0] == 1 and three.shape[0] == 3
