"""memlib.recipes: one source for a figure's settings (issue 29). Paper 1's depth-sweep recipe is read by notebook
01, its explorer and the tour; changing it in memlib/recipes/paper1.py moves all three (the smoke run's cache test,
tests/test_notebooks.py::test_the_tours_explorers_are_the_notebooks_own, checks they agree on real models)."""
import json
from pathlib import Path

import pytest
import torch

from memlib import runtime
from memlib.harness import store
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
    assert "fit_kwargs=depth_fit(x_train, k)" in code and 'recipes={"convnet": depth_fit(x_train)}' in code
    assert "depth_steps = functools.partial(recipe.depth_steps, run.profile)" in code


def test_the_depth_sweep_trains_as_the_paper_states_for_the_whole_budget():
    """Issue 40: App. H.3's init, App. B's SGD (lr 0.01, momentum 0.9, stagewise, unclipped), no stop at fit, and its
    weights kept at log-spaced steps of the budget (the trajectory), at every profile."""
    for profile in runtime.PROFILES:
        kw = R.depth_fit(profile)
        steps = runtime.pick(profile, **R.DEPTH_STEPS)
        assert kw["init"] == "paper_default" and "until_loss" not in kw
        assert {k: kw[k] for k in ("lr", "momentum", "schedule", "clip_grad_norm")} == \
            {"lr": 0.01, "momentum": 0.9, "schedule": "stagewise", "clip_grad_norm": None}
        assert kw.get("optimizer", "sgd") == "sgd"
        assert kw["weights_at"][0] == 0 and kw["weights_at"][-1] == steps and kw["weights_at"] == sorted(kw["weights_at"])
    assert R.DEPTH_STEPS["paper"] == 2_000_000


def test_the_paper_profiles_depth_20_net_keeps_a_finite_loss():
    """Issue 40: the paper profile's optimizer from the paper's init does not diverge at depth 20 (PyTorch's init with
    the same unclipped SGD gave NaN within a hundred steps): a smoke-sized net, its first hundred steps."""
    from memlib import models, train
    torch.manual_seed(0)
    x = torch.randn(1, 1, 12, 12)
    kw = {k: v for k, v in R.depth_fit("paper").items() if k not in ("init", "weights_at")}
    kw["schedule"] = "constant"                 # the first 100 of 2,000,000 steps: before the first x0.2 stage
    net = store.build_model(lambda: models.convnet(20, channels=runtime.pick("quick", **R.CHANNELS)), seed=0,
                            init=R.depth_fit("paper")["init"])
    hist = train.fit(net, x, steps=100, progress=False, **kw)
    assert all(torch.isfinite(torch.tensor(hist.loss)))
    assert hist.final_loss < hist.loss[0]                      # and it learns (the constant's bias, at least)


@pytest.mark.parametrize("profile", runtime.PROFILES)
def test_the_explorers_first_view_is_the_notebooks_depth_sweep_net(profile):
    """The explorer's default optimizer with the recipe gives exactly the notebook's fit keywords: the same cache key."""
    x = torch.randn(1, 1, 28, 28)
    conv, steps = R.depth_fit(profile, x), runtime.pick(profile, **R.DEPTH_STEPS)
    kw = identity.fit_arguments(conv.get("optimizer", "sgd"), steps=steps, recipe=conv)
    assert kw == {**{k: v for k, v in conv.items() if k != "init"}, "steps": steps}   # the init is the explorer's
    build = identity.builder("convnet", 5, runtime.pick(profile, **R.CHANNELS), (1, 28, 28))
    notebook = {k: v for k, v in conv.items() if k != "init"}                  # fit_cached_seeds(init=..., **rest)
    assert store._config(build, x, None, 0, conv["init"], kw) == store._config(build, x, None, 0, conv["init"],
                                                                               {**notebook, "steps": steps})
    other = "sgd" if conv.get("optimizer") == "adam" else "adam"
    assert identity.fit_arguments(other, steps=steps, recipe=conv) != kw     # another optimizer: another model


def test_a_step_count_changed_in_the_recipe_reaches_the_tour(monkeypatch):
    from memlib.widgets import tour
    seen = {}
    monkeypatch.setattr(identity, "identity_explorer", lambda *a, **kw: seen.update(kw))
    monkeypatch.setitem(R.DEPTH_STEPS, "smoke", 77)
    monkeypatch.setitem(R.DEPTH_FIT, "smoke", {**R.SGD_FIT["paper"], "lr": 0.123})
    tour.identity("smoke")
    assert seen["steps"]["convnet"] == 77 and seen["recipes"]["convnet"]["lr"] == 0.123
    assert seen["channels"] == runtime.pick("smoke", **R.CHANNELS)
