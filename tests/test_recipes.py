"""memlib.recipes: one source for a figure's settings (issue 29). Paper 1's depth-sweep recipe is read by notebook
01, its explorer and the tour; changing it in memlib/recipes/paper1.py moves all three (the smoke run's cache test,
tests/test_notebooks.py::test_the_tours_explorers_are_the_notebooks_own, checks they agree on real models)."""
import json
from pathlib import Path

import pytest
import torch

from memlib import runtime, store
from memlib.recipes import paper1 as R
from memlib.widgets import identity

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "01_identity_vs_constant.ipynb"


def _code() -> str:
    nb = json.loads(NOTEBOOK.read_text())
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


def test_the_notebook_reads_its_shared_settings_from_the_recipe():
    code = _code()
    for name, attr in [("CONV", "CONVNET_FIT"), ("SGD", "SGD_FIT"), ("STEPS", "DEPTH_STEPS"),
                       ("FCN_STEPS", "FCN_STEPS"), ("WIDTH", "WIDTH"), ("CHANNELS", "CHANNELS"), ("DEPTHS", "DEPTHS")]:
        assert f"{name} = run.pick(**recipe.{attr})" in code, f"notebook 01 sets {name} itself, not from the recipe"
    assert "depth_fit = functools.partial(recipe.depth_fit, run.profile)" in code
    assert "fit_kwargs=depth_fit(x_train)" in code and 'recipes={"convnet": depth_fit(x_train)}' in code


def test_depth_fit_stops_at_the_stated_fraction_of_the_zero_predictions_loss():
    x = torch.full((1, 1, 4, 4), 2.0)                     # zero prediction's MSE: 4
    kw = R.depth_fit("quick", x)
    assert kw["until_loss"] == pytest.approx(R.FIT_TO["quick"] * 4.0)
    assert {k: v for k, v in kw.items() if k != "until_loss"} == R.DEPTH_FIT["quick"]
    assert "until_loss" not in R.depth_fit("paper", x) and R.depth_fit("paper", x) == R.SGD_FIT["paper"]
    assert R.FIT_TO["quick"] < 0.05                      # below the claims' fit gate, with margin


@pytest.mark.parametrize("profile", runtime.PROFILES)
def test_the_explorers_first_view_is_the_notebooks_depth_sweep_net(profile):
    """The explorer's default optimizer with the recipe gives exactly the notebook's fit keywords: the same cache key."""
    x = torch.randn(1, 1, 28, 28)
    conv, steps = R.depth_fit(profile, x), runtime.pick(profile, **R.DEPTH_STEPS)
    kw = identity.fit_arguments(conv.get("optimizer", "sgd"), steps=steps, recipe=conv)
    assert kw == {**conv, "steps": steps}
    build = identity.builder("convnet", 5, runtime.pick(profile, **R.CHANNELS), (1, 28, 28))
    assert store._config(build, x, None, 0, "default", kw) == store._config(build, x, None, 0, "default",
                                                                            {**conv, "steps": steps})
    other = "sgd" if conv.get("optimizer") == "adam" else "adam"
    assert identity.fit_arguments(other, steps=steps, recipe=conv) != kw     # another optimizer: another model


def test_a_step_count_changed_in_the_recipe_reaches_the_tour(monkeypatch):
    from memlib import tour
    seen = {}
    monkeypatch.setattr(identity, "identity_explorer", lambda *a, **kw: seen.update(kw))
    monkeypatch.setitem(R.DEPTH_STEPS, "smoke", 77)
    monkeypatch.setitem(R.DEPTH_FIT, "smoke", {**R.PAPER_ADAM, "lr": 0.123})
    tour.identity("smoke")
    assert seen["steps"]["convnet"] == 77 and seen["recipes"]["convnet"]["lr"] == 0.123
    assert seen["channels"] == runtime.pick("smoke", **R.CHANNELS)


def test_below_the_paper_profile_the_depth_sweep_departs_and_says_so():
    """The depth sweep's optimizer below the paper profile is a stated departure; the paper profile runs App. B's SGD."""
    assert R.DEPTH_FIT["paper"]["clip_grad_norm"] is None and R.DEPTH_FIT["paper"]["lr"] == 0.01
    assert R.DEPTH_FIT["quick"] != R.DEPTH_FIT["paper"]
    setting, paper, ours, why = R.DEPTH_DEPARTURE
    assert "App. B" in paper and "Adam" in ours and len(why) > 40
