"""Paper 1's quick ledger as session 16 measured it under the paper's recipe for the depth sweep (issue 40).

Since session 16 the depth sweep (Fig 3a, and Fig 3b / 4a / 9-22, which read its nets) trains as the paper states:
App. H.3's init, App. B's SGD, the whole budget, no stop at fit (memlib/recipes/paper1.py). Measured at quick on seeds
0-2 (benchmarks/RESULTS.md, session 16), the 8-, 14- and 20-layer nets do not fit: two seeds in three collapse to a
constant output, the third stays at 73-77 % of the zero prediction's loss. `MEASURED_QUICK` records the claims whose
quick outcome that changed; `RECIPE_WHY` rewrites the whys that still named the old rule (Adam from PyTorch's init,
stopped once fitted) so that each reads the trajectory of the run it explains.
"""
from __future__ import annotations

from dataclasses import replace

from .core import NOT_REPRODUCED as NR, with_measured

HOW = "session 16's quick run of notebook 01 under the paper's recipe for the depth sweep (seeds 0-2, 2026-11-27)"
DID_NOT_FIT = "did not fit: the deep nets of the depth sweep collapse or stall under the paper's SGD at 32 channels"
MEASURED_QUICK = {cid: (NR, DID_NOT_FIT) for cid in (
    "p1.fig9_intermediate_neither", "p1.depth_trend", "p1.fig4a_more_constant_with_depth",
    "p1.fig4a_less_identity_with_depth", "p1.fig4a_small_images_accentuate", "p1.fig13_mid_not_identity")}

# the old rule's words, as the whys wrote them, and what the depth sweep does now
OLD_RULE = ("under the depth sweep's rule (Adam, stopped at a fifth of the fit gate or at its step budget)",
            "by the depth sweep's rule (Adam until the loss is a fifth of the fit gate, or the step budget)",
            "the depth sweep's rule: Adam until a fifth of the fit gate or the step budget")
RECIPE_WHY = ("under the paper's recipe (App. H.3's init, App. B's SGD for the whole budget; on the rho = 0 probes their "
              "corr with the digit went from {fig3a.depth20.road.rho0.corr_constant.before_end:.2f} at step "
              "{fig3a.depth20.road.before_end_step:,.0f} to {fig3a.depth20.road.rho0.corr_constant.end:.2f} at the end, "
              "and with the input ended at {fig3a.depth20.road.rho0.corr_identity.end:.2f})")
DEEP_WHY = ("quick, under the paper's recipe for the depth sweep: the deep nets end at {fig3a.depth20.loss_ratio:%} "
            "(20 layers) and {fig3a.depth8.loss_ratio:%} (8 layers) of the zero prediction's loss, seed by seed (the "
            "fit gate is 5 %): two seeds in three collapse to a constant output; on the rho = 0 probes the 20-layer "
            "nets' corr with the digit ends at {fig3a.depth20.road.rho0.corr_constant.end:.2f}")


def apply(claims: list) -> list:
    """Paper 1's claims with session 16's measured quick outcomes and whys that name the recipe the run used."""
    def one(c):
        why = c.why
        for old in OLD_RULE:
            why = why.replace(old, RECIPE_WHY)
        if c.id in MEASURED_QUICK:
            why = DEEP_WHY
        return replace(c, why=why) if why != c.why else c
    return with_measured([one(c) for c in claims], MEASURED_QUICK, "quick", HOW)
