"""memlib.linalg against independent references: explicit convolution matrices, closed-form
spectra and Jacobians, and the dense spectral radius against the Arnoldi (JVP) one."""
import numpy as np
import pytest
import torch
from torch import nn

from memlib import linalg, models
from memlib.runtime import MemlibError


def conv_matrix_by_loops(weight, size, stride=1):
    """Reference: the matrix of a no-bias 3x3 conv (padding 1) written out entry by entry."""
    c_out, c_in, k, _ = weight.shape
    out = (size + 2 - k) // stride + 1
    A = torch.zeros(c_out * out * out, c_in * size * size, dtype=torch.float64)
    for o in range(c_out):
        for i in range(out):
            for j in range(out):
                row = (o * out + i) * out + j
                for c in range(c_in):
                    for a in range(k):
                        for b in range(k):
                            r, s = i * stride + a - 1, j * stride + b - 1
                            if 0 <= r < size and 0 <= s < size:
                                A[row, (c * size + r) * size + s] += weight[o, c, a, b].item()
    return A


@pytest.mark.parametrize("stride", [1, 2])
def test_operator_matrix_equals_explicit_conv_matrix(stride):
    torch.manual_seed(0)
    conv = nn.Conv2d(2, 3, 3, stride=stride, padding=1, bias=False)
    A = linalg.operator_matrix(conv, (2, 5, 5) if stride == 1 else (2, 6, 6))
    ref = conv_matrix_by_loops(conv.weight.detach(), 5 if stride == 1 else 6, stride)
    assert A.shape == ref.shape
    assert torch.allclose(A, ref, atol=1e-6)


def test_operator_matrix_reproduces_forward_and_is_batch_independent():
    torch.manual_seed(1)
    net = nn.Sequential(nn.Conv2d(3, 4, 3, stride=2, padding=1, bias=False), nn.Upsample(scale_factor=2),
                        nn.Conv2d(4, 3, 3, padding=1, bias=False))
    A = linalg.operator_matrix(net, (3, 4, 4), batch_size=7)
    assert torch.allclose(A, linalg.operator_matrix(net, (3, 4, 4), batch_size=1000), atol=1e-12)
    x = torch.randn(5, 3, 4, 4)
    with torch.no_grad():
        y = net(x).reshape(5, -1).double()
    assert torch.allclose(y, x.reshape(5, -1).double() @ A.T, atol=1e-5)


def test_operator_matrix_of_linear_layer_is_its_weight():
    lin = nn.Linear(6, 6, bias=False)
    assert torch.allclose(linalg.operator_matrix(lin, (6,)), lin.weight.detach().double(), atol=1e-7)


@pytest.mark.parametrize("net", [nn.Sequential(nn.Conv2d(1, 2, 3, padding=1, bias=False), nn.ReLU(),
                                               nn.Conv2d(2, 1, 3, padding=1, bias=False)),
                                 nn.Conv2d(1, 1, 3, padding=1, bias=True)])
def test_operator_matrix_rejects_nonlinear(net):
    if isinstance(net, nn.Conv2d):
        nn.init.constant_(net.bias, 0.3)
    with pytest.raises(ValueError, match="not linear"):
        linalg.operator_matrix(net, (1, 4, 4))


def test_spectrum_sorted_and_complex():
    # rotation by 90 degrees scaled by 2 (eigenvalues +-2i) and a diagonal block 0.5, -3
    A = torch.zeros(4, 4, dtype=torch.float64)
    A[:2, :2] = torch.tensor([[0.0, -2.0], [2.0, 0.0]])
    A[2, 2], A[3, 3] = 0.5, -3.0
    vals = linalg.spectrum(A)
    assert vals.dtype == torch.complex128
    assert np.allclose(vals.abs().numpy(), [3, 2, 2, 0.5])
    assert sorted(vals[1:3].imag.tolist()) == pytest.approx([-2, 2])


def test_eigenimages_of_projector_are_the_training_images():
    torch.manual_seed(2)
    x = torch.randn(2, 3, 4, 4)                    # two "training images"
    X = x.reshape(2, -1).double().T                # (48, 2)
    P = X @ torch.linalg.pinv(X)                   # projector onto span X: eigenvalues 1, 1, 0...
    vals, imgs = linalg.eigenimages(P, (3, 4, 4), k=3)
    assert imgs.shape == (3, 3, 4, 4)
    assert np.allclose(vals.abs().numpy(), [1, 1, 0], atol=1e-8)
    V = imgs[:2].reshape(2, -1).real.T             # top eigenvectors lie in span X
    resid = V - X @ torch.linalg.lstsq(X, V).solution
    assert resid.norm() < 1e-8
    assert linalg.numerical_rank(P) == 2 and linalg.span_dimension(x) == 2
    assert linalg.count_near(vals) == 2


