"""What quick leaves to `full` (memlib.harness.deferred): the papers' headline sections never leave, the others leave by
their measured seconds per claim decided, and the committed list is what that rule gives for the committed
measurements."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from memlib import claims
from memlib.claims import report
from memlib.harness import deferred, parts

NOTEBOOK_DIR = Path(__file__).resolve().parents[1] / "notebooks"


def _parts_of(name):
    return parts.parts_of(json.loads((NOTEBOOK_DIR / f"{name}.ipynb").read_text()))


def test_no_headline_section_is_left_to_full():
    for profile, notebooks in deferred.LEFT_TO_FULL.items():
        for nb, sections in notebooks.items():
            assert not {s.part for s in sections} & set(deferred.HEADLINE[nb]), (profile, nb)
    # the list of headlines: paper 2's Fig 3 with Theorem 2 at the digits and paper 1's Fig 4a run at quick
    assert "fig3" in deferred.HEADLINE["02_attractors"] and "fig4a" in deferred.HEADLINE["01_identity_vs_constant"]
    assert {"fig2_3", "fig5_6"} <= set(deferred.HEADLINE["03_downsampling_eigenvectors"])
    assert deferred.HEADLINE["04_rho_dynamics"] == ("fig1_4",)
    for nb in ("01_identity_vs_constant", "02_attractors"):
        assert not any(c.id.startswith(("p1.fig4a", "p2.fig3a", "p2.fig3b", "p2.thm2_fig3"))
                       for c in claims.CLAIMS if c.notebook == nb and deferred.section_of(c, "quick"))


def test_every_section_is_the_notebooks_own_and_every_claim_belongs_to_one():
    for nb, sections in deferred.SECTIONS.items():
        names = [s.name for s in sections]
        assert len(names) == len(set(names)) and set(deferred.HEADLINE[nb]) <= set(names)
        tagged = {s.name: s.prefixes for s in sections if s.part}
        assert sorted(tagged) == sorted(_parts_of(nb))                         # a part: the notebook's part:NAME
        assert {p: tuple(v) for p, v in tagged.items()} == dict(parts.METRICS.get(nb, {}))
        assert nb in deferred.NOTEBOOK_SECONDS and deferred.NOTEBOOK_SECONDS[nb][1]
        for s in sections:
            assert (s.seconds is None) == (not s.measured)                    # a measured time says where
    for c in claims.CLAIMS:
        assert deferred.section_for(c.notebook, c.metric) is not None, c.id


@dataclass(frozen=True)
class _Claim:
    notebook: str
    metric: str
    about: str = "trained"


def test_the_rule_leaves_the_costliest_per_claim_first_not_the_costliest():
    S = deferred.Section
    sections = {"nb": [S("big", "many claims", ("big.",), 600, part=True, measured="here"),
                       S("small", "one claim", ("small.",), 300, part=True, measured="here"),
                       S("none", "no claim", ("none.",), 50, part=True, measured="here"),
                       S("head", "the headline", ("head.",), 5000, part=True, measured="here"),
                       S("untimed", "not timed apart", ("untimed.",))]}
    made_up = ([_Claim("nb", f"big.{i}") for i in range(10)] + [_Claim("nb", "small.a")]
               + [_Claim("nb", "none.a", about="sanity")] + [_Claim("nb", "head.a")])
    decide = lambda total: deferred.decide(made_up, sections, {"nb": (total, "here")}, budget_s=1000, margin=0.1,
                                           headline={"nb": ("head",)})
    # 60 s per claim for "big", 300 for "small", none decided by "none" (a sanity check decides nothing)
    assert [s.name for _, s, _ in decide(1200).left] == ["none", "small"]     # 1200 - 50 - 300 = 850 <= 900
    assert decide(1200).fits and decide(1200).estimate_s == 850 and decide(1200).target_s == pytest.approx(900)
    assert [s.name for _, s, _ in decide(900).left] == []                      # it fits: nothing leaves
    over = decide(8000)                                                        # the headline never leaves
    # quick decides 12 claims in 8000 s, 667 s per claim: "small" (300) and "big" (60) are cheaper per verdict than
    # quick itself, so they stay, and the rule says quick does not fit
    assert [s.name for _, s, _ in over.left] == ["none"] and not over.fits
    assert [s.name for _, s in over.unmeasured] == ["untimed"]
    assert [n for _, _, n in over.left] == [0]
    dearer = decide(2200)                                                      # 183 s per claim: "small" leaves
    assert [s.name for _, s, _ in dearer.left] == ["none", "small"] and not dearer.fits


def test_the_committed_list_is_what_the_rule_gives_for_the_committed_measurements():
    result = deferred.decide(claims.CLAIMS)
    got: dict = {}
    for nb, s, n in result.left:
        if s.part:
            got.setdefault(nb, []).append(deferred.LeftToFull(s.name, s.what, s.seconds, s.prefixes, n))
    assert got == deferred.LEFT_TO_FULL["quick"]
    assert [(nb, s.name) for nb, s, _ in result.left if not s.part] == \
        [(nb, name) for nb, entries in deferred.TO_TAG["quick"].items() for name, _ in entries]
    assert result.total_s == sum(t for t, _ in deferred.NOTEBOOK_SECONDS.values())
    to_tag = sum(s.seconds for _, s, _ in result.left if not s.part)          # left by the rule, not yet parts
    assert result.estimate_s == result.total_s - sum(s.seconds for v in deferred.LEFT_TO_FULL["quick"].values()
                                                     for s in v) - to_tag
    costs = [s.per_claim for v in deferred.LEFT_TO_FULL["quick"].values() for s in v]
    assert costs == sorted(costs, reverse=True)                                # in the order they leave


def test_the_table_says_each_sections_seconds_claims_and_whether_it_leaves():
    text = deferred.table(claims.CLAIMS, "quick")
    row = {(ln.split()[0], ln.split()[1]): ln for ln in text.splitlines()[2:] if ln.startswith("  0")}
    assert row["02", "fig3"].split()[-1] == "runs" and " yes " in row["02", "fig3"]
    assert row["02", "fig7_8"].endswith("left to full") and " 512 " in row["02", "fig7_8"]
    assert " 171 " in row["02", "fig7_8"]                                      # 512 s over 3 claims
    assert row["03", "fig6_text_init"].endswith("left to full") and " inf " in row["03", "fig6_text_init"]
    assert row["01", "fig4a"].endswith("runs")
    assert f"Measured total {deferred.decide(claims.CLAIMS).total_s} s" in text
    assert deferred.table(claims.CLAIMS, "smoke").startswith("smoke: leaves no section")


def test_the_report_names_the_headline_sections_and_each_left_out_parts_seconds_per_claim(tmp_path):
    nb = "02_attractors"
    folder = tmp_path / "quick" / nb
    folder.mkdir(parents=True)
    (folder / "metrics.json").write_text(json.dumps({}))
    (folder / "provenance.json").write_text(json.dumps({"notebook": nb}))
    nbjson = json.loads((NOTEBOOK_DIR / f"{nb}.ipynb").read_text())
    left = [s.part for s in deferred.left_out("quick", nb)]
    record = parts.record([p for p in parts.parts_of(nbjson) if p not in left], nbjson, left_to_full=left)
    (folder / "parts.json").write_text(json.dumps(record))
    md = report.render(report.build(claims.CLAIMS, tmp_path, "quick"))
    assert "fig7_8 (512 s, 3 claims decided, 171 s per claim)" in md
    assert "Its headline sections, never left out: Fig 3a / 3b and Theorem 2 at their training digits." in md
