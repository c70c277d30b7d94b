"""Paper 2's settings the text leaves open, registered with the paper's words beside ours (notebook 02's departures
table is generated from them), and Fig 1a's iteration read as the text states it: to convergence."""
import json
from pathlib import Path

import torch

from memlib import dynamics
from memlib.recipes import paper2 as recipe
from memlib.runtime import PROFILES, pick

NB2 = Path(__file__).parents[1] / "notebooks" / "02_attractors.ipynb"


def _rows(profile: str) -> dict:
    return {r["setting"]: r for r in recipe.SETTINGS.departures(profile)}


def test_the_departures_table_lists_fig1as_iteration_d2s_outer_layers_and_fig12s_net():
    for profile in PROFILES:
        rows = _rows(profile)
        it = rows["iterations of the 1-D map, Fig 1a (bottom left)"]
        assert "convergence" in it["paper"] and it["ours"] == str(pick(profile, **recipe.F1_ITERS)) and it["why"]
        assert "100" in rows["100 iterations of the 1-D map, Fig 1a, measured beside"]["ours"]
        tol = rows["tolerance of 'converged' (distance to a training point), Fig 1a"]
        assert tol["ours"] == str(recipe.F1_TOL) and "not stated" in tol["paper"]
        d2 = rows["D2's first and last layers, Fig 8"]
        assert "8x8" in d2["ours"] and "stride 8" in d2["ours"] and "4 x 4" in d2["paper"]
        f12 = rows["network, Fig 12"]
        assert "Figure 3a" in f12["paper"] and "D1" in f12["ours"] and f12["why"]


def test_notebook_02_reads_fig1as_iteration_from_the_recipe():
    code = "".join("".join(c["source"]) + "\n" for c in json.loads(NB2.read_text())["cells"]
                   if c["cell_type"] == "code")
    assert "F1_ITERS = run.pick(**recipe.F1_ITERS)" in code
    assert "F1_ITERS_EARLIER, F1_TOL = recipe.F1_ITERS_EARLIER, recipe.F1_TOL" in code
    assert "dynamics.convergence(net, x1d, grid1d, F1_ITERS, F1_TOL" in code
    assert "grid1d, 100, " not in code and "< 0.01)" not in code        # no count or tolerance written in a cell


def test_the_count_reaches_convergence_at_the_trained_nets_slope():
    """A 1-D map with attractors 0.3 and 0.7 and slope 0.999 there (the small-init net's, Fig 1a): 100 iterations
    leave most of the grid short of the tolerance, the recipe's count brings all of it in, and the last step has
    stopped moving."""
    train = torch.tensor([[0.3], [0.7]])
    f = lambda x: torch.where(x < 0.5, 0.3 + 0.999 * (x - 0.3), 0.7 + 0.999 * (x - 0.7))   # noqa: E731
    grid = torch.linspace(0, 1, 200).unsqueeze(1)
    out = dynamics.convergence(f, train, grid, pick("quick", **recipe.F1_ITERS), recipe.F1_TOL,
                               also=(recipe.F1_ITERS_EARLIER,))
    assert out["converged_fraction"] == 1.0
    assert out[f"converged_fraction_it{recipe.F1_ITERS_EARLIER}"] < 0.2
    assert out["last_move"] < 1e-5 and out["ends"].shape == grid.shape
    # the same share as `converged_fraction` computes
    assert out["converged_fraction_it100"] == dynamics.converged_fraction(f, train, grid, 100, recipe.F1_TOL)


def test_fig6s_epoch_is_a_pass_over_mini_batches_and_the_full_batch_step_is_measured_beside():
    """Paper 2, Fig 6: "100 training epochs", "1000 training epochs": an epoch is a pass over the training set, in
    mini-batches (of a size the text does not give); one full-batch step an epoch is the departure trained beside."""
    assert recipe.F6_BATCH == 1 and recipe.f6_steps(100, 3) == 300 and recipe.f6_steps(100, 3, None) == 100
    assert recipe.f6_steps(1000, 10, 4) == 3000                      # ceil(10 / 4) steps a pass
    for profile in PROFILES:
        rows = _rows(profile)
        assert "mini-batches of 1" in rows["an epoch, Fig 6"]["ours"]
        assert "full-batch" in rows["one full-batch step an epoch, Fig 6, measured beside"]["ours"]
    code = "".join("".join(c["source"]) + "\n" for c in json.loads(NB2.read_text())["cells"]
                   if c["cell_type"] == "code")
    assert 'for infix, batch in (("", F6_BATCH), (F6_OTHER, None)):' in code
    assert "steps=recipe.f6_steps(epochs, len(x_f6), batch)" in code
