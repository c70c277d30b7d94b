"""Paper 2 — Radhakrishnan et al. 2019, the convolutional autoencoders: the single-filter nets (Fig 9, 10), the linear
conv autoencoders of Tables 1-2, initialization (Fig 12), the downsampling nets D1 / D2 (Fig 5-8), and Fig 11's
large fully connected autoencoder, in the paper's order. Fit gates and the untrained baseline are `paper2`'s;
`memlib.claims` lists these after `paper2.CLAIMS`.
"""
from dataclasses import replace

from .core import NOT_REPRODUCED as NR, NOT_RUN, REPRODUCED as R, Claim, fitted, with_control  # noqa: F401

# Tables 1-2 and Fig 9/10 train until the loss is below 1e-6 (App. F; `until_loss`) at a constant rate, with the same
# images, initialization, optimizer and learning rate at every profile but smoke: quick's nets reach that loss before
# quick's step cap, so full and paper, whose caps are only larger, train the same nets, and quick's outcome is theirs.
SAME_NETS = ("full and paper train the same nets as quick (notebook 02: the same images, seed, initialization, "
             "optimizer and learning rate; training stops at a fixed loss, App. F's 1e-6 or for the tables a tenth of "
             "it, which quick's nets reach before quick's step cap; only the cap is larger, and the device's arithmetic)")



