"""Paper 2, Theorem 5 and the forced-zero lemma: closed forms against brute force on random linear conv nets."""
import pytest
import torch

from memlib import linalg, models, theory


@pytest.mark.parametrize("size,layers,filters", [(4, 1, 1), (4, 2, 3), (5, 3, 2), (5, 4, 1), (6, 2, 4)])
def test_forced_zeros_are_exactly_the_entries_outside_the_receptive_field(size, layers, filters):
    torch.manual_seed(size * 10 + layers)
    net = models.linear_conv_ae(layers, filters, init_std=1.0).double()
    A = linalg.operator_matrix(net, (1, size, size))                     # (size², size²), row = output pixel
    support = theory.conv_operator_support(size, layers)
    assert torch.all(A[~support] == 0)                                   # structural zeros, whatever the weights
    assert torch.all(A[support].abs() > 0)                               # random weights reach every other entry


@pytest.mark.parametrize("size", [3, 4, 5, 8])
def test_theorem5_s_minus_1_layers_remove_every_forced_zero(size):
    need = theory.min_layers_without_forced_zeros(size)
    assert need == size - 1
    assert bool(theory.conv_operator_support(size, need).all())
    assert not bool(theory.conv_operator_support(size, need - 1).all()) if need > 1 else True


def test_lemma_memorizing_an_arbitrary_image_needs_every_entry():
    """Memorizing v with a linear map is projecting onto it, v vᵀ / ||v||²: no zero entry for a v without zeros,
    so a matrix with a forced zero (fewer than s - 1 layers) cannot be that projection."""
    torch.manual_seed(0)
    for size in (3, 4, 5):
        v = torch.rand(size * size, dtype=torch.float64) + 0.1
        P = torch.outer(v, v) / (v @ v)
        assert torch.all(P != 0)
        assert torch.any(P[~theory.conv_operator_support(size, size - 2)] != 0)   # s - 2 layers: a forced zero hit
