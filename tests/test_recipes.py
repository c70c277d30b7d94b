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


def test_the_depth_sweep_trains_under_the_reading_the_rule_chose_for_each_depths_whole_budget():
    """App. H.3's init and Fig 30's RMSprop (lr 0.0001, App. B's x0.2 stages, unclipped) at every profile, the
    reading rule's choice; no stop at fit, and the weights kept at log-spaced steps of each depth's own budget."""
    for profile in runtime.PROFILES:
        for depth in (1, 2, 5, 8, 14, 20):
            kw = R.depth_fit(profile, depth=depth)
            steps = R.depth_steps(profile, depth)
            assert kw["init"] == "paper_default" and "until_loss" not in kw
            assert {k: kw[k] for k in ("optimizer", "lr", "schedule", "clip_grad_norm")} == \
                {"optimizer": "rmsprop", "lr": 0.0001, "schedule": "stagewise", "clip_grad_norm": None}
            assert kw["weights_at"][0] == 0 and kw["weights_at"][-1] == steps
            assert kw["weights_at"] == sorted(kw["weights_at"])
    assert R.DEPTH_STEPS["paper"] == 2_000_000 and R.depth_steps("paper", 20) == 2_000_000
    assert R.DEPTH_LITERAL == ("paper_default", {"lr": 0.01, "momentum": 0.9, "schedule": "stagewise",
                                                 "clip_grad_norm": None})      # App. B + H.3 as written


def test_the_sweeps_reading_and_budgets_are_the_committed_probes():
    """The reading is the rule's choice in the probe's measurement, with that candidate's init and optimizer; quick's
    budget per depth is the rule's, recomputed here from the probe's own fit steps (three times the last probe seed's
    first step below the gate where that is past a third of the probe's budget)."""
    measured = R.depth_reading_measured()
    assert measured is not None and measured["rule"]["complete"]
    rule = measured["rule"]
    assert rule["chosen"] == R.DEPTH_READING
    name, init, fit, _ = next(r for r in R.DEPTH_READINGS if r[0] == R.DEPTH_READING)
    assert init == R.DEPTH_INIT["quick"] and fit == R.DEPTH_FIT["quick"]
    earlier = [c["name"] for c in rule["candidates"][:-1]]
    assert earlier == [r[0] for r in R.DEPTH_READINGS[:len(earlier)]]        # each closer candidate tried first
    assert all(not c["fits"] for c in rule["candidates"][:-1]) and rule["candidates"][-1]["fits"]
    chosen = rule["candidates"][-1]["depths"]
    for depth in runtime.pick("quick", **R.DEPTHS):
        last = max(v["first_below_gate"] for v in chosen[str(depth)].values())
        probe = R.depth_reading_budget(depth)
        assert all(v["loss_ratio_end"] < R.DEPTH_READING_GATE for v in chosen[str(depth)].values())
        assert R.depth_steps("quick", depth) == (probe if 3 * last <= probe else 3 * last) == rule["budgets"][str(depth)]


def test_the_literal_recipe_is_the_finding_the_notebook_prints():
    """The recipe as written stays measured (the probe's `finding`): its rows name each probe seed's loss at the end."""
    measured = R.depth_reading_measured()
    rows = R.literal_finding_rows(measured)
    assert "finding" in measured                                                 # committed with the probe
    assert len(rows) == len(R.DEPTH_READING_SEEDS) and all("of the zero prediction's" in r for r in rows)
    assert rows[0].startswith(f"seed {R.DEPTH_READING_SEEDS[0]}: ") and "dead from step 500" in rows[0]
    assert R.literal_finding_rows(None)[0].startswith("(the reading probe's measurement is not in this checkout")


def test_the_paper_profiles_depth_20_net_keeps_a_finite_loss():
    """The paper profile's optimizer from the paper's init does not diverge at depth 20 and learns: a smoke-sized net,
    its first hundred steps."""
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
    monkeypatch.setitem(R.DEPTH_FIT, "smoke", {**R.DEPTH_FIT["smoke"], "lr": 0.123})
    tour.identity("smoke")
    assert seen["steps"]["convnet"] == 77 and seen["recipes"]["convnet"]["lr"] == 0.123
    assert seen["channels"] == runtime.pick("smoke", **R.CHANNELS)


def test_the_claims_name_the_reading_with_the_probes_own_numbers():
    """Every claim that reads the depth sweep's nets names its reading; the literal recipe's losses and the step its
    ReLU layers died at, quoted there, are the probe's measurement (rounded as quoted)."""
    from memlib.claims import paper1, paper1_convnets
    text = paper1.DEPTH_SWEEP_READING
    assert R.DEPTH_READING in text
    finding = R.depth_reading_measured()["finding"]
    ends = " / ".join(f"{finding['runs'][str(s)]['end']['loss_ratio']:.4f}" for s in R.DEPTH_READING_SEEDS)
    assert f"end at {ends} of the zero prediction's loss" in text
    died = {next(t["step"] for t in r["track"] if t["dead_layers"]) for r in finding["runs"].values()}
    assert died == {500} and "dead from step 500" in text
    deep = [c for c in paper1.CLAIMS + paper1_convnets.CLAIMS if paper1.on_depth_sweep(c)]
    assert "p1.deep_convnet_constant" in {c.id for c in deep} and all(c.reading == text for c in deep)
    assert not any(c.reading for c in paper1.CLAIMS + paper1_convnets.CLAIMS if not paper1.on_depth_sweep(c))
