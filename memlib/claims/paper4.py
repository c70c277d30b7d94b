"""Paper 4 — Poggio & Liao 2021, rho dynamics under the square loss.

Fit gates: the paper's own criterion for its classifiers is *separability* ("correct classification for
all training data", Sec 1.1; the terminal phase of training, Sec 2.1) of a solution with "near-zero
square loss" (Lemma 1). A run is fitted when no training sample is misclassified at the end
(`<tag>.train_errors_end < 0.5`, a count) and its final MSE is below 5 % of that of predicting zero (`fitted(tag)`;
labels +-1, so the MSE itself). "At the end" is the last 10 % of recorded epochs (the misclassified count's median,
the loss's mean: `rho.end_metrics`), as for every other end quantity here: at a constant learning rate one epoch's
loss is a draw from a noisy series (docs/CLAIM_RULES.md, the `fit` row, amended 2026-11-28 before any run read it).
Figure groups log the worst run of the group; seed bands ("band.*", and "init.*": each seed's runs from every
initial norm) log one value per seed.

Readings fixed before looking at the numbers: "the same" / "ends at" is within 10 %; "strongly depend on
initial conditions" is a factor 2 between the smallest and the largest initialization; "grows
monotonically" under SGD (not gradient flow) is never more than 5 % below its running maximum.
Margin = 1/rho at interpolation, so a margin ratio and a rho ratio of the same runs are one measurement
(one claim).

Issue 41 / 42 (session 16): each claim names its row of the rule from words to tests (`rule=`, claims/rules.py), ratios
are judged on the log scale, and each counted claim has a control (CONTROLS, as Claim.control: a run the statement must
fail, measured by the same notebook); a claim whose control passed too is a sanity check. Observation 1 reads the rise until rho reaches
rho_eq (`rho_summary.drop_until_equilibrium`), the terminal phase starts where the training error stays zero
(`rho_summary.terminal_phase_start`). Quick's ledger (MEASURED_QUICK below): session 25's quick envelope of notebook 04
(seed bands 0-2, 10-12, 20-22), with the recipe the probes' rules chose on seeds 100-102
(benchmarks/probes/paper4_recipe.py: MNIST at 28x28, width 64, BatchNorm affine=False with weight decay;
paper4_updates.py: 16,000 updates, 3,600 for the ConvNet).
"""
from dataclasses import replace

from .core import NOT_REPRODUCED as NR, REPRODUCED as R, UNSTABLE, Claim, fitted, with_control, with_measured

SEPARATES = "{}.train_errors_end < 0.5"   # no training sample misclassified


def _fit(*tags):
    """The fit gates of the runs (figure groups or seed bands) named by `tags`."""
    return tuple(g for t in tags for g in (SEPARATES.format(t), fitted(t)))


Q_OBS1 = "grows monotonically until a minimum is reached at which"
Q_LAMBDA0 = ("This dynamics is expected even in the limit of ... which corresponds to exact interpolation of all "
             "the training data at a singular critical point")
Q_OBS2_AVERAGE = "Minimizers with small ρ_{eq} correspond to large average margin $\\sum y_n f_n$"
Q_OBS2_ZERO_LOSS = ("suppose that the gradient flow converges to a ρ_{eq} and V_k^{eq} which correspond to zero square "
                    "loss. Among all such minimizers the one with the smallest ρ_{eq} ... corresponds to the (absolute) "
                    "minimum norm – and maximum margin – solutions")
Q_NC = ("these properties of the Neural Collapse[12] seem to be predicted by the theory of this paper for the global "
        "(that is, close-to-zero square-loss) minima ... We recall that the basic assumptions of the analysis are Batch "
        "Normalization and Weight Decay")
Q_FIG11 = "Figure 11: ConvNet, no Batch Normalization, no Weight Decay. Margin of all training samples"
Q_OTHERS = "As predicted by the analysis, the case of BN+WD is the most well-behaved, whereas the others strongly depend on initial conditions"

# The full profile (notebook 04's `full=` picks): where CIFAR-10 is absent (every machine so far) MNIST's 3 / 5 at 28x28
# (quick reads 3 / 8), 32,000 SGD updates (quick: 16,000) and 7,200 for the ConvNet (quick: 3,600), quick's nets
# otherwise (until session 24: 8,000 and 1,500). MEASURED_FULL (at the end) holds full's own outcomes.
FULL = ("full trains quick's nets with the paper's optimizer settings for twice quick's updates on another pair of "
        "MNIST's digits")


