"""Paper 1's recipes (Zhang et al., *Identity Crisis*), by profile: read by notebook 01, its explorer
(`memlib.widgets.identity`) and the tour (`memlib.tour.identity`), so that the explorer's first view and the
tour ask for exactly the models the notebook trained (a cache hit, tested in tests/test_recipes.py).

Each value is a dict {profile: value}, the keyword arguments of `runtime.pick` (`full` falls back to `paper`).
"""
from __future__ import annotations

# paper 1, App. B: MSE loss, SGD lr 0.01, momentum 0.9, the rate x0.2 at 30 / 60 / 80 % of 2,000,000 steps,
# no gradient clipping. At smoke / quick / full the gradient norm is clipped at 1: the paper's SGD diverges at
# these step counts (NaN within a hundred steps for nets of depth 8-20). Fig 2's deep FCNs and Fig 30's SGD rows.
_SGD = dict(lr=0.01, momentum=0.9, schedule="stagewise")
SGD_FIT = dict(smoke={**_SGD, "clip_grad_norm": 1.0}, quick={**_SGD, "clip_grad_norm": 1.0},
               full={**_SGD, "clip_grad_norm": 1.0}, paper={**_SGD, "clip_grad_norm": None})
# paper 1, App. H.3 / Fig 30: Adam at base learning rate 0.0001, the same x0.2 stages
PAPER_ADAM = dict(optimizer="adam", lr=0.0001, schedule="stagewise", clip_grad_norm=None)

# Every ConvNet of Fig 3a-30 (bar Fig 30's optimizer rows) and of Fig 34-36. Departure at smoke / quick / full:
# Adam at the paper's own Fig 30 rate instead of SGD. Clipped SGD leaves the 20-layer, 32-channel nets far above
# the 5 % fit gate after quick's 1,500 steps (every deep-net claim "did not fit"); Adam at lr 1e-4 fits them in a
# few hundred steps. Chosen on seeds 100-102, which no claim uses (benchmarks/RESULTS.md, session 9); Fig 30
# (App. H.3) shows the optimizers keep the 5-layer nets' bias towards the identity.
CONVNET_FIT = dict(smoke=PAPER_ADAM, quick=PAPER_ADAM, full=PAPER_ADAM, paper=SGD_FIT["paper"])
CONVNET_DEPARTURE = ("optimizer, every ConvNet but Fig 30's rows", "SGD lr 0.01, momentum 0.9, unclipped (App. B)",
                     "Adam lr 0.0001 (the paper's Fig 30 rate), the same x0.2 stages",
                     "clipped SGD does not fit the 20-layer nets at these step counts (every deep-net claim 'did not "
                     "fit'); Adam fits them, chosen on seeds 100-102, which no claim uses; the paper's Fig 30 shows "
                     "the optimizers keep the 5-layer nets' bias")
CONVNET_STEPS = dict(smoke=40, quick=1500, full=20_000, paper=2_000_000)   # paper 1, App. B: 2,000,000
FCN_STEPS = dict(smoke=40, quick=600, full=20_000, paper=2_000_000)        # Fig 2's deep FCNs; App. B: 2,000,000
CHANNELS = dict(smoke=4, quick=32, paper=128)        # App. B states none; Fig 25/26 compare 3 and 128
DEPTHS = dict(smoke=[1, 3], quick=[1, 2, 3, 5, 8, 14, 20], full=[1, 2, 3, 5, 8, 11, 14, 17, 20],
              paper=list(range(1, 21)))              # paper 1, Fig 3a / 9: 1 to 20 layers
WIDTH = dict(smoke=64, quick=1024, paper=2048)       # paper 1, App. B: 2,048 hidden units (Fig 2's FCNs)
