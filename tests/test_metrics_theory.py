
import numpy as np
import torch

from memlib import data, metrics, models, theory
from memlib.train import fit


def test_correlation_matches_numpy():
    g = torch.Generator().manual_seed(0)
    a, b = torch.randn(7, 3, 5, 5, generator=g), torch.randn(7, 3, 5, 5, generator=g)
    b[3] = 2 * a[3] + 1                                          # perfectly correlated
    got = metrics.correlation(a, b).numpy()
    ref = [np.corrcoef(a[i].reshape(-1).numpy(), b[i].reshape(-1).numpy())[0, 1] for i in range(7)]
    np.testing.assert_allclose(got, ref, atol=1e-6)
    assert abs(got[3] - 1) < 1e-6
    one = metrics.correlation(a, b[:1])                            # broadcast one reference image
    np.testing.assert_allclose(one[2].item(), np.corrcoef(a[2].reshape(-1), b[0].reshape(-1))[0, 1], atol=1e-6)
    assert metrics.correlation(torch.ones(1, 4), torch.arange(4.0)[None]).item() == 0.0


def test_identity_constant_scores_on_exact_maps():
    x = data.standardize(data.training_digit()[0])
    probes = data.correlated_probes(x, 0.0, 8)
    ident = models.fcn(784, 0, bias=False)
    with torch.no_grad():
        ident.net[0].weight.copy_(torch.eye(784))
    s = metrics.identity_constant_scores(ident, probes, x)
    assert s["corr_identity"] > 0.9999 and abs(s["corr_constant"]) < 1e-5 and s["mse_identity"] < 1e-10


def test_eq1_closed_form_matches_a_trained_one_layer_linear_net():
    """Paper 1, eq. 1: gradient descent from W0 converges to the closed form (App. D)."""
    x = data.standardize(data.training_digit(size=14)[0])         # d = 196 keeps the test fast
    torch.manual_seed(1)
    net = models.fcn(196, 0, bias=False)
    w0 = net.net[0].weight.detach().clone()
    hist = fit(net, x, steps=400, lr=0.05, momentum=0.9, progress=False)
    assert hist.final_loss < 1e-10
    test = torch.cat([data.correlated_probes(x, r, 4, seed=5) for r in (0.0, 0.5, 0.9)])
    with torch.no_grad():
        trained = net(test).reshape(len(test), -1)
    closed = theory.one_layer_solution(w0, x, test)
    err = (trained - closed).norm() / closed.norm()
    assert err < 1e-4
    # and the closed form is not trivially the identity or W0 alone
    assert (closed - test.reshape(len(test), -1)).norm() / closed.norm() > 0.1
    assert (closed - test.reshape(len(test), -1) @ w0.T).norm() / closed.norm() > 0.1