CLAIMS: list[Claim] = [
    # ---------------------------------------------------------------- BN + weight decay (Fig 1-4)
    Claim('p4.eq5_bnwd', 4, 'Fig 2 / eq. 5',
          quote="The equilibrium value at ... Figure 1, 2, 3, and 4 show the case of gradient descent with batch "
                "normalization and weight decay, which corresponds to a well-posed dynamical system",
          statement="With BN + weight decay, rho = ||W_L|| ends at eq. 5's rho_eq computed from the final f_n "
                    "(within 10 %, last 10 % of epochs averaged), for every initial norm (0.1, 1, 5). A sanity check, "
                    "not a finding: eq. 5 is the stationarity condition d rho / dt = 0 of the rho dynamics with weight "
                    "decay, so any run whose rho has stopped moving satisfies it with its own final f_n, whatever it "
                    "converged to; the paper's claims about that equilibrium are Observation 1 and the independence "
                    "of the initialization (p4.obs1_bnwd, p4.bnwd_init_independent)",
          metric='bnwd.eq5_max_rel_err', op='<', threshold=0.1,
          expect={"quick": R, "paper": R}, fit=_fit("bnwd"), about="sanity", rule="near"),
    Claim('p4.obs1_bnwd', 4, 'Fig 2 / Observation 1',
          quote=f"Observation 1 ... Assuming average separability, and gradient flow starting from small norm ... "
                f"{Q_OBS1} ... If gradient flow starts from very small ρ and there is average separability, ρ "
                f"increases monotonically until such a minimum is found",
          statement="With BN + WD from initial norm 0.1, rho = ||W_L|| grows monotonically until it reaches the "
                    "minimum where rho = rho_eq (the first record from which rho stays within 10 % of eq. 5's rho_eq; "
                    "the whole run where it never does): its largest fall below its running maximum before then is "
                    "under 5 % (SGD's tolerance), for each of 3 seeds",
          metric='band.bnwd.rho_max_drop', op='<', threshold=0.05,
          expect={"quick": R, "paper": R}, fit=_fit("band.bnwd"), rule="seeds",
          why="rho's largest fall before it reaches rho_eq {band.bnwd.rho_max_drop:%} (over the whole run "
              "{band.bnwd.rho_max_drop_run:%}), ending at {band.bnwd.rho_end:.2f}; the control, from initial norm 5, "
              "falls {band.bnwd_large.rho_max_drop:%}"),
    Claim('p4.bnwd_init_independent', 4, 'Fig 2-3 / Sec 1.2, 4.1',
          quote="If the weight decay parameter is non-zero and large enough, there is independence ... from initial "
                "conditions ... The case of BN+WD is the only one which seems rather independent of initial "
                f"conditions in our experiments ... {Q_OTHERS}",
          statement="With BN + WD the final rho = ||W_L|| (last 10 % of epochs) is independent of the initial norm "
                    "(0.1, 1, 5): largest over smallest below 1.1 (the same within 10 %), for each of 3 seeds (a "
                    "seed band, judged on the log scale). Fig 3's mean |f_n| is 1/rho at interpolation, the same "
                    "measurement (its spread is logged, init.bnwd.mean_abs_f_end_spread)",
          metric='init.bnwd.rho_end_spread', op='<', threshold=1.1, scale="log",
          expect={"quick": R, "paper": R}, fit=_fit("init.bnwd"), rule="near",
          why="final rho {bnwd.norm0.1.rho_end:.2f} / {bnwd.norm1.rho_end:.2f} / {bnwd.norm5.rho_end:.2f} "
              "for the first seed (largest over smallest {init.bnwd.rho_end_spread:.2f}, seed by seed); the control, "
              "BN without weight decay: {init.bn.rho_end_spread:.2f}"),
    Claim('p4.obs3_bnwd', 4, 'Observation 3 / Lemma 1.1',
          quote="Thus for the same network and the same data, the upper bound for the expected error of the "
                "minimizer is smaller for smaller ρ ... The global minima in the square loss with the smallest ρ "
                "are the global minimum norm solutions and have the best margin and the best bound on expected "
                "error",
          statement="With BN + WD, of the two runs from initial norms 0.1 and 5 (same network, same data, same "
                    "seed), the one ending with the smaller rho has the lower test error (test error on the whole test "
                    "split, averaged over the last 10 % of epochs; error of the larger-rho run minus the smaller's "
                    "> 0), for each of 3 seeds. The paper bounds the error; this tests the error itself",
          metric='obs3.bnwd.error_gap', op='>', threshold=0.0,
          expect={"quick": R, "paper": R}, fit=_fit("band.bnwd", "band.bnwd_large"), rule="more",
          why="the run from the smallest initial norm ends with rho {band.bnwd.rho_end:.2f} against "
              "{band.bnwd_large.rho_end:.2f} and test error {band.bnwd.test_error_end:%} against "
              "{band.bnwd_large.test_error_end:%} (gap {obs3.bnwd.error_gap:%}); the control, the same pair untrained: "
              "{obs3.bnwd.error_gap_untrained:%}"),
    Claim('p4.margin_spread_shrinks', 4, 'Fig 4 / Sec 1.2',
          quote="for an exact zero loss solution of the regression problem, the margin is the same for all "
                "training data ... All of them will correspond to the same norm and all will have the same margin "
                "for all of the training points",
          statement="With BN + WD (initial norm 0.1), the margins' spread std/mean at the end (last 10 % of "
                    "epochs) is below its value at the start of the terminal phase (the first record from which no "
                    "training sample is misclassified): ratio < 1, for each of 3 seeds. A sanity check: the spread of "
                    "y_n g_n is bounded by the square loss, so it shrinks wherever the loss falls through the terminal "
                    "phase, with or without BN and weight decay (its control, the run with neither, "
                    "band.none.cv_end_over_tpt, shrinks as well: p4.fig11_horizontal_margins)",
          metric='band.bnwd.cv_end_over_tpt', op='<', threshold=1.0, scale="log",
          expect={"quick": R, "paper": R}, fit=_fit("band.bnwd"), about="sanity", rule="more"),
    Claim('p4.nc1_falls_bnwd', 4, 'Sec 2.1 / Lemma 1.4, ref. [12]',
          quote="(NC1) Cross-example within-class variability of last-layer training activations collapses to "
                "zero ... these properties of the Neural Collapse[12] seem to be predicted by the theory of this "
                "paper for the global (that is, close-to-zero square-loss) minima",
          statement="With BN + WD (initial norm 0.1), NC1 of the last hidden layer at the end (last 10 % of epochs) "
                    "is below its value at the start of the terminal phase (the first record from which no training "
                    "sample is misclassified), for each of 3 seeds (judged on the log scale)",
          metric='band.bnwd.nc1_end_over_tpt', op='<', threshold=1.0, scale="log",
          expect={"quick": R, "paper": R}, fit=_fit("band.bnwd"), rule="more",
          why="NC1 at the end over its value at the start of the terminal phase {band.bnwd.nc1_end_over_tpt:.2f}; "
              "the control, neither BN nor weight decay: {band.none.nc1_end_over_tpt:.2f}"),
    # ---------------------------------------------------------------- BN without weight decay (Fig 5-8)
    Claim('p4.obs1_bn_nowd', 4, 'Fig 6 / Observation 1',
          quote=f"{Q_OBS1} ... {Q_LAMBDA0}",
          statement="With BN and no weight decay (ConvNet, lambda = 0) from initial norm 0.1, rho = ||W_L|| grows "
                    "monotonically until it reaches the minimum where rho = rho_eq (the first record from which rho "
                    "stays within 10 % of eq. 5's rho_eq with lambda = 0; the whole run where it never does): its "
                    "largest fall below its running maximum before then is under 5 %, for each of 3 seeds",
          metric='band.bn.rho_max_drop', op='<', threshold=0.05,
          expect={"quick": R, "paper": R}, fit=_fit("band.bn"), rule="seeds",
          why="rho's largest fall before it reaches rho_eq {band.bn.rho_max_drop:%} (over the whole run "
              "{band.bn.rho_max_drop_run:%}); the control, from initial norm 5: {band.bn_large.rho_max_drop:%}"),
    Claim('p4.bn_nowd_init_dependent', 4, 'Fig 6-8 / Lemma 1.3',
          quote=f"With BN but in the absence of WD, the dynamical system is singular ... {Q_OTHERS} ... "
                "initialization with small ... can be sufficient to induce a bias in the dynamics of GD leading "
                "to large margin minimizers of the square loss",
          statement="With BN and no weight decay (ConvNet), the run from initial norm 0.1 ends with a mean margin "
                    "y_n f_n (Fig 7; = mean |f_n| of Fig 8 once separated, = 1/rho at interpolation) more than "
                    "twice that of the run from 5 (strong dependence on the initialization, towards large margins "
                    "from small ones), for each of 3 seeds (a seed band, judged on the log scale)",
          metric='init.bn.margin_small_over_large', op='>', threshold=2.0, scale="log",
          expect={"quick": R, "paper": R}, fit=_fit("init.bn"), rule="much",
          why="mean margin from the small initial norm over that from 5: {init.bn.margin_small_over_large:.2f}; the control, BN with "
              "weight decay (the same norms): {init.bnwd.margin_small_over_large:.2f}"),
    Claim('p4.fig7_horizontal_margins', 4, 'Fig 7-8',
          quote="If the solution were to correspond to exactly zero square loss, the margin distribution would be "
                "an horizontal line",
          statement="With BN and no weight decay (initial norm 0.1, 3 seeds), the margins' spread std/mean at the "
                    "end is below its value at the start of the terminal phase. A formula, not a finding: with "
                    "lambda = 0 the loss goes to 0 and std/mean of y_n g_n is at most sqrt(MSE) / mean(y_n g_n)",
          metric='band.bn.cv_end_over_tpt', op='<', threshold=1.0, scale="log",
          expect={"quick": R, "paper": R}, about="sanity", rule="more"),
    # ---------------------------------------------------------------- neither BN nor weight decay (Fig 9-11)
    Claim('p4.obs1_none', 4, 'Fig 10 / Observation 1',
          quote=f"{Q_OBS1} ... {Q_LAMBDA0}",
          statement="Without BN and weight decay from the smallest initial norm (5, the paper's 'small "
                    "initialization (5)' of Fig 10), rho (all layers) grows monotonically until it reaches rho_eq: its "
                    "largest fall below its running maximum before then is under 5 %, for each of 3 seeds. A sanity "
                    "check: without weight decay rho grows for any net whose outputs undershoot their targets (from a "
                    "small initialization, every net), and its control, the larger initial norms 15 and 30 that start "
                    "above rho_eq, diverges at the paper's lr 0.1 on this width (probe seeds 100-102)",
          metric='band.none.rho_max_drop', op='<', threshold=0.05,
          expect={"quick": R, "paper": R}, fit=_fit("band.none"), about="sanity", rule="seeds"),
    Claim('p4.none_init_dependent', 4, 'Fig 10-11 / Sec 3',
          quote="Implicit dynamical regularization – that is zero-initial conditions biasing the dynamics towards "
                f"high margin solutions – is also possible in the no-BN and no-WD case ... {Q_OTHERS}",
          statement="Without BN and weight decay, the run from the smallest initial norm (5) ends with a mean margin "
                    "more than twice that of the largest (30, the paper's), for each of 3 seeds (a seed band, judged "
                    "on the log scale)",
          metric='init.none.margin_small_over_large', op='>', threshold=2.0, scale="log",
          expect={"quick": NR, "paper": R}, fit=_fit("init.none"), rule="much",
          why="the runs from initial norm 30 diverge within the first SGD steps at the paper's learning rate (Fig 9; the "
              "worst run's loss ratio {init.none.loss_ratio}), so the comparison is not made; the paper's net is "
              "wider (its width is not stated), and at 64 units a norm of 30 makes the first steps explode. Its "
              "control would be BN with weight decay: {init.bnwd.margin_small_over_large:.2f}"),
    Claim('p4.none_small_init_generalizes', 4, 'Sec 3 / Sec 4.1 / Observation 3',
          quote="We also show, however, that in the absence of WD and BN good solutions for binary "
                "classification can be found because of the bias in the dynamics of GD toward small norm solution "
                "... introduced by near-zero initial conditions ... It is remarkable that for the case of no BN "
                "and no WD, the dynamical system still yields good results, provided initialization is small",
          statement="Without BN and weight decay, of the two runs from the smallest and the largest initial norm "
                    "(5 and 30, same seed), the one ending with the smaller rho has the lower test error (whole test "
                    "split, averaged over the last 10 % of epochs; error of the larger-rho run minus the smaller's "
                    "> 0), for each of 3 seeds",
          metric='obs3.none.error_gap', op='>', threshold=0.0,
          expect={"quick": NR, "paper": R}, fit=_fit("band.none", "band.none_large"), rule="more",
          why="the runs from initial norm 30 diverge at the paper's learning rate (see p4.none_init_dependent), so "
              "there is no large-initialization run to compare with: test error {band.none.test_error_end:%} from 5"),
    # ---------------------------------------------------------------- coverage (issue 27): Observation 2, NC2-NC4, Fig 11
    Claim('p4.obs2_average_margin', 4, 'Observation 2',
          quote=Q_OBS2_AVERAGE,
          statement="With BN + WD, of each seed's runs from the initial norms 0.1 / 1 / 5, the one ending with the "
                    "smallest eq. 5 rho_eq has a larger final mean margin y_n f_n (last 10 % of epochs) than the one "
                    "ending with the largest: ratio > 1, for each of 3 seeds. A formula more than a finding: eq. 5 "
                    "reads rho_eq = m / (lambda / N + m^2 + s^2) for the margins' mean m and variance s^2 (y_n^2 = 1), "
                    "so where the spread and lambda / N are small beside m^2, rho_eq is about 1/m",
          metric='init.bnwd.obs2_mean_margin_ratio', op='>', threshold=1.0, scale="log",
          expect={"quick": R, "paper": R}, about="sanity", rule="more"),
    Claim('p4.obs2_max_margin', 4, 'Observation 2',
          quote=Q_OBS2_ZERO_LOSS,
          statement="With BN and no weight decay (lambda = 0, the zero-loss case; ConvNet), of each seed's runs from "
                    "the initial norms 0.1 and 5, the one ending with the smaller eq. 5 rho_eq has the larger "
                    "smallest margin min_n y_n f_n (the margin of the worst training sample; last 10 % of epochs "
                    "averaged): ratio > 1, for each of 3 seeds (judged on the log scale). At exact interpolation every "
                    "margin is 1/rho_eq; at the fit gate's near-zero loss the worst sample's margin is not fixed by "
                    "rho_eq",
          metric='init.bn.obs2_min_margin_ratio', op='>', threshold=1.0, scale="log",
          expect={"quick": R, "paper": R}, fit=_fit("init.bn"), rule="more",
          why="smallest margin of the smaller-rho_eq run over the larger's {init.bn.obs2_min_margin_ratio:.2f}; "
              "the control, the same ratio with weight decay (not the zero-loss case): "
              "{init.bnwd.obs2_min_margin_ratio:.2f}"),
    Claim('p4.nc2_simplex_etf', 4, 'Sec 2.1 / ref. [12], NC2',
          quote=f"(NC2) The class means collapse to the vertices of a simplex equiangular tight frame (ETF) ... {Q_NC}",
          statement="With BN + WD (initial norm 0.1, 3 seeds), NC2 of the last hidden layer at the end (`rho.nc2`: "
                    "std/mean of the centred class means' norms plus the largest |cos + 1/(K-1)|) is below 1e-6. True "
                    "by construction with two classes: two means centred at their midpoint are antipodal and of equal "
                    "norm, a simplex ETF with K = 2, whatever the net. Logged to show that the binary task of the "
                    "paper's figures cannot test NC2 (it needs K >= 3 classes)",
          metric='band.bnwd.nc2_end', op='<', threshold=1e-6,
          expect={"quick": R, "paper": R}, about="sanity", rule="exact"),
    Claim('p4.nc3_falls_bnwd', 4, 'Sec 2.1 / ref. [12], NC3',
          quote="(NC3) Up to rescaling, the last-layer classifiers collapse to the class means or in other words, to "
                f"the simplex ETF (i.e., to a self-dual configuration) ... {Q_NC}",
          statement="With BN + WD (initial norm 0.1), NC3 of the last layer at the end (last 10 % of epochs; "
                    "`rho.nc3`: ||W/||W|| - M/||M||||^2 for the classifiers -w / +w of the one-output net and the "
                    "centred class means M of the last hidden layer, 2 - 2 cos(w, mu_+ - mu_-)) is below its value at "
                    "the start of the terminal phase (the first record from which no training sample is "
                    "misclassified, not an early epoch where the error vanishes once): ratio < 1, for each of 3 seeds "
                    "(judged on the log scale; NC1's reading, p4.nc1_falls_bnwd)",
          metric='band.bnwd.nc3_end_over_tpt', op='<', threshold=1.0, scale="log",
          expect={"quick": R, "paper": R}, fit=_fit("band.bnwd"), rule="more",
          why="NC3 at the end {band.bnwd.nc3_end:.2f}, over its value at the start of the terminal phase "
              "{band.bnwd.nc3_end_over_tpt:.2f}; the control, neither BN nor weight decay: "
              "{band.none.nc3_end_over_tpt:.2f}"),
    Claim('p4.nc4_ncc_bnwd', 4, 'Sec 2.1 / ref. [12], NC4',
          quote="(NC4) For a given activation, the classifier's decision collapses to simply choosing whichever class "
                f"has the closest train class mean (i.e., the nearest class center [NCC] decision rule) ... {Q_NC}",
          statement="With BN + WD (initial norm 0.1), the net's decision sign(g_n) and the nearest class centre's "
                    "(Euclidean, in the last hidden layer, the training class means) agree on at least 90 % of the "
                    "training samples at the end (`rho.nc4` below 0.1, last 10 % of epochs averaged), for each of 3 "
                    "seeds. A sanity check: on a separated training set with two classes the fit gate forces it, and "
                    "its control, the nets with neither BN nor weight decay (band.none.nc4_end), pass it as well "
                    "(issue 42), so it cannot test the paper's assumptions",
          metric='band.bnwd.nc4_end', op='<', threshold=0.1,
          expect={"quick": R, "paper": R}, fit=_fit("band.bnwd"), about="sanity", rule="every"),
    Claim('p4.fig11_horizontal_margins', 4, 'Fig 11',
          quote=f"{Q_FIG11} ... If the solution were to correspond to exactly zero square loss, the margin "
                "distribution would be an horizontal line",
          statement="Without BN and weight decay (initial norm 5, 3 seeds), the margins' spread std/mean at the end "
                    "is below its value at the start of the terminal phase. A formula, not a finding (as Fig 7's, "
                    "p4.fig7_horizontal_margins): with lambda = 0 the loss goes to 0 and std/mean of y_n g_n is at "
                    "most sqrt(MSE) / mean(y_n g_n)",
          metric='band.none.cv_end_over_tpt', op='<', threshold=1.0, scale="log",
          expect={"quick": R, "paper": R}, about="sanity", rule="more"),
    Claim('p4.fig11_min_margin_small_init', 4, 'Fig 11 / Sec 3',
          quote=f"{Q_FIG11} ... Implicit dynamical regularization – that is zero-initial conditions biasing the "
                "dynamics towards high margin solutions – is also possible in the no-BN and no-WD case",
          statement="Without BN and weight decay, the run from the smallest initial norm (5) ends with a larger "
                    "smallest margin min_n y_n f_n over all training samples (what Fig 11 plots; last 10 % of epochs "
                    "averaged) than the run from the largest (30): ratio > 1, for each of 3 seeds (judged on the log "
                    "scale). p4.none_init_dependent tests the mean margin (by a factor 2); this is the worst sample's "
                    "margin, the margin of max-margin classifiers",
          metric='init.none.min_margin_small_over_large', op='>', threshold=1.0, scale="log",
          expect={"quick": NR, "paper": R}, fit=_fit("init.none"), rule="more",
          why="the runs from initial norm 30 diverge at the paper's learning rate (see p4.none_init_dependent); the "
              "control would be BN with weight decay: {init.bnwd.min_margin_small_over_large:.2f}"),
]

