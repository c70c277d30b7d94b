"""Paper 2's recipes (Radhakrishnan et al. 2019, *Memorization in overparameterized autoencoders*),
by profile: read by notebook 02, its explorer (`memlib.widgets.attractors`) and the tour
(`memlib.widgets.tour.attractors`), so that the explorer's first view and the tour ask for exactly the
models the notebook trained (a cache hit, tested in tests/test_recipes_paper2.py and by the smoke
run's tour test).

Each value is a dict {profile: value}, the keyword arguments of `runtime.pick` (`full` falls back to
`paper`), or one value at every profile. Every setting notebook 02 reads is here, one block per
figure, registered with the paper's value, where the paper gives it and why ours differs
(memlib.recipes.settings):

- SETTINGS: the paper's settings; notebook 02's departures table is generated from it
  (`run.departures_from(recipe.SETTINGS)`). Where a row shows several settings (Fig 4's widths,
  depths and steps), the row's text at each profile is registered, built from the settings above
  it (`_each`).
- UNLISTED: the reproduction's own settings, which the table does not list: the seed bands (the
  paper shows one net per figure), the inputs a measurement draws or iterates, the iterations a
  figure shows: how this package measures, not how the paper trains. Every training setting the
  text does not give (a width, a depth, a step count) is in SETTINGS as NOT_STATED, so it is listed.
"""
from __future__ import annotations

from ..runtime import pick
from .settings import NOT_STATED, Settings, each_profile

SETTINGS = Settings()
UNLISTED = Settings()

BAND = dict(smoke=1, quick=3, paper=3)      # a seed band's size: claims hold for every seed of it
BAND_WHY = "ours: the claims are judged on a band of seeds, with margin (the paper shows one net)"
# issue 42, "5 seeds where 3 cannot decide": the figures whose claims took two outcomes across the quick envelope's
# three disjoint bands of 3 seeds (session 24: Fig 1a, 3, 5, 7, 9) train 5. Smoke keeps its 1 (CI).
FIVE = dict(smoke=1, quick=5, paper=5)


def _band(what: str, value=BAND):
    """A seed band's size (UNLISTED): the paper states no seeds."""
    return UNLISTED.add(value, f"seeds, {what}", paper=NOT_STATED, cite=what, why=BAND_WHY)


# ---------------- the seed bands of Fig 3 and Tables 1-2
# As offsets from the run's `seed`: seed + 1 .. seed + 3, never seed + 0, the seed both recipes
# were chosen on (issue 26: a recipe chosen by looking at results is judged on other seeds). Smoke
# trains one.
SEED_OFFSETS = dict(smoke=(1,), quick=(1, 2, 3), paper=(1, 2, 3))
FIG3_SEED_OFFSETS = {p: tuple(range(1, n + 1)) for p, n in FIVE.items()}   # Fig 3: seed + 1 .. seed + 5 (FIVE)


def band_seeds(profile: str, seed: int) -> list[int]:
    """The seed band of Tables 1-2 at `profile` for the run's base `seed`."""
    return [seed + k for k in pick(profile, **SEED_OFFSETS)]


def fig3_seeds(profile: str, seed: int) -> list[int]:
    """The seed band of Fig 3 at `profile` for the run's base `seed`: seed + 1 .. seed + 5 at quick (FIVE)."""
    return [seed + k for k in pick(profile, **FIG3_SEED_OFFSETS)]


# ---------------- the fully connected autoencoders
# The paper gives architectures but not optimizers for them ("trained to convergence"). Fig 2 and
# 4: full-batch Adam, lr 1e-3, decayed x0.2 at 30/60/80 % of the steps; Fig 3 trains longer at a
# constant rate (FIG3_FIT: what "convergence" takes for attractors), and so does Fig 11.
ADAM = dict(optimizer="adam", lr=1e-3, schedule="stagewise")   # paper 2, Fig 2, 4: not stated
SETTINGS.add(
    f"Fig 2, 4: full-batch Adam, lr {ADAM['lr']:g}, x0.2 at 30/60/80 % of the steps; Fig 11: "
    "Fig 3's Adam schedule on mini-batches of 100",
    "optimizer, the fully connected autoencoders of Fig 2, 4, 11", paper=NOT_STATED,
    cite="'trained to convergence'", why="the paper gives none")

# ---------------- Fig 1a: a 1-D autoencoder on two points
F1_WIDTH = SETTINGS.add(                 # paper 2, Fig 1a: not stated
    dict(smoke=16, quick=64, paper=64), "width, Fig 1a", paper=NOT_STATED, cite="Fig 1a",
    why="ours; smoke: CI only")
F1_LAYERS = SETTINGS.add(                # paper 2, Fig 1a: a "shallow" and a "deep" net
    dict(smoke=[2, 3], quick=[2, 6], paper=[2, 6]), "layers, Fig 1a (shallow, deep)",
    paper=NOT_STATED, cite="Fig 1a",
    why="ours: a shallow and a deep net (the figure's right panels); smoke: CI only")
# Plain gradient descent (the paper's analysis) at lr 0.05 with x0.2 stages at 30/60/80 % of the
# steps. Paper 2, Fig 1a: no optimizer, rate or schedule stated (Theorem 1's proof uses gradient
# descent).
F1_GD = dict(optimizer="sgd", lr=0.05, schedule="stagewise")   # paper 2, Fig 1a: not stated
F1_STEPS = dict(smoke=100, quick=3000, paper=10_000)      # paper 2, Fig 1a: not stated ("trained")
SETTINGS.add(
    each_profile(lambda n: f"gradient descent, lr {F1_GD['lr']:g}, x0.2 at 30/60/80 % of {n:,} steps "
                    "(stagewise)", F1_STEPS),
    "optimizer and schedule, Fig 1a", paper=NOT_STATED,
    cite="Fig 1a; Theorem 1's analysis: gradient descent",
    why="the paper gives none; the stages let the nets reach a loss near 0 at a rate the deep net "
        "survives")
