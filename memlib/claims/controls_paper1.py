"""Paper 1's controls (issue 42, item 2): for every claim, a run its comparison must FAIL.

A claim that also holds for a network that shows nothing tests nothing (docs/CLAIM_RULES.md, step 4). Each paper-1
claim names here the metric of such a run, measured by notebook 01 (or to be measured: the keys below that notebook
01 does not log yet are listed, with the lines that log them, in benchmarks/probes/paper1_notebook_additions.md):

    CONTROLS = {claim id: (control metric key, what the control is)}

The convention, with no field on `Claim`: the control's metric takes the place of the claim's `metric` in the
claim's own comparison (its `op`; its `threshold` where that is a number). Where the claim compares with another
metric, the text names the control's counterpart of it ("against <key>"). The control is the same statistic of an
untrained net (the same architecture, seeds and initial weights: the suffix `.untrained`), of the other arm of the
paper's comparison, or on other images. A control whose comparison holds shows the claim tests nothing: the claim
then becomes a sanity check or gets a stronger statistic, decided by the rule, not by the numbers.

`with_controls` appends each control to its claim's statement, so the report shows it beside the claim
(`memlib.claims.paper1` and `paper1_convnets` apply it).
"""
from __future__ import annotations

from dataclasses import replace

UNTRAINED = "the same nets untrained (same architecture, seeds and initial weights)"

