"""What the quick profile leaves to `full`: the sections whose training does not fit quick's budget.

Quick runs all four notebooks cold in at most 45 minutes on the 2-core development machine (the project's decision). Its recipes are not cut to get there: a section whose training does not fit is not run at quick, quick
says so, and `full` carries its verdict. Such a section is a notebook part (`part:NAME` cells,
memlib.harness.parts): a quick run executes every other part, records the left-out ones in `parts.json`, and the
report shows their claims as *not run: left to full*, with how to run them (`run --only NN --part NAME` at any
profile, or `--profile full`). The ledger's quick column says the same (`claims.core.leave_to_full`).

The rule (`decide`): the sections that hold a paper's headline (`HEADLINE`) never leave quick. The others leave, if
any must, by their measured cold seconds per claim decided (a claim is decided by the section whose metric prefix its
metric starts with, the longest such; sanity checks, true by construction, decide nothing), the costliest per claim
first (a section that decides none first of all), until the four notebooks' measured total fits 45 minutes with a
10 % margin (40.5 minutes); a section cheaper per claim than quick as a whole never leaves (leaving it makes quick
slower per verdict). No claim's outcome enters the ranking. Its inputs are measured, cold, on an idle 2-core
machine, and kept here as data with where they were measured (`NOTEBOOK_SECONDS`, `SECTIONS`, each naming its seed
band and machine as benchmarks/RESULTS.md records them): the whole notebooks (5,670 s: 01 1,984, 02 2,420, 03 854,
04 412) and the sections whose cells were timed apart. `LEFT_TO_FULL` is what the rule gives for them (tests/test_deferred.py checks it equals `decide`'s
result); a section the rule would leave that is not yet a notebook part (no `part:NAME` cells) cannot leave until its
cells are tagged, and is listed instead in `TO_TAG`.
Each entry of `LEFT_TO_FULL`: the part, what it holds, its measured seconds, its metric prefixes (a claim belongs to a
left-out part when its metric starts with one of them; tests/test_notebooks.py checks at smoke that a run without
the parts lacks exactly those metrics and logs every other one as the whole run does) and the claims it decides.
"""
from __future__ import annotations

from dataclasses import dataclass

QUICK_BUDGET_S = 45 * 60        # the project's decision: quick, all four notebooks cold, 2 cores


MARGIN = 0.10                   # the rule keeps the measured total 10 % under the budget (40.5 minutes)

XEON, EPYC = "a 2-core Intel Xeon (AVX512 kernels)", "a 2-core AMD EPYC (AVX512 kernels)"

# Each notebook's cold quick run, whole, idle (seconds, where): the rule's total is their sum, less what leaves.
NOTEBOOK_SECONDS = {
    "01_identity_vs_constant": (1984, f"seeds 0-2, the depth sweep under its reading (Fig 30's RMSprop), on {XEON}"),
    "02_attractors": (2420, f"the parts quick keeps, 1,023 s cold (seeds 0-2), with the four it leaves to full as band "
                            f"220-224's whole run measured them (1,397 s), on {XEON}"),
    "03_downsampling_eigenvectors": (854, f"seeds 0-2, on {EPYC}"),
    "04_rho_dynamics": (412, f"seeds 0-2 with Fig 1-4's BatchNorm measured with and without parameters, on {XEON}"),
}


@dataclass(frozen=True)
class Section:
    """One section of a notebook: `name` (its `part:NAME` tag where `part`, else a short name), `what` it holds, the
    metric `prefixes` it logs, the `seconds` its cells took in the notebook's cold quick run of `NOTEBOOK_SECONDS`
    (None: not timed apart; its time is in the notebook's rest), and where they were measured."""
    name: str
    what: str
    prefixes: tuple
    seconds: int | None = None
    part: bool = False
    measured: str = ""

    def holds(self, metric: str) -> bool:
        return metric.startswith(self.prefixes)


