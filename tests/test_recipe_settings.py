"""Issue 43: settings as data. A recipe registers each setting with the paper's value and why ours differs
(memlib.recipes.settings); the notebook's departures table is generated from the registration, so a setting that
departs from the paper cannot be missing from it."""
from pathlib import Path

import nbformat
import pytest

from memlib.recipes import paper1, paper2, paper3, paper4
from memlib.recipes.settings import NOT_STATED, Settings
from memlib.runtime import PROFILES

ROOT = Path(__file__).resolve().parent.parent

REGISTERED = {"paper1": paper1, "paper2": paper2, "paper3": paper3,   # generate their departures
              "paper4": paper4}


def test_a_setting_is_listed_exactly_where_ours_differs_from_the_papers():
    s = Settings()
    size = s.add(dict(smoke=8, quick=16, paper=32), "image size", paper=32, cite="Sec. 3", why="cost")
    assert size == dict(smoke=8, quick=16, paper=32)           # the value is returned unchanged
    s.add(dict(smoke=[10, 50], quick=[10, 100], paper=(10, 100)), "stops", paper=[10, 100], cite="Fig 3",
          why="smoke: CI only")                                  # a tuple and a list of the same numbers agree
    s.add(1e-3, "learning rate", paper=NOT_STATED, cite="Sec. 3", why="ours: the text gives none")
    s.note("stopping rule", paper="a plateau test", ours="a loss threshold", why="fit stops at a loss")
    assert [d["setting"] for d in s.departures("paper")] == ["learning rate", "stopping rule"]
    assert [d["setting"] for d in s.departures("quick")] == ["image size", "learning rate", "stopping rule"]
    assert [d["setting"] for d in s.departures("smoke")] == ["image size", "stops", "learning rate", "stopping rule"]
    row = s.departures("quick")[0]
    assert row == {"setting": "image size", "paper": "32 (Sec. 3)", "ours": "16", "why": "cost"}
    assert s.departures("full") == s.departures("paper")        # full falls back to the paper's values
    assert s.problems() == []
    s.add(dict(smoke=1, quick=2, paper=3), "budget", paper=3, cite="App. B")   # departs at quick, says no why
    assert s.problems() == ["'budget' departs from the paper at smoke but says no why",
                            "'budget' departs from the paper at quick but says no why"]


@pytest.mark.parametrize("name", sorted(REGISTERED))
def test_every_registered_departure_says_why_at_every_profile(name):
    settings = REGISTERED[name].SETTINGS
    assert len(settings) >= 10 and settings.problems() == []
    for p in PROFILES:
        for d in settings.departures(p):
            assert d["ours"] != d["paper"] and d["why"].strip(), (p, d)


# notebook -> (its departures recorded by hand: the data sets, which depend on what the data root holds; the least
# number of `run.pick` lines it has)
NOTEBOOKS = {"01_identity_vs_constant": (2, 40), "02_attractors": (2, 60), "03_downsampling_eigenvectors": (1, 15),
             "04_rho_dynamics": (1, 10)}