def test_jacobian_closed_form():
    torch.manual_seed(3)
    W = torch.randn(5, 5)
    f = lambda v: torch.tanh(v @ W.T)              # batched (B, 5) -> (B, 5)
    x = torch.randn(5)
    ref = (1 - torch.tanh(W @ x) ** 2)[:, None] * W
    assert torch.allclose(linalg.jacobian(f, x), ref, atol=1e-6)


def test_spectral_radius_dense_agrees_with_arnoldi():
    torch.manual_seed(4)
    net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.Tanh(), nn.Conv2d(8, 3, 3, padding=1))
    x = torch.randn(3, 8, 8)                       # d = 192
    dense = linalg.spectral_radius(net, x, method="dense")
    arnoldi = linalg.spectral_radius(net, x, method="arnoldi")
    assert arnoldi == pytest.approx(dense, rel=1e-4)
    # and the dense path against the closed form for a linear map: largest |eigenvalue| of W
    lin = nn.Linear(6, 6, bias=False)
    ref = np.abs(np.linalg.eigvals(lin.weight.detach().double().numpy())).max()
    assert linalg.spectral_radius(lin, torch.randn(6)) == pytest.approx(ref, rel=1e-5)
    assert linalg.spectral_radius(lin, torch.randn(6), method="arnoldi") == pytest.approx(ref, rel=1e-4)


def test_the_factored_spectral_radius_of_a_narrowing_autoencoder_is_the_dense_one():
    """A net on flat vectors whose first layer narrows d = 100 inputs to w = 12 features: the radius from the (w, w)
    matrix W1 J_rest equals the largest |eigenvalue| of the full (d, d) Jacobian; and for a linear net, of the
    product of its weight matrices (closed form). A net that does not narrow (w >= d) is not factored."""
    torch.manual_seed(6)
    net = models.autoencoder_fcn(100, 4, width=12, activation="leaky_relu").eval()
    assert linalg.narrow_first_layer(net, 100) is not None
    for _ in range(3):
        x = torch.randn(1, 10, 10)
        dense = linalg.spectral_radius(net, x, method="dense")
        assert linalg.spectral_radius(net, x) == pytest.approx(dense, rel=1e-5)
        assert linalg.spectral_radius(net, x, method="factored") == pytest.approx(dense, rel=1e-5)
    lin = models.autoencoder_fcn(100, 3, width=12, activation="linear").eval()
    W = [m.weight.detach().double() for m in lin.modules() if isinstance(m, nn.Linear)]
    ref = np.abs(np.linalg.eigvals((W[2] @ W[1] @ W[0]).numpy())).max()
    assert linalg.spectral_radius(lin, torch.randn(100)) == pytest.approx(ref, rel=1e-5)
    wide = models.autoencoder_fcn(8, 3, width=16).eval()
    assert linalg.narrow_first_layer(wide, 8) is None
    with pytest.raises(ValueError, match="factored"):
        linalg.spectral_radius(wide, torch.randn(8), method="factored")


def test_operator_matrix_3x32x32_in_bounded_batches_matches_adjoint():
    """3x32x32 input (d = 3072): the basis goes through in batches of at most `batch_size`, without
    autograd; rows of A are checked against an independent computation (vector-Jacobian products)."""
    torch.manual_seed(5)
    net = nn.Sequential(nn.Conv2d(3, 2, 3, stride=2, padding=1, bias=False), nn.Upsample(scale_factor=2),
                        nn.Conv2d(2, 3, 3, padding=1, bias=False))
    seen = []

    def f(x):
        seen.append((len(x), torch.is_grad_enabled()))
        return net(x)

    A = linalg.operator_matrix(f, (3, 32, 32), batch_size=512, check=False)
    assert A.shape == (3072, 3072)
    assert max(n for n, _ in seen) <= 512 and not any(g for _, g in seen)
    x = torch.randn(1, 3, 32, 32, requires_grad=True)
    y = torch.randn(1, 3, 32, 32)
    (vjp,) = torch.autograd.grad((net(x) * y).sum(), x)            # A^T y by autograd
    assert torch.allclose(A.T @ y.reshape(-1).double(), vjp.reshape(-1).double(), atol=1e-5)
    assert torch.allclose(A @ x.detach().reshape(-1).double(), net(x).detach().reshape(-1).double(), atol=1e-5)