F1_SEEDS = _band("Fig 1a", FIVE)
# Fig 1a's iteration (bottom left). Paper 2, Sec. 3: "iterating the map over almost all points will result in
# convergence to one of the two training examples"; the text gives no count and no tolerance. Read to convergence: at
# a training point of slope s the distance shrinks as s^t, and the small-init net's max |f'(x_i)| is within a few
# thousandths of 1 (0.9986-0.999 on probe seeds 100-102, benchmarks/probes/paper2_fig1a_init.py), so 100 iterations
# shrink it by about 10 % (0.999^100 = 0.90) and 10,000 by 0.999^10000 = 5e-5: from 0.3 (the grid's farthest point
# from its attractor) to 1e-5, far inside the tolerance. The last iteration's largest move is logged
# (`fig1a.*.last_move`) to show the iterates have stopped. Our earlier count, 100, is measured beside
# (`fig1a.*.converged_fraction_it100`, a departure no claim reads).
F1_ITERS = SETTINGS.add(
    dict(smoke=200, quick=10_000, paper=10_000), "iterations of the 1-D map, Fig 1a (bottom left)",
    paper="to convergence, no count", cite="Sec. 3: 'will result in convergence to one of the two training examples'",
    why="a count at which the iterates have converged at the trained nets' slope (about 0.999 at the training "
        "points: 0.999^10000 = 5e-5), the last step's move logged; smoke: CI only")
F1_ITERS_EARLIER = 100                   # ours before: a departure measured beside (the paper states no count)
SETTINGS.note(
    "100 iterations of the 1-D map, Fig 1a, measured beside",
    paper="to convergence, no count (Sec. 3)", ours=f"also measured after {F1_ITERS_EARLIER} iterations, the count "
    "our earlier build judged (metrics fig1a.*.converged_fraction_it100); no claim reads it",
    why="kept as a measured departure: at the trained nets' slope (about 0.999) 100 iterations move the grid about "
        "10 % of the way, short of convergence")
F1_TOL = SETTINGS.add(                   # paper 2, Fig 1a: not stated
    0.01, "tolerance of 'converged' (distance to a training point), Fig 1a", paper=NOT_STATED,
    cite="Sec. 3: 'convergence to one of the two training examples'",
    why="ours: 2.5 % of the 0.4 between the two training points (0.3, 0.7)")
# Fig 1a's initializations. Paper 2, App. I.2: "each parameter of an autoencoder be initialized as
# close to zero as possible (while allowing for training)", and Fig 1a (upper left / upper right):
# "the learned map with a large initialization behaves very differently from the learned map with
# close to zero initialization ... the latter is contractive around the training examples, while
# the former is not". No scale is given for either. Small: N(0, 1/(fan_in fan_out)) with zero
# biases (`weights.initialize_` "paper_default", the smallest of the library's schemes) where it
# trains, else the next one that does; large: Kaiming normal N(0, 2/fan_in), zero biases (the
# scheme App. I.2 names as giving larger outputs). Both fixed before the probe
# (benchmarks/probes/paper2_fig1a_init.py, seeds 100-102, which no claim uses); it found that from
# N(0, 1/(fan_in fan_out)) the 6-layer net does not train (it stays at the constant mean
# prediction, loss ratio 0.14, on every probe seed: App. I.2's "while allowing for training"
# fails), so the 6-layer net starts from PyTorch's default U(+-1/sqrt(fan_in)), the next smallest
# that trains it.
F1_INIT_SMALL = {2: "paper_default", 6: "default"}   # paper 2, App. I.2: "as close to zero as ..."
F1_INIT_LARGE = "kaiming_normal"          # paper 2, Fig 1a upper left: "a large initialization"
SETTINGS.note(
    "initialization, Fig 1a",
    paper="'as close to zero as possible' (App. I.2), and a 'large initialization' as the contrast "
          "(Fig 1a, upper left); no scale given for either",
    ours=f"small: {', '.join(f'{k} layers {v}' for k, v in F1_INIT_SMALL.items())} "
         "(paper_default: N(0, 1/(fan_in fan_out)), zero biases; default: PyTorch's); "
         f"large: {F1_INIT_LARGE} (N(0, 2/fan_in), zero biases)",
    why="the smallest scheme that trains each net, fixed before measuring: from paper_default the "
        "6-layer net stays at the constant mean prediction on seeds 100-102 "
        "(benchmarks/probes/paper2_fig1a_init.py), so it starts from PyTorch's default, the "
        "notebook's init before issue 41")

# ---------------- Theorem 1: a single-layer sigmoid autoencoder from A = 0
T1_STEPS = SETTINGS.add(                 # paper 2, Theorem 1: no experiment's steps stated
    dict(smoke=300, quick=10_000, paper=50_000), "steps, Theorem 1", paper=NOT_STATED,
    cite="Theorem 1", why="ours; smoke: CI only")
T1_LR = 300.0               # paper 2, Theorem 1: adaptive (App. B); the experiments' constant: none
SETTINGS.note(
    "learning rate, Theorem 1",
    paper="adaptive (App. B's proof); constant in the experiments, value not given",
    ours=f"constant {T1_LR:g} on the mean squared error",
    why="the largest stable constant step (measured)")