# Each counted claim's control (issue 42, item 2; Claim.control, put through the claim's own comparison by
# claims/core.py): a run of the same notebook that the statement must FAIL. The sanity checks name theirs in the
# statement: there the control passes too, or cannot be run.
CONTROLS = {
    "p4.obs1_bnwd": dict(
        control="band.bnwd_large.rho_max_drop",
        control_is="the BN + WD run from the large initial norm 5, which starts above rho_eq and falls to it"),
    "p4.bnwd_init_independent": dict(
        control="init.bn.rho_end_spread",
        control_is="BN without weight decay (the ConvNet from 0.1 and 5), where the paper expects dependence on the "
                   "initialization"),
    "p4.obs3_bnwd": dict(
        control="obs3.bnwd.error_gap_untrained",
        control_is="the same pair of BN + WD nets at initialization, before training biased either"),
    "p4.nc1_falls_bnwd": dict(
        control="band.none.nc1_end_over_tpt",
        control_is="the nets with neither BN nor weight decay (initial norm 5), outside the analysis' assumptions"),
    "p4.obs1_bn_nowd": dict(
        control="band.bn_large.rho_max_drop",
        control_is="the ConvNet (BN, no weight decay) from the large initial norm 5, which starts above rho_eq"),
    "p4.bn_nowd_init_dependent": dict(
        control="init.bnwd.margin_small_over_large",
        control_is="BN with weight decay (the same kind of comparison of initial norms), where the paper expects "
                   "independence of the initialization"),
    "p4.none_init_dependent": dict(
        control="init.bnwd.margin_small_over_large",
        control_is="BN with weight decay, where the paper expects independence of the initialization"),
    "p4.none_small_init_generalizes": dict(
        control="obs3.none.error_gap_untrained",
        control_is="the same pair of nets without BN and weight decay at initialization"),
    "p4.obs2_max_margin": dict(
        control="init.bnwd.obs2_min_margin_ratio",
        control_is="the runs with weight decay, not the zero-loss case of the sentence"),
    "p4.nc3_falls_bnwd": dict(
        control="band.none.nc3_end_over_tpt",
        control_is="the nets with neither BN nor weight decay (initial norm 5), outside the analysis' assumptions"),
    "p4.fig11_min_margin_small_init": dict(
        control="init.bnwd.min_margin_small_over_large",
        control_is="BN with weight decay, where the paper expects independence of the initialization"),
}