S = Section
# Every section that logs a claim's metric, by notebook, in the notebook's order. A section without `part` runs in
# every run of its notebook (untagged cells): it cannot leave quick until its cells are tagged.
SECTIONS = {
    "01_identity_vs_constant": [
        S("fig2", "Fig 2 (FCNs, eq. 1)", ("fig2.",)),
        S("fig5_8", "Fig 5-8, 31, 32 (FCNs of several depths and widths)", ("fig5.", "fig6.", "fig7.", "fig8.")),
        S("fig3a", "Fig 3a, 9, 33: the depth sweep", ("fig3a.", "fig9.", "fig33."), 1014,
          measured="its bands' cell 817 s and the jobs cell 197 s (which also trains the FCN bands together), the "
                   f"notebook's run above, on {XEON}"),
        S("fig34_36", "Fig 1, 34-36 (2, 3 and many examples)", ("fig34.", "fig35.", "fig36."), 81, part=True,
          measured=f"the notebook's run above, on {XEON}"),
        S("fig3b_18_19", "Fig 3b, 18, 19 (the sweep's deepest net on inputs of other sizes)",
          ("fig3b.", "fig18.", "fig19."), 22, measured=f"the notebook's run above, on {XEON}"),
        S("fig4a", "Fig 4a", ("fig4a.",), 456, part=True, measured=f"the notebook's run above, on {XEON}"),
        S("fig4b_23_26", "Fig 4b, 23-26 (channels)", ("fig23.", "fig24.", "fig25."), 50, measured=f"the notebook's run above, on {XEON}"),
        S("fig27_28", "Fig 27-28 (filter sizes)", ("fig27.",), 46, measured=f"the notebook's run above, on {XEON}"),
        S("fig29", "Fig 29 (initialization schemes)", ("fig29.",), 31, measured=f"the notebook's run above, on {XEON}"),
        S("fig30", "Fig 30 (optimizers)", ("fig30.",), 25, measured=f"the notebook's run above, on {XEON}"),
        S("fig10", "Fig 10 (App. F's classifier on the sweep's nets)", ("fig10.",), 177,
          measured=f"its two cells, 142 and 35 s, the notebook's run above, on {XEON}"),
        S("fig11_14", "Fig 11-14 (the sweep's nets' intermediate representations)",
          ("fig11.", "fig12.", "fig13.", "fig14."), 12, measured=f"the notebook's run above, on {XEON}"),
        S("fig15_17", "Fig 15-17 (how far the sweep's nets' layers moved)", ("fig15.", "fig16.", "fig17."), 1,
          measured=f"the notebook's run above, on {XEON}"),
        S("fig20_22", "Fig 20-22 (the sweep's nets' upper subnetworks)", ("fig20.", "fig22."), 8, measured=f"the notebook's run above, on {XEON}"),
    ],
    "02_attractors": [
        S("fig1a", "Fig 1a (1-D)", ("fig1a.",), 31, measured=f"the notebook's run above, on {XEON}"),
        S("fig1b", "Fig 1b (a U-Net on one image)", ("fig1b.",), 34, measured=f"the notebook's run above, on {XEON}"),
        S("thm1", "Theorem 1", ("thm1.",), 7, measured=f"the notebook's run above, on {XEON}"),
        S("fig2", "Fig 2 (Swiss roll) and Theorem 2 on it", ("fig2.", "thm2.swiss."), 51, measured=f"the notebook's run above, on {XEON}"),
        S("fig3", "Fig 3a / 3b and Theorem 2 at their training digits", ("fig3a.", "fig3b.", "thm2.fig3a.",
                                                                          "thm2.fig3b."), 657, part=True,
          measured=f"the notebook's run above, on {XEON}"),
        S("fig4", "Fig 4", ("fig4.",), 208, part=True, measured=f"band 220-224's whole run, on {XEON}"),
        S("thm3", "Theorem 3", ("thm3.",), 40, measured=f"the notebook's run above, on {XEON}"),
        S("fig9_10", "Fig 9 and 10 (single-filter nets)", ("fig9.", "fig10."), 49, measured=f"the notebook's run above, on {XEON}"),
        S("tables", "Tables 1-2 (linear conv autoencoders)", ("table1.", "table2."), 89, measured=f"the notebook's run above, on {XEON}"),
        S("fig12", "Fig 12 (initializations' output norms)", ("fig12.",), 1, measured=f"the notebook's run above, on {XEON}"),
        S("fig7_8", "Fig 7 and 8 (D1 and D2)", ("fig7.", "fig8."), 512, part=True,
          measured=f"band 220-224's whole run, on {XEON}"),
        S("fig5", "Fig 5a / 5b", ("fig5a.", "fig5b."), 363, part=True, measured=f"band 220-224's whole run, on {XEON}"),
        S("fig6", "Fig 6 (superattractors over training)", ("fig6.",), 57, measured=f"the notebook's run above, on {XEON}"),
        S("fig11", "Fig 11", ("fig11.",), 314, part=True, measured=f"band 220-224's whole run, on {XEON}"),
    ],
    "03_downsampling_eigenvectors": [
        S("fig4", "Fig 4 / App. A (network DS)", ("fig4.",)),
        S("propC", "App. C's proposition (rank, eigenvalues and eigenvectors of A_X)", ("propC.",)),
        S("fig2_3", "Fig 2-3 (D versus ND over training)", ("fig2.", "fig3."), part=True),
        S("fig5_6", "Fig 5-6 / App. C (D_{a,b} versus ND_{a,b}: ranks, spectra, eigenvectors)", ("fig6.",), 102,
          part=True, measured=f"the notebook's run above, its 598 s less the cell now fig6_text_init, on {EPYC}"),
        # the text's U(+-1/sqrt(P)) for Fig 6's D_{64,192}: a departure's other reading, which no claim reads (the
        # net does not train from it at 16x16, so it runs its whole step budget)
        S("fig6_text_init", "Fig 6's D_{64,192} from the text's initialization formula", ("fig6.text_init.",), 496,
          part=True, measured=f"the notebook's run above, one cell, on {EPYC}"),
        S("appD", "App. D (one image per class)", ("appD.",), part=True),
        S("sec6", "Fig 7, 8, 11 (NLD and NLND)", ("fig7.", "fig8.", "fig11."), part=True),
        S("unet", "Fig 1 (the U-Net)", ("fig1.unet.",), part=True),
    ],
    "04_rho_dynamics": [
        S("fig1_4", "Fig 1-4 (BatchNorm and weight decay)", ("bnwd.", "band.bnwd.", "init.bnwd.", "obs3.bnwd."), 82,
          measured=f"the notebook's run above, its own cells (the initial-norm cell that trains all three regimes, 99 s, is in the rest), on {XEON}"),
        S("fig5_8", "Fig 5-8 (BatchNorm without weight decay)", ("band.bn.", "init.bn."), 52, measured=f"the notebook's run above, its own cells (the initial-norm cell that trains all three regimes, 99 s, is in the rest), on {XEON}"),
        S("fig9_11", "Fig 9-11 (neither)", ("band.none.", "init.none.", "obs3.none."), 35, measured=f"the notebook's run above, its own cells (the initial-norm cell that trains all three regimes, 99 s, is in the rest), on {XEON}"),
    ],
}
del S

