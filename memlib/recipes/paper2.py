"""Paper 2's recipes (Radhakrishnan et al. 2019, *Memorization in overparameterized autoencoders*), by profile:
read by notebook 02, its explorer (`memlib.widgets.attractors`) and the tour (`memlib.tour.attractors`), so that
the explorer's first view and the tour ask for exactly the models the notebook trained (a cache hit, tested in
tests/test_recipes_paper2.py and by the smoke run's tour test).

Each value is a dict {profile: value}, the keyword arguments of `runtime.pick` (`full` falls back to `paper`).
"""
from __future__ import annotations

from ..runtime import pick

# ---------------------------------------------------------------- Fig 3a / 3b: the digit autoencoders
# name -> (training digits, weight layers, width). Paper 2, Fig 3a: 7 layers x 128 on 100 digits; Fig 3b: 14 x 128
# on 20 digits. Smoke shrinks both (CI only).
FIG3_NETS = dict(smoke={"fig3a": (10, 7, 32), "fig3b": (5, 14, 32)},
                 quick={"fig3a": (100, 7, 128), "fig3b": (20, 14, 128)},
                 paper={"fig3a": (100, 7, 128), "fig3b": (20, 14, 128)})
# Not given for Fig 3; the paper's other nonlinear autoencoders use leaky ReLU (Fig 5, 6, 9, 10, 12).
FIG3_ACTIVATION = "leaky_relu"
# "Trained to convergence" (Fig 3), nothing else stated: full-batch Adam at a constant rate, x0.1 for the last 10 %
# of the steps. Chosen on seed 0 among ten recipes (notebook 02's table under Fig 3), so Fig 3's claims are judged
# on a band of other seeds: SEED_OFFSETS.
FIG3_FIT = dict(optimizer="adam", lr=1e-3, schedule="final_decay")
FIG3_STEPS = dict(smoke=100, quick=40_000, paper=100_000)


# ---------------------------------------------------------------- Tables 1-2: linear conv autoencoders
# Paper 2, App. F: gradient descent at lr 0.1 (Adam at 1e-4 past 10 layers) "until the loss < 1e-6". Here each net
# trains on until 1e-7, a tenth of the paper's bound, so that every seed of a band clears the claims' fit gate (the
# paper's 1e-6) with margin, instead of stopping just under it (issue 26). The init stds per row were chosen in
# probes (the smallest that still trained), so the band uses SEED_OFFSETS too.
TAB_UNTIL = 1e-7
PAPER_UNTIL = 1e-6                                      # paper 2, App. F: "until the loss < 1e-6" (also Fig 9-10)
# Gradient descent at half App. F's rate (a departure, shown in notebook 02). At 0.1 (on our mean squared error) the
# 3x3 nets of Table 2 diverged on one of the three probe seeds at every init std from 0.1 to 0.3, and Table 1's
# 2-layer 128-filter net at std 0.2; at 0.05 every net of both tables reached 1e-7 on seeds 100-102, which no claim
# uses, within 28,676 steps (benchmarks/RESULTS.md, session 13).
TAB_GD_LR = 0.05                                        # paper 2, App. F: 0.1
TAB_ADAM_LR = 1e-4                                      # paper 2, App. F: Adam 1e-4 past 10 layers
# A cap on the run time (the paper has none): twice the most steps a probe net needed at TAB_GD_LR.
TAB_STEPS = dict(smoke=300, quick=60_000, full=100_000, paper=200_000)

# The bands' seeds (Fig 3 and Tables 1-2), as offsets from the run's `seed`: seed + 1 .. seed + 3, never seed + 0, the
# seed both recipes were chosen on (issue 26: a recipe chosen by looking at results is judged on other seeds).
# Smoke trains one.
SEED_OFFSETS = dict(smoke=(1,), quick=(1, 2, 3), paper=(1, 2, 3))


def band_seeds(profile: str, seed: int) -> list[int]:
    """The seed band of Fig 3 and of Tables 1-2 at `profile` for the run's base `seed`: [seed + offset, ...]."""
    return [seed + k for k in pick(profile, **SEED_OFFSETS)]