T1_SEEDS = _band("Theorem 1 (seed s takes the s-th digit of each class)")

# ---------------- Fig 2: the Swiss roll
SWISS_N = SETTINGS.add(                  # paper 2, Fig 2: 100 training points
    dict(smoke=20, quick=100, paper=100), "training points, Fig 2", paper=100, cite="Fig 2",
    why="smoke: CI only")
SWISS_WIDTH = SETTINGS.add(              # paper 2, Fig 2: 512 hidden units
    dict(smoke=32, quick=256, paper=512), "hidden units, Fig 2", paper=512, cite="Fig 2",
    why="cost")
SWISS_LAYERS = SETTINGS.add(             # paper 2, Fig 2: 10 layers
    dict(smoke=4, quick=10, paper=10), "layers, Fig 2", paper=10, cite="Fig 2",
    why="smoke: CI only")
SWISS_GRID = dict(smoke=10, quick=32, paper=32)   # paper 2, Fig 2: 1000 grid points (32² ≈ 1000)
SETTINGS.add(each_profile(lambda g: f"{g ** 2} ({g} x {g})", SWISS_GRID), "grid points, Fig 2",
             paper=1000, cite="Fig 2", why="a square grid; smoke: CI only")
SWISS_ITERS = dict(smoke=[0, 1, 5, 11], quick=[0, 11, 111, 1111],
                   paper=[0, 11, 111, 1111])     # paper 2, Fig 2: 0, 11, 111 and 1111 iterations
SETTINGS.add(each_profile(lambda its: ", ".join(map(str, its)), SWISS_ITERS), "iterations shown, Fig 2",
             paper="0, 11, 111, 1111", cite="Fig 2", why="smoke: CI only")
# Fig 2: full-batch Adam 1e-3, x0.2 stages, for this many steps. Paper 2, Fig 2: "trained to
# convergence", no count.
SWISS_STEPS = dict(smoke=100, quick=2000, paper=20_000)   # paper 2, Fig 2: not stated
SETTINGS.add(each_profile(lambda n: f"{n:,} full-batch Adam steps", SWISS_STEPS), "steps, Fig 2",
             paper=NOT_STATED, cite="'trained to convergence', Fig 2",
             why="cost; every seed's training points are fixed points within EPS (the fit gate)")
SWISS_SEEDS = _band("Fig 2 (the roll and the init)")
SETTINGS.note("Swiss roll, Fig 2", paper="the 3-D Swiss roll (Fig 2)",
              ours="its 2-D spiral (data.swiss_roll)",
              why="the grid then covers the plane the figure shows")

# ---------------- Fig 3a / 3b: the digit autoencoders
# name -> (training digits, weight layers, width). Paper 2, Fig 3a: 7 layers x 128 on 100 digits;
# Fig 3b: 14 x 128 on 20 digits. Smoke shrinks both (CI only).
FIG3_NETS = dict(smoke={"fig3a": (10, 7, 32), "fig3b": (5, 14, 32)},
                 quick={"fig3a": (100, 7, 128), "fig3b": (20, 14, 128)},
                 paper={"fig3a": (100, 7, 128), "fig3b": (20, 14, 128)})
SETTINGS.add(each_profile(lambda nets: f"{nets['fig3a'][0]} / {nets['fig3b'][0]}", FIG3_NETS),
             "training digits, Fig 3a / 3b", paper="100 / 20", cite="Fig 3", why="smoke: CI only")
SETTINGS.add(each_profile(lambda nets: f"{nets['fig3a'][2]} / {nets['fig3b'][2]}", FIG3_NETS),
             "hidden units, Fig 3a / 3b", paper="128 / 128", cite="Fig 3", why="smoke: CI only")
# Not given for Fig 3; the paper's other nonlinear autoencoders use leaky ReLU (Fig 5, 6, 9, 10,
# 12).
FIG3_ACTIVATION = "leaky_relu"
# "Trained to convergence" (Fig 3), nothing else stated: full-batch Adam at a constant rate, x0.1
# for the last 10 % of the steps. Chosen on seed 0 among ten recipes (notebook 02's table under Fig
# 3), so Fig 3's claims are judged on a band of other seeds: FIG3_SEED_OFFSETS.
FIG3_FIT = dict(optimizer="adam", lr=1e-3, schedule="final_decay")
FIG3_STEPS = dict(smoke=100, quick=40_000, paper=100_000)
_BANDS = {p: ", ".join(f"seed + {k}" for k in FIG3_SEED_OFFSETS[p]) for p in ("smoke", "quick")}
SETTINGS.add(
    each_profile(lambda n: f"{FIG3_ACTIVATION}; full-batch Adam, lr {FIG3_FIT['lr']:g}, constant, x0.1 "
                    f"for the last 10 % ({n:,} steps)", FIG3_STEPS),
    "nonlinearity and optimizer, Fig 3", paper=NOT_STATED, cite="'trained to convergence', Fig 3",
    why="chosen on seed 0 among the ten recipes tabled under Fig 3 (Fig 2 and 4 keep ReLU and the "
        "stagewise decay; Fig 11 takes this schedule with ReLU); the claims are judged on "
        f"{_BANDS['quick']} (smoke: {_BANDS['smoke']}), not on it")
F3_ITERS = UNLISTED.add(                 # paper 2, Fig 3: not stated
    dict(smoke=[0, 1, 5, 20], quick=[0, 1, 2, 5, 10, 50, 200, 1000],
         paper=[0, 1, 2, 5, 10, 50, 200, 1000]),
    "iterations shown, Fig 3", paper=NOT_STATED, cite="Fig 3's trajectories",
    why="ours; smoke: CI only")