# The sections that hold each paper's headline: never left out of quick, whatever they cost.
HEADLINE = {
    # paper 1: the depth sweep with Fig 3a / 3b, 4a and the figures that read its nets
    "01_identity_vs_constant": ("fig3a", "fig3b_18_19", "fig4a", "fig10", "fig11_14", "fig15_17", "fig20_22"),
    # paper 2: Fig 3 with Theorem 2 at the digits
    "02_attractors": ("fig3",),
    # paper 3: Fig 2-3 and Fig 6 / App. C
    "03_downsampling_eigenvectors": ("fig2_3", "propC", "fig5_6"),
    # paper 4: Fig 1-4
    "04_rho_dynamics": ("fig1_4",),
}


def is_headline(notebook: str, section: Section) -> bool:
    return section.name in HEADLINE.get(notebook, ())


def section_for(notebook: str, metric: str, sections: dict | None = None) -> Section | None:
    """The section of `notebook` that logs `metric`: the one with the longest matching prefix (None: the set-up's)."""
    best, length = None, -1
    for s in (SECTIONS if sections is None else sections).get(notebook, []):
        for p in s.prefixes:
            if metric.startswith(p) and len(p) > length:
                best, length = s, len(p)
    return best


def decided(notebook: str, section: Section, claims, sections: dict | None = None) -> list:
    """The claims `section` decides: those of `notebook` whose metric it logs (`section_for`), sanity checks aside."""
    return [c for c in claims if c.notebook == notebook and c.about != "sanity"
            and section_for(notebook, c.metric, sections) == section]


def per_claim(seconds: float, n: int) -> float:
    """Seconds per claim decided; a section that decides none costs infinitely much per claim."""
    return seconds / n if n else float("inf")


