"""Linear algebra of trained networks: the matrix of a linear CNN, its spectrum, Jacobians.

Paper 3 (Sec. 4, App. B) reads a linear convolutional autoencoder as one matrix `A_X` with
`A_X @ x.flatten() == f(x).flatten()` and studies its eigenvalues and eigenvectors; paper 2
(Theorem 2) tests whether a training example is an attractor through the largest eigenvalue of the
Jacobian there. Instead of the paper's layer-by-layer construction (Algorithms 1-2), the matrix is
obtained by pushing the identity basis through the network in batches under `torch.no_grad`,
which works for any linear network and keeps memory bounded.

Conventions: a network `f` is called on batches `(B, *input_shape)`; a point `x` handed to
`jacobian` / `spectral_radius` is ONE input of shape `input_shape` (no batch dimension).
"""
from __future__ import annotations

import math

import numpy as np
import torch

from .models import Flat
from .runtime import MemlibError, get_device


def _device_of(f) -> torch.device:
    params = list(f.parameters()) if isinstance(f, torch.nn.Module) else []
    return params[0].device if params else get_device()


def _dtype_of(f, x: torch.Tensor | None = None) -> torch.dtype:
    """The dtype `f` computes in: its parameters' for a module, else that of the point `x` (float32 when
    neither says)."""
    params = list(f.parameters()) if isinstance(f, torch.nn.Module) else []
    if params:
        return params[0].dtype
    return x.dtype if x is not None and x.is_floating_point() else torch.float32


@torch.no_grad()
def check_linear(f, input_shape, *, trials: int = 2, rtol: float = 1e-4, seed: int = 0) -> None:
    """Raise ValueError unless `f(0) == 0` and `f(a x + b y) == a f(x) + b f(y)` on random inputs."""
    dev, dtype = _device_of(f), _dtype_of(f)
    g = torch.Generator().manual_seed(seed)
    zero = f(torch.zeros(1, *input_shape, device=dev, dtype=dtype))
    for _ in range(trials):
        x, y = (torch.randn(1, *input_shape, generator=g).to(dev, dtype) for _ in range(2))
        a, b = (torch.randn(2, generator=g) * 2).tolist()
        fx, fy = f(x), f(y)
        lhs, rhs = f(a * x + b * y), a * fx + b * fy
        scale = max(lhs.abs().max().item(), rhs.abs().max().item(), fx.abs().max().item(),
                    fy.abs().max().item(), 1e-30)
        if (lhs - rhs).abs().max().item() > rtol * scale * (1 + abs(a) + abs(b)):
            raise ValueError("f is not linear: f(a x + b y) != a f(x) + b f(y) on random inputs "
                             "(remove activations and biases to read it as a matrix)")
        if zero.abs().max().item() > rtol * scale:
            raise ValueError("f is not linear: f(0) != 0 (does it have biases?)")


@torch.no_grad()
def operator_matrix(f, input_shape, *, batch_size: int = 256, check: bool = True) -> torch.Tensor:
    """The matrix `A` (d_out, d) of a linear network: `f(x).flatten() == A @ x.flatten()`.

    Paper 3, Sec. 4.1 / App. B. Column j is `f(e_j)`, the image of the j-th basis image; the basis
    goes through `f` in batches of `batch_size` without autograd. Returns a float64 CPU tensor.
    Raises ValueError if `f` is not linear (checked on random inputs unless `check=False`).
    """
    input_shape = tuple(input_shape)
    if check:
        check_linear(f, input_shape)
    dev, dtype = _device_of(f), _dtype_of(f)
    d = math.prod(input_shape)
    cols = []
    for start in range(0, d, batch_size):
        n = min(batch_size, d - start)
        basis = torch.zeros(n, d, device=dev, dtype=dtype)                     # (n, d) rows e_j
        basis[torch.arange(n), torch.arange(start, start + n)] = 1.0
        cols.append(f(basis.view(n, *input_shape)).reshape(n, -1).double().cpu())  # (n, d_out)
    return torch.cat(cols).T.contiguous()                                      # (d_out, d)


