"""Paper 3's nets, both readings of their layers.

The text's (the claims'): D's stride-8 layer has kernel 3 (Sec. 2), and ND is D without the stride and the x8
upsampling (Sec. 3: the two "only differ" by those), every other layer the same; ND_{a,b} and NLND likewise (Sec. 5:
"the same convolutional layer scheme"). Checked on the built modules.

The global field (a departure notebook 03 measures beside them, `recipes.paper3.D_FIELD_GLOBAL` / `AB_FIELD_GLOBAL`):
every output pixel of D, ND, D_{a,b} and NLD (and ND_{a,b}, NLND) depends on every input pixel at the paper's 32x32,
and D's stride-8 layer reads every pixel. With every weight set positive a net's Jacobian has a positive entry wherever
an output pixel depends on an input pixel (a LeakyReLU passes positive values unchanged, so NLD's Jacobian at a
non-negative input is its linear backbone's): the dependence pattern is the Jacobian's sparsity pattern, computed by
pushing the 1024 basis images of a one-channel 32x32 input through the net in float64. The builders' defaults (kernel
3 at stride 8, one or no convolution on the 4x4 grid) fail it, and so does the text's ND."""
import functools

import pytest
import torch
from torch import nn

from memlib import models
from memlib.recipes import paper3 as recipe

SIDE = 32                                                 # paper 3, Sec. 3, 5: 32x32 images


def dependence(build) -> torch.Tensor:
    """(output pixels, input pixels) bool: where an output pixel depends on an input pixel, at 32x32."""
    net = build().double().eval()
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, nn.Conv2d):
                m.weight.fill_(0.1)                           # every weight positive
        basis = torch.eye(SIDE * SIDE, dtype=torch.float64).reshape(-1, 1, SIDE, SIDE)
        out = torch.cat([net(chunk) for chunk in basis.split(256)])          # (inputs, 1, 32, 32)
    return (out.reshape(SIDE * SIDE, -1) > 0).T


D = functools.partial(models.network_d, filters=2, in_channels=1)
AB = functools.partial(models.conv_autoencoder, 2, 2, in_channels=1)
GD, GAB = recipe.D_FIELD_GLOBAL, recipe.AB_FIELD_GLOBAL
NETS = {"D": functools.partial(D, True, **GD), "ND": functools.partial(D, False, **GD),
        "D_ab": functools.partial(AB, **GAB), "ND_ab": functools.partial(AB, downsample=False, **GAB),
        "NLD": functools.partial(AB, nonlinear=True, **GAB),
        "NLND": functools.partial(AB, downsample=False, nonlinear=True, **GAB)}
EARLIER = {"D": functools.partial(D, True), "ND": functools.partial(D, False), "D_ab": AB,
           "NLD": functools.partial(AB, nonlinear=True)}


@pytest.mark.parametrize("name", list(NETS))
def test_every_output_pixel_depends_on_every_input_pixel_at_32(name):
    dep = dependence(NETS[name])
    assert dep.all(), f"{name}: {int((~dep).sum())} of {dep.numel()} (output, input) pixel pairs are independent"
    assert dep[0, -1] and dep[-1, 0]                      # the corners, named: top-left output, bottom-right input


@pytest.mark.parametrize("name", list(EARLIER))
def test_the_earlier_reading_does_not(name):
    """The builders' defaults (the reading before the global field): the top-left output ignores the bottom-right
    input."""
    assert not dependence(EARLIER[name])[0, -1]


@pytest.mark.parametrize("down", [False, True])
def test_the_texts_d_and_nd_do_not_see_the_whole_image(down):
    """The text's layers (3x3, ND undilated) give D and ND no global field: what the departure is measured for."""
    assert not dependence(functools.partial(D, down, **recipe.D_FIELD))[0, -1]


def test_the_stride8_layer_reads_every_pixel():
    """D's first layer (stride 8) reads every input pixel; a 3x3 filter at stride 8 reads 9 of every 64."""
    def read(first):
        with torch.no_grad():
            first.weight.fill_(1.0)
            x = torch.eye(SIDE * SIDE).reshape(-1, 1, SIDE, SIDE)
            return first(x).reshape(SIDE * SIDE, -1).abs().sum(1) > 0          # (input pixels,) read at all
    assert read(NETS["D"]()[0]).all()
    assert read(EARLIER["D"]()[0]).sum() == 11 * 11      # 4x4 cells of 3x3 pixels, the first hanging over the padding
    assert read(D(True, **recipe.D_FIELD)[0]).sum() == 11 * 11   # the text's kernel 3 reads the same 121 pixels


