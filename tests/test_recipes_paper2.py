"""memlib.recipes.paper2: Fig 3's and Tables 1-2's settings in one place (issue 29), read by notebook 02, its explorer
and the tour; the bands leave out seed 0, on which the recipes were chosen (issue 26)."""
import json
from pathlib import Path

import pytest

from memlib import claims, runtime
from memlib.recipes import paper2 as R
from memlib.widgets import attractors

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "02_attractors.ipynb"


def _code() -> str:
    nb = json.loads(NOTEBOOK.read_text())
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


def test_the_notebook_reads_fig3_and_the_tables_from_the_recipe():
    code = _code()
    for line in ("F3_NETS = run.pick(**recipe.FIG3_NETS)", "F3_STEPS = run.pick(**recipe.FIG3_STEPS)",
                 "F3_ACTIVATION, F3_FIT = recipe.FIG3_ACTIVATION, recipe.FIG3_FIT",
                 "F3_SEEDS = recipe.fig3_seeds(run.profile, seed)", "TAB_STEPS = run.pick(**recipe.TAB_STEPS)",
                 "TAB_UNTIL = recipe.TAB_UNTIL", "TAB_SEEDS = recipe.band_seeds(run.profile, seed)",
                 "steps=F3_STEPS, seed=F3_SEEDS[0], activation=F3_ACTIVATION, fit=F3_FIT"):
        assert line in code, f"notebook 02 no longer reads {line!r}"
    assert "quick=40_000" not in code and '"leaky_relu"' not in code, "notebook 02 writes Fig 3's recipe itself"


@pytest.mark.parametrize("profile", runtime.PROFILES)
def test_the_bands_leave_out_the_seed_the_recipes_were_chosen_on(profile):
    from memlib.harness.envelope import SEED_STRIDE
    for band in (R.band_seeds, R.fig3_seeds):
        seeds = band(profile, 0)
        assert 0 not in seeds and len(set(seeds)) == len(seeds)
        assert len(seeds) >= (1 if profile == "smoke" else claims.core.MIN_BAND)
        assert band(profile, 5) == [5 + s for s in seeds]       # the envelope's seed offsets shift the band
        assert max(seeds) < SEED_STRIDE                         # so its variations' bands never overlap
    assert len(R.fig3_seeds(profile, 0)) == runtime.pick(profile, **R.FIVE)   # five where three could not decide


def test_the_tables_train_past_the_papers_bound_that_their_fit_gate_reads():
    assert R.TAB_UNTIL < R.PAPER_UNTIL
    gates = [g for c in claims.CLAIMS if c.id.startswith(("p2.table1", "p2.table2")) and c.about == "trained"
             for g in c.gates if g.metric.endswith("final_loss")]
    assert gates and all(g.threshold == R.PAPER_UNTIL and g.op == "<" for g in gates)


@pytest.mark.parametrize("profile", ["smoke", "quick"])
def test_the_tours_first_view_is_the_notebooks_first_band_net(profile, monkeypatch):
    from memlib.widgets import tour
    seen = {}
    monkeypatch.setattr(attractors, "attractors_explorer", lambda **kw: seen.update(kw))
    tour.attractors(profile)
    assert seen["seed"] == R.fig3_seeds(profile, 0)[0] and seen["steps"] == runtime.pick(profile, **R.FIG3_STEPS)
    assert seen["activation"] == R.FIG3_ACTIVATION and seen["fit"] == R.FIG3_FIT
    assert sorted(seen["autoencoders"].values()) == sorted(runtime.pick(profile, **R.FIG3_NETS).values())
    assert next(iter(seen["autoencoders"])).startswith("Fig 3b")      # the explorer opens on Fig 3b, as the notebook's


def test_the_explorers_defaults_are_the_recipe():
    assert attractors.ACTIVATION == R.FIG3_ACTIVATION and attractors.FIT == R.FIG3_FIT
    assert attractors.STEPS == R.FIG3_STEPS["quick"]
    assert set(attractors.AUTOENCODERS.values()) == set(R.FIG3_NETS["quick"].values())


def test_the_departures_of_issue_41_are_read_from_the_recipe_with_the_papers_value_beside():
    """Issue 41: the settings behind the departures notebook 02's table was missing (Fig 1a's schedule and
    initializations, Fig 2's steps, Fig 4's iterations, Fig 5 / 6's Adam 1e-4 and Fig 6's photos and epoch, Fig 11's
    activation and steps, D1's way up, Fig 12's net) live in the recipe, each beside a comment citing the paper, and
    the notebook reads them and lists them as departures."""
    code = _code()
    for line in ("GD = recipe.F1_GD", "F1_STEPS = run.pick(**recipe.F1_STEPS)", "recipe.F1_INIT_SMALL, recipe.F1_INIT_LARGE",
                 "SWISS_STEPS = run.pick(**recipe.SWISS_STEPS)", "F4_T = run.pick(**recipe.F4_T)",
                 "F5_OPT = recipe.F56_OPT", "F6_OPT = recipe.F56_OPT", "F6_N = run.pick(**recipe.F6_N)",
                 "F11_STEPS = run.pick(**recipe.F11_STEPS)", "F11_ACTIVATION = recipe.F11_ACTIVATION",
                 "recipe.F12_NET", "run.departures_from(recipe.SETTINGS)"):
        assert line in code, f"notebook 02 no longer reads {line!r}"
    registered = [s.what for s in R.SETTINGS]     # the departures table, generated (issue 43)
    for setting in ("initialization, Fig 1a", "optimizer and schedule, Fig 1a", "steps, Fig 2", "iterations of R_t, Fig 4",
                    "D1's way up, Fig 5-7", "optimizer, Fig 5 / 6", "training images, Fig 6", "an epoch, Fig 6",
                    "activation and steps, Fig 11"):
        assert setting in registered, f"notebook 02's departures table lacks {setting!r}"
    src = (Path(R.__file__)).read_text()
    for name in ("F1_GD", "F1_STEPS", "F1_INIT_SMALL", "F1_INIT_LARGE", "SWISS_STEPS", "F4_T", "F56_OPT", "F6_N",
                 "F6_BATCH", "F11_ACTIVATION", "F11_STEPS", "D1_UP", "F12_NET"):
        line = next(ln for ln in src.splitlines() if ln.startswith(f"{name} = "))
        assert "# paper 2" in line, f"recipes.paper2.{name} does not cite the paper's value beside ours"
    assert R.F1_GD["optimizer"] == "sgd" and R.F4_T["paper"] == 1000 and R.F6_N["paper"] == 10
