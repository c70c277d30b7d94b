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


@pytest.mark.parametrize("size", [3, 4, 5])
def test_theorem4_one_single_filter_layer_learns_a_full_rank_map(size):
    """Theorem 4: a single-filter conv autoencoder with kernel 3 and zero padding 1, trained by gradient descent on one
    s x s image, learns a rank-s² solution. Closed form: the kernel enters linearly, and for a generic image the s²
    equations k * x = x in the 9 kernel entries have the one solution k = delta (the identity map), so a fitted net is
    the identity: rank s², every singular value 1. Trained here with memlib's own loop, as notebook 02's tables are."""
    from memlib.train import fit
    torch.manual_seed(size)
    x = torch.randn(1, 1, size, size)
    net = models.linear_conv_ae(1, 1, init_std=0.1)
    hist = fit(net, x, steps=20_000, lr=0.1, optimizer="sgd", until_loss=1e-8, progress=False)   # the tables' GD
    assert hist.final_loss < 1e-6                                        # App. F's "until the loss < 1e-6"
    A = linalg.operator_matrix(net, (1, size, size))                     # (s², s²)
    sv = torch.linalg.svdvals(A.double())
    assert linalg.numerical_rank(A) == size * size and sv.min().item() > 0.9 and sv.max().item() < 1.1
    torch.testing.assert_close(A.double(), torch.eye(size * size, dtype=torch.float64), atol=0.02, rtol=0)


def test_table1_falls_with_depth_counts_eigenvalues_equal_within_float32_tolerance_as_ties():
    """Issue 42 (bug): `p2.table1_depth` compared the third eigenvalues of 2, 5 and 8 layers with a strict `>`, so the
    committed quick run's seed 3 with 1 filter (0.99982 at 2 layers, 0.99986 at 5, 0.136 at 8: a tie at 1, then a
    fall) counted as not falling. `linalg.order_with` is the `order` row (Spearman's sign) with the `exact` row's
    1e-3 relative tolerance for ties."""
    assert linalg.order_with([0.9998179372781593, 0.9998642210554063, 0.13551518782510275]) < 0
    assert linalg.order_with([0.99, 0.75, 0.1]) == pytest.approx(-1.0)          # the paper's table
    assert linalg.order_with([0.1, 0.5, 0.9]) == pytest.approx(1.0)
    assert linalg.order_with([1.0, 1.0002, 0.9999]) == 0.0                     # all one tie: no order
    assert linalg.order_with([1.0, 1.01, 0.1]) == pytest.approx(-0.5)          # a rise beyond the tolerance counts
    assert linalg.tied_ranks([1, 1.0005, 1.0009, 2]) == [2.0, 2.0, 2.0, 4.0]
