"""memlib.dynamics and metrics.recovery_probability against closed forms and brute force."""
import pytest
import torch

from memlib import dynamics, metrics
from memlib.runtime import MemlibError


def halve(x):
    return 0.5 * x                                   # contraction to 0: x_t = 0.5^t x0


def test_iterate_matches_closed_form_and_record():
    x0 = torch.randn(5, 3)
    full = dynamics.iterate(halve, x0, 6)
    assert full.shape == (7, 5, 3)
    for t in range(7):
        torch.testing.assert_close(full[t], x0 * 0.5 ** t)
    kept = dynamics.iterate(halve, x0, 6, record=[6, 0, 3])
    torch.testing.assert_close(kept, full[[0, 3, 6]])
    with pytest.raises(MemlibError):
        dynamics.iterate(halve, x0, 2, record=[5])


def test_iterate_batches_like_one_batch():
    lin = torch.nn.Linear(4, 4)
    x0 = torch.randn(10, 4)
    torch.testing.assert_close(dynamics.iterate(lin, x0, 3, batch_size=3), dynamics.iterate(lin, x0, 3))


def test_nearest_brute_force():
    g = torch.Generator().manual_seed(0)
    train, x = torch.randn(7, 2, 3, generator=g), torch.randn(9, 2, 3, generator=g)
    idx, dist = dynamics.nearest(x, train)
    for i in range(len(x)):
        d = [(x[i] - t).norm().item() for t in train]
        assert idx[i].item() == min(range(len(d)), key=d.__getitem__)
        assert abs(dist[i].item() - min(d)) < 1e-5
    with pytest.raises(MemlibError):
        dynamics.nearest(torch.zeros(2, 5), torch.zeros(3, 4))


def test_recovery_probability_two_attractors():
    # f pulls every point halfway to the nearer of two attractors at -1 and +1
    train = torch.tensor([[-1.0], [1.0], [5.0]])     # 5 is never reached
    def f(x):
        return x + 0.5 * (torch.sign(x) - x)
    starts = torch.tensor([[0.3], [0.9]])            # both in the basin of +1
    r = metrics.recovery_probability(f, train, starts, steps=10, eps=0.05)
    # distance to +1 after t steps: 0.7 * 0.5^t from the start at 0.3, 0.1 * 0.5^t from 0.9
    expected = torch.tensor([(0.1 * 0.5 ** t < 0.05) / 3 for t in range(11)], dtype=torch.float32)
    torch.testing.assert_close(r, expected)
    torch.testing.assert_close(metrics.recovery_probability(f, train, starts, steps=[10, 0], eps=0.05),
                               expected[[10, 0]])
    starts2 = torch.tensor([[-0.2], [0.9]])
    assert metrics.recovery_probability(f, train, starts2, steps=[20], eps=1e-3).item() == pytest.approx(2 / 3)


def test_jacobian_radii_linear_map():
    A = torch.diag(torch.tensor([0.5, -2.0, 0.1]))
    lin = torch.nn.Linear(3, 3, bias=True)
    with torch.no_grad():
        lin.weight.copy_(A)
    r = dynamics.jacobian_radii(lin, torch.randn(4, 3))
    torch.testing.assert_close(r, torch.full((4,), 2.0, dtype=r.dtype))


def test_attractor_measures_closed_form():
    """A map that halves the distance to the nearest training point: every training point is a
    fixed point with Jacobian 0.5 I, and a start at distance r is within eps after t steps iff
    r / 2^t < eps (eps = 0.1 x the 10 between the two training points = 1)."""
    train = torch.tensor([[0.0, 0.0], [10.0, 0.0]])

    def halve_to_nearest(x, shift=0.0):
        flat = x.reshape(-1, 2)
        c = train[torch.cdist(flat.detach(), train).argmin(dim=1)]    # (N, 2), piecewise constant
        return (c + 0.5 * (flat - c) + shift).reshape(x.shape)

    starts = torch.tensor([[0.5, 0.0], [0.0, 1.5], [-3.0, 0.0], [17.0, 0.0]])   # r = 0.5, 1.5, 3, 7
    measures, radii = dynamics.attractor_measures(halve_to_nearest, train, starts, [3, 0, 1, 2])
    assert measures["eps"] == pytest.approx(1.0)
    assert measures["train_max_dist"] == 0.0
    assert [measures[f"iter{t}.converged_fraction"] for t in range(4)] == [0.25, 0.5, 0.75, 1.0]
    assert measures["last.converged_fraction"] == 1.0
    torch.testing.assert_close(radii, torch.full((2,), 0.5, dtype=radii.dtype))
    shifted, _ = dynamics.attractor_measures(lambda x: halve_to_nearest(x, shift=0.3), train, starts, [1])
    assert shifted["train_max_dist"] == pytest.approx(0.3 * 2 ** 0.5, rel=1e-5)


