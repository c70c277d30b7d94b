"""memlib.recipes.paper3 / paper4: notebooks 03 and 04's training settings in one place (issue 29), read by the
notebook, its explorer's defaults and the tour; the tour's first view of each explorer asks for exactly the nets the
notebook trained (the smoke run's tour test, tests/test_notebooks.py, checks it on real models)."""
import ast
import inspect
import json
from pathlib import Path

import pytest
import torch

from memlib import claims, data, runtime
from memlib.recipes import paper3 as R3
from memlib.recipes import paper4 as R4
from memlib.widgets import downsampling, rho

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
NB3, NB4 = NOTEBOOKS / "03_downsampling_eigenvectors.ipynb", NOTEBOOKS / "04_rho_dynamics.ipynb"
TOUR_PROFILES = ("smoke", "quick")


def _code(path: Path) -> str:
    nb = json.loads(path.read_text())
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


def _from_recipe(node):
    """('pick', X) for `run.pick(**recipe.X)`, ('value', X) for `recipe.X`, ('call', f) for `recipe.f(run.profile)`,
    else None."""
    is_recipe = lambda n: isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "recipe"
    if is_recipe(node):
        return "value", node.attr
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "pick" and not node.args and len(node.keywords) == 1 and node.keywords[0].arg is None \
                and is_recipe(node.keywords[0].value):
            return "pick", node.keywords[0].value.attr
        if is_recipe(node.func) and ast.unparse(node.args) == "run.profile" and not node.keywords:
            return "call", node.func.attr
    return None


def _notebook_settings(path: Path) -> dict:
    """{NAME: ('pick' | 'value', recipe attribute)} for every module-level assignment `NAME = run.pick(**recipe.X)`,
    `NAME = recipe.X` or `A, B = recipe.A, recipe.B` in the notebook's code."""
    out = {}
    for node in ast.parse(_code(path)).body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        pairs = (zip(target.elts, value.elts) if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)
                 else [(target, value)])
        for t, v in pairs:
            if isinstance(t, ast.Name) and _from_recipe(v):
                out[t.id] = _from_recipe(v)
    return out


def _value(recipe, how, profile):
    kind, attr = how
    got = getattr(recipe, attr)
    return {"pick": lambda: runtime.pick(profile, **got), "value": lambda: got, "call": lambda: got(profile)}[kind]()


def _explorer_keywords(path: Path, recipe, profile: str) -> dict:
    """The keywords the notebook's explorer cell passes that come from the recipe, at `profile`: {keyword: value}.
    Notebook 03 passes `settings = dict(...)`, notebook 04 calls `rho_explorer(...)`."""
    tree, names = ast.parse(_code(path)), _notebook_settings(path)
    calls = [n.value for n in tree.body if isinstance(n, ast.Assign) and ast.unparse(n.targets[0]) == "settings"]
    calls += [n.value for n in tree.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)
              and ast.unparse(n.value.func) == "rho_explorer"]
    assert len(calls) == 1, f"{path.name}: the explorer cell is not where this test looks"
    out = {}
    for kw in calls[0].keywords:
        how = _from_recipe(kw.value) or (names.get(kw.value.id) if isinstance(kw.value, ast.Name) else None)
        if how:
            out[kw.arg] = _value(recipe, how, profile)
    return out


def _same(a, b) -> bool:
    return type(a) is type(b) and a == b