CLAIMS: list[Claim] = [
    # ---- Fig 9 / 10: nonlinear single-filter conv nets ----
    Claim('p2.fig9_single_filter_4x4', 2, 'Fig 9',
          quote='also the corresponding nonlinear network with 29 layers can memorize',
          statement='The 29-layer single-filter leaky-ReLU net trained on a 4x4 white-square image maps N(0,1) inputs '
                    'to multiples of it: per seed the share of its inputs whose output "is" the square (|corr| >= 0.8, '
                    'the row `is`; until session 25 > 0.9; the net evaluated in float64: `dynamics.best_abs_corr`) is '
                    'at least 90 % (the `every` row) and 0.05 above the same net untrained; every seed of the band (5 '
                    'at quick) with the 2-SE margin (the constant init trains the same net for every seed: the seeds '
                    'vary the inputs)',
          metric='fig9.fraction_memorized', op='>=', threshold='fig9.fraction_memorized.bar',
          fit=(fitted('fig9'),), rule='every',
          expect={"quick": R, "paper": R},
          basis={"quick": "measured: the committed quick baseline (base, seeds 0-2) logged this fraction before the fix "
                          "(an underflowed output counted as not memorized, as float64 confirms: "
                          "benchmarks/probes/paper2_fig9_underflow.py, which also measured every input of probe seeds "
                          "100-102 memorized)",
                 "paper": f"predicted: {SAME_NETS}, scored on 100 N(0,1) inputs instead of 20; quick's band memorized "
                          "all but one of its inputs"}),
    Claim('p2.fig10_single_filter_2x2', 2, 'Fig 10',
          quote='outputs individual training examples instead of combinations of training examples',
          statement='The 5-layer single-filter net on two orthogonal 2x2 images maps N(0,1) inputs to (a multiple of) '
                    'one of them: |corr| >= 0.8 (the row `is`; until session 25 > 0.9) with one of them for > 90 % of '
                    'the inputs, and a fraction 0.05 above the same net untrained; every seed of the band (5 at quick: '
                    'init and inputs) with the 2-SE margin',
          metric='fig10.fraction_memorized', op='>', threshold='fig10.fraction_memorized.bar',
          fit=(fitted('fig10'),),
          expect={"quick": NR, "paper": NR},
          basis={"paper": f"expected not reproduced: {SAME_NETS}; quick's net maps a large share of the noise inputs "
                          "to mixtures of both images (the why), and paper only scores it on 100 inputs instead of 20"},
          why='quick: {fig10.fraction_memorized:%} of the noise inputs (one value per seed) come out as one of the two images (untrained '
              '{fig10.fraction_memorized.untrained:%}), the rest as mixtures of both; in probes outside the notebook '
              'other seeds, learning rates, GD or Adam and two readings of the skip connections did not change that; '
              'the paper gives no training settings for Fig 10'),
    # ---- Table 1 ----
    Claim('p2.table1_no_memorization', 2, 'Table 1',
          quote='Memorization does not occur in any of the examples (memorization would be indicated by the spectrum '
                'containing two eigenvalues that are',
          statement='No net of Table 1 (3x3 images, 2 examples, 2/5/8 layers x 1/16/128 filters) memorizes: the third '
                    '|eigenvalue| of every operator stays above 1e-2 (Table 2\'s memorization bound); every seed of 3 (images and '
                    'init: seed + 1 .. seed + 3) with the 2-SE margin, on the log scale (an eigenvalue against a bound)',
          # issue 42, session 27: judged on the log scale (docs/CLAIM_RULES.md, step 3: a ratio of positive
          # quantities, here the smallest third eigenvalue over the bound), where it was on the linear scale: the
          # eigenvalues spread over an order of magnitude across seeds, so the linear band's standard error was set by
          # its largest seed. A test change: its outcome stays the envelope's (unstable) until notebook 02's part is
          # rebuilt on seeds no earlier run used
          metric='table1.min_eig3', op='>', threshold=0.01, scale='log',
          fit=('table1.max_final_loss < 1e-6',),
          expect={"quick": R, "paper": R},
          basis={"paper": f"predicted: {SAME_NETS}; quick measured it reproduced"}),
    Claim('p2.table1_depth', 2, 'Table 1',
          quote='The first ... rows of Table 1 show that the lower bound from Theorem 4 is not sufficient for '
                'memorization ... In fact, the remaining rows of Table 1 show that even',
          statement='The third eigenvalue falls with depth (the table: .98-.99, .7-.78, .08-.14): Spearman\'s rank '
                    'correlation of the third eigenvalue with the depth (2, 5, 8 layers) is negative, eigenvalues within '
                    '1e-3 (relative) of each other counted as ties (the `order` row, with the `exact` row\'s float32 '
                    'tolerance: `linalg.order_with`), for every filter count (fraction of filter counts > 0.99), every '
                    'seed of 3 with the 2-SE margin',
          metric='table1.depth_order_fraction', op='>', threshold=0.99,
          fit=('table1.max_final_loss < 1e-6',), rule='order',
          expect={"quick": R, "paper": R},
          basis={"quick": "measured: the third eigenvalues the committed quick baseline logged (base, seeds 1-3) under "
                          "this statistic: the one pair that failed the strict comparison, 1 filter at 2 and 5 layers "
                          "of seed 3, is a tie within 1e-3; the envelope's other variations are judged when it is rebuilt",
                 "paper": f"predicted: {SAME_NETS}; quick's eigenvalues fall with depth for every filter count and seed"}),
    Claim('p2.table1_filters', 2, 'Table 1',
          quote='Increasing the number of filters per layer has minimal effect on the spectrum',
          statement='At each depth the third eigenvalue changes by less than 0.1 across 1, 16 and 128 filters (the '
                    'table\'s own spread is at most 0.08: .78 / .72 / .7); our threshold, fixed before measuring; every '
                    'seed of 3 with the 2-SE margin',
          metric='table1.max_filter_spread', op='<', threshold=0.1,
          fit=('table1.max_final_loss < 1e-6',),
          expect={"quick": NR, "paper": NR},
          basis={"paper": f"expected not reproduced: {SAME_NETS}; quick measured the 1-filter net's third eigenvalue "
                          "far from the 16- and 128-filter nets' at 2 layers (the why)"},
          why="quick (one value per seed throughout): the largest spread of the third eigenvalue over the filter "
              "counts at one depth is {table1.max_filter_spread:.2f}; with 8 layers it reads {table1.L8.f1.eig3:.2f} "
              "for 1 filter, {table1.L8.f16.eig3:.2f} for 16 and {table1.L8.f128.eig3:.2f} for 128. The filter count "
              "is not without effect here"),
    # ---- Table 2: whole rows ----
    *[Claim(f'p2.table2_{tag}', 2, 'Table 2',
            quote=quote,
            statement=f'Table 2 row {row}: trained until the loss is below 1e-7 (the gate: 1e-6), {n} |eigenvalue(s)| of the '
                      f'operator are 1 (the images\': within 0.05, the paper lists {top}) and every other |eigenvalue| is '
                      f'below {bound:g}; every seed of 3 (image and init) with the 2-SE margin',
            metric=f'table2.{key}.rest_max', op='<', threshold=bound,
            fit=(f'table2.{key}.final_loss < 1e-6', f'table2.{key}.top_error < 0.05'),
            expect={"quick": q, "paper": q if q == NR else R}, why=why,
            basis={"paper": f"expected not reproduced: {SAME_NETS}; quick measured its rest above the bound (the why)"}
            if q == NR else {"quick": f"not run: quick's Table 2 rows stop at 3x3; this row trains a {row.split(', ')[-1].replace(' layers', '-layer')} "
                                      "net (the full and paper profiles run it)"} if q == NOT_RUN else {})
      for tag, row, key, n, top, bound, q, quote, why in (
          ('2x2', '2x2, 1 example, 3 layers', 's2.n1', 1, '1', 1e-2, NR,
           'all networks satisfying our heuristic lower bound have memorized a single training example since the '
           'spectrum consists of a single eigenvalue that is ... and remaining eigenvalues with magnitude less than',
           'quick: the largest |eigenvalue| besides the image\'s is {table2.s2.n1.rest_max:.3f}; in probes outside the notebook (other init '
           'stds, a 4x larger learning rate, a loss of 1e-12, constant inits, Adam; see the notebook) it fell below '
           '1e-2 only for some images at the largest constant init'),
          ('3x3', '3x3, 1 example, 9 layers', 's3.n1', 1, '1', 1e-2, NR,
           'all networks satisfying our heuristic lower bound have memorized a single training example since the '
           'spectrum consists of a single eigenvalue that is ... and remaining eigenvalues with magnitude less than',
           'quick: the largest |eigenvalue| besides the image\'s is {table2.s3.n1.rest_max:.2f} for a standard-normal image: '
           'the 9-layer net keeps another direction at or above 1; other init stds, constant inits and Adam did not '
           'bring it below 1e-2 in probes outside the notebook (see the notebook)'),
          ('4x4', '4x4, 1 example, 29 layers', 's4.n1', 1, '1', 1e-3, NOT_RUN,
           'all networks satisfying our heuristic lower bound have memorized a single training example since the '
           'spectrum consists of a single eigenvalue that is ... and remaining eigenvalues with magnitude less than', ''),
          ('5x5', '5x5, 1 example, 70 layers', 's5.n1', 1, '1', 1e-5, NOT_RUN,
           'all networks satisfying our heuristic lower bound have memorized a single training example since the '
           'spectrum consists of a single eigenvalue that is ... and remaining eigenvalues with magnitude less than', ''),
          ('3x3_three', '3x3, 3 examples, 10 layers', 's3.n3', 3, '1, .98, .98', 1e-2, NR,
           'the spectra in the last 3 rows indicate that networks satisfying our heuristic lower bound also memorize '
           'multiple training examples',
           'quick: the rest is {table2.s3.n3.rest_max:.2f}, above 1e-2'),
      )],
    Claim('p2.table2_one_eigenvalue', 2, 'Table 2',
          quote='the spectrum consists of a single eigenvalue that is',
          statement='Sanity: a linear net that fits its one image x has A x = x, so one of its eigenvalues is 1 (within '
                    '0.01: the eigenvalue nearest 1, largest error over the one-example rows); gated on those rows fitting '
                    '(the paper\'s loss 1e-6): a net stopped by the step cap is no test of the formula',
          metric='table2.max_top_error', op='<', threshold=0.01, about='sanity',
          fit=('table2.s2.n1.final_loss < 1e-6', 'table2.s3.n1.final_loss < 1e-6'),
          expect={"quick": R, "paper": R}),
    # ---- Fig 12 ----
    Claim('p2.fig12_kaiming_larger_norm', 2, 'Fig 12 / App. I.2',
          quote='Kaiming uniform/normal initialization leads to an output with a larger',
          statement='Sanity (follows from the per-layer variances 2/fan_in vs 2/(fan_in+fan_out)): before training, '
                    'Kaiming uniform/normal give a larger output norm than Xavier uniform/normal on paper 2\'s nonlinear '
                    'D1 (LeakyReLU after every layer, as Fig 5 / 6; the paper\'s Fig 12 net is a figure not in the text) '
                    '(median over seeds: smallest Kaiming > largest Xavier); paper 3\'s D_{a,b} is measured beside it',
          metric='fig12.kaiming.min_median_norm', op='>', threshold='fig12.xavier.max_median_norm', about='sanity',
          expect={"quick": R, "paper": R}),
    # ---- Fig 7: D1 ----
    Claim('p2.fig7_d1_two_eigenvalues_one', 2, 'Fig 7 / App. G',
          quote='the rank of the learned solution is exactly',
          statement='Sanity: a linear net that fits its two images has A X = X, so two eigenvalues are 1 (within 0.01)',
          metric='fig7.top_error', op='<', threshold=0.01, about='sanity',
          expect={"quick": R, "paper": R}),
    Claim('p2.fig7_d1_rest_small', 2, 'Fig 7 / App. G',
          quote='the model outputs a linear combination of training images since the corresponding solution has spectrum',
          statement='D1 (linear, down to 1x1, default init) trained on two photos: every |eigenvalue| of its operator '
                    'but the photos\' two (those nearest 1) is below 2e-2 (spectrum 1, 1, [<2e-2]), every seed of the band (5 at quick: init) with the 2-SE margin',
          metric='fig7.rest_max', op='<', threshold=0.02,
          fit=(fitted('fig7'),),
          expect={"quick": R, "paper": R}),
    Claim('p2.fig7_d1_noise_in_span', 2, 'Fig 7 / App. G',
          quote='When fed standard Gaussian data the model outputs a linear combination of training images',
          statement='D1 maps N(0,1) inputs to linear combinations of its two training photos (median relative '
                    'distance to their span < 0.1, and 0.05 below the same net untrained), every seed of the band (5 '
                    'at quick: init and inputs) with the 2-SE margin',
          metric='fig7.noise.median_span_residual', op='<', threshold='fig7.noise.median_span_residual.bar',
          fit=(fitted('fig7'),),
          expect={"quick": R, "paper": R}),
    # ---- Fig 8: D2 ----
    *[Claim(cid, 2, 'Fig 8 / App. G', quote=quote, statement=statement, metric=metric, op='<', threshold=thr,
            fit=(fitted('fig8'),), about=about, expect={"quick": R, "paper": R},
            basis={"paper": "predicted: paper trains the same D2 as quick (the 1 % jitter on App. G's constant "
                            "init, the paper's 10,000 steps with x0.2 stages) and reads it on 100 N(0, 1) inputs "
                            "instead of 16, and quick measured it reproduced"})
      for cid, about, quote, statement, metric, thr in (
          ('p2.fig8_d2_top_eigenvalue_one', 'sanity', 'indicates that this network indeed memorized the image by '
           'producing a solution of rank',
           'Sanity: a linear net that fits its image has eigenvalue 1 (within 0.01)', 'fig8.top_error', 0.01),
          # issue 42, session 29: a sanity check. Its control, the same net at its initial weights (App. G's nearly
          # constant init, nearly rank one), passed on every run since session 18 (the rest relative to the top
          # eigenvalue at initialization, fig8.rest_max.untrained): the spectrum comes with the init, not from
          # training on the photo. What training adds, the photo as the top eigenvector and noise mapped to its
          # multiples, is p2.fig8_d2_noise_multiple
          ('p2.fig8_d2_rest_small', 'sanity',
           'When fed standard Gaussian data the model outputs a multiple of the training image since the '
           'corresponding solution has spectrum',
           'Sanity: D2 (32x32 -> 4x4 in layer 1, 29 layers, every parameter 1.8e-3 times 1 + 0.01 N(0, 1)) trained '
           'on one photo: every |eigenvalue| but the photo\'s is below 7e-6 (spectrum 1, [<7e-6]), every seed of the '
           'band (5 at quick: init) with the 2-SE margin. The same net untrained has it too (fig8.rest_max.untrained)',
           'fig8.rest_max', 7e-6),
          ('p2.fig8_d2_noise_multiple', 'trained',
           'When fed standard Gaussian data the model outputs a multiple of the training image',
           'D2 maps N(0,1) inputs to multiples of its training photo (median relative distance to its span < 0.1, '
           'and 0.05 below the same net untrained), every seed of the band (5 at quick: init and inputs) with the '
           '2-SE margin',
           'fig8.noise.median_span_residual', 'fig8.noise.median_span_residual.bar'),
      )],
    # ---- Fig 5a / 5b: nonlinear D1 on colour images ----
    Claim('p2.fig5a_test_trajectories', 2, 'Fig 5a / Sec. 4',
          quote='iterating the map yields individual training examples',
          statement='Iterating the nonlinear D1 trained on many colour images (paper: 100 CIFAR10; quick: 63 photos) '
                    'sends test images (other photographs) to individual training images (median corr of the last '
                    'iterate with its nearest training image >= 0.8, the row `is`, and 0.05 above the same net '
                    'untrained), every seed of the band (5 at quick: init) with the 2-SE margin',
          metric='fig5a.iterated.median_corr', op='>', threshold='fig5a.iterated.median_corr.bar',
          fit=(fitted('fig5a'),),
          expect={"quick": NR, "paper": R},
          why='quick: the nets fit the 63 photos through the 64-unit 1x1 bottleneck ({fig5a.loss_ratio:%} of the zero '
              'prediction\'s loss, one value per seed), but the iterated test photos end at a median corr of '
              '{fig5a.iterated.median_corr:.2f} with the nearest training photo (untrained '
              '{fig5a.iterated.median_corr.untrained:.2f}) against the bar {fig5a.iterated.median_corr.bar}'),
    Claim('p2.fig5b_arbitrary_to_train', 2, 'Fig 5b',
          quote='learn maps which are contractive to training examples',
          statement='The nonlinear D1 trained on one image per class, iterated 10 times from squares, noise and new '
                    'photos, ends on training images (median corr with the nearest training image >= 0.8, the row '
                    '`is`, and 0.05 above the same net untrained), every seed of the band (5 at quick: init) with the '
                    '2-SE margin',
          metric='fig5b.iterated.median_corr', op='>', threshold='fig5b.iterated.median_corr.bar',
          fit=(fitted('fig5b'),),
          expect={"quick": NR, "paper": R},
          why='quick: the nets fit their 9 photos (loss {fig5b.loss_ratio:%} of the zero prediction\'s), but after the '
              'iterations the median corr with the nearest training photo is {fig5b.iterated.median_corr:.2f} (one value '
              'per seed; untrained {fig5b.iterated.median_corr.untrained:.2f}): not every net of the band clears the bar, and '
              'a net\'s score moves with the draw of squares and noise it is iterated from (the base seed\'s)'),
    Claim('p2.fig5b_superattractors', 2, 'Fig 5b / Sec. 4',
          quote='after just 1 iteration, individual training examples are output',
          statement='The nonlinear D1 on one image per class outputs training examples after one application: median '
                    'corr of f(x) with its nearest training image >= 0.8 (the row `is`) and 0.05 above the same net '
                    'untrained, every seed of the band (5 at quick: init) with the 2-SE margin',
          metric='fig5b.one_step.median_corr', op='>', threshold='fig5b.one_step.median_corr.bar',
          fit=(fitted('fig5b'),),
          expect={"quick": NR, "paper": NR},
          basis={"paper": "expected not reproduced: on seeds 100-102, which no claim uses, one application's median "
                          "corr fell with training on every seed, from quick's 1,000 steps to the paper profile's "
                          "10,000, while the iterated one stayed high (benchmarks/probes/paper2_steps.py, "
                          "measured/paper2_steps_fig5b.json)"},
          why='quick: one application gives blurred mixtures for the photo inputs (median corr '
              '{fig5b.one_step.median_corr:.2f}; untrained {fig5b.one_step.median_corr.untrained:.2f}); 10 iterations '
              'reach {fig5b.iterated.median_corr:.2f} (p2.fig5b_arbitrary_to_train)'),
    # ---- Fig 6: memorization during training ----
    Claim('p2.fig6_superattractors_late', 2, 'Fig 6b',
          quote='memorizes learned representations of training data as superattractors throughout the training process',
          statement='After 1000 epochs (passes over the photos in mini-batches of recipes.paper2.F6_BATCH) the '
                    'nonlinear D1 on 3 photos maps arbitrary inputs (squares, noise, '
                    'new photos) to a training image in one application: median corr to the nearest training image '
                    '>= 0.8 (the row `is`) and 0.05 above the same nets untrained, every seed of 3 with margin',
          metric='fig6.epochs1000.one_step.median_corr', op='>', threshold='fig6.epochs1000.one_step.median_corr.bar',
          fit=(fitted('fig6.epochs1000'),),
          expect={"quick": R, "paper": R},
          basis={"quick": "measured: notebook 02's envelope on the fresh bands 30-32, 40-42 (session 25) and 50-52 "
                          "(session 26), under the row `is` (0.8; the 0.9 before was stricter than the words): one "
                          "application gives 0.81-0.91 on every seed, the lowest 0.809: a thin margin"},
          why='quick: one application gives median corr {fig6.epochs1000.one_step.median_corr:.3f}, one value per seed '
              '(untrained {fig6.epochs1000.one_step.median_corr.untrained:.2f}), near the bar, where rounding '
              'or the choice of probe photos moves a seed across it; 10 iterations give '
              '{fig6.epochs1000.iterated.median_corr:.3f}. An epoch read as one full-batch step (a departure measured '
              'beside): {fig6.full_batch.epochs1000.one_step.median_corr:.3f}'),
    Claim('p2.fig6_superattractors_early', 2, 'Fig 6a',
          quote='memorization occurs throughout the training process and is present even with early stopping',
          statement='Already after 100 epochs (early stopping) the nonlinear D1 maps arbitrary inputs to a training '
                    'image in one application (median corr >= 0.8, the row `is`, and 0.05 above the same nets '
                    'untrained). Gate: early '
                    'stopping by design, so not the 5 % rule but "has learnt": loss below half of the zero prediction\'s',
          metric='fig6.epochs100.one_step.median_corr', op='>', threshold='fig6.epochs100.one_step.median_corr.bar',
          fit=('fig6.epochs100.loss_ratio < 0.5',),
          expect={"quick": NR, "paper": NR},
          basis={"paper": "expected not reproduced: full and paper train the same D1 (64 channels, Adam 1e-4, 100 "
                          "full-batch steps: one per epoch) on 10 images instead of quick's 3; quick's nets and, in "
                          "probes outside the notebook, 9 photos, lr 1e-3 and 32 channels all gave blurred mixtures "
                          "after 100 steps (the why): one full-batch step per epoch is our reading, the paper's epoch "
                          "probably covers many mini-batch steps"},
          why='quick: after 100 epochs in mini-batches of one photo (loss ratio {fig6.epochs100.loss_ratio:.2f}) the '
              'median corr with the nearest training photo is {fig6.epochs100.one_step.median_corr:.2f} (untrained '
              '{fig6.epochs100.one_step.median_corr.untrained:.2f}); read as 100 full-batch steps (a departure '
              'measured beside, our earlier reading) {fig6.full_batch.epochs100.one_step.median_corr:.2f} '
              '(loss ratio {fig6.full_batch.epochs100.loss_ratio:.2f})'),
    # ---- Fig 11 ----
    Claim('p2.fig11_near_zero_test_error', 2, 'Fig 11 / App. I.1',
          quote='achieves near-zero reconstruction error on the test set',
          statement="The 7 x 512 fully connected autoencoder on many digits reaches the paper's test MSE (<= 0.00159), "
                    "every seed of 3 (init and minibatch order) with the 2-SE margin",
          metric='fig11.test_mse', op='<=', threshold=0.00159,
          fit=(fitted('fig11'),),
          expect={"quick": NR, "paper": R},
          why='quick (MNIST): 1,500 digits, 6,000 mini-batch steps: train / test MSE {fig11.train_mse:.1e} / '
              '{fig11.test_mse:.1e} (one value per seed; the loss on the training digits is {fig11.loss_ratio:%} of the '
              'zero prediction\'s, the fit rule 5 %); the paper trains on 50,000 digits'),
    Claim('p2.fig11_test_trajectories_reach_train', 2, 'Fig 11 / App. I.1',
          quote='Reconstructions of test images whose trajectories converge to training examples',
          statement='Its test trajectories still converge to training digits: > 10 % within EPS after the last '
                    'iteration and 0.05 more than for the same net untrained (the 10 % is ours; the paper shows examples), '
                    'every seed of 3 with the 2-SE margin',
          metric='fig11.converged_fraction', op='>', threshold='fig11.converged_fraction.bar',
          fit=(fitted('fig11'),),
          expect={"quick": NR, "paper": R},
          why='quick: {fig11.converged_fraction:%} of the test trajectories end within EPS of a training digit '
              '(untrained {fig11.converged_fraction.untrained:%})'),
]