def test_attractor_band_measures_one_value_per_net():
    """A band of two maps, one halving and one keeping 0.9 of the distance to the nearest training point: one value
    per net for every measure, Theorem 2's radii 0.5 and 0.9 (attractor fraction 1 for both; the 0.9 map's median
    radius 0.9), EPS once, and the radii of both nets concatenated."""
    train = torch.tensor([[0.0, 0.0], [10.0, 0.0]])

    def contract(rate):
        def f(x):
            flat = x.reshape(-1, 2)
            c = train[torch.cdist(flat.detach(), train).argmin(dim=1)]
            return (c + rate * (flat - c)).reshape(x.shape)
        return f

    starts = torch.tensor([[0.5, 0.0], [0.0, 1.5], [-3.0, 0.0], [17.0, 0.0]])   # r = 0.5, 1.5, 3, 7
    band, radii = dynamics.attractor_band_measures("figX", [contract(0.5), contract(0.9)], train, starts, [0, 1])
    assert band["figX.eps"] == pytest.approx(1.0)
    assert band["figX.iter1.converged_fraction"] == [0.5, 0.25]      # 0.9 x 1.5 = 1.35 > eps
    assert band["figX.last.converged_fraction"] == band["figX.iter1.converged_fraction"]
    assert band["thm2.figX.attractor_fraction"] == [1.0, 1.0]
    assert band["thm2.figX.median_radius"] == pytest.approx([0.5, 0.9], rel=1e-5)
    assert radii.shape == (4,) and radii[2:].min().item() == pytest.approx(0.9, rel=1e-5)
    assert "figX.thm2.attractor_fraction" not in band and band["figX.train_max_dist"] == [0.0, 0.0]


def test_nearest_corr_medians_agrees_with_metrics():
    """Fig 5's per-seed numbers: the medians of `metrics.nearest_train_corr` after one application and after the
    last iteration, as the notebook computed them before its seed band."""
    from memlib import metrics
    torch.manual_seed(0)
    train, starts = torch.rand(5, 3, 4, 4), torch.rand(7, 3, 4, 4)
    f = torch.nn.Sequential(torch.nn.Conv2d(3, 3, 3, padding=1), torch.nn.LeakyReLU())
    once, last = dynamics.iterate(f, starts, 4, record=[1, 4])
    want = tuple(metrics.nearest_train_corr(p, train).median().item() for p in (once, last))
    assert dynamics.nearest_corr_medians(f, starts, train, 4) == want
    one = dynamics.nearest_corr_medians(f, starts, train, 1)
    assert one[0] == one[1] == want[0]


def test_table1_summary_against_the_tables_numbers_read_by_hand():
    from memlib.dynamics import table1_summary
    depths, filters = [2, 5, 8], [1, 16]
    # seed 0: falls with depth at both filter counts; seed 1: rises at filter count 16
    eig3 = {(2, 1): [0.9, 0.9], (5, 1): [0.5, 0.5], (8, 1): [0.1, 0.1],
            (2, 16): [0.8, 0.1], (5, 16): [0.4, 0.5], (8, 16): [0.2, 0.8]}
    untrained = {k: [0.3, 0.3] for k in eig3}                     # every value tied: no order
    loss = {k: [1e-7, 2e-7] for k in eig3}
    m = table1_summary(eig3, untrained, loss, depths, filters)
    assert m["table1.depth_order_fraction"] == [1.0, 0.5]
    assert m["table1.depth_order_fraction.untrained"] == [0.0, 0.0]
    assert m["table1.f16.depth_order"][1] == pytest.approx(1.0)
    assert m["table1.max_filter_spread"] == pytest.approx([0.1, 0.8])    # seed 1 at 2 layers: 0.9 - 0.1
    assert m["table1.max_depth_spread"] == pytest.approx([0.8, 0.8])
    assert m["table1.min_eig3"] == [0.1, 0.1] and m["table1.max_final_loss"] == [1e-7, 2e-7]
    assert m["table1.L5.f16.eig3"] == [0.4, 0.5]
