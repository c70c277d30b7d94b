"""Paper 1 — Zhang et al., "Identity Crisis" (ICLR 2020), the ConvNet sweeps and internals: other input sizes (Fig 3b,
18, 19), training image size (Fig 4a), channels (Fig 4b, 23-26), filters, initializations and optimizers (Fig 27-30),
and the inside of the deep ConvNets (Fig 10-22). The conventions, readings of the paper's words and ledger constants
are `paper1`'s; `memlib.claims` lists these after `paper1.CLAIMS`, in the paper's order of this module.
"""
from .core import NOT_REPRODUCED as NR, NOT_RUN, REPRODUCED as R, Claim, fitted  # noqa: F401
from .paper1 import FIG30_ONE_SEED, FULL_NOT_RUN, QUICK_NR, RR  # noqa: F401

CLAIMS: list[Claim] = [
    # ------------------------------------------------------------------ Fig 3b, 18, 19: other input sizes
    Claim('p1.fig18_identity_on_larger_inputs', 1, 'Fig 18 / App. H.1',
          quote='We found that the learned identity map generally holds up against larger (than the training) input sizes.',
          statement="The 5-layer ConvNet trained on 28x28 copies test inputs larger than 28 px (42..112): mean corr to the "
                    "identity over these sizes > 0.8 (per seed)",
          metric='fig18.depth5.larger.corr_identity', op='>', threshold=0.8, expect=RR,
          fit=(fitted('fig18.depth5'),)),
    Claim('p1.fig18_small_inputs_worse', 1, 'Fig 18 / App. H.1',
          quote='However, on small inputs, the predictions no longer match well with the inputs.',
          statement='On inputs of half the training size or less (7 and 14 px) the 5-layer ConvNet no longer copies the '
                    'input: its best corr to the identity over these sizes < 0.8 (per seed)',
          metric='fig18.depth5.small.corr_identity', op='<', threshold=0.8, expect=RR,
          fit=(fitted('fig18.depth5'),)),
    Claim('p1.fig3b_constant_slightly_smaller', 1, 'Fig 3b',
          quote='The learned constant map holds up for input dimensions slightly smaller ... than the trained image.',
          statement="The 20-layer ConvNet's constant map holds on 24 px inputs: corr to the digit resized to 24 px > 0.8 "
                    "(per seed)",
          metric='fig18.depth20.size24.corr_constant', op='>', threshold=0.8, expect=QUICK_NR,
          fit=(fitted('fig3b.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3b.depth20.loss_ratio:%} of the zero prediction's loss under the paper's recipe (App. H.3's init, App. B's SGD for the whole budget; on the rho = 0 probes their corr with the digit went from {fig3a.depth20.road.rho0.corr_constant.before_end:.2f} at step {fig3a.depth20.road.before_end_step:,.0f} to {fig3a.depth20.road.rho0.corr_constant.end:.2f} at the end, and with the input ended at {fig3a.depth20.road.rho0.corr_identity.end:.2f}) (seed by seed; the fit gate is 5 %); measured, on 24 px inputs the corr to the resized digit is {fig18.depth20.size24.corr_constant:.2f}")),
    Claim('p1.fig3b_constant_wide_range', 1, 'Fig 3b / App. H.1',
          quote='The learned constant map holds up for input dimensions slightly smaller ... than the trained image. ... '
                'It is interesting that the constant map also holds robustly across a wide range of input sizes.',
          statement="The 20-layer ConvNet's constant map holds from slightly smaller than the training size (24 px, as "
                    "p1.fig3b_constant_slightly_smaller; Sec. 3 says the map holds only down to 'slightly smaller') up to "
                    "twice it (56 px): the smallest corr to the resized digit over 24..56 px > 0.8 (per seed)",
          metric='fig3b.depth20.range24_56.corr_constant', op='>', threshold=0.8, expect=QUICK_NR,
          fit=(fitted('fig3b.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3b.depth20.loss_ratio:%} of the zero prediction's loss under the paper's recipe (App. H.3's init, App. B's SGD for the whole budget; on the rho = 0 probes their corr with the digit went from {fig3a.depth20.road.rho0.corr_constant.before_end:.2f} at step {fig3a.depth20.road.before_end_step:,.0f} to {fig3a.depth20.road.rho0.corr_constant.end:.2f} at the end, and with the input ended at {fig3a.depth20.road.rho0.corr_identity.end:.2f}) (seed by seed; the fit gate is 5 %); measured, over 24-56 px the smallest corr to the resized digit is {fig3b.depth20.range24_56.corr_constant:.2f} (at 28 px: {fig18.depth20.size28.corr_constant:.2f})")),
    Claim('p1.fig19_grows_from_borders', 1, 'Fig 3b / Fig 19',
          quote='The Figure suggests that the network starts from the outside, where the artifacts due to the boundary '
                'padding in convolution provide spatial cues. ... It seems the artifacts from ... the outside boundary '
                'due to convolution padding are used as cues to "grow" a pattern inwards to generate the digit "7". The '
                'visualizations of the intermediate layer representatiosn in Figure 19 is consistent with our '
                'hypothesis: the ConvNet take the last several layers to realize this construction.',
          statement="On inputs twice the training size (56 px), the pattern grows inwards over the last several layers: "
                    "the share of a layer's structure (squared deviation of its top-singular map from the map's median) "
                    "that lies in the central 28x28, from layer 15 (the last quarter of 20 layers) to the output, gains "
                    "more in the trained 20-layer ConvNet than in the same net at initialization (median over the test "
                    "inputs, per seed). An untrained net's boundary artifacts alone, which fill its output's border "
                    "band, do not pass",
          metric='fig19.trained.centre_gain', op='>', threshold='fig19.untrained.centre_gain', expect=QUICK_NR,
          fit=(fitted('fig3b.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3b.depth20.loss_ratio:%} of the zero prediction's loss under the paper's recipe (App. H.3's init, App. B's SGD for the whole budget; on the rho = 0 probes their corr with the digit went from {fig3a.depth20.road.rho0.corr_constant.before_end:.2f} at step {fig3a.depth20.road.before_end_step:,.0f} to {fig3a.depth20.road.rho0.corr_constant.end:.2f} at the end, and with the input ended at {fig3a.depth20.road.rho0.corr_identity.end:.2f}) (seed by seed; the fit gate is 5 %); measured, on 56 px inputs the centre's share of the structure goes from {fig19.trained.centre_share_start:.2f} (layer 15) to {fig19.trained.centre_share_output:.2f} (the output), a gain of {fig19.trained.centre_gain:.2f} against {fig19.untrained.centre_gain:.2f} for the same nets untrained")),

    # ------------------------------------------------------------------ Fig 4a: training image size
    Claim('p1.fig4a_more_constant_with_depth', 1, 'Fig 4a',
          quote='All three show more bias toward the constant function and less bias toward the identity function with '
                'increased network depth.',
          statement='Trained on 7x7, 14x14 and 28x28 images, the 20-layer ConvNet correlates more with its digit on rho = 0 '
                    'probes than the 1-layer one, at every size: the smallest gain over the sizes > 0 (per seed)',
          metric='fig4a.min_size.constant_gain', op='>', threshold=0.0, expect=QUICK_NR,
          fit=(fitted('fig4a.all'),), why="quick, under the paper's recipe for the depth sweep (its init and SGD for the whole budget, no stop): from 8 layers on the nets do not fit: the 8-, 14- and 20-layer nets end at {fig3a.depth8.loss_ratio:%}, {fig3a.depth14.loss_ratio:%} and {fig3a.depth20.loss_ratio:%} of the zero prediction's loss, seed by seed (the fit gate is 5 %); a net at the zero prediction's loss has collapsed to a constant output, and on the rho = 0 probes the 20-layer nets' corr with the digit ends at {fig3a.depth20.road.rho0.corr_constant.end:.2f}", basis={'quick': "measured: session 16's quick run of notebook 01 under the paper's recipe for the depth sweep (seeds 0-2, 2026-11-27): did not fit"}),
    Claim('p1.fig4a_less_identity_with_depth', 1, 'Fig 4a',
          quote='All three show more bias toward the constant function and less bias toward the identity function with '
                'increased network depth.',
          statement='At every training size the 20-layer ConvNet correlates less with the identity on rho = 0 probes than '
                    'the 1-layer one: the smallest drop over the sizes > 0 (per seed)',
          metric='fig4a.min_size.identity_loss', op='>', threshold=0.0, expect=QUICK_NR,
          fit=(fitted('fig4a.all'),), why="quick, under the paper's recipe for the depth sweep (its init and SGD for the whole budget, no stop): from 8 layers on the nets do not fit: the 8-, 14- and 20-layer nets end at {fig3a.depth8.loss_ratio:%}, {fig3a.depth14.loss_ratio:%} and {fig3a.depth20.loss_ratio:%} of the zero prediction's loss, seed by seed (the fit gate is 5 %); a net at the zero prediction's loss has collapsed to a constant output, and on the rho = 0 probes the 20-layer nets' corr with the digit ends at {fig3a.depth20.road.rho0.corr_constant.end:.2f}", basis={'quick': "measured: session 16's quick run of notebook 01 under the paper's recipe for the depth sweep (seeds 0-2, 2026-11-27): did not fit"}),
    Claim('p1.fig4a_small_images_accentuate', 1, 'Fig 4a',
          quote='However, smaller input grids accentuate the effect, likely because the training image has fewer pixels '
                'to constrain the mapping.',
          statement='Averaged over depths (1, 3, 5, 20 in quick), nets trained on 7x7 correlate more with their digit on '
                    'rho = 0 probes than nets trained on 28x28 (per seed)',
          metric='fig4a.size7.mean.corr_constant', op='>', threshold='fig4a.size28.mean.corr_constant', expect=QUICK_NR,
          fit=(fitted('fig4a.all'),), why="quick, under the paper's recipe for the depth sweep (its init and SGD for the whole budget, no stop): from 8 layers on the nets do not fit: the 8-, 14- and 20-layer nets end at {fig3a.depth8.loss_ratio:%}, {fig3a.depth14.loss_ratio:%} and {fig3a.depth20.loss_ratio:%} of the zero prediction's loss, seed by seed (the fit gate is 5 %); a net at the zero prediction's loss has collapsed to a constant output, and on the rho = 0 probes the 20-layer nets' corr with the digit ends at {fig3a.depth20.road.rho0.corr_constant.end:.2f}", basis={'quick': "measured: session 16's quick run of notebook 01 under the paper's recipe for the depth sweep (seeds 0-2, 2026-11-27): did not fit"}),

    # ------------------------------------------------------------------ Fig 4b, 23-26: channels
    Claim('p1.fig23_three_channels_worse', 1, 'Fig 4b / Fig 23',
          quote='The heatmap is consistent with the visualizations, showing that the 5-layer ConvNet fails to approximate '
                'the identity function when only three channels are used in each convolution layer.',
          statement='The 3-channel 5-layer ConvNet does not approximate the identity on the test inputs (corr < 0.8, per seed)',
          metric='fig23.thinnest.test.corr_identity', op='<', threshold=0.8, expect=QUICK_NR,
          fit=(fitted('fig23.thinnest'),),
          why=("quick on MNIST (1,500 clipped SGD steps): the 3-channel nets end at {fig23.thinnest.loss_ratio:%} of the zero prediction's loss (the fit rule is 5 %, every seed); their corr to the identity on the test inputs is {fig23.thinnest.test.corr_identity:.2f}")),
    Claim('p1.fig4b_three_channels_fit', 1, 'Fig 4b',
          quote='Underfitting is not an issue for the small network because it reconstructs the training image (first '
                'column) correctly.',
          statement="The 3-channel 5-layer ConvNet fits the training digit: final MSE < 5 % of the zero prediction's (per "
                    "seed). The same nets are Fig 24's 5-layer row",
          metric='fig23.thinnest.loss_ratio', op='<', threshold=0.05, expect=RR, fit=(fitted('fig23.thinnest'),),
          why=("quick on MNIST: final MSE {fig23.thinnest.loss_ratio:%} of the zero prediction's after 1,500 clipped SGD steps (the rule is 5 % for every seed)")),
    Claim('p1.fig4b_1024_channels_identity', 1, 'Fig 4b / Fig 23',
          quote='The aggressively over-parameterized network with 1024 channels (~25M parameters per middle-layer '
                'convolution module) does not seem to suffer from overfitting',
          statement='The widest 5-layer ConvNet swept (paper 1,024 channels; quick 32) approximates the identity on the '
                    'test inputs (corr > 0.8, per seed)',
          metric='fig23.widest.test.corr_identity', op='>', threshold=0.8, expect=RR,
          fit=(fitted('fig23.widest'),)),
    Claim('p1.fig24_thin_deep_fails', 1, 'Fig 24',
          quote='The 3-channel ConvNets beyond 8 layers fail to converge during training.',
          statement="The 11-layer 3-channel ConvNet fails to converge: final MSE > 50 % of the zero prediction's (per seed); "
                    "gated on the 5-layer 3-channel net fitting with the same settings",
          metric='fig24.depth11.loss_ratio', op='>', threshold=0.5, expect=QUICK_NR, fit=(fitted('fig23.thinnest'),),
          why=("quick on MNIST (1,500 clipped SGD steps): the gate, the 3-channel 5-layer nets fitting the digit, reads {fig23.thinnest.loss_ratio:%} of the zero prediction's loss (5 % for every seed); the 11-layer 3-channel nets end at {fig24.depth11.loss_ratio:%} of it (the claim: above 50 %)")),
    Claim('p1.fig25_wide_init_smoother', 1, 'Fig 25 / Fig 26',
          quote='From the visualizations of the intermediate layers, the 128-channel ConvNet already behave more smoothly '
                'than the 3-channel ConvNet at initialization.',
          statement="At initialization the hidden layers of the wide 5-layer ConvNet (paper 128 channels; quick 32) are "
                    "smoother than the 3-channel net's: mean roughness of their top-singular-vector maps on the test "
                    "panel (neighbour differences over twice the variance; white noise 1) is lower (per seed)",
          metric='fig25.wide.init_roughness', op='<', threshold='fig25.thin.init_roughness', expect=RR, about='init'),

    # ------------------------------------------------------------------ Fig 27-30: filters, initializations, optimizers
    Claim('p1.fig27_larger_filters_blurrier', 1, 'Fig 27 / Fig 28',
          quote='The visualization shows that the predictions become more and more blurry as the filter sizes grow.',
          statement="The predictions get blurrier with every step up in filter size (5, 9, 13 in quick): each "
                    "prediction's sharpness relative to its input (metrics.relative_sharpness: neighbour differences "
                    "over the variance, output over input; median over the test inputs) falls from one size to the "
                    "next, the smallest fall > 0 (per seed). The paper notes the correlation 'is not very good at "
                    "distinguishing images with different levels of blurry'; an MSE to the identity mixes blur with "
                    "every other error",
          metric='fig27.blur_step.test.sharpness_drop', op='>', threshold=0.0, expect=RR,
          fit=(fitted('fig27.all'),)),
    Claim('p1.fig27_huge_filters_constant', 1, 'Fig 27 / Fig 28',
          quote='With extremely large filter sizes that cover the whole inputs, the ConvNets start to bias towards the '
                'constant function.',
          statement='With 57x57 filters (each sees the whole 28x28 input) the 5-layer ConvNet correlates more with the '
                    'digit than with the input on rho = 0 probes (per seed). Quick stops at 13x13 filters (a 57x57 '
                    'filter costs over 100x a 5x5 one)',
          metric='fig27.cover.rho0.corr_constant', op='>', threshold='fig27.cover.rho0.corr_identity',
          expect=FULL_NOT_RUN, fit=(fitted('fig27.cover'),),
          basis={"quick": "not run: quick's filters stop at 13x13 (notebook 01's FILTER_SIZES); fig27.cover needs a filter "
                          "that sees the whole input (the paper's 57x57, over 100x a 5x5 filter's cost)",
                 "full": "not run: the full profile's filters stop at 29x29 (notebook 01's FILTER_SIZES), and fig27.cover "
                         "is logged only for a filter that sees the whole input (at least 55x55; the paper's 57x57)"}),
    *[Claim(f'p1.fig29_identity_{scheme}', 1, 'Fig 29 / App. H.3',
            quote='All initialization schemes bias toward the identity function for shallow networks.',
            statement=f"Initialized with {name}, the 5-layer ConvNet correlates more with the identity than with the "
                      "constant map on rho = 0 probes: corr to the identity minus corr to the constant map > 0 (per "
                      "seed; gated on this scheme's own nets fitting the digit)",
            metric=f'fig29.{scheme}.rho0.identity_minus_constant', op='>', threshold=0.0,
            expect=RR, fit=(fitted(f'fig29.{scheme}'),))
      for scheme, name in (('paper_default', "the paper's default N(0, 1/(fan_in fan_out))"),
                           ('xavier_normal', 'Xavier normal N(0, 2/(fan_in + fan_out))'),
                           ('xavier_uniform', 'Xavier uniform'),
                           ('kaiming_normal', 'Kaiming normal N(0, 2/fan_in)'),
                           ('kaiming_uniform', 'Kaiming uniform'))],
    Claim('p1.fig29_kaiming_artifacts', 1, 'Fig 29 / App. H.3',
          quote='But Kaiming init produces heavy artifacts on test predictions.',
          statement='Both Kaiming schemes give a larger MSE to the identity on the test inputs than every other scheme '
                    'whose nets fit the digit: smallest Kaiming MSE minus the largest MSE of the other schemes that fit '
                    '(per seed) > 0; gated on the Kaiming nets fitting and on at least 2 other schemes fitting (a '
                    'scheme that does not fit predicts near 0, an error that says nothing about artifacts)',
          metric='fig29.kaiming_minus_fitted_others.test.mse_identity', op='>', threshold=0.0,
          expect={"quick": NR, "paper": R}, fit=(fitted('fig29.kaiming'), 'fig29.fitted_others >= 2'),
          basis={"paper": "predicted: the paper profile trains every scheme the paper's 2,000,000 steps at 128 channels, "
                          "the setting of the figure that shows the artifacts; quick stops each net at 1 % of the zero "
                          "prediction's loss, and measured no such artifacts (the why)"},
          why="quick: with every scheme trained until it fits (Fig 29's rule, within its step budget), the "
              "smaller Kaiming MSE to the identity on the test inputs minus the largest of the other schemes' is "
              "{fig29.kaiming_minus_fitted_others.test.mse_identity:.3f} (one value per seed): Kaiming's predictions "
              "are not further from the input than the others' beyond the seed spread"),
    Claim('p1.fig30_optimizers_differ', 1, 'Fig 30 / App. H.3',
          quote='confirm that different optimizers find different global minimizers',
          statement="Among the optimizers whose nets fit the digit (at least 2), the band means of corr to the identity on "
                    "rho = 0 probes span more than 3 seed standard deviations (the largest band's)",
          metric='fig30.fitted.rho0.corr_identity_range', op='>', threshold='fig30.fitted.rho0.corr_identity_3std',
          expect=RR, fit=('fig30.fitted_optimizers >= 2',), one_seed=FIG30_ONE_SEED),
    Claim('p1.fig30_optimizers_drastic', 1, 'Fig 30 / App. H.3',
          quote='those minimizers show drastically different inductive biases on test examples',
          statement='Among the optimizers that fit the digit (at least 2), corr to the constant map on rho = 0 probes '
                    'spans more than 0.3',
          metric='fig30.fitted.rho0.corr_constant_range', op='>', threshold=0.3, expect=QUICK_NR,
          fit=('fig30.fitted_optimizers >= 2',), why=('quick on MNIST: the {fig30.fitted_optimizers} optimizers that fit differ in corr to the constant map on rho = 0 probes by {fig30.fitted.rho0.corr_constant_range:.3f} at most: beyond seed noise in the corr to the identity (p1.fig30_optimizers_differ) but not drastically'), one_seed=FIG30_ONE_SEED),

    # ------------------------------------------------------------------ Fig 10-22: inside the ConvNets
    Claim('p1.fig10_untrained_collapse', 1, 'Fig 10',
          quote='at random initialization, the smoothing effect makes the representations beyond around layer 5-6 almost '
                'useless for our simple classifier',
          statement="The averaging classifier's error on layers 7-20 of the untrained 20-layer ConvNet is closer to chance "
                    "than to the raw input's (per seed)",
          metric='fig10.untrained.err_beyond6', op='>', threshold='fig10.midpoint', expect=RR, about='init'),
    Claim('p1.fig10_shallow_keeps_information', 1, 'Fig 10',
          quote='if a layer represents the identity function, then the representation at that layer will have similar '
                'error rate to the raw representation',
          statement="The trained 3-layer ConvNet's output keeps the input's class: the classifier's error on it is closer to "
                    "the raw input's than to chance (per seed)",
          metric='fig10.shallow.err_output', op='<', threshold='fig10.midpoint', expect=RR,
          fit=(fitted('fig3a.depth3'),)),
    Claim('p1.fig10_trained_curves_concave', 1, 'Fig 10',
          quote='After training, as the error rates for the output layers decrease, the curves generally form "concave" '
                'patterns.',
          statement="Most trained ConvNets' layer-wise error curves are cap-shaped: the fraction of Fig 10's depths (2 "
                    "layers or more) whose largest interior error exceeds both the input's and the output's by more than "
                    "two binomial standard errors (1 / sqrt(test digits)) is > 0.5 (per seed; every depth must fit). "
                    "The untrained net's curve only rises (fig10.untrained.cap_shaped)",
          metric='fig10.cap_fraction', op='>', threshold=0.5, expect=RR, fit=(fitted('fig3a.all'),)),
    Claim('p1.fig10_deep_output_collapses', 1, 'Fig 10',
          quote='if the a layer collapses to the constant function, then the corresponding representation will have error '
                'rate close to random',
          statement="The trained 20-layer ConvNet's output (the constant map) is useless to the classifier: error closer to "
                    "chance than to the raw input's (per seed)",
          metric='fig10.deepest.err_output', op='>', threshold='fig10.midpoint', expect=QUICK_NR,
          fit=(fitted('fig3a.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the paper's recipe (App. H.3's init, App. B's SGD for the whole budget; on the rho = 0 probes their corr with the digit went from {fig3a.depth20.road.rho0.corr_constant.before_end:.2f} at step {fig3a.depth20.road.before_end_step:,.0f} to {fig3a.depth20.road.rho0.corr_constant.end:.2f} at the end, and with the input ended at {fig3a.depth20.road.rho0.corr_identity.end:.2f}) (seed by seed; the fit gate is 5 %); measured, the output's error is {fig10.deepest.err_output:.2f} against the midpoint {fig10.midpoint:.2f}")),
    Claim('p1.fig10_deep_bottom_improves', 1, 'Fig 10',
          quote='for the case of 20 layers, the curve shows that the bottom few layers do get small improvements in error '
                'rate',
          statement="Training lowers the classifier's mean error over layers 1-6 of the 20-layer ConvNet below its own "
                    "initialization's (per seed)",
          metric='fig10.deepest.err_bottom6', op='<', threshold='fig10.untrained.err_bottom6', expect=QUICK_NR,
          fit=(fitted('fig3a.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the paper's recipe (App. H.3's init, App. B's SGD for the whole budget; on the rho = 0 probes their corr with the digit went from {fig3a.depth20.road.rho0.corr_constant.before_end:.2f} at step {fig3a.depth20.road.before_end_step:,.0f} to {fig3a.depth20.road.rho0.corr_constant.end:.2f} at the end, and with the input ended at {fig3a.depth20.road.rho0.corr_identity.end:.2f}) (seed by seed; the fit gate is 5 %); measured, the mean error over layers 1-6 is {fig10.deepest.err_bottom6:.2f}, at initialization {fig10.untrained.err_bottom6:.2f} (the first layer moved by {fig15.deepest.first_layer:.1e} relative to its initial weights)")),
    Claim('p1.fig11_untrained_wipes_input', 1, 'Fig 11',
          quote='The shape of the input images are (visually) wiped out after around 8 layers of (random) convolution.',
          statement='In the untrained 20-layer ConvNet the top-singular-vector maps of layers 9-20 correlate < 0.5 with the '
                    'input (mean over those layers, per seed)',
          metric='fig11.untrained.input_corr_beyond8', op='<', threshold=0.5, expect=RR, about='init'),
    Claim('p1.fig12_shallow_keeps_input', 1, 'Fig 12',
          quote='After training, the network approximately renders an identity function at the output, and the '
                'intermediate activations also become less blurry.',
          statement="In the trained shallow ConvNet (paper 7 layers; quick 5) the input's structure is visible at every "
                    "layer: the channel most correlated with the input correlates > 0.5 with it at every layer (per seed)",
          metric='fig12.shallow.input_corr_min', op='>', threshold=0.5, expect=RR, fit=(fitted('fig12.shallow'),)),
    Claim('p1.fig13_mid_not_identity', 1, 'Fig 13',
          quote='Next we show a 14-layer ConvNet, which fails to learn the identity function.',
          statement='The trained 14-layer ConvNet does not approximate the identity on the test inputs (corr < 0.8, per seed)',
          metric='fig3a.depth14.test.corr_identity', op='<', threshold=0.8, expect=QUICK_NR, fit=(fitted('fig3a.depth14'),), why="quick, under the paper's recipe for the depth sweep (its init and SGD for the whole budget, no stop): from 8 layers on the nets do not fit: the 8-, 14- and 20-layer nets end at {fig3a.depth8.loss_ratio:%}, {fig3a.depth14.loss_ratio:%} and {fig3a.depth20.loss_ratio:%} of the zero prediction's loss, seed by seed (the fit gate is 5 %); a net at the zero prediction's loss has collapsed to a constant output, and on the rho = 0 probes the 20-layer nets' corr with the digit ends at {fig3a.depth20.road.rho0.corr_constant.end:.2f}", basis={'quick': "measured: session 16's quick run of notebook 01 under the paper's recipe for the depth sweep (seeds 0-2, 2026-11-27): did not fit"}),
    Claim('p1.fig13_mid_recovers_upper', 1, 'Fig 13',
          quote='However, it manages to recover meaningful information in the higher layer activations that were '
                '(visually) lost in the random initialization.',
          statement="In the 14-layer ConvNet, layers 9-14's top-singular-vector maps correlate more with the input after "
                    "training than at initialization (mean over those layers, per seed)",
          metric='fig13.mid.input_corr_beyond8', op='>', threshold='fig13.mid_untrained.input_corr_beyond8', expect=RR,
          fit=(fitted('fig3a.depth14'),),
          why=("quick on MNIST: layers 9-14's top-singular maps correlate {fig13.mid.input_corr_beyond8:.2f} with the input after training, {fig13.mid_untrained.input_corr_beyond8:.2f} at initialization")),
    Claim('p1.fig14_deep_builds_digit', 1, 'Fig 14',
          quote="Instead, the network start from scratch and constructs the digit '7' from empty and predict everything "
                "as '7'.",
          statement="The trained 20-layer ConvNet's output correlates more with the training digit than with the input "
                    "(per seed)",
          metric='fig14.deepest.output_digit_corr', op='>', threshold='fig14.deepest.output_input_corr', expect=QUICK_NR,
          fit=(fitted('fig3a.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the paper's recipe (App. H.3's init, App. B's SGD for the whole budget; on the rho = 0 probes their corr with the digit went from {fig3a.depth20.road.rho0.corr_constant.before_end:.2f} at step {fig3a.depth20.road.before_end_step:,.0f} to {fig3a.depth20.road.rho0.corr_constant.end:.2f} at the end, and with the input ended at {fig3a.depth20.road.rho0.corr_identity.end:.2f}) (seed by seed; the fit gate is 5 %); measured, the output correlates {fig14.deepest.output_digit_corr:.2f} with the digit, {fig14.deepest.output_input_corr:.2f} with the input")),
    Claim('p1.fig14_layer8_clearer', 1, 'Fig 11 / Fig 14',
          quote='However, note that around layer-8, we see the activations depict slightly more clear structures than the '
                'randomly initialized network.',
          statement="Layer 8 of the trained 20-layer ConvNet correlates more with the input than layer 8 of the same net at "
                    "initialization (top-singular-vector maps, per seed)",
          metric='fig14.deepest.input_corr_layer8', op='>', threshold='fig11.untrained.input_corr_layer8',
          expect=RR, fit=(fitted('fig3a.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the paper's recipe (App. H.3's init, App. B's SGD for the whole budget; on the rho = 0 probes their corr with the digit went from {fig3a.depth20.road.rho0.corr_constant.before_end:.2f} at step {fig3a.depth20.road.before_end_step:,.0f} to {fig3a.depth20.road.rho0.corr_constant.end:.2f} at the end, and with the input ended at {fig3a.depth20.road.rho0.corr_identity.end:.2f}) (seed by seed; the fit gate is 5 %); measured, layer 8 correlates {fig14.deepest.input_corr_layer8:.2f} with the input, at initialization {fig11.untrained.input_corr_layer8:.2f}")),
    Claim('p1.fig15_lower_layers_change_less', 1, 'Fig 15',
          quote='As a general pattern, we do see that as the network architecture gets deeper, the distances at lower '
                'layers do become smaller.',
          statement="The 20-layer ConvNet's first layer moves less (relative l2 change) than the 3-layer ConvNet's (per seed)",
          metric='fig15.deepest.first_layer', op='<', threshold='fig15.shallow.first_layer', expect=RR,
          fit=(fitted('fig3a.depth3'), fitted('fig3a.depth20')), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the paper's recipe (App. H.3's init, App. B's SGD for the whole budget; on the rho = 0 probes their corr with the digit went from {fig3a.depth20.road.rho0.corr_constant.before_end:.2f} at step {fig3a.depth20.road.before_end_step:,.0f} to {fig3a.depth20.road.rho0.corr_constant.end:.2f} at the end, and with the input ended at {fig3a.depth20.road.rho0.corr_identity.end:.2f}) (seed by seed; the fit gate is 5 %); measured, its first layer moves by {fig15.deepest.first_layer:.1e} against {fig15.shallow.first_layer:.1e} for the 3-layer net")),
    Claim('p1.appG_lower_layers_still_move', 1, 'Fig 15 / App. G',
          quote='we do see that as the network architecture gets deeper, the distances at lower layers do become '
                'smaller. But they are still non-zero',
          statement="The 20-layer ConvNet's first layer is not 'near zero': its relative l2 change is at least 10 % of "
                    "the top layer's (the paper's reading of near zero, as for Fig 17; per seed)",
          metric='fig15.deepest.first_over_top', op='>', threshold=0.1, expect=RR, fit=(fitted('fig3a.depth20'),)),
    Claim('p1.fig15_top_layer_changes_most', 1, 'Fig 15',
          quote='Most of the networks have significantly larger distances on the top-most layer.',
          statement='In most ConvNets (fraction of depths > 1 with the largest relative change at the top layer > 0.5, per '
                    'seed) the top layer moves most; every depth must fit',
          metric='fig15.frac_top_largest', op='>', threshold=0.5, expect=QUICK_NR, fit=(fitted('fig3a.all'),),
          why=("quick: gated on every depth fitting; the worst depth ends at {fig3a.all.loss_ratio:%} of the zero prediction's loss (the rule is 5 %); measured, the fraction of depths whose top layer moves most is {fig15.frac_top_largest:.2f}")),
    Claim('p1.fig16_linear_lower_layers_change_less', 1, 'Fig 16',
          quote='As a general pattern, we do see that as the network architecture gets deeper, the distances at lower '
                'layers do become smaller. ... In Figure 16 and Figure 17, we show the same plots for linear FCNs and '
                'FCNs with ReLU activation, respectively.',
          statement="The paper states the pattern for ConvNets (Fig 15) and shows 'the same plots' for linear FCNs in "
                    "Fig 16 without a statement of their own: tested is whether the pattern holds there. The deepest "
                    "linear FCN's first layer (paper 11 hidden layers; quick 9) moves less than the 1-hidden-layer "
                    "linear FCN's (relative l2 change, per seed)",
          metric='fig16.deepest.first_layer', op='<', threshold='fig16.shallow.first_layer', expect=RR,
          fit=(fitted('fig8.all'),)),
    Claim('p1.fig17_relu_fcn_lower_layers_still', 1, 'Fig 17',
          quote='We see that especially for ReLU FCN with 11 hidden layers, the distances for the weight tensors at the '
                'lower 5 layers are near zero.',
          statement="In the deepest ReLU FCN (paper 11 hidden layers; quick 9) the lower 5 layers' mean relative change is "
                    "below 10 % of the top layer's (per seed)",
          metric='fig17.deepest.bottom5_over_top', op='<', threshold=0.1, expect=RR, fit=(fitted('fig8.relu.deepest'),)),
    Claim('p1.fig17_relu3_not_vanishing', 1, 'Fig 17',
          quote='the ReLU FCNs start to bias towards the constant function with only three hidden layers, which are by no '
                'means suffering from vanishing gradients as the plots here demonstrate',
          statement="In the 3-hidden-layer ReLU FCN the first layer's relative change is not near zero: at least 10 % of the "
                    "top layer's (per seed)",
          metric='fig17.mid.first_over_top', op='>', threshold=0.1, expect=RR, fit=(fitted('fig8.relu.mid'),)),
    Claim('p1.fig20_distinction_at_15', 1, 'Fig 20 / App. H.2',
          quote='A clear distinction can be found at 15-layer ConvNet, which according to Figure 3a is where the networks '
                'start to bias away from edge detector and towards the constant function.',
          statement="The top layer alone, fed the test inputs: its corr to the input separates the nets of 15 layers or "
                    "more from the shallower ones (2-14): the two groups' ranges do not overlap (gap > 0, either "
                    "direction, per seed); every depth must fit",
          metric='fig20.separation_at_15', op='>', threshold=0.0, expect=QUICK_NR, fit=(fitted('fig3a.all'),),
          why=("quick: gated on every depth fitting; the worst depth ends at {fig3a.all.loss_ratio:%} of the zero prediction's loss; quick trains no depth between 14 and 20, so its gap (20 against 2-14: {fig20.separation_at_15:.2f}) is measured at one deep depth only")),
    Claim('p1.fig22_upper_half_builds_digit', 1, 'Fig 22 / App. H.2',
          quote='In particular, the last visualization shows that the 20-layer ConvNet is already starting to construct '
                'the digit "7" from nowhere when using only the upper half of the model.',
          statement='The upper 10 layers of the 20-layer ConvNet, fed the test inputs directly, output something more '
                    'correlated with the digit than with the inputs (per seed)',
          metric='fig22.upper_half.corr_constant', op='>', threshold='fig22.upper_half.corr_identity', expect=QUICK_NR,
          fit=(fitted('fig3a.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the paper's recipe (App. H.3's init, App. B's SGD for the whole budget; on the rho = 0 probes their corr with the digit went from {fig3a.depth20.road.rho0.corr_constant.before_end:.2f} at step {fig3a.depth20.road.before_end_step:,.0f} to {fig3a.depth20.road.rho0.corr_constant.end:.2f} at the end, and with the input ended at {fig3a.depth20.road.rho0.corr_identity.end:.2f}) (seed by seed; the fit gate is 5 %); measured, the upper half's output correlates {fig22.upper_half.corr_constant:.2f} with the digit, {fig22.upper_half.corr_identity:.2f} with the input")),
]