# The row of the rule from the papers' words to tests each claim applies (claims/rules.py; see paper2.RULES_OF).
RULES_OF = {
    "p2.fig9_single_filter_4x4": "every",
    "p2.fig10_single_filter_2x2": "every",    # "outputs individual training examples instead of combinations"
    "p2.table1_no_memorization": "every",     # "does not occur in any of the examples": all 9 nets (90 % of 9 is 9)
    "p2.table1_depth": "order",
    "p2.table1_filters": "near",              # "minimal effect on the spectrum": the spread of the third eigenvalue
    **{f"p2.table2_{t}": "exact" for t in ("2x2", "3x3", "4x4", "5x5", "3x3_three")},   # the paper's spectra
    "p2.table2_one_eigenvalue": "exact",
    "p2.fig12_kaiming_larger_norm": "more",   # "leads to an output with a larger l2 norm"
    "p2.fig7_d1_two_eigenvalues_one": "exact",
    "p2.fig7_d1_rest_small": "exact",         # the paper's spectrum 1, 1, [<2e-2]
    "p2.fig7_d1_noise_in_span": "exact",      # "outputs a linear combination of training images": in the span
    "p2.fig8_d2_top_eigenvalue_one": "exact",
    "p2.fig8_d2_rest_small": "exact",         # the paper's spectrum 1, [<7e-6]
    "p2.fig8_d2_noise_multiple": "exact",     # "outputs a multiple of the training image"
    "p2.fig5a_test_trajectories": "is",       # "iterating the map yields individual training examples"
    "p2.fig5b_arbitrary_to_train": "is",
    "p2.fig5b_superattractors": "is",         # "individual training examples are output"
    "p2.fig6_superattractors_late": "is",
    "p2.fig6_superattractors_early": "is",
    "p2.fig11_near_zero_test_error": "fit",   # the paper's test MSE 0.00159
    "p2.fig11_test_trajectories_reach_train": "some",   # "test images whose trajectories converge to training examples"
}