CLAIMS = [with_control(c, CONTROLS) for c in CLAIMS]

# ---------------------------------------------------------------- quick's ledger, measured
# Session 25's quick envelope of notebook 04 (benchmarks/RESULTS.md, session 25): three runs from an empty cache on
# the 2-core CPU, 2026-11-28, with the updates benchmarks/probes/paper4_updates.py's rule chose (16,000 for the fully
# connected nets, 3,600 for the ConvNet) and the fit gate read on the last 10 % of epochs (docs/CLAIM_RULES.md, the
# `fit` row): seeds 0-2 (612 s, beside two smoke runs), 10-12 (351 s) and 20-22 (378 s, both idle). Claim -> (outcome
# all three runs took, what they showed). One claim took two outcomes and is on claims/unstable.py's list (its entry
# here is the base run's). Session 24's envelope (4,000 / 900 updates, the gate at the last epoch) had the ConvNet's
# init group miss the gate on every band: at 3,600 updates it fits on all three, and two claims moved to reproduced.
HOW_QUICK = ("session 25's quick envelope of notebook 04 (seeds 0-2, 10-12, 20-22, 2026-11-28; 16,000 / 3,600 SGD "
             "updates, the fit gate on the last 10 % of epochs): the outcome all three runs took")
_BNWD_UNFIT = ("quick's 16,000 updates fit the BN + WD nets on no seed band: in each run one seed ends with a training "
               "digit misclassified (seeds 0-2) or at least one ends at 5.0-12.2 % of the zero prediction's loss over "
               "the last 10 % of epochs (the gate is 5 %; the probe on seeds 100-102 passed 7 of 9 runs at this count)")