def eigen(A) -> tuple[torch.Tensor, torch.Tensor]:
    """Eigenvalues (d,) and unit eigenvectors (d, d) as columns, complex128, sorted by |value| desc."""
    a = torch.as_tensor(A).detach().cpu().double().numpy()
    vals, vecs = np.linalg.eig(a)
    order = np.argsort(-np.abs(vals), kind="stable")
    return torch.from_numpy(vals[order].astype(np.complex128)), torch.from_numpy(vecs[:, order].astype(np.complex128))


def spectrum(A) -> torch.Tensor:
    """Eigenvalues of a square matrix, complex128, sorted by magnitude (largest first)."""
    a = torch.as_tensor(A).detach().cpu().double().numpy()
    vals = np.linalg.eigvals(a)
    return torch.from_numpy(vals[np.argsort(-np.abs(vals), kind="stable")].astype(np.complex128))


def operator_eigenvalues(net, input_shape) -> torch.Tensor:
    """|eigenvalues| of a linear network's operator on inputs of `input_shape` (C, H, W), largest first
    (paper 2, Tables 1-2: memorizing k images = k eigenvalues 1 and the rest near 0). (d,) float64."""
    return spectrum(operator_matrix(net, input_shape)).abs()


def eigenimages(A, image_shape, k: int | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """The top-`k` eigenvalues (k,) and eigenvectors reshaped to images (k, c, s, s), complex.

    Paper 3, Sec. 4.2: every eigenvector of `A_X` is an image; real and imaginary parts are two
    images. Each vector is rotated by a unit phase so that its largest entry is real and positive.
    """
    vals, vecs = eigen(A)
    k = len(vals) if k is None else k
    v = vecs[:, :k].T                                                          # (k, d)
    peak = v.gather(1, v.abs().argmax(1, keepdim=True))                       # (k, 1)
    v = v * (peak.conj() / peak.abs())                                       # peak -> real > 0
    return vals[:k], v.reshape(k, *image_shape)


def numerical_rank(A, *, rtol: float = 1e-2) -> int:
    """Number of singular values above `rtol` times the largest (0 for the zero matrix)."""
    s = torch.linalg.svdvals(torch.as_tensor(A).detach().cpu().double())
    return int((s > rtol * s.max()).sum()) if s.numel() and s.max() > 0 else 0


def singular_ratio(A, k: int) -> float:
    """sigma_{k+1} / sigma_1 of `A` (singular values in descending order; 0.0 when A has at most k).

    Below `rtol` exactly when `numerical_rank(A, rtol=rtol) <= k`: the continuous measure behind a
    "rank k" statement (paper 3's Conjecture), which shows how close a rank is to its cutoff."""
    s = torch.linalg.svdvals(torch.as_tensor(A).detach().cpu().double())
    if not s.numel() or s[0] <= 0:
        return 0.0
    return float(s[k] / s[0]) if k < s.numel() else 0.0


def span_dimension(x, *, rtol: float = 1e-6) -> int:
    """dim span X of a set of images (N, ...): the numerical rank of the (N, d) data matrix."""
    return numerical_rank(torch.as_tensor(x).reshape(len(x), -1), rtol=rtol)


def count_near(values, target: float = 1.0, *, tol: float = 0.1) -> int:
    """How many (complex) eigenvalues lie within `tol` of `target` in absolute value of the difference
    of magnitudes (|lambda| close to 1 for target=1)."""
    return int(((torch.as_tensor(values).abs() - target).abs() < tol).sum())


def _as_batched(f, x):
    """`f` as a map from one flat input to one flat output."""
    shape = tuple(x.shape)
    return lambda v: f(v.reshape(1, *shape)).reshape(-1)


def jacobian(f, x: torch.Tensor) -> torch.Tensor:
    """The Jacobian (d_out, d) of `f` at ONE input `x` (shape `input_shape`, no batch dim), in the dtype
    of `f`'s parameters (of `x` for a plain function)."""
    dev, dtype = _device_of(f), _dtype_of(f, x)
    x = x.detach().to(dev, dtype)
    g = _as_batched(f, x)
    return torch.func.jacrev(g)(x.reshape(-1)).detach()


def narrow_first_layer(f, d: int):
    """(first, rest) when `f` is a net on flat vectors (`models.Flat`) whose first layer `first` is a Linear map
    from d to w < d features, followed by the layers `rest` (paper 2's autoencoders: 784 -> 128 -> ... -> 784);
    else None."""
    net = f.net if isinstance(f, Flat) else None
    if (isinstance(net, torch.nn.Sequential) and len(net) > 1 and isinstance(net[0], torch.nn.Linear)
            and net[0].in_features == d and net[0].out_features < d):
        return net[0], net[1:]
    return None


def _factored_radius(first: torch.nn.Linear, rest, x: torch.Tensor) -> float:
    """The spectral radius of J = J_rest(h) W1 at h = W1 x + b1 (the chain rule) from the (w, w) matrix W1 J_rest(h):
    AB and BA have the same nonzero eigenvalues, and J's other d - w eigenvalues are 0."""
    dev, dtype = _device_of(rest), _dtype_of(rest, x)
    with torch.no_grad():
        h = first(x.detach().to(dev, dtype).reshape(1, -1)).reshape(-1)                  # (w,)
    j_rest = torch.func.jacrev(lambda v: rest(v.reshape(1, -1)).reshape(-1))(h).detach()   # (d, w)
    return float(spectrum(first.weight.detach().double() @ j_rest.double()).abs().max())


def spectral_radius(f, x: torch.Tensor, *, method: str = "auto", dense_max: int = 4096,
                    tol: float = 1e-6, seed: int = 0) -> float:
    """Largest |eigenvalue| of the Jacobian of `f` at ONE input `x` (paper 2, Theorem 2).

    `method="dense"` builds the Jacobian and takes all eigenvalues; `"factored"` (a net whose first layer narrows
    d inputs to w features: `narrow_first_layer`) takes the eigenvalues of the (w, w) matrix W1 J_rest, the same
    nonzero eigenvalues (for paper 2's 784 -> 128 autoencoders a 128 x 128 eigenproblem instead of a 784 x 784
    one: benchmarks/RESULTS.md, session 14);
    `"arnoldi"` runs ARPACK (scipy.sparse.linalg.eigs) on Jacobian-vector products and never forms the matrix;
    `"auto"` is factored where it applies, else dense up to `dense_max` input dimensions.
    """
    if method not in ("auto", "dense", "factored", "arnoldi"):
        raise ValueError(f"unknown method {method!r}; choose auto, dense, factored or arnoldi")
    d = x.numel()
    split = narrow_first_layer(f, d) if method in ("auto", "factored") else None
    if method == "factored" and split is None:
        raise ValueError("method='factored' needs a net on flat vectors whose first Linear layer narrows its input")
    if split is not None:
        return _factored_radius(*split, x)
    if method == "dense" or (method == "auto" and d <= dense_max):
        J = jacobian(f, x)
        if J.shape[0] != J.shape[1]:
            raise ValueError(f"the Jacobian is {tuple(J.shape)}: f must map inputs to the same size")
        return float(spectrum(J).abs().max())
    from scipy.sparse.linalg import LinearOperator, eigs
    dev, dtype = _device_of(f), _dtype_of(f, x)
    x = x.detach().to(dev, dtype)
    g = _as_batched(f, x)
    x0 = x.reshape(-1)

    def matvec(v):
        v = np.asarray(v).reshape(-1)
        out = []
        for part in ([v.real, v.imag] if np.iscomplexobj(v) else [v]):
            t = torch.as_tensor(np.ascontiguousarray(part), device=dev, dtype=dtype)
            out.append(torch.func.jvp(g, (x0,), (t,))[1].detach().double().cpu().numpy())
        return out[0] + 1j * out[1] if len(out) == 2 else out[0]

    op = LinearOperator((d, d), matvec=matvec, dtype=np.float64)
    v0 = np.random.default_rng(seed).standard_normal(d)
    vals = eigs(op, k=1, which="LM", tol=tol, v0=v0, return_eigenvectors=False)
    return float(np.abs(vals).max())


@torch.no_grad()
def narrowest_layer(model: torch.nn.Module, input_shape) -> int:
    """The fewest numbers any representation of a Sequential net holds (its input included).

    Every layer's matrix has rank at most this, so it bounds r_min of paper 3, Sec. 4.2 (for
    generic weights it equals r_min).
    """
    dev, dtype = _device_of(model), _dtype_of(model)
    h = torch.zeros(1, *input_shape, device=dev, dtype=dtype)
    sizes = [h.numel()]
    for layer in model:
        h = layer(h)
        sizes.append(h.numel())
    return min(sizes)


def span_residual(v, x) -> torch.Tensor:
    """Relative distance of each image `v` (k, ...) from span X of images `x` (N, ...): (k,) in [0, 1].

    Complex `v` counts both its real and imaginary parts (paper 3, Sec. 4.2: both are images)."""
    X = torch.as_tensor(x).reshape(len(x), -1).double().T                       # (d, N)
    v = torch.as_tensor(v)
    parts = [v.real, v.imag] if v.is_complex() else [v]
    V = torch.stack([p.reshape(len(v), -1).double() for p in parts], 1)          # (k, parts, d)
    flat = V.reshape(-1, X.shape[0]).T                                          # (d, k * parts)
    resid = (flat - X @ torch.linalg.lstsq(X, flat).solution).T.reshape(V.shape)
    return resid.flatten(1).norm(dim=1) / V.flatten(1).norm(dim=1).clamp_min(1e-300)


def stored_images(vals, imgs, x, *, value_tol: float = 0.05, resid_tol: float = 0.1) -> int:
    """How many eigenpairs store training images: |lambda - 1| < `value_tol` and eigenvector within
    `resid_tol` (relative) of span X (paper 3, Conjecture (a) / Sec. 5)."""
    near = (torch.as_tensor(vals) - 1).abs() < value_tol
    if not bool(near.any()):
        return 0
    return int((span_residual(imgs[near], x) < resid_tol).sum())


def low_rank_spectrum(A, rank: int, *, seed: int = 0) -> torch.Tensor:
    """Eigenvalues of a square matrix `A` (d, d) of rank <= `rank` (e.g. a network through a
    `rank`-unit bottleneck), complex128, sorted by magnitude, padded with zeros to length d.

    Q (d, rank), an orthonormal basis of range(A) from `A @ G` (G Gaussian), satisfies A Q = Q (Qᵀ A Q)
    because range(A) is invariant under A: the nonzero eigenvalues of A are those of the small
    `rank` x `rank` matrix Qᵀ A Q. Much cheaper than `spectrum` when rank << d (paper 2, Fig 7-8).
    """
    a = torch.as_tensor(A).detach().cpu().double()
    d = a.shape[0]
    if a.shape != (d, d):
        raise ValueError(f"low_rank_spectrum needs a square matrix, got {tuple(a.shape)}")
    k = min(rank, d)
    g = torch.randn(d, k, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)
    q, _ = torch.linalg.qr(a @ g)                                              # (d, k)
    small = spectrum(q.T @ a @ q)                                              # (k,)
    return torch.cat([small, torch.zeros(d - k, dtype=torch.complex128)])


def memorization_spectrum(magnitudes, n: int) -> tuple[float, float]:
    """Paper 2's test of a linear autoencoder fitted to `n` images (Tables 1-2, Fig 7-8): memorization is a spectrum
    of n eigenvalues 1 (the images' span: A x_i = x_i once fitted) and the rest near 0. Given the |eigenvalues| (any
    order): (the largest | |lambda| - 1 | over the n closest to 1: ~0 for a fitted net, the largest |lambda| over
    the others: the "rest"). An eigenvalue above 1 elsewhere is in the rest (an expanding direction, not
    memorization), not counted against the fit."""
    v = torch.as_tensor(magnitudes).abs().double().flatten()       # (d,)
    if not 0 < n < len(v):
        raise MemlibError(f"memorization_spectrum needs 0 < n < {len(v)} eigenvalues, got n={n}")
    near = (v - 1).abs().argsort()[:n]                             # the n eigenvalues closest to 1
    rest = torch.ones(len(v), dtype=torch.bool)
    rest[near] = False
    return (v[near] - 1).abs().max().item(), v[rest].max().item()


def near_one_error(values, k: int, *, tol: float) -> int:
    """|(number of eigenvalues with | |lambda| - 1 | < `tol`) - k|: 0 when exactly `k` eigenvalues have magnitude
    close to 1 (paper 3, App. D: "there are 10 eigenvalues with magnitude close to 1" for 10 training images)."""
    return abs(count_near(values, 1.0, tol=tol) - int(k))


CONJUGATE_TOL = 1e-4   # relative: below the smallest imaginary part paper 3 prints (App. D: 0.97 +- 0.003i), far above
                       # the rounding that splits a double real eigenvalue into a pair in float64 (about 1e-8)


def conjugate_pair_scores(values, i: int = 0, *, tol: float = CONJUGATE_TOL) -> dict:
    """Whether eigenvalues `i` and `i + 1` of a real matrix (sorted by magnitude, as `spectrum` / `eigen` give them)
    are a complex-conjugate pair (paper 3, Fig 6b: "the top two eigenvalues being complex conjugates (hence having the
    same magnitude)").

    Returns `conjugate`: 1.0 when lambda_{i+1} = conj(lambda_i) to `tol` relative to |lambda_i| and the imaginary part is
    not zero, |Im lambda_i| > `tol` |lambda_i| (two real eigenvalues, however close, are no pair), else 0.0;
    `imag`: |Im lambda_i| / |lambda_i|; `magnitude_gap`: | |lambda_i| - |lambda_{i+1}| | / |lambda_i| (0 for a pair)."""
    v = torch.as_tensor(values).to(torch.complex128)
    if v.numel() < i + 2:
        raise ValueError(f"conjugate_pair_scores needs at least {i + 2} eigenvalues, got {v.numel()}")
    a, b = v[i].item(), v[i + 1].item()
    scale = abs(a)
    if scale == 0:
        return {"conjugate": 0.0, "imag": 0.0, "magnitude_gap": 0.0}
    imag = abs(a.imag) / scale
    pair = imag > tol and abs(b - a.conjugate()) <= tol * scale
    return {"conjugate": float(pair), "imag": imag, "magnitude_gap": abs(scale - abs(b)) / scale}


EXACT_RTOL = 1e-3   # the `exact` row of claims/rules.py: two eigenvalues of float32-trained operators within 1e-3
#                     (relative) of each other are equal, as far as the arithmetic of training can tell


def tied_ranks(values, *, rtol: float = EXACT_RTOL) -> list[float]:
    """Ranks (1 = smallest) of `values`, where values within `rtol` (relative to the larger magnitude) of their
    neighbour in sorted order are one tie and share their average rank (chains of such neighbours are one tie)."""
    v = [float(x) for x in values]
    order = sorted(range(len(v)), key=lambda i: v[i])
    ranks, start = [0.0] * len(v), 0
    for k in range(1, len(order) + 1):
        if k == len(order) or abs(v[order[k]] - v[order[k - 1]]) > rtol * max(abs(v[order[k]]), abs(v[order[k - 1]])):
            for j in order[start:k]:
                ranks[j] = (start + 1 + k) / 2          # the average of ranks start + 1 .. k
            start = k
    return ranks


def order_with(values, *, rtol: float = EXACT_RTOL) -> float:
    """Spearman's rank correlation of `values` with their position (the variable the paper varies, in its order:
    depth), with `tied_ranks` (values equal within `rtol` are ties, not an ordering): the `order` row of
    claims/rules.py. -1: falls at every step; 0: no order (also when every value ties); +1: rises at every step.
    Paper 2, Table 1: the third eigenvalue "falls with depth" is `order_with([eig3 at 2, 5, 8 layers]) < 0`."""
    r = tied_ranks(values, rtol=rtol)
    n = len(r)
    pos = [i + 1.0 for i in range(n)]
    mr, mp = sum(r) / n, sum(pos) / n
    cov = sum((a - mr) * (b - mp) for a, b in zip(r, pos))
    var_r, var_p = sum((a - mr) ** 2 for a in r), sum((b - mp) ** 2 for b in pos)
    return 0.0 if var_r == 0 or var_p == 0 else cov / math.sqrt(var_r * var_p)