# Each claim's control (issue 42, item 2), as `paper2.CONTROLS`; the claims whose threshold is `<metric>.bar` take the
# untrained twin there (`core.with_control`). A linear net's memorization spectrum (1, ..., 1, [small]) is read on
# an untrained net against its own top n |eigenvalues| (`dynamics.relative_rest`): the absolute rest of a net started
# "as close to zero as possible" is small before any training, and would pass a test that looks at the rest alone.
SPECTRUM_UNTRAINED = ("the same net at its initial weights, its |eigenvalues| beyond the top n read against the n-th "
                      "(dynamics.relative_rest; a fitted net's top n are its images' 1): a spectrum already shaped 1, "
                      "[small] before training")
CONTROLS = {
    "p2.table1_no_memorization": dict(
        control="table2.s3.n3.rest_max",
        control_is="the other arm: Table 2's 3x3 net with three examples and 10 layers, past the paper's depth bound, "
                   "which the paper says memorizes (its largest |eigenvalue| beyond its images')"),
    "p2.table1_depth": dict(
        control="table1.depth_order_fraction.untrained",
        control_is="the same nine nets at their initial weights, each third |eigenvalue| read against its second "
                   "(dynamics.relative_rest; a fitted net's top two are 1): does it fall with depth before training?"),
    "p2.table1_filters": dict(
        control="table1.max_depth_spread",
        control_is="the other arm of the table: the spread of the third eigenvalue across the depths at one filter "
                   "count, which the paper's rows show large (.98 to .08)"),
    **{c.id: dict(control=f"{c.metric}.untrained", control_is=SPECTRUM_UNTRAINED) for c in CLAIMS
       if c.metric.endswith(".rest_max") and c.about != "sanity"},   # Table 2's rows, Fig 7's D1 and Fig 8's D2
    "p2.fig11_near_zero_test_error": dict(
        control="fig11.test_mse.untrained", control_is="the same 7 x 512 nets at their initial weights"),
}
# Claims without a control, and why (tests/test_controls_paper23.py keeps every other claim with one).
NO_CONTROL: dict = {}
# The ledger where a control, measured at quick (session 18, seeds 0-2, 2026-11-27), passed its claim's test.
CONTROL_PASSED = {
    "p2.table1_no_memorization": dict(
        expect={"quick": NR, "paper": R},
        why="quick: every Table 1 net keeps its third |eigenvalue| above 1e-2 ({table1.min_eig3}, per seed), but so "
            "does the control, Table 2's 3x3 net with three examples and 10 layers, which the paper says memorizes "
            "({table2.s3.n3.rest_max}, per seed; p2.table2_3x3_three is not reproduced at quick either): at quick's "
            "training neither arm memorizes, so the test cannot tell them apart",
        basis={"quick": "measured: session 18's quick run of notebook 02 (seeds 0-2, 2026-11-27): the control passes",
               "paper": "predicted: at the paper's training Table 2's memorizing arm memorizes (its rows), and the "
                        "control then fails"}),
}
CLAIMS = [with_control(replace(c, rule=c.rule or RULES_OF[c.id], **CONTROL_PASSED.get(c.id, {})), CONTROLS)
          for c in CLAIMS]