N_STARTS = UNLISTED.add(                 # paper 2, Fig 3: "random test examples", no count
    dict(smoke=20, quick=300, paper=1000), "test images iterated, Fig 3", paper=NOT_STATED,
    cite="Fig 3", why="ours; smoke: CI only")

# ---------------- Fig 4: recovery probability R_t
F4_N = SETTINGS.add(                     # paper 2, Fig 4: 1000 training images
    dict(smoke=10, quick=50, paper=1000), "training digits, Fig 4", paper=1000, cite="Fig 4",
    why="cost")
# R_t read at t = 0 .. F4_T iterations. Paper 2, Fig 4: the x-axis runs to 1,000 iterations.
F4_T = dict(smoke=20, quick=200, paper=1000)              # paper 2, Fig 4: 1,000 iterations
SETTINGS.add(each_profile(lambda t: f"{t:,}", F4_T), "iterations of R_t, Fig 4", paper="1,000",
             cite="Fig 4's x-axis",
             why="cost: 9 nets x 300 test digits iterated; R_T is read at the last iteration shown")
# The sweeps share one model (the second width, the second depth).
F4_WIDTHS = dict(smoke=[16, 32], quick=[128, 256, 512],
                 paper=[128, 256, 512, 1024])   # paper 2, Fig 4a: in the legend, not the text
F4_DEPTHS = dict(smoke=[2, 3], quick=[2, 4, 6], paper=[3, 5, 7, 9])   # paper 2, Fig 4b: likewise
F4_STEPS = dict(smoke=100, quick=4000, paper=20_000)   # paper 2, Fig 4: "trained to convergence"
SETTINGS.note(
    "widths, depths and steps, Fig 4",
    paper="not in the text (the figure's legend); 'trained to convergence'",
    ours=each_profile(lambda w, d, n: f"widths {', '.join(map(str, w))} at {d[1]} layers; depths "
                               f"{', '.join(map(str, d))} at width {w[1]}; {n:,} full-batch steps",
               F4_WIDTHS, F4_DEPTHS, F4_STEPS),
    why="our choice; the steps are enough for every net to make its training digits fixed points "
        "within EPS (probe seeds 100-102, which no claim uses); at 2,000 steps the earlier "
        "baseline's width-64 and 6-layer nets did not")
F4_SEEDS = _band("Fig 4")

# ---------------- Theorem 3: a wide 2-layer net with W1 fixed
T3_WIDTHS = SETTINGS.add(                # paper 2, Theorem 3: no experiment
    dict(smoke=[16, 256], quick=[16, 64, 256, 1024, 4096, 16384],
         paper=[16, 64, 256, 1024, 4096, 16384, 65536]),
    "widths, Theorem 3", paper=NOT_STATED, cite="Theorem 3: no experiment",
    why="ours: a numerical check of the theorem, which is for wide nets")
T3_SEEDS = _band("Theorem 3", dict(smoke=1, quick=5, paper=10))

# ---------------- Fig 1b: a U-Net on one image (paper 3's U-Net builder, small)
F1B_CHANNELS = dict(smoke=8, quick=32, paper=128)   # paper 2, Fig 1b gives no sizes: our choice
F1B_LEVELS = dict(smoke=2, quick=4, paper=4)        # 32 -> 2 pixels at the bottom (quick)
SETTINGS.note(
    "U-Net, Fig 1b", paper="a U-Net; sizes and optimizer not given (Fig 1b)",
    ours=each_profile(lambda lv, ch: f"{lv} levels of {ch} channels, without skip connections; Adam, lr "
                              "1e-3", F1B_LEVELS, F1B_CHANNELS),
    why="with skip connections the input passes straight through and the net stays close to the "
        "identity")
F1B_STEPS = SETTINGS.add(                # paper 2, Fig 1b: 2000 iterations
    dict(smoke=50, quick=2000, paper=2000), "iterations, Fig 1b", paper=2000, cite="Fig 1b",
    why="smoke: CI only")
F1B_PROBES = UNLISTED.add(               # paper 2, Fig 1b: no count
    dict(smoke=2, quick=4, paper=8), "inputs of each kind, Fig 1b", paper=NOT_STATED,
    cite="Fig 1b: white squares, Gaussian noise, new images", why="ours; smoke: CI only")
F1B_ITERS = UNLISTED.add(                # paper 2, Fig 1b: one application shown
    dict(smoke=2, quick=5, paper=20), "iterations of the U-Net (an extra row), Fig 1b",
    paper=NOT_STATED, cite="Fig 1b", why="ours: the iterated map beside the figure's one step")
F1B_SEEDS = _band("Fig 1b (the init and the inputs)")

# ---------------- Fig 12: the output norm before training
# Measured on this net. Paper 2, Fig 12: "the nonlinear version of the autoencoder from Figure 3a
# (modified with Leaky ReLU activations after each convolutional layer)", a figure of the
# supplement not in the text; the conv autoencoder the text names with leaky ReLU is D1 (Fig 5, 6).
F12_NET = "d1"          # paper 2, Fig 12: its conv AE, leaky ReLU (D1); "dab": paper 3's D_{a,b}
SETTINGS.note(
    "network, Fig 12",
    paper="'the nonlinear version of the autoencoder from Figure 3a (modified with Leaky ReLU activations after "
          "each convolutional layer)' (Fig 12); Fig 3a's net is fully connected (7 layers, 128 hidden units)",
    ours="D1 (Fig 7a's downsampling net, models.downsampling_d1) with a leaky ReLU after every convolution, as Fig 5 "
         "and 6 use it; paper 3's D_{a,b} measured beside",
    why="the caption names convolutional layers that Fig 3a's net does not have: the conv autoencoder the text pairs "
        "with leaky ReLU is D1 (Fig 5b, 6: 'from Figure 1a in Supplementary Material G modified with leaky ReLU')")
