"""Paper 3's recipes (Radhakrishnan, Uhler, Belkin 2018, *Downsampling leads to Image Memorization in Convolutional
Autoencoders*), by profile: read by notebook 03, its explorer (`memlib.widgets.downsampling`) and the tour
(`memlib.tour.downsampling`), so that the explorer's first view and the tour ask for exactly the models the notebook
trained (a cache hit, tested in tests/test_recipes_paper34.py and by the smoke run's tour test).

Each value is a dict {profile: value}, the keyword arguments of `runtime.pick` (`full` falls back to `paper`), or
one value at every profile. The notebook's departures table says why a profile's value differs from the paper's.
"""
from __future__ import annotations

# ---------------------------------------------------------------- the images
SIZE = dict(smoke=8, quick=16, paper=32)                 # paper 3, Sec. 3/5: 32x32 CIFAR-10 images
N_CLASSES = 10                                           # paper 3, Fig 8: 10 images, one per CIFAR-10 class

# ---------------------------------------------------------------- Sec. 3, Fig 2-4: DS, D and ND
DS_STEPS = dict(smoke=60, quick=2000, paper=2000)        # paper 3, Sec. 3: 2000 iterations (DS, D, ND)
DS_LR = 1e-3              # the paper gives no optimizer for Sec. 3; Adam as in Sec. 5 (lr 1e-3, see below)
D_FILTERS = dict(smoke=8, quick=32, paper=128)           # paper 3, Sec. 3: 128 filters in D and ND
D_STOPS = dict(smoke=[10, 50], quick=[10, 100, 1000, 2000], paper=[10, 100, 1000, 2000])  # paper 3, Fig 3
OPTIMIZER = "adam"        # paper 3, Sec. 5: Adam (Sec. 3 gives no optimizer: Adam there too); every net here
INITS = ("xavier_uniform", "xavier_normal", "kaiming_uniform", "kaiming_normal")  # paper 3, Sec. 3 / App. E
# paper 3, Sec. 3: "initialized using the default in the PyTorch deep learning library, namely each layer's weights
# were drawn i.i.d. from a uniform distribution U(-a, a) with a = 1/sqrt(P) where P is the number of parameters in
# that layer" (Sec. 5, 6: "default" again). Used wherever the paper says "default". "default" is PyTorch's real
# default, U(+-1/sqrt(fan_in)); "uniform_per_layer_params" is the text's description, sqrt(c_out) times smaller:
# measured, it fixes Fig 4's DS but breaks Fig 3e-f and Fig 6b and does not help D on noise or NLD (see the end of
# notebook 03).
DEFAULT_INIT = "default"

# ---------------------------------------------------------------- Sec. 5, Fig 6 and App. D: D_{a,b} and ND_{a,b}
AB = dict(smoke=(4, 12), quick=(64, 192), paper=(64, 192))       # paper 3, Fig 6: D_{64,192}
ND_AB = (4, 4)                                                   # paper 3, Fig 6: ND_{4,4}
AB_LR = dict(smoke=1e-3, quick=1e-4, paper=1e-4)                 # paper 3, Sec. 5: Adam, lr 1e-4
AB_STEPS = dict(smoke=100, quick=6000, paper=20_000)             # paper 3, Sec. 5: up to 20,000 epochs
AB_UNTIL = 1e-5                                  # stop once the loss is this low (paper: ~1e-3 or below)
APPD_AB = dict(smoke=(4, 12), quick=(16, 48), paper=(64, 128))   # paper 3, App. D: D_{64,128}
APPD_LR = dict(smoke=1e-3, quick=1e-3, paper=1e-4)   # paper 3, Sec. 5: lr 1e-4 (quick: smaller net, 1e-3)
APPD_UNTIL = 1e-3                                # paper 3, Sec. 5 / App. D: train to "around 1e-3"

# ---------------------------------------------------------------- Sec. 5, Fig 7-8, 11: NLD and NLND
NL_AB = dict(smoke=(4, 12), quick=(16, 48), paper=(128, 128))    # paper 3, Fig 7: NLD_{128,128}
NL_STEPS = dict(smoke=40, quick=3000, paper=20_000)              # paper 3, Sec. 5: up to 20,000 epochs
NL_LR = dict(smoke=1e-3, quick=1e-3, paper=1e-4)     # paper 3, Sec. 5: lr 1e-4 (quick: smaller nets, 1e-3)

# ---------------------------------------------------------------- Fig 1: the U-Net
UNET_LEVELS = dict(smoke=2, quick=3, paper=4)            # Ulyanov et al.: 5 levels on large images
UNET_CHANNELS = dict(smoke=8, quick=32, paper=128)       # Ulyanov et al.: 128 channels
UNET_STEPS = dict(smoke=30, quick=2000, paper=2000)      # paper 3, Fig 1: 2000 iterations