_NORM30_QUICK = ("the runs from the paper's norm 30 diverge or end with every training digit misclassified on every seed "
                 "of every band; no comparison")
MEASURED_QUICK = {
    "p4.eq5_bnwd": (NR, _BNWD_UNFIT + "; rho is within 2.7-3.9 % of eq. 5's rho_eq all the same (sanity)"),
    "p4.obs1_bnwd": (NR, _BNWD_UNFIT + "; rho from 0.1 overshoots and falls 35-85 % of its maximum before rho_eq"),
    "p4.bnwd_init_independent": (NR, _BNWD_UNFIT + "; the final rho's largest over smallest is 1.03-1.21, under 1.1 "
                                 "on 5 of 9 seeds"),
    "p4.obs3_bnwd": (NR, _BNWD_UNFIT + "; the test-error gap between norms 0.1 and 5 is -0.5 to +4.8 points, "
                         "negative on 3 of 9 seeds"),
    "p4.margin_spread_shrinks": (NR, _BNWD_UNFIT + "; the margins' spread at the end over the start of the terminal "
                                     "phase 0.71-3.55, above 1 on 6 of the 7 seeds that have one (sanity)"),
    "p4.nc1_falls_bnwd": (NR, _BNWD_UNFIT + "; NC1 at the end over the terminal phase's start 0.25-3.08"),
    "p4.obs1_bn_nowd": (R, "rho of the ConvNet from 0.1 never falls before rho_eq on any seed of any run; the control "
                           "from 5 falls 14-28 %, as it must"),
    "p4.bn_nowd_init_dependent": (R, "the ConvNets fit on every seed of every band (3,600 updates; at 900 they did "
                                     "not), and the mean margin from norm 0.1 over that from 5 is 4.0-5.1 on every "
                                     "seed (bar 2); the control, BN with weight decay, 0.85-1.12"),
    "p4.fig7_horizontal_margins": (R, "the margins' spread shrinks through the terminal phase on every seed of every "
                                      "run (0.15-0.29 of its start; sanity)"),
    "p4.obs1_none": (R, "rho from norm 5 never falls before rho_eq on any seed of any run (sanity)"),
    "p4.none_init_dependent": (NR, _NORM30_QUICK),
    "p4.none_small_init_generalizes": (NR, _NORM30_QUICK),
    "p4.obs2_average_margin": (NR, "the mean-margin ratio is 1.02-1.24 on 8 of 9 seeds and 0.99 on one (seeds 0-2, "
                                   "whose band then fails): unstable (sanity)"),
    "p4.obs2_max_margin": (R, "the ConvNets fit on every seed (3,600 updates), and the smallest margin of the "
                              "smaller-rho_eq run over the larger's is 5.3-18.3 on every seed (bar 1)"),
    "p4.nc2_simplex_etf": (R, "NC2 at rounding level on every seed (two classes; sanity)"),
    "p4.nc3_falls_bnwd": (NR, _BNWD_UNFIT + "; NC3 at the end over the terminal phase's start 0.52-1.71"),
    "p4.nc4_ncc_bnwd": (NR, _BNWD_UNFIT + "; the decisions differ on 0.2-3.3 % of the training digits (sanity)"),
    "p4.fig11_horizontal_margins": (R, "the margins' spread shrinks through the terminal phase on every seed of every "
                                       "run (sanity)"),
    "p4.fig11_min_margin_small_init": (NR, _NORM30_QUICK),
}
# The why of each claim measured not reproduced at quick (numbers as placeholders of the run's metrics).
WHY_QUICK = {
    "p4.obs1_bnwd": "rho's largest fall before it reaches rho_eq {band.bnwd.rho_max_drop:%} (over the whole run "
                    "{band.bnwd.rho_max_drop_run:%}), ending at {band.bnwd.rho_end:.2f}, with Fig 1's BatchNorm (with its "
                    "parameters; rho = ||W_L|| from the smallest initial norm); the control, from initial norm 5, "
                    "falls {band.bnwd_large.rho_max_drop:%}. With BatchNorm without "
                    "parameters (our earlier build, a departure measured beside): "
                    "{band.bnwd_noaffine.rho_max_drop:%}",
    "p4.bnwd_init_independent": "a BN + WD run of the group misses the fit gate (training errors "
                                "{init.bnwd.train_errors_end}, loss ratio {init.bnwd.loss_ratio}); the final rho's largest "
                                "over smallest is {init.bnwd.rho_end_spread:.2f}; the control, BN without weight "
                                "decay: {init.bn.rho_end_spread:.2f}",
    "p4.margin_spread_shrinks": "the margins' spread at the end over its value at the start of the terminal "
                                "phase {band.bnwd.cv_end_over_tpt:.2f} (inf: no terminal phase; training errors at the "
                                "end {band.bnwd.train_errors_end})",
    "p4.nc1_falls_bnwd": "NC1 at the end over its value at the start of the terminal phase "
                         "{band.bnwd.nc1_end_over_tpt:.2f} (inf: no terminal phase; training errors at the end "
                         "{band.bnwd.train_errors_end}); the control, neither BN nor weight "
                         "decay: {band.none.nc1_end_over_tpt:.2f}",
    "p4.bn_nowd_init_dependent": "a ConvNet run misses the fit gate (training errors {init.bn.train_errors_end}, "
                                 "loss ratio {init.bn.loss_ratio}); the mean margin from the small "
                                 "initial norm over that from 5 is {init.bn.margin_small_over_large:.2f}; the control, "
                                 "BN with weight decay: {init.bnwd.margin_small_over_large:.2f}",
    "p4.none_init_dependent": "the runs from the paper's initial norm 30 diverge or never train at its learning rate "
                              "(training errors {init.none.train_errors_end}; the probe found no affordable width, 64 "
                              "or 256, at 14x14 or 28x28, where 30 trains), so the comparison is not made. Its "
                              "control would be BN with weight decay: {init.bnwd.margin_small_over_large:.2f}",
    "p4.none_small_init_generalizes": "the runs from initial norm 30 diverge or never train at the paper's lr "
                                      "(training errors {band.none_large.train_errors_end}; see p4.none_init_dependent), "
                                      "so there is no large-initialization run to compare with: test error "
                                      "{band.none.test_error_end:%} from 5",
    "p4.obs2_average_margin": "the mean margin of the smallest-rho_eq run over the largest's "
                              "{init.bnwd.obs2_mean_margin_ratio:.2f} against 1, seed by seed (the band holds only if "
                              "every seed does and its mean is two standard errors past 1)",
    "p4.obs2_max_margin": "a ConvNet run misses the fit gate (training errors {init.bn.train_errors_end}, loss "
                          "ratio {init.bn.loss_ratio}); smallest margin of the smaller-rho_eq "
                          "run over the larger's {init.bn.obs2_min_margin_ratio:.2f}; the control, the same ratio with "
                          "weight decay: {init.bnwd.obs2_min_margin_ratio:.2f}",
    "p4.fig11_min_margin_small_init": "the runs from initial norm 30 diverge or never train at the paper's lr "
                                      "(training errors {init.none.train_errors_end}; see p4.none_init_dependent); the "
                                      "control would be BN with weight decay: "
                                      "{init.bnwd.min_margin_small_over_large:.2f}",
    "p4.obs3_bnwd": "the run from the smallest initial norm ends with rho {band.bnwd.rho_end:.2f} against "
                    "{band.bnwd_large.rho_end:.2f} and test error {band.bnwd.test_error_end:%} against "
                    "{band.bnwd_large.test_error_end:%} (gap {obs3.bnwd.error_gap:%}; training errors at the end "
                    "{band.bnwd.train_errors_end}, loss ratio {band.bnwd.loss_ratio:.3f}); the "
                    "control, the same pair untrained: {obs3.bnwd.error_gap_untrained:%}",
}
CLAIMS = with_measured([replace(c, why=WHY_QUICK.get(c.id, c.why)) for c in CLAIMS], MEASURED_QUICK, "quick",
                       HOW_QUICK)