F12_AB = SETTINGS.add(                   # paper 3, Fig 6: D_{64,192}
    dict(smoke=(4, 12), quick=(16, 48), paper=(64, 192)),
    "(a, b) of paper 3's D_{a,b}, measured beside D1, Fig 12", paper=NOT_STATED,
    cite="Fig 12: no such net",
    why="ours: the net this notebook measured before issue 41, shown beside D1")
F12_SEEDS = _band("Fig 12", dict(smoke=2, quick=7, paper=10))

# ---------------- Fig 7 / 8: the linear downsampling nets D1 and D2 (App. G)
# D1 (Fig 5-7): stride-2 3x3 convolutions down to 1x1, then 4x4 transposed convolutions of stride 2
# back up (`models.downsampling_d1`). Paper 2, Fig 7a: the architecture is a figure not in the
# text; App. E linearizes "nearest neighbor upsampling" layers "in downsampling autoencoders", so
# its way up is probably nearest upsampling and convolutions.
D1_UP = "4x4 transposed convolutions of stride 2"   # paper 2, App. E: nearest upsampling (probably)
SETTINGS.note(
    "D1's way up, Fig 5-7",
    paper="not in the text (Fig 7a); App. E linearizes nearest-neighbour upsampling layers 'in "
          "downsampling autoencoders'", ours=D1_UP,
    why="our choice (models.downsampling_d1); not measured with nearest upsampling, so the paper's "
        "D1 may differ")
# Quick trains the paper's 10,000 since session 28 (was 2,000 / 3,000): on seeds 100-102, which no claim uses
# (benchmarks/probes/paper2_steps.py; measured/paper2_steps_fig7_fig8.json), D2 at 3,000 steps ended at 0.8 % of the
# zero prediction's loss, its outputs for noise 0.09 from the photo's span against the claim's 0.1, and at 10,000
# at 1e-12 and 1e-5; D1's rest of the spectrum was the same at both (0.017-0.026 against the paper's 2e-2).
F7_STEPS = dict(smoke=50, quick=10_000, paper=10_000)   # paper 2, Fig 7: 10000 iterations
F8_STEPS = dict(smoke=20, quick=10_000, paper=10_000)   # paper 2, Fig 8: 10000 iterations
SETTINGS.add(each_profile(lambda a, b: f"{a} / {b}", F7_STEPS, F8_STEPS), "iterations, Fig 7 / 8",
             paper="10000 / 10000", cite="Fig 7, 8", why="smoke: CI only")
F7_CHANNELS = dict(smoke=4, quick=32, paper=64)   # paper 2, Fig 7a: not in the text, our choice
F8_CHANNELS = dict(smoke=4, quick=64, paper=64)   # our choice: 64 x 9 x 1.8e-3 ~ 1 per layer
F8_OPT = dict(optimizer="adam", lr=1e-4, schedule="stagewise")   # paper 2, App. F: Adam 1e-4 (deep)
SETTINGS.note(
    "D1 / D2 channels and optimizer, Fig 7 / 8",
    paper="not in the text (App. G: the architecture figures)",
    ours=each_profile(lambda c7, c8: f"{c7} / {c8} channels; Adam, lr {ADAM['lr']:g} / {F8_OPT['lr']:g}",
               F7_CHANNELS, F8_CHANNELS),
    why="our choice; D2 takes App. F's Adam 1e-4 for deep nets, with x0.2 stages at 30/60/80 % of "
        "the steps (at a constant rate Adam left D2's top eigenvalue short of 1 on probe seeds "
        "100-102: RESULTS.md, session 13)")
SETTINGS.note(
    "D2's first and last layers, Fig 8",
    paper="in a figure not in the text (Fig 8a); 'downsamples a 32 x 32 CIFAR10 image to a 4 x 4 representation "
          "after layer 1', 29 layers (App. G)",
    ours="an 8x8 convolution of stride 8 (32x32 -> 4x4) and, as the last layer, an 8x8 transposed convolution of "
         "stride 8 back to 32x32 (models.downsampling_d2); the 27 layers between: 3x3 convolutions on the 4x4 grid",
    why="our choice: the text gives the 4x4 representation after layer 1 and the 29 layers, not the outer layers' "
        "kernels; an 8x8 kernel at stride 8 reads each pixel once")
F8_JITTER = 0.01        # each 1.8e-3 times 1 + 0.01 N(0, 1) (paper 2, Fig 8: every one 1.8e-3)
SETTINGS.note(
    "initialization, Fig 8", paper="every parameter 1.8e-3 (Fig 8)",
    ours=f"1.8e-3 x (1 + {F8_JITTER:g} N(0, 1)), per weight",
    why="with every parameter equal all channels get the same gradient and stay equal, so D2 acts "
        "as a one-channel net and cannot fit a photo at any step count; the "
        f"{F8_JITTER:.0%} jitter breaks the tie (chosen on seeds 100-102, which no claim uses)")
G_PROBES = UNLISTED.add(                 # paper 2, Fig 7, 8: "standard Gaussian data", no count
    dict(smoke=4, quick=16, paper=100), "N(0, 1) inputs, Fig 7 / 8", paper=NOT_STATED,
    cite="Fig 7, 8", why="ours; smoke: CI only")
