"""What the quick profile leaves to `full`: the sections whose training does not fit quick's budget.

Quick runs all four notebooks cold in at most 45 minutes on the 2-core development machine (the project's decision,
issue 40). Its recipes are not cut to get there: a section whose training does not fit is not run at quick, quick
says so, and `full` carries its verdict. Such a section is a notebook part (`part:NAME` cells,
memlib.harness.parts): a quick run executes every other part, records the left-out ones in `parts.json`, and the
report shows their claims as *not run: left to full*, with how to run them (`run --only NN --part NAME` at any
profile, or `--profile full`). The ledger's quick column says the same (`claims.core.leave_to_full`).

The rule, fixed before any quick run under it (session 31): rank the sections by their measured cold cell seconds at
quick (idle, 2 cores: notebook 02 session 29, band 220-224, and notebook 01 session 30, the larger of bands 310-31x and
320-32x, on an Intel Xeon; notebook 03 session 31, seeds 0-2, on an AMD EPYC), and leave the costliest to full until
the four notebooks' measured total (5,180 s then: 01 1,343, 02 2,605, 03 854, 04 378) fits 45 minutes with a 10 %
margin (40.5 minutes), keeping at quick what issue 40 asks quick to judge (paper 1's depth sweep and the figures that
read its nets: Fig 3a / 3b, 9-22, 33, Fig 10's classifier). Seven sections, 2,788 s, leave: an estimate of 2,392 s (40
minutes) left; measured after, cold and idle: 2,320 s (38.7 minutes, a 2-core AMD EPYC, session 31;
benchmarks/RESULTS.md).
Each entry: the part, what it holds, its measured seconds, and the metric prefixes it logs (a claim belongs to a
left-out part when its metric starts with one of them; tests/test_notebooks.py checks at smoke that a run without
the parts lacks exactly those metrics and logs every other one as the whole run does).
"""
from __future__ import annotations

from dataclasses import dataclass

QUICK_BUDGET_S = 45 * 60        # the project's decision (issue 40): quick, all four notebooks cold, 2 cores


@dataclass(frozen=True)
class LeftToFull:
    """One section quick does not run: `part` (its cells' tag), `what` it holds, the `seconds` its cells took at quick
    when it still ran there (measured, cold, idle), and the metric `prefixes` of its claims."""
    part: str
    what: str
    seconds: int
    prefixes: tuple

    def holds(self, metric: str) -> bool:
        return metric.startswith(self.prefixes)


# {profile: {notebook: [LeftToFull]}}, costliest first within a notebook
LEFT_TO_FULL = {"quick": {
    "02_attractors": [
        LeftToFull("fig3", "Fig 3a / 3b and Theorem 2 at their training digits", 724,
                   ("fig3a.", "fig3b.", "thm2.fig3a.", "thm2.fig3b.")),
        LeftToFull("fig7_8", "Fig 7 and 8 (D1 and D2)", 512, ("fig7.", "fig8.")),
        LeftToFull("fig5", "Fig 5a / 5b", 363, ("fig5a.", "fig5b.")),
        LeftToFull("fig11", "Fig 11", 314, ("fig11.",)),
        LeftToFull("fig4", "Fig 4", 208, ("fig4.",)),
    ],
    "03_downsampling_eigenvectors": [
        # the text's U(+-1/sqrt(P)) for Fig 6's D_{64,192}: a departure's other reading, which no claim reads (the
        # net does not train from it at 16x16, so it runs its whole step budget)
        LeftToFull("fig6_text_init", "Fig 6's D_{64,192} from the text's initialization formula", 496,
                   ("fig6.text_init.",)),
    ],
    "01_identity_vs_constant": [
        LeftToFull("fig4a", "Fig 4a", 171, ("fig4a.",)),
    ],
}}


def left_out(profile: str, notebook: str) -> list[LeftToFull]:
    """The sections of `notebook` that `profile` leaves to full (none at any other profile)."""
    return list(LEFT_TO_FULL.get(profile, {}).get(notebook, []))


def section_of(claim, profile: str) -> LeftToFull | None:
    """The left-out section a claim belongs to at `profile` (None: the profile runs it)."""
    return next((s for s in left_out(profile, claim.notebook) if s.holds(claim.metric)), None)


def reason(section: LeftToFull, notebook: str, profile: str) -> str:
    """Why a left-out section's claim is not run at `profile`, and how to run it."""
    return (f"not run at {profile}: {section.what} took about {section.seconds} s of {profile}'s cold run on 2 cores, "
            f"more than its {QUICK_BUDGET_S // 60} minutes hold beside the rest (memlib/harness/deferred.py), so "
            f"`full` carries the verdict "
            f"(`./run_all.sh --profile full --only {notebook[:2]} --part {section.part}`; at {profile}: "
            f"`--only {notebook[:2]} --part {section.part}`)")
