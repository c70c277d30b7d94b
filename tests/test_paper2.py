"""Paper 2's builders and theorems at toy scale, against closed forms."""
import torch

from memlib import fit, linalg, models


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