G_SEEDS = _band("Fig 7 / 8 (D1's init; D2's is constant: the inputs)", FIVE)

# ---------------- Fig 5a / 5b: the nonlinear (LeakyReLU) D1 on many / one-per-class photos
F5A_N = SETTINGS.add(                    # paper 2, Fig 5a: 100 images
    dict(smoke=8, quick=63, paper=100), "training images, Fig 5a", paper=100, cite="Fig 5a",
    why="quick: all 63 training photos; smoke: CI only")
F5_CHANNELS = SETTINGS.add(              # paper 2, Fig 5: not in the text
    dict(smoke=4, quick=64, paper=64), "channels of D1, Fig 5", paper=NOT_STATED,
    cite="Fig 7a: not in the text", why="ours: as Fig 6; smoke: CI only")
F5_STEPS = dict(smoke=20, quick=1000, paper=10_000)    # paper 2, Fig 5: "to convergence", no count
F5A_STEPS = dict(smoke=20, quick=1500, paper=10_000)   # Fig 5a: 63 photos through a 1x1 bottleneck
SETTINGS.note(
    "steps, Fig 5a / 5b", paper="'to convergence' (no count given)",
    ours=each_profile(lambda a, b: f"{a:,} / {b:,} full-batch Adam steps", F5A_STEPS, F5_STEPS),
    why="Fig 5a: the fewest of 1,000 / 1,500 / 2,000 that fit seeds 100 and 101, which no claim "
        "uses (benchmarks/RESULTS.md, session 10)")
F5_SEEDS = _band("Fig 5 (D1's init)", FIVE)
F5A_ITERS = UNLISTED.add(                # paper 2, Fig 5a: not stated
    dict(smoke=[0, 1, 5], quick=[0, 1, 2, 5, 10, 50], paper=[0, 1, 2, 5, 10, 50, 200]),
    "iterations shown, Fig 5a", paper=NOT_STATED, cite="Fig 5a's trajectories",
    why="ours; smoke: CI only")
F5B_ITERS = UNLISTED.add(                # paper 2, Fig 5b: "after just 1 iteration"
    dict(smoke=3, quick=10, paper=10), "iterations, Fig 5b", paper=NOT_STATED, cite="Fig 5b",
    why="ours: the iterated inputs beside one application; smoke: CI only")
# Fig 5 and 6: the nonlinear D1 trained by full-batch Adam at 1e-4. Paper 2, Fig 5 / 6: no
# optimizer stated; App. F states Adam 1e-4 only for the linear conv nets deeper than 10 layers
# (Tables 1-2), which D1 (10 layers) is not.
F56_OPT = dict(optimizer="adam", lr=1e-4)   # paper 2, App. F: Adam 1e-4 past 10 layers (Tables 1-2)
SETTINGS.add(f"full-batch Adam, lr {F56_OPT['lr']:g}", "optimizer, Fig 5 / 6", paper=NOT_STATED,
             cite="App. F's Adam 1e-4 is for the linear nets past 10 layers",
             why="App. F's deep-net rate, for the nonlinear D1 of 10 layers")

# ---------------- Fig 6: the nonlinear D1 after 100 and 1000 epochs (full batch: a step each)
# Fig 6's training set. Paper 2, Fig 6: not stated (Fig 5b, the same net: 10 CIFAR10 images, one
# per class).
F6_N = dict(smoke=2, quick=3, paper=10)   # paper 2, Fig 5b: 10 images (Fig 6: not stated)
SETTINGS.add(
    each_profile(lambda n: f"{n} photos, the first of {n} sources", F6_N), "training images, Fig 6",
    paper=NOT_STATED, cite="Fig 6; Fig 5b trains the same net on 10 CIFAR10 images, one per class",
    why="cost; smoke: CI only")
F6_CHANNELS = SETTINGS.add(              # paper 2, Fig 6: not in the text
    dict(smoke=4, quick=64, paper=64), "channels of D1, Fig 6", paper=NOT_STATED,
    cite="Fig 7a: not in the text", why="our choice; smoke: CI only")
F6_EPOCHS = dict(smoke=[5, 20], quick=[100, 1000],
                 paper=[100, 1000])      # paper 2, Fig 6: 100 and 1000 epochs
SETTINGS.add(each_profile(lambda e: " and ".join(map(str, e)), F6_EPOCHS), "epochs, Fig 6",
             paper="100 and 1000", cite="Fig 6", why="smoke: CI only")
# Fig 6's "epoch". Paper 2, Fig 6: "100 training epochs", "1000 training epochs"; an epoch is one pass over the
# training set, in mini-batches of a size the paper does not state. Read as passes over mini-batches of F6_BATCH (an
# epoch = ceil(F6_N / F6_BATCH) steps, the order drawn anew each epoch from the seed): the claims are judged on it.
# Our earlier reading, one full-batch step an epoch, is trained beside on the same seeds (metrics `fig6.full_batch.*`,
# a departure no claim reads); benchmarks/probes/paper2_fig6_epochs.py trains both outside the notebook.
F6_BATCH = 1                               # paper 2, Fig 6: not stated; ours: mini-batches of one photo
F6_OTHER = "full_batch."                   # the metric infix of the full-batch reading, measured beside