@dataclass(frozen=True)
class Decision:
    """What the rule gives: `left` [(notebook, Section, claims decided)] in the order they leave; `total_s`, the
    measured total with every section at quick; `estimate_s`, without those that leave; `target_s`, the budget less
    its margin; `fits`; `unmeasured` [(notebook, Section)]: where it does not fit, the sections that are not headline
    and were not timed apart (the rule cannot rank them until they are)."""
    left: list
    total_s: int
    estimate_s: int
    target_s: float
    fits: bool
    unmeasured: list


def decide(claims, sections: dict | None = None, totals: dict | None = None, budget_s: float = QUICK_BUDGET_S,
           margin: float = MARGIN, headline: dict | None = None) -> Decision:
    """The rule: rank the sections that are not headline and were timed apart by seconds per claim decided, the
    costliest per claim first (ties: the more seconds first), and leave them until the measured total fits
    `budget_s` less `margin`. A section cheaper per claim than quick as a whole (its total seconds over every claim
    its sections decide) never leaves: leaving it would make quick slower per verdict, and where the rest cannot make
    quick fit, dropping it would not either (the rule then says so: `fits` is False). `sections`, `totals`
    ({notebook: (seconds, where)}), `headline`: the committed `SECTIONS`, `NOTEBOOK_SECONDS`, `HEADLINE` unless
    given."""
    sections = SECTIONS if sections is None else sections
    totals = NOTEBOOK_SECONDS if totals is None else totals
    headline = HEADLINE if headline is None else headline
    target = budget_s * (1 - margin)
    ranked = []
    for nb, ss in sections.items():
        for s in ss:
            if s.name not in headline.get(nb, ()) and s.seconds is not None:
                n = len(decided(nb, s, claims, sections))
                ranked.append((per_claim(s.seconds, n), s.seconds, nb, s, n))
    ranked.sort(key=lambda r: (-r[0], -r[1], r[2], r[3].name))
    total = sum(t for t, _ in totals.values())
    every = sum(len(decided(nb, s, claims, sections)) for nb, ss in sections.items() for s in ss)
    floor = per_claim(total, every)                  # quick's own seconds per claim decided
    estimate, left = total, []
    for per, seconds, nb, s, n in ranked:
        if estimate <= target or per <= floor:
            break
        left.append((nb, s, n))
        estimate -= seconds
    fits = estimate <= target
    unmeasured = [] if fits else [(nb, s) for nb, ss in sections.items() for s in ss
                                  if s.name not in headline.get(nb, ()) and s.seconds is None]
    return Decision(left, total, estimate, target, fits, unmeasured)


@dataclass(frozen=True)
class LeftToFull:
    """One section quick does not run: `part` (its cells' tag), `what` it holds, the `seconds` its cells took at quick
    when it still ran there (measured, cold, idle), the metric `prefixes` of its claims, and the `claims` it decides
    (sanity checks aside)."""
    part: str
    what: str
    seconds: int
    prefixes: tuple
    claims: int = 0

    def holds(self, metric: str) -> bool:
        return metric.startswith(self.prefixes)

    @property
    def per_claim(self) -> float:
        return per_claim(self.seconds, self.claims)


# {profile: {notebook: [LeftToFull]}}: `decide`'s result for the measurements above, in the order the rule leaves
# them (tests/test_deferred.py). Estimated quick with these left: 5,670 - 1,893 = 3,777 s (63 minutes), over the
# 2,430 s the rule aims at; the 1,347 s more must come from sections that were never timed apart
# (`decide(...).unmeasured`), which the rule cannot rank until their cells are timed, nor leave until they are parts.
LEFT_TO_FULL = {"quick": {
    "03_downsampling_eigenvectors": [
        # seconds per claim: none decided
        LeftToFull("fig6_text_init", "Fig 6's D_{64,192} from the text's initialization formula", 496,
                   ("fig6.text_init.",), 0),
    ],
    "02_attractors": [
        LeftToFull("fig7_8", "Fig 7 and 8 (D1 and D2)", 512, ("fig7.", "fig8."), 3),       # 171 s per claim
        LeftToFull("fig11", "Fig 11", 314, ("fig11.",), 2),                                # 157 s per claim
        LeftToFull("fig5", "Fig 5a / 5b", 363, ("fig5a.", "fig5b."), 3),                   # 121 s per claim
        LeftToFull("fig4", "Fig 4", 208, ("fig4.",), 2),                                   # 104 s per claim
    ],
}}