def test_the_field_keeps_the_shapes():
    x = torch.randn(2, 3, SIDE, SIDE)
    for down in (True, False):
        for field in (recipe.D_FIELD, GD):
            net = models.network_d(down, filters=4, **field)
            assert net(x).shape == x.shape
    for field in (recipe.D_FIELD, GD):
        assert models.network_d(filters=4, **field)[:1](x).shape[-1] == 4      # paper 3, Sec. 3: 32 -> 4
    for field in (recipe.AB_FIELD, GAB):
        for kw in ({}, {"downsample": False}, {"nonlinear": True}):
            assert models.conv_autoencoder(4, 6, **kw, **field)(x).shape == x.shape
        assert models.conv_autoencoder(4, 6, **field)[:3](x).shape == (2, 6, 4, 4)


def test_the_atrous_convolution_is_the_dilated_one():
    """AtrousConv2d computes PyTorch's dilated convolution on sub-grids (faster on a CPU): the same function."""
    from memlib.models.downsampling_nets import AtrousConv2d
    torch.manual_seed(0)
    for d, side in ((2, 16), (4, 16), (8, 16), (8, 32)):
        conv = AtrousConv2d(3, 5, 3, padding=d, dilation=d, bias=False)
        x = torch.randn(2, 3, side, side)
        ref = nn.functional.conv2d(x, conv.weight, None, 1, d, d)
        assert torch.allclose(conv(x), ref, atol=1e-5)


# ---------------------------------------------------------------- the text's layers, on the built modules
def _layers(net) -> list[tuple]:
    """Each module of a built net as (kind, in, out, kernel, stride, padding, dilation, bias, upsampling scale)."""
    out = []
    for m in net:
        if isinstance(m, nn.Conv2d):
            out.append(("conv", m.in_channels, m.out_channels, m.kernel_size, m.stride, m.padding, m.dilation,
                        m.bias is not None))
        elif isinstance(m, nn.Upsample):
            out.append(("up", m.scale_factor, m.mode))
        else:
            out.append((type(m).__name__,))
    return out


def _without_the_downsampling(d_layers: list[tuple]) -> list[tuple]:
    """D's layers with every stride set to 1 and the upsampling removed: ND as Sec. 3 / Sec. 5 define it."""
    return [(*l[:4], (1, 1), *l[5:]) if l[0] == "conv" else l for l in d_layers if l[0] != "up"]


@pytest.mark.parametrize("nonlinear", [False, True])
def test_the_texts_nd_is_d_without_the_stride_and_the_upsampling(nonlinear):
    """Paper 3, Sec. 3: ND differs from D only by D's stride-8 first layer and its x8 upsampling (Fig 2a); D's
    stride-8 layer is a 3x3 convolution (Sec. 2: "kernel size 3"). The same for the nonlinear form."""
    build = functools.partial(models.network_d, filters=8, nonlinear=nonlinear, **recipe.D_FIELD)
    d, nd = _layers(build(True)), _layers(build(False))
    assert d[0][:5] == ("conv", 3, 8, (3, 3), (8, 8))                   # paper 3, Sec. 2-3: 3x3, stride 8
    assert [l for l in d if l[0] == "up"] == [("up", 8.0, "nearest")]  # paper 3, Sec. 3: nearest, scale 8
    assert not [l for l in nd if l[0] == "up"] and all(l[4] == (1, 1) for l in nd if l[0] == "conv")
    assert nd == _without_the_downsampling(d)                           # everything else the same, undilated too
    assert all(l[6] == (1, 1) for l in nd if l[0] == "conv")


@pytest.mark.parametrize("kind", ["linear", "nonlinear"])
def test_the_texts_nd_ab_is_d_ab_without_the_strides_and_the_upsampling(kind):
    """Paper 3, Sec. 5: "Our non-downsampling networks have the same convolutional layer scheme as the downsampling
    networks": ND_{a,b} (NLND) is D_{a,b} (NLD) with its three stride-2 convolutions at stride 1 and no upsampling,
    built as notebook 03 and its explorer build them (`widgets.downsampling.network_builder`, the recipe's layers)."""
    from memlib.widgets import downsampling as explore
    names = ("D", "ND") if kind == "linear" else ("NLD", "NLND")
    kw = dict(ab=(4, 6), nd_ab=(4, 6), nl_ab=(4, 6))
    d, nd = (_layers(explore.network_builder(n, **kw)()) for n in names)
    assert [l[4] for l in d if l[0] == "conv"][:3] == [(2, 2)] * 3        # paper 3, Sec. 5: 3 convs of stride 2
    assert [l for l in d if l[0] == "up"] == [("up", 8.0, "nearest")]    # paper 3, Sec. 5: x8 upsampling
    assert nd == _without_the_downsampling(d)


