"""Paper 1 — Zhang et al., "Identity Crisis" (ICLR 2020): identity vs constant map from one example.

Every claim quotes the sentence it tests. Nets are trained as seed bands (3 seeds in quick): the
metrics are lists with one value per seed, and a claim holds only for every seed with margin. Every
claim about a trained net is gated on its fit: final MSE below 5 % of the MSE of predicting zero
(`<prefix>.loss_ratio`, per seed; `.all` / `.shallow` / ... gates are the largest ratio over a set of
nets). Readings of the paper's words used throughout (fixed before measuring): "a good approximation
to the identity" / "correlates well" = Pearson correlation > 0.8; "near zero" = below 10 % of the
largest layer's change; "fails to converge" = final MSE above 50 % of the zero prediction's.
"""
from .core import NOT_REPRODUCED as NR, NOT_RUN, REPRODUCED as R, Claim, fitted

RR = {"quick": R, "paper": R}
QUICK_NR = {"quick": NR, "paper": R}
# issue 26: the trained-net claims still judged on one seed, and why (tests/test_envelope.py)
FIG30_ONE_SEED = ("not one net but a statistic over seed bands: the spread of the fitted optimizers' band means (each "
                  "optimizer a band of 3 seeds); judged once per run, like a band's mean")
FULL_NOT_RUN = {"quick": NOT_RUN, "full": NOT_RUN, "paper": R}   # only the paper profile trains it
FULL_REPRODUCED_NOT_QUICK = {"quick": NOT_RUN, "paper": R}   # the full and paper profiles train it

