"""Issue 43: settings as data. A recipe registers each setting with the paper's value and why ours differs
(memlib.recipes.settings); the notebook's departures table is generated from the registration, so a setting that
departs from the paper cannot be missing from it."""
from pathlib import Path

import nbformat
import pytest

from memlib.recipes import paper2, paper3
from memlib.recipes.settings import NOT_STATED, Settings
from memlib.runtime import PROFILES

ROOT = Path(__file__).resolve().parent.parent

REGISTERED = {"paper2": paper2, "paper3": paper3}   # notebooks that generate their departures


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


def test_notebook_03_records_its_departures_from_the_recipe_not_by_hand():
    cells = [c.source for c in nbformat.read(ROOT / "notebooks" / "03_downsampling_eigenvectors.ipynb", 4).cells
             if c.cell_type == "code"]
    assert sum("run.departures_from(recipe.SETTINGS)" in c for c in cells) == 1
    # only the data source, which depends on what the data root holds, is recorded by hand
    assert sum(c.count("run.departure(") for c in cells) == 1


def test_notebook_02_records_its_departures_from_the_recipe_and_reads_every_setting_there():
    cells = [c.source for c in nbformat.read(ROOT / "notebooks" / "02_attractors.ipynb", 4).cells
             if c.cell_type == "code"]
    assert sum("run.departures_from(recipe.SETTINGS)" in c for c in cells) == 1
    # only the two data sets, which depend on what the data root holds, are recorded by hand
    assert sum(c.count("run.departure(") for c in cells) == 2
    picks = [ln.strip() for c in cells for ln in c.splitlines() if "run.pick(" in ln]
    assert len(picks) >= 60 and all("run.pick(**recipe." in ln for ln in picks), picks
    # the settings the table does not list (seed bands, inputs, iterations shown) are registered too
    assert paper2.UNLISTED.problems() == [] and len(paper2.UNLISTED) >= 20   # measurement choices only
