"""A recipe's settings as data: each value beside the paper's, where the paper states it, and why ours differs.

A recipe module registers every setting its notebook reads, once, where the value is defined:

    SETTINGS = Settings()
    SIZE = SETTINGS.add(dict(smoke=8, quick=16, paper=32), "image size (pixels a side)",
                        paper=32, cite="Sec. 3, 5", why="cost: ...")

`add` returns the value unchanged (one value, or runtime.pick's {profile: value} keywords), so the notebook, its
explorer and the tour read `recipe.SIZE` as before. What the registration adds is the departures table: at a
profile, `SETTINGS.departures(profile)` lists every setting whose value there differs from the paper's, and every
choice the paper leaves open (`paper=NOT_STATED`) or that is ours at every profile (`note`). The notebook records
them with `run.departures_from(recipe.SETTINGS)`, so a setting that departs from the paper cannot be missing from its
table, and `tests/test_recipe_settings.py` checks that each departure says why.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..runtime import PROFILES, pick

NOT_STATED = "not stated"     # the paper's value of a setting its text leaves open


def by_profile(value) -> bool:
    """Whether `value` is runtime.pick's {profile: value} keywords rather than one value for every profile."""
    return isinstance(value, dict) and bool(value) and set(value) <= set(PROFILES)


@dataclass(frozen=True)
class Setting:
    """One setting: what it is, the paper's value and where the paper gives it, ours, and why ours differs."""
    what: str          # its row in the departures table
    paper: Any         # the paper's value, or NOT_STATED
    cite: str          # where the paper states it ("Sec. 3", "Fig 6"), or why the text gives none
    value: Any         # ours: one value, or {profile: value}
    why: str = ""      # why ours differs from the paper's (required wherever it does)
    shown: str = ""    # how ours reads in the table where the value is not itself readable (a builder's keywords)
    always: bool = False   # a departure at every profile (an assumption, a choice the paper leaves open)

    def at(self, profile: str):
        """Our value at `profile`."""
        return pick(profile, **self.value) if by_profile(self.value) else self.value

    def departs(self, profile: str) -> bool:
        """Whether the table lists this setting at `profile`: ours differs from the paper's value, the paper states
        none, or it is marked a departure at every profile."""
        return self.always or self.paper == NOT_STATED or comparable(self.at(profile)) != comparable(self.paper)

    def row(self, profile: str) -> dict:
        """Its departures-table row at `profile`: setting, the paper's value (and where), ours, why."""
        paper = f"{self.paper} ({self.cite})" if self.cite else str(self.paper)
        return {"setting": self.what, "paper": str(paper), "ours": self.shown or str(self.at(profile)),
                "why": self.why}


def comparable(v):
    """Lists and tuples compare as sequences, nested: (64, 192) in the recipe equals [64, 192] in the paper's table."""
    return tuple(comparable(x) for x in v) if isinstance(v, (list, tuple)) else v


def each_profile(text, *values) -> dict:
    """A departures row's text at each profile: `text(*values)` with each value picked at the profile (one value, or
    {profile: value}), for a row that shows several settings or a value in the paper's words."""
    return {p: text(*(pick(p, **v) if by_profile(v) else v for v in values)) for p in PROFILES}


class Settings(list):
    """A recipe module's registered settings, in the order they are defined (the departures table's order)."""

    def add(self, value, what: str, *, paper, cite: str, why: str = "", shown: str = "", always: bool = False):
        """Register `value` as the setting `what` (the paper's value `paper`, given at `cite`) and return it."""
        self.append(Setting(what, paper, cite, value, why, shown, always))
        return value

    def note(self, what: str, *, paper: str, ours: str, why: str) -> None:
        """A departure that is no single value (a stopping rule, the layers of a net the text does not give): listed
        at every profile."""
        self.append(Setting(what, paper, "", ours, why, always=True))

    def departures(self, profile: str) -> list[dict]:
        """The departures-table rows at `profile`, in definition order."""
        return [s.row(profile) for s in self if s.departs(profile)]

    def problems(self) -> list[str]:
        """What is wrong with the registration: a departure at some profile that does not say why."""
        return [f"{s.what!r} departs from the paper at {p} but says no why" for s in self for p in PROFILES
                if s.departs(p) and not s.why.strip()]