CONTROLS: dict[str, tuple[str, str]] = {
    # ------------------------------------------------------------------ Fig 2, eq. 1
    "p1.eq1_closed_form": ("fig2.linear1_untrained_vs_eq1_rel_err",
                           "the 1-layer net at its initial W0, against the same closed form of eq. 1: it has not "
                           "moved along the digit, so its relative error is far above the tolerance"),
    "p1.linear1_random_on_orthogonal": ("fig2.relu6.rho0.max_abs_corr",
                                        "the 6-layer ReLU net on the same rho = 0 probes, which paints the digit"),
    "p1.fig2_deep_linear_like_relu": ("fig2.linear6_untrained.corr_to_relu6",
                                      f"the 6-layer linear net untrained ({UNTRAINED}), against "
                                      "fig2.linear6_untrained.corr_to_linear1"),
    "p1.fig2_deep_linear_constant": ("fig2.linear1.corr_constant",
                                     "the 1-layer linear net, the convex case the sentence contrasts, against "
                                     "fig2.linear1.corr_constant.bar"),
    "p1.deep_relu_fcn_constant": ("fig2.linear1.corr_constant",
                                  "the 1-layer linear net, the convex case the sentence contrasts, against "
                                  "fig2.linear1.corr_constant.bar"),
    # ------------------------------------------------------------------ Fig 5-8, 31, 32
    "p1.fig5_depth_beats_width": ("fig5.narrow.h3.rho0.corr_constant.untrained",
                                  f"{UNTRAINED}, against fig5.wide.h1.rho0.corr_constant.untrained"),
    "p1.fig5_deeper_linear_constant": ("fig5.wide.h5.rho0.corr_constant.untrained",
                                       f"{UNTRAINED}, against fig5.wide.h1.rho0.corr_constant.untrained"),
    "p1.fig6_both_layers_constant": ("fig6.both.widest.rho0.corr_constant.untrained",
                                     f"{UNTRAINED}, against fig6.bottom.widest.rho0.corr_constant.untrained"),
    "p1.fig6_bottom_only_noise": ("fig6.both.widest.rho0.max_abs_corr",
                                  "the same width trained in both layers, which the paper says tends to the constant"),
    "p1.fig6_bottom_only_not_identity": ("fig6.both.widest.rho0.max_abs_corr",
                                         "the same width trained in both layers, where eq. 5 no longer applies"),
    "p1.fig7_deep_relu_constant": ("fig8.relu.h1.rho0.corr_constant",
                                   "the shallowest ReLU FCN (1 hidden layer) on the same probes"),
    "p1.fig7_shallow_relu_like_linear": ("fig7.relu_h1.gap_to_relu_deepest",
                                         "the other arm: the shallow ReLU FCN's distance to the deepest ReLU FCN, "
                                         "which the paper says encodes the constant map"),
    "p1.fig8_no_identity_orthogonal": ("fig9.shallow.rho0.corr_identity",
                                       "the shallow ConvNets on the same rho = 0 probes, which the paper says copy "
                                       "them (Fig 9)"),
    "p1.fig8_shallow_linear_not_constant": ("fig8.linear.deepest.rho0.max_abs_corr",
                                            "the deepest linear FCN, which the paper says tends to the constant"),
    "p1.fig8_shallow_relu_not_constant": ("fig8.relu.deepest.rho0.max_abs_corr",
                                          "the deepest ReLU FCN, which the paper says encodes the constant"),
    "p1.fig8_relu_constant_sooner": ("fig8.relu.mid.rho0.corr_constant.untrained",
                                     f"{UNTRAINED}, against fig8.linear.mid.rho0.corr_constant.untrained"),
    "p1.fig31_linear_mse_constant": ("fig8.linear.h1.rho0.mse_constant",
                                     "the shallowest linear FCN (1 hidden layer), against "
                                     "fig8.linear.h1.rho0.mse_identity"),
    "p1.fig32_relu_mse_constant": ("fig8.relu.h1.rho0.mse_constant",
                                   "the shallowest ReLU FCN (1 hidden layer), against fig8.relu.h1.rho0.mse_identity"),
    # ------------------------------------------------------------------ Fig 3a, 9, 33
    "p1.shallow_convnet_identity": ("fig3a.shallow.test.corr_identity.untrained", UNTRAINED),
    "p1.fig9_shallow_identity": ("fig9.shallow.rho0.corr_identity.untrained", UNTRAINED),
    "p1.deep_convnet_constant": ("fig9.depth1.rho0.corr_constant",
                                 "the other end of the depths, the 1-layer ConvNet, against "
                                 "fig9.depth1.rho0.corr_identity"),
    "p1.fig9_intermediate_neither": ("fig9.shallow.rho0.corr_identity",
                                     "the shallow ConvNets (up to 6 layers), which the paper says copy the probes "
                                     "(their best corr is at least this)"),
    "p1.depth_trend": ("fig9.deepest.corr_constant.untrained",
                       f"{UNTRAINED}, against fig9.depth1.corr_constant.untrained: random convolutions smooth more "
                       "with depth by themselves"),
    "p1.fig33_shallow_mse_identity": ("fig33.shallow.rho0.mse_identity_minus_constant.untrained", UNTRAINED),
    "p1.fig33_deep_mse_constant": ("fig33.deepest.rho0.mse_constant_minus_identity.untrained", UNTRAINED),
    # ------------------------------------------------------------------ Fig 1, 34-36
    "p1.fig34_deep_fcn_memorizes": ("fig34.H1.nondigit.frac_nearer_train",
                                    "the 1-hidden-layer ReLU FCN on the same 2 examples, not among the nets the "
                                    "sentence says overfit"),
    "p1.fig35_deep_fcn_memorizes": ("fig35.H1.nondigit.frac_nearer_train",
                                    "the 1-hidden-layer ReLU FCN on the same 3 examples"),
    "p1.fig34_deep_convnet_memorizes": ("fig34.C3.nondigit.frac_nearer_train",
                                        "the 3-layer ConvNet on the same 2 examples, a shallow net that copies"),
    "p1.fig35_deep_convnet_memorizes": ("fig35.C3.nondigit.frac_nearer_train",
                                        "the 3-layer ConvNet on the same 3 examples"),
    "p1.fig36_fcn_digit_manifold": ("fig36.H1.nondigit.corr_identity",
                                    "the same nets on the non-digit inputs, off the manifold"),
    "p1.fig36_fcn_off_manifold": ("fig36.C3.nondigit.corr_identity",
                                  "the ConvNet trained on the same digits, on the same non-digit inputs"),
    "p1.fig36_convnets_identity": ("fig36.convnets.all.corr_identity.untrained", UNTRAINED),
    "p1.fig36_deep_convnet_identity": ("fig36.H9.nondigit.corr_identity",
                                       "the 9-hidden-layer FCN trained on the same digits, on the same inputs"),
    "p1.fig36_deep_fcn_off_manifold": ("fig36.H9.digits.corr_identity",
                                       "the same two nets on the digits, where both copy: against "
                                       "fig36.C20.digits.corr_identity"),
    # ------------------------------------------------------------------ Fig 3b, 18, 19
    "p1.fig18_identity_on_larger_inputs": ("fig18.depth5.larger.frac_identity.untrained",
                                           f"{UNTRAINED}, the same items judged at corr >= 0.8 alone: upsampled "
                                           "inputs are smoother, so any net's correlation rises with the size"),
    "p1.fig18_small_inputs_worse": ("fig18.depth5.size28.corr_identity",
                                    "the same nets at the training size, 28 px"),
    "p1.fig3b_constant_slightly_smaller": ("fig18.depth5.size24.corr_constant",
                                           "the 5-layer ConvNet, which learns the identity, on the same 24 px inputs"),
    "p1.fig3b_constant_wide_range": ("fig18.depth5.size28.corr_constant",
                                     "the 5-layer ConvNet, which learns the identity, at 28 px (inside the range)"),
    "p1.fig19_grows_from_borders": ("fig19.untrained.centre_gain",
                                    f"{UNTRAINED}: the comparison's other arm, whose boundary artifacts alone fill "
                                    "the border"),
    # ------------------------------------------------------------------ Fig 4a, 4b, 23-26
    "p1.fig4a_more_constant_with_depth": ("fig4a.min_size.constant_gain.untrained", UNTRAINED),
    "p1.fig4a_less_identity_with_depth": ("fig4a.min_size.identity_loss.untrained",
                                          f"{UNTRAINED}: random convolutions lose the input with depth by themselves"),
    "p1.fig4a_small_images_accentuate": ("fig4a.size7.mean.corr_constant.untrained",
                                         f"{UNTRAINED}, against fig4a.size28.mean.corr_constant.untrained"),
    "p1.fig23_three_channels_worse": ("fig23.widest.test.corr_identity",
                                      "the widest channel count swept, which the paper says does not overfit"),
    "p1.fig4b_three_channels_fit": ("fig24.depth11.loss_ratio",
                                    "the 11-layer 3-channel nets, which the paper says fail to converge"),
    "p1.fig4b_1024_channels_identity": ("fig23.thinnest.test.corr_identity",
                                        "the 3-channel nets, which the paper says fail to copy"),
    "p1.fig24_thin_deep_fails": ("fig23.thinnest.loss_ratio",
                                 "the 5-layer 3-channel nets under the same settings, which fit"),
    "p1.fig25_wide_init_smoother": ("fig25.thin_other.init_roughness",
                                    "two 3-channel bands of other seeds (seeds + 100), against "
                                    "fig25.thin.init_roughness: the same width, so no smoother"),
    # ------------------------------------------------------------------ Fig 27-30
    "p1.fig27_larger_filters_blurrier": ("fig27.blur_step.test.sharpness_drop.untrained",
                                         f"{UNTRAINED}: larger random filters average more by themselves"),
    "p1.fig27_huge_filters_constant": ("fig27.cover.rho0.constant_gain.untrained", UNTRAINED),
    **{f"p1.fig29_identity_{s}": (f"fig29.{s}.rho0.corr_identity.untrained",
                                  f"{UNTRAINED}, initialized by the same scheme")
       for s in ("paper_default", "xavier_normal", "xavier_uniform", "kaiming_normal", "kaiming_uniform")},
    "p1.fig29_kaiming_artifacts": ("fig29.paper_default_over_fitted_others.test.mse_identity",
                                   "the paper's default scheme in Kaiming's place: its MSE to the identity over the "
                                   "largest of the other fitted non-Kaiming schemes'"),
    "p1.fig30_optimizers_differ": ("fig30.fitted.rho1.corr_identity_range",
                                   "the same fitted optimizers on the rho = 1 probes (the training digit, which every "
                                   "fitted net reproduces), against fig30.fitted.rho1.corr_identity_3std"),
    "p1.fig30_optimizers_drastic": ("fig30.fitted.rho1.corr_identity_gap",
                                    "the same fitted optimizers on the rho = 1 probes (the training digit, which every "
                                    "fitted net reproduces)"),
    # ------------------------------------------------------------------ Fig 10-22
    "p1.fig10_untrained_collapse": ("fig10.untrained.err_bottom6",
                                    "layers 1-6 of the same untrained nets, before the smoothing wipes them out"),
    "p1.fig10_shallow_keeps_information": ("fig10.shallow.err_output.untrained",
                                           f"{UNTRAINED} (their output; the untrained 20-layer net's layer 3, "
                                           "fig10.untrained20.err_layer3, reads about the same), against the raw "
                                           "input's error plus 0.2"),
    "p1.fig10_trained_curves_concave": ("fig10.untrained.cap_shaped",
                                        "the untrained 20-layer net's curve, which only rises"),
    "p1.fig10_deep_output_collapses": ("fig10.shallow.err_output",
                                       "the 3-layer ConvNet's output, which the paper says keeps the input"),
    "p1.fig10_deep_bottom_improves": ("fig10.untrained_other.err_bottom6",
                                      "an untrained band of other seeds (seeds + 100) in the trained nets' place, "
                                      "against fig10.untrained.err_bottom6: no training, no improvement"),
    "p1.fig11_untrained_wipes_input": ("fig13.mid.input_corr_beyond8",
                                       "the trained 14-layer ConvNet's layers beyond 8, which the paper says recover "
                                       "the input (Fig 13)"),
    "p1.fig12_shallow_keeps_input": ("fig12.shallow.input_corr_min.untrained",
                                     f"{UNTRAINED}: the comparison's other arm"),
    "p1.fig13_mid_not_identity": ("fig3a.shallow.test.corr_identity",
                                  "the shallow ConvNets (up to 6 layers), which learn the identity"),
    "p1.fig13_mid_recovers_upper": ("fig13.mid_untrained.input_corr_beyond8",
                                    f"{UNTRAINED}: the comparison's other arm"),
    "p1.fig14_deep_builds_digit": ("fig3a.depth5.test.corr_constant",
                                   "the 5-layer ConvNet's output on the same test inputs (a one-channel output's "
                                   "top singular map is the output itself), against fig3a.depth5.test.corr_identity"),
    "p1.fig14_layer8_clearer": ("fig11.untrained.input_corr_layer8",
                                f"{UNTRAINED}: the comparison's other arm (its gain over itself is 0, not 'slightly "
                                "more')"),
    "p1.fig15_lower_layers_change_less": ("fig15.deepest.top_layer",
                                          "the top layer of the same nets, against fig15.shallow.top_layer: the "
                                          "pattern is about the lower layers"),
    "p1.appG_lower_layers_still_move": ("fig6.bottom.widest.top_over_first",
                                        "a layer training does not move: the top layer of Fig 6's bottom-only nets, "
                                        "over their first layer's change (zero)"),
    "p1.fig15_top_layer_changes_most": ("fig15.frac_first_much_largest",
                                        "the same fraction for the first layer moving twice as much as every other"),
    "p1.fig16_linear_lower_layers_change_less": ("fig16.deepest.top_layer",
                                                 "the top layer of the same nets, against fig16.shallow.top_layer"),
    "p1.fig17_relu_fcn_lower_layers_still": ("fig17.mid.first_over_top",
                                             "the 3-hidden-layer ReLU FCN, which the paper says is not vanishing"),
    "p1.fig17_relu3_not_vanishing": ("fig17.deepest.bottom5_over_top",
                                     "the deepest ReLU FCN's lower layers, which the paper says are near zero"),
    "p1.fig20_distinction_at_15": ("fig20.separation_at_15.untrained",
                                   f"{UNTRAINED}: each depth's top layer alone, at initialization"),
    "p1.fig22_upper_half_builds_digit": ("fig22.upper_half.corr_constant.untrained",
                                         f"{UNTRAINED}: the upper half at initialization, against the same bar"),
}


def with_controls(claims: list) -> list:
    """`claims` with each one's control named at the end of its statement (a claim without one is an error)."""
    missing = [c.id for c in claims if c.id not in CONTROLS]
    if missing:
        raise KeyError(f"paper-1 claims without a control in claims/controls_paper1.py: {missing}")
    out = []
    for c in claims:
        metric, what = CONTROLS[c.id]
        out.append(replace(c, statement=f"{c.statement}. Control, which must fail it: {what} ({metric})"))
    return out