def f6_steps(epochs: int, n: int, batch: int | None = F6_BATCH) -> int:
    """The steps of `epochs` passes over `n` images in mini-batches of `batch` (None: one full-batch step each)."""
    return epochs * (1 if batch is None else -(-n // batch))


SETTINGS.note(
    "an epoch, Fig 6",
    paper="a pass over the training set (Fig 6: 100 and 1000 epochs); batch size not stated",
    ours=each_profile(lambda n: f"a pass in mini-batches of {F6_BATCH} ({f6_steps(1, n)} steps of Adam), the order "
                                "drawn each epoch", F6_N),
    why="the paper gives no batch size; one photo a step is ours (with 3 photos at quick, the only size that splits "
        "the set evenly below the whole)")
SETTINGS.note(
    "one full-batch step an epoch, Fig 6, measured beside",
    paper="a pass over the training set in mini-batches (Fig 6)",
    ours="also trained: an epoch as one full-batch step, on the same seeds (metrics fig6.full_batch.*); no claim "
         "reads it",
    why="our earlier reading, kept as a measured departure")
F6_ITERS = UNLISTED.add(                 # paper 2, Fig 6: not stated
    dict(smoke=3, quick=10, paper=10), "iterations of the autoencoder, Fig 6", paper=NOT_STATED,
    cite="Fig 6", why="ours: as Fig 5b; smoke: CI only")
F6_SEEDS = _band("Fig 6 (D1's init)")

# ---------------- Fig 11: a fully connected autoencoder on many digits, near-zero test error
F11_N = dict(smoke=100, quick=1500, paper=50_000)   # paper 2, Fig 11: 50000 MNIST digits
SETTINGS.add(each_profile(lambda n: f"{n:,}", F11_N), "training digits, Fig 11", paper="50,000",
             cite="Fig 11", why="cost")
# ReLU, Adam 1e-3 on mini-batches of 100 at Fig 3's schedule, for this many steps. Paper 2, Fig 11
# / App. I.1: 7 layers x 512 "trained to convergence"; activation, optimizer and steps not stated.
F11_ACTIVATION = "relu"                                 # paper 2, Fig 11: not stated
F11_STEPS = dict(smoke=20, quick=6000, paper=30_000)    # paper 2, Fig 11: not stated
SETTINGS.add(each_profile(lambda n: f"{F11_ACTIVATION}; {n:,} mini-batch steps", F11_STEPS),
             "activation and steps, Fig 11", paper=NOT_STATED,
             cite="App. I.1: 7 x 512, 'trained to convergence'",
             why="our choice: the activation of Fig 2 and 4; the steps: cost")
SETTINGS.add("Adam 1e-3 on mini-batches of 100, x0.1 for the last 10 % of the steps",
             "optimizer and schedule, Fig 11", paper=NOT_STATED, cite="App. I.1",
             why="Fig 3's schedule: with x0.2 stages the net did not fit in quick's steps; chosen "
                 "on seeds 100-102, which no claim uses")
F11_ITERS = UNLISTED.add(                # paper 2, Fig 11: not stated
    dict(smoke=[0, 1, 5], quick=[0, 1, 10, 50, 200], paper=[0, 1, 10, 100, 1000]),
    "iterations shown, Fig 11", paper=NOT_STATED, cite="Fig 11's trajectories",
    why="ours; smoke: CI only")
F11_STARTS = UNLISTED.add(               # paper 2, Fig 11: not stated
    dict(smoke=10, quick=100, paper=300), "test digits iterated, Fig 11", paper=NOT_STATED,
    cite="Fig 11", why="ours; smoke: CI only")
F11_SEEDS = _band("Fig 11 (the init and the mini-batch order)")

# ---------------- Fig 9 / 10: nonlinear single-filter conv autoencoders (App. H)
_CAP = "ours: a cap; the nets train until the loss is below 1e-6 (App. F's bound)"
F9_STEPS = SETTINGS.add(                 # paper 2, Fig 9: not stated
    dict(smoke=50, quick=5000, paper=20_000), "most steps, Fig 9", paper=NOT_STATED,
    cite="App. H", why=_CAP)
F10_STEPS = SETTINGS.add(                # paper 2, Fig 10: not stated
    dict(smoke=50, quick=10_000, paper=20_000), "most steps, Fig 10", paper=NOT_STATED,
    cite="App. H", why=_CAP)
SETTINGS.add("Adam, lr 1e-4 / 1e-3, until the loss is below 1e-6", "optimizer, Fig 9 / 10",
             paper=NOT_STATED, cite="App. H",
             why="the paper gives none; 1e-4 as App. F's deep nets")
H_PROBES = UNLISTED.add(                 # paper 2, Fig 9, 10: no count
    dict(smoke=4, quick=20, paper=100), "N(0, 1) test inputs, Fig 9 / 10", paper=NOT_STATED,
    cite="Fig 9, 10", why="ours; smoke: CI only")
H_SEEDS = _band("Fig 9 / 10 (Fig 10's init; Fig 9's is constant: the inputs)", FIVE)

# ---------------- Tables 1-2: linear conv autoencoders (3x3 kernels, one zero padding, no biases)
# Paper 2, App. F: gradient descent at lr 0.1 (Adam at 1e-4 past 10 layers) "until the loss <
# 1e-6". Here each net trains on until 1e-7, a tenth of the paper's bound, so that every seed of a
# band clears the claims' fit gate (the paper's 1e-6) with margin, instead of stopping just under
# it (issue 26). The init stds per row were chosen in probes (the smallest that still trained), so
# the band uses SEED_OFFSETS too.
T1_CONVS = dict(smoke={2: 3, 5: 5}, quick={2: 3, 5: 5, 8: 8},
                paper={2: 3, 5: 5, 8: 8})   # paper 2, Table 1: 2, 5, 8 layers (3, 5, 8 convs)
SETTINGS.add(each_profile(lambda c: ", ".join(map(str, c)), T1_CONVS), "layers, Table 1",
             paper="2, 5, 8", cite="Table 1", why="smoke: CI only")
T1_FILTERS = dict(smoke=[1, 2], quick=[1, 16, 128],
                  paper=[1, 16, 128])       # paper 2, Table 1: 1, 16, 128 filters
SETTINGS.add(each_profile(lambda f: ", ".join(map(str, f)), T1_FILTERS), "filters, Table 1",
             paper="1, 16, 128", cite="Table 1", why="smoke: CI only")
SETTINGS.note(
    "convolutions per layer count, Table 1", paper="'# of Layers' 2 / 5 / 8 (Table 1)",
    ours=each_profile(lambda c: " / ".join(map(str, c.values())) + " convolutions", T1_CONVS),
    why="Table 1's parameter column (27 / 45 / 72 for one filter) counts 3 / 5 / 8 convolutions")
# Table 2's rows: (s, examples, layers, init std, the paper's spectrum); layers = ceil(s^4/9)
# except where the paper differs.
T2_ROWS = dict(smoke=[(2, 1, 3, 0.01, "1,[<1e-2]")],
               quick=[(2, 1, 3, 0.01, "1,[<1e-2]"), (3, 1, 9, 0.2, "1,[<1e-2]"),
                      (3, 3, 10, 0.2, "1,.98,.98,[<1e-2]")],
               paper=[(2, 1, 3, 0.01, "1,[<1e-2]"), (3, 1, 9, 0.2, "1,[<1e-2]"),
                      (4, 1, 29, 0.3, "1,[<1e-3]"), (5, 1, 70, 0.5, "1,[<1e-5]"),
                      (3, 3, 10, 0.2, "1,.98,.98,[<1e-2]")])   # paper 2, Table 2: the spectra
SETTINGS.add(
    each_profile(lambda rows: ", ".join(f"{s}x{s} with {n}" for s, n, *_ in rows), T2_ROWS),
    "rows of Table 2", paper="9: six with one image, three with several", cite="Table 2",
    why="cost: the rows past 5x5 need over 100 layers (the paper adds skip connections there)")
PAPER_UNTIL = 1e-6        # paper 2, App. F: "until the loss < 1e-6" (also Fig 9-10)
TAB_UNTIL = 1e-7
# Gradient descent at half App. F's rate. At 0.1 (on our mean squared error) the 3x3 nets of Table
# 2 diverged on one of the three probe seeds at every init std from 0.1 to 0.3, and Table 1's
# 2-layer 128-filter net at std 0.2; at 0.05 every net of both tables reached 1e-7 on seeds
# 100-102, which no claim uses, within 28,676 steps (benchmarks/RESULTS.md, session 13).
TAB_GD_LR = 0.05          # paper 2, App. F: 0.1
TAB_ADAM_LR = 1e-4        # paper 2, App. F: Adam 1e-4 past 10 layers
SETTINGS.note(
    "loss, Tables 1-2",
    paper="L = 1/2 sum_i ||A x_i - x_i||^2 (eq. 1, App. A), gradient descent at lr 0.1 (App. F)",
    ours=f"mean squared error over pixels and images, gradient descent at lr {TAB_GD_LR:g}; a net that "
         "diverges trains again at half the rate (plan.Job.train_until_stable; the notebook logs how many)",
    why="App. F does not say mean or sum; with the half-sum the steps at the same lr would be "
        "larger. At lr 0.1 the 3x3 nets of Table 2 diverged on one of three probe seeds at every "
        "init std from 0.1 to 0.3, and Table 1's 2-layer 128-filter net at std 0.2; at 0.05 every "
        "net of both tables fits (seeds 100-102), but Table 1's 128-filter 2-layer net diverged on seed 203 "
        "(session 28: the notebook stopped there), and at 0.025 it fits")
T1_INIT_STD = 0.2         # the smallest std that trained (paper 2, Table 1: "close to zero")
SETTINGS.note(
    "initialization, Tables 1-2",
    paper="each parameter 'as close to zero as possible' (Table 2, App. F)",
    ours=each_profile(lambda rows: f"random normal N(0, std^2 / c_in): std {T1_INIT_STD:g} (Table 1), "
                            + " / ".join(f"{std:g}" for *_, std, _ in rows) + " (Table 2 rows)",
               T2_ROWS),
    why="the smallest std of 0.01 / 0.03 / 0.1 / 0.2 / 0.3 with which every net of the row reached "
        "1e-7 within the step cap on probe seeds 100-102 (Table 1: at 0.1 the 8-layer "
        "single-filter net stays on its plateau for some seeds; RESULTS.md, session 13; a "
        "constant init is tried below)")
SETTINGS.add("standard normal s x s images", "training images, Table 2", paper=NOT_STATED,
             cite="Table 1: normally distributed 3x3 images", why="as Table 1")
# A cap on the run time (the paper has none): twice the most steps a probe net needed at TAB_GD_LR.
TAB_STEPS = dict(smoke=300, quick=60_000, full=100_000, paper=200_000)
SETTINGS.note(
    "stopping, Tables 1-2", paper=f"until the loss is below {PAPER_UNTIL:g}, no cap (App. F)",
    ours=each_profile(lambda n: f"until the loss is below {TAB_UNTIL:g}, at most {n:,} steps", TAB_STEPS),
    why=f"the claims' fit gate is the paper's {PAPER_UNTIL:g}: training on to a tenth of it lets "
        "every seed of the band clear the gate with margin, instead of stopping just under it; the "
        "cap bounds the run time")