@pytest.mark.parametrize("name", sorted(NOTEBOOKS))
def test_a_notebook_records_its_departures_from_the_recipe_and_reads_every_setting_there(name):
    by_hand, least_picks = NOTEBOOKS[name]
    cells = [c.source for c in nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", 4).cells if c.cell_type == "code"]
    assert sum("run.departures_from(recipe.SETTINGS)" in c for c in cells) == 1
    assert sum(c.count("run.departure(") for c in cells) == by_hand
    picks = [ln.strip() for c in cells for ln in c.splitlines() if "run.pick(" in ln]
    assert len(picks) >= least_picks and all("run.pick(**recipe." in ln for ln in picks), picks


def test_notebook_01_records_its_departures_right_after_its_settings():
    cells = [c.source for c in nbformat.read(ROOT / "notebooks" / "01_identity_vs_constant.ipynb", 4).cells
             if c.cell_type == "code"]
    settings = next(i for i, c in enumerate(cells) if "run.pick(**recipe.SGD_FIT)" in c)
    assert "run.departures_from(recipe.SETTINGS)" in cells[settings + 1]


def test_the_measurement_choices_are_registered_apart_from_the_papers_settings():
    # the settings the table does not list (seed bands, probes, iterations shown) are registered too
    assert paper1.UNLISTED.problems() == [] and len(paper1.UNLISTED) >= 8
    assert paper2.UNLISTED.problems() == [] and len(paper2.UNLISTED) >= 20


# Notebook 04's hand-written departures before issue 43 (but the data row, still by hand): setting -> the profiles
# that listed it (s, q, f, p)
P4_BY_HAND = {
    "SGD updates, fully connected nets (Fig 1-4, 9-11)": "sqf", "SGD updates, ConvNet (Fig 5-8)": "sqf",
    "epochs of the seed bands": "s", "initial norms, BN + weight decay": "s",
    "initial norms, neither BN nor weight decay": "s", "width of the fully connected nets (Fig 1, 9)": "sqfp",
    "ConvNet of Fig 5": "sqfp", "which two classes": "sqfp",
    # Fig 1-4's BatchNorm is now the text's ("Batch normalization is used": PyTorch's default, with parameters), not a
    # departure; the parameter-free BN it had is the departure measured beside it
    "BatchNorm without parameters, BN + weight decay (Fig 1-4), measured beside": "sqfp"}


@pytest.mark.parametrize("profile", PROFILES)
def test_paper4s_generated_table_holds_the_rows_of_its_hand_written_one(profile):
    listed = {d["setting"] for d in paper4.SETTINGS.departures(profile)}
    assert listed == {s for s, at in P4_BY_HAND.items() if profile[0] in at}


# Notebook 01's hand-written departures before issue 43 (but the two data sets, still by hand):
# setting -> the profiles that listed it (s, q, f, p), in the table's order
P1_BY_HAND = {
    "optimizer, Fig 3a's depth sweep": "sqfp", "steps (a budget per depth), Fig 3a's depth sweep": "sqf", "SGD steps, Fig 2's deep FCNs": "sqf",
    "SGD steps, Fig 2's 1-layer linear net": "sqf", "hidden units, Fig 2's FCNs": "sq",
    "ConvNet depths, Fig 3a / 9": "sqf",
    "gradient clipping, Fig 2's deep FCNs and the sweeps' ConvNets (not Fig 3a's depth sweep)":
        "sqf",
    "ConvNet channels": "sqfp", "initialization (every net but the depth sweep's and Fig 29's)":
        "sqfp",
    "training digit": "sqfp", "hidden units, Fig 5-8's FCNs": "sq",
    "hidden layers, Fig 8's FCNs": "sq", "SGD steps, Fig 5-8's linear / ReLU FCNs, Fig 6": "sqf",
    "widths, Fig 5": "sq", "hidden layers, Fig 5 / Fig 7": "s", "widths, Fig 6": "s",
    "training examples, Fig 34 / 35": "s", "steps, Fig 34-35 FCNs / ConvNets": "sqf",
    "steps, Fig 36 FCNs / ConvNets (minibatches)": "sqf", "nets of Fig 34-35": "sq",
    "nets of Fig 36 (many examples)": "sqf", "channels, Fig 34-36 ConvNets": "sqfp",
    "minibatch, Fig 36": "sqfp", "optimizer, Fig 34-36's FCNs": "sqf",
    "steps, the sweeps' 5-layer ConvNets": "sqf",
    "steps, Fig 4b / 23 / 24 (channels, 3-channel depths)": "sqf",
    "steps and stopping, Fig 29 (every scheme)": "sqf", "input sizes, Fig 3b / 18": "s",
    "training sizes, Fig 4a": "s", "depths, Fig 4a": "sqf", "channels, Fig 4b / 23": "sq",
    "depths of the 3-channel nets, Fig 24": "sq", "filter sizes, Fig 27 / 28": "sqf",
    "initializations, Fig 29": "s", "optimizers, Fig 30": "s",
    "depths shown layer by layer, Fig 12-14": "sqf",
    "reference / test images of the averaging classifier, Fig 10": "sqf"}


@pytest.mark.parametrize("profile", PROFILES)
def test_paper1s_generated_table_holds_the_rows_of_its_hand_written_one(profile):
    listed = [d["setting"] for d in paper1.SETTINGS.departures(profile)]
    assert listed == [s for s, at in P1_BY_HAND.items() if profile[0] in at]