CLAIMS: list[Claim] = [
    # ------------------------------------------------------------------ Fig 2: fully connected nets
    Claim('p1.eq1_closed_form', 1, 'Fig 2 / eq. 1',
          quote='given randomly initialized weights W^0 , gradient descent converges to a unique global minimizer',
          statement='The 1-layer linear net Wx trained on the digit equals the closed form of eq. 1 on every test input '
                    'and rho-probe (relative error < 1e-3), for every seed of a band of 3 (each seed its own W0)',
          metric='fig2.linear1_vs_eq1_rel_err', op='<', threshold=0.001,
          expect={"quick": R, "paper": R, "smoke": R}, fit=(fitted('fig2.linear1'),)),
    Claim('p1.linear1_random_on_orthogonal', 1, 'Fig 2 / eq. 1',
          quote='In particular, when the test example x is orthogonal to \\hat{x} , the prediction is completely random.',
          statement='By eq. 1 an input orthogonal to the digit goes through the random initial W0, so the 1-layer net does '
                    'not copy it (corr to identity < 0.5 on rho = 0 probes). True at initialization too: a consequence of '
                    'eq. 1 (checked above), not counted',
          metric='fig2.linear1.rho0.corr_identity', op='<', threshold=0.5, expect=RR, about='sanity'),
    Claim('p1.fig2_deep_linear_like_relu', 1, 'Fig 2',
          quote='Figure 2 shows that a 6-layer linear network behaves more like a 6-layer ReLU network than like the '
                '1-layer convex case',
          statement="The 6-layer linear net's predictions on the test inputs correlate more with the 6-layer ReLU net's "
                    "than with the 1-layer linear net's (mean per-input Pearson correlation of the two nets' outputs)",
          metric='fig2.linear6.corr_to_relu6', op='>', threshold='fig2.linear6.corr_to_linear1', expect=RR,
          fit=(fitted('fig2.linear6'), fitted('fig2.relu6'), fitted('fig2.linear1'))),
    Claim('p1.fig2_deep_linear_constant', 1, 'Fig 2',
          quote='with a strong bias towards a constant function that maps every input to the single training image',
          statement='The 6-layer linear net predicts the training digit for the test inputs (corr to the constant map > 0.9)',
          metric='fig2.linear6.corr_constant', op='>', threshold=0.9, expect=QUICK_NR, fit=(fitted('fig2.linear6'),),
          why=("quick on MNIST: the 6-layer linear net fits the 28x28 digit (final MSE {fig2.linear6.loss_ratio:%} of the zero prediction's), but its predictions on the test inputs correlate {fig2.linear6.corr_constant:.2f} with the training digit, not > 0.9")),
    Claim('p1.deep_relu_fcn_constant', 1, 'Fig 2',
          quote='a 6-layer linear network behaves more like a 6-layer ReLU network than like the 1-layer convex case, '
                'with a strong bias towards a constant function',
          statement='The 6-layer ReLU net predicts the training digit for the test inputs (corr to the constant map > 0.9)',
          metric='fig2.relu6.corr_constant', op='>', threshold=0.9, expect=RR, fit=(fitted('fig2.relu6'),)),

    # ------------------------------------------------------------------ Fig 5-8, 31, 32: FCN seed bands
    Claim('p1.fig5_depth_beats_width', 1, 'Fig 5 / App. E.1',
          quote='The depth of the architecture has a stronger effect on the inductive bias than the width. ... '
                'But the latter behaves less like the convex case.',
          statement='A linear net with 3 narrow hidden layers (paper 784 units; quick 256) is closer to the constant map on '
                    'rho = 0 probes than one with 1 wide hidden layer (paper 2,048; quick 784), which has more parameters '
                    '(per seed)',
          metric='fig5.narrow.h3.rho0.corr_constant', op='>', threshold='fig5.wide.h1.rho0.corr_constant', expect=RR,
          fit=(fitted('fig5.narrow.h3'), fitted('fig5.wide.h1'))),
    Claim('p1.fig5_deeper_linear_constant', 1, 'Fig 5 / App. E.1',
          quote='The model with only one hidden layer resembles the convex case (see Figure 2), but as the depth '
                'increases, the model tends toward a constant function that maps every input to the single training image.',
          statement='Wide linear nets: 5 hidden layers correlate more with the digit on rho = 0 probes than 1 (per seed)',
          metric='fig5.wide.h5.rho0.corr_constant', op='>', threshold='fig5.wide.h1.rho0.corr_constant', expect=RR,
          fit=(fitted('fig5.wide.h5'), fitted('fig5.wide.h1'))),
    Claim('p1.fig6_both_layers_constant', 1, 'Fig 6 / App. E.2',
          quote='When only the first layer is trained, the tendency is toward speckled noise, but when both layers are '
                'trained, the tendency is toward a constant output (the image used for training).',
          statement='Two-layer ReLU nets without biases, as eq. 4 (the widest: 16,384 units, the paper\'s, at quick too): training both layers correlates more '
                    'with the digit on rho = 0 probes than training the bottom layer only (per seed; both must fit)',
          metric='fig6.both.widest.rho0.corr_constant', op='>', threshold='fig6.bottom.widest.rho0.corr_constant',
          expect=RR, fit=(fitted('fig6.both.widest'), fitted('fig6.bottom.widest')),
          why=("quick (300 steps, no biases as in eq. 4, the paper's widths): the bottom-only nets end at {fig6.bottom.widest.loss_ratio:%} of the zero prediction's loss at 16,384 units ({fig6.bottom.w2048.loss_ratio:%} at 2,048; the top layer stays at its random initialization), the both-layer nets at {fig6.both.widest.loss_ratio:%}; on rho = 0 probes their corr to the digit is {fig6.both.widest.rho0.corr_constant:.2f} (both) against {fig6.bottom.widest.rho0.corr_constant:.2f} (bottom only)")),
    Claim('p1.fig6_bottom_only_noise', 1, 'Fig 6 / App. E.2',
          quote='When only the first layer is trained, the tendency is toward speckled noise',
          statement='Training the bottom layer only (the widest net) does not give the constant map: corr to the digit on '
                    'rho = 0 probes < 0.5 (per seed; the net must fit)',
          metric='fig6.bottom.widest.rho0.corr_constant', op='<', threshold=0.5,
          expect=RR, fit=(fitted('fig6.bottom.widest'),),
          why=("quick (300 steps, no biases as in eq. 4): the bottom-only nets end at {fig6.bottom.widest.loss_ratio:%} of the zero prediction's loss at 16,384 units (the fit rule is 5 %); their corr to the digit on rho = 0 probes is {fig6.bottom.widest.rho0.corr_constant:.2f}")),
    Claim('p1.fig6_bottom_only_not_identity', 1, 'Fig 6 / App. E.2',
          quote='The prediction on any test example that is orthogonal to \\hat{x} will depend only on randomly '
                'initialized W^0 and upper layer weights.',
          statement='Bottom-only training (eq. 5: the first layer moves only along the digit) cannot copy an orthogonal '
                    'input: corr to the identity < 0.3 on rho = 0 probes. True at initialization too; not counted',
          metric='fig6.bottom.widest.rho0.corr_identity', op='<', threshold=0.3, expect=RR, about='sanity'),
    Claim('p1.fig7_deep_relu_constant', 1, 'Fig 7 / App. E.3',
          quote='The deepest network encodes the constant map with high confidence',
          statement='The ReLU FCN with 9 hidden layers predicts the digit on rho = 0 probes (corr to constant > 0.9, per seed)',
          metric='fig8.relu.h9.rho0.corr_constant', op='>', threshold=0.9, expect=RR, fit=(fitted('fig8.relu.h9'),)),
    Claim('p1.fig7_shallow_relu_like_linear', 1, 'Fig 7 / App. E.3',
          quote='the shallowest network shows behavior similar to that of a linear net',
          statement="The 1-hidden-layer ReLU FCN's corr to the digit on rho = 0 probes is closer to the 1-hidden-layer "
                    "linear FCN's than to the 9-hidden-layer ReLU FCN's (per seed)",
          metric='fig7.relu_h1.gap_to_linear_h1', op='<', threshold='fig7.relu_h1.gap_to_relu_deepest', expect=RR,
          fit=(fitted('fig7.h1_deepest'),)),
    Claim('p1.fig8_no_identity_orthogonal', 1, 'Fig 8',
          quote='The linear and ReLU FCNs behave similarly when measuring the correlation to the identity function: '
                'neither of them performs well for test images that are nearly orthogonal to \\hat{x} .',
          statement='No linear or ReLU FCN of any depth copies a rho = 0 probe: the largest corr to the identity over all '
                    'of them < 0.3 (per seed; every net must fit)',
          metric='fig8.max.rho0.corr_identity', op='<', threshold=0.3, expect=RR, fit=(fitted('fig8.all'),)),
    # issue 27 (coverage): "for shallow models, the networks learn neither the constant nor the identity function";
    # the identity half is p1.fig8_no_identity_orthogonal, the constant half one claim per activation
    Claim('p1.fig8_shallow_linear_not_constant', 1, 'Fig 8 / App. E.3',
          quote='for shallow models, the networks learn neither the constant nor the identity function, as the '
                'predictions on nearly orthogonal examples are random.',
          statement="The 1-hidden-layer linear FCN does not paint the digit on rho = 0 probes: corr to the constant map "
                    "< 0.3, the bar p1.fig8_no_identity_orthogonal reads as 'not the identity' (per seed)",
          metric='fig8.linear.h1.rho0.corr_constant', op='<', threshold=0.3, expect=RR, fit=(fitted('fig8.linear.h1'),)),
    Claim('p1.fig8_shallow_relu_not_constant', 1, 'Fig 8 / App. E.3',
          quote='for shallow models, the networks learn neither the constant nor the identity function, as the '
                'predictions on nearly orthogonal examples are random.',
          statement="The 1-hidden-layer ReLU FCN does not paint the digit on rho = 0 probes: corr to the constant map "
                    "< 0.3, the bar p1.fig8_no_identity_orthogonal reads as 'not the identity' (per seed)",
          metric='fig8.relu.h1.rho0.corr_constant', op='<', threshold=0.3, expect=QUICK_NR,
          fit=(fitted('fig8.relu.h1'),),
          why=("quick on MNIST (width 256, where App. B uses 2,048): the 1-hidden-layer ReLU FCN fits the "
               "digit ({fig8.relu.h1.loss_ratio:%} of the zero prediction's loss) and its rho = 0 predictions correlate "
               "{fig8.relu.h1.rho0.corr_constant:.2f} with the digit (the linear one: "
               "{fig8.linear.h1.rho0.corr_constant:.2f}): the ReLU already leans towards the constant map")),
    Claim('p1.fig8_relu_constant_sooner', 1, 'Fig 8',
          quote='For the correlation to the constant function, ReLU FCNs overfit sooner than linear FCNs when the depth '
                'increases.',
          statement='At 3 hidden layers the ReLU FCN correlates more with the digit on rho = 0 probes than the linear one '
                    '(per seed)',
          metric='fig8.relu.mid.rho0.corr_constant', op='>', threshold='fig8.linear.mid.rho0.corr_constant', expect=RR,
          fit=(fitted('fig8.relu.mid'), fitted('fig8.linear.mid'))),
    Claim('p1.fig31_linear_mse_constant', 1, 'Fig 31 / App. I',
          quote='Each corresponding pair of plots are overall consistent.',
          statement="In MSE too (Fig 31 vs Fig 8b), the deepest linear FCN's predictions on rho = 0 probes are closer to "
                    "the digit than to the input (per seed)",
          metric='fig8.linear.deepest.rho0.mse_constant', op='<', threshold='fig8.linear.deepest.rho0.mse_identity',
          expect=RR, fit=(fitted('fig8.linear.deepest'),)),
    Claim('p1.fig32_relu_mse_constant', 1, 'Fig 32 / App. I',
          quote='Each corresponding pair of plots are overall consistent.',
          statement="In MSE too (Fig 32 vs Fig 8a), the deepest ReLU FCN's predictions on rho = 0 probes are closer to the "
                    "digit than to the input (per seed)",
          metric='fig8.relu.deepest.rho0.mse_constant', op='<', threshold='fig8.relu.deepest.rho0.mse_identity',
          expect=RR, fit=(fitted('fig8.relu.deepest'),)),

    # ------------------------------------------------------------------ Fig 3a, 9, 33: ConvNets of increasing depth
    Claim('p1.shallow_convnet_identity', 1, 'Fig 3a',
          quote='The Figure shows that, except for some artifacts on the boundaries, ConvNets with a depth of up-to-5 '
                'hidden layers learn a good approximation to the identity function.',
          statement='Every ConvNet with up to 5 hidden layers (up to 6 conv layers; quick: 1, 2, 3, 5) approximates the '
                    'identity on the test inputs: the smallest corr to the identity over these depths > 0.8 (per seed)',
          metric='fig3a.shallow.test.corr_identity', op='>', threshold=0.8, expect=RR,
          fit=(fitted('fig3a.shallow'),)),
    Claim('p1.fig9_shallow_identity', 1, 'Fig 9',
          quote='shallow ConvNets are able to learn the identity function from only one training example',
          statement='On rho = 0 probes (orthogonal to the digit) every ConvNet with up to 6 layers copies the input: the '
                    'smallest corr to the identity over these depths > 0.8 (per seed)',
          metric='fig9.shallow.rho0.corr_identity', op='>', threshold=0.8, expect=QUICK_NR,
          fit=(fitted('fig3a.shallow'),), why=('quick (32 channels, the depth sweep\'s rule: Adam until a fifth of the fit gate or the step budget): on rho = 0 probes the shallow ConvNets copy the input only in part: corr to the identity {fig9.depth1.rho0.corr_identity:.2f} (1 layer), {fig9.depth2.rho0.corr_identity:.2f} (2), {fig9.depth3.rho0.corr_identity:.2f} (3) and {fig9.depth5.rho0.corr_identity:.2f} (5 layers), against 0.8')),
    Claim('p1.deep_convnet_constant', 1, 'Fig 3a / Fig 9',
          quote='very deep ConvNets bias towards the constant function',
          statement='The 20-layer ConvNet predicts the digit on rho = 0 probes (corr to the constant map > 0.8, per seed)',
          metric='fig9.deepest.rho0.corr_constant', op='>', threshold=0.8, expect=QUICK_NR,
          fit=(fitted('fig3a.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the depth sweep's rule (Adam, stopped at a fifth of the fit gate or at its step budget) (seed by seed; the fit gate is 5 %); measured, their corr to the digit on rho = 0 probes is {fig9.deepest.rho0.corr_constant:.2f}")),
    Claim('p1.fig9_intermediate_neither', 1, 'Fig 9',
          quote='the ConvNets with intermediate depth correlate well with neither the identity nor the constant function',
          statement='ConvNets of intermediate depth (7-14 layers; quick: 8, 11, 14) on rho = 0 probes: the larger of the '
                    'corr to the identity and to the constant map stays < 0.8 at every such depth (per seed)',
          metric='fig9.intermediate.rho0.best_corr', op='<', threshold=0.8, expect=RR,
          fit=(fitted('fig9.intermediate'),)),
    Claim('p1.depth_trend', 1, 'Fig 3a / Fig 9',
          quote='As the depth increases, the ConvNets bias towards the constant function.',
          statement='The 20-layer ConvNet correlates less with the identity than the 1-layer one (mean over all rho, per '
                    'seed)',
          metric='fig9.deepest.corr_identity', op='<', threshold='fig9.depth1.corr_identity', expect=RR,
          fit=(fitted('fig3a.depth1'), fitted('fig3a.depth20')), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the depth sweep's rule (Adam, stopped at a fifth of the fit gate or at its step budget) (seed by seed; the fit gate is 5 %); measured, measured anyway, the corr to the identity (mean over rho) is {fig9.depth1.corr_identity:.2f} at 1 layer and {fig9.deepest.corr_identity:.2f} at 20 layers")),
    Claim('p1.fig33_shallow_mse_identity', 1, 'Fig 33 / App. I',
          quote='Each corresponding pair of plots are overall consistent.',
          statement="In MSE too (Fig 33 vs Fig 9), the ConvNets with up to 6 layers are closer to the identity than to the "
                    "constant map on rho = 0 probes: the largest MSE-to-identity minus MSE-to-constant over these depths "
                    "< 0 (per seed)",
          metric='fig33.shallow.rho0.mse_identity_minus_constant', op='<', threshold=0.0, expect=RR,
          fit=(fitted('fig3a.shallow'),)),
    Claim('p1.fig33_deep_mse_constant', 1, 'Fig 33 / App. I',
          quote='Each corresponding pair of plots are overall consistent.',
          statement="In MSE too, the 20-layer ConvNet's predictions on rho = 0 probes are closer to the digit than to the "
                    "input: MSE-to-constant minus MSE-to-identity < 0 (per seed)",
          metric='fig33.deepest.rho0.mse_constant_minus_identity', op='<', threshold=0.0, expect=QUICK_NR,
          fit=(fitted('fig3a.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the depth sweep's rule (Adam, stopped at a fifth of the fit gate or at its step budget) (seed by seed; the fit gate is 5 %); measured, in MSE their outputs on rho = 0 probes are closer to the digit than to the input by {fig33.deepest.rho0.mse_constant_minus_identity:.2f}")),

    # ------------------------------------------------------------------ Fig 1, 34-36: several examples
    Claim('p1.fig34_deep_fcn_memorizes', 1, 'Fig 34 / App. J',
          quote='for networks that are known to overfit to the constant map when trained with one example (e.g. fully '
                'connected networks with 9 hidden layers, and 20-layer convolutional networks) demonstrate similar '
                'overfitting behavior ... always predicting a mixture of the training samples',
          statement='Trained on 2 examples (and fitting them), the 9-hidden-layer ReLU FCN maps non-digit inputs to the '
                    'training examples: corr to the nearest training example > corr to the input (per seed)',
          metric='fig34.H9.nondigit.corr_nearest_train', op='>', threshold='fig34.H9.nondigit.corr_identity',
          expect=RR, fit=(fitted('fig34.H9'),),
          why=("quick (Adam at the paper's Fig 30 rate, 1,500 steps): the 9-hidden-layer FCN ends at {fig34.H9.loss_ratio:%} of the zero prediction's loss on its 2 examples (the fit rule is 5 %); on non-digit inputs its outputs correlate {fig34.H9.nondigit.corr_nearest_train:.2f} with the nearest training example and {fig34.H9.nondigit.corr_identity:.2f} with the input")),
    Claim('p1.fig35_deep_fcn_memorizes', 1, 'Fig 35 / App. J',
          quote='Figure 35 shows the results with three examples, with similar observations.',
          statement='Trained on 3 examples (and fitting them), the 9-hidden-layer ReLU FCN maps non-digit inputs to the '
                    'training examples: corr to the nearest training example > corr to the input (per seed)',
          metric='fig35.H9.nondigit.corr_nearest_train', op='>', threshold='fig35.H9.nondigit.corr_identity',
          expect=RR, fit=(fitted('fig35.H9'),),
          why=("quick (Adam at the paper's Fig 30 rate, 1,500 steps): the 9-hidden-layer FCN ends at {fig35.H9.loss_ratio:%} of the zero prediction's loss on its 3 examples (the fit rule is 5 %); on non-digit inputs its outputs correlate {fig35.H9.nondigit.corr_nearest_train:.2f} with the nearest training example and {fig35.H9.nondigit.corr_identity:.2f} with the input")),
    *[Claim(f'p1.fig{fig}_deep_convnet_memorizes', 1, f'Fig {fig} / App. J',
            quote='for networks that are known to overfit to the constant map when trained with one example (e.g. fully '
                  'connected networks with 9 hidden layers, and 20-layer convolutional networks) demonstrate similar '
                  'overfitting behavior ... always predicting a mixture of the training samples',
            statement=f'Trained on {n} examples (and fitting them), the 20-layer ConvNet maps non-digit inputs to the '
                      'training examples: corr to the nearest training example > corr to the input (per seed)',
            metric=f'fig{fig}.C20.nondigit.corr_nearest_train', op='>', threshold=f'fig{fig}.C20.nondigit.corr_identity',
            expect=FULL_REPRODUCED_NOT_QUICK, fit=(fitted(f'fig{fig}.C20'),),
            basis={"quick": "not run: quick trains H1, H9 and C3 on 2 and 3 examples (notebook 01's MULTI_ARCHS); the "
                            "full and paper profiles train C20 too"})
      for fig, n in ((34, 2), (35, 3))],
    Claim('p1.fig36_fcn_digit_manifold', 1, 'Fig 1 / Fig 36',
          quote='Fully connected networks learn the identity function on the manifold of digit inputs',
          statement='Trained on many digits (paper: 60k MNIST; quick: the same digits, 4,000 minibatches of 32; the fit is the loss on all of them), the 1-hidden-layer '
                    'ReLU FCN copies unseen test digits (corr to identity > 0.8, per seed)',
          metric='fig36.H1.digits.corr_identity', op='>', threshold=0.8, expect=RR, fit=(fitted('fig36.H1'),),
          why=("quick (Adam, 4,000 minibatches of 32): the 1-hidden-layer FCN ends at {fig36.H1.loss_ratio:%} of the zero prediction's loss on all the training digits (the fit rule is 5 %); it copies unseen test digits with corr {fig36.H1.digits.corr_identity:.2f}")),
    Claim('p1.fig36_fcn_off_manifold', 1, 'Fig 1 / Fig 36',
          quote='but still cannot reconstruct meaningful results on other test patterns',
          statement='The same FCN does not copy the non-digit inputs (corr to identity < 0.8, per seed)',
          metric='fig36.H1.nondigit.corr_identity', op='<', threshold=0.8, expect=RR, fit=(fitted('fig36.H1'),),
          why=("quick: the same FCN ends at {fig36.H1.loss_ratio:%} of the zero prediction's loss on the training digits; non-digit inputs come back with corr {fig36.H1.nondigit.corr_identity:.2f} to themselves")),
    Claim('p1.fig36_convnets_identity', 1, 'Fig 36',
          quote='In this case, even the deepest convolutional networks we tried successfully learn the identity function.',
          statement='Trained on many digits, every ConvNet trained copies all test inputs, digits and others (smallest corr '
                    'to identity over the ConvNets > 0.8, per seed; quick trains only the 3-layer one)',
          metric='fig36.convnets.all.corr_identity', op='>', threshold=0.8, expect=RR,
          fit=(fitted('fig36.convnets'),)),
    Claim('p1.fig36_deep_convnet_identity', 1, 'Fig 1 / Fig 36',
          quote='outside of the manifold of hand-printed digits, only the ConvNet discovers a reasonably good '
                'approximation to the identity function',
          statement='Trained on 60k digits, the 20-layer ConvNet copies the non-digit inputs (corr > 0.8, per seed). Quick '
                    'trains no 20-layer ConvNet on many examples (minutes per seed on a CPU)',
          metric='fig36.C20.nondigit.corr_identity', op='>', threshold=0.8,
          expect=FULL_NOT_RUN, fit=(fitted('fig36.C20'),),
          basis={"quick": "not run: quick trains no 20-layer ConvNet on many digits (notebook 01's MANY_ARCHS at quick: "
                          "H1, C3: for cost on a 2-core CPU; the paper profile trains C20)",
                 "full": "not run: the full profile trains no 20-layer ConvNet on many digits (notebook 01's MANY_ARCHS "
                         "at full: H1, H9, LinH1, C3, C7; the paper profile trains C20)"}),
    Claim('p1.fig36_deep_fcn_off_manifold', 1, 'Fig 1 / Fig 36',
          quote='Figure 1 reflects architecture-specific inductive bias that persists even with 60k training examples.',
          statement='Trained on 60k digits, the 9-hidden-layer FCN copies the non-digit inputs less well than the 20-layer '
                    'ConvNet (per seed). Quick trains neither on many examples',
          metric='fig36.H9.nondigit.corr_identity', op='<', threshold='fig36.C20.nondigit.corr_identity',
          expect=FULL_NOT_RUN, fit=(fitted('fig36.H9'), fitted('fig36.C20')),
          basis={"quick": "not run: quick trains neither the 9-hidden-layer FCN nor the 20-layer ConvNet on many digits "
                          "(notebook 01's MANY_ARCHS at quick: H1, C3)",
                 "full": "not run: the full profile trains the 9-hidden-layer FCN on many digits but no 20-layer "
                         "ConvNet to compare it with (notebook 01's MANY_ARCHS at full: H1, H9, LinH1, C3, C7)"}),

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
          fit=(fitted('fig3b.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3b.depth20.loss_ratio:%} of the zero prediction's loss under the depth sweep's rule (Adam, stopped at a fifth of the fit gate or at its step budget) (seed by seed; the fit gate is 5 %); measured, on 24 px inputs the corr to the resized digit is {fig18.depth20.size24.corr_constant:.2f}")),
    Claim('p1.fig3b_constant_wide_range', 1, 'Fig 3b / App. H.1',
          quote='The learned constant map holds up for input dimensions slightly smaller ... than the trained image. ... '
                'It is interesting that the constant map also holds robustly across a wide range of input sizes.',
          statement="The 20-layer ConvNet's constant map holds from slightly smaller than the training size (24 px, as "
                    "p1.fig3b_constant_slightly_smaller; Sec. 3 says the map holds only down to 'slightly smaller') up to "
                    "twice it (56 px): the smallest corr to the resized digit over 24..56 px > 0.8 (per seed)",
          metric='fig3b.depth20.range24_56.corr_constant', op='>', threshold=0.8, expect=QUICK_NR,
          fit=(fitted('fig3b.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3b.depth20.loss_ratio:%} of the zero prediction's loss under the depth sweep's rule (Adam, stopped at a fifth of the fit gate or at its step budget) (seed by seed; the fit gate is 5 %); measured, over 24-56 px the smallest corr to the resized digit is {fig3b.depth20.range24_56.corr_constant:.2f} (at 28 px: {fig18.depth20.size28.corr_constant:.2f})")),
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
          fit=(fitted('fig3b.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3b.depth20.loss_ratio:%} of the zero prediction's loss under the depth sweep's rule (Adam, stopped at a fifth of the fit gate or at its step budget) (seed by seed; the fit gate is 5 %); measured, on 56 px inputs the centre's share of the structure goes from {fig19.trained.centre_share_start:.2f} (layer 15) to {fig19.trained.centre_share_output:.2f} (the output), a gain of {fig19.trained.centre_gain:.2f} against {fig19.untrained.centre_gain:.2f} for the same nets untrained")),

    # ------------------------------------------------------------------ Fig 4a: training image size
    Claim('p1.fig4a_more_constant_with_depth', 1, 'Fig 4a',
          quote='All three show more bias toward the constant function and less bias toward the identity function with '
                'increased network depth.',
          statement='Trained on 7x7, 14x14 and 28x28 images, the 20-layer ConvNet correlates more with its digit on rho = 0 '
                    'probes than the 1-layer one, at every size: the smallest gain over the sizes > 0 (per seed)',
          metric='fig4a.min_size.constant_gain', op='>', threshold=0.0, expect=RR,
          fit=(fitted('fig4a.all'),), why=("quick: by the depth sweep's rule (Adam until the loss is a fifth of the fit gate, or the step budget) the worst of the nets of every size and depth ends at {fig4a.all.loss_ratio:%} of the zero prediction's loss, seed by seed (the gate is 5 %); the smallest gain over the sizes is {fig4a.min_size.constant_gain:.2f}")),
    Claim('p1.fig4a_less_identity_with_depth', 1, 'Fig 4a',
          quote='All three show more bias toward the constant function and less bias toward the identity function with '
                'increased network depth.',
          statement='At every training size the 20-layer ConvNet correlates less with the identity on rho = 0 probes than '
                    'the 1-layer one: the smallest drop over the sizes > 0 (per seed)',
          metric='fig4a.min_size.identity_loss', op='>', threshold=0.0, expect=RR,
          fit=(fitted('fig4a.all'),), why=("quick: the worst of Fig 4a's nets ends at {fig4a.all.loss_ratio:%} of the zero prediction's loss, seed by seed (the gate is 5 %); the smallest drop of the corr to the identity over the sizes is {fig4a.min_size.identity_loss:.2f}")),
    Claim('p1.fig4a_small_images_accentuate', 1, 'Fig 4a',
          quote='However, smaller input grids accentuate the effect, likely because the training image has fewer pixels '
                'to constrain the mapping.',
          statement='Averaged over depths (1, 3, 5, 20 in quick), nets trained on 7x7 correlate more with their digit on '
                    'rho = 0 probes than nets trained on 28x28 (per seed)',
          metric='fig4a.size7.mean.corr_constant', op='>', threshold='fig4a.size28.mean.corr_constant', expect=RR,
          fit=(fitted('fig4a.all'),), why=("quick: the worst of Fig 4a's nets ends at {fig4a.all.loss_ratio:%} of the zero prediction's loss, seed by seed (the gate is 5 %); averaged over depths, 7x7 nets correlate {fig4a.size7.mean.corr_constant:.2f} with their digit against {fig4a.size28.mean.corr_constant:.2f} at 28x28")),

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
            expect=({"quick": NR, "paper": R} if scheme == 'paper_default' else RR), fit=(fitted(f'fig29.{scheme}'),),
            why=("quick: the paper's default N(0, 1/(fan_in fan_out)) starts so small that its nets end at "
                 "{fig29.paper_default.loss_ratio:%} of the zero prediction's loss after 500 steps (the fit rule is "
                 "5 %): did not fit" if scheme == 'paper_default' else ''))
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
          metric='fig29.kaiming_minus_fitted_others.test.mse_identity', op='>', threshold=0.0, expect=RR,
          fit=(fitted('fig29.kaiming'), 'fig29.fitted_others >= 2')),
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
          fit=(fitted('fig3a.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the depth sweep's rule (Adam, stopped at a fifth of the fit gate or at its step budget) (seed by seed; the fit gate is 5 %); measured, the output's error is {fig10.deepest.err_output:.2f} against the midpoint {fig10.midpoint:.2f}")),
    Claim('p1.fig10_deep_bottom_improves', 1, 'Fig 10',
          quote='for the case of 20 layers, the curve shows that the bottom few layers do get small improvements in error '
                'rate',
          statement="Training lowers the classifier's mean error over layers 1-6 of the 20-layer ConvNet below its own "
                    "initialization's (per seed)",
          metric='fig10.deepest.err_bottom6', op='<', threshold='fig10.untrained.err_bottom6', expect=QUICK_NR,
          fit=(fitted('fig3a.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the depth sweep's rule (Adam, stopped at a fifth of the fit gate or at its step budget) (seed by seed; the fit gate is 5 %); measured, the mean error over layers 1-6 is {fig10.deepest.err_bottom6:.2f}, at initialization {fig10.untrained.err_bottom6:.2f} (the first layer moved by {fig15.deepest.first_layer:.1e} relative to its initial weights)")),
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
          metric='fig3a.depth14.test.corr_identity', op='<', threshold=0.8, expect=RR, fit=(fitted('fig3a.depth14'),)),
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
          fit=(fitted('fig3a.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the depth sweep's rule (Adam, stopped at a fifth of the fit gate or at its step budget) (seed by seed; the fit gate is 5 %); measured, the output correlates {fig14.deepest.output_digit_corr:.2f} with the digit, {fig14.deepest.output_input_corr:.2f} with the input")),
    Claim('p1.fig14_layer8_clearer', 1, 'Fig 11 / Fig 14',
          quote='However, note that around layer-8, we see the activations depict slightly more clear structures than the '
                'randomly initialized network.',
          statement="Layer 8 of the trained 20-layer ConvNet correlates more with the input than layer 8 of the same net at "
                    "initialization (top-singular-vector maps, per seed)",
          metric='fig14.deepest.input_corr_layer8', op='>', threshold='fig11.untrained.input_corr_layer8',
          expect=RR, fit=(fitted('fig3a.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the depth sweep's rule (Adam, stopped at a fifth of the fit gate or at its step budget) (seed by seed; the fit gate is 5 %); measured, layer 8 correlates {fig14.deepest.input_corr_layer8:.2f} with the input, at initialization {fig11.untrained.input_corr_layer8:.2f}")),
    Claim('p1.fig15_lower_layers_change_less', 1, 'Fig 15',
          quote='As a general pattern, we do see that as the network architecture gets deeper, the distances at lower '
                'layers do become smaller.',
          statement="The 20-layer ConvNet's first layer moves less (relative l2 change) than the 3-layer ConvNet's (per seed)",
          metric='fig15.deepest.first_layer', op='<', threshold='fig15.shallow.first_layer', expect=RR,
          fit=(fitted('fig3a.depth3'), fitted('fig3a.depth20')), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the depth sweep's rule (Adam, stopped at a fifth of the fit gate or at its step budget) (seed by seed; the fit gate is 5 %); measured, its first layer moves by {fig15.deepest.first_layer:.1e} against {fig15.shallow.first_layer:.1e} for the 3-layer net")),
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
          fit=(fitted('fig3a.depth20'),), why=("quick: the 20-layer ConvNets end at {fig3a.depth20.loss_ratio:%} of the zero prediction's loss under the depth sweep's rule (Adam, stopped at a fifth of the fit gate or at its step budget) (seed by seed; the fit gate is 5 %); measured, the upper half's output correlates {fig22.upper_half.corr_constant:.2f} with the digit, {fig22.upper_half.corr_identity:.2f} with the input")),
]
