"""Neural collapse (Papyan, Han & Donoho 2020) of a network's last hidden features: NC1 to NC4, from the features
`h` (N, D), their labels and the last layer's classifiers. Paper 4's recorder (`rho.RhoRecorder`) reads them; `rho`
re-exports every public name here.
"""
from __future__ import annotations

import torch
from torch import nn

from ..runtime import MemlibError
from ..models.weights import weight_layers


def _class_means(h: torch.Tensor, labels: torch.Tensor):
    """(classes sorted, their mean features (K, D) in float64) of features h (N, D)."""
    h = h.double()
    labels = labels.reshape(-1).to(h.device)
    classes = labels.unique()
    if len(classes) < 2:
        raise MemlibError("neural collapse needs at least two classes")
    return classes, torch.stack([h[labels == c].mean(0) for c in classes])


def _centred_means(h: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """The class means minus their own mean (K, D): a simplex ETF's vertices sum to zero. (Papyan et al. centre at
    the global mean of balanced classes, the same point; for unbalanced classes this keeps NC2 free of the class
    sizes.)"""
    means = _class_means(h, labels)[1]
    return means - means.mean(0)


def nc1(h: torch.Tensor, labels: torch.Tensor) -> float:
    """Neural collapse NC1 (Papyan, Han & Donoho 2020): tr(Sigma_W Sigma_B^+) / K of features h (N, D)."""
    h = h.double()
    labels = labels.reshape(-1).to(h.device)
    classes = labels.unique()
    mu = h.mean(0)
    means = torch.stack([h[labels == c].mean(0) for c in classes])              # (K, D)
    centered = h - means[torch.searchsorted(classes, labels)]
    sigma_w = centered.T @ centered / len(h)                                    # (D, D)
    m = (means - mu).T                                                          # (D, K)
    m_pinv = torch.linalg.pinv(m)                                               # (K, D)
    # Sigma_B = M M^T / K, so tr(Sigma_W Sigma_B^+) / K = tr(M^+ Sigma_W M^+^T)
    return torch.trace(m_pinv @ sigma_w @ m_pinv.T).item()


def nc2(h: torch.Tensor, labels: torch.Tensor) -> float:
    """Neural collapse NC2 (Papyan et al.): how far the centred class means of features h (N, D) are from a simplex
    equiangular tight frame: std / mean of their norms (equinorm) plus the largest |cos(mu_i, mu_j) + 1/(K-1)| over
    pairs i != j (equiangular, maximally apart); 0 exactly for a simplex ETF. With K = 2 it is 0 for any two distinct
    means (two centred means are antipodal and of equal norm): a binary task cannot test NC2."""
    m = _centred_means(h, labels)
    k, norms = len(m), m.norm(dim=1)
    cos = (m @ m.T) / torch.outer(norms, norms)
    off = ~torch.eye(k, dtype=torch.bool, device=m.device)
    equinorm = (norms.std(unbiased=False) / norms.mean()).item()
    return equinorm + (cos[off] + 1 / (k - 1)).abs().max().item()


def nc3(h: torch.Tensor, labels: torch.Tensor, classifier: torch.Tensor) -> float:
    """Neural collapse NC3 (Papyan et al.): ||W / ||W||_F - M / ||M||_F||_F^2 for the last layer's classifiers W (K, D),
    one row per class in sorted label order, and the centred class means M (K, D) of features h (N, D); 0 where the
    classifiers are the class means up to one scale, at most 4. For a one-output binary net see `binary_classifier`:
    there it is 2 - 2 cos(w, mu_+ - mu_-)."""
    m = _centred_means(h, labels)
    w = classifier.detach().double().to(m.device).reshape(len(m), -1)
    return ((w / w.norm() - m / m.norm()) ** 2).sum().item()


def binary_classifier(model: nn.Module) -> torch.Tensor:
    """The last layer of a one-output classifier (labels -1 / +1, decision sign(w . h)) as per-class classifiers
    (2, D): rows -w (class -1) and w (class +1), the sorted label order `nc3` reads."""
    w = weight_layers(model)[-1].weight.detach()
    if w.shape[0] != 1:
        raise MemlibError(f"binary_classifier needs a one-output last layer, got {w.shape[0]} outputs")
    w = w.reshape(-1)
    return torch.stack([-w, w])


def nc4(h: torch.Tensor, labels: torch.Tensor, decisions: torch.Tensor) -> float:
    """Neural collapse NC4 (Papyan et al.): the fraction of samples whose network decision (`decisions`, class labels
    (N,)) differs from the nearest class centre's (Euclidean distance of h (N, D) to the class means of h itself);
    0 where the classifier has collapsed to the nearest-class-centre rule."""
    classes, means = _class_means(h, labels)
    ncc = classes[torch.cdist(h.double(), means).argmin(1)]
    return (ncc != decisions.reshape(-1).to(ncc.device).to(ncc.dtype)).double().mean().item()