# ---------------------------------------------------------------- the notebooks read the recipes
def test_notebook_03_reads_its_training_settings_from_the_recipe():
    code = _code(NB3)
    assert "from memlib.recipes import paper3 as recipe" in code
    for name, attr in [("SIZE", "SIZE"), ("DS_STEPS", "DS_STEPS"), ("D_FILTERS", "D_FILTERS"), ("D_STOPS", "D_STOPS"),
                       ("AB", "AB"), ("AB_LR", "AB_LR"), ("AB_STEPS", "AB_STEPS"), ("APPD_AB", "APPD_AB"),
                       ("APPD_LR", "APPD_LR"), ("NL_AB", "NL_AB"), ("NL_STEPS", "NL_STEPS"), ("NL_LR", "NL_LR"),
                       ("UNET_LEVELS", "UNET_LEVELS"), ("UNET_CHANNELS", "UNET_CHANNELS"), ("UNET_STEPS", "UNET_STEPS")]:
        assert f"{name} = run.pick(**recipe.{attr})" in code, f"notebook 03 sets {name} itself, not from the recipe"
    for name in ("ND_AB", "AB_UNTIL", "APPD_UNTIL", "DS_LR", "N_CLASSES", "INITS", "DEFAULT_INIT", "OTHER_INIT",
                 "SEC5_INIT", "SEC5_OTHER_INIT"):
        assert f"{name} = recipe.{name}" in code, f"notebook 03 sets {name} itself, not from the recipe"
    assert "ADAM = dict(optimizer=recipe.OPTIMIZER)" in code
    for copy in ("quick=6000", "quick=(64, 192)", "quick=(16, 48)", "AB_UNTIL = 1e-5", 'DEFAULT_INIT = "default"'):
        assert copy not in code, f"notebook 03 still writes {copy!r}"
    assert "explore.downsampling_explorer(**settings)" in code


def test_notebook_04_reads_its_training_settings_from_the_recipe():
    code = _code(NB4)
    assert "from memlib.recipes import paper4 as recipe" in code
    for name in ("EPOCHS", "WIDTH", "CHANNELS", "LR_WD", "NORMS_BNWD", "NORMS_NONE", "CLASSES", "BAND_EPOCHS"):
        assert f"{name} = run.pick(**recipe.{name})" in code, f"notebook 04 sets {name} itself, not from the recipe"
    for line in ("LR_BN, LR_NONE = recipe.LR_BN, recipe.LR_NONE", "WD = recipe.WD", "NORMS_BN = recipe.NORMS_BN",
                 "norms=recipe.norms(run.profile), lr_bnwd=LR_WD",
                 "x, y = recipe.binary_data(DATA, profile, root=data_root)"):
        assert line in code, f"notebook 04 no longer reads {line!r}"
    for copy in ("quick=300", "quick=[5.0, 6.0, 7.0]", "quick=0.01", "(3, 8)"):
        assert copy not in code, f"notebook 04 still writes {copy!r}"


# ---------------------------------------------------------------- the tour asks for the notebooks' nets
@pytest.mark.parametrize("profile", TOUR_PROFILES)
def test_the_tours_downsampling_view_is_the_notebooks_explorer(profile, monkeypatch):
    from memlib.widgets import tour
    seen = {}
    monkeypatch.setattr(downsampling, "downsampling_explorer", lambda **kw: seen.update(kw))
    tour.downsampling(profile)
    notebook = _explorer_keywords(NB3, R3, profile)
    assert set(notebook) == set(seen) - {"seed", "pool", "test_pool"}, "the tour and notebook 03 pass other settings"
    for k, v in notebook.items():
        assert _same(seen[k], v), f"tour.downsampling({profile!r}): {k}={seen[k]!r}, notebook 03: {v!r}"
    assert seen["seed"] == 0 and seen["init"] == R3.SEC5_INIT             # notebook 03's default seed parameter
    assert (seen["size"], seen["ab"], seen["steps"], seen["lr"]) == tuple(
        runtime.pick(profile, **getattr(R3, a)) for a in ("SIZE", "AB", "AB_STEPS", "AB_LR"))