def test_the_global_field_is_the_departure_listed_beside_the_texts_layers():
    """The dilated ND and D's 15x15 stride-8 layer are not the text's: notebook 03's departures table (generated from
    the recipe at every profile) lists them with the paper's value beside ours, and the notebook trains them."""
    from memlib.runtime import PROFILES
    assert recipe.D_FIELD["kernel"] == 3 and not recipe.D_FIELD["atrous"] and not recipe.AB_FIELD["atrous"]
    assert GD["kernel"] == 15 and GD["atrous"] and GAB["atrous"]
    for profile in PROFILES:
        rows = {r["setting"]: r for r in recipe.SETTINGS.departures(profile)}
        row = next(r for s, r in rows.items() if "dilation" in s and "stride-8 kernel" in s)
        assert "kernel 3" in row["paper"] and "without the stride" in row["paper"]
        assert "15x15" in row["ours"] and "dilated" in row["ours"] and row["why"]
        assert "kernel 3" in rows["layers of D and ND (Fig 2a)"]["paper"]
    import json
    from pathlib import Path
    nb = json.loads((Path(__file__).parents[1] / "notebooks" / "03_downsampling_eigenvectors.ipynb").read_text())
    code = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "run.departures_from(recipe.SETTINGS)" in code and "run.departures_table()" in code
    assert "D_FIELD_GLOBAL = recipe.D_FIELD_GLOBAL" in code and "AB_FIELD_GLOBAL = recipe.AB_FIELD_GLOBAL" in code
    assert code.count("field=AB_FIELD_GLOBAL") == 2                     # Fig 6's ND_{4,4} and Fig 7's NLND


def test_the_field_table_reads_each_claims_metric_and_bar_under_both_readings():
    from memlib import claims
    by_id = {c.id: c for c in claims.CLAIMS}
    table = recipe.field_table()
    for label, claim, *keys in recipe.FIELD_ROWS:
        for k in keys:
            for infix in ("", recipe.GLOBAL_FIELD):
                assert "{" + k.format(field=infix) + "}" in table, (label, infix)
        if claim:                     # the row's first metric, under the text's layers, is what its claim tests
            metric = keys[0].format(field="").split(":")[0]
            assert by_id[claim].metric == metric, (label, claim)
            assert (by_id[claim].threshold == f"{metric}.bar") == (claim in recipe._BARRED), claim
    assert "**{fig2.ND.abs_corr_to_input_all:.2f}" in table
    assert "{fig2.global_field.ND.abs_corr_to_input_all:.2f} (bar {fig2.global_field.ND.abs_corr_to_input_all.bar" in table


def test_fig3s_stops_are_snapshots_of_one_training():
    """Notebook 03 trains D and ND once to the last stop and keeps the weights at each stop: with Adam at a constant
    rate (Sec. 3's nets: recipes.paper3.DS_LR, no schedule) they are the weights of a training stopped there."""
    from memlib.harness.store import build_model
    from memlib.runtime import set_device
    from memlib.train import fit_many
    set_device("cpu")
    x = torch.rand(1, 3, 16, 16)
    build = functools.partial(models.network_d, False, filters=4, **recipe.D_FIELD)
    fit_kw = dict(lr=recipe.DS_LR, optimizer=recipe.OPTIMIZER, progress=False)
    long = [build_model(build, seed=s, init=recipe.DEFAULT_INIT) for s in (0, 1)]
    hists = fit_many(long, x, seeds=[0, 1], steps=30, weights_at=(10, 30), **fit_kw)
    short = [build_model(build, seed=s, init=recipe.DEFAULT_INIT) for s in (0, 1)]
    fit_many(short, x, seeds=[0, 1], steps=10, **fit_kw)
    for m_long, h, m_short in zip(long, hists, short):
        at10 = h.model_at(m_long, 10)
        for (name, p), q in zip(at10.named_parameters(), m_short.parameters()):
            assert torch.allclose(p, q, rtol=1e-5, atol=1e-7), name
        assert not torch.allclose(next(at10.parameters()), next(m_long.parameters()))   # 30 steps moved on