def test_span_residual_and_stored_images():
    torch.manual_seed(6)
    x = torch.randn(2, 1, 3, 3)
    inside = (0.3 * x[0] - 2 * x[1])[None]                         # (1, 1, 3, 3) in span X
    outside = torch.zeros(1, 1, 3, 3)
    outside[0, 0, 0, 0] = 1.0
    outside -= (x.reshape(2, -1).T @ torch.linalg.lstsq(x.reshape(2, -1).T, outside.reshape(9, 1)).solution).reshape(1, 1, 3, 3)
    r = linalg.span_residual(torch.cat([inside, outside]), x)
    assert r[0] < 1e-6 and abs(r[1] - 1) < 1e-6           # float32 images
    complex_v = torch.complex(inside, outside)                     # imaginary part outside span X
    assert 0.1 < linalg.span_residual(complex_v, x)[0] < 1
    X = x.reshape(2, -1).double().T
    P = X @ torch.linalg.pinv(X)                                   # projector: stores both images
    vals, imgs = linalg.eigenimages(P, (1, 3, 3))
    assert linalg.stored_images(vals, imgs, x) == 2
    assert linalg.stored_images(vals * 1.2, imgs, x) == 0         # eigenvalues 1.2: not "1"


def test_jacobian_of_a_plain_function_keeps_the_points_dtype():
    """A float64 point through a plain function: the Jacobian in float64 (f(x) = x^2 elementwise: 2x on
    the diagonal, exactly; float32 would round 0.1 + 1e-9)."""
    from memlib import linalg
    x = torch.tensor([[0.1 + 1e-9, 0.3]], dtype=torch.float64)
    J = linalg.jacobian(lambda v: v ** 2, x)
    assert J.dtype == torch.float64
    torch.testing.assert_close(J, torch.diag(2 * x.reshape(-1)), rtol=0, atol=1e-15)
    assert linalg.spectral_radius(lambda v: v ** 2, x) == pytest.approx(0.6, abs=1e-15)


def test_operator_eigenvalues_of_a_projection_are_ones_then_zeros():
    # f(x) = u uᵀ x for a unit image u (a rank-1 projection, 'memorizing' u): |eigenvalues| 1, then 0
    u = torch.randn(1, 3, 3, generator=torch.Generator().manual_seed(0))
    u = u / u.norm()
    f = lambda x: (x.flatten(1) @ u.flatten()).reshape(-1, 1, 1, 1) * u          # noqa: E731
    eig = linalg.operator_eigenvalues(f, (1, 3, 3))
    assert eig.shape == (9,) and abs(eig[0].item() - 1) < 1e-6 and eig[1:].max().item() < 1e-6   # float32 operator


def test_memorization_spectrum_reads_the_images_eigenvalues_as_those_nearest_one():
    """Paper 2, Tables 1-2: a fitted net has eigenvalue 1 for each image; an eigenvalue above 1 elsewhere belongs to
    the rest (not memorized), and is not mistaken for the image's (the top-by-magnitude reading did)."""
    assert linalg.memorization_spectrum(torch.tensor([2.36, 1.0, 0.1]), 1) == pytest.approx((0.0, 2.36))
    assert linalg.memorization_spectrum(torch.tensor([0.5, 1.0, 0.98, 1.0]), 2) == pytest.approx((0.0, 0.98))
    assert linalg.memorization_spectrum([1.01, 0.003, -0.002], 1) == pytest.approx((0.01, 0.003))
    # a real operator: A = x x^T / |x|^2 + 2 P (P projects on a direction orthogonal to x): eigenvalues 1, 2, 0, 0
    x = torch.tensor([1.0, 2.0, 0.0, 0.0], dtype=torch.float64)
    p = torch.tensor([0.0, 0.0, 1.0, 0.0], dtype=torch.float64)
    A = torch.outer(x, x) / x.dot(x) + 2 * torch.outer(p, p)
    torch.testing.assert_close(A @ x, x)
    top, rest = linalg.memorization_spectrum(linalg.spectrum(A).abs(), 1)
    assert top == pytest.approx(0.0, abs=1e-12) and rest == pytest.approx(2.0)
    with pytest.raises(MemlibError):
        linalg.memorization_spectrum([1.0, 0.5], 2)
