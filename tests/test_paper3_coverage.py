"""Issue 27 (coverage) for paper 3: Fig 6b's "top two eigenvalues being complex conjugates", measured by
`linalg.conjugate_pair_scores` on matrices whose spectrum is known in closed form, and judged by its claim."""
import json
import math
from pathlib import Path

import torch

from memlib import linalg
from memlib.claims import CLAIMS, core

NOTEBOOK_03 = Path(__file__).resolve().parent.parent / "notebooks" / "03_downsampling_eigenvectors.ipynb"


def _hidden(blocks, seed=0) -> torch.Tensor:
    """Q B Q^T for the block-diagonal B of `blocks` and a random orthogonal Q: a dense real matrix whose eigenvalues
    are those of the blocks."""
    B = torch.block_diag(*[torch.as_tensor(b, dtype=torch.float64).reshape(len(b) if isinstance(b, list) else 1, -1)
                           for b in blocks])
    q, _ = torch.linalg.qr(torch.randn(len(B), len(B), generator=torch.Generator().manual_seed(seed), dtype=torch.float64))
    return q @ B @ q.T


def _rotation(r, theta):
    """[[a, -b], [b, a]]: eigenvalues r e^{+-i theta}."""
    return [[r * math.cos(theta), -r * math.sin(theta)], [r * math.sin(theta), r * math.cos(theta)]]


def test_a_known_conjugate_pair_on_top_is_found():
    A = _hidden([_rotation(1.0, 0.01), [0.5], [-0.3], [[0.2, 0.1], [0.0, 0.1]]])
    s = linalg.conjugate_pair_scores(linalg.spectrum(A))
    assert s["conjugate"] == 1.0
    assert abs(s["imag"] - math.sin(0.01)) < 1e-9                    # |Im lambda_1| / |lambda_1| = sin(theta)
    assert s["magnitude_gap"] < 1e-9                                 # "hence having the same magnitude"


def test_two_real_eigenvalues_of_about_the_same_magnitude_are_no_pair():
    s = linalg.conjugate_pair_scores(linalg.spectrum(_hidden([[1.001], [0.999], [0.4], [0.1]])))
    assert s["conjugate"] == 0.0 and s["imag"] == 0.0 and abs(s["magnitude_gap"] - 0.002 / 1.001) < 1e-9
    s = linalg.conjugate_pair_scores(linalg.spectrum(_hidden([[1.0], [-1.0], [0.2]])))   # same magnitude, both real
    assert s["conjugate"] == 0.0 and s["magnitude_gap"] < 1e-9


def test_a_double_eigenvalue_split_by_rounding_is_no_pair():
    # a net that fits two images exactly has eigenvalue 1 twice; rounding may split it into a tiny complex pair
    A = _hidden([[[1.0, 1e-9], [-1e-9, 1.0]], [0.3], [0.2]])             # eigenvalues 1 +- 1e-9 i
    assert linalg.conjugate_pair_scores(linalg.spectrum(A))["conjugate"] == 0.0
    # the paper's own smallest imaginary part (App. D: 0.97 +- 0.003i) is a pair
    paper = torch.tensor([complex(0.97, 0.003), complex(0.97, -0.003), 0.5], dtype=torch.complex128)
    assert linalg.conjugate_pair_scores(paper)["conjugate"] == 1.0


def test_a_pair_below_the_top_is_not_the_top_two():
    vals = linalg.spectrum(_hidden([[1.2], _rotation(0.9, 0.3), [0.1]]))
    assert linalg.conjugate_pair_scores(vals)["conjugate"] == 0.0         # lambda_1 real, lambda_2 complex
    assert linalg.conjugate_pair_scores(vals, 1)["conjugate"] == 1.0
    # two pairs of one magnitude: the top two are the pair that sorts first, never one of each
    assert linalg.conjugate_pair_scores(torch.tensor([1j, -1j, 1 + 0j, 0.1], dtype=torch.complex128))["conjugate"] == 1.0


def test_the_claim_needs_every_seed_a_pair_and_a_fitted_net():
    c = next(c for c in CLAIMS if c.id == "p3.fig6_top2_conjugate")
    assert c.paper == 3 and c.figure == "Fig 6b" and c.problems() == []
    fit = {"fig6.D.k2.final_loss": [1e-5, 1e-5, 1e-5]}
    run = lambda v, **extra: core.evaluate(c, {**fit, "fig6.D.k2.top2_conjugate": v, **extra}, "quick")["run_outcome"]  # noqa: E731
    assert run([1.0, 1.0, 1.0]) == core.REPRODUCED
    assert run([1.0, 0.0, 1.0]) == core.NOT_REPRODUCED                 # one seed's top two are real
    assert run([1.0, 1.0, 1.0], **{"fig6.D.k2.final_loss": [1e-5, 0.02, 1e-5]}) == core.NOT_REPRODUCED   # did not fit
    assert core.evaluate(c, {"fig6.D.k2.final_loss": 1e-5}, "quick")["outcome"] == core.NOT_RUN


def test_notebook_03_logs_the_metric_and_bands_d_on_two_images():
    src = "".join("".join(cell["source"]) for cell in json.loads(NOTEBOOK_03.read_text())["cells"])
    assert "linalg.conjugate_pair_scores(" in src and '"top2_conjugate"' in src
    assert "AB_ONE_SEED" not in src                                    # issue 26: D_{64,192} on two images is a band
    for cid in ("p3.fig6_d_rank2", "p3.fig6_d_lower_rank_k2", "p3.fig6_top2_conjugate"):
        assert not next(c for c in CLAIMS if c.id == cid).one_seed, cid