@pytest.mark.parametrize("profile", TOUR_PROFILES)
def test_the_tours_rho_view_is_the_notebooks_explorer(profile, monkeypatch):
    from memlib.widgets import tour
    seen = {}
    monkeypatch.setattr(rho, "rho_explorer", lambda *a, **kw: seen.update(kw, args=a))
    tour.rho(profile)
    notebook = _explorer_keywords(NB4, R4, profile)
    assert set(notebook) == set(seen) - {"args", "seed", "x_test", "y_test"}, "the tour and notebook 04 pass others"
    for k, v in notebook.items():
        assert _same(seen[k], v), f"tour.rho({profile!r}): {k}={seen[k]!r}, notebook 04: {v!r}"
    assert seen["seed"] == 0 and seen["epochs"] == runtime.pick(profile, **R4.EPOCHS)
    # the notebook's task: recipe.binary_data on MNIST where data/ holds it (data_root="auto"), else the digits
    root, _ = data.resolve_root("auto")
    name, root = ("mnist", root) if data.holds(root, "mnist") else ("digits", None)
    x, y = R4.binary_data(name, profile, root=root)
    assert torch.equal(seen["args"][0], x) and torch.equal(seen["args"][1], y)
    if name == "mnist":                      # the training subset, not every image (the digits hold fewer)
        assert len(x) == (runtime.pick(profile, **R4.TRAIN_SIZE) or len(x))


def test_values_changed_in_the_recipes_reach_the_tour(monkeypatch):
    from memlib.widgets import tour
    seen = {}
    monkeypatch.setattr(downsampling, "downsampling_explorer", lambda **kw: seen.update(kw))
    monkeypatch.setattr(rho, "rho_explorer", lambda *a, **kw: seen.update(kw))
    monkeypatch.setitem(R3.AB_STEPS, "smoke", 77)
    monkeypatch.setitem(R3.NL_AB, "smoke", (3, 9))
    monkeypatch.setattr(R3, "AB_UNTIL", 2e-5)
    tour.downsampling("smoke")
    assert seen["steps"] == 77 and seen["nl_ab"] == (3, 9) and seen["until_loss"] == 2e-5
    monkeypatch.setitem(R4.EPOCHS, "smoke", 5)
    monkeypatch.setitem(R4.NORMS_NONE, "smoke", [5.0, 9.0])
    monkeypatch.setitem(R4.LR_WD, "smoke", 0.05)
    tour.rho("smoke")
    assert seen["epochs"] == 5 and 9.0 in seen["norms"] and seen["lr_bnwd"] == 0.05


# ---------------------------------------------------------------- the explorers' defaults
def test_the_explorers_defaults_are_the_quick_recipe():
    d = {k: p.default for k, p in inspect.signature(downsampling.render_downsampling).parameters.items()}
    for key, attr in [("size", "SIZE"), ("ab", "AB"), ("nl_ab", "NL_AB"), ("steps", "AB_STEPS"),
                      ("nl_steps", "NL_STEPS"), ("lr", "AB_LR"), ("nl_lr", "NL_LR")]:
        assert _same(d[key], runtime.pick("quick", **getattr(R3, attr))), key
    assert d["nd_ab"] == R3.ND_AB and d["until_loss"] == R3.AB_UNTIL and d["init"] == R3.SEC5_INIT
    b = {k: p.default for k, p in inspect.signature(downsampling.network_builder).parameters.items()}
    assert (b["ab"], b["nd_ab"], b["nl_ab"]) == (d["ab"], d["nd_ab"], d["nl_ab"])
    r = {k: p.default for k, p in inspect.signature(rho.rho_explorer).parameters.items()}
    assert (r["epochs"], r["width"], r["channels"], r["lr_bnwd"]) == tuple(
        runtime.pick("quick", **getattr(R4, a)) for a in ("EPOCHS", "WIDTH", "CHANNELS", "LR_WD"))
    assert list(r["norms"]) == R4.norms("quick") and r["weight_decays"] == (0.0, R4.WD)


def test_the_rho_explorers_paper_rates_are_the_recipes():
    assert rho.paper_lr(True, 0.0) == R4.LR_BN                         # Fig 5
    assert rho.paper_lr(True, R4.WD) == R4.LR_WD["paper"]               # Fig 1
    assert rho.paper_lr(False, 0.0) == R4.LR_NONE                       # Fig 9


@pytest.mark.parametrize("profile", runtime.PROFILES)
def test_the_explorers_norms_are_every_norm_the_notebook_trains(profile):
    norms = R4.norms(profile)
    trained = runtime.pick(profile, **R4.NORMS_BNWD) + R4.NORMS_BN + runtime.pick(profile, **R4.NORMS_NONE)
    assert norms == sorted(norms) and set(norms) == set(trained) and len(set(norms)) == len(norms)


