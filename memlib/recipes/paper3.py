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

# ---------------------------------------------------------------- the layers the text does not give (issue 41)
# Fig 2a's and Fig 5's images are not in the text. These make every output pixel of D, ND, D_{a,b} and NLD depend on
# every input pixel at 32x32 and D's stride-8 layer read every pixel (downsampling_nets: the comment above
# COARSE_LAYERS says why each number; tests/test_paper3_field.py). Keyword arguments of the builders.
D_FIELD = dict(kernel=15,      # ours: D's stride-8 layer, 15x15 with padding 7 (the text: stride 8; a 3x3 kernel, Sec. 2)
               coarse_layers=3,  # ours: 3x3 convolutions on the 4x4 grid (32 / 8 - 1)
               atrous=True)    # ours: ND = D's layers at every pixel, dilated by the stride skipped (Sec. 3: "only differ")
AB_FIELD = dict(coarse_layers=3, atrous=True)   # the same for D_{a,b} / ND_{a,b} / NLD / NLND (Sec. 5: "3 ... stride 2")

# ---------------------------------------------------------------- Sec. 3, Fig 2-4: DS, D and ND
DS_STEPS = dict(smoke=60, quick=2000, paper=2000)        # paper 3, Sec. 3: 2000 iterations (DS, D, ND)
DS_LR = 1e-3              # ours: Sec. 3 gives no optimizer; Adam (Sec. 5's optimizer) at lr 1e-3, not Sec. 5's 1e-4
D_FILTERS = dict(smoke=8, quick=32, paper=128)           # paper 3, Sec. 3: 128 filters in D and ND
D_STOPS = dict(smoke=[10, 50], quick=[10, 100, 1000, 2000], paper=[10, 100, 1000, 2000])  # paper 3, Fig 3
OPTIMIZER = "adam"        # paper 3, Sec. 5: Adam (Sec. 3 gives no optimizer: Adam there too); every net here
INITS = ("xavier_uniform", "xavier_normal", "kaiming_uniform", "kaiming_normal")  # paper 3, Sec. 3 / App. E
# paper 3, Sec. 3: "initialized using the default in the PyTorch deep learning library, namely each layer's weights
# were drawn i.i.d. from a uniform distribution U(-a, a) with a = 1/sqrt(P) where P is the number of parameters in
# that layer" (Sec. 5, 6: "default" again). The text's formula is followed (issue 41): "uniform_per_layer_params".
# PyTorch's real default, U(+-1/sqrt(fan_in)), is sqrt(c_out) times larger; notebook 03 measures it too for Fig 2,
# Fig 6 and App. D (OTHER_INIT, metrics `<figure>.pytorch_init.*`) and says which reproduces what.
DEFAULT_INIT = "uniform_per_layer_params"
OTHER_INIT = "default"    # PyTorch's actual default, measured beside the text's for Fig 2, Fig 6 and App. D

# ---------------------------------------------------------------- Sec. 5, Fig 6 and App. D: D_{a,b} and ND_{a,b}
AB = dict(smoke=(4, 12), quick=(64, 192), paper=(64, 192))       # paper 3, Fig 6: D_{64,192}
ND_AB = (4, 4)                                                   # paper 3, Fig 6: ND_{4,4}
AB_LR = dict(smoke=1e-3, quick=1e-4, paper=1e-4)                 # paper 3, Sec. 5: Adam, lr 1e-4
AB_STEPS = dict(smoke=100, quick=6000, paper=20_000)             # paper 3, Sec. 5: up to 20,000 epochs
AB_UNTIL = 1e-3                                  # paper 3, Sec. 5: train until the loss is "around 1e-3"
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