# The full profile measured: session 19's full run of notebook 04 (seeds 0-2; 8,000 SGD updates for the fully
# connected nets, 1,500 for the ConvNet; MNIST's 3 / 5 at 28x28, 640 training digits, since CIFAR-10 is not on this
# machine: core.LEDGER_DATA_BY_NOTEBOOK says so). Claim -> (outcome, what it showed).
HOW_FULL = ("session 19's full run of notebook 04 (seeds 0-2, 2026-11-27, MNIST 3 / 5 at 28x28, 8,000 SGD updates; "
            "1,185 s on the 2-core CPU beside another run), repeated from an empty cache on an idle machine in "
            "session 22 (497 s, every metric bit-identical); that is full's recipe before session 25 (full now trains "
            "32,000 / 7,200 updates and reads the fit gate on the last 10 % of epochs) and is not yet re-measured")
_GATE_BNWD = "seed 2's BN + WD run from 0.1 ends with one training digit misclassified, so the fit gate fails"
_GATE_BN = "seed 0's ConvNet from norm 5 ends with one training digit misclassified, so the fit gate fails"
_NORM30 = ("the runs from the paper's norm 30 diverge (seeds 0, 1) or end with every training digit misclassified "
           "(seed 2), as at quick; no comparison")
MEASURED_FULL = {
    "p4.eq5_bnwd": (NR, "rho ends within 4 % and 5 % of eq. 5's rho_eq from initial norms 0.1 and 1, and 26 % from "
                        "it from 5: that run has not settled in 8,000 updates"),
    "p4.obs1_bnwd": (NR, f"{_GATE_BNWD}; rho's largest fall before it reaches rho_eq is 45-53 % on every seed, "
                         "against Observation 1's 5 %"),
    "p4.bnwd_init_independent": (NR, f"{_GATE_BNWD}; the final rho's largest over smallest is 2.42 / 1.19 / 1.14 "
                                     "against 1.1"),
    "p4.obs3_bnwd": (NR, f"{_GATE_BNWD}; the test-error gap is +1.1 / +1.3 / -1.1 points: the sign moves with the "
                         "seed"),
    "p4.margin_spread_shrinks": (NR, f"{_GATE_BNWD}; the margins' spread at the end over its value at the start of "
                                     "the terminal phase is 0.62 / 2.57 / (no terminal phase)"),
    "p4.nc1_falls_bnwd": (NR, f"{_GATE_BNWD}; NC1 at the end over the start of the terminal phase 5.47 / 0.73 / "
                              "(no terminal phase)"),
    "p4.obs1_bn_nowd": (R, "rho of the ConvNet from 0.1 never falls before rho_eq on any seed"),
    "p4.bn_nowd_init_dependent": (NR, f"{_GATE_BN}; the mean-margin ratio is 3.7-4.3 on every seed"),
    "p4.fig7_horizontal_margins": (R, "the margins' spread shrinks through the terminal phase on every seed "
                                      "(0.19-0.26 of its start)"),
    "p4.obs1_none": (R, "rho from norm 5 never falls before rho_eq on any seed"),
    "p4.none_init_dependent": (NR, _NORM30),
    "p4.none_small_init_generalizes": (NR, _NORM30),
    "p4.obs2_average_margin": (R, "the mean-margin ratio is 1.27 / 1.09 / 1.08"),
    "p4.obs2_max_margin": (NR, f"{_GATE_BN}; the ratio is 14.2 and 14.0 on the other two seeds"),
    "p4.nc2_simplex_etf": (R, "NC2 at rounding level on every seed (two classes)"),
    "p4.nc3_falls_bnwd": (NR, f"{_GATE_BNWD}; NC3 at the end over the start of the terminal phase 1.07 / 0.78 / "
                              "(no terminal phase)"),
    "p4.nc4_ncc_bnwd": (NR, f"{_GATE_BNWD}; the net's decision and the nearest class centre's differ on 1.0-1.5 % "
                            "of the training digits"),
    "p4.fig11_horizontal_margins": (R, "the margins' spread shrinks through the terminal phase on every seed"),
    "p4.fig11_min_margin_small_init": (NR, _NORM30),
}
CLAIMS = with_measured(CLAIMS, MEASURED_FULL, "full", HOW_FULL)