# Sections the rule leaves that are not notebook parts yet: {profile: {notebook: [(name, the first line of each of its
# cells)]}}; they stay at quick until those cells are tagged `part:NAME`. Fig 12 decides no claim (its numbers are
# sanity checks against the paper's table), so the rule leaves it first, for its 1 s.
TO_TAG: dict = {"quick": {
    "02_attractors": [("fig12", ('F12_PAPER = {"xavier_uniform": 0.0087, "xavier_normal": 0.0079, "kaiming_uniform": 9.67,',))],
}}


def table(claims, profile: str = "quick") -> str:
    """Where `profile`'s time goes: each section's measured cold seconds and the claims it decides, headline or not,
    left to full or not, each notebook's rest (its set-up and the sections not timed apart), and the rule's total
    (`plan` prints it)."""
    if profile not in LEFT_TO_FULL:
        return f"{profile}: leaves no section to full (memlib/harness/deferred.py)"
    left = {(nb, s.part) for nb, ss in LEFT_TO_FULL[profile].items() for s in ss}
    result = decide(claims)
    rows = [("notebook", "section", "what", "part", "headline", "cold s", "claims", "s/claim", f"at {profile}")]
    for nb, ss in SECTIONS.items():
        for s in ss:
            n = len(decided(nb, s, claims))
            cost = "-" if s.seconds is None else f"{per_claim(s.seconds, n):.0f}"
            what = s.what if len(s.what) <= 44 else s.what[:41] + "..."
            rows.append((nb[:2], s.name, what, "yes" if s.part else "no", "yes" if is_headline(nb, s) else "no",
                         "-" if s.seconds is None else str(s.seconds), str(n), cost,
                         "left to full" if (nb, s.name) in left else "runs"))
        timed = sum(s.seconds for s in ss if s.seconds is not None)
        seconds, _ = NOTEBOOK_SECONDS[nb]
        rows.append((nb[:2], "(rest)", "set-up and the sections not timed apart", "", "", str(seconds - timed), "",
                     "", "runs"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    right = {5, 6, 7}
    lines = [f"Where {profile}'s time goes (cold seconds on an idle 2-core machine, each notebook's run below; "
             "memlib/harness/deferred.py; '-': not timed apart):"]
    lines += ["  " + "  ".join(c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths)))
              .rstrip() for r in rows]
    lines += [f"  {nb[:2]}: {seconds} s, {where}" for nb, (seconds, where) in NOTEBOOK_SECONDS.items()]
    lines.append(f"Measured total {result.total_s} s; without the sections left to full {result.estimate_s} s "
                 f"({result.estimate_s / 60:.1f} minutes) against the rule's {result.target_s:.0f} s "
                 f"({QUICK_BUDGET_S // 60} minutes less {MARGIN:.0%})"
                 + ("." if result.fits else
                    f": over by {result.estimate_s - result.target_s:.0f} s, which only sections not timed apart can "
                    f"give (not headline: {', '.join(f'{nb[:2]} {s.name}' for nb, s in result.unmeasured)}); "
                    "time their cells, then tag those the rule leaves."))
    return "\n".join(lines)


def left_out(profile: str, notebook: str) -> list[LeftToFull]:
    """The sections of `notebook` that `profile` leaves to full (none at any other profile)."""
    return list(LEFT_TO_FULL.get(profile, {}).get(notebook, []))


def section_of(claim, profile: str) -> LeftToFull | None:
    """The left-out section a claim belongs to at `profile` (None: the profile runs it)."""
    return next((s for s in left_out(profile, claim.notebook) if s.holds(claim.metric)), None)


def per_claim_text(section: LeftToFull) -> str:
    """'3 claims decided, 171 s per claim' or 'no claim decided'."""
    if not section.claims:
        return "no claim decided"
    return (f"{section.claims} claim{'s' if section.claims > 1 else ''} decided, "
            f"{section.per_claim:.0f} s per claim")


def reason(section: LeftToFull, notebook: str, profile: str) -> str:
    """Why a left-out section's claim is not run at `profile`, and how to run it."""
    return (f"not run at {profile}: {section.what} took about {section.seconds} s of {profile}'s cold run on 2 cores "
            f"({per_claim_text(section)}), more than its {QUICK_BUDGET_S // 60} minutes hold beside the rest and the "
            f"papers' headline sections (memlib/harness/deferred.py), so `full` carries the verdict "
            f"(`./run_all.sh --profile full --only {notebook[:2]} --part {section.part}`; at {profile}: "
            f"`--only {notebook[:2]} --part {section.part}`)")