def test_each_section_of_paper_3_is_judged_on_one_reading_of_its_initialization_and_measures_the_other():
    """Issue 41: the text calls its init PyTorch's default and writes a formula sqrt(c_out) times smaller. Sec. 3
    is judged on the formula, Sec. 5-6 and App. D on PyTorch's default (under the formula their nets do not train);
    the other reading is trained beside each, and the notebook's table reads both."""
    assert (R3.DEFAULT_INIT, R3.OTHER_INIT) == (R3.TEXT_INIT, R3.PYTORCH_INIT)
    assert (R3.SEC5_INIT, R3.SEC5_OTHER_INIT) == (R3.PYTORCH_INIT, R3.TEXT_INIT)
    code = _code(NB3)
    sec5 = code[code.index("ab_nets = {"):]                          # Fig 5-6 on: Sec. 5-6 and App. D
    assert "init=DEFAULT_INIT" not in sec5 and "init=OTHER_INIT" not in sec5
    assert sec5.count("init=SEC5_OTHER_INIT") == 2                    # Fig 6 and App. D, the formula beside
    table = R3.init_table()
    by_id = {c.id: c for c in claims.CLAIMS}
    for label, claim, section, *keys in R3.INIT_ROWS:
        for k in keys:
            for infix in R3.INFIX[section].values():
                assert "{" + k.format(init=infix) + "}" in table
        if claim:    # the row's first metric, under the judged reading, is what its claim tests
            assert by_id[claim].metric == keys[0].format(init="").split(":")[0], (label, claim)
    assert "**{fig6.D.k1.rank_excess:.3f}**" in table and "{fig6.text_init.D.k1.rank_excess:.3f}" in table
    assert "**{fig2.D.point_map_corr:.2f}**" in table and "{fig2.pytorch_init.D.point_map_corr:.2f}" in table


def test_the_paper4_updates_probe_applies_its_written_rule(monkeypatch, tmp_path):
    """benchmarks/probes/paper4_updates.py (issue 42): a run passes with margin only without divergence, with no
    training digit misclassified and below half the fit gate; the choice is the smallest count every run passes,
    else the count most runs pass, ties to the cheaper."""
    import importlib.util
    import sys
    monkeypatch.setenv("MEMLIB_CACHE", str(tmp_path / "cache"))     # the probe sets its own cache only by default
    probes = Path(__file__).resolve().parents[1] / "benchmarks" / "probes"
    monkeypatch.syspath_prepend(str(probes))
    spec = importlib.util.spec_from_file_location("paper4_updates_probe", probes / "paper4_updates.py")
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)
    sys.modules.pop("paper4_recipe", None)

    def row(u, *, errors=0, loss=0.01, diverged=False):
        return dict(regime="bnwd", updates=u, diverged=diverged, train_errors=errors, loss_ratio=loss, wall_s=1.0)

    assert probe.passes_with_margin(row(4000))
    assert not probe.passes_with_margin(row(4000, loss=0.03))           # past the gate (5 %), not past its half
    assert not probe.passes_with_margin(row(4000, errors=1))
    assert not probe.passes_with_margin(row(4000, diverged=True))
    rows = [row(4000, errors=1), row(4000), row(8000), row(8000), row(16000), row(16000)]
    assert probe.choose(rows, "bnwd", (4000, 8000, 16000))[0] == 8000   # the smallest count every run passes
    rows = [row(4000, errors=1), row(4000), row(8000, loss=0.04), row(8000), row(16000, errors=2), row(16000)]
    assert probe.choose(rows, "bnwd", (4000, 8000, 16000))[0] == 4000   # none passes all: most, ties to the cheaper
    rows[0] = row(4000, errors=1, diverged=True)
    rows[4] = row(16000)
    assert probe.choose(rows, "bnwd", (4000, 8000, 16000))[0] == 16000
